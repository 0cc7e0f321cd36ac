"""`yak resolve spell` (RULINGS §4).

The check only translates options into a rules call and the outcome into the issue's exact JSON
object; the arithmetic lives in `yak_tui.areas.magic.rules`.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from yak_tui.areas.magic.rules import allowed_carries, cast_spell, spell_odds
from yak_tui.kernel.play.checks import CheckInputError, ResolveCheck, register, whole_option
from yak_tui.kernel.play.dice import Dice
from yak_tui.kernel.play.helptext import signed

DIGITS = 6


def _p(value: Fraction) -> float:
    return round(float(value), DIGITS)


# --- spell --------------------------------------------------------------------------------


def _carries() -> str:
    """The values a casting may carry, as help says them: "±1" for -1 and +1."""
    values = [value for value in allowed_carries() if value]
    if len(values) == 2 and values[0] == -values[1]:
        return f"±{values[1]}"
    return " or ".join(signed(value) for value in values)


def _spell_add(parser: argparse.ArgumentParser) -> None:
    for stage in ("power", "control", "resolution"):
        parser.add_argument(f"--{stage}-rank", type=whole_option, default=0, help=f"trained {stage.capitalize()} rank")
    parser.add_argument(
        "--carry",
        type=whole_option,
        default=0,
        help=f"{_carries()} stored from the last casting with the same source (Power only)",
    )


def _spell_inputs(args: argparse.Namespace) -> tuple[int, int, int, int]:
    """(power rank, control rank, resolution rank, carry), checked."""
    for stage in ("power", "control", "resolution"):
        rank = getattr(args, f"{stage}_rank")
        if rank < 0:
            raise CheckInputError(f"--{stage}-rank: a trained rank is 0 or more, not {rank}")
    if args.carry not in allowed_carries():
        allowed = ", ".join(map(str, allowed_carries()))
        raise CheckInputError(f"--carry: must be one of {allowed}, not {args.carry}")
    return args.power_rank, args.control_rank, args.resolution_rank, args.carry


def _spell_run(args: argparse.Namespace, dice: Dice) -> dict[str, Any]:
    outcome = cast_spell(dice, *_spell_inputs(args))
    return {
        "check": "spell",
        "power": outcome.power.to_dict(),
        "control": outcome.control.to_dict() if outcome.control else None,
        "resolution": outcome.resolution.to_dict() if outcome.resolution else None,
        "effect": outcome.effect,
        "next_power_modifier": outcome.next_power_modifier,
    }


def _spell_odds(args: argparse.Namespace) -> dict[str, Any]:
    odds = spell_odds(*_spell_inputs(args))
    rounded = {part: {k: _p(v) for k, v in probs.items()} for part, probs in odds.items()}
    works = sum((p for e, p in odds["effect"].items() if e != "none"), Fraction(0))
    return {"check": "spell", "odds": rounded, "effect_works": _p(works)}


SPELL = register(
    ResolveCheck(
        "spell",
        "cast a spell: Power, Control, Resolution (d6 each)",
        _spell_add,
        _spell_run,
        _spell_odds,
    )
)
