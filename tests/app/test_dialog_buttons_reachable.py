"""Issue 29: at 80×24 (and 40×12) every button of every dialog a key opens can be reached, for every seat.

The sweep walks every nav screen as the GM, a King, a player and an observer, presses each key the
screen offers at that moment (the app's, the screen's and the focused widget's bindings), and on
each dialog that opens checks every button it shows: it is drawn inside the terminal, above the key
bar, or it is once focused (a disabled one: once scrolled to). A side screen a key opens (the World
editor, Reports, History) is swept the same way, one level down. The test reads where the buttons
are painted, not the styles (see test_dialogs_fit.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, mounted, populate, settle, wait_for
from textual.command import CommandPalette
from textual.pilot import Pilot
from textual.screen import ModalScreen, Screen
from textual.widgets import Button

from yak_tui.app.main import YakApp
from yak_tui.app.navigation import SCREENS

SIZE = (80, 24)
# At least this many dialogs open for each seat (a sweep that stopped opening them would pass).
MOST_DIALOGS = {"gm": 10, "king:elbreth": 8, "player:corvin": 5, "observer": 0}
SEATS = ("gm", "king:elbreth", "player:corvin", "observer")
# Keys that leave the app, move the focus, change the mode or the theme: no dialog behind them.
SKIP = {"q", "ctrl+c", "ctrl+q", "tab", "shift+tab", "ctrl+p", "ctrl+t", "escape", "question_mark"} | {
    nav.key for nav in SCREENS.values()
}


def visible(button: Button) -> bool:
    region = button.region
    width, height = button.app.size
    return region.height > 0 and region.y >= 0 and region.bottom <= height - 1 and region.right <= width


CHECKED: list[str] = []  # what the sweep saw (its dialogs, by key), for the test to count


async def buttons_reachable(pilot: Pilot[Any], dialog: Screen[Any], where: str) -> list[str]:
    """The buttons of `dialog` that cannot be brought on screen (by focus, or scrolled to)."""
    CHECKED.append(f"{where}: {type(dialog).__name__}")
    lost: list[str] = []
    for button in list(dialog.query(Button)):
        if not all(node.display for node in button.ancestors_with_self if hasattr(node, "display")):
            continue
        if visible(button):
            continue
        if button.disabled:
            button.scroll_visible(animate=False)
        else:
            button.focus()
        await settle(pilot)
        if not visible(button):
            lost.append(f"{where}: {type(dialog).__name__} button {button.id or button.label!s} at {button.region}")
    return lost


def keys_of(app: YakApp) -> list[str]:
    """The keys the top screen answers now, as the key bar and the help would list them."""
    keys = []
    for key, active in app.screen.active_bindings.items():
        if active.enabled and key not in SKIP and not key.startswith(("up", "down", "left", "right", "page")):
            keys.append(key)
    return sorted(set(keys))


async def back_to(pilot: Pilot[Any], app: YakApp, screen: Screen[Any]) -> bool:
    """Close whatever the key opened (escape, as a person would; pop what escape leaves). False
    when `screen` itself is gone (a key that leaves a side screen)."""
    for _ in range(4):
        if screen not in app.screen_stack:
            return False
        if app.screen is screen:
            return True
        await pilot.press("escape")
        await settle(pilot)
    while app.screen is not screen and screen in app.screen_stack:
        app.pop_screen()
        await settle(pilot)
    return app.screen is screen


async def sweep(pilot: Pilot[Any], app: YakApp, where: str, depth: int, seen: set[tuple[str, str]]) -> list[str]:
    lost: list[str] = []
    base = app.screen
    for key in keys_of(app):
        if (type(base).__name__, key) in seen:
            continue
        seen.add((type(base).__name__, key))
        if app.screen is not base and not await back_to(pilot, app, base):
            return lost
        await pilot.press(key)
        await settle(pilot)
        top = app.screen
        if top is base or isinstance(top, CommandPalette):
            if not await back_to(pilot, app, base):
                return lost
            continue
        await wait_for(pilot, lambda top=top: mounted(top), what=f"{key} opened")  # type: ignore[misc]
        await settle(pilot)
        here = f"{where} {key}"
        if isinstance(top, ModalScreen):
            lost += await buttons_reachable(pilot, top, here)
        elif depth > 0:
            lost += await sweep(pilot, app, here, depth - 1, seen)
        if not await back_to(pilot, app, base):
            return lost
    return lost


@pytest.mark.parametrize("seat", SEATS)
async def test_every_dialog_button_is_reachable_at_80x24(save_path: Path, seat: str) -> None:
    await sweep_all(save_path, seat, SIZE)


@pytest.mark.parametrize("seat", ("gm", "player:corvin"))
async def test_every_dialog_button_is_reachable_at_40x12(save_path: Path, seat: str) -> None:
    """A 40x12 terminal: the dialogs scroll, and a row of buttons still fits its width."""
    await sweep_all(save_path, seat, (40, 12))


async def sweep_all(save_path: Path, seat: str, size: tuple[int, int]) -> None:
    populate(save_path)
    CHECKED.clear()
    app = make_app(save_path, seat, poll_interval=0)
    lost: list[str] = []
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        seen: set[tuple[str, str]] = set()
        for name, nav in SCREENS.items():
            await pilot.press(nav.key)
            await wait_for(pilot, lambda name=name: app.current_mode == name, what=name)  # type: ignore[misc]
            await settle(pilot)
            # A prompt that opens by itself over the screen (a siege's surrender or sally) first.
            if isinstance(app.screen, ModalScreen):
                lost += await buttons_reachable(pilot, app.screen, f"{seat} {name} (on arrival)")
                await back_to(pilot, app, app.screen_stack[-2])
            lost += await sweep(pilot, app, f"{seat} {name}", 1, seen)
    assert not lost, "\n".join(lost)
    print("\n".join(CHECKED))
    assert len(CHECKED) >= MOST_DIALOGS[seat], CHECKED
