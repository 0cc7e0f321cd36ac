"""Economy world-layer fixtures: a fresh demo save per test."""

from __future__ import annotations

import pytest
from yak_plugin import Table

from yak_tui.store.storage import WorldFile


@pytest.fixture
def save(table: Table) -> WorldFile:
    """The shared `table` fixture's demo world file (tests/yak_plugin.py)."""
    return table.save
