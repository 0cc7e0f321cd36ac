"""`PagedText` wraps a page once and draws the lines on screen only (issue 30), not the 400 of a page
(wrapped three times, laid out and drawn whole, a season's diff cost History 60-90 ms at 100x).
What it draws must be what the whole page drawn by Textual gives, line for line."""

from __future__ import annotations

from typing import Any

from app_helpers import settle
from textual.app import App, ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content

from yak_tui.app.kit.pagedtext import PagedText

LINES: list[Any] = [
    "Spring 312 → Summer 312",
    "",
    Content.styled("kingdoms", "bold"),
    Content.assemble(("  Varos: ", "italic"), ("treasury 12 → 30", "$success")),
    "  王国 · wide characters",
    "  trailing spaces   ",
    "  a line too long for the width of the panel, so that Textual wraps it over two lines or three",
    "  a paragraph\nin two lines",
    Content.styled("  muted", "italic $foreground-muted"),
    *(f"  line {i}" for i in range(60)),
]


class Pager(App[None]):
    CSS = "VerticalScroll { height: 20; width: 60; } PagedText { height: auto; }"

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield PagedText(id="text", page_lines=50)


def drawn(text: PagedText) -> list[Any]:
    return [[(segment.text, segment.style) for segment in text.render_line(y)] for y in range(text.size.height)]


async def test_a_page_drawn_line_by_line_is_the_page_textual_draws_whole() -> None:
    app = Pager()
    async with app.run_test(size=(80, 24)) as pilot:
        text = app.query_one(PagedText)
        text.show_lines(LINES)
        await settle(pilot)
        assert text._by_line()
        height = text.size.height
        lazily = drawn(text)
        assert len(text._strips) == height  # every line asked for, one at a time
        text._page = None  # as a message: Textual lays it out and draws it whole
        text.refresh(layout=True)
        await settle(pilot)
        assert not text._by_line() and text.size.height == height
        assert drawn(text) == lazily


async def test_only_the_lines_on_screen_are_drawn_and_the_page_is_wrapped_once(monkeypatch: Any) -> None:
    wraps: list[int] = []
    wrap = Content._wrap_and_format

    def counted(self: Content, width: int, *args: Any, **kwargs: Any) -> Any:
        wraps.append(width)
        return wrap(self, width, *args, **kwargs)

    monkeypatch.setattr(Content, "_wrap_and_format", counted)
    app = Pager()
    async with app.run_test(size=(80, 24)) as pilot:
        text = app.query_one(PagedText)
        await settle(pilot)
        wraps.clear()
        text.show_lines([f"line {i} " + "word " * 15 for i in range(400)])  # each wraps over two lines
        await settle(pilot)
        assert text.size.height == 100  # a page of 50 lines, each wrapped over two
        assert 0 < len(text._strips) <= 20  # the 20 lines on screen, not the page's 100
        assert len(wraps) <= 2  # the page wrapped once for each width it was laid out at
