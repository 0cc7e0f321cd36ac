"""`yak resolve rtd`: the standard check of RULINGS §0."""

from __future__ import annotations

import argparse
from typing import Any

from yak_tui.kernel.play.checks import ResolveCheck, register, whole_option
from yak_tui.kernel.play.dice import Dice, Modifier
from yak_tui.kernel.play.rtd import roll_rtd, rtd_odds


def _modifiers(args: argparse.Namespace) -> list[Modifier]:
    return [Modifier(args.modifier, "modifier")] if args.modifier else []


def _add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--modifier", type=whole_option, default=0, help="total modifier to the d6")


def _run(args: argparse.Namespace, dice: Dice) -> dict[str, Any]:
    outcome = roll_rtd(dice, _modifiers(args))
    return {
        "check": "rtd",
        "natural": outcome.natural,
        "modifier": args.modifier,
        "total": outcome.total,
        "band": outcome.band,
        "success": outcome.success,
    }


def _odds(args: argparse.Namespace) -> dict[str, Any]:
    bands, success = rtd_odds(_modifiers(args))
    return {"check": "rtd", "odds": bands, "success": success}


register(ResolveCheck("rtd", "Roll to Dodge: 1d6 + modifier", _add, _run, _odds))
