"""The one dice source of yak_tui, and exact odds by enumerating dice.

Every die any rule rolls comes from a `Dice` passed in, so a check can be replayed
(seeded), scripted (tests, `--dice`) or typed in from physical dice (hotseat).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from typing import Any, Protocol, TypeVar, runtime_checkable

T = TypeVar("T")


from yak_tui.kernel.errors import DiceError  # noqa: E402  (re-exported: callers import it from here)


@dataclass(frozen=True)
class Modifier:
    """A signed bonus or malus with the reason a GM can read."""

    value: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return {"value": self.value, "reason": self.reason}


def total_of(modifiers: Iterable[Modifier]) -> int:
    return sum(m.value for m in modifiers)


@runtime_checkable
class Dice(Protocol):
    """Anything that can produce naturals. `source` names it in every RollRecord."""

    source: str

    def roll(self, sides: int = 6, purpose: str = "") -> int: ...


class SeededDice:
    """Pseudo-random dice whose seed is recorded so every roll replays."""

    source = "seeded"

    def __init__(self, seed: int | None = None) -> None:
        import random  # here, not on import: a read that rolls nothing (`yak due`, `yak orders`) needs none

        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**32)
        self._random = random.Random(self.seed)

    def roll(self, sides: int = 6, purpose: str = "") -> int:
        return self._random.randint(1, sides)


class ScriptedDice:
    """Naturals given in advance (tests and `--dice 4,2`), consumed in order."""

    source = "scripted"

    def __init__(self, naturals: Sequence[int]) -> None:
        self._naturals = list(naturals)
        self.used = 0

    @property
    def remaining(self) -> int:
        return len(self._naturals) - self.used

    @property
    def unread(self) -> list[int]:
        return self._naturals[self.used :]

    def require_all_read(self) -> None:
        """Every die given was read by the roll: one left over is a mistake (a typo, a die meant for
        another roll), refused with its value, never silently dropped."""
        if self.remaining:
            left = ", ".join(str(value) for value in self.unread)
            raise DiceError(
                f"{len(self._naturals)} dice given, but the roll reads only {self.used}: {left} would be left unread"
            )

    def roll(self, sides: int = 6, purpose: str = "") -> int:
        if self.used >= len(self._naturals):
            raise DiceError(f"not enough dice given: {purpose or 'a roll'} needs die number {self.used + 1}")
        value = self._naturals[self.used]
        if not 1 <= value <= sides:
            raise DiceError(f"die {self.used + 1} is {value}, but a d{sides} shows 1 to {sides}")
        self.used += 1
        return value


class HandDice(ScriptedDice):
    """Naturals read off physical dice at a hotseat table and typed in before the roll.

    Scripted in mechanics (consumed in order, each checked 1..sides), but recorded as
    `manual` so the chronicle says the dice were rolled by hand.
    """

    source = "manual"


class ManualDice:
    """Dice read off a physical table: `ask(sides, purpose)` returns the face typed in."""

    source = "manual"

    def __init__(self, ask: Callable[[int, str], int]) -> None:
        self._ask = ask

    def roll(self, sides: int = 6, purpose: str = "") -> int:
        value = self._ask(sides, purpose)
        if not isinstance(value, int) or not 1 <= value <= sides:
            raise DiceError(f"a d{sides} shows 1 to {sides}, not {value!r}")
        return value


class RecordingDice:
    """Wraps a source and remembers every natural it produced, for the RollRecord.

    Derived dice (`fairdice.FairDice`) are told the command and the stream (public or private)
    of each roll, and each die's derivation context waits in `pending` until its roll is recorded.
    """

    def __init__(self, inner: Dice, command: str = "") -> None:
        self.inner = inner
        self.source = inner.source
        self.command = command
        self.stream = "public"
        self.naturals: list[int] = []
        self.pending: list[tuple[int, dict[str, Any]]] = []

    def roll(self, sides: int = 6, purpose: str = "") -> int:
        derived = hasattr(self.inner, "last_draw")
        if derived:
            self.inner.command = self.command  # type: ignore[attr-defined]
            self.inner.stream = self.stream  # type: ignore[attr-defined]
        value = self.inner.roll(sides, purpose)
        self.naturals.append(value)
        if derived:
            self.pending.append((value, dict(self.inner.last_draw)))  # type: ignore[attr-defined]
        return value

    def take_draws(self, naturals: Sequence[int], stream: str) -> list[dict[str, Any]] | None:
        """The derivation contexts of a recorded roll's dice, oldest first (None: not derived dice).
        A roll recorded with dice the derived dice did not give, or from the wrong stream, is a bug
        in the rule that rolled it, refused before anything is written."""
        if not hasattr(self.inner, "last_draw"):
            return None
        taken = self.pending[: len(naturals)]
        if [value for value, _ in taken] != list(naturals):
            raise DiceError(f"the roll records {list(naturals)}, but the derived dice gave {[v for v, _ in taken]}")
        for _, draw in taken:
            if draw["stream"] != stream:
                raise DiceError(
                    f"a {stream} roll ({draw['purpose'] or 'a roll'}) was drawn from the {draw['stream']} dice"
                )
        del self.pending[: len(naturals)]
        return [draw for _, draw in taken]


def parse_dice(text: str) -> list[int]:
    """Parse `4,2,6` as typed on a command line; a clear error names the bad item."""
    naturals: list[int] = []
    for index, item in enumerate(text.split(","), start=1):
        item = item.strip()
        if not item:
            raise DiceError(f"--dice item {index} is empty")
        # ASCII digits only: int() would also read other scripts' digits ("٣") and 5,000-digit numbers.
        if not re.fullmatch(r"[0-9]{1,3}", item):
            raise DiceError(f"--dice item {index} is {item!r}, not a die's face (a whole number such as 4)")
        naturals.append(int(item))
    return naturals


@dataclass
class RollRecord:
    """One adjudicated roll as the chronicle keeps it."""

    purpose: str
    naturals: list[int]
    modifiers: list[Modifier] = field(default_factory=list)
    total: int = 0
    band: str = ""
    source: str = "seeded"
    roller: str = ""
    audience: str = "public"
    blind: bool = False
    seed: int | None = None
    outcome: str = ""
    # How a reader checks a roll that is not "naturals plus modifiers" (a d100 under a chance,
    # a d31 swing, a price table): the line the chronicle prints instead of the sum.
    reading: str = ""
    # Derived dice (`fairdice`): each die's context, from which its natural re-derives once the
    # season's secret is revealed.
    draws: list[dict[str, Any]] | None = None

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["modifiers"] = [m.to_dict() for m in self.modifiers]
        if not self.reading:
            del data["reading"]
        if self.draws is None:
            del data["draws"]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> RollRecord:
        values = {key: value for key, value in data.items() if key in cls.__dataclass_fields__}
        values["modifiers"] = [Modifier(**m) for m in values.get("modifiers", [])]
        return cls(**values)


class _NeedDie(Exception):
    def __init__(self, sides: int) -> None:
        self.sides = sides


class _PrefixDice:
    source = "enumerated"

    def __init__(self, prefix: Sequence[int]) -> None:
        self.prefix = prefix
        self.used = 0

    def roll(self, sides: int = 6, purpose: str = "") -> int:
        if self.used >= len(self.prefix):
            raise _NeedDie(sides)
        value = self.prefix[self.used]
        self.used += 1
        return value


def exact_odds(check: Callable[[Dice], T], key: Callable[[T], Hashable]) -> dict[Hashable, Fraction]:
    """Exact probability of each `key(outcome)` of `check`, by walking every die sequence.

    Works for checks that roll a variable number of dice (a spell stops after a failed Power).
    """
    odds: dict[Hashable, Fraction] = {}
    stack: list[tuple[tuple[int, ...], Fraction]] = [((), Fraction(1))]
    while stack:
        prefix, weight = stack.pop()
        dice = _PrefixDice(prefix)
        try:
            outcome = check(dice)
        except _NeedDie as need:
            share = weight / need.sides
            for face in range(need.sides, 0, -1):
                stack.append(((*prefix, face), share))
            continue
        label = key(outcome)
        odds[label] = odds.get(label, Fraction(0)) + weight
    return odds


def as_floats(odds: dict[Hashable, Fraction], digits: int = 6) -> dict[str, float]:
    return {str(k): round(float(v), digits) for k, v in odds.items()}


def d6_ceil_half(natural: int) -> int:
    """ "1d6/2 (round up)" of the rules."""
    return (natural + 1) // 2
