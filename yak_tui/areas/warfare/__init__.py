"""Warfare (RULINGS §2–§3): raids, capture, looting, sieges, messengers, smuggling, recruiting.

Importing this package registers its commands (`raids`, `sieges`), its year-start step
(`year_start`) and its `yak resolve` checks (`cli`). Front ends and other areas use the names below.
"""

from typing import TYPE_CHECKING

from yak_tui.areas.warfare import battles, captives, cli, fleets, guards, raids, sieges, sponsored, year_start  # noqa: F401  (registers)
from yak_tui.areas.warfare import words as _words  # noqa: F401  (registers how its orders read)
from yak_tui.areas.warfare.raids import looted_income_recipient
from yak_tui.areas.warfare.rules import fort_name
from yak_tui.areas.warfare.sieges import recruit_refusal_at
from yak_tui.kernel.play.lazy import lazy_exports

if TYPE_CHECKING:  # the read models load when first used (kernel/play/lazy.py)
    from yak_tui.areas.warfare.read import (
        FortView,
        PlaceVerdicts,
        PlaceView,
        SiegeCard,
        SiegeMonitor,
        SiegePlan,
        place_verdicts,
        siege_forces,
        siege_monitor,
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

__getattr__ = lazy_exports(__name__, "yak_tui.areas.warfare.read", __all__)  # the names not defined above
