"""Crash-safe TinyDB storage and the one transaction path for the world file.

The file is always either the old or the new state: a write goes to a temp file,
is fsynced, replaces the save with `os.replace`, and the directory is fsynced.
Every read reopens the path, so other processes' writes are seen at once. A save reached
through a symlink is the link's target: its lock, temp files and backups live beside the target.

Three sidecars live beside the save. None is ever believed over the save itself:

- `<save>.key`: the campaign's secret (32 random bytes, mode 0600), made by the first write that
  needs it. Only a regular file owned by this user and readable by nobody else is a key; anything
  else is no key (and the next write replaces it). It is never copied into a backup nor printed.
- `<save>.changes` (the change journal) lists the documents the last few commands wrote, so a
  reader holding the world from before them can apply those instead of re-reading the whole save.
  Each entry is signed with the key (HMAC-SHA256) and names the sha256 of the save it wrote: a
  reader applies a chain of entries only when every one is signed and the save on disk has the
  last one's digest; anything else is a full read. Every other write removes it first; deleting it
  is always safe (readers then read in full).
- `<save>.vouch` says that the save's exact bytes (their sha256) passed the checks a read runs
  (`VOUCHABLE`), under which rules and schema version, signed with the key: a reader whose bytes
  match a vouch that verifies skips those checks. A writer vouches only for what it knows is valid
  (the state it read was checked in full or under a verified vouch, and what it changed passes the
  checks); any other bytes, a hand edit, a vouch written by hand, other rules, are checked in full.
"""

from __future__ import annotations

import errno
import gc
import hashlib
import hmac
import os
import re
import secrets
import stat
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from tinydb.storages import Storage

if TYPE_CHECKING:
    from filelock import FileLock

SCHEMA_VERSION = 2
# One version of the save file: (mtime_ns, size, inode). An atomic replace makes a new inode, so two
# writes in one clock tick with the same size still differ.
Stamp = tuple[int, int, int]
JOURNAL_SUFFIX = ".changes"
JOURNAL_KEEP = 8  # writes the change journal remembers
# A write that changed more documents than this (a season's close) is no journal entry: each later
# write rewrites the journal whole, and a reader applying thousands of documents saves little over
# reading the save.
JOURNAL_MAX_DOCS = 1000


def _replace_sidecar(target: Path, payload: bytes) -> None:
    """Replace a file beside the save (the journal, the vouch) in one step: written to a temp file
    the sweep knows (`.<name>.*.tmp`), then renamed over it. Not fsynced: losing one only means a
    full read."""
    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
        os.replace(tmp_name, target)
    except BaseException:
        os.unlink(tmp_name)
        raise


def journal_worthy(changed: Mapping[str, list[str]]) -> bool:
    """Whether a write that changed these documents goes into the change journal."""
    return sum(map(len, changed.values())) <= JOURNAL_MAX_DOCS


VOUCH_SUFFIX = ".vouch"
_VOUCH_MOST = 4096  # bytes of a vouch file read
KEY_SUFFIX = ".key"
KEY_BYTES = 32  # the campaign's secret: HMAC-SHA256 keys of the vouch and the journal's entries
# What each MAC is over starts with its purpose, so one sidecar's MAC never passes for another's.
_VOUCH_MAC_PURPOSE = b"yak_tui vouch 1\n"
_JOURNAL_MAC_PURPOSE = b"yak_tui change journal entry 1\n"
_MAC_HEX = 64  # characters of a hex HMAC-SHA256
_DIGEST_IN_THREAD = 1 << 20  # bytes from which a reader hashes the save in a thread while it is parsed
# Bytes of the save read and hashed at a time to check it against the journal: a buffer that stays in
# the CPU's caches (8 MiB reads were 40% slower at 52 MB), in few enough rounds for the GIL.
_DIGEST_CHUNK = 1 << 20
LOCK_TIMEOUT = 30.0  # seconds a command waits for another one to finish with the save
# The random part tempfile.mkstemp puts in a name: how we know a temp file is one of ours.
_MKSTEMP_PART = r"[a-z0-9_]{8}"
_NOT_PERMITTED = (errno.EACCES, errno.EPERM, errno.EROFS)

# Checks every world must pass when it is read, fn(data) raising ValueError with a message that
# names the table, id and field. The world layer registers its schema validation here: the store
# does not know what a document looks like.
LOAD_CHECKS: list[Callable[[dict[str, Any]], None]] = []


@dataclass(frozen=True)
class Vouchable:
    """A load check a vouch may stand for (the schema validation: the costly one).

    `check` is the load check itself; `check_written(data, changed)` checks only the documents a
    write changed ({table: [ids]}, the meta table always), as a reader applying them would; `rules`
    names the rules' version: a vouch made under other rules is not trusted."""

    check: Callable[[dict[str, Any]], None]
    check_written: Callable[[dict[str, Any], Mapping[str, list[str]]], None]
    rules: Callable[[], str]


VOUCHABLE: list[Vouchable] = []


from yak_tui.kernel.errors import StoreError  # noqa: E402  (re-exported: the store's own errors derive from it)


class CorruptSaveError(StoreError):
    pass


class SaveWriteError(StoreError, OSError):
    """Writing failed (disk full, I/O error...); the file on disk is the one from before."""

    def __init__(self, message: str, reason: str) -> None:
        super().__init__(message)
        self.reason = reason


def _fsync_dir(directory: Path) -> None:
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
    _fsync_dir(directory)


def _reason(error: OSError) -> str:
    """What the system said, without the `[Errno N]` noise."""
    if isinstance(error, SaveWriteError):
        return error.reason
    return error.strerror or str(error) or type(error).__name__


def _write_error(path: Path, error: OSError) -> SaveWriteError:
    reason = _reason(error)
    return SaveWriteError(f"cannot write {path}: {reason}; the file on disk was left as it was", reason)


def restore_hint(path: Path) -> str:
    return f"run `yak --save {path} restore` to list backups, then `yak --save {path} restore NAME`"


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a save is parsed, then freeze what it made.

    Parsing a big save makes a million objects, none of them garbage: with the collector on,
    orjson.loads is 3x slower, and afterwards every full collection would walk them all again.
    `gc.freeze` moves them out of the collector's sight; plain JSON holds no reference cycles,
    so reference counting still frees them when the world is dropped."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        if was_enabled:
            gc.enable()


def decode_save(path: Path, raw: bytes) -> dict[str, Any]:
    """Parse the bytes of a save, or say clearly what is wrong with it."""
    if not raw.strip():
        raise CorruptSaveError(f"save {path} is empty; it was left untouched. {restore_hint(path)}")
    try:
        with collector_paused():
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
            drop_journal(self.path)
            drop_vouch(self.path)
            atomic_write_bytes(self.path, b"{}")

    def read_bytes(self) -> bytes:
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            raise StoreError(f"no save at {self.path}; create one with `yak new {self.path} --demo`") from None
        except OSError as error:
            raise StoreError(f"cannot read save {self.path}: {error.strerror}") from None

    def read(self) -> dict[str, dict[str, Any]] | None:
        return decode_save(self.path, self.read_bytes())

    def write(self, data: dict[str, dict[str, Any]]) -> None:
        """Replace the save with `data`, dropping the change journal first (it cannot say what this write changed)."""
        payload = orjson.dumps(data)
        drop_journal(self.path)
        drop_vouch(self.path)
        atomic_write_bytes(self.path, payload)

    def close(self) -> None:
        pass


Data = dict[str, dict[str, Any]]


def journal_path(save: Path) -> Path:
    return save.with_name(save.name + JOURNAL_SUFFIX)


def drop_journal(save: Path) -> None:
    """Remove the save's change journal: called before every write that does not extend it, so no
    reader can apply a chain of changes to a different world. Not removable: the save is not written."""
    try:
        journal_path(save).unlink()
    except FileNotFoundError:
        pass
    except OSError as error:
        raise SaveWriteError(
            f"cannot write {save}: its change journal {journal_path(save)} cannot be removed "
            f"({_reason(error)}); the file on disk was left as it was",
            _reason(error),
        ) from None


def _mac(key: bytes, purpose: bytes, body: bytes) -> str:
    return hmac.new(key, purpose + body, hashlib.sha256).hexdigest()


def _journal_line(key: bytes, entry: bytes) -> bytes:
    """One entry of the journal as written: `<hex HMAC> <entry JSON>` (orjson never writes a newline)."""
    return _mac(key, _JOURNAL_MAC_PURPOSE, entry).encode() + b" " + entry + b"\n"


def _signed_entry(key: bytes, line: bytes) -> dict[str, Any] | None:
    """The entry one line of the journal holds, if its MAC verifies under the campaign's key (else
    None: written by hand, under another key, or spoilt). The MAC is checked on the bytes as they
    are, before they are parsed."""
    mac, _, body = line.partition(b" ")
    if len(mac) != _MAC_HEX or not body:
        return None
    if not hmac.compare_digest(mac, _mac(key, _JOURNAL_MAC_PURPOSE, body).encode()):
        return None
    try:
        entry = orjson.loads(body)
    except orjson.JSONDecodeError:
        return None
    return entry if isinstance(entry, dict) else None


def _entry_docs(entry: Any) -> Data | None:
    """An entry's documents, if the entry is well formed and of this schema version (else None)."""
    if not isinstance(entry, dict) or entry.get("schema_version") != SCHEMA_VERSION:
        return None
    docs = entry.get("docs")
    if not isinstance(docs, dict) or not all(isinstance(table, dict) for table in docs.values()):
        return None
    meta = docs.get("meta")
    world = meta.get("world") if isinstance(meta, dict) else None
    if not isinstance(world, dict) or world.get("schema_version") != SCHEMA_VERSION:
        return None
    return docs


def vouch_path(save: Path) -> Path:
    return save.with_name(save.name + VOUCH_SUFFIX)


def drop_vouch(save: Path) -> None:
    """Remove the save's vouch before a write that cannot vouch. Best effort: a vouch names the
    digest of the bytes it is for, so one left behind never matches the new save."""
    try:
        vouch_path(save).unlink(missing_ok=True)
    except OSError:
        pass


def key_path(save: Path) -> Path:
    return save.with_name(save.name + KEY_SUFFIX)


def read_campaign_key(save: Path) -> bytes | None:
    """The campaign's secret beside the save, if the file is one to trust: a regular file (not a
    link, nor a pipe that would block), owned by this process's user, with no group or other
    permission bits, exactly KEY_BYTES long. Anything else, or a file that cannot be read, is no
    key: no vouch and no journal entry verifies, and readers read and validate the save in full."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(key_path(save), flags)
    except OSError:
        return None
    try:
        found = os.fstat(fd)
        owner = getattr(os, "geteuid", None)
        if (
            not stat.S_ISREG(found.st_mode)
            or found.st_mode & 0o077
            or found.st_size != KEY_BYTES
            or (owner is not None and found.st_uid != owner())
        ):
            return None
        key = os.read(fd, KEY_BYTES + 1)
    except OSError:
        return None
    finally:
        os.close(fd)
    return key if len(key) == KEY_BYTES else None


def make_campaign_key(save: Path) -> bytes | None:
    """A new secret for the campaign, replacing whatever file is at `<save>.key` (call it under the
    save's lock): 32 random bytes in a temp file made with O_CREAT|O_EXCL and mode 0600 (mkstemp),
    fsynced, then renamed into place (a link there is replaced, never followed). None when it cannot
    be written: the write goes on without a vouch or a journal entry."""
    target = key_path(save)
    key = secrets.token_bytes(KEY_BYTES)
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    except OSError:
        return None
    try:
        with os.fdopen(fd, "wb") as handle:
            if hasattr(os, "fchmod"):
                os.fchmod(handle.fileno(), 0o600)
            handle.write(key)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp_name, target)
    except OSError:
        try:
            os.unlink(tmp_name)
        except OSError:
            pass
        return None
    _fsync_dir(target.parent)
    return key


def drop_campaign_key(save: Path) -> None:
    """Remove the campaign's secret (a new campaign at this path gets its own). Best effort."""
    try:
        key_path(save).unlink(missing_ok=True)
    except OSError:
        pass


def _vouch_mac(key: bytes, digest: str, schema_version: Any, rules: Any) -> str:
    return _mac(key, _VOUCH_MAC_PURPOSE, orjson.dumps([digest, schema_version, rules]))


def _vouched_rules() -> str:
    """The rules a vouch is made under: each vouchable check's rules."""
    return "|".join(vouchable.rules() for vouchable in VOUCHABLE)


class _Digest:
    """The sha256 of a payload, computed in a thread for a big one (hashlib releases the GIL, so it
    runs beside `orjson.loads` or the write's fsync), at once for a small one."""

    def __init__(self, payload: bytes) -> None:
        self._payload: bytes | None = payload
        self._hex = ""
        self._thread: threading.Thread | None = None
        if len(payload) < _DIGEST_IN_THREAD:
            self._run()
        else:
            self._thread = threading.Thread(target=self._run, name="yak-save-digest", daemon=True)
            self._thread.start()

    def _run(self) -> None:
        assert self._payload is not None
        self._hex = hashlib.sha256(self._payload).hexdigest()
        self._payload = None

    def hexdigest(self) -> str:
        if self._thread is not None:
            self._thread.join()
        return self._hex


@dataclass
class Snapshot:
    """What a transaction read: the exact bytes on disk and the state decoded from them.

    `changed` ({table: [ids]}), set by the caller before the transaction ends, says which
    documents it wrote (the meta table always counts): the write then extends the change journal.
    Left None, the write drops the journal and readers read the save in full."""

    raw: bytes
    data: Data
    stamp: Stamp | None = None  # the version read, when it held still while it was read
    changed: dict[str, list[str]] | None = None
    # Whether `data` is known to pass the checks a vouch stands for (a read ran them, or a verified
    # vouch stood for them): only then does a write that says what it changed check just that.
    checked: bool = False


class WorldFile:
    """One world save on disk: locked transactions, backups, restore.

    The path is resolved once, here: through a symlink, every write, the lock, the temp files and
    the backups are the target's, so the link stays a link and both names share one lock.
    """

    def __init__(self, path: str | os.PathLike[str], lock_timeout: float | None = None) -> None:
        self.path = Path(os.path.realpath(path))
        self.storage = AtomicOrjsonStorage(self.path)
        self._lock_timeout = LOCK_TIMEOUT if lock_timeout is None else lock_timeout
        self._lock: FileLock | None = None
        self._lock_made = threading.Lock()  # two threads of one app never make two locks for one save

    @property
    def lock(self) -> FileLock:
        """The save's lock, made on first use: a process that only reads (`yak show`) never imports filelock."""
        with self._lock_made:
            if self._lock is None:
                from filelock import FileLock

                self._lock = FileLock(str(self.path) + ".lock", timeout=self._lock_timeout)
            return self._lock

    @property
    def backup_dir(self) -> Path:
        return self.path.parent / "backups"

    def exists(self) -> bool:
        return self.path.exists()

    def stamp(self) -> Stamp | None:
        """Cheap change detector for live refresh: which version of the file is there now."""
        try:
            st = self.path.stat()
        except FileNotFoundError:
            return None
        return stamp_of(st)

    @property
    def journal(self) -> Path:
        return journal_path(self.path)

    @property
    def key(self) -> Path:
        return key_path(self.path)

    def changes_between(self, held: Stamp, now: Stamp) -> list[Data] | None:
        """The documents each write from version `held` to version `now` wrote, oldest first, read
        from the change journal; None when it cannot say: the caller then reads the save in full.

        The journal is only a hint, checked against the save: every entry of the chain must be
        signed with the campaign's key (a yak writer made it), the chain must run unbroken from
        `held` to `now`, and the save's bytes on disk must have the sha256 the last entry says it
        wrote. A missing or untrusted key, an entry written or edited by hand, another schema
        version, a save edited by hand or replaced since: None."""
        key = read_campaign_key(self.path)
        if key is None:
            return None
        try:
            raw = self.journal.read_bytes()
        except OSError:
            return None
        chain: list[Data] = []
        at: Any = list(held)
        for line in raw.splitlines():
            entry = _signed_entry(key, line)
            if not chain and (entry is None or entry.get("before") != at):
                continue
            docs = _entry_docs(entry)
            if entry is None or docs is None or entry.get("before") != at:
                return None
            chain.append(docs)
            at = entry.get("after")
            if at == list(now):
                return chain if self._save_digest() == entry.get("after_sha256") else None
        return None

    def _save_digest(self) -> str | None:
        """The sha256 of the save's bytes on disk now; None if it cannot be read. Read and hashed in
        chunks of a MiB: both release the GIL, and each chunk costs the reader's thread one round
        trip for it (an app's screen, on the main thread, then waits for it some tens of times, not
        hundreds), and no copy of a big save is kept."""
        digest = hashlib.sha256()
        chunk = bytearray(_DIGEST_CHUNK)
        view = memoryview(chunk)
        try:
            with open(self.path, "rb", buffering=0) as handle:
                while size := handle.readinto(chunk):
                    digest.update(view[:size])
        except OSError:
            return None
        return digest.hexdigest()

    def _extend_journal(
        self, before: Stamp, after: Stamp, changed: dict[str, list[str]], data: Data, after_sha256: str, key: bytes
    ) -> None:
        """Append this write to the change journal (written before the save is replaced, so a reader
        that sees the new save finds its entry), signed with the campaign's key and naming the
        sha256 of the save it writes. Best effort: a journal that cannot be written is removed, and
        readers read in full."""
        docs: Data = {
            table: {doc_id: data.get(table, {}).get(doc_id) for doc_id in ids}
            for table, ids in changed.items()
            if ids and table != "meta"
        }
        docs["meta"] = data.get("meta", {})  # the whole meta table, always
        version = data.get("meta", {}).get("world", {}).get("schema_version", SCHEMA_VERSION)
        entry = {
            "before": list(before),
            "after": list(after),
            "after_sha256": after_sha256,
            "schema_version": version,
            "docs": docs,
        }
        try:
            line = _journal_line(key, orjson.dumps(entry))
            try:
                earlier = self.journal.read_bytes().splitlines(keepends=True)
            except FileNotFoundError:
                earlier = []
            last = _signed_entry(key, earlier[-1].rstrip(b"\n")) if earlier else None
            chained = last is not None and last.get("after") == list(before)
            lines = [*earlier[-(JOURNAL_KEEP - 1) :], line] if chained else [line]
            _replace_sidecar(self.journal, b"".join(lines))
        except (OSError, TypeError, orjson.JSONEncodeError):
            try:
                self.journal.unlink(missing_ok=True)
            except OSError:
                pass  # its chain ends before this write: no reader can follow it past it

    def read(self) -> Data:
        """The current state, migrated to this version's schema (in memory; written on next command)."""
        return self._decode(self.storage.read_bytes())

    def _decode(self, raw: bytes) -> Data:
        return self._decode_migrating(raw)[0]

    @property
    def vouch(self) -> Path:
        return vouch_path(self.path)

    def _vouched_digest(self) -> str | None:
        """The digest the save's vouch stands for, if it is a vouch made under this yak's rules and
        signed with the campaign's key (a vouch without a MAC, the format before issue 25, or one
        whose MAC does not verify, or no trusted key: none)."""
        if not VOUCHABLE:
            return None
        key = read_campaign_key(self.path)
        if key is None:
            return None
        try:
            with open(self.vouch, "rb") as handle:
                vouch = orjson.loads(handle.read(_VOUCH_MOST))  # a vouch is ~300 bytes: a bigger file is none
        except (OSError, orjson.JSONDecodeError):
            return None
        if (
            not isinstance(vouch, dict)
            or vouch.get("schema_version") != SCHEMA_VERSION
            or vouch.get("rules") != _vouched_rules()
        ):
            return None
        digest, mac = vouch.get("sha256"), vouch.get("hmac")
        if not isinstance(digest, str) or not isinstance(mac, str):
            return None
        expected = _vouch_mac(key, digest, vouch["schema_version"], vouch["rules"])
        return digest if hmac.compare_digest(mac.encode(), expected.encode()) else None

    def _decode_migrating(self, raw: bytes) -> tuple[Data, bool, bool]:
        """The state; whether a migration changed it (its next write is then no journal entry); and
        whether the checks a vouch stands for hold for it (they ran, or a verified vouch for
        exactly these bytes stood for them): only then may a write check no more than what it changed.

        Every load check runs, but those a vouch for exactly these bytes stands for (made under
        this yak's rules and signed with the campaign's key; read only, never written here)."""
        from yak_tui.store.migrations import migrate, schema_version

        vouched = self._vouched_digest()
        digest = _Digest(raw) if vouched is not None else None
        data = decode_save(self.path, raw)
        meta = data.get("meta", {}).get("world")
        if not isinstance(meta, dict):
            raise CorruptSaveError(
                f"save {self.path} has no world metadata (meta.world); it is not a yak_tui world. "
                f"{restore_hint(self.path)}"
            )
        date = meta.get("date")
        if not (
            isinstance(date, dict)
            and isinstance(date.get("year"), int)
            and date.get("season") in ("Spring", "Summer", "Autumn", "Winter")
        ):
            raise CorruptSaveError(
                f"save {self.path} has no valid date in meta.world (found {date!r}). {restore_hint(self.path)}"
            )
        migrated = schema_version(data, self.path) != SCHEMA_VERSION
        data = migrate(data, SCHEMA_VERSION, self.path)
        trusted = digest is not None and not migrated and digest.hexdigest() == vouched
        skipped = {vouchable.check for vouchable in VOUCHABLE} if trusted else set()
        ran: set[Callable[[dict[str, Any]], None]] = set()
        for check in LOAD_CHECKS:
            if check in skipped:
                continue
            try:
                check(data)
            except ValueError as error:
                raise CorruptSaveError(
                    f"save {self.path}: {error}; it was left untouched. {restore_hint(self.path)}"
                ) from error
            ran.add(check)
        checked = all(vouchable.check in ran or vouchable.check in skipped for vouchable in VOUCHABLE)
        return data, migrated, checked

    def _is_backup_name(self, name: str) -> bool:
        # `stem--label--stamp.json`: the double dash keeps world-2.json's backups out of world.json's.
        return name.endswith(".json") and name.count("--") == 2 and name.split("--")[0] == self.path.stem

    def sweep_temp_files(self) -> int:
        """Remove the temp files a killed writer left behind, beside the save and in backups/.

        Call only while holding the lock (no writer of ours is then running), and only names we
        make: the save's own temps and its backups' temps, never another save's or a stranger's.
        """
        own = re.compile(
            rf"\.{re.escape(self.path.name)}(\.before-restore|{re.escape(JOURNAL_SUFFIX)}|{re.escape(VOUCH_SUFFIX)}"
            rf"|{re.escape(KEY_SUFFIX)})?"
            rf"\.{_MKSTEMP_PART}\.tmp"
        )
        stale = [p for p in self.path.parent.glob(f".{self.path.name}.*.tmp") if own.fullmatch(p.name)]
        if self.backup_dir.is_dir():
            backup_temp = re.compile(rf"\.(.+)\.{_MKSTEMP_PART}\.tmp")
            for candidate in self.backup_dir.glob(f".{self.path.stem}--*.tmp"):
                found = backup_temp.fullmatch(candidate.name)
                if found and self._is_backup_name(found.group(1)):
                    stale.append(candidate)
        removed = 0
        for path in stale:
            try:
                path.unlink()
                removed += 1
            except OSError:
                pass
        return removed

    def create(self, data: Data, overwrite: bool = False) -> None:
        if self.path.exists() and not overwrite:
            raise StoreError(f"{self.path} already exists; choose another path")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(f"cannot create the directory {self.path.parent}: {_reason(error)}") from None
        with self._locked():
            self._require_writable()
            drop_campaign_key(self.path)  # a new campaign gets its own secret (made by the write below)
            self._write(Snapshot(b"", data))

    @contextmanager
    def locked(self) -> Iterator[None]:
        """Hold the save's lock across several steps (a command's transaction and the stamp taken
        right after it): no other process writes between them. The lock is re-entrant in a process."""
        with self._locked():
            yield

    @contextmanager
    def _locked(self) -> Iterator[None]:
        """Hold the save's lock. Not getting it is a one-line error, and nothing is changed."""
        directory = self.path.parent
        if not directory.is_dir():
            # Checked first: taking the lock would create the missing directories.
            problem = "does not exist" if not directory.exists() else "is not a directory"
            raise StoreError(
                f"the save {self.path} cannot be written: its directory {directory} {problem}; nothing was changed"
            )
        from filelock import Timeout

        lock = self.lock
        try:
            lock.acquire()
        except Timeout:
            raise StoreError(
                f"the save {self.path} is locked by another process (lock {lock.lock_file}), still after "
                f"{lock.timeout:g} s; nothing was changed, try again when it is done"
            ) from None
        except OSError as error:
            raise self._lock_error(error) from None
        try:
            yield
        finally:
            lock.release()

    def _lock_error(self, error: OSError) -> StoreError:
        lock_file = self.lock.lock_file
        reason = _reason(error)
        if error.errno in _NOT_PERMITTED and not os.path.lexists(lock_file):
            return StoreError(
                f"the save's directory {self.path.parent} is not writable ({reason}): the lock file "
                f"{lock_file} cannot be created; nothing was changed"
            )
        return StoreError(
            f"the save {self.path} cannot be locked: the lock file {lock_file} cannot be opened "
            f"({reason}); nothing was changed"
        )

    def _require_writable(self) -> None:
        """Refuse at the start, with the reason, a write that would fail at the end; and refuse to
        replace a save its owner made read-only (an atomic replace would otherwise go through)."""
        directory = self.path.parent
        if not os.access(directory, os.W_OK):
            raise StoreError(
                f"the save's directory {directory} is not writable, so the save {self.path} cannot be "
                f"replaced; nothing was changed"
            )
        if self.path.exists() and not os.access(self.path, os.W_OK):
            raise StoreError(
                f"the save {self.path} is read-only; nothing was changed "
                f"(to play on, make it writable: chmod u+w {self.path})"
            )

    @contextmanager
    def transaction(self) -> Iterator[Data]:
        """Lock, reload, hand out the state; on a clean exit write it once, else write nothing."""
        with self.transaction_with_bytes() as snapshot:
            yield snapshot.data

    @contextmanager
    def transaction_with_bytes(self) -> Iterator[Snapshot]:
        """The transaction, also handing out the exact bytes it read (to back up precisely those)."""
        with self._locked():
            self._require_writable()
            self.sweep_temp_files()
            before = self.stamp()
            raw = self.storage.read_bytes()
            data, migrated, checked = self._decode_migrating(raw)
            if migrated or self.stamp() != before:  # a migration, or changed while read (by hand)
                before = None  # written with no journal entry: readers read it in full
            snapshot = Snapshot(raw, data, before, checked=checked)
            yield snapshot
            self._write(snapshot)

    def _write(self, snapshot: Snapshot) -> None:
        """Write a transaction's state: extending the change journal when the transaction said what
        it changed and knew which version it started from, else dropping it; vouching for the bytes
        when they are known to pass the vouchable checks, else dropping the vouch. Both are signed
        with the campaign's key (made now if there is none to trust); without one, neither is written."""
        before, changed, data = snapshot.stamp, snapshot.changed, snapshot.data
        payload = orjson.dumps(data)
        vouched = self._passes_vouchable_checks(data, changed if snapshot.checked else None)
        journaled = before is not None and changed is not None and journal_worthy(changed)
        key = None
        if vouched or journaled:
            key = read_campaign_key(self.path) or make_campaign_key(self.path)
            if key is None:
                vouched = journaled = False
        if not journaled:
            drop_journal(self.path)
        if not vouched:
            drop_vouch(self.path)
        digest = _Digest(payload) if key is not None else None

        def before_replace(after: Stamp) -> None:
            if digest is None or key is None:
                return
            written = digest.hexdigest()
            if vouched:
                self._write_vouch(written, key)
            if journaled:
                assert before is not None and changed is not None
                self._extend_journal(before, after, changed, data, written, key)

        atomic_write_bytes(self.path, payload, before_replace=before_replace)

    def _passes_vouchable_checks(self, data: Data, changed: Mapping[str, list[str]] | None) -> bool:
        """Whether the state about to be written passes the checks a vouch stands for. With `changed`
        (the caller passes it only for a state known to pass them: a read ran them, or a verified
        vouch stood for them), only those documents are checked; otherwise the whole state."""
        try:
            for vouchable in VOUCHABLE:
                if changed is None:
                    vouchable.check(data)
                else:
                    vouchable.check_written(data, changed)
        except (ValueError, TypeError, KeyError):
            return False  # not vouched for: the next read checks it in full, and says what is wrong
        return bool(VOUCHABLE)

    def _write_vouch(self, digest: str, key: bytes) -> None:
        """Write the vouch for the save about to replace this one (before the replace, so a reader of
        the new save finds it; a writer killed before the replace leaves a vouch for bytes that
        never landed, which no read trusts), signed with the campaign's key. Best effort: one not
        written is removed."""
        rules = _vouched_rules()
        payload = orjson.dumps(
            {
                "sha256": digest,
                "schema_version": SCHEMA_VERSION,
                "rules": rules,
                "hmac": _vouch_mac(key, digest, SCHEMA_VERSION, rules),
            }
        )
        try:
            _replace_sidecar(self.vouch, payload)
        except OSError:
            drop_vouch(self.path)

    def backup(self, label: str, keep: int = 12, raw: bytes | None = None) -> Path:
        """Copy the save into backups/ under the lock (rotating: only the newest `keep` stay).

        Inside a transaction, pass `raw`, the bytes it read: the backup is then exactly the state
        the transaction started from, whatever other processes did before it took the lock.
        """
        with self._locked():
            if self.backup_dir.exists() and not self.backup_dir.is_dir():
                raise StoreError(
                    f"cannot back up {self.path}: {self.backup_dir} is not a directory "
                    f"(move it aside); nothing was changed"
                )
            self.sweep_temp_files()
            payload = self.storage.read_bytes() if raw is None else raw
            stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S%f")
            target = self.backup_dir / f"{self.path.stem}--{label}--{stamp}.json"
            try:
                self.backup_dir.mkdir(exist_ok=True)
                atomic_write_bytes(target, payload)
            except OSError as error:
                raise StoreError(
                    f"cannot back up {self.path} into {self.backup_dir}: {_reason(error)}; nothing was changed"
                ) from None
            for old in self.backups()[:-keep] if keep > 0 else []:
                old.unlink(missing_ok=True)
        return target

    def backups(self) -> list[Path]:
        if not self.backup_dir.is_dir():
            return []
        found = [p for p in self.backup_dir.glob(f"{self.path.stem}--*--*.json") if self._is_backup_name(p.name)]
        return sorted(found, key=lambda p: p.stem.rsplit("--", 1)[1])

    def restore(self, name: str) -> Path:
        """Replace the save with a backup (which must itself be a valid world), under the lock.

        The file being replaced, corrupt or not, is kept as `<save>.before-restore`: a command that
        ran just before the restore is not lost.
        """
        with self._locked():
            self._require_writable()
            self.sweep_temp_files()
            backups = self.backups()
            candidates = [p for p in backups if p.name == name or p.stem == name]
            if not candidates:
                known = ", ".join(p.name for p in backups) or "none"
                raise StoreError(f"no backup named {name!r}; backups: {known}")
            source = candidates[0]
            try:
                payload = source.read_bytes()
            except OSError as error:
                raise StoreError(f"cannot read the backup {source}: {_reason(error)}; nothing was changed") from None
            decode_save(source, payload)
            if self.path.exists():
                aside = self.path.with_name(f"{self.path.name}.before-restore")
                atomic_write_bytes(aside, self.storage.read_bytes())
            drop_journal(self.path)  # a restore repeats revisions: no chain may reach across it
            drop_vouch(self.path)  # the backup's bytes were not checked here: the next read checks them
            atomic_write_bytes(self.path, payload)
        return source
