"""Snapshots of the business market as the GM and as the player Corvin Hale, at 80×24 and 140×45,
and of a competition's dice landing in the expand dialog.

The world is the demo save plus a credit line (Hale & Sons Bank to Nyx) and a production order at
the Saltcross Salt Works, made with scripted dice; animations and cursor blink are off, dice in
the dialog are typed by hand. Update with `--snapshot-update` and look at the SVGs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, settle, wait_for
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Input, Switch

from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import GM
from yak_tui.store.storage import WorldFile

SIZES = [(80, 24), (140, 45)]


@pytest.fixture
def market_save(save_path: Path) -> Path:
    save = WorldFile(save_path)
    run_command(save, GM, "credit-extend", {"lender": "hale-bank", "debtor": "nyx", "amount": 6}, ScriptedDice([]))
    run_command(save, GM, "produce", {"business": "salt-works", "good": "Salt", "quantity": 2}, ScriptedDice([]))
    return save_path


async def market_ready(pilot: Pilot[Any], sector: str | None = None) -> None:
    """Open the market, optionally highlight a sector, and wait for the detail panel to fill."""
    app: Any = pilot.app
    await pilot.press("b")
    await wait_for(pilot, lambda: app.screen.id == "screen-market", what="the market")
    screen = app.screen
    table = screen.query_one("#sectors-table", DataTable)
    await wait_for(pilot, lambda: table.row_count > 0, what="sectors")
    if sector is not None:
        table.move_cursor(row=table.get_row_index(sector), animate=False)
    business = screen.query_one("#businesses-table", DataTable)
    await wait_for(
        pilot,
        lambda: (
            business.row_count > 0
            and screen.query_one("#detail").border_title
            == app.world.display_name(
                "businesses", business.coordinate_to_cell_key(business.cursor_coordinate).row_key.value
            )
        ),
        what="the detail panel",
    )
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_market_as_gm(snap_compare: Any, market_save: Path, size: tuple[int, int]) -> None:
    app = make_app(market_save, poll_interval=0)

    async def before(pilot: Pilot[Any]) -> None:
        await market_ready(pilot, "saltmarsh:commercial")

    assert snap_compare(app, terminal_size=size, run_before=before)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_market_as_player_corvin(snap_compare: Any, market_save: Path, size: tuple[int, int]) -> None:
    app = make_app(market_save, "player:corvin", poll_interval=0)

    async def before(pilot: Pilot[Any]) -> None:
        await market_ready(pilot)

    assert snap_compare(app, terminal_size=size, run_before=before)


def test_competition_dice_land_in_the_expand_dialog(snap_compare: Any, market_save: Path) -> None:
    app = make_app(market_save, poll_interval=0)

    async def before(pilot: Pilot[Any]) -> None:
        await market_ready(pilot, "saltmarsh:commercial")
        await pilot.press("x")
        await wait_for(pilot, lambda: pilot.app.screen.query("#by-hand"), what="the expand dialog")
        screen: Any = pilot.app.screen
        await wait_for(
            pilot, lambda: "Who may lose" in str(screen.query_one("#market-preview").render()), what="preview"
        )
        screen.query_one("#by-hand", Switch).value = True
        await wait_for(pilot, lambda: screen.query_one("#naturals").display, what="the naturals field")
        screen.query_one("#naturals", Input).value = "4,1"
        await wait_for(pilot, lambda: not screen.query_one("#run", Button).disabled, what="run enabled")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.query_one("#result-lines").display, what="the dice landing")
        await settle(pilot)

    assert snap_compare(app, terminal_size=(100, 34), run_before=before)
