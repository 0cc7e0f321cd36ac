"""`YakTable` shows every cell at its column's measured width.

DataTable measures the rows a fill added only when it is idle; a frame painted before that
(a busy machine, a screen refilled as it opens) caches the cells cut to their headers' widths,
and DataTable's caches leave the width out of their keys, so the table went on showing
`Fund Ba` for `Fund Bandits` until something else cleared them (issue 11: the snapshots of the
espionage board, and a real terminal, now and then showed such a table)."""

from __future__ import annotations

from typing import Any

from app_helpers import settle, wait_for
from textual.app import App, ComposeResult

from yak_tui.app.kit.table import YakTable


class OneTable(App[None]):
    CSS = "YakTable { height: 5; width: 60; }"  # a fixed size: no resize clears the caches by chance

    def compose(self) -> ComposeResult:
        yield YakTable(id="table")


async def test_cells_painted_before_the_rows_were_measured_are_drawn_again_at_full_width() -> None:
    app = OneTable()
    async with app.run_test(size=(80, 10)) as pilot:
        table = app.query_one(YakTable)
        table.fill(["Mission", "Target"], [("o-1", ["Fund Bandits", "Varos · Varos March"])])
        early = table.render_line(1).text  # a frame painted before the table was idle
        # The table measures its rows as it fills (issue 13): no frame is cut to the header's width.
        assert "Fund Bandits" in early

        def row_text() -> Any:
            return table.render_line(1).text

        await wait_for(pilot, lambda: not table._require_update_dimensions, what="the rows measured")
        await settle(pilot)
        assert "Fund Bandits" in row_text() and "Varos · Varos March" in row_text()
