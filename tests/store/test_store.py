"""The store: crash safety under kill -9, racing processes, injected I/O errors, corrupt saves,
backups and restore, and reads that see other processes' writes (issue 2, DESIGN "store/")."""

from __future__ import annotations

import errno
import importlib.util
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import orjson
import pytest

from tests.store.restored import assert_restored
from yak_tui.cli import main
from yak_tui.kernel.play.chronicle import append_entry
from yak_tui.kernel.play.commands import load_command_modules, run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.season.session import advance_season
from yak_tui.kernel.world.demo import build_world, create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.files import CorruptSaveError
from yak_tui.store.storage import AtomicOrjsonStorage, StoreError, WorldFile

HERE = Path(__file__).parent
PYTHON = sys.executable

load_command_modules()


def helper(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"store_helper_{name}", HERE / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def temp_files(save: WorldFile) -> list[Path]:
    return sorted(save.path.parent.glob(f".{save.path.name}.*.tmp"))


@pytest.fixture
def save(tmp_path: Path) -> WorldFile:
    return create_world(tmp_path / "saves" / "world.json")


def big_world(path: Path, entries: int = 6000) -> WorldFile:
    """The demo world plus a long generated chronicle: about 1.7 MB of JSON."""
    world = World(build_world())
    for i in range(entries):
        append_entry(
            world,
            f"Generated event {i} in the long history of the realm, with words enough to weigh.",
            kind="history",
            amounts={"kingdoms:elbreth": 1},
        )
    world.originals.clear()
    save = WorldFile(path)
    save.create(world.data)
    return save


# --- (a) kill -9 at random moments during saves ------------------------------------------------


def _last_logged(log: Path) -> int | None:
    lines = [line for line in log.read_text().splitlines() if line.strip()]
    return int(lines[-1]) if lines else None


def _wait_for(condition: Any, what: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.0005)


@pytest.mark.slow
def test_kill_9_during_saves_leaves_old_or_new_state(tmp_path: Path) -> None:
    writer = helper("crash_writer")
    save = big_world(tmp_path / "world.json")
    assert save.path.stat().st_size > 1_500_000
    expected = save.read()
    expected_n = 0
    log = tmp_path / "committed.log"
    log.touch()
    rng = random.Random(20240611)
    kills, torn_windows = 50, 0
    server = subprocess.Popen(
        [PYTHON, str(HERE / "crash_writer.py"), str(save.path), str(log)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    assert server.stdin is not None and server.stdout is not None

    def ask(line: str) -> str:
        server.stdin.write(line + "\n")  # type: ignore[union-attr]
        server.stdin.flush()  # type: ignore[union-attr]
        return server.stdout.readline().strip()  # type: ignore[union-attr]

    try:
        assert server.stdout.readline().strip() == "ready"
        for round_no in range(kills):
            before_temps = set(temp_files(save))
            logged_before = _last_logged(log) or 0
            answer = ask("spawn")
            assert answer.startswith("pid "), answer
            pid = int(answer.split()[1])
            if round_no % 2:
                # At a random moment, once the writer has committed at least once this round.
                _wait_for(lambda old=logged_before: (_last_logged(log) or 0) > old, "a commit")
                time.sleep(rng.uniform(0.0, 0.05))
            else:
                # Just after a commit has started writing its temp file.
                _wait_for(lambda old=before_temps: bool(set(temp_files(save)) - old), "a write to begin")
                time.sleep(rng.uniform(0.0, 0.004))
            os.kill(pid, signal.SIGKILL)
            # Once reaped the writer is gone for good: nothing can touch the file after this.
            assert ask(f"reap {pid}") == f"signal {signal.SIGKILL}", f"writer died on its own in round {round_no}"
            if set(temp_files(save)) - before_temps:
                torn_windows += 1
            # The save loads, and it is exactly one committed state: the last logged one or the next.
            loaded = WorldFile(save.path).read()
            n = writer.counter(loaded)
            # The writer logs a state after committing it, so the file may be one state ahead of the log.
            base = max(expected_n, _last_logged(log) or 0)
            assert n in (base, base + 1), f"round {round_no}: file holds state {n}, last known commit {base}"
            assert n >= expected_n, "the save went back in time"
            while expected_n < n:
                expected_n = writer.step(expected)
            assert loaded == expected, f"round {round_no}: state {n} is not the committed state {n}"
    finally:
        server.stdin.close()
        server.wait(timeout=30)
        server.stdout.close()
    print(f"kill -9: {kills} kills, {expected_n} commits, {torn_windows} kills inside a write")
    assert expected_n >= kills // 2  # every other round waited for a commit
    assert torn_windows >= 2, f"only {torn_windows} kills landed inside a write"
    notes = [e for e in WorldFile(save.path).read()["chronicle"].values() if e["kind"] == "note"]
    assert sorted(int(e["text"].split()[-1]) for e in notes) == list(range(1, expected_n + 1))
    # A normal command still works on the survivor (the dead writers' locks were released).
    run_command(WorldFile(save.path, lock_timeout=5), GM, "note", {"text": "after the storm"})


# --- (b) two processes racing ----------------------------------------------------------------


@pytest.mark.slow
def test_two_processes_fifty_notes_each_none_lost(save: WorldFile, tmp_path: Path) -> None:
    go = tmp_path / "go"
    workers = [
        subprocess.Popen(
            [PYTHON, str(HERE / "note_worker.py"), str(save.path), name, "50", str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("alpha", "beta")
    ]
    try:
        for worker in workers:
            assert worker.stdout is not None
            assert worker.stdout.readline().strip() == "ready"
        go.touch()
        for worker in workers:
            out, err = worker.communicate(timeout=120)
            assert worker.returncode == 0, err
            assert out.strip() == "done"
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    world = World(save.read())
    notes = [e for _, e in world.all("chronicle") if e["kind"] == "note"]
    assert len(notes) == 100
    assert sorted(e["text"] for e in notes) == sorted(f"{n} {i}" for n in ("alpha", "beta") for i in range(50))
    assert sorted(e["seq"] for e in notes) == list(range(1, 101))
    assert len({e["id"] for e in notes}) == 100
    # Each writer's notes are in its own order within the shared chronicle.
    for name in ("alpha", "beta"):
        mine = sorted((e for e in notes if e["text"].startswith(name)), key=lambda e: e["seq"])
        assert [int(e["text"].split()[1]) for e in mine] == list(range(50))
    assert temp_files(save) == []


# --- (c) injected I/O errors -------------------------------------------------------------------


class _FailingWrites:
    """Stands in for the temp file object: every write fails as on a full disk."""

    def __init__(self, real: Any) -> None:
        self.real = real

    def write(self, data: bytes) -> int:
        raise OSError(errno.ENOSPC, "No space left on device")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def __enter__(self) -> _FailingWrites:
        return self

    def __exit__(self, *exc: object) -> None:
        self.real.close()


def _inject(monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    if where == "write":
        real_fdopen = os.fdopen
        monkeypatch.setattr(os, "fdopen", lambda fd, *a, **k: _FailingWrites(real_fdopen(fd, *a, **k)))
    elif where == "fsync":

        def fsync(fd: int) -> None:
            raise OSError(errno.EIO, "Input/output error")

        monkeypatch.setattr(os, "fsync", fsync)
    elif where == "replace":

        def replace(src: Any, dst: Any) -> None:
            raise OSError(errno.EACCES, "Permission denied")

        monkeypatch.setattr(os, "replace", replace)
    elif where == "mkstemp":

        def mkstemp(*a: Any, **k: Any) -> Any:
            raise OSError(errno.EDQUOT, "Disk quota exceeded")

        monkeypatch.setattr(tempfile, "mkstemp", mkstemp)
    else:  # pragma: no cover
        raise AssertionError(where)


REASONS = {
    "write": "No space left",
    "fsync": "Input/output error",
    "replace": "Permission denied",
    "mkstemp": "Disk quota exceeded",
}


@pytest.mark.parametrize("where", ["write", "fsync", "replace", "mkstemp"])
def test_injected_oserror_loses_nothing(save: WorldFile, monkeypatch: pytest.MonkeyPatch, where: str) -> None:
    run_command(save, GM, "note", {"text": "kept"})
    before = save.path.read_bytes()
    inode = save.path.stat().st_ino
    with monkeypatch.context() as patch:
        _inject(patch, where)
        with pytest.raises(OSError) as caught:
            run_command(save, GM, "note", {"text": "lost?"})
    error = caught.value
    assert isinstance(error, StoreError), "a failed write is a store error the front ends report"
    assert str(save.path) in str(error)
    assert REASONS[where] in str(error)
    assert save.path.read_bytes() == before
    assert save.path.stat().st_ino == inode
    assert temp_files(save) == []
    # Nothing was half-applied and the lock is free: the next command works and sees only "kept".
    run_command(WorldFile(save.path, lock_timeout=2), GM, "note", {"text": "next"})
    texts = [e["text"] for _, e in sorted(World(save.read()).all("chronicle"))]
    assert texts == ["kept", "next"]


@pytest.mark.parametrize("where", ["write", "fsync", "replace"])
def test_injected_oserror_through_the_cli(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    before = save.path.read_bytes()
    _inject(monkeypatch, where)
    code = main(["--save", str(save.path), "do", "note", "text=hello", "--json"])
    out, err = capsys.readouterr()
    monkeypatch.undo()
    assert (code, out) == (2, "")
    message = orjson.loads(err)["error"]
    assert str(save.path) in message and REASONS[where] in message
    assert "internal error" not in message
    assert save.path.read_bytes() == before
    assert temp_files(save) == []


def test_injected_error_during_backup_keeps_save_and_season(save: WorldFile, monkeypatch: pytest.MonkeyPatch) -> None:
    before = save.path.read_bytes()
    with monkeypatch.context() as patch:
        _inject(patch, "fsync")
        with pytest.raises(StoreError):
            advance_season(save, GM)
    assert save.path.read_bytes() == before
    assert save.backups() == []
    assert list(save.backup_dir.glob(".*.tmp")) == []
    assert advance_season(save, GM).data["to"] == "Summer 312"


def test_a_seasons_backup_is_the_old_saves_file_under_a_second_name(save: WorldFile) -> None:
    """Issue 30: the backup of a season's close is the file the close read, named again (a hard
    link), not its bytes written a second time; the close's write replaces the save with a new
    file, so the backup is that old file's only name and no later change of the save reaches it."""
    before = save.path.read_bytes()
    read_inode = save.path.stat().st_ino
    advance_season(save, GM)
    (backup,) = save.backups()
    assert backup.read_bytes() == before
    assert backup.stat().st_ino == read_inode != save.path.stat().st_ino  # no copy was written
    assert backup.stat().st_nlink == 1
    save.path.write_bytes(b"a hand edit, in place")  # the save's file written over where it is
    assert backup.read_bytes() == before


@pytest.mark.parametrize("why", ["changed since read", "no hard links"])
def test_a_backup_is_written_when_the_file_is_no_longer_what_was_read_or_takes_no_link(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch, why: str
) -> None:
    raw = save.path.read_bytes()
    held = save.stamp()
    assert held is not None
    if why == "changed since read":
        save.path.write_bytes(raw + b" ")  # by hand, in place, after the read
    else:

        def no_links(*_: Any, **__: Any) -> None:
            raise PermissionError(errno.EPERM, "Operation not permitted")

        monkeypatch.setattr(os, "link", no_links)
    target = save.backup("312-spring", raw=raw, held=held)
    assert target.read_bytes() == raw and target.stat().st_ino != save.path.stat().st_ino


def test_interrupt_during_write_leaves_no_temp(save: WorldFile, monkeypatch: pytest.MonkeyPatch) -> None:
    before = save.path.read_bytes()

    def replace(src: Any, dst: Any) -> None:
        raise KeyboardInterrupt

    with monkeypatch.context() as patch:
        patch.setattr(os, "replace", replace)
        with pytest.raises(KeyboardInterrupt):
            run_command(save, GM, "note", {"text": "interrupted"})
    assert save.path.read_bytes() == before
    assert temp_files(save) == []


# --- (d) corrupt saves ---------------------------------------------------------------------------


def _corruptions(good: bytes) -> dict[str, bytes]:
    return {
        "truncated": good[: len(good) // 2],
        "truncated-end": good[:-1],
        "garbage": b"\x00\x9f\xffnot json at all\x01",
        "empty": b"",
        "blank": b"  \n\t ",
        "json-list": b"[1, 2, 3]",
        "json-string": b'"world"',
        "json-number": b"42",
        "json-tables-not-documents": b'{"kingdoms": [1, 2]}',
        "json-empty-object": b"{}",
        "json-no-meta": orjson.dumps({"kingdoms": {"x": {"name": "X"}}}),
    }


CORRUPTIONS = list(_corruptions(b"{}"))


@pytest.mark.parametrize("kind", CORRUPTIONS)
def test_corrupt_save_gives_clear_error_and_stays_untouched(save: WorldFile, kind: str) -> None:
    bad = _corruptions(save.path.read_bytes())[kind]
    save.path.write_bytes(bad)
    stat = save.path.stat()
    with pytest.raises(CorruptSaveError) as caught:
        WorldFile(save.path).read()
    message = str(caught.value)
    assert str(save.path) in message
    assert f"yak --save {save.path} restore" in message
    with pytest.raises(CorruptSaveError):
        run_command(save, GM, "note", {"text": "overwrite me?"})
    with pytest.raises(CorruptSaveError):
        advance_season(save, GM)
    with pytest.raises(CorruptSaveError):
        with save.transaction():
            raise AssertionError("a transaction never starts on a corrupt save")
    assert save.path.read_bytes() == bad
    assert save.path.stat().st_ino == stat.st_ino
    assert save.path.stat().st_mtime_ns == stat.st_mtime_ns
    assert save.backups() == []


@pytest.mark.parametrize("kind", ["truncated", "garbage", "empty", "json-list", "json-empty-object"])
def test_corrupt_save_through_the_cli(save: WorldFile, capsys: pytest.CaptureFixture[str], kind: str) -> None:
    bad = _corruptions(save.path.read_bytes())[kind]
    save.path.write_bytes(bad)
    for argv in (
        ["show"],
        ["show", "--json"],
        ["do", "note", "text=x"],
        ["advance"],
        ["log", "--json"],
        ["undo"],
        ["--as", "king:elbreth", "show"],
    ):
        code = main(["--save", str(save.path), *argv])
        out, err = capsys.readouterr()
        assert code == 2, argv
        assert out == "", argv
        assert str(save.path) in err and "restore" in err, err
        assert "internal error" not in err
    assert save.path.read_bytes() == bad
    assert save.backups() == []


def test_corrupt_save_through_the_installed_yak(save: WorldFile) -> None:
    bad = save.path.read_bytes()[:100]
    save.path.write_bytes(bad)
    done = subprocess.run(
        [str(Path(PYTHON).parent / "yak"), "--save", str(save.path), "show"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert done.stdout == ""
    assert str(save.path) in done.stderr and "restore" in done.stderr
    assert save.path.read_bytes() == bad


def test_unreadable_save_is_a_store_error(tmp_path: Path) -> None:
    path = tmp_path / "world.json"
    path.mkdir()  # a directory where the save should be
    with pytest.raises(StoreError, match="cannot read save"):
        WorldFile(path).read()
    with pytest.raises(StoreError, match="no save at"):
        WorldFile(tmp_path / "missing.json").read()


# --- (e) backups and restore ---------------------------------------------------------------------


def test_restore_lists_and_restores_keeping_the_replaced_file(
    save: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    spring = save.path.read_bytes()
    advance_season(save, GM)
    summer = save.path.read_bytes()
    advance_season(save, GM)
    run_command(save, GM, "note", {"text": "autumn news"})
    current = save.path.read_bytes()
    names = [p.name for p in save.backups()]
    assert len(names) == 2
    assert "312-spring" in names[0] and "312-summer" in names[1]

    def yak(*argv: str) -> tuple[int, Any, str]:
        code = main(["--save", str(save.path), "--json", "restore", *argv])
        out, err = capsys.readouterr()
        return code, orjson.loads(out) if out else None, err

    code, out, _ = yak()
    assert (code, out) == (0, {"backups": names})
    code, out, err = yak(names[0])
    assert code == 0, err
    assert out == {
        "restored": names[0],
        "save": str(save.path),
        "abandoned_rolls": 0,
        "seasons": ["Spring 312", "Summer 312", "Autumn 312"],
    }
    assert_restored(save.path.read_bytes(), spring)
    aside = save.path.with_name("world.json.before-restore")
    assert aside.read_bytes() == current
    assert World(save.read()).date.label() == "Spring 312"
    restored_spring = save.path.read_bytes()
    # By stem too; the newest aside is kept.
    code, out, err = yak(Path(names[1]).stem)
    assert code == 0, err
    assert_restored(save.path.read_bytes(), summer)
    assert aside.read_bytes() == restored_spring
    summer_restored = save.path.read_bytes()
    # Refusals: unknown name (lists the known ones), not the GM; nothing changes.
    code, out, err = yak("no-such-backup")
    assert (code, out) == (2, None)
    assert names[0] in orjson.loads(err)["error"]
    code = main(["--save", str(save.path), "--as", "king:elbreth", "restore", names[0]])
    assert code == 2
    capsys.readouterr()
    assert save.path.read_bytes() == summer_restored


def test_restore_recovers_a_corrupt_save(save: WorldFile) -> None:
    good = save.path.read_bytes()
    advance_season(save, GM)
    (backup,) = save.backups()
    save.path.write_bytes(b"\x00garbage")
    restored = WorldFile(save.path).restore(backup.name)
    assert restored == backup
    assert save.path.read_bytes() == good
    assert save.path.with_name("world.json.before-restore").read_bytes() == b"\x00garbage"
    run_command(save, GM, "note", {"text": "back in business"})


def test_restore_refuses_a_corrupt_backup(save: WorldFile) -> None:
    advance_season(save, GM)
    (backup,) = save.backups()
    backup.write_bytes(b"{truncated")
    before = save.path.read_bytes()
    with pytest.raises(CorruptSaveError, match=backup.name):
        save.restore(backup.name)
    assert save.path.read_bytes() == before
    assert not save.path.with_name("world.json.before-restore").exists()


def test_restore_with_no_backups(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--save", str(tmp_path / "none.json"), "restore", "--json"])
    out, _ = capsys.readouterr()
    assert (code, orjson.loads(out)) == (0, {"backups": []})


# --- (f) reads reopen the file -------------------------------------------------------------------


def test_reads_reopen_the_file(save: WorldFile) -> None:
    other = WorldFile(save.path)
    assert World(other.read()).table("chronicle") == {}
    run_command(save, GM, "note", {"text": "from the first handle"})
    assert [e["text"] for e in World(other.read()).table("chronicle").values()] == ["from the first handle"]
    run_command(other, GM, "note", {"text": "from the second"})
    assert len(World(save.read()).table("chronicle")) == 2
    # A transaction reloads too: it never writes back a stale copy.
    run_command(save, GM, "note", {"text": "third"})
    assert len(World(other.read()).table("chronicle")) == 3


def test_write_happens_once_per_command(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    replaced: list[str] = []
    real = os.replace

    def counting(src: Any, dst: Any) -> None:
        replaced.append(str(dst))
        real(src, dst)

    monkeypatch.setattr(os, "replace", counting)
    run_command(save, GM, "note", {"text": "one write"})
    # The save once; its vouch and change journal (small sidecars, no fsync) just before it.
    assert replaced == [str(save.vouch), str(save.journal), str(save.path)]
    # Through the CLI too, and the save is read once (the `--as` check runs in the transaction).
    replaced.clear()
    reads: list[Path] = []
    real_read = AtomicOrjsonStorage.read_bytes

    def counting_read(self: AtomicOrjsonStorage) -> bytes:
        reads.append(self.path)
        return real_read(self)

    monkeypatch.setattr(AtomicOrjsonStorage, "read_bytes", counting_read)
    assert main(["--save", str(save.path), "--as", "king:elbreth", "do", "note", "text=cli"]) == 0
    assert replaced == [str(save.vouch), str(save.journal), str(save.path)]
    assert reads == [save.path]


def test_tinydb_storage_contract(tmp_path: Path) -> None:
    """AtomicOrjsonStorage is a TinyDB Storage without caching: two databases see each other."""
    from tinydb import TinyDB

    path = tmp_path / "plain.json"
    first = TinyDB(path, storage=AtomicOrjsonStorage, create=True)
    second = TinyDB(path, storage=AtomicOrjsonStorage)
    first.table("kingdoms").insert({"name": "Elbreth"})
    assert [d["name"] for d in second.table("kingdoms").all()] == ["Elbreth"]
    second.table("kingdoms").insert({"name": "Varos"})
    assert len(first.table("kingdoms").all()) == 2
    assert orjson.loads(path.read_bytes())["kingdoms"] == {"1": {"name": "Elbreth"}, "2": {"name": "Varos"}}
    assert list(tmp_path.glob(".*.tmp")) == []


def test_create_refuses_to_overwrite(save: WorldFile) -> None:
    before = save.path.read_bytes()
    with pytest.raises(StoreError, match="already exists"):
        create_world(save.path)
    assert save.path.read_bytes() == before


def test_lock_timeout_is_a_clear_error(save: WorldFile) -> None:
    blocker = WorldFile(save.path)
    with blocker.transaction():
        with pytest.raises(StoreError, match="locked by another process"):
            run_command(WorldFile(save.path, lock_timeout=0.05), GM, "note", {"text": "waits"})
