"""Settings the rules tables give a GM (issue 14): each default keeps today's rule, quoted from the
seed or RULINGS it follows, and a house rule that changes the setting changes the outcome."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from yak_plugin import Table

from yak_tui.areas.economy.rules import business_tax
from yak_tui.areas.warfare.rules import OwnedStructure, treasury_placement
from yak_tui.kernel.errors import RuleInputError
from yak_tui.kernel.world.tables import set_override_dir


@pytest.fixture
def house(tmp_path: Path) -> Iterator[Path]:
    """A house-rules folder in force for the test (empty: the stock tables)."""
    folder = tmp_path / "house"
    folder.mkdir()
    set_override_dir(str(folder))
    try:
        yield folder
    finally:
        set_override_dir(None)


def _rule(house: Path, name: str, text: str) -> None:
    (house / f"{name}.toml").write_text(text, encoding="utf-8")
    set_override_dir(str(house))  # reload the tables with the new file


# ---------------------------------------------------------------- business-tax rounding


def test_business_tax_rounds_down_by_default(house: Path) -> None:
    """Seed 002, Businesses: "Be aware that many states can and do tax businesses, so you may well
    receive less than the full amount you were expecting." The tax is Size x rate / 100 rounded
    down (the owner's favour): a Size 4 business at 20% pays nothing, at 30% pays 1."""
    assert [business_tax(4, 20), business_tax(4, 30), business_tax(5, 20), business_tax(9, 10)] == [0, 1, 1, 0]


def test_business_tax_rounding_is_a_house_rule(house: Path) -> None:
    _rule(house, "economy", '[income]\ntax_rounding = "round"\n')
    assert [business_tax(4, 20), business_tax(4, 10), business_tax(5, 10), business_tax(5, 20)] == [1, 0, 1, 1]
    _rule(house, "economy", '[income]\ntax_rounding = "ceil"\n')
    assert [business_tax(4, 20), business_tax(4, 10), business_tax(5, 20), business_tax(0, 50)] == [1, 1, 1, 0]
    _rule(house, "economy", '[income]\ntax_rounding = "up"\n')
    with pytest.raises(RuleInputError, match="tax_rounding must be one of floor, round, ceil"):
        business_tax(4, 20)


# ---------------------------------------------------------------- treasury location order


def _holdings() -> list[OwnedStructure]:
    return [
        OwnedStructure("small-castle", "town", size=2, fort_level=4),
        OwnedStructure("big-market", "market", size=5, fort_level=1),
        OwnedStructure("the-capital", "city", is_capital=True, size=1, fort_level=0),
    ]


def test_treasury_goes_to_the_capital_then_the_largest_then_the_best_defended(house: Path) -> None:
    """RULINGS §2 (from seed 002, Private Citizen Treasuries): "in the capital if he owns one, else
    the largest, else the best defended"."""
    assert treasury_placement(_holdings()).where == "the-capital"
    place = treasury_placement(_holdings()[:2])
    assert (place.where, place.reason) == ("big-market", "in his largest town, market or business")
    tied = [OwnedStructure("a", "town", size=3, fort_level=1), OwnedStructure("b", "town", size=3, fort_level=2)]
    place = treasury_placement(tied)
    assert (place.where, place.reason) == ("b", "in the best defended of his largest towns, markets or businesses")


def test_treasury_order_is_a_house_rule(house: Path) -> None:
    """Seed 002: "capital takes precedence, best defended in second place" — a GM may play it so."""
    _rule(house, "warfare", '[treasury]\norder = ["capital", "best-defended", "largest"]\n')
    assert treasury_placement(_holdings()).where == "the-capital"
    place = treasury_placement(_holdings()[:2])
    assert (place.where, place.reason) == ("small-castle", "in his best defended town, market or business")
    _rule(house, "warfare", '[treasury]\norder = ["largest", "best-defended"]\n')
    assert treasury_placement(_holdings()).where == "big-market"  # the capital is just a small city now
    _rule(house, "warfare", '[treasury]\norder = ["largest", "largest"]\n')
    with pytest.raises(RuleInputError, match=r"treasury\.order must list"):
        treasury_placement(_holdings())


# ---------------------------------------------------------------- the capital's counter-spy


def _capital_province(table: Table, kingdom: str) -> str:
    world = table.world
    return str(world.get("pcs", world.get("kingdoms", kingdom)["capital"])["province"])


def _guard_capital(table: Table) -> None:
    province = _capital_province(table, "elbreth")

    def change(data: dict[str, Any]) -> None:
        data["specialists"]["elbreth"]["counter_spies"] = {"provinces": [province], "nation": 0}
        data["specialists"]["varos"]["spy"] = 5
        data["effects"]["fx-test-treasury"] = {
            "kind": "infiltration",
            "mission": "infiltrate-treasury",
            "sponsor_kingdom": "varos",
            "target_kingdom": "elbreth",
            "data": {},
            "start": data["meta"]["world"]["date"],
            "end": None,
            "holder_kingdom": "varos",
            "known_to_target": False,
            "known_sponsor": False,
            "active": True,
        }

    table.edit(change)


def _reasons(result: Any) -> list[str]:
    return [m["reason"] for m in result.data["modifiers"]["success"]]


def test_the_capitals_counter_spy_guards_every_mission_without_a_province(house: Path, table: Table) -> None:
    """Seed 002, Counter-Spy: "Spies stationed in the capital will protect against infiltrations."
    By default a mission without a province (Embezzlement here) happens in the capital, so the
    counter-spy there guards it too."""
    _guard_capital(table)
    result = table.run("gm", "spy-mission", dice=[4, 6], mission="embezzlement", sponsor="varos", target="elbreth")
    assert "province counter-spy" in _reasons(result)


def test_the_capitals_counter_spy_may_guard_only_infiltrations(house: Path, table: Table) -> None:
    """Seed 002, Counter-Spy: "Spies stationed in the capital will protect against infiltrations."
    With `counter_spy.capital_guards = "infiltrations"` an Embezzlement passes the capital's
    counter-spy (which stays), and the next infiltration meets it."""
    _rule(house, "espionage", '[counter_spy]\ncapital_guards = "infiltrations"\n')
    _guard_capital(table)
    result = table.run("gm", "spy-mission", dice=[4, 6], mission="embezzlement", sponsor="varos", target="elbreth")
    assert "province counter-spy" not in _reasons(result)
    province = _capital_province(table, "elbreth")
    assert table.world.get("specialists", "elbreth")["counter_spies"]["provinces"] == [province]
    result = table.run(
        "gm", "spy-mission", dice=[4, 6], mission="infiltrate-government", sponsor="varos", target="elbreth"
    )
    assert "province counter-spy" in _reasons(result)


# ---------------------------------------------------------------- surplus manpower after slave raids


def _raid_then_year_start(table: Table) -> int:
    """Kesh's riders carry 3 of Highmoor Vale's 4 surplus manpower off; then the year turns."""
    table.edit(lambda data: data["units"]["kesh-riders"].update(hex=[5, 2]))
    result = table.run("gm", "slave-raid", dice=[5], unit="kesh-riders", pc="millbrook", take="manpower")
    assert result.data["manpower"] == 3
    assert table.world.get("provinces", "highmoor-vale")["surplus_manpower"] == 1
    table.set_date("Winter 312")
    table.run("gm", "advance")
    return int(table.world.get("provinces", "highmoor-vale")["surplus_manpower"])


def test_surplus_manpower_taken_by_slave_raids_does_not_regrow_by_default(house: Path, table: Table) -> None:
    """Seed 002, Capturing Slaves: "Slaves are drawn from any surplus manpower in the province - if
    there is no manpower remaining, slaves cannot be taken." The seed gives no regrowth: what a raid
    carried off stays gone at the next year start."""
    assert _raid_then_year_start(table) == 1


def test_surplus_manpower_regrowth_is_a_house_rule(house: Path, table: Table) -> None:
    _rule(house, "warfare", "[slaves]\nsurplus_regrowth_per_year = 2\n")
    assert _raid_then_year_start(table) == 3
    seen = [e["text"] for _, e in table.world.all("chronicle") if "regrows" in e["text"]]
    assert seen == ["Highmoor Vale regrows 2 surplus manpower lost to slave raids (3 now)."]
