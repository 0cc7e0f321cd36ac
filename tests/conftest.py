"""Suite-wide: end-to-end tests that drive real terminals run one after another on one xdist
worker, so two tmux or SSH apps never fight for the two CPUs a CI machine has; and the rule
modules load in one order, whatever the test modules import first."""

from __future__ import annotations

import pytest

from yak_tui.kernel.commands import load_command_modules

# Season-end steps run in the order their modules were first imported (yak_tui.kernel.seasons), so
# a test module that imports warfare before economy would reorder them for every later test in its
# process. Import them all now, in the one canonical order (the order a fresh `yak` uses).
load_command_modules()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("e2e") is not None:
            item.add_marker(pytest.mark.xdist_group("terminals"))
