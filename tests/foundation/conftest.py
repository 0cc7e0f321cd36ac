"""Shared fixtures for the foundation tests: a demo world on disk and in memory."""

from __future__ import annotations

import pytest
from yak_plugin import Table

from yak_tui.kernel.play.commands import load_command_modules
from yak_tui.kernel.world.demo import build_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

load_command_modules()


@pytest.fixture
def save(table: Table) -> WorldFile:
    """The shared `table` fixture's demo world Elbreth, in `saves/world.json` (tests/yak_plugin.py)."""
    return table.save


@pytest.fixture
def world() -> World:
    return World(build_world())
