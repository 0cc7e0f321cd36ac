"""Snapshots of the siege monitor at 80×24 and 140×45, for the GM and for a player (Corvin, whose
kingdom defends the fort), plus the surrender-or-sally prompt and the begin-a-siege dialog.

The world is the demo save with the siege of Brinehaven begun by Varos, a messenger caught
(scripted die 2) and a smuggling run that got in (scripted die 5, bribe 1): nothing depends on
the clock or on random dice. Update with `--snapshot-update` and look at the SVGs first.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, on_top, settle, wait_for, widget_text
from textual.pilot import Pilot

from yak_tui.app.kit.plot import TreasuryPlot
from yak_tui.app.screens.warfare.dialogs import SiegeBeginScreen, SiegeDecisionScreen
from yak_tui.app.screens.warfare.screen import SiegesScreen
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.season.session import advance_season
from yak_tui.store.storage import WorldFile

SIZES = [(80, 24), (140, 45)]
VAROS = Identity.parse("king:varos")


@pytest.fixture
def siege_save(save_path: Path) -> Path:
    save = WorldFile(save_path)
    run_command(save, VAROS, "siege-begin", {"fort": "brinehaven", "units": "varos-siege-host,varos-blockade-squadron"})
    run_command(
        save, GM, "messenger", {"fort": "brinehaven", "ducats": "3", "purpose": "to Highmoor"}, ScriptedDice([2])
    )
    run_command(
        save,
        GM,
        "smuggle",
        {"fort": "brinehaven", "merchant": "corvin", "shipments": "2", "bribe": "1"},
        ScriptedDice([5]),
    )
    return save_path


async def show_sieges(pilot: Pilot[Any]) -> None:
    """Open the monitor and let every worker finish (the plot behind, the verdicts beside)."""
    app = pilot.app
    await wait_for(pilot, lambda: all(p.ready for p in app.screen.query(TreasuryPlot)), what="the plot")
    await pilot.press("s")
    await wait_for(pilot, lambda: any(isinstance(s, SiegesScreen) for s in app.screen_stack), what="the monitor")
    screen = next(s for s in app.screen_stack if isinstance(s, SiegesScreen))
    await wait_for(pilot, lambda: screen.monitor is not None and screen.place_id != "", what="the data")
    await wait_for(pilot, lambda: "Weighing" not in widget_text(app), what="the verdicts")
    await settle(pilot)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("identity", ["gm", "player:corvin"])
def test_siege_monitor(snap_compare: Any, siege_save: Path, identity: str, size: tuple[int, int]) -> None:
    app = make_app(siege_save, identity, poll_interval=0)
    assert snap_compare(app, terminal_size=size, run_before=show_sieges)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_surrender_or_sally_prompt(snap_compare: Any, siege_save: Path, size: tuple[int, int]) -> None:
    # Four provisions, two regiments: two season ends, then the defenders run short.
    advance_season(WorldFile(siege_save), GM, ScriptedDice([]))
    advance_season(WorldFile(siege_save), GM, ScriptedDice([]))
    app = make_app(siege_save, poll_interval=0)

    async def before(pilot: Pilot[Any]) -> None:
        await show_sieges(pilot)
        await wait_for(pilot, lambda: on_top(pilot.app, SiegeDecisionScreen), what="the prompt")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=before)


def test_begin_a_siege_dialog(snap_compare: Any, save_path: Path) -> None:
    app = make_app(save_path, poll_interval=0)

    async def before(pilot: Pilot[Any]) -> None:
        await show_sieges(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, SiegesScreen)
        screen._begin("brinehaven")
        await wait_for(pilot, lambda: on_top(pilot.app, SiegeBeginScreen), what="the dialog")
        await wait_for(pilot, lambda: "takes effect at once" in widget_text(pilot.app), what="the plan")
        await settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=before)
