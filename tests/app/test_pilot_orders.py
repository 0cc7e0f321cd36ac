"""Orders end to end in the app: a player files one from his holdings (validated as typed), it
waits in the adjudicator's queue, the GM resolves it with dice or rejects it with a reason, and
the player sees its state and outcome."""

from __future__ import annotations

from pathlib import Path

from app_helpers import click, make_app, on_top, query_ready, screen_text, wait_for, widget_text, world_of
from textual.widgets import Button, Input, Select

from yak_tui.app.kit.command import CommandScreen
from yak_tui.app.kit.dice import DiceTray
from yak_tui.app.kit.order import OrderScreen
from yak_tui.app.kit.rowtable import RowTable


async def test_a_player_files_an_order_from_his_holdings(save_path: Path) -> None:
    app = make_app(save_path, "player:nyx")
    async with app.run_test(size=(110, 40)) as pilot:
        holdings = app.screen.query_one("#holdings-table", RowTable)
        await wait_for(pilot, lambda: holdings.row_count > 0)
        holdings.focus()
        await pilot.press("o")
        await wait_for(pilot, lambda: on_top(app, OrderScreen), what="the order form")
        dialog = app.screen
        assert "for Nyx" in screen_text(app)
        dialog.query_one("#order-command", Select).value = "roll"
        reason = await query_ready(pilot, dialog, "#param-reason", Input)
        # Validated as typed: nothing typed yet, so nothing may be filed.
        await wait_for(pilot, lambda: dialog.query_one("#file", Button).disabled)
        reason.focus()
        await wait_for(pilot, lambda: dialog.focused is reason, what="the reason focused")
        await pilot.press(*"Slip into Varosgate")
        await wait_for(pilot, lambda: not dialog.query_one("#file", Button).disabled, what="a valid order")
        # Privacy is not his to choose (RULINGS §1): a roll is a public order, and the form says so.
        assert not dialog.query("#order-private")
        assert "Public: every seat reads this order." in screen_text(app)
        await click(pilot, "#file")
        await wait_for(pilot, lambda: not isinstance(app.screen, OrderScreen), what="filed")
        orders = world_of(save_path).table("orders")
        assert len(orders) == 1
        order = next(iter(orders.values()))
        assert order["filed_by"] == "player:nyx" and order["status"] == "waiting" and order["adjudicator"] == "gm"
        assert order["params"]["reason"] == "Slip into Varosgate"
        table = app.screen.query_one("#my-orders-table", RowTable)
        await wait_for(pilot, lambda: table.row_count == 1 and "waiting" in widget_text(app), what="my orders")


async def test_the_gm_resolves_an_order_from_the_queue_with_dice(busy_save: Path) -> None:
    app = make_app(busy_save)
    async with app.run_test(size=(110, 40)) as pilot:
        queue = app.screen.query_one("#queue-table", RowTable)
        await wait_for(pilot, lambda: queue.row_count == 1)
        queue.focus()
        await pilot.press("x")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the resolve dialog")
        dialog = app.screen
        await wait_for(pilot, lambda: "succeeds:" in screen_text(app), what="the order's odds")
        assert "Resolve Nyx's order: roll" in screen_text(app) and "o-0001" not in screen_text(app)
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: dialog.query_one(DiceTray).display, what="the dice")
        order = world_of(busy_save).get("orders", "o-0001")
        assert order["status"] == "resolved" and order["outcome"]
        tray = dialog.query_one(DiceTray)
        entry = world_of(busy_save).get("chronicle", order["entries"][0])
        assert tray.rolls[0].naturals == tuple(entry["rolls"][0]["naturals"])
        await pilot.press("escape")
        await wait_for(pilot, lambda: "No orders wait for you." in screen_text(app), what="an empty queue")


async def test_the_gm_rejects_with_a_reason_and_the_player_sees_it(busy_save: Path) -> None:
    app = make_app(busy_save)
    async with app.run_test(size=(110, 40)) as pilot:
        queue = app.screen.query_one("#queue-table", RowTable)
        await wait_for(pilot, lambda: queue.row_count == 1)
        queue.focus()
        await pilot.press("j")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the reject dialog")
        dialog = app.screen
        await pilot.press(*"The patrol is doubled tonight")
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled)
        await pilot.press("enter")
        await wait_for(pilot, lambda: world_of(busy_save).get("orders", "o-0001")["status"] == "rejected")
        assert world_of(busy_save).get("orders", "o-0001")["reason"] == "The patrol is doubled tonight"
        await pilot.press("escape")
        # Hotseat: the GM hands the keyboard to Nyx, who sees his order's state and the reason.
        app.switch_identity("player:nyx")
        await wait_for(pilot, lambda: "◆ Player · Nyx" in screen_text(app))
        await wait_for(
            pilot,
            lambda: "rejected" in widget_text(app) and "The patrol is doubled tonight" in widget_text(app),
            what="the player's view of the rejection",
        )


async def test_a_player_withdraws_his_waiting_order(busy_save: Path) -> None:
    app = make_app(busy_save, "player:nyx")
    async with app.run_test(size=(110, 40)) as pilot:
        mine = app.screen.query_one("#my-orders-table", RowTable)
        await wait_for(pilot, lambda: mine.row_count == 1)
        mine.focus()
        await pilot.press("w")
        await wait_for(pilot, lambda: on_top(app, CommandScreen))
        await wait_for(pilot, lambda: not app.screen.query_one("#run", Button).disabled)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: world_of(busy_save).get("orders", "o-0001")["status"] == "withdrawn")
