"""Issue 30: a save's logs (the dice, the chronicle, the season reports) are written last, and a read
of a save vouched for leaves each as bytes until something asks for it. The save's bytes are exactly
what they were; what a read gives is the same world; a vouch that lies about where a log begins is a
whole read, never a wrong world."""

from __future__ import annotations

import hashlib
import threading
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given
from hypothesis import strategies as st
from yak_plugin import signed_vouch

from yak_tui.areas.magic.commands import pending_consequences
from yak_tui.cli import main
from yak_tui.kernel.play.commands import load_command_modules, run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.season.session import due_for
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World, follow_save
from yak_tui.store import files, sidecars
from yak_tui.store.files import LOG_TABLES, DeferredLogs, encode_save
from yak_tui.store.storage import WorldFile

load_command_modules()


@pytest.fixture
def save(tmp_path: Path) -> WorldFile:
    made = create_world(tmp_path / "world.json")
    run_command(made, GM, "note", {"text": "A LOGGED NOTE"})  # a yak write: vouched, with its logs' offset
    return made


@pytest.fixture
def loads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every parse of a deferred log table from here on (its name)."""
    seen: list[str] = []
    real = DeferredLogs.load

    def counting(self: DeferredLogs, name: str) -> dict[str, Any]:
        seen.append(name)
        return real(self, name)

    monkeypatch.setattr(DeferredLogs, "load", counting)
    return seen


def _full(save: WorldFile) -> bytes:
    return orjson.dumps(World(save.read()).data)


tables = st.dictionaries(
    st.text(min_size=1, max_size=3), st.integers(-(2**53), 2**53) | st.text(max_size=5), max_size=3
)


@given(
    st.lists(st.sampled_from(["meta", "kingdoms", "orders", *LOG_TABLES, "zz"]), unique=True, max_size=6),
    st.data(),
)
def test_the_bytes_are_one_dump_and_the_offsets_split_them_into_the_rest_and_each_log(
    names: list[str], data: st.DataObject
) -> None:
    state = {name: data.draw(tables) for name in names}
    payload, offsets = encode_save(state)
    assert payload == orjson.dumps(state)
    logs = [name for name in names if name in LOG_TABLES]
    if offsets is None:
        assert not logs or len(logs) == len(names) or names[-len(logs) :] != logs
        return
    assert names[-len(logs) :] == logs and len(logs) < len(names) and list(offsets) == logs
    head = orjson.loads(payload[: offsets[logs[0]]] + b"}")
    assert list(head) == names[: -len(logs)]
    split = files.decode_save_split(Path("w.json"), payload, offsets)
    assert split is not None and split[0] == head
    assert {**head, **{name: split[1].load(name) for name in reversed(logs)}} == state


def test_a_yak_write_says_where_its_logs_begin(save: WorldFile) -> None:
    raw = save.path.read_bytes()
    vouched = sidecars.read_vouch(save.path)
    assert vouched is not None
    digest, logs_at = vouched
    assert digest == hashlib.sha256(raw).hexdigest() and logs_at is not None
    assert list(logs_at) == list(LOG_TABLES)
    assert all(raw[at:].startswith(b',"%s":' % name.encode()) for name, at in logs_at.items())
    assert raw == orjson.dumps(orjson.loads(raw))


def test_a_read_leaves_each_log_until_it_is_asked_for_and_gives_the_same_world(
    save: WorldFile, loads: list[str]
) -> None:
    world = World.load(save)
    assert world.logs_deferred and all(world.deferred(name) for name in LOG_TABLES)
    assert world.name and world.date.label() == "Spring 312"
    assert len(list(world.all("kingdoms"))) > 0 and world.find("orders", "nothing") is None
    assert world.logs_deferred and loads == []  # the rest of the world answers without the logs
    assert any("A LOGGED NOTE" in entry["text"] for _, entry in world.all("chronicle"))
    assert loads == ["chronicle"] and not world.deferred("chronicle")
    assert world.deferred("dice") and world.deferred("reports")  # the other logs are still bytes
    assert orjson.dumps(world.data) == _full(save) == save.path.read_bytes()  # the save's table order
    assert not world.logs_deferred and world.table("reports") is world.data["reports"]  # parsed once
    assert sorted(loads) == sorted(LOG_TABLES)


def test_the_whole_data_asked_for_parses_the_logs_first(save: WorldFile) -> None:
    world = World.load(save)
    assert set(world.data) >= set(LOG_TABLES) and not world.logs_deferred
    assert orjson.dumps(world.data) == save.path.read_bytes()


def test_threads_asking_at_once_parse_the_log_once(save: WorldFile, loads: list[str]) -> None:
    world = World.load(save)
    seen: list[int] = []
    start = threading.Barrier(4)

    def ask() -> None:
        start.wait()
        seen.append(len(world.table("chronicle")))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert loads == ["chronicle"] and len(set(seen)) == 1 and seen[0] > 0


def test_yak_orders_and_due_read_no_log_and_yak_log_reads_the_chronicle_alone(
    save: WorldFile, loads: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--save", str(save.path), "orders"]) == 0
    assert main(["--save", str(save.path), "due"]) == 0
    assert loads == []
    assert main(["--save", str(save.path), "log"]) == 0
    assert "A LOGGED NOTE" in capsys.readouterr().out
    assert loads == ["chronicle"]


def test_a_pending_consequence_in_the_chronicles_bytes_is_read_and_none_is_known_without_a_parse(
    save: WorldFile, loads: list[str]
) -> None:
    """`due` looks for spell consequences the GM has not described: the chronicle is parsed for them
    only when its bytes hold one."""
    run_command(save, GM, "cast", {"caster": "maelis", "source": "ley-line", "spell": "ward"}, dice=ScriptedDice([1]))
    world = World.load(save)
    assert world.may_hold("chronicle", b'"pending":true') and loads == []
    ((entry_id, entry),) = pending_consequences(world)
    assert loads == ["chronicle"] and entry["pending"] is True
    assert any(item.get("entry") == entry_id for item in due_for(world, GM))
    run_command(save, GM, "consequence-fill", {"entry": entry_id, "text": "The ley line lashes back."})
    loads.clear()
    world = World.load(save)
    assert not world.may_hold("chronicle", b'"pending":true')
    assert pending_consequences(world) == [] and loads == []
    assert not [item for item in due_for(world, GM) if item["kind"] == "consequence"] and loads == []
    assert world.all("chronicle") and loads == ["chronicle"]
    assert world.may_hold("chronicle", b'"pending":true')  # parsed: the caller looks for itself


def _offset_of(raw: bytes, key: bytes) -> int:
    return raw.index(b',"' + key + b'":')


def _true_offsets(raw: bytes) -> dict[str, int]:
    return {name: _offset_of(raw, name.encode()) for name in LOG_TABLES}


@pytest.mark.parametrize(
    "where",
    [
        "unsigned",  # logs_at changed in the vouch without its key: the vouch is not trusted
        "another table",  # signed, but at a table that is not a log
        "a table that is no log",  # signed, naming a table that is not a log
        "inside a document",  # signed, but in the middle of the chronicle
        "out of order",  # signed, the chronicle said to begin before the dice
        "past the end",
        "zero",
        "older form",  # one offset for all the logs, as the sixth pass wrote: signed, not used
    ],
)
def test_a_vouch_that_lies_about_the_logs_is_a_whole_read_of_the_same_world(
    save: WorldFile, loads: list[str], where: str
) -> None:
    raw = save.path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    true = _true_offsets(raw)
    lies: dict[str, Any] = {
        "another table": {**true, "dice": _offset_of(raw, b"orders")},
        "a table that is no log": {"orders": _offset_of(raw, b"orders"), **true},
        "inside a document": {**true, "chronicle": raw.index(b',"', true["chronicle"] + 20)},
        "out of order": {"chronicle": true["chronicle"], "dice": true["dice"], "reports": true["reports"]},
        "past the end": {**true, "reports": len(raw) + 10},
        "zero": {**true, "dice": 0},
        "older form": true["dice"],
    }
    if where == "unsigned":
        vouch = orjson.loads(save.vouch.read_bytes())
        vouch["logs_at"] = {**true, "dice": _offset_of(raw, b"orders")}
        save.vouch.write_bytes(orjson.dumps(vouch))
    else:
        save.vouch.write_bytes(signed_vouch(save, digest, logs_at=lies[where]))
    assert orjson.dumps(lies.get(where)) != orjson.dumps(true)  # in order, as the vouch signs them
    world = World.load(save)
    assert not world.logs_deferred and loads == []
    assert orjson.dumps(world.data) == raw
    trusted = sidecars.vouched_digest(save.path) == digest
    assert trusted == (where in ("older form", "another table", "inside a document", "out of order", "past the end"))


def test_a_hand_edited_save_with_a_true_vouch_beside_it_is_a_whole_read(save: WorldFile) -> None:
    """The digest covers every byte, the logs' too: an edited chronicle is not taken on the vouch."""
    raw = save.path.read_bytes()
    edited = raw.replace(b"A LOGGED NOTE", b"A FORGED NOTE")
    assert edited != raw
    save.path.write_bytes(edited)
    world = World.load(save)
    assert not world.logs_deferred
    assert any("A FORGED NOTE" in entry["text"] for _, entry in world.all("chronicle"))


def test_the_tables_of_a_split_read_are_checked_like_a_whole_read(save: WorldFile) -> None:
    """A vouch stands for the logs' bytes too; a save split where no log begins is refused on load."""
    raw = save.path.read_bytes()
    split = files.decode_save_split(save.path, raw, _true_offsets(raw))
    assert split is not None
    head, logs = split
    assert not set(head) & set(LOG_TABLES) and logs.order == LOG_TABLES
    parsed = {name: logs.load(name) for name in LOG_TABLES}
    assert parsed == {name: orjson.loads(raw)[name] for name in LOG_TABLES}
    assert files.decode_save_split(save.path, raw, {"dice": _offset_of(raw, b"orders")}) is None
    assert all(logs.load(name) is parsed[name] for name in LOG_TABLES)  # parsed once, then handed out
    with pytest.raises(KeyError):
        logs.load("orders")


def test_logs_that_do_not_parse_say_so_every_time_they_are_asked_for(tmp_path: Path) -> None:
    raw = b'{"meta":{},"kingdoms":{},"dice":{"d-1":{"broken},"chronicle":[]}'
    offsets = {"dice": raw.index(b',"dice"'), "chronicle": raw.index(b',"chronicle"')}
    split = files.decode_save_split(tmp_path / "w.json", raw, offsets)
    assert split is not None
    head, logs = split
    world = World(head, logs)
    for _ in range(2):
        with pytest.raises(files.CorruptSaveError, match="not valid JSON"):
            world.table("dice")
        with pytest.raises(files.CorruptSaveError, match="table 'chronicle' must be a table of documents"):
            world.table("chronicle")
    assert world.table("kingdoms") == {} and world.table("reports") == {}
    assert world.deferred("dice") and world.deferred("chronicle") and not world.deferred("reports")


def test_a_world_brought_up_to_date_keeps_the_logs_no_change_wrote_as_bytes(save: WorldFile, loads: list[str]) -> None:
    """An app applies another process's note from the change journal (`follow_save`): the chronicle
    it writes is parsed, the reports it does not touch stay bytes, shared with the world before."""
    world = World.load(save)
    held = (save.stamp(), world)
    run_command(save, GM, "note", {"text": "A SECOND NOTE"})
    _, after = follow_save(save, held)
    assert after is not world and after.follows() is not None  # from the journal, not a whole read
    assert loads == ["chronicle"] and after.deferred("reports") and world.deferred("reports")
    assert any("A SECOND NOTE" in entry["text"] for _, entry in after.all("chronicle"))
    assert not any("A SECOND NOTE" in entry["text"] for _, entry in world.all("chronicle"))
    assert after.written_only(world, ("chronicle",)) and loads == ["chronicle"]  # judged with no parse
    assert not after.written_only(world, ("reports",))  # the chronicle was written
    assert after.table("reports") is world.table("reports")  # one parse, for both worlds
    assert after.written_only(world, ("chronicle",))
    assert orjson.dumps(after.data) == save.path.read_bytes()


def test_no_live_reference_touches_a_log() -> None:
    """`World.with_changes` checks a write's documents with the logs it did not write left as bytes:
    that holds only while no live reference is held in a log table or names one."""
    from yak_tui.kernel.world.references import _referencing, _referencing_tables

    live = _referencing_tables(False)
    assert not set(live) & set(LOG_TABLES)
    named = {target for table in live for targets in _referencing(table, False).values() for target in targets}
    assert named and not named & set(LOG_TABLES)


def test_a_dry_run_copies_the_dice_and_leaves_the_other_logs_as_bytes(save: WorldFile, loads: list[str]) -> None:
    """A form's check runs its command on `World.trial()`: the dice ledger it appends to is its own
    copy; the chronicle and the reports are parsed only if the command reads them, and never changed."""
    world = World.load(save)
    trial = world.trial()
    assert loads == ["dice"] and trial.deferred("chronicle") and world.deferred("chronicle")
    assert trial.has_table("reports") and not trial.has_table("nothing") and loads == ["dice"]
    assert trial.table("dice") is not world.table("dice")
    before = len(world.table("chronicle"))
    trial.put("chronicle", "e-trial", {**next(iter(world.table("chronicle").values())), "text": "TRIAL"})
    assert len(world.table("chronicle")) == before and "e-trial" in trial.table("chronicle")
