"""Grow the demo world Elbreth N times, every table together, for the scale benchmarks.

Copy k of the demo gets every document of every table (kingdoms, provinces, places, characters,
units, businesses, specialists, academies, effects) with its id suffixed `-k<k>`, every reference
to a demo id rewritten to the copy's id, its names numbered, and its hexes shifted so the copies
lie side by side on one map. Each copy also brings `chronicle_per_copy` chronicle entries (half of
them with a roll, spread over the audiences of that copy), so a 1000x world has 3,000 kingdoms and
100,000 entries: the sizes issue 13 measured.

The demo grown is first played for a season (issue 30): every kingdom files an order that is left
waiting, a player files a private mission, Varos besieges Brinehaven. So each copy brings its waiting
orders (>= 1 per kingdom) and its siege, and a grown world costs what a played one costs. With
`reports` (the default) the grown world is dated Autumn and closed once by yak itself (`advance`, the
orders carried): the Winter save has every recipient's report of the season at full size, a GM
report that names every waiting order, and a backup, as a played campaign has.

Run:  python bench/worldgen.py 100 /tmp/world-100x.json   (prints the size)
"""

from __future__ import annotations

import argparse
import copy
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import orjson

from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.season.session import advance_season
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
    "orders",
    "sieges",
)
# The season played on the demo before it is grown: (filer, command, params), each filed as an order
# and left waiting; one siege begun. One order per kingdom at least, and one private mission.
PLAYED_ORDERS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("king:elbreth", "hire", {"kingdom": "elbreth", "type": "spy", "count": 1}),
    ("king:varos", "roll", {"reason": "watch the pass", "kingdom": "varos"}),
    ("king:kesh", "roll", {"reason": "mend the walls", "kingdom": "kesh"}),
    ("player:corvin", "spy-mission", {"mission": "infiltrate-treasury", "target": "kesh"}),
    ("player:lysa", "business-expand", {"business": "amber-vintners", "sizes": 1}),
)
PLAYED_SIEGE = ("king:varos", {"fort": "brinehaven", "units": "varos-siege-host,varos-blockade-squadron"})
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


def played_demo() -> dict[str, dict[str, Any]]:
    """The demo after one season of filing (PLAYED_ORDERS waiting, PLAYED_SIEGE begun), as yak saves it."""
    from yak_tui.kernel.play.commands import run_command
    from yak_tui.kernel.play.dice import SeededDice
    from yak_tui.kernel.play.identity import Identity
    from yak_tui.kernel.season.clock import frozen_clock
    from yak_tui.kernel.world.demo import create_world

    with tempfile.TemporaryDirectory() as tmp, frozen_clock("2026-12-01T12:00Z"):
        save = create_world(Path(tmp) / "played.json")
        who, params = PLAYED_SIEGE
        run_command(save, Identity.parse(who), "siege-begin", params, SeededDice(1))
        for seed, (who, name, order) in enumerate(PLAYED_ORDERS, start=2):
            filed = {"command": name, "params": json.dumps(order)}
            run_command(save, Identity.parse(who), "order-file", filed, SeededDice(seed))
        data = save.read()
    for siege in data["sieges"].values():  # a fort stocked for years: no defender must choose to close a season
        siege["provisions"] = siege["starting_provisions"] = 1000
    data["meta"]["world"]["undo"] = []  # the copies' seasons were not played command by command
    return data


def grow(
    factor: int, chronicle_per_copy: int = 100, season: str = "Winter", played: bool = True
) -> dict[str, dict[str, Any]]:
    """The demo grown `factor` times (1 = the demo plus its share of chronicle), dated `season` 312;
    `played`: the demo after a season of filing (`played_demo`), else as it is built."""
    demo = played_demo() if played else build_world()
    ids = {doc_id for table in GROWN_TABLES for doc_id in demo[table]}
    data = copy.deepcopy(demo)
    for table in GROWN_TABLES:
        data[table] = {}
    seq = int(data["meta"]["world"].get("chronicle_seq", 0) or 0)  # the played season's own entries first
    side = max(1, int(factor**0.5 + 0.999))
    for copy_no in range(factor):
        offset = ((copy_no % side) * MAP_SPAN[0], (copy_no // side) * MAP_SPAN[1])
        for table in GROWN_TABLES:
            for doc_id, doc in demo.get(table, {}).items():
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


def write_world(factor: int, path: Path, season: str = "Winter", reports: bool = True) -> int:
    """Write the grown world as a save (the same bytes the store writes); returns its size in bytes.

    `reports`: grown a season earlier and closed by yak's own advance (orders carried), so the save
    holds the season's reports, as a played one does (and its vouch and key beside it)."""
    if not reports:
        raw = orjson.dumps(grow(factor, season=season))
        path.write_bytes(raw)
        return len(raw)
    from yak_tui.kernel.play.dice import SeededDice
    from yak_tui.kernel.play.identity import Identity
    from yak_tui.kernel.season.clock import frozen_clock
    from yak_tui.store.storage import WorldFile

    before = SEASONS[(SEASONS.index(season) - 1) % 4]
    path.write_bytes(orjson.dumps(grow(factor, season=before)))
    with frozen_clock("2026-12-01T12:00Z"):
        advance_season(WorldFile(path), Identity.parse("gm"), SeededDice(7), carry=True)
    return path.stat().st_size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("factor", type=int)
    parser.add_argument("path", type=Path)
    parser.add_argument("--season", default="Winter", choices=SEASONS)
    parser.add_argument("--no-reports", action="store_true", help="grown at --season, not closed once by yak")
    args = parser.parse_args(argv)
    size = write_world(args.factor, args.path, args.season, reports=not args.no_reports)
    print(f"{args.factor}x world: {size / 1e6:.1f} MB at {args.path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
