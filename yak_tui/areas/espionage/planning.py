"""Planning an espionage order against the world: the checks of the fields its mission needs
(`fields.ORDER_FIELDS`), the modifiers the world knows, the stakes and the exact odds."""

from __future__ import annotations

from typing import Any

from yak_tui.areas.espionage.effects import SECURITY_BREACH
from yak_tui.areas.espionage.fields import extras_bought, plan_fields
from yak_tui.areas.espionage.registry import kind_of
from yak_tui.areas.espionage.rules import (
    AppliedModifiers,
    EspionageInputError,
    Mission,
    SpyModifiers,
    UnknownMission,
    missing_prerequisite,
    mission,
    mission_cost,
    mission_odds,
    spy_modifiers,
)
from yak_tui.areas.espionage.state import (
    Plan,
    active_effects,
    capital_province,
    character_province,
    holds,
    infiltrations_held,
    kingdom_name,
    sponsor_for,
    spy_pool,
    unit_province,
)
from yak_tui.kernel.play.audience import viewer_kingdom
from yak_tui.kernel.play.authority import Stakes, adjudicates
from yak_tui.kernel.play.commands import CommandError, Param
from yak_tui.kernel.play.dice import Modifier
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import ValidationError, World
from yak_tui.kernel.world.tables import table

GM_PARAMS: dict[str, Param] = {
    "gm_modifier": Param(
        int, required=False, default=0, help="adjudicator's modifier to both rolls", by_adjudicator=True
    ),
    "gm_reason": Param(str, required=False, default="", help="why (required with a GM modifier)", by_adjudicator=True),
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
    plan_fields(world, plan, kind, p)
    if secrets:
        lacking = kingdom_lack(world, plan, spies=False)
        if lacking is not None:
            raise lacking
    # Extras (ducats buy more) and the cost.
    extras = extras_bought(entry, p)
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
                f"holds no such infiltration (run {need.name} first)",
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
        active_effects(world, kind=SECURITY_BREACH, sponsor_kingdom=plan.sponsor.kingdom, target_kingdom=plan.target)
    )
    if known_to_sponsor_only:
        if plan.sponsor.character:  # a player knows only the breaches his own missions won
            breach = bool(
                active_effects(
                    world,
                    kind=SECURITY_BREACH,
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


def applied_modifiers(world: World, plan: Plan, *, every_modifier: bool = True) -> AppliedModifiers:
    """The one count of a mission's modifiers: the roll's (`run_mission`) and the odds shown for it,
    every one for its adjudicator, only those the sponsor's side knows for anyone else."""
    return spy_modifiers(modifier_inputs(world, plan, known_to_sponsor_only=not every_modifier))


def mission_odds_for(world: World, identity: Identity, params: dict[str, Any]) -> dict[str, Any]:
    """Exact odds; an adjudicator sees every modifier, anyone else only those his side knows."""
    plan = plan_mission(world, identity, params, secrets=knows_kingdom_secrets(identity))
    by_adjudicator = adjudicates(world, identity, mission_stakes(world, identity, params))
    return _odds_of(plan, applied_modifiers(world, plan, every_modifier=by_adjudicator), by_adjudicator)


def adjudicated_mission_odds(
    world: World, filer: Identity, adjudicator: Identity, params: dict[str, Any]
) -> dict[str, Any]:
    """A filed mission's odds as its adjudicator will roll it: planned for its filer as `run_mission`
    plans it, with every modifier the roll will count (only what the filer knows if `adjudicator`
    may not roll it)."""
    plan = plan_mission(world, filer, params, secrets=False)
    by_adjudicator = adjudicates(world, adjudicator, mission_stakes(world, filer, params))
    return _odds_of(plan, applied_modifiers(world, plan, every_modifier=by_adjudicator), by_adjudicator)


def _odds_of(plan: Plan, applied: AppliedModifiers, by_adjudicator: bool) -> dict[str, Any]:
    exact = mission_odds(plan.mission, applied.success, applied.detection).to_dict()
    shown = {"success": [m.to_dict() for m in applied.success], "detection": [m.to_dict() for m in applied.detection]}
    return {
        "mission": plan.mission.slug,
        "cost": plan.cost,
        "odds": exact,
        "modifiers": shown,
        "hidden_modifiers": not by_adjudicator,
    }


def _order_odds(world: World, identity: Identity, params: dict[str, Any]) -> dict[str, Any]:
    return mission_odds_for(world, identity, {k: v for k, v in params.items() if k != "note"})
