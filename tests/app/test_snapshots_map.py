"""Snapshots of the hex map of issue 15 at 80×24 and 160×48: the provinces' land tinted by the
kingdom that rules it, borders, full names and forces in their owner's colour; and the GM's move
mode with the Royal Guard's path from Highmoor to Greywatch.

Animations and cursor blink are off and nothing is rolled, so nothing depends on the clock.
Update with `pytest tests/app/test_snapshots_map.py --snapshot-update` and look at the SVGs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, on_top, settle, wait_for
from textual.pilot import Pilot

from yak_tui.app.screens.nobles.hexmap import HexMap
from yak_tui.app.screens.nobles.screen import MapScreen

SIZES = [(80, 24), (160, 48)]
ids = lambda s: f"{s[0]}x{s[1]}"  # noqa: E731


async def the_map(pilot: Pilot[Any]) -> None:
    """The map with the cursor on Greywatch, in the middle of the realms."""
    app: Any = pilot.app
    await pilot.press("m")
    await wait_for(pilot, lambda: on_top(app, MapScreen))
    hexmap = app.screen.query_one(HexMap)
    await wait_for(pilot, lambda: hexmap.view is not None)
    hexmap.focus_hex((6, 4))
    await settle(pilot)


async def moving_the_guard(pilot: Pilot[Any]) -> None:
    """Move mode: the Royal Guard picked at Highmoor, the cursor on Greywatch three hexes away."""
    app: Any = pilot.app
    await the_map(pilot)
    hexmap = app.screen.query_one(HexMap)
    hexmap.focus_hex((4, 3))
    await settle(pilot)
    await pilot.press("m")
    screen = app.screen
    await wait_for(pilot, lambda: screen.mover is not None)
    hexmap.focus_hex((6, 4))
    await wait_for(
        pilot, lambda: screen.preview is not None and screen.preview.target == (6, 4) and not screen._previewer.pending
    )
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_map_tinted(snap_compare: Any, save_path: Path, size: tuple[int, int]) -> None:
    app = make_app(save_path, poll_interval=0)
    assert snap_compare(app, terminal_size=size, run_before=the_map)


@pytest.mark.parametrize("size", SIZES, ids=ids)
def test_map_move_mode(snap_compare: Any, save_path: Path, size: tuple[int, int]) -> None:
    app = make_app(save_path, poll_interval=0)
    assert snap_compare(app, terminal_size=size, run_before=moving_the_guard)
