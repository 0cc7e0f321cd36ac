"""Issue 13, first visits: a screen paints its data in as few frames as it can. Tables are measured
as they fill (their line under them mounted before the rows come), the market draws the highlighted
business's detail with the board (a worker only when the cursor moves), and the map's bounds and
rows of hexes are built with its read model, off the event loop."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, settle, wait_for
from textual.app import App, ComposeResult
from textual.containers import Vertical

from yak_tui.app.kit.common import YakTable
from yak_tui.app.screens.economy.screen import MarketScreen
from yak_tui.app.screens.nobles import hexmap, map_layout


class TableApp(App[None]):
    def compose(self) -> ComposeResult:
        with Vertical():
            yield YakTable(id="table")


async def test_a_table_is_measured_as_it_fills_and_its_note_is_mounted_before() -> None:
    app = TableApp()
    async with app.run_test(size=(80, 20)) as pilot:
        table = app.query_one(YakTable)
        await pilot.pause()
        note = table._note
        assert note is not None and note.is_mounted and not note.display  # mounted with the table, hidden
        table.fill(["name", "size"], [(f"k{i}", [f"a rather long name {i}", str(i)]) for i in range(5)], empty="none")
        # Measured in the same call, not on the next idle: the first frame has the columns' widths.
        assert not table._require_update_dimensions
        widths = [column.content_width for column in table.ordered_columns]
        assert widths[0] >= len("a rather long name 4")
        assert table._note is note  # the same line, not a second one mounted with the rows
        table.fill(["name"], [], empty="nothing here")
        await pilot.pause()
        assert note.display and not table.display


def _record_calls(monkeypatch: pytest.MonkeyPatch, screen: type, method: str) -> list[str]:
    """The id each call of a screen's worker job `method(self, id, version)` was for, in order."""
    calls: list[str] = []
    original = getattr(screen, method)

    def recording(self: Any, doc_id: str, version: int) -> Any:
        calls.append(doc_id)
        return original(self, doc_id, version)

    monkeypatch.setattr(screen, method, recording)
    return calls


async def test_the_market_draws_the_first_detail_with_the_board(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    workers = _record_calls(monkeypatch, MarketScreen, "_compute_detail")
    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("b")
        await wait_for(
            pilot, lambda: isinstance(app.screen, MarketScreen) and app.screen.board is not None, what="the market"
        )
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, MarketScreen)
        assert screen.business, "the demo market highlights a business"
        assert workers == []  # drawn by the paint itself
        assert screen.query_one("#detail").border_title != "Business"
        # A cursor move still builds the next detail in a worker (a fast cursor at 1000x keeps the keys).
        screen.query_one("#businesses-table").focus()
        before = screen.business
        await pilot.press("down")
        await settle(pilot)
        if screen.business != before:
            assert workers == [screen.business]


async def test_the_maps_bounds_and_rows_are_built_off_the_event_loop(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    for module, name in ((map_layout, "_extent"), (map_layout, "by_row_of"), (hexmap, "by_row_of")):
        original = getattr(module, name)

        def recording(view: Any, original: Any = original) -> Any:
            if view is not None:
                threads.append(threading.current_thread().name)
            return original(view)

        monkeypatch.setattr(module, name, recording)
    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        main = threading.current_thread().name
        await settle(pilot)
        await pilot.press("m")
        await wait_for(
            pilot,
            lambda: (
                app.current_mode == "map"
                and app.screen._seen_version >= 0
                and app.screen.query_one(hexmap.HexMap).view is not None
            ),
            what="the map",
        )
        await settle(pilot)
    assert len(threads) >= 2
    assert main not in threads, threads


async def test_the_sieges_weigh_the_first_place_with_the_monitor(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from yak_tui.app.screens.warfare.screen import SiegesScreen

    workers = _record_calls(monkeypatch, SiegesScreen, "_verdicts")
    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("s")
        await wait_for(
            pilot, lambda: isinstance(app.screen, SiegesScreen) and app.screen.monitor is not None, what="the sieges"
        )
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SiegesScreen)
        assert screen.place_id, "the demo has walled places"
        assert workers == []  # weighed in the monitor's worker, shown by the paint
        text = str(screen.query_one("#place-verdicts").content)
        assert text.strip() and "Weighing" not in text
        # Another place highlighted is weighed by the verdicts worker, as before.
        table = screen.query_one("#places-table")
        table.focus()
        before = screen.place_id
        await pilot.press("down")
        await settle(pilot)
        if screen.place_id != before:
            assert workers == [screen.place_id]
