"""Child process for the kill -9 test: commits numbered states to a save, as fast as it can.

Usage: python crash_writer.py SAVE LOG

Each transaction applies state number n+1 (see `step`) to the save through WorldFile and then
appends n+1 to LOG. The parent kills this process with SIGKILL at a random moment.
"""

from __future__ import annotations

import os
import sys
from typing import Any

from yak_tui.rules.dice import ScriptedDice
from yak_tui.store.storage import WorldFile
from yak_tui.world.commands import apply_command, load_command_modules
from yak_tui.world.identity import GM
from yak_tui.world.model import World

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


def main() -> None:
    save = WorldFile(sys.argv[1])
    log = open(sys.argv[2], "a", buffering=1)  # noqa: SIM115 - lives until the process is killed
    load_command_modules()
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    while True:
        with save.transaction() as data:
            n = step(data)
        log.write(f"{n}\n")
        log.flush()
        os.fsync(log.fileno())


if __name__ == "__main__":
    main()
