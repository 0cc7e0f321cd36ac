"""`YakTable` takes its scrollbars within the layout that sizes it: the first frame with its rows is
the settled one. Textual decides a widget's scrollbars only once a layout has given it its new size,
so a table that came to need one (an auto height grown to its max-height, a line too wide) drew a
frame a column too wide, then laid the screen out again a frame later (issue 13, first visits)."""

from __future__ import annotations

from typing import Any

from app_helpers import settle, wait_for
from textual.app import App, ComposeResult
from textual.widgets import Static

from yak_tui.app.kit.table import YakTable


class GrowingTable(App[None]):
    CSS = "YakTable { height: auto; max-height: 6; width: 40; scrollbar-size: 1 1; }"

    def compose(self) -> ComposeResult:
        yield YakTable(id="table")
        yield Static("below", id="below")


def frames(app: Any) -> list[tuple[bool, bool, int]]:
    """At each frame, as drawn (the screen's compositor): the table's scrollbars and where the
    line under it is."""
    seen: list[tuple[bool, bool, int]] = []
    shown = app._display

    def display(screen: Any, renderable: Any) -> None:
        shown(screen, renderable)
        if renderable is not None:
            table = app.query_one(YakTable)
            drawn = app.screen._compositor.full_map
            seen.append(
                (
                    table._vertical_scrollbar in drawn,
                    table._horizontal_scrollbar in drawn,
                    drawn[app.query_one("#below")].region.y,
                )
            )

    app._display = display
    return seen


async def test_the_first_frame_with_the_rows_has_the_scrollbars_of_the_settled_one() -> None:
    app = GrowingTable()
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(pilot)
        seen = frames(app)
        table = app.query_one(YakTable)
        table.fill(["Place", "Held by"], [(f"p{n}", [f"Place {n}" * (6 if n == 7 else 1), "Varos"]) for n in range(30)])
        await wait_for(pilot, lambda: bool(seen), what="a frame with the rows")
        await settle(pilot)
        assert seen[-1][:2] == (True, True)
        assert seen[0] == seen[-1], seen
