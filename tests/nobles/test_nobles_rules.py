"""Fall of Rome noble commands (RULINGS §8): Power, Incite, Usurp, relocation discovery, CLI."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import pytest

from yak_tui.areas.nobles.cli import INCITE, RELOCATE_DISCOVERY, USURP
from yak_tui.areas.nobles.rules import (
    OUTCOMES,
    apply_swing,
    command_cost,
    command_odds,
    discovery_chance,
    discovery_odds,
    incite,
    noble_power,
    relocate_discovery,
    roll_command,
    strongest_counter_spy,
    swing_die_sides,
    swing_percent,
    title_names,
    title_share,
    usurp,
)
from yak_tui.kernel.play.checks import CheckInputError, ResolveCheck
from yak_tui.kernel.play.dice import DiceError, ScriptedDice
from yak_tui.kernel.world.tables import set_override_dir

# --- titles, Power, swing ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "share"),
    [
        ("Prince", 80),
        ("duke", 70),
        ("COUNT", 60),
        ("Baron", 50),
        ("Governor", 40),
        ("ambassador", 20),
        ("Agent", 20),
        ("High Priestess", 60),
        ("high-priestess", 60),
    ],
)
def test_title_shares(title: str, share: int) -> None:
    assert title_share(title) == share


def test_unknown_title() -> None:
    with pytest.raises(ValueError, match="Emperor"):
        title_share("Emperor")
    assert "Prince" in title_names()


@pytest.mark.parametrize(("natural", "percent"), [(1, -15), (15, -1), (16, 0), (17, 1), (31, 15)])
def test_swing_die(natural: int, percent: int) -> None:
    assert swing_die_sides() == 31
    assert swing_percent(natural) == percent


@pytest.mark.parametrize("natural", [0, 32])
def test_swing_die_out_of_range(natural: int) -> None:
    with pytest.raises(ValueError, match="d31"):
        swing_percent(natural)


@pytest.mark.parametrize(
    ("share", "influence", "swing", "power"),
    [
        (80, 10, 0, 8.0),
        (80, 10, 15, 9.2),
        (20, 10, -15, 1.7),
        (70, 13, 7, 9.74),  # 9.737 rounds up
        (50, 0.01, 0, 0.01),  # 0.005 rounds half up
        (60, 0, 15, 0.0),
    ],
)
def test_noble_power(share: int, influence: float, swing: int, power: float) -> None:
    assert noble_power(share, influence, swing) == power


def test_apply_swing() -> None:
    assert apply_swing(10, 15) == 11.5
    assert apply_swing(10, -15) == 8.5
    assert apply_swing(9.2, 0) == 9.2


@pytest.mark.parametrize("command", ["incite", "usurp", "relocate"])
def test_command_cost(command: str) -> None:
    assert command_cost(command) == 1


# --- Incite: every margin edge -------------------------------------------------------------


@pytest.mark.parametrize(
    ("power", "resistance", "outcome", "margin"),
    [
        (10, 9.99, "success", -0.01),
        (10, 10, "failure", 0),  # equal is not a success
        (10, 14.99, "failure", 4.99),
        (10, 15, "evicted", 5),  # margin == Power / 2
        (10, 20, "evicted", 10),  # margin == Power: not yet executed
        (10, 20.01, "executed", 10.01),
        (9.2, 13.8, "evicted", 4.6),  # float noise would make 4.600000000000001
        (9.2, 13.79, "failure", 4.59),
        (9.2, 18.4, "evicted", 9.2),
        (9.2, 18.41, "executed", 9.21),
        (0.1, 0.15, "evicted", 0.05),
        (0, 0, "evicted", 0),  # margin 0 >= Power / 2 = 0
        (0, 1, "executed", 1),
    ],
)
def test_incite_edges(power: float, resistance: float, outcome: str, margin: float) -> None:
    result = incite(power, resistance)
    assert result.outcome == outcome
    assert result.margin == margin
    assert result.power == power
    assert result.resistance == resistance
    assert result.success is (outcome == "success")


def test_incite_modifier_adds_to_power() -> None:
    result = incite(9, 10, modifier=2)
    assert (result.power, result.outcome, result.margin) == (11, "success", -1)
    assert incite(10, 15, modifier=-0.01).outcome == "evicted"  # 15 - 9.99 = 5.01 >= 4.995
    assert incite(10, 14, modifier=-1).outcome == "evicted"  # margin 5 >= 4.5
    assert incite(10, 14, modifier=1).outcome == "failure"  # margin 3 < 5.5


def test_incite_resistance_modifier() -> None:
    result = incite(10, 10, resistance_modifier=-1)
    assert (result.resistance, result.outcome) == (9, "success")


# --- Usurp ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("power", "resistance", "controlled", "used", "outcome"),
    [
        (10, 5, False, 5, "success"),
        (10, 4.99, True, 9.98, "success"),
        (10, 5, True, 10, "failure"),
        (10, 7.49, True, 14.98, "failure"),
        (10, 7.5, True, 15, "evicted"),
        (10, 10, True, 20, "evicted"),
        (10, 10.01, True, 20.02, "executed"),
        (10, 10, False, 10, "failure"),
        (10, 15, False, 15, "evicted"),
        (10, 20.01, False, 20.01, "executed"),
    ],
)
def test_usurp_edges(power: float, resistance: float, controlled: bool, used: float, outcome: str) -> None:
    result = usurp(power, resistance, controlled)
    assert result.resistance == used
    assert result.outcome == outcome
    assert result.margin == pytest.approx(used - power)
    assert result.resistance_multiplier == (2 if controlled else 1)
    assert result.base_resistance == resistance


def test_usurp_resistance_modifier_is_not_doubled() -> None:
    result = usurp(10, 5, True, resistance_modifier=1)
    assert (result.resistance, result.outcome) == (11, "failure")


def test_usurp_modifier_adds_to_power() -> None:
    result = usurp(9, 5, True, modifier=1.5)
    assert (result.power, result.resistance, result.outcome) == (10.5, 10, "success")


def test_neutral_usurp_equals_incite() -> None:
    for resistance in (5, 10, 14, 15, 20, 21):
        assert usurp(10, resistance, False).outcome == incite(10, resistance).outcome


# --- rolling with the swing ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("natural", "power", "outcome"),
    [(1, 8.5, "failure"), (16, 10, "failure"), (17, 10.1, "success"), (31, 11.5, "success")],
)
def test_roll_command_swing(natural: int, power: float, outcome: str) -> None:
    roll = roll_command(ScriptedDice([natural]), "incite", 10, 10)
    assert roll.swing is not None and roll.swing.natural == natural
    assert roll.outcome.power == power
    assert roll.outcome.outcome == outcome


def test_roll_command_without_swing_rolls_nothing() -> None:
    dice = ScriptedDice([])
    roll = roll_command(dice, "usurp", 10, 5, controlled=True, swing=False)
    assert dice.used == 0
    assert roll.swing is None
    assert (roll.outcome.power, roll.outcome.resistance) == (10, 10)


def test_roll_command_needs_the_swing_die() -> None:
    with pytest.raises(DiceError):
        roll_command(ScriptedDice([]), "incite", 10, 10)
    with pytest.raises(DiceError):
        roll_command(ScriptedDice([32]), "incite", 10, 10)


def test_roll_command_rejects_other_commands() -> None:
    with pytest.raises(ValueError, match="not incite or usurp"):
        roll_command(ScriptedDice([16]), "relocate", 10, 10)
    with pytest.raises(ValueError, match="controlled"):
        roll_command(ScriptedDice([16]), "incite", 10, 10, controlled=True)


def test_command_odds_over_the_swing() -> None:
    odds = command_odds("incite", 10, 10)
    assert set(odds) == set(OUTCOMES)
    assert sum(odds.values()) == 1
    assert odds["success"] == Fraction(15, 31)
    assert odds["failure"] == Fraction(16, 31)
    # Power 10 vs Resistance 15: evicted while margin >= Power / 2.
    # swing s: Power 10 + s/10; evicted iff 15 - P >= P/2, i.e. P <= 10, i.e. s <= 0.
    odds = command_odds("incite", 10, 15)
    assert odds["evicted"] == Fraction(16, 31)
    assert odds["failure"] == Fraction(15, 31)


def test_command_odds_without_swing_is_certain() -> None:
    odds = command_odds("usurp", 10, 10, controlled=True, swing=False)
    assert odds == {"success": 0, "failure": 0, "evicted": 1, "executed": 0}


# --- relocation discovery ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "counter_spy", "chance"),
    [
        ("Ambassador", None, 20),
        ("prince", None, 80),
        ("Agent", None, 20),
        ("High Priestess", None, 60),
        ("high_priestess", "province", 80),
        ("Baron", "province", 70),
        ("Baron", "nation", 60),
        ("Prince", "province", 100),
    ],
)
def test_discovery_chance(who: str, counter_spy: str | None, chance: int) -> None:
    assert discovery_chance(who, counter_spy) == chance


def test_counter_spies_never_stack() -> None:
    assert strongest_counter_spy(True, True) == "province"
    assert strongest_counter_spy(False, True) == "nation"
    assert strongest_counter_spy(True, False) == "province"
    assert strongest_counter_spy(False, False) is None


def test_unknown_counter_spy() -> None:
    with pytest.raises(ValueError, match="counter-spy"):
        discovery_chance("Prince", "kingdom")


@pytest.mark.parametrize(
    ("natural", "chance", "discovered"),
    [(20, 20, True), (21, 20, False), (1, 20, True), (100, 100, True), (1, 0, False)],
)
def test_relocate_discovery_edges(natural: int, chance: int, discovered: bool) -> None:
    roll = relocate_discovery(ScriptedDice([natural]), chance)
    assert (roll.natural, roll.chance, roll.discovered) == (natural, chance, discovered)


def test_discovery_is_a_d100() -> None:
    with pytest.raises(DiceError):
        relocate_discovery(ScriptedDice([101]), 50)


@pytest.mark.parametrize(("chance", "p"), [(0, 0), (20, Fraction(1, 5)), (60, Fraction(3, 5)), (100, 1), (110, 1)])
def test_discovery_odds(chance: int, p: Fraction) -> None:
    assert discovery_odds(chance) == p


# --- house rules are data ------------------------------------------------------------------


@pytest.fixture
def house_rules(tmp_path: Path) -> Iterator[Path]:
    set_override_dir(str(tmp_path))
    try:
        yield tmp_path
    finally:
        set_override_dir(None)


def test_house_rule_ratio_and_swing(house_rules: Path) -> None:
    (house_rules / "nobles.toml").write_text("[outcome]\neviction_ratio = 0.25\n[swing]\nmax_percent = 10\n")
    assert incite(10, 12.5).outcome == "evicted"
    assert swing_die_sides() == 21
    assert swing_percent(21) == 10
    assert title_share("Prince") == 80  # untouched keys keep the defaults


# --- CLI -----------------------------------------------------------------------------------


def _args(check: ResolveCheck, *argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    check.add_arguments(parser)
    return parser.parse_args(list(argv))


def test_cli_incite_no_swing_shape() -> None:
    args = _args(INCITE, "--power", "10", "--resistance", "15", "--no-swing")
    result = INCITE.run(args, ScriptedDice([]))
    assert result == {
        "check": "incite",
        "power": 10,
        "resistance": 15,
        "outcome": "evicted",
        "margin": 5,
    }
    assert list(result) == ["check", "power", "resistance", "outcome", "margin"]
    assert all(isinstance(result[k], int) for k in ("power", "resistance", "margin"))


def test_cli_incite_rolls_the_swing_first() -> None:
    args = _args(INCITE, "--power", "8", "--resistance", "9")
    result = INCITE.run(args, ScriptedDice([31]))
    assert result == {
        "check": "incite",
        "power": 9.2,
        "resistance": 9,
        "outcome": "success",
        "margin": -0.2,
    }


def test_cli_incite_modifier() -> None:
    args = _args(INCITE, "--power", "10", "--resistance", "10", "--modifier", "1", "--no-swing")
    assert INCITE.run(args, ScriptedDice([]))["outcome"] == "success"


def test_cli_usurp_controlled_shape() -> None:
    args = _args(USURP, "--power", "10", "--resistance", "10.01", "--controlled", "--no-swing")
    result = USURP.run(args, ScriptedDice([]))
    assert result == {
        "check": "usurp",
        "power": 10,
        "resistance": 20.02,
        "outcome": "executed",
        "margin": 10.02,
    }


def test_cli_usurp_neutral_with_swing() -> None:
    args = _args(USURP, "--power", "10", "--resistance", "10")
    assert USURP.run(args, ScriptedDice([16]))["outcome"] == "failure"
    assert USURP.run(args, ScriptedDice([17]))["outcome"] == "success"


def test_cli_incite_has_no_controlled_flag() -> None:
    with pytest.raises(SystemExit):
        _args(INCITE, "--power", "1", "--resistance", "1", "--controlled")


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (("--power", "-1", "--resistance", "1"), "--power"),
        (("--power", "1", "--resistance", "-1"), "--resistance"),
    ],
)
def test_cli_command_bad_input(argv: tuple[str, ...], flag: str) -> None:
    with pytest.raises(CheckInputError, match=f"^{flag}:"):
        INCITE.run(_args(INCITE, *argv, "--no-swing"), ScriptedDice([]))


def test_cli_command_odds() -> None:
    assert INCITE.odds is not None and USURP.odds is not None
    result = INCITE.odds(_args(INCITE, "--power", "10", "--resistance", "10"))
    assert result == {
        "check": "incite",
        "odds": {
            "success": round(15 / 31, 6),
            "failure": round(16 / 31, 6),
            "evicted": 0.0,
            "executed": 0.0,
        },
        "success": round(15 / 31, 6),
    }
    result = USURP.odds(_args(USURP, "--power", "10", "--resistance", "10", "--controlled", "--no-swing"))
    assert result["odds"]["evicted"] == 1.0
    assert sum(result["odds"].values()) == pytest.approx(1)


def test_cli_relocate_discovery_shape() -> None:
    args = _args(RELOCATE_DISCOVERY, "--title", "ambassador")
    result = RELOCATE_DISCOVERY.run(args, ScriptedDice([20]))
    assert result == {
        "check": "relocate-discovery",
        "chance": 20,
        "natural": 20,
        "discovered": True,
    }
    assert list(result) == ["check", "chance", "natural", "discovered"]
    assert RELOCATE_DISCOVERY.run(args, ScriptedDice([21]))["discovered"] is False


@pytest.mark.parametrize(
    ("argv", "chance"),
    [
        (("--title", "Prince"), 80),
        (("--title", "prince", "--counter-spy", "nation"), 90),
        (("--high-priestess",), 60),
        (("--high-priestess", "--counter-spy", "Province"), 80),
    ],
)
def test_cli_relocate_discovery_chance(argv: tuple[str, ...], chance: int) -> None:
    result = RELOCATE_DISCOVERY.run(_args(RELOCATE_DISCOVERY, *argv), ScriptedDice([chance]))
    assert (result["chance"], result["discovered"]) == (chance, True)


def test_cli_relocate_discovery_needs_exactly_one_who() -> None:
    with pytest.raises(SystemExit):
        _args(RELOCATE_DISCOVERY)
    with pytest.raises(SystemExit):
        _args(RELOCATE_DISCOVERY, "--title", "Prince", "--high-priestess")


@pytest.mark.parametrize(
    ("argv", "flag"),
    [(("--title", "Emperor"), "--title"), (("--title", "Duke", "--counter-spy", "x"), "--counter")],
)
def test_cli_relocate_discovery_bad_input(argv: tuple[str, ...], flag: str) -> None:
    with pytest.raises(CheckInputError, match=f"^{flag}"):
        RELOCATE_DISCOVERY.run(_args(RELOCATE_DISCOVERY, *argv), ScriptedDice([1]))


def test_cli_relocate_discovery_odds() -> None:
    assert RELOCATE_DISCOVERY.odds is not None
    result = RELOCATE_DISCOVERY.odds(_args(RELOCATE_DISCOVERY, "--title", "Count"))
    assert result["check"] == "relocate-discovery"
    assert result["odds"] == {"discovered": 0.6, "undiscovered": 0.4}
    assert result["discovered"] == 0.6
