"""`yak resolve competition | conversion | market-sale`: the economy's dice (RULINGS §5–§6)."""

from __future__ import annotations

import argparse
from typing import Any

from yak_tui.areas.economy.rules import (
    Rival,
    commodities,
    commodity_price,
    competition,
    competition_odds,
    market_sale,
    market_sale_odds,
)
from yak_tui.areas.economy.specialist_rules import conversion, conversion_odds
from yak_tui.kernel.play.checks import CheckInputError, ResolveCheck, register, whole_option
from yak_tui.kernel.play.dice import Dice
from yak_tui.kernel.play.helptext import signed
from yak_tui.kernel.world.tables import table

# The expanding business's id inside the rules call, and the odds key for "nobody loses":
# a rival may not take either name.
EXPANDER_ID = "expander"
NO_LOSER = "none"


# ---------------------------------------------------------------------------------------------
# competition
# ---------------------------------------------------------------------------------------------


def parse_rivals(text: str) -> list[Rival]:
    """Parse `A:3,B:2:monopoly`; every error names the item at fault."""
    rivals: list[Rival] = []
    seen: set[str] = set()
    for index, raw in enumerate(text.split(","), start=1):
        item = raw.strip()
        where = f"--rivals item {index} ({item!r})"
        parts = [part.strip() for part in item.split(":")]
        if not item or len(parts) not in (2, 3):
            raise CheckInputError(f"{where}: expected ID:SIZE or ID:SIZE:monopoly")
        rival_id, size_text = parts[0], parts[1]
        if not rival_id:
            raise CheckInputError(f"{where}: the business id is empty")
        if rival_id in (EXPANDER_ID, NO_LOSER):
            raise CheckInputError(f"{where}: {rival_id!r} is reserved; give the rival another id")
        if rival_id in seen:
            raise CheckInputError(f"{where}: business {rival_id!r} is listed twice")
        try:
            size = int(size_text)
        except ValueError:
            raise CheckInputError(f"{where}: Size {size_text!r} is not a whole number") from None
        if size < 1:
            raise CheckInputError(f"{where}: Size must be 1 or more, not {size}")
        monopoly = False
        if len(parts) == 3:
            if parts[2].lower() != "monopoly":
                raise CheckInputError(f"{where}: the third part may only be 'monopoly'")
            monopoly = True
        seen.add(rival_id)
        rivals.append(Rival(rival_id, size, monopoly))
    return rivals


def _competition_args(args: argparse.Namespace) -> tuple[int, list[Rival]]:
    if args.expander_size < 0:
        raise CheckInputError(f"--expander-size: must be 0 or more, not {args.expander_size}")
    return args.expander_size, parse_rivals(args.rivals)


def _add_competition(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--expander-size", type=whole_option, required=True, help="Size of the expanding business")
    parser.add_argument(
        "--rivals",
        required=True,
        help="the sector's other businesses in the province: ID:SIZE[:monopoly],...",
    )
    parser.add_argument(
        "--expander-monopoly",
        action="store_true",
        help=f"the expander holds a monopoly ({signed(table('economy')['competition']['monopoly_bonus'])})",
    )


def _run_competition(args: argparse.Namespace, dice: Dice) -> dict[str, Any]:
    size, rivals = _competition_args(args)
    outcome = competition(dice, EXPANDER_ID, size, args.expander_monopoly, rivals)
    return {
        "check": "competition",
        "expander_roll": outcome.expander_roll,
        "rolls": dict(outcome.rolls),
        "loser": outcome.loser,
        "expander_gains": outcome.expander_gains,
    }


def _odds_competition(args: argparse.Namespace) -> dict[str, Any]:
    size, rivals = _competition_args(args)
    odds = competition_odds(args.expander_monopoly, rivals, EXPANDER_ID, size)
    return {
        "check": "competition",
        "odds": {**odds.losers, NO_LOSER: odds.fails},
        "expander_gains": odds.expander_gains,
    }


# ---------------------------------------------------------------------------------------------
# conversion
# ---------------------------------------------------------------------------------------------


def _conversion_args(args: argparse.Namespace) -> tuple[int, bool, int]:
    if args.ducats < 0:
        raise CheckInputError(f"--ducats: must be 0 or more, not {args.ducats}")
    if args.counter_ducats is not None and not args.countered:
        raise CheckInputError("--counter-ducats: needs --countered (a counter-missionary)")
    counter = args.counter_ducats or 0
    if counter < 0:
        raise CheckInputError(f"--counter-ducats: must be 0 or more, not {counter}")
    return args.ducats, args.countered, counter


def _add_conversion(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ducats",
        type=whole_option,
        default=0,
        help=f"extra ducats beyond the missionary ({_conversion('per_ducat')} each)",
    )
    parser.add_argument(
        "--countered", action="store_true", help=f"a counter-missionary opposes ({_conversion('counter')})"
    )
    parser.add_argument(
        "--counter-ducats",
        type=whole_option,
        default=None,
        help=f"the counter's extra ducats ({_conversion('per_counter_ducat')} each)",
    )


def _run_conversion(args: argparse.Namespace, dice: Dice) -> dict[str, Any]:
    outcome = conversion(dice, *_conversion_args(args))
    return {
        "check": "conversion",
        "natural": outcome.natural,
        "total": outcome.total,
        "band": outcome.band,
        "success": outcome.success,
    }


def _odds_conversion(args: argparse.Namespace) -> dict[str, Any]:
    bands, success = conversion_odds(*_conversion_args(args))
    return {"check": "conversion", "odds": bands, "success": success}


# ---------------------------------------------------------------------------------------------
# market-sale
# ---------------------------------------------------------------------------------------------


def _base(args: argparse.Namespace) -> int:
    if args.base is not None and args.commodity is not None:
        raise CheckInputError("--commodity: give --base or --commodity, not both")
    if args.commodity is not None:
        try:
            return commodity_price(args.commodity)
        except ValueError:
            goods = ", ".join(commodities())
            raise CheckInputError(f"--commodity: unknown trade good {args.commodity!r}; goods are {goods}") from None
    if args.base is None:
        raise CheckInputError("--base: required (or name a --commodity)")
    if args.base < 1:
        raise CheckInputError(f"--base: a base price is 1 increment or more, not {args.base}")
    return int(args.base)


def _add_market_sale(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--base", type=whole_option, default=None, help="base price in increments")
    parser.add_argument("--commodity", default=None, help="take the base price of this trade good instead")


def _run_market_sale(args: argparse.Namespace, dice: Dice) -> dict[str, Any]:
    sale = market_sale(dice, _base(args))
    return {"check": "market-sale", "natural": sale.natural, "price": sale.price}


def _odds_market_sale(args: argparse.Namespace) -> dict[str, Any]:
    odds = market_sale_odds(_base(args))
    return {"check": "market-sale", "odds": {str(price): p for price, p in odds.items()}}


def _conversion(key: str) -> str:
    """One conversion modifier from the loaded table, signed ("-2", "+1")."""
    return signed(table("economy")["conversion"][key])


def _sale_faces() -> str:
    """The market-sale table as help says it: "1 -> base-1, 2-5 -> base, 6 -> base+1"."""
    parts, low = [], 1
    for face in table("economy")["market_sale"]["faces"]:
        high, delta = int(face["max_natural"]), face["delta"]
        if high < low:
            continue
        naturals = f"{low}" if high == low else f"{low}-{high}"
        parts.append(f"{naturals} -> base{signed(delta) if delta else ''}")
        low = high + 1
    return ", ".join(parts)


register(
    ResolveCheck(
        "competition",
        "business competition at a sector's cap: expander's d6, then each rival's",
        _add_competition,
        _run_competition,
        _odds_competition,
    )
)
register(
    ResolveCheck(
        "conversion",
        lambda: (
            f"missionary conversion: RtD {_conversion('base')}, {_conversion('per_ducat')} per ducat; "
            f"counter {_conversion('counter')}, {_conversion('per_counter_ducat')} per counter ducat"
        ),
        _add_conversion,
        _run_conversion,
        _odds_conversion,
    )
)
register(
    ResolveCheck(
        "market-sale",
        lambda: f"season-end sale of goods: d6 {_sale_faces()}",
        _add_market_sale,
        _run_market_sale,
        _odds_market_sale,
    )
)
