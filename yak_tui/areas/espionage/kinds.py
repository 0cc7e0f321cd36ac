"""One `MissionKind` per mission effect (`registry.py`), and what a success of each does.

Adding a mission with a new effect: its TOML entry, one `MissionKind` in the table at the end (its
`apply`, and the label and expiry of the effect document it writes, `effect_documents.py`), its
effect named on the rows of the fields it reads (`fields.ORDER_FIELDS`), and, when it writes a new
kind of effect document, that kind's name in `effects.py` (exported by the package when another
area reads it).
"""

from __future__ import annotations

from yak_tui.areas.espionage.commerce import (
    commercial_animosity,
    counterfeit,
    crash_market,
    embezzle,
    limit_trade,
    smuggling_ring,
)
from yak_tui.areas.espionage.effect_documents import (
    academies_label,
    crash_label,
    infiltration_label,
    morale_label,
    restore_allowance,
    restore_price,
    with_data,
)
from yak_tui.areas.espionage.effects import (
    ACADEMY_INTERFERENCE,
    ASSASSINATION_ATTEMPT,
    COMMERCIAL_ANIMOSITY,
    COUNTERFEIT,
    CRASH_MARKET,
    INFILTRATION,
    LIMIT_TRADE,
    MORALE_PENALTY,
    SAILOR_RECRUITMENT_CUT,
    SECURITY_BREACH,
    SMUGGLING_RING,
)
from yak_tui.areas.espionage.missions import SpyOutcome
from yak_tui.areas.espionage.registry import KINDS, MissionKind, kind_of_document, plain_label
from yak_tui.areas.espionage.rules import mission
from yak_tui.areas.espionage.state import (
    KIND,
    POISON_EXTRA,
    Applied,
    Plan,
    active_effects,
    edit_pool,
    end_effect,
    holder_audience,
    holds,
    is_port,
    kingdom_name,
    new_effect,
    next_year_start,
    province_pcs,
)
from yak_tui.areas.espionage.words import infiltration_words
from yak_tui.kernel.play.commands import CommandContext, CommandError
from yak_tui.kernel.world.authoring import referrers
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import table

__all__ = ["KINDS", "MissionKind", "kind_of_document"]  # the registry, read from here too (year_start)


# ================================================================ what a success does


def _infiltration(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    target = kingdom_name(ctx.world, plan.target)
    if holds(ctx.world, plan.sponsor.kingdom, plan.target, plan.mission.slug):
        return Applied(
            f"it changes nothing: you already hold {plan.mission.name} against {target} "
            "(an infiltration cannot be doubled)"
        )
    effect = new_effect(ctx, plan, outcome, INFILTRATION, data={"branch": plan.mission.params.get("branch")})
    return Applied(infiltration_words(str(plan.mission.params.get("branch", "")), target), effect=effect)


def _breach(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    bonus = int(table("espionage")["modifiers"]["security_breach"])
    effect = new_effect(ctx, plan, outcome, SECURITY_BREACH, data={"bonus": bonus})
    return Applied(
        f"a security breach in {kingdom_name(ctx.world, plan.target)} gives {bonus:+d} to your next mission against it",
        effect=effect,
    )


def _raise_units(
    ctx: CommandContext,
    plan: Plan,
    outcome: SpyOutcome,
    owner: str,
    kind: str,
    strength: str,
    count: int,
    hex_: list[int],
    label: str,
) -> str:
    world = ctx.world
    unit_id = world.new_id("units", owner)
    where = world.display_name("provinces", plan.province)
    world.put(
        "units",
        unit_id,
        {
            "name": f"{label} of {where}",
            "owner": owner,
            "kind": kind,
            "size": "company",
            strength: count,
            "hex": list(hex_),
            "friendly_to": plan.sponsor.kingdom,
            "raised_by": plan.mission.slug,
            "raised": world.meta["date"],
        },
    )
    return unit_id


def _irregulars(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    world = ctx.world
    entry = plan.mission
    pcs = province_pcs(world, str(plan.province))
    where = world.display_name("provinces", plan.province)
    if entry.effect == "privateers":
        count = int(entry.params.get("base_ships", 1)) + plan.extras.get("privateer-ship", 0)
        port = next(pc for _, pc in pcs if is_port(pc))
        unit = _raise_units(ctx, plan, outcome, "privateers", "sea-raider", "ships", count, port["hex"], "Privateers")
        fact = f"{count} privateer ship{'s' if count != 1 else ''} prowl the coast of {where}"
    else:
        extra_kind = "bandit-regiment" if entry.effect == "bandits" else "infantry-regiment"
        count = int(entry.params.get("base_regiments", 1)) + plan.extras.get(extra_kind, 0)
        hex_ = pcs[0][1]["hex"] if pcs else [0, 0]
        if entry.effect == "bandits":
            unit = _raise_units(ctx, plan, outcome, "bandits", "raider", "regiments", count, hex_, "Bandits")
            fact = f"{count} bandit regiment{'s' if count != 1 else ''} take to the roads of {where}"
        else:
            unit = _raise_units(ctx, plan, outcome, "rebels", "infantry", "regiments", count, hex_, "Rebels")
            fact = f"rebels rise in {where}: {count} infantry regiment{'s' if count != 1 else ''}"
    return Applied(
        f"{fact}, friendly to you", secret=f"raised unit {unit}", public_facts=[f"{fact[0].upper()}{fact[1:]}."]
    )


def _kill_specialists(ctx: CommandContext, plan: Plan, kind: str, count: int) -> tuple[int, list[str]]:
    pool = edit_pool(ctx.world, plan.target)
    killed = 0
    parts: list[str] = []
    fields = ("spy", "cold_spy") if kind == "spy" else (kind,)
    for field_name in fields:
        take = min(count - killed, int(pool.get(field_name, 0)))
        if take > 0:
            pool[field_name] = int(pool.get(field_name, 0)) - take
            killed += take
            parts.append(f"{take} {'cold ' if field_name == 'cold_spy' else ''}{kind}{'s' if take != 1 else ''}")
    return killed, parts


def _kill(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    params = plan.mission.params
    kind, count = {
        "kill-spies": ("spy", params.get("spies", 0)),
        "kill-engineers": ("engineer", params.get("engineers", 0)),
        "kill-missionaries": ("missionary", params.get("missionaries", 0)),
    }[plan.mission.effect]
    killed, parts = _kill_specialists(ctx, plan, kind, int(count))
    target = kingdom_name(ctx.world, plan.target)
    if not killed:
        return Applied(f"{target} had no {kind}s to kill")
    what = " and ".join(parts)
    return Applied(f"{what} of {target} eliminated", target_facts=[f"You have lost {what}."])


def _academies(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    due = next_year_start(ctx.world.date)
    reduction = int(plan.mission.params.get("graduation_reduction", 0))
    effect = new_effect(
        ctx,
        plan,
        outcome,
        ACADEMY_INTERFERENCE,
        end=due,
        due=due.to_dict(),
        data={"specialist": plan.specialist, "reduction": reduction},
    )
    return Applied(
        f"{kingdom_name(ctx.world, plan.target)}'s {plan.specialist} academies graduate {reduction} fewer "
        f"at the start of {due.year}",
        effect=effect,
    )


def _shipbuilding(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    params = plan.mission.params
    target = kingdom_name(ctx.world, plan.target)
    if plan.choice == "sailors":
        killed, parts = _kill_specialists(ctx, plan, "sailor", int(params["sailors_destroyed"]))
        if not killed:
            return Applied(f"{target} had no sailors to destroy")
        return Applied(
            f"{' and '.join(parts)} of {target} destroyed", target_facts=[f"You have lost {' and '.join(parts)}."]
        )
    due = next_year_start(ctx.world.date)
    effect = new_effect(
        ctx,
        plan,
        outcome,
        SAILOR_RECRUITMENT_CUT,
        end=due,
        due=due.to_dict(),
        data={"reduction": int(params["recruitment_reduction"])},
    )
    return Applied(
        f"{target} recruits {params['recruitment_reduction']} fewer sailors at the start of {due.year}", effect=effect
    )


def _morale(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    engagement = "naval" if plan.mission.effect == "naval-morale" else "military"
    params = plan.mission.params
    effect = new_effect(
        ctx,
        plan,
        outcome,
        MORALE_PENALTY,
        data={"engagement": engagement, "morale": params["morale"], "engagements": params.get("engagements", 1)},
    )
    return Applied(
        f"{kingdom_name(ctx.world, plan.target)} suffers {int(params['morale']):+d} morale in its next "
        f"{engagement} engagement",
        effect=effect,
    )


def _disposition(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    world = ctx.world
    strength = "ships" if plan.mission.effect == "naval-disposition" else "regiments"
    lines = []
    for unit_id, unit in sorted(world.where("units", owner=plan.target)):
        count = int(unit.get(strength, 0))
        if count > 0:
            hex_ = unit.get("hex", [])
            lines.append(f"{unit['name']} ({unit_id}): {count} {strength} at ({', '.join(str(h) for h in hex_)})")
    listing = "; ".join(lines) or f"no {strength}"
    ctx.log(
        f"Stolen documents: the {'navy' if strength == 'ships' else 'army'} of {kingdom_name(world, plan.target)} "
        f"in {world.date.label()}: {listing}.",
        kind=f"{KIND}-report",
        audience=plan.sponsor.audience,
        refs={"target_kingdom": plan.target, "units": [line.split(" (")[0] for line in lines]},
    )
    return Applied(
        f"the documents reveal {len(lines)} {'squadrons' if strength == 'ships' else 'units'} "
        f"of {kingdom_name(world, plan.target)}"
    )


def _take_from_unit(world: World, unit_id: str, strength: str, count: int) -> int:
    unit = world.edit("units", unit_id)
    have = int(unit.get(strength, 0))
    taken = min(have, count)
    if have - taken <= 0 and not referrers(world.data, "units", unit_id):
        world.delete("units", unit_id)
    else:  # a unit still named (an agent rides with it, a siege counts it) stays, empty, as a battle leaves one
        unit[strength] = have - taken
    return taken


def _destroy(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    world = ctx.world
    unit_id = str(plan.unit)
    name = world.display_name("units", unit_id)
    if plan.mission.effect == "scuttle":
        taken = _take_from_unit(world, unit_id, "ships", int(plan.mission.params.get("ships", 1)))
        fact = f"{name} lost {taken} ship{'s' if taken != 1 else ''}, sunk in port"
    else:
        taken = _take_from_unit(world, unit_id, "regiments", int(plan.mission.params.get("regiments", 1)))
        fact = f"{name} lost {taken} regiment{'s' if taken != 1 else ''} to sickness"
    return Applied(fact, target_facts=[f"{fact}."])


def _suborn(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    world = ctx.world
    unit_id = str(plan.unit)
    unit = world.get("units", unit_id)
    strength = "ships" if plan.mission.effect == "suborn-ship" else "regiments"
    count = int(plan.mission.params.get(strength, 1))
    name = unit["name"]
    sponsor = plan.sponsor.kingdom
    if int(unit.get(strength, 0)) <= count:
        edited = world.edit("units", unit_id)
        edited["owner"] = sponsor
        edited["suborned_from"] = plan.target
        new_id = unit_id
    else:
        world.edit("units", unit_id)[strength] = int(unit[strength]) - count
        new_id = world.new_id("units", sponsor)
        copy_doc = {k: v for k, v in unit.items() if k not in ("ships", "regiments", "commander")}
        copy_doc.update({"name": f"{name} (turned)", "owner": sponsor, strength: count, "suborned_from": plan.target})
        world.put("units", new_id, copy_doc)
    what = f"{count} {strength[:-1] if count == 1 else strength}"
    fact = f"{what} of {name} changed sides to {kingdom_name(world, sponsor)}"
    return Applied(f"{fact} (unit {new_id})", target_facts=[f"{fact}."])


def _assassination(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    params = plan.mission.params
    poison = bool(plan.extras.get(POISON_EXTRA))
    data = {
        "assassins": params["assassins"],
        "weapon_bonus": params["weapon_bonus"],
        "armour_bonus": params["armour_bonus"],
        "surprise": params["surprise"],
        "poison": poison,
        "poison_extra_damage": params["poison_extra_damage"] if poison else 0,
    }
    # The attack has not happened yet: the victim's side learns of it when the GM plays it out.
    effect = new_effect(
        ctx,
        plan,
        outcome,
        ASSASSINATION_ATTEMPT,
        data=data,
        character=plan.character,
        status="pending",
        evidence=outcome.evidence,
        known_to_target=False,
        known_sponsor=False,
    )
    who = ctx.world.display_name("characters", plan.character)
    return Applied(
        f"{params['assassins']} assassins are hired against {who}{' with poison' if poison else ''}; "
        "the GM plays out the attempt",
        effect=effect,
    )


def _purge(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    world = ctx.world
    slug = str(plan.infiltration)
    if slug == "establish-smuggling-ring":
        found = active_effects(world, kind=SMUGGLING_RING, province=plan.province, target_kingdom=plan.target)
    else:
        found = active_effects(world, kind=INFILTRATION, mission=slug, target_kingdom=plan.target)
    what = (
        mission(slug).name
        if slug != "establish-smuggling-ring"
        else (f"the smuggling ring in {world.display_name('provinces', plan.province)}")
    )
    told = f"{what}: {plan.mission.params.get('sponsor_told', 'cleared')}"
    if not outcome.success:
        held = ", ".join(f"{e['sponsor_kingdom']} ({eid})" for eid, e in found) or "none"
        return Applied(
            told,
            secret=f"purge FAILED: still active: {held}",
            truth=f"{what}: not cleared, the purge failed (its sponsor is told it was cleared)",
        )
    for effect_id, effect in found:
        end_effect(world, effect_id, "purged")
        ctx.log(
            f"Your {mission(effect['mission']).name} in {kingdom_name(world, plan.target)} was purged.",
            kind=KIND,
            audience=holder_audience(effect),
            refs={"effect": effect_id},
        )
    cleared = ", ".join(f"{e['sponsor_kingdom']} ({eid})" for eid, e in found) or "nothing was there"
    return Applied(told, secret=f"purge succeeded: cleared {cleared}")


# ================================================================ the kinds


def _one_ring_per_sponsor(world: World, plan: Plan) -> None:
    if plan.province and active_effects(
        world, kind=SMUGGLING_RING, province=plan.province, sponsor_kingdom=plan.sponsor.kingdom
    ):
        raise CommandError(
            "province",
            f"your smuggling ring in {world.display_name('provinces', plan.province)} "
            "still operates: one ring per province until it is broken",
        )


# Every effect's kind, by effect (the package imports this module, so the catalogue finds them).
for _kind in (
    MissionKind("infiltration", _infiltration, document=INFILTRATION, label=infiltration_label, until="until purged"),
    MissionKind(
        "security-breach",
        _breach,
        document=SECURITY_BREACH,
        until="until used",
        label=with_data(
            "Security breach", lambda _e, d: f"Security breach {int(d['bonus']):+d}" if d.get("bonus") else None
        ),
    ),
    MissionKind(
        "smuggling-ring",
        smuggling_ring,
        document=SMUGGLING_RING,
        label=plain_label("Smuggling ring"),
        check=_one_ring_per_sponsor,
    ),
    MissionKind("bandits", _irregulars),
    MissionKind("rebels", _irregulars),
    MissionKind("privateers", _irregulars, port=True),
    MissionKind("kill-spies", _kill),
    MissionKind("kill-engineers", _kill),
    MissionKind("kill-missionaries", _kill),
    MissionKind(
        "academy-interference",
        _academies,
        document=ACADEMY_INTERFERENCE,
        label=with_data("Academies disrupted", academies_label),
    ),
    MissionKind("embezzlement", embezzle),
    MissionKind(
        "crash-market",
        crash_market,
        document=CRASH_MARKET,
        label=with_data("Crashed market", crash_label),
        expire=restore_price,
    ),
    MissionKind(
        "limit-trade",
        limit_trade,
        document=LIMIT_TRADE,
        label=with_data(
            "Trade limited",
            lambda _e, d: f"Trade limited ({d['market_allowance']})" if d.get("market_allowance") is not None else None,
        ),
        until="for good",
        expire=restore_allowance,
    ),
    MissionKind(
        "commercial-animosity",
        commercial_animosity,
        document=COMMERCIAL_ANIMOSITY,
        label=with_data(
            "Commercial animosity", lambda _e, d: f"Animosity against {d['against']}" if d.get("against") else None
        ),
    ),
    MissionKind(
        "shipbuilding",
        _shipbuilding,
        document=SAILOR_RECRUITMENT_CUT,
        label=plain_label("Sailor recruitment cut"),
    ),
    MissionKind(
        "naval-morale",
        _morale,
        document=MORALE_PENALTY,
        until="until used",
        label=with_data("Morale penalty", morale_label),
    ),
    MissionKind(
        "military-morale",
        _morale,
        document=MORALE_PENALTY,
        until="until used",
        label=with_data("Morale penalty", morale_label),
    ),
    MissionKind("naval-disposition", _disposition),
    MissionKind("military-disposition", _disposition),
    MissionKind("scuttle", _destroy, unit="ship"),
    MissionKind("poison-regiment", _destroy, unit="regiment"),
    MissionKind("suborn-ship", _suborn, unit="ship"),
    MissionKind("suborn-regiment", _suborn, unit="regiment"),
    MissionKind(
        "counterfeit",
        counterfeit,
        document=COUNTERFEIT,
        expires_at_its_step=True,
        label=with_data("Counterfeit coin", lambda _e, d: f"Counterfeit debt {d['debt']}d" if d.get("debt") else None),
    ),
    MissionKind(
        "assassination",
        _assassination,
        document=ASSASSINATION_ATTEMPT,
        label=plain_label("Assassination attempt"),
        until="awaits the GM",
    ),
    MissionKind("purge", _purge, own_side=True, applies_on_failure=True),
    MissionKind("counter-spy", None, refusal="a counter-spy is stationed, not rolled: use `yak do counter-spy`"),
):
    KINDS[_kind.effect] = _kind  # the last kind of an effect wins
