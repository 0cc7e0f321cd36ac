"""Warfare (RULINGS §2–§3): raids, capture, looting, sieges, messengers, smuggling, recruiting.

Importing this package registers its commands (`raids`, `sieges`), its year-start step
(`year_start`) and its `yak resolve` checks (`cli`). Front ends and other areas use the names below.
"""

from typing import TYPE_CHECKING

from yak_tui.areas.warfare import (  # noqa: F401  (registers)
    battles,
    captives,
    cli,
    fleets,
    guards,
    plunder,
    raids,
    siege_lines,
    siege_recruits,
    sieges,
    sponsored,
    treasuries,
    year_start,
)
from yak_tui.areas.warfare import words as _words  # noqa: F401  (registers how its orders read)
from yak_tui.areas.warfare.siege_recruits import recruit_refusal_at
from yak_tui.areas.warfare.siege_rules import fort_name
from yak_tui.areas.warfare.treasuries import looted_income_recipient
from yak_tui.kernel.play.lazy import lazy_exports

if TYPE_CHECKING:  # the read models load when first used (kernel/play/lazy.py)
    from yak_tui.areas.warfare.read import (
        FortView,
        PlaceView,
        SiegeCard,
        SiegeMonitor,
        siege_monitor,
    )
    from yak_tui.areas.warfare.read_forces import (
        PlaceVerdicts,
        SiegePlan,
        place_verdicts,
        siege_forces,
        siege_plan,
    )

__all__ = [
    "FortView",
    "PlaceVerdicts",
    "PlaceView",
    "SiegeCard",
    "SiegeMonitor",
    "SiegePlan",
    "fort_name",
    "looted_income_recipient",
    "place_verdicts",
    "recruit_refusal_at",
    "siege_forces",
    "siege_monitor",
    "siege_plan",
]

# the names not defined above
__getattr__ = lazy_exports(__name__, ("yak_tui.areas.warfare.read", "yak_tui.areas.warfare.read_forces"), __all__)
