"""Help text that quotes the rules: a plain string, or a function that formats it from the loaded
tables when it is shown, so a house rule (`--rules DIR`, `YAK_RULES`) changes the help too."""

from __future__ import annotations

from collections.abc import Callable

from yak_tui.kernel.world.money import shown_money

# A command's, a parameter's or a `yak resolve` check's help: fixed text, or text made on demand.
HelpText = str | Callable[[], str]


def help_text(value: HelpText) -> str:
    """The help as shown now (a callable is called each time: the tables may have changed)."""
    return value() if callable(value) else value


def signed(value: float) -> str:
    """A modifier as help quotes it: "+1", "-2", "+0.5"."""
    amount = shown_money(value)
    return amount if amount.startswith("-") else f"+{amount}"


def ducats(value: float) -> str:
    """An amount of ducats as help quotes it: "1 ducat", "3 ducats"."""
    return f"{shown_money(value)} ducat{'' if value == 1 else 's'}"
