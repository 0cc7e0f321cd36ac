"""Fixtures for the warfare world tests."""

from __future__ import annotations

import pytest
import yak_plugin
from warfare_helpers import Table


@pytest.fixture
def t(table: yak_plugin.Table) -> Table:
    """The shared `table` fixture (tests/yak_plugin.py) with the warfare shorthands."""
    return Table(table)
