"""Nobles (RULINGS §8): Incite Rebellion, Usurp Control and Relocate, and the map they are given on.

Importing this package registers its commands (`commands`) and its `yak resolve incite|usurp|
relocate-discovery` checks (`cli`). Front ends and other areas use the names below.
"""

from yak_tui.areas.nobles import cli, commands  # noqa: F401  (registers)
from yak_tui.areas.nobles.read import (
    PC_GLYPHS,
    STATES,
    Commander,
    CommandOdds,
    HexCell,
    MapView,
    Place,
    RelocateCell,
    RelocateView,
    TargetsView,
    commander_of,
    commanders,
    describe,
    distance,
    map_data,
    map_view,
    relocate_params,
    relocate_view,
    targets_view,
)

__all__ = [
    "PC_GLYPHS",
    "STATES",
    "CommandOdds",
    "Commander",
    "HexCell",
    "MapView",
    "Place",
    "RelocateCell",
    "RelocateView",
    "TargetsView",
    "commander_of",
    "commanders",
    "describe",
    "distance",
    "map_data",
    "map_view",
    "relocate_params",
    "relocate_view",
    "targets_view",
]
