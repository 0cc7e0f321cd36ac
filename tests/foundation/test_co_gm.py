"""Co-GMs (issue 16, item 6): several GM identities, `gm:alice`, `gm:bob`, each with the GM's
whole authority (the one check, `Identity.is_gm`), each act signed with who did it: the chronicle
keeps the actor, a resolved or rejected order `resolved_by`; plain `gm` stays as it was."""

from __future__ import annotations

from typing import Any

import asyncssh
import orjson
import pytest

from yak_tui.areas.court import identities
from yak_tui.cli import main
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import GM, Identity, IdentityError, identity_label, identity_name
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

ALICE = Identity.parse("gm:alice")
BOB = Identity.parse("gm:Bob")
NYX = Identity.parse("player:nyx")


def test_a_co_gm_is_a_gm_with_a_name() -> None:
    assert ALICE.is_gm and BOB.is_gm and str(ALICE) == "gm:alice" and str(BOB) == "gm:bob"
    assert Identity.parse(str(ALICE)) == ALICE
    assert str(GM) == "gm" and Identity.parse("gm") == GM and GM.signature == ""
    assert ALICE.signature == "alice"
    for bad in ("gm:", "gm:two words", "gm:al/ice", "gm:" + "a" * 40):
        with pytest.raises(IdentityError):
            Identity.parse(bad)


def test_a_co_gm_has_the_gms_authority_and_signs_his_acts(save: WorldFile) -> None:
    run_command(save, ALICE, "season-deadline", {"at": "2026-12-07 20:00"})  # a GM-only command
    run_command(save, BOB, "note", {"text": "Bob's secret plan", "audience": "adjudicators"})
    world = World(save.read())
    assert world.meta["deadline"] == "2026-12-07T20:00Z"
    actors = {e["text"]: e["actor"] for _, e in world.all("chronicle")}
    assert actors["Orders for Spring 312 are due by 2026-12-07 20:00 UTC."] == "gm:alice"
    assert actors["Bob's secret plan"] == "gm:bob"
    assert identity_label(world, ALICE) == "GM · alice" and identity_name(world, BOB) == "the GM (bob)"


def test_an_order_keeps_which_gm_resolved_or_rejected_it(save: WorldFile) -> None:
    for reason in ("Slip past the patrol", "Climb the wall"):
        run_command(save, NYX, "order-file", {"command": "roll", "params": orjson.dumps({"reason": reason}).decode()})
    orders = sorted(World(save.read()).all("orders"))
    (first, _), (second, _) = orders[-2:]
    run_command(save, ALICE, "order-resolve", {"order": first}, ScriptedDice([4]))
    run_command(save, BOB, "order-reject", {"order": second, "reason": "no ladder"})
    world = World(save.read())
    assert world.get("orders", first)["resolved_by"] == "gm:alice"
    assert world.get("orders", second)["resolved_by"] == "gm:bob"


def test_a_co_gm_seat_on_the_roster_and_on_the_cli(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode()
    run_command(save, GM, "user-add", {"name": "alice", "identity": "gm:alice", "key": key})
    world = World(save.read())
    assert world.get("users", "alice")["identity"] == "gm:alice"
    assert ("gm:alice", "GM · alice") in {(c.identity, c.label) for c in identities(world)}
    code = main(["--save", str(save.path), "--as", "gm:alice", "--json", "do", "note", "text=From the CLI"])
    reply: Any = orjson.loads(capsys.readouterr().out)
    assert code == 0, reply
    entry = next(e for _, e in World(save.read()).all("chronicle") if e["text"] == "From the CLI")
    assert entry["actor"] == "gm:alice"


def test_a_co_gms_roll_is_signed_in_the_dice_ledger_and_verifies(
    save: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    run_command(save, ALICE, "roll", {"reason": "Storm the gate", "modifier": "1"}, ScriptedDice([4]))
    records = [doc for _, doc in World(save.read()).all("dice")]
    assert records and max(records, key=lambda r: r["seq"])["roll"]["roller"] == "gm:alice"
    assert main(["--save", str(save.path), "verify"]) == 0, capsys.readouterr()
