"""The real `yak` in tmux (100×30): the GM begins the siege of Brinehaven (the demo's walled port
fort, level 2, two regiments inside) with Varos's host and squadron from the siege monitor, a
merchant smuggles provisions in (another process writes the save; the monitor follows), the GM
advances season after season with the app's advance flow and watches the countdown fall until
the defenders run short: the surrender-or-sally prompt appears, the advance is refused until
the choice is recorded, the choice is recorded, and the season closes. The save agrees."""

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


def world(save: Path) -> World:
    return World(WorldFile(save).read())


def siege_row(text: str) -> str:
    """The siege's line in the monitor's table (the first line naming the fort and a countdown)."""
    return next((line for line in text.splitlines() if "Brinehaven" in line and "left" in line), "")


def advance(term: Tmux, target: str) -> None:
    """The app's advance flow: a, the preview, Enter on the confirm button, then close."""
    term.keys("a")
    term.wait_for(f"Advance to {target}")
    term.keys("Enter")
    term.wait_for(f"{target} begins")
    term.keys("Escape")
    term.wait_for(lambda t: "The season is closed" not in t)


def test_besieges_the_demo_port_fort_over_several_seasons_until_the_defender_must_choose(
    session: tuple[Tmux, Path],
) -> None:
    term, save = session
    term.wait_for("Due this season")
    term.keys("s")
    term.wait_for("No fort is under siege.")

    # The walled places are listed strongest first: Brinehaven (level 2, open port) is the 5th.
    term.keys("Down", "Down", "Down", "Down", "Enter")
    text = term.wait_for(lambda t: "Begin a siege" in t and "takes effect at once" in t)
    assert "Brinehaven" in text and "Host of the Amber March" in text and "Amber Blockade Squadron" in text
    assert "land ✓  sea ✓" in text
    term.keys("C-r")
    term.wait_for("The siege of Brinehaven takes effect.")
    term.keys("Escape")
    term.wait_for(lambda t: "Siege of Brinehaven" in t and "Begin a siege" not in t and "1 season left" in siege_row(t))
    doc = world(save).get("sieges", "siege-0001")
    assert (doc["besieger"], doc["provisions"], doc["effective"]) == ("varos", 2, True)

    # A merchant runs two shipments of grain past the lines (another process writes the save).
    subprocess.run(
        [
            str(YAK),
            "--save",
            str(save),
            "do",
            "smuggle",
            "fort=brinehaven",
            "merchant=corvin",
            "shipments=2",
            "--dice",
            "6",
        ],
        check=True,
        capture_output=True,
        env={**os.environ},
    )
    term.wait_for(lambda t: "2 seasons left" in siege_row(t))

    # Season by season the countdown falls.
    advance(term, "Summer 312")
    term.wait_for(lambda t: "Summer 312 · 3 seasons" in t and "Advance to" not in t and "1 season left" in siege_row(t))
    assert world(save).get("sieges", "siege-0001")["provisions"] == 2

    advance(term, "Autumn 312")
    # Short now: the prompt is put to the GM as soon as the monitor is in view again.
    text = term.wait_for("Brinehaven: surrender or sally?")
    assert "short of provisions" in text and "Surrender" in text and "Sally" in text
    term.keys("Escape")  # later
    term.wait_for(lambda t: "surrender or sally?" in t and "Later" not in t and "0 seasons left" in siege_row(t))
    assert world(save).get("sieges", "siege-0001")["provisions"] == 0

    # The season cannot close until the defenders' choice is recorded.
    term.keys("a")
    text = term.wait_for("The season cannot close yet")
    assert "press y on Sieges" in text.replace("\n", " ") or "must choose" in text
    term.keys("Escape")
    term.wait_for(lambda t: "The season cannot close yet" not in t)
    assert world(save).date.label() == "Autumn 312"

    # The choice: sally (the prompt opens with the Sally button focused).
    term.keys("y")
    term.wait_for(lambda t: "Brinehaven: surrender or sally?" in t and "Later" in t)
    term.keys("Enter")
    term.wait_for("the choice is recorded")
    term.keys("Escape")
    term.wait_for(lambda t: "the choice is recorded" not in t and "sallied: battle" in t)
    doc = world(save).get("sieges", "siege-0001")
    assert (doc["decision"], doc["decided"]) == ("sally", {"year": 312, "season": "Autumn"})

    advance(term, "Winter 312")
    # Still without food, until the GM records the battle's end: the question comes back in Winter.
    text = term.wait_for(lambda t: "Winter 312" in t and "Brinehaven: surrender or sally?" in t)
    assert "will end Winter 312 short of provisions" in text
    assert world(save).date.label() == "Winter 312"
