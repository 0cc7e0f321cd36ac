"""A character's pronouns, for every sentence about him or her or them: a capture "robs her", a
report says "their purse". Stored as `pronouns` on the character ("he/him", "she/her",
"they/them"); a character without one is "they/them", so no sentence guesses a sex."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

PRONOUN_CHOICES = ("he/him", "she/her", "they/them")
DEFAULT_PRONOUNS = "they/them"


@dataclass(frozen=True)
class Pronouns:
    subject: str  # he, she, they
    object: str  # him, her, them
    possessive: str  # his, her, their


_FORMS = {
    "he/him": Pronouns("he", "him", "his"),
    "she/her": Pronouns("she", "her", "her"),
    "they/them": Pronouns("they", "them", "their"),
}


def pronouns_of(character: dict[str, Any] | None) -> Pronouns:
    """The character's pronouns (they/them when none is set or the character is unknown)."""
    chosen = str((character or {}).get("pronouns") or DEFAULT_PRONOUNS)
    return _FORMS.get(chosen, _FORMS[DEFAULT_PRONOUNS])


__all__ = ["DEFAULT_PRONOUNS", "PRONOUN_CHOICES", "Pronouns", "pronouns_of"]
