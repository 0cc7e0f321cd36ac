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


def yak_command(tmp_path: Path, save: Path, identity: str | None = None) -> str:
    """The shell line that starts the real `yak` on `save` (as `identity`, or the GM)."""
    env = f"TERM=xterm-256color COLORTERM=truecolor YAK_THEME=dark HOME={shlex.quote(str(tmp_path))}"
    command = f"cd {shlex.quote(str(tmp_path))} && env {env} {shlex.quote(str(YAK))} --save {shlex.quote(str(save))}"
    return command + (f" --as {identity}" if identity else "")
