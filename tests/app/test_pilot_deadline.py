"""Deadline and readiness on the dashboard: the GM sets the orders deadline from a small dialog
(t, the `season-deadline` command), a player or King says he is ready with y, and the GM and the
Kings see who filed, who is ready and who sent nothing."""

from __future__ import annotations

from pathlib import Path

from app_helpers import make_app, on_top, query_ready, screen_text, settle, wait_for, world_of
from textual.widgets import Button, Input

from yak_tui.app.kit.command import CommandScreen
from yak_tui.app.screens.court.panels import ReadinessPanel
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.store.storage import WorldFile


async def set_deadline(pilot: object, app: object, text: str) -> CommandScreen:
    await settle(pilot)  # type: ignore[arg-type]
    await pilot.press("t")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the deadline dialog")  # type: ignore[arg-type]
    dialog: CommandScreen = app.screen  # type: ignore[attr-defined]
    (await query_ready(pilot, dialog, "#param-at", Input)).value = text  # type: ignore[arg-type]
    return dialog


async def test_the_gm_sets_the_deadline_from_the_dashboard(save_path: Path) -> None:
    app = make_app(save_path, "gm")
    async with app.run_test(size=(140, 45)) as pilot:
        panel = app.screen.query_one(ReadinessPanel)
        assert not panel.display  # no deadline, nobody ready: the season does not use them yet
        dialog = await set_deadline(pilot, app, "2026-12-07 20:00")
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled, what="a valid deadline")
        await pilot.press("ctrl+r")
        await wait_for(
            pilot,
            lambda: world_of(save_path).meta.get("deadline") == "2026-12-07T20:00Z",
            what="the deadline in the save",
        )
        await pilot.press("escape")
        await wait_for(
            pilot,
            lambda: panel.display and "Orders due by 2026-12-07 20:00 UTC" in screen_text(app),
            what="the deadline on the dashboard",
        )
        text = screen_text(app)
        assert "King · Kingdom of Elbreth" in text and "no orders" in text  # the Kings' seats, nothing sent yet


async def test_a_bad_deadline_is_refused_and_the_save_unchanged(save_path: Path) -> None:
    before = save_path.read_bytes()
    app = make_app(save_path, "gm")
    async with app.run_test(size=(140, 45)) as pilot:
        dialog = await set_deadline(pilot, app, "next tuesday")
        await wait_for(pilot, lambda: "not 'next tuesday'" in screen_text(app), what="the reason")
        assert dialog.query_one("#run", Button).disabled
        await pilot.press("ctrl+r")
        await settle(pilot)
    assert save_path.read_bytes() == before


async def test_a_player_marks_himself_ready_and_back(save_path: Path) -> None:
    app = make_app(save_path, "player:nyx")
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        await pilot.press("y")
        await wait_for(pilot, lambda: "player:nyx" in world_of(save_path).meta.get("ready", []), what="ready")
        panel = app.screen.query_one(ReadinessPanel)
        await wait_for(pilot, lambda: panel.display and "ready" in screen_text(app), what="his state shown")
        assert "king:elbreth" not in str(panel.query_one("#readiness-table").rows)  # a player sees his own seat
        await pilot.press("y")
        await wait_for(
            pilot, lambda: "player:nyx" not in world_of(save_path).meta.get("ready", []), what="not ready yet"
        )


async def test_a_king_sees_who_filed_who_is_ready_and_who_sent_nothing(save_path: Path) -> None:
    save = WorldFile(save_path)
    run_command(save, GM, "season-deadline", {"at": "2026-12-07 20:00"})
    from yak_tui.kernel.play.identity import Identity

    run_command(save, Identity.parse("king:varos"), "ready", {"ready": True})
    app = make_app(save_path, "king:elbreth")
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        panel = app.screen.query_one(ReadinessPanel)
        await wait_for(pilot, lambda: panel.display, what="the readiness panel")
        rows = panel.query_one("#readiness-table")
        states = {key: [str(cell) for cell in rows.get_row(key)] for key in rows.rows}  # type: ignore[attr-defined]
        assert states["king:varos"][2] == "ready" and states["king:varos"][3] == ""  # state, missed seasons
        assert states["king:elbreth"][2] == "no orders"
        await pilot.press("y")
        await wait_for(pilot, lambda: "king:elbreth" in world_of(save_path).meta.get("ready", []), what="ready")


async def test_the_gm_sees_each_seats_missed_seasons_in_his_zone(save_path: Path) -> None:
    from yak_tui.kernel.play.identity import Identity
    from yak_tui.kernel.season.session import advance_season

    save = WorldFile(save_path)
    run_command(save, GM, "season-deadline", {"at": "2026-12-07 20:00"})
    run_command(save, Identity.parse("king:elbreth"), "ready", {"ready": True})
    advance_season(save, GM)  # Varos sent nothing: one season missed
    run_command(save, GM, "season-deadline", {"at": "2026-12-14 20:00 Asia/Tokyo"})
    app = make_app(save_path, "gm")
    async with app.run_test(size=(140, 45)) as pilot:
        panel = app.screen.query_one(ReadinessPanel)
        await wait_for(pilot, lambda: panel.display, what="the readiness panel")
        rows = panel.query_one("#readiness-table")
        states = {key: [str(cell) for cell in rows.get_row(key)] for key in rows.rows}  # type: ignore[attr-defined]
        assert states["king:varos"][3] == "1" and states["king:elbreth"][3] == ""
        assert "Orders due by 2026-12-14 11:00 UTC, in 12 days 23 h" in str(panel.border_title)
