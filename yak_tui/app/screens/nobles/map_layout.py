"""What drawing a map view needs once per view: its bounds and its hexes and names by row.

Built with the read model in the screen's worker (`map_layout`), so a view at 1000x (130,000 hexes)
costs the event loop nothing; `HexMap` draws from it.
"""

from __future__ import annotations

from typing import NamedTuple

from yak_tui.areas.nobles import HexCell, MapView, ProvinceLabel

Hex = tuple[int, int]


class ByRow(NamedTuple):
    """A view's hexes with something on them and its province names, by row (once per view)."""

    cells: dict[int, list[tuple[Hex, HexCell]]]
    labels: dict[int, list[ProvinceLabel]]
    busy: set[Hex]
    reach: int  # the longest name written on the map: how far a name runs from its hex


def by_row_of(view: MapView | None) -> ByRow:
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


class MapLayout(NamedTuple):
    """What drawing a view needs once per view (its bounds, its hexes by row): built with the read
    model in the screen's worker, so a view at 1000x (130,000 hexes) costs the event loop nothing."""

    view: MapView
    extent: tuple[int, int, int, int] | None
    by_row: ByRow


def map_layout(view: MapView) -> MapLayout:
    return MapLayout(view, _extent(view), by_row_of(view))


def _extent(view: MapView) -> tuple[int, int, int, int] | None:
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
