"""Economy world layer: businesses, competition, monopolies, sales, dismantling, income,
production and the market (RULINGS §5), through the real command path on the demo world."""

from __future__ import annotations

import orjson
import pytest
from econ_helpers import edit, money_sum, set_date, state, step, treasury
from yak_plugin import Table

from yak_tui.areas import economy as eco
from yak_tui.areas.economy import rules
from yak_tui.cli import main
from yak_tui.kernel.play.audience import visible_entries
from yak_tui.kernel.play.commands import CommandContext, spec_for
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import money
from yak_tui.store.storage import WorldFile


def _rich(save: WorldFile, *characters: str, amount: int = 100) -> None:
    def change(data: dict) -> None:
        for cid in characters:
            data["characters"][cid]["treasury"] = amount

    edit(save, change)


# ---------------------------------------------------------------------------------------------
# Opening and expanding
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("sector", "cost"), [("industrial", 3), ("commercial", 3), ("service", 4)])
def test_open_pays_the_sector_cost(save: WorldFile, sector: str, cost: int) -> None:
    result = Table(save).run(
        "gm",
        "business-open",
        {"owner": "tobias", "province": "stonereach", "pc": "ironhold", "sector": sector, "name": "Venn & Co"},
    )
    data = state(save)
    biz = data["businesses"][result.data["business"]]
    assert (biz["size"], biz["invested"], biz["owner"], biz["sector"]) == (1, cost, "tobias", sector)
    assert data["characters"]["tobias"]["treasury"] == 4 - cost
    assert money_sum(result.entries) == {"characters:tobias": -cost}


def test_open_refusals(save: WorldFile) -> None:
    base = {"owner": "tobias", "province": "stonereach", "pc": "ironhold", "sector": "industrial", "name": "X"}
    Table(save).refused("gm", "business-open", {**base, "pc": "highmoor"}, field="pc")
    Table(save).refused("gm", "business-open", {**base, "owner": "nyx", "sector": "service"}, field="treasury")
    Table(save).refused("gm", "business-open", {**base, "name": "  "}, field="name")
    Table(save).refused("player:nyx", "business-open", base, field="identity")
    Table(save).run("player:tobias", "business-open", base)  # the owner may open his own


def test_expand_fills_the_room_without_dice_then_competes(save: WorldFile) -> None:
    _rich(save, "tobias", amount=30)
    opened = Table(save).run(
        "gm",
        "business-open",
        {
            "owner": "tobias",
            "province": "stonereach",
            "pc": "ironhold",
            "sector": "industrial",
            "name": "Ironhold Forge",
        },
    )
    bid = opened.data["business"]
    # Potential 5: Sizes 2..5 fit, no die is rolled (ScriptedDice([]) would fail).
    grown = Table(save).run("gm", "business-expand", {"business": bid, "sizes": 4})
    assert (grown.data["size"], grown.data["invested"], grown.data["competitions"]) == (5, 15, 0)
    assert eco.sector_usage(World(state(save)), "stonereach")["industrial"] == {
        "potential": 5,
        "used": 5,
        "room": 0,
        "full": True,
    }
    # At the cap with no rival: the expander rolls, nobody is lower, the money is spent.
    failed = Table(save).run("gm", "business-expand", {"business": bid}, dice=[6])
    data = state(save)
    assert failed.data["gained"] == 0
    assert (data["businesses"][bid]["size"], data["businesses"][bid]["invested"]) == (5, 15)
    assert data["characters"]["tobias"]["treasury"] == 30 - 3 - 12 - 3


def test_expand_two_sizes_one_free_one_competing(save: WorldFile) -> None:
    _rich(save, "lysa")
    # Amber Coast commercial: Potential 5, the counting house has 4: one free, one competes alone.
    result = Table(save).run("gm", "business-expand", {"business": "amber-counting-house", "sizes": 2}, dice=[3])
    assert (result.data["gained"], result.data["competitions"], result.data["cost"]) == (1, 1, 6)
    assert state(save)["businesses"]["amber-counting-house"]["invested"] == 15


def test_competition_needs_an_uninvolved_adjudicator(save: WorldFile) -> None:
    # Saltmarsh commercial is full (8 + 1 of 9); the owners are Elbreth's, the place is Elbreth's:
    # the King of Elbreth is a party, so the GM or another King who is not involved rolls.
    error = Table(save).refused("player:corvin", "business-expand", {"business": "hale-bank"}, field="identity")
    assert error.who_may == ("gm", "king:varos")
    Table(save).refused("king:elbreth", "business-expand", {"business": "hale-bank"}, field="identity")
    Table(save).refused(
        "king:varos", "business-expand", {"business": "hale-bank"}, field="identity"
    )  # not his business
    filed = Table(save).run(
        "player:corvin", "order-file", {"command": "business-expand", "params": '{"business": "hale-bank"}'}
    )
    assert filed.data["adjudicator"] == "gm"
    Table(save).run("gm", "order-resolve", {"order": filed.data["order"]}, dice=[2, 1])
    assert state(save)["businesses"]["hale-bank"]["size"] == 9
    # Room in the sector: no dice, so the owner acts himself.
    assert Table(save).run("player:edmund", "business-expand", {"business": "scribes-guild"}).data["gained"] == 1


def test_competition_lowest_loses_and_size_one_is_removed(save: WorldFile) -> None:
    result = Table(save).run("gm", "business-expand", {"business": "hale-bank"}, dice=[4, 3])
    data = state(save)
    assert "brine-traders" not in data["businesses"]
    assert (data["businesses"]["hale-bank"]["size"], data["businesses"]["hale-bank"]["invested"]) == (9, 27)
    assert eco.sector_usage(World(data), "saltmarsh")["commercial"]["used"] == 9
    rolls = next(e for e in result.entries if e["kind"] == "competition")["rolls"]
    assert [(r["naturals"], r["total"], r["band"]) for r in rolls] == [([4], 4, "gains"), ([3], 3, "loses")]
    assert any("is gone" in e["text"] for e in result.entries)


def _open_in_saltmarsh(save: WorldFile, dice: list[int]) -> dict:
    _rich(save, "tobias")
    return (
        Table(save)
        .run(
            "gm",
            "business-open",
            {
                "owner": "tobias",
                "province": "saltmarsh",
                "pc": "brinehaven",
                "sector": "commercial",
                "name": "Venn Ledger",
            },
            dice=dice,
        )
        .data
    )


def test_competition_tie_for_lowest_the_largest_loses(save: WorldFile) -> None:
    out = _open_in_saltmarsh(save, [5, 2, 2])
    data = state(save)
    assert out["opened"] and out["loser"] == "hale-bank"
    assert (data["businesses"]["hale-bank"]["size"], data["businesses"]["hale-bank"]["invested"]) == (7, 21)
    assert data["businesses"]["brine-traders"]["size"] == 1
    assert data["businesses"][out["business"]]["size"] == 1


def test_competition_tie_with_the_expander_is_no_loss(save: WorldFile) -> None:
    out = _open_in_saltmarsh(save, [3, 3, 4])
    data = state(save)
    assert out == {"business": None, "opened": False, "competition": True, "loser": None, "spent": 3}
    assert data["characters"]["tobias"]["treasury"] == 97
    assert (data["businesses"]["hale-bank"]["size"], data["businesses"]["brine-traders"]["size"]) == (8, 1)


def test_a_monopoly_defends_with_plus_three(save: WorldFile) -> None:
    Table(save).run("gm", "monopoly-grant", {"business": "hale-bank"})
    out = _open_in_saltmarsh(save, [5, 2, 4])  # hale 2+3 = 5 is not lower; brine 4 is
    assert out["loser"] == "brine-traders"
    entry = next(e for e in state(save)["chronicle"].values() if e["kind"] == "competition")
    hale = entry["rolls"][1]
    assert (hale["naturals"], hale["total"], hale["modifiers"]) == ([2], 5, [{"value": 3, "reason": "monopoly"}])


def test_a_monopoly_expands_with_plus_three(save: WorldFile) -> None:
    Table(save).run("gm", "monopoly-grant", {"business": "hale-bank"})
    result = Table(save).run("gm", "business-expand", {"business": "hale-bank"}, dice=[1, 3])  # 1+3 > 3
    assert result.data["gained"] == 1 and result.data["losers"] == ["brine-traders"]


def test_expand_odds_report_competition(save: WorldFile) -> None:
    world = World(state(save))
    odds = spec_for("business-expand").odds(world, GM, {"business": "hale-bank", "sizes": 1})
    expected = rules.competition_odds(False, [rules.Rival("brine-traders", 1)], "hale-bank", 8)
    assert odds["competition"] is True
    assert odds["odds"] == {"gains": expected.expander_gains, "fails": expected.fails}
    assert odds["odds"]["gains"] == pytest.approx(15 / 36)
    free = spec_for("business-expand").odds(world, GM, {"business": "scribes-guild", "sizes": 1})
    assert free["competition"] is False and free["odds"]["gains"] == 1.0


# ---------------------------------------------------------------------------------------------
# Monopolies
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("kind", "trade", "urban"), [("trade", 5, 4), ("service", 7, 2), ("goods", 5, 2)])
def test_monopoly_penalties_and_revoke(save: WorldFile, kind: str, trade: int, urban: int) -> None:
    Table(save).run("king:elbreth", "monopoly-grant", {"business": "hale-bank", "kind": kind})
    world = World(state(save))
    assert world.get("businesses", "hale-bank")["monopoly"] == kind
    potentials = eco.effective_potentials(world, "saltmarsh")
    assert (potentials["trade"], potentials["urban"], potentials["commercial"]) == (trade, urban, 9)
    Table(save).run("king:elbreth", "monopoly-revoke", {"business": "hale-bank"})
    world = World(state(save))
    assert world.get("provinces", "saltmarsh")["potential_penalties"] == {}
    assert eco.effective_potentials(world, "saltmarsh")["trade"] == 7


def test_monopoly_default_kind_follows_the_sector(save: WorldFile) -> None:
    assert Table(save).run("gm", "monopoly-grant", {"business": "salt-works"}).data["monopoly"] == "goods"
    assert Table(save).run("gm", "monopoly-grant", {"business": "scribes-guild"}).data["monopoly"] == "service"


def test_monopoly_authority_and_limits(save: WorldFile) -> None:
    Table(save).refused("king:varos", "monopoly-grant", {"business": "hale-bank"}, field="identity")
    Table(save).refused("player:corvin", "monopoly-grant", {"business": "hale-bank"}, field="identity")
    Table(save).run("king:elbreth", "monopoly-grant", {"business": "hale-bank"})
    Table(save).refused("gm", "monopoly-grant", {"business": "hale-bank"}, field="business")
    Table(save).refused("gm", "monopoly-grant", {"business": "brine-traders"}, field="business")  # one per sector
    Table(save).refused("gm", "monopoly-revoke", {"business": "salt-works"}, field="business")
    # A province no kingdom rules: only the GM grants.
    _rich(save, "tobias")
    bid = (
        Table(save)
        .run(
            "gm",
            "business-open",
            {
                "owner": "tobias",
                "province": "the-wilds",
                "pc": "hollow-oak",
                "sector": "service",
                "name": "Wilds Guides",
            },
        )
        .data["business"]
    )
    Table(save).refused("king:elbreth", "monopoly-grant", {"business": bid}, field="identity")
    Table(save).run("gm", "monopoly-grant", {"business": bid})


def test_removing_a_monopolist_lifts_its_penalty(save: WorldFile) -> None:
    Table(save).run("gm", "monopoly-grant", {"business": "brine-traders"})
    assert state(save)["provinces"]["saltmarsh"]["potential_penalties"] == {"trade": -2}
    Table(save).run("gm", "business-expand", {"business": "hale-bank"}, dice=[6, 2])  # brine 2+3 = 5 < 6: gone
    assert state(save)["provinces"]["saltmarsh"]["potential_penalties"] == {}


# ---------------------------------------------------------------------------------------------
# Selling and dismantling
# ---------------------------------------------------------------------------------------------


def test_sell_by_the_gm_moves_the_price(save: WorldFile) -> None:
    result = Table(save).run("gm", "business-sell", {"business": "hale-bank", "buyer": "edmund", "price": 5})
    data = state(save)
    assert data["businesses"]["hale-bank"]["owner"] == "edmund"
    assert (data["characters"]["edmund"]["treasury"], data["characters"]["corvin"]["treasury"]) == (3, 20)
    assert money_sum(result.entries) == {"characters:edmund": -5, "characters:corvin": 5}
    Table(save).refused("gm", "business-sell", {"business": "hale-bank", "buyer": "edmund", "price": 1}, field="buyer")
    Table(save).refused(
        "gm", "business-sell", {"business": "hale-bank", "buyer": "tobias", "price": 50}, field="treasury"
    )


def test_a_player_sells_through_an_order(save: WorldFile) -> None:
    Table(save).refused(
        "player:corvin", "business-sell", {"business": "hale-bank", "buyer": "edmund", "price": 5}, field="identity"
    )
    filed = Table(save).run(
        "player:corvin",
        "order-file",
        {"command": "business-sell", "params": '{"business": "hale-bank", "buyer": "edmund", "price": 5}'},
    )
    assert filed.data["adjudicator"] == "king:elbreth"
    Table(save).run("king:elbreth", "order-resolve", {"order": filed.data["order"]})
    assert state(save)["businesses"]["hale-bank"]["owner"] == "edmund"


def test_dismantle_yields_half_the_invested(save: WorldFile) -> None:
    result = Table(save).run("player:corvin", "business-dismantle", {"business": "salt-works"})
    data = state(save)
    assert result.data["yield"] == 4  # floor(9 / 2)
    assert "salt-works" not in data["businesses"]
    assert data["characters"]["corvin"]["treasury"] == 19
    assert eco.sector_usage(World(data), "saltmarsh")["industrial"]["room"] == 3
    Table(save).refused("player:edmund", "business-dismantle", {"business": "hale-bank"}, field="identity")


def test_dismantle_helper_pays_a_captor_and_hands_goods_to_the_owner(save: WorldFile) -> None:
    Table(save).run("gm", "produce", {"business": "salt-works", "good": "Salt", "quantity": 2})
    world = World(state(save))
    ctx = CommandContext(world, GM, ScriptedDice([]), "capture")
    assert eco.dismantle_business(ctx, "hale-bank", ("kingdoms", "varos"), "dismantled by Varos") == 12
    assert eco.dismantle_business(ctx, "salt-works", None, "burnt") == 4
    assert world.get("kingdoms", "varos")["treasury"] == 42
    assert world.get("characters", "corvin")["goods"] == {"Salt": 2}
    assert "hale-bank" not in world.table("businesses") and "salt-works" not in world.table("businesses")
    assert money_sum(ctx.entries) == {"kingdoms:varos": 12}
    assert eco.businesses_at_pc(world, "amberport") == ["amber-counting-house", "amber-vintners"]


# ---------------------------------------------------------------------------------------------
# Year start: business income
# ---------------------------------------------------------------------------------------------


def _expected_income(data: dict) -> tuple[dict[str, int], dict[str, int]]:
    """Income per owner and tax per state, computed straight from the world data."""
    income: dict[str, int] = {}
    tax: dict[str, int] = {}
    for biz in data["businesses"].values():
        state_id = data["provinces"][biz["province"]].get("kingdom")
        rate = data["kingdoms"][state_id]["business_tax"] if state_id else 0
        cut = biz["size"] * rate // 100
        income[biz["owner"]] = income.get(biz["owner"], 0) + biz["size"] - cut
        if cut:
            tax[state_id] = tax.get(state_id, 0) + cut
    return income, tax


def _income_entries(result: object) -> dict[str, float]:
    entries = [e for e in result.entries if "business income" in e["text"] or "business tax" in e["text"]]  # type: ignore[attr-defined]
    return money_sum(entries)


def test_year_start_business_income_on_the_demo(save: WorldFile) -> None:
    data = state(save)
    income, tax = _expected_income(data)
    set_date(save, "Winter 312")
    result = Table(save).run("gm", "advance")
    sums = step(result, "business-income")["sums"]
    assert sums == {"business income": sum(income.values()), "business tax": sum(tax.values())}
    assert sums["business income"] == 3 + 3 + 8 + 1 + 3 + 3 + 4 + 4 + 2 + 2
    expected = {f"characters:{k}": v for k, v in income.items()}
    expected.update({f"kingdoms:{k}": v for k, v in tax.items()})
    assert _income_entries(result) == expected
    summary = next(
        e for e in result.entries if e["kind"] == "year-start" and e.get("refs", {}).get("step") == "business-income"
    )
    assert summary["refs"]["sums"] == sums
    # One line per recipient, not per business; each owner sees his own line only.
    lines = [e for e in result.entries if "business income (" in e["text"]]
    assert len(lines) == len(income)
    corvin = next(e for e in lines if e["audience"] == "character:corvin")
    assert "Hale & Sons Bank 8" in corvin["text"] and "Saltcross Salt Works 3" in corvin["text"]


def test_a_long_income_line_names_six_and_counts_the_rest(save: WorldFile) -> None:
    def many(data: dict) -> None:
        for i in range(9):
            data["businesses"][f"extra-{i}"] = {
                "name": f"Stall {i}",
                "owner": "nyx",
                "province": "the-wilds",
                "pc": "hollow-oak",
                "sector": "service",
                "size": 1,
                "invested": 4,
            }

    edit(save, many)
    set_date(save, "Winter 312")
    result = Table(save).run("gm", "advance")
    line = next(e for e in result.entries if e["audience"] == "character:nyx" and "business income" in e["text"])
    assert line["amounts"] == {"characters:nyx": 9}
    assert "Stall 5 1 and 3 more" in line["text"] and "Stall 6" not in line["text"]


def test_business_tax_goes_to_the_state(save: WorldFile) -> None:
    def taxes(data: dict) -> None:
        data["kingdoms"]["elbreth"]["business_tax"] = 50
        data["kingdoms"]["varos"]["business_tax"] = 25

    edit(save, taxes)
    income, tax = _expected_income(state(save))
    assert tax == {"elbreth": 1 + 1 + 4 + 0 + 1 + 1 + 2, "varos": 1}
    set_date(save, "Winter 312")
    result = Table(save).run("gm", "advance")
    assert step(result, "business-income")["sums"] == {"business income": sum(income.values()), "business tax": 11}
    assert _income_entries(result)["kingdoms:elbreth"] == 10
    assert _income_entries(result)["characters:corvin"] == 4 + 2  # hale 8-4, salt works 3-1


@pytest.mark.parametrize(("looter", "year"), [("varos", 313), ("kingdoms:varos", None), ("kingdom:varos", 313)])
def test_looted_income_goes_to_the_looter_once(save: WorldFile, looter: str, year: int | None) -> None:
    edit(save, lambda data: data["businesses"]["hale-bank"].update(income_looted_by=looter, income_looted_for=year))
    set_date(save, "Winter 312")
    result = Table(save).run("gm", "advance")
    amounts = _income_entries(result)
    assert amounts["kingdoms:varos"] == 8 and amounts["characters:corvin"] == 3
    assert step(result, "business-income")["sums"]["looted"] == 8
    assert not state(save)["businesses"]["hale-bank"].get("income_looted_by")
    set_date(save, "Winter 313")
    assert _income_entries(Table(save).run("gm", "advance"))["characters:corvin"] == 11


def test_income_looted_for_a_later_year_waits(save: WorldFile) -> None:
    edit(save, lambda data: data["businesses"]["hale-bank"].update(income_looted_by="varos", income_looted_for=314))
    set_date(save, "Winter 312")
    assert "kingdoms:varos" not in _income_entries(Table(save).run("gm", "advance"))
    assert state(save)["businesses"]["hale-bank"]["income_looted_by"] == "varos"
    set_date(save, "Winter 313")
    assert _income_entries(Table(save).run("gm", "advance"))["kingdoms:varos"] == 8


# ---------------------------------------------------------------------------------------------
# Production and the market
# ---------------------------------------------------------------------------------------------


def test_produce_costs_and_the_per_season_limit(save: WorldFile) -> None:
    first = Table(save).run("player:corvin", "produce", {"business": "salt-works", "good": "salt", "quantity": 2})
    assert (first.data["good"], first.data["cost"], first.data["limit"]) == ("Salt", 2, 3)  # max(1, 4-4) = 1 each
    Table(save).refused("gm", "produce", {"business": "salt-works", "good": "Salt", "quantity": 2}, field="quantity")
    Table(save).run("gm", "produce", {"business": "salt-works", "good": "Fish", "quantity": 1})
    data = state(save)
    assert data["businesses"]["salt-works"]["stock"] == {"Salt": 2, "Fish": 1}
    assert data["businesses"]["salt-works"]["produced"] == {"season": "312-spring", "goods": 3}
    assert data["characters"]["corvin"]["treasury"] == 15 - 3


@pytest.mark.parametrize(
    ("business", "good", "each"),
    [("silverdell-smiths", "Silver", 4), ("greywood-lumber", "Timber", 1), ("greywood-lumber", "Furs", 2)],
)
def test_produce_costs_base_less_four(save: WorldFile, business: str, good: str, each: int) -> None:
    owner = state(save)["businesses"][business]["owner"]
    _rich(save, owner)
    assert rules.production_cost(rules.commodity_price(good)) == each
    assert Table(save).run("gm", "produce", {"business": business, "good": good, "quantity": 1}).data["cost"] == each
    assert treasury(save, "characters", owner) == 100 - each


def test_produce_refusals(save: WorldFile) -> None:
    Table(save).refused("gm", "produce", {"business": "hale-bank", "good": "Salt", "quantity": 1}, field="business")
    Table(save).refused("gm", "produce", {"business": "salt-works", "good": "Grain", "quantity": 1}, field="good")
    Table(save).refused(
        "player:edmund", "produce", {"business": "salt-works", "good": "Salt", "quantity": 1}, field="identity"
    )
    Table(save).refused("gm", "produce", {"business": "salt-works", "good": "Salt", "quantity": 4}, field="quantity")


def _after_sales_tax(before: float, proceeds: float) -> float:
    """The seller's treasury after a sale and its NPC sales tax (economy.toml, 10% by default)."""
    percent = float(rules.table("economy")["market_sale"]["npc_sales_tax_percent"])
    return float(money(before + proceeds - money(proceeds * percent / 100)))


def test_unsold_goods_sell_at_season_end_with_the_province_price(save: WorldFile) -> None:
    Table(save).run("gm", "produce", {"business": "salt-works", "good": "Salt", "quantity": 3})
    edit(save, lambda data: data["provinces"]["saltmarsh"].update(price_modifiers={"Salt": 2}))
    before = treasury(save, "characters", "corvin")
    result = Table(save).run("gm", "advance", dice=[6])  # base 4 + 2 = 6, a natural 6 sells at 7
    data = state(save)
    assert data["characters"]["corvin"]["treasury"] == _after_sales_tax(before, 21)
    assert data["businesses"]["salt-works"]["stock"] == {}
    sale = next(e for e in result.entries if e["kind"] == "market")
    assert sale["rolls"][0]["naturals"] == [6] and sale["refs"]["price"] == 7
    assert sale["audience"] == "character:corvin"
    assert [
        e["text"] for e in visible_entries(World(data), Identity.parse("player:lysa")) if e.get("kind") == "market"
    ] == []
    # A new season: the limit is free again.
    Table(save).run("gm", "produce", {"business": "salt-works", "good": "Salt", "quantity": 3})


@pytest.mark.parametrize(("natural", "price"), [(1, 3), (2, 4), (5, 4), (6, 5)])
def test_market_sale_faces(save: WorldFile, natural: int, price: int) -> None:
    Table(save).run("gm", "produce", {"business": "salt-works", "good": "Salt", "quantity": 2})
    before = treasury(save, "characters", "corvin")
    Table(save).run("gm", "advance", dice=[natural])
    assert treasury(save, "characters", "corvin") == _after_sales_tax(before, 2 * price)


def test_stored_goods_are_not_sold_and_can_be_released(save: WorldFile) -> None:
    Table(save).run("gm", "produce", {"business": "salt-works", "good": "Salt", "quantity": 3})
    Table(save).run("player:corvin", "goods-store", {"business": "salt-works", "good": "Salt", "quantity": 1})
    Table(save).run(
        "player:corvin",
        "goods-store",
        {"business": "salt-works", "good": "Salt", "quantity": 1, "warehouse": "hale-bank"},
    )
    Table(save).refused(
        "gm",
        "goods-store",
        {"business": "salt-works", "good": "Salt", "quantity": 1, "warehouse": "brine-traders"},
        field="warehouse",
    )
    Table(save).refused(
        "gm",
        "goods-store",
        {"business": "salt-works", "good": "Salt", "quantity": 1, "warehouse": "millbrook-mill"},
        field="warehouse",
    )
    Table(save).refused(
        "gm", "goods-store", {"business": "salt-works", "good": "Salt", "quantity": 2}, field="quantity"
    )
    Table(save).run("gm", "advance", dice=[3])  # one Salt left in stock: one roll
    data = state(save)
    assert data["businesses"]["salt-works"]["warehouse"] == {"Salt": 1}
    assert data["businesses"]["hale-bank"]["warehouse"] == {"Salt": 1}
    Table(save).run("gm", "goods-release", {"business": "hale-bank", "good": "Salt", "quantity": 1})
    before = treasury(save, "characters", "corvin")
    Table(save).run("gm", "advance", dice=[3])
    assert treasury(save, "characters", "corvin") == _after_sales_tax(before, 4)
    assert state(save)["businesses"]["hale-bank"]["warehouse"] == {}


def test_ship_goods_to_the_owner(save: WorldFile) -> None:
    Table(save).run("gm", "produce", {"business": "salt-works", "good": "Salt", "quantity": 3})
    result = Table(save).run(
        "player:corvin",
        "goods-ship",
        {"business": "salt-works", "good": "Salt", "quantity": 2, "destination": "highmoor-vale"},
    )
    data = state(save)
    assert result.data["owner_goods"] == {"Salt": 2} == data["characters"]["corvin"]["goods"]
    assert data["businesses"]["salt-works"]["stock"] == {"Salt": 1}
    Table(save).refused(
        "gm",
        "goods-ship",
        {"business": "salt-works", "good": "Salt", "quantity": 1, "destination": "saltmarsh"},
        field="destination",
    )


def test_prices_helper_and_command(save: WorldFile) -> None:
    edit(save, lambda data: data["provinces"]["saltmarsh"].update(price_modifiers={"fish": -3, "Salt": 3}))
    world = World(state(save))
    prices = eco.province_prices(world, "saltmarsh", ["Salt", "Fish", "Unobtainium"])
    assert prices == {"Salt": {"base": 4, "modifier": 3, "price": 7}, "Fish": {"base": 2, "modifier": -3, "price": 1}}
    assert len(eco.province_prices(world, "saltmarsh")) == len(rules.commodities())
    out = Table(save).run("player:lysa", "prices", {"province": "saltmarsh", "resources_only": "true"}).data
    assert out["prices"] == prices


def test_income_preview_for_the_screen(save: WorldFile) -> None:
    edit(save, lambda data: data["kingdoms"]["elbreth"].update(business_tax=25))
    preview = eco.business_income_preview(World(state(save)), "hale-bank")
    assert preview == {"size": 8, "state": "elbreth", "rate": 25, "tax": 2, "income": 6, "looted_by": None}


# ---------------------------------------------------------------------------------------------
# Through the real CLI
# ---------------------------------------------------------------------------------------------


def test_cli_expand_into_a_full_sector(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--save", str(save.path), "do", "business-expand", "business=hale-bank", "--odds", "--json"])
    odds = orjson.loads(capsys.readouterr().out)
    assert code == 0 and odds["competition"] is True and odds["losers"] == {"brine-traders": pytest.approx(15 / 36)}
    code = main(["--save", str(save.path), "do", "business-expand", "business=hale-bank", "--dice", "5,2", "--json"])
    out = orjson.loads(capsys.readouterr().out)
    assert code == 0 and out["gained"] == 1 and out["losers"] == ["brine-traders"]
    code = main(
        ["--save", str(save.path), "--as", "player:corvin", "do", "business-expand", "business=hale-bank", "--json"]
    )
    assert code == 2
    assert "identity" in capsys.readouterr().err


@pytest.mark.parametrize(("ring", "tax"), [(False, 0.8), (True, 0.4)])
def test_npc_sales_tax_is_halved_by_a_smuggling_ring(save: WorldFile, ring: bool, tax: float) -> None:
    """Seed 002, Establish Smuggling Ring: "NPC sales tax halved and +2 to player merchant smuggling
    efforts." Two Salt at 4 sell for 8; the tax (10%, economy.toml) goes to Elbreth, which rules
    Saltmarsh; a ring in Saltmarsh halves it."""
    Table(save).run("gm", "produce", {"business": "salt-works", "good": "Salt", "quantity": 2})
    if ring:
        edit(
            save,
            lambda data: data["effects"].update(
                {
                    "fx-ring": {
                        "kind": "smuggling-ring",
                        "mission": "establish-smuggling-ring",
                        "sponsor_kingdom": "kesh",
                        "target_kingdom": "elbreth",
                        "province": "saltmarsh",
                        "holder_kingdom": "kesh",
                        "data": {"npc_sales_tax_divisor": 2, "merchant_smuggling_bonus": 2},
                        "start": data["meta"]["world"]["date"],
                        "end": None,
                        "known_to_target": False,
                        "known_sponsor": False,
                        "active": True,
                    }
                }
            ),
        )
    corvin, crown = treasury(save, "characters", "corvin"), treasury(save, "kingdoms", "elbreth")
    result = Table(save).run("gm", "advance", dice=[3])
    assert treasury(save, "characters", "corvin") == money(corvin + 8 - tax)
    taxed = [e for e in result.entries if "sales tax" in e["text"]]
    assert {e["audience"] for e in taxed} == {"character:corvin", "kingdom:elbreth"}
    assert all("smuggling" not in e["text"] for e in taxed)  # a secret ring is not named
    assert treasury(save, "kingdoms", "elbreth") == money(crown + tax)
