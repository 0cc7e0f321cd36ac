"""Issue 30: the area packages are imported once per process, not on every `spec_for`."""

from __future__ import annotations

import importlib

import pytest

from yak_tui.kernel.play.commands import load_command_modules, spec_for


def test_spec_for_imports_nothing_once_the_commands_are_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    load_command_modules()
    imports: list[str] = []
    real = importlib.import_module

    def counted(name: str, package: str | None = None) -> object:
        imports.append(name)
        return real(name, package)

    monkeypatch.setattr(importlib, "import_module", counted)
    for _ in range(50):
        spec_for("hire")
        load_command_modules()
    assert imports == []
