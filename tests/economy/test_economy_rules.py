"""Economy rules (RULINGS §5–§6) and the competition / conversion / market-sale checks."""

from __future__ import annotations

import argparse
import itertools
import math
from fractions import Fraction
from typing import Any

import pytest

from yak_tui.areas.economy import cli as resolve_economy
from yak_tui.areas.economy import rules as eco
from yak_tui.areas.economy import specialist_rules
from yak_tui.areas.economy.rules import Rival
from yak_tui.kernel.play.checks import RESOLVE_CHECKS, CheckInputError
from yak_tui.kernel.play.dice import DiceError, Modifier, ScriptedDice, exact_odds
from yak_tui.kernel.play.rtd import BANDS

# ---------------------------------------------------------------------------------------------
# Sectors, expansion, income, dismantling
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sector", "sizes", "cost"),
    [
        ("industrial", 1, 3),
        ("commercial", 1, 3),
        ("service", 1, 4),
        ("industrial", 0, 0),
        ("commercial", 5, 15),
        ("service", 3, 12),
    ],
)
def test_expansion_cost(sector: str, sizes: int, cost: int) -> None:
    assert eco.expansion_cost(sector, sizes) == cost


def test_expansion_cost_default_is_one_size() -> None:
    assert eco.expansion_cost("service") == 4


@pytest.mark.parametrize("bad", [("farming", 1), ("industrial", -1)])
def test_expansion_cost_rejects(bad: tuple[str, int]) -> None:
    with pytest.raises(ValueError, match=r"sector|sizes"):
        eco.expansion_cost(*bad)


def test_sectors_listed() -> None:
    assert eco.sectors() == ("industrial", "commercial", "service")


@pytest.mark.parametrize(
    ("potential", "used", "room", "compete"),
    [(5, 0, 5, False), (5, 4, 1, False), (5, 5, 0, True), (5, 7, 0, True), (0, 0, 0, True)],
)
def test_sector_room(potential: int, used: int, room: int, compete: bool) -> None:
    assert eco.sector_room(potential, used) == room
    assert eco.needs_competition(potential, used) is compete


def test_needs_competition_for_several_sizes() -> None:
    assert eco.needs_competition(5, 3, sizes=2) is False
    assert eco.needs_competition(5, 4, sizes=2) is True


@pytest.mark.parametrize(
    ("size", "rate", "tax", "income"),
    [
        (5, 0, 0, 5),
        (5, 10, 0, 5),  # floor(0.5): rounding favours the owner
        (5, 20, 1, 4),
        (7, 50, 3, 4),  # floor(3.5) = 3
        (10, 25, 2, 8),
        (4, 100, 4, 0),
        (0, 30, 0, 0),
    ],
)
def test_business_income(size: int, rate: int, tax: int, income: int) -> None:
    assert eco.business_tax(size, rate) == tax
    assert eco.business_income(size, rate) == income


def test_business_income_untaxed_by_default() -> None:
    assert eco.business_income(6) == 6


@pytest.mark.parametrize("rate", [-1, 101])
def test_business_tax_rate_range(rate: int) -> None:
    with pytest.raises(ValueError, match="rate"):
        eco.business_income(5, rate)


@pytest.mark.parametrize(("invested", "value"), [(0, 0), (1, 0), (3, 1), (9, 4), (12, 6)])
def test_dismantle_value(invested: int, value: int) -> None:
    assert eco.dismantle_value(invested) == value


# ---------------------------------------------------------------------------------------------
# Monopolies
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "penalties"),
    [
        ("trade", {"trade": -2, "urban": 0}),
        ("service", {"trade": 0, "urban": -2}),
        ("goods", {"trade": -2, "urban": -2}),
    ],
)
def test_monopoly_penalties(kind: str, penalties: dict[str, int]) -> None:
    assert eco.monopoly_penalties(kind) == penalties


def test_monopoly_bonus_and_unknown_kind() -> None:
    assert eco.monopoly_bonus() == 3
    with pytest.raises(ValueError, match="monopoly"):
        eco.monopoly_penalties("salt")


# ---------------------------------------------------------------------------------------------
# Competition
# ---------------------------------------------------------------------------------------------


def _compete(dice: list[int], rivals: list[Rival], monopoly: bool = False, size: int = 2) -> eco.CompetitionOutcome:
    scripted = ScriptedDice(dice)
    outcome = eco.competition(scripted, "me", size, monopoly, rivals)
    assert scripted.remaining == 0  # exactly one die per business
    return outcome


@pytest.mark.parametrize(
    ("dice", "loser"),
    [
        ([4, 3], "a"),  # one below: loses
        ([4, 4], None),  # equal is not lower
        ([4, 5], None),
        ([1, 1], None),  # nobody can roll below a 1
        ([6, 5], "a"),
    ],
)
def test_competition_single_rival(dice: list[int], loser: str | None) -> None:
    outcome = _compete(dice, [Rival("a", 3)])
    assert outcome.loser == loser
    assert outcome.expander_gains is (loser is not None)
    assert outcome.expander_roll == dice[0]
    assert outcome.rolls == {"a": dice[1]}


def test_competition_dice_order_expander_then_rivals_as_listed() -> None:
    outcome = _compete([5, 4, 2, 3], [Rival("a", 1), Rival("b", 1), Rival("c", 1)])
    assert outcome.expander_natural == 5
    assert outcome.naturals == {"a": 4, "b": 2, "c": 3}
    assert list(outcome.rolls) == ["a", "b", "c"]
    assert outcome.loser == "b"
    assert outcome.size_changes == {"me": 1, "b": -1}
    assert outcome.loser_eliminated is True


def test_competition_lowest_loses_not_first_below() -> None:
    outcome = _compete([6, 5, 1], [Rival("a", 4), Rival("b", 1)])
    assert outcome.loser == "b"


def test_competition_tie_for_lowest_largest_size_loses() -> None:
    outcome = _compete([5, 2, 2, 4], [Rival("small", 1), Rival("big", 3), Rival("mid", 2)])
    assert outcome.loser == "big"
    assert outcome.size_changes == {"me": 1, "big": -1}
    assert outcome.loser_eliminated is False


def test_competition_tie_on_size_too_first_listed_loses() -> None:
    outcome = _compete([5, 3, 2, 2], [Rival("a", 2), Rival("b", 2), Rival("c", 2)])
    assert outcome.loser == "b"
    # Reversed listing reverses the loser: the ruling is "first listed".
    outcome = _compete([5, 3, 2, 2], [Rival("a", 2), Rival("c", 2), Rival("b", 2)])
    assert outcome.loser == "c"


def test_competition_tie_only_counts_among_the_lowest() -> None:
    # "big" ties on 3 but "small" is lower at 2: the lowest loses, whatever the Size.
    outcome = _compete([5, 3, 2], [Rival("big", 5), Rival("small", 1)])
    assert outcome.loser == "small"


def test_competition_expander_monopoly_adds_three() -> None:
    outcome = _compete([2, 4], [Rival("a", 2)], monopoly=True)
    assert outcome.expander_roll == 5
    assert outcome.expander_modifiers == (Modifier(3, "monopoly"),)
    assert outcome.loser == "a"


def test_competition_rival_monopoly_adds_three() -> None:
    outcome = _compete([6, 2, 4], [Rival("m", 1, monopoly=True), Rival("b", 1)])
    assert outcome.rolls == {"m": 5, "b": 4}
    assert outcome.rival_modifiers["m"] == (Modifier(3, "monopoly"),)
    assert outcome.rival_modifiers["b"] == ()
    assert outcome.loser == "b"


def test_competition_rival_monopoly_can_block_a_six() -> None:
    outcome = _compete([6, 3], [Rival("m", 4, monopoly=True)])
    assert outcome.rolls == {"m": 6}
    assert outcome.loser is None
    assert outcome.size_changes == {}


def test_competition_both_monopolies() -> None:
    outcome = _compete([4, 3], [Rival("m", 4, monopoly=True)], monopoly=True)
    assert (outcome.expander_roll, outcome.rolls, outcome.loser) == (7, {"m": 6}, "m")


def test_competition_without_rivals_fails() -> None:
    outcome = _compete([6], [])
    assert outcome.loser is None and outcome.expander_gains is False


@pytest.mark.parametrize(
    "rivals",
    [
        [Rival("a", 1), Rival("a", 2)],
        [Rival("me", 1)],
        [Rival("a", 0)],
    ],
)
def test_competition_rejects_bad_rivals(rivals: list[Rival]) -> None:
    with pytest.raises(ValueError):
        eco.competition(ScriptedDice([3, 3, 3]), "me", 1, False, rivals)


def test_competition_needs_a_die_per_business() -> None:
    with pytest.raises(DiceError):
        eco.competition(ScriptedDice([4, 3]), "me", 1, False, [Rival("a", 1), Rival("b", 1)])


def _brute_force(monopoly: bool, rivals: list[Rival]) -> dict[str | None, Fraction]:
    counts: dict[str | None, Fraction] = {}
    n = len(rivals) + 1
    for faces in itertools.product(range(1, 7), repeat=n):
        loser = eco.competition(ScriptedDice(faces), "me", 1, monopoly, rivals).loser
        counts[loser] = counts.get(loser, Fraction(0)) + Fraction(1, 6**n)
    return counts


def test_competition_odds_single_rival_exact() -> None:
    odds = eco.competition_odds(False, [Rival("a", 1)])
    assert odds.expander_gains == pytest.approx(15 / 36, abs=1e-6)
    assert odds.losers == {"a": pytest.approx(15 / 36, abs=1e-6)}
    assert odds.fails == pytest.approx(21 / 36, abs=1e-6)


@pytest.mark.parametrize(
    ("monopoly", "rivals"),
    [
        (False, [Rival("a", 2), Rival("b", 2)]),
        (True, [Rival("a", 1), Rival("b", 3, monopoly=True)]),
        (False, [Rival("a", 1, True), Rival("b", 3), Rival("c", 3)]),
    ],
)
def test_competition_odds_match_brute_force_and_sum_to_one(monopoly: bool, rivals: list[Rival]) -> None:
    expected = _brute_force(monopoly, rivals)
    odds = eco.competition_odds(monopoly, rivals)
    for rival in rivals:
        assert odds.losers[rival.id] == pytest.approx(float(expected.get(rival.id, 0)), abs=1e-6)
    assert odds.fails == pytest.approx(float(expected.get(None, 0)), abs=1e-6)
    assert sum(odds.losers.values()) + odds.fails == pytest.approx(1, abs=1e-5)
    assert odds.expander_gains == pytest.approx(1 - odds.fails, abs=1e-6)


def test_competition_odds_monopoly_rival_against_plain_expander() -> None:
    # The monopoly totals 4..9: only a 5 (beats 4) or a 6 (beats 4 and 5) win, 3 cases of 36.
    odds = eco.competition_odds(False, [Rival("m", 1, monopoly=True)])
    assert odds.losers["m"] == pytest.approx(3 / 36, abs=1e-6)


_FACE_CASES = [
    *itertools.product([False, True], repeat=2),
    *itertools.product([False, True], repeat=3),
    *itertools.product([False, True], repeat=4),
    (False, True, False, False, True),
    (True, False, False, True, False),
    (False, False, True, False, False, True),
]


@pytest.mark.parametrize("mons", _FACE_CASES)
def test_competition_face_formula_equals_enumeration(mons: tuple[bool, ...]) -> None:
    """The closed form used for many rivals gives exactly the enumerated fractions.

    `mons[0]` is the expander's monopoly, the rest one rival each; Sizes repeat so ties on Size
    are exercised.
    """
    rivals = [Rival(f"r{i}", (i * 7) % 3 + 1, mon) for i, mon in enumerate(mons[1:])]
    enumerated = exact_odds(lambda d: eco.competition(d, "e", 1, mons[0], rivals), lambda o: o.loser)
    closed = eco._competition_odds_by_faces(mons[0], rivals)
    assert {k: v for k, v in closed.items() if v} == enumerated


def test_competition_odds_many_rivals_is_fast_and_sums_to_one() -> None:
    rivals = [Rival(f"r{i}", i % 3 + 1, i == 4) for i in range(10)]
    odds = eco.competition_odds(False, rivals)
    assert list(odds.losers) == [r.id for r in rivals]
    assert sum(odds.losers.values()) + odds.fails == pytest.approx(1, abs=1e-5)


# ---------------------------------------------------------------------------------------------
# Production and the market
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("base", "cost"), [(1, 1), (2, 1), (4, 1), (5, 1), (6, 2), (9, 5), (12, 8)])
def test_production_cost(base: int, cost: int) -> None:
    assert eco.production_cost(base) == cost


def test_production_cost_for_several_goods_and_limit() -> None:
    assert eco.production_cost(8, goods=3) == 12
    assert eco.production_limit(0) == 0
    assert eco.production_limit(4) == 4


@pytest.mark.parametrize(("natural", "price"), [(1, 4), (2, 5), (3, 5), (4, 5), (5, 5), (6, 6)])
def test_market_sale_faces(natural: int, price: int) -> None:
    sale = eco.market_sale(ScriptedDice([natural]), 5)
    assert sale == (natural, price)
    assert (sale.natural, sale.price) == (natural, price)


def test_market_sale_base_one_can_sell_for_nothing() -> None:
    assert eco.market_sale(ScriptedDice([1]), 1).price == 0


def test_market_sale_rejects_zero_base() -> None:
    with pytest.raises(ValueError, match="base"):
        eco.market_sale(ScriptedDice([3]), 0)


def test_market_sale_odds() -> None:
    odds = eco.market_sale_odds(5)
    assert list(odds) == [4, 5, 6]
    assert odds == {
        4: pytest.approx(1 / 6, abs=1e-6),
        5: pytest.approx(4 / 6, abs=1e-6),
        6: pytest.approx(1 / 6, abs=1e-6),
    }
    assert sum(odds.values()) == pytest.approx(1, abs=1e-5)


def test_commodities_cover_the_named_goods() -> None:
    goods = eco.commodities()
    for name in [
        "Grain",
        "Fish",
        "Timber",
        "Iron",
        "Wine",
        "Wool",
        "Cloth",
        "Salt",
        "Spices",
        "Horses",
        "Slaves",
        "Gold",
        "Silver",
        "Stone",
        "Furs",
        "Gunpowder",
    ]:
        assert goods[name] >= 1
    assert eco.commodity_price("grain") == goods["Grain"]
    with pytest.raises(ValueError, match="trade good"):
        eco.commodity_price("Unobtainium")


# ---------------------------------------------------------------------------------------------
# Credit, loans, liquidation
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "limit"), [(0, 0), (3, 0), (4, 12), (5, 15), (8, 24)])
def test_credit_limit(size: int, limit: int) -> None:
    assert eco.credit_limit(size) == limit


@pytest.mark.parametrize("sector", ["industrial", "service"])
def test_credit_only_commercial(sector: str) -> None:
    assert eco.credit_limit(10, sector) == 0
    assert eco.loan_limit(10, sector) == 0


def test_credit_due_after_four_seasons() -> None:
    assert eco.credit_due_seasons() == 4


@pytest.mark.parametrize(("size", "limit"), [(4, 0), (7, 0), (8, 96), (9, 108), (10, 120)])
def test_loan_limit(size: int, limit: int) -> None:
    assert eco.loan_limit(size) == limit


@pytest.mark.parametrize(("years", "ok"), [(0, False), (1, True), (5, True), (6, False)])
def test_loan_term(years: int, ok: bool) -> None:
    assert eco.loan_max_term_years() == 5
    assert eco.loan_term_allowed(years) is ok


@pytest.mark.parametrize(
    ("principal", "instalment", "schedule"),
    [
        (0, 0, []),
        (1, 1, [1]),
        (4, 1, [1, 1, 1, 1]),
        (5, 2, [2, 2, 1]),
        (10, 3, [3, 3, 3, 1]),
        (12, 3, [3, 3, 3, 3]),
        (96, 24, [24, 24, 24, 24]),
    ],
)
def test_loan_instalments(principal: int, instalment: int, schedule: list[int]) -> None:
    assert eco.loan_instalment(principal) == instalment
    assert eco.loan_instalments(principal) == schedule
    assert sum(schedule) == principal


@pytest.mark.parametrize(
    ("size", "sector", "debt", "sold", "raised", "left", "bad", "surplus"),
    [
        (5, "commercial", 0, 0, 0, 5, 0, 0),
        (5, "commercial", 1, 1, 1, 4, 0, 0),  # floor(1.5) = 1
        (5, "commercial", 2, 2, 3, 3, 0, 1),  # floor(1.5) < 2, so two units: 3
        (5, "commercial", 3, 2, 3, 3, 0, 0),
        (5, "commercial", 4, 3, 4, 2, 0, 0),  # floor(4.5) = 4
        (5, "commercial", 7, 5, 7, 0, 0, 0),  # floor(7.5) = 7, business gone
        (5, "commercial", 10, 5, 7, 0, 3, 0),  # all sold, 3 bad debt
        (4, "commercial", 12, 4, 6, 0, 6, 0),  # full credit line of Size 4 unpaid
        (3, "service", 5, 3, 6, 0, 0, 1),  # service units raise 2 each
        (3, "service", 9, 3, 6, 0, 3, 0),
        (0, "industrial", 4, 0, 0, 0, 4, 0),
    ],
)
def test_liquidate(
    size: int, sector: str, debt: int, sold: int, raised: int, left: int, bad: int, surplus: int
) -> None:
    outcome = eco.liquidate(size, sector, debt)
    assert outcome == eco.LiquidationOutcome(sold, raised, left, bad, surplus)
    assert raised + bad - surplus == debt


# ---------------------------------------------------------------------------------------------
# Training sponsorship
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("size", "limit"), [(2, 0), (3, 3), (6, 6)])
def test_training_limit(size: int, limit: int) -> None:
    assert eco.training_limit(size) == limit
    assert eco.training_limit(size, "commercial") == 0


@pytest.mark.parametrize(("size", "sponsored", "ok"), [(2, 0, False), (3, 0, True), (3, 2, True), (3, 3, False)])
def test_training_allowed(size: int, sponsored: int, ok: bool) -> None:
    assert eco.training_allowed(size, sponsored) is ok


def test_training_cost_and_arrival() -> None:
    assert eco.training_cost() == 1
    assert eco.training_cost(3) == 3
    assert eco.training_arrival_seasons() == 1


# ---------------------------------------------------------------------------------------------
# Specialists
# ---------------------------------------------------------------------------------------------


def test_specialist_types_and_hireable() -> None:
    assert specialist_rules.specialist_types() == ("engineer", "spy", "missionary", "sailor")
    assert [specialist_rules.hireable(k) for k in specialist_rules.specialist_types()] == [True, True, True, False]
    with pytest.raises(ValueError, match="specialist"):
        specialist_rules.hireable("wizard")


@pytest.mark.parametrize(("immediate", "cost", "arrival"), [(False, 2, 1), (True, 3, 0)])
def test_hire_cost(immediate: bool, cost: int, arrival: int) -> None:
    assert specialist_rules.hire_cost(immediate) == cost
    assert specialist_rules.hire_arrival_seasons(immediate) == arrival


@pytest.mark.parametrize(
    ("hired", "provinces", "ok"),
    [(0, 0, False), (0, 1, True), (1, 1, False), (2, 3, True), (3, 3, False)],
)
def test_hire_allowed(hired: int, provinces: int, ok: bool) -> None:
    assert specialist_rules.hire_allowed(hired, provinces) is ok
    assert specialist_rules.hire_limit(provinces) == provinces


@pytest.mark.parametrize(("specialists", "levels"), [(0, 0), (2, 0), (3, 1), (5, 1), (6, 2), (9, 3)])
def test_academy_levels(specialists: int, levels: int) -> None:
    assert specialist_rules.academy_levels(specialists) == levels
    assert specialist_rules.academy_output(levels) == levels


def test_academy_specialists_needed() -> None:
    assert specialist_rules.academy_specialists_needed(1) == 3
    assert specialist_rules.academy_specialists_needed(2) == 6


def test_sailors_gunpowder_traps() -> None:
    assert specialist_rules.sailors_gained(0) == 0
    assert specialist_rules.sailors_gained(3) == 3
    assert specialist_rules.sailor_slave_price() == 1
    assert specialist_rules.gunpowder_barrels(4) == 4
    assert (specialist_rules.trap_cost(), specialist_rules.trap_bonus()) == (1, 1)


# ---------------------------------------------------------------------------------------------
# Missionary conversion
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("natural", "ducats", "countered", "counter", "total", "band", "success"),
    [
        (5, 0, False, 0, 3, "minor-success", True),  # 5 - 2 = 3: just succeeds
        (4, 0, False, 0, 2, "failure", False),
        (4, 1, False, 0, 3, "minor-success", True),
        (5, 1, False, 0, 4, "success", True),
        (5, 2, False, 0, 5, "great-success", True),
        (5, 3, False, 0, 6, "grand-success", True),
        (2, 0, False, 0, 0, "failure", False),
        (1, 9, False, 0, 8, "critical-failure", False),  # natural 1 always fails
        (6, 0, True, 5, -4, "overshoot", True),  # natural 6 always succeeds
        (5, 3, True, 0, 3, "minor-success", True),  # -2 +3 -3
        (5, 3, True, 1, 2, "failure", False),
        (5, 0, True, 0, 0, "failure", False),
    ],
)
def test_conversion(
    natural: int, ducats: int, countered: bool, counter: int, total: int, band: str, success: bool
) -> None:
    outcome = specialist_rules.conversion(ScriptedDice([natural]), ducats, countered, counter)
    assert (outcome.natural, outcome.total, outcome.band, outcome.success) == (
        natural,
        total,
        band,
        success,
    )
    assert outcome.modifier == total - natural


def test_conversion_modifiers_with_reasons() -> None:
    assert specialist_rules.conversion_modifiers() == [Modifier(-2, "missionary conversion")]
    assert specialist_rules.conversion_modifiers(2, True, 3) == [
        Modifier(-2, "missionary conversion"),
        Modifier(2, "2 extra ducats"),
        Modifier(-3, "counter-missionary"),
        Modifier(-3, "3 counter ducats"),
    ]


@pytest.mark.parametrize("bad", [(-1, False, 0), (0, False, 1), (0, True, -1)])
def test_conversion_rejects(bad: tuple[int, bool, int]) -> None:
    with pytest.raises(ValueError):
        specialist_rules.conversion(ScriptedDice([3]), *bad)


@pytest.mark.parametrize(
    ("ducats", "countered", "counter", "success"),
    [
        (0, False, 0, 2 / 6),
        (1, False, 0, 3 / 6),
        (4, False, 0, 5 / 6),
        (0, True, 0, 1 / 6),
        (9, True, 9, 1 / 6),
    ],
)
def test_conversion_odds(ducats: int, countered: bool, counter: int, success: float) -> None:
    bands, ok = specialist_rules.conversion_odds(ducats, countered, counter)
    assert list(bands) == list(BANDS)
    assert sum(bands.values()) == pytest.approx(1, abs=1e-5)
    assert ok == pytest.approx(success, abs=1e-6)
    assert bands["critical-failure"] == pytest.approx(1 / 6, abs=1e-6)
    assert bands["overshoot"] == pytest.approx(1 / 6, abs=1e-6)


# ---------------------------------------------------------------------------------------------
# CLI checks: run/odds with arguments parsed by each check's own add_arguments
# ---------------------------------------------------------------------------------------------


def _args(check: str, argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=f"yak resolve {check}")
    RESOLVE_CHECKS[check].add_arguments(parser)
    return parser.parse_args(argv)


def _run(check: str, argv: list[str], dice: list[int]) -> dict[str, Any]:
    return RESOLVE_CHECKS[check].run(_args(check, argv), ScriptedDice(dice))


def _odds(check: str, argv: list[str]) -> dict[str, Any]:
    odds = RESOLVE_CHECKS[check].odds
    assert odds is not None
    return odds(_args(check, argv))


def test_checks_are_registered() -> None:
    assert resolve_economy.EXPANDER_ID == "expander"
    for name in ("competition", "conversion", "market-sale"):
        assert RESOLVE_CHECKS[name].odds is not None


def test_cli_competition_shape_and_order() -> None:
    out = _run(
        "competition",
        ["--expander-size", "2", "--rivals", "zed:3,abe:1:monopoly,mid:3", "--expander-monopoly"],
        [2, 2, 1, 2],
    )
    assert out == {
        "check": "competition",
        "expander_roll": 5,
        "rolls": {"zed": 2, "abe": 4, "mid": 2},
        "loser": "zed",
        "expander_gains": True,
    }
    assert list(out) == ["check", "expander_roll", "rolls", "loser", "expander_gains"]
    assert list(out["rolls"]) == ["zed", "abe", "mid"]


def test_cli_competition_no_loser_is_null() -> None:
    out = _run("competition", ["--expander-size", "1", "--rivals", "a:1"], [3, 3])
    assert out["loser"] is None and out["expander_gains"] is False


@pytest.mark.parametrize(
    ("rivals", "fragment"),
    [
        ("a", "item 1 ('a')"),
        ("a:1,b", "item 2 ('b')"),
        ("a:x", "not a whole number"),
        ("a:0", "Size must be 1 or more"),
        ("a:1,a:2", "listed twice"),
        ("a:1:mono", "only be 'monopoly'"),
        (":1", "id is empty"),
        ("a:1,,b:2", "item 2"),
        ("expander:1", "reserved"),
        ("none:1", "reserved"),
        ("a:1:monopoly:x", "item 1"),
    ],
)
def test_cli_competition_bad_rivals(rivals: str, fragment: str) -> None:
    with pytest.raises(CheckInputError, match="--rivals") as error:
        _run("competition", ["--expander-size", "1", "--rivals", rivals], [3, 3, 3])
    assert fragment in str(error.value)


def test_cli_competition_rejects_negative_size() -> None:
    with pytest.raises(CheckInputError, match="--expander-size"):
        _run("competition", ["--expander-size", "-1", "--rivals", "a:1"], [3, 3])


def test_cli_competition_odds() -> None:
    out = _odds("competition", ["--expander-size", "1", "--rivals", "b:2,a:1"])
    assert list(out) == ["check", "odds", "expander_gains"]
    assert out["check"] == "competition"
    assert list(out["odds"]) == ["b", "a", "none"]
    assert sum(out["odds"].values()) == pytest.approx(1, abs=1e-5)
    assert out["expander_gains"] == pytest.approx(1 - out["odds"]["none"], abs=1e-6)
    # Largest Size loses ties, so "b" is likelier to lose than "a".
    assert out["odds"]["b"] > out["odds"]["a"]


def test_cli_conversion_shape() -> None:
    out = _run("conversion", ["--ducats", "2", "--countered", "--counter-ducats", "1"], [6])
    assert out == {
        "check": "conversion",
        "natural": 6,
        "total": 2,
        "band": "overshoot",
        "success": True,
    }
    assert list(out) == ["check", "natural", "total", "band", "success"]


def test_cli_conversion_default_no_ducats() -> None:
    out = _run("conversion", [], [5])
    assert (out["total"], out["band"], out["success"]) == (3, "minor-success", True)


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        (["--counter-ducats", "1"], "--counter-ducats"),
        (["--counter-ducats", "0"], "--counter-ducats"),
        (["--ducats", "-1"], "--ducats"),
        (["--countered", "--counter-ducats", "-2"], "--counter-ducats"),
    ],
)
def test_cli_conversion_errors(argv: list[str], flag: str) -> None:
    with pytest.raises(CheckInputError, match=flag):
        _run("conversion", argv, [4])


def test_cli_conversion_odds() -> None:
    out = _odds("conversion", ["--ducats", "1"])
    assert list(out) == ["check", "odds", "success"]
    assert list(out["odds"]) == list(BANDS)
    assert sum(out["odds"].values()) == pytest.approx(1, abs=1e-5)
    assert out["success"] == pytest.approx(0.5, abs=1e-6)


@pytest.mark.parametrize(("natural", "price"), [(1, 6), (2, 7), (5, 7), (6, 8)])
def test_cli_market_sale(natural: int, price: int) -> None:
    out = _run("market-sale", ["--base", "7"], [natural])
    assert out == {"check": "market-sale", "natural": natural, "price": price}
    assert list(out) == ["check", "natural", "price"]


def test_cli_market_sale_by_commodity() -> None:
    base = eco.commodity_price("Iron")
    assert _run("market-sale", ["--commodity", "iron"], [6])["price"] == base + 1


@pytest.mark.parametrize(
    ("argv", "flag"),
    [
        ([], "--base"),
        (["--base", "0"], "--base"),
        (["--commodity", "Moonrock"], "--commodity"),
        (["--base", "3", "--commodity", "Iron"], "--commodity"),
    ],
)
def test_cli_market_sale_errors(argv: list[str], flag: str) -> None:
    with pytest.raises(CheckInputError, match=flag):
        _run("market-sale", argv, [3])


def test_cli_market_sale_odds() -> None:
    out = _odds("market-sale", ["--base", "3"])
    assert out == {
        "check": "market-sale",
        "odds": {"2": round(1 / 6, 6), "3": round(4 / 6, 6), "4": round(1 / 6, 6)},
    }
    assert math.isclose(sum(out["odds"].values()), 1, abs_tol=1e-5)
