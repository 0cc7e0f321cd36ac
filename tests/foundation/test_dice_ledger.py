"""The dice ledger: every roll chained by hash; `yak verify` names the first link a hand edit broke;
undo keeps the roll in the ledger; blind rolls reach non-adjudicators as ghost dice, never faces."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import orjson
import pytest

from yak_tui.cli import main
from yak_tui.kernel.play.audience import filter_entry
from yak_tui.kernel.play.chronicle import append_entry
from yak_tui.kernel.play.commands import CommandContext, run_command
from yak_tui.kernel.play.dice import RollRecord, ScriptedDice
from yak_tui.kernel.play.dicechain import GENESIS, record_hash, verify_data
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.views import roll_views
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

GM = Identity("gm")


def _roll(save: WorldFile, reason: str, face: int) -> None:
    run_command(save, GM, "roll", {"modifier": "0", "reason": reason}, ScriptedDice([face]))


def _data(save: WorldFile) -> dict[str, Any]:
    loaded: dict[str, Any] = orjson.loads(save.path.read_bytes())
    return loaded


def _write(save: WorldFile, data: dict[str, Any]) -> None:
    save.path.write_bytes(orjson.dumps(data))


def _verify(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, Any]]:
    code = main(["--save", str(save.path), "--json", "verify"])
    return code, orjson.loads(capsys.readouterr().out)


def _rolled_save(save: WorldFile) -> WorldFile:
    for reason, face in (("first", 2), ("second", 5), ("third", 3)):
        _roll(save, reason, face)
    return save


def _entry_of(data: dict[str, Any], reason: str) -> str:
    return next(eid for eid, e in data["chronicle"].items() if e.get("rolls") and e["rolls"][0]["purpose"] == reason)


def test_every_roll_is_a_chained_record(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    data = _data(_rolled_save(save))
    records = [data["dice"][rid] for rid in sorted(data["dice"])]
    assert [r["roll"]["purpose"] for r in records] == ["first", "second", "third"]
    assert records[0]["prev"] == GENESIS
    for before, record in itertools.pairwise(records):
        assert record["prev"] == before["hash"]
    assert all(record_hash(r) == r["hash"] for r in records)
    assert data["meta"]["world"]["dice_head"] == records[-1]["hash"]
    entry = data["chronicle"][_entry_of(data, "second")]
    assert entry["rolls"][0]["link"] == records[1]["hash"]
    code, reply = _verify(save, capsys)
    assert code == 0 and reply["ok"] and reply["saves"][0]["records"] == 3


def test_a_roll_edited_in_the_chronicle_is_named(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    data = _data(_rolled_save(save))
    entry_id = _entry_of(data, "second")
    data["chronicle"][entry_id]["rolls"][0]["naturals"] = [6]  # the GM "improves" a roll by hand
    _write(save, data)
    code, reply = _verify(save, capsys)
    assert code == 1 and not reply["ok"]
    assert f"chronicle entry {entry_id}, roll 1 (second)" in reply["first_broken"]["where"]
    assert "naturals recorded [5], now [6]" in reply["first_broken"]["reason"]


def test_a_ledger_record_edited_by_hand_is_named(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    data = _data(_rolled_save(save))
    data["dice"]["r000002"]["roll"]["naturals"] = [6]
    _write(save, data)
    before = save.path.read_bytes()
    code, reply = _verify(save, capsys)
    assert code == 1
    assert reply["first_broken"]["where"].endswith("dice record r000002")
    assert "changed after it was written" in reply["first_broken"]["reason"]
    assert save.path.read_bytes() == before  # verify reads, never writes


def test_a_rewritten_chain_disagrees_with_the_backup(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    """Whoever edits a roll and recomputes every hash still parts from the backups taken before."""
    _rolled_save(save)
    save.backup("Spring-312")
    data = _data(save)
    entry_id = _entry_of(data, "second")
    data["chronicle"][entry_id]["rolls"][0]["naturals"] = [6]
    records = [data["dice"][rid] for rid in sorted(data["dice"])]
    records[1]["roll"]["naturals"] = [6]
    previous = GENESIS
    for record in records:
        record["prev"] = previous
        record["hash"] = record_hash(record)
        previous = record["hash"]
    for eid, entry in data["chronicle"].items():
        for roll in entry.get("rolls", []):
            roll["link"] = next(r["hash"] for r in records if r["entry"] == eid)
    data["meta"]["world"]["dice_head"] = previous
    _write(save, data)
    assert verify_data(data).ok  # the save alone looks whole
    code, reply = _verify(save, capsys)
    assert code == 1
    assert "disagrees with the save from dice record r000002" in reply["first_broken"]["reason"]


def test_a_cut_tail_and_a_roll_without_record_are_named(save: WorldFile) -> None:
    data = _data(_rolled_save(save))
    del data["dice"]["r000003"]
    assert verify_data(data).broken[0].where == "meta dice_count"
    data = _data(save)
    entry_id = _entry_of(data, "third")
    del data["chronicle"][entry_id]["rolls"][0]["link"]
    first = verify_data(data).broken[0]
    assert first.where == f"chronicle entry {entry_id}, roll 1 (third)" and "added by hand" in first.reason


def test_undo_keeps_the_roll_in_the_ledger(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    _roll(save, "unlucky", 1)
    run_command(save, GM, "undo", {})
    _roll(save, "again", 6)
    data = _data(save)
    assert [data["dice"][rid]["roll"]["purpose"] for rid in sorted(data["dice"])] == ["unlucky", "again"]
    code, reply = _verify(save, capsys)
    assert code == 0 and reply["saves"][0]["undone"] == 1


def test_a_save_from_before_the_ledger_starts_its_chain_on_migration(
    save: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    _roll(save, "old roll", 4)
    data = _data(save)
    meta = data["meta"]["world"]
    for key in ("dice_head", "dice_count", "dice_since", "dice_since_seq"):
        del meta[key]
    del data["dice"]
    for entry in data["chronicle"].values():
        for roll in entry.get("rolls", []):
            del roll["link"]
    meta["schema_version"] = 1
    _write(save, data)
    _roll(save, "new roll", 2)
    after = _data(save)
    assert after["meta"]["world"]["schema_version"] == 2
    assert [r["roll"]["purpose"] for r in after["dice"].values()] == ["new roll"]
    code, reply = _verify(save, capsys)
    assert code == 0 and reply["saves"][0]["before_chain"] == 1 and reply["saves"][0]["records"] == 1


def test_a_blind_roll_is_a_ghost_for_everyone_but_its_adjudicator(world: World) -> None:
    ctx = CommandContext(world, GM, ScriptedDice([]), "spy-mission")
    record = RollRecord(purpose="scouting", naturals=[3, 5], total=8, band="success", blind=True, outcome="unseen")
    entry = append_entry(world, "Nyx scouts", audience="character:nyx", rolls=[record], sink=ctx.entries)
    player = Identity.parse("player:nyx")
    shown = filter_entry(world, player, entry)
    assert shown is not None
    roll = shown["rolls"][0]
    assert roll == {"purpose": "scouting", "outcome": "unseen", "blind": True, "ghosts": 2}
    view = roll_views(world, player, [entry])[0]
    assert view.naturals is None and view.total is None and view.band == "" and view.ghosts == 2
    assert roll_views(world, GM, [entry])[0].naturals == (3, 5)


def test_verify_without_a_save_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--save", str(tmp_path / "none.json"), "verify"]) == 2
    assert "no save at" in capsys.readouterr().err
