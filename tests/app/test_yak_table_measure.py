"""`YakTable` measures its cells as DataTable does, only faster (issue 30): DataTable formats every
cell of every new row (markup parsed, a Rich measure with a console's options) and most of a
screen's first paint at 100x went there. The widths must be DataTable's to the cell, or a screen
would look different: each table here is filled twice, once measured DataTable's way."""

from __future__ import annotations

from typing import Any

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import DataTable
from textual.widgets.data_table import DuplicateKey

from yak_tui.app.kit.table import YakTable, cell_width

# Every kind of cell a screen gives, and the ones a fast measure could get wrong: markup, an escaped
# bracket, emoji codes, wide characters, new lines, tabs, control characters, numbers, empty cells.
CELLS: list[Any] = [
    "Fund Bandits",
    "Varos · Varos March",
    "",
    "—",
    "12.5",
    "[b]bold[/b] words",
    r"\[not markup]",
    "[not closed",
    "a [link=x]link[/link]",
    ":smile: and :crown:",
    "12:30",
    "王国の城",
    "two\nlines",
    "one\r\nline\rmore",
    "tab\there",
    "bell\x07",
    "line\u2028sep",
    "\x1b[1mansi\x1b[0m",
    "   padded   ",
    "emoji 👑 wide",
    Text("42", justify="right"),
    Text("a Text\nof two lines"),
    Text(""),
    Text("styled", style="bold red"),
    Text.from_markup("[i]from markup[/i] :smile:"),
    Text("tab\tin text"),
    7,
    -12,
    3.14159,
    True,
    None,
]


def test_each_cell_is_as_wide_as_datatable_measures_it() -> None:
    from rich.console import Console
    from textual.render import measure
    from textual.widgets._data_table import default_cell_formatter

    console = Console(width=200)
    for cell in CELLS:  # a row one line high: DataTable keeps a string's first line only
        formatted = None if cell is None else default_cell_formatter(cell, wrap=False, height=1)
        expected = measure(console, formatted or Text(), 1)
        assert cell_width(console, cell) == expected, repr(cell)


class Tables(App[None]):
    CSS = "DataTable { height: 12; width: 100; }"

    def compose(self) -> ComposeResult:
        yield YakTable(id="yak")
        yield DataTable(id="plain")


async def test_the_columns_are_datatables_widths_and_the_table_its_size() -> None:
    columns = ["Name", "Other", "Third"]
    rows = [
        (f"r-{i}", [CELLS[i], CELLS[(i * 7 + 3) % len(CELLS)], CELLS[(i * 5 + 1) % len(CELLS)]])
        for i in range(len(CELLS))
    ]
    app = Tables()
    async with app.run_test(size=(120, 30)) as pilot:
        yak = app.query_one("#yak", YakTable)
        plain = app.query_one("#plain", DataTable)
        yak.fill(columns, rows)
        for column in columns:
            plain.add_column(column, key=column)
        for key, cells in rows:
            plain.add_row(*cells, key=key)
        await pilot.pause()
        await pilot.pause()
        assert not plain._require_update_dimensions  # DataTable measured its rows when idle
        widths = [(column.label.plain, column.content_width) for column in plain.ordered_columns]
        assert [(column.label.plain, column.content_width) for column in yak.ordered_columns] == widths
        assert yak.virtual_size == plain.virtual_size


async def test_plain_cells_are_measured_without_rich(monkeypatch: Any) -> None:
    """A window of plain cells never goes through Rich's measure nor a markup parse."""
    import textual.widgets._data_table as data_table

    from yak_tui.app.kit import table as kit_table

    calls: list[Any] = []

    def counted(name: str, real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            calls.append(name)
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(data_table, "measure", counted("measure", data_table.measure))
    monkeypatch.setattr(kit_table, "measure", counted("measure", kit_table.measure))
    monkeypatch.setattr(data_table, "default_cell_formatter", counted("format", data_table.default_cell_formatter))
    app = Tables()
    async with app.run_test(size=(120, 30)) as pilot:
        yak = app.query_one("#yak", YakTable)
        await pilot.pause()
        calls.clear()
        yak.fill(
            ["Name", "Ducats"], [(f"r-{i}", [f"Noble {i} · Varos", Text(str(i), justify="right")]) for i in range(150)]
        )
        assert calls.count("format") == 0 and calls.count("measure") == 2  # the two headers only
        assert [column.content_width for column in yak.ordered_columns] == [len("Noble 149 · Varos"), 6]


class Highlights(App[None]):
    CSS = "DataTable { height: 12; width: 100; }"

    def __init__(self) -> None:
        super().__init__()
        self.highlighted: list[tuple[str, str, int]] = []

    def compose(self) -> ComposeResult:
        yield YakTable(id="yak")
        yield DataTable(id="plain", cursor_type="row")

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.highlighted.append((event.data_table.id or "", str(event.row_key.value), event.cursor_row))


async def test_the_rows_of_a_window_are_kept_as_datatables_add_row_keeps_them() -> None:
    """`YakTable` adds a window's rows in one go (issue 30): the same rows, cells, keys and places as
    DataTable's `add_row` one by one, and the same highlight said."""
    rows = [(f"r-{i}", [f"Row {i}", Text(str(i), justify="right")][: 1 + i % 2]) for i in range(40)]
    app = Highlights()
    async with app.run_test(size=(120, 30)) as pilot:
        yak = app.query_one("#yak", YakTable)
        plain = app.query_one("#plain", DataTable)
        await pilot.pause()
        yak.fill(["Name", "Number"], rows)
        for column in ("Name", "Number"):
            plain.add_column(column, key=column)
        for key, cells in rows:
            plain.add_row(*cells, key=key)
        await pilot.pause()
        assert yak.rows == plain.rows
        assert yak._data == plain._data
        assert [yak._row_locations.get(key) for key in plain.rows] == list(range(len(rows)))
        assert [yak.get_row_at(i) for i in range(len(rows))] == [plain.get_row_at(i) for i in range(len(rows))]
        assert (
            [(key, row) for table, key, row in app.highlighted if table == "yak"]
            == [(key, row) for table, key, row in app.highlighted if table == "plain"]
            == [("r-0", 0)]
        )
        with pytest.raises(DuplicateKey):  # a key drawn already is refused, as DataTable refuses it
            yak._add_rows([("r-3", ["again"])])
