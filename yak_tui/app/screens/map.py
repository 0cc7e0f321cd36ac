"""The hex map: places in their controller's colour, forces (♞) and people (♟), a movable cursor
and a details panel for the hex under it. The palette's "Jump to …" lands here.

Extend it by drawing overlays on the HexMap (`hexmap.overlays = {(q, r): style}` e.g. for a
Relocate range or Incite/Usurp targets) and adding Panels to the side column.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from yak_tui.app.messages import FocusPlace
from yak_tui.app.screens.base import YakScreen
from yak_tui.app.widgets.common import Panel
from yak_tui.app.widgets.hexmap import HexMap
from yak_tui.world import views
from yak_tui.world.model import World

TABLE_LABEL = {"pcs": "place", "units": "force", "characters": "person"}


class MapScreen(YakScreen):
    SCREEN_NAME = "map"
    CSS_PATH = Path(__file__).with_name("map.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("home", "home", "Home hex"), Binding("z", "toggle_zoom", "Zoom")]

    def __init__(self) -> None:
        super().__init__()
        self.view: views.MapView | None = None
        self._pending: str | None = None
        self._zoom: int | None = None  # a cell size chosen with z; None: fit the window

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="map-columns"):
            yield Panel("Map", ScrollableContainer(HexMap(id="hexmap"), id="map-scroll"), id="map-panel")
            with VerticalScroll(id="map-side", can_focus=False):
                yield Panel("Hex", Static(id="hex-details"), id="hex-panel")
                yield Panel("Legend", Static(id="legend"), id="legend-panel")

    def on_mount(self) -> None:
        self.query_one(HexMap).focus()

    def refresh_view(self, world: World) -> None:
        self.view = views.map_view(world, self.identity)
        hexmap = self.query_one(HexMap)
        hexmap.set_view(self.view)
        self._fit()
        legend = [Content.assemble(("■ ", k[2] or ""), k[1]) for k in self.view.legend]
        legend += [Content(""), Content.assemble(("♜▲●¤≈†", "bold"), " places"),
                   Content.assemble(("♞", "bold $accent"), " forces  ", ("♟", "bold $secondary"), " people"),
                   Content.styled("arrows move · z zoom", "dim")]
        self.query_one("#legend", Static).update(Content("\n").join(legend))
        if self._pending:
            self._focus_key(self._pending)

    def _fit(self) -> None:
        hexmap = self.query_one(HexMap)
        if self._zoom is not None:
            hexmap.zoom = self._zoom
            return
        scroll = self.query_one("#map-scroll")
        hexmap.fit(scroll.size.width, scroll.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._fit)

    def action_toggle_zoom(self) -> None:
        """Cycle the cell size: roomy, medium, compact (the map scrolls when it does not fit)."""
        from yak_tui.app.widgets.hexmap import CELL_SIZES

        hexmap = self.query_one(HexMap)
        self._zoom = (hexmap.zoom + 1) % len(CELL_SIZES)
        self._fit()

    def action_home(self) -> None:
        self.query_one(HexMap).action_home()

    @on(HexMap.Moved)
    def _moved(self, event: HexMap.Moved) -> None:
        self._details(event.cursor, event.cell)

    def _details(self, cursor: tuple[int, int], cell: views.HexCell | None) -> None:
        panel = self.query_one("#hex-panel")
        panel.border_title = f"Hex {cursor[0]},{cursor[1]}"
        lines: list[Content] = []
        if cell is None or not cell.places:
            lines.append(Content.styled("Nothing you know of stands here.", "italic dim"))
        else:
            if cell.province:
                lines.append(Content.assemble(("Province ", "dim"), (cell.province, "bold")))
            world = self.yak.world
            for place in cell.places:
                owner = world.display_name("kingdoms", place.kingdom) if place.kingdom else "unclaimed"
                lines.append(Content(""))
                lines.append(Content.assemble(("■ ", place.colour or ""), (place.name, "bold"),
                                              (f"  {TABLE_LABEL.get(place.table, place.table)}", "dim")))
                lines.append(Content.assemble(("  ", ""), place.detail, (" · ", "dim"), owner))
                if place.table == "pcs":
                    for key, value in views.describe(world, self.identity, "pcs", place.id):
                        if key in ("name", "hex", "kind", "province", "controller"):
                            continue
                        lines.append(Content.assemble((f"  {key}: ", "dim"), value))
        self.query_one("#hex-details", Static).update(Content("\n").join(lines))

    @on(FocusPlace)
    def _focus_place(self, event: FocusPlace) -> None:
        self._focus_key(f"{event.table}:{event.doc_id}")

    def _focus_key(self, key: str) -> None:
        if self.view is None:
            self._pending = key
            return
        self._pending = None
        target = self.view.where.get(key)
        hexmap = self.query_one(HexMap)
        if target is None:
            self.notify("That is not on the map as far as you know.", severity="warning")
            return
        hexmap.focus_hex(target)
        hexmap.focus()
        hexmap.scroll_visible()
