"""Issue 30: a `yak` command that is done leaves the process at once, its output flushed, instead of
freeing the world it read one object at a time (~0.2 s of CPU at 1000x, 16 ms at 100x): what runs at
an ordinary exit (here an `atexit` hook) does not. Every line of its output and its exit code arrive
all the same, through a pipe; while another thread runs, the ordinary exit waits for it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from yak_tui.store.storage import WorldFile

RUN = """
import atexit, sys, threading
atexit.register(lambda: sys.stderr.write("ordinary exit\\n"))
if sys.argv[1] == "thread":
    threading.Thread(target=threading.Event().wait, daemon=True).start()  # runs until the process ends
sys.argv = ["yak", *sys.argv[2:]]
from yak_tui.cli import run
run()
"""


def yak(*argv: str, thread: bool = False) -> subprocess.CompletedProcess[str]:
    line = [sys.executable, "-c", RUN, "thread" if thread else "alone", *argv]
    return subprocess.run(line, capture_output=True, text=True, timeout=120, check=False)


def test_a_done_command_exits_at_once_with_all_its_output(save: WorldFile, capsys: object) -> None:
    from yak_tui.cli import main

    for number in range(100):  # a chronicle longer than a pipe's buffer holds
        assert main(["--save", str(save.path), "do", "note", f"text=entry number {number} " + "x" * 900]) == 0
    expected = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from yak_tui.cli import main; sys.exit(main(sys.argv[1:]))",
            "--save",
            str(save.path),
            "log",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    ).stdout
    done = yak("--save", str(save.path), "log")
    assert done.returncode == 0
    assert done.stdout == expected and "entry number 99" in done.stdout
    assert "ordinary exit" not in done.stderr  # left at once: nothing was torn down


def test_a_refusal_keeps_its_exit_code_and_message(save: WorldFile) -> None:
    done = yak("--save", str(save.path), "show", "kingdoms", "nowhere")
    assert done.returncode == 2 and done.stderr.startswith("yak: ") and "ordinary exit" not in done.stderr


def test_while_another_thread_runs_the_exit_is_the_ordinary_one(save: WorldFile) -> None:
    done = yak("--save", str(save.path), "show", "--json", thread=True)
    assert done.returncode == 0 and done.stdout.strip().startswith("{")
    assert "ordinary exit" in done.stderr


def test_the_module_entry_point_is_the_same(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "yak_tui", "--save", str(tmp_path / "none.json"), "show"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and "yak:" in done.stderr
