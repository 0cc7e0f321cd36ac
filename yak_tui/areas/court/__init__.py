"""The court: notes, rolls, the season and undo, the SSH roster, and what every screen shows first
(the dashboard, the chronicle, identities, orders, export).

Importing this package registers the court's commands, year-start steps and `yak resolve rtd`
check; front ends and other areas use only the names below.
"""

from typing import TYPE_CHECKING

from yak_tui.areas.court import cli as _cli  # noqa: F401  (registers `yak resolve rtd`)
from yak_tui.areas.court import gm as _gm  # noqa: F401  (registers the GM's acts)
from yak_tui.areas.court import house_rules as _house_rules  # noqa: F401  (registers rules-set, rules-clear)
from yak_tui.areas.court import succession as _succession  # noqa: F401  (registers gm-death)
from yak_tui.areas.court import words as _words  # noqa: F401  (registers how its orders read)
from yak_tui.areas.court.commands import on_event, schedule_event, upkeep_due
from yak_tui.areas.court.gm import EDITABLE as EDITABLE_TABLES
from yak_tui.areas.court.seats import roster, user_for_fingerprint, web_login, web_seat_gone
from yak_tui.kernel.play.identity import identity_label
from yak_tui.kernel.play.lazy import lazy_exports

if TYPE_CHECKING:  # the read models load when first used (kernel/play/lazy.py)
    from yak_tui.areas.court.read import (
        HoldingRow,
        IdentityChoice,
        KingdomRow,
        OrderRow,
        SearchItem,
        Series,
        holdings,
        identities,
        kingdom_rows,
        my_orders,
        order_queue,
        search_items,
        short_name,
        treasury_history,
    )
    from yak_tui.areas.court.read_chronicle import (
        PUBLIC_VIEWER,
        ChronicleView,
        EntryView,
        EntryViews,
        chronicle_view,
        entry_view,
        export_audiences,
        export_text,
        latest_entries,
    )
    from yak_tui.areas.court.read_season import (
        AdvancePreview,
        DashboardView,
        DueItem,
        HistoryView,
        OrdersDue,
        ReadinessView,
        ReportLine,
        ReportsView,
        SeasonRow,
        SeatRow,
        StepView,
        advance_preview,
        dashboard_view,
        due_list,
        history_view,
        orders_due_lines,
        readiness_view,
        report_lines,
        reports_view,
    )

__all__ = [
    "EDITABLE_TABLES",
    "PUBLIC_VIEWER",
    "AdvancePreview",
    "ChronicleView",
    "DashboardView",
    "DueItem",
    "EntryView",
    "EntryViews",
    "HistoryView",
    "HoldingRow",
    "IdentityChoice",
    "KingdomRow",
    "OrderRow",
    "OrdersDue",
    "ReadinessView",
    "ReportLine",
    "ReportsView",
    "SearchItem",
    "SeasonRow",
    "SeatRow",
    "Series",
    "StepView",
    "advance_preview",
    "chronicle_view",
    "dashboard_view",
    "due_list",
    "entry_view",
    "export_audiences",
    "export_text",
    "history_view",
    "holdings",
    "identities",
    "identity_label",
    "kingdom_rows",
    "latest_entries",
    "my_orders",
    "on_event",
    "order_queue",
    "orders_due_lines",
    "readiness_view",
    "report_lines",
    "reports_view",
    "roster",
    "schedule_event",
    "search_items",
    "short_name",
    "treasury_history",
    "upkeep_due",
    "user_for_fingerprint",
    "web_login",
    "web_seat_gone",
]

# the names not defined above
__getattr__ = lazy_exports(
    __name__,
    ("yak_tui.areas.court.read", "yak_tui.areas.court.read_chronicle", "yak_tui.areas.court.read_season"),
    __all__,
)
