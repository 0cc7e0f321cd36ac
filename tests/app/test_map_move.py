"""The hex map of issue 15: land tinted by the kingdom that rules it (seen on the rendered strips),
zoom in and out across four cell sizes with the cursor kept in view, and the GM's move mode:
pick a unit or person with `m`, see the path and what `gm-move` would do, Enter moves it (the
world file and the chronicle show it), escape leaves the file byte-for-byte, a refusal says why,
and nobody but the GM can enter it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app_helpers import make_app, on_top, screen_text, settle, wait_for, world_of
from rich.color import Color

from yak_tui.app.screens.nobles.hexmap import CELL_SIZES, HexMap
from yak_tui.app.screens.nobles.screen import MapScreen

HIGHMOOR, GREYWATCH, EMPTY = (4, 3), (6, 4), (7, 4)


async def open_map(app: Any, pilot: Any) -> HexMap:
    await pilot.press("m")
    await wait_for(pilot, lambda: on_top(app, MapScreen), what="the map")
    hexmap: HexMap = app.screen.query_one(HexMap)
    await wait_for(pilot, lambda: hexmap.view is not None, what="the map data")
    await settle(pilot)
    return hexmap


def background_at(hexmap: HexMap, key: tuple[int, int]) -> Color | None:
    """The background of the middle of a hex's bottom line, as the widget renders it."""
    region = hexmap.hex_region(key)
    x, y = region.x + region.width // 2, region.y + region.height - 1
    offset = 0
    for segment in hexmap.render_line(y):
        if offset <= x < offset + segment.cell_length:
            return segment.style.bgcolor if segment.style else None
        offset += segment.cell_length
    return None


def land_of(hexmap: HexMap, kingdom: str) -> list[tuple[int, int]]:
    """Hexes of a kingdom's land with nothing drawn over them (no place, no cursor)."""
    assert hexmap.view is not None
    return sorted(
        h
        for h, claim in hexmap.view.territory.items()
        if claim.controller == kingdom and h not in hexmap.view.cells and h != hexmap.cursor
    )


def cursor_in_view(hexmap: HexMap, scroll: Any) -> bool:
    region = hexmap.cursor_region().translate(hexmap.virtual_region.offset)
    view = scroll.scrollable_content_region.reset_offset.translate(scroll.scroll_offset)
    return bool(view.contains_region(region))


def hexes_in_view(hexmap: HexMap, scroll: Any) -> int:
    view = scroll.scrollable_content_region.reset_offset.translate(scroll.scroll_offset)
    assert hexmap.view is not None
    keys = set(hexmap.view.territory) | set(hexmap.view.cells)
    return sum(
        1 for key in keys if view.contains_region(hexmap.hex_region(key).translate(hexmap.virtual_region.offset))
    )


async def test_each_kingdoms_land_has_its_own_tint_on_the_rendered_map(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(160, 48)) as pilot:
        hexmap = await open_map(app, pilot)
        tints = {}
        for kingdom in ("elbreth", "varos", "kesh"):
            hexes = land_of(hexmap, kingdom)
            assert len(hexes) >= 2, kingdom
            first, second = background_at(hexmap, hexes[0]), background_at(hexmap, hexes[-1])
            assert first is not None and first == second  # one kingdom, one tint
            tints[kingdom] = first
        assert len(set(tints.values())) == 3  # each kingdom its own
        unclaimed = land_of(hexmap, "")  # The Wilds: no ruler, no tint
        assert unclaimed and background_at(hexmap, unclaimed[0]) not in tints.values()
        text = screen_text(app)
        # Full names where there is room; the legend names the kingdoms and the marks.
        assert "Saltcross Market" in text and "Silverdell Market" in text and "Varos March" in text
        assert "Kingdom of Elbreth" in text and "Principality of Kesh" in text and "realms meet" in text


async def test_z_zooms_in_and_shift_z_out_across_four_sizes_keeping_the_cursor_in_view(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(80, 24)) as pilot:
        hexmap = await open_map(app, pilot)
        scroll = app.screen.query_one("#map-scroll")
        assert "z Zoom in" in screen_text(app) and "Z Zoom out" in screen_text(app)
        for _ in CELL_SIZES:
            await pilot.press("Z")
        await wait_for(pilot, lambda: hexmap.zoom == len(CELL_SIZES) - 1, what="zoomed all the way out")
        hexmap.focus_hex(GREYWATCH)
        counts = []
        for level in reversed(range(len(CELL_SIZES))):
            await wait_for(pilot, lambda level=level: hexmap.zoom == level, what=f"zoom {level}")
            await wait_for(pilot, lambda: cursor_in_view(hexmap, scroll), what="the cursor in view")
            await settle(pilot)
            assert hexmap.size.width == hexmap.natural_size(level)[0]
            counts.append(hexes_in_view(hexmap, scroll))
            await pilot.press("z")
        assert counts == sorted(counts, reverse=True) and counts[0] > counts[-1]  # fewer, larger hexes
        assert CELL_SIZES[hexmap.zoom] == CELL_SIZES[0]
        await pilot.press("Z")
        await wait_for(pilot, lambda: hexmap.zoom == 1, what="one step out")
        await wait_for(pilot, lambda: cursor_in_view(hexmap, scroll), what="the cursor in view")


async def start_moving(app: Any, pilot: Any, hexmap: HexMap, start: tuple[int, int], target: tuple[int, int]) -> Any:
    hexmap.focus_hex(start)
    await settle(pilot)
    await pilot.press("m")
    screen = app.screen
    await wait_for(pilot, lambda: screen.mover is not None, what="move mode")
    hexmap.focus_hex(target)
    await wait_for(
        pilot,
        lambda: screen.preview is not None and screen.preview.target == target and not screen._previewer.pending,
        what="the preview",
    )
    await settle(pilot)
    return screen


async def test_move_mode_moves_a_unit_and_the_chronicle_records_it(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(160, 48), notifications=True) as pilot:
        hexmap = await open_map(app, pilot)
        screen = await start_moving(app, pilot, hexmap, HIGHMOOR, GREYWATCH)
        assert screen.mover.id == "elbreth-royal-guard"  # units first
        details = " ".join(str(screen.query_one("#hex-details").render()).split())
        assert "Move ♞ Royal Guard" in details and "marches 3 hexes to Greywatch" in details
        assert set(screen.preview.path) <= set(hexmap.overlays) and hexmap.notes[GREYWATCH][0] == "→3"
        await pilot.press("enter")
        await wait_for(
            pilot,
            lambda: world_of(save_path).get("units", "elbreth-royal-guard")["hex"] == [6, 4],
            what="the unit moved in the world file",
        )
        await wait_for(pilot, lambda: screen.mover is None, what="move mode over")
        world = world_of(save_path)
        moves = [e for _, e in world.all("chronicle") if e.get("kind") == "move"]
        assert len(moves) == 1 and "Royal Guard marches from 4,3 to Greywatch: 3 hexes" in moves[0]["text"]
        await wait_for(pilot, lambda: any(n.title == "Moved" for n in app._notifications), what="the notice")
        await wait_for(
            pilot,
            lambda: (
                "units:elbreth-royal-guard" in hexmap.view.where
                and hexmap.view.where["units:elbreth-royal-guard"] == GREYWATCH
            ),
            what="the map redrawn",
        )
        assert not hexmap.overlays


async def test_escape_leaves_the_world_file_byte_for_byte_and_m_picks_the_next_one(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(80, 24)) as pilot:
        before = save_path.read_bytes()
        hexmap = await open_map(app, pilot)
        screen = await start_moving(app, pilot, hexmap, HIGHMOOR, EMPTY)
        assert screen.preview.ok and screen.preview.hexes == 4
        await pilot.press("m")  # the next one on his hex: King Aldric
        await wait_for(pilot, lambda: screen.mover.table == "characters", what="the next mover")
        await pilot.press("escape")
        await wait_for(pilot, lambda: screen.mover is None, what="move mode cancelled")
        await settle(pilot)
        assert not hexmap.overlays
        assert save_path.read_bytes() == before


async def test_a_refused_move_says_why_and_writes_nothing(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(160, 48), notifications=True) as pilot:
        before = save_path.read_bytes()
        hexmap = await open_map(app, pilot)
        screen = await start_moving(app, pilot, hexmap, HIGHMOOR, GREYWATCH)
        await pilot.press("m")  # King Aldric, to an empty hex: a character goes to a place or a unit
        await wait_for(pilot, lambda: screen.mover.table == "characters", what="the king")
        hexmap.focus_hex(EMPTY)
        await wait_for(
            pilot,
            lambda: screen.preview is not None and screen.preview.target == EMPTY and not screen._previewer.pending,
            what="the preview",
        )
        assert not screen.preview.ok and hexmap.notes[EMPTY][0] == "✘4"
        details = " ".join(str(screen.query_one("#hex-details").render()).split())
        assert "✘ a character goes to a place or with a unit" in details
        await pilot.press("enter")
        await wait_for(
            pilot, lambda: any(n.title.startswith("Cannot move") for n in app._notifications), what="the refusal"
        )
        assert screen.mover is not None  # still moving: the GM may pick another hex
        assert save_path.read_bytes() == before


async def test_only_the_gm_enters_move_mode(save_path: Path) -> None:
    app = make_app(save_path, "king:elbreth")
    async with app.run_test(size=(160, 48)) as pilot:
        before = save_path.read_bytes()
        hexmap = await open_map(app, pilot)
        hexmap.focus_hex(HIGHMOOR)
        await settle(pilot)
        assert "m Move" not in screen_text(app)
        await pilot.press("m")
        await settle(pilot)
        assert app.screen.mover is None and on_top(app, MapScreen)
        assert save_path.read_bytes() == before


async def test_the_kept_map_lines_are_redrawn_in_the_other_theme(save_path: Path) -> None:
    """The map keeps a strip per line on screen; a theme change must not show the old colours."""
    app = make_app(save_path)
    async with app.run_test(size=(160, 48)) as pilot:
        hexmap = await open_map(app, pilot)
        land = land_of(hexmap, "elbreth")[0]
        dark = background_at(hexmap, land)
        await pilot.press("ctrl+t")
        await wait_for(pilot, lambda: background_at(hexmap, land) != dark, what="the other theme's tint")


def drawn(hexmap: HexMap) -> list[tuple[str, list[Any]]]:
    return [(row.plain, list(row.spans)) for row in hexmap.render_rows()]


async def test_redrawing_only_the_changed_rows_gives_the_whole_drawing(save_path: Path) -> None:
    """A path or a range redraws only the rows of hexes it changed: the same map as drawn whole."""
    app = make_app(save_path)
    async with app.run_test(size=(160, 48)) as pilot:
        hexmap = await open_map(app, pilot)
        screen = await start_moving(app, pilot, hexmap, HIGHMOOR, EMPTY)
        for target in (GREYWATCH, (9, 6), (2, 7)):
            hexmap.focus_hex(target)
            await wait_for(
                pilot,
                lambda target=target: (
                    screen.preview is not None and screen.preview.target == target and not screen._previewer.pending
                ),
                what="the preview",
            )
            await settle(pilot)
            assert hexmap.notes and target in hexmap.notes
            in_parts = drawn(hexmap)
            hexmap._drawing = None  # draw it whole
            assert drawn(hexmap) == in_parts
        await pilot.press("escape")
        await wait_for(pilot, lambda: screen.mover is None, what="move mode over")
        await settle(pilot)
        in_parts = drawn(hexmap)
        hexmap._drawing = None
        assert drawn(hexmap) == in_parts


async def test_a_click_on_a_hex_puts_the_cursor_there(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(160, 48)) as pilot:
        hexmap = await open_map(app, pilot)
        thornfield = (9, 4)
        region = hexmap.hex_region(thornfield)
        await pilot.click(HexMap, offset=(region.x + 1, region.y))
        await wait_for(pilot, lambda: hexmap.cursor == thornfield, what="the cursor on the clicked hex")
