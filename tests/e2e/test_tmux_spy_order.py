"""Issue 11: the private mission dialog, in a real terminal (tmux, 100×30), for every kind of form
it can show (every distinct set of fields a mission needs: a province, a unit, a victim, extras,
a purge without a target, nothing at all...), as a player and as a King.

The dialog used to freeze the whole app: its form was rebuilt while the focus was on its way to
the first field, the focus landed on the removed field, and every key went nowhere (escape, q and
ctrl+c included). Pilot never showed it; a real terminal did. Each test opens the form from the
espionage board, closes it with escape (three times), and quits with q: the app must still take keys."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from tmux_helpers import Tmux, yak_command

from yak_tui.areas.espionage import board_view, catalogue, mission_lines, mission_needs
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

SEATS = ("player:corvin", "king:elbreth")


def form_kinds() -> dict[str, str]:
    """One mission for each distinct form: {"province+unit..." or "purge" or "none": mission slug}."""
    kinds: dict[str, str] = {}
    for slug, mission in catalogue().items():
        if mission.effect == "counter-spy":  # stationed from the board, never submitted as a mission
            continue
        needs = "+".join(sorted(mission_needs(mission))) or "none"
        kind = f"purge({needs})" if mission.effect == "purge" else needs
        kinds.setdefault(kind, slug)
    return kinds


KINDS = form_kinds()


@pytest.fixture
def save(tmp_path: Path) -> Path:
    path = tmp_path / "world.json"
    create_world(path)
    return path


@pytest.fixture
def terminals(tmp_path: Path, save: Path) -> Iterator[dict[str, Tmux]]:
    """Both seats start together (their start-up overlaps); each is driven in turn."""
    terms = {seat: Tmux(yak_command(tmp_path, save, seat)) for seat in SEATS}
    try:
        yield terms
    finally:
        for term in terms.values():
            term.kill()


def test_there_is_a_form_for_each_kind_of_mission() -> None:
    assert {"province", "unit", "character+poison", "poison", "none"} <= set(KINDS)
    assert any(kind.startswith("purge(") for kind in KINDS)
    assert len(KINDS) >= 12


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_the_mission_form_closes_with_escape_and_the_app_still_takes_keys(
    kind: str, save: Path, terminals: dict[str, Tmux]
) -> None:
    slug = KINDS[kind]
    mission = catalogue()[slug]
    world = World(WorldFile(save).read())
    for seat, term in terminals.items():
        identity = Identity.parse(seat)
        view = board_view(world, identity, None, None)
        assert view.sponsor and view.target, seat
        rows = [line.slug for line in mission_lines(world, identity, view.sponsor, view.target)]
        target = next(choice.label for choice in view.targets if choice.value == view.target)

        term.wait_for("Spring 312")
        term.keys("e")
        term.wait_for(f"Missions against {target}")
        term.keys(*["Down"] * rows.index(slug))  # the table has the focus: the keys reach it in order
        # The freeze was a race (it depended on how fast the form was built): open the form three times.
        for _ in range(3):
            term.keys("n")
            text = term.wait_for(
                lambda t: (
                    "Submit a private mission" in t and f"{mission.name}  · {mission.family}" in t and "Costs " in t
                )
            )
            for need in mission_needs(mission):
                assert need.replace("_", " ") in text, (seat, need)
            term.keys("Escape")
            term.wait_for(
                lambda t, board=f"Missions against {target}": "Submit a private mission" not in t and board in t
            )
        term.quit()
