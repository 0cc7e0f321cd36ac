"""The hex map: axial (q, r) hexes laid out by `yak_tui.kernel.world.hexgrid` (pointy-top, odd-r rows).

Each province's land is tinted by the kingdom that rules it, with a bar and a line where two
kingdoms' lands meet; each hex that holds something shows its place glyph in its controller's
colour, forces (♞) in their owner's colour and people (♟), and the places' and provinces' full
names run over the empty hexes beside them. The cursor moves with the arrow keys (or hjkl).
Other screens' features draw on top through `set_overlays` (a Relocate range, a move's path):
backgrounds and short notes by hex.

The map can be far larger than the screen (hundreds of columns on a big world), so it is drawn
line by line (`render_line`): the drawing without the cursor is kept until the view, zoom or
bounds change, new overlays redraw only the rows of hexes they change, the cursor is laid over
its own lines, and only the lines on screen become strips.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import groupby
from operator import itemgetter
from typing import ClassVar, NamedTuple

from textual import events
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.geometry import Region, Spacing
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.style import Style
from textual.visual import Visual
from textual.widget import Widget

from yak_tui.app.screens.nobles.map_layout import Hex, MapLayout, by_row_of, map_layout
from yak_tui.areas.nobles import HexCell, MapView
from yak_tui.kernel.world.hexgrid import axial_to_offset, cell_to_hex, hex_to_cell, offset_to_axial

Char = tuple[str, str, str]  # a drawn character, its foreground style and its background
# Cell sizes (width, height) from the most zoomed in to the most compact; `z` zooms in, `Z` out.
CELL_SIZES = ((12, 4), (8, 3), (6, 2), (4, 1))
TINT = "22%"  # how strongly a kingdom's colour tints its land
CURSOR = "reverse bold"  # the cursor cell, drawn over whatever is there
BORDER = "bold $foreground"  # where two kingdoms' lands meet
PROVINCE_EDGE = "$foreground 40%"  # between two provinces of one kingdom
PROVINCE_NAME = "italic $foreground 70%"
FREE_CHARS = (" ", "·", "│", "┊", "▁")  # what a name may be written over


class HexMap(Widget, can_focus=True):
    """A movable cursor over the hexes of a `MapView`; posts `HexMap.Moved` when it moves."""

    DEFAULT_CSS = """
    HexMap {
        width: auto;
        height: auto;
    }
    """

    ALLOW_SELECT = False  # a click moves the cursor; the map is no text to copy

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
        self._extent: tuple[int, int, int, int] | None = None  # the view's offset bounds, once per view
        # Drawing caches: `_version` rises with every new view; the drawing without the cursor
        # (with the overlays it was drawn with), the lines with it, and a strip per line on screen.
        self._version = 0
        self._by_row = by_row_of(None)
        self._by_row_version = 0
        self._drawing: _Drawing | None = None
        self._rows: tuple[_Drawing, Hex, dict[int, Content]] | None = None  # the cursor's lines
        self._strips: dict[int, tuple[Content, tuple[int, tuple[int, int]], Style, Strip]] = {}
        self._columns: tuple[int, int] = (0, 0)  # the columns turned into strips (`render_lines`)

    # -- data ---------------------------------------------------------------------------------------
    def set_view(self, view: MapView, keep_cursor: bool = True, layout: MapLayout | None = None) -> None:
        """Show `view`; `layout` is `map_layout(view)` when the caller built it off the event loop."""
        first = self.view is None
        self.view = view
        if layout is None or layout.view is not view:
            layout = map_layout(view)
        self._extent = layout.extent
        self._version += 1
        self._by_row, self._by_row_version = layout.by_row, self._version
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
        return self.hex_region(self.cursor)

    def hex_region(self, key: Hex) -> Region:
        """Where a hex's cell is drawn at the present zoom, in the map's own characters."""
        w, h = self._cell_size()
        c0, _, r0, _ = self._bounds()
        origin_x, origin_y = hex_to_cell(offset_to_axial(c0, r0), w, h)
        x, y = hex_to_cell(key, w, h)
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
        """Offset (col, row) bounds of every hex with something on it, the provinces' land and the
        cursor, with a row of margin above and below (none sideways, where every column counts)."""
        col, row = axial_to_offset(self.cursor)
        c0, c1, r0, r1 = self._extent or (col, col, row, row)
        r0 = min(r0, row) - 1
        r0 -= r0 & 1  # start on an even row so odd rows keep the half-cell shift hexgrid gives them
        return min(c0, col), max(c1, col), r0, max(r1, row) + 1

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
        """The whole map as one Content (Textual draws it line by line through `render_line`)."""
        return Content("\n").join(self.render_rows())

    def render_line(self, y: int) -> Strip:
        """One line of the map: only the lines on screen are drawn and turned into strips (their
        rows of hexes drawn on first demand), and a strip is kept until its line, the width or the
        widget's style changes (a cursor move redraws the cursor's lines only; at 100x the map is
        hundreds of lines wider and taller than the screen)."""
        width = self.size.width
        line = self._line(y)
        if line is None:
            return Strip.blank(width, self.visual_style.rich_style)
        style = self.visual_style
        columns = self._columns
        kept = self._strips.get(y)
        if kept is not None and kept[0] is line and kept[1] == (width, columns) and kept[2] == style:
            return kept[3]
        x0, x1 = max(0, min(columns[0], width)), max(0, min(columns[1], width))
        if x0 == 0 and x1 == width:
            strips = Visual.to_strips(self, line, width, 1, style)
            strip = strips[0] if strips else Strip.blank(width, style.rich_style)
        else:
            # Only the columns on screen (and a screen's width either side) are turned into a strip;
            # the rest is blank, never shown: `render_lines` draws again when the view scrolls past.
            strips = Visual.to_strips(self, line[x0:x1], x1 - x0, 1, style)
            strip = Strip.join(
                [
                    Strip.blank(x0, style.rich_style),
                    strips[0] if strips else Strip.blank(x1 - x0, style.rich_style),
                    Strip.blank(width - x1, style.rich_style),
                ]
            )
        self._strips[y] = (line, (width, columns), style, strip)
        return strip

    def render_lines(self, crop: Region) -> list[Strip]:
        """A map wider than the screen turns only the columns around the visible ones into strips
        (`render_line`); when the visible columns leave those, every line is drawn again."""
        x0, x1 = self._columns
        if crop.x < x0 or crop.right > x1:
            margin = max(crop.width, 40)
            self._columns = (max(0, crop.x - margin), crop.right + margin)
            self._styles_cache.clear()
        return super().render_lines(crop)

    def notify_style_update(self) -> None:
        self._strips.clear()  # the theme's colours changed: every kept strip is stale
        super().notify_style_update()

    def render_rows(self) -> list[Content]:
        """Every line of the map with the cursor cell drawn reversed over the kept drawing."""
        if self.view is None:
            return []
        drawing = self._drawing_now()
        whole = (0, self._map_width(drawing))
        lines = (self._line(y, whole) for y in range(len(drawing.rows)))
        return [line for line in lines if line is not None]

    def _map_width(self, drawing: _Drawing) -> int:
        c0, c1, _, _ = drawing.bounds
        w = self._cell_size()[0]
        return (c1 - c0 + 1) * w + w // 2

    def _line(self, y: int, need: tuple[int, int] | None = None) -> Content | None:
        """Line `y` of the map with the cursor over it (None past the map's edge), right in the
        characters `need` (by default the columns `render_lines` turns into strips); draws its row
        of hexes there first if that row is not drawn there yet."""
        if self.view is None:
            return None
        drawing = self._drawing_now()
        if not 0 <= y < len(drawing.rows):
            return None
        width = self._map_width(drawing)
        if need is None:
            need = (0, width) if self._columns == (0, 0) else self._columns
        need = (max(0, min(need[0], width)), max(0, min(need[1], width)))
        h = self._cell_size()[1]
        row = drawing.bounds[2] + y // h
        span = drawing.drawn.get(row)
        if span is None or not (span[0] <= need[0] and need[1] <= span[1]):
            self._draw_row(drawing, row, need)
        region = self.cursor_region()
        if not region.y <= y < region.bottom:
            return drawing.rows[y]
        if self._rows is None or self._rows[0] is not drawing or self._rows[1] != self.cursor:
            self._rows = (drawing, self.cursor, {})
        cursor_lines = self._rows[2]
        if y not in cursor_lines:
            cells = list(drawing.grid[y])
            for x in range(max(region.x, 0), min(region.right, len(cells))):
                cells[x] = (cells[x][0], "", CURSOR)
            cursor_lines[y] = _row_content(cells)
        return cursor_lines[y]

    def _drawing_now(self) -> _Drawing:
        """The map without the cursor. Laid out afresh when the view, the zoom or the bounds change,
        its rows of hexes drawn only when a line of theirs is first shown (`_line`); when only the
        overlays or notes change (a path, a range), just the rows of hexes whose overlay or note
        changed wait to be drawn again: names and borders never leave their row."""
        h = self._cell_size()[1]
        bounds = self._bounds()
        key = (self._version, self.zoom, bounds)
        old = self._drawing
        if old is not None and old.key == key and old.overlays is self.overlays and old.notes is self.notes:
            return old
        _, _, r0, r1 = bounds
        if old is not None and old.key == key:
            changed = _changed(old.overlays, self.overlays) | _changed(old.notes, self.notes)
            stale = {r for _, r in changed}
            drawn = {r: span for r, span in old.drawn.items() if r not in stale}
            self._drawing = _Drawing(key, bounds, list(old.grid), list(old.rows), self.overlays, self.notes, drawn)
        else:
            height = (r1 - r0 + 1) * h
            self._hits = {}
            if self._by_row_version != self._version:  # once per view, not per zoom or bounds
                self._by_row, self._by_row_version = by_row_of(self.view), self._version
            self._drawing = _Drawing(
                key, bounds, [[] for _ in range(height)], [Content("")] * height, self.overlays, self.notes, {}
            )
        return self._drawing

    def _draw_row(self, drawing: _Drawing, row: int, need: tuple[int, int]) -> None:
        """Draw a row of hexes of `drawing` into its own lines, right in the characters `need`:
        the hexes there and as far either side as a name can run (names run over the empty hexes
        beside them), so those characters are what drawing the whole row gives; the rest blank."""
        w, h = self._cell_size()
        bounds = drawing.bounds
        _, _, r0, _ = bounds
        width = self._map_width(drawing)
        margin = self._by_row.reach + 2 * w + 8
        start, end = max(0, need[0] - margin), min(width, need[1] + margin)
        grid, lines = drawing.grid, drawing.rows
        first = (row - r0) * h
        for dy in range(h):
            grid[first + dy] = [(" ", "", "")] * width
        self._draw_band(grid, row, bounds, w, h, (start, end))
        for dy in range(h):
            lines[first + dy] = _row_content(grid[first + dy])
        drawing.drawn[row] = (0 if start == 0 else need[0], width if end == width else need[1])
        if self._rows is not None and self._rows[0] is drawing:
            for dy in range(h):
                self._rows[2].pop(first + dy, None)  # the cursor's lines of this row are stale

    def _draw_band(
        self, grid: list[list[Char]], row: int, bounds: tuple[int, int, int, int], w: int, h: int, span: tuple[int, int]
    ) -> None:
        """One row of hexes into its lines of `grid` (fresh blank lists): cells, borders, names;
        only the hexes drawn within the characters `span`."""
        c0, c1, r0, _ = bounds
        origin = hex_to_cell(offset_to_axial(c0, r0), w, h)
        height, width = len(grid), len(grid[0])
        corners: dict[Hex, tuple[int, int]] = {}
        for col in range(max(c0, c0 + span[0] // w - 1), min(c1, c0 + span[1] // w + 1) + 1):
            ax = offset_to_axial(col, row)
            key = (ax.q, ax.r)
            x, y = hex_to_cell(key, w, h)
            x -= origin[0]
            y -= origin[1]
            corners[key] = (x, y)
            for dy, line in enumerate(self._cell_lines(key, w, h)):
                for dx, drawn in enumerate(line):
                    if 0 <= y + dy < height and 0 <= x + dx < width:
                        grid[y + dy][x + dx] = drawn
                        self._hits[(x + dx, y + dy)] = key
        self._draw_borders(grid, corners, origin, w, h)
        self._draw_names(grid, corners, row, w, h)

    def _background(self, key: Hex) -> str:
        """The overlay's background, else the tint of the kingdom that rules the land (or holds the place)."""
        overlay = self.overlays.get(key)
        if overlay:
            return overlay
        claim = self.view.territory.get(key) if self.view is not None else None
        colour = claim.colour if claim is not None else ""
        cell = self.cell_at(key)
        if not colour and cell is not None:
            colour = cell.colour
        return f"on {colour} {TINT}" if colour else ""

    def _cell_lines(self, key: Hex, w: int, h: int) -> list[list[Char]]:
        """One cell: glyph and marks (forces in their owner's colour), then (where there is room)
        the counts of forces and people, and the overlay's note. Names are written afterwards
        (`_draw_names`), over the empty hexes beside them; the cursor over it all (`render_rows`)."""
        cell = self.cell_at(key)
        base = self._background(key)
        glyph_style = f"bold {cell.colour}" if cell is not None and cell.colour else "bold"
        if cell is None or not cell.glyph:
            glyph, glyph_style = "·", "$foreground 35%"
        else:
            glyph = cell.glyph
        owners = _force_owners(cell)
        marks: list[tuple[str, str]] = [("♞", f"bold {colour}") for colour, _ in owners[:2]]
        if cell is not None and cell.characters:
            marks.append(("♟", "bold $secondary"))
        note = self.notes.get(key)

        def styled(parts: list[tuple[str, str]], size: int) -> list[Char]:
            chars: list[Char] = []
            for text, style in parts:
                for char in text:
                    chars.append((char, style, base))
            chars = chars[:size]
            while len(chars) < size:
                chars.append((" ", "", base))
            return chars

        if h == 1:
            return [styled([(" ", ""), (glyph, glyph_style), *marks], w)]
        note_part = [(" ", ""), (note[0], note[1])] if note else []
        if h == 2:
            return [styled([(" ", ""), (glyph, glyph_style), *marks], w), styled(note_part, w)]
        counts: list[tuple[str, str]] = [(" ", "")]
        for colour, count in owners:
            counts.append((f"♞{count}", f"bold {colour}"))
        if cell is not None and cell.characters:
            counts.append((f"♟{cell.characters}", "bold $secondary"))
        lines = [styled([(" ", ""), (glyph, glyph_style)], w), styled(counts, w), styled(note_part, w)]
        while len(lines) < h:
            lines.append(styled([], w))
        return lines

    def _draw_borders(
        self, grid: list[list[Char]], corners: dict[Hex, tuple[int, int]], origin: tuple[int, int], w: int, h: int
    ) -> None:
        """Where the land of one kingdom meets another's: a bar down the west edge of a cell and a
        line under it; between two provinces of the same kingdom, a faint dotted bar."""
        if self.view is None:
            return
        land = self.view.territory
        for key, (x, y) in corners.items():
            claim = land.get(key)
            if claim is None:
                continue
            west = land.get((key[0] - 1, key[1]))
            if west is not None and west.controller != claim.controller:
                mark, style = "│", BORDER
            elif west is not None and west.province != claim.province:
                mark, style = "┊", PROVINCE_EDGE
            else:
                mark = ""
            for dy in range(h if mark else 0):
                if 0 <= y + dy < len(grid) and 0 <= x < len(grid[0]) and grid[y + dy][x][0] == " ":
                    grid[y + dy][x] = (mark, style, grid[y + dy][x][2])
            bottom = y + h - 1
            if not 0 <= bottom < len(grid):
                continue
            for dx in range(w):
                if not 0 <= x + dx < len(grid[0]):
                    continue
                under = cell_to_hex(x + dx + origin[0], bottom + 1 + origin[1], w, h)
                below = land.get((under.q, under.r))
                if below is not None and below.controller != claim.controller:
                    char, fg, bg = grid[bottom][x + dx]
                    if char == " " and h > 1:
                        grid[bottom][x + dx] = ("▁", BORDER, bg)
                    else:
                        grid[bottom][x + dx] = (char, f"{fg or BORDER} underline", bg)

    def _draw_names(
        self, grid: list[list[Char]], corners: dict[Hex, tuple[int, int]], row: int, w: int, h: int
    ) -> None:
        """Each place's full name beside its glyph, running on over empty hexes (cut with … only
        where something else stands); then each province's name on a free hex of its land."""
        if self.view is None:
            return
        # A name runs over blank characters only (so never over a note or a mark), and never into
        # another hex with something on it.
        cells, labels, busy = self._by_row.cells.get(row, ()), self._by_row.labels.get(row, ()), self._by_row.busy
        taken: set[tuple[int, int]] = set()

        def write(key: Hex, x: int, y: int, text: str, style: str, shortest: int) -> None:
            run: list[int] = []
            while len(run) < len(text) and 0 <= y < len(grid) and 0 <= x + len(run) < len(grid[0]):
                at = (x + len(run), y)
                owner = self._hits.get(at)
                own = owner == key
                if at in taken or grid[y][at[0]][0] not in FREE_CHARS or not (own or owner not in busy):
                    break
                run.append(at[0])
            if len(run) < len(text):
                if len(run) < shortest:
                    return
                text = text[: len(run) - 1] + "…"
            for char, cx in zip(text, run, strict=True):
                grid[y][cx] = (char, style, grid[y][cx][2])
                taken.add((cx, y))

        for key, cell in cells:
            places = [p for p in cell.places if p.table == "pcs"]
            if not places or key not in corners:
                continue
            x, y = corners[key]
            style = "bold $foreground"
            if h >= 3:
                write(key, x + 3, y, places[0].name, style, 3)
            elif h == 2:
                write(key, x + 1, y + 1, places[0].name, style, 3)
            elif h == 1:
                marks = len(_force_owners(cell)[:2]) + (1 if cell.characters else 0)
                write(key, x + 3 + marks, y, places[0].name, style, 4)
        if h < 2:
            return
        for label in labels:
            if label.hex in corners and label.hex not in busy:
                x, y = corners[label.hex]
                write(label.hex, x + 1, y + (1 if h >= 3 else 0) + (1 if h >= 4 else 0), label.name, PROVINCE_NAME, 5)


class _Drawing(NamedTuple):
    """The map drawn without the cursor: its key, the characters, each line as Content, the
    overlays and notes it was drawn with, and for each row of hexes drawn the characters it is
    right in (a row not there is not drawn yet: its lines are blank)."""

    key: tuple[object, ...]
    bounds: tuple[int, int, int, int]
    grid: list[list[Char]]
    rows: list[Content]
    overlays: dict[Hex, str]
    notes: dict[Hex, tuple[str, str]]
    drawn: dict[int, tuple[int, int]]


def _changed(old: Mapping[Hex, object], new: Mapping[Hex, object]) -> set[Hex]:
    """The hexes whose entry differs between two overlay (or note) maps."""
    return {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}


def _row_content(cells: list[Char]) -> Content:
    """One line of drawn characters as Content, runs of one style joined. The runs are found by
    (foreground, background) first, in C (a line of a 100x map is hundreds of characters, most of
    them blank), then runs whose two styles read the same are joined."""
    parts: list[tuple[str, str]] = []
    for (fg, bg), run in groupby(cells, key=_FG_BG):
        text = "".join([char for char, _, _ in run])
        style = f"{fg} {bg}".strip()
        if parts and parts[-1][1] == style:
            parts[-1] = (parts[-1][0] + text, style)
        else:
            parts.append((text, style))
    return Content.assemble(*parts)


_FG_BG = itemgetter(1, 2)


def _force_owners(cell: HexCell | None) -> list[tuple[str, int]]:
    """(colour, count) of the forces on a hex, one per owner, in the order they are listed."""
    if cell is None:
        return []
    counts: dict[str, int] = {}
    for place in cell.places:
        if place.table == "units":
            key = place.colour or "$accent"
            counts[key] = counts.get(key, 0) + 1
    return list(counts.items())
