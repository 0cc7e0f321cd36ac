"""Casting a spell: Power, then Control, then Resolution (RULINGS §4).

The three rolls are chained: a failed Power ends the spell, an overwhelming Power and a
Control backlash pass penalties on, and Resolution leaves a ±1 for the next Power with the
same source. Every band, penalty and carried value is read from `tables/spells.toml`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from yak_tui.kernel.errors import RuleInputError
from yak_tui.kernel.play.dice import Dice, Modifier, exact_odds, total_of
from yak_tui.kernel.world.tables import table

STAGES = ("power", "control", "resolution")
NOT_ROLLED = "not-rolled"


@dataclass(frozen=True)
class StageRoll:
    """One stage of a casting, with every modifier and the reason for it."""

    stage: str
    natural: int
    modifiers: tuple[Modifier, ...]
    total: int
    band: str

    @property
    def modifier(self) -> int:
        return total_of(self.modifiers)

    def to_dict(self) -> dict[str, Any]:
        return {"natural": self.natural, "total": self.total, "band": self.band}


@dataclass(frozen=True)
class SpellOutcome:
    """A whole casting: the stages rolled, the effect, and what carries to the next casting."""

    power: StageRoll
    control: StageRoll | None
    resolution: StageRoll | None
    effect: str
    greater_magnitude: bool
    next_power_modifier: int
    consequences: tuple[str, ...]

    @property
    def stages(self) -> tuple[StageRoll, ...]:
        return tuple(s for s in (self.power, self.control, self.resolution) if s is not None)

    @property
    def ended_at_power(self) -> bool:
        return self.control is None


def _rules() -> dict[str, Any]:
    return table("spells")


def stage_bands(stage: str) -> tuple[str, ...]:
    """Every band a stage can land in, in table order (naturals, then totals low to high)."""
    rules = _rules()[stage]
    bands = [str(rules["natural_one"])]
    bands += [str(row["band"]) for row in rules["bands"]]
    bands += [str(rules["top_band"]), str(rules["natural_six"])]
    return tuple(dict.fromkeys(bands))


def stage_band(stage: str, natural: int, total: int) -> str:
    """Naturals first (1, then 6); otherwise the first row the total fits."""
    rules = _rules()[stage]
    if natural == 1:
        return str(rules["natural_one"])
    if natural == 6:
        return str(rules["natural_six"])
    for row in rules["bands"]:
        if total <= int(row["max_total"]):
            return str(row["band"])
    return str(rules["top_band"])


def allowed_carries() -> tuple[int, ...]:
    """0 and every value Resolution can leave for the next Power, sorted."""
    values = {0} | {int(v) for v in _rules()["resolution"]["next_power"].values()}
    return tuple(sorted(values))


def _penalties(stage: str, band: str) -> dict[str, int]:
    penalties = _rules()[stage].get("penalties", {}).get(band, {})
    return {str(k): int(v) for k, v in penalties.items()}


def _roll_stage(dice: Dice, stage: str, rank: int, modifiers: Sequence[Modifier]) -> StageRoll:
    mods: list[Modifier] = []
    if rank:
        mods.append(Modifier(rank, f"{stage.capitalize()} rank"))
    mods.extend(m for m in modifiers if m.value)
    natural = dice.roll(6, f"spell {stage}")
    total = natural + total_of(mods)
    return StageRoll(stage, natural, tuple(mods), total, stage_band(stage, natural, total))


def _consequences(roll: StageRoll) -> list[str]:
    notes = _rules().get("consequences", {}).get(roll.stage, {}).get(roll.band, [])
    return [str(n) for n in notes]


def cast_spell(
    dice: Dice,
    power_rank: int = 0,
    control_rank: int = 0,
    resolution_rank: int = 0,
    carry: int = 0,
    power_modifiers: Sequence[Modifier] = (),
    control_modifiers: Sequence[Modifier] = (),
    resolution_modifiers: Sequence[Modifier] = (),
) -> SpellOutcome:
    """Roll a casting. `carry` is the ±1 stored from the last casting with this source.

    Extra modifiers (GM calls, items) go to their own stage; ranks and carry are added here
    so each shows up with its reason.
    """
    if carry not in allowed_carries():
        raise RuleInputError(f"carry must be one of {allowed_carries()}, not {carry}")
    rules = _rules()
    carried: dict[str, list[Modifier]] = {
        "power": list(power_modifiers),
        "control": list(control_modifiers),
        "resolution": list(resolution_modifiers),
    }
    if carry:
        carried["power"].insert(0, Modifier(carry, "carried from the last casting with this source"))

    def pass_on(roll: StageRoll) -> None:
        for target, value in _penalties(roll.stage, roll.band).items():
            reason = f"{roll.stage.capitalize()} {roll.band} (natural {roll.natural})"
            carried[target].append(Modifier(value, reason))

    power = _roll_stage(dice, "power", power_rank, carried["power"])
    consequences = _consequences(power)
    greater = power.band in rules["power"]["greater_magnitude"]
    if power.band in rules["power"]["ends_spell"]:
        return SpellOutcome(power, None, None, "none", False, 0, tuple(consequences))
    pass_on(power)

    control = _roll_stage(dice, "control", control_rank, carried["control"])
    consequences += _consequences(control)
    effect = str(rules["control"]["effect"][control.band])
    pass_on(control)

    resolution = _roll_stage(dice, "resolution", resolution_rank, carried["resolution"])
    consequences += _consequences(resolution)
    next_power = int(rules["resolution"]["next_power"].get(resolution.band, 0))
    return SpellOutcome(power, control, resolution, effect, greater, next_power, tuple(consequences))


def effects() -> tuple[str, ...]:
    """Every effect a casting can have, "none" first."""
    return tuple(dict.fromkeys(["none", *map(str, _rules()["control"]["effect"].values())]))


def spell_odds(
    power_rank: int = 0,
    control_rank: int = 0,
    resolution_rank: int = 0,
    carry: int = 0,
    power_modifiers: Sequence[Modifier] = (),
    control_modifiers: Sequence[Modifier] = (),
    resolution_modifiers: Sequence[Modifier] = (),
) -> dict[str, dict[str, Fraction]]:
    """Exact odds of every band of every stage, of each effect and of the next-Power modifier.

    Control and Resolution carry a "not-rolled" key (the spell ended at Power); every key is
    present, zeros included, so each inner dict sums to 1.
    """

    def check(dice: Dice) -> SpellOutcome:
        return cast_spell(
            dice,
            power_rank,
            control_rank,
            resolution_rank,
            carry,
            power_modifiers,
            control_modifiers,
            resolution_modifiers,
        )

    def key(o: SpellOutcome) -> tuple[str, str, str, str, int]:
        return (
            o.power.band,
            o.control.band if o.control else NOT_ROLLED,
            o.resolution.band if o.resolution else NOT_ROLLED,
            o.effect,
            o.next_power_modifier,
        )

    zero = Fraction(0)
    result: dict[str, dict[str, Fraction]] = {
        "power": {b: zero for b in stage_bands("power")},
        "control": {**{b: zero for b in stage_bands("control")}, NOT_ROLLED: zero},
        "resolution": {**{b: zero for b in stage_bands("resolution")}, NOT_ROLLED: zero},
        "effect": {e: zero for e in effects()},
        "next_power_modifier": {str(v): zero for v in allowed_carries()},
    }
    for label, p in exact_odds(check, key).items():
        power, control, resolution, effect, next_power = cast(tuple[str, str, str, str, int], label)
        result["power"][power] += p
        result["control"][control] += p
        result["resolution"][resolution] += p
        result["effect"][effect] += p
        result["next_power_modifier"][str(next_power)] += p
    return result
