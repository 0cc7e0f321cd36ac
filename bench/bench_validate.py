"""Cost of validating a whole save on load, against parsing it with orjson.

Every process that reads the save (a `yak` command, the app, each SSH session) validates every
document once (`yak_tui.kernel.world.validation.validate_world`). This builds a big world - the demo
world Elbreth grown to about 100,000 chronicle entries (many with rolls), 2,000 businesses and
a full undo stack, about 43 MB of JSON - and prints the median time of `orjson.loads` of the
file and of `validate_world` of the parsed data, and their ratio.

    python bench/bench_validate.py [--entries 100000] [--repeat 7]

Target (issue 11): validation at most 0.5x of orjson.loads. Prints one JSON line at the end.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from typing import Any

import orjson

from yak_tui.kernel.world.demo import build_world
from yak_tui.kernel.world.validation import validate_world

AUDIENCES = ("public", "kingdom:elbreth", "adjudicators", "character:corvin")


def big_world(entries: int) -> dict[str, dict[str, Any]]:
    data = build_world()
    characters = sorted(data["characters"])
    provinces = sorted(data["provinces"])
    sectors = ("industrial", "commercial", "service")
    for i in range(2000):
        data["businesses"][f"gen-biz-{i:05d}"] = {
            "name": f"Generated business {i}",
            "owner": characters[i % len(characters)],
            "province": provinces[i % len(provinces)],
            "sector": sectors[i % 3],
            "size": 1 + i % 4,
            "invested": 3 * (1 + i % 4),
            "year_counters": {},
            "stock": {"Salt": i % 3},
            "monopoly": None,
            "opened": {"year": 300 + i % 12, "season": "Spring"},
        }
    seasons = ("Spring", "Summer", "Autumn", "Winter")
    for seq in range(1, entries + 1):
        entry: dict[str, Any] = {
            "id": f"e{seq:06d}",
            "seq": seq,
            "date": {"year": 300 + seq // 9000, "season": seasons[seq % 4]},
            "kind": ("note", "roll", "ducats", "espionage")[seq % 4],
            "text": f"Generated event {seq}: caravans, rumours and the price of salt in the market of Saltcross.",
            "audience": AUDIENCES[seq % 4],
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
            entry["amounts"] = {"kingdoms:elbreth": 1.5, "characters:corvin": -1.5}
            entry["refs"] = {"kingdom": "elbreth", "character": "corvin"}
        if seq % 7 == 0:
            entry["secret"] = "the truth, for adjudicators only"
            entry["adjudicator"] = "gm"
        data["chronicle"][entry["id"]] = entry
    meta = data["meta"]["world"]
    meta["chronicle_seq"] = entries
    kingdoms = {k: {"treasury": 10, "manpower": 5} for k in data["kingdoms"]}
    meta["history"] = [
        {"date": {"year": 300 + i // 4, "season": seasons[i % 4]}, "kingdoms": kingdoms} for i in range(40)
    ]
    meta["undo"] = [
        {
            "command": "note",
            "identity": "gm",
            "date": {"year": 312, "season": "Spring"},
            "changes": {
                "kingdoms": {"elbreth": dict(data["kingdoms"]["elbreth"])},
                "chronicle": {f"e{entries + i:06d}": None},
            },
        }
        for i in range(50)
    ]
    return data


def median(fn: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entries", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args(argv)
    raw = orjson.dumps(big_world(args.entries))
    data = orjson.loads(raw)
    documents = sum(len(docs) for docs in data.values())
    print(f"world: {documents} documents, {len(raw) / 1e6:.1f} MB")
    validate_world(data)  # warm up (and prove the big world is valid)
    # As a process runs: the cyclic GC runs while orjson builds a million objects (validation
    # allocates next to nothing, so the GC barely runs for it).
    loads = median(lambda: orjson.loads(raw), args.repeat)
    check = median(lambda: validate_world(data), args.repeat)
    # The stricter figure: the GC off for both, orjson at its raw speed.
    gc.disable()
    try:
        raw_loads = median(lambda: orjson.loads(raw), args.repeat)
        raw_check = median(lambda: validate_world(data), args.repeat)
    finally:
        gc.enable()
    ratio, raw_ratio = check / loads, raw_check / raw_loads
    print(f"orjson.loads:    {loads * 1e3:8.1f} ms, GC off {raw_loads * 1e3:8.1f} ms (medians of {args.repeat})")
    print(f"validate_world:  {check * 1e3:8.1f} ms, GC off {raw_check * 1e3:8.1f} ms")
    for label, value in (("ratio validate / loads", ratio), ("ratio with the GC off", raw_ratio)):
        print(f"{label}: {value:.2f}x (target <= 0.5x) {'OK' if value <= 0.5 else 'ABOVE TARGET'}")
    print(
        json.dumps(
            {
                "documents": documents,
                "megabytes": round(len(raw) / 1e6, 1),
                "loads_ms": round(loads * 1e3, 1),
                "validate_ms": round(check * 1e3, 1),
                "ratio": round(ratio, 2),
                "ratio_gc_off": round(raw_ratio, 2),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
