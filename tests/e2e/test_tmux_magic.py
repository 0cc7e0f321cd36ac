"""The real `yak` in a real terminal (tmux, 100×30): relocate the demo Ambassador on the hex map
through the roll dialog, then cast a spell with dice entered by hand; the save on disk agrees."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from tmux_helpers import Tmux

from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


def flat(text: str) -> str:
    return " ".join(text.split())


def test_relocates_the_demo_ambassador_on_the_map_and_casts_a_spell_with_dice_by_hand(
    session: tuple[Tmux, Path],
) -> None:
    term, save = session
    term.wait_for("Due this season")

    # The map, and Tobias Venn (the Ambassador) chosen by a palette jump to his name.
    term.keys("m")
    term.wait_for("Legend")
    term.keys("C-p")
    term.wait_for("Search")
    term.type("Jump to Tobias")
    term.wait_for("Jump to Tobias Venn")
    term.keys("Enter")
    term.wait_for(lambda t: "♟ Tobias Venn" in t and "in Greywatch" in t and "Hex 6,4" in t)

    # Two rows up and two hexes west: Millbrook, his own kingdom's town, 3 hexes away.
    term.keys("Up", "Up", "Left", "Left")
    # The hex's reach is worked out after the cursor lands: wait for it, not for the first frame.
    term.wait_for(lambda t: "Hex 5,2" in t and "✔ reachable · 3 hexes" in t and "Millbrook" in t)
    term.keys("v")
    term.wait_for("Relocate Tobias Venn to Millbrook")
    term.wait_for("Odds before rolling")
    term.keys("Enter")
    term.wait_for(lambda t: "relocates from Greywatch to Millbrook" in flat(t))
    term.keys("Escape")
    # The dialog closed and the map shows his range from where he now stands.
    term.wait_for(lambda t: "Copy result" not in t and "in Millbrook" in t and "Here: Millbrook" in t)

    # Dice by hand on (the palette), then the casting screen: the dice are typed stage by stage.
    term.keys("C-p")
    term.wait_for("Search")
    term.type("Dice by hand")
    term.wait_for("turn on")
    term.keys("Enter")
    # The palette closes and a toast says so; it would cover the stages' subtitles below ("odds
    # given Power 5"), so let it come and go.
    term.wait_for(lambda t: "Search" not in t and "Dice by hand on" in t)
    term.wait_for(lambda t: "Dice by hand on" not in t)
    term.keys("g")
    term.wait_for("Choose the mage and name his power source")  # mounted: the mage is preset
    term.keys("Tab")
    term.type("ley-line")
    term.keys("Tab")
    term.type("ward the bridge")
    term.wait_for("nothing carried with ley-line")
    term.wait_for("Cast by hand")
    term.keys("C-r")
    term.wait_for("Power die")
    term.type("4")
    term.keys("Enter")
    term.wait_for(lambda t: "Control die" in t and "odds given Power 5" in t)  # the totals the trays show
    term.type("5")
    term.keys("Enter")
    term.wait_for(lambda t: "Resolution die" in t and "odds given Power 5, Control 6" in t)
    term.type("3")
    term.keys("Enter")
    text = term.wait_for(lambda t: "Maelis the Grey casts 'ward the bridge'" in flat(t))
    assert "rolling…" not in text

    world = World(WorldFile(save).read())
    tobias = world.get("characters", "tobias")
    assert tobias["location"] == "millbrook" and tobias["treasury"] == 3
    (spell,) = [e for _, e in world.all("chronicle") if e["kind"] == "spell"]
    assert [r["naturals"] for r in spell["rolls"]] == [[4], [5], [3]]
    assert [r["source"] for r in spell["rolls"]] == ["manual"] * 3
    assert [r["band"] for r in spell["rolls"]] == ["strong", "finesse", "sealed"]
    assert (
        next(e for _, e in world.all("chronicle") if e["kind"] == "relocate")["text"]
        == "Tobias Venn relocates from Greywatch to Millbrook."
    )
