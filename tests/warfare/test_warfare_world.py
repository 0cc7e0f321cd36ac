"""Warfare in the world (RULINGS §2): raids, slave raids, capture, looting, dismantling and where
treasuries live, driven through `run_command` on the demo world."""

from __future__ import annotations

import copy
from typing import Any

import orjson
import pytest
from warfare_helpers import Table

from yak_tui.areas.warfare.raids import exposed_treasuries, looted_income_recipient, treasury_place
from yak_tui.cli import main
from yak_tui.kernel.play.commands import CommandResult, spec_for
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.season.seasons import due_items
from yak_tui.kernel.season.session import due_for
from yak_tui.kernel.world.model import World

SPRING_312 = {"year": 312, "season": "Spring"}
HEX = {
    "brinehaven": [2, 5],
    "millbrook": [5, 2],
    "saltcross": [3, 5],
    "greywatch": [6, 4],
    "ironhold": [5, 6],
    "highmoor": [4, 3],
    "redfen-village": [3, 9],
}


def at(t: Table, unit: str, pc: str) -> None:
    t.set("units", unit, hex=HEX[pc])


def ducat_entries(result: CommandResult) -> list[dict[str, Any]]:
    return [e for e in result.entries if e["kind"] == "ducats"]


# --- raids: who may raid what ------------------------------------------------------------------


def test_sea_raider_raids_the_walled_garrisoned_port(t: Table) -> None:
    at(t, "varos-raiders", "brinehaven")
    result = t.table.run("gm", "raid", {"unit": "Amber Corsairs", "pc": "Brinehaven"}, dice=[4])
    assert result.data["taken"] == 4 and result.data["from_treasury"] == 4 and result.data["from_tax"] == 0
    assert t.treasury("kingdoms", "elbreth") == 38
    assert t.treasury("kingdoms", "varos") == 34
    pc = t.get("pcs", "brinehaven")
    assert pc["raided_in"] == SPRING_312 and pc["raided_by"] == "varos"
    assert not pc.get("tax_taken")
    assert [r.naturals for r in result.rolls] == [[4]]
    # A raid is public: a Varos player sees the raid and the money moving.
    seen = t.texts("player:lysa")
    assert any("Amber Corsairs (Kingdom of Varos) raid Brinehaven: 1d6 = 4" in text for text in seen)
    assert any("pays 4 ducats to Kingdom of Varos: raid on Brinehaven" in text for text in seen)


@pytest.mark.parametrize(
    ("unit", "pc", "field", "text"),
    [
        ("varos-lancers", "brinehaven", "unit", "has a garrison and walls"),
        ("varos-lancers", "greywatch", "unit", "has walls:"),
        ("varos-raiders", "greywatch", "unit", "Sea Raider raids an inland structure like any other unit"),
        ("varos-lancers", "redfen-village", "pc", "village cannot be raided or looted"),
        ("elbreth-scouts", "millbrook", "unit", "does not raid its own structure"),
    ],
)
def test_raid_refusals(t: Table, unit: str, pc: str, field: str, text: str) -> None:
    at(t, unit, pc)
    t.table.refused("gm", "raid", {"unit": unit, "pc": pc}, field=field, text=text, dice=[3])
    t.table.refused("gm", "slave-raid", {"unit": unit, "pc": pc, "take": "slaves"}, field=field, text=text, dice=[3])


def test_raid_is_made_in_the_structures_hex(t: Table) -> None:
    t.table.refused(
        "gm",
        "raid",
        {"unit": "varos-raiders", "pc": "brinehaven"},
        field="unit",
        text="a raid needs it in its hex",
        dice=[3],
    )


@pytest.mark.parametrize(
    ("unit", "pc"), [("varos-raiders", "millbrook"), ("varos-lancers", "millbrook"), ("kesh-riders", "highmoor")]
)
def test_defenceless_or_raider(t: Table, unit: str, pc: str) -> None:
    # Inland and defenceless: a Sea Raider or cavalry may; a Raider may raid even the walled capital.
    at(t, unit, pc)
    assert t.table.run("gm", "raid", {"unit": unit, "pc": pc}, dice=[2]).data["taken"] == 2


def test_second_raid_in_a_season_is_refused_then_allowed_next_season(t: Table) -> None:
    at(t, "varos-raiders", "brinehaven")
    at(t, "kesh-riders", "brinehaven")
    t.table.run("gm", "raid", {"unit": "varos-raiders", "pc": "brinehaven"}, dice=[2])
    t.table.refused(
        "gm",
        "raid",
        {"unit": "kesh-riders", "pc": "brinehaven"},
        field="pc",
        text="once per season, by anyone",
        dice=[5],
    )
    t.table.refused(
        "gm",
        "slave-raid",
        {"unit": "kesh-riders", "pc": "brinehaven", "take": "manpower"},
        field="pc",
        text="already raided in Spring 312",
        dice=[5],
    )
    t.advance()
    assert t.table.run("gm", "raid", {"unit": "kesh-riders", "pc": "brinehaven"}, dice=[1]).data["taken"] == 1


def test_a_king_with_a_stake_may_not_roll_the_raid(t: Table) -> None:
    at(t, "varos-raiders", "brinehaven")
    params = {"unit": "varos-raiders", "pc": "brinehaven"}
    error = t.table.refused("king:varos", "raid", params, field="identity", text="own forces", dice=[3])
    assert "gm" in error.who_may
    t.table.refused(
        "king:elbreth", "raid", params, field="identity", text="does not act for Kingdom of Varos", dice=[3]
    )
    t.table.refused("player:lysa", "raid", params, field="identity", text="does not act for Kingdom of Varos", dice=[3])
    t.set("units", "varos-raiders", commander="lysa")  # her own command: she files, never rolls
    t.table.refused("player:lysa", "raid", params, field="identity", text="players never roll", dice=[3])


def test_raid_as_an_order_waits_for_the_gm(t: Table) -> None:
    at(t, "varos-raiders", "brinehaven")
    filed = t.table.run(
        "king:varos", "order-file", {"command": "raid", "params": '{"unit": "varos-raiders", "pc": "brinehaven"}'}
    )
    assert filed.data["adjudicator"] == "gm"
    # Elbreth's King cannot file a raid with Varos's units.
    t.table.refused(
        "king:elbreth",
        "order-file",
        {"command": "raid", "params": '{"unit": "varos-raiders", "pc": "brinehaven"}'},
        field="order.identity",
        text="does not act for Kingdom of Varos",
    )
    resolved = t.table.run("gm", "order-resolve", {"order": filed.data["order"]}, dice=[5])
    assert resolved.data["result"]["taken"] == 5
    assert t.treasury("kingdoms", "varos") == 35


# --- raids: where the ducats come from ------------------------------------------------------------


@pytest.mark.parametrize(
    ("treasury", "taken_before", "die", "from_treasury", "from_tax"),
    [
        (42, 0, 4, 4, 0),  # the owner's treasury
        (2, 0, 5, 2, 3),  # split: treasury first, the rest from the coming tax
        (0, 0, 3, 0, 3),  # tax only
        (-3, 0, 6, 0, 4),  # a treasury in debt is not raided; only the tax that exists (4)
        (1, 4, 6, 1, 0),  # the tax already taken: only what the treasury holds
        (0, 4, 5, 0, 0),  # nothing left anywhere: nothing taken
    ],
)
def test_every_source_of_raided_ducats(
    t: Table, treasury: int, taken_before: int, die: int, from_treasury: int, from_tax: int
) -> None:
    t.set("kingdoms", "elbreth", treasury=treasury)
    t.set("pcs", "brinehaven", tax_taken=taken_before)
    at(t, "varos-raiders", "brinehaven")
    result = t.table.run("gm", "raid", {"unit": "varos-raiders", "pc": "brinehaven"}, dice=[die])
    assert (result.data["from_treasury"], result.data["from_tax"]) == (from_treasury, from_tax)
    assert result.data["taken"] == from_treasury + from_tax
    assert t.treasury("kingdoms", "elbreth") == treasury - from_treasury
    assert t.treasury("kingdoms", "varos") == 30 + from_treasury + from_tax
    assert t.get("pcs", "brinehaven").get("tax_taken", 0) == taken_before + from_tax
    assert len(ducat_entries(result)) == (from_treasury > 0) + (from_tax > 0)
    assert t.get("pcs", "brinehaven")["raided_in"] == SPRING_312


def test_raid_on_a_citizens_market_hits_his_treasury(t: Table) -> None:
    at(t, "kesh-riders", "saltcross")
    result = t.table.run("gm", "raid", {"unit": "kesh-riders", "pc": "saltcross"}, dice=[5])
    assert result.data["owner"] == "characters:corvin"
    assert t.treasury("characters", "corvin") == 10
    assert t.treasury("kingdoms", "kesh") == 30
    assert t.treasury("kingdoms", "elbreth") == 42


def test_raided_tax_is_withheld_at_year_start(t: Table) -> None:
    t.set("kingdoms", "elbreth", treasury=0)
    at(t, "varos-raiders", "brinehaven")
    t.table.run("gm", "raid", {"unit": "varos-raiders", "pc": "brinehaven"}, dice=[3])
    assert t.get("pcs", "brinehaven")["tax_taken"] == 3
    for _ in range(3):
        t.advance()
    year_start = t.advance()
    assert year_start.data["to"] == "Spring 313"
    tax_steps = [s for s in year_start.data["steps"] if s["step"] == "tax"]
    assert tax_steps[0]["sums"]["lost to raids and looting"] == 3
    # Elbreth's own structures pay 20 a year (Saltcross pays Corvin); the raid took 3 of it.
    paid = [e for e in year_start.entries if e.get("amounts") == {"kingdoms:elbreth": 17}]
    assert paid and "tax for the year" in paid[0]["text"]
    assert not t.get("pcs", "brinehaven").get("tax_taken")


# --- slave raids ---------------------------------------------------------------------------------


def test_slave_raid_taken_as_manpower(t: Table) -> None:
    at(t, "kesh-riders", "millbrook")
    result = t.table.run("gm", "slave-raid", {"unit": "kesh-riders", "pc": "millbrook", "take": "manpower"}, dice=[5])
    assert result.data["manpower"] == 3
    assert t.get("provinces", "highmoor-vale")["surplus_manpower"] == 1
    assert t.get("kingdoms", "kesh")["manpower"] == 15
    assert "goods" not in t.get("kingdoms", "kesh")
    assert t.get("pcs", "millbrook")["raided_in"] == SPRING_312


def test_slave_raid_taken_as_slaves_capped_by_the_surplus(t: Table) -> None:
    at(t, "kesh-riders", "greywatch")
    result = t.table.run("gm", "slave-raid", {"unit": "kesh-riders", "pc": "greywatch", "take": "slaves"}, dice=[6])
    assert result.data["manpower"] == 2
    assert t.get("provinces", "greywood")["surplus_manpower"] == 0
    assert t.get("kingdoms", "kesh")["goods"] == {"Slaves": 2}
    assert t.get("kingdoms", "kesh")["manpower"] == 12
    assert any("capped by the surplus" in text for text in t.texts())


def test_slave_raid_on_an_empty_province_takes_nothing(t: Table) -> None:
    at(t, "kesh-riders", "ironhold")
    result = t.table.run("gm", "slave-raid", {"unit": "kesh-riders", "pc": "ironhold", "take": "slaves"}, dice=[6])
    assert result.data["manpower"] == 0
    assert t.get("kingdoms", "kesh").get("goods", {}).get("Slaves", 0) == 0
    assert t.get("pcs", "ironhold")["raided_in"] == SPRING_312  # the season's raid is spent


def test_slave_raid_choice_comes_before_the_roll(t: Table) -> None:
    at(t, "kesh-riders", "greywatch")
    t.table.refused(
        "gm", "slave-raid", {"unit": "kesh-riders", "pc": "greywatch"}, field="take", text="is required", dice=[6]
    )
    t.table.refused(
        "gm",
        "slave-raid",
        {"unit": "kesh-riders", "pc": "greywatch", "take": "ducats"},
        field="take",
        text="must be one of manpower, slaves",
        dice=[6],
    )


def test_slave_raid_odds(t: Table) -> None:
    spec = spec_for("slave-raid")
    assert spec.odds is not None
    odds = spec.odds(t.world, Identity.parse("gm"), {"unit": "kesh-riders", "pc": "greywatch", "take": "slaves"})
    assert odds["odds"] == {"0": 0.0, "1": 0.333333, "2": 0.666667}


def test_owner_converts_manpower_to_slaves_with_public_unrest(t: Table) -> None:
    result = t.table.run("king:elbreth", "convert-slaves", {"province": "highmoor-vale", "amount": 2})
    assert result.data["slaves"] == 2
    assert t.get("provinces", "highmoor-vale")["surplus_manpower"] == 2
    assert t.get("kingdoms", "elbreth")["goods"] == {"Slaves": 2}
    unrest = [e for e in t.entries("player:lysa") if e["kind"] == "unrest"]
    assert len(unrest) == 1 and "for the GM to adjudicate" in unrest[0]["text"]
    due = [d for d in due_items(t.world) if d["kind"] == "unrest"]
    assert due and due[0]["audience"] == "adjudicators" and "Highmoor Vale" in due[0]["text"]
    assert not [d for d in due_for(t.world, Identity.parse("player:lysa")) if d["kind"] == "unrest"]
    t.advance()
    assert not [d for d in due_items(t.world) if d["kind"] == "unrest"]  # this season's business only


@pytest.mark.parametrize(
    ("params", "who", "field", "text"),
    [
        ({"province": "highmoor-vale", "amount": 5}, "king:elbreth", "amount", "has 4 surplus manpower"),
        ({"province": "highmoor-vale", "amount": 1}, "king:varos", "identity", "does not act for Kingdom of Elbreth"),
        ({"province": "the-wilds", "amount": 1}, "gm", "province", "belongs to no kingdom"),
        ({"province": "highmoor-vale", "amount": 0}, "gm", "amount", "at least 1"),
    ],
)
def test_convert_slaves_refusals(t: Table, params: dict[str, object], who: str, field: str, text: str) -> None:
    t.table.refused(who, "convert-slaves", params, field=field, text=text)


# --- capture and destruction ----------------------------------------------------------------------


def test_capture_changes_hands_and_needs_an_uninvolved_adjudicator(t: Table) -> None:
    at(t, "kesh-riders", "millbrook")
    params = {"pc": "millbrook", "unit": "kesh-riders"}
    t.table.refused("king:varos", "capture", params, field="identity", text="does not act for Principality of Kesh")
    at(t, "varos-lancers", "millbrook")
    own = {"pc": "millbrook", "unit": "varos-lancers"}
    t.table.refused("king:varos", "capture", own, field="identity", text="own forces")
    result = t.table.run("gm", "capture", params)
    assert result.data["from"] == "elbreth"
    pc = t.get("pcs", "millbrook")
    assert (pc["controller"], pc["captured_by"], pc["captured_from"]) == ("kesh", "kesh", "elbreth")
    assert pc["captured"] == SPRING_312
    t.table.refused("gm", "capture", params, field="unit", text="already holds Millbrook")


def test_capture_asks_what_became_of_the_garrison(t: Table) -> None:
    params = {"pc": "brinehaven", "unit": "varos-siege-host"}
    t.table.refused("gm", "capture", params, field="garrison", text="Brinehaven Watch (2 regiments)")
    t.table.run("gm", "capture", {**params, "garrison": "destroyed"})
    assert "brinehaven-watch" not in t.world.data["units"]


def test_a_fleeing_garrison_leaves_the_fort(t: Table) -> None:
    t.table.run("gm", "capture", {"pc": "brinehaven", "unit": "varos-siege-host", "garrison": "fled"})
    assert t.get("units", "brinehaven-watch").get("inside") is None


def test_academy_goes_to_the_captor(t: Table) -> None:
    at(t, "varos-lancers", "highmoor")
    result = t.table.run("gm", "capture", {"pc": "highmoor", "unit": "varos-lancers", "garrison": "fled"})
    assert result.data["academies"] == ["highmoor-engineers"]
    assert t.get("academies", "highmoor-engineers")["kingdom"] == "varos"


def test_a_destroyed_town_destroys_its_academy(t: Table) -> None:
    at(t, "varos-lancers", "highmoor")
    result = t.table.run(
        "gm", "capture", {"pc": "highmoor", "unit": "varos-lancers", "garrison": "fled", "destroy": True}
    )
    assert result.data["academies_destroyed"] == ["highmoor-engineers"]
    assert "highmoor-engineers" not in t.world.data["academies"]
    pc = t.get("pcs", "highmoor")
    assert pc["destroyed"] == SPRING_312 and pc["tax"] == 0 and pc["fort_level"] == 0
    at(t, "kesh-riders", "highmoor")
    t.table.refused(
        "gm",
        "raid",
        {"unit": "kesh-riders", "pc": "highmoor"},
        field="pc",
        text="was destroyed in Spring 312",
        dice=[3],
    )


def test_raze_by_the_holder(t: Table) -> None:
    t.table.refused(
        "king:varos", "raze", {"pc": "highmoor"}, field="identity", text="does not act for Kingdom of Elbreth"
    )
    assert t.table.run("king:elbreth", "raze", {"pc": "highmoor"}).data["academies_destroyed"] == ["highmoor-engineers"]


# --- looting ------------------------------------------------------------------------------------


def test_loot_without_a_treasury(t: Table) -> None:
    t.table.run("gm", "capture", {"pc": "brinehaven", "unit": "varos-siege-host", "garrison": "destroyed"})
    result = t.table.run("king:varos", "loot", {"pc": "brinehaven"})
    assert result.data["tax"] == 4 and result.data["treasuries"] == {}
    assert result.data["businesses"] == ["brine-traders"]
    assert t.treasury("kingdoms", "varos") == 34
    assert t.treasury("kingdoms", "elbreth") == 42
    assert t.get("pcs", "brinehaven")["tax_taken"] == 4
    biz = t.get("businesses", "brine-traders")
    assert (biz["income_looted_by"], biz["income_looted_for"]) == ("varos", 313)
    t.table.refused(
        "gm", "loot", {"pc": "brinehaven"}, field="pc", text="already looted after its capture in Spring 312"
    )


def test_loot_takes_only_the_tax_raids_left(t: Table) -> None:
    t.set("kingdoms", "elbreth", treasury=0)
    at(t, "varos-raiders", "brinehaven")
    t.table.run("gm", "raid", {"unit": "varos-raiders", "pc": "brinehaven"}, dice=[3])
    t.table.run("gm", "capture", {"pc": "brinehaven", "unit": "varos-siege-host", "garrison": "destroyed"})
    assert t.table.run("gm", "loot", {"pc": "brinehaven"}).data["tax"] == 1
    assert t.get("pcs", "brinehaven")["tax_taken"] == 4
    assert t.treasury("kingdoms", "varos") == 34


def test_loot_with_the_treasuries_kept_in_the_capital(t: Table) -> None:
    at(t, "varos-lancers", "highmoor")
    t.table.run("gm", "capture", {"pc": "highmoor", "unit": "varos-lancers", "garrison": "fled"})
    result = t.table.run("gm", "loot", {"pc": "highmoor"})
    # The kingdom's treasury lives here, and so do Edmund's and Rowena's (their largest, best
    # defended businesses): half of each, rounded down.
    assert result.data["treasuries"] == {"kingdoms:elbreth": 21, "characters:edmund": 4, "characters:rowena": 4}
    assert result.data["tax"] == 6 and result.data["ducats"] == 35
    assert t.treasury("kingdoms", "varos") == 65
    assert t.treasury("kingdoms", "elbreth") == 21
    assert t.treasury("characters", "edmund") == 4 and t.treasury("characters", "rowena") == 5
    assert t.treasury("characters", "aldric") == 12  # carried with him
    assert sorted(result.data["businesses"]) == ["highmoor-weavers", "scribes-guild"]


def test_loot_a_citizens_market_exposes_his_treasury(t: Table) -> None:
    at(t, "kesh-riders", "saltcross")
    t.table.run("gm", "capture", {"pc": "saltcross", "unit": "kesh-riders"})
    assert t.get("pcs", "saltcross").get("owner_character") is None
    assert t.get("pcs", "saltcross")["captured_owner"] == "corvin"
    result = t.table.run("gm", "loot", {"pc": "saltcross"})
    assert result.data["treasuries"] == {"characters:corvin": 7}
    assert t.treasury("characters", "corvin") == 8
    assert t.treasury("kingdoms", "kesh") == 25 + 3 + 7
    assert sorted(result.data["businesses"]) == ["hale-bank", "salt-works"]


def test_a_captured_citizens_treasury_waits_in_his_town_until_looted(t: Table) -> None:
    # Corvin owns only Saltcross here: once it is taken his treasury is still inside, till looted.
    # Its businesses belong to Bertil, a Kesh baron: the looter does not rob his own kingdom's men.
    t.set("businesses", "hale-bank", owner="bertil")
    t.set("businesses", "salt-works", owner="bertil")
    t.set("characters", "corvin", residence=None)
    at(t, "kesh-riders", "saltcross")
    t.table.run("gm", "capture", {"pc": "saltcross", "unit": "kesh-riders"})
    assert treasury_place(t.world, ("characters", "corvin")) == "saltcross"
    assert t.table.run("gm", "loot", {"pc": "saltcross"}).data["treasuries"] == {"characters:corvin": 7}
    assert treasury_place(t.world, ("characters", "corvin")) is None  # what is left he carries
    assert treasury_place(t.world, ("characters", "bertil")) == "saltcross"
    assert t.treasury("characters", "bertil") == 5


def test_loot_needs_a_capture_by_a_hostile_force(t: Table) -> None:
    t.table.refused("gm", "loot", {"pc": "brinehaven"}, field="pc", text="captured by a hostile force")
    at(t, "varos-lancers", "redfen-village")
    t.table.run("gm", "capture", {"pc": "redfen-village", "unit": "varos-lancers"})
    t.table.refused("gm", "loot", {"pc": "redfen-village"}, field="pc", text="village cannot be raided or looted")


def test_only_the_captor_loots(t: Table) -> None:
    t.table.run("gm", "capture", {"pc": "brinehaven", "unit": "varos-siege-host", "garrison": "destroyed"})
    t.table.refused(
        "king:elbreth", "loot", {"pc": "brinehaven"}, field="identity", text="does not act for Kingdom of Varos"
    )


def test_looted_business_income_contract(t: Table) -> None:
    t.table.run("gm", "capture", {"pc": "brinehaven", "unit": "varos-siege-host", "garrison": "destroyed"})
    t.table.run("gm", "loot", {"pc": "brinehaven"})
    world = t.world
    assert looted_income_recipient(world, "brine-traders") is None  # not this year's income
    at_year_start = World(copy.deepcopy(world.data))
    at_year_start.meta["date"] = GameDate.of(313, "Spring").to_dict()
    assert looted_income_recipient(at_year_start, "brine-traders") == "varos"
    assert looted_income_recipient(at_year_start, "hale-bank") is None
    assert looted_income_recipient(at_year_start, "no-such-business") is None
    for _ in range(3):
        t.advance()
    year_start = t.advance()
    # The economy's business-income step paid Brine Traders' income (Size 1, less tax) to Varos.
    income = next(s for s in year_start.data["steps"] if s["step"] == "business-income")
    assert income["sums"]["looted"] == 1
    paid = [e for e in year_start.entries if "looted from Brine Traders" in e["text"]]
    assert paid and paid[0]["amounts"] == {"kingdoms:varos": 1}
    biz = t.get("businesses", "brine-traders")
    assert not biz.get("income_looted_by") and "income_looted_for" not in biz


# --- dismantling -----------------------------------------------------------------------------------


def test_owner_dismantles_for_half_the_invested(t: Table) -> None:
    t.table.refused(
        "king:elbreth",
        "dismantle",
        {"business": "millbrook-mill"},
        field="identity",
        text="does not act for Prince Edmund",
    )
    result = t.table.run("player:edmund", "dismantle", {"business": "millbrook-mill"})
    assert result.data == {"business": "millbrook-mill", "ducats": 4, "to": "characters:edmund"}
    assert t.treasury("characters", "edmund") == 12
    assert "millbrook-mill" not in t.world.data["businesses"]


def test_captor_dismantles_a_business_in_the_captured_town(t: Table) -> None:
    t.table.refused(
        "gm",
        "dismantle",
        {"business": "millbrook-mill", "captor": "kesh"},
        field="captor",
        text="has not captured Millbrook",
    )
    at(t, "kesh-riders", "millbrook")
    t.table.run("gm", "capture", {"pc": "millbrook", "unit": "kesh-riders"})
    t.table.refused(
        "gm", "dismantle", {"business": "millbrook-mill", "captor": "varos"}, field="captor", text="has not captured"
    )
    result = t.table.run("gm", "dismantle", {"business": "millbrook-mill", "captor": "kesh"})
    assert result.data["ducats"] == 4 and result.data["to"] == "kingdoms:kesh"
    assert t.treasury("kingdoms", "kesh") == 29
    assert t.treasury("characters", "edmund") == 8


# --- where treasuries live ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("party", "place"),
    [
        (("kingdoms", "elbreth"), "highmoor"),
        (("kingdoms", "varos"), "varosgate"),
        (("kingdoms", "kesh"), "keshar"),
        (("characters", "corvin"), "saltcross"),  # his largest holding, the bank, is in Saltcross
        (("characters", "lysa"), "amberport"),
        (("characters", "rowena"), "highmoor"),  # Weavers (3) beat Brine Traders (1)
        (("characters", "edmund"), "highmoor"),  # two of Size 3: the better defended town
        (("characters", "bertil"), "silverdell"),
        (("characters", "aldric"), None),  # owns nothing, no residence: carried
    ],
)
def test_treasury_places(t: Table, party: tuple[str, str], place: str | None) -> None:
    assert treasury_place(t.world, party) == place


def test_vault_and_capital_fallback(t: Table) -> None:
    t.set("characters", "aldric", vault="greywatch")
    t.set("pcs", "highmoor", holds_treasury_of=[])
    world = t.world
    assert treasury_place(world, ("characters", "aldric")) == "greywatch"
    assert ("characters", "aldric") in exposed_treasuries(world, "greywatch")
    assert treasury_place(world, ("kingdoms", "elbreth")) == "highmoor"  # the capital
    assert exposed_treasuries(world, "highmoor") == [
        ("kingdoms", "elbreth"),
        ("characters", "edmund"),
        ("characters", "rowena"),
    ]


# --- through the real CLI ----------------------------------------------------------------------------


def test_raid_and_refusal_through_the_cli(t: Table, capsys: pytest.CaptureFixture[str]) -> None:
    at(t, "varos-raiders", "brinehaven")
    path = str(t.save.path)
    assert main(["--save", path, "do", "raid", "unit=varos-raiders", "pc=brinehaven", "--dice", "6", "--json"]) == 0
    out = orjson.loads(capsys.readouterr().out)
    assert out["ok"] and out["taken"] == 6 and out["natural"] == 6
    before = t.save.path.read_bytes()
    assert main(["--save", path, "do", "raid", "unit=varos-raiders", "pc=brinehaven", "--dice", "6", "--json"]) == 2
    err = orjson.loads(capsys.readouterr().err)
    assert err["field"] == "pc" and "once per season" in err["reason"]
    assert t.save.path.read_bytes() == before
