"""Shared fixtures for the foundation tests: a demo world on disk and in memory."""

from __future__ import annotations

from pathlib import Path

import pytest

from yak_tui.kernel.commands import load_command_modules
from yak_tui.kernel.demo import build_world, create_world
from yak_tui.kernel.model import World
from yak_tui.store.storage import WorldFile

load_command_modules()


@pytest.fixture
def save(tmp_path: Path) -> WorldFile:
    """The demo world Elbreth in `saves/world.json` under a fresh directory."""
    return create_world(tmp_path / "saves" / "world.json")


@pytest.fixture
def world() -> World:
    return World(build_world())
