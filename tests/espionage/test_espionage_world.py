"""Espionage in the world (RULINGS §7): every mission end to end, costs and spies, counter-spies,
security breaches, infiltrations, purges, detection, counter-spy stationing and assassinations."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from spy_helpers import (
    KING_ELBRETH,
    KING_VAROS,
    SILAS,
    do,
    infiltrate,
    mutate,
    no_counter_spies,
    pool,
    read,
    texts,
)

from yak_tui.areas.espionage import board, planning, state
from yak_tui.areas.espionage.rules import catalogue, mission, mission_cost
from yak_tui.kernel.play.audience import visible_entries
from yak_tui.kernel.play.commands import CommandError
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.season.seasons import due_items
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile


def _ready(world: World, skip: str = "") -> None:
    """Varos spies on Elbreth with every prerequisite, plenty of ducats and spies, no counter-spies."""
    world.edit("kingdoms", "varos")["treasury"] = 200
    world.edit("specialists", "varos").update(spy=20, cold_spy=0)
    no_counter_spies(world, "elbreth", "varos")
    for effect_id, effect in list(world.all("effects")):
        if effect["kind"] == "infiltration":
            world.delete("effects", effect_id)
    wanted = [
        "infiltrate-spy-ring",
        "infiltrate-treasury",
        "infiltrate-admiralty",
        "infiltrate-general-staff",
        "infiltrate-government",
    ]
    infiltrate(world, "varos", "elbreth", *[s for s in wanted if s != skip])


def _dice(slug: str, natural: int = 6) -> list[int]:
    entry = mission(slug)
    return [natural] * (int(entry.rolls_success) + int(entry.rolls_detection))


def _effects(world: World, **match: Any) -> list[dict[str, Any]]:
    return [e for _, e in sorted(world.where("effects", **match)) if e.get("active")]


# ---------------------------------------------------------------- every mission, end to end
Check = Callable[[World, World, dict[str, Any]], None]


def _infiltration_held(slug: str) -> Check:
    def check(before: World, after: World, data: dict[str, Any]) -> None:
        held = _effects(after, kind="infiltration", mission=slug, sponsor_kingdom="varos", target_kingdom="elbreth")
        assert len(held) == 1
        assert held[0]["end"] is None and held[0]["holder_kingdom"] == "varos"
        assert slug in state.infiltrations_held(after, "varos", "elbreth")

    return check


def _effect_kind(kind: str, **fields: Any) -> Check:
    def check(before: World, after: World, data: dict[str, Any]) -> None:
        found = _effects(after, kind=kind, sponsor_kingdom="varos", target_kingdom="elbreth")
        assert len(found) == 1, found
        for key, value in fields.items():
            got = found[0]
            for part in key.split("."):
                got = got[part]
            assert got == value, key

    return check


def _pool_change(field: str, before_value: int, after_value: int) -> Check:
    def check(before: World, after: World, data: dict[str, Any]) -> None:
        assert pool(before, "elbreth")[field] == before_value
        assert pool(after, "elbreth")[field] == after_value

    return check


def _bandits(before: World, after: World, data: dict[str, Any]) -> None:
    units = [u for _, u in after.where("units", owner="bandits")]
    assert len(units) == 1 and units[0]["regiments"] == 2 and units[0]["friendly_to"] == "varos"
    # At the least fortified population centre of Saltmarsh (Saltcross Market, fort 0).
    assert units[0]["hex"] == [3, 5]


def _privateers(before: World, after: World, data: dict[str, Any]) -> None:
    units = [u for _, u in after.where("units", owner="privateers")]
    assert len(units) == 1 and units[0]["ships"] == 2 and units[0]["kind"] == "sea-raider"
    assert units[0]["hex"] == [2, 5]  # Brinehaven, the port


def _rebels(before: World, after: World, data: dict[str, Any]) -> None:
    units = [u for _, u in after.where("units", owner="rebels")]
    assert len(units) == 1 and units[0]["regiments"] == 3 and units[0]["kind"] == "infantry"


def _attempt(character: str, poison: bool) -> Check:
    def check(before: World, after: World, data: dict[str, Any]) -> None:
        found = _effects(after, kind="assassination-attempt")
        assert len(found) == 1
        attempt = found[0]
        assert attempt["character"] == character and attempt["status"] == "pending"
        assert attempt["data"]["assassins"] == 2 and attempt["data"]["weapon_bonus"] == 1
        assert attempt["data"]["armour_bonus"] == 1 and attempt["data"]["surprise"] is True
        assert attempt["data"]["poison"] is poison
        assert attempt["data"]["poison_extra_damage"] == (1 if poison else 0)
        assert data["outcome"] == "not-rolled" and data["reported"] == "arranged"

    return check


def _embezzle(before: World, after: World, data: dict[str, Any]) -> None:
    # 42 / 5 = 8 < 10: ten ducats are stolen, five reach Varos.
    assert after.get("kingdoms", "elbreth")["treasury"] == 32
    assert after.get("kingdoms", "varos")["treasury"] == 200 - 3 + 5


def _crash(before: World, after: World, data: dict[str, Any]) -> None:
    assert after.get("provinces", "saltmarsh")["price_modifiers"] == {"Salt": 3}
    _effect_kind("crash-market", commodity="Salt", **{"data.increments": 3}, end={"year": 313, "season": "Spring"})(
        before, after, data
    )


def _limit(before: World, after: World, data: dict[str, Any]) -> None:
    assert after.get("provinces", "saltmarsh")["market_allowance"] == 25
    _effect_kind("limit-trade", **{"data.market_allowance": -10})(before, after, data)


def _disposition(strength: str, expected: str) -> Check:
    def check(before: World, after: World, data: dict[str, Any]) -> None:
        reports = [e for e in visible_entries(after, KING_VAROS) if e["kind"] == "espionage-report"]
        assert len(reports) == 1
        assert expected in reports[0]["text"]
        assert reports[0]["audience"] == "kingdom:varos"
        assert not [e for e in visible_entries(after, KING_ELBRETH) if e["kind"] == "espionage-report"]

    return check


def _unit(unit_id: str, **fields: Any) -> Check:
    def check(before: World, after: World, data: dict[str, Any]) -> None:
        unit = after.get("units", unit_id)
        for key, value in fields.items():
            assert unit[key] == value, key

    return check


def _suborn_captain(before: World, after: World, data: dict[str, Any]) -> None:
    assert after.get("units", "elbreth-fleet")["ships"] == 1
    turned = [u for _, u in after.where("units", owner="varos") if u.get("suborned_from") == "elbreth"]
    assert len(turned) == 1 and turned[0]["ships"] == 1 and turned[0]["hex"] == [2, 5]


def _purge(before: World, after: World, data: dict[str, Any]) -> None:
    assert not _effects(after, kind="infiltration", sponsor_kingdom="elbreth", target_kingdom="varos")
    assert data["reported"] == "cleared"


MISSIONS: list[tuple[str, dict[str, Any], Check]] = [
    (
        "establish-smuggling-ring",
        {"province": "saltmarsh"},
        _effect_kind("smuggling-ring", province="saltmarsh", end={"year": 313, "season": "Spring"}),
    ),
    ("purge-administration", {"infiltration": "infiltrate-treasury"}, _purge),
    ("fund-bandits", {"province": "saltmarsh", "bandits": "1"}, _bandits),
    ("fund-privateers", {"province": "saltmarsh", "privateers": "1"}, _privateers),
    ("assassinate-private-citizen", {"character": "corvin", "poison": "true"}, _attempt("corvin", True)),
    ("infiltrate-spy-ring", {}, _infiltration_held("infiltrate-spy-ring")),
    ("create-security-breach", {}, _effect_kind("security-breach", end=None)),
    ("support-rebels", {"province": "greywood", "rebels": "2"}, _rebels),
    ("assassinate-enemy-spies", {}, _pool_change("spy", 3, 1)),
    (
        "interfere-with-academies",
        {"specialist": "engineer"},
        _effect_kind(
            "academy-interference",
            due={"year": 313, "season": "Spring"},
            **{"data.specialist": "engineer", "data.reduction": 2},
        ),
    ),
    ("infiltrate-treasury", {}, _infiltration_held("infiltrate-treasury")),
    ("embezzlement", {}, _embezzle),
    ("crash-commodity-market", {"province": "saltmarsh", "commodity": "salt", "direction": "raise"}, _crash),
    ("limit-trade", {"province": "saltmarsh"}, _limit),
    (
        "inspire-commercial-animosity",
        {"province": "saltmarsh", "against": "Varosi merchants"},
        _effect_kind(
            "commercial-animosity",
            **{"data.against": "Varosi merchants", "data.buy_penalty": 1, "data.sell_penalty": -1},
        ),
    ),
    ("infiltrate-admiralty", {}, _infiltration_held("infiltrate-admiralty")),
    ("interfere-with-shipbuilding", {"choice": "sailors"}, _pool_change("sailor", 2, 0)),
    ("cripple-naval-morale", {}, _effect_kind("morale-penalty", **{"data.engagement": "naval", "data.morale": -2})),
    ("uncover-naval-disposition", {}, _disposition("ships", "Saltmarsh Squadron (elbreth-fleet): 2 ships at (2, 5)")),
    ("scuttle-ship", {"unit": "elbreth-fleet"}, _unit("elbreth-fleet", ships=1, owner="elbreth")),
    ("suborn-captain", {"unit": "Saltmarsh Squadron"}, _suborn_captain),
    ("control-admiralty", {}, _infiltration_held("control-admiralty")),
    ("infiltrate-general-staff", {}, _infiltration_held("infiltrate-general-staff")),
    ("assassinate-engineers", {}, _pool_change("engineer", 2, 0)),
    (
        "cripple-military-morale",
        {},
        _effect_kind("morale-penalty", **{"data.engagement": "military", "data.morale": -2}),
    ),
    (
        "uncover-military-disposition",
        {},
        _disposition("regiments", "Royal Guard (elbreth-royal-guard): 4 regiments at (4, 3)"),
    ),
    ("poison-regiment", {"unit": "brinehaven-watch"}, _unit("brinehaven-watch", regiments=1)),
    ("suborn-commander", {"unit": "elbreth-scouts"}, _unit("elbreth-scouts", owner="varos", regiments=1)),
    ("suborn-general-staff", {}, _infiltration_held("suborn-general-staff")),
    ("infiltrate-government", {}, _infiltration_held("infiltrate-government")),
    (
        "counterfeit-currency",
        {},
        _effect_kind("counterfeit", due={"year": 313, "season": "Spring"}, **{"data.debt": 5}),
    ),
    ("assassinate-clergy", {}, _pool_change("missionary", 1, 0)),
    ("assassinate-noble-bureaucrat", {"character": "edmund"}, _attempt("edmund", False)),
    ("assassinate-ruler", {}, _attempt("aldric", False)),
]


def test_the_table_covers_every_rolled_mission() -> None:
    rolled = {slug for slug, m in catalogue().items() if m.effect != "counter-spy"}
    assert {slug for slug, _, _ in MISSIONS} == rolled


@pytest.mark.parametrize(("slug", "params", "check"), MISSIONS, ids=[m[0] for m in MISSIONS])
def test_every_mission_end_to_end(save: WorldFile, slug: str, params: dict[str, Any], check: Check) -> None:
    mutate(save, lambda w: _ready(w, skip=slug))
    if slug == "purge-administration":
        mutate(save, lambda w: infiltrate(w, "elbreth", "varos", "infiltrate-treasury"))
        mutate(save, lambda w: w.edit("specialists", "elbreth").update(spy=0))
    elif slug == "assassinate-enemy-spies":
        mutate(save, lambda w: w.edit("specialists", "elbreth").update(spy=3, cold_spy=1))
    before = read(save)
    target = {} if slug == "purge-administration" else {"target": "elbreth"}
    result = do(save, "spy-mission", {"mission": slug, "sponsor": "varos", **target, **params}, _dice(slug))
    after = read(save)
    data = result.data
    entry = mission(slug)
    extras = {
        "bandit-regiment": int(params.get("bandits", 0)),
        "privateer-ship": int(params.get("privateers", 0)),
        "infantry-regiment": int(params.get("rebels", 0)),
        "poison": 1 if params.get("poison") else 0,
    }
    cost = mission_cost(entry, {k: v for k, v in extras.items() if v})
    assert data["cost"] == cost
    if slug != "embezzlement":
        assert after.get("kingdoms", "varos")["treasury"] == 200 - cost
    assert data["outcome"] == ("not-rolled" if entry.assassination_attempt else "success")
    # One spy spent; one that escaped (and is not used up) waits cold for the year start.
    assert pool(after, "varos")["spy"] == 19
    assert pool(after, "varos")["cold_spy"] == (0 if entry.spy_used_up else 1)
    check(before, after, data)
    # The sponsor's entry: the outcome only, both rolls blind; the truth in the secret.
    sponsor_entry = after.get("chronicle", data["sponsor_entry"])
    assert sponsor_entry["audience"] == "kingdom:varos"
    assert all(r["blind"] for r in sponsor_entry["rolls"]) and len(sponsor_entry["rolls"]) == len(_dice(slug))
    assert "true outcome" in sponsor_entry["secret"]


def test_prerequisite_refused_with_a_clear_message(save: WorldFile) -> None:
    raw = save.path.read_bytes()
    with pytest.raises(CommandError) as refused:
        do(save, "spy-mission", {"mission": "embezzlement", "sponsor": "varos", "target": "kesh"}, [6, 6])
    assert refused.value.field == "mission"
    assert "Embezzlement needs Infiltrate Treasury held against Principality of Kesh" in refused.value.reason
    assert "run Infiltrate Treasury first" in refused.value.reason
    assert save.path.read_bytes() == raw
    # The same refusal stops a King's order at filing: he knows what his kingdom holds.
    with pytest.raises(CommandError) as filed:
        do(
            save,
            "spy-order",
            {"mission": "poison-regiment", "target": "elbreth", "unit": "brinehaven-watch"},
            who=KING_VAROS,
        )
    assert filed.value.field == "order.mission"
    assert "Infiltrate General Staff" in filed.value.reason
    assert save.path.read_bytes() == raw
    # A player is not his kingdom's King: filing tells him nothing of what it holds (RULINGS §1); the
    # mission fails at resolution, nothing spent, and he alone is told why.
    order = do(
        save, "spy-order", {"mission": "poison-regiment", "target": "elbreth", "unit": "brinehaven-watch"}, who=SILAS
    ).data["order"]
    before = read(save)
    done = do(save, "spy-resolve", {"order": order}, [6, 6]).data
    assert done["result"]["outcome"] == "not-attempted" and done["result"]["cost"] == 0
    after = read(save)
    assert after.get("specialists", "varos")["spy"] == before.get("specialists", "varos")["spy"]
    assert after.get("characters", "silas")["treasury"] == before.get("characters", "silas")["treasury"]
    told = [e["text"] for e in visible_entries(after, SILAS)[len(visible_entries(before, SILAS)) :]]
    assert any("could not be attempted" in t and "Infiltrate General Staff" in t for t in told)
    for other in (KING_VAROS, KING_ELBRETH):
        assert not [e for e in visible_entries(after, other) if "could not be attempted" in e["text"]]


@pytest.mark.parametrize(
    ("params", "field", "words"),
    [
        ({"mission": "fund-bandits", "target": "elbreth"}, "province", "needs a province"),
        ({"mission": "fund-bandits", "target": "elbreth", "province": "amber-coast"}, "province", "not a province of"),
        ({"mission": "fund-privateers", "target": "elbreth", "province": "greywood"}, "province", "has no port"),
        ({"mission": "scuttle-ship", "target": "elbreth", "unit": "elbreth-royal-guard"}, "unit", "has no ships"),
        ({"mission": "poison-regiment", "target": "elbreth", "unit": "varos-lancers"}, "unit", "does not belong"),
        ({"mission": "assassinate-ruler", "target": "elbreth", "character": "edmund"}, "character", "not the ruler"),
        (
            {"mission": "assassinate-private-citizen", "target": "elbreth", "character": "rowena"},
            "character",
            "nobility",
        ),
        (
            {
                "mission": "crash-commodity-market",
                "target": "elbreth",
                "province": "saltmarsh",
                "commodity": "unobtainium",
            },
            "commodity",
            "unknown commodity",
        ),
        (
            {"mission": "fund-bandits", "target": "elbreth", "province": "saltmarsh", "privateers": "1"},
            "privateers",
            "offers no extra",
        ),
        ({"mission": "embezzlement", "target": "varos"}, "target", "does not spy on itself"),
        ({"mission": "counter-spy", "target": "elbreth"}, "mission", "yak do counter-spy"),
        ({"mission": "no-such-thing", "target": "elbreth"}, "mission", "unknown spy mission"),
        ({"mission": "infiltrate-treasury", "target": "elbreth", "gm_modifier": "1"}, "gm_reason", "needs its reason"),
    ],
)
def test_bad_orders_are_refused_and_change_nothing(
    save: WorldFile, params: dict[str, Any], field: str, words: str
) -> None:
    mutate(save, _ready)
    raw = save.path.read_bytes()
    with pytest.raises(CommandError) as refused:
        do(save, "spy-mission", {"sponsor": "varos", **params}, [6, 6])
    assert refused.value.field == field
    assert words in refused.value.reason
    assert save.path.read_bytes() == raw


def test_ship_out_of_port_cannot_be_scuttled(save: WorldFile) -> None:
    mutate(save, _ready)
    mutate(save, lambda w: w.edit("units", "elbreth-fleet").update(hex=[1, 1]))
    with pytest.raises(CommandError, match="not in port"):
        do(
            save,
            "spy-mission",
            {"mission": "scuttle-ship", "sponsor": "varos", "target": "elbreth", "unit": "elbreth-fleet"},
            [6, 6],
        )


# ---------------------------------------------------------------- costs and spies


def test_failure_still_costs_ducats_and_the_spy(save: WorldFile) -> None:
    mutate(save, _ready)
    # Fund Bandits T3 D3: success natural 2 fails (2 = T-1), detection 1 -> captured, identified.
    result = do(
        save,
        "spy-mission",
        {"mission": "fund-bandits", "sponsor": "varos", "target": "elbreth", "province": "saltmarsh", "bandits": "2"},
        [2, 1],
    )
    world = read(save)
    assert result.data["outcome"] == "failure" and result.data["spy"] == "captured"
    assert world.get("kingdoms", "varos")["treasury"] == 200 - 6
    assert pool(world, "varos")["spy"] == 19 and pool(world, "varos")["cold_spy"] == 0
    assert not list(world.where("units", owner="bandits"))


def test_no_active_spy_is_refused(save: WorldFile) -> None:
    mutate(save, _ready)
    mutate(save, lambda w: w.edit("specialists", "varos").update(spy=0, cold_spy=2))
    with pytest.raises(CommandError) as refused:
        do(save, "spy-mission", {"mission": "infiltrate-spy-ring", "sponsor": "varos", "target": "kesh"}, [6, 6])
    assert refused.value.field == "spy"
    assert "2 cold" in refused.value.reason


def test_not_enough_ducats_is_refused(save: WorldFile) -> None:
    mutate(save, _ready)
    mutate(save, lambda w: w.edit("kingdoms", "varos").update(treasury=3))
    raw = save.path.read_bytes()
    with pytest.raises(CommandError) as refused:
        do(
            save,
            "spy-mission",
            {"mission": "fund-privateers", "sponsor": "varos", "target": "elbreth", "province": "saltmarsh"},
            [6, 6],
        )
    assert refused.value.field == "treasury"
    assert "4 are needed" in refused.value.reason
    assert save.path.read_bytes() == raw


def test_player_pays_from_his_own_purse_and_uses_the_kingdom_spy(save: WorldFile) -> None:
    mutate(save, _ready)
    order = do(save, "spy-order", {"mission": "create-security-breach", "target": "elbreth"}, who=SILAS)
    do(save, "spy-resolve", {"order": order.data["order"]}, [4, 6])
    world = read(save)
    assert world.get("characters", "silas")["treasury"] == 7 - 2
    assert world.get("kingdoms", "varos")["treasury"] == 200
    assert pool(world, "varos")["spy"] == 19


def test_captured_spy_is_lost_escaped_spy_goes_cold_and_returns_at_year_start(save: WorldFile) -> None:
    mutate(save, _ready)
    mutate(save, lambda w: w.edit("specialists", "varos").update(spy=3, cold_spy=0))
    # Fund Bandits T3 D3: natural 6 = T+3 -> succeeds, spy escapes (goes cold).
    escaped = do(
        save,
        "spy-mission",
        {"mission": "fund-bandits", "sponsor": "varos", "target": "elbreth", "province": "saltmarsh"},
        [6, 6],
    )
    assert escaped.data["spy"] == "escaped" and escaped.data["spy_cold"]
    # Success 2 (T-1) fails; detection 1 (≤ D-2): spy captured and lost.
    captured = do(
        save,
        "spy-mission",
        {"mission": "fund-bandits", "sponsor": "varos", "target": "elbreth", "province": "saltmarsh"},
        [2, 1],
    )
    assert captured.data["spy"] == "captured" and captured.data["spy_lost"]
    world = read(save)
    assert (pool(world, "varos")["spy"], pool(world, "varos")["cold_spy"]) == (1, 1)
    sponsor_texts = texts(world, KING_VAROS)
    assert any("Your spy went to ground" in t for t in sponsor_texts)
    assert any("Your spy did not return" in t for t in sponsor_texts)
    do(save, "advance", {})
    do(save, "advance", {})
    do(save, "advance", {})
    assert pool(read(save), "varos")["cold_spy"] == 1  # still cold in Winter
    do(save, "advance", {})
    world = read(save)
    assert world.date.label() == "Spring 313"
    assert (pool(world, "varos")["spy"], pool(world, "varos")["cold_spy"]) == (2, 0)
    assert any("1 cold spy is active again in Kingdom of Varos" in t for t in texts(world, KING_VAROS))
    assert not any("cold spy" in t for t in texts(world, KING_ELBRETH))


# ---------------------------------------------------------------- modifiers


def _mods(data: dict[str, Any]) -> list[tuple[int, str]]:
    return [(m["value"], m["reason"]) for m in data["modifiers"]["success"]]


def test_province_counter_spy_applies_is_spent_and_does_not_stack_with_the_nation_one(save: WorldFile) -> None:
    mutate(save, _ready)
    mutate(
        save,
        lambda w: w.edit("specialists", "elbreth").update(
            counter_spies={"provinces": ["highmoor-vale", "saltmarsh"], "nation": 1}
        ),
    )
    # Infiltrate Treasury happens in the capital province (Highmoor Vale): -2 only, province spy spent.
    first = do(save, "spy-mission", {"mission": "infiltrate-treasury", "sponsor": "varos", "target": "elbreth"}, [5, 6])
    assert _mods(first.data) == [(-2, "province counter-spy")]
    assert first.data["success_roll"] == {"natural": 5, "total": 3}
    assert first.data["detection_roll"] == {"natural": 6, "total": 4}
    assert read(save).get("specialists", "elbreth")["counter_spies"] == {"provinces": ["saltmarsh"], "nation": 1}
    # Next, again in the capital: no province spy left there, the nation-wide -1 applies and is spent.
    second = do(
        save, "spy-mission", {"mission": "infiltrate-government", "sponsor": "varos", "target": "elbreth"}, [5, 6]
    )
    assert _mods(second.data) == [(-1, "nation-wide counter-spy")]
    assert read(save).get("specialists", "elbreth")["counter_spies"] == {"provinces": ["saltmarsh"], "nation": 0}
    # Then nothing guards the capital any more.
    third = do(
        save, "spy-mission", {"mission": "counterfeit-currency", "sponsor": "varos", "target": "elbreth"}, [5, 6]
    )
    assert _mods(third.data) == []
    # A province mission in Saltmarsh meets its own -2.
    fourth = do(
        save,
        "spy-mission",
        {"mission": "limit-trade", "sponsor": "varos", "target": "elbreth", "province": "saltmarsh"},
        [5, 6],
    )
    assert _mods(fourth.data) == [(-2, "province counter-spy")]
    assert read(save).get("specialists", "elbreth")["counter_spies"] == {"provinces": [], "nation": 0}


def test_unit_mission_meets_the_counter_spy_of_the_units_province(save: WorldFile) -> None:
    mutate(save, _ready)
    mutate(
        save, lambda w: w.edit("specialists", "elbreth").update(counter_spies={"provinces": ["saltmarsh"], "nation": 0})
    )
    result = do(
        save,
        "spy-mission",
        {"mission": "poison-regiment", "sponsor": "varos", "target": "elbreth", "unit": "brinehaven-watch"},
        [6, 6],
    )
    assert _mods(result.data) == [(-2, "province counter-spy")]
    # 6-2 = 4 = T: poisoned; detection 6-2 = 4 = D-1: spy captured, mission detected.
    assert result.data["outcome"] == "success" and result.data["spy"] == "captured"
    assert read(save).get("units", "brinehaven-watch")["regiments"] == 1


def test_spy_ring_infiltrated_by_the_target_gives_minus_one(save: WorldFile) -> None:
    # The demo: Varos holds Elbreth's spy ring. Elbreth's missions against Varos take -1 (and Varos's
    # nation-wide counter-spy takes -1 more, spent).
    mutate(save, lambda w: infiltrate(w, "elbreth", "varos", "infiltrate-treasury"))
    result = do(save, "spy-mission", {"mission": "embezzlement", "sponsor": "elbreth", "target": "varos"}, [4, 6])
    assert _mods(result.data) == [(-1, "nation-wide counter-spy"), (-1, "spy ring infiltrated by target")]
    assert result.data["success_roll"]["total"] == 2 and result.data["outcome"] == "failure"


def test_security_breach_gives_plus_two_once(save: WorldFile) -> None:
    mutate(save, _ready)
    breach = do(
        save, "spy-mission", {"mission": "create-security-breach", "sponsor": "varos", "target": "elbreth"}, [3, 6]
    )
    assert breach.data["outcome"] == "success"
    assert len(_effects(read(save), kind="security-breach")) == 1
    # Suborn Captain T5: natural 3 + 2 = 5 succeeds; the breach is spent.
    helped = do(
        save,
        "spy-mission",
        {"mission": "suborn-captain", "sponsor": "varos", "target": "elbreth", "unit": "elbreth-fleet"},
        [3, 6],
    )
    assert _mods(helped.data) == [(2, "security breach")]
    assert helped.data["outcome"] == "success"
    world = read(save)
    assert not _effects(world, kind="security-breach")
    spent = world.get("effects", breach.data["effect"])
    assert spent["active"] is False and spent["ended_by"] == "spent"
    # The next one goes without.
    plain = do(
        save,
        "spy-mission",
        {"mission": "suborn-captain", "sponsor": "varos", "target": "elbreth", "unit": "elbreth-fleet"},
        [3, 6],
    )
    assert _mods(plain.data) == [] and plain.data["outcome"] == "failure"


def test_gm_modifier_with_reason_goes_on_both_rolls(save: WorldFile) -> None:
    mutate(save, _ready)
    result = do(
        save,
        "spy-mission",
        {
            "mission": "limit-trade",
            "sponsor": "varos",
            "target": "elbreth",
            "province": "saltmarsh",
            "gm_modifier": "-1",
            "gm_reason": "feast day",
        },
        [3, 4],
    )
    assert _mods(result.data) == [(-1, "feast day")]
    assert [(m["value"], m["reason"]) for m in result.data["modifiers"]["detection"]] == [(-1, "feast day")]
    assert result.data["outcome"] == "failure" and result.data["detection_roll"]["total"] == 3


# ---------------------------------------------------------------- infiltrations, purges


def test_an_infiltration_cannot_be_doubled(save: WorldFile) -> None:
    mutate(save, lambda w: _ready(w, skip="infiltrate-treasury"))
    first = do(save, "spy-mission", {"mission": "infiltrate-treasury", "sponsor": "varos", "target": "elbreth"}, [4, 6])
    assert first.data["effect"] is not None
    second = do(
        save, "spy-mission", {"mission": "infiltrate-treasury", "sponsor": "varos", "target": "elbreth"}, [4, 6]
    )
    assert second.data["outcome"] == "success" and second.data["effect"] is None
    assert "changes nothing" in second.data["outcome_text"]
    assert "cannot be doubled" in second.data["outcome_text"]
    assert len(_effects(read(save), kind="infiltration", mission="infiltrate-treasury")) == 1


def test_infiltrations_persist_until_purged(save: WorldFile) -> None:
    mutate(save, lambda w: _ready(w, skip="infiltrate-treasury"))
    do(save, "spy-mission", {"mission": "infiltrate-treasury", "sponsor": "varos", "target": "elbreth"}, [4, 6])
    for _ in range(6):
        do(save, "advance", {})
    assert "infiltrate-treasury" in state.infiltrations_held(read(save), "varos", "elbreth")


@pytest.mark.parametrize(("natural", "truly_cleared"), [(1, False), (2, False), (3, True), (6, True)])
def test_purge_false_report(save: WorldFile, natural: int, truly_cleared: bool) -> None:
    mutate(save, _ready)  # Varos holds Elbreth's treasury (among others)
    order = do(
        save, "spy-order", {"mission": "purge-administration", "infiltration": "infiltrate-treasury"}, who=KING_ELBRETH
    )
    result = do(save, "spy-resolve", {"order": order.data["order"]}, [natural])
    world = read(save)
    held = "infiltrate-treasury" in state.infiltrations_held(world, "varos", "elbreth")
    assert held is (not truly_cleared)
    assert result.data["result"]["outcome"] == ("success" if truly_cleared else "failure")
    # Elbreth's view: always "cleared", identical text whatever the truth, no secret, blind roll.
    mine = [e for e in visible_entries(world, KING_ELBRETH) if e["kind"] == "espionage" and not e.get("amounts")]
    assert [e["text"] for e in mine] == ["Espionage: Purge Administration: cleared. Infiltrate Treasury: cleared."]
    assert "secret" not in mine[0]
    assert mine[0]["rolls"] == [
        {"purpose": "Purge Administration: success roll", "outcome": "cleared", "blind": True, "ghosts": 1}
    ]
    # The adjudicator sees the truth.
    truth = world.get("chronicle", mine[0]["id"])["secret"]
    assert ("purge succeeded" in truth) is truly_cleared
    assert ("purge FAILED" in truth) is (not truly_cleared)
    # Only a true purge tells the holder that his man is gone.
    purged_news = [t for t in texts(world, KING_VAROS) if "was purged" in t]
    assert bool(purged_news) is truly_cleared
    assert pool(world, "elbreth")["spy"] == 2  # the purge's spy is used up


def test_purge_clears_a_smuggling_ring(save: WorldFile) -> None:
    mutate(save, lambda w: w.edit("kingdoms", "elbreth").update(treasury=50))
    ring = "elbreth-smuggling-varos-march"
    result = do(
        save,
        "spy-mission",
        {
            "mission": "purge-administration",
            "sponsor": "varos",
            "infiltration": "establish-smuggling-ring",
            "province": "varos-march",
        },
        [4],
    )
    assert result.data["reported"] == "cleared"
    world = read(save)
    assert world.get("effects", ring)["active"] is False
    assert any("was purged" in t or "smuggling" in t for t in texts(world, KING_ELBRETH))


# ---------------------------------------------------------------- detection and what the target learns


@pytest.mark.parametrize(
    ("detection", "evidence", "told", "named"),
    [
        (6, "undetected", False, False),  # 6 >= D+1 (D=4): escapes, undetected
        (5, "undetected", False, False),
        (4, "detected", True, False),  # = D: escapes, detected, perpetrator unknown
        (3, "detected", True, False),  # D-1: captured silent
        (2, "identified", True, True),  # D-2: captured, talks
    ],
)
def test_detection_reveals_to_the_target_only_what_it_found(
    save: WorldFile, detection: int, evidence: str, told: bool, named: bool
) -> None:
    mutate(save, _ready)
    before = read(save)
    seen_before = len(visible_entries(before, KING_ELBRETH))
    result = do(
        save,
        "spy-mission",
        {"mission": "cripple-military-morale", "sponsor": "varos", "target": "elbreth"},
        [4, detection],
    )
    assert result.data["evidence"] == evidence
    world = read(save)
    new = visible_entries(world, KING_ELBRETH)[seen_before:]
    if not told:
        assert new == []
        assert result.data["target_entry"] is None
    else:
        assert len(new) == 1
        text = new[0]["text"]
        assert text.startswith("An enemy operation was detected: Cripple Military Morale.")
        assert ("Kingdom of Varos" in text) is named
        assert ("perpetrator is unknown" in text) is (not named)
        assert new[0]["rolls"] == [] and "secret" not in new[0]
        assert ("sponsor_kingdom" in new[0].get("refs", {})) is named
    effect = _effects(world, kind="morale-penalty")[0]
    assert effect["known_to_target"] is told and effect["known_sponsor"] is named
    # Other kingdoms and players learn nothing.
    assert not [e for e in visible_entries(world, SILAS) if e["kind"] == "espionage"]


def test_targets_see_plain_facts_of_their_own_holdings_without_attribution(save: WorldFile) -> None:
    mutate(save, _ready)
    do(
        save,
        "spy-mission",
        {"mission": "scuttle-ship", "sponsor": "varos", "target": "elbreth", "unit": "elbreth-fleet"},
        [6, 6],
    )
    seen = texts(read(save), KING_ELBRETH)
    assert seen == ["Saltmarsh Squadron lost 1 ship, sunk in port."]


# ---------------------------------------------------------------- effects in the world


def test_smuggling_ring_one_per_province(save: WorldFile) -> None:
    mutate(save, _ready)
    params = {"mission": "establish-smuggling-ring", "sponsor": "varos", "target": "elbreth", "province": "saltmarsh"}
    do(save, "spy-mission", params, [4, 6])
    with pytest.raises(CommandError) as refused:
        do(save, "spy-mission", params, [4, 6])
    assert refused.value.field == "province" and "one ring per province" in refused.value.reason
    # Another sponsor succeeding there adds nothing.
    mutate(save, lambda w: w.edit("specialists", "kesh").update(spy=2))
    other = do(save, "spy-mission", {**params, "sponsor": "kesh"}, [4, 6])
    assert "adds nothing" in other.data["outcome_text"]
    assert len(_effects(read(save), kind="smuggling-ring", province="saltmarsh")) == 1


def test_crash_market_does_not_stack(save: WorldFile) -> None:
    mutate(save, _ready)
    params = {
        "mission": "crash-commodity-market",
        "sponsor": "varos",
        "target": "elbreth",
        "province": "saltmarsh",
        "commodity": "Fish",
    }
    do(save, "spy-mission", params, [4, 6])
    second = do(save, "spy-mission", {**params, "direction": "raise"}, [4, 6])
    assert "changes nothing" in second.data["outcome_text"]
    world = read(save)
    assert world.get("provinces", "saltmarsh")["price_modifiers"] == {"Fish": -3}
    assert len(_effects(world, kind="crash-market")) == 1


def test_kill_spies_takes_active_first_then_cold(save: WorldFile) -> None:
    mutate(save, _ready)
    mutate(save, lambda w: w.edit("specialists", "elbreth").update(spy=1, cold_spy=3))
    result = do(
        save, "spy-mission", {"mission": "assassinate-enemy-spies", "sponsor": "varos", "target": "elbreth"}, [4, 6]
    )
    world = read(save)
    assert (pool(world, "elbreth")["spy"], pool(world, "elbreth")["cold_spy"]) == (0, 2)
    assert "1 spy and 1 cold spy" in result.data["outcome_text"]


def test_shipbuilding_recruitment_choice(save: WorldFile) -> None:
    mutate(save, _ready)
    do(
        save,
        "spy-mission",
        {"mission": "interfere-with-shipbuilding", "sponsor": "varos", "target": "elbreth", "choice": "recruitment"},
        [4, 6],
    )
    world = read(save)
    cut = _effects(world, kind="sailor-recruitment-cut")
    assert len(cut) == 1 and cut[0]["data"]["reduction"] == 3 and cut[0]["due"] == {"year": 313, "season": "Spring"}
    assert pool(world, "elbreth")["sailor"] == 2


def test_suborn_commander_of_a_larger_unit_splits_one_regiment(save: WorldFile) -> None:
    mutate(save, _ready)
    do(
        save,
        "spy-mission",
        {"mission": "suborn-commander", "sponsor": "varos", "target": "elbreth", "unit": "elbreth-royal-guard"},
        [5, 6],
    )
    world = read(save)
    assert world.get("units", "elbreth-royal-guard")["regiments"] == 3
    turned = [u for _, u in world.where("units", owner="varos") if u.get("suborned_from") == "elbreth"]
    assert len(turned) == 1 and turned[0]["regiments"] == 1 and turned[0]["hex"] == [4, 3]


def test_poisoning_the_last_regiment_removes_the_unit(save: WorldFile) -> None:
    mutate(save, _ready)
    do(
        save,
        "spy-mission",
        {"mission": "poison-regiment", "sponsor": "varos", "target": "elbreth", "unit": "elbreth-scouts"},
        [6, 6],
    )
    assert read(save).find("units", "elbreth-scouts") is None


# ---------------------------------------------------------------- counter-spy stationing


def test_counter_spy_is_stationed_for_one_spy(save: WorldFile) -> None:
    result = do(save, "counter-spy", {"province": "saltmarsh"}, who=KING_ELBRETH)
    world = read(save)
    assert pool(world, "elbreth")["spy"] == 2
    assert pool(world, "elbreth")["counter_spies"] == {"provinces": ["highmoor-vale", "saltmarsh"], "nation": 0}
    assert world.get("kingdoms", "elbreth")["treasury"] == 42
    assert result.entries[0]["audience"] == "kingdom:elbreth"
    do(save, "counter-spy", {}, who=KING_ELBRETH)
    assert pool(read(save), "elbreth")["counter_spies"]["nation"] == 1


@pytest.mark.parametrize(
    ("who", "params", "field"),
    [
        (SILAS, {"kingdom": "varos"}, "identity"),
        (KING_VAROS, {"kingdom": "elbreth"}, "identity"),
        (KING_ELBRETH, {"province": "amber-coast"}, "province"),
        (GM, {}, "kingdom"),
    ],
)
def test_counter_spy_refusals(save: WorldFile, who: Any, params: dict[str, Any], field: str) -> None:
    with pytest.raises(CommandError) as refused:
        do(save, "counter-spy", params, who=who)
    assert refused.value.field == field


def test_counter_spy_without_spies(save: WorldFile) -> None:
    mutate(save, lambda w: w.edit("specialists", "kesh").update(spy=0))
    with pytest.raises(CommandError, match="no active spy"):
        do(save, "counter-spy", {"kingdom": "kesh"})


# ---------------------------------------------------------------- assassinations


def test_assassination_attempt_waits_for_the_gm_and_is_closed(save: WorldFile) -> None:
    mutate(save, _ready)
    # Detection 2 vs D=5 (assassinate-ruler): identified, but only once the attack happens.
    result = do(
        save,
        "spy-mission",
        {"mission": "assassinate-ruler", "sponsor": "varos", "target": "elbreth", "poison": "true"},
        [2],
    )
    assert result.data["evidence"] == "identified" and result.data["target_entry"] is None
    assert read(save).get("kingdoms", "varos")["treasury"] == 200 - 11
    attempt_id = result.data["effect"]
    world = read(save)
    due = [i for i in due_items(world) if i["kind"] == "assassination"]
    assert len(due) == 1 and due[0]["audience"] == "adjudicators" and due[0]["urgent"]
    assert not [t for t in texts(world, KING_ELBRETH) if "assassin" in t.lower()]
    with pytest.raises(CommandError):
        do(save, "assassination-resolve", {"attempt": attempt_id, "result": "x"}, who=KING_VAROS)
    do(
        save,
        "assassination-resolve",
        {"attempt": attempt_id, "result": "the King falls to a poisoned blade", "killed": "true"},
    )
    world = read(save)
    assert world.get("characters", "aldric")["alive"] is False
    attempt = world.get("effects", attempt_id)
    assert attempt["status"] == "resolved" and attempt["active"] is False
    elbreth_sees = texts(world, KING_ELBRETH)
    assert "Assassins attacked King Aldric: the King falls to a poisoned blade" in elbreth_sees
    assert any("paid by Kingdom of Varos" in t for t in elbreth_sees)
    assert not [i for i in due_items(world) if i["kind"] == "assassination"]
    with pytest.raises(CommandError, match="already resolved"):
        do(save, "assassination-resolve", {"attempt": attempt_id, "result": "again"})


# ---------------------------------------------------------------- odds and board queries


def test_odds_hide_the_targets_counter_measures_from_the_sponsor(save: WorldFile) -> None:
    world = read(save)
    params = {"mission": "infiltrate-treasury", "target": "elbreth"}
    theirs = planning.mission_odds_for(world, KING_VAROS, params)
    assert theirs["hidden_modifiers"] is True and theirs["modifiers"]["success"] == []
    gm = planning.mission_odds_for(world, GM, {**params, "sponsor": "varos"})
    assert gm["modifiers"]["success"] == [{"value": -2, "reason": "province counter-spy"}]
    assert gm["odds"]["outcome"]["success"] < theirs["odds"]["outcome"]["success"]
    assert sum(gm["odds"]["outcome"].values()) == pytest.approx(1)


def test_mission_board_rows(save: WorldFile) -> None:
    rows = {r["slug"]: r for r in board.mission_board(read(save), KING_VAROS, "varos", "elbreth")}
    assert rows["create-security-breach"]["prerequisite_met"] is True  # the demo's spy ring
    assert rows["infiltrate-spy-ring"]["held"] is True
    assert rows["embezzlement"]["prerequisite_met"] is False
    assert "counter-spy" not in rows


def test_effects_view_hides_what_the_target_knows_from_the_holder(save: WorldFile) -> None:
    mutate(save, _ready)
    do(save, "spy-mission", {"mission": "cripple-naval-morale", "sponsor": "varos", "target": "elbreth"}, [4, 2])
    world = read(save)
    held = board.effects_view(world, KING_VAROS)["held"]
    morale = next(e for e in held if e["kind"] == "morale-penalty")
    assert "known_to_target" not in morale and "known_sponsor" not in morale
    suffered = board.effects_view(world, KING_ELBRETH)["suffered"]
    assert [(e["kind"], e["sponsor_kingdom"]) for e in suffered] == [("morale-penalty", "varos")]
    # The undetected spy ring of the demo stays unknown to Elbreth.
    assert not [e for e in suffered if e["kind"] == "infiltration"]


def test_capture_guaranteed_by_the_success_roll_is_always_detected(save: WorldFile) -> None:
    mutate(save, _ready)
    # Poison Regiment T4 D5: success 1 (≤ T-3) fails and the spy is captured; detection 6 (≥ D+1) would
    # mean "undetected", but a captured spy is itself evidence: the mission is detected.
    result = do(
        save,
        "spy-mission",
        {"mission": "poison-regiment", "sponsor": "varos", "target": "elbreth", "unit": "brinehaven-watch"},
        [1, 6],
    )
    assert (result.data["outcome"], result.data["spy"], result.data["evidence"]) == ("failure", "captured", "detected")
    world = read(save)
    assert texts(world, KING_ELBRETH) == [
        "An enemy operation was detected: Poison Regiment (Brinehaven Watch). The enemy spy was captured. "
        "The perpetrator is unknown."
    ]
    assert world.get("units", "brinehaven-watch")["regiments"] == 2
