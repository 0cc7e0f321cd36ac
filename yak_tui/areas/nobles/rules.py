"""Fall of Rome noble commands: Power, Incite Rebellion, Usurp Control, Relocate (RULINGS §8).

Shares, the swing, costs, the eviction and execution ratios, discovery chances, the relocate
range and the legion sizes all live in `tables/nobles.toml`. Arithmetic is done on exact
fractions of the decimal values given, so an edge such as margin == Power / 2 is never lost
to float noise.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from math import floor
from typing import Any

from yak_tui.kernel.errors import RuleInputError
from yak_tui.kernel.play.dice import Dice, exact_odds
from yak_tui.kernel.world.hexgrid import HexLike, hex_distance
from yak_tui.kernel.world.tables import table

Number = int | float
OUTCOMES = ("success", "failure", "evicted", "executed")
COMMANDS = ("incite", "usurp", "relocate")
COUNTER_SPIES = ("province", "nation")
HIGH_PRIESTESS = "high_priestess"


def _rules() -> dict[str, Any]:
    return table("nobles")


def _exact(value: Number | Fraction) -> Fraction:
    """The decimal the user typed, as a fraction (0.1 is 1/10, not the nearest float)."""
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool):
        raise TypeError("a number is needed, not a bool")
    return Fraction(str(value))


def _round2(value: Fraction) -> Fraction:
    """Round to 2 decimals, halves away from zero (the way a GM rounds by hand)."""
    sign = -1 if value < 0 else 1
    return sign * Fraction(floor(abs(value) * 100 + Fraction(1, 2)), 100)


def normalize_key(name: str) -> str:
    """`High Priestess`, `high-priestess` and `HIGH_PRIESTESS` are one key."""
    return "_".join(name.strip().lower().replace("-", " ").replace("_", " ").split())


# --- titles and Power ---------------------------------------------------------------------


def title_names() -> tuple[str, ...]:
    """The display names of every court title, in table order."""
    return tuple(str(t["name"]) for t in _rules()["titles"].values())


def title_share(title: str) -> int:
    """A title's percent share of the king's Influence; ValueError names the known titles."""
    titles = _rules()["titles"]
    key = normalize_key(title)
    if key not in titles:
        raise RuleInputError(f"unknown title {title!r}; known: {', '.join(title_names())}")
    return int(titles[key]["share"])


def swing_max_percent() -> int:
    return int(_rules()["swing"]["max_percent"])


def controlled_resistance() -> str:
    """How Usurp Control treats a controlled PC's Resistance, as help says it: "doubled"."""
    multiplier = _rules()["outcome"]["controlled_resistance_multiplier"]
    return "doubled" if multiplier == 2 else f"multiplied by {multiplier}"


def swing_die_sides() -> int:
    """d31 for a ±15% swing: one face per whole percent."""
    return 2 * swing_max_percent() + 1


def swing_percent(natural: int) -> int:
    """Natural n of the swing die gives (n - max - 1)%: 1 is -15%, 16 is 0, 31 is +15%."""
    sides = swing_die_sides()
    if not 1 <= natural <= sides:
        raise RuleInputError(f"the swing die is a d{sides}, not {natural}")
    return natural - swing_max_percent() - 1


@dataclass(frozen=True)
class SwingRoll:
    natural: int
    percent: int


def roll_swing(dice: Dice) -> SwingRoll:
    natural = dice.roll(swing_die_sides(), "noble Power day swing")
    return SwingRoll(natural, swing_percent(natural))


def apply_swing(power: Number, swing: int) -> float:
    """Power * (1 + swing%), rounded to 2 decimals."""
    return float(_round2(_exact(power) * (100 + swing) / 100))


def noble_power(share_percent: Number, influence: Number, swing_percent: int = 0) -> float:
    """share * Influence, adjusted by the day swing; rounded to 2 decimals."""
    base = _exact(share_percent) * _exact(influence) / 100
    return float(_round2(base * (100 + swing_percent) / 100))


def command_cost(command: str) -> int:
    """Ducats a command costs; spent even when it fails."""
    costs = _rules()["costs"]
    key = normalize_key(command)
    if key not in costs:
        raise RuleInputError(f"unknown noble command {command!r}; known: {', '.join(costs)}")
    return int(costs[key])


# --- Incite Rebellion and Usurp Control ---------------------------------------------------


@dataclass(frozen=True)
class CommandOutcome:
    """Power and Resistance as used, the outcome, and margin = Resistance - Power.

    `margin` is negative on a success. `base_resistance` is the PC's own Resistance before
    doubling and modifiers; `power_modifier` and `resistance_modifier` are what was added.
    """

    power: float
    resistance: float
    outcome: str
    margin: float
    command: str = "incite"
    base_resistance: float = 0.0
    power_modifier: float = 0.0
    resistance_modifier: float = 0.0
    resistance_multiplier: int = 1

    @property
    def success(self) -> bool:
        return self.outcome == "success"


def _decide(
    command: str,
    power: Number,
    resistance: Number,
    modifier: Number,
    resistance_modifier: Number,
    multiplier: int,
) -> CommandOutcome:
    """Success iff Power > Resistance; else the margin picks failure, eviction or execution."""
    rules = _rules()["outcome"]
    used_power = _round2(_exact(power) + _exact(modifier))
    used_resistance = _round2(_exact(resistance) * multiplier + _exact(resistance_modifier))
    margin = used_resistance - used_power
    if used_power > used_resistance:
        outcome = "success"
    elif margin > used_power * _exact(rules["execution_ratio"]):
        outcome = "executed"
    elif margin >= used_power * _exact(rules["eviction_ratio"]):
        outcome = "evicted"
    else:
        outcome = "failure"
    return CommandOutcome(
        power=float(used_power),
        resistance=float(used_resistance),
        outcome=outcome,
        margin=float(margin),
        command=command,
        base_resistance=float(resistance),
        power_modifier=float(modifier),
        resistance_modifier=float(resistance_modifier),
        resistance_multiplier=multiplier,
    )


def incite(
    power: Number, resistance: Number, modifier: Number = 0, *, resistance_modifier: Number = 0
) -> CommandOutcome:
    """Incite Rebellion against a PC another kingdom controls; a success makes it neutral.

    Ruling: `modifier` adds to Power (after the swing). `resistance_modifier` adds to the PC
    Resistance, for GM calls that the seed says may affect it.
    """
    return _decide("incite", power, resistance, modifier, resistance_modifier, 1)


def usurp(
    power: Number,
    resistance: Number,
    controlled: bool,
    modifier: Number = 0,
    *,
    resistance_modifier: Number = 0,
) -> CommandOutcome:
    """Usurp Control; on a PC another kingdom controls, Resistance is doubled before modifiers.

    Ruling: `modifier` adds to Power, as for Incite. `resistance_modifier` is added after the
    doubling, so it is not doubled (RULINGS §8: "doubled before modifiers").
    """
    multiplier = int(_rules()["outcome"]["controlled_resistance_multiplier"]) if controlled else 1
    return _decide("usurp", power, resistance, modifier, resistance_modifier, multiplier)


@dataclass(frozen=True)
class CommandRoll:
    """A command as adjudicated: the swing rolled (None when the GM skips it), then the outcome."""

    base_power: float
    swing: SwingRoll | None
    outcome: CommandOutcome


def roll_command(
    dice: Dice,
    command: str,
    base_power: Number,
    resistance: Number,
    *,
    controlled: bool = False,
    modifier: Number = 0,
    resistance_modifier: Number = 0,
    swing: bool = True,
) -> CommandRoll:
    """Roll the day swing (unless `swing` is False), then resolve Incite or Usurp."""
    swung = roll_swing(dice) if swing else None
    power = apply_swing(base_power, swung.percent if swung else 0)
    key = normalize_key(command)
    if key == "incite":
        if controlled:
            raise RuleInputError("Incite Rebellion has no controlled case; use usurp")
        outcome = incite(power, resistance, modifier, resistance_modifier=resistance_modifier)
    elif key == "usurp":
        outcome = usurp(power, resistance, controlled, modifier, resistance_modifier=resistance_modifier)
    else:
        raise RuleInputError(f"{command!r} is not incite or usurp")
    return CommandRoll(float(_exact(base_power)), swung, outcome)


def command_odds(
    command: str,
    base_power: Number,
    resistance: Number,
    *,
    controlled: bool = False,
    modifier: Number = 0,
    resistance_modifier: Number = 0,
    swing: bool = True,
) -> dict[str, Fraction]:
    """Exact odds of each outcome over the swing die (every outcome key, zeros included)."""
    odds = exact_odds(
        lambda d: roll_command(
            d,
            command,
            base_power,
            resistance,
            controlled=controlled,
            modifier=modifier,
            resistance_modifier=resistance_modifier,
            swing=swing,
        ),
        lambda r: r.outcome.outcome,
    )
    return {o: odds.get(o, Fraction(0)) for o in OUTCOMES}


# --- Relocate -----------------------------------------------------------------------------


@dataclass(frozen=True)
class RelocateCheck:
    """Whether a relocation goes ahead, why not, and whether its ducat cost is spent.

    reason: "ok", "out-of-range", "agent-only", a refused status (e.g. "exhausted") — all three
    refused before anything is spent — or "no-pc" and "blocked", which fail with the cost spent.
    """

    reason: str
    cost_spent: bool
    message: str

    @property
    def ok(self) -> bool:
        return self.reason == "ok"

    @property
    def refused(self) -> bool:
        """Refused orders are never issued: nothing is spent."""
        return not self.ok and not self.cost_spent


def legion_sizes() -> tuple[str, ...]:
    return tuple(str(s) for s in _rules()["relocate"]["legion_sizes"])


def legion_rank(size: str) -> int:
    """0 for a patrol, up to the army; ValueError names the known sizes."""
    sizes = legion_sizes()
    key = normalize_key(size)
    if key not in sizes:
        raise RuleInputError(f"unknown legion size {size!r}; known: {', '.join(sizes)}")
    return sizes.index(key)


def blocks_relocation(size: str) -> bool:
    """Brigade or larger blocks; a patrol, company or battalion does not."""
    return legion_rank(size) >= legion_rank(str(_rules()["relocate"]["block_from"]))


def relocate_range() -> int:
    return int(_rules()["relocate"]["range"])


def relocate_check(
    distance: int,
    has_pc: bool,
    blocking_legion_sizes: Iterable[str] = (),
    is_agent_onto_friendly_legion: bool = False,
    character_kind: str = "noble",
    status: str | None = None,
) -> RelocateCheck:
    """Check a Relocate order (RULINGS §8).

    `blocking_legion_sizes` are the sizes of other kingdoms' legions in the target hex (the
    caller filters out friendly ones). `is_agent_onto_friendly_legion` means the target is a
    friendly legion, which only an Agent may join; the PC and blocking checks do not apply to it.
    Ruling: out-of-range, wrong-kind and status refusals are orders the app does not accept, so
    nothing is spent; an empty hex or a blocking legion (which the player may not know of) makes
    the command fail with its cost spent, as any failed command.
    """
    rules = _rules()["relocate"]
    kind = normalize_key(character_kind)
    if kind not in rules["character_kinds"]:
        known = ", ".join(rules["character_kinds"])
        raise RuleInputError(f"unknown character kind {character_kind!r}; known: {known}")
    state = normalize_key(status) if status else str(rules["statuses"][0])
    if state not in rules["statuses"]:
        raise RuleInputError(f"unknown status {status!r}; known: {', '.join(rules['statuses'])}")
    if distance < 0:
        raise RuleInputError(f"a hex distance is 0 or more, not {distance}")
    sizes = [normalize_key(s) for s in blocking_legion_sizes]
    blocking = [s for s in sizes if blocks_relocation(s)]  # validates every size

    if state in rules.get("refused_status", {}).get(kind, []):
        return RelocateCheck(state, False, f"a {kind.replace('_', ' ')} may not relocate while {state}")
    if distance > relocate_range():
        return RelocateCheck(
            "out-of-range",
            False,
            f"target is {distance} hexes away; the range is {relocate_range()}",
        )
    if is_agent_onto_friendly_legion:
        if kind not in rules["legion_kinds"]:
            return RelocateCheck("agent-only", False, "only an Agent may relocate onto a legion")
        return RelocateCheck("ok", True, "relocates onto the friendly legion")
    if not has_pc:
        return RelocateCheck("no-pc", True, "no PC in the target hex: the command fails")
    if blocking:
        return RelocateCheck("blocked", True, f"blocked by a legion of {blocking[0]} size in the target hex")
    return RelocateCheck("ok", True, "relocates to the PC")


# --- discovery of a relocation --------------------------------------------------------------


def counter_spy_bonus(counter_spy: str | None) -> int:
    if counter_spy is None:
        return 0
    bonuses = _rules()["discovery"]["counter_spy"]
    key = normalize_key(counter_spy)
    if key not in bonuses:
        raise RuleInputError(f"counter-spy is {', '.join(bonuses)} or none, not {counter_spy!r}")
    return int(bonuses[key])


def strongest_counter_spy(in_province: bool, nation_wide: bool) -> str | None:
    """The two never stack: the one with the larger bonus applies (None if neither)."""
    present = [c for c, here in (("province", in_province), ("nation", nation_wide)) if here]
    return max(present, key=counter_spy_bonus, default=None)


def discovery_chance(who: str, counter_spy: str | None = None) -> int:
    """Percent chance the owner learns of a relocation onto his PC.

    `who` is a court title or "High Priestess"; `counter_spy` is the owner's strongest
    counter-spy: None, "province" or "nation" (see `strongest_counter_spy`).
    """
    key = normalize_key(who)
    rules = _rules()["discovery"]
    base = int(rules["high_priestess"]) if key == HIGH_PRIESTESS else title_share(who)
    return base + counter_spy_bonus(counter_spy)


@dataclass(frozen=True)
class DiscoveryRoll:
    chance: int
    natural: int
    discovered: bool


def relocate_discovery(dice: Dice, chance: int) -> DiscoveryRoll:
    """d100 <= chance: the owner learns of the move (a private chronicle entry)."""
    natural = dice.roll(int(_rules()["discovery"]["die"]), "relocation discovery")
    return DiscoveryRoll(chance, natural, natural <= chance)


def discovery_odds(chance: int) -> Fraction:
    """Exact probability that the owner learns of the move."""
    odds = exact_odds(lambda d: relocate_discovery(d, chance), lambda r: r.discovered)
    return odds.get(True, Fraction(0))


def in_relocate_range(origin: HexLike, target: HexLike) -> bool:
    return hex_distance(origin, target) <= relocate_range()


def relocate_check_between(
    origin: HexLike,
    target: HexLike,
    has_pc: bool,
    blocking_legion_sizes: Iterable[str] = (),
    is_agent_onto_friendly_legion: bool = False,
    character_kind: str = "noble",
    status: str | None = None,
) -> RelocateCheck:
    """`relocate_check` with the distance measured between two hexes."""
    return relocate_check(
        hex_distance(origin, target),
        has_pc,
        blocking_legion_sizes,
        is_agent_onto_friendly_legion,
        character_kind,
        status,
    )
