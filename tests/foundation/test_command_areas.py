"""Issue 30, fourth pass: `COMMAND_AREAS` names the module that registers each command, so a reader
that needs a few commands (`yak orders`) imports only their areas. The map is held to the
registrations here: a command registered elsewhere, or missing from it, fails."""

from __future__ import annotations

import subprocess
import sys

from yak_plugin import Table

from yak_tui.kernel.play.areas import COMMAND_AREAS
from yak_tui.kernel.play.commands import COMMAND_MODULES, COMMANDS, load_command_modules
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.play.outcomes import ODDS_PHRASES
from yak_tui.kernel.play.queue import order_lines, waiting_text


def _within(module: str, registrar: str) -> bool:
    return module == registrar or module.startswith(registrar + ".")


def test_every_command_is_mapped_to_the_module_that_registers_it() -> None:
    load_command_modules()
    assert set(COMMANDS) == set(COMMAND_AREAS), "COMMAND_AREAS (kernel/play/areas.py) differs from the registry"
    assert set(COMMAND_AREAS.values()) <= set(COMMAND_MODULES)
    for name, spec in COMMANDS.items():
        assert _within(spec.handler.__module__, COMMAND_AREAS[name]), (name, spec.handler.__module__)
        for param in spec.params.values():  # what describes its parameters comes with it
            for helper in (param.label, param.options):
                if helper is not None and helper.__module__.startswith("yak_tui.areas."):
                    assert _within(helper.__module__, COMMAND_AREAS[name]) or helper.__module__ in sys.modules
    for name, phrase in ODDS_PHRASES.items():  # how its odds read is registered by its own area
        assert _within(phrase.__module__, COMMAND_AREAS[name]), (name, phrase.__module__)


PROBE = """
import sys
from yak_tui.cli import main
code = main(sys.argv[1:])
sys.stderr.write("\\n" + " ".join(sorted(m for m in sys.modules if m.startswith("yak_tui.areas."))) + "\\n")
sys.exit(code)
"""


def test_yak_orders_imports_only_the_areas_of_the_waiting_orders(table: Table) -> None:
    """The waiting orders are a roll (court) and a hire (economy, which uses espionage's market
    effects): warfare, magic and nobles stay unimported (all six were: ~15 ms at 100x), and the
    lines are those printed with every area loaded."""
    table.run("player:nyx", "order-file", command="roll", params='{"reason": "Slip past the March Patrol"}')
    table.run("king:varos", "order-file", command="hire", params='{"kingdom": "varos", "type": "spy", "count": 1}')
    done = subprocess.run(
        [sys.executable, "-c", PROBE, "--save", str(table.save.path), "orders"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    areas = {".".join(name.split(".")[:3]) for name in done.stderr.split()}
    assert areas == {"yak_tui.areas.court", "yak_tui.areas.economy", "yak_tui.areas.espionage"}
    load_command_modules()
    world = table.world
    assert done.stdout == waiting_text(world, GM, order_lines(world, GM)) + "\n"
    assert "hire" in done.stdout and "roll" in done.stdout
