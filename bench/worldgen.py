"""Grow the demo world Elbreth N times, every table together, for the scale benchmarks.

Copy k of the demo gets every document of every table (kingdoms, provinces, places, characters,
units, businesses, specialists, academies, effects) with its id suffixed `-k<k>`, every reference
to a demo id rewritten to the copy's id, its names numbered, and its hexes shifted so the copies
lie side by side on one map. Each copy also brings `chronicle_per_copy` chronicle entries (half of
them with a roll, spread over the audiences of that copy), so a 1000x world has 3,000 kingdoms and
100,000 entries: the sizes issue 13 measured.

Run:  python bench/worldgen.py 100 /tmp/world-100x.json   (prints the size)
"""

from __future__ import annotations

import argparse
import copy
import sys
from pathlib import Path
from typing import Any

import orjson

from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.demo import build_world

SEASONS = ("Spring", "Summer", "Autumn", "Winter")
GROWN_TABLES = (
    "kingdoms",
    "provinces",
    "pcs",
    "characters",
    "units",
    "businesses",
    "specialists",
    "academies",
    "effects",
)
MAP_SPAN = (12, 10)  # columns and rows one copy of the demo map takes, with a margin
"""The demo's hexes fit in 12 x 10; copies are laid out in a square grid of such blocks."""


def _suffix(doc_id: str, copy_no: int) -> str:
    return doc_id if copy_no == 0 else f"{doc_id}-k{copy_no}"


def _rewrite(value: Any, ids: set[str], copy_no: int) -> Any:
    """Every reference to a demo id, bare or as `table:id`, now names the copy's document."""
    if isinstance(value, str):
        if value in ids:
            return _suffix(value, copy_no)
        table, sep, doc_id = value.partition(":")
        if sep and doc_id in ids:
            return f"{table}:{_suffix(doc_id, copy_no)}"
        return value
    if isinstance(value, list):
        return [_rewrite(item, ids, copy_no) for item in value]
    if isinstance(value, dict):
        return {key: _rewrite(item, ids, copy_no) for key, item in value.items()}
    return value


def _shift_hexes(doc: dict[str, Any], offset: tuple[int, int]) -> None:
    hex_ = doc.get("hex")
    if isinstance(hex_, list) and len(hex_) == 2:
        doc["hex"] = [hex_[0] + offset[0], hex_[1] + offset[1]]


def _chronicle_entry(seq: int, kingdom: str, character: str, year: int) -> dict[str, Any]:
    audiences = ("public", f"kingdom:{kingdom}", "adjudicators", f"character:{character}")
    entry: dict[str, Any] = {
        "id": f"e{seq:07d}",
        "seq": seq,
        "date": {"year": year, "season": SEASONS[seq % 4]},
        "kind": ("note", "roll", "ducats", "espionage")[seq % 4],
        "text": f"Generated event {seq}: caravans, rumours and the price of salt in the markets.",
        "audience": audiences[seq % 4],
        "actor": "gm",
        "command": "note",
        "rolls": [],
    }
    if seq % 2 == 0:
        entry["rolls"] = [
            {
                "purpose": "RtD for the harvest",
                "naturals": [seq % 6 + 1],
                "modifiers": [{"value": 1, "reason": "good weather"}],
                "total": seq % 6 + 2,
                "band": "success",
                "source": "seeded",
                "roller": "gm",
                "audience": "public",
                "blind": False,
                "seed": seq,
                "outcome": "success",
            }
        ]
    if seq % 5 == 0:
        entry["amounts"] = {f"kingdoms:{kingdom}": 1.5, f"characters:{character}": -1.5}
        entry["refs"] = {"kingdom": kingdom, "character": character}
    return entry


def grow(factor: int, chronicle_per_copy: int = 100, season: str = "Winter") -> dict[str, dict[str, Any]]:
    """The demo grown `factor` times (1 = the demo plus its share of chronicle), dated `season` 312."""
    demo = build_world()
    ids = {doc_id for table in GROWN_TABLES for doc_id in demo[table]}
    data = copy.deepcopy(demo)
    for table in GROWN_TABLES:
        data[table] = {}
    side = max(1, int(factor**0.5 + 0.999))
    seq = 0
    for copy_no in range(factor):
        offset = ((copy_no % side) * MAP_SPAN[0], (copy_no // side) * MAP_SPAN[1])
        for table in GROWN_TABLES:
            for doc_id, doc in demo[table].items():
                grown = _rewrite(copy.deepcopy(doc), ids, copy_no)
                if copy_no and isinstance(grown.get("name"), str):
                    grown["name"] = f"{grown['name']} {copy_no}"
                _shift_hexes(grown, offset)
                data[table][_suffix(doc_id, copy_no)] = grown
        kingdoms = [_suffix(k, copy_no) for k in sorted(demo["kingdoms"])]
        characters = [_suffix(c, copy_no) for c in sorted(demo["characters"])]
        for i in range(chronicle_per_copy):
            seq += 1
            data["chronicle"][f"e{seq:07d}"] = _chronicle_entry(
                seq, kingdoms[i % len(kingdoms)], characters[i % len(characters)], 300 + i * 12 // chronicle_per_copy
            )
    meta = data["meta"]["world"]
    meta["chronicle_seq"] = seq
    meta["date"] = GameDate.of(312, season).to_dict()
    return data


def write_world(factor: int, path: Path, season: str = "Winter") -> int:
    """Write the grown world as a save (the same bytes the store writes); returns its size in bytes."""
    raw = orjson.dumps(grow(factor, season=season))
    path.write_bytes(raw)
    return len(raw)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("factor", type=int)
    parser.add_argument("path", type=Path)
    parser.add_argument("--season", default="Winter", choices=SEASONS)
    args = parser.parse_args(argv)
    size = write_world(args.factor, args.path, args.season)
    print(f"{args.factor}x world: {size / 1e6:.1f} MB at {args.path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
