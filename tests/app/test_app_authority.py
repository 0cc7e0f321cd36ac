"""Issue 24 in the app: every way in obeys one authority and one audience.

The order dialog says who reads an order (the kernel decides, not the filer); the espionage board
tells a player what only his King knows (RULINGS §1); an observer has no acting key anywhere; a
seat's report is copied to his clipboard, never written on the machine running the app; and a
hotseat GM's seat asks for the GM's PIN (`yak tui --gm-pin`)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import pytest
from app_helpers import click, make_app, on_top, query_ready, screen_text, settle, wait_for, widget_text, world_of
from test_espionage_screen import cells, choose_target, highlight, keys, open_board
from test_pilot_reports import NYX_SECRET, close_a_season, open_reports
from textual.pilot import Pilot
from textual.screen import ModalScreen
from textual.widgets import Button, DataTable, Input, OptionList, Select, Static

from yak_tui.app.kit.order import OrderScreen
from yak_tui.app.kit.rowtable import RowTable
from yak_tui.app.main import YakApp
from yak_tui.app.screens.espionage.spy_order import SpyOrderScreen
from yak_tui.app.shell.history import HistoryScreen
from yak_tui.app.shell.identity import GmPin, IdentityScreen, PinScreen
from yak_tui.app.shell.reports import ReportsScreen, ReportTextScreen
from yak_tui.kernel.errors import UsageError
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.season.reports import render_report, reports_for

PIN = "4711-gm"

# ---------------------------------------------------------------- 1. the order dialog


async def test_the_order_dialog_says_who_reads_the_order_and_the_kernel_files_spying_privately(save_path: Path) -> None:
    app = make_app(save_path, "player:corvin", poll_interval=0)
    async with app.run_test(size=(110, 40)) as pilot:
        await settle(pilot)
        await pilot.press("o")
        await wait_for(pilot, lambda: on_top(app, OrderScreen), what="the order form")
        dialog = app.screen
        assert not dialog.query("#order-private")  # privacy is not the filer's choice any more
        audience = dialog.query_one("#order-audience", Static)
        dialog.query_one("#order-command", Select).value = "roll"
        await wait_for(pilot, lambda: "Public: every seat reads this order." in screen_text(app), what="public")
        assert not audience.has_class("-private")
        dialog.query_one("#order-command", Select).value = "spy-mission"
        await wait_for(
            pilot, lambda: "Private: only you, your adjudicator and the GM read it." in screen_text(app), what="private"
        )
        assert audience.has_class("-private") and "Public:" not in screen_text(app)
        # An adjudicator's value is not in an order's form (the kernel leaves it out).
        assert not dialog.query("#param-modifier")
        mission = await query_ready(pilot, dialog, "#param-mission", Input)
        mission.value = "infiltrate-treasury"
        dialog.query_one("#param-target", Select).value = "varos"
        await wait_for(pilot, lambda: not dialog.query_one("#file", Button).disabled, what="a valid order")
        await click(pilot, "#file")
        await wait_for(pilot, lambda: not isinstance(app.screen, OrderScreen), what="filed")
        [(_, order)] = list(world_of(save_path).all("orders"))
        assert order["command"] == "spy-mission" and order["private"] is True  # filed with private=False


# ---------------------------------------------------------------- 2. the espionage board


async def test_a_player_is_told_what_only_his_king_knows(save_path: Path) -> None:
    app = make_app(save_path, "player:corvin", poll_interval=0)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_board(app, pilot)
        await choose_target(pilot, screen, "varos")
        assert cells(screen, "#missions-table", "embezzlement")[1] == "? Treasury"
        assert cells(screen, "#missions-table", "create-security-breach")[1] == "? Spy Ring"
        await highlight(pilot, screen, "embezzlement")
        text = widget_text(app)
        assert (
            "? Needs the Treasury infiltration in Varos: only your King knows whether your kingdom holds it. "
            "If it does not, the mission fails when resolved, and only you are told."
        ) in text
        assert "✗ Needs" not in text and "✓" not in cells(screen, "#missions-table", "embezzlement")[1]
        assert keys(screen, "#pools-table") == set() and "Only your King sees the kingdom's spies." in text
        assert "Only you, your adjudicator and the GM see your missions." in text
        await pilot.press("n")
        await wait_for(pilot, lambda: on_top(app, SpyOrderScreen), what="the mission form")
        await wait_for(
            pilot,
            lambda: "Needs Infiltrate Treasury against the target: only your King knows." in screen_text(app),
            what="the needs line",
        )
        assert "✗ missing" not in screen_text(app)


async def test_the_king_still_sees_met_and_missing(save_path: Path) -> None:
    app = make_app(save_path, "king:elbreth", poll_interval=0)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_board(app, pilot)
        await choose_target(pilot, screen, "varos")
        assert cells(screen, "#missions-table", "embezzlement")[1] == "✗ Treasury"
        await highlight(pilot, screen, "embezzlement")
        text = widget_text(app)
        assert "✗ Needs the Treasury infiltration in Varos: run it first." in text
        assert keys(screen, "#pools-table") == {"elbreth"} and "Only your King" not in text
        assert "see your missions" not in text


# ---------------------------------------------------------------- 3. an observer acts on nothing

# Actions that change the world (or open a dialog that would): none may be live for an observer.
ACTING = {
    "roll",
    "advance",
    "file_order",
    "cast",
    "undo",
    "undo_advance",
    "switch_identity",
    "edit_row",
    "run_mission",
    "submit_mission",
    "counter_spy",
    "resolve_inbox",
    "order",
    "order_here",
    "play_out",
    "act",
    "begin",
    "decide",
    "siege",
    "relocate",
    "command",
    "pick_mover",
    "move_here",
    "deadline",
    "ready",
    "roll_back",
    "add",
    "edit",
    "remove",
}
# Every key an acting binding uses somewhere (screen keys, q, i, R, H and ? left out: they only navigate).
PRESSES = ("r", "a", "o", "g", "u", "x", "j", "w", "p", "n", "k", "y", "v", "t", "l", "h", "f", "z", "E", "enter")


def _action(binding_action: str) -> str:
    return binding_action.removeprefix("app.").split("(", 1)[0]


def live_acting(app: YakApp) -> set[str]:
    """The acting actions among the bindings live now (the key bar's, shown or not)."""
    return {
        f"{key}:{active.binding.action}"
        for key, active in app.screen.active_bindings.items()
        if _action(active.binding.action) in ACTING
    }


async def _each_focus(pilot: Pilot[Any], app: YakApp) -> list[str]:
    """Focus every table of the screen in turn (a table's keys show only while it has the focus);
    returns what was live anywhere."""
    found = sorted(live_acting(app))
    for table in list(app.screen.query(DataTable)) + list(app.screen.query(RowTable)):
        if table.display and table.focusable:
            table.focus()
            await settle(pilot)
            found += sorted(live_acting(app))
    return found


async def _press_everything(pilot: Pilot[Any], app: YakApp, screen: Any, keys: tuple[str, ...]) -> None:
    if isinstance(screen.focused, Select):  # enter would open a filter's list: reading, not acting
        keys = tuple(k for k in keys if k != "enter")
    for key in keys:
        await pilot.press(key)
        await settle(pilot)
        assert not any(isinstance(s, ModalScreen) for s in app.screen_stack), f"{key} opened a dialog"
        assert app.screen is screen, f"{key} left the screen"


async def test_an_observer_sees_no_acting_key_anywhere_and_pressing_them_changes_nothing(busy_save: Path) -> None:
    before = busy_save.read_bytes()
    app = make_app(busy_save, "observer", poll_interval=0)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        for key, mode in (
            ("d", "dashboard"),
            ("e", "espionage"),
            ("b", "market"),
            ("s", "sieges"),
            ("m", "map"),
            ("c", "chronicle"),
        ):
            await pilot.press(key)
            await wait_for(pilot, lambda mode=mode: app.current_mode == mode and app.screen.is_mounted, what=mode)
            await settle(pilot)
            assert await _each_focus(pilot, app) == [], mode
            footer = screen_text(app).splitlines()[-1]
            for label in (
                "Roll",
                "Order",
                "Advance",
                "Resolve",
                "Reject",
                "Submit",
                "Counter-spy",
                "Expand",
                "Produce",
                "Begin siege",
                "Raid",
                "Relocate",
                "Incite",
                "Usurp",
                "Move",
                "Identity",
            ):
                assert label not in footer, f"{label} in the footer of {mode}: {footer}"
            presses = PRESSES if mode != "chronicle" else tuple(k for k in PRESSES if k != "x")  # x: export preview
            await _press_everything(pilot, app, app.screen, presses)
        # The side screens: the reports (x copies, see below) and the GM's history, pushed by hand.
        await pilot.press("R")
        await wait_for(pilot, lambda: on_top(app, ReportsScreen), what="the reports")
        await settle(pilot)
        assert await _each_focus(pilot, app) == []
        assert "Export files" not in screen_text(app)
        await _press_everything(pilot, app, app.screen, tuple(k for k in PRESSES if k != "x"))
        await pilot.press("escape")
        app.push_screen(HistoryScreen())
        await wait_for(pilot, lambda: on_top(app, HistoryScreen), what="the history")
        await settle(pilot)
        assert await _each_focus(pilot, app) == []
        await _press_everything(pilot, app, app.screen, PRESSES)
        assert app.identity.is_observer
    assert busy_save.read_bytes() == before  # nothing was written


async def test_who_may_roll_and_file_from_the_app_keys(save_path: Path) -> None:
    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        expected = {"gm": (True, False), "king:elbreth": (True, True), "player:corvin": (False, True)}
        for seat, (roll, order) in expected.items():
            app.switch_identity(seat)
            await wait_for(pilot, lambda seat=seat: str(app.identity) == seat, what=seat)
            assert app.check_action("roll", ()) is roll and app.check_action("file_order", ()) is order, seat
        app.switch_identity("observer")
        await wait_for(pilot, lambda: app.identity.is_observer, what="the observer")
        assert not app.check_action("roll", ()) and not app.check_action("file_order", ())
        assert not app.check_action("cast", ())
        titles = {entry.title for entry in app.palette_actions(app.screen)}
        assert not titles & {"Roll the dice", "File an order", "Cast a spell", "Advance the season"}


# ---------------------------------------------------------------- 4. a seat's report goes to his clipboard


async def test_a_players_x_copies_the_report_and_writes_no_file(save_path: Path) -> None:
    close_a_season(save_path)
    app = make_app(save_path, "player:nyx", poll_interval=0)
    copied: list[str] = []
    app.copy_to_clipboard = copied.append  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_reports(pilot, app)
        await wait_for(
            pilot, lambda: screen.view is not None and screen.view.recipient == "player:nyx", what="his own report"
        )
        live = {active.binding.description for active in app.screen.active_bindings.values()}
        assert "Copy report" in live and "Export files" not in live
        await pilot.press("x")
        await wait_for(pilot, lambda: on_top(app, ReportTextScreen), what="the report's text")
        [report] = [
            r for r in reports_for(world_of(save_path), Identity.parse("player:nyx")) if r["recipient"] == "player:nyx"
        ]
        markdown = render_report(report, "markdown")
        assert copied == [markdown] and NYX_SECRET in markdown
        assert str(app.screen.query_one("#report-markdown", Static).render()).strip() == markdown.strip()
        await click(pilot, "#close")
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen), what="the reports again")
        # The palette's line does the same, and no path writes a file.
        entry = next(e for e in app.palette_entries(app.screen) if e.title == "Copy this report as Markdown")
        assert not any(e.title == "Export this report as files" for e in app.palette_entries(app.screen))
        app.screen.action_export()  # even called directly, a seat's export is the copy
        await wait_for(pilot, lambda: on_top(app, ReportTextScreen), what="the text again")
        await pilot.press("escape")
        entry.callback()
        await wait_for(pilot, lambda: len(copied) == 3, what="the palette's copy")
        await settle(pilot)
    assert not (save_path.parent / "reports").exists()


# ---------------------------------------------------------------- 5. the hotseat GM's PIN


async def _choose_seat(pilot: Pilot[Any], app: YakApp, seat: str) -> None:
    await pilot.press("i")
    await wait_for(pilot, lambda: on_top(app, IdentityScreen), what="the identity dialog")
    options = app.screen.query_one(OptionList)
    options.highlighted = options.get_option_index(seat)
    await pilot.press("enter")


async def _type_pin(pilot: Pilot[Any], app: YakApp, pin: str) -> None:
    await wait_for(pilot, lambda: on_top(app, PinScreen), what="the PIN dialog")
    field = app.screen.query_one("#pin-input", Input)
    assert field.password
    await wait_for(pilot, lambda: field.has_focus, what="the PIN field focused")
    await pilot.press(*pin, "enter")
    await wait_for(pilot, lambda: not isinstance(app.screen, PinScreen), what="the PIN dialog closed")


async def test_going_back_to_the_gm_seat_asks_for_the_pin(save_path: Path) -> None:
    app = make_app(save_path, "gm", poll_interval=0, gm_pin=PIN)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await _choose_seat(pilot, app, "player:corvin")  # away from the GM: no PIN asked
        await wait_for(pilot, lambda: str(app.identity) == "player:corvin", what="Corvin's seat")
        assert not isinstance(app.screen, PinScreen)
        await _choose_seat(pilot, app, "gm")
        await _type_pin(pilot, app, "0000")
        await wait_for(
            pilot, lambda: any("Wrong PIN" in str(n.message) for n in app._notifications), what="the warning"
        )
        assert str(app.identity) == "player:corvin"
        app.identity = GM  # no path around the PIN: a plain assignment is refused too
        await settle(pilot)
        assert str(app.identity) == "player:corvin"
        await _choose_seat(pilot, app, "gm")
        await _type_pin(pilot, app, PIN)
        await wait_for(pilot, lambda: app.identity.is_gm, what="the GM's seat")
        assert "◆ GM" in screen_text(app)
        # The palette's "Act as" goes the same way: the GM hands the King's seat on freely; from the
        # King's seat, the GM's, or another seat (and its secrets), asks for the PIN.
        app.switch_identity("king:elbreth")
        await wait_for(pilot, lambda: app.identity.is_king, what="the King's seat")
        for seat in ("gm", "player:lysa"):
            app.switch_identity(seat)
            await wait_for(pilot, lambda: on_top(app, PinScreen), what="the PIN dialog from the palette's path")
            await click(pilot, "#pin-cancel")
            await wait_for(pilot, lambda: not isinstance(app.screen, PinScreen), what="cancelled")
            assert app.identity.is_king
    assert PIN not in repr(vars(app._gm_pin)) and PIN.encode() not in b"".join(
        v for v in vars(app._gm_pin).values() if isinstance(v, bytes)
    )


async def test_without_a_pin_the_gm_seat_comes_back_at_once(save_path: Path) -> None:
    app = make_app(save_path, "gm", poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        app.switch_identity("player:corvin")
        await wait_for(pilot, lambda: str(app.identity) == "player:corvin", what="Corvin's seat")
        app.switch_identity("gm")
        await wait_for(pilot, lambda: app.identity.is_gm, what="the GM's seat")
        assert not any(isinstance(s, PinScreen) for s in app.screen_stack)


def test_the_pin_is_kept_as_a_salted_hash() -> None:
    one, two = GmPin(PIN), GmPin(PIN)
    assert one.matches(PIN) and not one.matches(PIN + "x") and not one.matches("")
    assert one._hash != two._hash  # a salt of its own each run


def test_gm_pin_comes_from_the_environment_or_is_asked_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    from yak_tui.cli.commands import gm_pin

    on = argparse.Namespace(gm_pin=True)
    assert gm_pin(argparse.Namespace(gm_pin=False)) is None
    monkeypatch.setenv("YAK_GM_PIN", PIN)
    assert gm_pin(on) == PIN
    monkeypatch.setenv("YAK_GM_PIN", "123")
    with pytest.raises(UsageError, match="at least 4 characters"):
        gm_pin(on)
    monkeypatch.delenv("YAK_GM_PIN")
    answers = iter(["1234", "1243"])
    monkeypatch.setattr("getpass.getpass", lambda prompt="": next(answers))
    with pytest.raises(UsageError, match="the two PINs differ"):
        gm_pin(on)
    answers = iter(["12", "12"])
    with pytest.raises(UsageError, match="at least 4"):
        gm_pin(on)
    answers = iter([PIN, PIN])
    assert gm_pin(on) == PIN


@pytest.mark.parametrize("line", [["tui", "--gm-pin"], ["--gm-pin"]])
def test_yak_gm_pin_reaches_the_app(save_path: Path, monkeypatch: pytest.MonkeyPatch, line: list[str]) -> None:
    from yak_tui.cli import main

    seen: dict[str, Any] = {}
    monkeypatch.setenv("YAK_GM_PIN", PIN)
    monkeypatch.setattr("yak_tui.app.main.run_app", lambda *args, **kwargs: seen.update(kwargs) or 0)
    assert main(["--save", str(save_path), *line]) == 0
    assert seen["gm_pin"] == PIN
    monkeypatch.setenv("YAK_GM_PIN", "12")
    seen.clear()
    assert main(["--save", str(save_path), *line]) == 2 and not seen  # refused before the app opens
