"""Issue 17 item 1: the focus is obvious in both themes and lands on the first thing to act on.

The focused field used to differ from the others by one shade of grey (a 5% tint); now it is tinted
with the theme's primary colour and its label turns primary. The contrast is measured on the
colours Textual paints, in the dark and the light theme."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_helpers import make_app, on_top, settle, wait_for
from textual.color import Color
from textual.widgets import Input, Label, Select, SelectionList

from yak_tui.app.screens.espionage.spy_order import SpyOrderScreen
from yak_tui.app.screens.warfare.dialogs import SiegeBeginScreen
from yak_tui.app.screens.warfare.screen import SiegesScreen


def distance(a: Color, b: Color) -> float:
    """How far apart two colours are, 0-441 (RGB euclidean): one grey shade is about 2-5."""
    return float(((a.r - b.r) ** 2 + (a.g - b.g) ** 2 + (a.b - b.b) ** 2) ** 0.5)


def painted(widget: Input | Select[str]) -> Color:
    target = widget.query_one("SelectCurrent") if isinstance(widget, Select) else widget
    return target.background_colors[1]


@pytest.mark.parametrize("theme", ["yak-dark", "yak-light"])
async def test_the_focused_field_stands_out_in_both_themes(save_path: Path, theme: str) -> None:
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=(140, 45)) as pilot:
        app.theme = theme
        await pilot.press("e")
        await wait_for(pilot, lambda: app.current_mode == "espionage", what="the board")
        await settle(pilot)
        await pilot.press("n")
        await wait_for(pilot, lambda: on_top(app, SpyOrderScreen), what="the order form")
        await settle(pilot)
        dialog = app.screen
        # The form opens on a field, never on its scroll container: the first key types or chooses.
        assert isinstance(dialog.focused, (Input, Select)), dialog.focused
        note, mission = dialog.query_one("#spy-note", Input), dialog.query_one("#spy-mission", Select)
        note.focus()
        await settle(pilot)
        note_focused, mission_blurred = painted(note), painted(mission)
        mission.focus()
        await settle(pilot)
        note_blurred, mission_focused = painted(note), painted(mission)
        assert distance(note_focused, note_blurred) > 25, (note_focused, note_blurred)
        assert distance(mission_focused, mission_blurred) > 25, (mission_focused, mission_blurred)
        label = mission.parent.query_one(Label)  # type: ignore[union-attr]
        assert distance(label.styles.color, Color.parse(app.current_theme.primary)) < 5


async def test_begin_siege_on_a_fort_without_units_focuses_the_fort_choice(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("s")
        await wait_for(pilot, lambda: on_top(app, SiegesScreen), what="the siege monitor")
        await settle(pilot)
        app.push_screen(SiegeBeginScreen("ravenrock"))
        await wait_for(pilot, lambda: on_top(app, SiegeBeginScreen), what="the dialog")
        await settle(pilot)
        dialog = app.screen
        units = dialog.query_one("#begin-units", SelectionList)
        assert not units.display
        assert dialog.focused is dialog.query_one("#begin-fort", Select)
