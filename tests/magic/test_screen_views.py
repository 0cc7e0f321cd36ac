"""The headless data behind the map and casting screens (`world/map_views.py`,
`world/casting_views.py`): who sees whom, what a viewer may know of a discovery chance, and a
dice-by-hand preview that lands exactly where the real casting does."""

from __future__ import annotations

from pathlib import Path

import pytest

from yak_tui.areas import nobles as map_views
from yak_tui.areas.magic import read as casting_views
from yak_tui.kernel.play.commands import CommandError, load_command_modules, run_command
from yak_tui.kernel.play.dice import HandDice
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

GM = Identity.parse("gm")
CAST = {"caster": "maelis", "source": "ley-line", "spell": "ward the bridge"}


@pytest.fixture
def save(tmp_path: Path) -> WorldFile:
    load_command_modules()
    return create_world(tmp_path / "w.json")


def world(save: WorldFile) -> World:
    return World(save.read())


@pytest.mark.parametrize(
    ("who", "ids"),
    [
        ("gm", ["rowena", "nyx", "edmund", "seraphine", "tobias", "dario", "bertil"]),
        ("king:elbreth", ["rowena", "nyx", "edmund", "seraphine", "tobias"]),
        ("king:varos", ["dario"]),
        ("player:tobias", ["tobias"]),
        ("player:corvin", []),  # a merchant gives no Noble Commands
    ],
)
def test_commanders_are_those_whose_whereabouts_the_viewer_knows(save: WorldFile, who: str, ids: list[str]) -> None:
    assert [c.id for c in map_views.commanders(world(save), Identity.parse(who))] == ids


def test_a_player_may_not_look_at_another_kingdoms_noble(save: WorldFile) -> None:
    with pytest.raises(CommandError, match="whereabouts you know"):
        map_views.relocate_view(world(save), Identity.parse("player:tobias"), "dario")


def test_discovery_is_exact_for_the_gm_and_a_floor_for_the_player(save: WorldFile) -> None:
    gm = map_views.relocate_view(world(save), GM, "tobias").cells[(11, 5)]
    player = map_views.relocate_view(world(save), Identity.parse("player:tobias"), "tobias").cells[(11, 5)]
    assert (gm.discovery, gm.discovery_exact) == (30, True)  # 20% share + Varos's nation counter-spy
    assert (player.discovery, player.discovery_exact) == (20, False)
    own = map_views.relocate_view(world(save), GM, "tobias").cells[(5, 2)]
    assert own.state == "reachable" and own.discovery is None  # his own kingdom's PC: no roll


def test_states_and_targets_of_the_range(save: WorldFile) -> None:
    view = map_views.relocate_view(world(save), GM, "tobias")
    assert view.cells[(9, 4)].state == "blocked" and view.cells[(7, 4)].state == "empty"
    assert view.cells[(6, 4)].state == "here" and view.count("reachable") == 12
    redfen = view.cells[(3, 9)]
    assert [(t.command, t.success) for t in redfen.targets] == [("incite", 1.0), ("usurp", 0.0)]
    assert map_views.relocate_params(view.cells[(7, 4)], "tobias") == {"character": "tobias", "hex": "7,4"}


def test_an_agent_reaches_a_friendly_legion_on_an_empty_hex(save: WorldFile) -> None:
    view = map_views.relocate_view(world(save), GM, "nyx")
    rangers = view.cells[(6, 4)]  # Greywatch, with the Greywood Rangers: a PC, reachable as a PC
    assert rangers.state == "reachable" and not rangers.via_legion
    with save.transaction() as data:
        data["units"]["elbreth-scouts"]["hex"] = [7, 4]  # the Rangers camp on an empty hex
    camp = map_views.relocate_view(world(save), GM, "nyx").cells[(7, 4)]
    assert camp.state == "reachable" and camp.via_legion
    assert map_views.relocate_params(camp, "nyx") == {"character": "nyx", "legion": "elbreth-scouts"}


def test_targets_view_for_a_noble_in_a_neutral_town(save: WorldFile) -> None:
    with save.transaction() as data:
        data["characters"]["tobias"]["location"] = "hollow-oak"
    targets = map_views.targets_view(world(save), GM, "tobias")
    assert not targets.incite.ok and "neutral" in targets.incite.reason
    assert targets.usurp.ok and (targets.usurp.power, targets.usurp.resistance) == (4.0, 5.0)
    assert dict(targets.usurp.rows)["failure"] == 1.0


@pytest.mark.parametrize("naturals", [[1], [2, 3, 5], [6, 1, 4], [4, 5, 3], [6, 6, 6], [3, 1, 1]])
def test_the_preview_lands_where_the_real_casting_does(save: WorldFile, naturals: list[int]) -> None:
    stages: list[tuple[str, ...]] = []
    for count in range(1, len(naturals) + 1):
        preview = casting_views.preview(world(save), CAST, naturals[:count])
        stages = [(r.purpose, r.band, str(r.total)) for r in preview.rolls]
        assert preview.done == (count == len(naturals))
    result = run_command(save, GM, "cast", CAST, HandDice(naturals))
    recorded = [
        (s, result.data[s.lower()]["band"], str(result.data[s.lower()]["total"]))
        for s in ("Power", "Control", "Resolution")
        if result.data[s.lower()]
    ]
    assert stages == recorded


def test_casters_and_the_carry_follow_the_viewer(save: WorldFile) -> None:
    assert [c.id for c in casting_views.casters(world(save), GM)] == ["maelis"]
    assert [c.id for c in casting_views.casters(world(save), Identity.parse("player:maelis"))] == ["maelis"]
    assert casting_views.casters(world(save), Identity.parse("king:varos")) == ()
    with save.transaction() as data:
        data["characters"]["maelis"]["power_carry"] = {"ley-line": -1}
    setup = casting_views.cast_setup(world(save), GM, {"caster": "maelis", "source": "Ley Line"})
    assert (setup.source, setup.carry) == ("ley-line", -1) and "oversealed" in setup.carry_text
    assert abs(sum(p for _, p in setup.power_odds) - 1) < 1e-5
    refused = casting_views.cast_setup(
        world(save), Identity.parse("king:varos"), {"caster": "maelis", "source": "ley-line"}
    )
    assert refused.problem is not None and refused.problem.field == "caster"


@pytest.mark.parametrize(
    ("stage", "band", "tone"),
    [
        ("power", "backlash", "bad"),
        ("power", "failed", "bad"),
        ("power", "tapped", "ok"),
        ("power", "strong", "good"),
        ("power", "overwhelming", "warn"),
        ("control", "backlash", "bad"),
        ("control", "works", "ok"),
        ("control", "finesse", "good"),
        ("control", "spills", "warn"),
        ("resolution", "mishap", "bad"),
        ("resolution", "failed", "bad"),
        ("resolution", "sealed", "ok"),
        ("resolution", "bonded", "good"),
        ("resolution", "oversealed", "warn"),
    ],
)
def test_band_tones(stage: str, band: str, tone: str) -> None:
    assert casting_views.band_tone(stage, band) == tone
