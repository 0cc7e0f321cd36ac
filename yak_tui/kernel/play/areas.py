"""The one list of area packages. Importing an area's package registers its commands, year-start
steps and `yak resolve` checks; the kernel names them here as strings and imports them when a
registry is first needed, so the kernel itself imports no area.
"""

from __future__ import annotations

AREA_PACKAGES = (
    "yak_tui.areas.court",
    "yak_tui.areas.espionage",
    "yak_tui.areas.economy",
    "yak_tui.areas.warfare",
    "yak_tui.areas.magic",
    "yak_tui.areas.nobles",
)

__all__ = ["AREA_PACKAGES"]
