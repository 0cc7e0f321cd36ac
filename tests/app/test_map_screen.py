"""The hex map (issue 7, item 4): the chosen noble's Relocate range drawn over the map, the hex
details with the rules' reasons, the relocation through the roll dialog (GM) or as an order (a
player), Incite/Usurp with their odds, what each identity may see, and a viewport that follows
the cursor at 80×24."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app_helpers import make_app, on_top, screen_text, settle, wait_for, widget_text, world_of

from yak_tui.app.kit.command import CommandScreen
from yak_tui.app.screens.nobles.hexmap import CELL_SIZES, HexMap
from yak_tui.app.screens.nobles.panels import STATE_STYLE
from yak_tui.app.screens.nobles.screen import MapScreen
from yak_tui.areas import nobles as map_views
from yak_tui.kernel.play.identity import Identity, identity_name
from yak_tui.store.storage import WorldFile

GREYWATCH, MILLBROOK, THORNFIELD, AMBERPORT, EMPTY = (6, 4), (5, 2), (9, 4), (11, 5), (7, 4)


async def open_map(app: Any, pilot: Any) -> HexMap:
    await pilot.press("m")
    await wait_for(pilot, lambda: on_top(app, MapScreen), what="the map")
    hexmap: HexMap = app.screen.query_one(HexMap)
    await wait_for(pilot, lambda: hexmap.view is not None, what="the map data")
    return hexmap


async def choose_tobias(app: Any, pilot: Any, hexmap: HexMap) -> None:
    """The cursor on Greywatch, then n: the commander standing under the cursor comes first."""
    hexmap.focus_hex(GREYWATCH)
    await settle(pilot)
    await pilot.press("n")
    await wait_for(pilot, lambda: app.screen.noble == "tobias", what="Tobias chosen")


def details(app: Any) -> str:
    return " ".join(str(app.screen.query_one("#hex-details").render()).split())


async def test_relocate_range_is_drawn_and_explained_hex_by_hex(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        hexmap = await open_map(app, pilot)
        assert not hexmap.overlays
        await choose_tobias(app, pilot, hexmap)
        # Every hex within 7 is painted by its state; the world layer's answer is the reference.
        reference = map_views.relocate_view(world_of(save_path), Identity.parse("gm"), "tobias")
        assert set(hexmap.overlays) == set(reference.cells) and len(reference.cells) == 169
        assert hexmap.overlays[MILLBROOK] == STATE_STYLE["reachable"]
        assert hexmap.overlays[THORNFIELD] == STATE_STYLE["blocked"]  # the Varos Lancers, a division
        assert hexmap.overlays[EMPTY] == STATE_STYLE["empty"]
        assert hexmap.overlays[GREYWATCH] == STATE_STYLE["here"]
        assert (13, 4) in hexmap.overlays and (14, 4) not in hexmap.overlays  # range 7 by hex distance
        noble = " ".join(str(app.screen.query_one("#noble-details").render()).split())
        assert "Tobias Venn" in noble and "in Greywatch" in noble and "12 reachable · 2 blocked" in noble
        assert "Redfen 100%" in noble  # the best Incite target in reach

        hexmap.focus_hex(THORNFIELD)
        await settle(pilot)
        assert "✘ blocked · 3 hexes" in details(app) and "division size" in details(app)
        assert "spent though it fails" in details(app)
        hexmap.focus_hex(EMPTY)
        await settle(pilot)
        assert "∅ empty hex · 1 hex" in details(app) and "no PC in the target hex" in details(app)
        hexmap.focus_hex(AMBERPORT)
        await settle(pilot)
        # The GM sees the exact chance: the Ambassador's 20% share and Varos's nation counter-spy.
        assert "✔ reachable · 6 hexes" in details(app) and "discovery 30% by Varos" in details(app)
        assert "then incite 0% success" in details(app)
        hexmap.focus_hex((14, 4))
        await settle(pilot)
        assert "out of range: 8 hexes, the range is 7" in details(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen.noble is None, what="cleared")
        assert not hexmap.overlays


async def test_gm_relocates_tobias_through_the_roll_dialog(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(120, 40)) as pilot:
        hexmap = await open_map(app, pilot)
        await choose_tobias(app, pilot, hexmap)
        await pilot.press("up", "up", "left", "left")  # two rows up, then west: Millbrook
        assert hexmap.cursor == MILLBROOK
        await pilot.press("v")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the roll dialog")
        dialog = app.screen
        assert dialog.title_text == "Relocate Tobias Venn to Millbrook"
        await wait_for(pilot, lambda: "undiscovered" in screen_text(app), what="odds")
        assert "3 hexes from Greywatch · 1 ducat" in screen_text(app)
        await pilot.press("enter")  # the hex field has the focus: enter rolls
        await wait_for(pilot, lambda: "relocates from Greywatch to Millbrook" in screen_text(app), what="the result")
        tobias = world_of(save_path).get("characters", "tobias")
        assert tobias["location"] == "millbrook" and tobias["treasury"] == 3
        await pilot.press("escape")
        await wait_for(pilot, lambda: on_top(app, MapScreen))
        # The map follows the world: his range is now measured from Millbrook.
        await wait_for(pilot, lambda: hexmap.overlays.get(MILLBROOK) == STATE_STYLE["here"], what="new range")
        assert hexmap.overlays[GREYWATCH] == STATE_STYLE["reachable"]


async def test_usurp_odds_and_the_gm_runs_it_with_its_cost_spent(save_path: Path) -> None:
    with WorldFile(save_path).transaction() as data:
        data["characters"]["tobias"]["location"] = "hollow-oak"  # a neutral town
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        hexmap = await open_map(app, pilot)
        hexmap.focus_hex((8, 6))
        await settle(pilot)
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen.noble == "tobias")
        noble = " ".join(str(app.screen.query_one("#noble-details").render()).split())
        assert "Here: Hollow Oak" in noble
        assert "Incite Hollow Oak is neutral" in noble  # Incite needs another kingdom's PC
        assert "Usurp Power 4 vs Resistance 5 · 1 ducat" in noble and "failure ██████████ 100%" in noble
        await pilot.press("t")
        await settle(pilot)
        assert not isinstance(app.screen, CommandScreen)  # refused on the spot, with the reason
        await pilot.press("p")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the usurp dialog")
        await wait_for(pilot, lambda: "success" in screen_text(app) and "100.0%" in screen_text(app))
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: "orders Usurp Control in Hollow Oak" in widget_text(app), what="the result")
        world = world_of(save_path)
        assert world.get("characters", "tobias")["treasury"] == 3  # spent on a failure too
        assert world.get("pcs", "hollow-oak").get("controller") is None
        assert [e for _, e in world.all("chronicle") if e["kind"] == "noble-command"]


async def test_a_player_sees_only_himself_and_files_the_relocation_as_an_order(save_path: Path) -> None:
    app = make_app(save_path, "player:tobias")
    async with app.run_test(size=(140, 45)) as pilot:
        hexmap = await open_map(app, pilot)
        assert hexmap.view is not None
        people = {p.id for cell in hexmap.view.cells.values() for p in cell.places if p.table == "characters"}
        assert people == {"tobias"}  # his own whereabouts only; foreign legions are public
        assert "units:varos-lancers" in hexmap.view.where
        assert app.screen.nobles == tuple(c for c in app.screen.nobles if c.id == "tobias")
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen.noble == "tobias")
        hexmap.focus_hex(AMBERPORT)
        await settle(pilot)
        # Varos's counter-spies are Varos's secret: he sees the chance his title gives, as a floor.
        assert "discovery ≥20% by Varos" in details(app) and "30%" not in details(app)
        assert "v file the order" in details(app)
        await pilot.press("v")
        await wait_for(pilot, lambda: world_of(save_path).table("orders"), what="the order")
        ((_order_id, order),) = world_of(save_path).table("orders").items()
        assert order["command"] == "relocate" and order["filed_by"] == "player:tobias"
        assert order["params"] == {"character": "tobias", "hex": "11,5"}
        assert world_of(save_path).get("characters", "tobias")["location"] == "greywatch"  # not yet
        adjudicator = identity_name(world_of(save_path), Identity.parse(order["adjudicator"]))
        notice = f"Order received; it waits for {adjudicator}. Odds:"  # names, not the order's id
        await wait_for(pilot, lambda: any(n.message.startswith(notice) for n in app._notifications), what="the notice")


async def test_a_king_moves_his_own_nobles_only(save_path: Path) -> None:
    app = make_app(save_path, "king:varos")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_map(app, pilot)
        assert [c.id for c in app.screen.nobles] == ["dario"]
        await pilot.press("n")
        await wait_for(pilot, lambda: app.screen.noble == "dario")
        # The noble's panel is drawn once his view is built: wait for it, do not race it.
        await wait_for(pilot, lambda: "Count Dario" in widget_text(app), what="Count Dario's panel")
        assert "Tobias Venn" not in widget_text(app)


async def test_the_viewport_follows_the_cursor_at_80x24(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hexmap = await open_map(app, pilot)
        scroll = app.screen.query_one("#map-scroll")
        await pilot.press("z", "z")  # zoomed in to 8x3 cells: the map no longer fits, so it scrolls
        await wait_for(pilot, lambda: CELL_SIZES[hexmap.zoom] == (8, 3))
        assert hexmap.natural_size(hexmap.zoom)[0] > scroll.size.width
        await pilot.press(*["j"] * 9, *["l"] * 6)  # hjkl move too

        def cursor_in_view() -> bool:
            region = hexmap.cursor_region().translate(hexmap.virtual_region.offset)
            view = scroll.scrollable_content_region.reset_offset.translate(scroll.scroll_offset)
            return view.contains_region(region)

        await wait_for(pilot, cursor_in_view, what="the cursor in the viewport")
        assert scroll.scroll_offset.y > 0
        await pilot.press(*["k"] * 9, *["h"] * 6)
        await wait_for(pilot, cursor_in_view, what="the cursor back in view")
        assert CELL_SIZES[hexmap.zoom] == (8, 3)
