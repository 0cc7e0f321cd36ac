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
    rules,
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
from yak_tui.kernel.world.fields import UNIT_KINDS
from yak_tui.kernel.world.tables import RulesTableError, table, table_check


@table_check("warfare-unit-kinds")
def _unit_kinds() -> None:
    """Every unit kind the warfare table names is one of the world's unit kinds (`UNIT_KINDS`)."""
    warfare = table("warfare")
    named = {
        ("raid", "raider_units"): warfare["raid"]["raider_units"],
        ("raid", "coastal_raider_units"): warfare["raid"]["coastal_raider_units"],
        ("world", "sea_units"): warfare["world"]["sea_units"],
        ("world", "scout_units"): warfare["world"]["scout_units"],
        ("guard", "kind"): [warfare["guard"]["kind"]],
    }
    for (part, key), kinds in named.items():
        for kind in kinds:
            if rules.normalise_kind(str(kind)) not in UNIT_KINDS:
                raise RulesTableError(f"warfare [{part}] {key}: {kind!r} is not a unit kind ({', '.join(UNIT_KINDS)})")


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
