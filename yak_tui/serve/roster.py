"""The roster a server logs users in by: the save's users table, followed as the file changes."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any


# -- roster -----------------------------------------------------------------------------------
class Roster:
    """The users table of the save, followed as the file changes (so `yak user add` and
    `user remove` apply without restarting the server): brought up to date from the save's change
    journal when it can say what a write changed, as the apps are (`follow_save`), else read in full.
    A journal entry counts only when signed with the campaign's key and checked against the save's
    bytes: a seat written into the journal by hand logs nobody in."""

    def __init__(self, save: Path) -> None:
        from yak_tui.store.storage import WorldFile

        self.file = WorldFile(save)
        self._stamp: tuple[int, int, int] | None = None
        self._world: Any = None
        # Logins and the roster watch read from executor threads: the world and its stamp are
        # replaced together, or a stale world could pass for the current one.
        self._lock = threading.Lock()

    def world(self) -> Any:
        from yak_tui.kernel.world.model import follow_save

        with self._lock:
            self._stamp, self._world = follow_save(
                self.file, None if self._world is None else (self._stamp, self._world)
            )
            return self._world

    def lookup(self, fingerprint: str) -> tuple[Any, str]:
        """(RosterUser, "") for a known key whose identity is still valid, else (None, reason)."""
        from yak_tui.areas.court import user_for_fingerprint
        from yak_tui.kernel.play.identity import IdentityError
        from yak_tui.kernel.season.session import check_identity

        try:
            world = self.world()
        except Exception as error:
            return None, f"the save cannot be read ({error})"
        user = user_for_fingerprint(world, fingerprint)
        if user is None:
            return None, "unknown key"
        try:
            check_identity(world, user.identity)
        except IdentityError as error:
            return None, f"user {user.name}'s identity {user.identity} is no longer valid ({error})"
        return user, ""

    def seat_gone(self, user: Any) -> str:
        """Why a logged-in user may no longer play: "removed", another identity, or his identity no
        longer in the world; "" while his seat holds. Raises if the save cannot be read."""
        from yak_tui.areas.court import user_for_fingerprint
        from yak_tui.kernel.play.identity import IdentityError
        from yak_tui.kernel.season.session import check_identity

        world = self.world()
        current = user_for_fingerprint(world, user.fingerprint)
        if current is None or current.name != user.name:
            return "removed"
        if current.identity != user.identity:
            return f"the roster now gives this key {current.identity}"
        try:
            check_identity(world, user.identity)
        except IdentityError as error:
            return f"{user.identity} is not in this campaign: {error}"
        return ""
