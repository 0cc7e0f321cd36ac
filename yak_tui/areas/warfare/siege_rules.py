"""Siege rules (RULINGS §3): fort levels, provisions and their season-end consumption, blockades,
the starving defenders' choice, recruiting under siege, messengers out and smuggling in.

Every function is pure: plain values in, a number, a refusal reason (`None` = allowed) or a frozen
outcome out. All numbers come from the `warfare` rules table so a GM can house-rule them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from yak_tui.areas.warfare.rules import normalise_kind, not_negative, rules_section
from yak_tui.kernel.errors import RuleInputError
from yak_tui.kernel.play.dice import Dice, Modifier, exact_odds, total_of
from yak_tui.kernel.world.money import ducats
from yak_tui.kernel.world.numbers import counted


def fort_levels() -> list[str]:
    return [str(name) for name in rules_section("siege")["fort_levels"]]


def fort_name(fort_level: int | None) -> str | None:
    """ "Walls", "Fort", ... for levels 1..5; None for an unwalled site or an unknown level."""
    names = fort_levels()
    if fort_level is None or not 1 <= fort_level <= len(names):
        return None
    return names[fort_level - 1]


def siege_refusal(fort_level: int | None) -> str | None:
    """Only a walled fortification can be held under siege."""
    if not fort_level:
        return "an unwalled town cannot be besieged; it is taken by fighting"
    names = fort_levels()
    if not 1 <= fort_level <= len(names):
        levels = ", ".join(f"{i} {name}" for i, name in enumerate(names, start=1))
        return f"fort level {fort_level} is not on the table ({levels})"
    return None


def starting_provisions(fort_level: int, last_besieged_seasons_ago: int | None, remaining_stock: float) -> float:
    """Fort level x 1, unless the fort was besieged within the carry-over window: then whatever
    stock the last siege left carries over (recent sieges leave the larders bare)."""
    refusal = siege_refusal(fort_level)
    if refusal:
        raise RuleInputError(refusal)
    rules = rules_section("siege")
    if last_besieged_seasons_ago is not None:
        not_negative("seasons since the last siege", last_besieged_seasons_ago)
        if last_besieged_seasons_ago <= int(rules["carry_over_seasons"]):
            return max(remaining_stock, 0)
    return fort_level * int(rules["provisions_per_level"])


def blockade_effective(open_port_access: bool, land_blockade: bool, sea_blockade: bool) -> bool:
    """A land blockade suffices, unless the fort has open access to a port: then sea too."""
    return blockade_refusal(open_port_access, land_blockade, sea_blockade) is None


def blockade_refusal(open_port_access: bool, land_blockade: bool, sea_blockade: bool) -> str | None:
    """Why the siege has not taken effect yet, or None when it has."""
    if open_port_access:
        missing = [name for name, on in (("land", land_blockade), ("sea", sea_blockade)) if not on]
        if missing:
            return (
                f"the fort has open access to a port: the siege takes effect only once both a land "
                f"and a sea blockade are in place (missing: {' and '.join(missing)})"
            )
        return None
    if not land_blockade:
        return "the siege takes effect only once a land blockade is in place"
    return None


@dataclass(frozen=True)
class SiegeSeasonEnd:
    """End of a besieged season: provisions left, what was eaten, and whether the defenders
    ran short and must choose at once between surrender and a sally."""

    provisions_after: float
    eaten: float
    short: bool
    choices: tuple[str, ...] = ()


def season_end_consumption(provisions: float, regiments: int) -> SiegeSeasonEnd:
    """Every regiment inside eats 1; provisions never go below 0. When they do not cover every
    regiment, the season cannot close until a choice (surrender or sally) is recorded."""
    not_negative("regiments", regiments)
    rules = rules_section("siege")
    need = regiments * int(rules["consumption_per_regiment"])
    stock = max(provisions, 0)
    eaten = min(stock, need)
    short = stock < need
    choices = tuple(str(c) for c in rules["choices"]) if short else ()
    return SiegeSeasonEnd(provisions_after=stock - eaten, eaten=eaten, short=short, choices=choices)


def siege_choice_refusal(choice: str | None) -> str | None:
    """The defenders' choice when short must be one of the table's (surrender, sally)."""
    choices = [str(c) for c in rules_section("siege")["choices"]]
    if choice is None or normalise_kind(choice) not in choices:
        return f"defenders short of provisions must choose one of: {', '.join(choices)}"
    return None


def seasons_left(provisions: float, regiments: int) -> int | None:
    """How many more season ends the defenders get through without running short (None: no
    regiment inside eats anything)."""
    not_negative("regiments", regiments)
    if regiments == 0:
        return None
    need = regiments * int(rules_section("siege")["consumption_per_regiment"])
    return int(max(provisions, 0) // need)


def recruit_refusal(inside_besieged_fort: bool) -> str | None:
    """Regiments cannot be recruited inside a besieged fort (outside, if a messenger gets out)."""
    if inside_besieged_fort:
        return (
            "regiments cannot be recruited inside a besieged fort; send a messenger out to recruit outside (RULINGS §3)"
        )
    return None


def upgrade_refusal(inside_besieged_fort: bool) -> str | None:
    """Regiments inside a besieged fort may still be upgraded: never a refusal from the siege."""
    return None


@dataclass(frozen=True)
class MessengerOutcome:
    """A messenger out of a besieged fort. Plain threshold check: naturals have no special
    effect. If caught, the ducats he carries go to the besieger."""

    natural: int
    modifiers: tuple[Modifier, ...]
    total: int
    success: bool
    ducats_delivered: float = 0
    ducats_captured: float = 0

    @property
    def modifier(self) -> int:
        return total_of(self.modifiers)


def messenger_modifiers(
    friendly_scouts: int, enemy_scouts: int, extra: Sequence[Modifier] = ()
) -> tuple[Modifier, ...]:
    not_negative("friendly scouts", friendly_scouts)
    not_negative("enemy scouts", enemy_scouts)
    rules = rules_section("messenger")
    mods: list[Modifier] = []
    if friendly_scouts:
        mods.append(
            Modifier(
                friendly_scouts * int(rules["friendly_scout_bonus"]),
                f"{counted(friendly_scouts, 'friendly Scout unit')} helping",
            )
        )
    if enemy_scouts:
        mods.append(
            Modifier(
                -enemy_scouts * int(rules["enemy_scout_malus"]),
                f"{counted(enemy_scouts, 'besieging Scout unit')} opposing",
            )
        )
    mods.extend(extra)
    return tuple(mods)


def messenger(
    dice: Dice,
    friendly_scouts: int,
    enemy_scouts: int,
    ducats: float = 0,
    modifiers: Sequence[Modifier] = (),
) -> MessengerOutcome:
    """1d6 + friendly Scouts - besieging Scouts; succeeds on a total of 3 or more."""
    not_negative("ducats", ducats)
    rules = rules_section("messenger")
    mods = messenger_modifiers(friendly_scouts, enemy_scouts, modifiers)
    natural = dice.roll(int(rules["die"]), "messenger out")
    total = natural + total_of(mods)
    success = total >= int(rules["threshold"])
    return MessengerOutcome(
        natural=natural,
        modifiers=mods,
        total=total,
        success=success,
        ducats_delivered=ducats if success else 0,
        ducats_captured=0 if success else ducats,
    )


def messenger_odds(friendly_scouts: int, enemy_scouts: int, modifiers: Sequence[Modifier] = ()) -> dict[str, float]:
    """{"success": p, "failure": q}, exact."""
    odds = exact_odds(
        lambda d: messenger(d, friendly_scouts, enemy_scouts, modifiers=modifiers),
        lambda o: o.success,
    )
    return _success_failure(odds)


def _success_failure(odds: Mapping[Any, Any]) -> dict[str, float]:
    return {
        "success": round(float(odds.get(True, 0)), 6),
        "failure": round(float(odds.get(False, 0)), 6),
    }


@dataclass(frozen=True)
class SmuggleOutcome:
    """Smuggling provisions into a besieged fort. Plain threshold check: naturals have no special
    effect. Every bribe ducat is spent, even past the cap and even on a failure."""

    natural: int
    modifiers: tuple[Modifier, ...]
    total: int
    success: bool
    bribe_spent: int
    bribe_bonus: int
    provisions_added: float = 0

    @property
    def modifier(self) -> int:
        return total_of(self.modifiers)


def bribe_bonus(bribe: int) -> int:
    """+1 per ducat of bribe to a besieging NPC officer, up to +2."""
    not_negative("bribe", bribe)
    rules = rules_section("smuggle")
    return min(bribe * int(rules["bribe_per_ducat"]), int(rules["bribe_cap"]))


def bribe_limit() -> int:
    """The most ducats of bribe that still buy a bonus: past it a ducat buys nothing, so a smuggling
    order offering more is refused (the seed's +1 a ducat, up to +2)."""
    rules = rules_section("smuggle")
    per, cap = int(rules["bribe_per_ducat"]), int(rules["bribe_cap"])
    return -(-cap // per) if per > 0 else 0


def smuggle_modifiers(bribe: int, modifier: int | Sequence[Modifier] = 0) -> tuple[Modifier, ...]:
    mods: list[Modifier] = []
    bonus = bribe_bonus(bribe)
    if bonus:
        mods.append(Modifier(bonus, f"bribe of {ducats(bribe)} to a besieging NPC officer"))
    if isinstance(modifier, int):
        if modifier:
            mods.append(Modifier(modifier, "modifier"))
    else:
        mods.extend(modifier)
    return tuple(mods)


def smuggle(
    dice: Dice,
    bribe: int,
    modifier: int | Sequence[Modifier] = 0,
    shipments: float = 0,
) -> SmuggleOutcome:
    """1d6 + bribe bonus + modifiers; succeeds on 4+. A success adds the shipments to the fort's
    provisions (the merchant is paid full military plus staple demand bonuses by the market)."""
    not_negative("shipments", shipments)
    rules = rules_section("smuggle")
    mods = smuggle_modifiers(bribe, modifier)
    natural = dice.roll(int(rules["die"]), "smuggling provisions in")
    total = natural + total_of(mods)
    success = total >= int(rules["threshold"])
    return SmuggleOutcome(
        natural=natural,
        modifiers=mods,
        total=total,
        success=success,
        bribe_spent=bribe,
        bribe_bonus=bribe_bonus(bribe),
        provisions_added=shipments if success else 0,
    )


def smuggle_odds(bribe: int, modifier: int | Sequence[Modifier] = 0) -> dict[str, float]:
    """{"success": p, "failure": q}, exact."""
    odds = exact_odds(lambda d: smuggle(d, bribe, modifier), lambda o: o.success)
    return _success_failure(odds)
