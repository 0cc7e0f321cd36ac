"""Issue 30: a save's logs (the dice, the chronicle, the season reports) are written last, and a read
of a save vouched for leaves them as bytes until something asks for one of them. The save's bytes
are exactly what they were; what a read gives is the same world; a vouch that lies about where the
logs begin is a whole read, never a wrong world."""

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

from yak_tui.cli import main
from yak_tui.kernel.play.commands import load_command_modules, run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
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
def loads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """Every parse of deferred logs from here on (the save it came from)."""
    seen: list[Path] = []
    real = DeferredLogs.load

    def counting(self: DeferredLogs) -> dict[str, Any]:
        seen.append(self.path)
        return real(self)

    monkeypatch.setattr(DeferredLogs, "load", counting)
    return seen


def _full(save: WorldFile) -> bytes:
    return orjson.dumps(World(save.read()).data)


tables = st.dictionaries(st.text(min_size=1, max_size=3), st.integers(-(2**53), 2**53) | st.text(max_size=5), max_size=3)


@given(
    st.lists(st.sampled_from(["meta", "kingdoms", "orders", *LOG_TABLES, "zz"]), unique=True, max_size=6),
    st.data(),
)
def test_the_bytes_are_one_dump_and_the_offset_splits_them_into_the_rest_and_the_logs(
    names: list[str], data: st.DataObject
) -> None:
    state = {name: data.draw(tables) for name in names}
    payload, offset = encode_save(state)
    assert payload == orjson.dumps(state)
    logs = [name for name in names if name in LOG_TABLES]
    if offset is None:
        assert not logs or len(logs) == len(names) or names[-len(logs) :] != logs
        return
    assert names[-len(logs) :] == logs and len(logs) < len(names)
    head = orjson.loads(payload[:offset] + b"}")
    tail = orjson.loads(b"{" + payload[offset + 1 :])
    assert list(head) == names[: -len(logs)] and list(tail) == logs
    assert {**head, **tail} == state


def test_a_yak_write_says_where_its_logs_begin(save: WorldFile) -> None:
    raw = save.path.read_bytes()
    vouched = sidecars.read_vouch(save.path)
    assert vouched is not None
    digest, logs_at = vouched
    assert digest == hashlib.sha256(raw).hexdigest() and logs_at is not None
    assert raw[logs_at:].startswith(b',"dice":') and raw == orjson.dumps(orjson.loads(raw))


def test_a_read_leaves_the_logs_until_one_is_asked_for_and_gives_the_same_world(
    save: WorldFile, loads: list[Path]
) -> None:
    world = World.load(save)
    assert world.logs_deferred
    assert world.name and world.date.label() == "Spring 312"
    assert len(list(world.all("kingdoms"))) > 0 and world.find("orders", "nothing") is None
    assert world.logs_deferred and loads == []  # the rest of the world answers without the logs
    assert any("A LOGGED NOTE" in entry["text"] for _, entry in world.all("chronicle"))
    assert not world.logs_deferred and loads == [save.path]
    assert orjson.dumps(world.data) == _full(save) == save.path.read_bytes()
    assert world.table("reports") is world.data["reports"]  # parsed once
    assert loads == [save.path]


def test_the_whole_data_asked_for_parses_the_logs_first(save: WorldFile) -> None:
    world = World.load(save)
    assert set(world.data) >= set(LOG_TABLES) and not world.logs_deferred
    assert orjson.dumps(world.data) == save.path.read_bytes()


def test_threads_asking_at_once_parse_the_logs_once(save: WorldFile, loads: list[Path]) -> None:
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
    assert loads == [save.path] and len(set(seen)) == 1 and seen[0] > 0


def test_yak_orders_reads_no_log_and_yak_log_does(
    save: WorldFile, loads: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--save", str(save.path), "orders"]) == 0
    assert loads == []
    assert main(["--save", str(save.path), "log"]) == 0
    assert "A LOGGED NOTE" in capsys.readouterr().out
    assert loads == [save.path]


def _offset_of(raw: bytes, key: bytes) -> int:
    return raw.index(b',"' + key + b'":')


@pytest.mark.parametrize(
    "where",
    [
        "unsigned",  # logs_at changed in the vouch without its key: the vouch is not trusted
        "another table",  # signed, but at a table that is not a log
        "inside a document",  # signed, but in the middle of the meta table
        "past the end",
        "zero",
    ],
)
def test_a_vouch_that_lies_about_the_logs_is_a_whole_read_of_the_same_world(
    save: WorldFile, loads: list[Path], where: str
) -> None:
    raw = save.path.read_bytes()
    digest = hashlib.sha256(raw).hexdigest()
    true_offset = _offset_of(raw, b"dice")
    lies = {
        "another table": _offset_of(raw, b"orders"),
        "inside a document": raw.index(b',"', raw.index(b'"meta"') + 10),
        "past the end": len(raw) + 10,
        "zero": 0,
    }
    if where == "unsigned":
        vouch = orjson.loads(save.vouch.read_bytes())
        vouch["logs_at"] = _offset_of(raw, b"orders")
        save.vouch.write_bytes(orjson.dumps(vouch))
    else:
        save.vouch.write_bytes(signed_vouch(save, digest, logs_at=lies[where]))
    assert lies.get(where) != true_offset
    world = World.load(save)
    assert not world.logs_deferred and loads == []
    assert orjson.dumps(world.data) == raw


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
    split = files.decode_save_split(save.path, raw, _offset_of(raw, b"dice"))
    assert split is not None
    head, logs = split
    assert not set(head) & set(LOG_TABLES) and set(logs.load()) == set(LOG_TABLES)
    assert files.decode_save_split(save.path, raw, _offset_of(raw, b"orders")) is None
    with pytest.raises(RuntimeError):
        logs.load()  # its bytes were let go


def test_logs_that_do_not_parse_say_so_every_time_they_are_asked_for(tmp_path: Path) -> None:
    raw = b'{"meta":{},"kingdoms":{},"dice":{"d-1":{"broken'
    split = files.decode_save_split(tmp_path / "w.json", raw, raw.index(b',"dice"'))
    assert split is not None
    head, logs = split
    world = World(head, logs)
    for _ in range(2):
        with pytest.raises(files.CorruptSaveError, match="not valid JSON"):
            world.table("dice")
    assert world.table("kingdoms") == {}
