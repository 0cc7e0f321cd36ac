"""Issue 17 item 2: at 80x24 every dialog reaches its buttons.

The GM's Run-mission result used to push the dice and the buttons below the terminal's edge with
no key to reveal them. A dialog now scrolls as a whole; focusing a button brings it into view.
The test reads where the buttons are painted, not the styles."""

from __future__ import annotations

from pathlib import Path

from app_helpers import make_app, on_top, settle, wait_for
from test_espionage_screen import choose_target, highlight, open_board
from textual.widgets import Input, Select, Switch

from yak_tui.app.kit.command import CommandScreen
from yak_tui.app.screens.espionage.spy_dice import SpyDiceScreen

SIZE = (80, 24)


async def test_the_gms_run_mission_result_reaches_its_buttons_at_80x24(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_board(app, pilot)
        await choose_target(pilot, screen, "varos")
        await highlight(pilot, screen, "establish-smuggling-ring")
        await pilot.press("n")
        await wait_for(pilot, lambda: on_top(app, SpyDiceScreen), what="the mission dialog")
        dialog = app.screen
        dialog.query_one("#param-province", Select).value = "amber-coast"
        dialog.query_one("#by-hand", Switch).value = True
        dialog.query_one("#naturals", Input).value = "1,1"
        await wait_for(pilot, lambda: not dialog.query_one("#run").disabled, what="run enabled")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: dialog.query_one("#result-lines").display, what="the dice landed")
        await settle(pilot)
        close = dialog.query_one("#close")
        assert dialog.focused is close
        assert close.region.height == 1 and close.region.bottom <= SIZE[1] - 1, close.region


async def test_the_roll_dialog_result_reaches_its_buttons_at_80x24(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("r", *"Hold the bridge")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the roll dialog")
        dialog = app.screen
        dialog.query_one("#by-hand", Switch).value = True
        await wait_for(pilot, lambda: dialog.query_one("#naturals").display, what="the naturals field")
        dialog.query_one("#naturals", Input).value = "5"
        await wait_for(pilot, lambda: not dialog.query_one("#run").disabled, what="a valid roll")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: dialog.query_one("#result-lines").display, what="the dice landed")
        await settle(pilot)
        buttons = [b for b in dialog.query("#dialog-buttons Button") if b.display]
        assert buttons
        for button in buttons:
            button.focus()
            await settle(pilot)
            assert button.region.height == 1 and button.region.bottom <= SIZE[1] - 1, (button.id, button.region)


async def test_a_toast_over_a_dialog_keeps_off_its_border(save_path: Path) -> None:
    """On a dialog a toast is one line on the footer row, below the dialog's bottom border."""
    app = make_app(save_path)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        screen = await open_board(app, pilot)
        await choose_target(pilot, screen, "varos")
        await highlight(pilot, screen, "establish-smuggling-ring")
        await pilot.press("n")
        await wait_for(pilot, lambda: on_top(app, SpyDiceScreen), what="the mission dialog")
        dialog = app.screen
        await settle(pilot)
        app.notify("Copied the result", timeout=600)
        # The toast's own timer keeps the app from idling: wait for it to be painted instead.
        await wait_for(pilot, lambda: any(t.region.height for t in dialog.query("Toast")), what="the toast")
        box = dialog.query_one("#dialog").region
        assert box.bottom >= SIZE[1] - 1  # the dialog fills the terminal: a toast has little room
        for toast in dialog.query("Toast"):
            assert not toast.region.overlaps(box), (toast.region, box)


async def test_a_long_command_help_is_shown_whole_at_80x24(save_path: Path) -> None:
    """The dialog's help used to stop at three rows, mid-phrase ("(up to Size a")."""
    from app_helpers import screen_text

    from yak_tui.kernel.play.views import all_commands

    [help_text] = [text for name, text, _ in all_commands() if name == "produce"]
    app = make_app(save_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        app.open_command(
            "produce",
            intro="An intro line long enough to push the command's own help onto the rows "
            "that a three-row limit used to cut off, as a rule screen's intro does.",
        )
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the command dialog")
        await settle(pilot)
        shown = " ".join(screen_text(app).replace("│", " ").split())
        assert " ".join(help_text.split()) in shown
