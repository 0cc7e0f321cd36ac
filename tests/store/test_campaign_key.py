"""Issue 25: the campaign's secret beside the save (`<save>.key`), which signs the vouch and the
change journal's entries. The first write makes it (32 random bytes, mode 0600); a key that cannot
be trusted (readable by others, another user's, a link, the wrong size) is no key: every read is a
full, validated one and the next write makes a new key; nothing breaks. It is in no backup, never
printed; `new` makes a new one, `restore` keeps it, the temp-file sweep knows its temp files."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import Any

import orjson
import pytest
from yak_plugin import counting_full_reads

from yak_tui.cli import main
from yak_tui.kernel.play.commands import load_command_modules, run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import follow_save
from yak_tui.store import checks, sidecars
from yak_tui.store.files import SCHEMA_VERSION
from yak_tui.store.storage import WorldFile

load_command_modules()


@pytest.fixture
def save(tmp_path: Path) -> WorldFile:
    return create_world(tmp_path / "saves" / "world.json")


@pytest.fixture
def validations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts the full validations (`validate_world` as a load check) from here on."""
    calls: list[int] = []
    (vouchable,) = checks.VOUCHABLE
    real = vouchable.check

    def counting(data: dict[str, Any]) -> None:
        calls.append(1)
        real(data)

    monkeypatch.setattr(checks, "LOAD_CHECKS", [counting if check is real else check for check in checks.LOAD_CHECKS])
    monkeypatch.setattr(checks, "VOUCHABLE", [checks.Vouchable(counting, vouchable.check_written, vouchable.rules)])
    return calls


def assert_sound_key(save: WorldFile) -> bytes:
    found = os.lstat(save.key)
    assert stat.S_ISREG(found.st_mode) and stat.S_IMODE(found.st_mode) == 0o600 and found.st_uid == os.geteuid()
    key = save.key.read_bytes()
    assert len(key) == sidecars.KEY_BYTES
    assert sidecars.read_campaign_key(save.path) == key
    return key


def test_the_first_write_makes_the_key_and_a_save_from_before_it_is_validated_once(
    save: WorldFile, validations: list[int]
) -> None:
    assert_sound_key(save)
    # A save from before issue 25: no key, a vouch without a MAC. Read in full, then vouched again.
    save.key.unlink()
    save.vouch.write_bytes(
        orjson.dumps({"sha256": "0" * 64, "schema_version": SCHEMA_VERSION, "rules": sidecars._vouched_rules()})
    )
    validations.clear()
    WorldFile(save.path).read()
    assert validations == [1]
    run_command(save, GM, "note", {"text": "the first write makes the key"})
    assert_sound_key(save)
    validations.clear()
    WorldFile(save.path).read()
    assert validations == []


UNTRUSTED = ["readable by others", "the wrong size", "a link to a sound key", "another user's"]


@pytest.mark.parametrize("how", UNTRUSTED)
def test_a_key_that_cannot_be_trusted_is_no_key_and_the_next_write_makes_a_sound_one(
    save: WorldFile, validations: list[int], monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    held = follow_save(save, None)
    run_command(save, GM, "note", {"text": "journaled and vouched"})
    key = save.key.read_bytes()
    elsewhere = save.path.parent / "elsewhere"
    if how == UNTRUSTED[0]:
        save.key.chmod(0o640)
    elif how == UNTRUSTED[1]:
        save.key.write_bytes(key + b"x")
    elif how == UNTRUSTED[2]:
        elsewhere.write_bytes(key)
        elsewhere.chmod(0o600)
        save.key.unlink()
        save.key.symlink_to(elsewhere)
    elif os.geteuid() == 0:
        os.chown(save.key, 65534, 65534)  # nobody's
    else:  # the key file stays this user's; the reader takes himself for another
        uid = os.geteuid()
        monkeypatch.setattr(sidecars.os, "geteuid", lambda: uid + 1)
    assert sidecars.read_campaign_key(save.path) is None
    validations.clear()
    reads = counting_full_reads(monkeypatch)
    _, world = follow_save(save, held)  # the journal is not followed
    assert reads == [save.path] and validations == [1]  # and the vouch skips nothing
    assert any(entry.get("text") == "journaled and vouched" for entry in world.table("chronicle").values())
    if how == UNTRUSTED[3] and os.geteuid() != 0:
        return  # the rest needs a file that is truly another user's
    run_command(save, GM, "note", {"text": "a write makes a sound key"})
    assert assert_sound_key(save) != key
    if how == UNTRUSTED[2]:
        assert elsewhere.read_bytes() == key  # the link was replaced, never followed
    validations.clear()
    WorldFile(save.path).read()
    assert validations == []


def test_a_key_that_cannot_be_made_leaves_the_write_whole_and_unvouched(
    save: WorldFile, validations: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    save.key.unlink()
    real_mkstemp = tempfile.mkstemp

    def no_key_temp(*args: Any, prefix: str = "", **kwargs: Any) -> Any:
        if prefix.startswith(f".{save.key.name}."):
            raise OSError(28, "No space left on device")
        return real_mkstemp(*args, prefix=prefix, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", no_key_temp)
    run_command(save, GM, "note", {"text": "written without a key"})
    assert not save.key.exists() and not save.vouch.exists() and not save.journal.exists()
    validations.clear()
    assert "written without a key" in str(WorldFile(save.path).read()["chronicle"])
    assert validations == [1]


def test_the_key_is_in_no_backup_and_never_printed(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    key = save.key.read_bytes()
    path = str(save.path)
    outputs = []
    for argv in (
        ["do", "note", "text=hello"],
        ["advance"],
        ["show"],
        ["log"],
        ["restore"],
        ["user", "list"],
        ["verify"],
        ["--json", "show", "meta"],
    ):
        capsys.readouterr()
        main(["--save", path, *argv])
        outputs.append("".join(capsys.readouterr()))
    printed = "\n".join(outputs)
    assert key.hex() not in printed and key.hex().upper() not in printed
    backups = save.backups()
    assert backups
    for backup in save.backup_dir.iterdir():
        assert key not in backup.read_bytes() and key.hex().encode() not in backup.read_bytes()
    # A restore keeps the campaign's key (and drops the vouch: the backup's bytes are checked on the next read).
    save.restore(backups[-1].name)
    assert save.key.read_bytes() == key and not save.vouch.exists()


def test_a_new_campaign_over_an_old_one_gets_a_new_key(save: WorldFile) -> None:
    old = save.key.read_bytes()
    create_world(save.path, overwrite=True)
    assert assert_sound_key(save) != old


def test_the_sweep_removes_a_killed_writers_key_temp_file(save: WorldFile) -> None:
    stale = save.path.parent / ".world.json.key.ab12cd34.tmp"
    stale.write_bytes(b"x" * sidecars.KEY_BYTES)
    stranger = save.path.parent / ".other.json.key.ab12cd34.tmp"
    stranger.write_bytes(b"x")
    with save.transaction():
        pass
    assert not stale.exists() and stranger.exists()
