"""Spell casting through the world (RULINGS §4): `yak do cast` and `consequence-fill`.

The demo mage Maelis has ranks power 1, control 1, resolution 0 and stands in Greywatch.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from yak_plugin import Table

from yak_tui.areas.magic.commands import normalize_source, pending_consequences, stage_odds
from yak_tui.cli import main
from yak_tui.kernel.play.audience import visible_entries
from yak_tui.kernel.play.commands import CommandResult, run_command, spec_for
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.session import due_for
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

GM = Identity.parse("gm")


@pytest.fixture
def save(tmp_path: Path) -> WorldFile:
    return create_world(tmp_path / "w.json")


def cast_params(source: str = "ley-line", **params: Any) -> dict[str, Any]:
    """Maelis casting "ward the bridge" from `source`, with `params` changed."""
    return {"caster": "maelis", "source": source, "spell": "ward the bridge", **params}


def cast(
    save: WorldFile, dice: Sequence[int], who: str = "gm", source: str = "ley-line", **params: Any
) -> CommandResult:
    return Table(save).run(who, "cast", cast_params(source, **params), dice=dice)


def world(save: WorldFile) -> World:
    return World(save.read())


def change(save: WorldFile, fn: Callable[[World], None]) -> None:
    with save.transaction() as data:
        fn(World(data))


def entries(save: WorldFile, kind: str) -> list[dict[str, Any]]:
    return [e for _, e in sorted(world(save).all("chronicle"), key=lambda i: i[1]["seq"]) if e["kind"] == kind]


# --- every band of every stage --------------------------------------------------------------

# (dice, extra params, power band, control band, resolution band, effect, next carry, consequences)
BANDS = [
    # Power (rank 1)
    ([1], {}, "backlash", None, None, "none", 0, ["power-backlash"]),
    ([2], {"power_modifier": -1}, "failed", None, None, "none", 0, []),  # total 2
    ([2, 3, 3], {}, "tapped", "works", "sealed", "works", 0, []),  # Power 3
    ([3, 3, 3], {"power_modifier": 1}, "strong", "works", "sealed", "works", 0, []),  # Power 5
    ([6, 3, 3], {}, "overwhelming", "works", "failed", "works", 0, ["open-source"]),
    # Control (rank 1), after a plain tapped Power
    ([3, 1, 4], {}, "tapped", "backlash", "sealed", "none", 0, ["control-backlash"]),
    ([3, 2, 3], {"control_modifier": -1}, "tapped", "failed", "sealed", "none", 0, []),  # total 2
    ([3, 3, 3], {}, "tapped", "works", "sealed", "works", 0, []),  # total 4
    ([3, 4, 3], {}, "tapped", "finesse", "sealed", "finesse", 0, []),  # total 5
    ([3, 6, 3], {}, "tapped", "spills", "sealed", "spills", 0, ["spill"]),
    # Resolution (rank 0)
    ([3, 3, 1], {}, "tapped", "works", "mishap", "works", 0, ["mishap", "open-source"]),
    ([3, 3, 2], {}, "tapped", "works", "failed", "works", 0, ["open-source"]),
    ([3, 3, 4], {}, "tapped", "works", "sealed", "works", 0, []),
    ([3, 3, 5], {}, "tapped", "works", "bonded", "works", 1, []),
    ([3, 3, 4], {"resolution_modifier": 1}, "tapped", "works", "bonded", "works", 1, []),  # total 5
    ([3, 3, 6], {}, "tapped", "works", "oversealed", "works", -1, []),
]


@pytest.mark.parametrize(("dice", "extra", "power", "control", "resolution", "effect", "carry", "consequences"), BANDS)
def test_every_band_through_the_world(
    save: WorldFile,
    dice: list[int],
    extra: dict[str, Any],
    power: str,
    control: str | None,
    resolution: str | None,
    effect: str,
    carry: int,
    consequences: list[str],
) -> None:
    result = cast(save, dice, **extra)
    data = result.data
    assert data["power"]["band"] == power
    assert (data["control"] or {}).get("band") == control
    assert (data["resolution"] or {}).get("band") == resolution
    assert data["effect"] == effect
    assert data["next_power_modifier"] == carry
    assert data["consequences"] == consequences

    w = world(save)
    maelis = w.get("characters", "maelis")
    assert maelis["power_carry"] == ({"ley-line": carry} if carry else {})
    assert maelis["treasury"] == 6  # casting costs nothing
    # One roll per stage rolled, in order, in the casting entry.
    spell_entries = entries(save, "spell")
    assert len(spell_entries) == 1
    rolls = spell_entries[0]["rolls"]
    assert [r["naturals"] for r in rolls] == [[n] for n in dice]
    assert [r["band"] for r in rolls] == [b for b in (power, control, resolution) if b]
    assert [r["purpose"].split(":")[0] for r in rolls] == ["spell power", "spell control", "spell resolution"][
        : len(dice)
    ]
    # Each consequence is a pending entry for the GM.
    notes = entries(save, "consequence")
    assert [n["refs"]["consequence"] for n in notes] == consequences
    assert all(n["pending"] is True and n["refs"]["casting"] == spell_entries[0]["id"] for n in notes)
    assert data["consequence_entries"] == [n["id"] for n in notes]


def test_stage_totals_carry_rank_and_gm_modifier(save: WorldFile) -> None:
    result = cast(save, [3, 3, 3], power_modifier=-2, reason="consecrated ground")
    rolls = entries(save, "spell")[0]["rolls"]
    assert result.data["power"] == {"natural": 3, "total": 2, "band": "failed"}
    assert rolls[0]["modifiers"] == [
        {"value": 1, "reason": "Power rank"},
        {"value": -2, "reason": "consecrated ground"},
    ]
    assert len(rolls) == 1


# --- chained penalties ------------------------------------------------------------------------


def test_overwhelming_power_penalises_control_and_resolution(save: WorldFile) -> None:
    data = cast(save, [6, 4, 5]).data
    # Control 4 + 1 - 1 = 4 works (finesse without the penalty); Resolution 5 - 1 = 4 sealed.
    assert data["control"] == {"natural": 4, "total": 4, "band": "works"}
    assert data["resolution"] == {"natural": 5, "total": 4, "band": "sealed"}
    assert data["greater_magnitude"] is True
    rolls = entries(save, "spell")[0]["rolls"]
    assert [m["value"] for m in rolls[1]["modifiers"]] == [1, -1]
    assert "overwhelming" in rolls[1]["modifiers"][1]["reason"]
    assert [m["value"] for m in rolls[2]["modifiers"]] == [-1]


def test_control_backlash_penalises_resolution(save: WorldFile) -> None:
    data = cast(save, [3, 1, 5]).data
    assert data["resolution"] == {"natural": 5, "total": 4, "band": "sealed"}
    assert data["next_power_modifier"] == 0


def test_both_penalties_stack(save: WorldFile) -> None:
    data = cast(save, [6, 1, 5]).data
    assert data["control"]["band"] == "backlash"
    assert data["resolution"] == {"natural": 5, "total": 3, "band": "sealed"}
    assert data["consequences"] == ["control-backlash"]


def test_overwhelming_power_can_make_control_fail(save: WorldFile) -> None:
    data = cast(save, [6, 2, 3]).data
    assert data["control"] == {"natural": 2, "total": 2, "band": "failed"}
    assert data["effect"] == "none"


# --- the carried modifier -----------------------------------------------------------------------


def test_carry_is_used_by_the_next_casting_with_the_same_source(save: WorldFile) -> None:
    assert cast(save, [3, 3, 5]).data["next_power_modifier"] == 1
    assert world(save).get("characters", "maelis")["power_carry"] == {"ley-line": 1}
    second = cast(save, [3, 3, 3], source="Ley Line").data  # the same source, written differently
    assert second["carry_used"] == 1
    assert second["power"] == {"natural": 3, "total": 5, "band": "strong"}
    assert world(save).get("characters", "maelis")["power_carry"] == {}  # spent
    third = cast(save, [3, 3, 3]).data
    assert third["carry_used"] == 0
    assert third["power"]["total"] == 4
    rolls = entries(save, "spell")[1]["rolls"]
    assert {"value": 1, "reason": "carried from the last casting with this source"} in rolls[0]["modifiers"]


def test_carry_does_not_cross_sources(save: WorldFile) -> None:
    cast(save, [3, 3, 5])
    other = cast(save, [3, 3, 6], source="spirits of the wood").data
    assert other["carry_used"] == 0
    assert other["power"]["total"] == 4
    assert world(save).get("characters", "maelis")["power_carry"] == {"ley-line": 1, "spirits-of-the-wood": -1}
    back = cast(save, [3, 3, 3]).data
    assert back["carry_used"] == 1
    assert world(save).get("characters", "maelis")["power_carry"] == {"spirits-of-the-wood": -1}


def test_carry_is_replaced_by_the_new_one(save: WorldFile) -> None:
    cast(save, [3, 3, 5])
    data = cast(save, [3, 3, 6]).data
    assert data["carry_used"] == 1 and data["next_power_modifier"] == -1
    assert world(save).get("characters", "maelis")["power_carry"] == {"ley-line": -1}


def test_carry_is_spent_even_when_power_fails(save: WorldFile) -> None:
    cast(save, [3, 3, 6])  # oversealed: -1 next time
    data = cast(save, [2]).data  # 2 + 1 - 1 = 2: failed
    assert data["power"] == {"natural": 2, "total": 2, "band": "failed"}
    assert data["carry_used"] == -1
    assert world(save).get("characters", "maelis")["power_carry"] == {}


def test_normalize_source() -> None:
    assert normalize_source("  Ley Line ") == "ley-line"
    assert normalize_source("LEY_LINE") == "ley-line"
    assert normalize_source("Azra'el") == "azra-el"


# --- consequences -----------------------------------------------------------------------------


def test_consequence_fill(save: WorldFile) -> None:
    cast(save, [1])
    (note,) = entries(save, "consequence")
    assert note["pending"] is True
    assert "backlash from the power source" in note["text"]
    due = due_for(world(save), GM)
    assert any(item.get("entry") == note["id"] and item["urgent"] for item in due)
    assert not any(note["id"] in item["text"] for item in due)  # the id stays out of the words
    assert not [i for i in due_for(world(save), Identity.parse("player:maelis")) if i["kind"] == "consequence"]

    result = run_command(
        save, GM, "consequence-fill", {"entry": note["id"], "text": "The ley line lashes back: Maelis is Weary."}
    )
    filled = world(save).get("chronicle", note["id"])
    assert filled["pending"] is False
    assert filled["detail"] == "The ley line lashes back: Maelis is Weary."
    new = world(save).get("chronicle", result.data["filled_by"])
    assert new["kind"] == "consequence" and new["refs"]["fills"] == note["id"]
    assert new["text"].endswith("Maelis is Weary.")
    assert pending_consequences(world(save)) == []
    assert not [i for i in due_for(world(save), GM) if i["kind"] == "consequence"]

    Table(save).refused(
        GM, "consequence-fill", {"entry": note["id"], "text": "again"}, field="entry", text="already described"
    )


def test_consequence_fill_refusals(save: WorldFile) -> None:
    cast(save, [3, 6, 2])  # spill and open source
    spill, opened = entries(save, "consequence")
    assert (spill["refs"]["stage"], opened["refs"]["stage"]) == ("control", "resolution")
    casting = entries(save, "spell")[0]["id"]
    Table(save).refused(
        GM, "consequence-fill", {"entry": casting, "text": "x"}, field="entry", text="not a spell consequence"
    )
    Table(save).refused(
        Identity.parse("king:varos"),
        "consequence-fill",
        {"entry": spill["id"], "text": "x"},
        field="identity",
        text="only the GM",
    )
    Table(save).refused(GM, "consequence-fill", {"entry": spill["id"], "text": "  "}, field="text", text="empty")
    Table(save).refused(
        GM, "consequence-fill", {"entry": "e999999", "text": "x"}, field="entry", text="no chronicle entry"
    )


def test_adjudicating_king_fills_his_own_castings_consequences(save: WorldFile) -> None:
    # In Varos's Thornfield, Queen Mirela adjudicates the mage's order (RULINGS §1).
    change(save, lambda w: w.edit("characters", "maelis").update(location="thornfield"))
    filed = run_command(
        save,
        Identity.parse("player:maelis"),
        "order-file",
        {"command": "cast", "params": json.dumps({"caster": "maelis", "source": "x", "spell": "y"})},
    )
    assert filed.data["adjudicator"] == "king:varos"
    varos = Identity.parse("king:varos")
    run_command(save, varos, "order-resolve", {"order": filed.data["order"]}, ScriptedDice([1]))
    (note,) = entries(save, "consequence")
    assert note["adjudicator"] == "king:varos"
    Table(save).refused(
        Identity.parse("king:kesh"),
        "consequence-fill",
        {"entry": note["id"], "text": "x"},
        field="identity",
        text="only the GM",
    )
    run_command(save, varos, "consequence-fill", {"entry": note["id"], "text": "ouch"})
    assert world(save).get("chronicle", note["id"])["pending"] is False


# --- refusals and authority -------------------------------------------------------------------


def test_refusals_change_nothing(save: WorldFile) -> None:
    Table(save).refused(
        GM, "cast", {"caster": "tobias", "source": "x", "spell": "y"}, field="caster", text="no mage", dice=[3, 3, 3]
    )
    Table(save).refused("gm", "cast", cast_params(source=" !! "), field="source", text="power source", dice=[3, 3, 3])
    Table(save).refused("gm", "cast", cast_params(spell=" "), field="spell", text="empty", dice=[3, 3, 3])
    Table(save).refused(
        GM,
        "cast",
        {"caster": "nobody", "source": "x", "spell": "y"},
        field="caster",
        text="no character",
        dice=[3, 3, 3],
    )
    change(save, lambda w: w.edit("characters", "maelis").update(alive=False))
    Table(save).refused("gm", "cast", cast_params(), field="caster", text="dead", dice=[3, 3, 3])


@pytest.mark.parametrize(
    ("who", "why"),
    [
        ("king:elbreth", "his own forces or his own person"),
        ("player:maelis", "players never roll"),
        # may adjudicate, but only the mage's order: not his own act
        ("king:varos", "does not act for"),
    ],
)
def test_only_an_uninvolved_adjudicator_rolls(save: WorldFile, who: str, why: str) -> None:
    # Greywatch is Elbreth's and Elbreth is a party: its King may not roll.
    Table(save).refused(who, "cast", cast_params(), field="identity", text=why, dice=[3, 3, 3])


def test_order_filed_by_the_mage_and_resolved_by_the_gm(save: WorldFile) -> None:
    filed = run_command(
        save,
        Identity.parse("player:maelis"),
        "order-file",
        {"command": "cast", "params": json.dumps({"caster": "maelis", "source": "ley-line", "spell": "ward"})},
    )
    assert filed.data["adjudicator"] == "gm"
    done = run_command(save, GM, "order-resolve", {"order": filed.data["order"]}, ScriptedDice([3, 3, 5]))
    assert done.data["result"]["next_power_modifier"] == 1
    assert world(save).get("characters", "maelis")["power_carry"] == {"ley-line": 1}
    assert world(save).get("orders", filed.data["order"])["outcome"] == "effect: works"


def test_casting_is_public_by_default_and_private_on_request(save: WorldFile) -> None:
    cast(save, [1])
    varos = Identity.parse("king:varos")
    assert [e["kind"] for e in visible_entries(world(save), varos)] == ["spell", "consequence"]
    cast(save, [1], audience="kingdom:elbreth")
    assert len(visible_entries(world(save), varos)) == 2
    assert (
        len(
            [
                e
                for e in visible_entries(world(save), Identity.parse("king:elbreth"))
                if e["kind"] in ("spell", "consequence")
            ]
        )
        == 4
    )


def test_undo_restores_the_carry(save: WorldFile) -> None:
    cast(save, [3, 3, 5])
    run_command(save, GM, "undo", {})
    assert world(save).get("characters", "maelis").get("power_carry") is None


# --- odds -------------------------------------------------------------------------------------


def _odds(save: WorldFile, **params: Any) -> dict[str, Any]:
    spec = spec_for("cast")
    assert spec.odds is not None
    raw = {
        "caster": "maelis",
        "source": "ley-line",
        "spell": "x",
        "power_modifier": 0,
        "control_modifier": 0,
        "resolution_modifier": 0,
        "reason": "",
        **params,
    }
    return spec.odds(world(save), GM, raw)


def test_cast_odds_sum_to_one_and_see_the_carry(save: WorldFile) -> None:
    plain = _odds(save)
    for part in ("power", "control", "resolution", "effect", "next_power_modifier"):
        assert sum(plain["odds"][part].values()) == pytest.approx(1, abs=1e-5)
    # Rank 1: Power fails only on a natural 1; strong on 4 or 5.
    assert plain["odds"]["power"]["backlash"] == pytest.approx(1 / 6, abs=1e-6)
    assert plain["odds"]["power"]["strong"] == pytest.approx(2 / 6, abs=1e-6)
    cast(save, [3, 3, 5])
    carried = _odds(save)
    assert carried["carry"] == 1
    assert carried["odds"]["power"]["strong"] == pytest.approx(3 / 6, abs=1e-6)


def test_stage_odds_before_each_stage(save: WorldFile) -> None:
    params = {
        "caster": "maelis",
        "source": "ley-line",
        "power_modifier": 0,
        "control_modifier": 0,
        "resolution_modifier": 0,
        "reason": "",
    }
    w = world(save)
    assert stage_odds(w, params) == pytest.approx(
        {"backlash": 1 / 6, "failed": 0, "tapped": 2 / 6, "strong": 2 / 6, "overwhelming": 1 / 6}, abs=1e-6
    )
    # After a natural-6 Power, Control is at rank 1 - 1 = 0.
    assert stage_odds(w, params, [6]) == pytest.approx(
        {"backlash": 1 / 6, "failed": 1 / 6, "works": 2 / 6, "finesse": 1 / 6, "spills": 1 / 6}, abs=1e-6
    )
    # After Power 3 and a Control backlash, Resolution is at -1.
    assert stage_odds(w, params, [3, 1]) == pytest.approx(
        {"mishap": 1 / 6, "failed": 2 / 6, "sealed": 2 / 6, "bonded": 0, "oversealed": 1 / 6}, abs=1e-6
    )
    assert stage_odds(w, params, [1]) == {}  # the spell ended at Power
    assert stage_odds(w, params, [3, 3, 3]) == {}


# --- the real CLI -----------------------------------------------------------------------------


def test_cli_cast_and_odds(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "--save",
            str(save.path),
            "--json",
            "do",
            "cast",
            "caster=Maelis the Grey",
            "source=ley-line",
            "spell=ward the bridge",
            "--dice",
            "4,3,5",
        ]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    assert out["ok"] is True
    assert out["power"] == {"natural": 4, "total": 5, "band": "strong"}
    assert out["resolution"]["band"] == "bonded"
    assert len(out["entries"]) == 1

    code = main(
        ["--save", str(save.path), "--json", "do", "cast", "caster=maelis", "source=ley-line", "spell=again", "--odds"]
    )
    odds = json.loads(capsys.readouterr().out)
    assert code == 0 and odds["command"] == "cast" and odds["carry"] == 1

    code = main(
        [
            "--save",
            str(save.path),
            "--json",
            "--as",
            "king:elbreth",
            "do",
            "cast",
            "caster=maelis",
            "source=x",
            "spell=y",
            "--dice",
            "3,3,3",
        ]
    )
    assert code == 2
    assert json.loads(capsys.readouterr().err)["field"] == "identity"
