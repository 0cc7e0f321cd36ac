"""Snapshots of every screen at 80×24 and 140×45, and of the main dialogs at 80×24.

Animations and cursor blink are off; the world is the demo save plus two scripted seasons
(`populate`), so nothing depends on the clock or on random dice. Update with
`pytest tests/app/test_snapshots.py --snapshot-update` and look at the SVGs before committing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, wait_for
from textual.pilot import Pilot
from textual.widgets import Select

from yak_tui.app.widgets.plot import TreasuryPlot

SIZES = [(80, 24), (140, 45)]
SCREEN_KEYS = {"dashboard": "d", "espionage": "e", "market": "b", "sieges": "s", "map": "m", "chronicle": "c"}


async def settle(pilot: Pilot[Any]) -> None:
    """Let the dashboard's plot load (plotext comes in a worker) and every table measure itself."""
    app = pilot.app
    await wait_for(pilot, lambda: all(p.ready for p in app.screen.query(TreasuryPlot)), timeout=15, what="the plot")
    await pilot.pause(0.2)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("screen", list(SCREEN_KEYS))
def test_screen(snap_compare: Any, busy_save: Path, screen: str, size: tuple[int, int]) -> None:
    app = make_app(busy_save, poll_interval=0)
    key = SCREEN_KEYS[screen]
    assert snap_compare(app, press=[key, "_"] if key != "d" else ["_"], terminal_size=size, run_before=settle)


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
        if dialog == "order":
            await pilot.press(*keys)
            await wait_for(pilot, lambda: pilot.app.screen.query("#order-command"))
            pilot.app.screen.query_one("#order-command", Select).value = "roll"
            await pilot.pause(0.3)

    press = [] if dialog == "order" else keys
    assert snap_compare(app, press=press, terminal_size=(80, 24), run_before=before)


def test_roll_result(snap_compare: Any, busy_save: Path) -> None:
    """The dice land on the recorded result; dice by hand make the snapshot repeatable."""
    from textual.widgets import Input, Switch

    app = make_app(busy_save, poll_interval=0)

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("r", *"Hold the bridge")
        await pilot.pause(0.2)
        screen: Any = pilot.app.screen
        screen.query_one("#param-modifier", Input).value = "1"
        screen.query_one("#by-hand", Switch).value = True
        await pilot.pause(0.1)
        screen.query_one("#naturals", Input).value = "5"
        await wait_for(pilot, lambda: not screen.query_one("#run").disabled, what="a valid roll")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.query_one("#tray").display, what="the dice")

    assert snap_compare(app, terminal_size=(80, 24), run_before=before)
