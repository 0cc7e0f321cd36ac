"""Issue 13, many apps: a reader holding the world applies the change journal a command left beside
the save (`<save>.changes`) instead of re-reading the whole save, and gets exactly the world a full
read gives; every write that cannot say what it changed (advance, restore, create, a hand-made
transaction) removes the journal first, and any journal that does not hold up means a full read."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from yak_plugin import Table, journal_entries, write_journal

from yak_tui.kernel.play.dice import SeededDice
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.season.session import advance_season
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import saved_rules
from yak_tui.store.files import Stamp
from yak_tui.store.sidecars import JOURNAL_KEEP
from yak_tui.store.storage import WorldFile


def _bytes(world: World) -> bytes:
    return orjson.dumps(world.data, option=orjson.OPT_SORT_KEYS)


def _full(save: WorldFile) -> World:
    return World(save.read())


def _tree(directory: Path) -> dict[str, bytes]:
    return {str(p.relative_to(directory)): p.read_bytes() for p in sorted(directory.rglob("*")) if p.is_file()}


class Reader:
    """Another app: holds (stamp, world) and follows the save as `SharedReads.read` does."""

    def __init__(self, save: WorldFile) -> None:
        self.save = save
        self.stamp: Stamp | None = save.stamp()
        self.world = _full(save)

    def follow(self) -> bool:
        """Catch up with the save; True when the journal did it (no full read)."""
        now = self.save.stamp()
        assert self.stamp is not None and now is not None
        changes = self.save.changes_between(self.stamp, now)
        self.stamp = now
        if changes is None:
            self.world = _full(self.save)
            return False
        held = _bytes(self.world)
        self.world = (old := self.world).with_changes(changes)
        assert _bytes(old) == held  # the world held (shared by other apps) is left as it was
        return True


def test_each_command_leaves_a_journal_that_rebuilds_exactly_what_a_full_read_gives(table: Table) -> None:
    save = table.save
    reader = Reader(save)
    commands: list[tuple[str, Callable[[], Any]]] = [
        ("note", lambda: table.run("gm", "note", text="a note for every reader")),
        (
            "roll (a dice ledger record)",
            lambda: table.run("gm", "roll", dice=[4], reason="Storm the gate", modifier="1"),
        ),
        ("gm-set", lambda: table.run("gm", "gm-set", table="kingdoms", id="elbreth", field="treasury", value="99")),
        (
            "business-open",
            lambda: table.run(
                "gm",
                "business-open",
                owner="tobias",
                province="stonereach",
                pc="ironhold",
                sector="industrial",
                name="Venn & Co",
            ),
        ),
        ("undo", lambda: table.run("gm", "undo")),
        (
            "spy-order",
            lambda: table.run("player:silas", "spy-order", mission="create-security-breach", target="elbreth"),
        ),
    ]
    for label, run in commands:
        run()
        assert save.journal.exists(), label
        assert reader.follow(), label
        assert _bytes(reader.world) == _bytes(_full(save)), label
    order = next(oid for oid, o in reader.world.all("orders") if o.get("status") == "waiting")
    table.run("gm", "spy-resolve", dice=[4, 6], order=order)
    assert reader.follow() and _bytes(reader.world) == _bytes(_full(save))

    # A season's close says what it changed, as a command does: the reader follows it too.
    advance_season(save, GM, SeededDice(7))
    assert save.journal.exists()
    assert reader.follow() and _bytes(reader.world) == _bytes(_full(save))
    table.run("gm", "note", text="after the advance")
    assert reader.follow() and _bytes(reader.world) == _bytes(_full(save))

    backup = save.backups()[-1]
    save.restore(backup.name)  # the revision numbers repeat: no chain may reach across a restore
    assert not save.journal.exists()
    assert not reader.follow() and _bytes(reader.world) == _bytes(_full(save))
    table.run("gm", "note", text="after the restore")
    assert reader.follow() and _bytes(reader.world) == _bytes(_full(save))

    with save.transaction() as data:  # a transaction that does not hand a change list
        data["kingdoms"]["elbreth"]["treasury"] = 7
    assert not save.journal.exists()
    table.run("gm", "note", text="again")
    create_world(save.path, overwrite=True)
    assert not save.journal.exists()
    assert not reader.follow() and _bytes(reader.world) == _bytes(_full(save))


def test_a_reader_several_writes_behind_applies_the_chain_and_one_the_journal_forgot_reads_in_full(
    table: Table,
) -> None:
    save = table.save
    behind, far_behind = Reader(save), Reader(save)
    table.run("gm", "note", text="first")
    for n in range(3):
        table.run("gm", "roll", dice=[n + 1], reason=f"roll {n}", modifier="0")
    assert behind.follow() and _bytes(behind.world) == _bytes(_full(save))
    for n in range(JOURNAL_KEEP):
        table.run("gm", "note", text=f"note {n}")
    assert len(journal_entries(save)) == JOURNAL_KEEP
    assert behind.follow() and _bytes(behind.world) == _bytes(_full(save))
    assert not far_behind.follow() and _bytes(far_behind.world) == _bytes(_full(save))


def test_saved_house_rules_apply_when_the_journal_brings_them(table: Table) -> None:
    save = table.save
    reader = Reader(save)
    table.run("gm", "note", text="before")
    reader.follow()
    overrides = {"core": {"backups": {"keep": 5}}}
    meta = reader.world.data["meta"]
    changed = {"meta": {"world": {**meta["world"], "rules_overrides": overrides}}}
    try:
        reader.world.with_changes([changed])
        assert saved_rules() == overrides
    finally:
        reader.world.with_changes([{"meta": meta}])
    assert saved_rules() is None


def _rewrite_journal(save: WorldFile, change: Callable[[dict[str, Any]], None]) -> None:
    """Change the journal's entries and sign them again with the campaign's key (as only a yak writer
    could): what is tested is then what the reader checks past the signature."""
    journal = {"entries": journal_entries(save)}
    change(journal)
    write_journal(save, journal["entries"])


@pytest.mark.parametrize(
    "damage",
    ["bad json", "not a journal", "other schema", "chain not from the held world", "broken chain", "short of the save"],
)
def test_a_journal_that_does_not_hold_up_means_a_full_read(table: Table, damage: str) -> None:
    save = table.save
    reader = Reader(save)
    table.run("gm", "note", text="one")
    table.run("gm", "note", text="two")
    if damage == "bad json":
        save.journal.write_bytes(b'{"entries": [')
    elif damage == "not a journal":
        save.journal.write_bytes(b"[1, 2, 3]")
    elif damage == "other schema":
        _rewrite_journal(save, lambda j: [e.update(schema_version=99) for e in j["entries"]])
    elif damage == "chain not from the held world":
        _rewrite_journal(save, lambda j: j["entries"].pop(0))
    elif damage == "broken chain":
        _rewrite_journal(save, lambda j: j["entries"][1].update(before=[1, 2, 3]))
    elif damage == "short of the save":
        _rewrite_journal(save, lambda j: j["entries"].pop())
    assert not reader.follow()
    assert _bytes(reader.world) == _bytes(_full(save))


def test_a_journal_document_that_fails_validation_is_refused(table: Table) -> None:
    save = table.save
    reader = Reader(save)
    table.run("gm", "note", text="one")
    assert reader.stamp is not None
    journal = save.journal.read_bytes()
    _rewrite_journal(
        save,
        lambda j: j["entries"][0]["docs"]["chronicle"].update(
            {next(iter(j["entries"][0]["docs"]["chronicle"])): {"text": 5}}
        ),
    )
    changes = save.changes_between(reader.stamp, save.stamp() or (0, 0, 0))
    assert changes is not None
    held = _bytes(reader.world)
    with pytest.raises(ValueError, match="chronicle"):
        reader.world.with_changes(changes)
    save.journal.write_bytes(journal)
    _rewrite_journal(save, lambda j: j["entries"][0]["docs"]["meta"]["world"].pop("date"))
    changes = save.changes_between(reader.stamp, save.stamp() or (0, 0, 0))
    assert changes is not None
    with pytest.raises(ValueError, match="meta"):
        reader.world.with_changes(changes)
    assert _bytes(reader.world) == held


def test_a_hand_edit_of_the_save_is_no_version_the_journal_knows(table: Table) -> None:
    save = table.save
    reader = Reader(save)
    table.run("gm", "note", text="one")
    data = orjson.loads(save.path.read_bytes())
    data["kingdoms"]["elbreth"]["treasury"] = 12345
    save.path.write_bytes(orjson.dumps(data))  # in place: same inode, new size and time
    assert not reader.follow()
    assert reader.world.get("kingdoms", "elbreth")["treasury"] == 12345


def test_reading_never_changes_the_directory(table: Table) -> None:
    save = table.save
    reader = Reader(save)
    table.run("gm", "note", text="one")
    before = _tree(save.path.parent)
    assert reader.follow()
    assert _tree(save.path.parent) == before
    save.journal.write_bytes(b"garbage")
    before = _tree(save.path.parent)
    assert not reader.follow()
    assert _tree(save.path.parent) == before


def test_a_journal_that_cannot_be_written_leaves_the_write_whole_and_readers_read_in_full(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    save = table.save
    reader = Reader(save)
    table.run("gm", "note", text="one")
    real = os.replace

    def failing(src: Any, dst: Any) -> None:
        if str(dst) == str(save.journal):
            raise OSError(28, "No space left on device")
        real(src, dst)

    monkeypatch.setattr(os, "replace", failing)
    table.run("gm", "note", text="two")
    monkeypatch.undo()
    assert not save.journal.exists()
    assert "two" in str(_full(save).data["chronicle"])
    assert not reader.follow() and _bytes(reader.world) == _bytes(_full(save))
    assert list(save.path.parent.glob(".*.tmp")) == []


def test_the_sweep_removes_a_killed_writers_journal_temp_file(tmp_path: Path) -> None:
    save = create_world(tmp_path / "world.json")
    stale = tmp_path / ".world.json.changes.ab12cd34.tmp"
    stale.write_bytes(b"{}")
    strangers = [tmp_path / ".other.json.changes.ab12cd34.tmp", tmp_path / ".world.json.changes.tmp"]
    for stranger in strangers:
        stranger.write_bytes(b"{}")
    with save.transaction():
        pass
    assert not stale.exists()
    assert all(stranger.exists() for stranger in strangers)


def test_a_roll_inside_a_command_is_journaled_with_its_ledger_record(table: Table) -> None:
    save = table.save
    table.run("gm", "roll", dice=[5], reason="Storm", modifier="0")
    entries = journal_entries(save)
    docs = entries[-1]["docs"]
    assert sorted(docs) == ["chronicle", "dice", "meta"]
    assert len(docs["dice"]) == 1


def test_a_dry_run_leaves_no_roll_in_the_world_it_tried(table: Table) -> None:
    """Filing an order checks it on a trial of the world; the trial's rolls (the dice ledger is
    written straight into its table) stayed in the real ledger, were saved, and a later roll
    overwrote them in place, unseen by a change list that counted records."""
    table.run("player:silas", "spy-order", mission="create-security-breach", target="elbreth")
    saved = table.world
    assert saved.data["dice"] == {}
    assert saved.meta.get("dice_count", 0) == 0


def test_the_first_write_after_a_migration_leaves_no_journal(table: Table) -> None:
    save = table.save
    data = orjson.loads(save.path.read_bytes())
    data["meta"]["world"]["schema_version"] = 1  # a save from before the dice ledger's version
    save.path.write_bytes(orjson.dumps(data))
    reader = Reader(save)
    table.run("gm", "note", text="written at this version")
    assert not save.journal.exists()
    assert not reader.follow() and _bytes(reader.world) == _bytes(_full(save))
    table.run("gm", "note", text="and again")
    assert reader.follow() and _bytes(reader.world) == _bytes(_full(save))


def test_a_write_of_more_documents_than_the_journal_keeps_is_read_in_full(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A season's close at scale changes thousands of documents: no journal entry (each later write
    would rewrite them all into the journal), the readers read the save; the next command starts a
    new chain. The vouch still holds: the documents it changed were checked."""
    from yak_tui.store import sidecars

    save = table.save
    reader = Reader(save)
    table.run("gm", "note", text="before the close")
    assert reader.follow()
    monkeypatch.setattr(sidecars, "JOURNAL_MAX_DOCS", 3)
    advance_season(save, GM, SeededDice(7))
    assert not save.journal.exists()
    assert save.vouch.exists()
    assert not reader.follow() and _bytes(reader.world) == _bytes(_full(save))
    table.run("gm", "note", text="after the close")
    assert reader.follow() and _bytes(reader.world) == _bytes(_full(save))
