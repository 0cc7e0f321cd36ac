"""Credit and loans, and the liquidation that pays them when the debtor does not (RULINGS §5)."""

from __future__ import annotations

import math
from typing import Any

from yak_tui.areas.economy import rules
from yak_tui.areas.economy.business import _remove_business
from yak_tui.areas.economy.shared import (
    OPEN_DEBT,
    _business,
    _char,
    _character_parties,
    _name,
    _owner_kingdom,
    _province_kingdom,
    _require_witness,
    _today,
)
from yak_tui.kernel.play.audience import character_audience
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import SEATS, CommandContext, CommandError, Param, command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.season.seasons import StepReport, due_reporter, season_start_step
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import ducats, money
from yak_tui.kernel.world.numbers import counted
from yak_tui.kernel.world.tables import table as rules_table


def _open_liability(world: World, lender_id: str, kind: str) -> float:
    """What a lender still answers for on its open credit (or loans)."""
    total = 0.0
    for _, doc in world.all("ledger"):
        if doc.get("kind") == kind and doc.get("lender") == lender_id and doc.get("status") in OPEN_DEBT:
            total += _liability(doc)
    return total


def _liability(doc: dict[str, Any]) -> float:
    """The part of a debt the lender still guarantees: outstanding less what it already covered."""
    return max(0.0, float(doc["outstanding"]) - float(doc.get("owed_to_lender", 0)) - float(doc.get("bad_debt", 0)))


def _debt_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    biz = _business(world, p["lender"])
    return Stakes.of(_province_kingdom(world, biz["province"]), characters=[biz["owner"], p["debtor"]])


def _history(doc: dict[str, Any], world: World, event: str, amount: float, by: str = "") -> None:
    doc.setdefault("history", []).append(
        {"date": world.meta["date"], "event": event, "amount": money(amount), "by": by}
    )


def _new_debt(
    ctx: CommandContext, kind: str, lender_id: str, debtor: str, amount: int, due: GameDate, extra: dict[str, Any]
) -> str:
    """A ledger document: kind credit|loan, lender business and owner, debtor, amount, outstanding,
    owed_to_lender, lender_paid, bad_debt, drawn and due dates, status, parties, history."""
    world = ctx.world
    biz = _business(world, lender_id)
    ledger_id = world.new_id("ledger", "cr" if kind == "credit" else "ln")
    doc = {
        "kind": kind,
        "lender": lender_id,
        "lender_name": biz["name"],
        "lender_owner": biz["owner"],
        "debtor": debtor,
        "amount": amount,
        "outstanding": amount,
        "owed_to_lender": 0,
        "lender_paid": 0,
        "bad_debt": 0,
        "drawn": world.meta["date"],
        "due": due.to_dict(),
        "status": "open",
        "parties": _character_parties(world, debtor, biz["owner"]),
        "history": [],
        **extra,
    }
    _history(doc, world, "drawn", amount, str(ctx.identity))
    world.put("ledger", ledger_id, doc)
    return ledger_id


def _log_parties(ctx: CommandContext, doc: dict[str, Any], text: str, skip: str | None, refs: dict[str, Any]) -> None:
    """A line for each party whose own money line (already written) did not tell them."""
    for cid in (doc["debtor"], doc["lender_owner"]):
        if cid != skip:
            ctx.log(text, kind="ledger", audience=character_audience(cid), refs=refs)
            skip = cid


def _lending(ctx: CommandContext, p: dict[str, Any], kind: str) -> tuple[dict[str, Any], float]:
    world = ctx.world
    biz = _business(world, p["lender"])
    ctx.require_acts_for(character=biz["owner"])
    if not world.get("characters", p["debtor"]).get("alive", True):
        raise CommandError("debtor", f"{_name(world, 'characters', p['debtor'])} is dead")
    limit = (rules.credit_limit if kind == "credit" else rules.loan_limit)(int(biz["size"]), biz["sector"])
    section = rules_table("economy")[kind]
    if limit <= 0:
        raise CommandError(
            "lender",
            f"{biz['name']} ({biz['sector']}, Size {biz['size']}) cannot extend "
            f"{kind}: it takes a {section['sector']} business of Size {section['min_size']} or more",
        )
    used = _open_liability(world, p["lender"], kind)
    return biz, limit - used


def _fee(ctx: CommandContext, p: dict[str, Any], biz: dict[str, Any], what: str) -> None:
    if p["fee"]:
        ctx.move_ducats(
            _char(p["debtor"]),
            _char(biz["owner"]),
            p["fee"],
            f"fee to {biz['name']} for {what}",
            audience=character_audience(p["debtor"]),
        )


def _credit_help() -> str:
    section = rules_table("economy")["credit"]
    return (
        f"A {section['sector']} business of Size {section['min_size']}+ extends credit "
        f"(up to {section['value_per_size']} x Size) due in {section['due_seasons']} seasons."
    )


def _loan_help() -> str:
    section = rules_table("economy")["loan"]
    multiple = section["value_per_size"] * section["value_multiple"]
    return (
        f"A {section['sector']} business of Size {section['min_size']}+ lends (up to {multiple} x Size) "
        f"for up to {section['max_term_years']} years."
    )


@command(
    "credit-extend",
    _credit_help,
    {
        "lender": Param(str, ref="businesses", help="the lending business"),
        "debtor": Param(str, ref="characters"),
        "amount": Param(int, minimum=1, help="ducats the debtor may spend now"),
        "fee": Param(int, required=False, default=0, minimum=0, help="ducats the debtor pays the owner now"),
    },
    category="economy",
    stakes=_debt_stakes,
    filed_by=SEATS,
)
def credit_extend(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz, left = _lending(ctx, p, "credit")
    if p["amount"] > left:
        raise CommandError(
            "amount",
            f"{biz['name']} may extend at most {money(left)} more credit "
            f"({rules.credit_limit(int(biz['size']), biz['sector'])} less "
            f"{money(_open_liability(world, p['lender'], 'credit'))} outstanding)",
        )
    _require_witness(ctx, _debt_stakes(world, ctx.identity, p), "credit")
    due = _today(ctx).plus(rules.credit_due_seasons())
    ledger_id = _new_debt(ctx, "credit", p["lender"], p["debtor"], p["amount"], due, {"fee": p["fee"]})
    ctx.move_ducats(
        None,
        _char(p["debtor"]),
        p["amount"],
        f"credit from {biz['name']}, due {due.label()}",
        audience=character_audience(p["debtor"]),
    )
    _fee(ctx, p, biz, "credit")
    _log_parties(
        ctx,
        world.get("ledger", ledger_id),
        f"{biz['name']} extends {ducats(p['amount'])} of credit to {_name(world, 'characters', p['debtor'])}"
        f", due {due.label()}; unpaid by then, the business pays it.",
        p["debtor"],
        {"ledger": ledger_id},
    )
    return {"ledger": ledger_id, "amount": p["amount"], "due": due.label(), "left": money(left - p["amount"])}


@command(
    "loan-extend",
    _loan_help,
    {
        "lender": Param(str, ref="businesses", help="the lending business"),
        "debtor": Param(str, ref="characters"),
        "principal": Param(int, minimum=1),
        "term": Param(int, minimum=1, help="years"),
        "collateral": Param(str, required=False, default="", help="free text"),
        "terms": Param(str, required=False, default="", help="conditions, free text"),
        "fee": Param(int, required=False, default=0, minimum=0, help="ducats the debtor pays the owner now"),
    },
    category="economy",
    stakes=_debt_stakes,
    filed_by=SEATS,
)
def loan_extend(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz, left = _lending(ctx, p, "loan")
    if not rules.loan_term_allowed(p["term"]):
        raise CommandError("term", f"a loan runs 1 to {rules.loan_max_term_years()} years, not {p['term']}")
    if p["principal"] > left:
        raise CommandError(
            "principal",
            f"{biz['name']} may lend at most {money(left)} more "
            f"({rules.loan_limit(int(biz['size']), biz['sector'])} less "
            f"{money(_open_liability(world, p['lender'], 'loan'))} outstanding)",
        )
    _require_witness(ctx, _debt_stakes(world, ctx.identity, p), "a loan")
    due = _today(ctx).plus(4 * p["term"])
    ledger_id = _new_debt(
        ctx,
        "loan",
        p["lender"],
        p["debtor"],
        p["principal"],
        due,
        {
            "term_years": p["term"],
            "collateral": p["collateral"].strip(),
            "terms": p["terms"].strip(),
            "fee": p["fee"],
            "instalment": rules.loan_instalment(p["principal"]),
        },
    )
    ctx.move_ducats(
        None,
        _char(p["debtor"]),
        p["principal"],
        f"loan from {biz['name']}, due {due.label()}",
        audience=character_audience(p["debtor"]),
    )
    _fee(ctx, p, biz, "the loan")
    collateral = f"; collateral: {p['collateral'].strip()}" if p["collateral"].strip() else ""
    _log_parties(
        ctx,
        world.get("ledger", ledger_id),
        f"{biz['name']} lends {ducats(p['principal'])} to {_name(world, 'characters', p['debtor'])} "
        f"for {counted(p['term'], 'year')}, due {due.label()}{collateral}.",
        p["debtor"],
        {"ledger": ledger_id},
    )
    return {"ledger": ledger_id, "principal": p["principal"], "due": due.label(), "left": money(left - p["principal"])}


def _repay(ctx: CommandContext, p: dict[str, Any], kind: str) -> dict[str, Any]:
    world = ctx.world
    doc = world.get("ledger", p["debt"])
    if doc.get("kind") != kind:
        raise CommandError("debt", f"{p['debt']} is a {doc.get('kind')}, not a {kind}")
    ctx.require_acts_for(character=doc["debtor"])
    outstanding = float(doc["outstanding"])
    if outstanding <= 0:
        raise CommandError("debt", f"{p['debt']} is already repaid")
    amount = float(p["amount"]) if p["amount"] is not None else outstanding
    if amount > outstanding + 1e-9:
        raise CommandError("amount", f"only {money(outstanding)} is outstanding on {p['debt']}")
    to_lender = min(amount, float(doc.get("owed_to_lender", 0)))
    to_creditors = amount - to_lender
    debtor = _char(doc["debtor"])
    if to_lender:
        ctx.move_ducats(
            debtor,
            _char(doc["lender_owner"]),
            to_lender,
            f"repays {doc['lender_name']} what it covered on {p['debt']}",
            audience=character_audience(doc["debtor"]),
        )
    if to_creditors:
        ctx.move_ducats(
            debtor,
            None,
            to_creditors,
            f"repays {kind} {p['debt']} of {doc['lender_name']}",
            audience=character_audience(doc["debtor"]),
        )
    entry = world.edit("ledger", p["debt"])
    entry["outstanding"] = money(outstanding - amount)
    entry["owed_to_lender"] = money(float(entry.get("owed_to_lender", 0)) - to_lender)
    # Repaying the part nobody covered settles the bad debt first.
    bad_paid = min(float(entry.get("bad_debt", 0)), to_creditors)
    if bad_paid:
        entry["bad_debt"] = money(float(entry["bad_debt"]) - bad_paid)
        _settle_bad_debt_docs(world, p["debt"], bad_paid)
    _history(entry, world, "repaid", amount, str(ctx.principal))
    if float(entry["outstanding"]) <= 0:
        entry["status"] = "repaid"
    text = (
        f"{_name(world, 'characters', doc['debtor'])} repays {money(amount)} on {kind} {p['debt']} of "
        f"{doc['lender_name']}; {money(entry['outstanding'])} outstanding."
    )
    _log_parties(ctx, entry, text, doc["debtor"], {"ledger": p["debt"]})
    return {
        "ledger": p["debt"],
        "repaid": money(amount),
        "outstanding": entry["outstanding"],
        "status": entry["status"],
    }


def _settle_bad_debt_docs(world: World, source: str, amount: float) -> None:
    for lid, doc in world.all("ledger"):
        if amount <= 0:
            return
        if doc.get("kind") == "bad-debt" and doc.get("source") == source and float(doc.get("outstanding", 0)) > 0:
            take = min(amount, float(doc["outstanding"]))
            entry = world.edit("ledger", lid)
            entry["outstanding"] = money(float(entry["outstanding"]) - take)
            if float(entry["outstanding"]) <= 0:
                entry["status"] = "repaid"
            amount -= take


def _repay_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    doc = world.get("ledger", p["debt"])
    return Stakes.of(_owner_kingdom(world, doc["debtor"]), characters=[doc["debtor"]])


@command(
    "credit-repay",
    "The debtor repays credit (all that is outstanding by default).",
    {
        "debt": Param(str, ref="ledger", help="the credit's ledger id"),
        "amount": Param(float, required=False, minimum=0.01),
    },
    category="economy",
    stakes=_repay_stakes,
    filed_by=SEATS,
)
def credit_repay(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    return _repay(ctx, p, "credit")


@command(
    "loan-repay",
    "The debtor repays a loan (all that is outstanding by default).",
    {
        "debt": Param(str, ref="ledger", help="the loan's ledger id"),
        "amount": Param(float, required=False, minimum=0.01),
    },
    category="economy",
    stakes=_repay_stakes,
    filed_by=SEATS,
)
def loan_repay(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    return _repay(ctx, p, "loan")


def _lender_pays(ctx: CommandContext, ledger_id: str, amount: float, what: str) -> tuple[float, float]:
    """The lending business pays `amount` to the debtor's creditors: from its owner's treasury,
    then by liquidating Size (RULINGS §5); returns (covered, bad debt)."""
    world = ctx.world
    doc = world.get("ledger", ledger_id)
    owner = doc["lender_owner"]
    owner_doc = world.find("characters", owner)
    cash = min(max(0.0, float(owner_doc.get("treasury", 0))) if owner_doc else 0.0, amount)
    if cash > 0:
        ctx.move_ducats(
            _char(owner),
            None,
            cash,
            f"{doc['lender_name']} pays {what} of {_name(world, 'characters', doc['debtor'])}",
            audience=character_audience(owner),
        )
    remaining = amount - cash
    raised_used = 0.0
    biz = world.find("businesses", doc["lender"])
    if remaining > 1e-9 and biz is not None:
        outcome = rules.liquidate(int(biz["size"]), biz["sector"], math.ceil(remaining - 1e-9))
        raised_used = min(float(outcome.ducats_raised), remaining)
        surplus = outcome.ducats_raised - raised_used
        if outcome.sizes_sold:
            edit = world.edit("businesses", doc["lender"])
            edit["size"] = outcome.remaining_size
            edit["invested"] = money(
                max(0.0, float(edit.get("invested", 0)) - rules.expansion_cost(biz["sector"], outcome.sizes_sold))
            )
            ctx.log(
                f"{biz['name']} liquidates {outcome.sizes_sold} Size (now {outcome.remaining_size}) to pay "
                f"{money(remaining)} of {what} of {_name(world, 'characters', doc['debtor'])}: "
                f"raised {outcome.ducats_raised}.",
                kind="liquidation",
                audience=character_audience(owner),
                refs={
                    "business": doc["lender"],
                    "ledger": ledger_id,
                    "sizes_sold": outcome.sizes_sold,
                    "raised": outcome.ducats_raised,
                },
            )
        if surplus > 0:
            ctx.move_ducats(
                None,
                _char(owner),
                surplus,
                f"liquidation of {biz['name']} raised more than the debt",
                audience=character_audience(owner),
            )
        if outcome.remaining_size <= 0:
            _remove_business(ctx, doc["lender"], "liquidated to pay its creditors")
    covered = cash + raised_used
    bad = max(0.0, remaining - raised_used)
    entry = world.edit("ledger", ledger_id)
    entry["lender_paid"] = money(float(entry.get("lender_paid", 0)) + covered)
    entry["owed_to_lender"] = money(float(entry.get("owed_to_lender", 0)) + covered)
    _history(entry, world, f"lender paid {what}", covered, "year start" if world.date.is_year_start else "season")
    if bad > 1e-9:
        entry["bad_debt"] = money(float(entry.get("bad_debt", 0)) + bad)
        _history(entry, world, "bad debt", bad)
        bad_id = world.new_id("ledger", "bd")
        world.put(
            "ledger",
            bad_id,
            {
                "kind": "bad-debt",
                "debtor": doc["debtor"],
                "amount": money(bad),
                "outstanding": money(bad),
                "source": ledger_id,
                "lender": doc["lender"],
                "lender_name": doc["lender_name"],
                "lender_owner": owner,
                "date": world.meta["date"],
                "status": "open",
                "parties": list(doc["parties"]),
            },
        )
    return covered, bad


def _settle_due_credit(ctx: CommandContext, report: StepReport) -> None:
    """Credit falls due at the start of its due season: what is unpaid, the business pays."""
    world = ctx.world
    today = world.date
    for ledger_id, doc in list(world.all("ledger")):
        if doc.get("kind") != "credit" or doc.get("status") != "open":
            continue
        if GameDate.from_dict(doc["due"]) > today:
            continue
        owed = _liability(doc)
        entry = world.edit("ledger", ledger_id)
        if owed <= 0:
            entry["status"] = "repaid"
            continue
        covered, bad = _lender_pays(ctx, ledger_id, owed, "unpaid credit")
        entry["status"] = "defaulted" if bad > 0 else "covered"
        text = (
            f"Credit from {doc['lender_name']} to {_name(world, 'characters', doc['debtor'])} falls due with {money(owed)} unpaid: "
            f"{doc['lender_name']} pays {money(covered)}"
            + (f"; {money(bad)} is a bad debt" if bad else "")
            + f". {_name(world, 'characters', doc['debtor'])} now owes {doc['lender_name']}'s owner "
            f"{money(entry['owed_to_lender'])}."
        )
        _log_parties(ctx, entry, text, None, {"ledger": ledger_id, "covered": money(covered), "bad_debt": money(bad)})
        report.add("credit covered by lenders", covered)
        if bad:
            report.add("bad debt", bad)
        report.lines.append(text)


def _loan_instalments(ctx: CommandContext, report: StepReport) -> None:
    """After its term, an unpaid loan costs the lender ceil(principal / 4) a year until covered."""
    world = ctx.world
    today = world.date
    for ledger_id, doc in list(world.all("ledger")):
        if doc.get("kind") != "loan" or doc.get("status") not in OPEN_DEBT:
            continue
        if GameDate.from_dict(doc["due"]) > today:
            continue
        owed = _liability(doc)
        entry = world.edit("ledger", ledger_id)
        if owed <= 0:
            entry["status"] = "repaid" if float(doc["outstanding"]) <= 0 else "covered"
            continue
        instalment = min(float(rules.loan_instalment(int(doc["amount"]))), owed)
        covered, bad = _lender_pays(ctx, ledger_id, instalment, "a loan instalment")
        left = _liability(entry)
        entry["status"] = "defaulted" if bad > 0 else ("overdue" if left > 0 else "covered")
        text = (
            f"Loan of {_name(world, 'characters', doc['debtor'])} is past its term: "
            f"{doc['lender_name']} pays an instalment of {money(covered)}"
            + (f" ({money(bad)} unpaid: bad debt)" if bad else "")
            + f"; {money(left)} still to cover."
        )
        _log_parties(ctx, entry, text, None, {"ledger": ledger_id, "covered": money(covered), "bad_debt": money(bad)})
        report.add("loan instalments paid by lenders", covered)
        if bad:
            report.add("bad debt", bad)
        report.lines.append(text)


@season_start_step("Credit falls due", name="economy-credit-due")
def _credit_season(ctx: CommandContext, report: StepReport) -> None:
    _settle_due_credit(ctx, report)


@due_reporter(name="economy-debts")
def _due_debts(world: World) -> list[dict[str, Any]]:
    """Credit and loans falling due this season or the next, for each party."""
    today = world.date
    items: list[dict[str, Any]] = []
    for _ledger_id, doc in world.all("ledger"):
        if doc.get("kind") not in ("credit", "loan") or doc.get("status") not in OPEN_DEBT:
            continue
        due = GameDate.from_dict(doc["due"])
        owed = _liability(doc)
        if owed <= 0:
            continue
        if doc["kind"] == "loan" and due <= today:
            if not today.next().is_year_start:
                continue
            text = (
                f"Loan ({doc['lender_name']} to {world.display_name('characters', doc['debtor'])}) "
                f"is past its term: an instalment of {money(min(owed, float(doc.get('instalment', 0)) or owed))} "
                f"falls on the lender at year start"
            )
            urgent = True
        elif due == today.next():
            text = (
                f"{doc['kind'].capitalize()} ({doc['lender_name']} to "
                f"{world.display_name('characters', doc['debtor'])}): {money(owed)} falls due at the start of "
                f"{due.label()}"
            )
            urgent = True
        elif due == today.next().next():
            text = (
                f"{doc['kind'].capitalize()} ({doc['lender_name']} to "
                f"{world.display_name('characters', doc['debtor'])}): {money(owed)} falls due in {due.label()}"
            )
            urgent = False
        else:
            continue
        for cid in dict.fromkeys((doc["debtor"], doc["lender_owner"])):
            items.append({"kind": doc["kind"], "text": text, "audience": character_audience(cid), "urgent": urgent})
    return items
