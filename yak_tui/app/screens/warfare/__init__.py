"""The warfare area's screens, panels and dialogs.

What the app shows of the area: `SCREENS` and `ACTIONS` (see `yak_tui.app.screens`)."""

from __future__ import annotations

from yak_tui.app.screens import AreaAction, NavScreen

SCREENS: dict[str, NavScreen] = {"sieges": NavScreen("warfare.screen", "SiegesScreen", "s", "Sieges")}
ACTIONS: tuple[AreaAction, ...] = ()
