"""`yak resolve incite|usurp|relocate-discovery` (RULINGS §8).

Each check only translates options into a rules call and the outcome into the issue's exact
JSON object; the arithmetic lives in `yak_tui.areas.nobles.rules`.
"""

from __future__ import annotations

import argparse
from fractions import Fraction
from typing import Any

from yak_tui.areas.nobles.rules import (
    COUNTER_SPIES,
    command_odds,
    controlled_resistance,
    discovery_chance,
    discovery_odds,
    relocate_discovery,
    roll_command,
    swing_die_sides,
    swing_max_percent,
    title_names,
)
from yak_tui.kernel.play.checks import CheckInputError, ResolveCheck, number_option, register
from yak_tui.kernel.play.dice import Dice
from yak_tui.kernel.world.money import money

DIGITS = 6


def _p(value: Fraction) -> float:
    return round(float(value), DIGITS)


# --- incite and usurp -----------------------------------------------------------------------


def _command_add(parser: argparse.ArgumentParser, usurp: bool) -> None:
    parser.add_argument("--power", type=number_option, required=True, help="the noble's Power before the day swing")
    parser.add_argument("--resistance", type=number_option, required=True, help="the PC's Resistance")
    if usurp:
        parser.add_argument(
            "--controlled",
            action="store_true",
            help=f"the PC is controlled by another kingdom: Resistance {controlled_resistance()}",
        )
    parser.add_argument("--modifier", type=number_option, default=0.0, help="added to Power after the swing")
    parser.add_argument("--no-swing", action="store_true", help=f"skip the ±{swing_max_percent()}%% day swing")


def _command_inputs(args: argparse.Namespace) -> dict[str, Any]:
    if args.power < 0:
        raise CheckInputError(f"--power: must be 0 or more, not {money(args.power)}")
    if args.resistance < 0:
        raise CheckInputError(f"--resistance: must be 0 or more, not {money(args.resistance)}")
    return {
        "base_power": args.power,
        "resistance": args.resistance,
        "controlled": bool(getattr(args, "controlled", False)),
        "modifier": args.modifier,
        "swing": not args.no_swing,
    }


def _command_run(name: str) -> Any:
    def run(args: argparse.Namespace, dice: Dice) -> dict[str, Any]:
        outcome = roll_command(dice, name, **_command_inputs(args)).outcome
        return {
            "check": name,
            "power": money(outcome.power),
            "resistance": money(outcome.resistance),
            "outcome": outcome.outcome,
            "margin": money(outcome.margin),
        }

    return run


def _command_odds(name: str) -> Any:
    def odds(args: argparse.Namespace) -> dict[str, Any]:
        probs = command_odds(name, **_command_inputs(args))
        return {
            "check": name,
            "odds": {k: _p(v) for k, v in probs.items()},
            "success": _p(probs["success"]),
        }

    return odds


# --- relocate-discovery -------------------------------------------------------------------


def _discovery_add(parser: argparse.ArgumentParser) -> None:
    who = parser.add_mutually_exclusive_group(required=True)
    who.add_argument("--title", help=f"court title: {', '.join(title_names())}")
    who.add_argument("--high-priestess", action="store_true", help="the High Priestess relocates")
    parser.add_argument("--counter-spy", help="the owner's strongest counter-spy: province or nation")


def _discovery_chance(args: argparse.Namespace) -> int:
    counter_spy = args.counter_spy
    if counter_spy is not None:
        counter_spy = counter_spy.strip().lower()
        if counter_spy not in COUNTER_SPIES:
            raise CheckInputError(f"--counter-spy: {' or '.join(COUNTER_SPIES)}, not {args.counter_spy!r}")
    who = "High Priestess" if args.high_priestess else args.title
    try:
        return discovery_chance(who, counter_spy)
    except ValueError as error:
        raise CheckInputError(f"--title: {error}") from None


def _discovery_run(args: argparse.Namespace, dice: Dice) -> dict[str, Any]:
    roll = relocate_discovery(dice, _discovery_chance(args))
    return {
        "check": "relocate-discovery",
        "chance": roll.chance,
        "natural": roll.natural,
        "discovered": roll.discovered,
    }


def _discovery_odds(args: argparse.Namespace) -> dict[str, Any]:
    chance = _discovery_chance(args)
    discovered = discovery_odds(chance)
    return {
        "check": "relocate-discovery",
        "odds": {"discovered": _p(discovered), "undiscovered": _p(1 - discovered)},
        "chance": chance,
        "discovered": _p(discovered),
    }


INCITE = register(
    ResolveCheck(
        "incite",
        lambda: f"Incite Rebellion: noble Power (d{swing_die_sides()} day swing) against PC Resistance",
        lambda p: _command_add(p, usurp=False),
        _command_run("incite"),
        _command_odds("incite"),
    )
)
USURP = register(
    ResolveCheck(
        "usurp",
        lambda: (
            f"Usurp Control: noble Power (d{swing_die_sides()} day swing) against PC Resistance, "
            f"{controlled_resistance()} if controlled"
        ),
        lambda p: _command_add(p, usurp=True),
        _command_run("usurp"),
        _command_odds("usurp"),
    )
)
RELOCATE_DISCOVERY = register(
    ResolveCheck(
        "relocate-discovery",
        "does the owner learn of a relocation onto his PC (d100 <= chance)",
        _discovery_add,
        _discovery_run,
        _discovery_odds,
    )
)
