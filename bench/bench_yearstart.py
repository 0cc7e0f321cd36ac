"""Benchmark: the year start (`advance` from Winter into Spring) on a world of 10,000 businesses,
against one plain orjson load + dump + fsync of the same save.

The world is the demo plus generated businesses spread over the demo provinces and owners, with
the features the year start touches: looted incomes, training counters, monopolies, open credit
and loans falling due, academies and gunpowder engineers. The advance runs through the real
transaction path (`run_command`: lock, read, migrate, apply, write once), so the ratio includes
the save's own read and write. Each repeat starts again from the same Winter save.

Run:  python bench/bench_yearstart.py [--businesses 10000] [--repeat 11]
Prints the medians and the ratio (target <= 3x). Never asserts a time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import orjson

from yak_tui.kernel.play.commands import load_command_modules, run_command
from yak_tui.kernel.play.dice import SeededDice
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.demo import build_world
from yak_tui.kernel.world.model import World
from yak_tui.store.files import atomic_write_bytes
from yak_tui.store.storage import WorldFile

SECTORS = ("industrial", "commercial", "service")
COST = {"industrial": 3, "commercial": 3, "service": 4}


def build_world_with_businesses(count: int) -> dict[str, dict[str, Any]]:
    """The demo at Winter 312, plus `count` generated businesses and the debts and marks they carry."""
    world = World(build_world())
    world.meta["date"] = GameDate.of(312, "Winter").to_dict()
    provinces = sorted(world.table("provinces"))
    characters = sorted(world.table("characters"))
    kingdoms = sorted(world.table("kingdoms"))
    for i in range(count):
        sector = SECTORS[i % 3]
        size = 1 + i % 8
        doc: dict[str, Any] = {
            "name": f"Generated business {i}",
            "owner": characters[i % len(characters)],
            "province": provinces[i % len(provinces)],
            "pc": None,
            "sector": sector,
            "size": size,
            "invested": COST[sector] * size,
            "monopoly": None,
            "stock": {},
            "warehouse": {},
        }
        if i % 50 == 0:
            doc["income_looted_by"] = kingdoms[i % len(kingdoms)]
            doc["income_looted_for"] = 313
        if i % 7 == 0 and sector == "service":
            doc["trained"] = {"year": 312, "count": 1}
        world.data["businesses"][f"gen-biz-{i:05d}"] = doc
    # Open credit and loans, some falling due at this year start.
    for i in range(200):
        lender = f"gen-biz-{(i * 3 + 1) % count:05d}"
        debtor = characters[(i + 3) % len(characters)]
        kind = "credit" if i % 2 else "loan"
        world.data["ledger"][f"bench-{i:04d}"] = {
            "kind": kind,
            "lender": lender,
            "lender_name": f"Generated business {lender}",
            "lender_owner": world.data["businesses"][lender]["owner"],
            "debtor": debtor,
            "amount": 4,
            "outstanding": 4,
            "owed_to_lender": 0,
            "lender_paid": 0,
            "bad_debt": 0,
            "drawn": {"year": 312, "season": "Spring"},
            "due": {"year": 313 if i % 4 < 2 else 314, "season": "Spring"},
            "status": "open",
            "parties": [f"character:{debtor}"],
            "history": [],
        }
    for kingdom_id in kingdoms:
        pool = world.data["specialists"].setdefault(kingdom_id, {"kingdom": kingdom_id})
        pool["engineers_assigned"] = {"siege": {}, "gunpowder": 2}
    world.originals.clear()
    return world.data


def plain_round_trip(source: Path, target: Path) -> float:
    start = time.perf_counter()
    data = orjson.loads(source.read_bytes())
    atomic_write_bytes(target, orjson.dumps(data))
    return time.perf_counter() - start


def year_start(winter: Path, work: Path) -> tuple[float, dict[str, Any]]:
    shutil.copyfile(winter, work)
    save = WorldFile(work)
    start = time.perf_counter()
    result = run_command(save, GM, "advance", {}, SeededDice(1))
    return time.perf_counter() - start, result.data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--businesses", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=11)
    args = parser.parse_args(argv)
    load_command_modules()
    with tempfile.TemporaryDirectory(prefix="yak-bench-") as tmp:
        directory = Path(tmp)
        winter = directory / "winter.json"
        atomic_write_bytes(winter, orjson.dumps(build_world_with_businesses(args.businesses)))
        size = os.path.getsize(winter)
        # Interleaved, so that a busy machine slows both sides alike; the ratio is the median of
        # the per-pair ratios.
        baseline: list[float] = []
        times: list[float] = []
        result: dict[str, Any] = {}
        for _ in range(args.repeat):
            baseline.append(plain_round_trip(winter, directory / "copy.json"))
            took, result = year_start(winter, directory / "w.json")
            times.append(took)
        steps = {s["step"]: s["sums"] for s in result["steps"] if s["step"] != "season-end"}
    base, took = statistics.median(baseline), statistics.median(times)
    ratio = statistics.median(t / b for t, b in zip(times, baseline, strict=True))
    print(f"world: {args.businesses} businesses, {size / 1e6:.2f} MB")
    print(f"orjson load + dump + fsync: median {base * 1000:.1f} ms, best {min(baseline) * 1000:.1f} ms")
    print(f"year start (advance, Winter into Spring): median {took * 1000:.1f} ms, best {min(times) * 1000:.1f} ms")
    for name in ("business-income", "credit-loans", "production"):
        print(f"  {name}: {steps.get(name)}")
    print(
        f"ratio: {ratio:.2f}x (median of {args.repeat} interleaved pairs; best runs {min(times) / min(baseline):.2f}x;"
        f" target <= 3x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
