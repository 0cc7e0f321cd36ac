"""Startup to the first painted dashboard, and peak memory, against a bare Textual hello world.

Each run is a fresh `python` process (headless Textual) that reports, when its first real screen
has been painted, the seconds since the interpreter started and its peak RSS. Both apps run
alternately in the same session, several times; the medians are compared.

    python bench/bench_startup.py [--runs 7]

Target (issue 3): both ratios at most 2.0. Prints one JSON line at the end for scripts.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

HELLO = textwrap.dedent(
    """
    import resource, sys, time
    from textual.app import App
    from textual.widgets import Static

    class Hello(App):
        def compose(self):
            yield Static("Hello, world")

        def on_mount(self):
            self.call_after_refresh(self.painted)

        def painted(self):
            self.exit(time.perf_counter())

    done = Hello().run(headless=True, size=(100, 30))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(done, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
    """
)

YAK = textwrap.dedent(
    """
    import resource, sys, time
    from yak_tui.app.main import YakApp

    class Bench(YakApp):
        def on_mount(self):
            self.set_interval(0.002, self.check)

        def check(self):
            from yak_tui.app.screens.court.dashboard import DashboardScreen

            screen = self.screen
            if isinstance(screen, DashboardScreen) and screen._seen_version >= 0:
                self.call_after_refresh(self.painted)

        def painted(self):
            self.exit(time.perf_counter())

    done = Bench(sys.argv[1], "gm", animations=False).run(headless=True, size=(100, 30))
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(done, usage.ru_utime + usage.ru_stime, usage.ru_maxrss)
    """
)


CHILD_ENV: dict[str, str] = {}


def measure(source: str, *args: str) -> tuple[float, float, int]:
    """Seconds from process start to first paint, CPU seconds spent by then, and peak RSS in KiB,
    of one fresh process. CPU time is the steadier figure on a busy machine."""
    # time.perf_counter() in the child counts from an arbitrary origin: report the child's own
    # wall time since start by subtracting the interpreter's start, read the same way.
    wrapper = "import time; _t0 = time.perf_counter()\n" + source.replace("print(done,", "print(done - _t0,")
    done = subprocess.run(
        [sys.executable, "-c", wrapper, *args], capture_output=True, text=True, timeout=60, env=CHILD_ENV or None
    )
    if done.returncode:
        raise SystemExit(f"benchmark child failed:\n{done.stderr}")
    seconds, cpu, rss = done.stdout.split()[-3:]
    return float(seconds), float(cpu), int(rss)


def interpreter_start() -> float:
    """Seconds an empty `python -c pass` takes, added to both sides so ratios include startup."""
    import time

    runs = []
    for _ in range(3):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "pass"], check=True)
        runs.append(time.perf_counter() - started)
    return statistics.median(runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    from yak_tui.kernel.world.demo import create_world

    with tempfile.TemporaryDirectory() as tmp:
        save = Path(tmp) / "world.json"
        create_world(save)
        # Installed packages run from bytecode; so do both apps here (cached in the temp dir, the
        # same for both), even where PYTHONDONTWRITEBYTECODE is set for development.
        CHILD_ENV.update({k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"})
        CHILD_ENV["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        base = interpreter_start()
        hello: list[tuple[float, float, int]] = []
        yak: list[tuple[float, float, int]] = []
        measure(HELLO)  # warm the file cache for both
        measure(YAK, str(save))
        for _ in range(args.runs):
            hello.append(measure(HELLO))
            yak.append(measure(YAK, str(save)))
    hello_time = base + statistics.median(t for t, _, _ in hello)
    yak_time = base + statistics.median(t for t, _, _ in yak)
    hello_cpu = statistics.median(c for _, c, _ in hello)
    yak_cpu = statistics.median(c for _, c, _ in yak)
    hello_rss = statistics.median(r for _, _, r in hello)
    yak_rss = statistics.median(r for _, _, r in yak)
    result = {
        "runs": args.runs,
        "hello_seconds": round(hello_time, 3),
        "yak_seconds": round(yak_time, 3),
        "time_ratio": round(yak_time / hello_time, 2),
        "hello_cpu_seconds": round(hello_cpu, 3),
        "yak_cpu_seconds": round(yak_cpu, 3),
        "cpu_ratio": round(yak_cpu / hello_cpu, 2),
        "hello_peak_kib": hello_rss,
        "yak_peak_kib": yak_rss,
        "memory_ratio": round(yak_rss / hello_rss, 2),
    }
    print(
        f"startup to first paint: hello world {hello_time * 1000:.0f} ms, yak dashboard {yak_time * 1000:.0f} ms"
        f" -> ratio {result['time_ratio']:.2f} (target <= 2.0)"
    )
    print(
        f"cpu to first paint:     hello world {hello_cpu * 1000:.0f} ms, yak dashboard {yak_cpu * 1000:.0f} ms"
        f" -> ratio {result['cpu_ratio']:.2f} (steadier under load)"
    )
    print(
        f"peak memory:            hello world {hello_rss / 1024:.1f} MiB, yak dashboard {yak_rss / 1024:.1f} MiB"
        f" -> ratio {result['memory_ratio']:.2f} (target <= 2.0)"
    )
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
