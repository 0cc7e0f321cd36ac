"""Schema migrations: each step lifts a save from version N to N+1 when it is read."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from yak_tui.store.files import StoreError

Data = dict[str, dict[str, Any]]

# MIGRATIONS[n] lifts a save at schema version n to n + 1.
MIGRATIONS: dict[int, Callable[[Data], Data]] = {}


def _v0_to_v1(data: Data) -> Data:
    """Saves from before versioning: stamp the version; every table gets created on open."""
    meta = data.setdefault("meta", {}).setdefault("world", {})
    meta.setdefault("undo", [])
    meta.setdefault("history", [])
    return data


MIGRATIONS[0] = _v0_to_v1

# The dice ledger's first `prev` (yak_tui.kernel.play.dicechain.GENESIS; the store imports no kernel module).
DICE_GENESIS = "0" * 64


def _v1_to_v2(data: Data) -> Data:
    """Saves from before the dice ledger: the chain starts here, empty; the rolls already in the
    chronicle are counted by `yak verify` as older than the chain, not checked."""
    meta = data.setdefault("meta", {}).setdefault("world", {})
    meta.setdefault("dice_head", DICE_GENESIS)
    meta.setdefault("dice_count", 0)
    meta.setdefault("dice_since", meta.get("date"))
    meta.setdefault("dice_since_seq", int(meta.get("chronicle_seq", 0) or 0))
    data.setdefault("dice", {})
    return data


MIGRATIONS[1] = _v1_to_v2


def schema_version(data: Data, path: object = "save") -> int:
    meta = data.get("meta", {}).get("world", {})
    version = meta.get("schema_version", 0)
    if type(version) is not int or version < 0:
        raise StoreError(
            f"save {path}: meta 'world', field schema_version: must be a whole number (0 or more), not {version!r:.40}"
        )
    return version


def migrate(data: Data, target: int, path: object = "save") -> Data:
    """Apply every step from the save's version up to `target`, or refuse a newer save."""
    version = schema_version(data, path)
    if version > target:
        raise StoreError(f"{path} has schema version {version}, newer than this yak_tui ({target}); upgrade yak_tui")
    while version < target:
        step = MIGRATIONS.get(version)
        if step is None:
            raise StoreError(f"{path}: no migration from schema version {version}")
        data = step(data)
        version += 1
        data.setdefault("meta", {}).setdefault("world", {})["schema_version"] = version
    return data
