"""The GM's own campaign (issue 15): a scripted campaign from `yak new --template` to an export
that loads back equal, the GM's acts refused for everyone else, battles that read and spend the
engagement modifiers, and a property: any sequence of GM acts, each undone, leaves the world as it was."""

from __future__ import annotations

import json
from pathlib import Path

import orjson
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from yak_plugin import Table

from yak_tui.areas.economy import hire_status
from yak_tui.cli import main
from yak_tui.kernel.play.commands import CommandError, apply_command, run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.session import advance_season
from yak_tui.kernel.world.authoring import load_world_text
from yak_tui.kernel.world.demo import build_world
from yak_tui.kernel.world.export import worlds_equal
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

GM = Identity.parse("gm")
MORALE = {
    "kind": "morale-penalty",
    "mission": "cripple-military-morale",
    "sponsor_kingdom": "morvain",
    "target_kingdom": "aurel",
    "data": {"engagement": "military", "morale": -2, "engagements": 1},
    "active": True,
}
STAFF = {
    "kind": "infiltration",
    "mission": "suborn-general-staff",
    "sponsor_kingdom": "aurel",
    "target_kingdom": "morvain",
    "data": {"branch": "general-staff-control"},
    "active": True,
}


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(list(argv)) == 0, capsys.readouterr().err
    return capsys.readouterr().out


def test_a_scripted_campaign_from_template_to_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # The GM writes his world: the template, with a raiding company of his own added.
    text = _cli(capsys, "new", "--template")
    text += (
        '\n[[units]]\nid = "morvain-raiders"\nname = "Morvain Raiders"\nowner = "morvain"\n'
        'kind = "cavalry"\nsize = "company"\nregiments = 1\nhex = [7, 3]\n'
    )
    (tmp_path / "world.toml").write_text(text)
    save_path = str(tmp_path / "c.json")
    _cli(capsys, "new", save_path, "--from", str(tmp_path / "world.toml"))
    save = WorldFile(save_path)

    table = Table(save)

    table.run("gm", "gm-add", table="effects", id="fx-morale", fields=json.dumps(MORALE))
    table.run("gm", "gm-add", table="effects", id="fx-staff", fields=json.dumps(STAFF))
    # Move an army beside the fort, garrison the port, and lay the siege.
    moved = table.run("gm", "gm-move", unit="morvain-host", to="1,5").data
    assert moved["hexes"] == 6 and not moved["voyage"]
    table.run("gm", "gm-move", unit="aurel-horse", to="Gullhaven", garrison=True)
    table.run("king:morvain", "siege-begin", fort="gullhaven", units="morvain-host")
    # The defenders sally; their morale penalty is read and spent, the besiegers' sabotage read.
    sally = table.run(
        "gm",
        "battle",
        attacker="aurel",
        defender="morvain",
        winner="defender",
        fort="gullhaven",
        units="aurel-horse,morvain-host",
        losses="aurel-horse:1,morvain-host:1",
    ).data
    assert [m["value"] for m in sally["modifiers"]["aurel"]] == [-2]
    assert [m["value"] for m in sally["modifiers"]["morvain"]] == [-1]
    assert sally["spent"] == ["fx-morale"] and not sally["lifted"]
    world = World(save.read())
    assert world.get("effects", "fx-morale")["active"] is False
    assert world.get("units", "aurel-horse")["regiments"] == 1
    assert world.get("units", "morvain-host")["regiments"] == 5
    # The penalty is gone for the next battle; the General Staff's sabotage stays.
    again = table.run(
        "gm",
        "battle",
        attacker="aurel",
        defender="morvain",
        winner="attacker",
        units="aurel-guard,morvain-raiders",
        losses="morvain-raiders:1",
    ).data
    assert again["modifiers"]["aurel"] == [] and [m["value"] for m in again["modifiers"]["morvain"]] == [-1]
    assert again["destroyed"] == ["Morvain Raiders"]
    # Conquest: the coast passes to Morvain after the siege.
    table.run("king:morvain", "siege-lift", fort="gullhaven")
    table.run("gm", "gm-conquer", province="gull-coast", kingdom="morvain")
    world = World(save.read())
    assert world.get("pcs", "gullhaven")["controller"] == "morvain"
    for _ in range(4):
        advance_season(save, GM)
    world = World(save.read())
    assert world.date.label() == "Spring 313"
    assert hire_status(world, "morvain")["spy"]["limit"] > hire_status(world, "aurel")["spy"]["limit"]
    # Export, and the export loads back as an equal world.
    exported = _cli(capsys, "--save", save_path, "export", "--format", "toml")
    assert worlds_equal(save.read(), load_world_text(exported, "export.toml"))


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("gm-set", {"table": "kingdoms", "id": "varos", "field": "treasury", "value": "999"}),
        ("gm-add", {"table": "units", "id": "x", "fields": "{}"}),
        ("gm-remove", {"table": "units", "id": "brinehaven-watch"}),
        ("gm-move", {"unit": "varos-siege-host", "to": "Brinehaven"}),
        ("gm-conquer", {"province": "saltmarsh", "kingdom": "varos"}),
        ("gm-transfer", {"source": "elbreth", "target": "varos", "ducats": "5"}),
    ],
)
def test_gm_acts_are_refused_for_a_king_with_the_reason(table: Table, name: str, params: dict[str, str]) -> None:
    table.refused("king:varos", name, params, field="identity", text="only the GM may")


@pytest.mark.parametrize(
    ("params", "field", "text"),
    [
        ({"table": "kingdoms", "id": "elbreth", "field": "colour", "value": "red"}, "field", "has no field 'colour'"),
        ({"table": "characters", "id": "nyx", "field": "vault", "value": "atlantis"}, "vault", "names pcs 'atlantis'"),
        ({"table": "characters", "id": "nyx", "field": "status", "value": "sleepy"}, "status", "must be one of"),
        ({"table": "kingdoms", "id": "elbreth", "field": "ruler", "clear": "true"}, "ruler", ""),
        ({"table": "chronicle", "id": "e000001", "field": "text", "value": "x"}, "table", "must be one of"),
        # The dice ledger is written by rolls only: a GM act editing it would be a forgery `yak verify` names.
        ({"table": "dice", "id": "d000001", "field": "total", "value": "6"}, "table", "must be one of"),
    ],
)
def test_gm_set_refuses_what_the_schema_refuses(table: Table, params: dict[str, str], field: str, text: str) -> None:
    if field == "ruler":  # nullable: clearing is allowed, and undone exactly
        table.run("gm", "gm-set", params)
        assert table.world.get("kingdoms", "elbreth")["ruler"] is None
        table.run("gm", "undo")
        assert table.world.get("kingdoms", "elbreth")["ruler"] == "aldric"
        return
    table.refused("gm", "gm-set", params, field=field, text=text)


def test_remove_is_refused_while_something_names_the_document(table: Table) -> None:
    table.refused(
        "gm",
        "gm-remove",
        {"table": "kingdoms", "id": "kesh"},
        field="id",
        text="still named by provinces 'kesh-hills' kingdom",
    )


def test_conquest_moves_a_treasury_kept_in_the_lost_province_home(tmp_path: Path) -> None:
    save = WorldFile(tmp_path / "w.json")
    save.create(build_world())
    run_command(
        save,
        GM,
        "gm-set",
        {"table": "pcs", "id": "brinehaven", "field": "holds_treasury_of", "value": '["kingdoms:elbreth"]'},
    )
    run_command(save, GM, "gm-set", {"table": "pcs", "id": "highmoor", "field": "holds_treasury_of", "value": "[]"})
    run_command(save, GM, "gm-conquer", {"province": "saltmarsh", "kingdom": "varos"})
    world = World(save.read())
    assert world.get("pcs", "brinehaven")["holds_treasury_of"] == []
    assert world.get("pcs", "highmoor")["holds_treasury_of"] == ["kingdoms:elbreth"]
    assert world.get("provinces", "saltmarsh")["kingdom"] == "varos"


# -- property: GM acts, each undone, leave the world exactly as it was ------------------------------------

ACTS = st.one_of(
    st.tuples(
        st.just("gm-set"),
        st.sampled_from(
            [
                {"table": "kingdoms", "id": "elbreth", "field": "business_tax", "value": "25"},
                {"table": "characters", "id": "nyx", "field": "status", "value": "exhausted"},
                {"table": "characters", "id": "nyx", "field": "vault", "value": "highmoor"},
                {"table": "characters", "id": "nyx", "field": "faith", "value": "Folk faiths"},
                {"table": "provinces", "id": "saltmarsh", "field": "potentials.trade", "value": "9"},
                {"table": "kingdoms", "id": "varos", "field": "ruler", "clear": "true"},
                {"table": "characters", "id": "corvin", "field": "alive", "value": "false"},
                {"table": "characters", "id": "rowena", "field": "alive", "value": "false"},
            ]
        ),
    ),
    st.tuples(
        st.just("gm-add"),
        st.sampled_from(
            [
                {
                    "table": "units",
                    "id": "red-co",
                    "fields": '{"name": "Red Co", "owner": "kesh", "kind": "infantry", '
                    '"size": "company", "hex": [3, 9], "regiments": 1}',
                },
                {
                    "table": "units",
                    "id": "hill-bandits",
                    "fields": '{"name": "Hill Bandits", "owner": "kesh", "kind": "raider", '
                    '"size": "company", "hex": [5, 8], "regiments": 1, '
                    '"raised_by": "fund-bandits", "friendly_to": "varos"}',
                },
            ]
        ),
    ),
    st.tuples(
        st.just("ship-build"),
        st.sampled_from(
            [
                {"kingdom": "elbreth", "port": "brinehaven"},
                {"kingdom": "elbreth", "port": "brinehaven", "fleet": "elbreth-fleet", "cost": "1"},
            ]
        ),
    ),
    st.tuples(
        st.just("ship-disband"),
        st.sampled_from([{"unit": "elbreth-fleet", "ships": "1"}, {"unit": "varos-blockade-squadron"}]),
    ),
    st.tuples(
        st.just("ship-sink"),
        st.sampled_from(
            [
                {"unit": "elbreth-fleet", "raider": "varos-raiders", "sailors": "sell"},
                {"unit": "elbreth-fleet", "raider": "varos-raiders", "ships": "2", "sailors": "employ"},
            ]
        ),
    ),
    st.tuples(st.just("raise-guard"), st.sampled_from([{"character": "edmund"}, {"character": "mirela"}])),
    st.tuples(
        st.just("gm-capture"),
        st.sampled_from(
            [
                {"character": "nyx", "captor": "varos", "rob": "true"},
                {"character": "nyx", "release": "true"},
                {"character": "dario", "captor": "elbreth"},
            ]
        ),
    ),
    st.tuples(
        st.just("gm-estate"), st.sampled_from([{"character": "corvin", "heir": "lysa"}, {"character": "rowena"}])
    ),
    st.tuples(st.just("loot-share"), st.sampled_from([{"unit": "hill-bandits", "take": "5"}])),
    st.tuples(st.just("messenger"), st.sampled_from([{"fort": "highmoor", "ducats": "4"}])),
    st.tuples(
        st.just("gm-move"),
        st.sampled_from(
            [
                {"unit": "elbreth-royal-guard", "to": "2,5"},
                {"unit": "varos-siege-host", "to": "Brinehaven"},
                {"character": "nyx", "to": "highmoor"},
                {"character": "edmund", "to": "elbreth-royal-guard"},
                {"unit": "varos-lancers", "to": "4,4"},
            ]
        ),
    ),
    st.tuples(st.just("siege-begin"), st.sampled_from([{"fort": "highmoor", "units": "varos-lancers"}])),
    st.tuples(
        st.just("recruit"),
        st.sampled_from([{"kingdom": "elbreth", "pc": "greywatch", "kind": "infantry", "regiments": "1"}]),
    ),
    st.tuples(
        st.just("gm-conquer"),
        st.sampled_from([{"province": "saltmarsh", "kingdom": "varos"}, {"province": "redfen", "kingdom": "elbreth"}]),
    ),
    st.tuples(
        st.just("gm-transfer"),
        st.sampled_from(
            [
                {"source": "elbreth", "target": "varos", "ducats": "5", "manpower": "1"},
                {"source": "kingdoms:varos", "target": "characters:nyx", "ducats": "2.5"},
            ]
        ),
    ),
    st.tuples(
        st.just("battle"),
        st.sampled_from(
            [
                {"attacker": "varos", "defender": "elbreth", "winner": "draw", "losses": "varos-siege-host:1"},
            ]
        ),
    ),
)


def _snapshot(world: World) -> dict[str, bytes]:
    """Every table but the world's own counters and the dice ledger (undo never removes a roll from it:
    a roll once made stays on the record), and the chronicle without the undo notes, as canonical
    bytes (keys sorted: undo puts a removed document back at the end of its table)."""
    sort = orjson.OPT_SORT_KEYS
    out = {
        name: orjson.dumps(docs, option=sort)
        for name, docs in world.data.items()
        if name not in ("meta", "chronicle", "dice")
    }
    out["chronicle"] = orjson.dumps(
        {i: e for i, e in world.data["chronicle"].items() if e.get("kind") != "undo"}, option=sort
    )
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(ACTS, min_size=1, max_size=8))
def test_any_gm_acts_undone_leave_the_world_byte_for_byte(acts: list[tuple[str, dict[str, str]]]) -> None:
    world = World(build_world())
    before = _snapshot(world)
    done = 0
    for name, params in acts:
        try:
            apply_command(world, GM, name, params, ScriptedDice([6]))
            done += 1
        except CommandError:
            world = World(orjson.loads(orjson.dumps(world.data)))  # a refusal is never written
    for _ in range(done):
        apply_command(world, GM, "undo", {})
    assert _snapshot(world) == before
