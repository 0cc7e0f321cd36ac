"""What drawing a map view needs once per view, built with the read model in the screen's worker (so a
view at 1000x, 130,000 hexes, costs the event loop nothing): its bounds and its hexes and names by row;
and the small pieces the drawing shares (a hex's forces, a line of characters as Content)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import NamedTuple

from textual.content import Content

from yak_tui.areas.nobles import HexCell, MapView, ProvinceLabel

Hex = tuple[int, int]
Char = tuple[str, str, str]  # a drawn character, its foreground style and its background


class ByRow(NamedTuple):
    """A view's hexes with something on them and its province names, by row (once per view)."""

    cells: dict[int, list[tuple[Hex, HexCell]]]
    labels: dict[int, list[ProvinceLabel]]
    busy: set[Hex]
    reach: int  # the longest name written on the map: how far a name runs from its hex


def by_row(view: MapView | None) -> ByRow:
    cells: dict[int, list[tuple[Hex, HexCell]]] = {}
    labels: dict[int, list[ProvinceLabel]] = {}
    if view is None:
        return ByRow(cells, labels, set(), 0)
    for key, cell in sorted(view.cells.items(), key=lambda item: (item[0][1], item[0][0])):
        cells.setdefault(key[1], []).append((key, cell))
    for label in view.labels:
        labels.setdefault(label.hex[1], []).append(label)
    names = [place.name for cell in view.cells.values() for place in cell.places if place.table == "pcs"]
    reach = max(map(len, [*names, *(label.name for label in view.labels)]), default=0)
    return ByRow(cells, labels, {key for key, cell in view.cells.items() if cell.places}, reach)


def changed_hexes(old: Mapping[Hex, object], new: Mapping[Hex, object]) -> set[Hex]:
    """The hexes whose entry differs between two overlay (or note) maps."""
    return {key for key in old.keys() | new.keys() if old.get(key) != new.get(key)}


def row_content(cells: list[Char]) -> Content:
    """One line of drawn characters as Content, runs of one style joined."""
    parts: list[tuple[str, str]] = []
    for char, fg, bg in cells:
        style = f"{fg} {bg}".strip()
        if parts and parts[-1][1] == style:
            parts[-1] = (parts[-1][0] + char, style)
        else:
            parts.append((char, style))
    return Content.assemble(*parts)


class MapLayout(NamedTuple):
    """What drawing a view needs once per view (its bounds, its hexes by row): built with the read
    model in the screen's worker, so a view at 1000x (130,000 hexes) costs the event loop nothing."""

    view: MapView
    extent: tuple[int, int, int, int] | None
    by_row: ByRow


def map_layout(view: MapView) -> MapLayout:
    return MapLayout(view, map_extent(view), by_row(view))


def map_extent(view: MapView) -> tuple[int, int, int, int] | None:
    """Offset (col, row) bounds of the hexes with something on them, of the provinces' land and
    of the world's extent (the whole map the GM gave)."""
    hexes = (*view.cells, *view.territory)
    if not hexes and view.extent is None:
        return None
    # axial_to_offset (odd-r) inlined: one pass over 130,000 hexes at 1000x.
    cols = [q + (r - (r & 1)) // 2 for q, r in hexes]
    rows = [r for _, r in hexes]
    if view.extent is not None:
        cols += [0, view.extent[0] - 1]
        rows += [0, view.extent[1] - 1]
    return min(cols), max(cols), min(rows), max(rows)


def force_owners(cell: HexCell | None) -> list[tuple[str, int]]:
    """(colour, count) of the forces on a hex, one per owner, in the order they are listed."""
    if cell is None:
        return []
    counts: dict[str, int] = {}
    for place in cell.places:
        if place.table == "units":
            key = place.colour or "$accent"
            counts[key] = counts.get(key, 0) + 1
    return list(counts.items())
