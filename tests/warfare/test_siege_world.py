"""Sieges in the world (RULINGS §3): walled forts only, provisions and their carry-over, land and
sea blockades, starvation forcing the defenders' choice before the season may close, messengers,
smuggling, recruiting and upgrading under siege; driven through `run_command` and `advance`."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from warfare_helpers import Table

from yak_tui.areas.warfare.siege_recruits import recruit_refusal_at
from yak_tui.areas.warfare.sieges import siege_view
from yak_tui.cli import main
from yak_tui.kernel.play.audience import visible_table
from yak_tui.kernel.play.commands import spec_for
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.season.seasons import blockers, due_items

BOTH = {"fort": "brinehaven", "units": "varos-siege-host,varos-blockade-squadron"}


def besiege(t: Table, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return t.table.run("king:varos", "siege-begin", params or BOTH).data


def siege(t: Table, siege_id: str = "siege-0001") -> dict[str, Any]:
    return t.get("sieges", siege_id)


def due(t: Table, kind: str) -> list[dict[str, Any]]:
    return [d for d in due_items(t.world) if d["kind"] == kind]


# --- beginning a siege -------------------------------------------------------------------------


def test_siege_of_the_demo_port_fort_with_both_blockades(t: Table) -> None:
    data = besiege(t)
    assert data == {
        "siege": "siege-0001",
        "provisions": 2,
        "effective": True,
        "port_access": True,
        "land_blockade": True,
        "sea_blockade": True,
    }
    doc = siege(t)
    assert (doc["fort"], doc["besieger"], doc["defender"], doc["status"]) == (
        "brinehaven",
        "varos",
        "elbreth",
        "active",
    )
    assert doc["units"] == ["varos-siege-host", "varos-blockade-squadron"]
    assert doc["started"] == doc["effective_from"] == {"year": 312, "season": "Spring"}
    assert t.get("pcs", "brinehaven")["siege"] == "siege-0001"
    assert any("takes effect" in text for text in t.texts("player:corvin"))


@pytest.mark.parametrize(
    ("params", "field", "text"),
    [
        ({"fort": "millbrook", "units": "varos-siege-host"}, "fort", "an unwalled town cannot be besieged"),
        ({"fort": "brinehaven", "units": "varos-lancers"}, "units", "a siege needs it within 1 hex(es)"),
        ({"fort": "brinehaven", "units": "varos-siege-host,elbreth-fleet"}, "units", "several kingdoms"),
        ({"fort": "brinehaven", "units": "brinehaven-watch"}, "units", "is inside Brinehaven"),
        ({"fort": "brinehaven", "units": "nobody"}, "units", "no unit with id 'nobody'"),
    ],
)
def test_siege_begin_refusals(t: Table, params: dict[str, Any], field: str, text: str) -> None:
    t.table.refused("gm", "siege-begin", params, field=field, text=text)


def test_a_kingdom_does_not_besiege_its_own_fort(t: Table) -> None:
    t.table.refused(
        "gm", "siege-begin", {"fort": "brinehaven", "units": "elbreth-fleet"}, field="units", text="cannot besiege it"
    )


def test_only_the_besieger_begins_the_siege(t: Table) -> None:
    t.table.refused("king:elbreth", "siege-begin", BOTH, field="identity", text="does not act for Kingdom of Varos")


def test_a_fort_is_besieged_once(t: Table) -> None:
    besiege(t)
    t.table.refused("gm", "siege-begin", BOTH, field="fort", text="already under siege")


def test_a_unit_besieges_one_fort_at_a_time(t: Table) -> None:
    besiege(t)
    t.set("pcs", "saltcross", fort_level=1, walled=True)  # a walled market next door
    t.table.refused(
        "gm",
        "siege-begin",
        {"fort": "saltcross", "units": "varos-siege-host"},
        field="units",
        text="already besieges Brinehaven",
    )


# --- provisions carry over within 4 seasons -----------------------------------------------------------


@pytest.mark.parametrize(("ago", "provisions"), [(None, 2), (0, 1), (1, 1), (4, 1), (5, 2), (9, 2)])
def test_provisions_carry_over_within_four_seasons(t: Table, ago: int | None, provisions: int) -> None:
    if ago is not None:
        t.set("pcs", "brinehaven", last_besieged=GameDate.of(312, "Spring").plus(-ago).to_dict(), provisions=1)
    assert besiege(t)["provisions"] == provisions
    assert siege(t)["carried_over_from"] == ago


def test_stock_left_by_a_lifted_siege_carries_over(t: Table) -> None:
    t.set("units", "brinehaven-watch", regiments=1)
    besiege(t)
    t.advance()  # Spring ends: 1 regiment eats 1 of 2
    t.table.refused(
        "king:elbreth", "siege-lift", {"fort": "brinehaven"}, field="identity", text="does not act for Kingdom of Varos"
    )
    lifted = t.table.run("king:varos", "siege-lift", {"fort": "brinehaven", "reason": "the host marches home"})
    assert lifted.data["provisions"] == 1
    pc = t.get("pcs", "brinehaven")
    assert pc["last_besieged"] == {"year": 312, "season": "Summer"} and pc["provisions"] == 1
    assert pc["siege"] is None
    assert (siege(t)["status"], siege(t)["lifted"]) == ("lifted", {"year": 312, "season": "Summer"})
    t.table.refused("gm", "siege-lift", {"fort": "brinehaven"}, field="fort", text="is not under siege")
    for _ in range(4):
        t.advance()  # to Summer 313: 4 seasons since Summer 312
    assert besiege(t)["provisions"] == 1
    t.table.run("gm", "siege-lift", {"fort": "brinehaven"})
    t.set("pcs", "brinehaven", last_besieged={"year": 312, "season": "Summer"})
    t.advance()  # Autumn 313: 5 seasons since
    assert t.table.run("gm", "siege-begin", BOTH).data["provisions"] == 2


# --- port blockade: both needed ------------------------------------------------------------------


def test_a_port_fort_needs_both_blockades(t: Table) -> None:
    data = besiege(t, {"fort": "brinehaven", "units": "varos-siege-host"})
    assert (data["effective"], data["land_blockade"], data["sea_blockade"]) == (False, True, False)
    assert any("not yet in effect" in text and "missing: sea" in text for text in t.texts())
    assert "missing: sea" in due(t, "siege")[0]["text"]
    assert recruit_refusal_at(t.world, "brinehaven") is None  # not in effect: recruiting goes on
    t.advance()  # not in effect: nothing eaten
    assert siege(t)["provisions"] == 2 and siege(t)["seasons"] == 0
    t.table.refused(
        "gm",
        "blockade",
        {"fort": "brinehaven", "kind": "land", "unit": "varos-blockade-squadron"},
        field="unit",
        text="needs land troops",
    )
    t.table.refused(
        "gm",
        "blockade",
        {"fort": "brinehaven", "kind": "sea", "unit": "varos-siege-host"},
        field="unit",
        text="needs ships",
    )
    t.table.refused(
        "gm",
        "blockade",
        {"fort": "brinehaven", "kind": "sea", "unit": "elbreth-fleet"},
        field="unit",
        text="is not Kingdom of Varos's",
    )
    result = t.table.run(
        "king:varos", "blockade", {"fort": "brinehaven", "kind": "sea", "unit": "varos-blockade-squadron"}
    )
    assert result.data["effective"] is True
    assert siege(t)["effective_from"] == {"year": 312, "season": "Summer"}
    t.table.run(
        "gm", "blockade", {"fort": "brinehaven", "kind": "sea", "unit": "varos-blockade-squadron", "lift": True}
    )
    assert siege(t)["effective"] is False and siege(t)["sea_blockade"] is False
    assert any("no longer in effect" in text for text in t.texts())


def test_an_inland_fort_needs_only_a_land_blockade(t: Table) -> None:
    t.set("units", "varos-siege-host", hex=[6, 4])
    data = besiege(t, {"fort": "greywatch", "units": "varos-siege-host"})
    assert (data["effective"], data["port_access"], data["provisions"]) == (True, False, 1)


def test_a_fort_in_a_province_with_a_friendly_port_has_port_access(t: Table) -> None:
    # A castle in Saltmarsh, whose port Brinehaven Elbreth still holds: sea blockade needed too.
    def add_castle(world: Any) -> None:
        world.data["pcs"]["salt-keep"] = {
            "name": "Salt Keep",
            "kind": "castle",
            "province": "saltmarsh",
            "hex": [2, 6],
            "controller": "elbreth",
            "tax": 1,
            "resistance": 5,
            "fort_level": 1,
            "walled": True,
        }

    t.edit(add_castle)
    assert besiege(t, {"fort": "salt-keep", "units": "varos-siege-host"})["effective"] is False
    t.table.run("gm", "siege-lift", {"fort": "salt-keep"})
    t.set("pcs", "brinehaven", controller="varos")  # the port is in enemy hands now
    t.set("pcs", "salt-keep", last_besieged=None)
    assert (
        t.table.run("gm", "siege-begin", {"fort": "salt-keep", "units": "varos-siege-host"}).data["effective"] is True
    )


# --- starvation: the choice before the season closes ------------------------------------------------


def test_besieging_the_demo_port_fort_until_the_defenders_must_choose(t: Table) -> None:
    besiege(t)
    assert "1 season left" in due(t, "siege")[0]["text"]
    assert not blockers(t.world)
    t.advance()  # Spring 312 closes: 2 regiments eat 2
    doc = siege(t)
    assert (doc["provisions"], doc["seasons"]) == (0, 1)
    assert doc["consumption"] == [
        {"date": {"year": 312, "season": "Spring"}, "regiments": 2, "eaten": 2, "provisions": 0, "short": False}
    ]
    assert t.get("pcs", "brinehaven")["last_besieged"] == {"year": 312, "season": "Spring"}
    # Summer: nothing is left to eat, so the defenders must choose before Summer may close (RULINGS §3).
    urgent = due(t, "siege-decision")
    assert urgent and urgent[0]["urgent"] and "Brinehaven" in urgent[0]["text"]
    assert siege_view(t.world)[0]["decision_needed"] is True
    assert any("Brinehaven" in reason for reason in blockers(t.world))
    t.table.refused(
        "gm",
        "advance",
        field="season",
        text="the defenders of Brinehaven will end the season short of provisions and must choose first: surrender or sally (press y on Sieges)",
    )
    t.table.refused(
        "king:varos",
        "siege-decide",
        {"fort": "brinehaven", "choice": "surrender"},
        field="identity",
        text="does not act for Kingdom of Elbreth",
    )
    t.table.refused(
        "gm", "siege-decide", {"fort": "brinehaven", "choice": "parley"}, field="choice", text="must be one of"
    )
    result = t.table.run("king:elbreth", "siege-decide", {"fort": "brinehaven", "choice": "surrender"})
    assert result.data == {
        "siege": "siege-0001",
        "choice": "surrender",
        "captor": "varos",
        "surrendered_units": ["brinehaven-watch"],
    }
    pc = t.get("pcs", "brinehaven")
    assert (pc["controller"], pc["captured_by"], pc["siege"]) == ("varos", "varos", None)
    assert pc["last_besieged"] == {"year": 312, "season": "Summer"}
    assert "brinehaven-watch" not in t.world.data["units"]
    doc = siege(t)
    assert (doc["status"], doc["decision"]) == ("surrendered", "surrender")
    assert doc["decisions"] == [{"date": {"year": 312, "season": "Summer"}, "choice": "surrender"}]
    assert t.advance().data["to"] == "Autumn 312"
    # Varos may now loot the fort it took.
    assert t.table.run("king:varos", "loot", {"pc": "brinehaven"}).data["tax"] == 4


def test_a_sally_is_recorded_and_the_next_shortage_asks_again(t: Table) -> None:
    besiege(t)
    t.table.refused(
        "gm", "siege-decide", {"fort": "brinehaven", "choice": "sally"}, field="choice", text="no choice is due"
    )
    t.advance()
    assert blockers(t.world)
    result = t.table.run("king:elbreth", "siege-decide", {"fort": "brinehaven", "choice": "sally"})
    assert result.data == {"siege": "siege-0001", "choice": "sally"}
    assert any("the GM plays out the battle" in text for text in t.texts())
    assert siege(t)["status"] == "active" and t.get("pcs", "brinehaven")["controller"] == "elbreth"
    t.table.refused(
        "gm", "siege-decide", {"fort": "brinehaven", "choice": "sally"}, field="choice", text="no choice is due"
    )
    assert not blockers(t.world)
    t.advance()  # Summer closes after the sally; in Autumn they are still starving: the choice is due again
    assert siege_view(t.world)[0]["decision_needed"] is True
    assert blockers(t.world)
    # The GM played the sally out: the besiegers were beaten and leave.
    t.table.run("gm", "siege-lift", {"fort": "brinehaven", "reason": "routed by the sally"})
    assert not blockers(t.world)
    assert [d["choice"] for d in siege(t)["decisions"]] == ["sally"]


def test_capturing_a_besieged_fort_ends_the_siege(t: Table) -> None:
    besiege(t)
    t.table.run("gm", "capture", {"pc": "brinehaven", "unit": "varos-siege-host", "garrison": "destroyed"})
    assert siege(t)["status"] == "captured"
    assert t.get("pcs", "brinehaven")["provisions"] == 2


# --- recruiting and upgrading under siege ------------------------------------------------------------


def test_recruiting_inside_a_besieged_fort_is_refused_upgrading_allowed(t: Table) -> None:
    params = {"kingdom": "elbreth", "pc": "brinehaven", "kind": "infantry", "regiments": 1}
    recruited = t.table.run("king:elbreth", "recruit", params)
    unit = t.get("units", recruited.data["unit"])
    assert (unit["inside"], unit["regiments"], unit["size"], unit["owner"]) == ("brinehaven", 1, "patrol", "elbreth")
    assert t.treasury("kingdoms", "elbreth") == 40 and t.get("kingdoms", "elbreth")["manpower"] == 17
    besiege(t)
    assert recruit_refusal_at(t.world, "brinehaven") is not None
    t.table.refused("king:elbreth", "recruit", params, field="pc", text="cannot be recruited inside a besieged fort")
    # Outside the fort recruiting goes on.
    t.table.run("king:elbreth", "recruit", {**params, "pc": "highmoor", "regiments": 3})
    assert t.treasury("kingdoms", "elbreth") == 34
    upgraded = t.table.run("king:elbreth", "upgrade", {"unit": "brinehaven-watch", "upgrade": "crossbows", "cost": 2})
    assert upgraded.data == {"unit": "brinehaven-watch", "besieged": True}
    assert t.get("units", "brinehaven-watch")["upgrades"][0]["note"] == "crossbows"
    assert t.treasury("kingdoms", "elbreth") == 32


@pytest.mark.parametrize(
    ("params", "who", "field", "text"),
    [
        ({"kingdom": "elbreth", "pc": "varosgate", "kind": "infantry", "regiments": 1}, "gm", "pc", "not held by"),
        (
            {"kingdom": "elbreth", "pc": "highmoor", "kind": "infantry", "regiments": 1},
            "king:varos",
            "identity",
            "does not act for Kingdom of Elbreth",
        ),
        ({"kingdom": "elbreth", "pc": "highmoor", "kind": "infantry", "regiments": 0}, "gm", "regiments", "at least 1"),
    ],
)
def test_recruit_refusals(t: Table, params: dict[str, Any], who: str, field: str, text: str) -> None:
    t.table.refused(who, "recruit", params, field=field, text=text)


# --- messengers ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("die", "success", "elbreth", "varos"),
    [(3, True, 42, 30), (6, True, 42, 30), (2, False, 37, 35), (1, False, 37, 35)],
)
def test_messenger_carrying_ducats(t: Table, die: int, success: bool, elbreth: int, varos: int) -> None:
    besiege(t)
    result = t.table.run(
        "gm", "messenger", {"fort": "brinehaven", "ducats": 5, "purpose": "recruit at Highmoor"}, dice=[die]
    )
    assert result.data["success"] is success and result.data["total"] == die
    assert t.treasury("kingdoms", "elbreth") == elbreth and t.treasury("kingdoms", "varos") == varos
    attempt = siege(t)["messengers"][0]
    assert (attempt["natural"], attempt["success"], attempt["ducats"], attempt["odds"]) == (die, success, 5, 0.666667)
    assert attempt["captured_ducats"] == (0 if success else 5)


def test_scouts_help_and_oppose_the_messenger(t: Table) -> None:
    besiege(t)
    t.set("units", "elbreth-scouts", hex=[2, 4])
    t.set("units", "varos-patrol", hex=[3, 5])
    # Both scouts count by default for the besieger: 2 + 1 - 1 = 2, caught.
    result = t.table.run("gm", "messenger", {"fort": "brinehaven", "scouts": "elbreth-scouts"}, dice=[2])
    assert (result.data["total"], result.data["success"]) == (2, False)
    attempt = siege(t)["messengers"][0]
    assert attempt["scouts"] == ["elbreth-scouts"] and attempt["enemy_scouts"] == ["varos-patrol"]
    assert [m["value"] for m in attempt["modifiers"]] == [1, -1]
    t.advance()
    # Without the besieger's scout: 2 + 1 = 3 gets through.
    result = t.table.run(
        "gm", "messenger", {"fort": "brinehaven", "scouts": "elbreth-scouts", "enemy_scouts": "none"}, dice=[2]
    )
    assert (result.data["total"], result.data["success"]) == (3, True)


def test_messenger_odds(t: Table) -> None:
    besiege(t)
    spec = spec_for("messenger")
    assert spec.odds is not None
    t.set("units", "varos-patrol", hex=[3, 5])
    odds = spec.odds(
        t.world,
        Identity.parse("gm"),
        {"fort": "brinehaven", "ducats": 0, "scouts": [], "enemy_scouts": None, "purpose": ""},
    )
    assert odds["success"] == 0.5 and odds["enemy_scouts"] == ["varos-patrol"]
    assert sum(odds["odds"].values()) == pytest.approx(1)


@pytest.mark.parametrize(
    ("params", "field", "text"),
    [
        ({"fort": "brinehaven", "ducats": 50}, "ducats", "has 42 ducats, not 50"),
        ({"fort": "brinehaven", "scouts": "brinehaven-watch"}, "scouts", "not a Scout unit"),
        ({"fort": "brinehaven", "scouts": "elbreth-scouts"}, "scouts", "scouting the messenger's way"),
        ({"fort": "brinehaven", "enemy_scouts": "elbreth-scouts"}, "enemy_scouts", "is not Kingdom of Varos's"),
        ({"fort": "greywatch"}, "fort", "is not under siege"),
    ],
)
def test_messenger_refusals(t: Table, params: dict[str, Any], field: str, text: str) -> None:
    besiege(t)
    t.table.refused("gm", "messenger", params, field=field, text=text, dice=[3])


def test_no_messenger_needed_before_the_siege_takes_effect(t: Table) -> None:
    besiege(t, {"fort": "brinehaven", "units": "varos-siege-host"})
    t.table.refused("gm", "messenger", {"fort": "brinehaven"}, field="fort", text="messengers pass freely", dice=[3])
    t.table.refused(
        "gm",
        "smuggle",
        {"fort": "brinehaven", "merchant": "corvin", "shipments": 1},
        field="fort",
        text="provisions pass freely",
        dice=[6],
    )


def test_messenger_needs_an_uninvolved_adjudicator(t: Table) -> None:
    besiege(t)
    t.table.refused("king:elbreth", "messenger", {"fort": "brinehaven"}, field="identity", text="own forces", dice=[3])


# --- smuggling ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bribe", "die", "success", "corvin", "provisions"),
    [
        (0, 4, True, 15 + 4, 4),  # 4 against 4
        (0, 3, False, 15, 2),
        (1, 3, True, 15 - 1 + 4, 4),  # the bribe gives +1 and is spent
        (2, 1, False, 15 - 2, 2),  # +2 at most, both ducats spent: 1 + 2 = 3 fails
        (2, 2, True, 15 - 2 + 4, 4),
    ],
)
def test_smuggling_provisions_in(t: Table, bribe: int, die: int, success: bool, corvin: int, provisions: int) -> None:
    besiege(t)
    result = t.table.run(
        "gm", "smuggle", {"fort": "brinehaven", "merchant": "corvin", "shipments": 2, "bribe": bribe}, dice=[die]
    )
    assert result.data["success"] is success
    assert t.treasury("characters", "corvin") == corvin
    assert siege(t)["provisions"] == provisions
    assert t.treasury("kingdoms", "elbreth") == (38 if success else 42)  # 2 ducats a shipment
    attempt = siege(t)["smuggling"][0]
    assert (attempt["merchant"], attempt["good"], attempt["bribe"], attempt["success"]) == (
        "corvin",
        "Grain",
        bribe,
        success,
    )
    assert attempt["paid"] == (4 if success else 0)


def test_smuggled_provisions_feed_the_garrison_another_season(t: Table) -> None:
    besiege(t)
    t.table.run("gm", "smuggle", {"fort": "brinehaven", "merchant": "lysa", "shipments": 2, "good": "fish"}, dice=[5])
    t.advance()
    # Without the smuggled food they would have to choose now; with it they eat another season.
    assert siege(t)["provisions"] == 2 and not blockers(t.world)
    t.advance()
    assert siege(t)["provisions"] == 0 and blockers(t.world)


def test_smuggle_odds(t: Table) -> None:
    spec = spec_for("smuggle")
    assert spec.odds is not None
    odds = spec.odds(t.world, Identity.parse("gm"), {"bribe": 5, "modifier": 0})
    assert odds["success"] == pytest.approx(5 / 6, abs=1e-6)


@pytest.mark.parametrize(
    ("params", "field", "text"),
    [
        ({"merchant": "aldric", "shipments": 1}, "merchant", "not a merchant adventurer"),
        ({"merchant": "corvin", "shipments": 1, "good": "Silk"}, "good", "not an edible staple"),
        ({"merchant": "corvin", "shipments": 1, "bribe": 3}, "bribe", "at most 2 ducats:"),  # the seed's +2 cap
        ({"merchant": "corvin", "shipments": 1, "bribe": 9}, "bribe", "up to +2"),
        ({"merchant": "corvin", "shipments": 22}, "shipments", "could not pay 44"),
        ({"merchant": "corvin", "shipments": 0}, "shipments", "at least 1"),
    ],
)
def test_smuggle_refusals(t: Table, params: dict[str, Any], field: str, text: str) -> None:
    besiege(t)
    t.table.refused("gm", "smuggle", {"fort": "brinehaven", **params}, field=field, text=text, dice=[6])


def test_smuggling_by_the_merchants_own_player_is_adjudicated_by_others(t: Table) -> None:
    besiege(t)
    t.table.refused(
        "player:corvin",
        "smuggle",
        {"fort": "brinehaven", "merchant": "corvin", "shipments": 1},
        field="identity",
        text="players never roll",
        dice=[6],
    )


# --- the monitor's view and the CLI ------------------------------------------------------------------


def test_siege_view_for_the_monitor(t: Table) -> None:
    besiege(t)
    row = siege_view(t.world)[0]
    assert row["fort_name"] == "Brinehaven" and row["level"] == 2 and row["level_name"] == "Fort"
    assert row["regiments"] == 2 and row["provisions"] == 2 and row["seasons_left"] == 1
    assert row["defenders"] == [
        {"id": "brinehaven-watch", "name": "Brinehaven Watch", "owner": "elbreth", "regiments": 2}
    ]
    assert row["effective"] and row["blockade_missing"] is None and not row["decision_needed"]
    assert row["doc"]["besieger"] == "varos"


def test_everyone_sees_the_siege(t: Table) -> None:
    besiege(t)
    for who in ("player:lysa", "king:kesh", "player:corvin"):
        seen = visible_table(t.world, Identity.parse(who), "sieges")["siege-0001"]
        assert seen["fort"] == "brinehaven" and seen["provisions"] == 2 and seen["effective"] is True


def test_siege_through_the_cli(t: Table, capsys: pytest.CaptureFixture[str]) -> None:
    path = str(t.save.path)
    assert (
        main(
            [
                "--save",
                path,
                "--as",
                "king:varos",
                "do",
                "siege-begin",
                "fort=brinehaven",
                "units=varos-siege-host,varos-blockade-squadron",
                "--json",
            ]
        )
        == 0
    )
    assert orjson.loads(capsys.readouterr().out)["effective"] is True
    assert main(["--save", path, "do", "messenger", "fort=brinehaven", "--odds", "--json"]) == 0
    odds = orjson.loads(capsys.readouterr().out)
    assert odds["command"] == "messenger" and odds["success"] == 0.666667
    assert (
        main(
            [
                "--save",
                path,
                "do",
                "smuggle",
                "fort=brinehaven",
                "merchant=corvin",
                "shipments=1",
                "bribe=2",
                "--odds",
                "--json",
            ]
        )
        == 0
    )
    assert orjson.loads(capsys.readouterr().out)["success"] == pytest.approx(5 / 6, abs=1e-6)
    assert main(["--save", path, "do", "messenger", "fort=brinehaven", "ducats=4", "--dice", "1", "--json"]) == 0
    out = orjson.loads(capsys.readouterr().out)
    assert out["success"] is False and out["ducats_captured"] == 4
    assert main(["--save", path, "advance", "--json"]) == 0
    capsys.readouterr()
    assert main(["--save", path, "advance", "--json"]) == 2
    assert "Brinehaven" in capsys.readouterr().err
    assert (
        main(
            ["--save", path, "--as", "king:elbreth", "do", "siege-decide", "fort=brinehaven", "choice=sally", "--json"]
        )
        == 0
    )
    capsys.readouterr()
    assert main(["--save", path, "advance", "--json"]) == 0


def _ring(t: Table, sponsor: str) -> None:
    """An active smuggling ring of `sponsor` in Brinehaven's province."""
    province = t.get("pcs", "brinehaven")["province"]

    def put(world: Any) -> None:
        world.put(
            "effects",
            f"fx-ring-{sponsor}",
            {
                "kind": "smuggling-ring",
                "mission": "establish-smuggling-ring",
                "sponsor_kingdom": sponsor,
                "target_kingdom": "varos",
                "province": province,
                "holder_kingdom": sponsor,
                "data": {"npc_sales_tax_divisor": 2, "merchant_smuggling_bonus": 2},
                "start": world.meta["date"],
                "end": None,
                "known_to_target": False,
                "known_sponsor": False,
                "active": True,
            },
        )

    t.edit(put)


def test_smuggling_ring_helps_its_kingdoms_merchants(t: Table) -> None:
    """Seed 002, Establish Smuggling Ring: "NPC sales tax halved and +2 to player merchant smuggling
    efforts." A natural 2 fails against 4 alone and gets through with the ring's +2."""
    besiege(t)
    _ring(t, "elbreth")
    result = t.table.run("gm", "smuggle", {"fort": "brinehaven", "merchant": "corvin", "shipments": 2}, dice=[2])
    assert result.data["success"] is True and result.data["total"] == 4
    assert siege(t)["smuggling"][0]["modifiers"] == [{"value": 2, "reason": "local smugglers"}]
    assert result.data["odds"] == pytest.approx(5 / 6)


def test_another_kingdoms_smuggling_ring_does_not_help(t: Table) -> None:
    """The ring is its sponsor's network: a merchant of another kingdom gains nothing (and learns
    nothing of a secret ring)."""
    besiege(t)
    _ring(t, "kesh")
    result = t.table.run("gm", "smuggle", {"fort": "brinehaven", "merchant": "corvin", "shipments": 2}, dice=[2])
    assert result.data["success"] is False and result.data["total"] == 2
