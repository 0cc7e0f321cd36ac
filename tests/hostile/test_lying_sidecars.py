"""Issue 25, items 1 and 2: a sidecar beside the save is never believed over the save.

- The change journal (`<save>.changes`) is only a hint: an entry forged, edited or signed with
  anything but the campaign's key, or a save that is not the bytes the journal's last entry wrote,
  means a full read. A stranger's key slipped into the journal as a GM seat never logs in.
- The vouch (`<save>.vouch`) counts only when signed with the campaign's key: a vouch written by
  hand for a save with a bad value (in the format before issue 25, or with a made-up MAC) skips
  nothing: every read validates and refuses naming the field, a command refuses and vouches for
  nothing, and the year start refuses cleanly, never with an "internal error".
- Ordinary writes still go through the journal and the vouch (no full read, no validation).
"""

from __future__ import annotations

import asyncio
import hashlib
import os
import secrets
import subprocess
import sys
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import asyncssh
import orjson
import pytest
from hostile_helpers import assert_refused, yak
from yak_plugin import counting_full_reads, journal_entries, signed_vouch, write_journal

from tests.serve.serve_helpers import ServerThread, connect, make_world, stub_argv
from yak_tui.app.reads import SharedReads
from yak_tui.kernel.errors import CommandError
from yak_tui.kernel.play.commands import apply_command, load_command_modules, run_command
from yak_tui.kernel.play.dice import SeededDice
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World, follow_save
from yak_tui.serve.config import ServeConfig
from yak_tui.serve.roster import Roster
from yak_tui.store import checks, files, sidecars
from yak_tui.store.files import SCHEMA_VERSION, CorruptSaveError
from yak_tui.store.storage import WorldFile

T = TypeVar("T")
BOUND = 60.0  # seconds any SSH exchange may take before the test fails

load_command_modules()


def sha256(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def stranger_seat(name: str = "evil") -> tuple[asyncssh.SSHKey, dict[str, Any]]:
    """A stranger's key, and the roster document that would make it a GM seat."""
    key = asyncssh.generate_private_key("ssh-ed25519", comment="stranger@elsewhere")
    doc = {
        "identity": "gm",
        "key": key.export_public_key().decode().strip(),
        "fingerprint": key.get_fingerprint("sha256"),
        "added": "2025-01-01T00:00:00Z",
    }
    return key, doc


def edit_last_entry(save: WorldFile, change: Callable[[dict[str, Any]], None]) -> None:
    """Edit the last entry of the change journal in place, as a hand or a hostile process would: a
    signature on the line, if any, is left as it was. (The journal before issue 25 was one JSON
    object, `{"entries": [...]}`; a line of it now is `<HMAC> <entry>`. Both are edited, so this
    test shows the attack on the code before the fix too.)"""
    raw = save.journal.read_bytes()
    if raw.startswith(b"{"):
        journal = orjson.loads(raw)
        change(journal["entries"][-1])
        save.journal.write_bytes(orjson.dumps(journal))
        return
    lines = raw.splitlines(keepends=True)
    mac, _, body = lines[-1].rstrip(b"\n").partition(b" ")
    entry = orjson.loads(body)
    change(entry)
    lines[-1] = mac + b" " + orjson.dumps(entry) + b"\n"
    save.journal.write_bytes(b"".join(lines))


def add_seat(doc: dict[str, Any], name: str = "evil") -> Callable[[dict[str, Any]], None]:
    def change(entry: dict[str, Any]) -> None:
        entry["docs"].setdefault("users", {})[name] = doc

    return change


FORGERIES = [
    "entry edited, its signature kept",
    "journal in the format before issue 25",
    "signed with another key",
    "signed with a key planted beside the save, readable by others",
    "signed with the key file of another user",
]


def forge(save: WorldFile, how: str, change: Callable[[dict[str, Any]], None], monkeypatch: pytest.MonkeyPatch) -> None:
    """Lie in the change journal about the last write, in one of the ways of FORGERIES."""
    if how == FORGERIES[0]:
        edit_last_entry(save, change)
        return
    if how == FORGERIES[1]:
        entry = (
            journal_entries(save)[-1]
            if not save.journal.read_bytes().startswith(b"{")
            else orjson.loads(save.journal.read_bytes())["entries"][-1]
        )
        change(entry)
        save.journal.write_bytes(orjson.dumps({"entries": [entry]}))
        return
    entries = journal_entries(save)
    change(entries[-1])
    key = secrets.token_bytes(sidecars.KEY_BYTES)
    if how == FORGERIES[3]:
        save.key.unlink()
        save.key.write_bytes(key)
        save.key.chmod(0o644)
    elif how == FORGERIES[4]:
        key = save.key.read_bytes()  # the file stays; it is not the reader's: he treats it as no key
        uid = os.geteuid()
        monkeypatch.setattr(sidecars.os, "geteuid", lambda: uid + 1)
    write_journal(save, entries, key=key)


@pytest.fixture
def save(tmp_path: Path) -> WorldFile:
    return create_world(tmp_path / "saves" / "world.json")


# -- 1. the change journal -------------------------------------------------------------------------


@pytest.mark.parametrize("how", FORGERIES)
def test_a_gm_seat_forged_into_the_journal_logs_nobody_in(
    save: WorldFile, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    roster = Roster(save.path)
    key, doc = stranger_seat()
    fingerprint = key.get_fingerprint("sha256")
    assert roster.lookup(fingerprint) == (None, "unknown key")  # the roster holds the world now
    held = follow_save(save, None)
    shared = SharedReads()
    shared.read(save)
    run_command(save, GM, "note", {"text": "an ordinary note"})
    forge(save, how, add_seat(doc), monkeypatch)
    reads = counting_full_reads(monkeypatch)

    assert roster.lookup(fingerprint) == (None, "unknown key")
    _, world = follow_save(save, held)
    assert "evil" not in world.table("users")
    _, shared_world = shared.read(save)
    assert "evil" not in shared_world.table("users")
    assert reads == [save.path] * 3  # each reader read the save in full
    assert any(entry.get("text") == "an ordinary note" for entry in world.table("chronicle").values())


@pytest.mark.parametrize("how", FORGERIES[:3])
def test_a_document_edited_in_a_journal_entry_is_not_believed(
    save: WorldFile, how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = follow_save(save, None)
    run_command(save, GM, "gm-set", {"table": "kingdoms", "id": "elbreth", "field": "treasury", "value": "250"})

    def richer(entry: dict[str, Any]) -> None:
        entry["docs"].setdefault("kingdoms", {})["elbreth"] = {
            **held[1].get("kingdoms", "elbreth"),
            "treasury": 999_999,
        }

    forge(save, how, richer, monkeypatch)
    reads = counting_full_reads(monkeypatch)
    _, world = follow_save(save, held)
    assert world.get("kingdoms", "elbreth")["treasury"] == 250
    assert reads == [save.path]


def test_a_save_that_is_not_what_the_journal_says_was_written_is_read_in_full(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The save edited in place after a journaled write, its size and time put back: its stamp is the
    one the journal's last entry names, but not its bytes. The reader believes the save."""
    held = follow_save(save, None)
    run_command(save, GM, "gm-set", {"table": "kingdoms", "id": "elbreth", "field": "treasury", "value": "250"})
    before = save.path.stat()
    raw = save.path.read_bytes()
    edited = raw.replace(b'"treasury":250', b'"treasury":777', 1)
    assert edited != raw and len(edited) == len(raw)
    with open(save.path, "r+b") as handle:  # in place: the same inode
        handle.write(edited)
    os.utime(save.path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert save.stamp() == files.stamp_of(before)
    reads = counting_full_reads(monkeypatch)
    _, world = follow_save(save, held)
    assert world.get("kingdoms", "elbreth")["treasury"] == 777
    assert reads == [save.path]


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, BOUND))


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[ServerThread, WorldFile, Any]]:
    save, users = make_world(tmp_path / "served", {"gm": "gm"})
    config = ServeConfig(
        save=save.path, port=0, app_argv=stub_argv, kill_grace=0.5, max_sessions=8, refusal_lines_per_second=1000
    )
    with ServerThread(config) as thread:
        yield thread, save, users["gm"]


def test_a_real_server_refuses_the_strangers_key_forged_into_the_journal(
    served: tuple[ServerThread, WorldFile, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """`yak serve` running; a note written by another process; a GM seat for a stranger's key added
    to the journal's last entry. For longer than the server takes to look at the save again, the
    stranger's key is refused at every try, and never runs `orders list`; the GM's own key still works."""
    server, save, gm = served

    async def gm_orders() -> str:
        async with await connect(server.port, gm) as conn:
            done = await conn.run("orders list")
            return str(done.stdout)

    run(gm_orders())  # the server's roster now holds the world
    done = subprocess.run(
        [sys.executable, "-m", "yak_tui", "--save", str(save.path), "do", "note", "text=written while the server runs"],
        capture_output=True,
        text=True,
        timeout=BOUND,
    )
    assert done.returncode == 0, done.stderr
    key, doc = stranger_seat()
    edit_last_entry(save, add_seat(doc))

    async def stranger_orders() -> str:
        async with await asyncssh.connect(
            "127.0.0.1", server.port, username="evil", client_keys=[key], known_hosts=None, agent_path=None
        ) as conn:
            finished = await conn.run("orders list")
            return str(finished.stdout)

    for _ in range(5):  # over more than 4 s: the server looks at the save every second, and at each login
        with pytest.raises(asyncssh.PermissionDenied):
            run(stranger_orders())
        run(asyncio.sleep(1.0))
    line = server.log.wait_for(key.get_fingerprint("sha256"))
    assert "refused login" in line and "unknown key" in line
    run(gm_orders())
    code, out, _ = yak(capsys, ["--save", str(save.path), "user", "list"])
    assert code == 0 and "evil" not in out


# -- 2. the vouch -----------------------------------------------------------------------------------


def _plant_bad_treasury(save: WorldFile) -> bytes:
    data = orjson.loads(save.path.read_bytes())
    data["kingdoms"]["elbreth"]["treasury"] = "abc"
    raw = orjson.dumps(data)
    save.path.write_bytes(raw)
    return raw


VOUCH_FORGERIES = [
    "format before issue 25 (no MAC)",
    "made-up MAC",
    "signed with another key",
    "signed with a key planted beside the save, readable by others",
]


def _forged_vouch(save: WorldFile, raw: bytes, how: str) -> bytes:
    digest = sha256(raw)
    if how == VOUCH_FORGERIES[0]:
        return orjson.dumps({"sha256": digest, "schema_version": SCHEMA_VERSION, "rules": sidecars._vouched_rules()})
    if how == VOUCH_FORGERIES[1]:
        return orjson.dumps(
            {"sha256": digest, "schema_version": SCHEMA_VERSION, "rules": sidecars._vouched_rules(), "hmac": "0" * 64}
        )
    key = secrets.token_bytes(sidecars.KEY_BYTES)
    if how == VOUCH_FORGERIES[3]:
        save.key.unlink()
        save.key.write_bytes(key)
        save.key.chmod(0o644)
    return signed_vouch(save, digest, key=key)


@pytest.mark.parametrize("how", VOUCH_FORGERIES)
def test_a_forged_vouch_skips_nothing_and_nothing_is_vouched_again(
    save: WorldFile, how: str, capsys: pytest.CaptureFixture[str]
) -> None:
    run_command(save, GM, "note", {"text": "a vouched save"})
    raw = _plant_bad_treasury(save)
    vouch = _forged_vouch(save, raw, how)
    save.vouch.write_bytes(vouch)
    path = str(save.path)

    with pytest.raises(CorruptSaveError, match=r"kingdoms 'elbreth', field treasury: must be a number, not 'abc'"):
        WorldFile(save.path).read()
    assert_refused(capsys, ["--save", path, "show", "kingdoms"], save.path, "treasury", "elbreth")
    assert_refused(capsys, ["--save", path, "do", "note", "text=over a bad save"], save.path, "treasury", "elbreth")
    assert_refused(capsys, ["--save", path, "advance"], save.path, "treasury", "elbreth")
    assert save.path.read_bytes() == raw
    assert save.vouch.read_bytes() == vouch  # nothing vouched for the bad save
    assert not list(save.path.parent.glob("backups/*"))


def test_the_year_start_refuses_a_bad_value_that_got_past_the_read_naming_it(
    save: WorldFile, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Were a bad value to get past the read (here: the read's checks switched off), the season's
    close refuses naming the document and field, never an "internal error"; nothing is written."""
    raw = _plant_bad_treasury(save)
    monkeypatch.setattr(checks, "LOAD_CHECKS", [])
    assert_refused(capsys, ["--save", str(save.path), "advance"], save.path, "kingdoms.elbreth.treasury", "number")
    assert save.path.read_bytes() == raw
    world = World(orjson.loads(raw))
    with pytest.raises(CommandError) as refused:
        apply_command(world.trial(), GM, "advance", {}, SeededDice(3))
    assert refused.value.field == "kingdoms.elbreth.treasury"


def test_a_write_over_a_state_that_was_never_validated_vouches_for_nothing(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write checks only the documents it changed when what it read was validated or vouched for;
    a state read without either (the read's checks switched off) is checked whole before a vouch."""
    _plant_bad_treasury(save)
    save.vouch.unlink()
    monkeypatch.setattr(checks, "LOAD_CHECKS", [])
    run_command(save, GM, "note", {"text": "a note that touches no kingdom"})
    assert not save.vouch.exists()
    monkeypatch.undo()
    with pytest.raises(CorruptSaveError, match="field treasury"):
        WorldFile(save.path).read()


# -- ordinary operation keeps the journal and the vouch ---------------------------------------------


def test_readers_follow_a_chain_of_ordinary_writes_without_a_full_read(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    roster = Roster(save.path)
    key, _ = stranger_seat()
    assert roster.lookup(key.get_fingerprint("sha256")) == (None, "unknown key")
    held = follow_save(save, None)
    reads = counting_full_reads(monkeypatch)
    for n in range(3):
        run_command(save, GM, "note", {"text": f"note {n}"})
    run_command(save, GM, "gm-set", {"table": "kingdoms", "id": "elbreth", "field": "treasury", "value": "321"})
    pub = key.export_public_key().decode()
    run_command(save, GM, "user-add", {"name": "rowena", "identity": "player:rowena", "key": pub})
    _, world = follow_save(save, held)
    user, reason = roster.lookup(key.get_fingerprint("sha256"))
    assert reads == []
    assert reason == "" and user is not None and user.name == "rowena"
    assert world.get("kingdoms", "elbreth")["treasury"] == 321
    assert orjson.dumps(world.data) == save.path.read_bytes()  # exactly the save
    # Each entry is signed with the campaign's key, and the last names the save as it is.
    campaign_key = sidecars.read_campaign_key(save.path)
    assert campaign_key is not None
    lines = save.journal.read_bytes().splitlines()
    assert len(lines) == 5 and all(sidecars._signed_entry(campaign_key, line) is not None for line in lines)
    assert journal_entries(save)[-1]["after_sha256"] == sha256(save.path.read_bytes())


def test_a_read_of_a_vouched_save_skips_validation(save: WorldFile, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    (vouchable,) = checks.VOUCHABLE
    real = vouchable.check

    def counting(data: dict[str, Any]) -> None:
        calls.append(1)
        real(data)

    monkeypatch.setattr(checks, "LOAD_CHECKS", [counting if c is real else c for c in checks.LOAD_CHECKS])
    monkeypatch.setattr(checks, "VOUCHABLE", [checks.Vouchable(counting, vouchable.check_written, vouchable.rules)])
    run_command(save, GM, "note", {"text": "vouched"})
    calls.clear()
    WorldFile(save.path).read()
    assert calls == []
    vouch = orjson.loads(save.vouch.read_bytes())
    assert vouch["sha256"] == sha256(save.path.read_bytes()) and len(vouch["hmac"]) == 64
