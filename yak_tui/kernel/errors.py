"""One error model: everything a person can cause (a bad command, a bad file, a bad die) is a
`YakError`, so a front end catches one class and shows its message as it is; anything else is a bug.

The five families say where the fault lies. Each keeps `ValueError` (or `OSError` for the store's
write failures) among its bases for callers that catch those.
"""

from __future__ import annotations


class YakError(Exception):
    """A fault in what a person gave us; the message names it and says what would be right."""


class CommandError(YakError):
    """A refused command: `field` names what is wrong, `reason` says why, `who_may` who could."""

    def __init__(self, field: str, reason: str, who_may: tuple[str, ...] = ()) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason
        self.who_may = tuple(dict.fromkeys(who_may))  # each once: "gm" and an order's adjudicator may be one


class ShortfallError(CommandError):
    """Refused on today's numbers only: a treasury, purse, manpower or store holds less than the command
    spends. An order refused this way is still received (with a warning): the numbers may change before
    its adjudicator carries it out."""


class ValidationError(YakError, ValueError):
    """A document, parameter or number is invalid; `field` names what is wrong."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}")
        self.field = field
        self.reason = reason


class StoreError(YakError):
    """The save cannot be read or written; the message says what and how to recover."""


class RulesError(YakError, ValueError):
    """A rule was asked about something it does not cover, or a rules table is malformed."""


class RuleInputError(RulesError):
    """An unknown sector, title or size, a negative count...: the message says what is wrong and
    what is known, so front ends show it as it is."""


class DiceError(YakError, ValueError):
    """A die could not be rolled: a script ran out or a hand-entered face is invalid."""


class UsageError(YakError):
    """Bad command-line input (`yak`, `yak serve`): one line on stderr, exit code 2."""


__all__ = [
    "CommandError",
    "DiceError",
    "RuleInputError",
    "RulesError",
    "StoreError",
    "UsageError",
    "ValidationError",
    "YakError",
]
