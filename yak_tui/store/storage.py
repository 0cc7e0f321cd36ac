"""The one transaction path for the world file: locked, reloaded, written once, backed up, restored.

Every read reopens the path, so other processes' writes are seen at once. A save reached
through a symlink is the link's target: its lock, temp files and backups live beside the target.
The bytes are written atomically (`files`); the key, change journal and vouch beside the save are
`sidecars`; the checks a read runs are registered in `checks`.
"""

from __future__ import annotations

import errno
import os
import re
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson
from tinydb.storages import Storage

from yak_tui.kernel.errors import StoreError
from yak_tui.store import checks
from yak_tui.store.dicesecrets import drop_secrets
from yak_tui.store.files import (
    SCHEMA_VERSION,
    CorruptSaveError,
    Data,
    DeferredLogs,
    Stamp,
    atomic_write_bytes,
    decode_save,
    decode_save_split,
    encode_save,
    fsync_dir,
    os_reason,
    restore_hint,
    stamp_of,
)
from yak_tui.store.migrations import migrate, schema_version
from yak_tui.store.sidecars import (
    JOURNAL_SUFFIX,
    KEY_SUFFIX,
    VOUCH_SUFFIX,
    SaveDigest,
    drop_campaign_key,
    drop_journal,
    drop_vouch,
    extend_journal,
    journal_changes,
    journal_path,
    journal_worthy,
    key_path,
    make_campaign_key,
    read_campaign_key,
    read_vouch,
    vouch_path,
    vouched_digest,
    write_vouch,
)

if TYPE_CHECKING:
    from filelock import FileLock

LOCK_TIMEOUT = 30.0  # seconds a command waits for another one to finish with the save
# The random part tempfile.mkstemp puts in a name: how we know a temp file is one of ours.
_MKSTEMP_PART = r"[a-z0-9_]{8}"
_NOT_PERMITTED = (errno.EACCES, errno.EPERM, errno.EROFS)


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
    # Documents of `changed` ({table: [ids]}) the writer has checked, as they are in `data` when it
    # ends, with checks that accept nothing the vouchable ones refuse (`World.revalidate_touched`):
    # the vouch's check of the written documents leaves them out rather than check them twice.
    prechecked: dict[str, list[str]] | None = None


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
        from the change journal; None when it cannot say: the caller then reads the save in full."""
        return journal_changes(self.path, held, now)

    def read(self) -> Data:
        """The current state, migrated to this version's schema (in memory; written on next command)."""
        return self._decode(self.storage.read_bytes())

    def _decode(self, raw: bytes) -> Data:
        return self._decode_migrating(raw)[0]

    def read_deferring_logs(self) -> tuple[Data, DeferredLogs | None]:
        """`read()`, but with the logs (`files.LOG_TABLES`) left as bytes to parse when first asked
        for, when a verified vouch for exactly these bytes says where they begin and every load
        check it does not stand for reads none of them (`checks.HEAD_CHECKS`); otherwise the
        whole state and None. The digest covers every byte, the logs' too: they are parsed later
        from the bytes read now, which are the bytes the writer checked and vouched for."""
        raw = self.storage.read_bytes()
        vouch = read_vouch(self.path)
        skipped = {vouchable.check for vouchable in checks.VOUCHABLE}
        digest: SaveDigest | None = None
        if (
            vouch is not None
            and vouch[1] is not None
            and all(check in skipped or check in checks.HEAD_CHECKS for check in checks.LOAD_CHECKS)
        ):
            digest = SaveDigest(raw)  # in a thread for a big save, beside the parse
            split = decode_save_split(self.path, raw, vouch[1])
            if split is not None and digest.hexdigest() == vouch[0]:
                head, logs = split
                self._check_world_meta(head)
                if schema_version(head, self.path) == SCHEMA_VERSION:
                    for check in checks.LOAD_CHECKS:
                        if check not in skipped:
                            self._run_load_check(check, head)
                    return head, logs
        return self._decode_migrating(raw, digest)[0], None  # the digest, if made, not made again

    def _check_world_meta(self, data: Data) -> None:
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

    def _run_load_check(self, check: Callable[[dict[str, Any]], None], data: Data) -> None:
        try:
            check(data)
        except ValueError as error:
            raise CorruptSaveError(
                f"save {self.path}: {error}; it was left untouched. {restore_hint(self.path)}"
            ) from error

    @property
    def vouch(self) -> Path:
        return vouch_path(self.path)

    def _decode_migrating(self, raw: bytes, digest: SaveDigest | None = None) -> tuple[Data, bool, bool]:
        """The state; whether a migration changed it (its next write is then no journal entry); and
        whether the checks a vouch stands for hold for it (they ran, or a verified vouch for
        exactly these bytes stood for them): only then may a write check no more than what it changed.

        Every load check runs, but those a vouch for exactly these bytes stands for (made under
        this yak's rules and signed with the campaign's key; read only, never written here).
        `digest`: these bytes' digest, when the caller has already begun it."""
        vouched = vouched_digest(self.path)
        if vouched is not None and digest is None:
            digest = SaveDigest(raw)
        data = decode_save(self.path, raw)
        self._check_world_meta(data)
        migrated = schema_version(data, self.path) != SCHEMA_VERSION
        data = migrate(data, SCHEMA_VERSION, self.path)
        trusted = digest is not None and not migrated and digest.hexdigest() == vouched
        skipped = {vouchable.check for vouchable in checks.VOUCHABLE} if trusted else set()
        ran: set[Callable[[dict[str, Any]], None]] = set()
        for check in checks.LOAD_CHECKS:
            if check in skipped:
                continue
            self._run_load_check(check, data)
            ran.add(check)
        checked = all(vouchable.check in ran or vouchable.check in skipped for vouchable in checks.VOUCHABLE)
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
            raise StoreError(f"cannot create the directory {self.path.parent}: {os_reason(error)}") from None
        with self._locked():
            self._require_writable()
            drop_campaign_key(self.path)  # a new campaign gets its own secret (made by the write below)
            drop_secrets(self.path)  # and its own dice secrets (drawn as its first season opens)
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
        reason = os_reason(error)
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
        payload, logs_at = encode_save(data)
        vouched = self._passes_vouchable_checks(data, changed if snapshot.checked else None, snapshot.prechecked)
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
        digest = SaveDigest(payload) if key is not None else None

        def before_replace(after: Stamp) -> None:
            if digest is None or key is None:
                return
            written = digest.hexdigest()
            if vouched:
                write_vouch(self.path, written, key, logs_at)
            if journaled:
                assert before is not None and changed is not None
                extend_journal(self.path, before, after, changed, data, written, key)

        atomic_write_bytes(self.path, payload, before_replace=before_replace)

    def _passes_vouchable_checks(
        self, data: Data, changed: Mapping[str, list[str]] | None, prechecked: Mapping[str, list[str]] | None = None
    ) -> bool:
        """Whether the state about to be written passes the checks a vouch stands for. With `changed`
        (the caller passes it only for a state known to pass them: a read ran them, or a verified
        vouch stood for them), only those documents are checked, but for those the writer checked
        itself (`prechecked`); otherwise the whole state."""
        try:
            for vouchable in checks.VOUCHABLE:
                if changed is None:
                    vouchable.check(data)
                else:
                    vouchable.check_written(data, changed, prechecked)
        except (ValueError, TypeError, KeyError):
            return False  # not vouched for: the next read checks it in full, and says what is wrong
        return bool(checks.VOUCHABLE)

    def backup(self, label: str, keep: int = 12, raw: bytes | None = None, held: Stamp | None = None) -> Path:
        """Copy the save into backups/ under the lock (rotating: only the newest `keep` stay).

        Inside a transaction, pass `raw`, the bytes it read: the backup is then exactly the state
        the transaction started from, whatever other processes did before it took the lock. With
        `held`, the version those bytes were read from (`Snapshot.stamp`), a save still at that
        version is backed up by a second name for its file (a hard link), not a second write of
        its bytes: every yak write replaces the save with a new file, so once the transaction's
        write lands the backup is the only name of the old one (issue 30: at 1000x the copy was
        75 MB written and fsynced, ~0.3-0.5 CPU-s of a season's close).
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
                if not (held is not None and self._link_backup(target, held)):
                    atomic_write_bytes(target, payload)
            except OSError as error:
                raise StoreError(
                    f"cannot back up {self.path} into {self.backup_dir}: {os_reason(error)}; nothing was changed"
                ) from None
            for old in self.backups()[:-keep] if keep > 0 else []:
                old.unlink(missing_ok=True)
        return target

    def _link_backup(self, target: Path, held: Stamp) -> bool:
        """Name the save's file `target` too, if it is still the version `held` (a hand edit since,
        in place or not, changes its stamp: its bytes are then written instead). False when the
        file system gives no hard link (another device, no links): the caller writes the bytes."""
        try:
            if self.stamp() != held:
                return False
            os.link(self.path, target)
        except OSError:
            return False
        try:
            fsync_dir(target.parent)  # the new name as durable as a written backup's
        except BaseException:
            target.unlink(missing_ok=True)  # no backup rather than one that may not last
            raise
        return True

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
                raise StoreError(f"cannot read the backup {source}: {os_reason(error)}; nothing was changed") from None
            decode_save(source, payload)
            if self.path.exists():
                aside = self.path.with_name(f"{self.path.name}.before-restore")
                atomic_write_bytes(aside, self.storage.read_bytes())
            drop_journal(self.path)  # a restore repeats revisions: no chain may reach across it
            drop_vouch(self.path)  # the backup's bytes were not checked here: the next read checks them
            atomic_write_bytes(self.path, payload)
        return source
