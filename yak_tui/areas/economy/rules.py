"""Businesses (RULINGS §5): costs, limits, competition, the market, credit and training sponsorship
(a kingdom's specialists themselves are in `specialist_rules`).

Plain values in, frozen outcomes out; every number comes from `tables/economy.toml`, and every
die from the `Dice` passed in. The world layer decides who pays and what is stored.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from yak_tui.kernel.errors import RuleInputError
from yak_tui.kernel.play.dice import Dice, Modifier, exact_odds, total_of
from yak_tui.kernel.world.tables import table


def _rules(section: str) -> Any:
    return table("economy")[section]


def _non_negative(name: str, value: int) -> int:
    if value < 0:
        raise RuleInputError(f"{name} must be 0 or more, not {value}")
    return value


# ---------------------------------------------------------------------------------------------
# Sectors, expansion, income
# ---------------------------------------------------------------------------------------------


def sectors() -> tuple[str, ...]:
    return tuple(_rules("sectors"))


def _sector_cost(sector: str) -> int:
    costs = _rules("sectors")
    if sector not in costs:
        raise RuleInputError(f"unknown sector {sector!r}; sectors are {', '.join(costs)}")
    return int(costs[sector])


def expansion_cost(sector: str, sizes: int = 1) -> int:
    """Ducats to add `sizes` Size to a business of `sector`; paid even if competition fails."""
    return _sector_cost(sector) * _non_negative("sizes", sizes)


def sector_room(potential: int, sizes_in_sector: int) -> int:
    """Size still free under the sector's Potential; 0 means expansion needs competition."""
    return max(0, potential - _non_negative("sizes_in_sector", sizes_in_sector))


def needs_competition(potential: int, sizes_in_sector: int, sizes: int = 1) -> bool:
    return sector_room(potential, sizes_in_sector) < sizes


TAX_ROUNDINGS = ("floor", "round", "ceil")


def business_tax(size: int, tax_rate: int) -> int:
    """The state's cut: Size * rate / 100 rounded as `income.tax_rounding` says (default floor,
    so rounding favours the owner; a house rule may round half up or up)."""
    rules = _rules("income")
    _non_negative("size", size)
    if not 0 <= tax_rate <= int(rules["max_rate"]):
        raise RuleInputError(f"business tax rate must be 0..{rules['max_rate']} percent, not {tax_rate}")
    rounding = str(rules.get("tax_rounding", "floor"))
    whole, part = divmod(size * tax_rate, 100)
    if rounding == "floor" or part == 0:
        return whole
    if rounding == "ceil":
        return whole + 1
    if rounding == "round":
        return whole + (1 if part >= 50 else 0)
    raise RuleInputError(f"economy income.tax_rounding must be one of {', '.join(TAX_ROUNDINGS)}, not {rounding!r}")


def business_income(size: int, tax_rate: int = 0) -> int:
    """Year-start income: Size ducats less the state's business tax (a percent rate)."""
    return size - business_tax(size, tax_rate)


def dismantle_value(invested: int) -> int:
    """Dismantling returns half the ducats invested, rounded down (RULINGS §2)."""
    return _non_negative("invested", invested) // int(_rules("dismantle")["divisor"])


# ---------------------------------------------------------------------------------------------
# Monopolies and competition
# ---------------------------------------------------------------------------------------------


def monopoly_bonus() -> int:
    return int(_rules("competition")["monopoly_bonus"])


def monopoly_penalties(kind: str) -> dict[str, int]:
    """Potential changes a monopoly of `kind` (trade, service, goods) imposes on its province."""
    kinds = _rules("monopolies")
    if kind not in kinds:
        raise RuleInputError(f"unknown monopoly {kind!r}; monopolies are {', '.join(kinds)}")
    return {potential: int(value) for potential, value in kinds[kind].items()}


@dataclass(frozen=True)
class Rival:
    """Another business of the same sector and province, as competition sees it."""

    id: str
    size: int
    monopoly: bool = False


@dataclass(frozen=True)
class CompetitionOutcome:
    """Every natural and total of one competition, and the Size that changes hands."""

    expander_id: str
    expander_natural: int
    expander_modifiers: tuple[Modifier, ...]
    expander_roll: int
    naturals: dict[str, int]
    rival_modifiers: dict[str, tuple[Modifier, ...]]
    rolls: dict[str, int]
    loser: str | None
    expander_gains: bool
    # Size change by business id: {expander: +1, loser: -1}, or empty when the expansion fails.
    size_changes: dict[str, int] = field(default_factory=dict)
    # True when the loser had Size 1 and so is gone.
    loser_eliminated: bool = False


def _competition_modifiers(monopoly: bool, bonus: int) -> tuple[Modifier, ...]:
    return (Modifier(bonus, "monopoly"),) if monopoly else ()


def _check_competitors(expander_id: str, expander_size: int, rivals: Sequence[Rival]) -> None:
    _non_negative("expander_size", expander_size)
    seen = {expander_id}
    for rival in rivals:
        if rival.id in seen:
            raise RuleInputError(f"business id {rival.id!r} appears twice in the competition")
        if rival.size < 1:
            raise RuleInputError(f"rival {rival.id!r} has Size {rival.size}; a business has Size 1+")
        seen.add(rival.id)


def competition(
    dice: Dice,
    expander_id: str,
    expander_size: int,
    expander_monopoly: bool,
    rivals: Sequence[Rival],
) -> CompetitionOutcome:
    """Competition at the sector cap: expander's d6 first, then each rival's, in listed order.

    The loser is the rival with the lowest total strictly below the expander's total; on a tie
    for lowest the largest Size loses, and if Sizes tie too the first listed (our ruling).
    """
    _check_competitors(expander_id, expander_size, rivals)
    bonus = monopoly_bonus()
    expander_mods = _competition_modifiers(expander_monopoly, bonus)
    expander_natural = dice.roll(6, f"competition: {expander_id} expands")
    expander_roll = expander_natural + total_of(expander_mods)
    naturals: dict[str, int] = {}
    rival_mods: dict[str, tuple[Modifier, ...]] = {}
    rolls: dict[str, int] = {}
    for rival in rivals:
        mods = _competition_modifiers(rival.monopoly, bonus)
        natural = dice.roll(6, f"competition: {rival.id} defends")
        naturals[rival.id] = natural
        rival_mods[rival.id] = mods
        rolls[rival.id] = natural + total_of(mods)
    below = [(index, rival) for index, rival in enumerate(rivals) if rolls[rival.id] < expander_roll]
    if not below:
        return CompetitionOutcome(
            expander_id,
            expander_natural,
            expander_mods,
            expander_roll,
            naturals,
            rival_mods,
            rolls,
            None,
            False,
        )
    # Lowest total, then largest Size, then first listed.
    _, loser = min(below, key=lambda item: (rolls[item[1].id], -item[1].size, item[0]))
    return CompetitionOutcome(
        expander_id,
        expander_natural,
        expander_mods,
        expander_roll,
        naturals,
        rival_mods,
        rolls,
        loser.id,
        True,
        size_changes={expander_id: 1, loser.id: -1},
        loser_eliminated=loser.size == 1,
    )


@dataclass(frozen=True)
class CompetitionOdds:
    """Exact chances before rolling: the expander gains, and each rival (or none) loses."""

    expander_gains: float
    # Every rival id (zeros included), in listed order.
    losers: dict[str, float]
    fails: float


# Up to this many rivals the odds walk every die sequence with `exact_odds` (6^(n+1) of them);
# beyond, `_competition_odds_by_faces` gives the same exact fractions without the blow-up.
ENUMERATE_RIVALS_UP_TO = 4


def _face_chance(total: int, bonus: int) -> Fraction:
    return Fraction(1, 6) if 1 <= total - bonus <= 6 else Fraction(0)


def _competition_odds_by_faces(expander_monopoly: bool, rivals: Sequence[Rival]) -> dict[str | None, Fraction]:
    """Exact loser odds, face by face of the expander's die, rivals being independent.

    Rival i loses with total v when every other rival j rolls above v, or rolls v but ranks
    after i in the tie-break (smaller Size, or same Size and listed later).
    """
    bonus = monopoly_bonus()
    expander_bonus = bonus if expander_monopoly else 0
    bonuses = [bonus if rival.monopoly else 0 for rival in rivals]
    ranks = [(-rival.size, index) for index, rival in enumerate(rivals)]
    odds: dict[str | None, Fraction] = {rival.id: Fraction(0) for rival in rivals}
    for face in range(1, 7):
        expander_roll = face + expander_bonus
        for i, rival in enumerate(rivals):
            for v in range(1 + bonuses[i], min(expander_roll, 7 + bonuses[i])):
                chance = _face_chance(v, bonuses[i])
                for j in range(len(rivals)):
                    if j == i:
                        continue
                    above = sum(
                        (_face_chance(t, bonuses[j]) for t in range(v + 1, 7 + bonuses[j])),
                        Fraction(0),
                    )
                    tied = _face_chance(v, bonuses[j]) if ranks[i] < ranks[j] else Fraction(0)
                    chance *= above + tied
                odds[rival.id] += chance / 6
    odds[None] = 1 - sum(odds.values(), Fraction(0))
    return odds


def competition_odds(
    expander_monopoly: bool,
    rivals: Sequence[Rival],
    expander_id: str = "expander",
    expander_size: int = 1,
) -> CompetitionOdds:
    """Exact chances of the expander gaining and of each rival losing, before any die."""
    _check_competitors(expander_id, expander_size, rivals)
    odds: dict[Any, Fraction]
    if len(rivals) <= ENUMERATE_RIVALS_UP_TO:
        odds = exact_odds(
            lambda d: competition(d, expander_id, expander_size, expander_monopoly, rivals),
            lambda o: o.loser,
        )
    else:
        odds = dict(_competition_odds_by_faces(expander_monopoly, rivals))
    losers = {rival.id: round(float(odds.get(rival.id, Fraction(0))), 6) for rival in rivals}
    fails = odds.get(None, Fraction(0))
    return CompetitionOdds(
        expander_gains=round(float(1 - fails), 6),
        losers=losers,
        fails=round(float(fails), 6),
    )


# ---------------------------------------------------------------------------------------------
# Production and the market
# ---------------------------------------------------------------------------------------------


def commodities() -> dict[str, int]:
    """Base prices of every trade good, in increments (house numbers)."""
    return {name: int(price) for name, price in _rules("commodities").items()}


def commodity_price(name: str) -> int:
    """Base price of a trade good by name, case-insensitively."""
    for known, price in commodities().items():
        if known.lower() == name.strip().lower():
            return price
    raise RuleInputError(f"unknown trade good {name!r}; goods are {', '.join(commodities())}")


def production_cost(base_price: int, goods: int = 1) -> int:
    """Ducats to make `goods` of a good: max(1, base - 4) increments each."""
    rules = _rules("production")
    _non_negative("base_price", base_price)
    increments = max(int(rules["min_increments"]), base_price - int(rules["discount"]))
    return increments * int(rules["ducats_per_increment"]) * _non_negative("goods", goods)


def production_limit(size: int) -> int:
    """Goods an industrial business may make in one season."""
    return _non_negative("size", size) * int(_rules("production")["goods_per_size"])


class MarketSale(NamedTuple):
    """A season-end sale: the d6 and the price per good it fetched."""

    natural: int
    price: int


def market_price(natural: int, base: int) -> int:
    rules = _rules("market_sale")
    for row in rules["faces"]:
        if natural <= int(row["max_natural"]):
            return max(int(rules["min_price"]), base + int(row["delta"]))
    raise RuleInputError(f"market_sale faces do not cover a natural of {natural}")


def market_sale(dice: Dice, base: int) -> MarketSale:
    """House rule: 1 sells at base - 1, 2-5 at base, 6 at base + 1 (table)."""
    if base < 1:
        raise RuleInputError(f"a base price is 1 increment or more, not {base}")
    natural = dice.roll(6, f"market sale at base {base}")
    return MarketSale(natural, market_price(natural, base))


def market_sale_odds(base: int) -> dict[int, float]:
    """Chance of each price, cheapest first."""
    odds = exact_odds(lambda d: market_sale(d, base), lambda o: o.price)
    prices = {int(str(price)): float(p) for price, p in odds.items()}
    return {price: round(prices[price], 6) for price in sorted(prices)}


# ---------------------------------------------------------------------------------------------
# Credit, loans, liquidation
# ---------------------------------------------------------------------------------------------


def _qualifies(section: str, size: int, sector: str) -> bool:
    rules = _rules(section)
    _sector_cost(sector)
    return sector == rules["sector"] and _non_negative("size", size) >= int(rules["min_size"])


def credit_limit(size: int, sector: str = "commercial") -> int:
    """Largest credit line: the business's value (3 x Size); 0 below Size 4 or off-sector."""
    if not _qualifies("credit", size, sector):
        return 0
    return size * int(_rules("credit")["value_per_size"])


def credit_due_seasons() -> int:
    return int(_rules("credit")["due_seasons"])


def loan_limit(size: int, sector: str = "commercial") -> int:
    """Largest principal: 4 x value (12 x Size); 0 below Size 8 or off-sector."""
    if not _qualifies("loan", size, sector):
        return 0
    rules = _rules("loan")
    return size * int(rules["value_per_size"]) * int(rules["value_multiple"])


def loan_max_term_years() -> int:
    return int(_rules("loan")["max_term_years"])


def loan_term_allowed(years: int) -> bool:
    return 1 <= years <= loan_max_term_years()


def loan_instalment(principal: int) -> int:
    """What the lender pays each year once the term has run out unpaid: ceil(principal / 4)."""
    divisor = int(_rules("loan")["instalment_divisor"])
    return math.ceil(_non_negative("principal", principal) / divisor)


def loan_instalments(principal: int) -> list[int]:
    """The yearly payments until the whole principal is covered; the last is the remainder."""
    step = loan_instalment(principal)
    payments: list[int] = []
    left = principal
    while left > 0:
        payments.append(min(step, left))
        left -= payments[-1]
    return payments


@dataclass(frozen=True)
class LiquidationOutcome:
    """Size sold to cover an unpaid credit, what it raised, and what stays unpaid."""

    sizes_sold: int
    ducats_raised: int
    remaining_size: int
    bad_debt: int
    # Raised beyond the debt (a whole unit sold to cover a fraction): returned to the owner.
    surplus: int = 0


def liquidation_value(sector: str, sizes: int) -> int:
    """Ducats `sizes` units raise together: half their expansion cost each, total rounded down."""
    return expansion_cost(sector, sizes) // int(_rules("liquidation")["divisor"])


def liquidate(size: int, sector: str, debt: int) -> LiquidationOutcome:
    """Sell Size one unit at a time until the debt is covered or the business is gone."""
    _non_negative("size", size)
    _non_negative("debt", debt)
    sold = 0
    while sold < size and liquidation_value(sector, sold) < debt:
        sold += 1
    raised = liquidation_value(sector, sold)
    return LiquidationOutcome(
        sizes_sold=sold,
        ducats_raised=raised,
        remaining_size=size - sold,
        bad_debt=max(0, debt - raised),
        surplus=max(0, raised - debt),
    )


# ---------------------------------------------------------------------------------------------
# Training sponsorship
# ---------------------------------------------------------------------------------------------


def training_limit(size: int, sector: str = "service") -> int:
    """Specialists a business may sponsor a year: Size, for service businesses of Size 3+."""
    if not _qualifies("training", size, sector):
        return 0
    return size * int(_rules("training")["per_size"])


def training_allowed(size: int, sponsored_this_year: int, sector: str = "service") -> bool:
    return _non_negative("sponsored_this_year", sponsored_this_year) < training_limit(size, sector)


def training_cost(specialists: int = 1) -> int:
    return _non_negative("specialists", specialists) * int(_rules("training")["cost"])


def training_arrival_seasons() -> int:
    return int(_rules("training")["arrival_seasons"])


__all__ = [
    "CompetitionOdds",
    "CompetitionOutcome",
    "LiquidationOutcome",
    "MarketSale",
    "Rival",
    "business_income",
    "business_tax",
    "commodities",
    "commodity_price",
    "competition",
    "competition_odds",
    "credit_due_seasons",
    "credit_limit",
    "dismantle_value",
    "expansion_cost",
    "liquidate",
    "liquidation_value",
    "loan_instalment",
    "loan_instalments",
    "loan_limit",
    "loan_max_term_years",
    "loan_term_allowed",
    "market_price",
    "market_sale",
    "market_sale_odds",
    "monopoly_bonus",
    "monopoly_penalties",
    "needs_competition",
    "production_cost",
    "production_limit",
    "sector_room",
    "sectors",
    "training_allowed",
    "training_arrival_seasons",
    "training_cost",
    "training_limit",
]
