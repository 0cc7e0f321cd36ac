"""Golden dice lines: every kind of roll reads, in the chronicle and the forum export, as a line a
forum reader can check by hand (issue 17, item 3).

A roll that adds modifiers to its dice reads "rolled 4 +1 (reason) = 5 → band"; any other kind (a
d31 day swing, a d100 under a chance, the market price table, a raid's d6) carries its own reading,
never a fake "+70 (chance: Duke) = 11" sum.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from yak_plugin import Table

from yak_tui.kernel.play.audience import visible_entries
from yak_tui.kernel.play.chronicle import export_entries, roll_line
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

GM = Identity.parse("gm")


@pytest.fixture
def save(tmp_path: Path) -> WorldFile:
    return create_world(tmp_path / "w.json")


def edit(save: WorldFile, table: str, doc_id: str, **fields: Any) -> None:
    with save.transaction() as data:
        World(data).edit(table, doc_id).update(**fields)


def lines_of(save: WorldFile, viewer: Identity, kind: str) -> list[str]:
    world = World(save.read())
    return [roll_line(r) for e in visible_entries(world, viewer) if e["kind"] == kind for r in e.get("rolls", [])]


def exported(save: WorldFile, viewer: Identity) -> str:
    world = World(save.read())
    return export_entries(world, visible_entries(world, viewer), "markdown", viewer)


# --- the formatter itself ------------------------------------------------------------------------


def test_a_sum_roll_adds_up() -> None:
    roll = {
        "purpose": "Hold the bridge",
        "naturals": [4],
        "modifiers": [{"value": 1, "reason": "high ground"}],
        "total": 5,
        "band": "great-success",
        "outcome": "great-success",
    }
    assert roll_line(roll) == "Hold the bridge: rolled 4 +1 (high ground) = 5 → succeeds well"


def test_two_dice_are_added_in_the_line() -> None:
    roll = {
        "purpose": "2d6 check",
        "naturals": [4, 2],
        "modifiers": [{"value": -1, "reason": "rain"}],
        "total": 5,
        "band": "success",
        "outcome": "success",
        "source": "manual",
    }
    assert roll_line(roll) == "2d6 check: rolled 4 + 2 -1 (rain) = 5 → succeeds [dice by hand]"


def test_an_outcome_other_than_the_band_follows_it_once() -> None:
    roll = {"purpose": "p", "naturals": [2], "modifiers": [], "total": 2, "band": "failure", "outcome": "failure"}
    assert roll_line(roll) == "p: rolled 2 = 2 → fails"
    roll["outcome"] = "is caught"
    assert roll_line(roll) == "p: rolled 2 = 2 → fails (is caught)"


def test_a_blind_roll_shows_only_its_outcome() -> None:
    assert roll_line({"purpose": "Sabotage: success roll", "outcome": "success", "blind": True}) == (
        "Sabotage: success roll: success (blind roll)"
    )


# --- every kind of roll, through the world ------------------------------------------------------


def test_rtd_roll_line_and_entry(save: WorldFile) -> None:
    Table(save).run("gm", "roll", {"reason": "Hold the bridge", "modifier": 1}, dice=[4])
    assert lines_of(save, GM, "roll") == ["Hold the bridge: rolled 4 +1 (Hold the bridge) = 5 → succeeds well"]
    Table(save).run("gm", "roll", {"reason": "Ford the river"}, dice=[2])
    world = World(save.read())
    texts = [e["text"] for e in visible_entries(world, GM) if e["kind"] == "roll"]
    assert texts == [
        "RtD for Hold the bridge: rolled 4 +1 = 5 → succeeds well.",
        "RtD for Ford the river: rolled 2 = 2 → fails.",
    ]
    Table(save).run("gm", "roll", {"reason": "Leap the wall", "modifier": -3}, dice=[6])
    texts = [e["text"] for e in visible_entries(World(save.read()), GM) if e["kind"] == "roll"]
    assert texts[-1] == "RtD for Leap the wall: rolled 6 -3 = 3 → overshoots (a 6)."


def test_percent_swing_line(save: WorldFile) -> None:
    # Ambassador Tobias Venn: Power 4 (20% of Influence 20); a d31 of 11 is a -5% day swing.
    edit(save, "characters", "tobias", location="thornfield")
    edit(save, "pcs", "thornfield", resistance=3.5)
    Table(save).run("gm", "incite", {"noble": "tobias"}, dice=[11])
    assert lines_of(save, GM, "noble-command") == [
        "Incite Rebellion in Thornfield: day swing: d31 rolled 11: day swing 11 - 16 = -5%; "
        "Power 4 -5% = 3.8 against Resistance 3.5 → success"
    ]
    assert "rolled 11 -5 (day swing, percent) = -5" not in exported(save, GM)


@pytest.mark.parametrize(("natural", "verdict"), [(30, "discovered"), (31, "unnoticed")])
def test_chance_by_title_line(save: WorldFile, natural: int, verdict: str) -> None:
    # Varos has a nation-wide counter-spy: an Ambassador's 20% becomes 30%.
    Table(save).run("gm", "relocate", {"character": "tobias", "pc": "amberport"}, dice=[natural])
    expected = (
        f"discovery of Tobias Venn's relocation to Amberport: d100 rolled {natural}, discovered on 30 or "
        f"less (the Ambassador's chance, with a nation-wide counter-spy) → {verdict}"
    )
    assert lines_of(save, GM, "discovery-roll") == [expected]
    assert expected in exported(save, GM)
    # GM-only: the roll never reaches the mover or the owner.
    for king in ("king:elbreth", "king:varos"):
        assert lines_of(save, Identity.parse(king), "discovery-roll") == []


@pytest.mark.parametrize(("natural", "price"), [(1, 3), (4, 4), (6, 5)])
def test_price_roll_line(save: WorldFile, natural: int, price: int) -> None:
    Table(save).run("gm", "produce", {"business": "salt-works", "good": "Salt", "quantity": 2})
    Table(save).run("gm", "advance", dice=[natural])
    expected = (
        f"market sale: 2 Salt of Saltcross Salt Works: d6 rolled {natural} on base 4 (1: -1, 2-5: +0, 6: +1) "
        f"→ price {price}"
    )
    assert lines_of(save, Identity.parse("player:corvin"), "market") == [expected]


def test_gm_only_spy_roll_line(save: WorldFile) -> None:
    """The GM reads the roll against the mission's target; the sponsor reads only the outcome."""
    from tests.espionage.spy_helpers import infiltrate, no_counter_spies

    with save.transaction() as data:
        world = World(data)
        world.edit("kingdoms", "varos")["treasury"] = 200
        world.edit("specialists", "varos").update(spy=5, cold_spy=0)
        no_counter_spies(world, "elbreth", "varos")
        infiltrate(world, "varos", "elbreth", "infiltrate-treasury")
    Table(save).run(
        "gm", "spy-mission", {"mission": "embezzlement", "sponsor": "varos", "target": "elbreth"}, dice=[4, 5]
    )
    gm_lines = lines_of(save, GM, "espionage")
    assert gm_lines, "the GM sees the rolls"
    for line in gm_lines:
        assert " against target " in line and line.count("=") == 1
    king_lines = lines_of(save, Identity.parse("king:varos"), "espionage")
    assert king_lines and all(line.endswith("(blind roll)") for line in king_lines)


def test_raid_d6_line(save: WorldFile) -> None:
    world = World(save.read())
    edit(save, "units", "varos-raiders", hex=world.get("pcs", "brinehaven")["hex"])
    Table(save).run("gm", "raid", {"unit": "Amber Corsairs", "pc": "Brinehaven"}, dice=[4])
    (line,) = lines_of(save, GM, "raid")
    assert line == (
        "ducat raid on Brinehaven: d6 rolled 4: 4 ducats wanted; 4 from the treasury; 0 from the coming tax"
    )


def test_messenger_line_names_what_it_needs(save: WorldFile) -> None:
    Table(save).run(
        "king:varos", "siege-begin", {"fort": "brinehaven", "units": "varos-siege-host,varos-blockade-squadron"}
    )
    Table(save).run("gm", "messenger", {"fort": "brinehaven"}, dice=[2])
    (line,) = lines_of(save, GM, "siege")
    assert line.startswith("messenger out of Brinehaven: rolled 2")
    assert line.endswith(", needing 3 or more → he is caught")
