"""Child for the kill-between-vouch-and-save test: runs `yak do note` and stops just before the new
save is renamed into place (its vouch and change journal already written).

Usage: python vouch_victim.py SAVE

Prints `mid-write TEMP` and blocks until it is killed (the test sends SIGKILL then, so the kill
lands at a known point without guessing at timing).
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any

from yak_tui.cli import main

real_replace = os.replace
SAVE = Path(sys.argv[1]).resolve()


def replace_or_stop(src: Any, dst: Any) -> None:
    if Path(dst) == SAVE:
        sys.stdout.write(f"mid-write {src}\n")
        sys.stdout.flush()
        threading.Event().wait()  # until SIGKILL
    real_replace(src, dst)


if __name__ == "__main__":
    os.replace = replace_or_stop  # type: ignore[assignment]
    sys.exit(main(["--save", sys.argv[1], "do", "note", "text=killed before the save landed"]))
