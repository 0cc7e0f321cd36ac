"""The hex map as a picture, drawn as one reader may see it: provinces tinted by the kingdom that
rules them, a heavy line where two kingdoms' lands meet, places with their names, and the forces
and people the reader may know of. The data is the map screen's own read model
(`areas.nobles.map_data`, already passed through the audience filter for that reader): the picture
can show nothing the screen would not.

SVG is written here as plain text, deterministically (sorted, coordinates rounded), so a golden file
can pin it; PNG goes through a real converter (`cairosvg` if installed, else `rsvg-convert`).
"""

from __future__ import annotations

import math
import shutil
import subprocess
from html import escape
from typing import Any

from yak_tui.areas.nobles import map_data
from yak_tui.kernel.errors import UsageError
from yak_tui.kernel.play.identity import Identity, identity_name
from yak_tui.kernel.world.hexgrid import DIRECTIONS
from yak_tui.kernel.world.model import World

SIZE = 24.0  # a hex's radius, in pixels
MARGIN = 40.0
LEGEND_ROW = 20.0
NO_RULER = "#c8c8c8"
# Direction k's edge lies between corners k-1 and k of a pointy-top hex (corner i at 60i - 30 degrees,
# screen y downwards): DIRECTIONS run east, north-east, north-west, west, south-west, south-east.
_DIRECTION_ANGLE = (0.0, -60.0, -120.0, 180.0, 120.0, 60.0)


def _centre(q: int, r: int) -> tuple[float, float]:
    return SIZE * math.sqrt(3) * (q + r / 2), SIZE * 1.5 * r


def _corner(cx: float, cy: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    return cx + SIZE * math.cos(a), cy + SIZE * math.sin(a)


def _n(value: float) -> str:
    text = f"{value:.1f}"
    return "0.0" if text == "-0.0" else text


def _points(points: list[tuple[float, float]]) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def map_svg(world: World, viewer: Identity) -> str:
    view = map_data(world, viewer)
    hexes = set(view.territory) | set(view.cells)
    if not hexes:
        hexes = {(0, 0)}
    centres = {h: _centre(*h) for h in hexes}
    xs = [c[0] for c in centres.values()]
    ys = [c[1] for c in centres.values()]
    left, top = min(xs) - SIZE - MARGIN, min(ys) - SIZE - MARGIN
    legend_height = LEGEND_ROW * (len(view.legend) + 2)
    width = max(xs) - min(xs) + 2 * (SIZE + MARGIN)
    height = max(ys) - min(ys) + 2 * (SIZE + MARGIN) + legend_height
    who = "the public" if viewer.is_observer else identity_name(world, viewer)
    title = f"{world.name}, {world.date.label()}: the map as {who} may see it"
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="{_n(left)} {_n(top)} {_n(width)} {_n(height)}" font-family="DejaVu Sans, sans-serif">',
        f"<title>{escape(title)}</title>",
        f'<rect x="{_n(left)}" y="{_n(top)}" width="{_n(width)}" height="{_n(height)}" fill="#f4efe1"/>',
        f'<text x="{_n(left + 10)}" y="{_n(top + 20)}" font-size="14" font-weight="bold">{escape(title)}</text>',
        '<g id="land">',
    ]
    for h in sorted(view.territory):
        claim = view.territory[h]
        cx, cy = centres[h]
        corners = [_corner(cx, cy, 60 * i - 30) for i in range(6)]
        out.append(
            f'<polygon points="{_points(corners)}" fill="{escape(claim.colour or NO_RULER)}" fill-opacity="0.35" '
            f'stroke="#8a8270" stroke-width="0.5" data-province="{escape(claim.province)}"/>'
        )
    out.append("</g>")
    out.append('<g id="borders" stroke="#2b2b2b" stroke-width="2.5" stroke-linecap="round">')
    for h in sorted(view.territory):
        ruler = view.territory[h].controller
        cx, cy = centres[h]
        for d, angle in zip(DIRECTIONS, _DIRECTION_ANGLE, strict=True):
            other = view.territory.get((h[0] + d.q, h[1] + d.r))
            if other is not None and other.controller == ruler:
                continue
            if other is not None and (h[0] + d.q, h[1] + d.r) < h:
                continue  # a shared edge drawn once
            (x1, y1), (x2, y2) = _corner(cx, cy, angle - 30), _corner(cx, cy, angle + 30)
            out.append(f'<line x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}"/>')
    out.append("</g>")
    out.append('<g id="provinces" font-size="9" font-style="italic" fill="#555" text-anchor="middle">')
    for label in view.labels:
        if label.hex in centres:
            x, y = centres[label.hex]
            out.append(f'<text x="{_n(x)}" y="{_n(y + 3)}">{escape(label.name)}</text>')
    out.append("</g>")
    out.append('<g id="places" text-anchor="middle">')
    for h in sorted(view.cells):
        cell = view.cells[h]
        x, y = centres[h]
        places = [p for p in cell.places if p.table == "pcs"]
        forces = [p for p in cell.places if p.table == "units"]
        people = [p for p in cell.places if p.table == "characters"]
        if cell.glyph:
            out.append(
                f'<text x="{_n(x)}" y="{_n(y - 2)}" font-size="14" fill="{escape(cell.colour or "#333")}">'
                f"{escape(cell.glyph)}</text>"
            )
        if places:
            out.append(f'<text x="{_n(x)}" y="{_n(y + 10)}" font-size="8">{escape(places[0].name)}</text>')
        for n, unit in enumerate(forces):
            ux = x - SIZE / 2 + n * 7
            out.append(
                f'<text x="{_n(ux)}" y="{_n(y - 10)}" font-size="11" fill="{escape(unit.colour or "#333")}" '
                f'data-unit="{escape(unit.id)}"><title>{escape(unit.name)}: {escape(unit.detail)}</title>♞</text>'
            )
        for n, person in enumerate(people):
            px = x + SIZE / 2 - n * 7
            out.append(
                f'<text x="{_n(px)}" y="{_n(y - 10)}" font-size="10" fill="{escape(person.colour or "#333")}" '
                f'data-character="{escape(person.id)}"><title>{escape(person.name)}</title>♟</text>'
            )
    out.append("</g>")
    base = max(ys) + SIZE + MARGIN / 2
    out.append(f'<g id="legend" font-size="11" transform="translate({_n(min(xs) - SIZE)},{_n(base)})">')
    for n, (_, name, colour) in enumerate(view.legend):
        y = n * LEGEND_ROW
        out.append(f'<rect x="0" y="{_n(y)}" width="12" height="12" fill="{escape(colour)}" fill-opacity="0.6"/>')
        out.append(f'<text x="18" y="{_n(y + 10)}">{escape(name)}</text>')
    y = len(view.legend) * LEGEND_ROW
    out.append(f'<text x="0" y="{_n(y + 10)}">♞ a force   ♟ a person   heavy line: a border between kingdoms</text>')
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def converter() -> str | None:
    """The PNG converter at hand: `cairosvg`, else `rsvg-convert`, else None."""
    try:
        import cairosvg  # noqa: F401
    except ImportError:
        return "rsvg-convert" if shutil.which("rsvg-convert") else None
    return "cairosvg"


def svg_to_png(svg: str) -> bytes:
    which = converter()
    if which == "cairosvg":
        import cairosvg

        data: Any = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
        return bytes(data)
    if which == "rsvg-convert":
        done = subprocess.run(
            ["rsvg-convert", "--format", "png"], input=svg.encode("utf-8"), capture_output=True, check=False
        )
        if done.returncode != 0:
            raise UsageError(f"rsvg-convert failed: {done.stderr.decode(errors='replace').strip()}")
        return done.stdout
    raise UsageError(
        "no PNG converter: install cairosvg (pip install cairosvg) or rsvg-convert (Debian: librsvg2-bin), "
        "or use --format svg"
    )


__all__ = ["converter", "map_svg", "svg_to_png"]
