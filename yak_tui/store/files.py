"""The save's bytes on disk: written atomically, decoded with a clear error, and the store's errors.

A write goes to a temp file, is fsynced, replaces the file with `os.replace`, and the directory is
fsynced: the file is always either the old or the new state.
"""

from __future__ import annotations

import gc
import os
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson

from yak_tui.kernel.errors import StoreError  # the store's own errors derive from it

SCHEMA_VERSION = 2
# One version of the save file: (mtime_ns, size, inode). An atomic replace makes a new inode, so two
# writes in one clock tick with the same size still differ.
Stamp = tuple[int, int, int]


class CorruptSaveError(StoreError):
    pass


class SaveWriteError(StoreError, OSError):
    """Writing failed (disk full, I/O error...); the file on disk is the one from before."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def stamp_of(st: os.stat_result) -> Stamp:
    return (st.st_mtime_ns, st.st_size, st.st_ino)


def atomic_write_bytes(path: Path, payload: bytes, before_replace: Callable[[Stamp], None] | None = None) -> None:
    """temp → fsync → os.replace → fsync(dir). On any error the old file is untouched.

    `before_replace` gets the stamp the file will have once in place (its inode and mtime do not
    change on rename), before the rename: the change journal is written then."""
    directory = path.parent
    try:
        import tempfile  # a write's: a read never imports it (shutil, bz2, random)

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
            written = stamp_of(os.fstat(handle.fileno()))
        if before_replace is not None:
            before_replace(written)
        os.replace(tmp_name, path)
    except BaseException as error:
        try:
            os.unlink(tmp_name)
        except FileNotFoundError:
            pass
        if isinstance(error, OSError):
            raise _write_error(path, error) from error
        raise
    fsync_dir(directory)


def write_private_bytes(target: Path, payload: bytes) -> None:
    """Replace a secret file beside the save in one step: a temp file made with O_CREAT|O_EXCL and
    mode 0600 (mkstemp) before a byte is written, fsynced, then renamed into place (a link there is
    replaced, never followed). Raises OSError; nothing is left behind on failure."""
    import tempfile  # a write's: a read never imports it (shutil, bz2, random)

    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            if hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), 0o600)
            handle.write(payload)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
    except OSError:
        try:
            os.unlink(tmp_name)
        except OSError:
            pass
        raise


def os_reason(error: OSError) -> str:
    """What the system said, without the `[Errno N]` noise."""
    if isinstance(error, SaveWriteError):
        return error.reason
    return error.strerror or str(error) or type(error).__name__


def _write_error(path: Path, error: OSError) -> SaveWriteError:
    reason = os_reason(error)
    return SaveWriteError(f"cannot write {path}: {reason}; the file on disk was left as it was", reason)


def restore_hint(path: Path) -> str:
    return f"run `yak --save {path} restore` to list backups, then `yak --save {path} restore NAME`"


@contextmanager
def collector_paused(freeze: bool = True) -> Iterator[None]:
    """Pause the cyclic garbage collector while a save is parsed, then freeze what it made.

    Parsing a big save makes a million objects, none of them garbage: with the collector on,
    orjson.loads is 3x slower, and afterwards every full collection would walk them all again.
    `gc.freeze` moves them out of the collector's sight; plain JSON holds no reference cycles,
    so reference counting still frees them when the world is dropped. `freeze=False` only pauses
    it (a season's close: it makes thousands of documents, and what else it made must stay
    collectable)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if freeze:
            gc.freeze()
        if was_enabled:
            gc.enable()


# The logs: the tables a play appends to (the dice, the chronicle, the season reports). A save writes
# them last; they are most of its bytes (80% at 100x) and of its parse. A read of a save vouched for
# parses the rest first and each of these only when first asked for (`DeferredLogs`): the dashboard's
# first frame and `yak orders` read none of them, `yak log` the chronicle alone (issue 30).
LOG_TABLES = ("dice", "chronicle", "reports")
# Where each log table begins in a save's bytes: the offset of the comma before its key, in the
# order they are written (what a vouch signs as `logs_at`).
LogOffsets = dict[str, int]


def encode_save(data: dict[str, Any]) -> tuple[bytes, LogOffsets | None]:
    """The save's bytes (exactly `orjson.dumps(data)`), and where each log table begins when the logs
    are its last tables (None otherwise): the other tables are then `payload[:first] + b"}"`, and a
    log table's documents the bytes after its `,"name":` up to the next log's comma (or the closing
    brace). Made as one dump per part joined, which costs one copy of the bytes, not a second
    serialisation."""
    names = list(data)
    logs = [name for name in names if name in LOG_TABLES]
    if not logs or len(logs) == len(names) or names[-len(logs) :] != logs:
        return orjson.dumps(data), None
    head = orjson.dumps({name: data[name] for name in names[: -len(logs)]})
    parts: list[bytes | memoryview] = [memoryview(head)[:-1]]
    offsets: LogOffsets = {}
    at = len(head) - 1
    for name in logs:
        part = orjson.dumps({name: data[name]})
        offsets[name] = at
        parts += (b",", memoryview(part)[1:-1])
        at += len(part) - 1  # its comma, then its bytes without the braces
    parts.append(b"}")
    return b"".join(parts), offsets


class DeferredLogs:
    """The log tables of a save read in parts (`decode_save_split`): their bytes, each table parsed
    on its first `load` and then handed out as that one object. The worlds an app makes from one read
    (`World.with_changes`) share it, as they share the tables no write touched."""

    def __init__(self, path: Path, raw: bytes, spans: dict[str, tuple[int, int]]) -> None:
        self.path = path
        self._raw: bytes | None = raw
        self._spans = dict(spans)  # table -> (start, end) of its documents' bytes, not parsed yet
        self.order = tuple(spans)  # the log tables in the save's order
        self._parsed: dict[str, dict[str, Any]] = {}
        self._failed: dict[str, CorruptSaveError] = {}
        self._lock = threading.Lock()  # one parse of a table, whichever thread or world asks first

    def may_hold(self, name: str, marker: bytes) -> bool:
        """Whether table `name`, not parsed yet, may hold `marker`. A vouched save's bytes are
        orjson's compact form, so a document with a field set (`b'"pending":true'`) has those bytes:
        False means none does, with no parse (a search through the bytes, ~1 ms a megabyte)."""
        raw, span = self._raw, self._spans.get(name)
        if span is None or raw is None:
            return True
        return raw.find(marker, *span) != -1

    def parsed(self, name: str) -> dict[str, Any] | None:
        """Log table `name`'s documents if a `load` has parsed them, else None (no parse)."""
        return self._parsed.get(name)

    def load(self, name: str) -> dict[str, Any]:
        """Log table `name`'s documents, parsed on the first call (the save's bytes are let go with
        the last table's parse, so a big save's bytes and all its logs are not both held). Bytes that
        do not parse raise `CorruptSaveError`, now and on every later call."""
        with self._lock:
            if name in self._parsed:
                return self._parsed[name]
            if name in self._failed:
                raise self._failed[name]
            span = self._spans.get(name)
            if span is None or self._raw is None:
                raise KeyError(f"the save's logs hold no table {name!r}")
            try:
                table = _table(self.path, name, memoryview(self._raw)[span[0] : span[1]])
            except CorruptSaveError as error:
                self._failed[name] = error
                raise
            self._parsed[name] = table
            del self._spans[name]
            if not self._spans:
                self._raw = None
            return table


def decode_save_split(path: Path, raw: bytes, offsets: LogOffsets) -> tuple[dict[str, Any], DeferredLogs] | None:
    """The tables before the logs, and the logs' bytes for later; None when `offsets` (from a vouch
    for exactly these bytes) do not split them there: the caller then decodes them whole."""
    ends = [*list(offsets.values())[1:], len(raw) - 1]
    spans: dict[str, tuple[int, int]] = {}
    for (name, at), end in zip(offsets.items(), ends, strict=True):
        key = b',"%s":' % name.encode()
        if name not in LOG_TABLES or type(at) is not int or not 0 < at < end or not raw.startswith(key, at):
            return None
        spans[name] = (at + len(key), end)
    if not spans or not raw.endswith(b"}"):
        return None
    first = next(iter(offsets.values()))
    try:
        head = _tables(path, b"".join((memoryview(raw)[:first], b"}")))
    except CorruptSaveError:
        return None
    if not head or any(name in head for name in LOG_TABLES):
        return None
    return head, DeferredLogs(path, raw, spans)


def decode_save(path: Path, raw: bytes) -> dict[str, Any]:
    """Parse the bytes of a save, or say clearly what is wrong with it."""
    return _tables(path, raw)


def _tables(path: Path, raw: bytes) -> dict[str, Any]:
    if not raw.strip():
        raise CorruptSaveError(f"save {path} is empty; it was left untouched. {restore_hint(path)}")
    data = _parsed(path, raw)
    if not isinstance(data, dict):
        raise CorruptSaveError(
            f"save {path} is not a yak_tui world (expected tables of documents); "
            f"it was left untouched. {restore_hint(path)}"
        )
    for name, table in data.items():
        _check_table(path, name, table)
    return data


def _table(path: Path, name: str, raw: bytes | memoryview) -> dict[str, Any]:
    """One table's documents, parsed from their own bytes (a deferred log's)."""
    table = _parsed(path, raw)
    _check_table(path, name, table)
    return table  # type: ignore[no-any-return]


def _parsed(path: Path, raw: bytes | memoryview) -> Any:
    try:
        with collector_paused():
            return orjson.loads(raw)
    except orjson.JSONDecodeError as error:
        raise CorruptSaveError(
            f"save {path} is not valid JSON ({error}); it was left untouched. {restore_hint(path)}"
        ) from None


def _check_table(path: Path, name: str, table: Any) -> None:
    if not isinstance(table, dict):
        raise CorruptSaveError(
            f"save {path}: table {name!r} must be a table of documents, not a {type(table).__name__}; "
            f"it was left untouched. {restore_hint(path)}"
        )


Data = dict[str, dict[str, Any]]
