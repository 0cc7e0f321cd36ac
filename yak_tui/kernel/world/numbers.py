"""Numbers typed by people (command parameters, `yak resolve` options, order parameters).

Every such number is finite and lies within ±LIMIT unless its caller gives narrower bounds:
sums of ducats, counts and modifiers then stay exact in floating point (far below 2**53), and
nothing computed from them can overflow to infinity or beyond 64 bits, so a reply or a save
can always be written as JSON.
"""

from __future__ import annotations

import math
import re
from typing import Any, TypeVar

from yak_tui.kernel.errors import ValidationError, YakError

LIMIT = 10**9

# The range of every number a document holds, unless its field says a narrower (or, for a dice
# seed, a wider) one: `yak_tui.kernel.world.documents.Field.low/high`, checked by `yak new --from`, on
# every load and on every write. The ruling (docs/world-format.md, "Numbers"):
# - ducats are kept to four decimals (`money`); below 2**53 / 10**4 (about 9.007e11) a float still
#   tells every four-decimal amount apart, so 10**11 keeps every amount exact to the fourth decimal;
# - a season or a year start adds at most one value per document into a total: 10**7 documents at
#   the limit sum to 10**18, inside 64 bits (9.22e18) with room to spare, and a total paid into a
#   treasury is brought back within the limit by `money`, so a year start never jams on a number;
# - typed numbers (`LIMIT`, 10**9) are a hundredth of it: no one command reaches it.
AMOUNT_LIMIT = 10**11

N = TypeVar("N", int, float)

# Numbers are typed in ASCII digits: Python's int() and float() would also read other scripts' digits
# ("١٢" as 12) and underscores ("1_000"), which a person reading the line back would not see as typed.
_WHOLE_TEXT = re.compile(r"[+-]?[0-9]+")
_NUMBER_TEXT = re.compile(
    r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|[+-]?(?:nan|inf|infinity)", re.IGNORECASE
)


def capped(count: int) -> int:
    """A whole number a season or a year start adds to (a pool of specialists, goods, manpower) kept
    within ±AMOUNT_LIMIT, as `money` keeps ducats: a count at the limit stays there."""
    return AMOUNT_LIMIT if count > AMOUNT_LIMIT else -AMOUNT_LIMIT if count < -AMOUNT_LIMIT else count


class NumberError(ValidationError):
    """A typed number is not a number, not finite, or out of range; the message says which."""

    def __init__(self, message: str) -> None:
        YakError.__init__(self, message)
        self.field = "number"
        self.reason = message


def counted(count: float, noun: str, plural: str = "") -> str:
    """A count with its noun in the right number: "1 regiment", "2 regiments", "3 spies" (never
    "regiment(s)"); `plural` for a noun that does not take an -s."""
    many = plural or (noun[:-1] + "ies" if noun.endswith("y") and noun[-2:-1] not in "aeiou" else noun + "s")
    shown_count = int(count) if float(count).is_integer() else count
    return f"{shown_count} {noun if shown_count == 1 else many}"


def shown(value: Any) -> str:
    """A bad value as an error line shows it: its repr, cut short."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def parse_whole(value: Any, low: float | None = None, high: float | None = None) -> int:
    """A whole number from text or a JSON number, within [low, high] (default ±LIMIT)."""
    if isinstance(value, bool) or isinstance(value, float):
        raise NumberError(f"must be a whole number, not {shown(value)}")
    text = str(value).strip()
    if not isinstance(value, int) and not _WHOLE_TEXT.fullmatch(text):
        raise NumberError(f"must be a whole number in the digits 0-9, not {shown(value)}")
    try:
        whole = int(text)
    except ValueError:
        raise NumberError(f"must be a whole number, not {shown(value)}") from None
    return _within(whole, low, high)


def parse_number(value: Any, low: float | None = None, high: float | None = None) -> float:
    """A finite number from text or a JSON number, within [low, high] (default ±LIMIT)."""
    if isinstance(value, bool):
        raise NumberError(f"must be a number, not {shown(value)}")
    text = str(value).strip()
    if not isinstance(value, int | float) and not _NUMBER_TEXT.fullmatch(text):
        raise NumberError(f"must be a number in the digits 0-9, not {shown(value)}")
    try:
        number = float(text)
    except (ValueError, OverflowError):
        raise NumberError(f"must be a number, not {shown(value)}") from None
    if not math.isfinite(number):
        raise NumberError(f"must be a finite number, not {shown(value)}")
    return _within(number, low, high)


def _within(value: N, low: float | None, high: float | None) -> N:
    if low is not None and value < low:
        raise NumberError(f"must be at least {_bound(low)}, not {shown(value)}")
    if low is None and value < -LIMIT:
        raise NumberError(f"must be between {-LIMIT} and {LIMIT}, not {shown(value)}")
    limit = LIMIT if high is None else high
    if value > limit:
        raise NumberError(f"must be at most {_bound(limit)}, not {shown(value)}")
    return value


def _bound(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:g}"
