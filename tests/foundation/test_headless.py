"""The core never imports the UI: rules, world and store load without Textual (DESIGN "Layers")."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import orjson

CORE = ("yak_tui.kernel", "yak_tui.areas", "yak_tui.rules", "yak_tui.store")

PROBE = textwrap.dedent(
    """
    import importlib, pkgutil, sys, orjson
    roots = {roots!r}
    imported = []
    for root in roots:
        package = importlib.import_module(root)
        imported.append(root)
        for info in pkgutil.walk_packages(package.__path__, prefix=root + "."):
            importlib.import_module(info.name)
            imported.append(info.name)
    # Registering every command and check pulls in the same modules the CLI and app use.
    from yak_tui.kernel.play.commands import load_command_modules
    load_command_modules()
    ui = sorted(m for m in sys.modules if m == "textual" or m.startswith(("textual.", "textual_")))
    sys.stdout.write(orjson.dumps({{"imported": imported, "ui": ui}}).decode())
    """
)


def probe(*roots: str) -> dict:
    done = subprocess.run(
        [sys.executable, "-c", PROBE.format(roots=roots)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    return orjson.loads(done.stdout)


def test_core_imports_without_textual() -> None:
    result = probe(*CORE)
    assert result["ui"] == [], f"the core imported the UI: {result['ui']}"
    imported = set(result["imported"])
    for module in (
        "yak_tui.kernel.play.dice",
        "yak_tui.kernel.play.rtd",
        "yak_tui.kernel.play.commands",
        "yak_tui.kernel.play.audience",
        "yak_tui.kernel.season.seasons",
        "yak_tui.store.storage",
    ):
        assert module in imported
    assert len(imported) >= 15


def test_each_core_package_alone_is_headless() -> None:
    for root in CORE:
        assert probe(root)["ui"] == [], root


def test_the_probe_can_fail() -> None:
    """The same probe sees Textual when something does import it."""
    done = subprocess.run(
        [sys.executable, "-c", "import textual, sys; print('textual' in sys.modules)"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.stdout.strip() == "True"
