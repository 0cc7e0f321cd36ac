"""Suite-wide: the shared `table` fixture (tests/yak_plugin.py); the `app` and `e2e` markers put on
by directory, so `pytest -m "not app and not e2e"` is the quick headless loop; end-to-end tests that drive real terminals run one after another on one xdist
worker, so two tmux or SSH apps never fight for the two CPUs a CI machine has; and the rule
modules load in one order, whatever the test modules import first."""

from __future__ import annotations

from pathlib import Path

import pytest

from yak_tui.kernel.commands import load_command_modules

# Season-end steps run in the order their modules were first imported (yak_tui.kernel.seasons), so
# a test module that imports warfare before economy would reorder them for every later test in its
# process. Import them all now, in the one canonical order (the order a fresh `yak` uses).
load_command_modules()

pytest_plugins = ["yak_plugin"]
TESTS = Path(__file__).parent
MARKED_DIRECTORIES = {"app": "app", "e2e": "e2e"}  # tests/<directory> -> the marker its tests carry


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        parts = item.path.relative_to(TESTS).parts if item.path.is_relative_to(TESTS) else ()
        if parts and parts[0] in MARKED_DIRECTORIES:
            item.add_marker(getattr(pytest.mark, MARKED_DIRECTORIES[parts[0]]))
        if item.get_closest_marker("e2e") is not None:
            item.add_marker(pytest.mark.xdist_group("terminals"))
