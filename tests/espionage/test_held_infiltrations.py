"""Issue 17 item 9: "held" means one thing. An infiltration is held by its sponsor kingdom (the
prerequisites are "held by the sponsor" and it cannot be doubled), so the mission list's "● held"
and the Infiltrations panel agree for the GM and the King. Issue 24 (RULINGS §1): a player who is
not the King knows only his own missions: his kingdom's other infiltrations are not his to see, on
the board as in `yak show effects`."""

from __future__ import annotations

import pytest
from spy_helpers import CORVIN, KING_ELBRETH, KING_VAROS, SILAS, do, read

from yak_tui.areas.espionage import board_view
from yak_tui.kernel.play.audience import visible_table
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.store.storage import WorldFile


@pytest.fixture
def ring_save(save: WorldFile) -> WorldFile:
    """Elbreth's King places a man in Varos's spy ring (no player of his filed it)."""
    order = do(save, "spy-order", {"mission": "infiltrate-spy-ring", "target": "varos"}, who=KING_ELBRETH).data["order"]
    do(save, "spy-resolve", {"order": order}, dice=[6, 6])
    return save


@pytest.mark.parametrize("viewer", [GM, KING_ELBRETH], ids=str)
def test_held_missions_and_the_infiltrations_panel_agree(ring_save: WorldFile, viewer: Identity) -> None:
    view = board_view(read(ring_save), viewer, "elbreth", "varos")
    held = {m.name for m in view.missions if m.held}
    assert held == {"Infiltrate Spy Ring"}
    listed = {(e.mission, e.sponsor, e.target) for e in view.infiltrations}
    assert ("Infiltrate Spy Ring", "Elbreth", "Varos") in listed


def test_a_player_learns_nothing_of_his_kingdoms_infiltrations(ring_save: WorldFile) -> None:
    world = read(ring_save)
    view = board_view(world, CORVIN, "elbreth", "varos")
    assert view.infiltrations == () and view.pools == () and view.sponsor_pool is None
    assert not [m for m in view.missions if m.held]
    needs_ring = [m for m in view.missions if m.prerequisite == "infiltrate-spy-ring"]
    assert needs_ring and all(m.prerequisite_met is None for m in needs_ring)  # only his King knows
    assert visible_table(world, CORVIN, "effects") == {} and visible_table(world, CORVIN, "specialists") == {}


def test_a_player_sees_the_infiltration_his_own_mission_placed(save: WorldFile) -> None:
    order = do(save, "spy-order", {"mission": "infiltrate-spy-ring", "target": "varos"}, who=CORVIN).data["order"]
    do(save, "spy-resolve", {"order": order}, dice=[6, 6])
    world = read(save)
    view = board_view(world, CORVIN, "elbreth", "varos")
    assert {m.name for m in view.missions if m.held} == {"Infiltrate Spy Ring"}
    assert {e.mission for e in view.infiltrations} == {"Infiltrate Spy Ring"}
    assert all(m.prerequisite_met for m in view.missions if m.prerequisite == "infiltrate-spy-ring")
    assert len(visible_table(world, CORVIN, "effects")) == 1


@pytest.mark.parametrize(
    ("viewer", "sponsor", "target"),
    [
        (GM, "varos", "elbreth"),
        (KING_VAROS, "varos", "elbreth"),
        (SILAS, "varos", "elbreth"),
        (GM, "elbreth", "kesh"),
        (CORVIN, "elbreth", "kesh"),
        (KING_ELBRETH, "elbreth", "varos"),
    ],
    ids=lambda v: str(v),
)
def test_every_viewer_reads_one_answer(ring_save: WorldFile, viewer: Identity, sponsor: str, target: str) -> None:
    """Whatever the sponsor and target: the missions marked held are the infiltrations listed as held."""
    world = read(ring_save)
    view = board_view(world, viewer, sponsor, target)
    marked = {m.name for m in view.missions if m.held}
    listed = {
        e.mission
        for e in view.infiltrations
        if e.side in ("held", "all")
        and e.sponsor == view.sponsors[[c.value for c in view.sponsors].index(sponsor)].label
        and e.target == next(c.label for c in view.targets if c.value == target)
    }
    assert marked == listed
