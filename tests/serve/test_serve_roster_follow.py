"""Issue 13: `yak serve`'s roster follows the save as the apps do (`follow_save`): a seat added or
removed by another process is seen from the save's change journal, without reading the save in
full; when the journal cannot say (gone, spoilt), the roster reads the save in full and sees it too."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import asyncssh
import pytest
from yak_plugin import counting_full_reads

from yak_tui.kernel.world.demo import create_world
from yak_tui.serve.roster import Roster
from yak_tui.store.storage import WorldFile

YAK = "import sys\nfrom yak_tui.cli import main\nsys.exit(main(sys.argv[1:]))"


def _yak(save: WorldFile, *args: str) -> None:
    """`yak --save SAVE ARGS` in a process of its own, as the GM's terminal would run it."""
    done = subprocess.run(
        [sys.executable, "-c", YAK, "--save", str(save.path), *args], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr


def _key(tmp_path: Path) -> tuple[Path, str]:
    key = asyncssh.generate_private_key("ssh-ed25519", comment="mirela@laptop")
    path = tmp_path / "mirela.pub"
    path.write_bytes(key.export_public_key())
    return path, key.get_fingerprint("sha256")


@pytest.fixture()
def save(tmp_path: Path) -> WorldFile:
    return create_world(tmp_path / "w.json")


def test_a_seat_added_and_removed_by_another_process_is_seen_from_the_journal(
    save: WorldFile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    roster = Roster(save.path)
    key, fingerprint = _key(tmp_path)
    assert roster.lookup(fingerprint) == (None, "unknown key")
    reads = counting_full_reads(monkeypatch)

    _yak(save, "user", "add", "mirela", "--identity", "king:varos", "--key", str(key))
    user, reason = roster.lookup(fingerprint)
    assert reason == "" and user is not None and user.name == "mirela" and str(user.identity) == "king:varos"
    assert roster.seat_gone(user) == ""

    _yak(save, "user", "remove", "mirela")
    assert roster.seat_gone(user) == "removed"
    assert roster.lookup(fingerprint) == (None, "unknown key")
    assert reads == []  # two writes by another process, and the save was never read in full


@pytest.mark.parametrize("spoil", ["gone", "not json"])
def test_when_the_journal_cannot_say_the_roster_reads_the_save_in_full(
    save: WorldFile, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, spoil: str
) -> None:
    roster = Roster(save.path)
    key, fingerprint = _key(tmp_path)
    assert roster.lookup(fingerprint) == (None, "unknown key")
    _yak(save, "user", "add", "mirela", "--identity", "king:varos", "--key", str(key))
    if spoil == "gone":
        save.journal.unlink()
    else:
        save.journal.write_bytes(b"not json")
    reads = counting_full_reads(monkeypatch)
    user, reason = roster.lookup(fingerprint)
    assert reason == "" and user is not None and user.name == "mirela"
    assert reads == [save.path]
