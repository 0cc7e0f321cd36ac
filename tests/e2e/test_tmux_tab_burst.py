"""Issue 29: "a typed RtD modifier was lost". In a real terminal, the GM types `r`, the reason, tab
and the modifier in one burst, before the dialog `r` opens is on screen. The keys before tab were
still on their way to the dashboard's bindings when tab came, and tab moved the focus on the
dashboard: the modifier landed in the reason ("ford2"). Tab now waits for the keys typed before it,
so each value lands in its own field, however fast the keys come, and again after escape."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from tmux_helpers import Tmux, yak_command

from yak_tui.kernel.world.demo import create_world

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def field(text: str, label: str) -> str | None:
    """The value shown right of a form label inside the dialog (the screen behind shows left of it)."""
    found = re.search(rf"│\s+{label} (\S*)", text)
    return found.group(1) if found else None


@pytest.fixture
def term(tmp_path: Path) -> Iterator[Tmux]:
    save = tmp_path / "world.json"
    create_world(save)
    terminal = Tmux(yak_command(tmp_path, save, "gm"), width=100, height=30)
    try:
        yield terminal
    finally:
        terminal.kill()


def test_a_burst_with_tab_fills_each_field_in_turn(term: Tmux) -> None:
    term.wait_for("Spring 312")
    for reason, modifier in (("ford", "2"), ("bridge", "3"), ("keep", "1")):
        term.burst("r", reason, "Tab", modifier)
        text = term.wait_for(lambda t, m=modifier: "Roll the dice" in t and field(t, "modifier") == m)
        assert field(text, "reason") == reason, text
        term.keys("Escape")
        term.wait_for(lambda t: "Roll the dice" not in t)
