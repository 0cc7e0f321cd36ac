"""The court's read models of the season: the dashboard (what is due, who is ready), the advance
preview, the season's reports and the history of past seasons.

Plain records, already filtered for one viewer, as in `read`. No Textual here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from yak_tui.areas.court.read import (
    HoldingRow,
    KingdomRow,
    OrderRow,
    Series,
    holdings,
    kingdom_rows,
    my_orders,
    order_queue,
    treasury_history,
)
from yak_tui.areas.court.read_chronicle import EntryView, latest_entries
from yak_tui.kernel.errors import ValidationError, YakError
from yak_tui.kernel.play.identity import Identity, identity_label
from yak_tui.kernel.play.views import Choice
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.season.post import filer_name
from yak_tui.kernel.world.model import World
from yak_tui.store.files import collector_paused

if TYPE_CHECKING:
    from yak_tui.store.storage import WorldFile


class DueItem(NamedTuple):
    kind: str
    text: str
    urgent: bool = False


class SeatRow(NamedTuple):
    identity: str
    label: str
    filed: int
    status: str  # "ready", "filed", "no orders"
    missed: int = 0  # seasons in a row before this one it sent nothing


class ReadinessView(NamedTuple):
    """The season's orders deadline and the seats' state (`kernel.season.readiness`): every seat for the
    GM and the Kings, his own for a player, none for an observer. `in_use`: a deadline is set or
    someone said he is ready (before that, NMR means nothing)."""

    deadline: str  # in the viewer's zone, and how far off: "2026-12-07 14:00 EST (America/New_York), in 2 days 3 h"
    in_use: bool
    seats: tuple[SeatRow, ...]
    ready: bool  # the viewer has said he is ready


def readiness_view(world: World, viewer: Identity) -> ReadinessView:
    from yak_tui.kernel.season.readiness import in_use, season_status

    status = season_status(world, viewer)
    rows = [
        SeatRow(str(r["identity"]), str(r["label"]), int(r["filed"]), str(r["status"]), int(r["missed"]))
        for r in status["seats"]
    ]
    if viewer.is_observer:
        rows = []
    elif viewer.is_player:
        rows = [r for r in rows if r.identity == str(viewer)]
    ready = str(viewer) in world.meta.get("ready", [])
    return ReadinessView(str(status["deadline_shown"]), in_use(status), tuple(rows), ready)


class OrdersDue(NamedTuple):
    """The dashboard's lines of what is due made from the orders (they read no log): the waiting
    queue's line, first, and the viewer's own orders' line, last."""

    head: tuple[DueItem, ...] = ()
    tail: tuple[DueItem, ...] = ()


class DashboardView(NamedTuple):
    world_name: str
    date: str
    season: str
    year: int
    year_start_in: int
    identity: str
    identity_label: str
    due: tuple[DueItem, ...]
    kingdoms: tuple[KingdomRow, ...]
    history: tuple[Series, ...]
    chronicle: tuple[EntryView, ...]
    holdings: tuple[HoldingRow, ...]
    queue: tuple[OrderRow, ...]
    my_orders: tuple[OrderRow, ...]
    due_pending: bool = False  # `due` not worked out yet (see dashboard_view)
    readiness: ReadinessView = ReadinessView("", False, (), False)
    due_orders: OrdersDue | None = None  # the lines of `due` made from the orders, kept for `before`
    # `chronicle` not read yet: the world's chronicle is still bytes, and a first frame does not wait
    # for it (`World.deferred`); what is due brings it (`latest_entries`).
    chronicle_pending: bool = False


def due_list(world: World, viewer: Identity, orders: OrdersDue | None = None) -> tuple[DueItem, ...]:
    """What is due this season for this viewer (`session.due_for`), as the dashboard shows it: the
    orders that wait for him as one line first (its queue panel lists them), his own as one line,
    and his filing state left to the readiness panel. `orders`: those lines already made on a world
    whose orders this one shares (`orders_due_lines`)."""
    from yak_tui.kernel.play.commands import load_command_modules
    from yak_tui.kernel.season.session import reported_due

    load_command_modules()
    made = orders_due_lines(world, viewer) if orders is None else orders
    items = [
        DueItem(str(i.get("kind", "due")), str(i.get("text", "")), bool(i.get("urgent")))
        for i in reported_due(world, viewer)
    ]
    return tuple(sorted([*made.head, *items, *made.tail], key=lambda i: not i.urgent))


def orders_due_lines(world: World, viewer: Identity) -> OrdersDue:
    """The lines of `due_list` made from the orders (`session.orders_due`)."""
    from yak_tui.kernel.play.commands import load_command_modules
    from yak_tui.kernel.season.session import FILED, QUEUE, orders_due

    load_command_modules()
    # Of the order lines it keeps only their count and what they ask: no odds worked out (they were
    # most of a GM's dashboard after each write at 100x: 500 orders, issue 30).
    due = orders_due(world, viewer, odds=False)
    queued = sum(1 for i in due if i.get("kind") == QUEUE)
    head = (
        (
            DueItem(
                "orders",
                f"{queued} order{'s' if queued != 1 else ''} waiting for "
                f"{'you' if not viewer.is_gm else 'adjudication'}",
                True,
            ),
        )
        if queued
        else ()
    )
    waiting = [i for i in due if i.get("kind") == FILED]
    tail: tuple[DueItem, ...] = ()
    if len(waiting) == 1:
        tail = (DueItem("orders", f"Your order to {waiting[0]['what']} waits for {waiting[0]['waits_for']}"),)
    elif waiting:
        tail = (DueItem("orders", f"{len(waiting)} of your orders wait for their adjudicators"),)
    return OrdersDue(head, tail)


# The logs: what a note or a roll writes (with the meta document's bookkeeping). Of the dashboard's
# parts only the latest chronicle entries, what is due (a pending spell consequence is a chronicle
# entry) and the readiness line (its deadline reads "in 2 days") read them or the clock.
LOGS = frozenset({"chronicle", "dice", "reports"})


def dashboard_view(
    world: World,
    viewer: Identity,
    chronicle_limit: int = 8,
    due: bool = True,
    before: tuple[World, DashboardView] | None = None,
) -> DashboardView:
    """Everything the season dashboard shows. With `due=False` the due list is left for later
    (`due_list`): it needs every rule module's due reporter imported, which a first paint need
    not wait for; so is the latest chronicle when the world's chronicle is not parsed yet (a first
    read: `World.deferred`), as the logs are most of a big save's parse.

    `before`: the view built for this viewer on a world this one follows, both never changed in place
    (the app's). When only the logs were written since (`World.written_only`), the parts that read
    none of them are kept (the same objects, so a panel sees them unchanged and is not redrawn): at
    100x the order queue, the kingdoms and the holdings are most of a GM's dashboard after a note."""
    if before is not None:
        old_world, old = before
        if old.identity == str(viewer) and old.due_pending == (not due) and world.written_only(old_world, LOGS):
            return old._replace(
                due=due_list(world, viewer, old.due_orders) if due else (),
                chronicle=latest_entries(world, viewer, chronicle_limit),
                chronicle_pending=False,
                readiness=readiness_view(world, viewer),
            )
    date = world.date
    spring = GameDate(date.year + 1, 0)
    orders = orders_due_lines(world, viewer) if due else None
    chronicle_later = not due and world.deferred("chronicle")
    return DashboardView(
        world_name=world.name,
        date=date.label(),
        season=date.season,
        year=date.year,
        year_start_in=date.seasons_until(spring),
        identity=str(viewer),
        identity_label=identity_label(world, viewer),
        due=due_list(world, viewer, orders) if due else (),
        kingdoms=kingdom_rows(world, viewer),
        history=treasury_history(world, viewer),
        chronicle=() if chronicle_later else latest_entries(world, viewer, chronicle_limit),
        holdings=holdings(world, viewer),
        queue=order_queue(world, viewer),
        my_orders=my_orders(world, viewer),
        due_pending=not due,
        readiness=readiness_view(world, viewer),
        due_orders=orders,
        chronicle_pending=chronicle_later,
    )


class StepView(NamedTuple):
    step: str
    title: str
    sums: tuple[tuple[str, float], ...]
    lines: tuple[str, ...]


class AdvancePreview(NamedTuple):
    source: str
    target: str
    year_start: bool
    blocked: tuple[str, ...]
    steps: tuple[StepView, ...]
    # Orders still waiting for their adjudicator ("filer: order"), and the seats that sent none.
    waiting: tuple[str, ...] = ()
    no_orders: tuple[str, ...] = ()


def advance_preview(preview: Mapping[str, Any], world: World) -> AdvancePreview:
    """Shape `session.preview(save)` (exactly what year start will do) for the confirmation dialog."""
    date = world.date
    steps = tuple(
        StepView(
            str(s.get("step", "")),
            str(s.get("title", "")),
            tuple((str(k), float(v)) for k, v in (s.get("sums") or {}).items()),
            tuple(str(line) for line in s.get("lines", [])),
        )
        for s in preview.get("steps", [])
    )
    return AdvancePreview(
        source=str(preview.get("from", date.label())),
        target=str(preview.get("to", date.next().label())),
        year_start=bool(preview.get("year_start")),
        blocked=tuple(preview.get("blocked", [])),
        steps=steps,
        waiting=tuple(f"{filer_name(world, o)}: {o['text']}" for o in preview.get("waiting_orders", [])),
        no_orders=tuple(str(label) for label in preview.get("no_orders", [])),
    )


class ReportLine(NamedTuple):
    kind: str  # "heading", "section", "item", "detail"
    text: str


class ReportsView(NamedTuple):
    """The season reports the viewer may read: the seasons (newest first), the recipients of the
    chosen season (his own first, then the public post), and the chosen report's lines."""

    seasons: tuple[Choice, ...]
    recipients: tuple[Choice, ...]
    season: str
    recipient: str
    lines: tuple[ReportLine, ...]


def _recipient_label(world: World, key: str) -> str:
    from yak_tui.kernel.season.reports import PUBLIC_RECIPIENT

    if key == PUBLIC_RECIPIENT:
        return "The season post (public)"
    try:
        return identity_label(world, Identity.parse(key))
    except ValidationError:
        return key


def report_lines(report: Mapping[str, Any]) -> tuple[ReportLine, ...]:
    """A stored report as lines to draw: its heading, the GM's narrative, then each section that says
    something (an order template's lines as they are to be copied), then its closing lines."""
    lines = [ReportLine("heading", str(report.get("heading", "")))]
    if report.get("narrative"):
        lines += [ReportLine("detail", paragraph) for paragraph in str(report["narrative"]).split("\n") if paragraph]
    for section in report.get("sections", []):
        items = section.get("items", [])
        if not items:
            continue
        lines.append(ReportLine("section", str(section.get("title", ""))))
        for item in items:
            lines.append(ReportLine("detail" if section.get("kind") == "code" else "item", str(item.get("text", ""))))
            lines.extend(ReportLine("detail", str(detail)) for detail in item.get("details", []))
    lines += [ReportLine("detail", str(line)) for line in report.get("footer", [])]
    return tuple(lines)


def reports_view(
    world: World, viewer: Identity, season: str | None = None, recipient: str | None = None
) -> ReportsView:
    """The viewer's reports (`kernel.season.reports.reports_for`: a player his own and the public post, a
    King his kingdom's, the GM every one, an observer the public post), for the season chosen (the
    last one closed by default) and the recipient chosen (the viewer's own by default)."""
    from yak_tui.kernel.season.reports import reported_seasons, reports_for

    seasons = tuple(Choice(d.label(), d.label()) for d in reversed(reported_seasons(world)))
    if not seasons:
        return ReportsView((), (), "", "", ())
    chosen_season = season if season in {c.value for c in seasons} else seasons[0].value
    found = reports_for(world, viewer, chosen_season)
    recipients = tuple(Choice(str(r["recipient"]), _recipient_label(world, str(r["recipient"]))) for r in found)
    report = next((r for r in found if r["recipient"] == recipient), found[0] if found else None)
    if report is None:
        return ReportsView(seasons, recipients, chosen_season, "", ())
    return ReportsView(seasons, recipients, chosen_season, str(report["recipient"]), report_lines(report))


class SeasonRow(NamedTuple):
    label: str
    backup: str  # the backup's file name; "" for the current season (the save itself)


class HistoryView(NamedTuple):
    """The seasons the backups keep (oldest first, the current one last) and what changed between
    the two chosen, as `yak diff` tells it (`kernel.season.history`)."""

    seasons: tuple[SeasonRow, ...]
    before: str
    after: str
    lines: tuple[str, ...]
    problem: str = ""


# At 1000x the GM's view is hundreds of thousands of objects, none of them garbage: the collector is
# paused while they are made (it walked them again and again: ~30% of the map's build).
@collector_paused(freeze=False)
def history_view(
    save: WorldFile, world: World, viewer: Identity, before: str | None = None, after: str | None = None
) -> HistoryView:
    """The history of `save` (whose current state is `world`): by default the last season kept
    against the current one."""
    from yak_tui.kernel.season.history import diff_worlds, kept_seasons, season_state

    kept = kept_seasons(save, world.date)
    rows = tuple(SeasonRow(k.label, k.backup.name if k.backup else "") for k in kept)
    labels = [r.label for r in rows]
    after = after if after in labels else labels[-1]
    before = before if before in labels else labels[-2] if len(labels) > 1 else labels[-1]
    if len(labels) < 2:
        return HistoryView(
            rows, before, after, (), "No season is kept yet: each advance backs up the season it closes."
        )
    try:
        older = World(season_state(save, before, world.data))  # the app's world: the save is not read again
        newer = world if after == world.date.label() else World(season_state(save, after, world.data))
    except YakError as error:
        return HistoryView(rows, before, after, (), str(error))
    return HistoryView(rows, before, after, tuple(diff_worlds(older, newer, viewer).lines()))
