"""The world file under races and faults (issue 11): racing advances, a symlinked save, a kill
inside the backup write, read-only and missing directories, a lock held too long, a backups
path that is a file; and `restore` under the same conditions."""

from __future__ import annotations

import asyncio
import errno
import fcntl
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any

import orjson
import pytest

from tests.store.restored import assert_restored
from yak_tui.cli import main
from yak_tui.kernel.play.commands import load_command_modules
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.season.session import advance_season
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.store import storage
from yak_tui.store.files import decode_save
from yak_tui.store.storage import StoreError, WorldFile

HERE = Path(__file__).parent
PYTHON = sys.executable
YAK = str(Path(PYTHON).parent / "yak")
BOUND = 60.0  # seconds any one wait may take before the test fails (never a guess at timing)
ROUNDS = 5

load_command_modules()


# --- helpers ---------------------------------------------------------------------------------------


class LineReader:
    """Lines from a child's stdout, each waited for with a generous bound instead of forever."""

    def __init__(self, stream: IO[str]) -> None:
        self.stream = stream
        self.lines: queue.Queue[str] = queue.Queue()
        self.pump = threading.Thread(target=self._pump, args=(stream,), daemon=True)
        self.pump.start()

    def close(self) -> None:
        """After the child has exited: let the pump reach the end of the stream, then close it."""
        self.pump.join(BOUND)
        self.stream.close()

    def _pump(self, stream: IO[str]) -> None:
        for line in stream:
            self.lines.put(line)
        self.lines.put("")

    def next(self, what: str) -> str:
        try:
            return self.lines.get(timeout=BOUND).rstrip("\n")
        except queue.Empty:
            raise AssertionError(f"timed out waiting for {what}") from None


class Worker:
    """A warm `yak` in its own process (yak_worker.py): two told at once really race."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [PYTHON, str(HERE / "yak_worker.py")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )
        assert self.proc.stdout is not None
        self.reader = LineReader(self.proc.stdout)
        assert self.reader.next("the worker to start") == "ready"

    def send(self, *argv: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(orjson.dumps(list(argv)).decode() + "\n")
        self.proc.stdin.flush()

    def answer(self) -> dict[str, Any]:
        line = self.reader.next("the worker's answer")
        assert line, "the worker died"
        answer: dict[str, Any] = orjson.loads(line)
        return answer

    def run(self, *argv: str) -> dict[str, Any]:
        self.send(*argv)
        return self.answer()

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=BOUND)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self.reader.close()


@pytest.fixture
def workers() -> Iterator[tuple[Worker, Worker]]:
    pair = (Worker(), Worker())
    try:
        yield pair
    finally:
        for worker in pair:
            worker.close()


def race(pair: tuple[Worker, Worker], first: list[str], second: list[str]) -> list[dict[str, Any]]:
    """Tell both workers at the same moment, then collect both answers."""
    pair[0].send(*first)
    pair[1].send(*second)
    return [pair[0].answer(), pair[1].answer()]


def date_of(path: Path) -> str:
    return World(WorldFile(path).read()).date.label()


def date_in(raw: bytes, where: Path) -> str:
    return World(decode_save(where, raw)).date.label()


def notes_in(raw: bytes, where: Path) -> list[str]:
    world = World(decode_save(where, raw))
    return [e["text"] for _, e in sorted(world.all("chronicle")) if e["kind"] == "note"]


def tree(root: Path) -> dict[str, tuple[str, bytes | str, int]]:
    """Every path under root: its kind, its bytes (or link target) and its mode; to prove nothing changed."""
    found: dict[str, tuple[str, bytes | str, int]] = {}
    for path in sorted(root.rglob("*")):
        key = str(path.relative_to(root))
        mode = path.lstat().st_mode & 0o7777
        if path.is_symlink():
            found[key] = ("link", os.readlink(path), mode)
        elif path.is_dir():
            found[key] = ("dir", b"", mode)
        else:
            found[key] = ("file", path.read_bytes(), mode)
    return found


def yak(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_one_line_error(code: int, out: str, err: str, *needles: str) -> None:
    assert code == 2, err
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, f"not one line: {err!r}"
    assert "internal error" not in err and "Errno" not in err, err
    for needle in needles:
        assert needle in err, f"{needle!r} not in {err!r}"


@pytest.fixture
def save(tmp_path: Path) -> WorldFile:
    return create_world(tmp_path / "saves" / "world.json")


@pytest.fixture
def winter(tmp_path: Path) -> tuple[Path, bytes]:
    """A world in Winter 312 (the next advance runs year start) and its exact bytes; no backups."""
    save = create_world(tmp_path / "saves" / "world.json")
    for _ in range(3):
        advance_season(save, GM)
    shutil.rmtree(save.backup_dir)
    assert date_of(save.path) == "Winter 312"
    return save.path, save.path.read_bytes()


def back_to(path: Path, raw: bytes) -> None:
    """Put the save back as it was and forget its backups (between race rounds; nobody is running)."""
    path.write_bytes(raw)
    shutil.rmtree(path.parent / "backups", ignore_errors=True)


# --- 4. two advances at once -------------------------------------------------------------------------


@pytest.mark.slow
def test_racing_advances_from_the_same_season_one_wins_and_one_is_refused(
    winter: tuple[Path, bytes], workers: tuple[Worker, Worker]
) -> None:
    path, raw = winter
    argv = ["--save", str(path), "--json", "advance", "--from", "Winter 312"]
    for worker in workers:  # warm: every module the advance needs is imported before the race
        assert worker.run("--save", str(path), "advance", "--preview", "--json")["code"] == 0
    for round_no in range(ROUNDS):
        back_to(path, raw)
        answers = race(workers, argv, argv)
        assert sorted(a["code"] for a in answers) == [0, 2], f"round {round_no}: {answers}"
        won = next(a for a in answers if a["code"] == 0)
        refused = next(a for a in answers if a["code"] == 2)
        assert orjson.loads(won["out"])["to"] == "Spring 313"
        assert refused["out"] == ""
        error = orjson.loads(refused["err"])
        assert error["field"] == "from"
        assert "Spring 313" in error["error"] and "Winter 312" in error["error"], error
        assert date_of(path) == "Spring 313", f"round {round_no}: two seasons passed"
        (backup,) = WorldFile(path).backups()
        assert backup.read_bytes() == raw, f"round {round_no}: the backup is not the closed season"


@pytest.mark.slow
def test_racing_advances_without_from_back_up_each_season_they_close(
    winter: tuple[Path, bytes], workers: tuple[Worker, Worker]
) -> None:
    path, raw = winter
    argv = ["--save", str(path), "--json", "advance"]
    for worker in workers:
        assert worker.run("--save", str(path), "advance", "--preview", "--json")["code"] == 0
    for round_no in range(ROUNDS):
        back_to(path, raw)
        answers = race(workers, argv, argv)
        assert [a["code"] for a in answers] == [0, 0], answers
        moves = sorted((orjson.loads(a["out"])["from"], orjson.loads(a["out"])["to"]) for a in answers)
        assert moves == [("Spring 313", "Summer 313"), ("Winter 312", "Spring 313")], f"round {round_no}"
        assert date_of(path) == "Summer 313"
        held = {date_in(p.read_bytes(), p): p for p in WorldFile(path).backups()}
        assert sorted(held) == ["Spring 313", "Winter 312"], f"round {round_no}: a season was lost: {held}"
        assert held["Winter 312"].read_bytes() == raw
        assert "--312-winter--" in held["Winter 312"].name and "--313-spring--" in held["Spring 313"].name


def test_advance_from_a_season_that_has_passed_is_refused_and_changes_nothing(
    save: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = yak(capsys, "--save", str(save.path), "--json", "advance", "--from", "Spring 312")
    assert code == 0, err
    assert orjson.loads(out)["to"] == "Summer 312"
    before = tree(save.path.parent)
    code, out, err = yak(capsys, "--save", str(save.path), "advance", "--from", "Spring 312")
    assert_one_line_error(code, out, err, "Summer 312", "Spring 312", "nothing was changed")
    code, out, err = yak(capsys, "--save", str(save.path), "advance", "--from", "Springtime")
    assert_one_line_error(code, out, err, "Springtime")
    assert tree(save.path.parent) == before
    code, out, err = yak(capsys, "--save", str(save.path), "advance", "--from", "summer 312")
    assert code == 0, err


def test_the_app_refuses_to_advance_a_season_that_closed_after_its_preview(save: WorldFile) -> None:
    """The advance dialog sends the season it previewed: if someone else closed it meanwhile, the
    GM sees a refusal instead of closing a season nobody previewed."""
    from textual.widgets import Button, Static

    from yak_tui.app.main import YakApp
    from yak_tui.app.shell.advance import AdvanceScreen

    async def until(pilot: Any, condition: Callable[[], bool], what: str) -> None:
        for _ in range(int(BOUND / 0.05)):
            await pilot.pause(0.05)
            if condition():
                return
        raise AssertionError(f"timed out waiting for {what}")

    async def scenario() -> str:
        app = YakApp(save.path, "gm", animations=False, cursor_blink=False)
        async with app.run_test(size=(110, 40)) as pilot:
            await pilot.press("a")
            await until(pilot, lambda: isinstance(app.screen, AdvanceScreen), "the dialog")
            dialog = app.screen
            confirm = dialog.query_one("#confirm", Button)
            await until(pilot, lambda: not confirm.disabled, "the preview")
            assert str(confirm.label) == "Advance to Summer 312"
            advance_season(WorldFile(save.path), GM)  # another terminal closes Spring meanwhile
            dialog.query_one("#confirm", Button).press()
            await until(
                pilot,
                lambda: not dialog.running and dialog.query_one("#close", Button).label == "Close",
                "the advance to finish",
            )
            return str(dialog.query_one("#preview", Static).render())

    shown = asyncio.run(scenario())
    assert "Summer 312" in shown and "Spring 312" in shown, shown
    assert date_of(save.path) == "Summer 312", "the app closed a season it never previewed"
    assert len(save.backups()) == 1


# --- 5. a symlinked save ---------------------------------------------------------------------------


@pytest.fixture
def linked(tmp_path: Path) -> tuple[Path, Path]:
    """links/campaign.json -> ../real/world.json (a relative link, another name, another directory)."""
    target = create_world(tmp_path / "real" / "world.json").path
    link = tmp_path / "links" / "campaign.json"
    link.parent.mkdir()
    link.symlink_to(os.path.relpath(target, link.parent))
    return link, target


def test_commands_through_a_symlink_land_in_the_target(
    linked: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    link, target = linked
    assert yak(capsys, "--save", str(link), "do", "note", "text=via the link")[0] == 0
    assert yak(capsys, "--save", str(target), "do", "note", "text=via the target")[0] == 0
    assert yak(capsys, "--save", str(link), "advance")[0] == 0
    assert yak(capsys, "--save", str(link), "do", "note", "text=summer news")[0] == 0
    assert link.is_symlink() and link.resolve() == target
    assert notes_in(target.read_bytes(), target) == ["via the link", "via the target", "summer news"]
    assert date_of(target) == "Summer 312"
    # Nothing of the save's lives beside the link: lock, backups and temp files are the target's.
    assert sorted(p.name for p in link.parent.iterdir()) == ["campaign.json"]
    assert WorldFile(link).lock.lock_file == WorldFile(target).lock.lock_file == f"{target}.lock"
    (backup,) = WorldFile(target).backups()
    assert backup.parent == target.parent / "backups"
    # restore lists and restores the same backups through either path, and the link stays a link.
    listed = [orjson.loads(yak(capsys, "--save", str(p), "--json", "restore")[1])["backups"] for p in (link, target)]
    assert listed == [[backup.name], [backup.name]]
    before_restore = target.read_bytes()
    code, _, err = yak(capsys, "--save", str(link), "--json", "restore", backup.name)
    assert code == 0, err
    assert link.is_symlink() and link.resolve() == target
    assert_restored(target.read_bytes(), backup.read_bytes())
    assert target.with_name("world.json.before-restore").read_bytes() == before_restore
    assert sorted(p.name for p in link.parent.iterdir()) == ["campaign.json"]


def test_new_through_a_dangling_symlink_creates_the_target(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "real" / "world.json"
    target.parent.mkdir()
    link = tmp_path / "campaign.json"
    link.symlink_to(target)
    assert yak(capsys, "new", str(link), "--demo")[0] == 0
    assert link.is_symlink() and target.is_file()
    assert yak(capsys, "new", str(link), "--force")[0] == 0
    assert link.is_symlink() and World(WorldFile(target).read()).table("kingdoms") == {}  # the empty world


@pytest.mark.slow
def test_a_link_and_its_target_share_one_lock(linked: tuple[Path, Path], tmp_path: Path) -> None:
    link, target = linked
    go = tmp_path / "go"
    workers = [
        subprocess.Popen(
            [PYTHON, str(HERE / "note_worker.py"), str(path), name, "50", str(go)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, path in (("link", link), ("target", target))
    ]
    try:
        for worker in workers:
            assert worker.stdout is not None
            assert worker.stdout.readline().strip() == "ready"
        go.touch()
        for worker in workers:
            _, err = worker.communicate(timeout=120)
            assert worker.returncode == 0, err
    finally:
        for worker in workers:
            if worker.poll() is None:
                worker.kill()
                worker.wait()
    assert link.is_symlink() and link.resolve() == target
    notes = notes_in(target.read_bytes(), target)
    assert sorted(notes) == sorted(f"{n} {i}" for n in ("link", "target") for i in range(50))
    assert sorted(p.name for p in link.parent.iterdir()) == ["campaign.json"]


@pytest.mark.slow
def test_restore_racing_a_command_loses_nothing(linked: tuple[Path, Path], workers: tuple[Worker, Worker]) -> None:
    """restore through the link against a note through the target: the note ends up either in the
    restored save (it came second) or in the before-restore copy (it came first), never nowhere."""
    link, target = linked
    advance_season(WorldFile(target), GM)
    (backup,) = WorldFile(target).backups()
    aside = target.with_name("world.json.before-restore")
    for worker in workers:
        assert worker.run("--save", str(target), "restore", "--json")["code"] == 0
    for round_no in range(ROUNDS):
        note = f"round {round_no}"
        answers = race(
            workers,
            ["--save", str(link), "restore", backup.name],
            ["--save", str(target), "do", "note", f"text={note}"],
        )
        assert [a["code"] for a in answers] == [0, 0], answers
        assert link.is_symlink() and link.resolve() == target
        current = target.read_bytes()
        in_save = note in notes_in(current, target)
        in_aside = note in notes_in(aside.read_bytes(), aside)
        assert in_save != in_aside, f"round {round_no}: the note is in the save: {in_save}, aside: {in_aside}"
        if not in_save:
            assert_restored(current, backup.read_bytes())
        assert date_in(current, target) == "Spring 312"


# --- 6. a kill inside the backup write; faults that must be clear errors -----------------------------


def test_kill_9_inside_the_backup_write_leaves_a_temp_the_next_command_sweeps(
    save: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    before = save.path.read_bytes()
    save.backup_dir.mkdir()
    # Not ours to sweep: another save's temp in the shared backups/, and a stranger's file.
    others = [
        save.backup_dir / ".world-2--312-spring--20240101T000000000000.json.abcd1234.tmp",
        save.backup_dir / ".notes.tmp",
        save.backup_dir / "world--312-spring--x.json.tmp",
        save.path.with_name(".world.json.old.json.abcd1234.tmp"),
    ]  # the temp of a save world.json.old.json
    ours = [
        save.path.with_name(".world.json.k1ll3d_x.tmp"),
        save.path.with_name(".world.json.before-restore.k1ll3d_x.tmp"),
        save.path.with_name(".world.json.vouch.k1ll3d_x.tmp"),
    ]
    for stale in ours:
        stale.write_bytes(b"a killed writer's")
    for other in others:
        other.write_bytes(b"someone else's")
    victim = subprocess.Popen(
        [PYTHON, str(HERE / "backup_victim.py"), str(save.path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert victim.stdout is not None
    reader = LineReader(victim.stdout)
    try:
        line = reader.next("the victim to be inside the backup write")
        assert line.startswith("mid-backup "), line
        temp = Path(line.split(" ", 1)[1])
        assert temp.parent == save.backup_dir
        assert temp.read_bytes() == before  # a full-size temp: the whole save was written
        os.kill(victim.pid, signal.SIGKILL)
        assert victim.wait(timeout=BOUND) == -signal.SIGKILL
    finally:
        if victim.poll() is None:
            victim.kill()
            victim.wait()
        reader.close()
        if victim.stderr is not None:
            victim.stderr.close()
    assert save.path.read_bytes() == before
    assert temp.exists()
    assert save.backups() == []
    # Reading does not sweep (it takes no lock); the next command does.
    assert yak(capsys, "--save", str(save.path), "show")[0] == 0
    assert temp.exists()
    code, _, err = yak(capsys, "--save", str(save.path), "do", "note", "text=after the kill")
    assert code == 0, err
    assert not temp.exists()
    assert not any(stale.exists() for stale in ours)
    assert all(other.read_bytes() == b"someone else's" for other in others)
    code, _, err = yak(capsys, "--save", str(save.path), "advance")
    assert code == 0, err
    assert len(save.backups()) == 1
    assert sorted(p.name for p in save.backup_dir.iterdir()) == sorted(
        [save.backups()[0].name, *(o.name for o in others[:3])]
    )


def _refuse_lock_files(monkeypatch: pytest.MonkeyPatch, code: int) -> None:
    """Fault injection standing in for a read-only directory: creating a `.lock` fails with `code`."""
    real_open = os.open

    def guarded(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if str(path).endswith(".lock") and not os.path.exists(path):
            raise OSError(code, os.strerror(code), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", guarded)


def with_backup(save: WorldFile) -> str:
    advance_season(save, GM)
    return save.backups()[-1].name


@pytest.mark.parametrize("code", [errno.EACCES, errno.EROFS], ids=["EACCES", "EROFS"])
def test_a_lock_file_that_cannot_be_created_is_a_clear_error(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], code: int
) -> None:
    name = with_backup(save)
    Path(f"{save.path}.lock").unlink()
    before = tree(save.path.parent)
    _refuse_lock_files(monkeypatch, code)
    for argv in (["do", "note", "text=x"], ["advance"], ["undo"], ["restore", name]):
        code_, out, err = yak(capsys, "--save", str(save.path), *argv)
        assert_one_line_error(
            code_,
            out,
            err,
            f"{save.path}.lock",
            str(save.path.parent),
            "not writable",
            os.strerror(code),
            "nothing was changed",
        )
    monkeypatch.undo()
    assert tree(save.path.parent) == before


def test_an_unwritable_save_file_is_a_clear_error(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Fault injection (root may write anything): the system says the save may not be written."""
    name = with_backup(save)
    before = tree(save.path.parent)
    real_access = os.access

    def access(path: Any, mode: int, *args: Any, **kwargs: Any) -> bool:
        if Path(path) == save.path and mode & os.W_OK:
            return False
        return real_access(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)
    for argv in (["do", "note", "text=x"], ["advance"], ["restore", name]):
        code, out, err = yak(capsys, "--save", str(save.path), *argv)
        assert_one_line_error(code, out, err, str(save.path), "read-only", "nothing was changed")
    monkeypatch.undo()
    assert tree(save.path.parent) == before


DROP_DAC = ["--bounding-set=-dac_override,-dac_read_search"]


@pytest.fixture
def unprivileged(tmp_path: Path) -> list[str]:
    """The command prefix under which file permissions apply: none for a normal user; for root,
    setpriv dropping the capabilities that bypass them. Skips when neither works here."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root without setpriv: chmod cannot make a file read-only here")
        prefix = [setpriv, *DROP_DAC]
    probe = tmp_path / "probe"
    probe.mkdir()
    probe.chmod(0o555)
    try:
        done = subprocess.run([*prefix, "touch", str(probe / "x")], capture_output=True, timeout=BOUND)
    finally:
        probe.chmod(0o755)
    if done.returncode == 0:
        pytest.skip("file permissions do not apply to this user here")
    shutil.rmtree(probe)
    return prefix


@pytest.mark.slow
@pytest.mark.parametrize("fault", ["read-only directory", "read-only directory with its lock file", "read-only save"])
def test_real_read_only_files_give_clear_errors(save: WorldFile, unprivileged: list[str], fault: str) -> None:
    name = with_backup(save)
    directory = save.path.parent
    if fault == "read-only directory":
        Path(f"{save.path}.lock").unlink()
    if fault.startswith("read-only directory"):
        directory.chmod(0o555)
        needles = [str(directory), "not writable"]
    else:
        save.path.chmod(0o444)
        needles = [str(save.path), "read-only"]
    before = tree(directory)
    try:
        for argv in (["do", "note", "text=x"], ["advance"], ["restore", name]):
            done = subprocess.run(
                [*unprivileged, YAK, "--save", str(save.path), *argv], capture_output=True, text=True, timeout=BOUND
            )
            assert_one_line_error(done.returncode, done.stdout, done.stderr, *needles, "nothing was changed")
            assert tree(directory) == before, argv
        done = subprocess.run(
            [*unprivileged, YAK, "--save", str(save.path), "show"], capture_output=True, text=True, timeout=BOUND
        )
        assert done.returncode == 0, done.stderr  # reading needs no write access
    finally:
        directory.chmod(0o755)
        save.path.chmod(0o644)


def test_a_missing_directory_is_a_clear_error_and_is_not_created(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    gone = tmp_path / "gone" / "deeper" / "world.json"
    with pytest.raises(StoreError, match="does not exist"):
        with WorldFile(gone).transaction():
            raise AssertionError("a transaction never starts without its directory")
    with pytest.raises(StoreError, match="does not exist"):
        WorldFile(gone).restore("anything")
    for argv in (["do", "note", "text=x"], ["advance"], ["undo"], ["restore", "anything"], ["show"]):
        code, out, err = yak(capsys, "--save", str(gone), *argv)
        assert_one_line_error(code, out, err, str(gone))
    assert sorted(p.name for p in tmp_path.iterdir()) == []


def test_a_lock_held_too_long_is_a_clear_error(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    name = with_backup(save)
    monkeypatch.setattr(storage, "LOCK_TIMEOUT", 0.05)
    with WorldFile(save.path, lock_timeout=BOUND).transaction():
        before = tree(save.path.parent)
        for argv in (
            ["do", "note", "text=x"],
            ["advance"],
            ["advance", "--from", "Summer 312"],
            ["undo"],
            ["restore", name],
        ):
            code, out, err = yak(capsys, "--save", str(save.path), *argv)
            assert_one_line_error(
                code, out, err, str(save.path), "locked by another", f"{save.path}.lock", "nothing was changed"
            )
        assert tree(save.path.parent) == before


def test_a_backups_path_that_is_a_file_is_a_clear_error(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    save.backup_dir.write_bytes(b"the GM's notes, not a directory")
    before = tree(save.path.parent)
    code, out, err = yak(capsys, "--save", str(save.path), "advance")
    assert_one_line_error(code, out, err, str(save.backup_dir), "not a directory", "nothing was changed")
    assert tree(save.path.parent) == before
    assert yak(capsys, "--save", str(save.path), "--json", "restore")[:2] == (0, '{"backups":[]}\n')
    code, out, err = yak(capsys, "--save", str(save.path), "restore", "world--312-spring--x")
    assert_one_line_error(code, out, err, "no backup named")
    assert tree(save.path.parent) == before
    # Other commands need no backups and still work.
    assert yak(capsys, "--save", str(save.path), "do", "note", "text=still fine")[0] == 0
    assert save.backup_dir.read_bytes() == b"the GM's notes, not a directory"


def test_restore_waits_for_the_lock_of_a_running_command(save: WorldFile) -> None:
    """A restore started while a command holds the lock restores after it, keeping its result aside."""
    name = with_backup(save)
    holding, proceed = threading.Event(), threading.Event()
    restored: list[BaseException | Path] = []

    def command() -> None:
        with WorldFile(save.path).transaction() as data:
            holding.set()
            assert proceed.wait(BOUND)
            world = World(data)
            world.meta["held"] = True

    def restore() -> None:
        try:
            restored.append(WorldFile(save.path, lock_timeout=BOUND).restore(name))
        except BaseException as error:
            restored.append(error)

    holder = threading.Thread(target=command)
    holder.start()
    assert holding.wait(BOUND)
    restorer = threading.Thread(target=restore)
    restorer.start()
    proceed.set()
    holder.join(BOUND)
    restorer.join(BOUND)
    assert [type(r) for r in restored] == [type(save.path)], restored
    assert save.path.read_bytes() == save.backups()[-1].read_bytes()
    aside = save.path.with_name("world.json.before-restore")
    assert World(decode_save(aside, aside.read_bytes())).meta.get("held") is True


def _lock_is_held(save: WorldFile) -> bool:
    """Whether some handle holds the save's lock right now (flock probe on a fresh descriptor)."""
    fd = os.open(save.lock.lock_file, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    finally:
        os.close(fd)
    return False


def test_advance_reads_the_save_once_inside_the_lock_and_backs_up_those_bytes(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    reads: list[bool] = []
    real_read = storage.AtomicOrjsonStorage.read_bytes

    def read_bytes(self: storage.AtomicOrjsonStorage) -> bytes:
        reads.append(_lock_is_held(save))
        return real_read(self)

    monkeypatch.setattr(storage.AtomicOrjsonStorage, "read_bytes", read_bytes)
    before = save.path.read_bytes()
    advance_season(save, GM)
    assert reads == [True]
    assert save.backups()[-1].read_bytes() == before
