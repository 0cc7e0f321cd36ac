"""Issue 13: `follow_save`, the one way a reader that holds a world (an app, `yak serve`'s roster)
catches up with the save: unchanged is the same world, a note is applied from the change journal
(no full read) and gives the world a full read gives, with what it made out of the garbage
collector's sight as a full read's is; no journal is a full read."""

from __future__ import annotations

import gc

import orjson
import pytest
from yak_plugin import counting_full_reads

from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.world.model import World, follow_save
from yak_tui.store.storage import WorldFile


def _bytes(world: World) -> bytes:
    return orjson.dumps(world.data, option=orjson.OPT_SORT_KEYS)


def test_an_unchanged_save_is_the_world_held(save: WorldFile, monkeypatch: pytest.MonkeyPatch) -> None:
    held = follow_save(save, None)
    reads = counting_full_reads(monkeypatch)
    assert follow_save(save, held) is held
    assert reads == []


def test_a_note_is_applied_from_the_journal_and_kept_out_of_the_collectors_sight(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = follow_save(save, None)
    run_command(save, GM, "note", {"text": "FOLLOW-NOTE from another process"})
    reads = counting_full_reads(monkeypatch)
    stamp, world = follow_save(save, held)
    # The copied chronicle table is frozen (as a full read's tables are): no full collection walks it.
    # Looked at first: a full read (below) freezes whatever is alive then.
    table = world.table("chronicle")
    assert not any(obj is table for obj in gc.get_objects())
    assert reads == []
    assert stamp == save.stamp()
    assert _bytes(world) == _bytes(World(save.read()))
    assert any(entry["text"] == "FOLLOW-NOTE from another process" for entry in table.values())


def test_without_a_journal_it_is_a_full_read(save: WorldFile, monkeypatch: pytest.MonkeyPatch) -> None:
    held = follow_save(save, None)
    run_command(save, GM, "note", {"text": "FOLLOW-NOTE unjournalled"})
    save.journal.unlink()
    reads = counting_full_reads(monkeypatch)
    _, world = follow_save(save, held)
    assert reads == [save.path]
    assert any(entry["text"] == "FOLLOW-NOTE unjournalled" for entry in world.table("chronicle").values())
