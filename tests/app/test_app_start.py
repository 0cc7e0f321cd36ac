"""Issue 13, the app's first paint: what the start does before the dashboard shows its data.

The start parses the stylesheets as few times as Textual allows: the theme is given to the
stylesheet before anything is parsed (assigning it made Textual parse every sheet again once
running), and the dashboard's sheet comes with the app's (a sheet a screen brings when it mounts
makes Textual parse them all again).
The theme the start chose is the one painted, in both themes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, settle, wait_for
from textual.color import Color
from textual.css.stylesheet import Stylesheet
from textual.theme import Theme
from textual.widgets import Static

from yak_tui.app.kit import screens as kit_screens
from yak_tui.app.screens.court.dashboard import DashboardScreen
from yak_tui.app.themes import YAK_DARK, YAK_LIGHT


def _dashboard_painted(app: object) -> bool:
    screen = getattr(app, "screen", None)
    return isinstance(screen, DashboardScreen) and screen.view is not None and not screen.loader.pending


async def test_the_start_reparses_the_stylesheets_at_most_once(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    reparsed: list[int] = []
    original = Stylesheet.reparse

    def counting(self: Stylesheet) -> None:
        reparsed.append(1)
        original(self)

    monkeypatch.setattr(Stylesheet, "reparse", counting)
    app = make_app(save_path, poll_interval=0)
    kit_screens._WARMED.add(app)  # the start alone: the warm-up that follows it parses the other screens' CSS
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: _dashboard_painted(app), what="the dashboard with its data")
        await settle(pilot)
        # Textual refreshes the CSS once for the first screen of a mode; the start used to parse
        # every sheet three times more (the theme set, the dashboard's sheet, the refresh both called for).
        assert len(reparsed) <= 1
        assert app.screen.query_one("#treasury").styles.min_height is not None  # dashboard.tcss applies
        assert app.screen.query_one("#treasury").styles.min_height.value == 12
        assert str(app.stylesheet.source).count("dashboard.tcss") == 1


@pytest.mark.parametrize(("wanted", "theme"), [("dark", YAK_DARK), ("light", YAK_LIGHT)])
async def test_the_start_paints_the_theme_it_chose(
    save_path: Path, monkeypatch: pytest.MonkeyPatch, wanted: str, theme: Theme
) -> None:
    monkeypatch.setenv("YAK_THEME", wanted)
    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: _dashboard_painted(app), what="the dashboard with its data")
        await settle(pilot)
        name, dark = theme.name, theme.dark
        assert app.theme == name
        assert app.has_class(f"-theme-{name}")
        assert app.has_class("-dark-mode") is dark and app.has_class("-light-mode") is not dark
        assert app.screen.styles.background == Color.parse(theme.background or "")
        # And toggling still works from there, both ways.
        app.action_toggle_theme()
        await settle(pilot)
        other = YAK_LIGHT if dark else YAK_DARK
        assert app.theme == other.name and app.has_class(f"-theme-{other.name}")
        assert not app.has_class(f"-theme-{name}")
        assert app.screen.styles.background == Color.parse(other.background or "")


async def test_the_treasury_text_before_the_plot_is_a_screenful(save_path: Path) -> None:
    """At 1000x the numbers shown until plotext is in were 3,000 lines, laid out on the first paint."""
    from yak_tui.app.kit.plot import TEXT_LINES, TreasuryPlot
    from yak_tui.areas.court import Series

    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: _dashboard_painted(app), what="the dashboard with its data")
        plot = app.screen.query_one(TreasuryPlot)
        plot.ready = False  # as before plotext is in
        plot.set_series(
            tuple(
                Series(f"k{i}", f"Realm {i}", "#D8A441", ("Spring 300",), (float(i),)) for i in range(TEXT_LINES + 25)
            )
        )
        lines = str(plot.query_one("#plot-text", Static).render()).splitlines()
        assert len(lines) == TEXT_LINES + 1
        assert lines[0] == "Realm 0: 0" and lines[TEXT_LINES - 1] == f"Realm {TEXT_LINES - 1}: {TEXT_LINES - 1}"
        assert lines[-1] == "and 25 more"
        plot.set_series(tuple(Series(f"k{i}", f"Realm {i}", "", ("Spring 300",), (1.0,)) for i in range(3)))
        assert str(plot.query_one("#plot-text", Static).render()).splitlines()[-1] == "Realm 2: 1"


async def test_the_kingdoms_panel_makes_only_the_rows_it_draws(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 1000x the dashboard made the cells of all 3,000 kingdoms to draw the first 50."""
    from yak_tui.app.kit.rowtable import RowTable
    from yak_tui.app.screens.court import panels

    made: list[str] = []
    original = panels.kingdom_cells

    def counting(k: Any) -> list[Any]:
        made.append(k.id)
        return original(k)

    monkeypatch.setattr(panels, "kingdom_cells", counting)
    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(140, 45)) as pilot:
        await wait_for(pilot, lambda: _dashboard_painted(app), what="the dashboard with its data")
        view = app.screen.view
        assert view is not None
        many = tuple(k._replace(id=f"{k.id}-{i}", short=f"Realm {i}") for i in range(500) for k in view.kingdoms[:1])
        made.clear()
        app.screen.query_one(panels.KingdomsPanel).show(view._replace(kingdoms=many))
        table = app.screen.query_one("#kingdoms-table", RowTable)
        await settle(pilot)
        lines = table.render().plain.splitlines()
        assert table.row_count == 500 and lines[-1] == f"rows 1-{panels.KINGDOM_ROWS} of 500"
        assert "Realm 0" in lines[1] and f"Realm {panels.KINGDOM_ROWS - 1}" in lines[-2]
        assert len(set(made)) == panels.KINGDOM_ROWS  # the drawn rows' cells only, each made once
        assert len(made) == panels.KINGDOM_ROWS
        assert str(table.get_row(many[-1].id)[0]).endswith("Realm 499")  # any row is still there when asked


async def test_a_screen_opened_after_a_theme_change_wears_the_new_theme(save_path: Path) -> None:
    """The theme set at the start is a theme like any other: after ctrl+t, a screen never shown
    before (with a sheet of its own) is drawn in the new theme with its own rules applied."""
    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: _dashboard_painted(app), what="the dashboard with its data")
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert app.theme == YAK_LIGHT.name
        for key, mode in (("b", "market"), ("c", "chronicle")):
            await pilot.press(key)
            await wait_for(pilot, lambda m=mode: app.current_mode == m and app.screen.is_mounted, what=mode)
            await settle(pilot)
            assert app.screen.styles.background == Color.parse(YAK_LIGHT.background or "")
        await pilot.press("b")
        await settle(pilot)
        assert app.screen.query_one("#market-right").styles.width is not None
        assert str(app.screen.query_one("#market-right").styles.width) == "2fr"  # market.tcss applies
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert app.screen.styles.background == Color.parse(YAK_DARK.background or "")


@pytest.mark.parametrize("inline", [True, False])
async def test_yak_tuis_first_frame_is_the_dashboard_with_its_data(save_path: Path, inline: bool) -> None:
    """Issue 30: `yak tui` (an app alone in its process) builds the dashboard's first read model before
    its first frame, so that frame shows the kingdoms: no empty dashboard drawn, laid out and drawn
    again. The sessions of `yak serve` (several apps in one process) still build it in a thread."""
    from yak_tui.app.main import YakApp

    app = YakApp(save_path, "gm", animations=False, poll_interval=0, cursor_blink=False, first_view_inline=inline)
    first: list[bool] = []
    shown = app._display

    def display(screen: Any, renderable: Any) -> None:
        shown(screen, renderable)
        if renderable is not None and not first and isinstance(app.screen, DashboardScreen):
            first.append(app.screen.view is not None)

    app._display = display  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: _dashboard_painted(app), what="the dashboard with its data")
    assert first == [inline]
