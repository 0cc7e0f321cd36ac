"""Noble commands through the world (RULINGS §8): `incite`, `usurp`, `relocate` and the map views.

The demo Ambassador Tobias Venn (20% of Elbreth's Influence 20: Power 4) stands in Greywatch,
hex (6, 4), with 4 ducats. A swing die of 16 is a 0% day swing.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from yak_plugin import Table

from yak_tui.areas.nobles.commands import command_targets
from yak_tui.areas.nobles.relocate import parse_hex, relocate_targets
from yak_tui.cli import main
from yak_tui.kernel.play.audience import visible_entries
from yak_tui.kernel.play.commands import spec_for
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

GM = Identity.parse("gm")
NO_SWING = 16


@pytest.fixture
def save(tmp_path: Path) -> WorldFile:
    return create_world(tmp_path / "w.json")


def world(save: WorldFile) -> World:
    return World(save.read())


def change(save: WorldFile, fn: Callable[[World], None]) -> None:
    with save.transaction() as data:
        fn(World(data))


def place(save: WorldFile, character: str, location: str | None, **fields: Any) -> None:
    change(save, lambda w: w.edit("characters", character).update(location=location, **fields))


def set_pc(save: WorldFile, pc: str, **fields: Any) -> None:
    change(save, lambda w: w.edit("pcs", pc).update(**fields))


def add_pc(save: WorldFile, pc_id: str, hex_: list[int], controller: str | None = None) -> None:
    doc = {
        "name": pc_id.title(),
        "kind": "town",
        "province": "the-wilds",
        "hex": hex_,
        "controller": controller,
        "tax": 1,
        "resistance": 5,
        "fort_level": 0,
    }
    change(save, lambda w: w.put("pcs", pc_id, doc))


def add_unit(save: WorldFile, unit_id: str, owner: str, size: str, hex_: list[int], kind: str = "infantry") -> None:
    doc = {"name": unit_id.title(), "owner": owner, "kind": kind, "size": size, "hex": hex_, "regiments": 1}
    change(save, lambda w: w.put("units", unit_id, doc))


def tobias(save: WorldFile) -> dict[str, Any]:
    return world(save).get("characters", "tobias")


# --- Incite Rebellion: every margin edge -------------------------------------------------------


@pytest.mark.parametrize(
    ("resistance", "outcome", "margin"),
    [
        (3.99, "success", -0.01),
        (4, "failure", 0),  # equal is not a success
        (5.99, "failure", 1.99),
        (6, "evicted", 2),  # margin == Power / 2
        (8, "evicted", 4),  # margin == Power: not yet executed
        (8.01, "executed", 4.01),
    ],
)
def test_incite_margin_edges(save: WorldFile, resistance: float, outcome: str, margin: float) -> None:
    place(save, "tobias", "thornfield")
    set_pc(save, "thornfield", resistance=resistance)
    result = Table(save).run("gm", "incite", {"noble": "tobias"}, dice=[NO_SWING]).data
    assert (result["power"], result["resistance"], result["outcome"]) == (4, resistance, outcome)
    assert result["margin"] == pytest.approx(margin)
    w = world(save)
    noble, pc = w.get("characters", "tobias"), w.get("pcs", "thornfield")
    assert noble["treasury"] == 3  # the cost is spent whatever happens
    assert pc["controller"] == (None if outcome == "success" else "varos")
    assert noble["location"] == {"evicted": "highmoor", "executed": None}.get(outcome, "thornfield")
    assert noble["alive"] is (outcome != "executed")
    (entry,) = [e for _, e in w.all("chronicle") if e["kind"] == "noble-command"]
    assert entry["audience"] == "public"
    assert entry["rolls"][0]["naturals"] == [NO_SWING]
    assert entry["rolls"][0]["band"] == outcome


@pytest.mark.parametrize(
    ("swing_die", "resistance", "outcome"),
    [
        (31, 4.5, "success"),  # +15%: Power 4.6
        (16, 4.5, "failure"),
        (1, 5.09, "failure"),  # -15%: Power 3.4, margin 1.69
        (1, 5.1, "evicted"),  # margin 1.7 == 3.4 / 2
        (1, 6.8, "evicted"),
        (1, 6.81, "executed"),
    ],
)
def test_incite_day_swing(save: WorldFile, swing_die: int, resistance: float, outcome: str) -> None:
    place(save, "tobias", "thornfield")
    set_pc(save, "thornfield", resistance=resistance)
    result = Table(save).run("gm", "incite", {"noble": "tobias"}, dice=[swing_die]).data
    assert result["outcome"] == outcome
    assert result["swing"] == swing_die - 16


def test_incite_gm_modifiers_and_no_swing(save: WorldFile) -> None:
    place(save, "tobias", "thornfield")
    set_pc(save, "thornfield", resistance=4.5)
    result = (
        Table(save)
        .run("gm", "incite", {"noble": "tobias", "modifier": "1", "reason": "bribed the guilds", "swing": "false"})
        .data
    )  # no die at all
    assert (result["power"], result["outcome"], result["swing"]) == (5, "success", None)
    text = world(save).get("chronicle", result["entry"])["text"]
    assert "+1 bribed the guilds" in text and "no day swing" in text


# --- Usurp Control ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("resistance", "used", "outcome"),
    [
        (1.99, 3.98, "success"),  # doubled on a controlled PC
        (2, 4, "failure"),
        (3, 6, "evicted"),
        (4, 8, "evicted"),
        (4.01, 8.02, "executed"),
    ],
)
def test_usurp_controlled_pc(save: WorldFile, resistance: float, used: float, outcome: str) -> None:
    place(save, "tobias", "thornfield")
    set_pc(save, "thornfield", resistance=resistance)
    result = Table(save).run("gm", "usurp", {"noble": "tobias", "pc": "Thornfield"}, dice=[NO_SWING]).data
    assert (result["resistance"], result["outcome"]) == (used, outcome)
    w = world(save)
    assert w.get("pcs", "thornfield")["controller"] == ("elbreth" if outcome == "success" else "varos")
    assert w.get("characters", "tobias")["treasury"] == 3
    assert w.get("characters", "tobias")["location"] == {"evicted": "highmoor", "executed": None}.get(
        outcome, "thornfield"
    )


@pytest.mark.parametrize(
    ("resistance", "outcome"),
    [(3.99, "success"), (4, "failure"), (6, "evicted"), (8, "evicted"), (8.01, "executed")],
)
def test_usurp_neutral_pc_is_not_doubled(save: WorldFile, resistance: float, outcome: str) -> None:
    place(save, "tobias", "hollow-oak")
    set_pc(save, "hollow-oak", resistance=resistance)
    result = Table(save).run("gm", "usurp", {"noble": "tobias"}, dice=[NO_SWING]).data
    assert (result["resistance"], result["outcome"]) == (resistance, outcome)
    assert world(save).get("pcs", "hollow-oak").get("controller") == ("elbreth" if outcome == "success" else None)


def test_executed_noble_gives_no_more_commands(save: WorldFile) -> None:
    place(save, "tobias", "thornfield")
    set_pc(save, "thornfield", resistance=20)
    assert Table(save).run("gm", "incite", {"noble": "tobias"}, dice=[NO_SWING]).data["outcome"] == "executed"
    Table(save).refused("gm", "incite", {"noble": "tobias"}, field="noble", text="dead", dice=[NO_SWING])


def test_prince_power_is_his_share(save: WorldFile) -> None:
    place(save, "edmund", "thornfield")  # 80% of 20 = 16 against Resistance 6, doubled
    result = Table(save).run("gm", "usurp", {"noble": "edmund"}, dice=[NO_SWING]).data
    assert (result["base_power"], result["resistance"], result["outcome"]) == (16, 12, "success")


# --- refusals -------------------------------------------------------------------------------------


def test_command_refusals(save: WorldFile) -> None:
    # Tobias is in Greywatch, his own kingdom's PC.
    Table(save).refused("gm", "incite", {"noble": "tobias"}, field="pc", text="own kingdom", dice=[NO_SWING])
    Table(save).refused("gm", "usurp", {"noble": "tobias"}, field="pc", text="own kingdom", dice=[NO_SWING])
    Table(save).refused(
        "gm", "incite", {"noble": "tobias", "pc": "thornfield"}, field="pc", text="not Thornfield", dice=[NO_SWING]
    )
    Table(save).refused("gm", "incite", {"noble": "aldric"}, field="noble", text="is a king", dice=[NO_SWING])
    Table(save).refused("gm", "incite", {"noble": "maelis"}, field="noble", text="is a mage", dice=[NO_SWING])
    place(save, "tobias", "hollow-oak")
    Table(save).refused("gm", "incite", {"noble": "tobias"}, field="pc", text="neutral", dice=[NO_SWING])
    place(save, "tobias", None)
    Table(save).refused("gm", "incite", {"noble": "tobias"}, field="noble", text="not in a PC", dice=[NO_SWING])
    place(save, "tobias", "thornfield", treasury=0)
    Table(save).refused("gm", "incite", {"noble": "tobias"}, field="treasury", text="0 ducats", dice=[NO_SWING])


def test_an_agent_riding_with_a_legion_is_not_in_a_pc(save: WorldFile) -> None:
    place(save, "nyx", "elbreth-scouts", legion="elbreth-scouts")
    Table(save).refused(
        "gm", "usurp", {"noble": "nyx"}, field="noble", text="with Greywood Rangers, not in a PC", dice=[NO_SWING]
    )


@pytest.mark.parametrize(
    ("who", "why"),
    [("king:elbreth", "his own forces"), ("king:varos", "his own forces"), ("player:tobias", "players never roll")],
)
def test_command_authority(save: WorldFile, who: str, why: str) -> None:
    place(save, "tobias", "thornfield")
    Table(save).refused(who, "incite", {"noble": "tobias"}, field="identity", text=why, dice=[NO_SWING])


def test_command_order_waits_for_the_gm_and_spends_on_resolution(save: WorldFile) -> None:
    place(save, "tobias", "thornfield")
    filed = Table(save).run(
        "king:elbreth", "order-file", {"command": "incite", "params": json.dumps({"noble": "tobias"})}
    )
    assert filed.data["adjudicator"] == "gm"
    assert tobias(save)["treasury"] == 4
    Table(save).run("gm", "order-resolve", {"order": filed.data["order"]}, dice=[NO_SWING])
    assert tobias(save)["treasury"] == 3


# --- odds and the map view ----------------------------------------------------------------------


def test_command_odds_and_targets(save: WorldFile) -> None:
    place(save, "tobias", "thornfield")
    set_pc(save, "thornfield", resistance=4)
    spec = spec_for("usurp")
    assert spec.odds is not None
    odds = spec.odds(
        world(save),
        GM,
        {"noble": "tobias", "pc": None, "modifier": 0.0, "resistance_modifier": 0.0, "reason": "", "swing": True},
    )
    assert sum(odds["odds"].values()) == pytest.approx(1, abs=1e-5)
    assert odds["controlled"] is True and odds["resistance"] == 4 and odds["power"] == 4

    view = command_targets(world(save), "tobias")
    assert view["pc"] == "thornfield"
    assert view["incite"]["ok"] and view["usurp"]["ok"]
    # Power 4 ± 15% against 4: success needs a positive swing (15 of 31 faces).
    assert view["incite"]["success"] == pytest.approx(15 / 31, abs=1e-6)
    assert view["usurp"]["odds"]["evicted"] + view["usurp"]["odds"]["executed"] == pytest.approx(1, abs=1e-5)

    home = command_targets(world(save), "edmund")
    assert home["pc"] == "highmoor"
    assert not home["incite"]["ok"] and "own kingdom" in home["incite"]["reason"]
    assert command_targets(world(save), "aldric")["usurp"] == {
        "ok": False,
        "reason": "King Aldric is a king; noble commands are for: noble, agent, high priestess",
    }


def test_cli_incite(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    place(save, "tobias", "thornfield")
    code = main(["--save", str(save.path), "--json", "do", "incite", "noble=tobias", "--dice", "16"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (out["outcome"], out["power"], out["resistance"]) == ("evicted", 4, 6)
    code = main(["--save", str(save.path), "--json", "do", "incite", "noble=tobias", "--odds"])
    assert code == 2
    assert json.loads(capsys.readouterr().err)["field"] == "pc"  # evicted home: his own PC


# --- Relocate -----------------------------------------------------------------------------------


def test_relocate_range_7_ok_and_8_refused(save: WorldFile) -> None:
    add_pc(save, "far-seven", [13, 4])  # 7 hexes east of Greywatch (6, 4)
    add_pc(save, "far-eight", [14, 4])
    Table(save).refused(
        "gm", "relocate", {"character": "tobias", "pc": "far-eight"}, field="pc", text="8 hexes away; the range is 7"
    )
    Table(save).refused("gm", "relocate", {"character": "tobias", "hex": "14,4"}, field="hex", text="8 hexes away")
    result = Table(save).run("gm", "relocate", {"character": "tobias", "hex": "13,4"}).data
    assert (result["outcome"], result["location"], result["discovery"]) == ("relocated", "far-seven", None)
    assert tobias(save)["treasury"] == 3


def test_relocate_blocked_by_a_brigade_but_not_a_patrol(save: WorldFile) -> None:
    add_unit(save, "varos-brigade", "varos", "brigade", [8, 6])  # Hollow Oak, neutral
    result = Table(save).run("gm", "relocate", {"character": "tobias", "pc": "hollow-oak"}).data
    assert (result["outcome"], result["reason"]) == ("failed", "blocked")
    assert tobias(save)["location"] == "greywatch"
    assert tobias(save)["treasury"] == 3  # spent
    change(save, lambda w: w.edit("units", "varos-brigade").update(size="patrol"))
    result = Table(save).run("gm", "relocate", {"character": "tobias", "pc": "hollow-oak"}).data
    assert (result["outcome"], result["location"]) == ("relocated", "hollow-oak")
    assert tobias(save)["treasury"] == 2


def test_relocate_not_blocked_by_a_friendly_brigade_or_a_battalion(save: WorldFile) -> None:
    add_unit(save, "own-brigade", "elbreth", "brigade", [8, 6])
    add_unit(save, "kesh-battalion", "kesh", "battalion", [8, 6])
    assert Table(save).run("gm", "relocate", {"character": "tobias", "pc": "hollow-oak"}).data["outcome"] == "relocated"


def test_relocate_blocked_by_the_demo_division_at_thornfield(save: WorldFile) -> None:
    result = Table(save).run("gm", "relocate", {"character": "tobias", "pc": "thornfield"}).data  # no discovery die
    assert (result["outcome"], result["reason"]) == ("failed", "blocked")
    assert "division" in result["message"]


def test_relocate_onto_an_empty_hex_fails_with_its_cost(save: WorldFile) -> None:
    result = Table(save).run("gm", "relocate", {"character": "tobias", "hex": "7,5"}).data
    assert (result["outcome"], result["reason"], result["location"]) == ("failed", "no-pc", "greywatch")
    assert tobias(save)["treasury"] == 3
    entry = world(save).get("chronicle", result["entry"])
    assert entry["audience"] == "kingdom:elbreth"
    assert "no PC in that hex" in entry["text"]


def test_high_priestess_weary_ok_exhausted_refused(save: WorldFile) -> None:
    assert world(save).get("characters", "seraphine")["status"] == "weary"
    result = Table(save).run("gm", "relocate", {"character": "seraphine", "pc": "ironhold"}).data
    assert result["outcome"] == "relocated"
    assert world(save).get("characters", "seraphine")["treasury"] == 4
    change(save, lambda w: w.edit("characters", "seraphine").update(status="exhausted"))
    Table(save).refused(
        "gm",
        "relocate",
        {"character": "seraphine", "pc": "old-shrine"},
        field="character",
        text="may not relocate while exhausted",
    )
    # A noble is not limited by his status.
    change(save, lambda w: w.edit("characters", "tobias").update(status="exhausted"))
    assert Table(save).run("gm", "relocate", {"character": "tobias", "pc": "ironhold"}).data["outcome"] == "relocated"


def test_agent_onto_a_friendly_legion(save: WorldFile) -> None:
    result = Table(save).run("gm", "relocate", {"character": "nyx", "legion": "Greywood Rangers"}).data
    assert (result["outcome"], result["location"], result["hex"]) == ("relocated", "elbreth-scouts", [6, 4])
    nyx = world(save).get("characters", "nyx")
    assert (nyx["legion"], nyx["treasury"]) == ("elbreth-scouts", 2)
    Table(save).refused(
        "gm", "relocate", {"character": "nyx", "legion": "elbreth-scouts"}, field="legion", text="already there"
    )
    # From the legion's hex back to a PC: the legion is left behind.
    assert Table(save).run("gm", "relocate", {"character": "nyx", "pc": "millbrook"}).data["location"] == "millbrook"
    assert "legion" not in world(save).get("characters", "nyx")


def test_legion_refusals(save: WorldFile) -> None:
    Table(save).refused(
        "gm", "relocate", {"character": "tobias", "legion": "elbreth-scouts"}, field="legion", text="only an Agent"
    )
    Table(save).refused(
        "gm",
        "relocate",
        {"character": "nyx", "legion": "varos-patrol"},
        field="legion",
        text="only onto a friendly legion",
    )
    Table(save).refused(
        "gm", "relocate", {"character": "nyx", "legion": "elbreth-fleet"}, field="legion", text="a fleet"
    )


def test_relocate_refusals(save: WorldFile) -> None:
    Table(save).refused("gm", "relocate", {"character": "tobias", "pc": "greywatch"}, field="pc", text="already there")
    Table(save).refused("gm", "relocate", {"character": "tobias"}, field="hex", text="exactly one target")
    Table(save).refused(
        "gm",
        "relocate",
        {"character": "tobias", "hex": "8,6", "pc": "hollow-oak"},
        field="hex",
        text="exactly one target",
    )
    Table(save).refused("gm", "relocate", {"character": "tobias", "hex": "north"}, field="hex", text="not a hex")
    Table(save).refused(
        "gm", "relocate", {"character": "maelis", "pc": "ironhold"}, field="character", text="is a mage"
    )
    change(save, lambda w: w.edit("characters", "tobias").update(treasury=0))
    Table(save).refused("gm", "relocate", {"character": "tobias", "hex": "7,5"}, field="treasury", text="0 ducats")


def test_parse_hex() -> None:
    assert parse_hex("5,3") == (5, 3)
    assert parse_hex("[5, -3]") == (5, -3)
    assert parse_hex("5 3") == (5, 3)


# --- discovery -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("provinces", "nation", "chance"),
    [
        ([], 1, 30),  # the demo: Varos has a nation-wide counter-spy (+10)
        (["amber-coast"], 1, 40),  # the province one (+20) applies; they never stack
        (["amber-coast"], 0, 40),
        (["varos-march"], 0, 20),  # a counter-spy in another province does not help
        ([], 0, 20),  # Ambassador: 20%
    ],
)
@pytest.mark.parametrize("over", [0, 1])
def test_discovery_edges(save: WorldFile, provinces: list[str], nation: int, chance: int, over: int) -> None:
    change(
        save, lambda w: w.edit("specialists", "varos").update(counter_spies={"provinces": provinces, "nation": nation})
    )
    result = Table(save).run("gm", "relocate", {"character": "tobias", "pc": "amberport"}, dice=[chance + over]).data
    discovered = over == 0
    assert result["discovery"] == {
        "chance": chance,
        "natural": chance + over,
        "discovered": discovered,
        "counter_spy": {20: None, 30: "nation", 40: "province"}[chance],
    }
    assert tobias(save)["location"] == "amberport"

    w = world(save)
    varos = [e for e in visible_entries(w, Identity.parse("king:varos"))]
    kesh = [e for e in visible_entries(w, Identity.parse("king:kesh"))]
    elbreth = [e for e in visible_entries(w, Identity.parse("king:elbreth"))]
    learned = [e for e in varos if e["kind"] == "discovery"]
    assert len(learned) == (1 if discovered else 0)
    if discovered:
        assert learned[0]["audience"] == "kingdom:varos"
        assert "Tobias Venn" in learned[0]["text"] and "Amberport" in learned[0]["text"]
    assert not [e for e in varos if "Tobias" in e["text"] and e["kind"] != "discovery"]
    assert not [e for e in kesh if "Tobias" in e["text"]]  # third parties learn nothing
    assert [e["kind"] for e in elbreth if "Tobias" in e["text"]] == ["ducats", "relocate"]
    assert not [e for e in elbreth if e["kind"] in ("discovery", "discovery-roll")]
    (roll,) = [e for _, e in w.all("chronicle") if e["kind"] == "discovery-roll"]
    assert roll["audience"] == "adjudicators"
    assert roll["rolls"][0]["naturals"] == [chance + over]


def test_high_priestess_discovery_is_60(save: WorldFile) -> None:
    place(save, "seraphine", "hollow-oak")  # (8, 6): Amberport (11, 5) is 3 away
    change(save, lambda w: w.edit("specialists", "varos").update(counter_spies={"provinces": [], "nation": 0}))
    result = Table(save).run("gm", "relocate", {"character": "seraphine", "pc": "amberport"}, dice=[60]).data
    assert result["discovery"]["chance"] == 60 and result["discovery"]["discovered"]


def test_no_discovery_roll_on_own_or_neutral_pc(save: WorldFile) -> None:
    # No dice given: a roll would fail the command.
    assert Table(save).run("gm", "relocate", {"character": "tobias", "pc": "hollow-oak"}).data["discovery"] is None
    assert Table(save).run("gm", "relocate", {"character": "tobias", "pc": "greywatch"}).data["discovery"] is None


def test_relocate_authority(save: WorldFile) -> None:
    # Onto Varos's PC: Varos is a party (the discovery roll is about it), Elbreth moves: only the GM.
    for who in ("king:varos", "king:elbreth", "king:kesh"):
        error = Table(save).refused(
            who, "relocate", {"character": "tobias", "pc": "amberport"}, field="identity", dice=[99]
        )
        assert "party" in error.reason or "not a player kingdom" in error.reason, error.reason
    filed = Table(save).run(
        "king:elbreth",
        "order-file",
        {"command": "relocate", "params": json.dumps({"character": "tobias", "pc": "amberport"})},
    )
    assert filed.data["adjudicator"] == "gm"


def test_relocate_odds(save: WorldFile) -> None:
    spec = spec_for("relocate")
    assert spec.odds is not None
    odds = spec.odds(world(save), GM, {"character": "tobias", "pc": "amberport", "hex": None, "legion": None})
    assert (odds["reason"], odds["discovery_chance"], odds["discovered"]) == ("ok", 30, 0.3)
    empty = spec.odds(world(save), GM, {"character": "tobias", "hex": "7,5", "pc": None, "legion": None})
    assert (empty["reason"], empty["discovery_chance"]) == ("no-pc", None)


# --- the map view ---------------------------------------------------------------------------------


def test_relocate_targets(save: WorldFile) -> None:
    targets = relocate_targets(world(save), "tobias")
    assert len(targets) == 3 * 7 * 7 + 3 * 7 + 1
    by_hex = {tuple(t["hex"]): t for t in targets}
    assert max(t["distance"] for t in targets) == 7
    assert by_hex[(6, 4)]["reason"] == "here" and not by_hex[(6, 4)]["ok"]
    assert by_hex[(9, 4)]["pc"] == "thornfield" and by_hex[(9, 4)]["reason"] == "blocked"
    assert by_hex[(7, 5)]["reason"] == "no-pc" and by_hex[(7, 5)]["cost_spent"]
    assert by_hex[(11, 5)]["ok"] and by_hex[(11, 5)]["discovery_chance"] == 30
    assert by_hex[(8, 6)]["ok"] and by_hex[(8, 6)]["discovery_chance"] is None
    assert by_hex[(7, 3)]["reason"] == "no-pc"  # a patrol, no PC
    assert by_hex[(6, 9)]["pc"] == "keshar" and by_hex[(6, 9)]["reason"] == "blocked"  # Kesh's brigade
    assert all(t["legions"] == [] for t in targets)  # not an Agent
    assert {t["pc"] for t in targets if t["ok"]} == {
        "highmoor",
        "millbrook",
        "brinehaven",
        "saltcross",
        "old-shrine",
        "ironhold",
        "varosgate",
        "amberport",
        "silverdell",
        "redfen-village",
        "hollow-oak",
        "ravenrock",
    }


def test_relocate_targets_for_an_agent_and_an_exhausted_hp(save: WorldFile) -> None:
    agent = {tuple(t["hex"]): t for t in relocate_targets(world(save), "nyx")}
    assert agent[(6, 4)]["legions"] == ["elbreth-scouts"]
    assert agent[(4, 3)]["legions"] == ["elbreth-royal-guard"]
    assert agent[(7, 3)]["legions"] == []  # Varos's patrol
    change(save, lambda w: w.edit("characters", "seraphine").update(status="exhausted"))
    assert not any(t["ok"] for t in relocate_targets(world(save), "seraphine"))
    assert {t["reason"] for t in relocate_targets(world(save), "seraphine")} == {"exhausted", "here"}


def test_cli_relocate(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--save", str(save.path), "--json", "do", "relocate", "character=tobias", "hex=11,5", "--dice", "31"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["location"] == "amberport" and out["discovery"]["discovered"] is False
    code = main(["--save", str(save.path), "--json", "do", "relocate", "character=tobias", "hex=19,5"])
    assert code == 2
    err = json.loads(capsys.readouterr().err)
    assert err["field"] == "hex" and "range is 7" in err["reason"]
