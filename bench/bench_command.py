"""Benchmark: one `do note` on a world of 10,000 documents against a plain orjson round trip.

Prints the median time of `run_command(..., "note", ...)` (the path `yak do note` takes), the
median of one plain orjson load + dump + fsync of the same file, and their ratio (target <= 3x).
It also counts how many times the save is written during one command (must be exactly 1).

Run:  python bench/bench_command.py [--docs 10000] [--repeat 41]
Never asserts a time; exits 1 only if a command writes the save other than once.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from contextlib import contextmanager, redirect_stdout
from io import StringIO
from pathlib import Path
from typing import Any

import orjson

from yak_tui.kernel.play.chronicle import append_entry
from yak_tui.kernel.play.commands import load_command_modules, run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.world.demo import build_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile


def document_count(data: dict[str, dict[str, Any]]) -> int:
    return sum(len(docs) for docs in data.values())


def build_big_world(target: int) -> dict[str, dict[str, Any]]:
    """The demo world, plus generated businesses and chronicle history up to `target` documents."""
    world = World(build_world())
    provinces = sorted(world.table("provinces"))
    characters = sorted(world.table("characters"))
    sectors = ("industrial", "commercial", "service")
    businesses = max(0, min(2000, target - document_count(world.data)))
    for i in range(businesses):
        world.data["businesses"][f"gen-biz-{i:05d}"] = {
            "name": f"Generated business {i}",
            "owner": characters[i % len(characters)],
            "province": provinces[i % len(provinces)],
            "sector": sectors[i % 3],
            "size": 1 + i % 4,
            "invested": 3 * (1 + i % 4),
            "year_counters": {},
        }
    i = 0
    while document_count(world.data) < target:
        append_entry(
            world,
            f"Generated event {i}: caravans, rumours and the price of salt in the market.",
            kind="history",
            actor="gm",
            audience=("public", "kingdom:elbreth", "adjudicators")[i % 3],
            amounts={"kingdoms:elbreth": 1} if i % 5 == 0 else None,
        )
        i += 1
    world.originals.clear()
    return world.data


@contextmanager
def counting_replaces(path: Path) -> Any:
    """Wrap os.replace and count the replaces whose target is the save."""
    real = os.replace
    hits: list[str] = []

    def replace(src: Any, dst: Any, *args: Any, **kwargs: Any) -> None:
        if Path(dst) == path:
            hits.append(str(dst))
        real(src, dst, *args, **kwargs)

    os.replace = replace  # type: ignore[assignment]
    try:
        yield hits
    finally:
        os.replace = real


def plain_round_trip(source: Path, target: Path) -> None:
    """The baseline: read and parse the file, serialise it again, write it and fsync it."""
    data = orjson.loads(source.read_bytes())
    payload = orjson.dumps(data)
    with open(target, "wb") as handle:
        handle.write(payload)
        handle.flush()
        os.fsync(handle.fileno())


def median_time(fn: Callable[[int], None], repeat: int) -> float:
    times = []
    for i in range(repeat):
        start = time.perf_counter()
        fn(i)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=41)
    parser.add_argument("--profile", action="store_true", help="cProfile one batch of commands")
    args = parser.parse_args(argv)

    load_command_modules()
    with tempfile.TemporaryDirectory(prefix="yak-bench-") as directory:
        path = Path(directory) / "world.json"
        data = build_big_world(args.docs)
        save = WorldFile(path)
        save.create(data)
        size = path.stat().st_size
        print(f"world: {document_count(data)} documents, {size / 1e6:.2f} MB at {path}")

        # Warm up both paths once (imports, page cache).
        run_command(save, GM, "note", {"text": "warm up"})
        plain_round_trip(path, Path(directory) / "plain.json")

        with counting_replaces(path) as hits:
            run_command(save, GM, "note", {"text": "counted"})
        writes = len(hits)
        print(f"writes of the save during one `do note`: {writes} (must be 1)")

        def do_note(i: int) -> None:
            run_command(save, GM, "note", {"text": f"benchmark note {i}", "audience": "kingdom:elbreth"})

        def plain(i: int) -> None:
            plain_round_trip(path, Path(directory) / "plain.json")

        # Interleave the two so drift in the machine affects both alike.
        note_times: list[float] = []
        plain_times: list[float] = []
        for i in range(args.repeat):
            start = time.perf_counter()
            do_note(i)
            note_times.append(time.perf_counter() - start)
            start = time.perf_counter()
            plain(i)
            plain_times.append(time.perf_counter() - start)
        note = statistics.median(note_times)
        base = statistics.median(plain_times)

        from yak_tui.cli import main as yak

        def cli_note(i: int) -> None:
            with redirect_stdout(StringIO()):
                code = yak(["--save", str(path), "do", "note", f"text=cli note {i}", "--json"])
            if code != 0:
                raise SystemExit(f"yak do note failed with exit code {code}")

        cli = median_time(cli_note, max(5, args.repeat // 4))

        print(f"plain orjson load + dump + fsync: {base * 1e3:8.2f} ms (median of {args.repeat})")
        print(f"run_command note (yak do note):   {note * 1e3:8.2f} ms (median of {args.repeat})")
        print(f"yak do note through the CLI main: {cli * 1e3:8.2f} ms (in process, incl. identity check)")
        ratio = note / base
        print(f"ratio do-note / plain: {ratio:.2f}x (target <= 3x) {'OK' if ratio <= 3 else 'ABOVE TARGET'}")
        print(f"ratio CLI do-note / plain: {cli / base:.2f}x")

        if args.profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            profiler.enable()
            for i in range(10):
                do_note(10_000 + i)
            profiler.disable()
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(25)
    return 0 if writes == 1 else 1


if __name__ == "__main__":
    sys.exit(main())
