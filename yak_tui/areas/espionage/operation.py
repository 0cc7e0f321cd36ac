"""Carrying out one NPC spy mission (RULINGS §7): `run_mission` validates an order
(`planning.plan_mission`), gathers the modifiers the world knows (counter-spies, spy ring, security
breach, GM), rolls blind through `ctx.dice`, spends ducats and spies, lets the mission's
`MissionKind` apply what it does, and writes the chronicle so that each party learns only what it may:

- the sponsor (the filing player, or the sponsoring kingdom) gets the outcome only. Purge
  Administration always reads "cleared". The rolls are blind and the truth sits in `secret`,
  which only the adjudicator sees;
- the target gets an entry only when detection revealed the operation ("detected": an enemy
  operation, perpetrator unknown; "identified": the sponsor is named). Plain facts the target
  sees in its own holdings anyway (a unit lost, specialists dead, rebels rising) are told
  without attribution;
- money and manpower taken by effects the target does not know of go to the adjudicators only.
"""

from __future__ import annotations

from typing import Any

from yak_tui.areas.espionage.effects import INFILTRATION, SECURITY_BREACH
from yak_tui.areas.espionage.planning import (
    applied_modifiers,
    kingdom_lack,
    knows_kingdom_secrets,
    mission_stakes,
    plan_mission,
)
from yak_tui.areas.espionage.registry import kind_of
from yak_tui.areas.espionage.rules import SpyOutcome, SpyRoll, resolve_mission
from yak_tui.areas.espionage.state import (
    KIND,
    Applied,
    Plan,
    active_effects,
    edit_pool,
    end_effect,
    kingdom_name,
    sponsor_name,
)
from yak_tui.kernel.play.audience import PUBLIC, kingdom_audience
from yak_tui.kernel.play.commands import (
    CommandContext,
    CommandError,
)
from yak_tui.kernel.play.outcomes import outcome_words


def _own_side(plan: Plan) -> bool:
    """The mission acts on the sponsor's own administration (Purge Administration)."""
    return kind_of(plan.mission).own_side


def _roll_text(roll: SpyRoll | None, label: str) -> str:
    if roll is None:
        return f"no {label} roll"
    mods = "".join(f" {m.value:+d} ({m.reason})" for m in roll.modifiers)
    return f"{label} {roll.natural}{mods} = {roll.total} vs {roll.target}: {outcome_words(roll.band)}"


def _roll_reading(roll: SpyRoll) -> str:
    """A spy roll as the GM checks it by hand: the band is read off total minus the mission's target."""
    mods = "".join(f" {m.value:+d} ({m.reason})" for m in roll.modifiers)
    return (
        f"rolled {roll.natural}{mods} = {roll.total} against target {roll.target} "
        f"({roll.total - roll.target:+d}) → {outcome_words(roll.band)}"
    )


def _spy_fate_text(plan: Plan, outcome: SpyOutcome, placed: bool) -> str:
    """The spy's fate as the sponsor reads it; `placed`: he stays as the infiltrator he became."""
    if _own_side(plan) or plan.mission.assassination_attempt:
        return ""
    if placed:
        return "The spy stays in place as your infiltrator."
    if outcome.spy_cold:
        return "Your spy went to ground; he is active again at the next year start."
    if outcome.spy_lost and not plan.mission.spy_used_up:
        return "Your spy did not return."
    if plan.mission.spy_used_up:
        return "The spy was used up."
    return ""


def _fate_outcome(plan: Plan, outcome: SpyOutcome) -> str:
    """What a blind detection roll shows the sponsor: his spy's fate, never the evidence."""
    if outcome.spy_cold:
        return "spy returns at year start"
    if outcome.spy_lost and not plan.mission.spy_used_up:
        return "spy lost"
    return "rolled"


def _reported(plan: Plan, outcome: SpyOutcome) -> str:
    if _own_side(plan):
        return str(plan.mission.params.get("sponsor_told", "cleared"))
    if outcome.assassination_attempt:
        return "arranged"
    return outcome.outcome


def _tell_target(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> dict[str, Any] | None:
    if outcome.evidence not in ("detected", "identified") or outcome.assassination_attempt:
        return None  # an assassination's evidence is told when the GM plays the attack out
    world = ctx.world
    captured = outcome.spy == "captured"
    text = f"An enemy operation was detected: {plan.mission.name}{plan.where(world)}."
    if captured:
        text += " The enemy spy was captured."
    refs: dict[str, Any] = {"target_kingdom": plan.target, "mission": plan.mission.slug}
    if outcome.evidence == "identified":
        text += f" He talked: the operation was ordered by {sponsor_name(world, plan.sponsor)}."
        refs["sponsor_kingdom"] = plan.sponsor.kingdom
        if plan.sponsor.character:
            refs["sponsor_character"] = plan.sponsor.character
    else:
        text += " The perpetrator is unknown."
    return ctx.log(text, kind=KIND, audience=kingdom_audience(plan.target), refs=refs)


def _tell_king_of_spy_used(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> None:
    """A player's mission takes its spy from the kingdom's pool: the King sees his pool change
    (who used the spy, and whether it comes back), never the mission, target or rolls."""
    if plan.sponsor.character is None:
        return
    world = ctx.world
    player = world.display_name("characters", plan.sponsor.character)
    if outcome.spy_cold:
        fate = "he went to ground and is active again at the next year start"
    elif plan.mission.spy_used_up or outcome.spy_lost:
        fate = "he does not come back"
    else:
        fate = "he is back in the pool"
    pool = edit_pool(world, plan.sponsor.kingdom)
    ctx.log(
        f"{player} used one of the kingdom's spies on a private mission; {fate} "
        f"({pool['spy']} active, {pool['cold_spy']} cold).",
        kind=KIND,
        audience=kingdom_audience(plan.sponsor.kingdom),
        refs={"kingdom": plan.sponsor.kingdom, "character": plan.sponsor.character},
    )


def _not_attempted(ctx: CommandContext, plan: Plan, lack: CommandError) -> dict[str, Any]:
    """A player's mission his kingdom cannot mount (RULINGS §1): nothing is spent or rolled, and he
    alone (with the adjudicator) is told plainly why."""
    world = ctx.world
    entry = plan.mission
    against = "" if _own_side(plan) else f" against {kingdom_name(world, plan.target)}"
    why = "your kingdom had no spy free for it" if lack.field == "spy" else lack.reason
    text = f"Espionage: {entry.name}{against}: failed. It could not be attempted: {why}."
    sponsor_entry = ctx.log(
        text,
        kind=KIND,
        audience=plan.sponsor.audience,
        secret=f"not attempted ({lack.field})",
        refs={
            "mission": entry.slug,
            "sponsor_kingdom": plan.sponsor.kingdom,
            "target_kingdom": plan.target,
            "character": plan.sponsor.character,
        },
    )
    return {
        "mission": entry.slug,
        "sponsor": plan.sponsor.kingdom,
        "target": plan.target,
        "cost": 0,
        "outcome": "not-attempted",
        "reported": "failed",
        "outcome_text": text,
        "spy": None,
        "evidence": None,
        "spy_lost": False,
        "spy_cold": False,
        "success_roll": None,
        "detection_roll": None,
        "modifiers": {"success": [], "detection": []},
        "spent": [],
        "effect": None,
        "sponsor_entry": sponsor_entry["id"],
        "target_entry": None,
    }


def run_mission(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    """Carry out one NPC mission: pay, roll blind, apply, and tell each party what it may know."""
    world = ctx.world
    ctx.require_adjudicator(mission_stakes(world, ctx.principal, p))
    plan = plan_mission(world, ctx.principal, p, secrets=False)
    lack = kingdom_lack(world, plan)
    if lack is not None:
        if knows_kingdom_secrets(ctx.principal):
            raise lack
        return _not_attempted(ctx, plan, lack)
    entry = plan.mission
    pool = edit_pool(world, plan.sponsor.kingdom)
    # Costs are paid whatever the outcome (RULINGS §7): ducats (with extras) and one spy.
    if plan.cost:
        ctx.move_ducats(
            plan.sponsor.payer, None, plan.cost, f"espionage: {entry.name}", audience=plan.sponsor.audience, kind=KIND
        )
    pool["spy"] = int(pool["spy"]) - 1
    applied = applied_modifiers(world, plan)  # the count the adjudicator's odds showed
    # Blind rolls: drawn from the season's private dice (fairdice), told to the sponsor only.
    outcome = resolve_mission(
        entry, ctx.dice_for(plan.sponsor.audience, blind=True), applied.success, applied.detection
    )
    # One-shot holdings spent on this operation.
    spent: list[str] = []
    if applied.counter_spy_spent == "province":
        counter = edit_pool(world, plan.target)["counter_spies"]
        counter["provinces"].remove(plan.location_province)
        spent.append(f"province counter-spy in {plan.location_province}")
    elif applied.counter_spy_spent == "nation":
        edit_pool(world, plan.target)["counter_spies"]["nation"] -= 1
        spent.append("nation-wide counter-spy")
    if spent:
        # The owner sees every change to his own numbers, with a cause he may know (issue 14).
        where = (
            f"in {world.display_name('provinces', plan.location_province)}"
            if applied.counter_spy_spent == "province"
            else "guarding the nation"
        )
        cause = (
            "spent against an enemy operation"
            if outcome.evidence in ("detected", "identified")
            else "lost: unexplained loss"
        )
        ctx.log(
            f"Your counter-spy {where} is gone ({cause}).",
            kind=KIND,
            audience=kingdom_audience(plan.target),
            refs={"counter_spy": applied.counter_spy_spent},
        )
    if applied.security_breach_spent:
        breach_id = active_effects(
            world, kind=SECURITY_BREACH, sponsor_kingdom=plan.sponsor.kingdom, target_kingdom=plan.target
        )[0][0]
        end_effect(world, breach_id, "spent")
        spent.append(f"security breach {breach_id}")
    if outcome.spy_cold:
        pool["cold_spy"] = int(pool["cold_spy"]) + 1
    # What the mission does.
    kind = kind_of(entry)
    if kind.apply is not None and (kind.applies_on_failure or outcome.success or outcome.assassination_attempt):
        result = kind.apply(ctx, plan, outcome)
    else:
        result = Applied("the mission failed")
    reported = _reported(plan, outcome)
    rolls = []
    audience = plan.sponsor.audience
    if outcome.success_roll is not None:
        roll = outcome.success_roll
        rolls.append(
            ctx.record_roll(
                f"{entry.name}: success roll",
                [roll.natural],
                roll.total,
                roll.band,
                roll.modifiers,
                audience=audience,
                blind=True,
                outcome=reported,
                reading=_roll_reading(roll),
            )
        )
    if outcome.detection_roll is not None:
        roll = outcome.detection_roll
        rolls.append(
            ctx.record_roll(
                f"{entry.name}: detection roll",
                [roll.natural],
                roll.total,
                roll.band,
                roll.modifiers,
                audience=audience,
                blind=True,
                outcome=_fate_outcome(plan, outcome),
                reading=_roll_reading(roll),
            )
        )
    target_name = kingdom_name(world, plan.target)
    headline = (
        f"Espionage: {entry.name}"
        + ("" if _own_side(plan) else f" against {target_name}")
        + f"{plan.where(world)}: {reported}"
    )
    text = f"{headline}. {result.text[0].upper()}{result.text[1:]}." if result.text else f"{headline}."
    fate = _spy_fate_text(plan, outcome, placed=result.effect is not None and entry.effect == INFILTRATION)
    if fate:
        text += f" {fate}"
    truth = "; ".join(
        part
        for part in (
            f"true outcome {outcome.outcome}",
            _roll_text(outcome.success_roll, "success"),
            _roll_text(outcome.detection_roll, "detection"),
            f"spy {outcome.spy or 'not settled'}{' (used up)' if entry.spy_used_up else ''}",
            f"evidence {outcome.evidence}",
            f"spent: {', '.join(spent)}" if spent else "",
            result.secret,
        )
        if part
    )
    gm_text = ""
    if result.truth:  # the sponsor reads a cover story: the adjudicator's line says what happened
        gm_text = f"Espionage: {entry.name}{plan.where(world)}: {outcome.outcome}. {result.truth[0].upper()}{result.truth[1:]}."
    sponsor_entry = ctx.log(
        text,
        kind=KIND,
        audience=audience,
        rolls=rolls,
        secret=truth,
        gm_text=gm_text,
        refs={
            "mission": entry.slug,
            "sponsor_kingdom": plan.sponsor.kingdom,
            "target_kingdom": plan.target,
            "character": plan.sponsor.character,
            "effect": result.effect,
        },
    )
    target_entry = _tell_target(ctx, plan, outcome)
    _tell_king_of_spy_used(ctx, plan, outcome)
    for fact in result.target_facts:
        ctx.log(
            fact,
            kind=f"{KIND}-consequence",
            audience=kingdom_audience(plan.target),
            refs={"target_kingdom": plan.target},
        )
    for fact in result.public_facts:
        ctx.log(fact, kind=f"{KIND}-consequence", audience=PUBLIC)
    return {
        "mission": entry.slug,
        "sponsor": plan.sponsor.kingdom,
        "target": plan.target,
        "cost": plan.cost,
        "outcome": outcome.outcome,
        "reported": reported,
        "outcome_text": text,
        "spy": outcome.spy,
        "evidence": outcome.evidence,
        "spy_lost": outcome.spy_lost,
        "spy_cold": outcome.spy_cold,
        "success_roll": None if outcome.success_roll is None else outcome.success_roll.to_dict(),
        "detection_roll": None if outcome.detection_roll is None else outcome.detection_roll.to_dict(),
        "modifiers": {
            "success": [m.to_dict() for m in applied.success],
            "detection": [m.to_dict() for m in applied.detection],
        },
        "spent": spent,
        "effect": result.effect,
        "sponsor_entry": sponsor_entry["id"],
        "target_entry": None if target_entry is None else target_entry["id"],
    }
