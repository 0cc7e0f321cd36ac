"""Espionage (RULINGS §7): NPC spy missions, private orders, counter-spies, infiltrations and
their effects. Importing the package registers its commands, its season and year-start steps,
its upkeep surcharge, the `yak resolve spy` check and the check of its mission table; front ends
and other areas use only the names below."""

from typing import TYPE_CHECKING

from yak_tui.areas.espionage import cli as _cli  # noqa: F401  (registers `yak resolve spy`)
from yak_tui.areas.espionage import commands as _commands  # noqa: F401  (registers the commands)
from yak_tui.areas.espionage import words as _words  # noqa: F401  (registers how its orders read)
from yak_tui.areas.espionage import year_start as _year_start  # noqa: F401  (registers the steps)
from yak_tui.areas.espionage.effects import (
    ACADEMY_INTERFERENCE,
    INFILTRATION,
    MORALE_PENALTY,
    SAILOR_RECRUITMENT_CUT,
)
from yak_tui.areas.espionage.fields import MISSION_FIELDS, field_options, mission_needs
from yak_tui.areas.espionage.kinds import KINDS, MissionKind  # loads kinds.py, which fills KINDS
from yak_tui.areas.espionage.rules import EspionageInputError, Mission, UnknownMission, catalogue, mission_odds
from yak_tui.areas.espionage.state import npc_sales_tax_divisor, smuggling_bonus
from yak_tui.kernel.play.lazy import lazy_exports
from yak_tui.kernel.world.tables import table_check

# `yak rules set` refuses house rules under which a mission has no code to handle it.
table_check("espionage-missions")(catalogue)

if TYPE_CHECKING:  # the read models load when first used (kernel/play/lazy.py)
    from yak_tui.areas.espionage.read import (
        FAMILY_LABELS,
        BoardView,
        Choice,
        DialogOdds,
        EffectLine,
        MissionLine,
        OrderLine,
        board_view,
        mission_dialog_odds,
        mission_lines,
        order_odds,
        target_choices,
    )

__all__ = [
    "ACADEMY_INTERFERENCE",
    "FAMILY_LABELS",
    "INFILTRATION",
    "KINDS",
    "MISSION_FIELDS",
    "MORALE_PENALTY",
    "SAILOR_RECRUITMENT_CUT",
    "BoardView",
    "Choice",
    "DialogOdds",
    "EffectLine",
    "EspionageInputError",
    "Mission",
    "MissionKind",
    "MissionLine",
    "OrderLine",
    "UnknownMission",
    "board_view",
    "catalogue",
    "field_options",
    "mission_dialog_odds",
    "mission_lines",
    "mission_needs",
    "mission_odds",
    "npc_sales_tax_divisor",
    "order_odds",
    "smuggling_bonus",
    "target_choices",
]

__getattr__ = lazy_exports(__name__, "yak_tui.areas.espionage.read", __all__)  # the names not defined above
