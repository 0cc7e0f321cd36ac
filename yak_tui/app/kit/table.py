"""`YakTable`, a DataTable that refills in place, and `YakInput`, an Input that obeys the app's
cursor-blink setting. Import them from `yak_tui.app.kit.common` (loaded on first use)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from itertools import zip_longest
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.console import Console
from rich.text import Text
from textual.geometry import Region, Size
from textual.render import measure
from textual.widget import Widget
from textual.widgets import DataTable, Input, Static
from textual.widgets._data_table import Row, default_cell_formatter
from textual.widgets.data_table import DuplicateKey, RowKey


class YakInput(Input):
    """An Input whose cursor blinks only when the app allows it (snapshots, slow SSH links)."""

    def on_mount(self) -> None:
        self.cursor_blink = bool(getattr(self.app, "cursor_blink", True))


Cells = Sequence[Any] | Callable[[], Sequence[Any]]


def _cells(cells: Cells) -> Sequence[Any]:
    return cells() if callable(cells) else cells


def cell_width(console: Console, cell: Any) -> int:
    """A cell's width as DataTable measures it (`_update_dimensions`: the cell through
    `default_cell_formatter`, then Rich's measure), at a fraction of the cost for the cells the
    screens give: a plain one-line string with no markup or emoji code in it, or a one-line `Text`,
    is as wide as its characters. Anything else is measured DataTable's own way."""
    if isinstance(cell, str):
        if "[" not in cell and ":" not in cell and cell.isprintable():
            return cell_len(cell)
    elif isinstance(cell, Text):
        plain = cell.plain
        if plain.isprintable():
            return cell_len(plain)
    elif cell is None:
        return 0
    return measure(console, default_cell_formatter(cell, wrap=False, height=1) or Text(), 1)


class YakTable(DataTable[Any]):
    """A DataTable that refills from rows and keeps the cursor on the same key.

    It holds every row but draws at most `WINDOW` of them at once (DataTable measures and keeps
    every cell it is given: 10,000 businesses cost seconds); the cursor keys slide the window when
    they move past its edge, `move_to_key` reaches any row, and a line under the table says which
    rows are drawn. A table of `WINDOW` rows or fewer is drawn whole, exactly as a DataTable."""

    WINDOW: ClassVar[int] = 200

    def __init__(self, *, id: str | None = None, classes: str = "", zebra: bool = True) -> None:
        super().__init__(id=id, classes=classes, cursor_type="row", zebra_stripes=zebra)
        self._note: Static | None = None
        self._empty = ""
        self._all: list[tuple[str, Cells]] = []
        self._index: dict[str, int] = {}
        self._start = 0

    def fill(
        self, columns: Sequence[str | tuple[str, str]], rows: Iterable[tuple[str, Cells]], empty: str = ""
    ) -> None:
        """Replace every row; `rows` are (key, cells), the cells either a sequence or a function that
        makes them (called only when the row is drawn: a big table draws a window of its rows).
        With no rows the table gives way to `empty`."""
        keep = self.cursor_row_key()
        self.clear(columns=True)
        for column in columns:
            label, key = (column, column) if isinstance(column, str) else column
            self.add_column(label, key=key)
        self._all = list(rows)
        self._index = {key: index for index, (key, _) in enumerate(self._all)}
        self._empty = empty
        self._start = 0
        self._draw_window(self._index.get(keep, 0) if keep is not None else 0)
        self._relayout()

    @property
    def total_rows(self) -> int:
        """Every row the table holds, drawn or not."""
        return len(self._all)

    @property
    def window_start(self) -> int:
        """The index (among every row) of the first row drawn."""
        return self._start

    def move_to_key(self, key: str) -> bool:
        """Put the cursor on the row `key`, sliding the window to it; False if there is no such row."""
        index = self._index.get(key)
        if index is None:
            return False
        self._show(index)
        return True

    def get_row(self, row_key: RowKey | str) -> list[Any]:
        """The cells of the row `row_key`, drawn or not."""
        key = row_key.value if isinstance(row_key, RowKey) else row_key
        if key is not None and key in self._index and key not in self.rows:
            return list(_cells(self._all[self._index[key]][1]))
        return super().get_row(row_key)

    def _show(self, index: int) -> None:
        """Put the cursor on row `index` (among every row), redrawing the window if it lies outside."""
        if self._start <= index < self._start + self.row_count:
            self.move_cursor(row=index - self._start, animate=False)
        else:
            self._draw_window(index)

    def _draw_window(self, index: int) -> None:
        """Draw the window of rows that holds row `index` (centred on it when the rows are many) and
        put the cursor there."""
        total = len(self._all)
        self.clear()
        self._start = max(0, min(index - self.WINDOW // 2, total - self.WINDOW))
        self._add_rows((key, _cells(cells)) for key, cells in self._all[self._start : self._start + self.WINDOW])
        self.display = total > 0 or not self._empty
        if self._empty or total > self.WINDOW or self._note is not None:
            note = self._empty_note()
            if total == 0:
                note.update(Text(self._empty, style="italic"))
            elif total > self.WINDOW:
                note.update(
                    Text(
                        f"rows {self._start + 1:,}-{self._start + self.row_count:,} of {total:,} "
                        "(the cursor keys go on past the edge)",
                        style="italic",
                    )
                )
            note.display = (total == 0 and bool(self._empty)) or total > self.WINDOW
        if total:
            self.move_cursor(row=min(max(index, 0), total - 1) - self._start, animate=False)
        self._measure()

    def _add_rows(self, rows: Iterable[tuple[str, Sequence[Any]]]) -> None:
        """`DataTable.add_row` for each of `rows` (key, cells), its bookkeeping done once for them all
        (the cursor checked, the table told it changed): row by row, it was a tenth of a first visit's
        paint at 100x (a window of 200 rows in each table)."""
        columns = [column.key for column in self.ordered_columns]
        locations, data, drawn, new = self._row_locations, self._data, self.rows, self._new_rows
        first, before = not drawn, len(drawn)
        for key, cells in rows:
            row_key = RowKey(key)
            if row_key in locations:
                raise DuplicateKey(f"The row key {row_key!r} already exists.")
            if len(cells) > len(columns):
                raise ValueError("More values provided than there are columns.")
            locations[row_key] = len(drawn)
            data[row_key] = dict(zip_longest(columns, cells))
            drawn[row_key] = Row(row_key, 1)
            new.add(row_key)
        if len(drawn) == before:  # no row: nothing changed
            return
        self._require_update_dimensions = True
        self.cursor_coordinate = self.cursor_coordinate
        if first and self.columns and self.show_cursor and self.cursor_type != "none":
            self._highlight_cursor()  # a highlighted row where there was none: DataTable says so
        self._update_count += 1
        self.check_idle()

    def _measure(self) -> None:
        """Measure the drawn rows now, as DataTable would when idle: the first frame with the rows
        then has their column widths and height (no frame at the headers' widths, no second layout)."""
        if self._require_update_dimensions:
            self._require_update_dimensions = False
            new_rows = self._new_rows.copy()
            self._new_rows.clear()
            self._update_dimensions(new_rows)
            # The horizontal scrollbar before the layout too: a table of auto height is a line
            # taller with it, and the layout measures that height before `_get_scrollable_region`.
            if self.size.width:
                horizontal, _ = self._scrollbars_for(self.size.width, self.size.height)
                self.show_horizontal_scrollbar = horizontal

    def _update_dimensions(self, new_rows: Iterable[RowKey]) -> None:
        """DataTable's measure of new rows (column widths, then the virtual size), with each cell
        measured by `cell_width`: DataTable formats every cell of every new row into a renderable
        and asks Rich for its width (a window of 200 rows, over half a screen's first paint at 100x).
        Rows with a label or an automatic height go DataTable's own way."""
        rows = [self.rows[key] for key in new_rows if key in self._row_locations and key in self.rows]
        if any(row.label is not None or row.auto_height for row in rows):
            super()._update_dimensions(new_rows)
            return
        console = self.app.console
        columns = self.ordered_columns
        for column in columns:
            key = column.key
            widest = max((cell_width(console, self._data[row.key].get(key)) for row in rows), default=0)
            column.content_width = max(column.content_width, widest)
        width = sum(column.get_render_width(self) for column in self.columns.values()) + self._row_label_column_width
        header = self.header_height if self.show_header else 0
        self.virtual_size = Size(width, self._total_row_height + header)

    def _scrollbars_for(self, width: int, height: int) -> tuple[bool, bool]:
        """(horizontal, vertical): the scrollbars Textual would show with this content area, as its
        `_refresh_scrollbars` decides them (an `overflow` other than auto keeps what it has)."""
        styles, virtual = self.styles, self.virtual_size
        auto_x, auto_y = styles.overflow_x == "auto", styles.overflow_y == "auto"
        horizontal = virtual.width > width if auto_x else self.show_horizontal_scrollbar
        vertical = virtual.height > height if auto_y else self.show_vertical_scrollbar
        if auto_x and vertical and not horizontal:
            horizontal = virtual.width > width - styles.scrollbar_size_vertical
        if auto_y and horizontal and not vertical:
            vertical = virtual.height > height - styles.scrollbar_size_horizontal
        return horizontal, vertical

    def _get_scrollable_region(self, region: Region) -> Region:
        """The table's region less its scrollbars, decided here from the size this layout gives the
        table: Textual decides them only after the layout (when the new size reaches the table), so
        a table that came to need a scrollbar drew a frame a column too wide, then laid the screen
        out again a frame later."""
        horizontal, vertical = self._scrollbars_for(region.width, region.height)
        # Set without the watchers: the layout they would ask for is the one being made.
        if horizontal != self.show_horizontal_scrollbar:
            self.set_reactive(DataTable.show_horizontal_scrollbar, horizontal)
        if vertical != self.show_vertical_scrollbar:
            self.set_reactive(DataTable.show_vertical_scrollbar, vertical)
        return super()._get_scrollable_region(region)

    # -- the cursor keys slide the window past its edges ----------------------------------------
    def _at(self) -> int:
        return self._start + self.cursor_coordinate.row

    def _page(self) -> int:
        return max(1, self.scrollable_content_region.height - (self.header_height if self.show_header else 0))

    def action_cursor_down(self) -> None:
        if self.cursor_coordinate.row >= self.row_count - 1 and self._start + self.row_count < len(self._all):
            self._show(self._at() + 1)
        else:
            super().action_cursor_down()

    def action_cursor_up(self) -> None:
        if self.cursor_coordinate.row == 0 and self._start > 0:
            self._show(self._at() - 1)
        else:
            super().action_cursor_up()

    def action_page_down(self) -> None:
        target = self._at() + self._page()
        if target >= self._start + self.row_count and self._start + self.row_count < len(self._all):
            self._show(min(target, len(self._all) - 1))
        else:
            super().action_page_down()

    def action_page_up(self) -> None:
        target = self._at() - self._page()
        if target < self._start and self._start > 0:
            self._show(max(target, 0))
        else:
            super().action_page_up()

    def action_scroll_top(self) -> None:
        if self._start > 0:
            self._show(0)
        else:
            super().action_scroll_top()

    def action_scroll_bottom(self) -> None:
        if self._start + self.row_count < len(self._all):
            self._show(len(self._all) - 1)
        else:
            super().action_scroll_bottom()

    def on_idle(self) -> None:
        """DataTable measures new rows when idle, but keeps the cells it painted before that at the
        old column widths (its render caches leave the width out of their keys): such a table would
        show every cell cut to its header's width until something else cleared them. Drop those
        cells once DataTable's own idle handler (next in line) has measured the rows."""
        if self._require_update_dimensions or self._updated_cells:
            self.call_later(self._repaint_measured)

    def _repaint_measured(self) -> None:
        self._clear_caches()
        self.refresh()

    def _relayout(self) -> None:
        node: Any = self
        while node is not None and node is not self.screen:
            node.refresh(layout=True)
            node = node.parent

    def on_mount(self) -> None:
        """Mount the line under the table now, hidden, while the screen waits for its read model:
        mounted when the rows arrive, it would cost the screen a second layout and frame."""
        self._empty_note().display = False

    def _empty_note(self) -> Static:
        if self._note is None:
            self._note = Static(classes="table-empty")
            parent = self.parent
            if isinstance(parent, Widget):
                parent.mount(self._note, after=self)
        return self._note

    def cursor_row_key(self) -> str | None:
        """The key of the highlighted row (None for an empty table)."""
        if not self.row_count:
            return None
        try:
            key = self.coordinate_to_cell_key(self.cursor_coordinate).row_key.value
        except Exception:
            return None
        return str(key) if key is not None else None
