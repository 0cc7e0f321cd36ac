"""Profile one screen's first visit in a headless app (issue 13): cProfile around the key press
until the screen is painted with its data. Run by hand:
`python bench/profile_visit.py WORLD.json market [--top 40]` (screens by name: market, sieges,
espionage, map, ...; `dashboard` profiles the app's start to its first painted dashboard)."""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import os
import pstats
import sys
import tempfile
import time
from pathlib import Path

os.environ["TEXTUAL_ANIMATIONS"] = "none"
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "app"))
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from bench_scale import copy_save  # noqa: E402  (bench/ on the path first)


async def visit(path: Path, name: str, profile: cProfile.Profile) -> float:
    from app_helpers import make_app, settle, wait_for

    from yak_tui.app.navigation import SCREENS

    def ready() -> bool:
        loader = getattr(app.screen, "loader", None)
        return (
            app.current_mode == name
            and app.screen.is_mounted
            and not (loader is not None and loader.pending)
            and app.screen._seen_version >= 0
        )

    start = time.perf_counter()
    if name == "dashboard":
        profile.enable()
    app = make_app(path, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        if name == "dashboard":
            await wait_for(pilot, ready, what=name)
            await pilot.pause()
            profile.disable()
            return time.perf_counter() - start
        await settle(pilot)
        key = SCREENS[name][2]
        start = time.perf_counter()
        profile.enable()
        await pilot.press(key)
        await wait_for(pilot, ready, what=name)
        await pilot.pause()
        profile.disable()
        return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("world", type=Path)
    parser.add_argument("screen")
    parser.add_argument("--top", type=int, default=40)
    parser.add_argument("--sort", default="cumulative")
    args = parser.parse_args()
    profile = cProfile.Profile()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "world.json"
        # The save with its vouch and the campaign key, as yak leaves any save it wrote: a bare copy
        # would be read as an unvouched save, every check run in full.
        copy_save(args.world, path)
        took = asyncio.run(visit(path, args.screen, profile))
    print(f"{args.screen}: {took * 1000:.0f} ms (profiled)")
    pstats.Stats(profile).sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
