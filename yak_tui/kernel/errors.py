"""The error a rule raises when asked about something it does not cover."""

from __future__ import annotations


class RuleInputError(ValueError):
    """An unknown sector, title or size, a negative count...: the message says what is wrong and
    what is known, so front ends show it as it is (a ValueError, for callers that catch those)."""
