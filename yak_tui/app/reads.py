"""The reads of a save shared by the apps of one process (`yak serve`'s sessions)."""

from __future__ import annotations

import threading
from pathlib import Path

from yak_tui.kernel.world.model import World, follow_save
from yak_tui.store.files import Stamp
from yak_tui.store.storage import WorldFile


class SharedReads:
    """The apps of one process (`yak serve`'s sessions) share each read of a save: the first app to
    see a change reads it, the others on that save get the same `World` (apps only read it: commands
    run in their own transaction), so 30 sessions pay for one read, and hold one copy, per change."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._locks: dict[Path, threading.Lock] = {}
        self._worlds: dict[Path, tuple[Stamp | None, World]] = {}

    def _lock(self, path: Path) -> threading.Lock:
        with self._guard:
            return self._locks.setdefault(path, threading.Lock())

    def read(self, save: WorldFile) -> tuple[Stamp | None, World]:
        """The save as it is now (its stamp taken before the read: a later write differs from it).

        A world already held is brought up to date from the save's change journal when it can say
        what the writes since then changed (a note: one entry and the meta table); anything else,
        or a journal that does not hold up, is a full read of the save."""
        path = save.path.resolve()
        with self._lock(path):
            held = follow_save(save, self._worlds.get(path))
            self._worlds[path] = held
            return held

    def wrote(self, save: WorldFile, stamp: Stamp | None, world: World) -> None:
        """An app of this process wrote `world` to the save (`stamp` taken under its lock), or was
        opened on it as read at version `stamp`."""
        path = save.path.resolve()
        with self._lock(path):
            self._worlds[path] = (stamp, world)


SHARED_READS = SharedReads()
