"""Benchmark: a form keystroke (dry-run validation) and each read model's build, on grown worlds.

In process, on a world already loaded (what the app holds): the median time of
- `keystroke`: `kernel.play.views.check_command` for `note` as the GM (one keystroke in a command form)
  [issue 13 target: <= 20 ms at 100x]
- `map`, `market`, `espionage`, `sieges`, `dashboard`: the read model each screen builds, for the
  king of the first kingdom (the GM sees more, but a king's view runs the audience filter too).

Run:  python bench/bench_models.py [--sizes 1,10,100] [--repeat 5]
Prints medians in milliseconds. Never asserts a time.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parent))
from worldgen import write_world  # bench/ is not a package


def median_ms(repeat: int, action: Callable[[], Any]) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def measure(factor: int, repeat: int, tmp: Path) -> str:
    from yak_tui.areas.court import dashboard_view
    from yak_tui.areas.economy import market_board
    from yak_tui.areas.espionage import board_view
    from yak_tui.areas.nobles import map_view
    from yak_tui.areas.warfare import siege_monitor
    from yak_tui.kernel.play.commands import load_command_modules
    from yak_tui.kernel.play.identity import GM, Identity
    from yak_tui.kernel.play.views import check_command
    from yak_tui.kernel.world.model import World
    from yak_tui.store.storage import WorldFile

    load_command_modules()
    path = tmp / "world.json"
    size = write_world(factor, path)
    world = World(WorldFile(path).read())
    king = Identity.parse(f"king:{next(iter(world.table('kingdoms')))}")
    rows: dict[str, Callable[[], Any]] = {
        "keystroke": lambda: check_command(world, GM, "note", {"text": "the harvest is in"}),
        "map": lambda: map_view(world, king),
        "market": lambda: market_board(world, king),
        "espionage": lambda: board_view(world, king),
        "sieges": lambda: siege_monitor(world, king),
        "dashboard": lambda: dashboard_view(world, king),
    }
    # A slow row (quadratic before issue 13) runs once at the big sizes.
    cells = [
        f"{median_ms(repeat if name == 'keystroke' or factor < 100 else 1, action):9.1f}"
        for name, action in rows.items()
    ]
    return f"{factor:>5}x {size / 1e6:6.1f} " + " ".join(cells)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1,10,100")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    names = ("keystroke", "map", "market", "espionage", "sieges", "dashboard")
    print(f"{'size':>6} {'MB':>6} " + " ".join(f"{n + ' ms':>9}" for n in names))
    for factor in (int(x) for x in args.sizes.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            print(measure(factor, args.repeat, Path(tmp)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
