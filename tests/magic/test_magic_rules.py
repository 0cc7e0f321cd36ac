"""Spell casting (RULINGS §4): every band of every stage, chained penalties, carry, odds, CLI."""

from __future__ import annotations

import argparse
import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from yak_tui.areas.magic.cli import SPELL
from yak_tui.areas.magic.rules import (
    NOT_ROLLED,
    allowed_carries,
    cast_spell,
    spell_odds,
    stage_bands,
)
from yak_tui.kernel.play.checks import CheckInputError
from yak_tui.kernel.play.dice import DiceError, Modifier, ScriptedDice

# --- Power ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("natural", "rank", "carry", "band"),
    [
        (1, 0, 0, "backlash"),
        (1, 5, 1, "backlash"),  # a natural 1 beats any total
        (2, 0, 0, "failed"),
        (3, 0, -1, "failed"),  # total 2
        (2, 1, 0, "tapped"),  # total 3
        (3, 0, 0, "tapped"),
        (4, 0, 0, "tapped"),
        (5, 0, -1, "tapped"),  # total 4
        (5, 0, 0, "strong"),
        (4, 1, 0, "strong"),  # total 5
        (2, 3, 1, "strong"),  # total 6, natural not 6
        (6, 0, 0, "overwhelming"),
        (6, 0, -1, "overwhelming"),  # a natural 6 beats any total
    ],
)
def test_power_bands(natural: int, rank: int, carry: int, band: str) -> None:
    outcome = cast_spell(ScriptedDice([natural, 3, 3]), power_rank=rank, carry=carry)
    assert outcome.power.natural == natural
    assert outcome.power.total == natural + rank + carry
    assert outcome.power.band == band


@pytest.mark.parametrize(("natural", "band"), [(1, "backlash"), (2, "failed")])
def test_failed_power_ends_the_spell(natural: int, band: str) -> None:
    dice = ScriptedDice([natural, 6, 6])
    outcome = cast_spell(dice)
    assert dice.used == 1
    assert outcome.power.band == band
    assert outcome.control is None and outcome.resolution is None
    assert outcome.ended_at_power
    assert outcome.effect == "none"
    assert outcome.next_power_modifier == 0
    assert not outcome.greater_magnitude


def test_power_backlash_is_a_consequence() -> None:
    assert cast_spell(ScriptedDice([1])).consequences == ("power-backlash",)
    assert cast_spell(ScriptedDice([2])).consequences == ()


@pytest.mark.parametrize(("natural", "greater"), [(3, False), (4, False), (5, True), (6, True)])
def test_greater_magnitude(natural: int, greater: bool) -> None:
    assert cast_spell(ScriptedDice([natural, 3, 3])).greater_magnitude is greater


# --- Control -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("natural", "rank", "band", "effect"),
    [
        (1, 4, "backlash", "none"),
        (2, 0, "failed", "none"),
        (1 + 1, 0, "failed", "none"),
        (3, 0, "works", "works"),
        (2, 1, "works", "works"),
        (4, 0, "works", "works"),
        (5, 0, "finesse", "finesse"),
        (4, 1, "finesse", "finesse"),
        (3, 3, "finesse", "finesse"),  # total 6, natural not 6
        (6, 0, "spills", "spills"),
    ],
)
def test_control_bands(natural: int, rank: int, band: str, effect: str) -> None:
    dice = ScriptedDice([3, natural, 3])
    outcome = cast_spell(dice, control_rank=rank)
    assert dice.used == 3, "Resolution is rolled whatever Control gives"
    assert outcome.control is not None
    assert outcome.control.total == natural + rank
    assert outcome.control.band == band
    assert outcome.effect == effect


def test_control_consequences() -> None:
    assert cast_spell(ScriptedDice([3, 1, 4])).consequences == ("control-backlash",)
    assert cast_spell(ScriptedDice([3, 1, 3])).consequences == ("control-backlash", "open-source")
    assert cast_spell(ScriptedDice([3, 6, 3])).consequences == ("spill",)
    assert cast_spell(ScriptedDice([3, 2, 3])).consequences == ()


# --- Resolution ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("natural", "rank", "band", "next_power"),
    [
        (1, 4, "mishap", 0),
        (2, 0, "failed", 0),
        (3, 0, "sealed", 0),
        (2, 1, "sealed", 0),
        (4, 0, "sealed", 0),
        (5, 0, "bonded", 1),
        (4, 1, "bonded", 1),
        (5, 2, "bonded", 1),  # total 7, natural not 6
        (6, 0, "oversealed", -1),
    ],
)
def test_resolution_bands(natural: int, rank: int, band: str, next_power: int) -> None:
    outcome = cast_spell(ScriptedDice([3, 3, natural]), resolution_rank=rank)
    assert outcome.resolution is not None
    assert outcome.resolution.total == natural + rank
    assert outcome.resolution.band == band
    assert outcome.next_power_modifier == next_power


@pytest.mark.parametrize(
    ("natural", "consequences"),
    [(1, ("mishap", "open-source")), (2, ("open-source",)), (3, ()), (5, ()), (6, ())],
)
def test_resolution_consequences(natural: int, consequences: tuple[str, ...]) -> None:
    assert cast_spell(ScriptedDice([3, 3, natural])).consequences == consequences


# --- chained penalties ---------------------------------------------------------------------


def test_overwhelming_power_penalises_control_and_resolution() -> None:
    outcome = cast_spell(ScriptedDice([6, 3, 3]))
    assert outcome.control is not None and outcome.resolution is not None
    assert (outcome.control.total, outcome.control.band) == (2, "failed")
    assert (outcome.resolution.total, outcome.resolution.band) == (2, "failed")
    assert outcome.effect == "none"
    assert [m.value for m in outcome.control.modifiers] == [-1]
    assert "overwhelming" in outcome.control.modifiers[0].reason


def test_overwhelming_power_with_good_rolls_still_works() -> None:
    outcome = cast_spell(ScriptedDice([6, 4, 5]))
    assert outcome.control is not None and outcome.resolution is not None
    assert (outcome.control.total, outcome.control.band) == (3, "works")
    assert (outcome.resolution.total, outcome.resolution.band) == (4, "sealed")
    assert outcome.greater_magnitude
    assert outcome.next_power_modifier == 0


def test_control_backlash_penalises_resolution() -> None:
    outcome = cast_spell(ScriptedDice([3, 1, 3]))
    assert outcome.resolution is not None
    assert (outcome.resolution.total, outcome.resolution.band) == (2, "failed")
    assert outcome.resolution.modifiers == (Modifier(-1, "Control backlash (natural 1)"),)


def test_both_penalties_stack_on_resolution() -> None:
    outcome = cast_spell(ScriptedDice([6, 1, 4]), resolution_rank=1)
    assert outcome.resolution is not None
    assert [m.value for m in outcome.resolution.modifiers] == [1, -1, -1]
    assert (outcome.resolution.total, outcome.resolution.band) == (3, "sealed")


def test_naturals_beat_penalties() -> None:
    outcome = cast_spell(ScriptedDice([6, 6, 6]))
    assert outcome.control is not None and outcome.resolution is not None
    assert outcome.control.band == "spills"
    assert outcome.resolution.band == "oversealed"
    assert outcome.next_power_modifier == -1


# --- carry and modifiers -------------------------------------------------------------------


def test_carry_applies_to_power_only() -> None:
    outcome = cast_spell(ScriptedDice([2, 2, 2]), carry=1)
    assert outcome.control is not None and outcome.resolution is not None
    assert (outcome.power.total, outcome.power.band) == (3, "tapped")
    assert outcome.power.modifiers[0].value == 1
    assert "carried" in outcome.power.modifiers[0].reason
    assert (outcome.control.total, outcome.control.band) == (2, "failed")
    assert (outcome.resolution.total, outcome.resolution.band) == (2, "failed")


def test_negative_carry_can_fail_power() -> None:
    assert cast_spell(ScriptedDice([3]), carry=-1).power.band == "failed"


@pytest.mark.parametrize("carry", [-2, 2, 5])
def test_carry_out_of_range(carry: int) -> None:
    with pytest.raises(ValueError, match="carry"):
        cast_spell(ScriptedDice([3, 3, 3]), carry=carry)


def test_allowed_carries() -> None:
    assert allowed_carries() == (-1, 0, 1)


def test_ranks_and_extra_modifiers_are_recorded_with_reasons() -> None:
    outcome = cast_spell(
        ScriptedDice([2, 2, 2]),
        power_rank=1,
        control_rank=2,
        resolution_rank=0,
        power_modifiers=[Modifier(1, "ley line nexus")],
        control_modifiers=[Modifier(0, "nothing")],
        resolution_modifiers=[Modifier(-1, "wounded")],
    )
    assert outcome.control is not None and outcome.resolution is not None
    assert outcome.power.modifiers == (
        Modifier(1, "Power rank"),
        Modifier(1, "ley line nexus"),
    )
    assert outcome.power.total == 4
    assert outcome.control.modifiers == (Modifier(2, "Control rank"),)
    assert outcome.resolution.modifiers == (Modifier(-1, "wounded"),)
    assert outcome.resolution.band == "failed"


def test_dice_come_from_the_source() -> None:
    with pytest.raises(DiceError):
        cast_spell(ScriptedDice([3, 3]))


# --- odds ----------------------------------------------------------------------------------


def _brute_force(**kwargs: Any) -> dict[str, Counter[str]]:
    """Independent count over all 216 triples (extra dice unused when Power fails)."""
    counts: dict[str, Counter[str]] = {k: Counter() for k in ("power", "control", "resolution", "effect", "next")}
    for triple in itertools.product(range(1, 7), repeat=3):
        o = cast_spell(ScriptedDice(triple), **kwargs)
        counts["power"][o.power.band] += 1
        counts["control"][o.control.band if o.control else NOT_ROLLED] += 1
        counts["resolution"][o.resolution.band if o.resolution else NOT_ROLLED] += 1
        counts["effect"][o.effect] += 1
        counts["next"][str(o.next_power_modifier)] += 1
    return counts


@pytest.mark.parametrize(
    "kwargs",
    [
        {},
        {"power_rank": 1, "control_rank": 2, "resolution_rank": 1, "carry": -1},
        {"power_rank": 3, "carry": 1},
    ],
)
def test_odds_match_brute_force_and_sum_to_one(kwargs: dict[str, Any]) -> None:
    odds = spell_odds(**kwargs)
    counts = _brute_force(**kwargs)
    for part, key in (
        ("power", "power"),
        ("control", "control"),
        ("resolution", "resolution"),
        ("effect", "effect"),
        ("next_power_modifier", "next"),
    ):
        assert sum(odds[part].values()) == 1
        for label, p in odds[part].items():
            assert p == Fraction(counts[key][label], 216), (part, label)


def test_odds_carry_every_key() -> None:
    odds = spell_odds()
    assert set(odds["power"]) == set(stage_bands("power"))
    assert set(odds["control"]) == {*stage_bands("control"), NOT_ROLLED}
    assert set(odds["resolution"]) == {*stage_bands("resolution"), NOT_ROLLED}
    assert set(odds["effect"]) == {"none", "works", "finesse", "spills"}
    assert set(odds["next_power_modifier"]) == {"-1", "0", "1"}


def test_odds_plain_values() -> None:
    odds = spell_odds()
    assert odds["power"]["backlash"] == Fraction(1, 6)
    assert odds["power"]["tapped"] == Fraction(1, 3)
    assert odds["control"][NOT_ROLLED] == Fraction(1, 3)
    # Control works on 3-4, after Power 3-5 (no penalty) or Power 6 (needs natural 4 or 5).
    assert odds["effect"]["works"] == Fraction(1, 2) * Fraction(1, 3) + Fraction(1, 6) * Fraction(1, 3)


def test_odds_with_high_power_rank_never_fail_by_total() -> None:
    odds = spell_odds(power_rank=4)
    assert odds["power"]["failed"] == 0
    assert odds["power"]["tapped"] == 0
    assert odds["power"]["backlash"] == Fraction(1, 6)


# --- CLI -----------------------------------------------------------------------------------


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    SPELL.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_cli_full_casting_shape() -> None:
    result = SPELL.run(_args("--power-rank", "1", "--carry", "1"), ScriptedDice([3, 6, 5]))
    assert result == {
        "check": "spell",
        "power": {"natural": 3, "total": 5, "band": "strong"},
        "control": {"natural": 6, "total": 6, "band": "spills"},
        "resolution": {"natural": 5, "total": 5, "band": "bonded"},
        "effect": "spills",
        "next_power_modifier": 1,
    }
    assert list(result) == [
        "check",
        "power",
        "control",
        "resolution",
        "effect",
        "next_power_modifier",
    ]
    assert list(result["power"]) == ["natural", "total", "band"]


def test_cli_failed_power_shape() -> None:
    assert SPELL.run(_args(), ScriptedDice([1])) == {
        "check": "spell",
        "power": {"natural": 1, "total": 1, "band": "backlash"},
        "control": None,
        "resolution": None,
        "effect": "none",
        "next_power_modifier": 0,
    }


def test_cli_ranks() -> None:
    result = SPELL.run(_args("--control-rank", "2", "--resolution-rank", "1"), ScriptedDice([6, 2, 6]))
    assert result["control"] == {"natural": 2, "total": 3, "band": "works"}
    assert result["resolution"] == {"natural": 6, "total": 6, "band": "oversealed"}
    assert result["next_power_modifier"] == -1


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (("--carry", "2"), "--carry"),
        (("--carry", "-2"), "--carry"),
        (("--power-rank", "-1"), "--power-rank"),
        (("--resolution-rank", "-3"), "--resolution-rank"),
    ],
)
def test_cli_bad_input(argv: tuple[str, ...], flag: str) -> None:
    with pytest.raises(CheckInputError, match=f"^{flag}:"):
        SPELL.run(_args(*argv), ScriptedDice([3, 3, 3]))
    assert SPELL.odds is not None
    with pytest.raises(CheckInputError, match=f"^{flag}:"):
        SPELL.odds(_args(*argv))


def test_cli_odds_shape() -> None:
    assert SPELL.odds is not None
    result = SPELL.odds(_args("--power-rank", "1"))
    assert result["check"] == "spell"
    assert set(result["odds"]) == {
        "power",
        "control",
        "resolution",
        "effect",
        "next_power_modifier",
    }
    for part in result["odds"].values():
        assert sum(part.values()) == pytest.approx(1, abs=1e-5)
    assert result["odds"]["power"]["backlash"] == round(1 / 6, 6)
    assert result["effect_works"] == pytest.approx(1 - result["odds"]["effect"]["none"], abs=1e-5)
