"""Importing the economy package registers the area, without reordering anyone's season steps."""

from __future__ import annotations

import subprocess
import sys

STEP_ORDER = """
import sys
from yak_tui.kernel.season import seasons
from yak_tui.kernel.play.commands import load_command_modules
if sys.argv[1] == "cli":
    from yak_tui.cli import load_resolve_checks
    load_resolve_checks()
load_command_modules()
order = seasons.season_order()
print([handler.label for handler in seasons.in_order(seasons.SEASON_START, order)])
print([handler.label for handler in seasons.in_order(seasons.SEASON_END, order)])
print([handler.fn.__module__ for handler in seasons.in_order(seasons.DUE_REPORTERS, order)])
"""


def _step_order(path: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", STEP_ORDER, path], capture_output=True, text=True, timeout=120, check=True
    )
    return done.stdout


def test_the_cli_loads_the_season_steps_in_the_same_order_as_a_session() -> None:
    """The CLI imports every area's resolve checks; with the economy registering on import, that
    used to run its "Credit falls due" before espionage's effects ran out (a different advance)."""
    assert _step_order("cli") == _step_order("session")


def test_importing_the_package_registers_the_economy_headless() -> None:
    code = (
        "import sys, yak_tui.areas.economy as economy\n"
        "from yak_tui.kernel.play.commands import COMMANDS\n"
        "assert {'business-open', 'produce', 'credit-extend', 'hire', 'academy-found', 'trap', 'convert'}"
        " <= set(COMMANDS), sorted(COMMANDS)\n"
        "assert 'textual' not in sys.modules\n"
        "assert all(hasattr(economy, name) for name in economy.__all__)\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
