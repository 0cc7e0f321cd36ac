"""Specialists (RULINGS §6): hiring, sailors, academies, engineers' gunpowder, traps and missionary
conversion.

Plain values in, frozen outcomes out, like `rules` (a business's own numbers, training sponsorship
among them, are there); every number comes from `tables/economy.toml`, every die from the `Dice`
passed in.
"""

from __future__ import annotations

from dataclasses import dataclass

from yak_tui.areas.economy.rules import _non_negative, _rules
from yak_tui.kernel.errors import RuleInputError
from yak_tui.kernel.play.dice import Dice, Modifier, total_of
from yak_tui.kernel.play.rtd import roll_rtd, rtd_odds

# ---------------------------------------------------------------------------------------------
# Specialists, academies, engineers
# ---------------------------------------------------------------------------------------------


def specialist_types() -> tuple[str, ...]:
    return tuple(_rules("specialists")["types"])


def _specialist(kind: str) -> str:
    if kind not in specialist_types():
        raise RuleInputError(f"unknown specialist {kind!r}; specialists are {', '.join(specialist_types())}")
    return kind


def hireable(kind: str) -> bool:
    """Sailors are never hired (nor trained in academies); every other type is."""
    return _specialist(kind) not in _rules("specialists")["not_hired"]


def hire_cost(immediate: bool) -> int:
    """2 ducats to arrive next season, 3 to arrive at once."""
    rules = _rules("hiring")
    return int(rules["cost_immediate"] if immediate else rules["cost_next_season"])


def hire_arrival_seasons(immediate: bool) -> int:
    rules = _rules("hiring")
    return int(rules["arrival_immediate"] if immediate else rules["arrival_next_season"])


def hire_limit(provinces_controlled: int) -> int:
    """Hires of one type a kingdom may make a year: one per province it controls."""
    per = int(_rules("hiring")["per_province_per_year"])
    return _non_negative("provinces_controlled", provinces_controlled) * per


def hire_allowed(hired_this_year_of_type: int, provinces_controlled: int) -> bool:
    """May one more specialist of this type be hired this year?"""
    hired = _non_negative("hired_this_year_of_type", hired_this_year_of_type)
    return hired < hire_limit(provinces_controlled)


def sailors_gained(ports: int) -> int:
    """Sailors a kingdom gains at year start."""
    return _non_negative("ports", ports) * int(_rules("sailors")["per_port_per_year"])


def sailor_slave_price() -> int:
    return int(_rules("sailors")["slave_price"])


def sailors_per_ship() -> int:
    """Sailors a ship takes to build (and gives back when it is disbanded)."""
    return int(_rules("sailors").get("per_ship", 1))


def academy_levels(specialists: int) -> int:
    """Levels that `specialists` of one type make: 3 per level, leftovers make none."""
    per = int(_rules("academy")["specialists_per_level"])
    return _non_negative("specialists", specialists) // per


def academy_specialists_needed(levels: int) -> int:
    return _non_negative("levels", levels) * int(_rules("academy")["specialists_per_level"])


def academy_output(levels: int) -> int:
    """Specialists an academy produces at year start."""
    return _non_negative("levels", levels) * int(_rules("academy")["per_level_per_year"])


def gunpowder_barrels(engineers: int) -> int:
    """Barrels made at year start by the engineers assigned to gunpowder."""
    return _non_negative("engineers", engineers) * int(_rules("engineers")["gunpowder_per_engineer"])


def trap_cost() -> int:
    return int(_rules("engineers")["trap_cost"])


def trap_bonus() -> int:
    return int(_rules("engineers")["trap_bonus"])


# ---------------------------------------------------------------------------------------------
# Missionary conversion
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConversionOutcome:
    """An RtD conversion roll; every missionary involved is spent whatever the result."""

    natural: int
    modifiers: tuple[Modifier, ...]
    total: int
    band: str
    success: bool

    @property
    def modifier(self) -> int:
        return total_of(self.modifiers)


def conversion_modifiers(ducats: int = 0, countered: bool = False, counter_ducats: int = 0) -> list[Modifier]:
    """RtD -2, +1 per extra ducat; a counter-missionary -3 and -1 per counter ducat."""
    rules = _rules("conversion")
    _non_negative("ducats", ducats)
    _non_negative("counter_ducats", counter_ducats)
    if counter_ducats and not countered:
        raise RuleInputError("counter ducats need a counter-missionary (countered)")
    mods = [Modifier(int(rules["base"]), "missionary conversion")]
    if ducats:
        mods.append(Modifier(ducats * int(rules["per_ducat"]), f"{ducats} extra ducats"))
    if countered:
        mods.append(Modifier(int(rules["counter"]), "counter-missionary"))
        if counter_ducats:
            mods.append(
                Modifier(
                    counter_ducats * int(rules["per_counter_ducat"]),
                    f"{counter_ducats} counter ducats",
                )
            )
    return mods


def conversion(dice: Dice, ducats: int = 0, countered: bool = False, counter_ducats: int = 0) -> ConversionOutcome:
    """Missionary conversion: an RtD, so a natural 1 always fails and a natural 6 succeeds."""
    mods = conversion_modifiers(ducats, countered, counter_ducats)
    outcome = roll_rtd(dice, mods, purpose="missionary conversion")
    return ConversionOutcome(
        natural=outcome.natural,
        modifiers=tuple(mods),
        total=outcome.total,
        band=outcome.band,
        success=outcome.success,
    )


def conversion_odds(
    ducats: int = 0, countered: bool = False, counter_ducats: int = 0
) -> tuple[dict[str, float], float]:
    """Chance of every RtD band (all seven, zeros included) and of success."""
    return rtd_odds(conversion_modifiers(ducats, countered, counter_ducats))


__all__ = [
    "ConversionOutcome",
    "academy_levels",
    "academy_output",
    "academy_specialists_needed",
    "conversion",
    "conversion_modifiers",
    "conversion_odds",
    "gunpowder_barrels",
    "hire_allowed",
    "hire_arrival_seasons",
    "hire_cost",
    "hire_limit",
    "hireable",
    "sailor_slave_price",
    "sailors_gained",
    "sailors_per_ship",
    "specialist_types",
    "trap_bonus",
    "trap_cost",
]
