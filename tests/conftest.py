"""Suite-wide: end-to-end tests that drive real terminals run one after another on one xdist
worker, so two tmux or SSH apps never fight for the two CPUs a CI machine has."""

from __future__ import annotations

import pytest


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("e2e") is not None:
            item.add_marker(pytest.mark.xdist_group("terminals"))
