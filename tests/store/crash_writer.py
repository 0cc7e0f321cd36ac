"""Writers for the kill -9 test: processes that commit numbered states to a save, as fast as they can.

Usage: python crash_writer.py SAVE LOG

This process is a small fork server, so that each victim starts in milliseconds with every
module already imported. It reads commands on stdin, one a line:

- `spawn`: fork a writer and answer `pid N`. The writer loops forever: one transaction through
  WorldFile applies the next numbered state (`step`), then it appends that number to LOG.
- `reap N`: wait for writer N and answer `signal S` or `exit C`.

The test kills the writers with SIGKILL at random moments and checks what is left on disk.
"""

from __future__ import annotations

import os
import sys
import traceback
from typing import Any

from yak_tui.kernel.play.commands import apply_command, load_command_modules
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

PAD = 400_000  # characters of padding that flip between two values on every commit


def counter(data: dict[str, Any]) -> int:
    return int(data["meta"]["world"].get("crash_seq", 0))


def step(data: dict[str, Any]) -> int:
    """Apply the next numbered state in place: a `note` command plus a large alternating field."""
    n = counter(data) + 1
    world = World(data)
    apply_command(world, GM, "note", {"text": f"crash note {n}"}, ScriptedDice([]))
    world.meta["crash_seq"] = n
    world.meta["pad"] = ("AB" if n % 2 else "BA") * (PAD // 2)
    return n


def write_forever(save_path: str, log_path: str) -> None:
    save = WorldFile(save_path)
    with open(log_path, "a") as log:
        while True:
            with save.transaction() as data:
                n = step(data)
            log.write(f"{n}\n")
            log.flush()
            os.fsync(log.fileno())


def serve(save_path: str, log_path: str) -> None:
    load_command_modules()
    out = sys.stdout
    out.write("ready\n")
    out.flush()
    for line in sys.stdin:
        verb, _, arg = line.strip().partition(" ")
        if verb == "spawn":
            pid = os.fork()
            if pid == 0:
                try:
                    write_forever(save_path, log_path)
                except BaseException:
                    traceback.print_exc()
                finally:
                    os._exit(3)
            out.write(f"pid {pid}\n")
        elif verb == "reap":
            _, status = os.waitpid(int(arg), 0)
            if os.WIFSIGNALED(status):
                out.write(f"signal {os.WTERMSIG(status)}\n")
            else:
                out.write(f"exit {os.WEXITSTATUS(status)}\n")
        else:
            out.write(f"error unknown command {line.strip()!r}\n")
        out.flush()


if __name__ == "__main__":
    serve(sys.argv[1], sys.argv[2])
