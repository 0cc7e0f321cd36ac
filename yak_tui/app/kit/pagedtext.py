"""A long text drawn a page at a time: a `Static` that holds every line and lays out only
`PAGE_LINES` of them (issue 30: at 1000x the GM's report is 24,017 lines and a season's diff 11,001;
laid out whole, each cost 25 s and 500 MB). `turn(±1)` shows the next or previous page; `status`
says which lines are shown, for the panel's subtitle.

A page is wrapped once for its width and drawn a line at a time, as its lines come into view: Textual
wrapped all 400 lines of a page to lay it out, again to draw them all at once (for a screen that
shows 30 of them), and all of it again when a scrollbar came: 60-90 ms of a first visit at 100x."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.content import Content
from textual.css.styles import RulesMap
from textual.geometry import Size
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual
from textual.widgets import Static

PAGE_LINES = 400


class PagedText(Static):
    def __init__(self, *, id: str | None = None, page_lines: int | None = None) -> None:
        super().__init__("", id=id, markup=False)
        self.page_lines = page_lines or PAGE_LINES
        self.lines: Sequence[Content | str] = ()
        self.page = 0
        self._page: Content | None = None  # the page shown (None: a message)
        self._wrapped: tuple[tuple[object, ...], list[Any]] | None = None  # `_lines_at`
        self._strips: dict[int, Strip] = {}  # lines drawn, for `_strips_for`
        self._strips_for: tuple[Size, object] | None = None

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
        self._page = None
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
        self._page = Content("\n").join(line if isinstance(line, Content) else Content(line) for line in shown)
        self._wrapped = None
        self._strips.clear()
        self.update(self._page)

    # -- the lines on screen only -------------------------------------------------------------------
    def _by_line(self) -> bool:
        """Whether the page is drawn a line at a time: nothing selected, the text at the top left
        (where Textual puts it); a message is drawn by Textual."""
        return self._page is not None and self.text_selection is None and self.styles.content_align == ("left", "top")

    def _lines_at(self, width: int) -> list[Any]:
        """The page wrapped at `width`, as `Content.render_strips` wraps it to draw it (kept until
        the page, the width or a rule of the wrap changes)."""
        assert self._page is not None
        get_rule = self.styles.get
        align: Any = get_rule("text_align", "left")
        overflow: Any = get_rule("text_overflow", "fold")
        no_wrap = get_rule("text_wrap", "wrap") == "nowrap"
        line_pad: Any = get_rule("line_pad", 0)
        rules = (align, overflow, no_wrap, line_pad)
        if self._wrapped is None or self._wrapped[0] != (width, rules):
            lines = self._page._wrap_and_format(
                width,
                align=align,
                overflow=overflow,
                no_wrap=no_wrap,
                line_pad=line_pad,
                tab_size=8,
                get_style=self._get_style,
            )
            self._wrapped = ((width, rules), lines)
        return self._wrapped[1]

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        if width and self._by_line():
            return len(self._lines_at(width))
        return super().get_content_height(container, viewport, width)

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        if not width or not self._by_line():
            return super().render_line(y)
        style = self.visual_style
        if self._dirty_regions or self._strips_for != (self.size, style):
            self._strips.clear()
            self._strips_for = (self.size, style)
            self._dirty_regions.clear()
        strip = self._strips.get(y)
        if strip is None:
            lines = self._lines_at(width)
            strips = Visual.to_strips(self, _Line(lines[y]), width, 1, style) if 0 <= y < len(lines) else []
            strip = strips[0] if strips else Strip.blank(width, style.rich_style)
            self._strips[y] = strip
        return strip


class _Line(Visual):
    """One line of a page wrapped by `Content._wrap_and_format`, drawn as `Content.render_strips`
    draws each line of the page."""

    def __init__(self, line: Any) -> None:
        self.line = line

    def render_strips(self, width: int, height: int | None, style: Style, options: RenderOptions) -> list[Strip]:
        return [Strip(*self.line.to_strip(style))] if width else []

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self.line.content.cell_length

    def get_height(self, rules: RulesMap, width: int) -> int:
        return 1
