"""Snapshots of the season-cycle screens (the Reports screen, the season history) at 80×24 and
160×48, on the populated demo save (two closed seasons, scripted dice). Update with
`pytest tests/app/test_snapshots_season.py --snapshot-update` and look at the SVGs first."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, on_top, settle, wait_for
from textual.pilot import Pilot
from textual.widgets import Select

from yak_tui.app.shell.history import HistoryScreen
from yak_tui.app.shell.reports import ReportsScreen

SIZES = [(80, 24), (160, 48)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("identity", ["gm", "player:nyx"])
def test_reports_screen(snap_compare: Any, busy_save: Path, identity: str, size: tuple[int, int]) -> None:
    app = make_app(busy_save, identity, poll_interval=0)

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("R")
        await wait_for(pilot, lambda: on_top(pilot.app, ReportsScreen), what="the Reports screen")
        screen: Any = pilot.app.screen
        await wait_for(pilot, lambda: screen.view is not None, what="the report")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_history_view(snap_compare: Any, busy_save: Path, size: tuple[int, int]) -> None:
    app = make_app(busy_save, "gm", poll_interval=0)

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await pilot.press("H")
        await wait_for(pilot, lambda: on_top(pilot.app, HistoryScreen), what="the history view")
        screen: Any = pilot.app.screen
        await wait_for(pilot, lambda: screen.view is not None, what="the history")
        screen.query_one("#history-before", Select).value = "Spring 312"
        await wait_for(pilot, lambda: screen.view.before == "Spring 312", what="Spring against now")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=before)
