"""Fixtures for the warfare world tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from warfare_helpers import Table

from yak_tui.kernel.demo import create_world


@pytest.fixture
def t(tmp_path: Path) -> Table:
    return Table(create_world(tmp_path / "w.json"))
