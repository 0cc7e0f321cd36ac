"""The real `yak` in a real terminal (tmux, 100×30): switch screens with keys, roll the dice,
advance a season, quit; the save on disk agrees with what the screen said."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from tmux_helpers import YAK, Tmux

from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def test_switch_screens_roll_and_advance_in_a_real_terminal(session: tuple[Tmux, Path]) -> None:
    term, save = session
    # The whole first frame (a capture may land while the terminal is still being written).
    term.wait_for(lambda text: "Due this season" in text and "◆ GM" in text and "Spring 312" in text)

    for key, marker in (
        ("e", "Specialist pools"),
        ("b", "Sectors by province"),
        ("s", "Walled places"),
        ("m", "Legend"),
        ("c", "Chronicle ·"),
        ("d", "Due this season"),
    ):
        term.keys(key)
        term.wait_for(marker)

    term.keys("r")
    term.wait_for("Odds before rolling")
    term.type("Hold the ford")
    term.keys("Enter")  # the dialog rolls once what was typed is checked
    # The dice tumble (animations are on in a real terminal), then land beside the chronicle line.
    text = term.wait_for(lambda t: "RtD for Hold the ford" in t and "rolled" in t)
    assert "rolling…" not in text
    term.keys("Escape")
    term.wait_for(lambda t: "Copy result" not in t and "Due this season" in t)

    term.keys("a")
    term.wait_for("Advance to Summer 312")
    term.keys("Enter")
    term.wait_for("Summer 312 begins")
    term.keys("Escape")
    term.wait_for(lambda t: "The season is closed" not in t and "Summer 312 · 3 seasons to year start" in t)

    world = World(WorldFile(save).read())
    assert world.date.label() == "Summer 312"
    rolls = [e for _, e in world.all("chronicle") if e["kind"] == "roll"]
    assert len(rolls) == 1 and rolls[0]["text"].startswith("RtD for Hold the ford")
    natural = rolls[0]["rolls"][0]["naturals"][0]
    assert f"rolled {natural}" in text  # the screen showed the natural the save recorded

    term.quit()


def test_the_terminal_shows_other_processes_writes(session: tuple[Tmux, Path]) -> None:
    term, save = session
    term.wait_for("Due this season")
    subprocess.run(
        [str(YAK), "--save", str(save), "do", "note", "text=Riders seen on the Keshar road"],
        check=True,
        capture_output=True,
        env={**os.environ},
    )
    term.wait_for("Riders seen on the")
