"""The app's house rules: no screen imports the app (main imports its screens, not the other way
round), and every area stylesheet is scoped to its own screens, so no rule reaches another screen."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from textual.screen import Screen

import yak_tui.app.screens as areas_package
from yak_tui.app.navigation import SCREENS

AREAS = Path(areas_package.__file__).parent
SCREEN_MODULES = sorted({module for module, _, _, _ in SCREENS.values()} | {"espionage.spy_order", "magic.screen"})


def test_importing_every_screen_leaves_the_app_module_unloaded() -> None:
    imports = "; ".join(f"import yak_tui.app.screens.{module}" for module in SCREEN_MODULES)
    code = f"import sys; {imports}; print('yak_tui.app.main' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def _screen_classes(area: Path) -> set[str]:
    """The Screen subclasses (screens and dialogs) an area defines."""
    import importlib

    names: set[str] = set()
    for source in area.glob("*.py"):
        module = importlib.import_module(f"yak_tui.app.screens.{area.name}.{source.stem}")
        names |= {
            name
            for name, value in vars(module).items()
            if isinstance(value, type) and issubclass(value, Screen) and value.__module__ == module.__name__
        }
    return names


@pytest.mark.parametrize("sheet", sorted(AREAS.glob("*/*.tcss")), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_selector_of_an_area_stylesheet_starts_with_one_of_its_screens(sheet: Path) -> None:
    owners = _screen_classes(sheet.parent)
    text = re.sub(r"/\*.*?\*/", "", sheet.read_text(), flags=re.S)
    selectors = [s.strip() for rule in re.findall(r"(?m)^([^\s}][^{]*)\{", text) for s in rule.split(",")]
    assert selectors
    stray = [
        s
        for s in selectors
        if re.match(r"[A-Za-z_]\w*", s) is None or re.match(r"[A-Za-z_]\w*", s).group() not in owners
    ]
    assert stray == [], f"{sheet.name}: not scoped to {sorted(owners)}"
