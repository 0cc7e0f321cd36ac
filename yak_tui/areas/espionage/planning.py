"""Planning an espionage order against the world: its parameters, the checks of what its
mission's `MissionKind` needs, the modifiers the world knows, the stakes and the exact odds."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from yak_tui.areas.espionage.kinds import MissionKind, kind_of
from yak_tui.areas.espionage.rules import (
    EspionageInputError,
    Mission,
    SpyModifiers,
    UnknownMission,
    catalogue,
    missing_prerequisite,
    mission,
    mission_cost,
    mission_odds,
    spy_modifiers,
)
from yak_tui.areas.espionage.state import (
    EXTRA_PARAMS,
    POISON_EXTRA,
    Plan,
    active_effects,
    capital_province,
    character_province,
    holds,
    infiltrations_held,
    is_port,
    kingdom_name,
    province_pcs,
    sponsor_for,
    spy_pool,
    unit_in_port,
    unit_province,
)
from yak_tui.kernel.play.audience import viewer_kingdom
from yak_tui.kernel.play.authority import Stakes, may_adjudicate
from yak_tui.kernel.play.commands import CommandError, Param
from yak_tui.kernel.play.dice import Modifier
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import ValidationError, World
from yak_tui.kernel.world.tables import table


def _extra_price(kind: str) -> int:
    """Ducats one extra of `kind` costs, as the loaded mission table prices it."""
    for row in table("espionage")["missions"]:
        for extra in row.get("extras", []):
            if extra.get("kind") == kind:
                return int(extra["ducats_each"])
    return 0


def mission_name(slug: str) -> str:
    """A mission as a reader names it ("Fund Bandits"); an unknown slug as it was given."""
    found = catalogue().get(slug)
    return found.name if found is not None else slug


def mission_params() -> dict[str, Param]:
    """The parameters of an espionage order; the prices quoted come from the tables loaded when
    the help is shown."""
    return {
        "mission": Param(str, help="mission slug (see `yak resolve spy --list`)", label=mission_name),
        "target": Param(str, required=False, ref="kingdoms", help="target kingdom (purge: your own, may be omitted)"),
        "sponsor": Param(
            str,
            required=False,
            ref="kingdoms",
            help="sponsoring kingdom (the GM acting directly; otherwise the filer's kingdom)",
        ),
        "province": Param(str, required=False, ref="provinces", help="target province, where the mission needs one"),
        "character": Param(str, required=False, ref="characters", help="assassination target"),
        "unit": Param(str, required=False, ref="units", help="ship or regiment to scuttle, poison or suborn"),
        "commodity": Param(str, required=False, help="crash-commodity-market: the trade good"),
        "direction": Param(
            str,
            required=False,
            default="lower",
            choices=("raise", "lower"),
            help="crash-commodity-market: raise or lower the price",
        ),
        "choice": Param(
            str,
            required=False,
            default="sailors",
            choices=("sailors", "recruitment"),
            help="interfere-with-shipbuilding: destroy sailors or cut recruitment",
        ),
        "specialist": Param(str, required=False, help="interfere-with-academies: specialist type"),
        "infiltration": Param(
            str, required=False, help="purge-administration: the infiltration to purge", label=mission_name
        ),
        "against": Param(
            str, required=False, default="", help="inspire-commercial-animosity: guild, nation or merchant"
        ),
        "bandits": Param(
            int,
            required=False,
            default=0,
            minimum=0,
            help=lambda: f"extra bandit regiments ({_extra_price(EXTRA_PARAMS['bandits'])}d each)",
        ),
        "privateers": Param(
            int,
            required=False,
            default=0,
            minimum=0,
            help=lambda: f"extra privateer ships ({_extra_price(EXTRA_PARAMS['privateers'])}d each)",
        ),
        "rebels": Param(
            int,
            required=False,
            default=0,
            minimum=0,
            help=lambda: f"extra rebel regiments ({_extra_price(EXTRA_PARAMS['rebels'])}d each)",
        ),
        "poison": Param(
            bool,
            required=False,
            default=False,
            help=lambda: f"assassinations: +{_extra_price(POISON_EXTRA)}d for poison",
        ),
    }


GM_PARAMS: dict[str, Param] = {
    "gm_modifier": Param(
        int, required=False, default=0, help="adjudicator's modifier to both rolls", by_adjudicator=True
    ),
    "gm_reason": Param(str, required=False, default="", help="why (required with gm_modifier)", by_adjudicator=True),
}


def knows_kingdom_secrets(identity: Identity) -> bool:
    """RULINGS §1: the GM and a King know their side's spy pools, counter-spies, infiltrations and
    rings; a player who is not his kingdom's King knows only his own missions and their outcomes."""
    return identity.is_gm or identity.is_king


def _mission_or_fail(slug: str) -> Mission:
    try:
        return mission(slug)
    except UnknownMission as error:
        raise CommandError("mission", str(error)) from None


def _target_province(world: World, plan: Plan, p: dict[str, Any], *, port: bool = False) -> str:
    province = p.get("province")
    if not province:
        raise CommandError("province", f"{plan.mission.name} needs a province of {kingdom_name(world, plan.target)}")
    doc = world.get("provinces", province)
    if doc.get("kingdom") != plan.target:
        raise CommandError("province", f"{doc['name']} is not a province of {kingdom_name(world, plan.target)}")
    if port and not any(is_port(pc) for _, pc in province_pcs(world, province)):
        raise CommandError("province", f"{doc['name']} has no port: privateers need an enemy coast")
    return str(province)


def _target_unit(world: World, plan: Plan, p: dict[str, Any], what: str) -> str:
    unit_id = p.get("unit")
    if not unit_id:
        raise CommandError("unit", f"{plan.mission.slug} needs a {what} of {kingdom_name(world, plan.target)}")
    unit = world.get("units", unit_id)
    if unit.get("owner") != plan.target:
        raise CommandError("unit", f"{unit['name']} does not belong to {kingdom_name(world, plan.target)}")
    field_name = "ships" if what == "ship" else "regiments"
    if int(unit.get(field_name, 0)) <= 0:
        raise CommandError("unit", f"{unit['name']} has no {field_name}")
    if plan.mission.params.get("requires_in_port") and not unit_in_port(world, unit):
        raise CommandError("unit", f"{unit['name']} is not in port: {plan.mission.name} can only be done in port")
    return str(unit_id)


def _target_character(world: World, plan: Plan, p: dict[str, Any]) -> str:
    target_k = world.get("kingdoms", plan.target)
    kind = plan.mission.params.get("target")
    char_id = p.get("character") or (target_k.get("ruler") if kind == "ruler" else None)
    if not char_id:
        raise CommandError("character", f"{plan.mission.slug} needs the character to attack")
    char = world.get("characters", char_id)
    name = char.get("name", char_id)
    if not char.get("alive", True):
        raise CommandError("character", f"{name} is dead")
    place_kingdom = world.kingdom_of_pc(char.get("location") or "") or char.get("kingdom")
    if kind == "ruler":
        if char_id != target_k.get("ruler"):
            raise CommandError("character", f"{name} is not the ruler of {target_k['name']}")
    elif kind == "noble-bureaucrat":
        if char.get("kingdom") != plan.target or char_id == target_k.get("ruler"):
            raise CommandError(
                "character", f"{name} is not a noble or official of {target_k['name']} (the ruler is assassinate-ruler)"
            )
    else:
        if place_kingdom != plan.target:
            raise CommandError("character", f"{name} is not in {target_k['name']}")
        if char.get("kingdom") == plan.target and (
            char.get("kind") in ("king", "noble", "high-priestess") or char_id == target_k.get("ruler")
        ):
            raise CommandError(
                "character",
                f"{name} belongs to the government or nobility of {target_k['name']}: "
                "use assassinate-noble-bureaucrat or assassinate-ruler",
            )
    return str(char_id)


def _commodity(p: dict[str, Any]) -> str:
    wanted = (p.get("commodity") or "").strip()
    if not wanted:
        raise CommandError("commodity", "crash-commodity-market needs the commodity")
    known = list(table("economy")["commodities"])
    for name in known:
        if name.lower() == wanted.lower():
            return str(name)
    raise CommandError("commodity", f"unknown commodity {wanted!r}; known: {', '.join(known)}")


def purgeable_infiltrations() -> list[str]:
    """What Purge Administration may clear: every infiltration, and a smuggling ring."""
    return [*sorted(s for s, m in catalogue().items() if m.is_infiltration), "establish-smuggling-ring"]


def _purge_target(world: World, plan: Plan, p: dict[str, Any]) -> str:
    slug = (p.get("infiltration") or "").strip()
    purgeable = purgeable_infiltrations()
    if slug not in purgeable:
        raise CommandError("infiltration", f"name what to purge: one of {', '.join(purgeable)}")
    if slug == "establish-smuggling-ring":
        if not p.get("province"):
            raise CommandError("province", "purging a smuggling ring needs its province")
        doc = world.get("provinces", p["province"])
        if doc.get("kingdom") != plan.sponsor.kingdom:
            raise CommandError("province", f"{doc['name']} is not your province")
    return slug


def _province_need(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    if kind.own_side:  # a purged smuggling ring's province, checked with the infiltration
        plan.province = p.get("province") if plan.infiltration == "establish-smuggling-ring" else None
    else:
        plan.province = _target_province(world, plan, p, port=kind.port)


def _unit_need(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    plan.unit = _target_unit(world, plan, p, kind.unit)


def _character_need(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    plan.character = _target_character(world, plan, p)


def _infiltration_need(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    plan.infiltration = _purge_target(world, plan, p)


def _commodity_need(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    plan.commodity = _commodity(p)


def _direction_need(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    plan.direction = p.get("direction") or "lower"


def _choice_need(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    plan.choice = p.get("choice") or "sailors"


def _specialist_need(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    types = academy_specialists()
    chosen = (p.get("specialist") or "").strip().lower()
    if chosen not in types:
        raise CommandError("specialist", f"name the academies' specialist type: one of {', '.join(types)}")
    plan.specialist = chosen


def _against_need(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    plan.against = (p.get("against") or "").strip()
    if not plan.against:
        raise CommandError("against", "name the guild, nation or merchant the public turns against")


# Each order field a `MissionKind` may need, and how the order's value is checked into the plan.
NEED_CHECKS: dict[str, Callable[[World, Plan, MissionKind, dict[str, Any]], None]] = {
    "province": _province_need,
    "unit": _unit_need,
    "character": _character_need,
    "infiltration": _infiltration_need,
    "commodity": _commodity_need,
    "direction": _direction_need,
    "choice": _choice_need,
    "specialist": _specialist_need,
    "against": _against_need,
}


def academy_specialists() -> list[str]:
    """Specialist types whose academies Interfere with Academies may disrupt."""
    specialists = table("economy")["specialists"]
    return [t for t in specialists["types"] if t not in specialists["not_hired"]]


def plan_mission(world: World, principal: Identity, p: dict[str, Any], *, secrets: bool = True) -> Plan:
    """Validate an order against the world; every refusal names the field and the reason.

    `secrets=False` leaves out the checks of the sponsoring kingdom's secret state (a prerequisite
    held, a ring already running): a player may not learn them from a refusal (`kingdom_lack`)."""
    entry = _mission_or_fail(p["mission"])
    kind = kind_of(entry)
    if kind.apply is None:
        raise CommandError("mission", kind.refusal or f"{entry.slug} is not rolled")
    sponsor = sponsor_for(world, principal, p.get("sponsor"))
    target = p.get("target") or None
    if kind.own_side:
        if target and target != sponsor.kingdom:
            raise CommandError(
                "target", f"{entry.slug} purges your own administration: omit target or name your own kingdom"
            )
        target = sponsor.kingdom
    if not target:
        raise CommandError("target", f"{entry.slug} needs the target kingdom")
    world.get("kingdoms", target)
    if target == sponsor.kingdom and not kind.own_side:
        raise CommandError("target", "a kingdom does not spy on itself")
    plan = Plan(entry, sponsor, target)
    for name in kind.planned_fields(entry):
        NEED_CHECKS[name](world, plan, kind, p)
    if secrets:
        lacking = kingdom_lack(world, plan, spies=False)
        if lacking is not None:
            raise lacking
    # Extras (ducats buy more) and the cost.
    extras = {extra: int(p.get(name) or 0) for name, extra in EXTRA_PARAMS.items() if int(p.get(name) or 0)}
    if p.get("poison"):
        extras[POISON_EXTRA] = 1
    offered = [extra.kind for extra in entry.extras]
    for name, extra_kind in [*EXTRA_PARAMS.items(), ("poison", POISON_EXTRA)]:
        if extra_kind in extras and extra_kind not in offered:
            raise CommandError(name, f"{entry.slug} offers no extra {name} (extras: {', '.join(offered) or 'none'})")
    try:
        plan.cost = mission_cost(entry, extras)
    except EspionageInputError as error:
        raise CommandError("mission", str(error)) from None
    plan.extras = extras
    if p.get("gm_modifier"):
        if not (p.get("gm_reason") or "").strip():
            raise CommandError("gm_reason", "a GM modifier needs its reason")
        plan.gm_modifiers = [Modifier(int(p["gm_modifier"]), str(p["gm_reason"]).strip())]
    plan.location_province = _location(world, plan)
    return plan


def kingdom_lack(world: World, plan: Plan, *, spies: bool = True) -> CommandError | None:
    """What the sponsoring kingdom's secret state lacks for this mission: the prerequisite
    infiltration, a free spy (with `spies`), or room for another ring. A King or the GM is refused
    on it; a player's mission fails at resolution, told to him plainly (RULINGS §1)."""
    entry = plan.mission
    kind = kind_of(entry)
    if not kind.own_side:
        missing = missing_prerequisite(entry, infiltrations_held(world, plan.sponsor.kingdom, plan.target))
        if missing is not None:
            need = mission(missing)
            return CommandError(
                "mission",
                f"{entry.name} needs {need.name} held against "
                f"{kingdom_name(world, plan.target)}, and {kingdom_name(world, plan.sponsor.kingdom)} "
                f"holds no such infiltration (run {need.slug} first)",
            )
    if kind.check is not None:
        try:
            kind.check(world, plan)
        except CommandError as error:
            return error
    if spies:
        pool = spy_pool(world, plan.sponsor.kingdom)
        if int(pool["spy"]) < 1:
            return CommandError(
                "spy",
                f"{kingdom_name(world, plan.sponsor.kingdom)} has no active spy "
                f"({pool['cold_spy']} cold, active again at year start)",
            )
    return None


def _location(world: World, plan: Plan) -> str | None:
    if plan.province:
        return plan.province
    if plan.unit:
        return unit_province(world, world.get("units", plan.unit))
    if plan.character:
        return character_province(world, world.get("characters", plan.character))
    return capital_province(world, plan.target)


# ================================================================ modifiers, stakes, odds


CAPITAL_GUARDS = ("without-province", "infiltrations")


def capital_counter_spy_guards(plan: Plan) -> bool:
    """Whether a province counter-spy where the mission happens may guard it: always where the
    mission names its place; in the capital by default for every mission without one, or only for
    infiltrations when `counter_spy.capital_guards` says so (the seed's words)."""
    if plan.province or plan.unit or plan.character:
        return True
    guards = str(table("espionage")["counter_spy"]["capital_guards"])
    if guards not in CAPITAL_GUARDS:
        raise CommandError(
            "mission",
            f"espionage counter_spy.capital_guards must be one of {', '.join(CAPITAL_GUARDS)}, not {guards!r}",
        )
    return guards == "without-province" or plan.mission.is_infiltration


def modifier_inputs(world: World, plan: Plan, *, known_to_sponsor_only: bool = False) -> SpyModifiers:
    """What the world knows about this mission's spy; purges meet no enemy counter-measures."""
    if kind_of(plan.mission).own_side:
        return SpyModifiers(gm_modifiers=tuple(plan.gm_modifiers))
    breach = bool(
        active_effects(world, kind="security-breach", sponsor_kingdom=plan.sponsor.kingdom, target_kingdom=plan.target)
    )
    if known_to_sponsor_only:
        if plan.sponsor.character:  # a player knows only the breaches his own missions won
            breach = bool(
                active_effects(
                    world,
                    kind="security-breach",
                    sponsor_kingdom=plan.sponsor.kingdom,
                    target_kingdom=plan.target,
                    holder_character=plan.sponsor.character,
                )
            )
        return SpyModifiers(security_breach=breach)
    counter = spy_pool(world, plan.target)["counter_spies"]
    province_spy = plan.location_province is not None and plan.location_province in counter["provinces"]
    if province_spy and not capital_counter_spy_guards(plan):
        province_spy = False
    ring = holds(world, plan.target, plan.sponsor.kingdom, "infiltrate-spy-ring")
    return SpyModifiers(
        province_counter_spy=province_spy,
        nation_counter_spy=counter["nation"] > 0,
        spy_ring_infiltrated_by_target=ring,
        security_breach=breach,
        gm_modifiers=tuple(plan.gm_modifiers),
    )


def _raw_kingdom(world: World, value: Any) -> str | None:
    if not value:
        return None
    try:
        return world.resolve_ref("kingdoms", str(value))
    except ValidationError:
        return str(value)


def mission_stakes(world: World, identity: Identity, params: dict[str, Any]) -> Stakes:
    """RULINGS §1: the mission happens in the target kingdom; sponsor and target are parties."""
    sponsor = _raw_kingdom(world, params.get("sponsor")) or viewer_kingdom(world, identity)
    target = _raw_kingdom(world, params.get("target"))
    slug = str(params.get("mission", ""))
    if target is None and slug == "purge-administration":
        target = sponsor
    return Stakes.of(target, kingdoms=[sponsor, target])


def mission_odds_for(world: World, identity: Identity, params: dict[str, Any]) -> dict[str, Any]:
    """Exact odds; an adjudicator sees every modifier, anyone else only those his side knows."""
    principal = identity
    plan = plan_mission(world, principal, params, secrets=knows_kingdom_secrets(principal))
    adjudicates = may_adjudicate(world, identity, mission_stakes(world, identity, params)).allowed
    applied = spy_modifiers(modifier_inputs(world, plan, known_to_sponsor_only=not adjudicates))
    exact = mission_odds(plan.mission, applied.success, applied.detection).to_dict()
    shown = {"success": [m.to_dict() for m in applied.success], "detection": [m.to_dict() for m in applied.detection]}
    return {
        "mission": plan.mission.slug,
        "cost": plan.cost,
        "odds": exact,
        "modifiers": shown,
        "hidden_modifiers": not adjudicates,
    }


def _order_odds(world: World, identity: Identity, params: dict[str, Any]) -> dict[str, Any]:
    return mission_odds_for(world, identity, {k: v for k, v in params.items() if k != "note"})
