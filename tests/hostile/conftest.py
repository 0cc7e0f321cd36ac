"""Hostile-input fixtures: one demo world built once, copied per test; the CLI run in process."""

from __future__ import annotations

from pathlib import Path

import pytest

from yak_tui.kernel.world.demo import create_world


@pytest.fixture(scope="session")
def demo_bytes(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    return create_world(tmp_path_factory.mktemp("demo") / "world.json").path.read_bytes()


@pytest.fixture
def save_path(tmp_path: Path, demo_bytes: bytes) -> Path:
    path = tmp_path / "world.json"
    path.write_bytes(demo_bytes)
    return path
