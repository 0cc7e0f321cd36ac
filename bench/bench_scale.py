"""Benchmark: the CLI on worlds grown 1x/10x/100x/1000x (bench/worldgen.py), as ratios of the floor.

The floor is what any safe save of the same file costs one process: read the bytes, `orjson.loads`,
`orjson.dumps`, write a temp file, fsync, replace. Each row runs the real `yak` entry point in a
fresh interpreter (`python -m yak_tui ...`), so imports and startup are included as a user feels
them; the floor runs in a fresh interpreter too, so both pay the same start.

Rows (issue 13 targets in brackets):
- `advance` across a year start, from the same Winter save each time   [<= 3x floor]
- `show --json`                                                          [<= 1.3x floor from 100x]
- `log` (the whole chronicle the GM may read)                            [<= 1.3x floor from 100x]

The grown save is first written once by yak (as any command leaves a save: at this yak's schema,
with its vouch and the campaign key that signs it beside it); `--unvouched` times it as worldgen
writes it, read and checked in full.

Run:  python bench/bench_scale.py [--sizes 1,10,100] [--repeat 5] [--unvouched]
Prints medians and ratios. Never asserts a time.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from worldgen import write_world  # bench/ is not a package

FLOOR = """
import os, sys, orjson
path = sys.argv[1]
with open(path, 'rb') as handle:
    data = orjson.loads(handle.read())
raw = orjson.dumps(data)
tmp = path + '.floor'
with open(tmp, 'wb') as handle:
    handle.write(raw); handle.flush(); os.fsync(handle.fileno())
os.replace(tmp, path)
"""


def timed(argv: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return time.perf_counter() - start


def copy_save(source: Path, target: Path) -> None:
    """The save, its vouch and the campaign key that signs the vouch (a vouch names the bytes' digest,
    so it holds for a copy; the key keeps its mode 0600, or it would be no key)."""
    shutil.copyfile(source, target)
    for suffix in (".vouch", ".key"):
        side, copied = source.with_name(source.name + suffix), target.with_name(target.name + suffix)
        if side.exists():
            shutil.copyfile(side, copied)
            shutil.copymode(side, copied)
        else:
            copied.unlink(missing_ok=True)


def median_run(repeat: int, argv: list[str], reset: tuple[Path, Path] | None = None) -> float:
    """Median wall time of `argv`; `reset` = (source, target) copies a fresh save before each run."""
    samples = []
    for _ in range(repeat):
        if reset:
            copy_save(*reset)
        samples.append(timed(argv))
    return statistics.median(samples)


VOUCH = """
import sys
from yak_tui.kernel.world import validation  # noqa: F401  (the checks a vouch stands for)
from yak_tui.store.storage import WorldFile
with WorldFile(sys.argv[1]).transaction():
    pass
"""


def measure(factor: int, repeat: int, tmp: Path, vouched: bool = True) -> str:
    """One line of the table: the floor and each row at one size."""
    python = sys.executable
    winter, work = tmp / "winter.json", tmp / "work.json"
    size = write_world(factor, winter)
    if vouched:  # as any yak command leaves a save: at this yak's schema, with its vouch beside it
        subprocess.run([python, "-c", VOUCH, str(winter)], check=True)
        size = winter.stat().st_size
    reset = (winter, work)
    floor = median_run(repeat, [python, "-c", FLOOR, str(work)], reset)
    advance = median_run(repeat, [python, "-m", "yak_tui", "--save", str(work), "advance", "--carry"], reset)
    copy_save(winter, work)
    show = median_run(repeat, [python, "-m", "yak_tui", "--save", str(work), "show", "--json"])
    log = median_run(repeat, [python, "-m", "yak_tui", "--save", str(work), "log"])
    cells = " ".join(f"{value:6.2f}s {value / floor:5.1f}x" for value in (advance, show, log))
    return f"{factor:>5}x {size / 1e6:6.1f} {floor:8.3f} {cells}"


def compile_bytecode() -> None:
    """Write the bytecode of yak_tui and its dependencies, as an installed package has it.

    With PYTHONDONTWRITEBYTECODE set (as in some shells and CI) and no `__pycache__`, every run
    would compile every module it imports from source, and the rows would measure the compiler."""
    import compileall
    import importlib.util

    for name in ("yak_tui", "tinydb", "filelock"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            for location in spec.submodule_search_locations:
                compileall.compile_dir(location, quiet=1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,10,100")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument(
        "--no-bytecode",
        action="store_true",
        help="do not write bytecode first (a cold first start, or PYTHONDONTWRITEBYTECODE)",
    )
    parser.add_argument(
        "--unvouched",
        action="store_true",
        help="the grown save as worldgen writes it (an older schema, no vouch: every read "
        "migrates and validates it in full), not as a yak command leaves it",
    )
    args = parser.parse_args(argv)
    if not args.no_bytecode:
        compile_bytecode()
    print(f"{'size':>6} {'MB':>6} {'floor s':>8} {'advance':>14} {'show':>14} {'log':>14}")
    for factor in (int(x) for x in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            print(measure(factor, args.repeat, Path(tmp), vouched=not args.unvouched), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
