"""The real `yak` in a real terminal (tmux, 100×30): switch screens with keys, roll the dice,
advance a season, quit; the save on disk agrees with what the screen said."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from yak_tui.store.storage import WorldFile
from yak_tui.world.demo import create_world
from yak_tui.world.model import World

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

YAK = Path(sys.executable).with_name("yak")


class Tmux:
    """One detached tmux session on its own server socket, read with capture-pane."""

    def __init__(self, command: str, width: int = 100, height: int = 30) -> None:
        self.socket = f"yak-e2e-{uuid.uuid4().hex[:8]}"
        self.name = "yak"
        self._tmux("new-session", "-d", "-x", str(width), "-y", str(height), "-s", self.name, command)
        # Without a client attached some tmux versions keep 80×24: make the size explicit.
        self._tmux("resize-window", "-t", self.name, "-x", str(width), "-y", str(height))

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=20)
        return done.stdout

    def keys(self, *keys: str) -> None:
        for key in keys:
            self._tmux("send-keys", "-t", self.name, key)
            time.sleep(0.15)

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-t", self.name, "-l", text)
        time.sleep(0.2)

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", self.name)

    def wait_for(self, condition: Callable[[str], bool] | str, timeout: float = 45.0) -> str:
        check = (lambda text: condition in text) if isinstance(condition, str) else condition
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            if check(text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {condition!r}; the screen:\n{text}")

    def alive(self) -> bool:
        return subprocess.run(["tmux", "-L", self.socket, "has-session", "-t", self.name],
                              capture_output=True).returncode == 0

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
        socket = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}" / self.socket
        socket.unlink(missing_ok=True)


@pytest.fixture
def session(tmp_path: Path) -> Iterator[tuple[Tmux, Path]]:
    save = tmp_path / "world.json"
    create_world(save)
    env = f"TERM=xterm-256color COLORTERM=truecolor YAK_THEME=dark HOME={shlex.quote(str(tmp_path))}"
    # `remain-on-exit` is not set: when yak quits, the session ends and `alive()` turns false.
    command = f"cd {shlex.quote(str(tmp_path))} && env {env} {shlex.quote(str(YAK))} --save {shlex.quote(str(save))}"
    term = Tmux(command)
    try:
        yield term, save
    finally:
        term.kill()


def test_switch_screens_roll_and_advance_in_a_real_terminal(session: tuple[Tmux, Path]) -> None:
    term, save = session
    term.wait_for("Due this season", timeout=30)
    assert "◆ GM" in term.screen() and "Spring 312" in term.screen()

    for key, marker in (("e", "Specialist pools"), ("b", "Sectors by province"), ("s", "Walled places"),
                        ("m", "Legend"), ("c", "Chronicle ·"), ("d", "Due this season")):
        term.keys(key)
        term.wait_for(marker)

    term.keys("r")
    term.wait_for("Odds before rolling")
    term.type("Hold the ford")
    term.wait_for("success:")
    term.keys("Enter")
    # The dice tumble (animations are on in a real terminal), then land beside the chronicle line.
    text = term.wait_for(lambda t: "RtD for Hold the ford" in t and "rolled" in t)
    assert "rolling…" not in text
    term.keys("Escape")
    term.wait_for(lambda t: "Odds before rolling" not in t and "Due this season" in t)

    term.keys("a")
    term.wait_for("Advance to Summer 312")
    term.keys("Enter")
    term.wait_for("Summer 312 begins")
    term.keys("Escape")
    term.wait_for("Summer 312 · 3 seasons to year start")

    world = World(WorldFile(save).read())
    assert world.date.label() == "Summer 312"
    rolls = [e for _, e in world.all("chronicle") if e["kind"] == "roll"]
    assert len(rolls) == 1 and rolls[0]["text"].startswith("RtD for Hold the ford")
    natural = rolls[0]["rolls"][0]["naturals"][0]
    assert f"rolled {natural}" in text  # the screen showed the natural the save recorded

    term.keys("q")
    deadline = time.monotonic() + 10
    while term.alive() and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not term.alive(), "yak did not quit on q"


def test_the_terminal_shows_other_processes_writes(session: tuple[Tmux, Path]) -> None:
    term, save = session
    term.wait_for("Due this season", timeout=30)
    subprocess.run([str(YAK), "--save", str(save), "do", "note", "text=Riders seen on the Keshar road"], check=True,
                   capture_output=True, env={**os.environ})
    term.wait_for("Riders seen on the", timeout=20)
