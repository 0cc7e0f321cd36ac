"""Issue 24, the hotseat GM's PIN in a real terminal (tmux, 100×30): `yak tui --gm-pin` with
YAK_GM_PIN set; the GM hands the keyboard to a player with i, and i back to the GM asks for the PIN:
a wrong one leaves the player's seat, the right one gives the GM's back. The PIN is never shown."""

from __future__ import annotations

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

PIN = "4711"
WRONG = "9090"
CORVIN = "◆ Player · Corvin Hale"


@pytest.fixture
def pinned(tmp_path: Path) -> Iterator[Tmux]:
    save = tmp_path / "world.json"
    create_world(save)
    term = Tmux(f"export YAK_GM_PIN={PIN}; {yak_command(tmp_path, save)} tui --gm-pin")
    try:
        yield term
    finally:
        term.kill()


def test_the_gm_seat_asks_for_the_pin_in_a_real_terminal(pinned: Tmux) -> None:
    term = pinned
    term.wait_for(lambda t: "Due this season" in t and "◆ GM" in t)
    term.keys("i")
    term.wait_for("Who is at the keyboard?")
    # GM, two Kings, then the players: King Aldric, Corvin Hale (separators are skipped).
    term.keys("Down", "Down", "Down", "Down", "Enter")
    term.wait_for(lambda t: CORVIN in t and "Who is at the keyboard?" not in t)

    term.keys("i")
    term.wait_for("Who is at the keyboard?")
    term.keys("Home", "Enter")
    term.wait_for("type the GM's PIN")
    term.type(WRONG)
    term.wait_for("••••")  # typed, and hidden
    term.keys("Enter")
    text = term.wait_for(lambda t: "Wrong PIN" in t and "type the GM's PIN" not in t)
    assert CORVIN in text and WRONG not in text

    term.keys("i")
    term.wait_for("Who is at the keyboard?")
    term.keys("Home", "Enter")
    term.wait_for("type the GM's PIN")
    term.type(PIN)
    text = term.wait_for("••••")
    assert PIN not in text
    term.keys("Enter")
    term.wait_for(lambda t: "◆ GM" in t and "type the GM's PIN" not in t and CORVIN not in t)
    term.quit()
