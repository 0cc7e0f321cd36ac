"""Who learns what (RULINGS §1, §7): private orders end to end through the real CLI, blind rolls,
and the target learning only what detection revealed."""

from __future__ import annotations

import json
from typing import Any

import pytest
from spy_helpers import CORVIN, KING_ELBRETH, KING_KESH, KING_VAROS, SILAS, do, mutate, read, texts

from yak_tui.areas.espionage.planning import mission_stakes
from yak_tui.cli import main
from yak_tui.kernel.play.audience import visible_entries, visible_table
from yak_tui.kernel.play.authority import Stakes, adjudicator_for, may_adjudicate
from yak_tui.kernel.play.commands import CommandError
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.play.orders import queue_for
from yak_tui.kernel.season.session import due_for
from yak_tui.kernel.world.demo import create_world
from yak_tui.store.storage import WorldFile

SECRET_KEYS = ("naturals", "modifiers", "total", "band", "secret", "known_to_target", "known_sponsor", "evidence")


def yak(capsys: pytest.CaptureFixture[str], save: WorldFile, *argv: str, who: str = "gm") -> Any:
    code = main(["--save", str(save.path), "--as", who, "--json", *argv])
    out, err = capsys.readouterr()
    assert code == 0, err
    return json.loads(out)


def _walk_keys(value: Any) -> set[str]:
    keys: set[str] = set()
    if isinstance(value, dict):
        for key, item in value.items():
            keys.add(key)
            keys |= _walk_keys(item)
    elif isinstance(value, list):
        for item in value:
            keys |= _walk_keys(item)
    return keys


def test_private_order_end_to_end(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    mutate(save, lambda w: w.edit("specialists", "elbreth").update(counter_spies={"provinces": [], "nation": 0}))
    # 1. The player files privately.
    filed = yak(
        capsys,
        save,
        "do",
        "spy-order",
        "mission=create-security-breach",
        "target=Kingdom of Elbreth",
        "note=before the spring feast",
        who="player:silas",
    )
    order_id = filed["order"]
    assert filed["adjudicator"] == "gm" and filed["private"] is True
    world = read(save)
    order = world.get("orders", order_id)
    assert order["command"] == "spy-mission" and order["status"] == "waiting"
    assert order["params"] == {"mission": "create-security-breach", "target": "elbreth"}
    # 2. It waits in the GM's queue (the target's King is a party, RULINGS §1), and nobody else's.
    assert [oid for oid, _ in queue_for(world, GM)] == [order_id]
    for king in (KING_ELBRETH, KING_VAROS, KING_KESH):
        assert queue_for(world, king) == []
    (ruling,) = [i["text"] for i in due_for(world, GM) if i["kind"] == "queue"]
    assert ruling.startswith(f"To rule on: {order_id}  Silas Crow: spy mission: mission Create Security Breach")
    assert "private" in ruling
    for viewer in (KING_ELBRETH, KING_VAROS, SILAS):
        assert not [i for i in due_for(world, viewer) if i["kind"] == "queue"]
    for viewer in (KING_ELBRETH, KING_VAROS):  # a private order: not even its existence
        assert not [i for i in due_for(world, viewer) if i.get("order") == order_id]
    (own,) = [i["text"] for i in due_for(world, SILAS) if i["kind"] == "filed"]
    assert own.startswith(f"Your order {order_id}  spy mission") and own.endswith("waits for the GM")
    assert yak(capsys, save, "show", "orders", who="king:varos")["documents"] == {}
    assert order_id in yak(capsys, save, "show", "orders", who="player:silas")["documents"]
    # A King who is a party may not resolve it.
    code = main(
        ["--save", str(save.path), "--as", "king:elbreth", "do", "spy-resolve", f"order={order_id}", "--dice", "4,6"]
    )
    assert code == 2
    capsys.readouterr()
    # 3. The GM resolves it with dice by hand and a modifier the player never sees.
    resolved = yak(
        capsys, save, "do", "spy-resolve", f"order={order_id}", "gm_modifier=-1", "gm_reason=rain", "--dice", "4,6"
    )
    result = resolved["result"]
    assert result["outcome"] == "success"
    assert result["success_roll"] == {"natural": 4, "total": 3}
    world = read(save)
    assert world.get("orders", order_id)["status"] == "resolved"
    assert "gm_modifier" not in world.get("orders", order_id)["params"]
    assert world.get("characters", "silas")["treasury"] == 7 - 2
    # 4. The player sees only the outcome: no naturals, modifiers, totals, bands or secrets.
    log = yak(capsys, save, "log", who="player:silas")["entries"]
    assert not set(SECRET_KEYS) & _walk_keys(log)
    mission_entry = next(e for e in log if e["command"] == "spy-mission" and not e.get("amounts"))
    assert mission_entry["text"].startswith("Espionage: Create Security Breach against Kingdom of Elbreth: success.")
    assert mission_entry["rolls"] == [
        {"purpose": "Create Security Breach: success roll", "outcome": "success", "blind": True, "ghosts": 1},
        {
            "purpose": "Create Security Breach: detection roll",
            "outcome": "spy returns at year start",
            "blind": True,
            "ghosts": 1,
        },
    ]
    assert "rain" not in json.dumps(log)
    shown = yak(capsys, save, "show", "effects", who="player:silas")["documents"]
    assert not set(SECRET_KEYS) & _walk_keys(shown)
    # The GM sees the truth.
    gm_entry = read(save).get("chronicle", mission_entry["id"])
    assert gm_entry["rolls"][0]["naturals"] == [4]
    assert gm_entry["rolls"][0]["modifiers"] == [{"value": -1, "reason": "rain"}]
    assert "true outcome success" in gm_entry["secret"]
    # 5. Nobody else learns of the operation (undetected: 6 vs D=3); Varos's King sees only that
    # Silas used one of the kingdom's spies (issue 14, leak 8), never the mission or its target.
    for viewer in ("king:elbreth", "king:varos", "king:kesh", "player:corvin", "player:mirela"):
        entries = yak(capsys, save, "log", who=viewer)["entries"]
        assert not [e for e in entries if "Security Breach" in e["text"] or "Elbreth" in e["text"]]
        if viewer != "king:varos":
            assert not [e for e in entries if e.get("command", "").startswith("spy")]


def test_player_cannot_roll_and_involved_king_cannot_adjudicate(save: WorldFile) -> None:
    with pytest.raises(CommandError) as player:
        do(save, "spy-mission", {"mission": "infiltrate-spy-ring", "target": "kesh"}, [4, 6], who=SILAS)
    assert player.value.field == "identity" and "gm" in player.value.who_may
    with pytest.raises(CommandError) as king:
        do(save, "spy-mission", {"mission": "infiltrate-spy-ring", "target": "kesh"}, [4, 6], who=KING_VAROS)
    assert "own forces" in king.value.reason
    # An uninvolved King may adjudicate outside every player kingdom (Varos against Kesh); the order
    # still waits in the GM's queue, as `adjudicator_for` only offers it to the King of the place.
    world = read(save)
    stakes = mission_stakes(world, SILAS, {"mission": "infiltrate-spy-ring", "target": "kesh"})
    assert stakes == Stakes.of("kesh", kingdoms=["varos", "kesh"])
    assert may_adjudicate(world, KING_ELBRETH, stakes).allowed
    assert not may_adjudicate(world, KING_VAROS, stakes).allowed
    assert adjudicator_for(world, stakes) == "gm"
    # Against a player kingdom only the GM may: its King is a party.
    against_elbreth = mission_stakes(world, SILAS, {"mission": "infiltrate-spy-ring", "target": "elbreth"})
    assert not may_adjudicate(world, KING_ELBRETH, against_elbreth).allowed
    assert may_adjudicate(world, GM, against_elbreth).allowed


def test_gm_cannot_file_a_private_order_and_public_ones_are_not_private(save: WorldFile) -> None:
    with pytest.raises(CommandError, match="directly"):
        do(save, "spy-order", {"mission": "infiltrate-spy-ring", "target": "kesh"})
    with pytest.raises(CommandError, match="only NPC espionage"):
        do(
            save,
            "order-file",
            {"command": "hire", "params": '{"kingdom": "varos", "type": "spy"}', "private": "true"},
            who=KING_VAROS,
        )
    # order-file with the espionage command directly works too, and is private whatever it says (RULINGS §1).
    for private in ("true", "false"):
        filed = do(
            save,
            "order-file",
            {
                "command": "spy-mission",
                "private": private,
                "params": '{"mission": "infiltrate-spy-ring", "target": "kesh"}',
            },
            who=SILAS,
        )
        assert read(save).get("orders", filed.data["order"])["private"] is True


def _run(save: WorldFile, detection: int) -> dict[str, Any]:
    mutate(save, lambda w: w.edit("specialists", "elbreth").update(counter_spies={"provinces": [], "nation": 0}))
    order = do(save, "spy-order", {"mission": "create-security-breach", "target": "elbreth"}, who=SILAS)
    return do(save, "spy-resolve", {"order": order.data["order"]}, [4, detection]).data


@pytest.mark.parametrize(
    ("detection", "elbreth_sees"),
    [
        (6, []),
        (4, []),
        (3, ["An enemy operation was detected: Create Security Breach. The perpetrator is unknown."]),
        (
            2,
            [
                "An enemy operation was detected: Create Security Breach. The enemy spy was captured. "
                "The perpetrator is unknown."
            ],
        ),
        (
            1,
            [
                "An enemy operation was detected: Create Security Breach. The enemy spy was captured. "
                "He talked: the operation was ordered by Silas Crow of Kingdom of Varos."
            ],
        ),
    ],
)
def test_target_sees_only_what_detection_revealed(
    save: WorldFile, capsys: pytest.CaptureFixture[str], detection: int, elbreth_sees: list[str]
) -> None:
    _run(save, detection)
    entries = yak(capsys, save, "log", who="king:elbreth")["entries"]
    assert [e["text"] for e in entries] == elbreth_sees
    assert not set(SECRET_KEYS) & _walk_keys(entries)
    # Elbreth's players learn nothing either; Varos's King reads only that his spymaster used one
    # of the kingdom's spies, and what became of it (issue 14, leak 8).
    assert texts(read(save), CORVIN) == []
    [king_line] = texts(read(save), KING_VAROS)
    assert king_line.startswith("Silas Crow used one of the kingdom's spies on a private mission;")
    assert "Security Breach" not in king_line and "Elbreth" not in king_line


def test_sponsor_is_not_told_whether_it_was_detected(save: WorldFile) -> None:
    seen = []
    for detection in (6, 1):
        path = save.path.with_name(f"d{detection}.json")
        world_save = create_world(path)
        _run(world_save, detection)
        world = read(world_save)
        seen.append(
            [
                (e["text"], [r.get("outcome") for r in e["rolls"]])
                for e in visible_entries(world, SILAS)
                if e["kind"] == "espionage" and not e.get("amounts")
            ]
        )
    # Same success; the fate differs (escaped vs captured), the evidence is never said.
    for view in seen:
        assert all(
            "detected" not in text and "identified" not in text and "Varos" not in text.split(":")[0]
            for text, _ in view
        )
    assert seen[0][0][1] == ["success", "spy returns at year start"]
    assert seen[1][0][1] == ["success", "spy lost"]


def test_board_queries_for_the_adjudicator(save: WorldFile) -> None:
    order = do(save, "spy-order", {"mission": "infiltrate-treasury", "target": "elbreth"}, who=SILAS)
    from yak_tui.areas.espionage.order_lines import espionage_inbox

    world = read(save)
    assert [oid for oid, _ in espionage_inbox(world, GM)] == [order.data["order"]]
    assert espionage_inbox(world, KING_ELBRETH) == []
    assert visible_table(world, Identity.parse("player:corvin"), "orders") == {}
    assert next(i for i in due_for(world, GM) if i.get("order") == order.data["order"])["audience"] == "adjudicators"
    for other in (KING_ELBRETH, Identity.parse("player:corvin")):
        assert not [i for i in due_for(world, other) if i.get("order") == order.data["order"]]


def test_generic_order_resolve_keeps_the_false_report(save: WorldFile) -> None:
    """`order-resolve` works for espionage orders too; the order's outcome is what the filer may read."""
    mutate(save, lambda w: w.edit("effects", "varos-spy-ring-in-elbreth").update(known_to_target=True))
    order = do(
        save, "spy-order", {"mission": "purge-administration", "infiltration": "infiltrate-spy-ring"}, who=KING_ELBRETH
    )
    do(save, "order-resolve", {"order": order.data["order"]}, [2])  # 2 < T=3: the purge fails
    world = read(save)
    assert world.get("effects", "varos-spy-ring-in-elbreth")["active"] is True
    assert world.get("orders", order.data["order"])["outcome"] == (
        "Espionage: Purge Administration: cleared. Infiltrate Spy Ring: cleared."
    )
    mine = texts(world, KING_ELBRETH)
    assert "failure" not in " ".join(mine) and "FAILED" not in " ".join(mine)
    assert texts(world, KING_VAROS) == []
