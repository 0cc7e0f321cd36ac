"""The three files beside a save. None is ever believed over the save itself:

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
  (`checks.VOUCHABLE`), under which rules and schema version, signed with the key: a reader whose
  bytes match a vouch that verifies skips those checks. A writer vouches only for what it knows is
  valid (the state it read was checked in full or under a verified vouch, and what it changed
  passes the checks); any other bytes, a hand edit, a vouch written by hand, other rules, are
  checked in full.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import orjson

from yak_tui.store import checks
from yak_tui.store.files import (
    LOG_TABLES,
    SCHEMA_VERSION,
    Data,
    LogOffsets,
    SaveWriteError,
    Stamp,
    fsync_dir,
    os_reason,
    write_private_bytes,
)

JOURNAL_SUFFIX = ".changes"
JOURNAL_KEEP = 8  # writes the change journal remembers
# A write that changed more documents than this (a season's close) is no journal entry: each later
# write rewrites the journal whole, and a reader applying thousands of documents saves little over
# reading the save.
JOURNAL_MAX_DOCS = 1000


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
            f"({os_reason(error)}); the file on disk was left as it was",
            os_reason(error),
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
    import secrets  # a new key's: a read never imports it (random, base64)

    key = secrets.token_bytes(KEY_BYTES)
    try:
        write_private_bytes(target, key)
    except OSError:
        return None
    fsync_dir(target.parent)
    return key


def drop_campaign_key(save: Path) -> None:
    """Remove the campaign's secret (a new campaign at this path gets its own). Best effort."""
    try:
        key_path(save).unlink(missing_ok=True)
    except OSError:
        pass


def _vouch_mac(key: bytes, digest: str, schema_version: Any, rules: Any, logs_at: Any = None) -> str:
    # A vouch that says where the logs begin signs that too (a vouch made before it did, without it;
    # one from the sixth pass of issue 30, with one offset for all the logs, is still verified).
    signed = [digest, schema_version, rules] if logs_at is None else [digest, schema_version, rules, logs_at]
    return _mac(key, _VOUCH_MAC_PURPOSE, orjson.dumps(signed))


def _vouched_rules() -> str:
    """The rules a vouch is made under: each vouchable check's rules."""
    return "|".join(vouchable.rules() for vouchable in checks.VOUCHABLE)


class SaveDigest:
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


def journal_changes(save: Path, held: Stamp, now: Stamp) -> list[Data] | None:
    """The documents each write from version `held` to version `now` wrote, oldest first, read
    from the change journal; None when it cannot say: the caller then reads the save in full.

    The journal is only a hint, checked against the save: every entry of the chain must be
    signed with the campaign's key (a yak writer made it), the chain must run unbroken from
    `held` to `now`, and the save's bytes on disk must have the sha256 the last entry says it
    wrote. A missing or untrusted key, an entry written or edited by hand, another schema
    version, a save edited by hand or replaced since: None."""
    key = read_campaign_key(save)
    if key is None:
        return None
    try:
        raw = journal_path(save).read_bytes()
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
            return chain if _save_digest(save) == entry.get("after_sha256") else None
    return None


def _save_digest(save: Path) -> str | None:
    """The sha256 of the save's bytes on disk now; None if it cannot be read. Read and hashed in
    chunks of a MiB: both release the GIL, and each chunk costs the reader's thread one round
    trip for it (an app's screen, on the main thread, then waits for it some tens of times, not
    hundreds), and no copy of a big save is kept."""
    digest = hashlib.sha256()
    chunk = bytearray(_DIGEST_CHUNK)
    view = memoryview(chunk)
    try:
        with open(save, "rb", buffering=0) as handle:
            while size := handle.readinto(chunk):
                digest.update(view[:size])
    except OSError:
        return None
    return digest.hexdigest()


def extend_journal(
    save: Path, before: Stamp, after: Stamp, changed: dict[str, list[str]], data: Data, after_sha256: str, key: bytes
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
            earlier = journal_path(save).read_bytes().splitlines(keepends=True)
        except FileNotFoundError:
            earlier = []
        last = _signed_entry(key, earlier[-1].rstrip(b"\n")) if earlier else None
        chained = last is not None and last.get("after") == list(before)
        lines = [*earlier[-(JOURNAL_KEEP - 1) :], line] if chained else [line]
        replace_sidecar(journal_path(save), b"".join(lines))
    except (OSError, TypeError, orjson.JSONEncodeError):
        try:
            journal_path(save).unlink(missing_ok=True)
        except OSError:
            pass  # its chain ends before this write: no reader can follow it past it


def vouched_digest(save: Path) -> str | None:
    """The digest the save's vouch stands for, if it is a vouch made under this yak's rules and
    signed with the campaign's key (a vouch without a MAC, the format before issue 25, or one
    whose MAC does not verify, or no trusted key: none)."""
    vouched = read_vouch(save)
    return None if vouched is None else vouched[0]


def read_vouch(save: Path) -> tuple[str, LogOffsets | None] | None:
    """What the save's vouch stands for (`vouched_digest`): the digest, and where in those bytes
    each log table begins (`files.encode_save`) when the writer said so."""
    if not checks.VOUCHABLE:
        return None
    key = read_campaign_key(save)
    if key is None:
        return None
    try:
        with open(vouch_path(save), "rb") as handle:
            vouch = orjson.loads(handle.read(_VOUCH_MOST))  # a vouch is ~300 bytes: a bigger file is none
    except (OSError, orjson.JSONDecodeError):
        return None
    if (
        not isinstance(vouch, dict)
        or vouch.get("schema_version") != SCHEMA_VERSION
        or vouch.get("rules") != _vouched_rules()
    ):
        return None
    digest, mac, logs_at = vouch.get("sha256"), vouch.get("hmac"), vouch.get("logs_at")
    if not isinstance(digest, str) or not isinstance(mac, str):
        return None
    if logs_at is not None and not _offsets_or_older(logs_at):
        return None
    expected = _vouch_mac(key, digest, vouch["schema_version"], vouch["rules"], logs_at)
    if not hmac.compare_digest(mac.encode(), expected.encode()):
        return None
    return digest, (logs_at if isinstance(logs_at, dict) else None)


def _offsets_or_older(logs_at: Any) -> bool:
    """Whether a vouch's `logs_at` has a shape a writer gives it: each log table's offset, or one
    offset for all the logs (the older form: its digest still counts, its offset is not used)."""
    if type(logs_at) is int:
        return logs_at > 0
    return (
        isinstance(logs_at, dict)
        and bool(logs_at)
        and all(name in LOG_TABLES and type(at) is int and at > 0 for name, at in logs_at.items())
    )


def write_vouch(save: Path, digest: str, key: bytes, logs_at: LogOffsets | None = None) -> None:
    """Write the vouch for the save about to replace this one (before the replace, so a reader of
    the new save finds it; a writer killed before the replace leaves a vouch for bytes that
    never landed, which no read trusts), signed with the campaign's key. Best effort: one not
    written is removed. `logs_at`: where each log table begins in those bytes (`files.encode_save`)."""
    rules = _vouched_rules()
    vouch: dict[str, Any] = {
        "sha256": digest,
        "schema_version": SCHEMA_VERSION,
        "rules": rules,
        "hmac": _vouch_mac(key, digest, SCHEMA_VERSION, rules, logs_at),
    }
    if logs_at is not None:
        vouch["logs_at"] = logs_at
    payload = orjson.dumps(vouch)
    try:
        replace_sidecar(vouch_path(save), payload)
    except OSError:
        drop_vouch(save)


def replace_sidecar(target: Path, payload: bytes) -> None:
    """Replace a file beside the save (the journal, the vouch) in one step: written to a temp file
    the sweep knows (`.<name>.*.tmp`), then renamed over it. Not fsynced: losing one only means a
    full read."""
    import tempfile  # a write's: a read never imports it (shutil, bz2, random)

    fd, tmp_name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(payload)
        os.replace(tmp_name, target)
    except BaseException:
        os.unlink(tmp_name)
        raise


# Bytes of the save read and hashed at a time to check it against the journal: a buffer that stays in
# the CPU's caches (8 MiB reads were 40% slower at 52 MB), in few enough rounds for the GIL.
_DIGEST_CHUNK = 1 << 20
