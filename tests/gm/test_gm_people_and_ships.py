"""Issue 15, the rest of §2: ships and sailors, the personal guard, capture and robbery, a dead
character's estate, recruiting past a siege through a messenger, and the season-end shares of
sponsored bandits and privateers. Each is a command through the one transaction path; the seed's
words are quoted where the test holds the rule to them."""

from __future__ import annotations

import pytest
from yak_plugin import Table

from yak_tui.areas.economy import sailor_slave_price
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.session import advance_season
from yak_tui.kernel.world.model import World

GM = Identity.parse("gm")


def _sailors(world: World, kingdom: str) -> int:
    return int(world.get("specialists", kingdom).get("sailor", 0))


# -- ships and sailors --------------------------------------------------------------------------------


def test_building_a_ship_takes_sailors_and_disbanding_returns_them(table: Table) -> None:
    # Seed 002: "Sailors are required to construct ships of any kind. When a ship is voluntarily
    # disbanded, the Sailors are returned to the recruiting pool."
    assert _sailors(table.world, "elbreth") == 2
    built = table.run("king:elbreth", "ship-build", kingdom="elbreth", port="brinehaven", ships=2, name="Gulls").data
    assert _sailors(table.world, "elbreth") == 0
    fleet = table.world.get("units", built["unit"])
    assert (fleet["ships"], fleet["sailors"], fleet["kind"]) == (2, 2, "ship")
    table.refused(
        "king:elbreth",
        "ship-build",
        field="ships",
        text="has 0 sailors, 1 needed",
        kingdom="elbreth",
        port="brinehaven",
    )
    table.refused("king:elbreth", "ship-build", field="port", kingdom="elbreth", port="highmoor")
    table.run("king:elbreth", "ship-disband", unit=built["unit"], ships=1)
    assert _sailors(table.world, "elbreth") == 1 and table.world.get("units", built["unit"])["ships"] == 1
    table.run("king:elbreth", "ship-disband", unit=built["unit"])
    assert _sailors(table.world, "elbreth") == 2 and table.world.find("units", built["unit"]) is None


def test_a_sea_raider_sells_the_captured_sailors_at_the_slave_price(table: Table) -> None:
    # Seed 002: "Sailors can also be captured by sea raider units during the destruction of a ship;
    # these may be employed as normal or sold as slaves for 1 ducat."
    assert sailor_slave_price() == 1
    treasury = table.world.get("kingdoms", "varos")["treasury"]
    sold = table.run("gm", "ship-sink", unit="elbreth-fleet", raider="varos-raiders", ships=1, sailors="sell").data
    assert sold["sailors"] == 1 and sold["fate"] == "sell"
    assert table.world.get("kingdoms", "varos")["treasury"] == treasury + sailor_slave_price()
    assert table.world.get("units", "elbreth-fleet")["ships"] == 1
    employed = table.run("gm", "ship-sink", unit="elbreth-fleet", raider="varos-raiders", sailors="employ").data
    assert employed["removed"] and _sailors(table.world, "varos") == 2
    assert table.world.get("kingdoms", "varos")["treasury"] == treasury + 1


def test_only_a_sea_raider_captures_sailors(table: Table) -> None:
    table.refused(
        "gm", "ship-sink", field="raider", text="not a Sea Raider", unit="elbreth-fleet", raider="kesh-riders"
    )


# -- the personal guard, reset each year ----------------------------------------------------------------


def test_a_personal_guard_is_raised_once_a_year_and_reset_at_year_start(table: Table) -> None:
    # Seed 002: "At the start of each year ... several abilities such as raising personal guard
    # regiments are reset."
    raised = table.run("player:edmund", "raise-guard", character="edmund").data
    world = table.world
    guard = world.get("units", raised["unit"])
    assert (guard["guard_of"], guard["regiments"], guard["hex"]) == ("edmund", 1, [4, 3])
    assert world.get("characters", "edmund")["treasury"] == 8 - 2
    table.refused("gm", "raise-guard", field="regiments", text="0 more may be raised", character="edmund")
    for _ in range(4):
        advance_season(table.save, GM)
    table.run("gm", "raise-guard", character="edmund")
    assert table.world.get("units", raised["unit"])["regiments"] == 2


# -- capture and robbery ---------------------------------------------------------------------------------


def test_a_captured_character_is_robbed_of_the_treasury_he_carries(table: Table) -> None:
    # Seed 002: "Other citizens are presumed to either carry their Treasuries with them ..."
    taken = table.run("gm", "gm-capture", character="nyx", captor="varos", rob=True).data
    assert float(taken["robbed"]) == 3
    assert (
        table.world.get("characters", "nyx")["treasury"] == 0
        and table.world.get("characters", "nyx")["captive_of"] == "varos"
    )
    assert table.world.get("kingdoms", "varos")["treasury"] == 33
    table.run("gm", "gm-capture", character="nyx", release=True)
    assert table.world.get("characters", "nyx")["captive_of"] is None


def test_a_treasury_kept_elsewhere_is_not_on_the_captive(table: Table) -> None:
    table.run("gm", "gm-set", table="characters", id="nyx", field="vault", value="highmoor")
    table.refused(
        "gm",
        "gm-capture",
        field="rob",
        text="keeps their treasury at Highmoor",  # no pronouns set: they/them
        character="nyx",
        captor="varos",
        rob=True,
    )


# -- a dead character's estate -----------------------------------------------------------------------------


def test_an_estate_passes_to_the_named_heir(table: Table) -> None:
    table.refused("gm", "gm-estate", field="character", character="corvin", heir="lysa")  # alive: nothing passes
    table.run("gm", "gm-set", table="characters", id="corvin", field="alive", value="false")
    settled = table.run("gm", "gm-estate", character="corvin", heir="lysa").data
    assert settled["businesses"] == ["hale-bank", "salt-works"] and settled["pcs"] == ["saltcross"]
    assert table.world.get("businesses", "hale-bank")["owner"] == "lysa"
    assert table.world.get("pcs", "saltcross")["owner_character"] == "lysa"
    assert table.world.get("characters", "lysa")["treasury"] == 11 + 15
    assert table.world.get("characters", "corvin")["estate"]["to"] == "characters:lysa"
    table.refused("gm", "gm-estate", field="character", character="corvin")  # settled once


def test_an_estate_without_an_heir_escheats_to_the_crown(table: Table) -> None:
    table.run("gm", "gm-set", table="characters", id="rowena", field="alive", value="false")
    table.run("gm", "gm-estate", character="rowena")
    assert table.world.get("kingdoms", "elbreth")["treasury"] == 42 + 9
    assert table.world.get("businesses", "brine-traders")["owner"] == "aldric"  # the crown's ruler holds them


def test_a_dead_character_draws_no_income_and_pays_no_tax(table: Table) -> None:
    table.run("gm", "gm-set", {"table": "characters", "id": "corvin", "field": "alive", "value": "false"})
    table.run("gm", "gm-set", {"table": "kingdoms", "id": "elbreth", "field": "business_tax", "value": "50"})
    before = table.world
    for _ in range(4):
        advance_season(table.save, GM)
    after = table.world
    assert after.get("characters", "corvin")["treasury"] == before.get("characters", "corvin")["treasury"]
    assert after.get("characters", "rowena")["treasury"] > before.get("characters", "rowena")["treasury"]
    tax_lines = [e["text"] for e in after.data["chronicle"].values() if "business tax" in e["text"]]
    assert tax_lines and all("Hale" not in line for line in tax_lines)


# -- recruiting past a siege -------------------------------------------------------------------------------


def _besiege_highmoor(table: Table) -> None:
    table.run("gm", "gm-move", unit="varos-lancers", to="4,4")
    table.run("king:varos", "siege-begin", fort="highmoor", units="varos-lancers")


def test_recruiting_outside_a_besieged_treasury_needs_a_messenger_carrying_the_ducats(table: Table) -> None:
    # Seed 002: "regiments can be recruited outside the fort if messengers can get through ...
    # messengers must also carry the Ducats used for recruitment with them - so capturing a
    # messenger will put those Ducats in the hands of the captors."
    _besiege_highmoor(table)
    recruit = {"kingdom": "elbreth", "pc": "greywatch", "kind": "infantry", "regiments": 1}
    table.refused("king:elbreth", "recruit", recruit, field="regiments", text="shut in besieged Highmoor")
    caught = table.run("gm", "messenger", dice=[1], fort="highmoor", ducats=4).data
    assert not caught["success"] and caught["ducats_captured"] == 4
    table.refused("king:elbreth", "recruit", recruit, field="regiments")
    through = table.run("gm", "messenger", dice=[6], fort="highmoor", ducats=4).data
    assert through["success"]
    table.run("king:elbreth", "recruit", kingdom="elbreth", pc="greywatch", kind="infantry", regiments=2)
    assert table.world.get("kingdoms", "elbreth")["treasury"] == 42 - 4 - 4
    table.refused("king:elbreth", "recruit", recruit, field="regiments")  # the 4 ducats he carried are spent


# -- sponsored bands pay out at season end ----------------------------------------------------------------


def test_sponsored_bandits_send_their_sponsor_a_share_of_the_loot_once_a_season(table: Table) -> None:
    # Seed 002, Fund Bandits: "Bandits provide a share of the loot."
    table.run(
        "gm",
        "gm-add",
        table="units",
        id="hill-bandits",
        fields='{"name": "Hill Bandits", "owner": "kesh", "kind": "raider", "size": "company", "hex": [5, 8], '
        '"regiments": 1, "raised_by": "fund-bandits", "friendly_to": "varos"}',
    )
    paid = table.run("gm", "loot-share", unit="hill-bandits", take=5).data
    assert paid["share"] == 2 and paid["sponsor"] == "varos"
    assert (
        table.world.get("kingdoms", "varos")["treasury"] == 32 and table.world.get("kingdoms", "kesh")["treasury"] == 23
    )
    table.refused("gm", "loot-share", field="unit", text="already paid", unit="hill-bandits", take=5)
    table.refused("gm", "loot-share", field="unit", text="not raised by Fund", unit="kesh-riders", take=5)


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("gm-capture", {"character": "nyx", "captor": "varos", "rob": "true"}),
        ("gm-estate", {"character": "corvin", "heir": "lysa"}),
    ],
)
def test_the_new_gm_acts_are_refused_for_a_king(table: Table, name: str, params: dict[str, str]) -> None:
    table.refused("king:varos", name, params, field="identity", text="only the GM may")
