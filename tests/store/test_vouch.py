"""The vouch beside the save (`<save>.vouch`): a read whose bytes a yak writer vouched for skips
the schema validation, and only that; anything else (no vouch, another digest, other rules or schema
version, a hand edit, a migration, a writer killed before its save landed) is validated in full,
refused with the same words; reading never writes."""

from __future__ import annotations

import hashlib
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from yak_plugin import signed_vouch

from yak_tui.kernel.play.commands import load_command_modules, run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.season.session import advance_season
from yak_tui.kernel.world.demo import create_world
from yak_tui.store import checks, sidecars
from yak_tui.store.files import SCHEMA_VERSION, CorruptSaveError
from yak_tui.store.storage import WorldFile

HERE = Path(__file__).parent
BOUND = 60.0  # seconds a wait for the child may take before the test fails

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


def tree(root: Path) -> dict[str, tuple[bytes, int, int]]:
    """Every file under root: bytes, mode and mtime; to prove a read changed nothing."""
    return {
        str(p.relative_to(root)): (p.read_bytes() if p.is_file() else b"", p.stat().st_mode, p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
    }


def vouch_of(save: WorldFile) -> dict[str, Any]:
    vouch: dict[str, Any] = orjson.loads(save.vouch.read_bytes())
    return vouch


def digest(raw: bytes) -> str:
    return hashlib.sha256(raw).hexdigest()


def refusal(save: WorldFile) -> str:
    with pytest.raises(CorruptSaveError) as refused:
        save.read()
    return str(refused.value)


def test_a_command_vouches_for_the_bytes_it_wrote_and_a_read_skips_only_validation(
    save: WorldFile, validations: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_command(save, GM, "note", {"text": "vouched"})
    vouch = vouch_of(save)
    assert vouch["sha256"] == digest(save.path.read_bytes())
    assert vouch["schema_version"] == SCHEMA_VERSION
    other_checks: list[int] = []
    monkeypatch.setattr(checks, "LOAD_CHECKS", [*checks.LOAD_CHECKS, lambda data: other_checks.append(1)])
    validations.clear()
    data = save.read()
    assert validations == [] and other_checks == [1]  # the other load checks still run
    assert "vouched" in orjson.dumps(data["chronicle"]).decode()
    save.vouch.unlink()
    assert save.read() == data
    assert validations == [1] and other_checks == [1, 1]


def test_a_hand_edit_of_a_vouched_save_is_refused_with_the_words_of_an_unvouched_one(
    save: WorldFile, validations: list[int]
) -> None:
    run_command(save, GM, "note", {"text": "vouched"})
    data = orjson.loads(save.path.read_bytes())
    kingdom = sorted(data["kingdoms"])[0]
    data["kingdoms"][kingdom]["treasury"] = "lots"
    save.path.write_bytes(orjson.dumps(data))
    validations.clear()
    vouched_words = refusal(save)
    assert validations == [1]
    assert f"kingdoms {kingdom!r}, field treasury" in vouched_words
    save.vouch.unlink()
    assert refusal(save) == vouched_words


@pytest.mark.parametrize("forged", ["sha256", "rules", "schema_version"])
def test_a_vouch_for_other_bytes_rules_or_schema_is_ignored(
    save: WorldFile, validations: list[int], forged: str
) -> None:
    data = orjson.loads(save.path.read_bytes())
    data["kingdoms"][sorted(data["kingdoms"])[0]]["treasury"] = "lots"
    corrupt = orjson.dumps(data)
    save.path.write_bytes(corrupt)
    forgery = {"sha256": digest(b"other bytes"), "rules": "another yak's rules", "schema_version": SCHEMA_VERSION + 1}
    save.vouch.write_bytes(signed_vouch(save, digest(corrupt), altered={forged: forgery[forged]}))
    validations.clear()
    assert "field treasury" in refusal(save)
    assert validations == [1]
    # The control: only the forged field made the difference (a vouch signed with the campaign's key
    # is trusted, whatever the bytes: only a yak writer holds the key; tests/hostile shows the rest).
    save.vouch.write_bytes(signed_vouch(save, digest(corrupt)))
    validations.clear()
    save.read()
    assert validations == []


def test_a_vouched_save_that_needs_a_migration_is_validated_after_it(tmp_path: Path, validations: list[int]) -> None:
    save = create_world(tmp_path / "world.json")
    data = orjson.loads(save.path.read_bytes())
    data["meta"]["world"]["schema_version"] = SCHEMA_VERSION - 1
    older = orjson.dumps(data)
    save.path.write_bytes(older)
    save.vouch.write_bytes(signed_vouch(save, digest(older)))  # a true vouch: the key's holder made it
    validations.clear()
    assert save.read()["meta"]["world"]["schema_version"] == SCHEMA_VERSION
    assert validations == [1]
    run_command(save, GM, "note", {"text": "the first write after the migration"})
    assert vouch_of(save)["sha256"] == digest(save.path.read_bytes())  # what it read was validated, migrated
    validations.clear()
    save.read()
    assert validations == []


def test_reading_leaves_the_directory_as_it_was(save: WorldFile, validations: list[int]) -> None:
    run_command(save, GM, "note", {"text": "vouched"})
    for vouch in (save.vouch.read_bytes(), b'{"sha256": "0", "schema_version": 2, "rules": "x"}', b"not json"):
        save.vouch.write_bytes(vouch)
        before = tree(save.path.parent)
        save.read()
        WorldFile(save.path).read()
        assert tree(save.path.parent) == before


def test_advance_vouches_for_the_whole_world_and_restore_drops_the_vouch(
    save: WorldFile, validations: list[int]
) -> None:
    advance_season(save, GM)
    assert vouch_of(save)["sha256"] == digest(save.path.read_bytes())
    validations.clear()
    save.read()
    assert validations == []
    (backup,) = save.backups()
    save.restore(backup.name)
    assert not save.vouch.exists()
    save.read()
    assert validations == [1]
    run_command(save, GM, "note", {"text": "vouched again"})  # a command re-vouches what it read in full
    assert vouch_of(save)["sha256"] == digest(save.path.read_bytes())


def test_a_write_of_a_state_that_does_not_validate_drops_the_vouch(save: WorldFile, validations: list[int]) -> None:
    run_command(save, GM, "note", {"text": "vouched"})
    assert save.vouch.exists()
    with save.transaction() as data:
        data["kingdoms"][sorted(data["kingdoms"])[0]]["treasury"] = "lots"
    assert not save.vouch.exists()
    assert "field treasury" in refusal(save)


def test_a_writer_killed_between_its_vouch_and_its_save_leaves_a_vouch_no_read_trusts(
    save: WorldFile, validations: list[int]
) -> None:
    run_command(save, GM, "note", {"text": "landed"})
    before = save.path.read_bytes()
    victim = subprocess.Popen(
        [sys.executable, str(HERE / "vouch_victim.py"), str(save.path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert victim.stdout is not None
        lines: queue.Queue[str] = queue.Queue()
        threading.Thread(
            target=lambda: lines.put(victim.stdout.readline()) if victim.stdout else None, daemon=True
        ).start()
        line = lines.get(timeout=BOUND)  # the victim stopped before the replace (or died: an empty line)
        assert line.startswith("mid-write "), (line, victim.stderr.read() if victim.poll() is not None else "")
        temp = Path(line.split(" ", 1)[1].strip())
        os.kill(victim.pid, signal.SIGKILL)
        assert victim.wait(timeout=BOUND) == -signal.SIGKILL
    finally:
        if victim.poll() is None:
            victim.kill()
            victim.wait()
        for stream in (victim.stdout, victim.stderr):
            if stream is not None:
                stream.close()
    assert save.path.read_bytes() == before
    assert vouch_of(save)["sha256"] == digest(temp.read_bytes()) != digest(before)  # the vouch of what never landed
    validations.clear()
    assert "killed before" not in orjson.dumps(save.read()["chronicle"]).decode()
    assert validations == [1]
    run_command(save, GM, "note", {"text": "after the kill"})  # sweeps the temp, vouches again
    assert not temp.exists()
    assert vouch_of(save)["sha256"] == digest(save.path.read_bytes())
    assert sorted(p.name for p in save.path.parent.iterdir()) == [
        "world.json",
        "world.json.changes",
        "world.json.key",
        "world.json.lock",
        "world.json.vouch",
    ]


def test_a_vouch_that_cannot_be_written_is_no_vouch(
    save: WorldFile, validations: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    run_command(save, GM, "note", {"text": "vouched"})
    real_mkstemp = tempfile.mkstemp

    def no_vouch_temp(*args: Any, prefix: str = "", **kwargs: Any) -> Any:
        if prefix.startswith(f".{save.vouch.name}."):
            raise OSError(28, "No space left on device")
        return real_mkstemp(*args, prefix=prefix, **kwargs)

    monkeypatch.setattr(tempfile, "mkstemp", no_vouch_temp)
    run_command(save, GM, "note", {"text": "written, not vouched"})
    assert not save.vouch.exists()
    validations.clear()
    save.read()
    assert validations == [1]


def test_readers_hash_a_big_save_beside_the_parse(
    save: WorldFile, validations: list[int], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The digest of a save past the thread threshold is computed in a thread, and agrees."""
    monkeypatch.setattr(sidecars, "_DIGEST_IN_THREAD", 1)
    threads: list[str] = []
    real: Callable[..., Any] = sidecars.threading.Thread.start

    def counting(self: Any) -> None:
        threads.append(self.name)
        real(self)

    monkeypatch.setattr(sidecars.threading.Thread, "start", counting)
    run_command(save, GM, "note", {"text": "vouched"})
    assert "yak-save-digest" in threads  # the writer's, beside its write
    validations.clear()
    threads.clear()
    save.read()
    assert validations == [] and threads == ["yak-save-digest"]
