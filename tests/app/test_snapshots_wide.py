"""Issue 17: snapshots at 160×48 of every screen and of the dialogs the issue names, in the states
it describes (the populated world plus Corvin's orders: a queue, an inbox, "My orders" with a long
outcome), and at 80×24 of the order dialogs and the one-season treasury plot this issue changed.

Animations and cursor blink are off and every die is scripted. Update with
`pytest tests/app/test_snapshots_wide.py --snapshot-update`, then look at the SVGs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, on_top, wait_for
from test_readable_screens import orders_save  # noqa: F401 - the fixture
from test_snapshots import press_and_settle, settle, visit
from test_snapshots_espionage import fill_mission_form, run_mission_by_hand
from textual.pilot import Pilot

from yak_tui.app.kit.command import CommandScreen
from yak_tui.app.kit.rowtable import RowTable
from yak_tui.app.messages import SCREENS

WIDE = (160, 48)


@pytest.mark.parametrize("who", ["gm", "player:corvin"])
@pytest.mark.parametrize("screen", list(SCREENS))
def test_screen_at_160x48(snap_compare: Any, orders_save: Path, screen: str, who: str) -> None:  # noqa: F811
    app = make_app(orders_save, who, poll_interval=0)

    assert snap_compare(app, terminal_size=WIDE, run_before=lambda pilot: visit(pilot, screen))


DIALOGS = {
    "roll": (["r", *"Hold the bridge", "tab", "2"], "gm"),
    "advance": (["a", "_", "_"], "gm"),
    "help": (["question_mark"], "gm"),
    "identity": (["i"], "gm"),
    "export": (["c", "_", "x", "_"], "gm"),
    "casting": (["g", "_"], "gm"),
    "order": (["o", "_"], "player:corvin"),
}


@pytest.mark.parametrize("dialog", list(DIALOGS))
def test_dialog_at_160x48(snap_compare: Any, orders_save: Path, dialog: str) -> None:  # noqa: F811
    keys, identity = DIALOGS[dialog]
    app = make_app(orders_save, identity, poll_interval=0)

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        await press_and_settle(pilot, *keys)

    assert snap_compare(app, terminal_size=WIDE, run_before=before)


@pytest.mark.parametrize("size", [(80, 24), WIDE], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("key", ["x", "j"], ids=["resolve", "reject"])
def test_order_dialog(snap_compare: Any, busy_save: Path, key: str, size: tuple[int, int]) -> None:
    """The GM's resolve and reject dialogs name Nyx and what his order does (no id)."""
    app = make_app(busy_save, poll_interval=0)

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)
        queue = pilot.app.screen.query_one("#queue-table", RowTable)
        queue.focus()
        await pilot.press(key)
        await wait_for(pilot, lambda: on_top(pilot.app, CommandScreen), what="the order dialog")
        await settle(pilot)

    assert snap_compare(app, terminal_size=size, run_before=before)


def test_one_season_plot_at_80x24(snap_compare: Any, save_path: Path) -> None:
    """One season of history: a dot per kingdom inside the frame, the legend under the plot."""
    app = make_app(save_path, poll_interval=0)

    async def before(pilot: Pilot[Any]) -> None:
        await settle(pilot)

    assert snap_compare(app, terminal_size=(80, 24), run_before=before)


def test_player_mission_form_at_160x48(snap_compare: Any, orders_save: Path) -> None:  # noqa: F811
    app = make_app(orders_save, "player:corvin", poll_interval=0)

    assert snap_compare(app, terminal_size=WIDE, run_before=fill_mission_form)


def test_run_mission_result_at_160x48(snap_compare: Any, orders_save: Path) -> None:  # noqa: F811
    app = make_app(orders_save, poll_interval=0)
    assert snap_compare(app, terminal_size=WIDE, run_before=run_mission_by_hand)
