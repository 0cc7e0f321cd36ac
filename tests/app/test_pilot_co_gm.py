"""A co-GM at the table (`gm:alice`): he has the GM's keys and queue, his acts are signed with his
name, and a GM reading the chronicle sees "by alice"; a player does not."""

from __future__ import annotations

from pathlib import Path

from app_helpers import make_app, on_top, screen_text, settle, wait_for, widget_text, world_of
from textual.widgets import Button

from yak_tui.app.kit.command import CommandScreen
from yak_tui.app.kit.rowtable import RowTable


async def test_a_co_gm_resolves_an_order_and_the_act_is_signed(busy_save: Path) -> None:
    app = make_app(busy_save, "gm:alice")
    async with app.run_test(size=(140, 45)) as pilot:
        assert "GM · alice" in screen_text(app)  # the header names the seat
        queue = app.screen.query_one("#queue-table", RowTable)
        await wait_for(pilot, lambda: queue.row_count == 1, what="the GM's queue")
        queue.focus()
        await pilot.press("x")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the resolve dialog")
        dialog = app.screen
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled, what="the run button")
        await pilot.press("ctrl+r")
        await wait_for(
            pilot,
            lambda: world_of(busy_save).get("orders", "o-0001")["status"] == "resolved",
            what="the order resolved",
        )
        order = world_of(busy_save).get("orders", "o-0001")
        assert order["resolved_by"] == "gm:alice"
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("c")
        await wait_for(
            pilot,
            lambda: app.current_mode == "chronicle" and "by alice" in widget_text(app),
            what="the signature in the GM's chronicle",
        )


async def test_a_player_does_not_see_which_gm_acted(busy_save: Path) -> None:
    from yak_tui.kernel.play.commands import run_command
    from yak_tui.kernel.play.identity import Identity
    from yak_tui.store.storage import WorldFile

    run_command(WorldFile(busy_save), Identity.parse("gm:alice"), "note", {"text": "The river floods"})
    app = make_app(busy_save, "player:nyx")
    async with app.run_test(size=(140, 45)) as pilot:
        await wait_for(pilot, lambda: "The river floods" in widget_text(app), what="the public note")
        assert "by alice" not in widget_text(app)
