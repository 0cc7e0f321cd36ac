"""A panel of the season dashboard draws exactly the read model it is shown: `show(view)` is the
whole contract between the screen and its panels (the screen only routes its state)."""

from __future__ import annotations

from pathlib import Path

from app_helpers import make_app, on_top, screen_text, settle, wait_for, widget_text

from yak_tui.app.kit.rowtable import RowTable
from yak_tui.app.screens.court.dashboard import DashboardScreen
from yak_tui.app.screens.court.panels import (
    HoldingsPanel,
    KingdomsPanel,
    LatestPanel,
    MyOrdersPanel,
    QueuePanel,
    SeasonPanel,
    TreasuryPanel,
)
from yak_tui.areas.court import DueItem, dashboard_view
from yak_tui.kernel.play.identity import GM


async def test_the_dashboard_panels_draw_the_view_they_are_shown_not_the_screens(busy_save: Path) -> None:
    app = make_app(busy_save)
    async with app.run_test(size=(140, 45)) as pilot:
        await wait_for(pilot, lambda: on_top(app, DashboardScreen), what="the dashboard")
        screen = app.screen
        queue = screen.query_one(QueuePanel)
        await wait_for(pilot, lambda: queue.query_one("#queue-table", RowTable).row_count > 0, what="the queue")
        # What is due is worked out after the first paint: let it land before showing another view.
        await wait_for(pilot, lambda: screen._due_loaded, what="what is due")
        full = dashboard_view(app.world, GM)
        assert full.queue and full.chronicle
        # A quieter season than the screen's: one kingdom, no orders, no chronicle, no history.
        view = full._replace(
            date="Spring 1999",
            kingdoms=full.kingdoms[:1],
            queue=(),
            chronicle=(),
            history=(),
            due=(DueItem("treasury", "Something urgent", urgent=True),),
        )

        queue.show(view)
        assert queue.border_title == "Order queue" and queue.border_subtitle == ""
        await wait_for(pilot, lambda: "No orders wait for you." in widget_text(app), what="the empty queue")
        kingdoms = screen.query_one(KingdomsPanel)
        kingdoms.show(view)
        assert kingdoms.query_one("#kingdoms-table", RowTable).rows == [view.kingdoms[0].id]
        treasury = screen.query_one(TreasuryPanel)
        treasury.show(view)
        assert not treasury.display
        season = screen.query_one(SeasonPanel)
        season.show(view)
        assert season.border_subtitle == "Spring 1999"
        latest = screen.query_one(LatestPanel)
        latest.show(view)
        await wait_for(
            pilot,
            lambda: "Something urgent" in widget_text(app) and "The chronicle is empty." in widget_text(app),
            what="the due item and the empty chronicle",
        )
        # The GM holds nothing and files no orders: those panels hide for him.
        for panel in (screen.query_one(HoldingsPanel), screen.query_one(MyOrdersPanel)):
            panel.show(view)
            assert not panel.display


async def test_a_players_empty_latest_chronicle_does_not_tell_him_to_advance(busy_save: Path) -> None:
    """A player sees only what he may read, and cannot advance: an empty panel says just that."""
    app = make_app(busy_save, "player:lysa")
    async with app.run_test(size=(140, 45)) as pilot:
        await wait_for(pilot, lambda: on_top(app, DashboardScreen), what="the dashboard")
        screen = app.screen
        view = dashboard_view(app.world, app.identity)._replace(chronicle=())
        screen.query_one(LatestPanel).show(view)
        await wait_for(
            pilot, lambda: "Nothing in the chronicle you may read yet." in widget_text(app), what="the empty chronicle"
        )
        assert "advance to fill it" not in widget_text(app)


async def test_the_kingdoms_panel_draws_a_bounded_number_of_kingdoms(save_path: Path) -> None:
    """Issue 13: at 1000x the dashboard drew all 3,000 kingdoms on every paint of the first screen."""
    from yak_tui.app.screens.court.panels import KINGDOM_ROWS

    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await wait_for(pilot, lambda: on_top(app, DashboardScreen), what="the dashboard")
        full = dashboard_view(app.world, GM)
        many = tuple(k._replace(id=f"{k.id}-{i}", short=f"Realm {i}") for i in range(100) for k in full.kingdoms[:1])
        app.screen.query_one(KingdomsPanel).show(full._replace(kingdoms=many))
        table = app.screen.query_one("#kingdoms-table", RowTable)
        assert table.row_count == 100
        lines = table.render().plain.splitlines()
        assert len(lines) == 1 + KINGDOM_ROWS + 1 and lines[-1] == f"rows 1-{KINGDOM_ROWS} of 100"
        assert "Realm 0" in lines[1] and not any("Realm 99" in line for line in lines)


async def test_the_latest_chronicle_is_on_screen_however_long_the_order_queue(tmp_path: Path) -> None:
    """Issue 30: at 100x the GM's queue held 500 orders and drew a window of 200 of them, so the
    "Latest chronicle" panel under it lay 200 rows down the column, off any screen. The dashboard's
    tables draw a few rows at a time (the window follows the cursor), and the panel shows its entries."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from worldgen import write_world

    path = tmp_path / "world.json"
    write_world(12, path)  # 60 orders waiting, as 12 copies of the demo filed them
    app = make_app(path)
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for(pilot, lambda: on_top(app, DashboardScreen), what="the dashboard")
        screen = app.screen
        queue = screen.query_one("#queue-table", RowTable)
        await wait_for(pilot, lambda: queue.row_count >= 60, what="the queue")
        latest = screen.query_one(LatestPanel)
        text = screen.query_one("#latest-text")
        await wait_for(pilot, lambda: "Winter 312 begins" in str(text.render()), what="the latest entries")
        await settle(pilot)
        assert latest.region.height >= 8 and latest.region.bottom <= screen.region.bottom
        assert "Winter 312 begins" in screen_text(app)  # drawn where the terminal shows it


async def test_the_kingdoms_stay_on_screen_however_much_is_due(tmp_path: Path) -> None:
    """Issue 30: at 100x the GM has 100 sieges due; the whole list pushed the kingdoms' table under
    it off the screen. The panel lists the first few (urgent first) and says how many more there are."""
    import sys

    from yak_tui.app.screens.court.panels import DUE_ROWS

    sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
    from worldgen import write_world

    path = tmp_path / "world.json"
    write_world(12, path)  # 12 sieges, 60 orders waiting
    app = make_app(path)
    async with app.run_test(size=(160, 45)) as pilot:
        await wait_for(pilot, lambda: on_top(app, DashboardScreen), what="the dashboard")
        screen = app.screen
        await wait_for(pilot, lambda: screen._due_loaded, what="what is due")
        due = dashboard_view(app.world, GM, due=True).due
        assert len(due) > DUE_ROWS
        summary = str(screen.query_one("#season-summary").render())
        await wait_for(
            pilot,
            lambda: f"{len(due) - DUE_ROWS:,} more" in str(screen.query_one("#season-summary").render()),
            what="the count of what is not listed",
        )
        await settle(pilot)
        summary = str(screen.query_one("#season-summary").render())
        assert [line for line in summary.splitlines() if line[:2] in ("! ", "• ")] == [
            ("! " if item.urgent else "• ") + item.text for item in due[:DUE_ROWS]
        ]
        kingdoms = screen.query_one(KingdomsPanel)
        assert kingdoms.region.y < screen.region.bottom  # its title, at least, on the screen
        assert "Kingdom of Elbreth 1" in screen_text(app)
