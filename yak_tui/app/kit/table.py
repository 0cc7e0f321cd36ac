"""`YakTable`, a DataTable that refills in place, and `YakInput`, an Input that obeys the app's
cursor-blink setting. Import them from `yak_tui.app.kit.common` (loaded on first use)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.text import Text
from textual.widget import Widget
from textual.widgets import DataTable, Input, Static


class YakInput(Input):
    """An Input whose cursor blinks only when the app allows it (snapshots, slow SSH links)."""

    def on_mount(self) -> None:
        self.cursor_blink = bool(getattr(self.app, "cursor_blink", True))


class YakTable(DataTable[Any]):
    """A DataTable that refills from rows and keeps the cursor on the same key."""

    def __init__(self, *, id: str | None = None, classes: str = "", zebra: bool = True) -> None:
        super().__init__(id=id, classes=classes, cursor_type="row", zebra_stripes=zebra)
        self._note: Static | None = None

    def fill(self, columns: Sequence[str | tuple[str, str]], rows: Iterable[tuple[str, Sequence[Any]]],
             empty: str = "") -> None:
        """Replace every row; `rows` are (key, cells). With no rows the table gives way to `empty`."""
        keep = self.cursor_row_key()
        self.clear(columns=True)
        for column in columns:
            label, key = (column, column) if isinstance(column, str) else column
            self.add_column(label, key=key)
        count = 0
        for key, cells in rows:
            self.add_row(*cells, key=key)
            count += 1
        self.display = count > 0 or not empty
        if empty:
            note = self._empty_note()
            note.update(Text(empty, style="italic"))
            note.display = count == 0
        if keep is not None and keep in self.rows:
            self.move_cursor(row=self.get_row_index(keep), animate=False)
        # The table measures its rows when idle; lay out again then so `height: auto` fits them
        # (and so do the auto-sized containers around it).
        self.call_after_refresh(self._relayout)

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


