"""Crash-safe TinyDB storage and the one transaction path for the world file.

The file is always either the old or the new state: a write goes to a temp file,
is fsynced, replaces the save with `os.replace`, and the directory is fsynced.
Every read reopens the path, so other processes' writes are seen at once.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import orjson
from filelock import FileLock, Timeout
from tinydb.storages import Storage

SCHEMA_VERSION = 1

# Checks every world must pass when it is read, fn(data) raising ValueError with a message that
# names the table, id and field. The world layer registers its schema validation here: the store
# does not know what a document looks like.
LOAD_CHECKS: list[Callable[[dict[str, Any]], None]] = []


class StoreError(Exception):
    """The save cannot be read or written; the message says what and how to recover."""


class CorruptSaveError(StoreError):
    pass


class SaveWriteError(StoreError, OSError):
    """Writing failed (disk full, I/O error...); the file on disk is the one from before."""


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def atomic_write_bytes(path: Path, payload: bytes) -> None:
    """temp → fsync → os.replace → fsync(dir). On any error the old file is untouched."""
    directory = path.parent
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=directory)
    except OSError as error:
        raise _write_error(path, error) from error
    try:
        try:
            # Keep the mode the GM gave the save (mkstemp creates 0600).
            os.chmod(tmp_name, path.stat().st_mode & 0o7777)
        except FileNotFoundError:
            pass
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, path)
    except BaseException as error:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        if isinstance(error, OSError):
            raise _write_error(path, error) from error
        raise
    _fsync_dir(directory)


def _write_error(path: Path, error: OSError) -> SaveWriteError:
    reason = error.strerror or str(error) or type(error).__name__
    return SaveWriteError(f"cannot write {path}: {reason}; the file on disk was left as it was")


def restore_hint(path: Path) -> str:
    return f"run `yak --save {path} restore` to list backups, then `yak --save {path} restore NAME`"


def decode_save(path: Path, raw: bytes) -> dict[str, Any]:
    """Parse the bytes of a save, or say clearly what is wrong with it."""
    if not raw.strip():
        raise CorruptSaveError(f"save {path} is empty; it was left untouched. {restore_hint(path)}")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        raise CorruptSaveError(
            f"save {path} is not valid JSON ({error}); it was left untouched. {restore_hint(path)}"
        ) from None
    if not isinstance(data, dict):
        raise CorruptSaveError(
            f"save {path} is not a yak_tui world (expected tables of documents); "
            f"it was left untouched. {restore_hint(path)}"
        )
    for name, table in data.items():
        if not isinstance(table, dict):
            raise CorruptSaveError(
                f"save {path}: table {name!r} must be a table of documents, not a {type(table).__name__}; "
                f"it was left untouched. {restore_hint(path)}"
            )
    return data


class AtomicOrjsonStorage(Storage):
    """TinyDB storage: orjson, atomic replace, reopened on every read; no caching."""

    def __init__(self, path: str | os.PathLike[str], create: bool = False) -> None:
        self.path = Path(path)
        if create and not self.path.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(self.path, b"{}")

    def read_bytes(self) -> bytes:
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            raise StoreError(
                f"no save at {self.path}; create one with `yak new {self.path} --demo`"
            ) from None
        except OSError as error:
            raise StoreError(f"cannot read save {self.path}: {error.strerror}") from None

    def read(self) -> dict[str, dict[str, Any]] | None:
        return decode_save(self.path, self.read_bytes())

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        atomic_write_bytes(self.path, orjson.dumps(data))

    def close(self) -> None:
        pass


class WorldFile:
    """One world save on disk: locked transactions, backups, restore."""

    def __init__(self, path: str | os.PathLike[str], lock_timeout: float = 30.0) -> None:
        self.path = Path(path)
        self.storage = AtomicOrjsonStorage(self.path)
        self.lock = FileLock(str(self.path) + ".lock", timeout=lock_timeout)

    @property
    def backup_dir(self) -> Path:
        return self.path.parent / "backups"

    def exists(self) -> bool:
        return self.path.exists()

    def stamp(self) -> tuple[int, int] | None:
        """Cheap change detector for live refresh: (mtime_ns, size)."""
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return None
        return (st.st_mtime_ns, st.st_size)

    def read(self) -> dict[str, dict[str, Any]]:
        """The current state, migrated to this version's schema (in memory; written on next command)."""
        from yak_tui.store.migrations import migrate

        data = self.storage.read()
        assert data is not None
        meta = data.get("meta", {}).get("world")
        if not isinstance(meta, dict):
            raise CorruptSaveError(
                f"save {self.path} has no world metadata (meta.world); it is not a yak_tui world. "
                f"{restore_hint(self.path)}"
            )
        date = meta.get("date")
        if not (isinstance(date, dict) and isinstance(date.get("year"), int)
                and date.get("season") in ("Spring", "Summer", "Autumn", "Winter")):
            raise CorruptSaveError(
                f"save {self.path} has no valid date in meta.world (found {date!r}). {restore_hint(self.path)}"
            )
        data = migrate(data, SCHEMA_VERSION, self.path)
        for check in LOAD_CHECKS:
            try:
                check(data)
            except ValueError as error:
                raise CorruptSaveError(f"save {self.path}: {error}; it was left untouched. "
                                       f"{restore_hint(self.path)}") from error
        return data

    def sweep_temp_files(self) -> int:
        """Remove temp files a killed writer left behind (call only while holding the lock)."""
        removed = 0
        for stale in self.path.parent.glob(f".{self.path.name}.*.tmp"):
            try:
                stale.unlink()
                removed += 1
            except OSError:
                pass
        return removed

    def create(self, data: dict[str, dict[str, Any]], overwrite: bool = False) -> None:
        if self.path.exists() and not overwrite:
            raise StoreError(f"{self.path} already exists; choose another path")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._locked():
            self.storage.write(data)

    @contextmanager
    def _locked(self) -> Iterator[None]:
        try:
            with self.lock:
                yield
        except Timeout:
            raise StoreError(
                f"the save {self.path} is locked by another process (lock {self.lock.lock_file})"
            ) from None

    @contextmanager
    def transaction(self) -> Iterator[dict[str, dict[str, Any]]]:
        """Lock, reload, hand out the state; on a clean exit write it once, else write nothing."""
        with self._locked():
            self.sweep_temp_files()
            data = self.read()
            yield data
            self.storage.write(data)

    def backup(self, label: str, keep: int = 12) -> Path:
        """Copy the save into backups/ (rotating: only the newest `keep` stay)."""
        self.backup_dir.mkdir(parents=True, exist_ok=True)
        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
        target = self.backup_dir / f"{self.path.stem}--{label}--{stamp}.json"
        atomic_write_bytes(target, self.storage.read_bytes())
        backups = self.backups()
        for old in backups[:-keep] if keep > 0 else []:
            old.unlink(missing_ok=True)
        return target

    def backups(self) -> list[Path]:
        if not self.backup_dir.exists():
            return []
        # `stem--label--stamp.json`: the double dash keeps world-2.json's backups out of world.json's.
        found = [p for p in self.backup_dir.glob(f"{self.path.stem}--*--*.json")
                 if p.name.count("--") == 2 and p.name.split("--")[0] == self.path.stem]
        return sorted(found, key=lambda p: p.stem.rsplit("--", 1)[1])

    def restore(self, name: str) -> Path:
        """Replace the save with a backup (which must itself be a valid world)."""
        candidates = [p for p in self.backups() if p.name == name or p.stem == name]
        if not candidates:
            known = ", ".join(p.name for p in self.backups()) or "none"
            raise StoreError(f"no backup named {name!r}; backups: {known}")
        source = candidates[0]
        decode_save(source, source.read_bytes())
        with self._locked():
            if self.path.exists():
                # Keep the file being replaced, corrupt or not, so a restore loses nothing.
                aside = self.path.with_name(f"{self.path.name}.before-restore")
                shutil.copyfile(self.path, aside)
            atomic_write_bytes(self.path, source.read_bytes())
        return source
