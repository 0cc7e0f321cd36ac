"""`yak resolve slaves|messenger|smuggle`: the rolled warfare checks of RULINGS §2–§3."""

from __future__ import annotations

import argparse
from typing import Any

from yak_tui.areas.warfare.rules import slave_raid, slave_raid_odds
from yak_tui.areas.warfare.siege_rules import messenger, messenger_odds, smuggle, smuggle_odds
from yak_tui.kernel.play.checks import CheckInputError, ResolveCheck, register, whole_option
from yak_tui.kernel.play.dice import Dice
from yak_tui.kernel.world.tables import table


def _not_negative(args: argparse.Namespace, attr: str, flag: str) -> int:
    value = int(getattr(args, attr))
    if value < 0:
        raise CheckInputError(f"{flag}: must be 0 or more, not {value}")
    return value


# --- slaves --------------------------------------------------------------------------------------


def _slaves_add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--surplus", type=whole_option, required=True, help="the province's surplus manpower (0 or more)"
    )


def _slaves_run(args: argparse.Namespace, dice: Dice) -> dict[str, Any]:
    outcome = slave_raid(dice, _not_negative(args, "surplus", "--surplus"))
    return {"check": "slaves", "natural": outcome.natural, "manpower": outcome.manpower}


def _slaves_odds(args: argparse.Namespace) -> dict[str, Any]:
    odds = slave_raid_odds(_not_negative(args, "surplus", "--surplus"))
    return {"check": "slaves", "odds": {str(n): p for n, p in odds.items()}}


# --- messenger -----------------------------------------------------------------------------------


def _messenger_add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--scouts", type=whole_option, default=0, help="friendly Scout units helping (0 or more)")
    parser.add_argument(
        "--enemy-scouts", type=whole_option, default=0, help="besieging Scout units opposing (0 or more)"
    )


def _messenger_counts(args: argparse.Namespace) -> tuple[int, int]:
    return (
        _not_negative(args, "scouts", "--scouts"),
        _not_negative(args, "enemy_scouts", "--enemy-scouts"),
    )


def _messenger_run(args: argparse.Namespace, dice: Dice) -> dict[str, Any]:
    outcome = messenger(dice, *_messenger_counts(args))
    return {
        "check": "messenger",
        "natural": outcome.natural,
        "total": outcome.total,
        "success": outcome.success,
    }


def _messenger_odds(args: argparse.Namespace) -> dict[str, Any]:
    odds = messenger_odds(*_messenger_counts(args))
    return {"check": "messenger", "odds": odds, "success": odds["success"]}


# --- smuggle -------------------------------------------------------------------------------------


def _smuggle_add(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bribe",
        type=whole_option,
        default=0,
        help="ducats bribed to a besieging NPC officer (bonus capped)",
    )
    parser.add_argument("--modifier", type=whole_option, default=0, help="any other total modifier")


def _smuggle_run(args: argparse.Namespace, dice: Dice) -> dict[str, Any]:
    outcome = smuggle(dice, _not_negative(args, "bribe", "--bribe"), args.modifier)
    return {
        "check": "smuggle",
        "natural": outcome.natural,
        "total": outcome.total,
        "success": outcome.success,
    }


def _smuggle_odds(args: argparse.Namespace) -> dict[str, Any]:
    odds = smuggle_odds(_not_negative(args, "bribe", "--bribe"), args.modifier)
    return {"check": "smuggle", "odds": odds, "success": odds["success"]}


def _slave_share() -> str:
    """ "half a d6" with the default table; "a third of a d8" reads "1/3 of a d8"."""
    rule = table("warfare")["slaves"]
    share = "half" if rule["divisor"] == 2 else f"1/{rule['divisor']} of"
    return f"{share} a d{rule['die']}"


register(
    ResolveCheck(
        "slaves",
        lambda: f"slave raid: {_slave_share()} (round up) in manpower, capped by the province's surplus",
        _slaves_add,
        _slaves_run,
        _slaves_odds,
    )
)
register(
    ResolveCheck(
        "messenger",
        lambda: (
            f"messenger out of a besieged fort: d{table('warfare')['messenger']['die']} + scouts - "
            "enemy scouts against a threshold"
        ),
        _messenger_add,
        _messenger_run,
        _messenger_odds,
    )
)
register(
    ResolveCheck(
        "smuggle",
        lambda: (
            f"smuggling provisions into a besieged fort: d{table('warfare')['smuggle']['die']} + bribe + "
            "modifier against a threshold"
        ),
        _smuggle_add,
        _smuggle_run,
        _smuggle_odds,
    )
)
