"""The one rounding rule for ducats, men and every other amount a command writes or prints.

Amounts are kept to four decimals (so 0.1 + 0.2 is 0.3 in the save and in the chronicle) and a
whole amount is an `int` (10, not 10.0), so JSON replies and chronicle lines read the same everywhere.
An amount is also kept within ±`AMOUNT_LIMIT` (the range of every number in a document,
`yak_tui.kernel.world.numbers`): a treasury at the limit stays there, so no year start jams on a sum.
"""

from __future__ import annotations

from yak_tui.kernel.world.numbers import AMOUNT_LIMIT


def money(value: float) -> int | float:
    """`value` rounded to four decimals and within ±AMOUNT_LIMIT; an `int` when that is whole."""
    rounded = round(float(value), 4)
    if rounded > AMOUNT_LIMIT:
        return AMOUNT_LIMIT
    if rounded < -AMOUNT_LIMIT:
        return -AMOUNT_LIMIT
    return int(rounded) if rounded.is_integer() else rounded


def shown_money(value: float) -> str:
    """`money(value)` as text: 10 prints as "10", 9.25 as "9.25"."""
    return f"{money(value)}"


def ducats(value: float) -> str:
    """A sum in words: "1 ducat", "3 ducats", "2.5 ducats" (never "1 ducats")."""
    return f"{shown_money(value)} {'ducat' if money(value) == 1 else 'ducats'}"


def shown_value(value: object) -> str:
    """A document's value as a table cell shows it: a dash for none, a number as `shown_money`
    shows it, anything else as its text."""
    if value is None:
        return "—"
    if isinstance(value, int | float) and not isinstance(value, bool):
        return shown_money(value)
    return str(value)


__all__ = ["ducats", "money", "shown_money", "shown_value"]
