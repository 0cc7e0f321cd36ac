"""Snapshots of the espionage board as the GM and as a player, at 80×24 and 140×45, and of its
two dialogs: the player's private-mission form and the GM's blind resolution after the dice.

The world is `populate`'s two seasons plus Corvin's espionage: one mission resolved with scripted
dice (an infiltration he holds) and one waiting for the GM. Animations and cursor blink are off.
Update with `pytest tests/app/test_snapshots_espionage.py --snapshot-update`, then look at them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, on_top, query_ready, wait_for
from test_snapshots import settle
from textual.pilot import Pilot
from textual.widgets import Button, Input, Select, Switch

from yak_tui.app.kit.common import YakTable
from yak_tui.app.screens.espionage.screen import EspionageScreen
from yak_tui.app.screens.espionage.spy_dice import SpyDiceScreen
from yak_tui.app.screens.espionage.spy_order import SpyOrderScreen
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.store.storage import WorldFile

SIZES = [(80, 24), (140, 45)]
CORVIN = Identity.parse("player:corvin")


def add_spy_orders(path: Path) -> WorldFile:
    """Corvin's espionage: an infiltration resolved with scripted dice (he holds it) and a mission
    waiting for the GM."""
    save = WorldFile(path)
    done = run_command(
        save, CORVIN, "spy-order", {"mission": "infiltrate-treasury", "target": "varos"}, ScriptedDice([])
    ).data["order"]
    run_command(save, GM, "spy-resolve", {"order": done}, ScriptedDice([6, 6]))
    run_command(
        save,
        CORVIN,
        "spy-order",
        {
            "mission": "fund-bandits",
            "target": "varos",
            "province": "varos-march",
            "bandits": 1,
            "note": "on the Amber road",
        },
        ScriptedDice([]),
    )
    return save


@pytest.fixture
def spy_save(busy_save: Path) -> Path:
    add_spy_orders(busy_save)
    return busy_save


async def board(pilot: Pilot[Any], target: str = "varos") -> EspionageScreen:
    await settle(pilot)
    await pilot.press("e")
    app = pilot.app
    await wait_for(pilot, lambda: on_top(app, EspionageScreen), what="the board")
    screen: EspionageScreen = app.screen  # type: ignore[assignment]
    screen.target = target
    await wait_for(pilot, lambda: screen.view is not None and screen.view.target == target, what="the target's board")
    await settle(pilot)
    return screen


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("who", ["gm", "player:corvin"])
def test_board(snap_compare: Any, spy_save: Path, who: str, size: tuple[int, int]) -> None:
    app = make_app(spy_save, who, poll_interval=0)

    async def before(pilot: Pilot[Any]) -> None:
        screen = await board(pilot)
        table = screen.query_one("#missions-table", YakTable)
        table.move_cursor(row=table.get_row_index("embezzlement"))  # a met prerequisite, Corvin holds Treasury
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=before)


def test_order_form(snap_compare: Any, spy_save: Path) -> None:
    app = make_app(spy_save, "player:corvin", poll_interval=0)

    assert snap_compare(app, terminal_size=(100, 40), run_before=fill_mission_form)


async def fill_mission_form(pilot: Pilot[Any]) -> None:
    """Corvin's private mission form for Crash Commodity Market, filled in and ready to submit."""
    screen = await board(pilot)
    table = screen.query_one("#missions-table", YakTable)
    table.focus()
    table.move_cursor(row=table.get_row_index("crash-commodity-market"))
    await pilot.press("n")
    await wait_for(pilot, lambda: on_top(pilot.app, SpyOrderScreen), what="the form")
    dialog = pilot.app.screen
    (await query_ready(pilot, dialog, "#param-province", Select)).value = "amber-coast"
    (await query_ready(pilot, dialog, "#param-commodity", Select)).value = "Wine"
    await wait_for(pilot, lambda: not dialog.query_one("#submit").disabled, what="a complete order")
    await settle(pilot)


def test_resolve_result(snap_compare: Any, spy_save: Path) -> None:
    app = make_app(spy_save, poll_interval=0)

    async def before(pilot: Pilot[Any]) -> None:
        await board(pilot)
        await pilot.press("x")
        await wait_for(pilot, lambda: on_top(pilot.app, SpyDiceScreen), what="the resolve dialog")
        dialog = pilot.app.screen
        (await query_ready(pilot, dialog, "#param-gm_reason", Input)).value = "the roads are watched"
        dialog.query_one("#param-gm_modifier", Input).value = "-1"
        dialog.query_one("#by-hand", Switch).value = True
        dialog.query_one("#naturals", Input).value = "5,2"
        await wait_for(pilot, lambda: not dialog.query_one("#run").disabled, what="run enabled")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: dialog.query_one("#result-lines").display, what="the dice landed")
        await settle(pilot)

    assert snap_compare(app, terminal_size=(100, 40), run_before=before)


async def run_mission_by_hand(pilot: Pilot[Any]) -> None:
    """The GM runs the first mission on Amber Coast with dice 1,1 entered by hand, until its result
    shows with Close focused and drawn (focus is deferred and its scroll follows a refresh)."""
    screen = await board(pilot)
    table = screen.query_one("#missions-table", YakTable)
    table.focus()
    await pilot.press("n")
    await wait_for(pilot, lambda: on_top(pilot.app, SpyDiceScreen), what="the mission dialog")
    dialog = pilot.app.screen
    (await query_ready(pilot, dialog, "#param-province", Select)).value = "amber-coast"
    dialog.query_one("#by-hand", Switch).value = True
    dialog.query_one("#naturals", Input).value = "1,1"
    await wait_for(pilot, lambda: not dialog.query_one("#run").disabled, what="run enabled")
    await pilot.press("ctrl+r")
    await wait_for(pilot, lambda: dialog.query_one("#result-lines").display, what="the dice landed")
    close = dialog.query_one("#close", Button)
    await wait_for(
        pilot, lambda: pilot.app.focused is close and close.is_on_screen, what="Close focused and scrolled into view"
    )
    await settle(pilot)
    # Where the dialog's body stands once the result is in depends on what held the focus while the
    # result's lines grew (on a loaded machine, a line later or sooner): the snapshot is of the result
    # scrolled to its end (its last line, what the sponsor paid), the buttons (outside the body) in view.
    for widget in dialog.query("*"):
        if widget.is_scrollable and widget.max_scroll_y > 0:
            widget.scroll_end(animate=False, immediate=True)
    await settle(pilot)


def test_run_mission_result_at_80x24(snap_compare: Any, spy_save: Path) -> None:
    """Issue 17: the GM's Run-mission result at 80x24 scrolls to its buttons (Close focused)."""
    app = make_app(spy_save, poll_interval=0)
    assert snap_compare(app, terminal_size=(80, 24), run_before=run_mission_by_hand)
