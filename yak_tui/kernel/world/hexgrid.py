"""Hex map geometry: axial coordinates, distance, neighbours, and terminal layout.

The map stores every hex as axial `(q, r)` ints, which keeps distance and neighbour sums
simple. For drawing in a terminal the layout is **pointy-top hexes in "odd-r" offset rows**:
row = r, and every odd row is pushed right by half a cell. Rows of text then map to rows of
hexes, which is what a character grid draws best. Rules about moving on the map (Relocate's
range) belong to the nobles area, which measures with `hex_distance`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple, TypeVar

from yak_tui.kernel.errors import RuleInputError

__all__ = [
    "DIRECTIONS",
    "Hex",
    "axial_to_offset",
    "cell_to_hex",
    "claim_hexes",
    "hex_distance",
    "hex_line",
    "hex_ring",
    "hex_to_cell",
    "hexes_within",
    "neighbours",
    "offset_to_axial",
]


class Hex(NamedTuple):
    """Axial coordinates; a plain tuple, so it stores as a JSON list `[q, r]`."""

    q: int
    r: int

    @property
    def s(self) -> int:
        """The third cube coordinate (q + r + s == 0)."""
        return -self.q - self.r


HexLike = Hex | tuple[int, int]
T = TypeVar("T")

# East, then counter-clockwise: the same order every time, so drawings and tests are stable.
DIRECTIONS: tuple[Hex, ...] = (
    Hex(1, 0),
    Hex(1, -1),
    Hex(0, -1),
    Hex(-1, 0),
    Hex(-1, 1),
    Hex(0, 1),
)


def _hex(h: HexLike) -> Hex:
    return h if isinstance(h, Hex) else Hex(int(h[0]), int(h[1]))


def hex_distance(a: HexLike, b: HexLike) -> int:
    """Number of steps between two hexes (the Relocate range is measured with this)."""
    a, b = _hex(a), _hex(b)
    dq, dr = a.q - b.q, a.r - b.r
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def neighbours(h: HexLike) -> tuple[Hex, ...]:
    """The six adjacent hexes, in DIRECTIONS order."""
    h = _hex(h)
    return tuple(Hex(h.q + d.q, h.r + d.r) for d in DIRECTIONS)


def hex_ring(center: HexLike, radius: int) -> tuple[Hex, ...]:
    """Hexes exactly `radius` steps away, walked round from the south-west corner."""
    center = _hex(center)
    if radius < 0:
        raise RuleInputError(f"a radius is 0 or more, not {radius}")
    if radius == 0:
        return (center,)
    ring: list[Hex] = []
    h = Hex(center.q + DIRECTIONS[4].q * radius, center.r + DIRECTIONS[4].r * radius)
    for direction in DIRECTIONS:
        for _ in range(radius):
            ring.append(h)
            h = Hex(h.q + direction.q, h.r + direction.r)
    return tuple(ring)


def hexes_within(center: HexLike, radius: int) -> tuple[Hex, ...]:
    """Every hex at distance <= radius (3r² + 3r + 1 of them), sorted by (r, q)."""
    center = _hex(center)
    if radius < 0:
        raise RuleInputError(f"a radius is 0 or more, not {radius}")

    def walk() -> Iterator[Hex]:
        for dr in range(-radius, radius + 1):
            for dq in range(max(-radius, -dr - radius), min(radius, -dr + radius) + 1):
                yield Hex(center.q + dq, center.r + dr)

    return tuple(sorted(walk(), key=lambda h: (h.r, h.q)))


def hex_line(a: HexLike, b: HexLike) -> tuple[Hex, ...]:
    """The hexes a straight line from `a` to `b` crosses, both ends included (distance + 1 of them):
    the path a move is drawn along."""
    a, b = _hex(a), _hex(b)
    steps = hex_distance(a, b)
    if steps == 0:
        return (a,)
    out: list[Hex] = []
    for i in range(steps + 1):
        t = i / steps
        # Nudged off the exact midpoints so that a line along a hex edge always picks the same side.
        q = a.q + (b.q - a.q) * t + 1e-6
        r = a.r + (b.r - a.r) * t + 1e-6
        s = -q - r
        rq, rr, rs = round(q), round(r), round(s)
        dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
        if dq > dr and dq > ds:
            rq = -rr - rs
        elif dr > ds:
            rr = -rq - rs
        out.append(Hex(rq, rr))
    return tuple(out)


def claim_hexes(seeds: Iterable[tuple[HexLike, T]], radius: int) -> dict[tuple[int, int], T]:
    """Every hex within `radius` of a seed, claimed by its nearest seed (a tie goes to the seed
    given first): ring by ring outwards from all seeds at once (every seed's ring 1, then every
    seed's ring 2, ...), so the cost is the hexes claimed, not hexes × seeds. The map tints a
    province's land with it. Keyed by plain (q, r) tuples (a Hex equals and hashes as its tuple):
    110,000 hexes at 1000x, no Hex built per hex. (A breadth-first walk gives each hex the same
    seed; it tried each claimed hex's six neighbours, 2.3 times the hexes a ring of each seed tries.)"""
    if radius < 0:
        raise RuleInputError(f"a radius is 0 or more, not {radius}")
    claimed: dict[tuple[int, int], T] = {}
    centres: list[tuple[int, int, T]] = []
    for h, owner in seeds:
        key = (int(h[0]), int(h[1]))
        if key not in claimed:  # a second seed on a hex claims nothing the first does not first
            claimed[key] = owner
            centres.append((key[0], key[1], owner))
    for distance in range(1, radius + 1):
        ring = [(h.q, h.r) for h in hex_ring(Hex(0, 0), distance)]
        for q, r, owner in centres:
            for dq, dr in ring:
                n = (q + dq, r + dr)
                if n not in claimed:
                    claimed[n] = owner
    return claimed


def axial_to_offset(h: HexLike) -> tuple[int, int]:
    """Axial → odd-r offset `(col, row)`."""
    h = _hex(h)
    return h.q + (h.r - (h.r & 1)) // 2, h.r


def offset_to_axial(col: int, row: int) -> Hex:
    """Odd-r offset `(col, row)` → axial."""
    return Hex(col - (row - (row & 1)) // 2, row)


def hex_to_cell(h: HexLike, cell_width: int = 4, cell_height: int = 2) -> tuple[int, int]:
    """Top-left character `(x, y)` of a hex's cell; odd rows sit half a cell to the right."""
    if cell_width < 2 or cell_height < 1:
        raise RuleInputError("a cell is at least 2 characters wide and 1 high")
    col, row = axial_to_offset(h)
    return col * cell_width + (row & 1) * (cell_width // 2), row * cell_height


def cell_to_hex(x: int, y: int, cell_width: int = 4, cell_height: int = 2) -> Hex:
    """The hex whose cell holds character `(x, y)` (for mouse clicks on the map)."""
    if cell_width < 2 or cell_height < 1:
        raise RuleInputError("a cell is at least 2 characters wide and 1 high")
    row = y // cell_height
    col = (x - (row & 1) * (cell_width // 2)) // cell_width
    return offset_to_axial(col, row)
