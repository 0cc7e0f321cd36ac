"""Headless data for the hex map screen: the map itself (places, claims, territories, colours), the
GM's move mode and the details panel (issue 7, item 4). Whom the viewer may command, the Incite/Usurp
odds and where Relocate reaches are `command_read`'s.

What a viewer may see goes through `yak_tui.kernel.play.audience`. No Textual here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from yak_tui.kernel.errors import YakError
from yak_tui.kernel.play.audience import visible_table
from yak_tui.kernel.play.commands import validate_only
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.views import problem_of
from yak_tui.kernel.world.hexgrid import claim_hexes, hex_line
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.words import field_refs, field_words, is_empty, value_words
from yak_tui.store.files import collector_paused

HexKey = tuple[int, int]


# -- the map itself ---------------------------------------------------------------------------------

PC_GLYPHS = {
    "castle": "♜",
    "fort": "▲",
    "city": "◉",
    "town": "●",
    "village": "∙",
    "market": "¤",
    "port": "≈",
    "temple": "†",
    "monastery": "‡",
    "mine": "◆",
}


class Place(NamedTuple):
    table: str
    id: str
    name: str
    detail: str
    kingdom: str
    colour: str


class HexCell(NamedTuple):
    q: int
    r: int
    glyph: str
    controller: str
    colour: str
    province: str
    places: tuple[Place, ...] = ()

    @property
    def units(self) -> int:
        return sum(1 for p in self.places if p.table == "units")

    @property
    def characters(self) -> int:
        return sum(1 for p in self.places if p.table == "characters")


# Map colours for kingdoms the GM gave none: mid tones that read on the dark and the light theme
# alike (as a 22% tint behind the hexes and as a foreground). A kingdom keeps its colour: the
# kingdoms without one take the palette's colours in the order of their ids, skipping any colour
# another kingdom already chose.
KINGDOM_PALETTE = (
    "#d4a017",
    "#3a7bd5",
    "#b03a2e",
    "#2e8b57",
    "#8e44ad",
    "#d35400",
    "#16a085",
    "#c2185b",
    "#7f8c8d",
    "#6b8e23",
)
# How far a province's land reaches from its places, in hexes (each hex goes to the nearest place).
TERRITORY_RADIUS = 2


def kingdom_colours(kingdoms: Mapping[str, Mapping[str, Any]]) -> dict[str, str]:
    """Each kingdom's map colour: its own `color`, else the next unused palette colour (stable:
    by id, so a redraw or another viewer gives the same colours)."""
    chosen = {k: str(d.get("color") or "") for k, d in kingdoms.items()}
    taken = {c.lower() for c in chosen.values() if c}
    spare = [c for c in KINGDOM_PALETTE if c.lower() not in taken] or list(KINGDOM_PALETTE)
    index = 0
    for kid in sorted(chosen):
        if not chosen[kid]:
            chosen[kid] = spare[index % len(spare)]
            index += 1
    return chosen


class Claim(NamedTuple):
    """A hex of a province's land: the province, and the kingdom that rules it (its tint)."""

    province: str
    province_name: str
    controller: str  # "" when no kingdom rules the province
    colour: str


class ProvinceLabel(NamedTuple):
    """Where a province's name is written: a hex of its land near the middle, free of places."""

    province: str
    name: str
    hex: tuple[int, int]


class MapView(NamedTuple):
    cells: dict[tuple[int, int], HexCell]
    legend: tuple[tuple[str, str, str], ...]  # (kingdom id, name, colour)
    home: tuple[int, int] | None  # where the cursor starts: the viewer's capital or whereabouts
    where: dict[str, tuple[int, int]]  # "table:id" -> the hex it stands on
    territory: Mapping[tuple[int, int], Claim] = {}  # the provinces' land, tinted by ruler
    labels: tuple[ProvinceLabel, ...] = ()
    extent: tuple[int, int] | None = None  # (columns, rows) in offset hexes, when the world gives one


def _as_hex(value: Any) -> tuple[int, int] | None:
    if isinstance(value, (list, tuple)) and len(value) == 2:  # 40,000 a map at 1000x
        q, r = value
        if isinstance(q, int) and isinstance(r, int):
            return int(q), int(r)
    return None


def map_view(world: World, viewer: Identity) -> MapView:
    """The hexes that hold something the viewer may see: places, forces and people."""
    kingdoms = visible_table(world, viewer, "kingdoms")
    colour = kingdom_colours(kingdoms)
    # Each hex's [glyph, controller, province, places] while it is being filled.
    cells: dict[tuple[int, int], list[Any]] = {}
    index: dict[str, tuple[int, int]] = {}
    pcs = visible_table(world, viewer, "pcs")

    def places_at(h: tuple[int, int]) -> list[Place]:
        found = cells.get(h)
        if found is None:
            found = cells[h] = ["", "", "", []]
        places: list[Place] = found[3]
        return places

    province_names: dict[Any, str] = {}  # 9,000 provinces for 15,000 places at 1000x
    placed: list[tuple[tuple[int, int], Any]] = []  # each placed PC's hex and province, by id
    # A province stands on the hex of its first placed PC (by id): one pass, not provinces x PCs.
    first_place: dict[Any, tuple[int, int]] = {}

    # Ids sorted as strings (not (id, document) pairs: 40,000 places at 1000x), once for every pass.
    pc_ids = sorted(pcs)
    for pid in pc_ids:
        doc = pcs[pid]
        h = _as_hex(doc.get("hex"))
        if h is None:
            continue
        places = places_at(h)
        c = cells[h]
        controller = str(doc.get("controller") or "")
        province = doc.get("province")
        province_name = province_names.get(province)
        if province_name is None:
            province_name = province_names[province] = world.display_name("provinces", province)
        c[0] = PC_GLYPHS.get(str(doc.get("kind")), "○")
        c[1] = controller
        c[2] = province_name
        fort = f" · fort level {doc['fort_level']}" if doc.get("fort_level") else ""
        places.append(
            Place(
                "pcs",
                pid,
                str(doc.get("name", pid)),
                f"{doc.get('kind', '')}{fort}",
                controller,
                colour.get(controller, ""),
            )
        )
        index[f"pcs:{pid}"] = h
        placed.append((h, province))
        first_place.setdefault(province, h)
    units = visible_table(world, viewer, "units")
    for uid in sorted(units):
        doc = units[uid]
        h = _as_hex(doc.get("hex"))
        if h is None:
            continue
        owner = str(doc.get("owner", ""))
        places_at(h).append(
            Place(
                "units",
                uid,
                str(doc.get("name", uid)),
                f"{doc.get('size', '')} {doc.get('kind', '')}".strip(),
                owner,
                colour.get(owner, ""),
            )
        )
        index[f"units:{uid}"] = h
    characters = visible_table(world, viewer, "characters")
    for cid in sorted(characters):
        doc = characters[cid]
        location = doc.get("location")
        if not location or location not in pcs:
            continue
        h = _as_hex(pcs[location].get("hex"))
        if h is None:
            continue
        kingdom = str(doc.get("kingdom") or "")
        places_at(h).append(
            Place(
                "characters",
                cid,
                str(doc.get("name", cid)),
                str(doc.get("title", "")),
                kingdom,
                colour.get(kingdom, ""),
            )
        )
        index[f"characters:{cid}"] = h
    for kid, doc in kingdoms.items():
        capital = doc.get("capital")
        if capital and f"pcs:{capital}" in index:
            index[f"kingdoms:{kid}"] = index[f"pcs:{capital}"]
    provinces = visible_table(world, viewer, "provinces")
    for pid in provinces:
        if pid in first_place:
            index[f"provinces:{pid}"] = first_place[pid]
    extent = _extent(world.meta.get("map"))
    territory, labels = _territory(placed, provinces, colour, set(cells), extent)
    built = {h: HexCell(h[0], h[1], c[0], c[1], colour.get(c[1], ""), c[2], tuple(c[3])) for h, c in cells.items()}
    home = None
    if viewer.is_king:
        home = index.get(f"kingdoms:{viewer.subject}")
    elif viewer.is_player:
        home = index.get(f"characters:{viewer.subject}")
    if home is None and built:
        home = min(built, key=lambda h: (h[1], h[0]))
    legend = tuple((k, str(d.get("name", k)), colour.get(k, "")) for k, d in sorted(kingdoms.items()))
    return MapView(built, legend, home, index, territory, labels, extent)


def _extent(size: Any) -> tuple[int, int] | None:
    """The world's `map` extent as (columns, rows), if it has a valid one."""
    if isinstance(size, Mapping) and all(isinstance(size.get(k), int) and size[k] > 0 for k in ("columns", "rows")):
        return int(size["columns"]), int(size["rows"])
    return None


def _territory(
    placed: list[tuple[tuple[int, int], Any]],
    provinces: Mapping[str, Mapping[str, Any]],
    colour: Mapping[str, str],
    occupied: set[tuple[int, int]],
    extent: tuple[int, int] | None,
) -> tuple[dict[tuple[int, int], Claim], tuple[ProvinceLabel, ...]]:
    """The provinces' land (every hex within TERRITORY_RADIUS of a place goes to the nearest
    place's province, none off the world's extent) and a hex for each province's name: one pass
    over the places and one over the land, never provinces × hexes."""
    claims: dict[str, Claim] = {}
    for pid, doc in provinces.items():
        ruler = str(doc.get("kingdom") or "")
        claims[pid] = Claim(pid, str(doc.get("name", pid)), ruler, colour.get(ruler, ""))
    seeds = [(h, claims[str(province)]) for h, province in placed if str(province) in claims]
    land = claim_hexes(seeds, TERRITORY_RADIUS)
    # One pass over the land (110,000 hexes at 1000x): each hex's drawn (column, row) (axial_to_offset
    # inlined), off the world's extent or kept, and summed into its province's middle.
    columns, rows = extent if extent is not None else (0, 0)
    off: set[tuple[int, int]] = set()
    free: list[tuple[int, int, tuple[int, int], Claim]] = []  # (column, row, hex, claim) of the hexes without places
    sums: dict[str, list[int]] = {}
    for h, claim in land.items():
        q, row = h
        col = q + (row - (row & 1)) // 2
        if extent is not None and not (0 <= col < columns and 0 <= row < rows):
            off.add(h)
            continue
        total = sums.get(claim.province)
        if total is None:
            sums[claim.province] = [col, row, 1]
        else:
            total[0] += col
            total[1] += row
            total[2] += 1
        if h not in occupied:
            free.append((col, row, h, claim))
    # The name goes on the free hex of its land nearest the land's middle (in drawn rows and columns).
    middles = {province: (total[0] / total[2], total[1] / total[2]) for province, total in sums.items()}
    best: dict[str, tuple[tuple[float, int, int], tuple[int, int]]] = {}
    for col, row, h, claim in free:
        province = claim.province
        mid_col, mid_row = middles[province]
        key = ((col - mid_col) ** 2 + (row - mid_row) ** 2, row, col)
        found = best.get(province)
        if found is None or key < found[0]:
            best[province] = (key, h)
    labels = tuple(ProvinceLabel(pid, claims[pid].province_name, h) for pid, (_, h) in sorted(best.items()))
    return ({h: claim for h, claim in land.items() if h not in off} if off else land), labels


# At 1000x the GM's view is hundreds of thousands of objects, none of them garbage: the collector is
# paused while they are made (it walked them again and again: ~30% of the map's build).
@collector_paused(freeze=False)
def map_data(world: World, viewer: Identity) -> MapView:
    """`map_view`, plus the characters riding with a legion (an Agent's `location` is then
    the unit's id), who would otherwise be on no hex at all."""
    view = map_view(world, viewer)
    units = visible_table(world, viewer, "units")
    colours = kingdom_colours(visible_table(world, viewer, "kingdoms"))
    extra: dict[HexKey, list[Place]] = {}
    where = dict(view.where)
    characters = visible_table(world, viewer, "characters")
    for cid in sorted(characters):
        doc = characters[cid]
        location = doc.get("location")
        unit = units.get(str(location)) if location else None
        if unit is None or f"characters:{cid}" in where:
            continue
        h = _as_hex(unit.get("hex"))
        if h is None:
            continue
        kingdom = str(doc.get("kingdom") or "")
        colour = colours.get(kingdom, "")
        extra.setdefault(h, []).append(
            Place(
                "characters",
                cid,
                str(doc.get("name", cid)),
                f"{doc.get('title', '')} · with {unit.get('name', location)}",
                kingdom,
                colour,
            )
        )
        where[f"characters:{cid}"] = h
    if not extra:
        return view
    cells = dict(view.cells)
    for h, places in extra.items():
        cell = cells.get(h) or HexCell(h[0], h[1], "", "", "", "")
        cells[h] = cell._replace(places=(*cell.places, *places))
    return view._replace(cells=cells, where=where)


# -- the GM's move mode ----------------------------------------------------------------------------

MOVERS = ("units", "characters")


class MovePreview(NamedTuple):
    """What `gm-move` would do with a unit or character sent to the cursor hex, checked on a
    trial of the world (nothing written): the path, its length, a march or a voyage, or the
    command's refusal."""

    table: str  # units | characters
    id: str
    name: str
    start: HexKey
    target: HexKey
    path: tuple[HexKey, ...]  # a straight line, both ends included
    hexes: int
    kind: str  # march | voyage (units), travel (a character to a place) or ride (with a unit)
    destination: str  # the place or unit it goes to, or "hex q,r"
    params: dict[str, str]  # the gm-move parameters Enter runs
    problem: str  # why the move would be refused; "" when it would run

    @property
    def ok(self) -> bool:
        return not self.problem


def movers_at(view: MapView, h: HexKey) -> tuple[Place, ...]:
    """The units, then the characters, standing on a hex of the map (what move mode can pick)."""
    cell = view.cells.get(h)
    if cell is None:
        return ()
    return tuple(p for table in MOVERS for p in cell.places if p.table == table)


def move_preview(world: World, viewer: Identity, view: MapView, mover: Place, target: HexKey) -> MovePreview:
    """`gm-move` for `mover` (a unit or character of the map) to the hex `target`, as a preview.

    A unit goes to the place on that hex (else to the bare hex); a character to the place, else
    rides with a unit there (his own kingdom's first). The places and units on the hex come from
    the map's own cells, so a preview reads no table whole."""
    start = view.where.get(f"{mover.table}:{mover.id}", target)
    path = tuple((h.q, h.r) for h in hex_line(start, target))
    cell = view.cells.get(target)
    places = [p for p in cell.places if p.table == "pcs"] if cell else []
    units = [p for p in cell.places if p.table == "units" and p.id != mover.id] if cell else []
    params: dict[str, str] = {"unit" if mover.table == "units" else "character": mover.id}
    destination = f"hex {target[0]},{target[1]}"
    kind = "march"
    if places:
        params["to"], destination = places[0].id, places[0].name
    elif mover.table == "units":
        params["to"] = f"{target[0]},{target[1]}"
    elif units:
        ride = sorted(units, key=lambda u: u.kingdom != mover.kingdom)[0]
        params["to"], destination, kind = ride.id, ride.name, "ride"
    steps = len(path) - 1

    def preview(kind: str, problem: str) -> MovePreview:
        return MovePreview(
            mover.table, mover.id, mover.name, start, target, path, steps, kind, destination, params, problem
        )

    if mover.table == "characters" and kind != "ride":
        kind = "travel"
    if target == start:
        return preview(kind, f"{mover.name} is already here: move the cursor to where he goes")
    if "to" not in params:
        return preview(kind, "a character goes to a place or with a unit, and this hex has neither")
    try:
        result = validate_only(world, viewer, "gm-move", params)
    except YakError as error:
        return preview(kind, problem_of(error).message())
    if mover.table == "units":
        kind = "voyage" if result.data.get("voyage") else "march"
    return preview(kind, "")


# -- whom the viewer may move ------------------------------------------------------------------------


# -- Incite and Usurp ----------------------------------------------------------------------------------


# -- Relocate ------------------------------------------------------------------------------------------


# -- the details panel ------------------------------------------------------------------------------


def describe(world: World, viewer: Identity, table_name: str, doc_id: str) -> tuple[tuple[str, str], ...]:
    """Field/value pairs of one document as the viewer may see it (the map's details panel)."""
    doc = visible_table(world, viewer, table_name).get(doc_id)
    if doc is None:
        return ()
    return tuple(
        (field_words(key), value_words(value, world, field_refs(table_name, key)))
        for key, value in doc.items()
        if key not in ("year_counters",) and not is_empty(value)
    )
