"""Issue 17, what a player reads: whole words in narrow tables, a plot that stays in its box, one
answer to "which infiltrations do I hold", orders named by what they do (never by id), and no
document id nor `name(key=value)` syntax on any screen or dialog for the GM, a King or a player."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from app_helpers import make_app, on_top, screen_text, settle, wait_for
from test_snapshots_espionage import add_spy_orders

from yak_tui.app.kit.command import CommandScreen
from yak_tui.app.kit.plot import TreasuryPlot
from yak_tui.app.kit.rowtable import RowTable
from yak_tui.app.screens.espionage.screen import EspionageScreen
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import GM, Identity

CORVIN = Identity.parse("player:corvin")


@pytest.fixture
def orders_save(busy_save: Path) -> Path:
    """`populate`'s two seasons plus Corvin's orders: an infiltration resolved (he holds it), a
    mission waiting, and a business expansion carried out (a long outcome)."""
    save = add_spy_orders(busy_save)
    expand = run_command(
        save, CORVIN, "order-file", {"command": "business-expand", "params": '{"business": "hale-bank", "sizes": 1}'}
    ).data["order"]
    run_command(save, GM, "order-resolve", {"order": expand}, ScriptedDice([6, 6, 6]))
    return busy_save


async def _dashboard(pilot, app) -> None:  # type: ignore[no-untyped-def]
    await wait_for(pilot, lambda: all(p.ready for p in app.screen.query(TreasuryPlot)), what="the plot")
    await settle(pilot)


# -- 1. narrow columns --------------------------------------------------------------------------------


async def test_ruler_column_reads_a_name_at_80x24(busy_save: Path) -> None:
    app = make_app(busy_save, poll_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await _dashboard(pilot, app)
        text = screen_text(app)
        for ruler in ("Aldric", "Orhan", "Mirela"):
            assert ruler in text, f"the Ruler column is cut: {ruler} not on screen"


async def test_ruler_column_keeps_the_whole_title_when_there_is_room(busy_save: Path) -> None:
    app = make_app(busy_save, poll_interval=0)
    async with app.run_test(size=(160, 48)) as pilot:
        await _dashboard(pilot, app)
        assert "King Aldric" in screen_text(app)


async def test_my_orders_outcome_is_readable_at_160_columns(orders_save: Path) -> None:
    app = make_app(orders_save, "player:corvin", poll_interval=0)
    async with app.run_test(size=(160, 48)) as pilot:
        await _dashboard(pilot, app)
        table = app.screen.query_one("#my-orders-table", RowTable)
        lines = [line for line in screen_text(app).splitlines() if "Outcome" in line]
        assert lines, "the My orders header is on screen"
        header = lines[0]
        start = header.index("Outcome")
        end = header.index("│", start)
        assert end - start >= 20, f"the Outcome column is {end - start} cells wide: {header!r}"
        assert table.row_count == 3
        assert "waits for" in screen_text(app)


# -- 2. the treasury plot -----------------------------------------------------------------------------


def _plot_rows(text: str) -> tuple[list[str], list[str], int]:
    """The treasury panel's rows inside the plot's frame, the rows under it, and the frame's right column."""
    lines = text.splitlines()
    top = next(i for i, line in enumerate(lines) if "Treasury by season" in line)
    right = lines[top + 1].index("┐")
    bottom = next(i for i in range(top + 2, len(lines)) if "└" in lines[i][:right])
    end = next(i for i in range(bottom, len(lines)) if "╰" in lines[i][:right])
    width = right + 3  # the plot, its right border and the panel's
    return [line[:width] for line in lines[top + 2 : bottom]], [line[:width] for line in lines[bottom + 1 : end]], right


@pytest.mark.parametrize("size", [(80, 24), (160, 48)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("history", ["one season", "three seasons"])
async def test_treasury_plot_stays_in_its_frame_and_its_legend_off_the_data(
    request: pytest.FixtureRequest, history: str, size: tuple[int, int]
) -> None:
    save = request.getfixturevalue("save_path" if history == "one season" else "busy_save")
    app = make_app(save, poll_interval=0)
    async with app.run_test(size=size) as pilot:
        await _dashboard(pilot, app)
        inside, under, right = _plot_rows(screen_text(app))
        for row in inside:
            assert row[right] in "│┤", f"something is drawn over the plot's right border: {row!r}"
            assert not any(0x2800 <= ord(c) <= 0x28FF or c == "●" for c in row[right + 1 : right + 3]), row
            for kingdom in ("Elbreth", "Kesh", "Varos"):
                assert kingdom not in row, f"the legend is drawn over the data: {row!r}"
        legend = [row for row in under if "Elbreth" in row]
        assert legend and all(k in legend[0] for k in ("■ Elbreth", "■ Kesh", "■ Varos")), under
        points = sum(1 for row in inside for c in row if 0x2800 <= ord(c) <= 0x28FF or c == "●")
        assert points >= 3, "every kingdom's treasury is drawn"


# -- 4. orders by name, not by id ---------------------------------------------------------------------

ORDER_ID = re.compile(r"\bo-\d{4}\b")


@pytest.mark.parametrize(("key", "verb"), [("x", "Resolve"), ("j", "Reject")])
async def test_order_dialogs_name_who_filed_it_and_what_it_does(busy_save: Path, key: str, verb: str) -> None:
    app = make_app(busy_save, poll_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        queue = app.screen.query_one("#queue-table", RowTable)
        await wait_for(pilot, lambda: queue.row_count == 1, what="the queue")
        assert not ORDER_ID.search(screen_text(app))
        queue.focus()
        await pilot.press(key)
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the order dialog")
        await settle(pilot)
        text = screen_text(app)
        assert f"{verb} Nyx's order: roll" in text
        assert "Nyx: Roll — reason Slip past the March Patrol" in text
        assert not ORDER_ID.search(text), text


async def test_my_orders_read_what_each_order_does(orders_save: Path) -> None:
    app = make_app(orders_save, "player:corvin", poll_interval=0)
    async with app.run_test(size=(160, 48)) as pilot:
        await _dashboard(pilot, app)
        await wait_for(pilot, lambda: "waits for the GM" in screen_text(app), what="what is due")
        text = screen_text(app)
        assert "Business expand — business Hale" in text
        assert not ORDER_ID.search(text), text
        await pilot.press("e")
        await wait_for(pilot, lambda: on_top(app, EspionageScreen), what="the board")
        await settle(pilot)
        text = screen_text(app)
        assert "Fund Bandits waits for the GM" in text and "Infiltrate Treasury" in text
        assert not ORDER_ID.search(text), text
