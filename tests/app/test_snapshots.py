"""Snapshots of every screen at 80×24 and 140×45, and of the main dialogs at 80×24.

Animations and cursor blink are off; the world is the demo save plus two scripted seasons
(`populate`), so nothing depends on the clock or on random dice. Update with
`pytest tests/app/test_snapshots.py --snapshot-update` and look at the SVGs before committing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, query_ready, wait_for
from app_helpers import settle as settle_app
from textual.pilot import Pilot
from textual.widgets import Select

from yak_tui.app.kit.plot import TreasuryPlot

SIZES = [(80, 24), (140, 45)]
SCREEN_KEYS = {"dashboard": "d", "espionage": "e", "market": "b", "sieges": "s", "map": "m", "chronicle": "c"}


async def settle(pilot: Pilot[Any]) -> None:
    """Let the dashboard's plot load (plotext comes in a worker) and every table measure itself."""
    app = pilot.app
    await wait_for(pilot, lambda: all(p.ready for p in app.screen.query(TreasuryPlot)), what="the plot")
    await settle_app(pilot)


async def visit(pilot: Pilot[Any], screen: str) -> None:
    """From the settled dashboard to `screen`, mounted and settled."""
    await settle(pilot)
    await pilot.press(SCREEN_KEYS[screen])
    await wait_for(
        pilot, lambda: pilot.app.current_mode == screen and pilot.app.screen.is_mounted, what=f"the {screen} screen"
    )
    await settle(pilot)


async def press_and_settle(pilot: Pilot[Any], *keys: str) -> None:
    """Press the keys; `_` waits until the app is idle (a dialog loaded, a screen filled)."""
    for key in keys:
        if key == "_":
            await settle(pilot)
        else:
            await pilot.press(key)
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", list(SCREEN_KEYS))
def test_screen(snap_compare: Any, busy_save: Path, screen: str, size: tuple[int, int]) -> None:
    app = make_app(busy_save, poll_interval=0)

    assert snap_compare(app, terminal_size=size, run_before=lambda pilot: visit(pilot, screen))


DIALOGS = {
    "roll": (["r", *"Hold the bridge", "tab", "2"], "gm"),
    "advance": (["a", "_", "_"], "gm"),
    "help": (["question_mark"], "gm"),
    "identity": (["i"], "gm"),
    "export": (["c", "_", "x", "_"], "gm"),
    "order": (["o", "_"], "player:nyx"),
    "player-dashboard": (["_"], "player:nyx"),
}


@pytest.mark.parametrize("dialog", list(DIALOGS))
def test_dialog(snap_compare: Any, busy_save: Path, dialog: str) -> None:
    keys, identity = DIALOGS[dialog]
    app = make_app(busy_save, identity, poll_interval=0)

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await press_and_settle(pilot, *keys)
        if dialog == "order":
            screen = pilot.app.screen
            (await query_ready(pilot, screen, "#order-command", Select)).value = "roll"
            await wait_for(pilot, lambda: screen.query("#param-reason"), what="the roll's fields")
            await settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=before)


def test_roll_result(snap_compare: Any, busy_save: Path) -> None:
    """The dice land on the recorded result; dice by hand make the snapshot repeatable."""
    from textual.widgets import Input, Switch

    app = make_app(busy_save, poll_interval=0)

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("r", *"Hold the bridge")
        screen: Any = pilot.app.screen
        (await query_ready(pilot, screen, "#param-modifier", Input)).value = "1"
        screen.query_one("#by-hand", Switch).value = True
        await wait_for(pilot, lambda: screen.query_one("#naturals").display, what="the naturals field")
        screen.query_one("#naturals", Input).value = "5"
        await wait_for(pilot, lambda: not screen.query_one("#run").disabled, what="a valid roll")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.query_one("#result-lines").display, what="the dice landed")
        await settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=before)
