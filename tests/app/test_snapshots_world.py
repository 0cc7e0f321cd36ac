"""Snapshots of the GM's World screen and of the editor (Elbreth's kingdom, and a refused value)
at 80×24 and 160×48, on the demo save. Update with `--snapshot-update` and look at the SVGs first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, on_top, query_ready, settle, wait_for
from textual.pilot import Pilot
from textual.widgets import Input

from yak_tui.app.kit.editor import DocumentEditor
from yak_tui.app.kit.plot import TreasuryPlot
from yak_tui.app.shell.world import WorldScreen

SIZES = [(80, 24), (160, 48)]


async def show_world(pilot: Pilot[Any]) -> None:
    app = pilot.app
    await wait_for(pilot, lambda: all(p.ready for p in app.screen.query(TreasuryPlot)), what="the plot")
    await settle(pilot)
    await pilot.press("w")
    await wait_for(pilot, lambda: on_top(app, WorldScreen), what="the World screen")
    await settle(pilot)


async def show_editor(pilot: Pilot[Any]) -> None:
    await show_world(pilot)
    await pilot.press("e")
    await wait_for(pilot, lambda: on_top(pilot.app, DocumentEditor), what="the editor")
    await settle(pilot)


async def show_refusal(pilot: Pilot[Any]) -> None:
    await show_editor(pilot)
    editor = pilot.app.screen
    control = await query_ready(pilot, editor, "#param-manpower", Input)
    control.focus()
    control.value = ""
    await pilot.press("minus", "5", "ctrl+s")
    await wait_for(pilot, lambda: editor.query_one("#field-manpower").has_class("-invalid"), what="the refusal")
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_world_screen(snap_compare: Any, save_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(save_path, poll_interval=0), terminal_size=size, run_before=show_world)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_editor(snap_compare: Any, save_path: Path, size: tuple[int, int]) -> None:
    assert snap_compare(make_app(save_path, poll_interval=0), terminal_size=size, run_before=show_editor)


def test_editor_refusal(snap_compare: Any, save_path: Path) -> None:
    assert snap_compare(make_app(save_path, poll_interval=0), terminal_size=(80, 24), run_before=show_refusal)
