"""Nobles (RULINGS §8): Incite Rebellion, Usurp Control and Relocate, and the map they are given on.

Importing this package registers its commands (`commands`) and its `yak resolve incite|usurp|
relocate-discovery` checks (`cli`). Front ends and other areas use the names below.
"""

from typing import TYPE_CHECKING

from yak_tui.areas.nobles import cli, commands  # noqa: F401  (registers)
from yak_tui.areas.nobles import words as _words  # noqa: F401  (registers how its orders read)
from yak_tui.kernel.play.lazy import lazy_exports

if TYPE_CHECKING:  # the read models load when first used (kernel/play/lazy.py)
    from yak_tui.areas.nobles.read import (
        KINGDOM_PALETTE,
        PC_GLYPHS,
        STATES,
        Claim,
        Commander,
        CommandOdds,
        HexCell,
        MapView,
        MovePreview,
        Place,
        ProvinceLabel,
        RelocateCell,
        RelocateView,
        TargetsView,
        commander_of,
        commanders,
        describe,
        distance,
        kingdom_colours,
        map_data,
        map_view,
        move_preview,
        movers_at,
        relocate_params,
        relocate_view,
        targets_view,
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

__getattr__ = lazy_exports(__name__, "yak_tui.areas.nobles.read", __all__)  # the names not defined above
