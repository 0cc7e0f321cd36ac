"""Where the app goes: the areas' screens and actions (each area's package declares its own, see
`yak_tui.app.screens`) and the nav bar's order, declared here once. The app's modes, its screen keys,
the nav bar, the side screens' keys, the palette's "Go to" lines and the warm-up all read `SCREENS`."""

from __future__ import annotations

import importlib
from typing import Any

from textual.screen import Screen

from yak_tui.app.screens import AreaAction, NavScreen, court, economy, espionage, magic, nobles, warfare

AREAS = (court, economy, espionage, magic, nobles, warfare)

NAV_ORDER = ("dashboard", "espionage", "market", "sieges", "map", "chronicle")
"""The nav bar, left to right: every screen an area declares, each once."""


def nav_screens() -> dict[str, NavScreen]:
    """The areas' nav bar screens in `NAV_ORDER`; a screen left out of the order, or an order naming
    no declared screen, is refused by name."""
    declared: dict[str, NavScreen] = {}
    for area in AREAS:
        for name, screen in area.SCREENS.items():
            if name in declared:
                raise ValueError(f"two areas declare the nav screen {name!r}")
            declared[name] = screen
    missing = sorted(set(declared) - set(NAV_ORDER))
    unknown = [name for name in NAV_ORDER if name not in declared]
    if missing or unknown or len(set(NAV_ORDER)) != len(NAV_ORDER):
        raise ValueError(
            f"NAV_ORDER must name each declared screen once: missing {missing or 'none'}, unknown {unknown or 'none'}"
        )
    return {name: declared[name] for name in NAV_ORDER}


def area_actions() -> dict[str, AreaAction]:
    """The areas' app-wide actions by name, in the areas' order."""
    actions: dict[str, AreaAction] = {}
    for area in AREAS:
        for action in area.ACTIONS:
            if action.name in actions:
                raise ValueError(f"two areas declare the action {action.name!r}")
            actions[action.name] = action
    return actions


SCREENS = nav_screens()
AREA_ACTIONS = area_actions()

SIDE_SCREENS = (("yak_tui.app.shell.reports", "ReportsScreen"), ("yak_tui.app.shell.history", "HistoryScreen"))
"""The side screens the app pushes over a main screen (R, H) as (module, class): the warm-up readies
them with the main screens (their CSS parsed once: pushed unready, one cost a full restyle)."""


def screen_class(module: str, cls: str) -> type[Screen[Any]]:
    """A screen's class, its module (under `yak_tui.app.screens`) imported when first asked for."""
    screen: type[Screen[Any]] = getattr(importlib.import_module(f"yak_tui.app.screens.{module}"), cls)
    return screen
