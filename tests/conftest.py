"""Suite-wide: the shared `table` fixture (tests/yak_plugin.py); the `app` and `e2e` markers put on
by directory, so `pytest -m "not app and not e2e"` is the quick headless loop; end-to-end tests that drive real terminals run one after another on one xdist
worker, so two tmux or SSH apps never fight for the two CPUs a CI machine has."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest_plugins = ["yak_plugin"]
TESTS = Path(__file__).parent
MARKED_DIRECTORIES = {"app": "app", "e2e": "e2e"}  # tests/<directory> -> the marker its tests carry


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        parts = item.path.relative_to(TESTS).parts if item.path.is_relative_to(TESTS) else ()
        if parts and parts[0] in MARKED_DIRECTORIES:
            item.add_marker(getattr(pytest.mark, MARKED_DIRECTORIES[parts[0]]))
        if item.get_closest_marker("e2e") is not None:
            item.add_marker(pytest.mark.xdist_group("terminals"))


@pytest.fixture(autouse=True, scope="session")
def _every_journal_entry_says_what_its_write_did() -> Iterator[None]:
    """Every write the suite makes in process that extends the change journal is checked: the world
    before it, with the journal's changes applied (what another app does instead of reading the save),
    must be the save as written, document for document. A command that changed a document without
    saying so (not through the World) fails the test that ran it, whatever that test is about.
    And a write that vouches for its bytes (`<save>.vouch`) must have written a save that validates."""
    import hashlib

    import orjson

    from yak_tui.kernel.world.model import World
    from yak_tui.kernel.world.validation import validate_world
    from yak_tui.store.storage import WorldFile

    write = WorldFile._write

    def _vouch_is_true(self: WorldFile) -> None:
        try:
            vouch = orjson.loads(self.vouch.read_bytes())
            raw = self.path.read_bytes()
        except (OSError, orjson.JSONDecodeError):
            return
        if len(raw) <= 2_000_000 and vouch.get("sha256") == hashlib.sha256(raw).hexdigest():
            validate_world(orjson.loads(raw))  # raises if the vouch stands for a save that does not validate

    def checked(self: WorldFile, snapshot: Any) -> None:
        write(self, snapshot)
        _vouch_is_true(self)
        if snapshot.stamp is None or snapshot.changed is None or len(snapshot.raw) > 2_000_000:
            return
        now = self.stamp()
        entries = self.changes_between(snapshot.stamp, now) if now is not None else None
        if entries is None:  # the journal is best effort (e.g. a test made it unwritable)
            return
        applied = World(self._decode(snapshot.raw)).with_changes(entries).data
        written = self._decode(self.path.read_bytes())  # not through the storage: tests count its reads
        as_json = orjson.OPT_SORT_KEYS
        if orjson.dumps(applied, option=as_json) != orjson.dumps(written, option=as_json):
            wrong = sorted(
                f"{table}:{doc_id}"
                for table in written
                for doc_id in set(written[table]) | set(applied.get(table, {}))
                if written[table].get(doc_id) != applied.get(table, {}).get(doc_id)
            )
            raise AssertionError(f"the change journal misses what this write did: {wrong[:10]}")

    WorldFile._write = checked  # type: ignore[method-assign]
    try:
        yield
    finally:
        WorldFile._write = write  # type: ignore[method-assign]
