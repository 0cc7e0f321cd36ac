"""The economy's year-start steps: business income, credit and loans falling due, and what
academies, ports and gunpowder engineers produce."""

from __future__ import annotations

from typing import Any

from yak_tui.areas.economy import rules, specialist_rules
from yak_tui.areas.economy._shared import (
    ACADEMY_INTERFERENCE,
    GUNPOWDER,
    SAILOR_RECRUITMENT,
    _active,
    _add_goods,
    _effect_kind,
    _effect_param,
    _effect_target,
    _name,
    _party_audience,
)
from yak_tui.areas.economy.business import _tax_rate
from yak_tui.areas.economy.credit import _loan_instalments, _settle_due_credit
from yak_tui.areas.economy.specialists import add_specialists
from yak_tui.kernel.play.audience import kingdom_audience
from yak_tui.kernel.play.commands import CommandContext
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.season.seasons import StepReport, year_start_step
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import money
from yak_tui.kernel.world.numbers import counted


def _looter(world: World, value: Any) -> tuple[str, str] | None:
    """`income_looted_by`: a kingdom id as warfare writes it (with `income_looted_for` = the year
    whose income is taken), or "kingdoms:<id>" / "characters:<id>" / a bare character id."""
    if not value:
        return None
    text = str(value)
    table_name, sep, doc_id = text.partition(":")
    if sep:
        table_name = {"kingdom": "kingdoms", "character": "characters"}.get(table_name, table_name)
        if table_name in ("kingdoms", "characters") and world.find(table_name, doc_id) is not None:
            return (table_name, doc_id)
        return None
    if world.find("kingdoms", text) is not None:
        return ("kingdoms", text)
    if world.find("characters", text) is not None:
        return ("characters", text)
    return None


# Names listed in one recipient's income line; the rest are counted ("and N more").
INCOME_NAMES_LISTED = 6


@year_start_step("business-income", name="economy-business-income")
def _business_income(ctx: CommandContext, report: StepReport) -> None:
    """Each business earns its Size less the state's business tax; the state (the kingdom of the
    province it stands in) gets the tax. Paid as one sum per recipient, one chronicle line each
    (a line per business would make the year start of a big world as slow as its chronicle).
    The loop is kept lean on purpose: it runs once per business of the world."""
    world = ctx.world
    year = world.date.year
    totals: dict[str, int] = {}  # owner -> income
    counts: dict[str, int] = {}
    names: dict[str, list[str]] = {}
    looted_totals: dict[tuple[str, str], int] = {}
    looted_names: dict[tuple[str, str], list[str]] = {}
    taxes: dict[str, int] = {}
    rate_of: dict[Any, int] = {}
    state_of: dict[Any, Any] = {pid: prov.get("kingdom") for pid, prov in world.all("provinces")}
    cut: dict[tuple[int, int], int] = {}
    total_income = total_tax = total_looted = 0
    # A dead owner's business, its estate unsettled, draws no income and pays no tax (issue 15).
    dead = {cid for cid, char in world.table("characters").items() if not char.get("alive", True)}
    for business_id, biz in world.table("businesses").items():
        size = biz.get("size", 0)
        if size <= 0 or biz.get("owner") in dead:
            continue
        state = state_of.get(biz.get("province"))
        rate = rate_of.get(state)
        if rate is None:
            rate = rate_of[state] = _tax_rate(world, state)
        if rate:
            key = (size, rate)
            tax = cut.get(key)
            if tax is None:
                tax = cut[key] = rules.business_tax(int(size), rate)
            if tax:
                total_tax += tax
                if state is not None:
                    taxes[state] = taxes.get(state, 0) + tax
        else:
            tax = 0
        income = size - tax
        total_income += income
        if biz.get("income_looted_by"):
            looter = _looted_income(world, business_id, biz, year)
            if looter is not None:
                total_looted += income
                looted_totals[looter] = looted_totals.get(looter, 0) + income
                looted_names.setdefault(looter, []).append(f"looted from {biz.get('name', business_id)} {income}")
                continue
        if not income:
            continue
        owner = biz["owner"]
        count = counts.get(owner, 0)
        if count:
            totals[owner] += income
            if count < INCOME_NAMES_LISTED:
                names[owner].append(f"{biz.get('name', business_id)} {income}")
        else:
            totals[owner] = income
            names[owner] = [f"{biz.get('name', business_id)} {income}"]
        counts[owner] = count + 1
    report.add("business income", total_income)
    report.add("business tax", total_tax)
    if total_looted:
        report.add("looted", total_looted)
    lines: dict[tuple[str, str], tuple[int, list[str], int]] = {
        ("characters", owner): (amount, names[owner], counts[owner]) for owner, amount in totals.items()
    }
    for looter, amount in looted_totals.items():
        held, listed, count = lines.get(looter, (0, [], 0))
        lines[looter] = (held + amount, listed + looted_names[looter], count + len(looted_names[looter]))
    for recipient in sorted(lines):
        amount, listed, count = lines[recipient]
        shown = listed[:INCOME_NAMES_LISTED]
        more = f" and {count - len(shown)} more" if count > len(shown) else ""
        ctx.move_ducats(
            None, recipient, amount, f"business income ({', '.join(shown)}{more})", audience=_party_audience(recipient)
        )
        report.lines.append(f"{world.display_name(*recipient)}: +{money(amount)} business income")
    for state in sorted(taxes):
        ctx.move_ducats(
            None, ("kingdoms", state), taxes[state], "business tax for the year", audience=kingdom_audience(state)
        )
        report.lines.append(f"{world.display_name('kingdoms', state)}: +{money(taxes[state])} business tax")


def _looted_income(world: World, business_id: str, biz: dict[str, Any], year: int) -> tuple[str, str] | None:
    """Who takes this year's income of a looted business (clearing the mark), or None."""
    looted_for = int(biz.get("income_looted_for") or year)
    if looted_for > year:
        return None  # looted for a later year: the mark waits
    looter = _looter(world, biz["income_looted_by"])
    edited = world.edit("businesses", business_id)
    edited["income_looted_by"] = None
    edited.pop("income_looted_for", None)
    return looter if looted_for == year else None


@year_start_step("credit-loans", name="economy-credit-loans")
def _credit_loans(ctx: CommandContext, report: StepReport) -> None:
    _settle_due_credit(ctx, report)
    _loan_instalments(ctx, report)


def _consume_reductions(
    ctx: CommandContext, kinds: tuple[str, ...], kingdom_id: str, specialist: str | None, default: int
) -> tuple[int, bool, list[str]]:
    """Sum the active espionage reductions of `kinds` aimed at a kingdom (and type) that are due,
    and mark them `consumed` (espionage's own expiry step ends them). Returns (reduction, whether
    the target knows of every one, effect ids)."""
    total, known, used = 0, True, []
    today = ctx.world.date
    # Only effects that name the kingdom in one of the fields `_effect_target` reads (indexed).
    aimed = ctx.world.where_any(
        "effects", {"target_kingdom": kingdom_id}, {"target": kingdom_id}, {"kingdom": kingdom_id}
    )
    for effect_id, effect in aimed:
        if _effect_kind(effect) not in kinds or _effect_target(effect) != kingdom_id or not _active(effect):
            continue
        if effect.get("due") and GameDate.from_dict(effect["due"]) > today:
            continue
        if specialist is not None:
            wanted = _effect_param(effect, "specialist", "type", "specialist_type")
            if wanted is not None and wanted != specialist:
                continue
        amount = _effect_param(effect, "reduction", "graduation_reduction", "recruitment_reduction")
        total += int(amount if amount is not None else default)
        known = known and bool(effect.get("known_to_target", False))
        ctx.world.edit("effects", effect_id)["consumed"] = ctx.world.meta["date"]
        used.append(effect_id)
    return total, known, used


def _production(ctx: CommandContext, report: StepReport) -> None:
    """Year start: academies graduate, ports bring sailors, gunpowder engineers deliver barrels."""
    world = ctx.world
    # Academies: per kingdom and type, the sum of levels, less espionage interference (consumed).
    output: dict[tuple[str, str], int] = {}
    for _, academy in sorted(world.all("academies")):
        key = (academy["kingdom"], academy["type"])
        output[key] = output.get(key, 0) + specialist_rules.academy_output(int(academy.get("level", 0)))
    for (kingdom_id, kind), made in sorted(output.items()):
        if world.find("kingdoms", kingdom_id) is None:
            continue
        cut, known, used = _consume_reductions(ctx, ACADEMY_INTERFERENCE, kingdom_id, kind, 2)
        gained = max(0, made - cut)
        note = f" ({made} less {cut} from academy interference)" if cut else ""
        if cut and not known:  # the owner sees the shortfall; its cause is secret (issue 14, leak 7)
            note = f" ({made - gained} fewer than due: unexplained loss)"
        add_specialists(ctx, kingdom_id, kind, gained, "academy graduates", log=False)
        # The target learns of the interference only if espionage detected it (RULINGS §7).
        ctx.log(
            f"{_name(world, 'kingdoms', kingdom_id)}'s {kind} academies graduate {gained}"
            f"{note if made > gained else ''}.",
            kind="year-start",
            audience=kingdom_audience(kingdom_id),
            secret=f"{made} due, {cut} cut by interference ({', '.join(used)})" if cut else "",
            refs={"kingdom": kingdom_id, "type": kind, "graduates": gained},
        )
        report.add("academy graduates", gained, public=False)
    # Sailors: one per port held.
    ports: dict[str, int] = {}
    for _, province in world.all("provinces"):
        for port_id in province.get("ports", []):
            holder = world.kingdom_of_pc(port_id)
            if holder:
                ports[holder] = ports.get(holder, 0) + 1
    for kingdom_id, count in sorted(ports.items()):
        if world.find("kingdoms", kingdom_id) is None:
            continue
        made = specialist_rules.sailors_gained(count)
        cut, known, used = _consume_reductions(ctx, SAILOR_RECRUITMENT, kingdom_id, None, 3)
        gained = max(0, made - cut)
        note = f" ({made} less {cut} from interference with shipbuilding)" if cut else ""
        if cut and not known:
            note = f" ({made - gained} fewer than due: unexplained loss)"
        add_specialists(ctx, kingdom_id, "sailor", gained, "", log=False)
        ctx.log(
            f"{_name(world, 'kingdoms', kingdom_id)} gains {counted(gained, 'sailor')} from {counted(count, 'port')}"
            f"{note if made > gained else ''}.",
            kind="year-start",
            audience=kingdom_audience(kingdom_id),
            secret=f"{made} due, {cut} cut by interference ({', '.join(used)})" if cut else "",
            refs={"kingdom": kingdom_id, "type": "sailor", "ports": count, "gained": gained},
        )
        report.add("sailors", gained, public=False)
    # Gunpowder: each assigned engineer makes a barrel, then is free again.
    for kingdom_id, pool in sorted(world.all("specialists")):
        engineers = int((pool.get("engineers_assigned") or {}).get("gunpowder", 0))
        if engineers <= 0 or world.find("kingdoms", kingdom_id) is None:
            continue
        barrels = specialist_rules.gunpowder_barrels(engineers)
        kingdom = world.edit("kingdoms", kingdom_id)
        _add_goods(kingdom, "goods", GUNPOWDER, barrels)
        edit = world.edit("specialists", kingdom_id)
        edit["engineers_assigned"]["gunpowder"] = 0
        edit["engineer"] = int(edit.get("engineer", 0)) + engineers
        ctx.log(
            f"{_name(world, 'kingdoms', kingdom_id)}'s {counted(engineers, 'gunpowder engineer')} deliver {counted(barrels, 'barrel')}"
            f" and return to the pool.",
            kind="year-start",
            audience=kingdom_audience(kingdom_id),
            refs={"kingdom": kingdom_id, "barrels": barrels, "engineers": engineers},
        )
        report.add("gunpowder barrels", barrels, public=False)


year_start_step("production", name="economy-production")(_production)
