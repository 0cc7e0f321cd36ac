"""Economy world-layer fixtures: a fresh demo save per test."""

from __future__ import annotations

from pathlib import Path

import pytest

from yak_tui.kernel.demo import create_world
from yak_tui.store.storage import WorldFile


@pytest.fixture
def save(tmp_path: Path) -> WorldFile:
    return create_world(tmp_path / "w.json")
