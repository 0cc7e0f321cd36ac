"""One `MissionKind` per mission effect: everything the code does for an effect, in one place.

A mission of `tables/espionage.toml` names its effect (`effect = "crash-market"`); the kind
registered under that name says

- `needs`: the order fields the effect reads besides mission and target (the order form and
  the board ask for them, `plan_mission` checks them in this order, or `planned` when it checks
  a field the form need not ask for);
- `apply`: what a success does to the world (and what each party is told);
- `label`: how an effect document it wrote reads on the board (`document` names that kind of
  effect document, `until` what ends an effect without an end date);
- `expire`: what is undone when that effect runs out (its end date comes at a season start).

`rules.catalogue()` refuses a mission whose effect has no kind, so a house rule cannot add a
mission no code handles. Adding a mission with a new effect: its TOML entry, and one
`MissionKind` here.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from yak_tui.areas.espionage.rules import Mission, SpyOutcome, mission
from yak_tui.areas.espionage.state import (
    KIND,
    POISON_EXTRA,
    Applied,
    Plan,
    active_effects,
    edit_pool,
    end_effect,
    end_of_year,
    holder_audience,
    holds,
    is_port,
    kingdom_name,
    new_effect,
    next_year_start,
    province_pcs,
)
from yak_tui.kernel.play.audience import kingdom_audience
from yak_tui.kernel.play.commands import CommandContext, CommandError
from yak_tui.kernel.world.authoring import referrers
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import money
from yak_tui.kernel.world.tables import table

ApplyFn = Callable[[CommandContext, Plan, SpyOutcome], Applied]
NeedsFn = Callable[[Mission], tuple[str, ...]]
LabelFn = Callable[[Mapping[str, Any], Mission | None], str]
ExpireFn = Callable[[World, Mapping[str, Any]], None]
CheckFn = Callable[[World, Plan], None]

# The infiltration each prerequisite names, as the board's short "Needs" cell says it.
BRANCH_LABELS = {
    "spy-ring": "Spy Ring",
    "treasury": "Treasury",
    "admiralty": "Admiralty",
    "general-staff": "Gen. Staff",
    "government": "Government",
    "admiralty-control": "Admiralty ctl",
    "general-staff-control": "Gen. Staff ctl",
}


def _no_needs(_entry: Mission) -> tuple[str, ...]:
    return ()


def needs(*fields: str) -> NeedsFn:
    """The same order fields for every mission of the effect."""
    return lambda _entry: fields


def plain_label(text: str) -> LabelFn:
    """A label that does not depend on the effect's data."""
    return lambda _effect, _entry: text


def branch_label(branch: str) -> str:
    return BRANCH_LABELS.get(branch, branch.replace("-", " ").title())


@dataclass(frozen=True)
class MissionKind:
    """What the code does for one `effect` of the mission table (see the module docstring)."""

    effect: str
    apply: ApplyFn | None  # None: the mission is not rolled (`refusal` says what to do instead)
    needs: NeedsFn = _no_needs
    planned: NeedsFn | None = None  # the fields `plan_mission` checks, when more than the form asks
    document: str = ""  # the kind of effect document `apply` writes ("" when it writes none)
    label: LabelFn | None = None  # default: the document kind, capitalised
    until: str = "—"  # the board's "ends" cell for an active effect without an end date
    expire: ExpireFn | None = None  # undoes the world change when the effect runs out
    expires_at_its_step: bool = False  # ends in its own year-start step, not with the others
    unit: str = ""  # "ship" or "regiment": what a `unit` need must be
    port: bool = False  # a `province` need must have a port
    own_side: bool = False  # acts on the sponsor's own administration (purge)
    applies_on_failure: bool = False  # `apply` runs whatever the outcome (it reports failures itself)
    check: CheckFn | None = None  # refuses an order the world makes pointless
    refusal: str = ""  # why a mission of this effect is not rolled

    def planned_fields(self, entry: Mission) -> tuple[str, ...]:
        """The order fields `plan_mission` checks, in order (by default what the form asks)."""
        return (self.planned or self.needs)(entry)

    def label_for(self, effect: Mapping[str, Any], entry: Mission | None) -> str:
        if self.label is not None:
            return self.label(effect, entry)
        return str(effect.get("kind", self.document)).replace("-", " ").capitalize()


KINDS: dict[str, MissionKind] = {}


def register(kind: MissionKind) -> MissionKind:
    """Make `kind` the handler of its effect (the last registration of an effect wins)."""
    KINDS[kind.effect] = kind
    return kind


def kind_of(entry: Mission) -> MissionKind:
    """The kind that handles `entry` (the catalogue has checked one exists)."""
    return KINDS[entry.effect]


def kind_of_document(document: str) -> MissionKind | None:
    """The kind that writes effect documents of `document` kind, if any."""
    return next((kind for kind in KINDS.values() if kind.document == document), None)


# ================================================================ what a success does


def _infiltration(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    target = kingdom_name(ctx.world, plan.target)
    if holds(ctx.world, plan.sponsor.kingdom, plan.target, plan.mission.slug):
        return Applied(
            f"it changes nothing: you already hold {plan.mission.name} against {target} "
            "(an infiltration cannot be doubled)"
        )
    effect = new_effect(ctx, plan, outcome, "infiltration", data={"branch": plan.mission.params.get("branch")})
    return Applied(f"your man is in place until purged ({plan.mission.params.get('branch')})", effect=effect)


def _breach(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    bonus = int(table("espionage")["modifiers"]["security_breach"])
    effect = new_effect(ctx, plan, outcome, "security-breach", data={"bonus": bonus})
    return Applied(
        f"a security breach in {kingdom_name(ctx.world, plan.target)} gives {bonus:+d} to your next mission against it",
        effect=effect,
    )


def _smuggling(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    where = ctx.world.display_name("provinces", plan.province)
    if active_effects(ctx.world, kind="smuggling-ring", province=plan.province):
        return Applied(f"a smuggling ring already operates in {where}; yours adds nothing")
    end = end_of_year(ctx)
    effect = new_effect(ctx, plan, outcome, "smuggling-ring", end=end, data=dict(plan.mission.params))
    return Applied(f"a smuggling ring operates in {where} until {end.label()}", effect=effect)


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
        "academy-interference",
        end=due,
        due=due.to_dict(),
        data={"specialist": plan.specialist, "reduction": reduction},
    )
    return Applied(
        f"{kingdom_name(ctx.world, plan.target)}'s {plan.specialist} academies graduate {reduction} fewer "
        f"at the start of {due.year}",
        effect=effect,
    )


def _by_player(world: World, plan: Plan) -> str:
    """ " (the mission of PLAYER)" when a player filed it, for the lines his King reads."""
    if plan.sponsor.character is None:
        return ""
    return f" (the mission of {world.display_name('characters', plan.sponsor.character)})"


def _embezzle(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
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
        f"{stolen} ducats embezzled from {target}; {share} reach {purse}",
        secret=f"treasury {treasury:g}: stole {stolen}, sponsor {share}",
    )


def _crash(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    world = ctx.world
    where = world.display_name("provinces", plan.province)
    if active_effects(world, kind="crash-market", province=plan.province, commodity=plan.commodity):
        return Applied(
            f"the {plan.commodity} market of {where} is already disturbed this year; "
            "it changes nothing (crashes do not stack)"
        )
    step = int(plan.mission.params["increments"]) * (1 if plan.direction == "raise" else -1)
    end = end_of_year(ctx)
    prov = world.edit("provinces", str(plan.province))
    prov.setdefault("price_modifiers", {})[str(plan.commodity)] = step
    effect = new_effect(
        ctx, plan, outcome, "crash-market", end=end, commodity=plan.commodity, data={"increments": step}
    )
    return Applied(
        f"the price of {plan.commodity} in {where} moves {step:+d} increments until {end.label()}", effect=effect
    )


def _limit_trade(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
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
    effect = new_effect(ctx, plan, outcome, "limit-trade", end=end, data={"market_allowance": money(after - before)})
    until = f"until {end.label()}" if end else "for good"
    # The province's owner sees his allowance fall; the cause only if he detected it (issue 14).
    cause = "Limit Trade" if outcome.evidence in ("detected", "identified") else "unexplained loss"
    told = [f"The market allowance of {where} falls by {money(before - after)} ({cause})."] if after < before else []
    return Applied(
        f"the market allowance of {where} falls by {money(before - after)} {until}", effect=effect, target_facts=told
    )


def _animosity(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    where = ctx.world.display_name("provinces", plan.province)
    end = end_of_year(ctx)
    params = plan.mission.params
    effect = new_effect(
        ctx,
        plan,
        outcome,
        "commercial-animosity",
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
        "sailor-recruitment-cut",
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
        "morale-penalty",
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


def _counterfeit(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    due = next_year_start(ctx.world.date)
    debt = int(plan.mission.params["debt"])
    effect = new_effect(ctx, plan, outcome, "counterfeit", end=due, due=due.to_dict(), data={"debt": debt})
    return Applied(
        f"false coin floods {kingdom_name(ctx.world, plan.target)}: a {debt}-ducat debt at the start of {due.year}",
        effect=effect,
    )


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
        "assassination-attempt",
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
        found = active_effects(world, kind="smuggling-ring", province=plan.province, target_kingdom=plan.target)
    else:
        found = active_effects(world, kind="infiltration", mission=slug, target_kingdom=plan.target)
    what = (
        mission(slug).name
        if slug != "establish-smuggling-ring"
        else (f"the smuggling ring in {world.display_name('provinces', plan.province)}")
    )
    told = f"{what}: {plan.mission.params.get('sponsor_told', 'cleared')}"
    if not outcome.success:
        held = ", ".join(f"{e['sponsor_kingdom']} ({eid})" for eid, e in found) or "none"
        return Applied(told, secret=f"purge FAILED: still active: {held}")
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


# ================================================================ how an effect reads on the board


def _infiltration_label(effect: Mapping[str, Any], entry: Mission | None) -> str:
    data = effect.get("data") or {}
    branch = str(data.get("branch") or (entry.params.get("branch") if entry else "") or "")
    return branch_label(branch) or (entry.name if entry else str(effect.get("kind", "")))


def _with_data(plain: str, shown: Callable[[Mapping[str, Any], Mapping[str, Any]], str | None]) -> LabelFn:
    """`shown(effect, data)` when the effect carries its data, else the plain label."""

    def label(effect: Mapping[str, Any], _entry: Mission | None) -> str:
        return shown(effect, effect.get("data") or {}) or plain

    return label


def _crash_label(effect: Mapping[str, Any], data: Mapping[str, Any]) -> str | None:
    if not effect.get("commodity"):
        return None
    step = data.get("increments")
    return f"{effect['commodity']} market" + (f" {int(step):+d}" if isinstance(step, int) else "")


def _morale_label(_effect: Mapping[str, Any], data: Mapping[str, Any]) -> str | None:
    if not data.get("engagement"):
        return None
    return f"{str(data['engagement']).capitalize()} morale {int(data.get('morale', 0)):+d}"


def _academies_label(_effect: Mapping[str, Any], data: Mapping[str, Any]) -> str | None:
    if not data.get("specialist"):
        return None
    return f"{str(data['specialist']).capitalize()} academies -{data.get('reduction', '?')}"


# ================================================================ what runs out


def _restore_price(world: World, effect: Mapping[str, Any]) -> None:
    """A crashed market's price modifier goes when the crash runs out."""
    province = effect.get("province")
    if not province:
        return
    prov = world.edit("provinces", province)
    mods = prov.get("price_modifiers") or {}
    mods.pop(effect.get("commodity"), None)
    prov["price_modifiers"] = mods


def _restore_allowance(world: World, effect: Mapping[str, Any]) -> None:
    """The market allowance Limit Trade took comes back."""
    province = effect.get("province")
    if not province:
        return
    prov = world.edit("provinces", province)
    prov["market_allowance"] = money(
        float(prov.get("market_allowance", 0)) - float(effect["data"].get("market_allowance", 0))
    )


# ================================================================ the registry


def _assassination_needs(entry: Mission) -> tuple[str, ...]:
    """A ruler's assassins need no character named: the target's ruler is the one."""
    return () if entry.params.get("target") == "ruler" else ("character",)


def _one_ring_per_sponsor(world: World, plan: Plan) -> None:
    if plan.province and active_effects(
        world, kind="smuggling-ring", province=plan.province, sponsor_kingdom=plan.sponsor.kingdom
    ):
        raise CommandError(
            "province",
            f"your smuggling ring in {world.display_name('provinces', plan.province)} "
            "still operates: one ring per province until it is broken",
        )


for _kind in (
    MissionKind(
        "infiltration", _infiltration, document="infiltration", label=_infiltration_label, until="until purged"
    ),
    MissionKind(
        "security-breach",
        _breach,
        document="security-breach",
        until="until used",
        label=_with_data(
            "Security breach", lambda _e, d: f"Security breach {int(d['bonus']):+d}" if d.get("bonus") else None
        ),
    ),
    MissionKind(
        "smuggling-ring",
        _smuggling,
        needs("province"),
        document="smuggling-ring",
        label=plain_label("Smuggling ring"),
        check=_one_ring_per_sponsor,
    ),
    MissionKind("bandits", _irregulars, needs("province")),
    MissionKind("rebels", _irregulars, needs("province")),
    MissionKind("privateers", _irregulars, needs("province"), port=True),
    MissionKind("kill-spies", _kill),
    MissionKind("kill-engineers", _kill),
    MissionKind("kill-missionaries", _kill),
    MissionKind(
        "academy-interference",
        _academies,
        needs("specialist"),
        document="academy-interference",
        label=_with_data("Academies disrupted", _academies_label),
    ),
    MissionKind("embezzlement", _embezzle),
    MissionKind(
        "crash-market",
        _crash,
        needs("province", "commodity", "direction"),
        document="crash-market",
        label=_with_data("Crashed market", _crash_label),
        expire=_restore_price,
    ),
    MissionKind(
        "limit-trade",
        _limit_trade,
        needs("province"),
        document="limit-trade",
        label=_with_data(
            "Trade limited",
            lambda _e, d: f"Trade limited ({d['market_allowance']})" if d.get("market_allowance") is not None else None,
        ),
        until="for good",
        expire=_restore_allowance,
    ),
    MissionKind(
        "commercial-animosity",
        _animosity,
        needs("province", "against"),
        document="commercial-animosity",
        label=_with_data(
            "Commercial animosity", lambda _e, d: f"Animosity against {d['against']}" if d.get("against") else None
        ),
    ),
    MissionKind(
        "shipbuilding",
        _shipbuilding,
        needs("choice"),
        document="sailor-recruitment-cut",
        label=plain_label("Sailor recruitment cut"),
    ),
    MissionKind(
        "naval-morale",
        _morale,
        document="morale-penalty",
        until="until used",
        label=_with_data("Morale penalty", _morale_label),
    ),
    MissionKind(
        "military-morale",
        _morale,
        document="morale-penalty",
        until="until used",
        label=_with_data("Morale penalty", _morale_label),
    ),
    MissionKind("naval-disposition", _disposition),
    MissionKind("military-disposition", _disposition),
    MissionKind("scuttle", _destroy, needs("unit"), unit="ship"),
    MissionKind("poison-regiment", _destroy, needs("unit"), unit="regiment"),
    MissionKind("suborn-ship", _suborn, needs("unit"), unit="ship"),
    MissionKind("suborn-regiment", _suborn, needs("unit"), unit="regiment"),
    MissionKind(
        "counterfeit",
        _counterfeit,
        document="counterfeit",
        expires_at_its_step=True,
        label=_with_data("Counterfeit coin", lambda _e, d: f"Counterfeit debt {d['debt']}d" if d.get("debt") else None),
    ),
    MissionKind(
        "assassination",
        _assassination,
        _assassination_needs,
        needs("character"),  # the ruler by default
        document="assassination-attempt",
        label=plain_label("Assassination attempt"),
        until="awaits the GM",
    ),
    MissionKind("purge", _purge, needs("infiltration", "province"), own_side=True, applies_on_failure=True),
    MissionKind("counter-spy", None, refusal="a counter-spy is stationed, not rolled: use `yak do counter-spy`"),
):
    register(_kind)
