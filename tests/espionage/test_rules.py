"""Espionage (RULINGS §7): catalogue against the seed, both roll tables, modifiers, odds, CLI."""

from __future__ import annotations

import argparse
import re
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from yak_tui.areas.espionage.cli import add_arguments, odds, run
from yak_tui.areas.espionage.rules import (
    EspionageInputError,
    SpyModifiers,
    UnknownMission,
    catalogue,
    missing_prerequisite,
    mission,
    mission_cost,
    mission_odds,
    resolve_mission,
    spy_modifiers,
)
from yak_tui.kernel.play.checks import RESOLVE_CHECKS, CheckInputError
from yak_tui.kernel.play.dice import DiceError, Modifier, ScriptedDice
from yak_tui.kernel.world.tables import set_override_dir

# ------------------------------------------------------------------ the seed, transcribed
# (family heading, mission name, the seed's cost line, "Spy used up on attempt" line present)
# copied literally from seeds/002_8740068af15d2992.txt, "Espionage", in seed order.
SEED = [
    ("General Missions", "Establish Smuggling Ring", "Cost: 1d Success: 3 Detection: 4", False),
    ("General Missions", "Purge Administration", "Cost: 1d Success: 3 Detection: N/A", True),
    ("General Missions", "Fund Bandits", "Cost: 2d Success: 3 Detection: 3", False),
    ("General Missions", "Fund Privateers", "Cost: 4d Success: 3 Detection: 3", False),
    ("General Missions", "Counter-Spy", "Cost: 0d Success: N/A Detection: N/A", False),
    (
        "General Missions",
        "Assassinate Private Citizen",
        "Cost: 2d Success: N/A Detection: 4 (Special)",
        True,
    ),
    ("Counter-Espionage", "Infiltrate Spy Ring", "Cost: 1d Success: 3 Detect: 4", True),
    ("Counter-Espionage", "Create Security Breach", "Cost: 2d Success: 3 Detect: 3", False),
    ("Counter-Espionage", "Support Rebels", "Cost: 2d Success: 3 Detect: 3", False),
    ("Counter-Espionage", "Assassinate Enemy Spies", "Cost: 3d Success: 3 Detect: 4", False),
    ("Counter-Espionage", "Interfere with Academies", "Cost: 2d Success: 3 Detect: 4", False),
    ("Commercial Espionage", "Infiltrate Treasury", "Cost: 1d Success: 3 Detect: 4", True),
    ("Commercial Espionage", "Embezzlement", "Cost: 3d Success: 3 Detect: 4", False),
    ("Commercial Espionage", "Crash Commodity Market", "Cost: 5d Success: 3 Detect: 3", False),
    ("Commercial Espionage", "Limit Trade", "Cost: 3d Success: 3 Detect: 3", False),
    (
        "Commercial Espionage",
        "Inspire Commercial Animosity",
        "Cost: 3d Success: 3 Detect: 4",
        False,
    ),
    ("Naval Espionage", "Infiltrate Admiralty", "Cost: 1d Success: 3 Detect: 4", True),
    ("Naval Espionage", "Interfere with Shipbuilding", "Cost: 3d Success: 3 Detect: 4", False),
    ("Naval Espionage", "Cripple Naval Morale", "Cost: 2d Success: 3 Detect: 4", False),
    ("Naval Espionage", "Uncover Naval Disposition", "Cost: 4d Success: 4 Detect: 4", False),
    ("Naval Espionage", "Scuttle Ship", "Cost: 2d Success: 4 Detect: 5", False),
    ("Naval Espionage", "Suborn Captain", "Cost: 3d Success: 5 Detect: 6", False),
    ("Naval Espionage", "Control Admiralty", "Cost: 3d Success: 5 Detect: 6", True),
    ("Military Espionage", "Infiltrate General Staff", "Cost: 1d Success: 3 Detect: 4", True),
    ("Military Espionage", "Assassinate Engineers", "Cost: 3d Success: 3 Detect: 4", False),
    ("Military Espionage", "Cripple Military Morale", "Cost: 2d Success: 3 Detect: 4", False),
    ("Military Espionage", "Uncover Military Disposition", "Cost: 4d Success: 4 Detect: 4", False),
    ("Military Espionage", "Poison Regiment", "Cost: 2d Success: 4 Detect: 5", False),
    ("Military Espionage", "Suborn Commander", "Cost: 3d Success: 5 Detect: 6", False),
    ("Military Espionage", "Suborn General Staff", "Cost: 3d Success: 5 Detect: 6", True),
    ("State-Level Espionage", "Infiltrate Government", "Cost: 1d Success: 3 Detect: 4", True),
    ("State-Level Espionage", "Counterfeit Currency", "Cost: 2d Success: 3 Detect: 5", False),
    ("State-Level Espionage", "Assassinate Clergy", "Cost: 3d Success: 3 Detect: 4", False),
    (
        "State-Level Espionage",
        "Assassinate Noble/Bureaucrat",
        "Cost: 4d Success: N/A Detection: 4 (Special)",
        True,
    ),
    (
        "State-Level Espionage",
        "Assassinate Ruler",
        "Cost: 8d Success: N/A Detection: 5 (Special)",
        True,
    ),
]

FAMILY_OF_HEADING = {
    "General Missions": "general",
    "Counter-Espionage": "counter-espionage",
    "Commercial Espionage": "commercial",
    "Naval Espionage": "naval",
    "Military Espionage": "military",
    "State-Level Espionage": "state-level",
}

# RULINGS §7 prerequisite table.
PREREQUISITE_OF_FAMILY = {
    "general": None,
    "counter-espionage": "infiltrate-spy-ring",
    "commercial": "infiltrate-treasury",
    "naval": "infiltrate-admiralty",
    "military": "infiltrate-general-staff",
    "state-level": "infiltrate-government",
}

COST_LINE = re.compile(r"Cost: (\d+)d Success: (N/A|\d+) Detect(?:ion)?: (N/A|\d+)( \(Special\))?$")


def kebab(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def parse_cost_line(line: str) -> tuple[int, int | None, int | None, bool]:
    match = COST_LINE.match(line)
    assert match, line
    cost, success, detection, special = match.groups()
    return (
        int(cost),
        None if success == "N/A" else int(success),
        None if detection == "N/A" else int(detection),
        special is not None,
    )


# ------------------------------------------------------------------ catalogue


def test_catalogue_has_every_seed_mission_in_seed_order() -> None:
    missions = catalogue()
    assert len(missions) == 35
    assert list(missions) == [kebab(name) for _, name, _, _ in SEED]


def test_slug_examples() -> None:
    assert kebab("Assassinate Noble/Bureaucrat") == "assassinate-noble-bureaucrat"
    assert mission("assassinate-noble-bureaucrat").name == "Assassinate Noble/Bureaucrat"
    assert mission("establish-smuggling-ring").family == "general"


@pytest.mark.parametrize(("heading", "name", "line", "used_up"), SEED, ids=[s[1] for s in SEED])
def test_mission_matches_seed(heading: str, name: str, line: str, used_up: bool) -> None:
    cost, success, detection, special = parse_cost_line(line)
    entry = mission(kebab(name))
    assert entry.name == name
    assert entry.family == FAMILY_OF_HEADING[heading]
    assert entry.cost == cost
    assert entry.success_target == success
    assert entry.detection_target == detection
    assert entry.detection_special is special
    # Counter-Spy's spy "is destroyed thereafter" and cannot be removed: used up (TOML ruling).
    assert entry.spy_used_up is (used_up or name == "Counter-Spy")
    assert entry.assassination_attempt is (name.startswith("Assassinate") and success is None)


@pytest.mark.parametrize(("heading", "name", "line", "used_up"), SEED, ids=[s[1] for s in SEED])
def test_prerequisites_follow_rulings_table(heading: str, name: str, line: str, used_up: bool) -> None:
    entry = mission(kebab(name))
    expected = PREREQUISITE_OF_FAMILY[entry.family]
    if entry.slug.startswith("infiltrate-"):
        expected = None
    assert entry.prerequisite == expected
    infiltration = entry.slug.startswith("infiltrate-") or entry.slug in (
        "control-admiralty",
        "suborn-general-staff",
    )
    assert entry.is_infiltration is infiltration
    if infiltration:
        assert entry.effect == "infiltration"


def test_effects_and_parameters() -> None:
    kinds = {m.effect for m in catalogue().values()}
    assert kinds == {
        "infiltration", "smuggling-ring", "purge", "bandits", "privateers", "counter-spy",
        "assassination", "security-breach", "rebels", "kill-spies", "academy-interference",
        "embezzlement", "crash-market", "limit-trade", "commercial-animosity", "shipbuilding",
        "naval-morale", "naval-disposition", "scuttle", "suborn-ship", "military-morale",
        "military-disposition", "poison-regiment", "suborn-regiment", "kill-engineers",
        "counterfeit", "kill-missionaries",
    }  # fmt: skip
    assert mission("assassinate-enemy-spies").params["spies"] == 2
    assert mission("cripple-naval-morale").params["morale"] == -2
    assert mission("limit-trade").params["market_allowance"] == -10
    assert mission("crash-commodity-market").params["increments"] == 3
    embezzle = mission("embezzlement").params
    assert (embezzle["treasury_divisor"], embezzle["minimum_ducats"]) == (5, 10)
    assert embezzle["sponsor_share_divisor"] == 2
    assert mission("counterfeit-currency").params["debt"] == 5
    durations = {m.slug: m.duration_seasons for m in catalogue().values() if m.duration_seasons}
    assert durations == {
        "establish-smuggling-ring": 4,
        "crash-commodity-market": 4,
        "inspire-commercial-animosity": 4,
    }


@pytest.mark.parametrize(
    ("slug", "extras", "ducats"),
    [
        ("fund-bandits", {}, 2),
        ("fund-bandits", {"bandit-regiment": 3}, 8),
        ("fund-privateers", {"privateer-ship": 2}, 12),
        ("support-rebels", {"infantry-regiment": 1}, 4),
        ("assassinate-private-citizen", {"poison": 1}, 5),
        ("assassinate-ruler", {"poison": 1}, 11),
        ("counter-spy", None, 0),
    ],
)
def test_mission_cost_with_extras(slug: str, extras: dict[str, int] | None, ducats: int) -> None:
    assert mission_cost(slug, extras) == ducats


def test_mission_cost_rejects_bad_extras() -> None:
    with pytest.raises(EspionageInputError, match="offers no extra"):
        mission_cost("embezzlement", {"poison": 1})
    with pytest.raises(EspionageInputError, match="at most 1"):
        mission_cost("assassinate-ruler", {"poison": 2})


def test_missing_prerequisite() -> None:
    assert missing_prerequisite("embezzlement", set()) == "infiltrate-treasury"
    assert missing_prerequisite("embezzlement", {"infiltrate-treasury"}) is None
    assert missing_prerequisite("infiltrate-treasury", set()) is None
    assert missing_prerequisite("support-rebels", {"infiltrate-treasury"}) == "infiltrate-spy-ring"


def test_unknown_mission_lists_close_matches() -> None:
    with pytest.raises(UnknownMission) as caught:
        mission("fund-bandit")
    assert "fund-bandits" in caught.value.close
    assert "fund-bandit" in str(caught.value) and "fund-bandits" in str(caught.value)


# ------------------------------------------------------------------ the two roll tables


def roll(slug: str, success_total: int | None, detection_total: int | None) -> Any:
    """Resolve with totals hit exactly: natural 3 plus a modifier of (total - 3)."""
    naturals: list[int] = []
    success_mods: list[Modifier] = []
    detection_mods: list[Modifier] = []
    if success_total is not None:
        naturals.append(3)
        success_mods = [Modifier(success_total - 3, "test")]
    if detection_total is not None:
        naturals.append(3)
        detection_mods = [Modifier(detection_total - 3, "test")]
    dice = ScriptedDice(naturals)
    outcome = resolve_mission(slug, dice, success_mods, detection_mods)
    assert dice.remaining == 0
    return outcome


# Success offsets from T, with detection at D+1 (clean escape if the spy's fate is unsettled).
@pytest.mark.parametrize("slug", ["fund-bandits", "uncover-naval-disposition", "suborn-captain"])
@pytest.mark.parametrize(
    ("offset", "outcome", "spy"),
    [
        (-5, "failure", "captured"),
        (-3, "failure", "captured"),
        (-2, "failure", "escaped"),
        (-1, "failure", "escaped"),
        (0, "success", "escaped"),
        (2, "success", "escaped"),
        (3, "success", "escaped"),
        (5, "success", "escaped"),
    ],
)
def test_success_band_edges(slug: str, offset: int, outcome: str, spy: str) -> None:
    entry = mission(slug)
    assert entry.success_target is not None and entry.detection_target is not None
    result = roll(slug, entry.success_target + offset, entry.detection_target + 1)
    assert result.outcome == outcome
    assert result.spy == spy
    assert result.evidence == ("detected" if spy == "captured" else "undetected")
    assert result.success is (outcome == "success")


@pytest.mark.parametrize(
    ("offset", "band"),
    [(-4, "fails-spy-captured"), (-3, "fails-spy-captured"), (-2, "fails"), (-1, "fails"),
     (0, "succeeds"), (2, "succeeds"), (3, "succeeds-spy-escapes"), (4, "succeeds-spy-escapes")],
)  # fmt: skip
def test_success_band_names(offset: int, band: str) -> None:
    result = roll("scuttle-ship", 4 + offset, 5)
    assert result.success_roll.band == band
    assert result.success_roll.target == 4


# Detection offsets from D when the success roll left the spy's fate open (T .. T+2 and T-2..T-1).
@pytest.mark.parametrize("success_offset", [-2, -1, 0, 1, 2])
@pytest.mark.parametrize(
    ("offset", "spy", "evidence", "band"),
    [
        (-4, "captured", "identified", "captured-identified"),
        (-2, "captured", "identified", "captured-identified"),
        (-1, "captured", "detected", "captured-silent"),
        (0, "escaped", "detected", "escaped-detected"),
        (1, "escaped", "undetected", "escaped-undetected"),
        (3, "escaped", "undetected", "escaped-undetected"),
    ],
)
def test_detection_band_edges(success_offset: int, offset: int, spy: str, evidence: str, band: str) -> None:
    result = roll("poison-regiment", 4 + success_offset, 5 + offset)  # T 4, D 5
    assert result.outcome == ("success" if success_offset >= 0 else "failure")
    assert result.spy == spy
    assert result.evidence == evidence
    assert result.detection_roll.band == band
    assert result.spy_lost is (spy == "captured")
    assert result.spy_cold is (spy == "escaped")


# Guaranteed capture/escape: detection settles only the evidence.
@pytest.mark.parametrize(
    ("success_offset", "detection_offset", "outcome", "spy", "evidence"),
    [
        (-3, -2, "failure", "captured", "identified"),
        (-3, -1, "failure", "captured", "detected"),
        (-3, 0, "failure", "captured", "detected"),
        (-3, 1, "failure", "captured", "detected"),  # a captured spy is evidence itself
        (-3, 3, "failure", "captured", "detected"),
        (3, -3, "success", "escaped", "identified"),
        (3, -2, "success", "escaped", "identified"),
        (3, -1, "success", "escaped", "detected"),
        (3, 0, "success", "escaped", "detected"),
        (3, 1, "success", "escaped", "undetected"),
    ],
)
def test_guaranteed_capture_or_escape(
    success_offset: int, detection_offset: int, outcome: str, spy: str, evidence: str
) -> None:
    result = roll("fund-bandits", 3 + success_offset, 3 + detection_offset)
    assert (result.outcome, result.spy, result.evidence) == (outcome, spy, evidence)
    assert result.spy_lost is (spy == "captured")
    assert result.spy_cold is (spy == "escaped")


def test_escaped_spy_on_used_up_mission_is_lost_not_cold() -> None:
    result = roll("infiltrate-treasury", 6, 5)
    assert (result.outcome, result.spy, result.evidence) == ("success", "escaped", "undetected")
    assert result.spy_lost is True
    assert result.spy_cold is False


def test_naturals_do_not_override_totals() -> None:
    """No RtD natural-1/6 rule: a natural 1 at +5 is a total 6, a natural 6 at -5 a total 1."""
    high = resolve_mission("fund-bandits", ScriptedDice([1, 1]), [Modifier(5, "t")], [Modifier(5, "t")])
    assert (high.outcome, high.spy, high.evidence) == ("success", "escaped", "undetected")
    low = resolve_mission("fund-bandits", ScriptedDice([6, 6]), [Modifier(-5, "t")], [Modifier(-5, "t")])
    assert (low.outcome, low.spy, low.evidence) == ("failure", "captured", "identified")


def test_dice_order_success_then_detection() -> None:
    first = resolve_mission("suborn-captain", ScriptedDice([6, 1]))
    assert first.success_roll is not None and first.detection_roll is not None
    assert (first.success_roll.natural, first.detection_roll.natural) == (6, 1)
    assert (first.outcome, first.spy, first.evidence) == ("success", "captured", "identified")
    second = resolve_mission("suborn-captain", ScriptedDice([1, 6]))
    assert (second.outcome, second.spy, second.evidence) == ("failure", "captured", "detected")


def test_modifiers_are_recorded_with_reasons() -> None:
    mods = [Modifier(-2, "province counter-spy")]
    result = resolve_mission("fund-bandits", ScriptedDice([4, 5]), mods, [Modifier(1, "gm")])
    assert result.success_roll is not None and result.detection_roll is not None
    assert result.success_roll.modifiers == mods
    assert (result.success_roll.total, result.detection_roll.total) == (2, 6)


# ------------------------------------------------------------------ N/A missions


@pytest.mark.parametrize("slug", ["assassinate-private-citizen", "assassinate-noble-bureaucrat",
                                  "assassinate-ruler"])  # fmt: skip
@pytest.mark.parametrize(
    ("offset", "evidence"),
    [(-3, "identified"), (-2, "identified"), (-1, "detected"), (0, "detected"),
     (1, "undetected"), (2, "undetected")],
)  # fmt: skip
def test_assassinations_roll_only_detection(slug: str, offset: int, evidence: str) -> None:
    entry = mission(slug)
    assert entry.detection_target is not None
    result = roll(slug, None, entry.detection_target + offset)
    assert result.success_roll is None
    assert result.outcome == "not-rolled"
    assert result.spy is None
    assert result.evidence == evidence
    assert result.spy_lost is True
    assert result.spy_cold is False
    assert result.assassination_attempt is True


def test_assassination_takes_exactly_one_die() -> None:
    with pytest.raises(DiceError):
        resolve_mission("assassinate-ruler", ScriptedDice([]))
    dice = ScriptedDice([4, 4])
    resolve_mission("assassinate-ruler", dice)
    assert dice.used == 1


def test_counter_spy_rolls_nothing() -> None:
    dice = ScriptedDice([])
    result = resolve_mission("counter-spy", dice)
    assert dice.used == 0
    assert (result.success_roll, result.detection_roll) == (None, None)
    assert (result.outcome, result.spy, result.evidence) == ("not-rolled", None, "not-rolled")
    assert result.spy_lost is True
    assert result.assassination_attempt is False


@pytest.mark.parametrize(
    ("total", "outcome", "spy"),
    [(0, "failure", "captured"), (1, "failure", None), (2, "failure", None),
     (3, "success", None), (5, "success", None), (6, "success", "escaped")],
)  # fmt: skip
def test_purge_reports_success_to_the_sponsor(total: int, outcome: str, spy: str | None) -> None:
    result = roll("purge-administration", total, None)
    assert result.detection_roll is None
    assert result.outcome == outcome
    assert result.reported_outcome == "success"
    assert result.spy == spy
    assert result.evidence == "not-rolled"
    assert result.spy_lost is True
    assert mission("purge-administration").params["sponsor_told"] == "cleared"


def test_other_missions_report_their_true_outcome() -> None:
    assert roll("fund-bandits", 1, 4).reported_outcome == "failure"
    assert roll("fund-bandits", 4, 4).reported_outcome == "success"
    assert roll("assassinate-ruler", None, 4).reported_outcome == "not-rolled"


# ------------------------------------------------------------------ modifiers


@pytest.mark.parametrize(
    ("province", "nation", "value", "spent"),
    [(True, True, -2, "province"), (True, False, -2, "province"),
     (False, True, -1, "nation"), (False, False, 0, None)],
)  # fmt: skip
def test_counter_spies_never_stack(province: bool, nation: bool, value: int, spent: str | None) -> None:
    applied = spy_modifiers(SpyModifiers(province_counter_spy=province, nation_counter_spy=nation))
    assert sum(m.value for m in applied.success) == value
    assert sum(m.value for m in applied.detection) == value
    assert len(applied.success) == (1 if spent else 0)
    assert applied.counter_spy_spent == spent


def test_all_modifiers_together() -> None:
    gm = Modifier(1, "bad weather for the guards")
    applied = spy_modifiers(
        SpyModifiers(
            nation_counter_spy=True,
            spy_ring_infiltrated_by_target=True,
            security_breach=True,
            gm_modifiers=[gm],
            success_modifier=2,
            detection_modifier=-3,
        )
    )
    assert [m.value for m in applied.success] == [-1, -1, 2, 1, 2]
    assert [m.value for m in applied.detection] == [-1, -1, 2, 1, -3]
    assert gm in applied.success and gm in applied.detection
    assert applied.security_breach_spent is True
    assert applied.counter_spy_spent == "nation"
    assert spy_modifiers(SpyModifiers()).security_breach_spent is False


def test_counter_spy_values_are_data(tmp_path: Path) -> None:
    (tmp_path / "espionage.toml").write_text("[modifiers]\nnation_counter_spy = -3\n")
    set_override_dir(str(tmp_path))
    try:
        applied = spy_modifiers(SpyModifiers(province_counter_spy=True, nation_counter_spy=True))
        assert applied.counter_spy_spent == "nation"
        assert [m.value for m in applied.success] == [-3]
        assert len(catalogue()) == 35
    finally:
        set_override_dir(None)


# ------------------------------------------------------------------ odds


@pytest.mark.parametrize("slug", [kebab(name) for _, name, _, _ in SEED])
@pytest.mark.parametrize(("smod", "dmod"), [(0, 0), (-2, -1), (3, 2)])
def test_odds_sum_to_one(slug: str, smod: int, dmod: int) -> None:
    result = mission_odds(slug, smod, dmod)
    assert sum(result.outcome.values()) == 1
    assert sum(result.spy.values()) == 1
    assert sum(result.evidence.values()) == 1
    assert 0 <= result.success_and_undetected <= result.outcome["success"]


def test_odds_exact_values_suborn_captain() -> None:
    result = mission_odds("suborn-captain")  # T 5, D 6
    assert result.outcome == {
        "success": Fraction(1, 3), "failure": Fraction(2, 3), "not-rolled": Fraction(0),
    }  # fmt: skip
    # captured: success total <= 2 (2/6); else (4/6 left open) detection <= D-1 = 5 (5/6)
    assert result.spy == {
        "captured": Fraction(2, 6) + Fraction(4, 6) * Fraction(5, 6),
        "escaped": Fraction(4, 6) * Fraction(1, 6),
        "none": Fraction(0),
    }
    assert result.evidence == {
        "identified": Fraction(4, 6),
        "detected": Fraction(2, 6),
        "undetected": Fraction(0),
        "not-rolled": Fraction(0),
    }
    assert result.success_and_undetected == 0
    assert result.spy_lost == result.spy["captured"]


def test_odds_exact_values_fund_bandits() -> None:
    result = mission_odds("fund-bandits", 0, 0)  # T 3, D 3
    assert result.outcome["success"] == Fraction(4, 6)
    # no capture by success (total <= 0 impossible); naturals 1-5 leave it to detection <= 2
    assert result.spy["captured"] == Fraction(5, 6) * Fraction(2, 6)
    assert result.spy["escaped"] == Fraction(1, 6) + Fraction(5, 6) * Fraction(4, 6)
    # success on 3-5 and detection >= 4, or success on 6 (escaped) and detection >= 4
    assert result.success_and_undetected == Fraction(4, 6) * Fraction(3, 6)


def test_odds_assassination_and_counter_spy() -> None:
    ruler = mission_odds("assassinate-ruler")  # D 5
    assert ruler.outcome["not-rolled"] == 1
    assert ruler.spy["none"] == 1
    assert ruler.evidence["identified"] == Fraction(3, 6)
    assert ruler.evidence["undetected"] == Fraction(1, 6)
    assert ruler.spy_lost == 1
    counter = mission_odds("counter-spy")
    assert counter.evidence["not-rolled"] == 1 and counter.spy_lost == 1


# ------------------------------------------------------------------ CLI


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(list(argv))


RUN_KEYS = [
    "check", "mission", "success_target", "detection_target", "success_roll", "detection_roll",
    "outcome", "spy", "evidence", "spy_lost",
]  # fmt: skip


def test_cli_registered() -> None:
    check = RESOLVE_CHECKS["spy"]
    assert check.run is run and check.odds is odds and check.add_arguments is add_arguments


def test_cli_run_shape() -> None:
    data = run(parse("--mission", "scuttle-ship", "--success-modifier", "1"), ScriptedDice([4, 5]))
    assert list(data) == RUN_KEYS
    assert data == {
        "check": "spy",
        "mission": "scuttle-ship",
        "success_target": 4,
        "detection_target": 5,
        "success_roll": {"natural": 4, "total": 5},
        "detection_roll": {"natural": 5, "total": 5},
        "outcome": "success",
        "spy": "escaped",
        "evidence": "detected",
        "spy_lost": False,
    }


def test_cli_detection_modifier() -> None:
    data = run(parse("--mission", "scuttle-ship", "--detection-modifier", "-2"), ScriptedDice([4, 5]))
    assert data["detection_roll"] == {"natural": 5, "total": 3}
    assert (data["spy"], data["evidence"], data["spy_lost"]) == ("captured", "identified", True)


def test_cli_run_na_missions() -> None:
    data = run(parse("--mission", "assassinate-ruler"), ScriptedDice([6]))
    assert list(data) == RUN_KEYS
    assert data["success_target"] is None and data["success_roll"] is None
    assert data["detection_roll"] == {"natural": 6, "total": 6}
    assert (data["outcome"], data["spy"], data["evidence"]) == ("not-rolled", None, "undetected")
    assert data["spy_lost"] is True
    purge = run(parse("--mission", "purge-administration"), ScriptedDice([2]))
    assert purge["detection_target"] is None and purge["detection_roll"] is None
    assert (purge["outcome"], purge["evidence"]) == ("failure", "not-rolled")
    counter = run(parse("--mission", "counter-spy"), ScriptedDice([]))
    assert counter["success_roll"] is None and counter["detection_roll"] is None


def test_cli_list() -> None:
    data = run(parse("--list"), ScriptedDice([]))
    assert list(data) == ["check", "missions"]
    assert data["check"] == "spy"
    assert [m["slug"] for m in data["missions"]] == [kebab(name) for _, name, _, _ in SEED]
    first = data["missions"][0]
    assert list(first) == [
        "slug", "name", "family", "cost", "success_target", "detection_target",
        "detection_special", "prerequisite", "spy_used_up", "extras", "effect",
        "duration_seasons",
    ]  # fmt: skip
    by_slug = {m["slug"]: m for m in data["missions"]}
    assert by_slug["fund-bandits"]["extras"] == [{"kind": "bandit-regiment", "ducats_each": 2}]
    assert by_slug["assassinate-ruler"]["extras"] == [{"kind": "poison", "ducats_each": 3, "max": 1}]
    assert by_slug["embezzlement"]["prerequisite"] == "infiltrate-treasury"
    assert by_slug["establish-smuggling-ring"]["duration_seasons"] == 4


def test_cli_odds_shape() -> None:
    data = odds(parse("--mission", "fund-bandits"))
    assert list(data)[:3] == ["check", "mission", "odds"]
    assert (data["check"], data["mission"]) == ("spy", "fund-bandits")
    assert list(data["odds"]) == ["outcome", "spy", "evidence"]
    assert list(data["odds"]["outcome"]) == ["success", "failure", "not-rolled"]
    assert list(data["odds"]["spy"]) == ["captured", "escaped", "none"]
    assert list(data["odds"]["evidence"]) == ["identified", "detected", "undetected", "not-rolled"]
    assert data["odds"]["outcome"]["success"] == round(4 / 6, 6)
    for part in data["odds"].values():
        assert sum(part.values()) == pytest.approx(1, abs=1e-5)


def test_cli_odds_uses_modifiers() -> None:
    plain = odds(parse("--mission", "fund-bandits"))
    harder = odds(parse("--mission", "fund-bandits", "--success-modifier", "-2"))
    assert harder["odds"]["outcome"]["success"] < plain["odds"]["outcome"]["success"]


def test_cli_errors() -> None:
    with pytest.raises(CheckInputError, match="--mission: unknown spy mission 'fund-bandit'"):
        run(parse("--mission", "fund-bandit"), ScriptedDice([3, 3]))
    with pytest.raises(CheckInputError, match="fund-bandits"):
        odds(parse("--mission", "fund-bandit"))
    with pytest.raises(CheckInputError, match="--mission"):
        run(parse(), ScriptedDice([3, 3]))
    with pytest.raises(CheckInputError, match="--list"):
        odds(parse("--list"))
