"""Snapshots of the hex map (a noble's Relocate range and targets) and of the casting screen
(before the dice and after a casting with dice by hand) at 80×24 and 140×45.

Animations and cursor blink are off and the dice are typed by hand, so nothing depends on the
clock or on random dice. Update with `pytest tests/app/test_snapshots_magic.py --snapshot-update`
and look at the SVGs before committing.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, on_top, settle, wait_for
from textual.pilot import Pilot
from textual.widgets import Input, Switch

from yak_tui.app.screens.magic.screen import CastingScreen
from yak_tui.app.screens.nobles.hexmap import HexMap
from yak_tui.app.screens.nobles.screen import MapScreen

SIZES = [(80, 24), (140, 45)]
ids = lambda s: f"{s[0]}x{s[1]}"  # noqa: E731


async def map_with_tobias(pilot: Pilot[Any]) -> None:
    """The map, Tobias chosen (the noble under the cursor), the cursor on Amberport in his range."""
    app: Any = pilot.app
    await pilot.press("m")
    await wait_for(pilot, lambda: on_top(app, MapScreen))
    hexmap = app.screen.query_one(HexMap)
    await wait_for(pilot, lambda: hexmap.view is not None)
    hexmap.focus_hex((6, 4))
    await settle(pilot)  # the map has followed the cursor: n picks the noble there
    await pilot.press("n")
    await wait_for(pilot, lambda: app.screen.noble == "tobias")
    hexmap.focus_hex((11, 5))
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_map_relocate_range(snap_compare: Any, save_path: Path, size: tuple[int, int]) -> None:
    app = make_app(save_path, poll_interval=0)
    assert snap_compare(app, terminal_size=size, run_before=map_with_tobias)


def test_map_as_the_player(snap_compare: Any, save_path: Path) -> None:
    """His own noble only, and a discovery chance without the other kingdom's counter-spies."""
    app = make_app(save_path, "player:tobias", poll_interval=0)
    assert snap_compare(app, terminal_size=(80, 24), run_before=map_with_tobias)


async def casting_form(pilot: Pilot[Any]) -> None:
    app: Any = pilot.app
    await pilot.press("g")
    await wait_for(pilot, lambda: on_top(app, CastingScreen))
    screen = app.screen
    await pilot.press("tab", *"ley-line", "tab", *"ward the bridge")
    await wait_for(pilot, lambda: screen.setup is not None and screen.problem is None)
    await settle(pilot)


async def casting_by_hand(pilot: Pilot[Any]) -> None:
    """Power 6 (overwhelming), Control 1 (backlash), Resolution 4: every chained penalty shows."""
    await casting_form(pilot)
    app: Any = pilot.app
    screen = app.screen
    screen.query_one("#cast-by-hand", Switch).value = True
    await wait_for(pilot, lambda: str(screen.query_one("#cast-run").label) == "Cast by hand", what="by hand")
    await pilot.press("ctrl+r")
    for stage, natural in (("power", "6"), ("control", "1"), ("resolution", "4")):
        await wait_for(pilot, lambda stage=stage: app.focused is screen.query_one(f"#die-{stage}", Input))
        await pilot.press(natural, "enter")
    await wait_for(pilot, lambda: screen.phase == "done")
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_casting_before_the_dice(snap_compare: Any, save_path: Path, size: tuple[int, int]) -> None:
    app = make_app(save_path, poll_interval=0)
    assert snap_compare(app, terminal_size=size, run_before=casting_form)


@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_casting_by_hand_done(snap_compare: Any, save_path: Path, size: tuple[int, int]) -> None:
    app = make_app(save_path, poll_interval=0)
    assert snap_compare(app, terminal_size=size, run_before=casting_by_hand)
