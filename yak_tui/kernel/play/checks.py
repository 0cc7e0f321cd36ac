"""Registry of `yak resolve CHECK` rule checks: one rule check, no world.

Each check module registers a `ResolveCheck`; the CLI adds the shared flags
(`--dice`, `--seed`, `--odds`, `--json`) and turns its dict into JSON or text.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from yak_tui.kernel.errors import RulesError
from yak_tui.kernel.play.dice import Dice
from yak_tui.kernel.play.helptext import HelpText, help_text
from yak_tui.kernel.world.numbers import NumberError, parse_number, parse_whole


class CheckInputError(RulesError):
    """A resolve option is out of range; the message names the option."""


def whole_option(text: str) -> int:
    """argparse type: a whole number within the typed-number bounds (`yak_tui.kernel.world.numbers`)."""
    try:
        return parse_whole(text)
    except NumberError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def number_option(text: str) -> float:
    """argparse type: a finite number within the typed-number bounds (no nan, no inf)."""
    try:
        return parse_number(text)
    except NumberError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


@dataclass(frozen=True)
class ResolveCheck:
    name: str
    help: HelpText  # read it as `help_text`: it may be formatted from the tables
    add_arguments: Callable[[argparse.ArgumentParser], None]
    # Rolls the check with the dice given and returns the exact JSON object.
    run: Callable[[argparse.Namespace, Dice], dict[str, Any]]
    # Exact odds as a JSON object, or None when the check has no --odds.
    odds: Callable[[argparse.Namespace], dict[str, Any]] | None = None

    @property
    def help_text(self) -> str:
        """The help as `yak resolve` shows it, with the loaded tables' numbers."""
        return help_text(self.help)


RESOLVE_CHECKS: dict[str, ResolveCheck] = {}


def register(check: ResolveCheck) -> ResolveCheck:
    RESOLVE_CHECKS[check.name] = check
    return check
