"""Espionage world-test fixtures: the shared `table` fixture's demo world file (tests/yak_plugin.py)."""

from __future__ import annotations

import pytest
from yak_plugin import Table

from yak_tui.store.storage import WorldFile


@pytest.fixture
def save(table: Table) -> WorldFile:
    return table.save
