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
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from worldgen import write_world  # bench/ is not a package

# The true floors (issue 30): the save parsed as yak's own read parses it, with the cyclic collector
# off and what it made frozen (`store.files.collector_paused`), so no row is measured against a floor
# that pays for a collector yak does not run. The read floor stops there; the write floor also dumps
# the data and replaces the file safely (temp, fsync, replace, fsync of the folder), as a save does.
FLOOR_READ = """
import gc, sys, orjson
path = sys.argv[1]
with open(path, 'rb') as handle:
    raw = handle.read()
gc.disable()
data = orjson.loads(raw)
gc.freeze(); gc.enable()
"""
FLOOR = (
    FLOOR_READ
    + """
import os
raw = orjson.dumps(data)
tmp = path + '.floor'
with open(tmp, 'wb') as handle:
    handle.write(raw); handle.flush(); os.fsync(handle.fileno())
os.replace(tmp, path)
fd = os.open(os.path.dirname(os.path.abspath(path)), os.O_RDONLY)
os.fsync(fd); os.close(fd)
"""
)
# The floor issue 13 measured (the collector on while the save is parsed), kept for comparison only.
FLOOR_PLAIN = FLOOR.replace("gc.disable()", "").replace("gc.freeze(); gc.enable()", "")


def timed(argv: list[str]) -> tuple[float, float]:
    """Wall seconds and CPU seconds (user + system) of one run; CPU is what load on the machine
    changes least."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    # `verify` exits 1 on a grown world: worldgen's chronicle rolls are in no dice record. It has read
    # and checked everything all the same; any other failure is a broken bench.
    if done.returncode and not (argv[-1] == "verify" and done.returncode == 1):
        raise subprocess.CalledProcessError(done.returncode, argv, stderr=done.stderr)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


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


def copy_backups(source: Path, target: Path) -> None:
    """The season backups beside the save, renamed for the copy: History (H) diffs the season closed."""
    for backup in (source.parent / "backups").glob(f"{source.stem}--*"):
        (target.parent / "backups").mkdir(exist_ok=True)
        shutil.copyfile(backup, target.parent / "backups" / (target.stem + backup.name.removeprefix(source.stem)))


def median_run(repeat: int, argv: list[str], reset: tuple[Path, Path] | None = None) -> tuple[float, float]:
    """Median wall and CPU time of `argv`; `reset` = (source, target) copies a fresh save before each run."""
    walls, cpus = [], []
    for _ in range(repeat):
        if reset:
            copy_save(*reset)
        wall, cpu = timed(argv)
        walls.append(wall)
        cpus.append(cpu)
    return statistics.median(walls), statistics.median(cpus)


VOUCH = """
import sys
from yak_tui.kernel.world import validation  # noqa: F401  (the checks a vouch stands for)
from yak_tui.store.storage import WorldFile
with WorldFile(sys.argv[1]).transaction():
    pass
"""


# (row, argv after `--save PATH`, the floor it is held to, its target as a multiple of that floor)
ROWS: tuple[tuple[str, tuple[str, ...], str, float], ...] = (
    ("advance", ("advance", "--carry"), "write", 3.0),
    ("show", ("show", "--json"), "read", 1.5),
    ("log", ("log",), "read", 1.5),
    ("report", ("report",), "read", 1.5),
    ("orders", ("orders",), "read", 1.5),
    ("due", ("due",), "read", 1.5),
    ("verify", ("verify",), "read", 2.5),
    ("diff", ("diff", "Autumn 312", "Winter 312"), "read", 2.5),
)
HEADER = f"{'size':>6} {'MB':>6} {'row':>8} {'wall s':>8} {'CPU s':>8} {'floor CPU':>10} {'ratio':>7} {'target':>7}"


def measure(factor: int, repeat: int, tmp: Path, vouched: bool = True) -> list[str]:
    """The table's lines at one size: the floors, then each row as CPU seconds and a ratio of its floor,
    each run of the row right after a run of the floor (so load on the machine, which slows both,
    matters less)."""
    python = sys.executable
    winter, work = tmp / "winter.json", tmp / "work.json"
    size = write_world(factor, winter)  # a played season closed by yak: reports, waiting orders, a backup
    for backup in (tmp / "backups").glob("winter--*"):  # `diff` reads the season before from its backup
        shutil.copyfile(backup, backup.with_name("work" + backup.name.removeprefix("winter")))
    if vouched:  # as any yak command leaves a save: at this yak's schema, with its vouch beside it
        subprocess.run([python, "-c", VOUCH, str(winter)], check=True)
        size = winter.stat().st_size
    else:
        for suffix in (".vouch", ".key"):
            winter.with_name(winter.name + suffix).unlink(missing_ok=True)
    reset = (winter, work)
    floors = {
        "read": median_run(repeat, [python, "-c", FLOOR_READ, str(work)], reset),
        "write": median_run(repeat, [python, "-c", FLOOR, str(work)], reset),
        "plain": median_run(repeat, [python, "-c", FLOOR_PLAIN, str(work)], reset),
    }
    lead = f"{factor:>5}x {size / 1e6:6.1f}"
    lines = [f"{lead} {name + ' floor':>8} {wall:8.3f} {cpu:8.3f}" for name, (wall, cpu) in floors.items()]
    floor_argv = {"read": [python, "-c", FLOOR_READ, str(work)], "write": [python, "-c", FLOOR, str(work)]}
    for row, args, floor, target in ROWS:
        argv = [python, "-m", "yak_tui", "--save", str(work), *args]
        # Each run of the row right after a run of its floor, so the two see the same minutes of a
        # shared machine: a floor measured once at the start drifted 10-30% from the rows measured
        # minutes later (issue 30's eighth pass), and every ratio moved with it.
        rows, lows = [], []
        for _ in range(repeat):
            lows.append(median_run(1, floor_argv[floor], reset))
            if row == "advance":
                rows.append(median_run(1, argv, reset))
                # Each advance left a backup of its Winter: `verify` checks every backup, so without
                # this it read the save and more backups; a season's close leaves the save and one.
                for backup in (tmp / "backups").glob("work--312-winter--*"):
                    backup.unlink()
            else:
                rows.append(median_run(1, argv))
        copy_save(winter, work)
        wall = statistics.median(w for w, _ in rows)
        cpu = statistics.median(c for _, c in rows)
        low = statistics.median(c for _, c in lows)
        ratio = cpu / low
        flag = "" if ratio <= target else "  over"
        lines.append(
            f"{lead} {row:>8} {wall:8.3f} {cpu:8.3f} {floor + ' ' + format(low, '.3f'):>10} "
            f"{ratio:6.2f}x {target:6.1f}x{flag}"
        )
    return lines


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
    # The schemas' compiled predicates, kept beside the bytecode as a first run writes them (issue 30).
    subprocess.run([sys.executable, "-c", FILL_CHECKS], check=True)


FILL_CHECKS = "from yak_tui.kernel.world.compiled_checks import fill_cache; fill_cache()"


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
    print(HEADER)
    for factor in (int(x) for x in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            print("\n".join(measure(factor, args.repeat, Path(tmp), vouched=not args.unvouched)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
