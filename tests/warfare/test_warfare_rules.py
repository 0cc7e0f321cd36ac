"""Warfare rules (RULINGS §2–§3): raids, slaves, looting, treasuries, sieges, messengers,
smuggling, and the `yak resolve slaves|messenger|smuggle` JSON."""

from __future__ import annotations

import argparse
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from yak_tui.areas.warfare import cli as resolve_warfare  # noqa: F401  (registers the checks)
from yak_tui.areas.warfare.rules import (
    CitizenHoldings,
    LootOutcome,
    OwnedStructure,
    RaidSplit,
    SlaveOutcome,
    business_loot,
    dismantle_refusal,
    dismantle_value,
    ducat_raid,
    loot,
    loot_refusal,
    raid_ducats,
    raid_refusal,
    raidable,
    slave_raid,
    slave_raid_odds,
    split_raid,
    treasury_location,
    treasury_placement,
)
from yak_tui.areas.warfare.siege_rules import (
    blockade_effective,
    blockade_refusal,
    bribe_bonus,
    fort_name,
    messenger,
    messenger_odds,
    recruit_refusal,
    season_end_consumption,
    seasons_left,
    siege_choice_refusal,
    siege_refusal,
    smuggle,
    smuggle_odds,
    starting_provisions,
    upgrade_refusal,
)
from yak_tui.kernel.play.checks import RESOLVE_CHECKS, CheckInputError
from yak_tui.kernel.play.dice import Modifier, ScriptedDice
from yak_tui.kernel.world.tables import set_override_dir, table

# --- Tables ------------------------------------------------------------------------------------


def test_table_holds_the_rulings_numbers() -> None:
    rules = table("warfare")
    assert rules["siege"]["fort_levels"] == ["Walls", "Fort", "Castle", "Fortress", "Citadel"]
    assert rules["siege"]["carry_over_seasons"] == 4
    assert rules["siege"]["consumption_per_regiment"] == 1
    assert rules["messenger"]["threshold"] == 3
    assert rules["smuggle"]["threshold"] == 4
    assert rules["smuggle"]["bribe_per_ducat"] == 1
    assert rules["smuggle"]["bribe_cap"] == 2
    assert rules["raid"]["die"] == 6
    assert rules["slaves"]["divisor"] == 2
    assert "village" in rules["raid"]["never_raidable_kinds"]
    assert "open-land" in rules["raid"]["never_raidable_kinds"]


def test_thresholds_come_from_the_table(tmp_path: Path) -> None:
    (tmp_path / "warfare.toml").write_text("[messenger]\nthreshold = 6\n[smuggle]\nbribe_cap = 5\n")
    set_override_dir(str(tmp_path))
    try:
        assert not messenger(ScriptedDice([5]), 0, 0).success
        assert bribe_bonus(4) == 4
    finally:
        set_override_dir(None)
    assert messenger(ScriptedDice([5]), 0, 0).success
    assert bribe_bonus(4) == 2


# --- Raid refusals ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind", ["town", "market", "port", "temple", "fort", "castle", "city", "significant-structure"]
)
def test_significant_structures_are_raidable(kind: str) -> None:
    assert raidable(kind)
    assert raid_refusal(kind, "raider", False, True, True, False) is None


@pytest.mark.parametrize(
    ("kind", "words"),
    [("open land", "open land"), ("open_land", "open land"), ("village", "village")],
)
def test_open_land_and_villages_are_never_raided(kind: str, words: str) -> None:
    assert not raidable(kind)
    for unit in ("raider", "sea-raider", "infantry"):
        reason = raid_refusal(kind, unit, True, False, False, False)
        assert reason is not None
        assert reason.startswith(f"{words} cannot be raided or looted")
        assert "RULINGS §2" in reason


def test_unknown_structure_kind_is_refused() -> None:
    reason = raid_refusal("haystack", "raider", False, False, False, False)
    assert reason is not None and "not a significant structure" in reason


def test_second_raid_in_a_season_is_refused_even_for_a_raider() -> None:
    for unit in ("raider", "sea-raider", "infantry"):
        reason = raid_refusal("town", unit, True, False, False, True)
        assert reason is not None and "once per season" in reason


@pytest.mark.parametrize(
    ("garrisoned", "walled", "named"),
    [(True, False, "a garrison"), (False, True, "walls"), (True, True, "a garrison and walls")],
)
def test_ordinary_unit_cannot_raid_a_defended_structure(garrisoned: bool, walled: bool, named: str) -> None:
    reason = raid_refusal("town", "cavalry", True, garrisoned, walled, False)
    assert reason is not None
    assert f"has {named}:" in reason and "defenceless" in reason


def test_ordinary_unit_may_raid_a_defenceless_structure() -> None:
    assert raid_refusal("market", "cavalry", False, False, False, False) is None


@pytest.mark.parametrize("unit", ["raider", "Raider", "RAIDER"])
def test_raider_raids_a_garrisoned_walled_structure(unit: str) -> None:
    assert raid_refusal("castle", unit, False, True, True, False) is None


@pytest.mark.parametrize("unit", ["sea-raider", "Sea Raider", "sea_raider"])
def test_sea_raider_raids_any_coastal_structure(unit: str) -> None:
    assert raid_refusal("port", unit, True, True, True, False) is None


@pytest.mark.parametrize("unit", ["sea-raider", "Sea Raider", "sea_raider"])
def test_sea_raider_inland_is_any_other_unit(unit: str) -> None:
    # Inland, a Sea Raider is "any other unit": a defenceless structure only (RULINGS §2).
    assert raid_refusal("town", unit, False, False, False, False) is None
    for garrisoned, walled, named in (
        (True, False, "a garrison"),
        (False, True, "walls"),
        (True, True, "a garrison and walls"),
    ):
        reason = raid_refusal("town", unit, False, garrisoned, walled, False)
        assert reason is not None
        assert f"has {named}:" in reason
        assert "Sea Raider raids an inland structure like any other unit" in reason
        assert "defenceless" in reason


# --- Ducat raids -----------------------------------------------------------------------------


@pytest.mark.parametrize("face", range(1, 7))
def test_raid_ducats_is_the_natural(face: int) -> None:
    dice = ScriptedDice([face])
    assert raid_ducats(dice) == face
    assert dice.remaining == 0


@pytest.mark.parametrize(
    ("amount", "treasury", "tax", "expected"),
    [
        (4, 10, 5, RaidSplit(4, 0, 4)),  # treasury only
        (4, 4, 5, RaidSplit(4, 0, 4)),  # treasury exactly enough
        (5, 2, 5, RaidSplit(2, 3, 5)),  # split
        (4, 0, 6, RaidSplit(0, 4, 4)),  # tax only (empty treasury)
        (4, -3, 6, RaidSplit(0, 4, 4)),  # tax only (treasury in debt is not raided)
        (6, 1, 1, RaidSplit(1, 1, 2)),  # only what exists
        (3, 0, 0, RaidSplit(0, 0, 0)),  # nothing
        (3, -2, -1, RaidSplit(0, 0, 0)),  # nothing, negatives
        (6, 2.5, 10, RaidSplit(2.5, 3.5, 6)),  # fractional treasuries
    ],
)
def test_split_raid(amount: int, treasury: float, tax: float, expected: RaidSplit) -> None:
    assert split_raid(amount, treasury, tax) == expected


def test_split_raid_rejects_negative_amount() -> None:
    with pytest.raises(ValueError, match="raided amount"):
        split_raid(-1, 5, 5)


def test_ducat_raid_rolls_and_splits() -> None:
    outcome = ducat_raid(ScriptedDice([5]), 3, 10)
    assert outcome.natural == 5
    assert outcome.split == RaidSplit(3, 2, 5)


# --- Slave raids -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "surplus", "manpower"),
    [
        (1, 5, 1),
        (2, 5, 1),
        (3, 5, 2),
        (4, 5, 2),
        (5, 5, 3),
        (6, 5, 3),
        (6, 3, 3),
        (6, 2, 2),
        (5, 1, 1),
        (1, 1, 1),
        (6, 0, 0),
        (1, 0, 0),
        (6, -2, 0),
    ],
)
def test_slave_raid(face: int, surplus: int, manpower: int) -> None:
    dice = ScriptedDice([face])
    assert slave_raid(dice, surplus) == SlaveOutcome(natural=face, manpower=manpower)
    assert dice.remaining == 0


@pytest.mark.parametrize(
    ("surplus", "expected"),
    [
        (0, {0: 1.0}),
        (1, {0: 0.0, 1: 1.0}),
        (2, {0: 0.0, 1: 0.333333, 2: 0.666667}),
        (9, {0: 0.0, 1: 0.333333, 2: 0.333333, 3: 0.333333}),
    ],
)
def test_slave_raid_odds(surplus: int, expected: dict[int, float]) -> None:
    odds = slave_raid_odds(surplus)
    assert odds == expected
    assert list(odds) == sorted(odds)
    assert sum(odds.values()) == pytest.approx(1, abs=1e-5)


# --- Looting and dismantling ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("tax", "raided", "holds", "treasury", "expected"),
    [
        (6, 0, False, 20, LootOutcome(6, 0)),  # without treasury: full tax
        (6, 4, False, 20, LootOutcome(2, 0)),  # minus raids
        (6, 6, False, 20, LootOutcome(0, 0)),
        (6, 9, False, 20, LootOutcome(0, 0)),  # never negative
        (6, 2, True, 20, LootOutcome(4, 10)),  # with treasury
        (6, 2, True, 7, LootOutcome(4, 3)),  # floor(7 / 2)
        (6, 2, True, 1, LootOutcome(4, 0)),
        (6, 0, True, 0, LootOutcome(6, 0)),  # empty treasury
        (6, 0, True, -5, LootOutcome(6, 0)),  # a debt is not looted
        (6, 0, True, 9.5, LootOutcome(6, 4)),
    ],
)
def test_loot(tax: float, raided: float, holds: bool, treasury: float, expected: LootOutcome) -> None:
    assert loot(tax, raided, holds, treasury) == expected


def test_loot_refusal() -> None:
    assert loot_refusal("town", True) is None
    reason = loot_refusal("town", False)
    assert reason is not None and "captured by a hostile force" in reason
    reason = loot_refusal("village", True)
    assert reason is not None and reason.startswith("village cannot be")


@pytest.mark.parametrize(("income", "taken"), [(5, 5), (0, 0), (-2, 0)])
def test_business_loot(income: float, taken: float) -> None:
    assert business_loot(income) == taken


@pytest.mark.parametrize(("invested", "value"), [(0, 0), (1, 0), (3, 1), (7, 3), (8, 4), (9.5, 4)])
def test_dismantle_value(invested: float, value: int) -> None:
    assert dismantle_value(invested) == value


def test_dismantle_value_rejects_negative() -> None:
    with pytest.raises(ValueError, match="invested"):
        dismantle_value(-1)


def test_dismantle_refusal() -> None:
    assert dismantle_refusal(by_owner=True, captured_by_actor=False) is None
    assert dismantle_refusal(by_owner=False, captured_by_actor=True) is None
    assert dismantle_refusal(by_owner=False, captured_by_actor=False) is not None


# --- Where a treasury lives -----------------------------------------------------------------


def S(id_: str, kind: str, capital: bool = False, size: float = 0, fort: int = 0) -> OwnedStructure:  # noqa: N802
    return OwnedStructure(id_, kind, capital, size, fort)


def test_vault_wins_over_everything() -> None:
    citizen = CitizenHoldings((S("cap", "town", capital=True, size=9, fort=5),))
    assert treasury_location(citizen, "home", "vault-1") == "vault-1"


def test_capital_first() -> None:
    citizen = CitizenHoldings((S("big", "town", size=9, fort=5), S("cap", "castle", capital=True, size=1)))
    assert citizen.owns_capital
    place = treasury_placement(citizen, "home")
    assert place.where == "cap" and "capital" in place.reason


def test_largest_without_a_capital() -> None:
    citizen = CitizenHoldings(
        (
            S("walled", "town", size=2, fort=5),
            S("big", "market", size=4),
            S("b", "business", size=3),
        )
    )
    place = treasury_placement(citizen, "home")
    assert place.where == "big" and "largest" in place.reason


def test_best_defended_among_equally_large() -> None:
    citizen = CitizenHoldings((S("a", "town", size=3, fort=1), S("b", "town", size=3, fort=4), S("c", "town", size=1)))
    place = treasury_placement(citizen)
    assert place.where == "b" and "best defended" in place.reason


def test_first_listed_when_size_and_defence_tie() -> None:
    citizen = CitizenHoldings((S("a", "town", size=3, fort=2), S("b", "market", size=3, fort=2)))
    assert treasury_location(citizen) == "a"


def test_owner_of_only_other_structures_uses_residence() -> None:
    citizen = CitizenHoldings((S("t", "temple", size=5),))
    assert not citizen.owns_capital
    assert treasury_location(citizen, "home") == "home"


def test_other_citizen_carries_or_keeps_at_residence() -> None:
    assert treasury_location(CitizenHoldings(), "home") == "home"
    place = treasury_placement(CitizenHoldings(), None)
    assert place.where is None and "carried" in place.reason


def test_treasury_location_accepts_plain_values() -> None:
    as_tuples = {"structures": [("a", "town", False, 1, 0), ("b", "business", False, 2, 0)]}
    assert treasury_location(as_tuples) == "b"
    as_dicts = [
        {"id": "x", "kind": "market", "size": 1},
        {"id": "y", "kind": "town", "is_capital": True},
    ]
    assert treasury_location(as_dicts) == "y"
    assert treasury_location([("z", "town")]) == "z"
    with pytest.raises(ValueError, match="owned structure"):
        treasury_location([("z",)])


# --- Sieges ---------------------------------------------------------------------------------


@pytest.mark.parametrize("level", [0, None])
def test_unwalled_town_cannot_be_besieged(level: int | None) -> None:
    assert siege_refusal(level) == "an unwalled town cannot be besieged; it is taken by fighting"


@pytest.mark.parametrize(("level", "name"), [(1, "Walls"), (2, "Fort"), (3, "Castle"), (4, "Fortress"), (5, "Citadel")])
def test_fort_levels(level: int, name: str) -> None:
    assert siege_refusal(level) is None
    assert fort_name(level) == name


@pytest.mark.parametrize("level", [6, -1])
def test_fort_level_off_the_table(level: int) -> None:
    reason = siege_refusal(level)
    assert reason is not None and "1 Walls" in reason and "5 Citadel" in reason
    assert fort_name(level) is None
    assert fort_name(0) is None and fort_name(None) is None


@pytest.mark.parametrize(
    ("level", "ago", "stock", "expected"),
    [
        (3, None, 0, 3),  # never besieged: fresh
        (5, None, 1, 5),
        (3, 0, 1, 1),  # besieged this season: carries over
        (3, 4, 1, 1),  # 4 seasons ago: still carries over
        (3, 4, 0, 0),
        (3, 4, 7, 7),  # smuggled surplus carries over too
        (3, 5, 1, 3),  # 5 seasons ago: fresh
        (1, 5, 0, 1),
        (2, 2, -1, 0),  # never negative
    ],
)
def test_starting_provisions(level: int, ago: int | None, stock: int, expected: int) -> None:
    assert starting_provisions(level, ago, stock) == expected


def test_starting_provisions_refuses_unwalled_and_bad_dates() -> None:
    with pytest.raises(ValueError, match="unwalled"):
        starting_provisions(0, None, 0)
    with pytest.raises(ValueError, match="seasons since"):
        starting_provisions(2, -1, 0)


@pytest.mark.parametrize(
    ("port", "land", "sea", "effective"),
    [
        (False, False, False, False),
        (False, True, False, True),
        (False, False, True, False),
        (False, True, True, True),
        (True, False, False, False),
        (True, True, False, False),
        (True, False, True, False),
        (True, True, True, True),
    ],
)
def test_blockade(port: bool, land: bool, sea: bool, effective: bool) -> None:
    assert blockade_effective(port, land, sea) is effective
    assert (blockade_refusal(port, land, sea) is None) is effective


def test_blockade_refusal_names_what_is_missing() -> None:
    assert "missing: sea" in str(blockade_refusal(True, True, False))
    assert "missing: land and sea" in str(blockade_refusal(True, False, False))


@pytest.mark.parametrize(
    ("provisions", "regiments", "after", "eaten", "short"),
    [
        (3, 2, 1, 2, False),
        (2, 2, 0, 2, False),  # exactly enough
        (1, 3, 0, 1, True),  # starvation
        (0, 1, 0, 0, True),
        (0, 0, 0, 0, False),  # nobody inside
        (5, 0, 5, 0, False),
        (-1, 1, 0, 0, True),  # never below 0
    ],
)
def test_season_end_consumption(provisions: int, regiments: int, after: int, eaten: int, short: bool) -> None:
    end = season_end_consumption(provisions, regiments)
    assert (end.provisions_after, end.eaten, end.short) == (after, eaten, short)
    assert end.choices == (("surrender", "sally") if short else ())


def test_siege_choice() -> None:
    assert siege_choice_refusal("surrender") is None
    assert siege_choice_refusal("Sally") is None
    assert siege_choice_refusal(None) is not None
    assert siege_choice_refusal("wait") is not None


@pytest.mark.parametrize(
    ("provisions", "regiments", "left"),
    [(3, 0, None), (3, 1, 3), (5, 2, 2), (1, 2, 0), (0, 1, 0), (-1, 1, 0)],
)
def test_seasons_left(provisions: int, regiments: int, left: int | None) -> None:
    assert seasons_left(provisions, regiments) == left


def test_recruiting_inside_is_refused_upgrading_allowed() -> None:
    reason = recruit_refusal(True)
    assert reason is not None and "cannot be recruited inside a besieged fort" in reason
    assert recruit_refusal(False) is None
    assert upgrade_refusal(True) is None
    assert upgrade_refusal(False) is None


# --- Messenger -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "friendly", "enemy", "total", "success"),
    [
        (2, 0, 0, 2, False),  # total 2: fails
        (3, 0, 0, 3, True),  # total 3: succeeds
        (1, 2, 0, 3, True),  # a natural 1 has no special effect
        (1, 1, 0, 2, False),
        (6, 0, 4, 2, False),  # a natural 6 has no special effect
        (6, 0, 3, 3, True),
        (4, 1, 2, 3, True),
        (4, 0, 2, 2, False),
    ],
)
def test_messenger(face: int, friendly: int, enemy: int, total: int, success: bool) -> None:
    dice = ScriptedDice([face])
    outcome = messenger(dice, friendly, enemy, ducats=5)
    assert (outcome.natural, outcome.total, outcome.success) == (face, total, success)
    assert outcome.modifier == friendly - enemy
    assert dice.remaining == 0
    assert outcome.ducats_delivered == (5 if success else 0)
    assert outcome.ducats_captured == (0 if success else 5)


def test_messenger_modifiers_carry_reasons() -> None:
    outcome = messenger(ScriptedDice([3]), 2, 1, modifiers=[Modifier(-1, "storm")])
    assert [m.value for m in outcome.modifiers] == [2, -1, -1]
    assert "friendly Scout" in outcome.modifiers[0].reason
    assert "besieging Scout" in outcome.modifiers[1].reason
    assert outcome.total == 3 and outcome.success


def test_messenger_rejects_negative_scouts() -> None:
    with pytest.raises(ValueError, match="friendly scouts"):
        messenger(ScriptedDice([3]), -1, 0)
    with pytest.raises(ValueError, match="enemy scouts"):
        messenger(ScriptedDice([3]), 0, -1)


@pytest.mark.parametrize(
    ("friendly", "enemy", "success"),
    [(0, 0, Fraction(4, 6)), (1, 0, Fraction(5, 6)), (2, 0, 1), (0, 2, Fraction(2, 6)), (0, 9, 0)],
)
def test_messenger_odds(friendly: int, enemy: int, success: Fraction) -> None:
    odds = messenger_odds(friendly, enemy)
    assert list(odds) == ["success", "failure"]
    assert odds["success"] == round(float(success), 6)
    assert odds["success"] + odds["failure"] == pytest.approx(1, abs=1e-5)


# --- Smuggling -------------------------------------------------------------------------------


@pytest.mark.parametrize(("bribe", "bonus"), [(0, 0), (1, 1), (2, 2), (3, 2), (10, 2)])
def test_bribe_bonus_is_capped(bribe: int, bonus: int) -> None:
    assert bribe_bonus(bribe) == bonus


@pytest.mark.parametrize(
    ("face", "bribe", "modifier", "total", "success"),
    [
        (3, 0, 0, 3, False),  # total 3: fails
        (4, 0, 0, 4, True),  # total 4: succeeds
        (3, 1, 0, 4, True),
        (1, 5, 0, 3, False),  # bribe capped at +2
        (1, 5, 1, 4, True),
        (2, 2, 0, 4, True),
        (6, 0, -3, 3, False),  # a natural 6 has no special effect
        (1, 2, 1, 4, True),  # a natural 1 has no special effect
    ],
)
def test_smuggle(face: int, bribe: int, modifier: int, total: int, success: bool) -> None:
    dice = ScriptedDice([face])
    outcome = smuggle(dice, bribe, modifier, shipments=3)
    assert (outcome.natural, outcome.total, outcome.success) == (face, total, success)
    assert outcome.bribe_spent == bribe  # every ducat is spent, past the cap and on a failure
    assert outcome.bribe_bonus == min(bribe, 2)
    assert outcome.provisions_added == (3 if success else 0)
    assert dice.remaining == 0


def test_smuggle_accepts_modifiers_with_reasons() -> None:
    outcome = smuggle(ScriptedDice([1]), 1, [Modifier(2, "smuggling ring")])
    assert outcome.total == 4 and outcome.success
    assert [m.reason for m in outcome.modifiers][1] == "smuggling ring"


def test_smuggle_rejects_negative_bribe() -> None:
    with pytest.raises(ValueError, match="bribe"):
        smuggle(ScriptedDice([3]), -1)


@pytest.mark.parametrize(
    ("bribe", "modifier", "success"),
    [
        (0, 0, Fraction(3, 6)),
        (1, 0, Fraction(4, 6)),
        (2, 0, Fraction(5, 6)),
        (9, 0, Fraction(5, 6)),
        (9, 1, 1),
        (0, -3, 0),
    ],
)
def test_smuggle_odds(bribe: int, modifier: int, success: Fraction) -> None:
    odds = smuggle_odds(bribe, modifier)
    assert list(odds) == ["success", "failure"]
    assert odds["success"] == round(float(success), 6)
    assert odds["success"] + odds["failure"] == pytest.approx(1, abs=1e-5)


# --- CLI (`yak resolve ...` run/odds functions) --------------------------------------------


def _args(check: str, argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    RESOLVE_CHECKS[check].add_arguments(parser)
    return parser.parse_args(argv)


def _run(check: str, argv: list[str], dice: list[int]) -> dict[str, Any]:
    return RESOLVE_CHECKS[check].run(_args(check, argv), ScriptedDice(dice))


def _odds(check: str, argv: list[str]) -> dict[str, Any]:
    odds = RESOLVE_CHECKS[check].odds
    assert odds is not None
    return odds(_args(check, argv))


def test_checks_are_registered() -> None:
    assert {"slaves", "messenger", "smuggle"} <= set(RESOLVE_CHECKS)


def test_cli_slaves() -> None:
    result = _run("slaves", ["--surplus", "2"], [6])
    assert result == {"check": "slaves", "natural": 6, "manpower": 2}
    assert list(result) == ["check", "natural", "manpower"]
    assert _run("slaves", ["--surplus", "0"], [5]) == {
        "check": "slaves",
        "natural": 5,
        "manpower": 0,
    }


def test_cli_slaves_odds() -> None:
    result = _odds("slaves", ["--surplus", "5"])
    assert list(result) == ["check", "odds"]
    assert result["check"] == "slaves"
    assert result["odds"] == {"0": 0.0, "1": 0.333333, "2": 0.333333, "3": 0.333333}
    assert sum(result["odds"].values()) == pytest.approx(1, abs=1e-5)


def test_cli_messenger() -> None:
    result = _run("messenger", ["--scouts", "1", "--enemy-scouts", "2"], [4])
    assert result == {"check": "messenger", "natural": 4, "total": 3, "success": True}
    assert list(result) == ["check", "natural", "total", "success"]
    assert _run("messenger", [], [2])["success"] is False


def test_cli_messenger_odds() -> None:
    result = _odds("messenger", ["--scouts", "0", "--enemy-scouts", "1"])
    assert list(result) == ["check", "odds", "success"]
    assert result == {
        "check": "messenger",
        "odds": {"success": 0.5, "failure": 0.5},
        "success": 0.5,
    }


def test_cli_smuggle() -> None:
    result = _run("smuggle", ["--bribe", "5", "--modifier", "-1"], [3])
    assert result == {"check": "smuggle", "natural": 3, "total": 4, "success": True}
    assert list(result) == ["check", "natural", "total", "success"]
    assert _run("smuggle", [], [3]) == {
        "check": "smuggle",
        "natural": 3,
        "total": 3,
        "success": False,
    }


def test_cli_smuggle_odds() -> None:
    result = _odds("smuggle", ["--bribe", "1"])
    assert list(result) == ["check", "odds", "success"]
    assert result["odds"] == {"success": 0.666667, "failure": 0.333333}
    assert result["success"] == 0.666667


@pytest.mark.parametrize(
    ("check", "argv", "flag"),
    [
        ("slaves", ["--surplus", "-1"], "--surplus"),
        ("messenger", ["--scouts", "-1"], "--scouts"),
        ("messenger", ["--enemy-scouts", "-2"], "--enemy-scouts"),
        ("smuggle", ["--bribe", "-1"], "--bribe"),
    ],
)
def test_cli_negative_values_name_the_flag(check: str, argv: list[str], flag: str) -> None:
    for call in (lambda: _run(check, argv, [3]), lambda: _odds(check, argv)):
        with pytest.raises(CheckInputError, match=f"^{flag}: "):
            call()
