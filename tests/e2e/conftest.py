"""Fixtures of the end-to-end tests: the real `yak` in tmux on a fresh demo save."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from tmux_helpers import Tmux, yak_command

from yak_tui.kernel.world.demo import create_world


@pytest.fixture
def session(tmp_path: Path) -> Iterator[tuple[Tmux, Path]]:
    """The GM's `yak` on a fresh demo save. `remain-on-exit` is not set: when yak quits, the
    session ends and `alive()` turns false."""
    save = tmp_path / "world.json"
    create_world(save)
    term = Tmux(yak_command(tmp_path, save))
    try:
        yield term, save
    finally:
        term.kill()
