"""Going back to a screen already built shows it at once: no restyle of every node, no held frame.

Textual's mode switch restyled every node of the screen on each visit (so every table rendered each
of its cells again) and held the frames for 50 ms; a return to a screen cost 60-290 ms in a terminal
and now costs about 15 ms (bench/bench_terminal.py). A theme changed meanwhile still reaches it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, settle, wait_for
from textual.color import Color
from textual.css.stylesheet import Stylesheet
from textual.widgets import DataTable

from yak_tui.app.themes import YAK_DARK, YAK_LIGHT


async def _visit(app: Any, pilot: Any, key: str, mode: str) -> None:
    await pilot.press(key)
    await wait_for(
        pilot,
        lambda: (
            app.current_mode == mode
            and app.screen.is_mounted
            and not app.screen.loader.pending
            and app.screen._seen_version >= 0
        ),
        what=mode,
    )
    await settle(pilot)


async def test_a_screen_shown_again_is_not_restyled_and_its_table_keeps_its_rendered_cells(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _visit(app, pilot, "b", "market")
        market = app.screen
        table = market.query(DataTable).first()
        assert table._cell_render_cache  # its cells were rendered for the first frame
        await _visit(app, pilot, "d", "dashboard")
        styled: list[Any] = []
        original = Stylesheet.update_nodes

        def counting(self: Stylesheet, nodes: Any, animate: bool = False) -> None:
            nodes = list(nodes)
            styled.extend(nodes)
            original(self, nodes, animate=animate)

        monkeypatch.setattr(Stylesheet, "update_nodes", counting)
        cached = dict(table._cell_render_cache)
        await _visit(app, pilot, "b", "market")
        assert app.screen is market
        assert len(styled) < 10  # Textual restyled all of its nodes (a hundred and more) on each visit
        assert cached.keys() <= table._cell_render_cache.keys()  # no cell was rendered again


async def test_a_return_to_a_built_screen_holds_no_frame_but_a_first_visit_does(save_path: Path) -> None:
    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        app.action_goto("market")
        assert app._batch_count == 1  # a first visit: Textual hides the half-built screen for 50 ms
        await settle(pilot)
        await _visit(app, pilot, "d", "dashboard")
        assert app._batch_count == 0
        app.action_goto("market")
        assert app._batch_count == 0  # shown at once: it is whole
        await settle(pilot)


@pytest.mark.parametrize("first", ["dark", "light"])
async def test_a_screen_shown_again_after_a_theme_change_wears_the_new_theme(
    save_path: Path, monkeypatch: pytest.MonkeyPatch, first: str
) -> None:
    monkeypatch.setenv("YAK_THEME", first)
    before, after = (YAK_DARK, YAK_LIGHT) if first == "dark" else (YAK_LIGHT, YAK_DARK)
    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _visit(app, pilot, "b", "market")
        table = app.screen.query(DataTable).first()
        assert app.screen.styles.background == Color.parse(before.background or "")
        old_header = table.get_component_rich_style("datatable--header")
        await _visit(app, pilot, "d", "dashboard")
        await pilot.press("ctrl+t")
        await settle(pilot)
        await _visit(app, pilot, "b", "market")
        assert app.theme == after.name
        assert app.screen.styles.background == Color.parse(after.background or "")
        assert table.get_component_rich_style("datatable--header") != old_header
        # What is painted is the new theme too: the header line is drawn in the new header colours,
        # not from cells rendered in the old theme.
        new_header = table.get_component_rich_style("datatable--header")
        colours = {seg.style.color for seg in table.render_line(0) if seg.style is not None and seg.text.strip()}
        assert new_header.color in colours and old_header.color not in colours
