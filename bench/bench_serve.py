"""Benchmark of `yak serve`: 20 concurrent SSH sessions on loopback, next to `yak` run locally.

Prints, for the served sessions and for one local `yak tui` in a pty (no SSH):
- startup: from connecting (or spawning) to the first painted dashboard;
- peak memory per session: the peak RSS (VmHWM) of each app process, and the server's own
  growth per session;
- keypress → changed screen: ctrl+p (the command palette) until the screen shows it, and
  escape until it is gone; all 20 sessions pressed at once, several rounds.
and the ratios served / local. Benchmarks print; they never assert.

    /tmp/venv/bin/python bench/bench_serve.py [--sessions 20] [--rounds 5] [--stub]

`--stub` runs tests/serve/stub_app.py instead of the app (checks the harness itself).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import asyncssh  # noqa: E402
import pyte  # noqa: E402

from yak_tui.serve.ptyproc import PtyProcess  # noqa: E402

STUB = ROOT / "tests" / "serve" / "stub_app.py"
COLUMNS, ROWS = 100, 30
IDENTITIES = ["gm", "king:elbreth", "king:varos", "player:edmund", "player:rowena", "player:nyx"]


# -- screens ------------------------------------------------------------------------------------
class Screen:
    """A pyte screen whose bytes are only stamped on arrival; parsing happens later, off the clock.

    pyte is slow: parsing 20 sessions' output as it arrives would delay reading the next
    session's bytes and inflate every figure. So a measure sends its keys, waits until every
    screen is quiet, then replays the stamped chunks one by one to find the first chunk after
    which the screen shows the change: that chunk's arrival time is when the screen changed.
    """

    def __init__(self) -> None:
        self.screen = pyte.Screen(COLUMNS, ROWS)
        self.stream = pyte.ByteStream(self.screen)
        self.chunks: list[tuple[float, bytes]] = []
        self.fed = 0
        self.closed = False

    def feed(self, data: bytes) -> None:
        self.chunks.append((time.perf_counter(), data))

    def catch_up(self) -> None:
        while self.fed < len(self.chunks):
            self.stream.feed(self.chunks[self.fed][1])
            self.fed += 1

    def body(self) -> str:
        """Every row but the first: a header clock must not count as a change."""
        return "\n".join(line.rstrip() for line in self.screen.display[1:])

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    def first_change(self, check: Callable[[str], bool]) -> float | None:
        """Replay the unparsed chunks; the arrival time of the first one after which check holds."""
        while self.fed < len(self.chunks):
            stamp, data = self.chunks[self.fed]
            self.stream.feed(data)
            self.fed += 1
            if check(self.text()):
                return stamp
        return None


async def each_settled(screens: list[Any], since: float, calm: float = 0.3, timeout: float = 120.0) -> None:
    """Wait until every screen has had output after `since` followed by `calm` seconds of none.

    Judged per screen, without parsing: a blinking cursor (a little output every 0.5 s) never
    lets twenty screens be quiet at the same moment, but each has its own quiet gaps."""
    done: set[int] = set()
    started = time.perf_counter()
    while len(done) < len(screens) and time.perf_counter() - started < timeout:
        now = time.perf_counter()
        for n, screen in enumerate(screens):
            if n not in done and screen.chunks:
                last = screen.chunks[-1][0]
                if last > since and now - last >= calm:
                    done.add(n)
        await asyncio.sleep(0.01)


async def until_painted(screens: list[Any], started: list[float], check: Callable[[str], bool]) -> list[float]:
    """Seconds from each start to the first screen where check holds."""
    times: list[float | None] = [None] * len(screens)
    since = min(started)
    deadline = time.perf_counter() + 240
    while any(t is None for t in times):
        if time.perf_counter() > deadline:
            raise TimeoutError("some screens never painted")
        waiting = [s for s, t in zip(screens, times, strict=True) if t is None]
        await each_settled(waiting, since, 0.5)
        since = time.perf_counter()
        for n, screen in enumerate(screens):
            if times[n] is None:
                stamp = screen.first_change(check)
                if stamp is not None:
                    times[n] = stamp - started[n]
    return [t for t in times if t is not None]


class SSHScreen(asyncssh.SSHClientSession, Screen):  # type: ignore[misc]
    def __init__(self) -> None:
        Screen.__init__(self)
        self.chan: Any = None

    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def data_received(self, data: bytes, datatype: Any) -> None:
        if datatype is None:
            self.feed(data)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True

    def send(self, data: bytes) -> None:
        self.chan.write(data)


class LocalScreen(Screen):
    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        super().__init__()
        self.proc = PtyProcess(argv, env, COLUMNS, ROWS, self.feed, lambda code: setattr(self, "closed", True))

    def send(self, data: bytes) -> None:
        self.proc.write(data)


# -- measures -----------------------------------------------------------------------------------
def peak_rss_kib(pid: int) -> tuple[int, int]:
    """(VmHWM, VmRSS) in KiB from /proc."""
    values = {"VmHWM": 0, "VmRSS": 0}
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            key = line.split(":", 1)[0]
            if key in values:
                values[key] = int(line.split()[1])
    return values["VmHWM"], values["VmRSS"]


def children_of(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.append(int(entry))
    return found


def painted(stub: bool) -> Callable[[str], bool]:
    return (lambda text: "STUB" in text) if stub else (lambda text: "Spring 312" in text)


async def keypress_latency(screens: list[Any], rounds: int) -> list[float]:
    """ctrl+p (palette opens) then escape (it closes), pressed in every screen at once; seconds
    from each press to its changed screen."""
    samples: list[float] = []
    await asyncio.sleep(1.0)
    for _ in range(rounds):
        for key in (b"\x10", b"\x1b"):
            for screen in screens:
                screen.catch_up()
            before = [s.body() for s in screens]
            sent = []
            for screen in screens:
                sent.append(time.perf_counter())
                screen.send(key)
            await each_settled(screens, min(sent), 0.3)
            for screen, old, at in zip(screens, before, sent, strict=True):
                stamp = screen.first_change(lambda _text, s=screen, o=old: s.body() != o)
                if stamp is None:
                    raise TimeoutError(f"no change after {key!r}:\n{screen.text()}")
                samples.append(stamp - at)
    return samples


def summary(samples: list[float]) -> str:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return f"median {statistics.median(ordered) * 1000:7.1f} ms   p95 {p95 * 1000:7.1f} ms   (n={len(ordered)})"


# -- the served side ------------------------------------------------------------------------------
def serve_child(save: str, stub: bool) -> None:
    """`--serve-child`: run the server in this process (so --stub can swap the app)."""
    from yak_tui.serve.config import ServeConfig
    from yak_tui.serve.server import configure_logging, start_server

    configure_logging()

    async def main() -> None:
        argv = (lambda s, i: [sys.executable, str(STUB), "--save", str(s), "--as", i]) if stub else None
        # Every session connects at once, from few users: lift the per-user and logging-in limits.
        config = ServeConfig(save=Path(save), port=0, max_sessions=64, max_sessions_per_user=64, max_unauthenticated=64)
        if argv is not None:
            config.app_argv = argv
        server = await start_server(config)
        print(f"PORT {server.port}", flush=True)
        await asyncio.Event().wait()

    asyncio.run(main())


async def served(directory: Path, sessions: int, rounds: int, stub: bool) -> dict[str, Any]:
    from yak_tui.kernel.play.commands import run_command
    from yak_tui.kernel.play.identity import Identity
    from yak_tui.kernel.world.demo import create_world

    save = create_world(directory / "world.json")
    keys = []
    for n, identity in enumerate(IDENTITIES):
        key = asyncssh.generate_private_key("ssh-ed25519")
        run_command(
            save,
            Identity.parse("gm"),
            "user-add",
            {"name": f"u{n}", "identity": identity, "key": key.export_public_key().decode()},
        )
        keys.append((f"u{n}", key))
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve-child", str(save.path), *(["--stub"] if stub else [])],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=_env(),
    )
    try:
        assert server.stdout is not None
        port = int(server.stdout.readline().split()[1])
        _base_hwm, base_rss = peak_rss_kib(server.pid)

        async def session(n: int) -> tuple[Any, Any]:
            name, key = keys[n % len(keys)]
            conn = await asyncssh.connect(
                "127.0.0.1", port, username=name, client_keys=[key], known_hosts=None, agent_path=None
            )
            _, screen = await conn.create_session(
                SSHScreen, term_type="xterm-256color", term_size=(COLUMNS, ROWS), encoding=None
            )
            return conn, screen

        first_started = time.perf_counter()
        opened = [await session(0)]
        alone_startup = await until_painted([opened[0][1]], [first_started], painted(stub))
        starts = [time.perf_counter() for _ in range(1, sessions)]
        opened += await asyncio.gather(*(session(n) for n in range(1, sessions)))
        screens = [s for _, s in opened]
        startup = await until_painted(screens[1:], starts, painted(stub))
        latency = await keypress_latency(screens, rounds)
        alone: list[float] = []
        for screen in screens:  # one session pressed at a time while the others stay connected
            alone.extend(await keypress_latency([screen], 1))
        apps = children_of(server.pid)
        peaks = [peak_rss_kib(pid)[0] for pid in apps]
        server_hwm, server_rss = peak_rss_kib(server.pid)
        for conn, _ in opened:
            conn.close()
        return {
            "startup": startup,
            "alone_startup": alone_startup,
            "latency": latency,
            "alone": alone,
            "peaks": peaks,
            "apps": len(apps),
            "server_growth": (server_rss - base_rss) / max(1, sessions),
            "server_peak": server_hwm,
        }
    finally:
        server.terminate()
        server.wait(30)


async def local(directory: Path, rounds: int, stub: bool) -> dict[str, Any]:
    from yak_tui.kernel.world.demo import create_world

    save = create_world(directory / "local.json")
    argv = (
        [sys.executable, str(STUB), "--save", str(save.path), "--as", "gm"]
        if stub
        else [sys.executable, "-m", "yak_tui", "--save", str(save.path), "--as", "gm", "tui"]
    )
    env = {**_env(), "TERM": "xterm-256color"}
    startup: list[float] = []
    latency: list[float] = []
    peaks: list[int] = []
    for _ in range(3):
        started = time.perf_counter()
        screen = LocalScreen(argv, env)
        startup.extend(await until_painted([screen], [started], painted(stub)))
        latency.extend(await keypress_latency([screen], max(rounds, 3)))
        peaks.append(peak_rss_kib(screen.proc.pid)[0])
        screen.proc.terminate(1.0)
        await screen.proc.wait()
    return {"startup": startup, "latency": latency, "peaks": peaks}


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not re.match(r"^(TERM|COLUMNS|LINES|TMUX)", k)}
    env.setdefault("TEXTUAL_ANIMATIONS", "none")
    return env


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="yak-bench-serve-") as tmp:
        directory = Path(tmp)
        print(
            f"yak serve benchmark: {args.sessions} concurrent sessions on loopback, {COLUMNS}x{ROWS}, "
            f"{'stub app' if args.stub else 'yak tui'}, {os.cpu_count()} cpus"
        )
        loc = await local(directory, args.rounds, args.stub)
        srv = await served(directory, args.sessions, args.rounds, args.stub)
    mib = 1024.0
    served_peak = statistics.mean(srv["peaks"]) / mib
    local_peak = statistics.mean(loc["peaks"]) / mib
    print()
    print(f"{'':38}{'served (SSH)':>14}{'local (pty)':>14}{'ratio':>9}")

    def p95(values: list[float]) -> float:
        return sorted(values)[round(0.95 * (len(values) - 1))]

    rows = [
        ("startup, one session alone, s", statistics.median(srv["alone_startup"]), statistics.median(loc["startup"])),
        (
            f"startup, {args.sessions - 1} at once, median s",
            statistics.median(srv["startup"]),
            statistics.median(loc["startup"]),
        ),
        ("peak RSS per app, MiB", served_peak, local_peak),
        (
            "keypress, one at a time, median ms",
            statistics.median(srv["alone"]) * 1000,
            statistics.median(loc["latency"]) * 1000,
        ),
        (
            f"keypress, {args.sessions} at once, median ms",
            statistics.median(srv["latency"]) * 1000,
            statistics.median(loc["latency"]) * 1000,
        ),
        (f"keypress, {args.sessions} at once, p95 ms", p95(srv["latency"]) * 1000, p95(loc["latency"]) * 1000),
    ]
    for label, served_value, local_value in rows:
        ratio = served_value / local_value if local_value else float("nan")
        print(f"{label:38}{served_value:14.2f}{local_value:14.2f}{ratio:9.2f}")
    print()
    print(f"app processes under the server: {srv['apps']} (sessions: {args.sessions})")
    print(
        f"server process: peak RSS {srv['server_peak'] / mib:.1f} MiB, "
        f"growth {srv['server_growth'] / mib:.2f} MiB per session"
    )
    print(f"served keypress latency: {summary(srv['latency'])}")
    print(f"local keypress latency:  {summary(loc['latency'])}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--stub", action="store_true", help="measure the harness with the stand-in app")
    parser.add_argument("--serve-child", metavar="SAVE", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve_child:
        serve_child(options.serve_child, options.stub)
    else:
        asyncio.run(main(options))
