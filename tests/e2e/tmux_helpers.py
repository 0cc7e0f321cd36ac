"""The tmux harness every end-to-end test shares: the real `yak` in a detached tmux session."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

YAK = Path(sys.executable).with_name("yak")
WAIT = 60.0  # seconds: how long any wait may take before it fails (never how long it should take)
ESCDELAY = 0.3  # seconds after ESC before the next key: three times Textual's default ESCDELAY


class Tmux:
    """One detached tmux session on its own server socket, read with capture-pane."""

    def __init__(self, command: str, width: int = 100, height: int = 30) -> None:
        self.socket = f"yak-e2e-{uuid.uuid4().hex[:8]}"
        self.name = "yak"
        # Without a client attached some tmux versions keep 80×24: make the size explicit, and start
        # the command only once its terminal has that size (a resize that came before the app
        # listened for it would be lost, and the app would stay 80×24 for good).
        ready = f'until [ "$(stty size)" = "{height} {width}" ]; do sleep 0.05; done; '
        self._tmux("new-session", "-d", "-x", str(width), "-y", str(height), "-s", self.name, ready + command)
        self._tmux("resize-window", "-t", self.name, "-x", str(width), "-y", str(height))

    def _tmux(self, *args: str) -> str:
        done = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=WAIT)
        return done.stdout

    def keys(self, *keys: str) -> None:
        """Send keys in order, without pauses: the app reads them in order, but it routes each key
        to the widget focused when the key arrives. A key that needs the screen or the focus an
        earlier key brings must wait for it first (`wait_for`); tab is the exception: yak moves the
        focus before it routes the next key."""
        for key in keys:
            self._tmux("send-keys", "-t", self.name, key)
            if key in ("Escape", "Esc"):
                # Not a wait for the app: the terminal protocol. A byte that follows ESC within the
                # app's ESCDELAY (0.1 s) makes it alt+that key; the next key must come later.
                time.sleep(ESCDELAY)

    def burst(self, *keys: str) -> None:
        """Send keys in ONE write, as a fast typist or a paste does: the app gets them together."""
        self._tmux("send-keys", "-t", self.name, *keys)

    def type(self, text: str) -> None:
        self._tmux("send-keys", "-t", self.name, "-l", text)

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", self.name)

    def wait_for(self, condition: Callable[[str], bool] | str, timeout: float = WAIT) -> str:
        """Poll the screen until `condition` holds (a generous bound: a loaded machine is slow)."""
        check = (lambda text: condition in text) if isinstance(condition, str) else condition
        deadline = time.monotonic() + timeout
        text = ""
        while time.monotonic() < deadline:
            text = self.screen()
            if check(text):
                return text
            time.sleep(0.1)
        raise AssertionError(f"timed out waiting for {condition!r}; the screen:\n{text}")

    def quit(self) -> None:
        """Press q and wait until yak has exited (the session ends with it)."""
        self.keys("q")
        deadline = time.monotonic() + WAIT
        while self.alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not self.alive(), f"yak did not quit on q; the screen:\n{self.screen()}"

    def alive(self) -> bool:
        return (
            subprocess.run(["tmux", "-L", self.socket, "has-session", "-t", self.name], capture_output=True).returncode
            == 0
        )

    def kill(self) -> None:
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
        socket = Path(os.environ.get("TMUX_TMPDIR", "/tmp")) / f"tmux-{os.getuid()}" / self.socket
        socket.unlink(missing_ok=True)


def yak_command(tmp_path: Path, save: Path, identity: str | None = None) -> str:
    """The shell line that starts the real `yak` on `save` (as `identity`, or the GM)."""
    # tmux may hand its default 80×24 down as COLUMNS/LINES, which would override the pane's real size.
    env = (
        f"-u COLUMNS -u LINES TERM=xterm-256color COLORTERM=truecolor YAK_THEME=dark HOME={shlex.quote(str(tmp_path))}"
    )
    command = f"cd {shlex.quote(str(tmp_path))} && env {env} {shlex.quote(str(YAK))} --save {shlex.quote(str(save))}"
    return command + (f" --as {identity}" if identity else "")
