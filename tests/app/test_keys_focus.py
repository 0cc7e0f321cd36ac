"""Issue 29, "Keys and focus": each key lands where the focus shows, and each key named in the key
bar or the help does what it says (or says why not)."""

from __future__ import annotations

from pathlib import Path

from app_helpers import make_app, on_top, populate, query_ready, screen_text, settle, wait_for, world_of
from test_sieges_screen import besiege, dialog_of, open_sieges
from textual.containers import VerticalScroll
from textual.widgets import Button, Input, Select

from yak_tui.app.kit.command import CommandScreen
from yak_tui.app.kit.order import OrderScreen
from yak_tui.app.screens.court.dashboard import DashboardScreen
from yak_tui.app.shell.advance import AdvanceScreen
from yak_tui.app.shell.history import HistoryScreen
from yak_tui.app.shell.reports import ReportsScreen
from yak_tui.app.shell.world import WorldScreen

SIZE = (80, 24)


def values(dialog: OrderScreen) -> dict[str, object]:
    return {w.id: w.value for w in dialog.query("Select, Input") if w.id}


async def test_the_smuggle_form_takes_a_name_typed_into_its_list(save_path: Path) -> None:
    """The order opens on its first empty field (the merchant), and "Corvin" typed there opens the
    list on Corvin: enter chooses him. The fort chosen before stays as it was."""
    besiege(save_path)
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=SIZE) as pilot:
        await open_sieges(pilot)
        await pilot.press("p")
        dialog: OrderScreen = await dialog_of(pilot, OrderScreen)
        merchant = await query_ready(pilot, dialog, "#param-merchant", Select)
        await settle(pilot)
        assert dialog.focused is merchant
        await pilot.press(*"Corvin", "enter", "tab", "3")
        await wait_for(pilot, lambda: dialog.query_one("#param-shipments", Input).value == "3", what="3 shipments")
        got = values(dialog)
        assert got["param-fort"] == "brinehaven" and got["param-merchant"] == "corvin", got


async def test_a_search_in_a_list_never_lands_on_its_blank_line(save_path: Path) -> None:
    """Letters found only in the blank line's "(choose)" went to it: enter then emptied the fort
    ("is required"). A search may move to another fort, never to the blank line."""
    besiege(save_path)
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=SIZE) as pilot:
        await open_sieges(pilot)
        await pilot.press("p")
        dialog: OrderScreen = await dialog_of(pilot, OrderScreen)
        fort = await query_ready(pilot, dialog, "#param-fort", Select)
        fort.focus()
        await settle(pilot)
        await pilot.press("down", *"oos", "enter")
        await settle(pilot)
        assert not fort.is_blank()
        assert "is required" not in screen_text(app)


async def test_shift_e_on_the_gms_dashboard_opens_the_world_editor(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert app.screen.focused is not None and app.screen.edit_target() is None  # nothing under the cursor
        await pilot.press("E")
        await wait_for(pilot, lambda: on_top(app, WorldScreen), what="the World editor")


async def test_i_as_a_player_says_why_not(save_path: Path) -> None:
    """The palette's "Act as" answers a player's seat; the key answers the same."""
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await wait_for(
            pilot,
            lambda: any("Only a GM seat" in n.message for n in app._notifications),
            what="the refusal",
        )
        assert isinstance(app.screen, DashboardScreen)


async def test_history_opens_on_the_seasons_not_the_dropdown(save_path: Path) -> None:
    populate(save_path)
    app = make_app(save_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await wait_for(pilot, lambda: on_top(app, HistoryScreen), what="the history")
        await settle(pilot)
        table = app.screen.query_one("#seasons-table")
        assert app.screen.focused is table
        before = app.screen.query_one("#history-before", Select)
        await pilot.press("down")
        await settle(pilot)
        assert not before.expanded and app.screen.focused is table


async def test_page_down_scrolls_the_advance_preview(save_path: Path) -> None:
    """The Advance button has the focus (enter confirms); page down still scrolls the preview."""
    populate(save_path)
    app = make_app(save_path)
    async with app.run_test(size=(80, 16)) as pilot:  # a preview longer than its box
        await settle(pilot)
        await pilot.press("a")
        await wait_for(pilot, lambda: on_top(app, AdvanceScreen), what="the advance dialog")
        dialog = app.screen
        await wait_for(pilot, lambda: dialog.preview is not None, what="the preview")  # type: ignore[attr-defined]
        await settle(pilot)
        # The body scrolls, or the dialog as a whole when the body is laid out at its full height.
        boxes = [dialog.query_one("#dialog-body", VerticalScroll), dialog.query_one("#dialog")]
        assert any(box.max_scroll_y > 0 for box in boxes)
        focused = dialog.focused
        for box in boxes:
            box.scroll_home(animate=False)
        await settle(pilot)
        await pilot.press("pagedown")
        await wait_for(pilot, lambda: any(box.scroll_y > 0 for box in boxes), what="the preview scrolled down")
        await pilot.press("pageup")
        await wait_for(pilot, lambda: all(box.scroll_y == 0 for box in boxes), what="the preview scrolled up")
        assert dialog.focused is focused  # the focus stays where it was (enter still confirms)


async def test_the_deadline_dialog_reads_the_deadline_just_set(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        await pilot.press("t")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the deadline dialog")
        dialog = app.screen
        (await query_ready(pilot, dialog, "#param-at", Input)).value = "2026-12-07 20:00"
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled, what="a valid deadline")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: world_of(save_path).meta.get("deadline"), what="the deadline set")
        await wait_for(pilot, lambda: dialog.query_one("#close", Button).display, what="the result")
        assert not dialog.query_one("#again", Button).display  # no "Again" with the old words
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("t")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the deadline dialog again")
        await settle(pilot)
        text = screen_text(app)
        assert "No deadline is set yet" not in text
        assert "Orders are now due by" in text
        assert app.screen.query_one("#param-at", Input).value == "2026-12-07T20:00Z"


async def test_a_resolved_order_offers_no_again(save_path: Path) -> None:
    populate(save_path)
    [order] = [k for k, o in world_of(save_path).data["orders"].items() if o["status"] == "waiting"]
    app = make_app(save_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_command("order-resolve", {"order": order}, hidden=("order",))
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the resolve dialog")
        dialog = app.screen
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled, what="ready to roll")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: dialog.query_one("#result-lines").display, what="the result")
        await settle(pilot)
        assert not dialog.query_one("#again", Button).display
        assert dialog.query_one("#close", Button).display


async def test_the_roll_dialog_still_offers_again(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("r", *"Hold the bridge")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the roll dialog")
        dialog = app.screen
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled, what="ready to roll")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: dialog.query_one("#result-lines").display, what="the result")
        assert dialog.query_one("#again", Button).display


def nav_offset(app: object, title: str) -> tuple[int, int]:
    """Where `title` is drawn on the nav bar (second row)."""
    line = screen_text(app).splitlines()[1]  # type: ignore[arg-type]
    return line.index(title) + 1, 0


async def test_a_click_on_the_nav_bar_leaves_reports_as_the_key_does(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("R")
        await wait_for(pilot, lambda: on_top(app, ReportsScreen), what="the reports")
        await settle(pilot)
        x, y = nav_offset(app, "Market")
        await pilot.click("#nav", offset=(x, y))
        await wait_for(pilot, lambda: app.current_mode == "market", what="the market")
        await pilot.press("d")
        await wait_for(pilot, lambda: app.current_mode == "dashboard", what="back to the dashboard")
        await settle(pilot)
        assert isinstance(app.screen, DashboardScreen), app.screen_stack


async def test_a_click_on_the_current_modes_nav_entry_leaves_history(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("H")
        await wait_for(pilot, lambda: on_top(app, HistoryScreen), what="the history")
        await settle(pilot)
        x, y = nav_offset(app, "Dashboard")
        await pilot.click("#nav", offset=(x, y))
        await wait_for(pilot, lambda: isinstance(app.screen, DashboardScreen), what="the dashboard shown")


async def test_at_40x12_tab_reaches_file_order_and_shows_it(save_path: Path) -> None:
    """A small window: the form scrolls; tab goes on to the button, and the button focused is drawn."""
    besiege(save_path)
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=(40, 12)) as pilot:
        await open_sieges(pilot)
        await pilot.press("p")
        dialog: OrderScreen = await dialog_of(pilot, OrderScreen)
        await query_ready(pilot, dialog, "#param-merchant", Select)
        await settle(pilot)
        await pilot.press(*"Corvin", "enter", "tab", "3")
        button = dialog.query_one("#file", Button)
        await wait_for(pilot, lambda: not button.disabled, what="a valid order")
        for _ in range(12):
            if dialog.focused is button:
                break
            await pilot.press("tab")
            await settle(pilot)
        assert dialog.focused is button
        region = button.region
        assert region.height == 1 and 0 <= region.y and region.bottom <= 12 - 1, region
        assert "File order" in screen_text(app)


async def test_a_toast_at_80x24_keeps_off_the_table_rows(save_path: Path) -> None:
    """A titled one-line toast takes the two bottom rows: the key bar and the panel's border."""
    app = make_app(save_path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        app.notify("Dice by hand off", title="Dice", timeout=600)
        await wait_for(pilot, lambda: any(t.region.height for t in app.screen.query("Toast")), what="the toast")
        [toast] = app.screen.query("Toast")
        assert toast.region.height == 2 and toast.region.y == SIZE[1] - 2, toast.region
        assert toast.region.width <= SIZE[0] // 2


async def test_an_open_list_stays_inside_the_dialog(save_path: Path) -> None:
    """Each list of the smuggle order, opened at 80x24, ends above the dialog's bottom border."""
    besiege(save_path)
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=SIZE) as pilot:
        await open_sieges(pilot)
        await pilot.press("p")
        dialog: OrderScreen = await dialog_of(pilot, OrderScreen)
        await query_ready(pilot, dialog, "#param-merchant", Select)
        box = dialog.query_one("#dialog")
        for select in list(dialog.query(Select)):
            select.focus()
            await settle(pilot)
            await pilot.press("enter")
            await wait_for(pilot, lambda select=select: select.expanded, what=f"{select.id} open")
            await settle(pilot)
            overlay = select.query_one("SelectOverlay")
            assert overlay.region.bottom <= box.region.bottom - 1, (select.id, overlay.region, box.region)
            await pilot.press("escape")
            await wait_for(pilot, lambda select=select: not select.expanded, what=f"{select.id} closed")


async def test_keys_typed_with_the_one_that_opens_the_form_land_in_it(save_path: Path) -> None:
    """p and "Cor" + enter arrive together (a fast typist): the letters went to the screen below,
    or to no field of the form while it was being built; they wait for its first field now."""
    from test_type_ahead import send_at_once

    besiege(save_path)
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=SIZE) as pilot:
        await open_sieges(pilot)
        await settle(pilot)
        send_at_once(app, "p", "C", "o", "r", "enter")
        dialog: OrderScreen = await dialog_of(pilot, OrderScreen)
        merchant = await query_ready(pilot, dialog, "#param-merchant", Select)
        await wait_for(pilot, lambda: merchant.value == "corvin", what="Corvin chosen")
        assert dialog.query_one("#param-fort", Select).value == "brinehaven"
