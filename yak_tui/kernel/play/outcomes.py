"""Outcomes in words: the one place an odds key or a roll's band (`success_and_undetected`,
`captured-identified`, `overshoot`) becomes what a person reads ("succeeds unseen").

The words are the `words` rules table's `[outcomes]`; the keys stay as the rules, the save and
--json have them. An area may word one of its commands' odds rows itself when the words depend
on what was asked (`odds_phrase`: the spy of an infiltration stays in place; he is not "lost").
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from yak_tui.kernel.world.tables import table

# command -> (its parameters, the odds key, its chance) -> the row's label in words and whether its
# chance follows it ("takes 4 ducats", True), or None for the usual label
OddsPhrase = Callable[[Mapping[str, Any], str, float], tuple[str, bool] | None]
ODDS_PHRASES: dict[str, OddsPhrase] = {}


_SLUG = re.compile(r"[a-z0-9]+(?:[-_][a-z0-9]+)+")


def outcome_words(key: str, outcomes: Mapping[str, Any] | None = None) -> str:
    """An outcome's key in words: the `words` table's, else a slug with `-` and `_` as spaces
    ("spy-returns" → "spy returns"); text that is no slug (a GM's own band) stays as written.
    `outcomes`: that table's `[outcomes]`, looked up once by a caller wording several rows."""
    words = (table("words").get("outcomes", {}) if outcomes is None else outcomes).get(key)
    if words:
        return str(words)
    return key.replace("_", " ").replace("-", " ") if _SLUG.fullmatch(key) else key


def percent_words(p: float) -> str:
    """A chance as a filer reads it: "58%", "<1%"."""
    return f"{'<1' if 0 < p < 0.005 else f'{p * 100:.0f}'}%"


def odds_phrase(command: str, phrase: OddsPhrase) -> None:
    """Register how `command`'s odds rows read when the words depend on its parameters."""
    ODDS_PHRASES[command] = phrase


def odds_label(
    key: str,
    p: float,
    command: str = "",
    params: Mapping[str, Any] | None = None,
    outcomes: Mapping[str, Any] | None = None,
) -> tuple[str, bool]:
    """One odds row's label in words ("succeeds unseen", "takes 4 ducats") and whether its chance
    is worth saying (not for a certainty told as a sentence: "the spy stays in place ...")."""
    phrase = ODDS_PHRASES.get(command)
    said = phrase(params or {}, key, p) if phrase is not None else None
    return said if said is not None else (outcome_words(key, outcomes), True)


def odds_row_words(
    key: str,
    p: float,
    command: str = "",
    params: Mapping[str, Any] | None = None,
    outcomes: Mapping[str, Any] | None = None,
) -> str:
    """One odds row in words: "succeeds unseen 22%", or the command's own phrase for it."""
    label, with_chance = odds_label(key, p, command, params, outcomes)
    return f"{label} {percent_words(p)}" if with_chance else label


__all__ = ["ODDS_PHRASES", "odds_label", "odds_phrase", "odds_row_words", "outcome_words", "percent_words"]
