"""Help that quotes a number from the rules is formatted from the loaded tables: a house rule
(`--rules DIR`, `YAK_RULES`) changes `yak do --list`, `yak resolve --help`, the app's forms and
palette, and a help line never freezes the default table's number at import."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from yak_tui.kernel.play.checks import RESOLVE_CHECKS
from yak_tui.kernel.play.commands import COMMANDS, load_command_modules
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.play.views import all_commands, command_choice
from yak_tui.kernel.world.demo import build_world
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import set_override_dir

load_command_modules()
# `yak resolve` checks register with the area packages' cli modules.
from yak_tui.cli.parser import load_resolve_checks  # noqa: E402

load_resolve_checks()

HOUSE = {
    "economy.toml": """
[conversion]
base = -4
per_ducat = 2
[hiring]
cost_immediate = 5
[credit]
min_size = 6
[academy]
specialists_per_level = 4
[engineers]
trap_cost = 2
[market_sale]
faces = [{ max_natural = 2, delta = -1 }, { max_natural = 6, delta = 0 }]
""",
    "warfare.toml": """
[raid]
die = 8
[smuggle]
bribe_cap = 3
threshold = 5
[messenger]
threshold = 2
""",
    "nobles.toml": """
[swing]
max_percent = 10
[relocate]
range = 9
""",
}

# (command, parameter or "" for the command's own line): (the default's words, the house rule's)
EXPECTED = {
    ("convert", ""): ("RtD at -2, +1 per ducat", "RtD at -4, +2 per ducat"),
    ("convert", "ducats"): ("extra ducats, +1 each", "extra ducats, +2 each"),
    ("hire", "immediate"): ("3 ducats, arrives at once", "5 ducats, arrives at once"),
    ("hire", ""): ("or 3 at once", "or 5 at once"),
    ("credit-extend", ""): ("Size 4+", "Size 6+"),
    ("academy-found", ""): ("3 specialists of a type", "4 specialists of a type"),
    ("trap", ""): ("Spend 1 ducat and", "Spend 2 ducats and"),
    ("raid", ""): ("for 1d6 ducats", "for 1d8 ducats"),
    ("smuggle", ""): ("max +2) + modifier >= 4", "max +3) + modifier >= 5"),
    ("messenger", ""): ("besieging Scouts >= 3", "besieging Scouts >= 2"),
    ("relocate", ""): ("up to 7 hexes", "up to 9 hexes"),
    ("incite", "swing"): ("±15% day swing", "±10% day swing"),
}
CHECKS = {
    "conversion": ("RtD -2, +1 per ducat", "RtD -4, +2 per ducat"),
    "market-sale": ("d6 1 -> base-1, 2-5 -> base, 6 -> base+1", "d6 1-2 -> base-1, 3-6 -> base"),
    "incite": ("d31 day swing", "d21 day swing"),
}

# Help lines with digits that quote no number of the tables (a date, a section, a die the code fixes).
NOT_FROM_TABLES = {
    ("business-open", ""),
    ("schedule", "due"),
    ("spy-order", ""),
    ("check", "rtd"),
    ("check", "competition"),
    ("check", "spell"),
    ("check", "relocate-discovery"),
    ("battle", "losses"),
    ("gm-transfer", "goods"),  # examples of the syntax ("a:2,b:1", "Grain:3")
    ("season-deadline", "at"),  # a date format
    ("season-deadline", ""),  # a date format
    ("season-extend", "by"),  # examples of a length of time ("24h", "2d")
}


@pytest.fixture
def house(tmp_path: Path) -> Iterator[Path]:
    """The house rules above, switched on in this process and off again after the test."""
    for name, text in HOUSE.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    yield tmp_path
    set_override_dir(None)


def _help(command: str, param: str) -> str:
    spec = COMMANDS[command]
    return spec.params[param].help_text if param else spec.help_text


def test_every_help_that_quotes_a_number_is_made_from_the_tables() -> None:
    """A fixed help string with a digit in it is allowed only where the number is not a table's."""
    fixed = {
        (name, "") for name, spec in COMMANDS.items() if isinstance(spec.help, str) and re.search(r"\d", spec.help)
    }
    fixed |= {
        (name, param)
        for name, spec in COMMANDS.items()
        for param, p in spec.params.items()
        if isinstance(p.help, str) and re.search(r"\d", p.help)
    }
    fixed |= {
        ("check", name)
        for name, check in RESOLVE_CHECKS.items()
        if isinstance(check.help, str) and re.search(r"\d", check.help)
    }
    assert fixed <= NOT_FROM_TABLES, sorted(fixed - NOT_FROM_TABLES)


def test_a_house_rule_changes_the_help_in_process(house: Path) -> None:
    world = World(build_world())
    for (command, param), (default, _) in EXPECTED.items():
        assert default in _help(command, param), (command, param, _help(command, param))
    for name, (default, _) in CHECKS.items():
        assert default in RESOLVE_CHECKS[name].help_text
    set_override_dir(str(house))
    for (command, param), (default, ruled) in EXPECTED.items():
        assert ruled in _help(command, param) and default not in _help(command, param), (command, param)
    for name, (_, ruled) in CHECKS.items():
        assert ruled in RESOLVE_CHECKS[name].help_text, (name, RESOLVE_CHECKS[name].help_text)
    # The app's forms and palette read the same help.
    assert "RtD at -4, +2 per ducat" in command_choice(world, GM, "convert").help
    fields = {field.name: field.help for field in command_choice(world, GM, "hire").fields}
    assert fields["immediate"] == "5 ducats, arrives at once"
    assert "for 1d8 ducats" in dict((n, h) for n, h, _ in all_commands())["raid"]


def _yak(cwd: Path, *argv: str) -> str:
    env = {k: v for k, v in os.environ.items() if k != "YAK_RULES"}
    done = subprocess.run(
        [sys.executable, "-m", "yak_tui", *argv],
        capture_output=True,
        text=True,
        env=env,
        cwd=cwd,
        timeout=120,
        check=True,
    )
    return done.stdout


def test_a_house_rule_changes_yak_do_list_and_resolve_help(house: Path) -> None:
    default = json.loads(_yak(house, "--json", "do", "--list"))["commands"]
    ruled = json.loads(_yak(house, "--rules", str(house), "--json", "do", "--list"))["commands"]
    for (command, param), (before, after) in EXPECTED.items():
        shown = [default[command], ruled[command]]
        if param:
            shown = [listing["params"][param] for listing in shown]
        assert before in shown[0]["help"] and after in shown[1]["help"], (command, param, shown)
    assert "d31 day swing" in _yak(house, "resolve", "--help")
    assert "d21 day swing" in _yak(house, "--rules", str(house), "resolve", "--help")
    assert "(-4)" not in _yak(house, "resolve", "conversion", "--help")
    ruled_conversion = _yak(house, "--rules", str(house), "resolve", "conversion", "--help")
    assert "(+2 each)" in " ".join(ruled_conversion.split())
