"""Issue 29, "GM acts that trip him" and "Wrong rule": each through the command line (`yak`), as a
GM types it, on the demo world."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from yak_plugin import Table

from yak_tui.cli import main
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.views import param_fields
from yak_tui.kernel.world.authoring import load_world_file, load_world_text, reference_problems, template_text
from yak_tui.kernel.world.demo import DEMO_FILE
from yak_tui.kernel.world.fields import UNIT_KINDS

GM = Identity.parse("gm")


def yak(capsys: pytest.CaptureFixture[str], table: Table, *argv: str, who: str = "gm") -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["--save", str(table.path), "--as", who, *argv])
    out, err = capsys.readouterr()
    return code, out, err


def _treasury(table: Table, kingdom: str) -> float:
    return float(table.world.get("kingdoms", kingdom)["treasury"])


# -- Wrong rule: sponsored bands pay their sponsor ---------------------------------------------------


def _fund_bandits(capsys: pytest.CaptureFixture[str], table: Table) -> str:
    code, _, err = yak(
        capsys,
        table,
        "do",
        "spy-mission",
        "mission=fund-bandits",
        "sponsor=elbreth",
        "target=varos",
        "province=varos-march",
        "--dice",
        "6,6",
    )
    assert code == 0, err
    (band,) = [uid for uid, u in table.world.all("units") if u.get("raised_by") == "fund-bandits"]
    assert table.world.get("units", band)["friendly_to"] == "elbreth"  # the sponsor is kept on the unit
    return band


def test_loot_share_of_a_band_no_kingdom_owns_pays_its_sponsor(
    capsys: pytest.CaptureFixture[str], table: Table
) -> None:
    # Seed 002, Fund Bandits: "Bandits provide a share of the loot." The exact commands.
    band = _fund_bandits(capsys, table)
    assert band == "bandits-0001"
    before = _treasury(table, "elbreth")
    code, out, err = yak(capsys, table, "do", "loot-share", "unit=bandits-0001", "take=6")
    assert code == 0, err
    assert _treasury(table, "elbreth") == before + 3
    assert "Kingdom of Elbreth receives 3 ducats: a share of the loot from Bandits of Varos March" in out


def test_a_raid_by_sponsored_bandits_pays_the_sponsor_at_once(capsys: pytest.CaptureFixture[str], table: Table) -> None:
    _fund_bandits(capsys, table)
    elbreth, varos = _treasury(table, "elbreth"), _treasury(table, "varos")
    code, out, err = yak(capsys, table, "--json", "do", "raid", "unit=bandits-0001", "pc=thornfield", "--dice", "5")
    assert code == 0, err
    data = orjson.loads(out)
    assert data["taken"] == 5 and data["sponsor_share"] == 2
    assert _treasury(table, "varos") == varos - 5  # the band carries its take off: no treasury gains it
    assert _treasury(table, "elbreth") == elbreth + 2
    # Who sponsors the band is the sponsor's secret: Varos reads the raid, not the share.
    code, out, _ = yak(capsys, table, "log", who="king:varos")
    assert "Thornfield" in out and "share of the loot" not in out
    code, out, _ = yak(capsys, table, "log", who="king:elbreth")
    assert "a share of the loot from Bandits of Varos March" in out


def test_a_band_slave_raid_is_refused_in_words(capsys: pytest.CaptureFixture[str], table: Table) -> None:
    _fund_bandits(capsys, table)
    code, _, err = yak(
        capsys, table, "do", "slave-raid", "unit=bandits-0001", "pc=thornfield", "take=slaves", "--dice", "4"
    )
    assert code == 2 and "belong to no kingdom" in err and "no kingdom with id" not in err


def test_fund_privateers_filed_as_an_order_sends_back_a_cut(capsys: pytest.CaptureFixture[str], table: Table) -> None:
    # Seed 002, Fund Privateers: "Privateers send back a cut of the take." Filed by the King as a
    # private order, carried out by the GM, then the privateers' take recorded.
    code, out, err = yak(
        capsys,
        table,
        "do",
        "order-file",
        "command=spy-mission",
        "params=mission=fund-privateers;sponsor=elbreth;target=varos;province=amber-coast",
        "private=true",
        who="king:elbreth",
    )
    assert code == 0, err
    (order,) = [oid for oid, _ in table.world.all("orders")]
    code, _, err = yak(capsys, table, "do", "order-resolve", f"order={order}", "--dice", "6,6")
    assert code == 0, err
    (ships,) = [uid for uid, u in table.world.all("units") if u.get("raised_by") == "fund-privateers"]
    assert table.world.get("units", ships)["owner"] == "privateers"
    before = _treasury(table, "elbreth")
    code, out, err = yak(capsys, table, "do", "loot-share", f"unit={ships}", "take=5")
    assert code == 0, err
    assert _treasury(table, "elbreth") == before + 2
    assert "a cut of the take" in out


# -- Traps, engagement modifiers and the public battle line -----------------------------------------


def _morale_and_trap(capsys: pytest.CaptureFixture[str], table: Table) -> None:
    """Varos cripples Elbreth's military morale (a covert mission); Elbreth sets a trap."""
    for mission in ("infiltrate-general-staff", "cripple-military-morale"):
        code, _, err = yak(
            capsys, table, "do", "spy-mission", f"mission={mission}", "sponsor=varos", "target=elbreth", "--dice", "6,6"
        )
        assert code == 0, err
    code, _, err = yak(capsys, table, "do", "trap", "kingdom=elbreth", "fight=The Greywood Ford", who="king:elbreth")
    assert code == 0, err


def _trap_active(table: Table) -> bool:
    return any(e.get("kind") == "trap" and e.get("active") for _, e in table.world.all("effects"))


def test_a_fight_named_another_way_still_springs_the_trap(capsys: pytest.CaptureFixture[str], table: Table) -> None:
    _morale_and_trap(capsys, table)
    code, out, err = yak(
        capsys, table, "--json", "do", "battle", "attacker=kesh", "defender=elbreth", "winner=attacker",
        "fight=the greywood-ford",
    )  # fmt: skip
    assert code == 0, err
    assert [m["reason"] for m in orjson.loads(out)["modifiers"]["elbreth"]] == ["Cripple Military Morale", "trap"]


def test_a_fight_no_trap_names_is_refused_naming_the_traps(capsys: pytest.CaptureFixture[str], table: Table) -> None:
    _morale_and_trap(capsys, table)
    before = table.path.read_bytes()
    code, _, err = yak(
        capsys, table, "do", "battle", "attacker=kesh", "defender=elbreth", "winner=attacker", "fight=Greywood"
    )
    assert code == 2
    assert "no trap of Principality of Kesh or Kingdom of Elbreth is set for 'Greywood'" in err
    assert "their traps are set for: 'The Greywood Ford'" in err
    assert table.path.read_bytes() == before and _trap_active(table)


def test_a_trap_id_names_its_fight(capsys: pytest.CaptureFixture[str], table: Table) -> None:
    _morale_and_trap(capsys, table)
    (trap,) = [eid for eid, e in table.world.all("effects") if e.get("kind") == "trap"]
    code, out, err = yak(
        capsys, table, "do", "battle", "attacker=kesh", "defender=elbreth", "winner=defender", f"fight={trap}"
    )
    assert code == 0, err
    assert "(The Greywood Ford)" in out and "+1 (trap)" in out


def test_the_modifiers_show_before_the_winner_is_entered(capsys: pytest.CaptureFixture[str], table: Table) -> None:
    _morale_and_trap(capsys, table)
    code, out, err = yak(
        capsys, table, "do", "battle", "attacker=kesh", "defender=elbreth", "fight=The Greywood Ford", "--odds"
    )
    assert code == 0, err
    assert out.splitlines() == [
        "Modifiers: Kingdom of Elbreth -2 (Cripple Military Morale), +1 (trap).",
        "Net: Principality of Kesh +1 over Kingdom of Elbreth.",
    ]
    assert table.world.get("kingdoms", "elbreth")  # nothing written: --odds changes nothing
    assert any(e.get("kind") == "morale-penalty" and e.get("active") for _, e in table.world.all("effects"))


def test_the_public_battle_line_says_morale_and_only_the_sponsor_reads_the_cause(
    capsys: pytest.CaptureFixture[str], table: Table
) -> None:
    _morale_and_trap(capsys, table)
    code, _, err = yak(
        capsys, table, "do", "battle", "attacker=kesh", "defender=elbreth", "winner=attacker",
        "fight=The Greywood Ford",
    )  # fmt: skip
    assert code == 0, err
    line = (
        "The battle of Principality of Kesh against Kingdom of Elbreth (The Greywood Ford): Principality of Kesh "
        "wins. Modifiers: Kingdom of Elbreth -2 (morale), +1 (trap)."
    )
    cause = "Your Cripple Military Morale weighed on Kingdom of Elbreth"
    for who in ("observer", "king:elbreth", "king:kesh", "player:corvin"):
        _, out, _ = yak(capsys, table, "log", who=who)
        assert line in out and cause not in out, who
    for who in ("king:varos", "gm"):
        _, out, _ = yak(capsys, table, "log", who=who)
        assert line in out and cause in out, who


# -- Unit kinds and court titles are enumerations ----------------------------------------------------


def test_a_world_file_with_raiders_for_a_kind_or_a_lord_for_a_noble_is_refused_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        template_text().replace('kind = "infantry"', 'kind = "Raiders"', 1).replace('title = "Count"', 'title = "Lord"')
    )
    source = tmp_path / "world.toml"
    source.write_text(text)
    assert main(["new", str(tmp_path / "c.json"), "--from", str(source)]) == 2
    err = capsys.readouterr().err
    assert "field kind: 'Raiders' is not a unit kind (did you mean raider?); the kinds: infantry, cavalry" in err
    assert "field title: 'Lord' is not a court title" in err
    assert "the court titles: Prince, Duke, Count, Baron, Governor, Ambassador, Agent, High Priestess" in err
    assert not (tmp_path / "c.json").exists()


def test_the_template_and_the_demo_hold_only_known_kinds_and_titles() -> None:
    for data in (load_world_text(template_text(), "template.toml"), load_world_file(DEMO_FILE)):
        for table_name in ("units", "characters"):
            for doc in data[table_name].values():
                assert not reference_problems(data, table_name, doc), doc


def test_gm_set_and_recruit_refuse_a_kind_that_is_no_kind(capsys: pytest.CaptureFixture[str], table: Table) -> None:
    code, _, err = yak(capsys, table, "do", "gm-set", "table=units", "id=varos-lancers", "field=kind", "value=Raiders")
    assert code == 2 and "'Raiders' is not a unit kind (did you mean raider?)" in err
    code, _, err = yak(capsys, table, "do", "recruit", "kingdom=elbreth", "pc=highmoor", "kind=Raiders", "regiments=1")
    assert code == 2 and "kind: 'Raiders' is not a unit kind" in err
    code, out, err = yak(
        capsys, table, "--json", "do", "recruit", "kingdom=elbreth", "pc=highmoor", "kind=Sea Raider", "regiments=1"
    )
    assert code == 0, err
    assert table.world.get("units", orjson.loads(out)["unit"])["kind"] == "sea-raider"
    code, _, err = yak(capsys, table, "do", "gm-set", "table=characters", "id=tobias", "field=title", "value=Lord")
    assert code == 2 and "'Lord' is not a court title" in err


def test_the_recruit_form_offers_the_kinds() -> None:
    from yak_tui.kernel.world.demo import build_world
    from yak_tui.kernel.world.model import World

    (field,) = [f for f in param_fields(World(build_world()), GM, "recruit") if f.name == "kind"]
    assert tuple(c.value for c in field.options) == UNIT_KINDS


# -- ship-build reinforces the fleet in the port --------------------------------------------------------


def test_ship_build_reinforces_the_fleet_lying_in_the_port(capsys: pytest.CaptureFixture[str], table: Table) -> None:
    fleets = len(list(table.world.all("units")))
    code, out, err = yak(capsys, table, "do", "ship-build", "kingdom=elbreth", "port=brinehaven", who="king:elbreth")
    assert code == 0, err
    assert "Kingdom of Elbreth builds 1 ship at Brinehaven to reinforce Saltmarsh Squadron" in out
    fleet = table.world.get("units", "elbreth-fleet")
    assert (fleet["ships"], fleet["sailors"], fleet["size"]) == (3, 3, "battalion")
    assert len(list(table.world.all("units"))) == fleets  # no new fleet


def test_ship_build_with_a_name_founds_a_fleet_and_then_must_be_told_which(
    capsys: pytest.CaptureFixture[str], table: Table
) -> None:
    code, _, err = yak(
        capsys, table, "do", "ship-build", "kingdom=elbreth", "port=brinehaven", "name=Gulls", who="king:elbreth"
    )
    assert code == 0, err
    assert table.world.get("units", "elbreth-fleet")["ships"] == 2
    code, _, err = yak(capsys, table, "do", "ship-build", "kingdom=elbreth", "port=brinehaven", who="gm")
    assert code == 2 and "has several fleets in Brinehaven (Saltmarsh Squadron (elbreth-fleet), Gulls" in err
    code, _, err = yak(
        capsys, table, "do", "ship-build", "kingdom=elbreth", "port=brinehaven", "fleet=elbreth-fleet", who="gm"
    )
    assert code == 0, err
    assert table.world.get("units", "elbreth-fleet")["ships"] == 3


def test_ship_build_refuses_a_fleet_elsewhere_or_another_kingdoms(
    capsys: pytest.CaptureFixture[str], table: Table
) -> None:
    code, _, err = yak(
        capsys, table, "do", "ship-build", "kingdom=elbreth", "port=brinehaven", "fleet=varos-blockade-squadron"
    )
    assert code == 2 and "is not a fleet of Kingdom of Elbreth" in err
    table.run("gm", "gm-move", unit="elbreth-fleet", to="3,5")
    code, _, err = yak(capsys, table, "do", "ship-build", "kingdom=elbreth", "port=brinehaven", "fleet=elbreth-fleet")
    assert code == 2 and "ships built there join a fleet lying there" in err


# -- one order marches, then raids ---------------------------------------------------------------------


def test_a_raid_order_may_march_first_in_one_transaction(capsys: pytest.CaptureFixture[str], table: Table) -> None:
    code, _, err = yak(capsys, table, "do", "raid", "unit=kesh-riders", "pc=ironhold", "--dice", "3")
    assert code == 2 and "a raid needs it in its hex (march=true marches it there first)" in err
    code, _, err = yak(
        capsys,
        table,
        "do",
        "order-file",
        "command=raid",
        "params=unit=kesh-riders;pc=ironhold;march=true",
        who="king:kesh",
    )
    assert code == 0, err
    (order,) = [oid for oid, _ in table.world.all("orders")]
    elbreth = _treasury(table, "elbreth")
    code, out, err = yak(capsys, table, "do", "order-resolve", f"order={order}", "--dice", "3")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "Hill Riders marches from 5,8 to Ironhold: 2 hexes, to raid it."
    assert lines[1].startswith("Hill Riders (Principality of Kesh) raid Ironhold: 1d6 = 3")
    assert table.world.get("units", "kesh-riders")["hex"] == table.world.get("pcs", "ironhold")["hex"]
    assert _treasury(table, "elbreth") == elbreth - 3


def test_a_refused_raid_leaves_the_marching_unit_where_it_was(capsys: pytest.CaptureFixture[str], table: Table) -> None:
    table.run("gm", "gm-move", unit="elbreth-scouts", to="ironhold")
    table.run("gm", "raid", unit="kesh-riders", pc="ironhold", march=True, dice=[2])  # (scouts: no garrison)
    before = table.path.read_bytes()
    code, _, err = yak(capsys, table, "do", "raid", "unit=varos-lancers", "pc=ironhold", "march=true", "--dice", "3")
    assert code == 2 and "was already raided" in err
    assert table.path.read_bytes() == before
    assert table.world.get("units", "varos-lancers")["hex"] == [9, 4]


def test_a_marching_raid_reads_so_in_the_orders(capsys: pytest.CaptureFixture[str], table: Table) -> None:
    from yak_tui.kernel.season.post import ORDER_WORDS

    order = {"command": "raid", "params": {"unit": "kesh-riders", "pc": "ironhold", "march": "true"}}
    assert ORDER_WORDS["raid"].plan(table.world, order) == "march Hill Riders to Ironhold and raid it"


def test_a_band_capture_is_refused_in_words(capsys: pytest.CaptureFixture[str], table: Table) -> None:
    _fund_bandits(capsys, table)
    code, _, err = yak(capsys, table, "do", "capture", "pc=thornfield", "unit=bandits-0001")
    assert code == 2 and "belong to no kingdom that could hold Thornfield" in err


def test_privateers_selling_captured_sailors_send_their_sponsor_a_cut(
    capsys: pytest.CaptureFixture[str], table: Table
) -> None:
    code, _, err = yak(
        capsys, table, "do", "spy-mission", "mission=fund-privateers", "sponsor=varos", "target=elbreth",
        "province=saltmarsh", "--dice", "6,6",
    )  # fmt: skip
    assert code == 0, err
    (ships,) = [uid for uid, u in table.world.all("units") if u.get("raised_by") == "fund-privateers"]
    varos = _treasury(table, "varos")
    code, _, err = yak(capsys, table, "do", "ship-sink", "unit=elbreth-fleet", f"raider={ships}", "sailors=employ")
    assert code == 2 and "belong to no kingdom whose pool could take the sailors" in err
    code, out, err = yak(
        capsys, table, "do", "ship-sink", "unit=elbreth-fleet", f"raider={ships}", "ships=2", "sailors=sell"
    )
    assert code == 0, err
    assert _treasury(table, "varos") == varos + 1  # floor(2 x 0.5)
    assert "their sponsor Kingdom of Varos receives a cut of the take: 1 ducat" in out
