"""Nobles (RULINGS §8): Incite Rebellion, Usurp Control and Relocate, and the map they are given on.

Importing this package registers its commands (`commands`, `relocate`) and its `yak resolve incite|usurp|
relocate-discovery` checks (`cli`). Front ends and other areas use the names below.
"""

from typing import TYPE_CHECKING

from yak_tui.areas.nobles import cli, commands, relocate  # noqa: F401  (registers)
from yak_tui.areas.nobles import words as _words  # noqa: F401  (registers how its orders read)
from yak_tui.kernel.play.lazy import lazy_exports

if TYPE_CHECKING:  # the read models load when first used (kernel/play/lazy.py)
    from yak_tui.areas.nobles.command_read import (
        STATES,
        Commander,
        CommandOdds,
        RelocateCell,
        RelocateView,
        TargetsView,
        commander_of,
        commanders,
        distance,
        relocate_params,
        relocate_view,
        targets_view,
    )
    from yak_tui.areas.nobles.read import (
        KINGDOM_PALETTE,
        PC_GLYPHS,
        Claim,
        HexCell,
        MapView,
        MovePreview,
        Place,
        ProvinceLabel,
        describe,
        kingdom_colours,
        map_data,
        map_view,
        move_preview,
        movers_at,
    )

__all__ = [
    "KINGDOM_PALETTE",
    "PC_GLYPHS",
    "STATES",
    "Claim",
    "CommandOdds",
    "Commander",
    "HexCell",
    "MapView",
    "MovePreview",
    "Place",
    "ProvinceLabel",
    "RelocateCell",
    "RelocateView",
    "TargetsView",
    "commander_of",
    "commanders",
    "describe",
    "distance",
    "kingdom_colours",
    "map_data",
    "map_view",
    "move_preview",
    "movers_at",
    "relocate_params",
    "relocate_view",
    "targets_view",
]

# The names not defined above: the read models, loaded when first used.
__getattr__ = lazy_exports(__name__, ("yak_tui.areas.nobles.read", "yak_tui.areas.nobles.command_read"), __all__)
