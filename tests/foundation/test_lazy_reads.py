"""An area's read models load when first used (kernel/play/lazy.py): a command that only changes the world
(`yak advance`, `yak do ...`) never imports them, and every name an area exports is still there."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

AREAS = ("court", "economy", "espionage", "magic", "nobles", "warfare")

CHANGE_THE_WORLD = """
import sys
from yak_tui.cli import main
from yak_tui.kernel.world.demo import create_world
create_world(sys.argv[1])
assert main(["--save", sys.argv[1], "do", "note", "text=a note"]) == 0
assert main(["--save", sys.argv[1], "advance"]) == 0
print("read models:", ",".join(sorted(name for name in sys.modules if name.startswith("yak_tui.areas.") and name.endswith(".read"))))
"""


def test_a_command_that_changes_the_world_loads_no_read_model(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHANGE_THE_WORLD, str(tmp_path / "world.json")],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "read models: "


@pytest.mark.parametrize("area", AREAS)
def test_every_name_an_area_exports_is_there(area: str) -> None:
    package = importlib.import_module(f"yak_tui.areas.{area}")
    for name in package.__all__:
        assert getattr(package, name) is not None, (area, name)
    with pytest.raises(AttributeError):
        package.no_such_name  # noqa: B018  (the lookup is the test)
    read = importlib.import_module(f"yak_tui.areas.{area}.read")
    lazy = [name for name in package.__all__ if hasattr(read, name) and getattr(package, name) is getattr(read, name)]
    assert lazy, area  # some names do come from the read models
