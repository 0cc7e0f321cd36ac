"""What a commercial or state-level mission's success does to money and markets: a smuggling
ring, embezzlement, a crashed market, limited trade, commercial animosity, counterfeit coin.
`kinds.py` names each in its effect's `MissionKind`."""

from __future__ import annotations

import math

from yak_tui.areas.espionage.effects import (
    COMMERCIAL_ANIMOSITY,
    COUNTERFEIT,
    CRASH_MARKET,
    LIMIT_TRADE,
    SMUGGLING_RING,
)
from yak_tui.areas.espionage.missions import SpyOutcome
from yak_tui.areas.espionage.state import (
    KIND,
    Applied,
    Plan,
    active_effects,
    end_of_year,
    kingdom_name,
    new_effect,
    next_year_start,
)
from yak_tui.kernel.play.audience import kingdom_audience
from yak_tui.kernel.play.commands import CommandContext
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import ducats, money


def smuggling_ring(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    where = ctx.world.display_name("provinces", plan.province)
    if active_effects(ctx.world, kind=SMUGGLING_RING, province=plan.province):
        return Applied(f"a smuggling ring already operates in {where}; yours adds nothing")
    end = end_of_year(ctx)
    effect = new_effect(ctx, plan, outcome, SMUGGLING_RING, end=end, data=dict(plan.mission.params))
    return Applied(f"a smuggling ring operates in {where} until {end.label()}", effect=effect)


def _by_player(world: World, plan: Plan) -> str:
    """ " (the mission of PLAYER)" when a player filed it, for the lines his King reads."""
    if plan.sponsor.character is None:
        return ""
    return f" (the mission of {world.display_name('characters', plan.sponsor.character)})"


def embezzle(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    world = ctx.world
    params = plan.mission.params
    treasury = float(world.get("kingdoms", plan.target)["treasury"])
    wanted = max(math.floor(treasury / int(params["treasury_divisor"])), int(params["minimum_ducats"]))
    stolen = max(0, min(wanted, math.floor(treasury)))
    share = stolen // int(params["sponsor_share_divisor"])
    target = kingdom_name(world, plan.target)
    if stolen <= 0:
        return Applied(f"{target}'s treasury is empty: nothing to steal")
    # The target sees all it lost, the cause only if it detected the operation (issue 14, leak 7);
    # the sponsor's half reaches the kingdom treasury, so its King is told (leak 8).
    cause = (
        "embezzled by an enemy operation"
        if outcome.evidence in ("detected", "identified")
        else "unexplained loss from the treasury"
    )
    ctx.move_ducats(
        ("kingdoms", plan.target),
        None,
        stolen,
        cause,
        audience=kingdom_audience(plan.target),
        kind=KIND,
        secret=f"Embezzlement by {plan.sponsor.kingdom}: {share} to the sponsor, {stolen - share} kept by the thieves",
    )
    if share:
        ctx.move_ducats(
            None,
            ("kingdoms", plan.sponsor.kingdom),
            share,
            f"embezzled from {target}" + _by_player(ctx.world, plan),
            audience=kingdom_audience(plan.sponsor.kingdom),
            kind=KIND,
        )
    purse = (
        "your treasury"
        if plan.sponsor.character is None
        else f"the treasury of {kingdom_name(world, plan.sponsor.kingdom)}"
    )
    return Applied(
        f"{ducats(stolen)} embezzled from {target}; {share} reach {purse}",
        secret=f"treasury {treasury:g}: stole {stolen}, sponsor {share}",
    )


def crash_market(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    world = ctx.world
    where = world.display_name("provinces", plan.province)
    if active_effects(world, kind=CRASH_MARKET, province=plan.province, commodity=plan.commodity):
        return Applied(
            f"the {plan.commodity} market of {where} is already disturbed this year; "
            "it changes nothing (crashes do not stack)"
        )
    step = int(plan.mission.params["increments"]) * (1 if plan.direction == "raise" else -1)
    end = end_of_year(ctx)
    prov = world.edit("provinces", str(plan.province))
    prov.setdefault("price_modifiers", {})[str(plan.commodity)] = step
    effect = new_effect(ctx, plan, outcome, CRASH_MARKET, end=end, commodity=plan.commodity, data={"increments": step})
    return Applied(
        f"the price of {plan.commodity} in {where} moves {step:+d} increments until {end.label()}", effect=effect
    )


def limit_trade(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    """Each success takes its 10 ducats again (the seed bars only Crash Commodity Market from
    repeating); the cut lasts `duration_seasons` when the table gives one, else it persists."""
    world = ctx.world
    where = world.display_name("provinces", plan.province)
    prov = world.edit("provinces", str(plan.province))
    before = float(prov.get("market_allowance", 0))
    delta = float(plan.mission.params["market_allowance"])
    after = max(0.0, before + delta)
    prov["market_allowance"] = money(after)
    seasons = plan.mission.duration_seasons
    end = world.date.plus(seasons) if seasons else None
    effect = new_effect(ctx, plan, outcome, LIMIT_TRADE, end=end, data={"market_allowance": money(after - before)})
    until = f"until {end.label()}" if end else "for good"
    # The province's owner sees his allowance fall; the cause only if he detected it (issue 14).
    cause = "Limit Trade" if outcome.evidence in ("detected", "identified") else "unexplained loss"
    told = [f"The market allowance of {where} falls by {money(before - after)} ({cause})."] if after < before else []
    return Applied(
        f"the market allowance of {where} falls by {money(before - after)} {until}", effect=effect, target_facts=told
    )


def commercial_animosity(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    where = ctx.world.display_name("provinces", plan.province)
    end = end_of_year(ctx)
    params = plan.mission.params
    effect = new_effect(
        ctx,
        plan,
        outcome,
        COMMERCIAL_ANIMOSITY,
        end=end,
        data={
            "against": plan.against,
            "buy_penalty": params.get("buy_penalty"),
            "sell_penalty": params.get("sell_penalty"),
        },
    )
    return Applied(
        f"merchants of {plan.against} trading in {where} suffer {params.get('buy_penalty'):+d}/"
        f"{params.get('sell_penalty'):+d} on trade checks until {end.label()}",
        effect=effect,
    )


def counterfeit(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    due = next_year_start(ctx.world.date)
    debt = int(plan.mission.params["debt"])
    effect = new_effect(ctx, plan, outcome, COUNTERFEIT, end=due, due=due.to_dict(), data={"debt": debt})
    return Applied(
        f"false coin floods {kingdom_name(ctx.world, plan.target)}: a {debt}-ducat debt at the start of {due.year}",
        effect=effect,
    )
