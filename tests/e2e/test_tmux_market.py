"""The real `yak` in tmux (100×30): the GM opens the business market, walks the sectors table to
Saltmarsh's full commercial sector (9/9), expands Hale & Sons Bank, reads the competition odds,
types the dice by hand, watches the dice land and reads the result; the save on disk agrees."""

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


def test_expands_a_business_into_a_full_sector_as_the_gm(session: tuple[Tmux, Path]) -> None:
    term, save = session
    term.wait_for("Due this season")
    before = World(WorldFile(save).read())
    assert before.get("businesses", "hale-bank")["size"] == 8

    term.keys("b")
    term.wait_for("Sectors by province")
    # The sectors are listed by province; Saltmarsh's commercial sector is the 17th row.
    term.keys(*["Down"] * 16)
    # The table scrolls with its cursor: the row comes into view when the cursor reaches it.
    text = term.wait_for(
        lambda t: (
            "Businesses in Saltmarsh" in t
            and any("Saltmarsh" in line and "commercial" in line for line in t.splitlines())
        )
    )
    saltmarsh = next(line for line in text.splitlines() if "Saltmarsh" in line and "commercial" in line)
    assert "9     9     0" in saltmarsh and "competition" in saltmarsh
    businesses = text[text.index("Businesses in Saltmarsh") :]
    assert businesses.index("Hale & Sons Bank") < businesses.index("Brine Traders")  # the cursor's row first

    term.keys("Tab")  # into the businesses of Saltmarsh, the cursor on Hale & Sons Bank
    term.keys("x")
    text = term.wait_for("Who may lose 1 Size")
    assert "Expand Hale & Sons Bank" in text and "Brine Traders" in text
    assert "gains" in text and "41.7%" in text and "58.3%" in text  # the exact odds, before any die

    term.keys("Tab", "Space")  # dice by hand: the switch after the sizes field (tab moves the focus at once)
    term.wait_for("naturals")
    term.type("5,2")
    term.keys("Enter")
    text = term.wait_for(
        lambda t: "Brine Traders loses 1 Size, Hale & Sons Bank gains 1" in t and "Hale & Sons Bank rolls 5" in t
    )
    assert "= 5" in text and "= 2" in text and "gains" in text and "loses" in text
    assert "rolling…" not in text

    world = World(WorldFile(save).read())
    assert world.get("businesses", "hale-bank")["size"] == 9
    assert world.find("businesses", "brine-traders") is None
    assert world.get("characters", "corvin")["treasury"] == before.get("characters", "corvin")["treasury"] - 3
    entries = [e for _, e in world.all("chronicle") if e["kind"] == "competition"]
    assert (
        len(entries) == 1
        and entries[0]["refs"]["expander_roll"] == 5
        and entries[0]["refs"]["loser"] == "brine-traders"
    )
    assert [r["naturals"] for r in entries[0]["rolls"]] == [[5], [2]]

    term.keys("Escape")
    # The businesses table shows the bank at Size 9 (its columns may be narrow while it re-lays out).
    text = term.wait_for(
        lambda t: (
            "Expand Hale" not in t
            and "Brine Traders" not in t
            and any(line.lstrip("│ ").startswith("Hale & S") and "9" in line.split() for line in t.splitlines())
        )
    )
    hale = next(line for line in text.splitlines() if line.lstrip("│ ").startswith("Hale & S") and "9" in line.split())
    assert "Corvi" in hale and hale.split().count("9") >= 2  # Size 9, income 9
    term.quit()
