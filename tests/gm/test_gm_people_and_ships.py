"""Issue 15, the rest of §2: ships and sailors, the personal guard, capture and robbery, a dead
character's estate, recruiting past a siege through a messenger, and the season-end shares of
sponsored bandits and privateers. Each is a command through the one transaction path; the seed's
words are quoted where the test holds the rule to them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from yak_tui.areas.economy import sailor_slave_price
from yak_tui.kernel.play.commands import CommandError, apply_command, run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.session import advance_season
from yak_tui.kernel.world.demo import build_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

GM = Identity.parse("gm")


def _world() -> World:
    return World(build_world())


def _do(world: World, act: str, who: str = "gm", dice: list[int] | None = None, **params: Any) -> dict[str, Any]:
    return apply_command(world, Identity.parse(who), act, params, ScriptedDice(dice or [])).data


def _refused(world: World, act: str, who: str = "gm", **params: Any) -> CommandError:
    with pytest.raises(CommandError) as caught:
        _do(world, act, who, **params)
    return caught.value


def _sailors(world: World, kingdom: str) -> int:
    return int(world.get("specialists", kingdom).get("sailor", 0))


# -- ships and sailors --------------------------------------------------------------------------------


def test_building_a_ship_takes_sailors_and_disbanding_returns_them() -> None:
    # Seed 002: "Sailors are required to construct ships of any kind. When a ship is voluntarily
    # disbanded, the Sailors are returned to the recruiting pool."
    world = _world()
    assert _sailors(world, "elbreth") == 2
    built = _do(world, "ship-build", "king:elbreth", kingdom="elbreth", port="brinehaven", ships=2, name="Gulls")
    assert _sailors(world, "elbreth") == 0
    fleet = world.get("units", built["unit"])
    assert (fleet["ships"], fleet["sailors"], fleet["kind"]) == (2, 2, "ship")
    error = _refused(world, "ship-build", "king:elbreth", kingdom="elbreth", port="brinehaven")
    assert error.field == "ships" and "has 0 sailors, 1 needed" in error.reason
    assert _refused(world, "ship-build", "king:elbreth", kingdom="elbreth", port="highmoor").field == "port"
    _do(world, "ship-disband", "king:elbreth", unit=built["unit"], ships=1)
    assert _sailors(world, "elbreth") == 1 and world.get("units", built["unit"])["ships"] == 1
    _do(world, "ship-disband", "king:elbreth", unit=built["unit"])
    assert _sailors(world, "elbreth") == 2 and world.find("units", built["unit"]) is None


def test_a_sea_raider_sells_the_captured_sailors_at_the_slave_price() -> None:
    # Seed 002: "Sailors can also be captured by sea raider units during the destruction of a ship;
    # these may be employed as normal or sold as slaves for 1 ducat."
    world = _world()
    assert sailor_slave_price() == 1
    treasury = world.get("kingdoms", "varos")["treasury"]
    sold = _do(world, "ship-sink", unit="elbreth-fleet", raider="varos-raiders", ships=1, sailors="sell")
    assert sold["sailors"] == 1 and sold["fate"] == "sell"
    assert world.get("kingdoms", "varos")["treasury"] == treasury + sailor_slave_price()
    assert world.get("units", "elbreth-fleet")["ships"] == 1
    employed = _do(world, "ship-sink", unit="elbreth-fleet", raider="varos-raiders", sailors="employ")
    assert employed["removed"] and _sailors(world, "varos") == 2
    assert world.get("kingdoms", "varos")["treasury"] == treasury + 1


def test_only_a_sea_raider_captures_sailors() -> None:
    world = _world()
    error = _refused(world, "ship-sink", unit="elbreth-fleet", raider="kesh-riders")
    assert error.field == "raider" and "not a Sea Raider" in error.reason


# -- the personal guard, reset each year ----------------------------------------------------------------


def test_a_personal_guard_is_raised_once_a_year_and_reset_at_year_start(tmp_path: Path) -> None:
    # Seed 002: "At the start of each year ... several abilities such as raising personal guard
    # regiments are reset."
    save = WorldFile(tmp_path / "w.json")
    save.create(build_world())
    raised = run_command(save, Identity.parse("player:edmund"), "raise-guard", {"character": "edmund"}).data
    world = World(save.read())
    guard = world.get("units", raised["unit"])
    assert (guard["guard_of"], guard["regiments"], guard["hex"]) == ("edmund", 1, [4, 3])
    assert world.get("characters", "edmund")["treasury"] == 8 - 2
    before = save.path.read_bytes()
    with pytest.raises(CommandError) as caught:
        run_command(save, GM, "raise-guard", {"character": "edmund"})
    assert caught.value.field == "regiments" and "0 more may be raised" in caught.value.reason
    assert save.path.read_bytes() == before
    for _ in range(4):
        advance_season(save, GM)
    run_command(save, GM, "raise-guard", {"character": "edmund"})
    assert World(save.read()).get("units", raised["unit"])["regiments"] == 2


# -- capture and robbery ---------------------------------------------------------------------------------


def test_a_captured_character_is_robbed_of_the_treasury_he_carries() -> None:
    # Seed 002: "Other citizens are presumed to either carry their Treasuries with them ..."
    world = _world()
    taken = _do(world, "gm-capture", character="nyx", captor="varos", rob=True)
    assert float(taken["robbed"]) == 3
    assert world.get("characters", "nyx")["treasury"] == 0 and world.get("characters", "nyx")["captive_of"] == "varos"
    assert world.get("kingdoms", "varos")["treasury"] == 33
    _do(world, "gm-capture", character="nyx", release=True)
    assert world.get("characters", "nyx")["captive_of"] is None


def test_a_treasury_kept_elsewhere_is_not_on_the_captive() -> None:
    world = _world()
    _do(world, "gm-set", table="characters", id="nyx", field="vault", value="highmoor")
    error = _refused(world, "gm-capture", character="nyx", captor="varos", rob=True)
    assert error.field == "rob" and "keeps their treasury at Highmoor" in error.reason  # no pronouns set: they/them


# -- a dead character's estate -----------------------------------------------------------------------------


def test_an_estate_passes_to_the_named_heir() -> None:
    world = _world()
    _refused(world, "gm-estate", character="corvin", heir="lysa")  # alive: nothing passes
    _do(world, "gm-set", table="characters", id="corvin", field="alive", value="false")
    settled = _do(world, "gm-estate", character="corvin", heir="lysa")
    assert settled["businesses"] == ["hale-bank", "salt-works"] and settled["pcs"] == ["saltcross"]
    assert world.get("businesses", "hale-bank")["owner"] == "lysa"
    assert world.get("pcs", "saltcross")["owner_character"] == "lysa"
    assert world.get("characters", "lysa")["treasury"] == 11 + 15
    assert world.get("characters", "corvin")["estate"]["to"] == "characters:lysa"
    assert _refused(world, "gm-estate", character="corvin").field == "character"  # settled once


def test_an_estate_without_an_heir_escheats_to_the_crown() -> None:
    world = _world()
    _do(world, "gm-set", table="characters", id="rowena", field="alive", value="false")
    _do(world, "gm-estate", character="rowena")
    assert world.get("kingdoms", "elbreth")["treasury"] == 42 + 9
    assert world.get("businesses", "brine-traders")["owner"] == "aldric"  # the crown's ruler holds them


def test_a_dead_character_draws_no_income_and_pays_no_tax(tmp_path: Path) -> None:
    save = WorldFile(tmp_path / "w.json")
    save.create(build_world())
    run_command(save, GM, "gm-set", {"table": "characters", "id": "corvin", "field": "alive", "value": "false"})
    run_command(save, GM, "gm-set", {"table": "kingdoms", "id": "elbreth", "field": "business_tax", "value": "50"})
    before = World(save.read())
    for _ in range(4):
        advance_season(save, GM)
    after = World(save.read())
    assert after.get("characters", "corvin")["treasury"] == before.get("characters", "corvin")["treasury"]
    assert after.get("characters", "rowena")["treasury"] > before.get("characters", "rowena")["treasury"]
    tax_lines = [e["text"] for e in after.data["chronicle"].values() if "business tax" in e["text"]]
    assert tax_lines and all("Hale" not in line for line in tax_lines)


# -- recruiting past a siege -------------------------------------------------------------------------------


def _besiege_highmoor(world: World) -> None:
    _do(world, "gm-move", unit="varos-lancers", to="4,4")
    _do(world, "siege-begin", "king:varos", fort="highmoor", units="varos-lancers")


def test_recruiting_outside_a_besieged_treasury_needs_a_messenger_carrying_the_ducats() -> None:
    # Seed 002: "regiments can be recruited outside the fort if messengers can get through ...
    # messengers must also carry the Ducats used for recruitment with them - so capturing a
    # messenger will put those Ducats in the hands of the captors."
    world = _world()
    _besiege_highmoor(world)
    error = _refused(world, "recruit", "king:elbreth", kingdom="elbreth", pc="greywatch", kind="infantry", regiments=1)
    assert error.field == "regiments" and "shut in besieged Highmoor" in error.reason
    caught = _do(world, "messenger", "gm", dice=[1], fort="highmoor", ducats=4)
    assert not caught["success"] and caught["ducats_captured"] == 4
    assert (
        _refused(
            world, "recruit", "king:elbreth", kingdom="elbreth", pc="greywatch", kind="infantry", regiments=1
        ).field
        == "regiments"
    )
    through = _do(world, "messenger", "gm", dice=[6], fort="highmoor", ducats=4)
    assert through["success"]
    _do(world, "recruit", "king:elbreth", kingdom="elbreth", pc="greywatch", kind="infantry", regiments=2)
    assert world.get("kingdoms", "elbreth")["treasury"] == 42 - 4 - 4
    assert (
        _refused(
            world, "recruit", "king:elbreth", kingdom="elbreth", pc="greywatch", kind="infantry", regiments=1
        ).field
        == "regiments"
    )  # the 4 ducats he carried are spent


# -- sponsored bands pay out at season end ----------------------------------------------------------------


def test_sponsored_bandits_send_their_sponsor_a_share_of_the_loot_once_a_season() -> None:
    # Seed 002, Fund Bandits: "Bandits provide a share of the loot."
    world = _world()
    _do(
        world,
        "gm-add",
        table="units",
        id="hill-bandits",
        fields='{"name": "Hill Bandits", "owner": "kesh", "kind": "raider", "size": "company", "hex": [5, 8], '
        '"regiments": 1, "raised_by": "fund-bandits", "friendly_to": "varos"}',
    )
    paid = _do(world, "loot-share", unit="hill-bandits", take=5)
    assert paid["share"] == 2 and paid["sponsor"] == "varos"
    assert world.get("kingdoms", "varos")["treasury"] == 32 and world.get("kingdoms", "kesh")["treasury"] == 23
    assert "already paid" in _refused(world, "loot-share", unit="hill-bandits", take=5).reason
    assert "not raised by Fund" in _refused(world, "loot-share", unit="kesh-riders", take=5).reason


@pytest.mark.parametrize(
    ("name", "params"),
    [
        ("gm-capture", {"character": "nyx", "captor": "varos", "rob": "true"}),
        ("gm-estate", {"character": "corvin", "heir": "lysa"}),
    ],
)
def test_the_new_gm_acts_are_refused_for_a_king(name: str, params: dict[str, str], tmp_path: Path) -> None:
    save = WorldFile(tmp_path / "w.json")
    save.create(build_world())
    before = save.path.read_bytes()
    with pytest.raises(CommandError) as caught:
        run_command(save, Identity.parse("king:varos"), name, params)
    assert caught.value.field == "identity" and "only the GM may" in caught.value.reason
    assert save.path.read_bytes() == before
