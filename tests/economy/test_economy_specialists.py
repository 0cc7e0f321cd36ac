"""Specialists in the world (RULINGS §6): hiring and its yearly limits, training sponsorship,
academies (and their towns), sailors, engineers (siege, gunpowder, traps) and missionaries;
and the year-start production sums on the demo world."""

from __future__ import annotations

import pytest
from econ_helpers import edit, money_sum, set_date, state, step, treasury
from yak_plugin import Table

from yak_tui.areas import economy as eco
from yak_tui.areas.economy import specialist_rules
from yak_tui.kernel.play.audience import visible_entries
from yak_tui.kernel.play.commands import CommandContext, spec_for
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile


def _pool(save: WorldFile, kingdom: str, kind: str) -> int:
    return int(state(save)["specialists"][kingdom].get(kind, 0))


def _money(save: WorldFile, table: str, doc_id: str, amount: int = 100) -> None:
    edit(save, lambda data: data[table][doc_id].update(treasury=amount))


# ---------------------------------------------------------------------------------------------
# Hiring
# ---------------------------------------------------------------------------------------------


def test_hire_at_once_costs_three(save: WorldFile) -> None:
    result = Table(save).run("king:elbreth", "hire", {"kingdom": "elbreth", "type": "spy", "immediate": "true"})
    assert _pool(save, "elbreth", "spy") == 4
    assert money_sum(result.entries) == {"kingdoms:elbreth": -3}
    assert state(save)["kingdoms"]["elbreth"]["year_counters"] == {"hired_spy": 1}


def test_hire_for_next_season_costs_two_and_arrives(save: WorldFile) -> None:
    result = Table(save).run("gm", "hire", {"kingdom": "elbreth", "type": "engineer"})
    assert money_sum(result.entries) == {"kingdoms:elbreth": -2}
    assert _pool(save, "elbreth", "engineer") == 2 and result.data["event"]
    assert any("engineer" in i["text"] for i in eco_due(save))
    Table(save).run("gm", "advance")
    assert _pool(save, "elbreth", "engineer") == 3


def eco_due(save: WorldFile) -> list[dict]:
    from yak_tui.kernel.season.seasons import due_items

    return due_items(World(state(save)))


@pytest.mark.parametrize(("kingdom", "provinces"), [("elbreth", 4), ("varos", 2), ("kesh", 2)])
def test_hire_limit_is_one_per_province_per_type(save: WorldFile, kingdom: str, provinces: int) -> None:
    _money(save, "kingdoms", kingdom)
    assert eco.controlled_provinces(World(state(save)), kingdom) == provinces
    Table(save).run("gm", "hire", {"kingdom": kingdom, "type": "missionary", "count": provinces - 1})
    Table(save).run("gm", "hire", {"kingdom": kingdom, "type": "missionary"})
    Table(save).refused("gm", "hire", {"kingdom": kingdom, "type": "missionary"}, field="count")
    Table(save).run("gm", "hire", {"kingdom": kingdom, "type": "spy", "count": provinces})  # each type on its own
    assert eco.hire_status(World(state(save)), kingdom)["missionary"] == {"hired": provinces, "limit": provinces}


def test_hire_limit_resets_at_year_start(save: WorldFile) -> None:
    set_date(save, "Winter 312")
    Table(save).run("gm", "hire", {"kingdom": "varos", "type": "spy", "count": 2})
    Table(save).refused("gm", "hire", {"kingdom": "varos", "type": "spy"}, field="count")
    Table(save).run("gm", "advance")
    assert state(save)["kingdoms"]["varos"]["year_counters"] == {}
    Table(save).run("gm", "hire", {"kingdom": "varos", "type": "spy", "count": 2})


def test_hire_refusals(save: WorldFile) -> None:
    Table(save).refused("king:varos", "hire", {"kingdom": "elbreth", "type": "spy"}, field="identity")
    Table(save).refused("player:aldric", "hire", {"kingdom": "elbreth", "type": "spy"}, field="identity")
    Table(save).refused("gm", "hire", {"kingdom": "elbreth", "type": "sailor"}, field="type")
    edit(save, lambda data: data["kingdoms"]["kesh"].update(treasury=2))
    Table(save).refused("gm", "hire", {"kingdom": "kesh", "type": "spy", "immediate": "true"}, field="treasury")


# ---------------------------------------------------------------------------------------------
# Training sponsorship
# ---------------------------------------------------------------------------------------------


def test_service_size_three_sponsors_up_to_size_a_year(save: WorldFile) -> None:
    result = Table(save).run(
        "player:edmund", "sponsor-training", {"business": "scribes-guild", "type": "spy", "count": 2}
    )
    assert money_sum(result.entries) == {"characters:edmund": -2}
    Table(save).run("gm", "sponsor-training", {"business": "scribes-guild", "type": "sailor"})
    Table(save).refused("gm", "sponsor-training", {"business": "scribes-guild", "type": "spy"}, field="count")
    assert _pool(save, "elbreth", "spy") == 3
    Table(save).run("gm", "advance")  # they arrive after one season, in the owner's kingdom's pool
    assert (_pool(save, "elbreth", "spy"), _pool(save, "elbreth", "sailor")) == (5, 3)


def test_training_needs_a_service_business_of_size_three(save: WorldFile) -> None:
    edit(save, lambda data: data["businesses"]["scribes-guild"].update(size=2))
    Table(save).refused("gm", "sponsor-training", {"business": "scribes-guild", "type": "spy"}, field="business")
    Table(save).refused("gm", "sponsor-training", {"business": "millbrook-mill", "type": "spy"}, field="business")
    Table(save).refused(
        "player:corvin", "sponsor-training", {"business": "scribes-guild", "type": "spy"}, field="identity"
    )


def test_training_counter_resets_at_year_start(save: WorldFile) -> None:
    set_date(save, "Winter 312")
    Table(save).run("gm", "sponsor-training", {"business": "scribes-guild", "type": "spy", "count": 3})
    Table(save).refused("gm", "sponsor-training", {"business": "scribes-guild", "type": "spy"}, field="count")
    Table(save).run("gm", "advance")
    Table(save).run("gm", "sponsor-training", {"business": "scribes-guild", "type": "spy", "count": 3})


# ---------------------------------------------------------------------------------------------
# Academies and sailors
# ---------------------------------------------------------------------------------------------


def test_academy_costs_three_specialists_a_level_in_a_town(save: WorldFile) -> None:
    Table(save).refused(
        "gm", "academy-found", {"kingdom": "elbreth", "pc": "millbrook", "type": "engineer"}, field="levels"
    )
    Table(save).refused(
        "gm", "academy-found", {"kingdom": "elbreth", "pc": "saltcross", "type": "spy"}, field="pc"
    )  # market
    Table(save).refused(
        "gm", "academy-found", {"kingdom": "elbreth", "pc": "old-shrine", "type": "spy"}, field="pc"
    )  # temple
    Table(save).refused("gm", "academy-found", {"kingdom": "elbreth", "pc": "varosgate", "type": "spy"}, field="pc")
    Table(save).refused(
        "gm", "academy-found", {"kingdom": "elbreth", "pc": "millbrook", "type": "spy", "levels": 2}, field="levels"
    )
    out = (
        Table(save).run("king:elbreth", "academy-found", {"kingdom": "elbreth", "pc": "millbrook", "type": "spy"}).data
    )
    assert out["expended"] == 3 and _pool(save, "elbreth", "spy") == 0
    assert state(save)["academies"][out["academy"]] | {} == {
        "kingdom": "elbreth",
        "pc": "millbrook",
        "type": "spy",
        "level": 1,
        "founded": {"year": 312, "season": "Spring"},
    }
    edit(save, lambda data: data["specialists"]["elbreth"].update(spy=7))
    Table(save).refused("gm", "academy-found", {"kingdom": "elbreth", "pc": "millbrook", "type": "spy"}, field="pc")
    assert Table(save).run("gm", "academy-expand", {"academy": out["academy"], "levels": 2}).data["level"] == 3
    assert _pool(save, "elbreth", "spy") == 1
    Table(save).refused("gm", "academy-expand", {"academy": out["academy"]}, field="levels")


def _production_sums(data: dict) -> dict[str, int]:
    graduates = sum(a["level"] for a in data["academies"].values())
    sailors = sum(
        1 for p in data["provinces"].values() for port in p.get("ports", []) if data["pcs"][port].get("controller")
    )
    return {"academy graduates": graduates, "sailors": sailors}


def test_year_start_production_on_the_demo(save: WorldFile) -> None:
    data = state(save)
    expected = _production_sums(data)
    assert expected == {"academy graduates": 1, "sailors": 2}
    set_date(save, "Winter 312")
    result = Table(save).run("gm", "advance")
    assert step(result, "production")["sums"] == expected
    after = state(save)
    assert after["specialists"]["elbreth"]["engineer"] == data["specialists"]["elbreth"]["engineer"] + 1
    assert after["specialists"]["elbreth"]["sailor"] == data["specialists"]["elbreth"]["sailor"] + 1
    assert after["specialists"]["varos"]["sailor"] == data["specialists"]["varos"]["sailor"] + 1
    assert after["specialists"]["kesh"]["sailor"] == 0


def test_sailors_follow_the_ports(save: WorldFile) -> None:
    edit(save, lambda data: data["pcs"]["brinehaven"].update(controller="varos"))
    set_date(save, "Winter 312")
    Table(save).run("gm", "advance")
    assert (_pool(save, "elbreth", "sailor"), _pool(save, "varos", "sailor")) == (2, 3)


def _interference(data: dict, kind: str, target: str, known: bool, **extra: object) -> None:
    data["effects"]["fx-0001"] = {
        "kind": kind,
        "sponsor_kingdom": "varos",
        "target_kingdom": target,
        "holder_kingdom": "varos",
        "active": True,
        "known_to_target": known,
        "due": {"year": 313, "season": "Spring"},
        "end": {"year": 313, "season": "Spring"},
        "data": dict(extra),
    }


@pytest.mark.parametrize(("level", "gained"), [(1, 0), (2, 0), (3, 1)])
def test_academy_interference_cuts_two_once(save: WorldFile, level: int, gained: int) -> None:
    def change(data: dict) -> None:
        data["academies"]["highmoor-engineers"]["level"] = level
        _interference(data, "academy-interference", "elbreth", False, specialist="engineer", reduction=2)

    edit(save, change)
    set_date(save, "Winter 312")
    result = Table(save).run("gm", "advance")
    assert _pool(save, "elbreth", "engineer") == 2 + gained
    assert state(save)["effects"]["fx-0001"]["consumed"] == {"year": 313, "season": "Spring"}
    line = next(e for e in result.entries if "academies graduate" in e["text"])
    assert "interference" not in line["text"] and "cut by interference" in line["secret"]
    elbreth_view = visible_entries(World(state(save)), Identity.parse("king:elbreth"))
    assert not any("interference" in e["text"] or e.get("secret") for e in elbreth_view)
    set_date(save, "Winter 313")
    Table(save).run("gm", "advance")
    assert _pool(save, "elbreth", "engineer") == 2 + gained + level


def test_interference_for_another_type_or_later_year_does_not_cut(save: WorldFile) -> None:
    def change(data: dict) -> None:
        _interference(data, "academy-interference", "elbreth", True, specialist="spy", reduction=2)

    edit(save, change)
    set_date(save, "Winter 312")
    Table(save).run("gm", "advance")
    assert _pool(save, "elbreth", "engineer") == 3


def test_sailor_recruitment_cut(save: WorldFile) -> None:
    edit(save, lambda data: _interference(data, "sailor-recruitment-cut", "varos", True, reduction=3))
    set_date(save, "Winter 312")
    result = Table(save).run("gm", "advance")
    assert (_pool(save, "varos", "sailor"), _pool(save, "elbreth", "sailor")) == (1, 3)
    assert step(result, "production")["sums"]["sailors"] == 1
    assert any("interference with shipbuilding" in e["text"] for e in result.entries)  # known to Varos


def test_academies_follow_their_town(save: WorldFile) -> None:
    world = World(state(save))
    ctx = CommandContext(world, GM, ScriptedDice([]), "capture")
    assert eco.academy_follow_town(ctx, "highmoor", "varos") == ["highmoor-engineers"]
    assert world.get("academies", "highmoor-engineers")["kingdom"] == "varos"
    assert eco.academy_follow_town(ctx, "highmoor", "varos") == []
    assert eco.academy_follow_town(ctx, "highmoor", None) == ["highmoor-engineers"]
    assert "highmoor-engineers" not in world.table("academies")
    assert len(ctx.entries) == 2


def test_a_captured_academy_trains_for_the_captor(save: WorldFile) -> None:
    edit(save, lambda data: data["academies"]["highmoor-engineers"].update(kingdom="varos"))
    set_date(save, "Winter 312")
    Table(save).run("gm", "advance")
    assert (_pool(save, "elbreth", "engineer"), _pool(save, "varos", "engineer")) == (2, 2)


# ---------------------------------------------------------------------------------------------
# Engineers
# ---------------------------------------------------------------------------------------------


def test_gunpowder_engineers_deliver_a_barrel_each_at_year_start(save: WorldFile) -> None:
    set_date(save, "Autumn 312")
    Table(save).run("king:elbreth", "engineer-assign", {"kingdom": "elbreth", "task": "gunpowder", "count": 2})
    Table(save).refused("gm", "engineer-assign", {"kingdom": "elbreth", "task": "gunpowder"}, field="count")
    Table(save).refused("gm", "engineer-release", {"kingdom": "elbreth", "engine": "gunpowder"}, field="engine")
    Table(save).run("gm", "advance")  # Winter: still away
    assert _pool(save, "elbreth", "engineer") == 0
    result = Table(save).run("gm", "advance")
    data = state(save)
    assert data["kingdoms"]["elbreth"]["goods"] == {"Gunpowder": 2}
    assert data["specialists"]["elbreth"]["engineer"] == 2 + 1  # back, plus the academy's graduate
    assert step(result, "production")["sums"]["gunpowder barrels"] == 2


def test_siege_engineers_return_when_disbanded(save: WorldFile) -> None:
    Table(save).run("gm", "engineer-assign", {"kingdom": "elbreth", "task": "siege", "engine": "Ram of Highmoor"})
    Table(save).refused("gm", "engineer-assign", {"kingdom": "elbreth", "task": "siege"}, field="engine")
    assert state(save)["specialists"]["elbreth"]["engineers_assigned"]["siege"] == {"Ram of Highmoor": 1}
    Table(save).refused(
        "gm", "engineer-release", {"kingdom": "elbreth", "engine": "Ram of Highmoor", "count": 2}, field="count"
    )
    assert (
        Table(save).run("gm", "engineer-release", {"kingdom": "elbreth", "engine": "Ram of Highmoor"}).data["pool"] == 2
    )
    assert state(save)["specialists"]["elbreth"]["engineers_assigned"]["siege"] == {}


@pytest.mark.parametrize(
    ("escaped", "winner", "fate", "elbreth", "varos"),
    [
        (True, "varos", "returned", 2, 1),
        (False, "varos", "defected", 1, 2),
        (False, "elbreth", "returned", 2, 1),
        (False, None, "lost", 1, 1),
    ],
)
def test_a_trap_costs_a_ducat_and_an_engineer(
    save: WorldFile, escaped: bool, winner: str | None, fate: str, elbreth: int, varos: int
) -> None:
    result = Table(save).run("king:elbreth", "trap", {"kingdom": "elbreth", "fight": "the Greywood ford"})
    trap_id = result.data["trap"]
    assert money_sum(result.entries) == {"kingdoms:elbreth": -1}
    assert _pool(save, "elbreth", "engineer") == 1
    assert state(save)["effects"][trap_id]["bonus"] == 1
    params = {"trap": trap_id, "friendly_escaped": escaped} | ({"winner": winner} if winner else {})
    assert Table(save).run("gm", "trap-resolve", params).data["fate"] == fate
    assert (_pool(save, "elbreth", "engineer"), _pool(save, "varos", "engineer")) == (elbreth, varos)
    Table(save).refused("gm", "trap-resolve", params, field="trap")


# ---------------------------------------------------------------------------------------------
# Missionaries
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("natural", "ducats", "success"), [(4, 0, False), (5, 0, True), (3, 2, True), (1, 5, False), (2, 2, False)]
)
def test_conversion_is_an_rtd_at_minus_two(save: WorldFile, natural: int, ducats: int, success: bool) -> None:
    _money(save, "kingdoms", "elbreth")
    result = Table(save).run(
        "gm", "convert", {"province": "varos-march", "sponsor": "elbreth", "ducats": ducats}, dice=[natural]
    )
    data = state(save)
    assert result.data["success"] is success
    assert data["provinces"]["varos-march"]["faith"] == ("Cyclicism" if success else "Suulian Orthodoxy")
    assert data["specialists"]["elbreth"]["missionary"] == 0  # spent whatever the result
    assert data["kingdoms"]["elbreth"]["treasury"] == 100 - ducats
    roll = next(e for e in result.entries if e["kind"] == "conversion")["rolls"][0]
    assert roll["naturals"] == [natural] and roll["total"] == natural - 2 + ducats


def test_a_counter_missionary_from_the_gm(save: WorldFile) -> None:
    result = Table(save).run(
        "gm",
        "convert",
        {"province": "varos-march", "sponsor": "elbreth", "ducats": 2, "counter_kingdom": "varos", "counter_ducats": 1},
        dice=[5],
    )
    assert (result.data["total"], result.data["success"]) == (5 - 2 + 2 - 3 - 1, False)
    assert (_pool(save, "elbreth", "missionary"), _pool(save, "varos", "missionary")) == (0, 1)
    assert money_sum(result.entries) == {"kingdoms:elbreth": -2, "kingdoms:varos": -1}


def test_a_standing_counter_is_used_once(save: WorldFile) -> None:
    Table(save).run("king:varos", "convert-counter", {"kingdom": "varos", "province": "varos-march", "ducats": 1})
    world = World(state(save))
    odds = spec_for("convert").odds(
        world,
        GM,
        {"province": "varos-march", "sponsor": "elbreth", "ducats": 0, "counter_kingdom": None, "counter_ducats": 0},
    )
    assert odds["countered"] is True
    assert odds["success"] == specialist_rules.conversion_odds(0, True, 1)[1]
    assert odds["success"] == pytest.approx(1 / 6, abs=1e-6)  # only the natural 6
    result = Table(save).run("gm", "convert", {"province": "varos-march", "sponsor": "elbreth"}, dice=[6])
    assert result.data["success"] is True and result.data["countered"] is True  # a natural 6 always succeeds
    data = state(save)
    assert data["specialists"]["varos"]["missionary"] == 1 and data["kingdoms"]["varos"]["treasury"] == 29
    assert not [e for e in data["effects"].values() if e["kind"] == "counter-missionary"]


def test_conversion_refusals(save: WorldFile) -> None:
    Table(save).refused(
        "gm", "convert", {"province": "varos-march", "sponsor": "kesh"}, field="sponsor"
    )  # no missionary
    Table(save).refused(
        "gm", "convert", {"province": "highmoor-vale", "sponsor": "elbreth"}, field="province"
    )  # same faith
    Table(save).refused("king:elbreth", "convert", {"province": "varos-march", "sponsor": "elbreth"}, field="identity")
    Table(save).refused(
        "gm", "convert", {"province": "varos-march", "sponsor": "elbreth", "counter_ducats": 1}, field="counter_ducats"
    )
    Table(save).refused(
        "king:elbreth",
        "order-file",
        {
            "command": "convert",
            "params": '{"province": "varos-march", "sponsor": "elbreth", "counter_kingdom": "varos"}',
        },
        field="order.counter_kingdom",
    )
    edit(save, lambda data: data["specialists"]["varos"].update(missionary=0))
    Table(save).refused(
        "gm",
        "convert",
        {"province": "amber-coast", "sponsor": "elbreth", "counter_kingdom": "varos"},
        field="counter_kingdom",
    )


def test_conversion_odds_match_the_rules(save: WorldFile) -> None:
    odds = spec_for("convert").odds(
        World(state(save)),
        GM,
        {"province": "varos-march", "sponsor": "elbreth", "ducats": 3, "counter_kingdom": None, "counter_ducats": 0},
    )
    bands, success = specialist_rules.conversion_odds(3)
    assert odds == {"odds": bands, "success": success, "countered": False}
    assert treasury(save, "kingdoms", "elbreth") == 42
