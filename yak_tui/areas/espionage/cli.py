"""`yak resolve spy`: one NPC espionage mission's two blind rolls (RULINGS §7), no world."""

from __future__ import annotations

import argparse
from typing import Any

from yak_tui.areas.espionage.rules import (
    Mission,
    SpyModifiers,
    SpyRoll,
    UnknownMission,
    catalogue,
    mission,
    mission_odds,
    resolve_mission,
    spy_modifiers,
)
from yak_tui.kernel.play.checks import CheckInputError, ResolveCheck, register, whole_option
from yak_tui.kernel.play.dice import Dice, Modifier


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mission", metavar="SLUG", help="mission slug (see --list)")
    parser.add_argument("--success-modifier", type=whole_option, default=0, help="total modifier to the success d6")
    parser.add_argument("--detection-modifier", type=whole_option, default=0, help="total modifier to the detection d6")
    parser.add_argument("--list", action="store_true", help="list the mission catalogue instead of rolling")


def _mission(args: argparse.Namespace) -> Mission:
    if not args.mission:
        raise CheckInputError("--mission: required (or give --list)")
    try:
        return mission(args.mission)
    except UnknownMission as error:
        raise CheckInputError(f"--mission: {error}") from None


def _modifiers(args: argparse.Namespace) -> tuple[list[Modifier], list[Modifier]]:
    applied = spy_modifiers(
        SpyModifiers(success_modifier=args.success_modifier, detection_modifier=args.detection_modifier)
    )
    return applied.success, applied.detection


def _roll(roll: SpyRoll | None) -> dict[str, int] | None:
    return None if roll is None else roll.to_dict()


def run(args: argparse.Namespace, dice: Dice) -> dict[str, Any]:
    if args.list:
        return {"check": "spy", "missions": [m.listing() for m in catalogue().values()]}
    entry = _mission(args)
    success_mods, detection_mods = _modifiers(args)
    outcome = resolve_mission(entry, dice, success_mods, detection_mods)
    return {
        "check": "spy",
        "mission": entry.slug,
        "success_target": entry.success_target,
        "detection_target": entry.detection_target,
        "success_roll": _roll(outcome.success_roll),
        "detection_roll": _roll(outcome.detection_roll),
        "outcome": outcome.outcome,
        "spy": outcome.spy,
        "evidence": outcome.evidence,
        "spy_lost": outcome.spy_lost,
    }


def odds(args: argparse.Namespace) -> dict[str, Any]:
    if args.list:
        raise CheckInputError("--list: cannot be combined with --odds")
    entry = _mission(args)
    success_mods, detection_mods = _modifiers(args)
    exact = mission_odds(entry, success_mods, detection_mods).to_dict()
    return {
        "check": "spy",
        "mission": entry.slug,
        "odds": {"outcome": exact["outcome"], "spy": exact["spy"], "evidence": exact["evidence"]},
        "success_and_undetected": exact["success_and_undetected"],
        "spy_lost": exact["spy_lost"],
    }


register(
    ResolveCheck(
        "spy",
        "NPC espionage mission: blind success and detection rolls",
        add_arguments,
        run,
        odds,
    )
)
