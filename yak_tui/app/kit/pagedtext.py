"""A long text drawn a page at a time: a `Static` that holds every line and lays out only
`PAGE_LINES` of them (issue 30: at 1000x the GM's report is 24,017 lines and a season's diff 11,001;
laid out whole, each cost 25 s and 500 MB). `turn(±1)` shows the next or previous page; `status`
says which lines are shown, for the panel's subtitle."""

from __future__ import annotations

from collections.abc import Sequence

from textual.content import Content
from textual.widgets import Static

PAGE_LINES = 400


class PagedText(Static):
    def __init__(self, *, id: str | None = None, page_lines: int | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.page_lines = page_lines or PAGE_LINES
        self.lines: Sequence[Content | str] = ()
        self.page = 0

    @property
    def pages(self) -> int:
        return max(1, -(-len(self.lines) // self.page_lines))

    def show_lines(self, lines: Sequence[Content | str], keep_page: bool = False) -> None:
        """Hold `lines` and draw a page of them (the first, or the same one when `keep_page`)."""
        self.lines = lines
        self.page = min(self.page, self.pages - 1) if keep_page else 0
        self._draw()

    def show_message(self, message: Content | str) -> None:
        self.lines = ()
        self.page = 0
        self.update(message)

    def turn(self, delta: int) -> bool:
        """Show the page `delta` pages on; False when there is none there."""
        page = self.page + delta
        if not 0 <= page < self.pages or not self.lines:
            return False
        self.page = page
        self._draw()
        return True

    @property
    def status(self) -> str:
        """`lines 1-400 of 24,017 · ] next page`; empty when the whole text is one page."""
        if self.pages <= 1:
            return ""
        first = self.page * self.page_lines + 1
        last = min(len(self.lines), first + self.page_lines - 1)
        keys = [key for key, there in (("[ previous", self.page > 0), ("] next", self.page < self.pages - 1)) if there]
        return f"lines {first:,}-{last:,} of {len(self.lines):,} · {', '.join(keys)} page"

    def _draw(self) -> None:
        start = self.page * self.page_lines
        shown = self.lines[start : start + self.page_lines]
        self.update(Content("\n").join(line if isinstance(line, Content) else Content(line) for line in shown))
