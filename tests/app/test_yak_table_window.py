"""`YakTable` draws a bounded window of a big table (issue 13), and the cursor keys and
`move_to_key` still reach every row: DataTable measured and kept every cell of 10,000 businesses
on the event loop, seconds at 1000x. A table no bigger than the window is drawn whole."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app_helpers import settle, wait_for
from textual.app import App, ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import DataTable, Static

from yak_tui.app.kit.table import YakTable

ROWS = [(f"r-{i}", [f"Row {i}", str(i)]) for i in range(1000)]


class OneTable(App[None]):
    CSS = "YakTable { height: 12; width: 60; }"

    def __init__(self) -> None:
        super().__init__()
        self.highlighted: list[str] = []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield YakTable(id="table")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.highlighted.append(str(event.row_key.value))


def drawn(table: YakTable) -> list[str]:
    return [str(key.value) for key in table.rows]


async def test_a_thousand_row_table_draws_a_bounded_window_and_says_which_rows() -> None:
    app = OneTable()
    async with app.run_test(size=(80, 20)) as pilot:
        table = app.query_one(YakTable)
        table.fill(["Name", "Number"], ROWS)
        await settle(pilot)
        assert table.total_rows == 1000
        assert table.row_count == YakTable.WINDOW < 1000
        assert drawn(table)[0] == "r-0" and table.cursor_row_key() == "r-0"
        note = app.query_one(".table-empty", Static)
        assert note.display and "rows 1-200 of 1,000" in str(note.render())
        assert table.get_row("r-999") == ["Row 999", "999"]  # every row's cells, drawn or not


async def test_the_cursor_keys_slide_the_window_to_the_last_row_and_back() -> None:
    app = OneTable()
    async with app.run_test(size=(80, 20)) as pilot:
        table = app.query_one(YakTable)
        table.fill(["Name", "Number"], ROWS)
        table.focus()
        await settle(pilot)
        for _ in range(YakTable.WINDOW):  # one past the window's last row
            await pilot.press("down")
        await settle(pilot)
        assert table.cursor_row_key() == f"r-{YakTable.WINDOW}"
        assert table.row_count <= YakTable.WINDOW and table.window_start > 0
        assert app.highlighted[-1] == f"r-{YakTable.WINDOW}"
        await pilot.press("ctrl+end")
        await settle(pilot)
        assert table.cursor_row_key() == "r-999" and drawn(table)[-1] == "r-999"
        assert "of 1,000" in str(app.query_one(".table-empty", Static).render())
        await pilot.press("down")  # the last row stays the last
        await pilot.press("pageup")
        await settle(pilot)
        assert table.cursor_row_key() != "r-999"
        await pilot.press("ctrl+home")
        await settle(pilot)
        assert table.cursor_row_key() == "r-0" and table.window_start == 0
        await pilot.press("up")
        assert table.cursor_row_key() == "r-0"


async def test_move_to_key_and_a_refill_reach_a_row_outside_the_window() -> None:
    app = OneTable()
    async with app.run_test(size=(80, 20)) as pilot:
        table = app.query_one(YakTable)
        table.fill(["Name", "Number"], ROWS)
        await settle(pilot)
        assert table.move_to_key("r-998")
        await wait_for(pilot, lambda: table.cursor_row_key() == "r-998", what="the cursor on r-998")
        assert "r-998" in drawn(table) and table.row_count <= YakTable.WINDOW
        assert not table.move_to_key("r-nowhere")
        table.fill(["Name", "Number"], list(reversed(ROWS)))  # the cursor keeps its row
        await settle(pilot)
        assert table.cursor_row_key() == "r-998"


async def test_a_small_table_is_drawn_whole_without_a_line_under_it() -> None:
    app = OneTable()
    async with app.run_test(size=(80, 20)) as pilot:
        table = app.query_one(YakTable)
        table.fill(["Name", "Number"], ROWS[: YakTable.WINDOW])
        await settle(pilot)
        assert table.row_count == table.total_rows == YakTable.WINDOW
        assert not [note for note in app.query(".table-empty") if note.display]  # mounted with the table, hidden


class OneRowTable(App[None]):
    def compose(self) -> ComposeResult:
        from yak_tui.app.kit.rowtable import RowTable

        with VerticalScroll():
            yield RowTable(id="table")


async def test_the_light_row_table_draws_a_window_that_follows_its_cursor_to_the_last_row() -> None:
    from yak_tui.app.kit.rowtable import RowTable

    app = OneRowTable()
    async with app.run_test(size=(80, 20)) as pilot:
        table = app.query_one(RowTable)
        table.fill(["Name", "Number"], ROWS)
        table.focus()
        await settle(pilot)
        lines = table.render().plain.splitlines()
        assert len(lines) == 1 + RowTable.WINDOW + 1  # the header, the window, the line under it
        assert lines[1].startswith("Row 0 ") and lines[-1] == "rows 1-200 of 1,000"
        await pilot.press("end")
        await settle(pilot)
        assert table.cursor_row_key() == "r-999"
        lines = table.render().plain.splitlines()
        assert len(lines) == 1 + RowTable.WINDOW + 1 and lines[-2].startswith("Row 999")
        assert lines[-1] == "rows 801-1,000 of 1,000"
        await pilot.press("home", "up")
        await settle(pilot)
        assert table.cursor_row_key() == "r-0" and table.render().plain.splitlines()[1].startswith("Row 0 ")


class OneLegend(App[None]):
    def compose(self) -> ComposeResult:
        from yak_tui.app.screens.nobles.panels import LegendPanel

        with VerticalScroll():
            yield LegendPanel()


async def test_the_map_legend_lists_a_bounded_number_of_kingdoms() -> None:
    """At 1000x the legend was a 3,000-line Static drawn on the map's first visit."""
    from types import SimpleNamespace

    from yak_tui.app.screens.nobles.panels import LEGEND_KINGDOMS, LegendPanel

    app = OneLegend()
    async with app.run_test(size=(80, 20)) as pilot:
        view: Any = SimpleNamespace(legend=tuple((f"k-{i}", f"Kingdom {i}", "") for i in range(1000)), territory={})
        app.query_one(LegendPanel).show(view)
        await settle(pilot)
        text = str(app.query_one("#legend", Static).render())
        assert f"Kingdom {LEGEND_KINGDOMS - 1}" in text and f"Kingdom {LEGEND_KINGDOMS}\n" not in text
        assert "Kingdom 999" not in text and f"and {1000 - LEGEND_KINGDOMS:,} more kingdoms" in text


async def test_a_map_wider_than_the_screen_draws_the_columns_in_view_after_it_scrolls(tmp_path: Path) -> None:
    """The hex map turns only the columns around the visible ones into strips (issue 13: at 1000x
    a line is thousands of cells wide); scrolled far sideways, what it shows is the drawing's own
    characters there, never the blank it leaves outside those columns."""
    import sys

    from app_helpers import make_app, on_top

    from yak_tui.app.screens.nobles.hexmap import CELL_SIZES, HexMap
    from yak_tui.app.screens.nobles.screen import MapScreen

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from worldgen import write_world

    path = tmp_path / "world.json"
    write_world(10, path)
    app = make_app(path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("m")
        await wait_for(pilot, lambda: on_top(app, MapScreen), what="the map")
        hexmap = app.screen.query_one(HexMap)
        await wait_for(pilot, lambda: hexmap.view is not None, what="the map data")
        await pilot.press("z", "z")
        await wait_for(pilot, lambda: CELL_SIZES[hexmap.zoom] == (8, 3), what="zoomed in")
        scroll = app.screen.query_one("#map-scroll")

        def shown_matches_drawing() -> bool:
            view = scroll.scrollable_content_region.reset_offset.translate(scroll.scroll_offset)
            crop = view.translate(-hexmap.virtual_region.offset).intersection(hexmap.size.region)
            strips = hexmap.render_lines(crop)  # the rows of hexes drawn around the view only
            hexmap._drawing = None
            rows = hexmap.render_rows()  # the whole map drawn afresh
            hexmap._drawing = None
            return all(
                strip.text == rows[crop.y + i].plain[crop.x : crop.right]
                for i, strip in enumerate(strips)
                if crop.y + i < len(rows)
            )

        assert hexmap.natural_size(hexmap.zoom)[0] > 4 * scroll.size.width  # far wider than the view
        await settle(pilot)
        assert shown_matches_drawing()
        for _ in range(4):
            await pilot.press(*["l"] * 12)
            await settle(pilot)
            assert shown_matches_drawing()
        assert scroll.scroll_offset.x > 2 * scroll.size.width
        assert hexmap._columns[0] > 0  # the columns far west were left blank
        # Rows of hexes drawn for a few columns only are, in those columns, the whole drawing's.
        for zoom in range(len(CELL_SIZES)):
            hexmap.zoom = zoom
            await settle(pilot)
            whole = [(line.plain, list(line.spans)) for line in hexmap.render_rows()]
            width = hexmap.natural_size(hexmap.zoom)[0]
            for start in range(0, width, width // 5):
                hexmap._drawing = None
                need = (start, start + 30)
                for y, (plain, spans) in enumerate(whole):
                    part = hexmap._line(y, need)
                    assert part is not None
                    assert part.plain[need[0] : need[1]] == plain[need[0] : need[1]]
                    assert list(part[need[0] : need[1]].spans) == list(Content(plain, spans)[need[0] : need[1]].spans)
                drawn = hexmap._drawing.drawn if hexmap._drawing is not None else {}
                assert any(span != (0, width) for span in drawn.values())  # drawn in part, not whole


async def test_the_line_under_a_big_table_goes_when_the_table_is_refilled_small() -> None:
    app = OneTable()
    async with app.run_test(size=(80, 20)) as pilot:
        table = app.query_one(YakTable)
        table.fill(["Name", "Number"], ROWS)
        await settle(pilot)
        note = app.query_one(".table-empty", Static)
        assert note.display
        table.fill(["Name", "Number"], ROWS[:3])
        await settle(pilot)
        assert not note.display and table.total_rows == table.row_count == 3
