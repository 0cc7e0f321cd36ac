"""The magic area's screens, panels and dialogs.

What the app shows of the area: `SCREENS` and `ACTIONS` (see `yak_tui.app.screens`)."""

from __future__ import annotations

from yak_tui.app.screens import AreaAction, NavScreen

SCREENS: dict[str, NavScreen] = {}
# A casting is a pushed screen, not a nav bar one: `g` opens it from anywhere (not for an observer).
ACTIONS: tuple[AreaAction, ...] = (
    AreaAction(
        "cast",
        "g",
        "Cast a spell",
        "Power, Control, Resolution with odds before each stage (g)",
        "magic.screen",
        "CastingScreen",
        lambda identity: not identity.is_observer,
    ),
)
