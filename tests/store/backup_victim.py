"""Child for the kill-during-backup test: runs `yak advance` and stops inside the backup write.

Usage: python backup_victim.py SAVE

The backup's temp file is written in full and fsynced; just before it would be renamed into
place, this process prints `mid-backup TEMP` and blocks until it is killed (the test sends
SIGKILL then, so the kill lands at a known point without guessing at timing). Hard links are
refused here, as a file system without them refuses them: a season's backup is then written.
"""

from __future__ import annotations

import os
import sys
import threading
from pathlib import Path
from typing import Any

from yak_tui.cli import main

real_replace = os.replace


def replace_or_stop(src: Any, dst: Any) -> None:
    if Path(dst).parent.name == "backups":
        sys.stdout.write(f"mid-backup {src}\n")
        sys.stdout.flush()
        threading.Event().wait()  # until SIGKILL
    real_replace(src, dst)


def no_links(src: Any, dst: Any, **_: Any) -> None:
    raise PermissionError(1, "Operation not permitted")


if __name__ == "__main__":
    os.replace = replace_or_stop  # type: ignore[assignment]
    os.link = no_links
    sys.exit(main(["--save", sys.argv[1], "advance"]))
