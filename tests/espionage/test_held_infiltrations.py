"""Issue 17 item 9: "held" means one thing. An infiltration is held by its sponsor kingdom (the
prerequisites are "held by the sponsor" and it cannot be doubled), so the mission list's "● held"
and the Infiltrations panel agree for the GM, the King and a player of that kingdom."""

from __future__ import annotations

import pytest
from spy_helpers import CORVIN, KING_ELBRETH, KING_VAROS, SILAS, do, read

from yak_tui.areas.espionage import board_view
from yak_tui.kernel.identity import GM, Identity
from yak_tui.store.storage import WorldFile


@pytest.fixture
def ring_save(save: WorldFile) -> WorldFile:
    """Elbreth's King places a man in Varos's spy ring (no player of his filed it)."""
    order = do(save, "spy-order", {"mission": "infiltrate-spy-ring", "target": "varos"}, who=KING_ELBRETH).data["order"]
    do(save, "spy-resolve", {"order": order}, dice=[6, 6])
    return save


@pytest.mark.parametrize("viewer", [GM, KING_ELBRETH, CORVIN], ids=str)
def test_held_missions_and_the_infiltrations_panel_agree(ring_save: WorldFile, viewer: Identity) -> None:
    view = board_view(read(ring_save), viewer, "elbreth", "varos")
    held = {m.name for m in view.missions if m.held}
    assert held == {"Infiltrate Spy Ring"}
    listed = {(e.mission, e.sponsor, e.target) for e in view.infiltrations}
    assert ("Infiltrate Spy Ring", "Elbreth", "Varos") in listed


def test_a_player_learns_his_kingdoms_infiltrations_but_not_who_placed_them(ring_save: WorldFile) -> None:
    view = board_view(read(ring_save), CORVIN, "elbreth", "varos")
    ring = next(e for e in view.infiltrations if e.mission == "Infiltrate Spy Ring")
    assert ring.side == "held" and ring.known == ""


@pytest.mark.parametrize(("viewer", "sponsor", "target"),
                         [(GM, "varos", "elbreth"), (KING_VAROS, "varos", "elbreth"), (SILAS, "varos", "elbreth"),
                          (GM, "elbreth", "kesh"), (CORVIN, "elbreth", "kesh"), (KING_ELBRETH, "elbreth", "varos")],
                         ids=lambda v: str(v))
def test_every_viewer_reads_one_answer(ring_save: WorldFile, viewer: Identity, sponsor: str, target: str) -> None:
    """Whatever the sponsor and target: the missions marked held are the infiltrations listed as held."""
    world = read(ring_save)
    view = board_view(world, viewer, sponsor, target)
    marked = {m.name for m in view.missions if m.held}
    listed = {e.mission for e in view.infiltrations if e.side in ("held", "all")
              and e.sponsor == view.sponsors[[c.value for c in view.sponsors].index(sponsor)].label
              and e.target == next(c.label for c in view.targets if c.value == target)}
    assert marked == listed
