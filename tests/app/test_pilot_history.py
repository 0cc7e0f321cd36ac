"""The season history (GM, H): the seasons the backups keep, what changed between two of them in
`yak diff`'s words, and a rollback of several advances at once after a confirm naming what is lost."""

from __future__ import annotations

from pathlib import Path

from app_helpers import make_app, on_top, settle, wait_for, world_of
from textual.widgets import Button, Select, Static

from tests.store.restored import assert_restored
from yak_tui.app.kit.rowtable import RowTable
from yak_tui.app.shell.advance import UndoAdvanceScreen
from yak_tui.app.shell.history import HistoryScreen
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import SeededDice
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.season.history import diff_worlds, season_state
from yak_tui.kernel.season.session import advance_season
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile


def three_seasons(path: Path) -> bytes:
    """Spring, Summer and Autumn 312 (the save); returns Spring's bytes as it closed."""
    save = WorldFile(path)
    run_command(save, GM, "gm-set", {"table": "kingdoms", "id": "elbreth", "field": "treasury", "value": "99"})
    spring = path.read_bytes()
    advance_season(save, GM, SeededDice(1))
    run_command(save, GM, "gm-set", {"table": "kingdoms", "id": "elbreth", "field": "treasury", "value": "120"})
    advance_season(save, GM, SeededDice(2))
    return spring


async def open_history(pilot: object, app: object) -> HistoryScreen:
    await settle(pilot)  # type: ignore[arg-type]
    await pilot.press("H")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: on_top(app, HistoryScreen), what="the history view")  # type: ignore[arg-type]
    screen: HistoryScreen = app.screen  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: screen.view is not None, what="the history")  # type: ignore[arg-type]
    await settle(pilot)  # type: ignore[arg-type]
    return screen


def diff_text(screen: HistoryScreen) -> str:
    return str(screen.query_one("#diff-text", Static).render())


async def test_the_gm_compares_two_kept_seasons_as_yak_diff_does(save_path: Path) -> None:
    three_seasons(save_path)
    app = make_app(save_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_history(pilot, app)
        assert [r.label for r in screen.view.seasons] == ["Spring 312", "Summer 312", "Autumn 312"]  # type: ignore[union-attr]
        screen.query_one("#history-before", Select).value = "Spring 312"
        screen.query_one("#history-after", Select).value = "Summer 312"
        save = WorldFile(save_path)
        expected = diff_worlds(World(season_state(save, "Spring 312")), World(season_state(save, "Summer 312")), GM)
        await wait_for(pilot, lambda: diff_text(screen) == "\n".join(expected.lines()), what="yak diff's words")
        assert "Treasury: 99 → 120" in diff_text(screen)


async def test_the_gm_rolls_back_two_advances_after_a_confirm_naming_what_is_lost(save_path: Path) -> None:
    spring = three_seasons(save_path)
    app = make_app(save_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_history(pilot, app)
        table = screen.query_one("#seasons-table", RowTable)
        table.focus()
        await pilot.press("end")  # the oldest season kept: Spring 312
        await wait_for(pilot, lambda: table.cursor_row_key() == "Spring 312", what="Spring highlighted")
        await pilot.press("z")
        await wait_for(pilot, lambda: on_top(app, UndoAdvanceScreen), what="the confirm")
        dialog = app.screen
        text = str(dialog.query_one("#undo-advance-text", Static).render())
        assert "before Spring 312 closed" in text and "Summer 312, Autumn 312, is lost" in text
        assert "Roll back 2 advances" in str(dialog.query_one("#dialog-title", Static).render())
        assert dialog.focused is dialog.query_one("#close", Button)  # the safe choice first
        await pilot.click("#restore")
        await wait_for(pilot, lambda: world_of(save_path).date.label() == "Spring 312", what="the rollback")
        await wait_for(pilot, lambda: app.world.date.label() == "Spring 312", what="the app on the restored season")
    assert_restored(save_path.read_bytes(), spring)  # the backup, and the restore's public event


async def test_the_history_is_the_gms(save_path: Path) -> None:
    three_seasons(save_path)
    app = make_app(save_path, "king:elbreth")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await settle(pilot)
        assert not isinstance(app.screen, HistoryScreen)
        assert "Season history" not in {e.title for e in app.palette_entries(app.screen)}


async def test_a_long_diff_is_laid_out_a_page_at_a_time(save_path: Path, monkeypatch: object) -> None:
    """Issue 30: at 1000x a season's diff is 11,001 lines; the screen lays out a page of them, and
    ] turns to the next."""
    from yak_tui.app.kit import pagedtext

    monkeypatch.setattr(pagedtext, "PAGE_LINES", 1)  # type: ignore[attr-defined]
    three_seasons(save_path)
    app = make_app(save_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_history(pilot, app)
        screen.query_one("#history-before", Select).value = "Spring 312"
        screen.query_one("#history-after", Select).value = "Summer 312"
        save = WorldFile(save_path)
        lines = diff_worlds(
            World(season_state(save, "Spring 312")), World(season_state(save, "Summer 312")), GM
        ).lines()
        assert len(lines) == 2
        await wait_for(pilot, lambda: diff_text(screen) == lines[0], what="the first page")
        assert screen.query_one("#diff-body").border_subtitle == "lines 1-1 of 2 · ] next page"
        await pilot.press("right_square_bracket")
        await wait_for(pilot, lambda: diff_text(screen) == lines[1], what="the second page")
