"""A panel of the map draws exactly what it is shown: `show(...)` is the whole contract between the
screen and its panels (the screen keeps the cursor and the chosen noble)."""

from __future__ import annotations

from pathlib import Path

from app_helpers import make_app, world_of
from test_map_screen import GREYWATCH, MILLBROOK, open_map

from yak_tui.app.screens.nobles.panels import STATE_STYLE, HexPanel, LegendPanel, MapPanel, NoblePanel
from yak_tui.app.screens.nobles.screen import MapScreen
from yak_tui.areas import nobles as map_views
from yak_tui.kernel.play.identity import GM


def text_of(screen: MapScreen, selector: str) -> str:
    return " ".join(str(screen.query_one(selector).render()).split())


async def test_the_map_panels_draw_what_they_are_shown_not_the_screens(save_path: Path) -> None:
    world = world_of(save_path)
    relocation = map_views.relocate_view(world, GM, "tobias")
    targets = map_views.targets_view(world, GM, "tobias")
    nobles = map_views.commanders(world, GM)
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        hexmap = await open_map(app, pilot)
        screen = app.screen
        assert isinstance(screen, MapScreen)
        assert screen.noble is None and not hexmap.overlays  # no noble chosen on the screen

        screen.query_one(MapPanel).show_range(relocation)
        assert set(hexmap.overlays) == set(relocation.cells)
        assert hexmap.overlays[MILLBROOK] == STATE_STYLE["reachable"]
        screen.query_one(MapPanel).show_range(None)
        assert not hexmap.overlays

        noble = screen.query_one(NoblePanel)
        noble.show(nobles, "tobias", relocation, targets)
        assert "Tobias Venn" in text_of(screen, "#noble-details") and "12 reachable · 2 blocked" in text_of(
            screen, "#noble-details"
        )
        assert noble.border_title.endswith(f"/{len(nobles)}")
        noble.show(nobles)
        assert noble.border_title == "Noble" and "choose a noble" in text_of(screen, "#noble-details")

        hex_panel = screen.query_one(HexPanel)
        hex_panel.show(MILLBROOK, hexmap.cell_at(MILLBROOK), relocation)
        assert hex_panel.border_title == f"Hex {MILLBROOK[0]},{MILLBROOK[1]}"
        assert "Relocate here ✔ reachable" in text_of(screen, "#hex-details")
        hex_panel.show(GREYWATCH, None)
        assert text_of(screen, "#hex-details") == "Nothing you know of stands here."

        legend = screen.query_one(LegendPanel)
        assert hexmap.view is not None
        legend.show(hexmap.view, relocation)
        assert "blocked by a legion" in text_of(screen, "#legend")
        legend.show(hexmap.view)
        assert "blocked by a legion" not in text_of(screen, "#legend")
