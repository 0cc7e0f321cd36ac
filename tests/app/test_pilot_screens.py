"""Every screen opens from its key and shows the demo world's real data; the nav bar, the
command palette (screens, actions, jumps by name), the help screen and the theme work."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_helpers import click, make_app, on_top, screen_text, settle, wait_for, widget_text, world_of
from textual.command import CommandPalette
from textual.widgets import DataTable

from yak_tui.app.kit.rowtable import RowTable
from yak_tui.app.screens.court.chronicle import ChronicleScreen
from yak_tui.app.screens.court.dashboard import DashboardScreen
from yak_tui.app.screens.economy.screen import MarketScreen
from yak_tui.app.screens.espionage.screen import EspionageScreen
from yak_tui.app.screens.nobles.hexmap import HexMap
from yak_tui.app.screens.nobles.screen import MapScreen
from yak_tui.app.screens.warfare.screen import SiegesScreen
from yak_tui.areas.economy.read import market_board
from yak_tui.areas.warfare import fort_name
from yak_tui.kernel.play.identity import GM

SCREENS = [
    ("d", DashboardScreen),
    ("e", EspionageScreen),
    ("b", MarketScreen),
    ("s", SiegesScreen),
    ("m", MapScreen),
    ("c", ChronicleScreen),
]


@pytest.mark.parametrize(("key", "screen"), SCREENS)
async def test_each_key_opens_its_screen_with_header_nav_and_footer(save_path: Path, key: str, screen: type) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("e" if key == "d" else "d")
        await pilot.press(key)
        await wait_for(pilot, lambda: on_top(app, screen), what=screen.__name__)
        text = screen_text(app)
        assert "♛ Elbreth" in text and "Spring 312" in text and "◆ GM" in text
        assert "d Dashboard" in text and "c Chronicle" in text  # nav bar with keys
        assert "Roll" in text and "Quit" in text  # footer bindings
        assert app.screen.query("KeyBar")


async def test_dashboard_shows_kingdoms_treasuries_and_due(busy_save: Path) -> None:
    app = make_app(busy_save)
    world = world_of(busy_save)
    async with app.run_test(size=(140, 45)) as pilot:
        await wait_for(pilot, lambda: app.screen.query_one("#kingdoms-table", RowTable).row_count == 3)
        text = screen_text(app)
        assert world.date.label() == "Autumn 312" and "Autumn 312" in text
        for kid, kingdom in world.all("kingdoms"):
            row = app.screen.query_one("#kingdoms-table", RowTable).get_row(kid)
            assert str(kingdom["treasury"]) == str(row[1])
            assert str(kingdom["manpower"]) == str(row[2])
        await wait_for(
            pilot,
            lambda: "1 order waiting for adjudication" in screen_text(app),
            what="what is due (loaded after the first paint)",
        )
        await wait_for(
            pilot, lambda: "Roll — reason Slip past the March Patrol" in screen_text(app), what="the order queue"
        )
        assert "Envoys of Varos reach Highmoor." in widget_text(app)  # latest chronicle


async def test_treasury_plot_draws_every_season(busy_save: Path) -> None:
    from yak_tui.app.kit.plot import TreasuryPlot

    app = make_app(busy_save)
    async with app.run_test(size=(140, 45)) as pilot:
        plot = app.screen.query_one(TreasuryPlot)
        await wait_for(pilot, lambda: plot.ready, what="plotext")
        history = world_of(busy_save).meta["history"]
        assert [s.values for s in plot.series if s.key == "elbreth"] == [
            tuple(float(p["kingdoms"]["elbreth"]["treasury"]) for p in history)
        ]
        assert "Au 312" in screen_text(app)


async def test_espionage_board_shows_pools_effects_and_catalogue(save_path: Path) -> None:
    app = make_app(save_path)
    world = world_of(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("e")
        await wait_for(pilot, lambda: app.screen.query_one("#pools-table", DataTable).row_count == 3)
        pools = app.screen.query_one("#pools-table", DataTable)
        for kid, doc in world.all("specialists"):
            assert str(pools.get_row(kid)[1]) == str(doc["spy"])
            assert str(pools.get_row(kid)[2]) == str(doc["cold_spy"])
        missions = app.screen.query_one("#missions-table", DataTable)
        assert missions.row_count > 10
        assert "Infiltrate Treasury" in widget_text(app)


async def test_market_shows_potentials_and_fill(save_path: Path) -> None:
    app = make_app(save_path)
    view = market_board(world_of(save_path), GM)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("b")
        await wait_for(pilot, lambda: on_top(app, MarketScreen), what="the market")
        table = app.screen.query_one("#sectors-table", DataTable)
        await wait_for(pilot, lambda: table.row_count == len(view.sectors))
        vale = table.get_row("highmoor-vale:industrial")
        assert (str(vale[2]), str(vale[3]), str(vale[4])) == ("6", "6", "0")  # potential, in use, room: full
        assert "Highmoor Weavers (3)" in str(vale[6])
        table.focus()
        table.move_cursor(row=table.get_row_index("saltmarsh:commercial"))
        await wait_for(
            pilot,
            lambda: app.screen.query_one("#businesses").border_title == "Businesses in Saltmarsh",
            what="Saltmarsh's businesses",
        )
        assert "Hale & Sons Bank" in widget_text(app)


async def test_siege_monitor_lists_walled_places(save_path: Path) -> None:
    app = make_app(save_path)
    world = world_of(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("s")
        table = app.screen.query_one("#forts-table", DataTable)
        walled = [pid for pid, pc in world.all("pcs") if pc.get("fort_level")]
        await wait_for(pilot, lambda: table.row_count == len(walled))
        row = table.get_row("varosgate")
        assert f"4 {fort_name(4)}" == str(row[3])
        assert "No fort is under siege." in screen_text(app)


async def test_map_moves_the_cursor_and_describes_the_hex(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("m")
        await wait_for(pilot, lambda: on_top(app, MapScreen), what="the map")
        hexmap = app.screen.query_one(HexMap)
        await wait_for(pilot, lambda: hexmap.view is not None)
        hexmap.focus_hex((4, 3))
        await wait_for(pilot, lambda: app.screen.query_one("#hex-panel").border_title == "Hex 4,3", what="the hex")
        await settle(pilot)
        assert "Highmoor" in widget_text(app) and "Royal Guard" in widget_text(app)
        assert app.screen.query_one("#hex-panel").border_title == "Hex 4,3"
        await pilot.press("right")
        assert hexmap.cursor == (5, 3)
        await pilot.press("left", "down")
        assert hexmap.cursor != (4, 3)
        await pilot.press("z")  # zoom in
        assert "Kingdom of Varos" in screen_text(app)  # legend


async def test_nav_bar_is_clickable(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await click(pilot, "#nav", offset=(52, 0))  # " m Map "
        await wait_for(pilot, lambda: on_top(app, MapScreen), what="map")


async def test_palette_reaches_every_screen_action_and_name(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(120, 40)) as pilot:
        titles = [e.title for e in app.palette_entries(app.screen)]
        for title in (
            "Go to Dashboard",
            "Go to Espionage",
            "Go to Market",
            "Go to Sieges",
            "Go to Map",
            "Go to Chronicle",
            "Roll the dice",
            "Advance the season",
            "Switch identity",
            "Help: keys",
            "Undo the last command",
            "Run command: roll",
            "Run command: note",
            "Act as King · Kingdom of Varos",
            "Jump to Keshar",
            "Jump to Saltmarsh",
            "Jump to Queen Mirela",
            "Jump to Principality of Kesh",
        ):
            assert title in titles, title
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: on_top(app, CommandPalette), what="the palette")
        await pilot.press(*"Jump to Keshar")
        await wait_for(pilot, lambda: "Jump to Keshar" in screen_text(app))
        await pilot.press("enter")
        await wait_for(pilot, lambda: on_top(app, MapScreen), what="the map")
        await wait_for(pilot, lambda: app.screen.query_one(HexMap).cursor == (6, 9), what="cursor on Keshar")
        # The details panel follows the cursor once the map has drawn it: wait for that, not a guess.
        await wait_for(pilot, lambda: "Host of Kesh" in widget_text(app), what="Keshar's details")
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: on_top(app, CommandPalette), what="the palette")
        await pilot.press(*"Go to Chronicle")
        await wait_for(pilot, lambda: "Go to Chronicle" in screen_text(app))
        await pilot.press("enter")
        await wait_for(pilot, lambda: on_top(app, ChronicleScreen), what="the chronicle")


async def test_help_lists_the_keys(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(100, 45)) as pilot:
        await pilot.press("question_mark")
        await wait_for(pilot, lambda: "Keys" in screen_text(app))
        text = screen_text(app)
        for line in (
            "d  Dashboard",
            "e  Espionage",
            "b  Market",
            "s  Sieges",
            "m  Map",
            "c  Chronicle",
            "r  Roll",
            "a  Advance",
            "i  Identity",
            "?  Help",
            "q  Quit",
        ):
            assert line in text, line
        assert "ctrl+p" in text
        await pilot.press("escape")
        await wait_for(pilot, lambda: on_top(app, DashboardScreen))


async def test_theme_toggles_between_dark_and_light(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(100, 30)) as pilot:
        assert app.theme == "yak-dark"
        await pilot.press("ctrl+t")
        assert app.theme == "yak-light"
        await pilot.press("ctrl+t")
        assert app.theme == "yak-dark"
