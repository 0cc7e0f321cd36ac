"""Child process for the race test: applies COUNT `note` commands to a save, each in its own
locked transaction, starting when the GO file appears.

Usage: python note_worker.py SAVE NAME COUNT GO
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from yak_tui.kernel.play.commands import load_command_modules, run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.store.storage import WorldFile


def main() -> None:
    save_path, name, count, go = sys.argv[1], sys.argv[2], int(sys.argv[3]), Path(sys.argv[4])
    load_command_modules()
    save = WorldFile(save_path, lock_timeout=120)
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    deadline = time.monotonic() + 60
    while not go.exists():
        if time.monotonic() > deadline:
            raise SystemExit("never told to start")
        time.sleep(0.001)
    for i in range(count):
        run_command(save, GM, "note", {"text": f"{name} {i}"})
    sys.stdout.write("done\n")


if __name__ == "__main__":
    main()
