"""A light table with a row cursor, for the dashboard's small lists.

DataTable is the right tool for big tables, but the first one mounted costs about 100 ms of
startup; the dashboard must paint within 2x a bare Textual app, so its handful of rows are
drawn by this widget instead: aligned columns, a header, a row cursor, keys and clicks.
The API matches `YakTable` where the screens use it: `fill`, `cursor_row_key`, `get_row`.
Like `YakTable` it draws at most `WINDOW` rows at once (the window follows the cursor) and a line
under them saying which; at 1000x the dashboard lists 3,000 kingdoms.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget


@dataclass(frozen=True)
class Shortened:
    """A cell with a short form the table shows when the whole column does not fit ("Aldric" for
    "King Aldric"); a player reads a short word, never a cut one."""

    full: Any
    short: Any

    def __str__(self) -> str:
        return str(_content(self.full)[0])


def _content(cell: Any, short: bool = False) -> tuple[Content, str]:
    """A cell as Content, and how to justify it ("right" for Text(..., justify="right"))."""
    if isinstance(cell, Shortened):
        return _content(cell.short if short else cell.full)
    if isinstance(cell, Content):
        return cell, "left"
    if isinstance(cell, Text):
        return Content.from_rich_text(cell), str(cell.justify or "left")
    return Content(str(cell)), "left"


Cells = Sequence[Any] | Callable[[], Sequence[Any]]


class RowTable(Widget, can_focus=True):
    """Rows of cells under a header; up/down move the cursor, `RowTable.Highlighted` tells."""

    DEFAULT_CSS = """
    RowTable {
        height: auto;
        padding: 0 1;
        text-wrap: nowrap;
        text-overflow: clip;
    }
    RowTable > .rowtable--header {
        color: $primary;
        text-style: bold;
    }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"rowtable--header"}
    CURSOR = "on $primary 18%"
    CURSOR_FOCUSED = "bold $block-cursor-foreground on $block-cursor-background"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("home", "first", "First", show=False),
        Binding("end", "last", "Last", show=False),
    ]

    class Highlighted(Message):
        def __init__(self, table: RowTable, key: str | None) -> None:
            super().__init__()
            self.table = table
            self.key = key

        @property
        def control(self) -> RowTable:
            return self.table

    cursor: reactive[int] = reactive(0)
    WINDOW: ClassVar[int] = 200

    def __init__(
        self, *, id: str | None = None, classes: str = "", gap: int = 2, focusable: bool = True, window: int = 0
    ) -> None:
        super().__init__(id=id, classes=classes)
        self.window = window or self.WINDOW  # rows drawn at once
        self.can_focus = focusable
        self.gap = gap
        self.columns: list[str] = []
        self.spare: tuple[int, ...] = ()  # columns left out rather than cut (`fill`)
        self._rows: list[tuple[str, list[Any] | Callable[[], Sequence[Any]]]] = []
        self._empty = ""
        self._start = 0  # the first row drawn

    # -- data -----------------------------------------------------------------------------------
    def fill(
        self,
        columns: Sequence[str | tuple[str, str]],
        rows: Iterable[tuple[str, Cells]],
        empty: str = "",
        spare: Sequence[int] = (),
    ) -> None:
        """Replace every row, keeping the cursor on the same key when it is still there. A row's cells
        may be a function, called when the row is first drawn (or asked for): only a window is.
        `spare` columns (by index) are left out when the others would otherwise be cut."""
        keep = self.cursor_row_key()
        self.columns = [c if isinstance(c, str) else c[0] for c in columns]
        self.spare = tuple(spare)
        self._rows = [(key, cells if callable(cells) else list(cells)) for key, cells in rows]
        self._empty = empty
        keys = [key for key, _ in self._rows]
        self.cursor = keys.index(keep) if keep in keys else min(self.cursor, max(0, len(keys) - 1))
        self._follow(self.cursor)
        self.refresh(layout=True)

    @property
    def row_count(self) -> int:
        return len(self._rows)

    def cursor_row_key(self) -> str | None:
        if not self._rows:
            return None
        return self._rows[min(self.cursor, len(self._rows) - 1)][0]

    def get_row(self, key: str) -> list[Any]:
        for index, (row_key, _) in enumerate(self._rows):
            if row_key == key:
                return self._cells(index)
        raise KeyError(key)

    def _cells(self, index: int) -> list[Any]:
        """Row `index`'s cells, made now (and kept) if they were given as a function."""
        key, cells = self._rows[index]
        if callable(cells):
            cells = list(cells())
            self._rows[index] = (key, cells)
        return cells

    @property
    def rows(self) -> list[str]:
        return [key for key, _ in self._rows]

    # -- moving ---------------------------------------------------------------------------------
    def action_move(self, step: int) -> None:
        if self._rows:
            self.cursor = max(0, min(len(self._rows) - 1, self.cursor + step))

    def action_first(self) -> None:
        self.cursor = 0

    def action_last(self) -> None:
        self.cursor = max(0, len(self._rows) - 1)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()

    def _follow(self, cursor: int) -> None:
        """Slide the window of drawn rows so it holds the cursor."""
        if not self._start <= cursor < self._start + self.window:
            self._start = max(0, min(cursor - self.window // 2, len(self._rows) - self.window))
            self.refresh(layout=True)
        self._start = max(0, min(self._start, len(self._rows) - self.window))

    def _drawn(self) -> list[tuple[str, list[Any]]]:
        drawn = range(self._start, min(len(self._rows), self._start + self.window))
        return [(self._rows[index][0], self._cells(index)) for index in drawn]

    def watch_cursor(self, cursor: int) -> None:
        self._follow(cursor)
        self.post_message(self.Highlighted(self, self.cursor_row_key()))
        if self.has_focus:
            self.call_after_refresh(self._reveal)

    def _reveal(self) -> None:
        """Scroll the nearest scrolling ancestor so the cursor row is in view."""
        for ancestor in self.ancestors:
            if isinstance(ancestor, Widget) and ancestor.allow_vertical_scroll:
                y = self.region.y - ancestor.region.y + int(ancestor.scroll_y) + 1 + self.cursor - self._start
                ancestor.scroll_to_region(Region(0, y, 1, 1), animate=False, immediate=True)
                return

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None and 1 <= offset.y <= len(self._drawn()):
            self.cursor = self._start + offset.y - 1
        self.focus()

    # -- drawing --------------------------------------------------------------------------------
    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        more = 1 if len(self._rows) > self.window else 0
        return 1 + max(1, len(self._drawn())) + more if self.columns else 1

    def render(self) -> Content:
        if not self._rows:
            return Content.styled(self._empty or "Nothing here.", "italic $foreground-muted")
        cells, widths, gap = self._fit(self.size.width)
        header_style = self.get_visual_style("rowtable--header", partial=True)
        header = Content(
            gap.join(
                _cut(Content(title), widths[i]).plain.ljust(widths[i])
                for i, title in enumerate(self.columns)
                if widths[i]
            )
        )
        lines = [header.stylize(header_style)]
        cursor_style = self.CURSOR_FOCUSED if self.has_focus else self.CURSOR
        for row_index, row in enumerate(cells):
            parts = []
            for index, (content, justify) in enumerate(row):
                if not widths[index]:  # a spare column left out
                    continue
                content = _cut(content, widths[index])
                pad = widths[index] - content.cell_length
                parts.append(Content(" " * pad) + content if justify == "right" else content + Content(" " * pad))
            line = Content(gap).join(parts)
            if row_index + self._start == self.cursor and self.can_focus:
                line = line.pad_right(max(0, self.size.width - line.cell_length)).stylize(cursor_style)
            lines.append(line)
        if len(self._rows) > self.window:
            lines.append(
                Content.styled(
                    f"rows {self._start + 1:,}-{self._start + len(cells):,} of {len(self._rows):,}",
                    "italic $foreground-muted",
                )
            )
        return Content("\n").join(lines)

    def _fit(self, room: int) -> tuple[list[list[tuple[Content, str]]], list[int], str]:
        """The cells, each column's width and the gap, so the row fits in `room` cells when it can:
        first the columns' short forms (`Shortened`), then a one-cell gap, then the spare columns left
        out (width 0), then the widest
        left-aligned columns cut (with "…") to a common width, so every column keeps a readable part."""
        count = len(self.columns)
        shortened = [False] * count
        gap = self.gap

        def measure() -> tuple[list[list[tuple[Content, str]]], list[int]]:
            cells = [[_content(cell, shortened[i]) for i, cell in enumerate(row[:count])] for _, row in self._drawn()]
            widths = [len(title) for title in self.columns]
            for row in cells:
                for index, (content, _) in enumerate(row):
                    widths[index] = max(widths[index], content.cell_length)
            return cells, widths

        cells, widths = measure()
        if room <= 0:
            return cells, widths, " " * gap

        def too_wide() -> bool:  # a spare column left out has width 0, and no gap
            return sum(widths) + gap * (sum(1 for w in widths if w) - 1) > room

        if too_wide():
            shortened = [
                any(isinstance(row[i], Shortened) for _, row in self._drawn() if i < len(row)) for i in range(count)
            ]
            cells, widths = measure()
        if too_wide() and gap > 1:
            gap = 1
        for spare in self.spare:
            if too_wide() and 0 <= spare < count:
                widths[spare] = 0
        shown = sum(1 for w in widths if w)
        if too_wide():
            flexible = [
                i for i in range(count) if widths[i] and all(row[i][1] != "right" for row in cells if i < len(row))
            ]
            fixed = sum(w for i, w in enumerate(widths) if i not in flexible) + gap * (shown - 1)
            share = room - fixed
            cap = max(widths[i] for i in flexible) if flexible else 0
            while cap > 1 and sum(min(widths[i], cap) for i in flexible) > share:
                cap -= 1
            for i in flexible:
                widths[i] = min(widths[i], max(cap, 1))
        return cells, widths, " " * gap


def _cut(content: Content, width: int) -> Content:
    """`content` cut to `width` cells, its last cell an ellipsis when anything was cut."""
    if content.cell_length <= width:
        return content
    return content.truncate(width, ellipsis=True)
