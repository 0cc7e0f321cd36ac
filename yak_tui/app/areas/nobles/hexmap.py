"""The hex map: axial (q, r) hexes laid out by `yak_tui.kernel.hexgrid` (pointy-top, odd-r rows).

Each hex that holds something shows its place glyph in its controller's colour and a mark for
forces (♞) and people (♟) there; the cursor moves with the arrow keys (or hjkl). Other screens'
features draw on top through `overlays` (e.g. a Relocate range or the Incite/Usurp targets):
`hexmap.overlays = {(q, r): "on $secondary 30%", ...}`.
"""

from __future__ import annotations

from typing import ClassVar

from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.geometry import Region, Spacing
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from yak_tui.areas.nobles import HexCell, MapView
from yak_tui.kernel.hexgrid import axial_to_offset, hex_to_cell, offset_to_axial

Hex = tuple[int, int]
# Cell sizes (width, height) tried from roomiest to most compact.
CELL_SIZES = ((8, 3), (6, 2), (4, 1))


class HexMap(Widget, can_focus=True):
    """A movable cursor over the hexes of a `MapView`; posts `HexMap.Moved` when it moves."""

    DEFAULT_CSS = """
    HexMap {
        width: auto;
        height: auto;
    }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "move(-1, 0)", "West", show=False),
        Binding("right,l", "move(1, 0)", "East", show=False),
        Binding("up,k", "move(0, -1)", "North", show=False),
        Binding("down,j", "move(0, 1)", "South", show=False),
        Binding("home", "home", "Home", show=False),
    ]

    class Moved(Message):
        def __init__(self, hexmap: HexMap, cursor: Hex, cell: HexCell | None) -> None:
            super().__init__()
            self.hexmap = hexmap
            self.cursor = cursor
            self.cell = cell

    cursor: reactive[Hex] = reactive((0, 0))
    zoom: reactive[int] = reactive(1, layout=True)  # index into CELL_SIZES: 0 roomiest, 2 most compact

    def __init__(self, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(id=id, classes=classes)
        self.view: MapView | None = None
        self.overlays: dict[Hex, str] = {}
        self.notes: dict[Hex, tuple[str, str]] = {}  # a short text and its style, drawn where there is room
        self._hits: dict[tuple[int, int], Hex] = {}  # drawn character -> hex, for mouse clicks

    # -- data ---------------------------------------------------------------------------------------
    def set_view(self, view: MapView, keep_cursor: bool = True) -> None:
        first = self.view is None
        self.view = view
        if (first or not keep_cursor) and view.home is not None:
            self.cursor = view.home
        self.refresh(layout=True)
        self.post_message(self.Moved(self, self.cursor, self.cell_at(self.cursor)))

    def set_overlays(self, overlays: dict[Hex, str], notes: dict[Hex, tuple[str, str]] | None = None) -> None:
        """Backgrounds (and notes) drawn over the hexes; empty dicts clear them."""
        self.overlays = dict(overlays)
        self.notes = dict(notes or {})
        self.refresh()

    def cell_at(self, h: Hex) -> HexCell | None:
        return None if self.view is None else self.view.cells.get(h)

    def focus_hex(self, h: Hex) -> None:
        self.cursor = h

    def watch_cursor(self, cursor: Hex) -> None:
        self.refresh(layout=True)  # the map grows when the cursor walks off its edge
        self.call_after_refresh(self.follow_cursor)
        self.post_message(self.Moved(self, cursor, self.cell_at(cursor)))

    def watch_zoom(self, zoom: int) -> None:
        self.call_after_refresh(self.follow_cursor)

    def cursor_region(self) -> Region:
        """Where the cursor's cell is drawn, in the map's own characters."""
        w, h = self._cell_size()
        c0, _, r0, _ = self._bounds()
        origin_x, origin_y = hex_to_cell(offset_to_axial(c0, r0), w, h)
        x, y = hex_to_cell(self.cursor, w, h)
        return Region(x - origin_x, y - origin_y, w, h)

    def follow_cursor(self) -> None:
        """Scroll the container around the map so the cursor stays in view with a cell of margin."""
        parent = self.parent
        if not isinstance(parent, Widget) or not self.is_mounted:
            return
        w, h = self._cell_size()
        region = self.cursor_region().translate(self.virtual_region.offset)
        parent.scroll_to_region(region, animate=False, spacing=Spacing(h, w, h, w), force=True, immediate=True)

    # -- geometry -----------------------------------------------------------------------------------
    def _bounds(self, zoom: int | None = None) -> tuple[int, int, int, int]:
        """Offset (col, row) bounds of every hex with something on it and the cursor, with a row
        of margin above and below (none sideways, where every column counts)."""
        hexes = list(self.view.cells) if self.view else []
        hexes.append(self.cursor)
        cols, rows = zip(*(axial_to_offset(h) for h in hexes), strict=True)
        r0 = min(rows) - 1
        r0 -= r0 & 1  # start on an even row so odd rows keep the half-cell shift hexgrid gives them
        return min(cols), max(cols), r0, max(rows) + 1

    def _cell_size(self) -> tuple[int, int]:
        return CELL_SIZES[self.zoom]

    def natural_size(self, zoom: int) -> tuple[int, int]:
        """Characters (width, height) the map needs at a cell size."""
        w, h = CELL_SIZES[zoom]
        c0, c1, r0, r1 = self._bounds(zoom)
        return (c1 - c0 + 1) * w + w // 2, (r1 - r0 + 1) * h

    def fit(self, width: int, height: int) -> None:
        """The roomiest cell size whose map fits in `width` × `height` (else the most compact)."""
        for zoom in range(len(CELL_SIZES)):
            need_w, need_h = self.natural_size(zoom)
            if need_w <= width and need_h <= height:
                self.zoom = zoom
                return
        self.zoom = len(CELL_SIZES) - 1

    def get_content_width(self, container: object, viewport: object) -> int:
        return self.natural_size(self.zoom)[0]

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        return self.natural_size(self.zoom)[1]

    # -- moving -------------------------------------------------------------------------------------
    def action_move(self, dq: int, drow: int) -> None:
        q, r = self.cursor
        if drow:
            col, row = axial_to_offset((q, r))
            new = offset_to_axial(col, row + drow)
            self.cursor = (new.q, new.r)
        else:
            self.cursor = (q + dq, r)

    def action_home(self) -> None:
        if self.view and self.view.home is not None:
            self.cursor = self.view.home

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        hit = self._hits.get((offset.x, offset.y))
        if hit is not None:
            self.cursor = hit
        self.focus()

    # -- drawing ------------------------------------------------------------------------------------
    def render(self) -> Content:
        if self.view is None:
            return Content("")
        w, h = self._cell_size()
        c0, c1, r0, r1 = self._bounds()
        origin_x, origin_y = hex_to_cell(offset_to_axial(c0, r0), w, h)
        width = (c1 - c0 + 1) * w + w // 2
        height = (r1 - r0 + 1) * h
        grid: list[list[tuple[str, str]]] = [[(" ", "")] * width for _ in range(height)]
        self._hits = {}
        for row in range(r0, r1 + 1):
            for col in range(c0, c1 + 1):
                ax = offset_to_axial(col, row)
                key = (ax.q, ax.r)
                x, y = hex_to_cell(key, w, h)
                x -= origin_x
                y -= origin_y
                for dy, line in enumerate(self._cell_lines(key, w, h)):
                    for dx, (char, style) in enumerate(line):
                        if 0 <= y + dy < height and 0 <= x + dx < width:
                            grid[y + dy][x + dx] = (char, style)
                            self._hits[(x + dx, y + dy)] = key
        lines = []
        for row_cells in grid:
            parts: list[tuple[str, str]] = []
            for char, style in row_cells:
                if parts and parts[-1][1] == style:
                    parts[-1] = (parts[-1][0] + char, style)
                else:
                    parts.append((char, style))
            lines.append(Content.assemble(*parts))
        return Content("\n").join(lines)

    def _cell_lines(self, key: Hex, w: int, h: int) -> list[list[tuple[str, str]]]:
        """One cell: glyph and marks, then (where there is room) the place's name, the counts of
        forces and people, and the overlay's note. The cursor cell is drawn reversed."""
        cell = self.cell_at(key)
        is_cursor = key == self.cursor
        base = ""
        if cell is not None and cell.colour:
            base = f"on {cell.colour} 22%"
        overlay = self.overlays.get(key)
        if overlay:
            base = overlay
        if is_cursor:
            base = "reverse bold"
        glyph_style = f"bold {cell.colour}" if cell is not None and cell.colour else "bold"
        if cell is None or not cell.glyph:
            glyph, glyph_style = "·", "$foreground 35%"
        else:
            glyph = cell.glyph
        marks: list[tuple[str, str]] = []
        if cell is not None and cell.units:
            marks.append(("♞", "bold $accent"))
        if cell is not None and cell.characters:
            marks.append(("♟", "bold $secondary"))
        note = self.notes.get(key)

        def styled(parts: list[tuple[str, str]], size: int) -> list[tuple[str, str]]:
            chars: list[tuple[str, str]] = []
            for text, style in parts:
                for char in text:
                    chars.append((char, f"{style} {base}".strip() if not is_cursor else base))
            chars = chars[:size]
            while len(chars) < size:
                chars.append((" ", base))
            return chars

        if h == 1:
            return [styled([(" ", ""), (glyph, glyph_style), *marks], w)]
        name = ""
        if cell is not None:
            pcs = [p for p in cell.places if p.table == "pcs"]
            if pcs:
                name = pcs[0].name
        note_part = [(" ", ""), (note[0], note[1])] if note else []
        if h == 2:
            top = styled([(" ", ""), (glyph, glyph_style), *marks], w)
            second = note_part or [(" ", ""), (name, "$foreground")]
            return [top, styled(second, w)]
        top = styled([(" ", ""), (glyph, glyph_style), (" ", ""), (name[: w - 3], "$foreground")], w)
        counts: list[tuple[str, str]] = [(" ", "")]
        if cell is not None and cell.units:
            counts.append((f"♞{cell.units}", "bold $accent"))
        if cell is not None and cell.characters:
            counts.append((f"♟{cell.characters}", "bold $secondary"))
        lines = [top, styled(counts, w), styled(note_part, w)]
        while len(lines) < h:
            lines.append(styled([], w))
        return lines
