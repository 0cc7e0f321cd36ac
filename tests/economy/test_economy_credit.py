"""Credit and loans in the world (RULINGS §5): limits at Size 4 and 8, due dates, the lender
paying from its owner's treasury, liquidation, bad debts, instalments past the term, audiences."""

from __future__ import annotations

import pytest
from econ_helpers import edit, money_sum, set_date, state, step, treasury
from yak_plugin import Table

from yak_tui.kernel.play.audience import visible_entries, visible_table
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.seasons import due_items
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile


def _size(save: WorldFile, business: str, size: int) -> None:
    edit(save, lambda data: data["businesses"][business].update(size=size))


def _year_start(save: WorldFile, year: int) -> dict:
    """Jump to Winter of `year` and advance into Spring of year + 1; the `advance` result."""
    set_date(save, f"Winter {year}")
    return Table(save).run("gm", "advance")


# ---------------------------------------------------------------------------------------------
# Credit
# ---------------------------------------------------------------------------------------------


def test_credit_draws_now_and_falls_due_in_four_seasons(save: WorldFile) -> None:
    result = Table(save).run("gm", "credit-extend", {"lender": "hale-bank", "debtor": "edmund", "amount": 10})
    ledger_id = result.data["ledger"]
    doc = state(save)["ledger"][ledger_id]
    assert result.data["due"] == "Spring 313" and result.data["left"] == 14
    assert {
        k: doc[k]
        for k in (
            "kind",
            "lender",
            "lender_owner",
            "debtor",
            "amount",
            "outstanding",
            "status",
            "drawn",
            "due",
            "parties",
        )
    } == {
        "kind": "credit",
        "lender": "hale-bank",
        "lender_owner": "corvin",
        "debtor": "edmund",
        "amount": 10,
        "outstanding": 10,
        "status": "open",
        "drawn": {"year": 312, "season": "Spring"},
        "due": {"year": 313, "season": "Spring"},
        "parties": ["character:edmund", "character:corvin"],
    }
    assert treasury(save, "characters", "edmund") == 18
    assert money_sum(result.entries) == {"characters:edmund": 10}


@pytest.mark.parametrize(
    ("lender", "size", "limit"), [("amber-counting-house", 4, 12), ("hale-bank", 8, 24), ("hale-bank", 5, 15)]
)
def test_credit_limit_is_three_times_size(save: WorldFile, lender: str, size: int, limit: int) -> None:
    _size(save, lender, size)
    Table(save).refused(
        "gm", "credit-extend", {"lender": lender, "debtor": "dario", "amount": limit + 1}, field="amount"
    )
    assert (
        Table(save).run("gm", "credit-extend", {"lender": lender, "debtor": "dario", "amount": limit}).data["left"] == 0
    )


def test_credit_needs_commercial_size_four(save: WorldFile) -> None:
    _size(save, "amber-counting-house", 3)
    Table(save).refused(
        "gm", "credit-extend", {"lender": "amber-counting-house", "debtor": "dario", "amount": 1}, field="lender"
    )
    Table(save).refused(
        "gm", "credit-extend", {"lender": "greywood-lumber", "debtor": "dario", "amount": 1}, field="lender"
    )
    Table(save).refused(
        "gm", "credit-extend", {"lender": "brine-traders", "debtor": "dario", "amount": 1}, field="lender"
    )


def test_credit_limit_counts_what_is_outstanding(save: WorldFile) -> None:
    first = Table(save).run("gm", "credit-extend", {"lender": "amber-counting-house", "debtor": "dario", "amount": 8})
    Table(save).refused(
        "gm", "credit-extend", {"lender": "amber-counting-house", "debtor": "silas", "amount": 5}, field="amount"
    )
    Table(save).run("gm", "credit-repay", {"debt": first.data["ledger"], "amount": 3})
    assert (
        Table(save)
        .run("gm", "credit-extend", {"lender": "amber-counting-house", "debtor": "silas", "amount": 7})
        .data["left"]
        == 0
    )


def test_credit_binds_the_debtor_so_a_player_files_an_order(save: WorldFile) -> None:
    params = {"lender": "hale-bank", "debtor": "edmund", "amount": 5}
    Table(save).refused("player:corvin", "credit-extend", params, field="identity")
    filed = Table(save).run(
        "player:corvin",
        "order-file",
        {"command": "credit-extend", "params": '{"lender": "hale-bank", "debtor": "edmund", "amount": 5}'},
    )
    assert filed.data["adjudicator"] == "king:elbreth"
    Table(save).run("king:elbreth", "order-resolve", {"order": filed.data["order"]})
    assert treasury(save, "characters", "edmund") == 13


def test_unpaid_credit_is_paid_by_the_lender_owner(save: WorldFile) -> None:
    ledger_id = (
        Table(save).run("gm", "credit-extend", {"lender": "hale-bank", "debtor": "edmund", "amount": 10}).data["ledger"]
    )
    result = _year_start(save, 312)
    doc = state(save)["ledger"][ledger_id]
    assert (doc["status"], doc["outstanding"], doc["owed_to_lender"], doc["lender_paid"], doc["bad_debt"]) == (
        "covered",
        10,
        10,
        10,
        0,
    )
    paid = [e for e in result.entries if "unpaid credit" in e["text"] and e.get("amounts")]
    assert money_sum(paid) == {"characters:corvin": -10}
    assert step(result, "credit-loans")["sums"] == {"credit covered by lenders": 10}
    # The debtor now owes the lender's owner: repaying pays Corvin.
    repaid = Table(save).run("player:edmund", "credit-repay", {"debt": ledger_id})
    assert money_sum(repaid.entries) == {"characters:edmund": -10, "characters:corvin": 10}
    assert state(save)["ledger"][ledger_id]["status"] == "repaid"


def test_credit_repaid_in_time_costs_the_lender_nothing(save: WorldFile) -> None:
    ledger_id = (
        Table(save).run("gm", "credit-extend", {"lender": "hale-bank", "debtor": "edmund", "amount": 10}).data["ledger"]
    )
    repaid = Table(save).run("player:edmund", "credit-repay", {"debt": ledger_id, "amount": 4})
    assert money_sum(repaid.entries) == {"characters:edmund": -4}
    Table(save).refused("player:edmund", "credit-repay", {"debt": ledger_id, "amount": 7}, field="amount")
    Table(save).refused("player:corvin", "credit-repay", {"debt": ledger_id, "amount": 1}, field="identity")
    result = _year_start(save, 312)
    assert step(result, "credit-loans")["sums"] == {"credit covered by lenders": 6}
    Table(save).run("gm", "credit-repay", {"debt": ledger_id})
    assert state(save)["ledger"][ledger_id]["status"] == "repaid"
    assert step(_year_start(save, 313), "credit-loans")["sums"] == {}


def _corvin_year_start_receipts(save: WorldFile) -> float:
    """What Corvin receives at year start before the credit step: his market's tax and business income."""
    data = state(save)
    tax = sum(pc["tax"] for pc in data["pcs"].values() if pc.get("owner_character") == "corvin")
    rate = data["kingdoms"]["elbreth"]["business_tax"]
    income = sum(b["size"] - b["size"] * rate // 100 for b in data["businesses"].values() if b["owner"] == "corvin")
    return tax + income


def test_a_lender_without_cash_liquidates_size(save: WorldFile) -> None:
    ledger_id = (
        Table(save).run("gm", "credit-extend", {"lender": "hale-bank", "debtor": "edmund", "amount": 10}).data["ledger"]
    )
    receipts = _corvin_year_start_receipts(save)
    assert receipts == 14
    edit(save, lambda data: data["characters"]["corvin"].update(treasury=5 - receipts))  # 5 in hand at the step
    result = _year_start(save, 312)
    data = state(save)
    # 5 in cash, 5 more: units of 1.5 each -> 4 units raise floor(6) = 6, 1 comes back to the owner.
    assert (data["businesses"]["hale-bank"]["size"], data["businesses"]["hale-bank"]["invested"]) == (4, 12)
    assert data["characters"]["corvin"]["treasury"] == 1
    assert data["ledger"][ledger_id]["status"] == "covered" and data["ledger"][ledger_id]["owed_to_lender"] == 10
    assert [e["refs"]["sizes_sold"] for e in result.entries if e["kind"] == "liquidation"] == [4]


def test_a_lender_that_is_sold_out_leaves_a_bad_debt(save: WorldFile) -> None:
    ledger_id = (
        Table(save).run("gm", "credit-extend", {"lender": "hale-bank", "debtor": "edmund", "amount": 24}).data["ledger"]
    )
    edit(save, lambda data: data["characters"]["corvin"].update(treasury=-_corvin_year_start_receipts(save)))
    result = _year_start(save, 312)
    data = state(save)
    assert "hale-bank" not in data["businesses"]  # 8 units raise 12
    doc = data["ledger"][ledger_id]
    assert (doc["status"], doc["lender_paid"], doc["bad_debt"], doc["owed_to_lender"]) == ("defaulted", 12, 12, 12)
    bad = [d for d in data["ledger"].values() if d["kind"] == "bad-debt"]
    assert len(bad) == 1 and (bad[0]["debtor"], bad[0]["amount"], bad[0]["source"]) == ("edmund", 12, ledger_id)
    assert step(result, "credit-loans")["sums"] == {"credit covered by lenders": 12, "bad debt": 12}
    # Repaying: first Corvin for what his bank covered, then the unpaid creditors (the bad debt).
    edit(save, lambda data: data["characters"]["edmund"].update(treasury=30))
    repaid = Table(save).run("gm", "credit-repay", {"debt": ledger_id, "amount": 15})
    assert money_sum(repaid.entries) == {"characters:edmund": -15, "characters:corvin": 12}
    data = state(save)
    assert data["ledger"][ledger_id]["bad_debt"] == 9
    assert [d["outstanding"] for d in data["ledger"].values() if d["kind"] == "bad-debt"] == [9]


def test_ledger_and_entries_are_seen_by_the_parties_only(save: WorldFile) -> None:
    ledger_id = (
        Table(save).run("gm", "credit-extend", {"lender": "hale-bank", "debtor": "edmund", "amount": 10}).data["ledger"]
    )
    world = World(state(save))
    for who, sees in (("player:edmund", True), ("player:corvin", True), ("player:lysa", False), ("king:varos", False)):
        viewer = Identity.parse(who)
        assert (ledger_id in visible_table(world, viewer, "ledger")) is sees, who
        assert any("credit" in e["text"] and "Hale" in e["text"] for e in visible_entries(world, viewer)) is sees, who
        assert not any(ledger_id in e["text"] for e in visible_entries(world, viewer))  # names, not the id
    # A ruler's own debts are seen by his King identity.
    aldric = (
        Table(save).run("gm", "credit-extend", {"lender": "hale-bank", "debtor": "aldric", "amount": 1}).data["ledger"]
    )
    assert aldric in visible_table(World(state(save)), Identity.parse("king:elbreth"), "ledger")


def test_due_reporter_warns_both_parties(save: WorldFile) -> None:
    Table(save).run("gm", "credit-extend", {"lender": "hale-bank", "debtor": "edmund", "amount": 10})
    assert [i for i in due_items(World(state(save))) if i["kind"] == "credit"] == []
    set_date(save, "Autumn 312")
    items = [i for i in due_items(World(state(save))) if i["kind"] == "credit"]
    assert [(i["audience"], i["urgent"]) for i in items] == [("character:edmund", False), ("character:corvin", False)]
    set_date(save, "Winter 312")
    items = [i for i in due_items(World(state(save))) if i["kind"] == "credit"]
    assert [i["urgent"] for i in items] == [True, True] and "Spring 313" in items[0]["text"]


def test_credit_due_mid_year_is_settled_at_that_season_start(save: WorldFile) -> None:
    set_date(save, "Summer 312")
    ledger_id = (
        Table(save).run("gm", "credit-extend", {"lender": "hale-bank", "debtor": "edmund", "amount": 3}).data["ledger"]
    )
    set_date(save, "Spring 313")
    result = Table(save).run("gm", "advance")
    assert state(save)["ledger"][ledger_id]["status"] == "covered"
    assert money_sum([e for e in result.entries if "unpaid credit" in e["text"]]) == {"characters:corvin": -3}


# ---------------------------------------------------------------------------------------------
# Loans
# ---------------------------------------------------------------------------------------------


def test_loan_limits_at_size_eight(save: WorldFile) -> None:
    base = {"lender": "hale-bank", "debtor": "dario", "term": 5}
    Table(save).refused("gm", "loan-extend", {**base, "principal": 97}, field="principal")
    Table(save).refused("gm", "loan-extend", {**base, "principal": 10, "term": 6}, field="term")
    Table(save).refused("gm", "loan-extend", {**base, "principal": 10, "term": 0}, field="term")
    Table(save).refused("gm", "loan-extend", {**base, "lender": "amber-counting-house", "principal": 1}, field="lender")
    out = Table(save).run("gm", "loan-extend", {**base, "principal": 96, "collateral": "the Thornfield estates"}).data
    assert (out["due"], out["left"]) == ("Spring 317", 0)
    doc = state(save)["ledger"][out["ledger"]]
    assert (doc["collateral"], doc["term_years"], doc["instalment"]) == ("the Thornfield estates", 5, 24)
    _size(save, "hale-bank", 7)
    Table(save).refused("gm", "loan-extend", {**base, "principal": 1}, field="lender")


def test_a_loan_past_its_term_costs_the_lender_a_quarter_a_year(save: WorldFile) -> None:
    edit(save, lambda data: data["characters"]["corvin"].update(treasury=100))
    ledger_id = (
        Table(save)
        .run("gm", "loan-extend", {"lender": "hale-bank", "debtor": "dario", "principal": 10, "term": 1})
        .data["ledger"]
    )
    paid = []
    for year in (312, 313, 314, 315, 316):
        result = _year_start(save, year)
        paid.append(step(result, "credit-loans")["sums"].get("loan instalments paid by lenders", 0))
    assert paid == [3, 3, 3, 1, 0]  # ceil(10 / 4) until the 10 are covered
    doc = state(save)["ledger"][ledger_id]
    assert (doc["status"], doc["lender_paid"], doc["owed_to_lender"]) == ("covered", 10, 10)


def test_a_loan_repaid_within_its_term_costs_nothing(save: WorldFile) -> None:
    ledger_id = (
        Table(save)
        .run("gm", "loan-extend", {"lender": "hale-bank", "debtor": "dario", "principal": 10, "term": 1})
        .data["ledger"]
    )
    assert treasury(save, "characters", "dario") == 16
    Table(save).run("player:dario", "loan-repay", {"debt": ledger_id, "amount": 8})
    result = _year_start(save, 312)
    assert step(result, "credit-loans")["sums"] == {"loan instalments paid by lenders": 2}
    Table(save).refused("gm", "credit-repay", {"debt": ledger_id}, field="debt")


def test_a_sold_bank_takes_its_book_along(save: WorldFile) -> None:
    ledger_id = (
        Table(save)
        .run("gm", "loan-extend", {"lender": "hale-bank", "debtor": "dario", "principal": 10, "term": 1})
        .data["ledger"]
    )
    assert Table(save).run("gm", "business-sell", {"business": "hale-bank", "buyer": "lysa", "price": 0}).data[
        "ledger"
    ] == [ledger_id]
    doc = state(save)["ledger"][ledger_id]
    assert doc["lender_owner"] == "lysa" and doc["parties"] == ["character:dario", "character:lysa"]


def test_a_debt_due_is_listed_once_to_whoever_sees_both_parties(save: WorldFile) -> None:
    """Issue 17: "Credit … falls due" was listed twice on the GM's dashboard (one line per party)."""
    from yak_tui.kernel.season.session import due_for

    Table(save).run("gm", "credit-extend", {"lender": "hale-bank", "debtor": "edmund", "amount": 10})
    set_date(save, "Winter 312")
    world = World(state(save))
    assert len([i for i in due_items(world) if i["kind"] == "credit"]) == 2  # one per party
    for who in ("gm", "player:edmund", "player:corvin"):
        items = [i for i in due_for(world, Identity.parse(who)) if i["kind"] == "credit"]
        assert len(items) == 1, who
        assert "cr-" not in items[0]["text"] and "Hale" in items[0]["text"]
