"""The app at scale (issue 13): first paint against a Textual hello world, each screen's first
visit, the longest event-loop stall while the app reloads after another process wrote the save,
palette open, and many headless apps on one save after one write.

Run by hand (never in tests): `python bench/bench_app.py --size 100` (grows the demo world with
bench/worldgen.py into a temporary directory first). Prints seconds and ratios; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ["TEXTUAL_ANIMATIONS"] = "none"
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "tests" / "app"))
sys.path.insert(0, str(ROOT))  # this checkout's yak_tui, whatever the environment installed
sys.path.insert(0, str(HERE))

from bench_scale import copy_backups  # noqa: E402  (bench/ on the path first)

HELLO = """
import sys, time
from textual.app import App
from textual.widgets import Static
start = time.perf_counter()
class Hello(App):
    def compose(self):
        yield Static("hello")
    def on_mount(self):
        self.call_after_refresh(self.exit)
Hello().run(headless=True, size=(120, 40))
print(time.perf_counter() - start)
"""

YAK = """
import sys, time
start = time.perf_counter()
from yak_tui.app.main import YakApp
class Timed(YakApp):
    def on_mount(self):
        super().on_mount()
        self.set_interval(0.005, self.painted)
    def painted(self):
        # The dashboard drawn with its data (the read model built and painted), then one frame.
        screen = self.screen
        loader = getattr(screen, "loader", None)
        if getattr(screen, "_seen_version", -1) >= 0 and not (loader is not None and loader.pending):
            self.call_after_refresh(self.exit)
try:  # as `yak tui` opens it: its first screen's read model built before the first frame
    app = Timed(sys.argv[1], "gm", animations=False, poll_interval=0, first_view_inline=True)
except TypeError:  # a yak from before that choice
    app = Timed(sys.argv[1], "gm", animations=False, poll_interval=0)
app.run(headless=True, size=(120, 40))
print(time.perf_counter() - start)
"""

WRITE_NOTE = """
import sys
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.store.storage import WorldFile
run_command(WorldFile(sys.argv[1]), GM, "note", {"text": "bench"})
"""


def fresh(code: str, *args: str, source: bool = False) -> float:
    """Wall time of a fresh interpreter to its first frame (start-up and imports included);
    `source`: writing no bytecode (yak's is removed first)."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"} if source else None
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=True, cwd=ROOT, env=env)
    return time.perf_counter() - start


def loading(screen: Any) -> bool:
    """Whether the screen still builds its read model (main before issue 13 had no loader)."""
    loader = getattr(screen, "loader", None)
    return bool(loader is not None and loader.pending)


class FrameClock:
    """When the app rendered its first frame after a condition came to hold: what a person sees.

    The Pilot's own waits (a key press and each idle check sleep in Textual's 20 ms steps) are not the
    app's; the time of the frame is. Textual hands every frame to `App._display`, headless too."""

    def __init__(self, app: Any) -> None:
        self.condition: Any = None
        self.at: float | None = None
        shown = app._display

        def display(screen: Any, renderable: Any) -> None:
            shown(screen, renderable)
            # A frame made while updates are held (`App.delay_update`, a batch) is not shown.
            if self.condition is not None and self.at is None and renderable is not None and not app._batch_count:
                try:
                    held = self.condition()
                except Exception:
                    held = False
                if held:
                    self.at = time.perf_counter()

        app._display = display

    def arm(self, condition: Any) -> None:
        self.condition, self.at = condition, None


def palette_listed(app: Any) -> bool:
    """The command palette is the screen and lists its entries."""
    from textual.command import CommandList, CommandPalette

    return isinstance(app.screen, CommandPalette) and app.screen.query_one(CommandList).option_count > 0


TYPED = "elb"  # "e" is in nearly every name; "elb", the Elbreths


def palette_answered(app: Any, query: str) -> bool:
    """The palette listed the hits of `query` (`record_listing`) and gathers nothing more."""
    from textual.command import CommandPalette

    palette = app.screen
    if not isinstance(palette, CommandPalette) or getattr(palette, "bench_listed", None) != query:
        return False
    return not any(worker.group == palette._GATHER_COMMANDS_GROUP and not worker.is_finished for worker in app.workers)


def record_listing(palette: Any) -> None:
    """Note the query shown each time the palette fills its list (the Input shows a letter before
    its search has begun: its value alone says nothing of the list)."""
    from textual.command import CommandInput

    refresh = palette._refresh_command_list

    def recorded(*args: Any) -> None:
        refresh(*args)
        palette.bench_listed = palette.query_one(CommandInput).value

    palette._refresh_command_list = recorded


class Lateness:
    """A 10 ms timer on the app's event loop and how late each tick ran: the loop's stalls."""

    def __init__(self, app: Any) -> None:
        self.ticks: list[tuple[float, float]] = []  # (when the tick was due, how late it ran)
        self._due = time.perf_counter() + 0.01
        self._timer = app.set_interval(0.01, self._tick)

    def _tick(self) -> None:
        now = time.perf_counter()
        self.ticks.append((self._due, now - self._due))
        self._due = now + 0.01

    def stop(self) -> None:
        self._timer.stop()

    def longest(self, after: float = float("-inf"), until: float = float("inf")) -> float:
        return max((late for due, late in self.ticks if after < due <= until), default=0.0)


def median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


async def in_app(path: Path) -> dict[str, float]:
    """Screens' first visits, the stall during an outside write's reload, palette open."""
    from app_helpers import make_app, settle, wait_for

    from yak_tui.app.navigation import SCREENS

    figures: dict[str, float] = {}
    app = make_app(path, poll_interval=0.2)
    clock = FrameClock(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for name, (_, _, key, _) in SCREENS.items():
            if name == "dashboard":
                continue

            def drawn(n: str = name) -> bool:
                return (
                    app.current_mode == n
                    and app.screen.is_mounted
                    and not loading(app.screen)
                    and app.screen._seen_version >= 0
                )

            clock.arm(drawn)
            start, cpu = time.perf_counter(), time.process_time()
            await pilot.press(key)
            await wait_for(pilot, lambda: clock.at is not None, what=name)
            figures[f"first visit {name}"] = clock.at - start  # type: ignore[operator]
            figures[f"first visit {name} (CPU of this process)"] = time.process_time() - cpu
            await pilot.pause()
            figures[f"first visit {name} (until the Pilot's pause)"] = time.perf_counter() - start
            await settle(pilot)
        # The side screens over the dashboard: Reports (R: the GM's report of the season closed) and
        # History (H: that season's diff, one backup parsed), each left with escape.
        await pilot.press("d")
        await settle(pilot)
        for name, key in (("reports", "R"), ("history", "H")):

            def side_drawn(n: str = name) -> bool:
                screen = app.screen
                return (
                    getattr(screen, "SCREEN_NAME", "") == n
                    and screen.is_mounted
                    and not loading(screen)
                    and getattr(screen, "view", None) is not None
                )

            clock.arm(side_drawn)
            start, cpu = time.perf_counter(), time.process_time()
            await pilot.press(key)
            await wait_for(pilot, lambda: clock.at is not None, what=name)
            figures[f"first visit {name}"] = clock.at - start  # type: ignore[operator]
            figures[f"first visit {name} (CPU of this process)"] = time.process_time() - cpu
            await settle(pilot)
            await pilot.press("escape")
            await settle(pilot)
        await pilot.press("c")
        await settle(pilot)
        # The stall: a 10 ms timer's worst lateness while the app reloads and redraws the chronicle.
        # A player's command lands from another process (`yak serve` runs one per session, `yak do`
        # is one): the write runs in a child, as it does in use. The app's own command runs in a
        # thread of the app, and shares its interpreter lock: measured apart, as what it is.
        for label, own in (("outside write", False), ("the app's own write (a thread of this process)", True)):
            figures.update(
                {f"{label}: {what}": value for what, value in (await reload_stall(app, pilot, path, own)).items()}
            )
            await settle(pilot)
        clock.arm(lambda: palette_listed(app))
        start, cpu = time.perf_counter(), time.process_time()
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: clock.at is not None, what="palette")
        figures["palette open"] = clock.at - start  # type: ignore[operator]
        figures["palette open (CPU of this process)"] = time.process_time() - cpu
        await pilot.pause()
        figures["palette open (until the Pilot's pause)"] = time.perf_counter() - start
        # Three letters typed one after the other: the event loop's longest stall (a 10 ms timer's worst
        # lateness) until the palette lists the hits of the third, and each letter's time to its hits.
        await settle(pilot)
        record_listing(app.screen)
        stalls = Lateness(app)
        answers, cpu = [], time.process_time()
        for count in range(1, len(TYPED) + 1):
            clock.arm(lambda typed=TYPED[:count]: palette_answered(app, typed))
            start = time.perf_counter()
            await pilot.press(TYPED[count - 1])
            await wait_for(pilot, lambda: clock.at is not None, what="the palette's hits")
            answers.append(clock.at - start)  # type: ignore[operator]
        stalls.stop()
        figures[f"palette: longest stall while typing {TYPED!r}"] = stalls.longest()
        figures[f"palette: slowest letter of {TYPED!r} to its hits listed"] = max(answers)
        figures[f"palette: typing {TYPED!r} (CPU of this process)"] = time.process_time() - cpu
        # Close it and let it settle: an app leaving with the palette still gathering can raise.
        await pilot.press("escape")
        await settle(pilot)
    figures["palette open in a hello world (Textual's floor)"] = await hello_palette()
    return figures


async def reload_stall(app: Any, pilot: Any, path: Path, own: bool) -> dict[str, float]:
    """One note written while the chronicle is shown: a 10 ms timer's worst lateness while the note
    is written and then until the app has reloaded and redrawn it, and how long that took. `own`:
    the note written in a thread of the app's process, as the app's own commands are; else by a
    child process, as another session's are (its stall is then the machine's: two CPUs shared)."""
    from app_helpers import wait_for

    from yak_tui.kernel.play.commands import run_command
    from yak_tui.kernel.play.identity import GM
    from yak_tui.store.storage import WorldFile

    noticed: list[float] = []  # when the app's poll saw the new save and started its reload
    reload_world = app.reload_world

    def reload_noted() -> None:
        noticed.append(time.perf_counter())
        reload_world()

    app.reload_world = reload_noted
    stalls = Lateness(app)
    version = app.world_version
    start = time.perf_counter()
    if own:
        await asyncio.to_thread(run_command, WorldFile(path), GM, "note", {"text": "bench"})
    else:
        writer = await asyncio.create_subprocess_exec(sys.executable, "-c", WRITE_NOTE, str(path), cwd=ROOT)
        await writer.wait()
    written = time.perf_counter()
    await wait_for(pilot, lambda: app.world_version > version and not loading(app.screen), what="reload")
    await pilot.pause()
    end = time.perf_counter()
    stalls.stop()
    app.reload_world = reload_world
    reloaded = noticed[0] if noticed else written  # both writes go round the poll (the bench's is no dialog)
    return {
        "chronicle redrawn after the writer finished": end - written,
        "write to chronicle redrawn": end - start,
        "chronicle redrawn after the poll saw the write (reload, read model, paint)": end - reloaded,
        "longest stall while the note was written": stalls.longest(until=written),
        "longest stall during reload and redraw": stalls.longest(after=written),
    }


async def hello_palette() -> float:
    """The same key and wait in a Textual hello world (its system commands only)."""
    from app_helpers import settle, wait_for
    from textual.app import App, ComposeResult
    from textual.widgets import Static

    class Hello(App[None]):
        def compose(self) -> ComposeResult:
            yield Static("hello")

    app = Hello()
    clock = FrameClock(app)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        clock.arm(lambda: palette_listed(app))
        start = time.perf_counter()
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: clock.at is not None, what="palette")
        took = clock.at - start  # type: ignore[operator]
        await pilot.press("escape")
        await settle(pilot)
    return took


MANY = """
import asyncio, os, sys, time
os.environ["TEXTUAL_ANIMATIONS"] = "none"
from yak_tui.app.main import YakApp
path, ready, go, seats = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4].split(",")
n = len(seats)
def drawn(app):
    screen = app.screen
    loader = getattr(screen, "loader", None)
    return getattr(screen, "_seen_version", -1) >= 0 and not (loader is not None and loader.pending)
def warmed(app):
    # A session's one-time warm-up (kit.screens.warm_up: the other screens imported, their CSS parsed,
    # gc.freeze) is done: it is paid at connect, not per write, so it stays out of the write's figures.
    from yak_tui.app.kit import screens
    return app in screens._WARMED and bool(screens._FROZEN) and not any(w.is_running for w in app.workers)
def flushed(app):
    # Painted: no widget waits for the screen's next frame (Textual's own bookkeeping).
    screen = app.screen
    return not screen._dirty_widgets and not screen._layout_required
async def main():
    apps = [YakApp(path, seat, animations=False, poll_interval=0.1, cursor_blink=False) for seat in seats]
    async def one(app, done):
        # Plain sleeps, not `pilot.pause`: its wait for every widget's queue to drain costs the 30
        # apps more than their redraw, and `yak serve` has no pilot.
        async with app.run_test(size=(100, 30)):
            while not drawn(app) or not warmed(app):  # the dashboard drawn with its data before the write
                await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)
            version = app.world_version
            done.append(None)
            while app.world_version == version or not drawn(app) or not flushed(app):
                await asyncio.sleep(0.02)  # the bench looks 50 times a second: its own cost stays small
            done.append(time.perf_counter())
            if len(done) == 2 * n:  # this process's last screen: report now, before any app closes
                while not os.path.exists(go):  # a fast reload can beat the bench's own note about the write
                    await asyncio.sleep(0.01)
                # Also what the process spends idle over the same time (its looks, Textual's timers):
                # measured before the write, so the write's own cost can be told apart from it.
                print(time.process_time() - cpu, max(done[n:]) - float(open(go).read()),
                      idle * (time.perf_counter() - cpu_at), flush=True)
            while not os.path.exists(go + ".end"):  # open like a session until every process reported
                await asyncio.sleep(0.05)
    done = []
    tasks = [asyncio.create_task(one(app, done)) for app in apps]
    while len(done) < n:
        await asyncio.sleep(0.05)
    await asyncio.sleep(1.0)  # the first frames' leftovers (what is due, a late refresh) done too
    global cpu, cpu_at, idle
    idle_from, idle_at = time.process_time(), time.perf_counter()
    while time.perf_counter() - idle_at < 1.0:  # idle, looking as the wait for the write below does
        await asyncio.sleep(0.01)
    idle = (time.process_time() - idle_from) / (time.perf_counter() - idle_at)  # CPU-s a second
    open(ready, "w").write("ok")
    # The CPU the write costs is counted from when the writer starts, not from this process's own
    # readiness: with 30 processes the first ones wait while the others start (idle, but not free).
    while not os.path.exists(go + ".start"):
        await asyncio.sleep(0.01)
    cpu, cpu_at = time.process_time(), time.perf_counter()
    while not os.path.exists(go):
        await asyncio.sleep(0.01)
    await asyncio.gather(*tasks)
asyncio.run(main())
"""


def seats(path: Path, count: int, mixed: bool) -> list[str]:
    """`count` identities: all the GM, or (`mixed`) the GM and players of different kingdoms
    (`player:<character id>`, the first character of each kingdom in the save's order)."""
    if not mixed:
        return ["gm"] * count
    import orjson

    characters = orjson.loads(path.read_bytes())["characters"]
    players: dict[str, str] = {}
    for character_id, character in characters.items():
        players.setdefault(character.get("kingdom") or "", character_id)
    players.pop("", None)
    return ["gm", *(f"player:{c}" for c in list(players.values())[: count - 1])]


def many_apps(path: Path, identities: list[str], work: Path, processes: int) -> tuple[float, float, float]:
    """Headless apps, one per identity, on one save, spread over `processes` processes (`yak serve`
    runs one per session; apps of one process share each read); one `do note`: CPU-s all of them
    spent from the write until their screen was redrawn, the time until the last one was, and the
    CPU-s the same processes spend idle over as long (measured before the write, at the same looks)."""
    from yak_tui.kernel.play.commands import run_command
    from yak_tui.kernel.play.identity import GM
    from yak_tui.store.storage import WorldFile

    go, end = work / "go", work / "go.end"
    for stale in (go, end, Path(f"{go}.start")):
        stale.unlink(missing_ok=True)
    per = [identities[i::processes] for i in range(processes)]
    readies = [work / f"ready-{i}" for i in range(processes)]
    for ready in readies:
        ready.unlink(missing_ok=True)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", MANY, str(path), str(ready), str(go), ",".join(group)],
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        for group, ready in zip(per, readies, strict=True)
        if group
    ]
    readies = readies[: len(procs)]
    while not all(ready.exists() for ready in readies):
        if any(proc.poll() is not None for proc in procs):
            raise SystemExit("an app process ended before the write")
        time.sleep(0.05)
    Path(f"{go}.start").write_text("")  # the apps count their CPU from here
    time.sleep(0.5)  # every process sees it (each looks 100 times a second, on a loaded machine later)
    start = time.perf_counter()
    run_command(WorldFile(path), GM, "note", {"text": "many apps"})
    go.with_suffix(".tmp").write_text(repr(start))
    go.with_suffix(".tmp").replace(go)  # whole when it appears: the apps read it as soon as it does
    cpu = last = idle = 0.0
    for proc in procs:  # each reports when its last screen is updated; the apps close after all did
        assert proc.stdout is not None
        spent, until, idled = (float(x) for x in proc.stdout.readline().split())
        cpu, last, idle = cpu + spent, max(last, until), idle + idled
    end.write_text("")
    for proc in procs:
        proc.communicate(timeout=600)
    return cpu, last, idle


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=100, help="world size (times the demo world)")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--apps", type=int, default=30)
    parser.add_argument(
        "--identities",
        choices=("gm", "mixed", "both"),
        default="both",
        help="the many apps: all the GM, the GM and players of different kingdoms, or both",
    )
    parser.add_argument("--many-only", action="store_true", help="only the many apps (no first paint, visits)")
    parser.add_argument(
        "--processes",
        type=int,
        nargs="*",
        default=None,
        help="the many apps spread over these numbers of processes (default: one each, and one)",
    )
    parser.add_argument(
        "--world",
        type=Path,
        default=None,
        help="cache of the grown world: built there if missing, reused if present (the bench writes to a copy)",
    )
    parser.add_argument(
        "--source",
        action="store_true",
        help="import yak from source (no bytecode compiled first), as a checkout run with "
        "PYTHONDONTWRITEBYTECODE=1 does",
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        path = work / "world.json"
        built = args.world if args.world is not None else path
        if not built.exists():
            subprocess.run(
                [sys.executable, str(HERE / "worldgen.py"), str(args.size), str(built)],
                check=True,
                capture_output=True,
                env={**os.environ, "PYTHONPATH": str(ROOT)},
            )
        if built != path:
            shutil.copyfile(built, path)
            # The season's backup beside it, renamed for the copy: History (H) diffs the season closed.
            copy_backups(built, path)
        import yak_tui.kernel.world.validation  # noqa: F401  (the checks a read runs and a write vouches for, as in yak)
        from yak_tui.store.storage import WorldFile

        with WorldFile(path).transaction():  # brought to this yak's schema (worldgen writes an older one), as a
            pass  # first command would: the write the apps see below is then an ordinary one, not a migration
        label = f"{args.size}x" if args.world is None else args.world.name  # --size says nothing of a given world
        print(f"world {label}: {path.stat().st_size / 1e6:.1f} MB")
        if not args.many_only:
            # As installed: pip compiles a package's bytecode, and Textual's (hello world's) is. A checkout
            # run with PYTHONDONTWRITEBYTECODE=1 compiles yak's ~60 modules from source at every start
            # instead (about 50 ms); --source measures that.
            if args.source:
                for cache in (ROOT / "yak_tui").rglob("__pycache__"):
                    shutil.rmtree(cache)
            else:
                subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "yak_tui")], check=True)
                # The schemas' compiled predicates, as a first run keeps them beside the bytecode.
                fill = "from yak_tui.kernel.world.compiled_checks import fill_cache; fill_cache()"
                subprocess.run([sys.executable, "-c", fill], check=True)
            # Hello world and yak in turn, so both see the same minutes of a shared machine's load.
            hellos, yaks = [], []
            for _ in range(args.repeat):
                hellos.append(fresh(HELLO))
                yaks.append(fresh(YAK, str(path), source=args.source))
            hello, yak = median(hellos), median(yaks)
            ratios = sorted(y / h for y, h in zip(yaks, hellos, strict=True))
            print(
                f"first paint{' (yak from source)' if args.source else ''}: hello world {hello:.2f} s, yak {yak:.2f} s, "
                f"ratio {yak / hello:.1f}x (rounds {ratios[0]:.1f}-{ratios[-1]:.1f}x)"
            )
            figures = asyncio.run(in_app(path))
            for name, value in figures.items():
                print(f"{name}: {value * 1000:.0f} ms")
            # The bench's own (its migration write above, the Pilot): the real app's is bench_terminal.py's.
            peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
            print(f"peak RSS (this process, the bench's own work included): {peak:.0f} MiB")
        if args.apps:
            kinds = {"gm": [False], "mixed": [True], "both": [False, True]}[args.identities]
            for mixed in kinds:
                identities = seats(path, args.apps, mixed)
                who = "the GM and players of different kingdoms" if mixed else "all the GM"
                for processes in args.processes or (args.apps, 1):
                    cpu, last, idle = many_apps(path, identities, work, processes)
                    print(
                        f"{len(identities)} apps ({who}) in {processes} process(es), one write: "
                        f"{cpu:.1f} CPU-s in total ({idle:.1f} of it what they spend idle over as long), "
                        f"last screen updated after {last:.2f} s"
                    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
