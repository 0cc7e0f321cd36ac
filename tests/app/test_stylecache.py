"""Each stylesheet source is parsed once per process (yak_tui/app/kit/stylecache.py): a second app,
and a first visit to a screen, parse only what is new, and a theme change still restyles."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import textual.css.stylesheet
from app_helpers import make_app, settle, wait_for
from textual.color import Color
from textual.css.stylesheet import Stylesheet

from yak_tui.app.kit.stylecache import PARSED_RULES, share_parsed_stylesheets
from yak_tui.app.themes import YAK_DARK, YAK_LIGHT


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Any]]:
    """Where Textual's parser was asked to parse (its `read_from`), call by call."""
    calls: list[Any] = []
    textual_parse = textual.css.stylesheet.parse

    def counting(scope: str, css: str, read_from: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(read_from)
        return textual_parse(scope, css, read_from, *args, **kwargs)

    monkeypatch.setattr(textual.css.stylesheet, "parse", counting)
    yield calls


def test_the_table_is_installed_by_the_app_module() -> None:
    assert share_parsed_stylesheets()
    assert Stylesheet._parse_rules.__name__ == "_parse_rules_once"


async def test_a_second_app_parses_nothing(save_path: Path, parsed: list[Any]) -> None:
    async with make_app(save_path).run_test(size=(100, 30)) as pilot:
        await settle(pilot)
    parsed.clear()
    async with make_app(save_path).run_test(size=(100, 30)) as pilot:
        await settle(pilot)
    assert parsed == []


async def test_a_first_visit_parses_only_the_screens_own_stylesheet(save_path: Path, parsed: list[Any]) -> None:
    PARSED_RULES.clear()  # as if this process had never shown the market
    app = make_app(save_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        parsed.clear()
        await pilot.press("b")
        await wait_for(pilot, lambda: app.current_mode == "market" and app.screen.is_mounted, what="the market")
        await settle(pilot)
        # The reparse that a new screen stylesheet starts re-reads every source: only the new ones
        # (the market's .tcss, the DEFAULT_CSS of widget kinds the dashboard had not used) are parsed.
        assert parsed, "the market's own stylesheet is new to this app"
        assert len(parsed) == len(set(parsed)), f"a source was parsed twice: {parsed}"
        assert not any("yak.tcss" in str(place) for place in parsed), parsed
        assert not any("dashboard.tcss" in str(place) for place in parsed), parsed


async def test_a_theme_change_restyles_with_the_new_themes_colours(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        app.theme = YAK_DARK.name
        await settle(pilot)
        assert app.screen.styles.background == Color.parse(YAK_DARK.background or "")
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert app.theme == YAK_LIGHT.name
        assert app.screen.styles.background == Color.parse(YAK_LIGHT.background or "")
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert app.screen.styles.background == Color.parse(YAK_DARK.background or "")
