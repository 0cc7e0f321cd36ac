"""Espionage in the world (RULINGS §7): NPC spy missions, private orders, spies, infiltrations,
effects and the year-start steps they drive.

The dice and tables are `rules.espionage`; this module validates an order against the world,
gathers the modifiers the world knows (counter-spies, spy ring, security breach, GM), rolls
blind through `ctx.dice`, spends ducats and spies, applies what the mission does, and writes
the chronicle so that each party learns only what it may:

- the sponsor (the filing player, or the sponsoring kingdom) gets the outcome only. Purge
  Administration always reads "cleared". The rolls are blind and the truth sits in `secret`,
  which only the adjudicator sees;
- the target gets an entry only when detection revealed the operation ("detected": an enemy
  operation, perpetrator unknown; "identified": the sponsor is named). Plain facts the target
  sees in its own holdings anyway (a unit lost, specialists dead, rebels rising) are told
  without attribution;
- money and manpower taken by effects the target does not know of go to the adjudicators only.

State (for the screens):

- `specialists.<kingdom>`: `spy`, `cold_spy`, `counter_spies {provinces: [...], nation: n}`.
- `effects.<id>`: `kind`, `mission`, `sponsor_kingdom`, `target_kingdom`, `province?`,
  `commodity?`, `character?`, `data`, `start`, `end` (date or null), `due?`, `holder_kingdom`
  (the sponsor, for the audience filter), `holder_character?` (the filing player),
  `known_to_target`, `known_sponsor`, `active`.
  Kinds: `infiltration` (data.branch), `security-breach`, `smuggling-ring`, `crash-market`,
  `limit-trade`, `commercial-animosity`, `morale-penalty` (data.engagement naval|military),
  `academy-interference`, `sailor-recruitment-cut`, `counterfeit`, `assassination-attempt`
  (`status` pending|resolved, `evidence`).
- `provinces.<id>.price_modifiers {commodity: ±increments}` while a crashed market lasts.

Rulings where RULINGS §7 is silent are listed in `RULINGS_MADE` below.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import orjson

from yak_tui.areas.court import UPKEEP_SURCHARGES
from yak_tui.areas.espionage.rules import (
    EspionageInputError,
    Mission,
    SpyModifiers,
    SpyOutcome,
    SpyRoll,
    UnknownMission,
    catalogue,
    missing_prerequisite,
    mission,
    mission_cost,
    mission_odds,
    resolve_mission,
    spy_modifiers,
)
from yak_tui.kernel.audience import (
    ADJUDICATORS,
    HIDDEN_FIELDS,
    PUBLIC,
    character_audience,
    kingdom_audience,
    viewer_kingdom,
)
from yak_tui.kernel.authority import Stakes, may_adjudicate
from yak_tui.kernel.calendar import GameDate
from yak_tui.kernel.commands import (
    COMMANDS,
    CommandContext,
    CommandError,
    Param,
    audience_param,
    coerce_params,
    command,
)
from yak_tui.kernel.dice import Modifier
from yak_tui.kernel.identity import Identity
from yak_tui.kernel.model import ValidationError, World
from yak_tui.kernel.orders import WAITING, _order_audience, _waiting_order, order_file, queue_for
from yak_tui.kernel.seasons import StepReport, due_reporter, season_start_step, year_start_step
from yak_tui.kernel.tables import table

EFFECTS = "effects"
SPECIALISTS = "specialists"
MISSION_COMMAND = "spy-mission"
KIND = "espionage"

RULINGS_MADE = (
    "A King's mission is paid from the kingdom treasury; a player's private mission from his own "
    "purse. The spy always comes from the sponsoring kingdom's pool.",
    "A mission without a province, unit or character target (infiltrations, embezzlement, "
    "counterfeit, killing specialists...) happens in the target's capital province: a province "
    "counter-spy there guards it ('spies stationed in the capital protect against infiltrations').",
    "A unit's province is that of the population centre it is inside or shares a hex with; a unit "
    "in open country meets only the nation-wide counter-spy. A character's is that of his location.",
    "Purge Administration acts on the purger's own administration: no counter-spy, spy-ring or "
    "security-breach modifier applies, only a GM modifier. A true success clears every active "
    "effect of the named infiltration (or the smuggling ring of the named province) held against "
    "the purger, and each holder is told his man was purged.",
    "Fund Bandits / Privateers / Support Rebels: `bandits=N`, `privateers=N`, `rebels=N` are the "
    "EXTRA regiments/ships bought (2d/4d/2d each) on top of the one the base cost raises. The "
    "units belong to `bandits`, `privateers` or `rebels`, friendly to the sponsor, at the least "
    "fortified population centre of the province (privateers: its port). Units raised are public.",
    "Embezzlement never takes more than the target holds (never below 0).",
    "Infiltrate Treasury steals 1 ducat per province the target holds, at most what its treasury "
    "holds after tax; the sponsor receives half rounded down, the rest stays with the thieves.",
    "Infiltrations of different sponsors each count (one man per sponsor); one sponsor cannot double.",
    "Limit Trade lasts 1 year like the other market effects (the issue lists it among the effects "
    "that expire); its -10 never takes an allowance below 0 and the amount taken is restored.",
    "Only one smuggling ring per province: a sponsor whose own ring is active there is refused; "
    "another sponsor's success adds nothing (and is told so).",
    "Crash Commodity Market: one active crash per province and commodity, whoever sponsors it.",
    "Suborn Captain / Commander take one ship / one regiment: a larger unit is split and the "
    "suborned part becomes a new unit of the sponsor at the same hex. Scuttle / Poison destroy one "
    "ship / regiment; a unit with nothing left is removed. A ship is in port when it is inside or "
    "on the hex of a port (kind port or port_access).",
    "Counterfeit debt falls due at the next year start, once; Academy interference and the sailor "
    "recruitment cut act at the next year start and expire after it (the economy reads them).",
    "Morale penalties and security breaches stay active until used (the next engagement / mission).",
    "The sponsor is told the mission's outcome and his spy's fate (returns at year start / lost); "
    "never the rolls, modifiers or whether the target detected it.",
    "Year-start sums of espionage effects are secret: each step writes an adjudicators entry with "
    "its sums (the public step line does not show them).",
)

# Extras bought by order parameters -> the extra kinds of tables/espionage.toml.
EXTRA_PARAMS = {"bandits": "bandit-regiment", "privateers": "privateer-ship", "rebels": "infantry-regiment"}
POISON_EXTRA = "poison"

# Orders that are private espionage missions carry these parameters.
MISSION_PARAMS: dict[str, Param] = {
    "mission": Param(str, help="mission slug (see `yak resolve spy --list`)"),
    "target": Param(str, required=False, ref="kingdoms", help="target kingdom (purge: your own, may be omitted)"),
    "sponsor": Param(str, required=False, ref="kingdoms",
                     help="sponsoring kingdom (the GM acting directly; otherwise the filer's kingdom)"),
    "province": Param(str, required=False, ref="provinces", help="target province, where the mission needs one"),
    "character": Param(str, required=False, ref="characters", help="assassination target"),
    "unit": Param(str, required=False, ref="units", help="ship or regiment to scuttle, poison or suborn"),
    "commodity": Param(str, required=False, help="crash-commodity-market: the trade good"),
    "direction": Param(str, required=False, default="lower", choices=("raise", "lower"),
                       help="crash-commodity-market: raise or lower the price"),
    "choice": Param(str, required=False, default="sailors", choices=("sailors", "recruitment"),
                    help="interfere-with-shipbuilding: destroy sailors or cut recruitment"),
    "specialist": Param(str, required=False, help="interfere-with-academies: specialist type"),
    "infiltration": Param(str, required=False, help="purge-administration: the infiltration to purge"),
    "against": Param(str, required=False, default="", help="inspire-commercial-animosity: guild, nation or merchant"),
    "bandits": Param(int, required=False, default=0, minimum=0, help="extra bandit regiments (2d each)"),
    "privateers": Param(int, required=False, default=0, minimum=0, help="extra privateer ships (4d each)"),
    "rebels": Param(int, required=False, default=0, minimum=0, help="extra rebel regiments (2d each)"),
    "poison": Param(bool, required=False, default=False, help="assassinations: +3d for poison"),
}
GM_PARAMS: dict[str, Param] = {
    "gm_modifier": Param(int, required=False, default=0, help="adjudicator's modifier to both rolls"),
    "gm_reason": Param(str, required=False, default="", help="why (required with gm_modifier)"),
}


# ================================================================ state helpers


def seasons_per_year() -> int:
    return len(table("core")["calendar"]["seasons"])


def spy_pool(world: World, kingdom: str) -> dict[str, Any]:
    """The kingdom's spies as stored, with defaults (read only)."""
    doc = world.find(SPECIALISTS, kingdom) or {}
    counter = doc.get("counter_spies") or {}
    return {"spy": int(doc.get("spy", 0)), "cold_spy": int(doc.get("cold_spy", 0)),
            "counter_spies": {"provinces": list(counter.get("provinces", [])),
                              "nation": int(counter.get("nation", 0))}}


def _edit_pool(world: World, kingdom: str) -> dict[str, Any]:
    if world.find(SPECIALISTS, kingdom) is None:
        world.put(SPECIALISTS, kingdom, {"kingdom": kingdom, "engineer": 0, "spy": 0, "missionary": 0,
                                         "sailor": 0, "cold_spy": 0,
                                         "counter_spies": {"provinces": [], "nation": 0}})
    doc = world.edit(SPECIALISTS, kingdom)
    doc.setdefault("spy", 0)
    doc.setdefault("cold_spy", 0)
    counter = doc.setdefault("counter_spies", {})
    counter.setdefault("provinces", [])
    counter.setdefault("nation", 0)
    return doc


def active_effects(world: World, **match: Any) -> list[tuple[str, dict[str, Any]]]:
    return sorted((eid, e) for eid, e in world.where(EFFECTS, **match) if e.get("active"))


def infiltrations_held(world: World, sponsor: str, target: str) -> set[str]:
    """Mission slugs of the infiltrations `sponsor` holds against `target` now."""
    return {str(e["mission"]) for _, e in active_effects(world, kind="infiltration", sponsor_kingdom=sponsor,
                                                          target_kingdom=target)}


def holds(world: World, sponsor: str, target: str, slug: str) -> bool:
    return slug in infiltrations_held(world, sponsor, target)


def capital_province(world: World, kingdom: str) -> str | None:
    k = world.find("kingdoms", kingdom) or {}
    capital = world.find("pcs", k.get("capital"))
    if capital is not None:
        return str(capital["province"])
    owned = sorted(pid for pid, p in world.all("provinces") if p.get("kingdom") == kingdom)
    return owned[0] if owned else None


def _pc_at(world: World, hex_: list[int]) -> tuple[str, dict[str, Any]] | None:
    for pc_id, pc in sorted(world.all("pcs")):
        if list(pc.get("hex", [])) == list(hex_):
            return pc_id, pc
    return None


def unit_province(world: World, unit: dict[str, Any]) -> str | None:
    inside = world.find("pcs", unit.get("inside"))
    if inside is not None:
        return str(inside["province"])
    found = _pc_at(world, unit.get("hex", []))
    return str(found[1]["province"]) if found else None


def _is_port(pc: dict[str, Any]) -> bool:
    return pc.get("kind") == "port" or bool(pc.get("port_access"))


def unit_in_port(world: World, unit: dict[str, Any]) -> bool:
    inside = world.find("pcs", unit.get("inside"))
    if inside is not None and _is_port(inside):
        return True
    found = _pc_at(world, unit.get("hex", []))
    return found is not None and _is_port(found[1])


def character_province(world: World, character: dict[str, Any]) -> str | None:
    pc = world.find("pcs", character.get("location"))
    return None if pc is None else str(pc["province"])


def _province_pcs(world: World, province: str) -> list[tuple[str, dict[str, Any]]]:
    return sorted(((pid, pc) for pid, pc in world.all("pcs") if pc.get("province") == province),
                  key=lambda item: (int(item[1].get("fort_level", 0)), item[0]))


def _date(world: World) -> GameDate:
    return world.date


def _next_year_start(date: GameDate) -> GameDate:
    return GameDate(date.year + 1, 0)


def _kname(world: World, kingdom: str | None) -> str:
    return world.display_name("kingdoms", kingdom)


# ================================================================ planning an order


@dataclass
class Sponsor:
    kingdom: str
    payer: tuple[str, str]
    audience: str
    character: str | None


@dataclass
class Plan:
    """A validated mission: everything the world says about it before any die is rolled."""

    mission: Mission
    sponsor: Sponsor
    target: str
    province: str | None = None
    location_province: str | None = None
    character: str | None = None
    unit: str | None = None
    commodity: str | None = None
    direction: str = "lower"
    choice: str = "sailors"
    specialist: str | None = None
    infiltration: str | None = None
    against: str = ""
    extras: dict[str, int] = field(default_factory=dict)
    cost: int = 0
    gm_modifiers: list[Modifier] = field(default_factory=list)

    @property
    def is_purge(self) -> bool:
        return self.mission.effect == "purge"

    def where(self, world: World) -> str:
        if self.unit:
            return f" ({world.display_name('units', self.unit)})"
        if self.character:
            return f" ({world.display_name('characters', self.character)})"
        if self.province:
            return f" in {world.display_name('provinces', self.province)}"
        return ""


def sponsor_for(world: World, principal: Identity, sponsor_param: str | None) -> Sponsor:
    """Whose spies and ducats: the GM names the sponsor; a King is his kingdom; a player his own."""
    if principal.is_gm:
        if not sponsor_param:
            raise CommandError("sponsor", "is required when the GM acts directly (the sponsoring kingdom)")
        return Sponsor(sponsor_param, ("kingdoms", sponsor_param), kingdom_audience(sponsor_param), None)
    if principal.is_king:
        kingdom = principal.subject
        if sponsor_param and sponsor_param != kingdom:
            raise CommandError("sponsor", f"{principal} sponsors missions for {_kname(world, kingdom)} only")
        return Sponsor(kingdom, ("kingdoms", kingdom), kingdom_audience(kingdom), None)
    char = world.get("characters", principal.subject)
    kingdom = str(char.get("kingdom") or "")
    if not kingdom:
        raise CommandError("sponsor", f"{char.get('name', principal.subject)} serves no kingdom, so has no spies")
    if sponsor_param and sponsor_param != kingdom:
        raise CommandError("sponsor", f"{principal} sponsors missions for {_kname(world, kingdom)} only")
    return Sponsor(kingdom, ("characters", principal.subject), character_audience(principal.subject),
                   principal.subject)


def _mission_or_fail(slug: str) -> Mission:
    try:
        return mission(slug)
    except UnknownMission as error:
        raise CommandError("mission", str(error)) from None


def _target_province(world: World, plan: Plan, p: dict[str, Any], *, port: bool = False) -> str:
    province = p.get("province")
    if not province:
        raise CommandError("province", f"{plan.mission.slug} needs a province of {_kname(world, plan.target)}")
    doc = world.get("provinces", province)
    if doc.get("kingdom") != plan.target:
        raise CommandError("province", f"{doc['name']} is not a province of {_kname(world, plan.target)}")
    if port and not any(_is_port(pc) for _, pc in _province_pcs(world, province)):
        raise CommandError("province", f"{doc['name']} has no port: privateers need an enemy coast")
    return str(province)


def _target_unit(world: World, plan: Plan, p: dict[str, Any], what: str) -> str:
    unit_id = p.get("unit")
    if not unit_id:
        raise CommandError("unit", f"{plan.mission.slug} needs a {what} of {_kname(world, plan.target)}")
    unit = world.get("units", unit_id)
    if unit.get("owner") != plan.target:
        raise CommandError("unit", f"{unit['name']} does not belong to {_kname(world, plan.target)}")
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
            raise CommandError("character", f"{name} is not a noble or official of {target_k['name']} "
                               "(the ruler is assassinate-ruler)")
    else:
        if place_kingdom != plan.target:
            raise CommandError("character", f"{name} is not in {target_k['name']}")
        if char.get("kingdom") == plan.target and (char.get("kind") in ("king", "noble", "high-priestess")
                                                   or char_id == target_k.get("ruler")):
            raise CommandError("character", f"{name} belongs to the government or nobility of {target_k['name']}: "
                               "use assassinate-noble-bureaucrat or assassinate-ruler")
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


def _purge_target(world: World, plan: Plan, p: dict[str, Any]) -> str:
    slug = (p.get("infiltration") or "").strip()
    purgeable = [*sorted(s for s, m in catalogue().items() if m.is_infiltration), "establish-smuggling-ring"]
    if slug not in purgeable:
        raise CommandError("infiltration", f"name what to purge: one of {', '.join(purgeable)}")
    if slug == "establish-smuggling-ring":
        if not p.get("province"):
            raise CommandError("province", "purging a smuggling ring needs its province")
        doc = world.get("provinces", p["province"])
        if doc.get("kingdom") != plan.sponsor.kingdom:
            raise CommandError("province", f"{doc['name']} is not your province")
    return slug


def plan_mission(world: World, principal: Identity, p: dict[str, Any]) -> Plan:
    """Validate an order against the world; every refusal names the field and the reason."""
    entry = _mission_or_fail(p["mission"])
    if entry.effect == "counter-spy":
        raise CommandError("mission", "a counter-spy is stationed, not rolled: use `yak do counter-spy`")
    sponsor = sponsor_for(world, principal, p.get("sponsor"))
    target = p.get("target") or None
    if entry.effect == "purge":
        if target and target != sponsor.kingdom:
            raise CommandError("target", "purge-administration purges your own administration: "
                               "omit target or name your own kingdom")
        target = sponsor.kingdom
    if not target:
        raise CommandError("target", f"{entry.slug} needs the target kingdom")
    world.get("kingdoms", target)
    if target == sponsor.kingdom and entry.effect != "purge":
        raise CommandError("target", "a kingdom does not spy on itself")
    plan = Plan(entry, sponsor, target)
    if entry.effect != "purge":
        missing = missing_prerequisite(entry, infiltrations_held(world, sponsor.kingdom, target))
        if missing is not None:
            need = mission(missing)
            raise CommandError("mission", f"{entry.name} needs {need.name} held against {_kname(world, target)}, "
                               f"and {_kname(world, sponsor.kingdom)} holds no such infiltration "
                               f"(run {need.slug} first)")
    effect = entry.effect
    if effect in ("smuggling-ring", "bandits", "rebels", "crash-market", "limit-trade", "commercial-animosity"):
        plan.province = _target_province(world, plan, p)
    elif effect == "privateers":
        plan.province = _target_province(world, plan, p, port=True)
    elif effect in ("scuttle", "suborn-ship"):
        plan.unit = _target_unit(world, plan, p, "ship")
    elif effect in ("poison-regiment", "suborn-regiment"):
        plan.unit = _target_unit(world, plan, p, "regiment")
    elif effect == "assassination":
        plan.character = _target_character(world, plan, p)
    elif effect == "purge":
        plan.infiltration = _purge_target(world, plan, p)
        plan.province = p.get("province") if plan.infiltration == "establish-smuggling-ring" else None
    if effect == "crash-market":
        plan.commodity = _commodity(p)
        plan.direction = p.get("direction") or "lower"
    if effect == "shipbuilding":
        plan.choice = p.get("choice") or "sailors"
    if effect == "academy-interference":
        types = [t for t in table("economy")["specialists"]["types"]
                 if t not in table("economy")["specialists"]["not_hired"]]
        chosen = (p.get("specialist") or "").strip().lower()
        if chosen not in types:
            raise CommandError("specialist", f"name the academies' specialist type: one of {', '.join(types)}")
        plan.specialist = chosen
    if effect == "commercial-animosity":
        plan.against = (p.get("against") or "").strip()
        if not plan.against:
            raise CommandError("against", "name the guild, nation or merchant the public turns against")
    if effect == "smuggling-ring" and plan.province and active_effects(
            world, kind="smuggling-ring", province=plan.province, sponsor_kingdom=sponsor.kingdom):
        raise CommandError("province", f"your smuggling ring in {world.display_name('provinces', plan.province)} "
                           "still operates: one ring per province until it is broken")
    # Extras (ducats buy more) and the cost.
    extras = {kind: int(p.get(name) or 0) for name, kind in EXTRA_PARAMS.items() if int(p.get(name) or 0)}
    if p.get("poison"):
        extras[POISON_EXTRA] = 1
    offered = [extra.kind for extra in entry.extras]
    for name, kind in [*EXTRA_PARAMS.items(), ("poison", POISON_EXTRA)]:
        if kind in extras and kind not in offered:
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


def _location(world: World, plan: Plan) -> str | None:
    if plan.province:
        return plan.province
    if plan.unit:
        return unit_province(world, world.get("units", plan.unit))
    if plan.character:
        return character_province(world, world.get("characters", plan.character))
    return capital_province(world, plan.target)


# ================================================================ modifiers, stakes, odds


def modifier_inputs(world: World, plan: Plan, *, known_to_sponsor_only: bool = False) -> SpyModifiers:
    """What the world knows about this mission's spy; purges meet no enemy counter-measures."""
    if plan.is_purge:
        return SpyModifiers(gm_modifiers=tuple(plan.gm_modifiers))
    breach = bool(active_effects(world, kind="security-breach", sponsor_kingdom=plan.sponsor.kingdom,
                                 target_kingdom=plan.target))
    if known_to_sponsor_only:
        return SpyModifiers(security_breach=breach)
    counter = spy_pool(world, plan.target)["counter_spies"]
    province_spy = plan.location_province is not None and plan.location_province in counter["provinces"]
    ring = holds(world, plan.target, plan.sponsor.kingdom, "infiltrate-spy-ring")
    return SpyModifiers(province_counter_spy=province_spy, nation_counter_spy=counter["nation"] > 0,
                        spy_ring_infiltrated_by_target=ring, security_breach=breach,
                        gm_modifiers=tuple(plan.gm_modifiers))


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
    plan = plan_mission(world, principal, params)
    adjudicates = may_adjudicate(world, identity, mission_stakes(world, identity, params)).allowed
    applied = spy_modifiers(modifier_inputs(world, plan, known_to_sponsor_only=not adjudicates))
    exact = mission_odds(plan.mission, applied.success, applied.detection).to_dict()
    shown = {"success": [m.to_dict() for m in applied.success],
             "detection": [m.to_dict() for m in applied.detection]}
    return {"mission": plan.mission.slug, "cost": plan.cost, "odds": exact, "modifiers": shown,
            "hidden_modifiers": not adjudicates}


def _order_odds(world: World, identity: Identity, params: dict[str, Any]) -> dict[str, Any]:
    return mission_odds_for(world, identity, {k: v for k, v in params.items() if k != "note"})


# ================================================================ effects


def _new_effect(ctx: CommandContext, plan: Plan, outcome: SpyOutcome, kind: str, *, data: dict[str, Any] | None = None,
                end: GameDate | None = None, **extra: Any) -> str:
    world = ctx.world
    effect_id = world.new_id(EFFECTS, "fx")
    doc: dict[str, Any] = {
        "kind": kind, "mission": plan.mission.slug, "sponsor_kingdom": plan.sponsor.kingdom,
        "target_kingdom": plan.target, "data": data or {}, "start": world.meta["date"],
        "end": end.to_dict() if end else None, "holder_kingdom": plan.sponsor.kingdom,
        "known_to_target": outcome.evidence in ("detected", "identified"),
        "known_sponsor": outcome.evidence == "identified", "active": True,
    }
    if plan.sponsor.character:
        doc["holder_character"] = plan.sponsor.character
    if plan.province:
        doc["province"] = plan.province
    doc.update({k: v for k, v in extra.items() if v is not None})
    world.put(EFFECTS, effect_id, doc)
    return effect_id


def _end_of_year(ctx: CommandContext) -> GameDate:
    return _date(ctx.world).plus(seasons_per_year())


@dataclass
class Applied:
    """What a mission did: told to the sponsor (`text`), the truth for the adjudicator (`secret`),
    neutral facts for the target's own holdings (`target_facts`), public facts (`public_facts`)."""

    text: str
    secret: str = ""
    target_facts: list[str] = field(default_factory=list)
    public_facts: list[str] = field(default_factory=list)
    effect: str | None = None


EffectFn = Callable[[CommandContext, Plan, SpyOutcome], Applied]
EFFECT_APPLIERS: dict[str, EffectFn] = {}


def applies(*kinds: str) -> Callable[[EffectFn], EffectFn]:
    def wrap(fn: EffectFn) -> EffectFn:
        for kind in kinds:
            EFFECT_APPLIERS[kind] = fn
        return fn

    return wrap


def _effect_audience(effect: dict[str, Any]) -> str:
    """Where an effect's consequences for the target are told: the target if it knows, else nobody."""
    return kingdom_audience(effect["target_kingdom"]) if effect.get("known_to_target") else ADJUDICATORS


@applies("infiltration")
def _infiltration(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    target = _kname(ctx.world, plan.target)
    if holds(ctx.world, plan.sponsor.kingdom, plan.target, plan.mission.slug):
        return Applied(f"it changes nothing: you already hold {plan.mission.name} against {target} "
                       "(an infiltration cannot be doubled)")
    effect = _new_effect(ctx, plan, outcome, "infiltration", data={"branch": plan.mission.params.get("branch")})
    return Applied(f"your man is in place until purged ({plan.mission.params.get('branch')})", effect=effect)


@applies("security-breach")
def _breach(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    bonus = int(table("espionage")["modifiers"]["security_breach"])
    effect = _new_effect(ctx, plan, outcome, "security-breach", data={"bonus": bonus})
    return Applied(f"a security breach in {_kname(ctx.world, plan.target)} gives {bonus:+d} to your next mission "
                   "against it", effect=effect)


@applies("smuggling-ring")
def _smuggling(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    where = ctx.world.display_name("provinces", plan.province)
    if active_effects(ctx.world, kind="smuggling-ring", province=plan.province):
        return Applied(f"a smuggling ring already operates in {where}; yours adds nothing")
    end = _end_of_year(ctx)
    effect = _new_effect(ctx, plan, outcome, "smuggling-ring", end=end, data=dict(plan.mission.params))
    return Applied(f"a smuggling ring operates in {where} until {end.label()}", effect=effect)


def _raise_units(ctx: CommandContext, plan: Plan, outcome: SpyOutcome, owner: str, kind: str, strength: str,
                 count: int, hex_: list[int], label: str) -> str:
    world = ctx.world
    unit_id = world.new_id("units", owner)
    where = world.display_name("provinces", plan.province)
    world.put("units", unit_id, {"name": f"{label} of {where}", "owner": owner, "kind": kind, "size": "company",
                                 strength: count, "hex": list(hex_), "friendly_to": plan.sponsor.kingdom,
                                 "raised_by": plan.mission.slug, "raised": world.meta["date"]})
    return unit_id


@applies("bandits", "rebels", "privateers")
def _irregulars(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    world = ctx.world
    entry = plan.mission
    pcs = _province_pcs(world, str(plan.province))
    where = world.display_name("provinces", plan.province)
    if entry.effect == "privateers":
        count = int(entry.params.get("base_ships", 1)) + plan.extras.get("privateer-ship", 0)
        port = next(pc for _, pc in pcs if _is_port(pc))
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
    return Applied(f"{fact}, friendly to you", secret=f"raised unit {unit}", public_facts=[f"{fact[0].upper()}{fact[1:]}."])


def _kill_specialists(ctx: CommandContext, plan: Plan, kind: str, count: int) -> tuple[int, list[str]]:
    pool = _edit_pool(ctx.world, plan.target)
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


@applies("kill-spies", "kill-engineers", "kill-missionaries")
def _kill(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    params = plan.mission.params
    kind, count = {"kill-spies": ("spy", params.get("spies", 0)),
                   "kill-engineers": ("engineer", params.get("engineers", 0)),
                   "kill-missionaries": ("missionary", params.get("missionaries", 0))}[plan.mission.effect]
    killed, parts = _kill_specialists(ctx, plan, kind, int(count))
    target = _kname(ctx.world, plan.target)
    if not killed:
        return Applied(f"{target} had no {kind}s to kill")
    what = " and ".join(parts)
    return Applied(f"{what} of {target} eliminated", target_facts=[f"You have lost {what}."])


@applies("academy-interference")
def _academies(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    due = _next_year_start(_date(ctx.world))
    reduction = int(plan.mission.params.get("graduation_reduction", 0))
    effect = _new_effect(ctx, plan, outcome, "academy-interference", end=due, due=due.to_dict(),
                         data={"specialist": plan.specialist, "reduction": reduction})
    return Applied(f"{_kname(ctx.world, plan.target)}'s {plan.specialist} academies graduate {reduction} fewer "
                   f"at the start of {due.year}", effect=effect)


@applies("embezzlement")
def _embezzle(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    world = ctx.world
    params = plan.mission.params
    treasury = float(world.get("kingdoms", plan.target)["treasury"])
    wanted = max(math.floor(treasury / int(params["treasury_divisor"])), int(params["minimum_ducats"]))
    stolen = max(0, min(wanted, math.floor(treasury)))
    share = stolen // int(params["sponsor_share_divisor"])
    target = _kname(world, plan.target)
    if stolen <= 0:
        return Applied(f"{target}'s treasury is empty: nothing to steal")
    audience = kingdom_audience(plan.target) if outcome.evidence in ("detected", "identified") else ADJUDICATORS
    if share:
        ctx.move_ducats(("kingdoms", plan.target), ("kingdoms", plan.sponsor.kingdom), share,
                        "embezzled (your half)", audience=plan.sponsor.audience)
    if stolen - share:
        ctx.move_ducats(("kingdoms", plan.target), None, stolen - share, "embezzled (kept by the thieves)",
                        audience=audience)
    return Applied(f"{stolen} ducats embezzled from {target}; {share} reach your treasury",
                   secret=f"treasury {treasury:g}: stole {stolen}, sponsor {share}")


@applies("crash-market")
def _crash(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    world = ctx.world
    where = world.display_name("provinces", plan.province)
    if active_effects(world, kind="crash-market", province=plan.province, commodity=plan.commodity):
        return Applied(f"the {plan.commodity} market of {where} is already disturbed this year; "
                       "it changes nothing (crashes do not stack)")
    step = int(plan.mission.params["increments"]) * (1 if plan.direction == "raise" else -1)
    end = _end_of_year(ctx)
    prov = world.edit("provinces", str(plan.province))
    prov.setdefault("price_modifiers", {})[str(plan.commodity)] = step
    effect = _new_effect(ctx, plan, outcome, "crash-market", end=end, commodity=plan.commodity,
                         data={"increments": step})
    return Applied(f"the price of {plan.commodity} in {where} moves {step:+d} increments until {end.label()}",
                   effect=effect)


@applies("limit-trade")
def _limit_trade(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    world = ctx.world
    where = world.display_name("provinces", plan.province)
    if active_effects(world, kind="limit-trade", province=plan.province):
        return Applied(f"trade in {where} is already limited this year; it changes nothing")
    prov = world.edit("provinces", str(plan.province))
    before = float(prov.get("market_allowance", 0))
    delta = float(plan.mission.params["market_allowance"])
    after = max(0.0, before + delta)
    prov["market_allowance"] = _num(after)
    end = _end_of_year(ctx)
    effect = _new_effect(ctx, plan, outcome, "limit-trade", end=end,
                         data={"market_allowance": _num(after - before)})
    return Applied(f"the market allowance of {where} falls by {_num(before - after)} until {end.label()}",
                   effect=effect)


@applies("commercial-animosity")
def _animosity(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    where = ctx.world.display_name("provinces", plan.province)
    end = _end_of_year(ctx)
    params = plan.mission.params
    effect = _new_effect(ctx, plan, outcome, "commercial-animosity", end=end,
                         data={"against": plan.against, "buy_penalty": params.get("buy_penalty"),
                               "sell_penalty": params.get("sell_penalty")})
    return Applied(f"merchants of {plan.against} trading in {where} suffer {params.get('buy_penalty'):+d}/"
                   f"{params.get('sell_penalty'):+d} on trade checks until {end.label()}", effect=effect)


@applies("shipbuilding")
def _shipbuilding(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    params = plan.mission.params
    target = _kname(ctx.world, plan.target)
    if plan.choice == "sailors":
        killed, parts = _kill_specialists(ctx, plan, "sailor", int(params["sailors_destroyed"]))
        if not killed:
            return Applied(f"{target} had no sailors to destroy")
        return Applied(f"{' and '.join(parts)} of {target} destroyed",
                       target_facts=[f"You have lost {' and '.join(parts)}."])
    due = _next_year_start(_date(ctx.world))
    effect = _new_effect(ctx, plan, outcome, "sailor-recruitment-cut", end=due, due=due.to_dict(),
                         data={"reduction": int(params["recruitment_reduction"])})
    return Applied(f"{target} recruits {params['recruitment_reduction']} fewer sailors at the start of {due.year}",
                   effect=effect)


@applies("naval-morale", "military-morale")
def _morale(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    engagement = "naval" if plan.mission.effect == "naval-morale" else "military"
    params = plan.mission.params
    effect = _new_effect(ctx, plan, outcome, "morale-penalty",
                         data={"engagement": engagement, "morale": params["morale"],
                               "engagements": params.get("engagements", 1)})
    return Applied(f"{_kname(ctx.world, plan.target)} suffers {int(params['morale']):+d} morale in its next "
                   f"{engagement} engagement", effect=effect)


@applies("naval-disposition", "military-disposition")
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
    ctx.log(f"Stolen documents: the {'navy' if strength == 'ships' else 'army'} of {_kname(world, plan.target)} "
            f"in {world.date.label()}: {listing}.", kind=f"{KIND}-report", audience=plan.sponsor.audience,
            refs={"target_kingdom": plan.target, "units": [line.split(" (")[0] for line in lines]})
    return Applied(f"the documents reveal {len(lines)} {'squadrons' if strength == 'ships' else 'units'} "
                   f"of {_kname(world, plan.target)}")


def _take_from_unit(world: World, unit_id: str, strength: str, count: int) -> int:
    unit = world.edit("units", unit_id)
    have = int(unit.get(strength, 0))
    taken = min(have, count)
    if have - taken <= 0:
        world.delete("units", unit_id)
    else:
        unit[strength] = have - taken
    return taken


@applies("scuttle", "poison-regiment")
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


@applies("suborn-ship", "suborn-regiment")
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
    fact = f"{what} of {name} changed sides to {_kname(world, sponsor)}"
    return Applied(f"{fact} (unit {new_id})", target_facts=[f"{fact}."])


@applies("counterfeit")
def _counterfeit(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    due = _next_year_start(_date(ctx.world))
    debt = int(plan.mission.params["debt"])
    effect = _new_effect(ctx, plan, outcome, "counterfeit", end=due, due=due.to_dict(), data={"debt": debt})
    return Applied(f"false coin floods {_kname(ctx.world, plan.target)}: a {debt}-ducat debt at the start of "
                   f"{due.year}", effect=effect)


@applies("assassination")
def _assassination(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    params = plan.mission.params
    poison = bool(plan.extras.get(POISON_EXTRA))
    data = {"assassins": params["assassins"], "weapon_bonus": params["weapon_bonus"],
            "armour_bonus": params["armour_bonus"], "surprise": params["surprise"], "poison": poison,
            "poison_extra_damage": params["poison_extra_damage"] if poison else 0}
    # The attack has not happened yet: the victim's side learns of it when the GM plays it out.
    effect = _new_effect(ctx, plan, outcome, "assassination-attempt", data=data, character=plan.character,
                         status="pending", evidence=outcome.evidence, known_to_target=False, known_sponsor=False)
    who = ctx.world.display_name("characters", plan.character)
    return Applied(f"{params['assassins']} assassins are hired against {who}{' with poison' if poison else ''}; "
                   "the GM plays out the attempt", effect=effect)


def _purge(ctx: CommandContext, plan: Plan, outcome: SpyOutcome) -> Applied:
    world = ctx.world
    slug = str(plan.infiltration)
    if slug == "establish-smuggling-ring":
        found = active_effects(world, kind="smuggling-ring", province=plan.province, target_kingdom=plan.target)
    else:
        found = active_effects(world, kind="infiltration", mission=slug, target_kingdom=plan.target)
    what = mission(slug).name if slug != "establish-smuggling-ring" else (
        f"the smuggling ring in {world.display_name('provinces', plan.province)}")
    told = f"{what}: {plan.mission.params.get('sponsor_told', 'cleared')}"
    if not outcome.success:
        held = ", ".join(f"{e['sponsor_kingdom']} ({eid})" for eid, e in found) or "none"
        return Applied(told, secret=f"purge FAILED: still active: {held}")
    for effect_id, effect in found:
        _end_effect(world, effect_id, "purged")
        ctx.log(f"Your {mission(effect['mission']).name} in {_kname(world, plan.target)} was purged.",
                kind=KIND, audience=_holder_audience(effect), refs={"effect": effect_id})
    cleared = ", ".join(f"{e['sponsor_kingdom']} ({eid})" for eid, e in found) or "nothing was there"
    return Applied(told, secret=f"purge succeeded: cleared {cleared}")


def _holder_audience(effect: dict[str, Any]) -> str:
    if effect.get("holder_character"):
        return character_audience(effect["holder_character"])
    return kingdom_audience(effect["holder_kingdom"])


def _end_effect(world: World, effect_id: str, why: str) -> None:
    doc = world.edit(EFFECTS, effect_id)
    doc["active"] = False
    doc["ended"] = world.meta["date"]
    doc["ended_by"] = why
    if doc.get("end") is None:
        doc["end"] = world.meta["date"]


def _num(value: float) -> float | int:
    rounded = round(value, 4)
    return int(rounded) if float(rounded).is_integer() else rounded


# ================================================================ the mission command


def _roll_text(roll: SpyRoll | None, label: str) -> str:
    if roll is None:
        return f"no {label} roll"
    mods = "".join(f" {m.value:+d} ({m.reason})" for m in roll.modifiers)
    return f"{label} {roll.natural}{mods} = {roll.total} vs {roll.target}: {roll.band}"


def _spy_fate_text(plan: Plan, outcome: SpyOutcome) -> str:
    if plan.is_purge or plan.mission.assassination_attempt:
        return ""
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
    if plan.is_purge:
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
        text += f" He talked: the operation was ordered by {_kname(world, plan.sponsor.kingdom)}."
        refs["sponsor_kingdom"] = plan.sponsor.kingdom
    else:
        text += " The perpetrator is unknown."
    return ctx.log(text, kind=KIND, audience=kingdom_audience(plan.target), refs=refs)


def run_mission(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    """Carry out one NPC mission: pay, roll blind, apply, and tell each party what it may know."""
    world = ctx.world
    ctx.require_adjudicator(mission_stakes(world, ctx.principal, p))
    plan = plan_mission(world, ctx.principal, p)
    entry = plan.mission
    pool = _edit_pool(world, plan.sponsor.kingdom)
    if int(pool["spy"]) < 1:
        raise CommandError("spy", f"{_kname(world, plan.sponsor.kingdom)} has no active spy "
                           f"({pool['cold_spy']} cold, active again at year start)")
    # Costs are paid whatever the outcome (RULINGS §7): ducats (with extras) and one spy.
    if plan.cost:
        ctx.move_ducats(plan.sponsor.payer, None, plan.cost, f"espionage: {entry.name}", audience=plan.sponsor.audience,
                        kind=KIND)
    pool["spy"] = int(pool["spy"]) - 1
    inputs = modifier_inputs(world, plan)
    applied = spy_modifiers(inputs)
    outcome = resolve_mission(entry, ctx.dice, applied.success, applied.detection)
    # One-shot holdings spent on this operation.
    spent: list[str] = []
    if applied.counter_spy_spent == "province":
        counter = _edit_pool(world, plan.target)["counter_spies"]
        counter["provinces"].remove(plan.location_province)
        spent.append(f"province counter-spy in {plan.location_province}")
    elif applied.counter_spy_spent == "nation":
        _edit_pool(world, plan.target)["counter_spies"]["nation"] -= 1
        spent.append("nation-wide counter-spy")
    if applied.security_breach_spent:
        breach_id = active_effects(world, kind="security-breach", sponsor_kingdom=plan.sponsor.kingdom,
                                   target_kingdom=plan.target)[0][0]
        _end_effect(world, breach_id, "spent")
        spent.append(f"security breach {breach_id}")
    if outcome.spy_cold:
        pool["cold_spy"] = int(pool["cold_spy"]) + 1
    # What the mission does.
    if plan.is_purge:
        result = _purge(ctx, plan, outcome)
    elif outcome.success or outcome.assassination_attempt:
        result = EFFECT_APPLIERS[entry.effect](ctx, plan, outcome)
    else:
        result = Applied("the mission failed")
    reported = _reported(plan, outcome)
    rolls = []
    audience = plan.sponsor.audience
    if outcome.success_roll is not None:
        roll = outcome.success_roll
        rolls.append(ctx.record_roll(f"{entry.name}: success roll", [roll.natural], roll.total, roll.band,
                                     roll.modifiers, audience=audience, blind=True, outcome=reported))
    if outcome.detection_roll is not None:
        roll = outcome.detection_roll
        rolls.append(ctx.record_roll(f"{entry.name}: detection roll", [roll.natural], roll.total, roll.band,
                                     roll.modifiers, audience=audience, blind=True,
                                     outcome=_fate_outcome(plan, outcome)))
    target_name = _kname(world, plan.target)
    headline = (f"Espionage: {entry.name}" + ("" if plan.is_purge else f" against {target_name}")
                + f"{plan.where(world)}: {reported}")
    text = f"{headline}. {result.text[0].upper()}{result.text[1:]}." if result.text else f"{headline}."
    fate = _spy_fate_text(plan, outcome)
    if fate:
        text += f" {fate}"
    truth = "; ".join(part for part in (
        f"true outcome {outcome.outcome}",
        _roll_text(outcome.success_roll, "success"),
        _roll_text(outcome.detection_roll, "detection"),
        f"spy {outcome.spy or 'not settled'}{' (used up)' if entry.spy_used_up else ''}",
        f"evidence {outcome.evidence}",
        f"spent: {', '.join(spent)}" if spent else "",
        result.secret,
    ) if part)
    sponsor_entry = ctx.log(text, kind=KIND, audience=audience, rolls=rolls, secret=truth,
                            refs={"mission": entry.slug, "sponsor_kingdom": plan.sponsor.kingdom,
                                  "target_kingdom": plan.target, "character": plan.sponsor.character,
                                  "effect": result.effect})
    target_entry = _tell_target(ctx, plan, outcome)
    for fact in result.target_facts:
        ctx.log(fact, kind=f"{KIND}-consequence", audience=kingdom_audience(plan.target),
                refs={"target_kingdom": plan.target})
    for fact in result.public_facts:
        ctx.log(fact, kind=f"{KIND}-consequence", audience=PUBLIC)
    return {
        "mission": entry.slug, "sponsor": plan.sponsor.kingdom, "target": plan.target, "cost": plan.cost,
        "outcome": outcome.outcome, "reported": reported, "outcome_text": text,
        "spy": outcome.spy, "evidence": outcome.evidence, "spy_lost": outcome.spy_lost, "spy_cold": outcome.spy_cold,
        "success_roll": None if outcome.success_roll is None else outcome.success_roll.to_dict(),
        "detection_roll": None if outcome.detection_roll is None else outcome.detection_roll.to_dict(),
        "modifiers": {"success": [m.to_dict() for m in applied.success],
                      "detection": [m.to_dict() for m in applied.detection]},
        "spent": spent, "effect": result.effect, "sponsor_entry": sponsor_entry["id"],
        "target_entry": None if target_entry is None else target_entry["id"],
    }


@command(MISSION_COMMAND, "Resolve an NPC espionage mission blind (the GM, or the order's adjudicator).",
         {**MISSION_PARAMS, **GM_PARAMS}, category=KIND, odds=mission_odds_for, stakes=mission_stakes, rolls=True)
def spy_mission(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    return run_mission(ctx, p)


def _order_params(p: dict[str, Any]) -> dict[str, Any]:
    """The parameters a player actually gave, as JSON-ready values for the order."""
    out: dict[str, Any] = {}
    for name, param in MISSION_PARAMS.items():
        value = p.get(name)
        if value is None or value == param.default or value == "":
            continue
        out[name] = value
    return out


@command("spy-order", "File an NPC espionage mission privately; it waits for its adjudicator (RULINGS §1).",
         {**MISSION_PARAMS, "note": Param(str, required=False, default="", help="a note for the adjudicator")},
         category="orders", odds=_order_odds)
def spy_order(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    if ctx.identity.is_gm:
        raise CommandError("identity", f"the GM resolves missions directly: `yak do {MISSION_COMMAND}`")
    params = _order_params(p)
    filed = order_file(ctx, {"command": MISSION_COMMAND, "params": orjson.dumps(params).decode(), "private": True,
                             "note": p["note"]})
    return filed or {}


@command("spy-resolve", "Resolve a waiting espionage order blind, optionally with a GM modifier (its adjudicator).",
         {"order": Param(str, ref="orders"), **GM_PARAMS}, category="orders", rolls=True)
def spy_resolve(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    order = _waiting_order(ctx, p["order"])
    if order["command"] != MISSION_COMMAND:
        raise CommandError("order", f"order {p['order']} is {order['command']}, not an espionage mission "
                           "(use order-resolve)")
    raw = dict(order["params"])
    if p["gm_modifier"]:
        raw.update(gm_modifier=p["gm_modifier"], gm_reason=p["gm_reason"])  # kept off the filer's order
    filer = Identity.parse(order["filed_by"])
    sub = CommandContext(world, ctx.identity, ctx.dice.inner, MISSION_COMMAND, principal=filer)
    try:
        data = run_mission(sub, coerce_params(COMMANDS[MISSION_COMMAND], raw, world, ctx.identity))
    except CommandError as error:
        raise CommandError(f"order.{error.field}", error.reason, error.who_may) from None
    ctx.entries.extend(sub.entries)
    ctx.rolls.extend(sub.rolls)
    ctx.adjudicator = sub.adjudicator
    edited = world.edit("orders", p["order"])
    edited.update({"status": "resolved", "resolved": world.meta["date"], "outcome": data["outcome_text"],
                   "entries": [e["id"] for e in sub.entries]})
    ctx.log(f"Order {p['order']} resolved: {data['outcome_text']}", kind="order", audience=_order_audience(order),
            refs={"order": p["order"], "character": order.get("character")})
    return {"order": p["order"], "status": "resolved", "result": data}


@command("counter-spy", "Station a spy as a counter-spy in a province, or nation-wide (costs 0d and one spy).",
         {"kingdom": Param(str, required=False, ref="kingdoms", help="your kingdom (the GM names it)"),
          "province": Param(str, required=False, ref="provinces", help="omit for a nation-wide counter-spy")},
         category=KIND)
def counter_spy(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    principal = ctx.principal
    kingdom = p["kingdom"] or (principal.subject if principal.is_king else None)
    if kingdom is None:
        raise CommandError("kingdom", "name the kingdom whose spy is stationed")
    ctx.require_acts_for(kingdom=kingdom)
    if p["province"]:
        prov = world.get("provinces", p["province"])
        if prov.get("kingdom") != kingdom:
            raise CommandError("province", f"{prov['name']} is not a province of {_kname(world, kingdom)}")
    pool = _edit_pool(world, kingdom)
    if int(pool["spy"]) < 1:
        raise CommandError("spy", f"{_kname(world, kingdom)} has no active spy to station")
    pool["spy"] = int(pool["spy"]) - 1
    if p["province"]:
        pool["counter_spies"]["provinces"].append(p["province"])
        where = f"in {world.display_name('provinces', p['province'])} (-2 to the next enemy operation there)"
    else:
        pool["counter_spies"]["nation"] = int(pool["counter_spies"]["nation"]) + 1
        where = "nation-wide (-1 to the next enemy operation anywhere)"
    entry = ctx.log(f"A counter-spy of {_kname(world, kingdom)} is stationed {where}.", kind=KIND,
                    audience=kingdom_audience(kingdom), refs={"kingdom": kingdom})
    return {"kingdom": kingdom, "province": p["province"], "spies": pool["spy"],
            "counter_spies": pool["counter_spies"], "entry": entry["id"]}


@command("assassination-resolve", "Close a pending assassination attempt with what happened (GM).",
         {"attempt": Param(str, ref=EFFECTS, help="the assassination-attempt effect id"),
          "result": Param(str, help="what happened, in a sentence"),
          "killed": Param(bool, required=False, default=False, help="the victim died"),
          "audience": Param(str, required=False, default=PUBLIC, help="who hears of the attack")},
         category="gm", gm_only="play out assassination attempts")
def assassination_resolve(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    attempt = world.get(EFFECTS, p["attempt"])
    if attempt.get("kind") != "assassination-attempt":
        raise CommandError("attempt", f"{p['attempt']} is a {attempt.get('kind')}, not an assassination attempt")
    if attempt.get("status") != "pending":
        raise CommandError("attempt", f"{p['attempt']} is already {attempt.get('status')}")
    result = p["result"].strip()
    if not result:
        raise CommandError("result", "is empty: say what happened")
    audience = audience_param(world, p["audience"])
    victim = str(attempt["character"])
    who = world.display_name("characters", victim)
    doc = world.edit(EFFECTS, p["attempt"])
    doc.update({"status": "resolved", "result": result, "active": False, "end": world.meta["date"],
                "known_to_target": True, "known_sponsor": attempt.get("evidence") == "identified"})
    if p["killed"]:
        world.edit("characters", victim)["alive"] = False
    ctx.log(f"Assassins attacked {who}: {result}", kind=KIND, audience=audience, refs={"target_character": victim})
    evidence = attempt.get("evidence")
    clue = {"identified": f"The assassins left proof: they were paid by {_kname(world, attempt['sponsor_kingdom'])}.",
            "detected": "The assassins were hired by an enemy power; the employer is unknown."}.get(str(evidence),
                                                                                                  "They left no trace of "
                                                                                                  "their employers.")
    for aud in {kingdom_audience(attempt["target_kingdom"]), character_audience(victim)}:
        ctx.log(f"The attack on {who}: {clue}", kind=KIND, audience=aud, refs={"effect": p["attempt"]})
    ctx.log(f"The assassination attempt on {who}: {result}", kind=KIND, audience=_holder_audience(attempt),
            refs={"effect": p["attempt"]})
    return {"attempt": p["attempt"], "status": "resolved", "killed": p["killed"]}


# ================================================================ year start and expiries


def _secret_sums(ctx: CommandContext, report: StepReport, title: str, sums: dict[str, float]) -> None:
    """Espionage sums are secret: the adjudicators' entry carries them, the GM's report lines too."""
    if not sums:
        return
    text = ", ".join(f"{k} {v:g}" for k, v in sums.items())
    report.lines.append(f"{title} (secret): {text}")
    ctx.log(f"Year start, {title}: {text}", kind=f"{KIND}-year-start", audience=ADJUDICATORS,
            refs={"step": report.step, "sums": sums, "secret": True})


def _add(sums: dict[str, float], key: str, amount: float) -> None:
    sums[key] = round(sums.get(key, 0) + amount, 4)


@year_start_step("counterfeit")
def _counterfeit_debts(ctx: CommandContext, report: StepReport) -> None:
    """Each counterfeit effect due now costs its target 5 ducats, before upkeep, even below zero."""
    world = ctx.world
    today = world.date
    sums: dict[str, float] = {}
    for effect_id, effect in active_effects(world, kind="counterfeit"):
        if GameDate.from_dict(effect.get("due") or effect["end"]) > today:
            continue
        debt = float(effect["data"]["debt"])
        ctx.move_ducats(("kingdoms", effect["target_kingdom"]), None, debt, "debt from counterfeit coin",
                        audience=_effect_audience(effect), allow_negative=True, kind=KIND)
        _end_effect(world, effect_id, "paid")
        _add(sums, f"counterfeit debt {effect['target_kingdom']}", debt)
    _secret_sums(ctx, report, "counterfeit debts", sums)


@year_start_step("tax")
def _treasury_theft(ctx: CommandContext, report: StepReport) -> None:
    """Infiltrate Treasury: 1 ducat per province out of the target's tax; half to the sponsor."""
    world = ctx.world
    sums: dict[str, float] = {}
    for _, effect in active_effects(world, kind="infiltration", mission="infiltrate-treasury"):
        params = mission("infiltrate-treasury").params
        target, sponsor = effect["target_kingdom"], effect["sponsor_kingdom"]
        provinces = sum(1 for _, prov in world.all("provinces") if prov.get("kingdom") == target)
        treasury = float(world.get("kingdoms", target)["treasury"])
        stolen = max(0, min(provinces * int(params["ducats_per_province"]), math.floor(treasury)))
        if stolen <= 0:
            continue
        share = stolen // int(params["sponsor_share_divisor"])
        if share:
            ctx.move_ducats(("kingdoms", target), ("kingdoms", sponsor), share, "skimmed from the tax by your man "
                            f"in the treasury of {_kname(world, target)}", audience=_holder_audience(effect),
                            kind=KIND)
        if stolen - share:
            ctx.move_ducats(("kingdoms", target), None, stolen - share, "lost from the tax collection",
                            audience=_effect_audience(effect), kind=KIND)
        _add(sums, f"stolen from {target}", stolen)
        _add(sums, f"to {sponsor}", share)
    _secret_sums(ctx, report, "treasury infiltration", sums)


def _upkeep_surcharge(world: World, kingdom_id: str, regiments: int, ships: int) -> dict[str, float]:
    """+0.5 upkeep per ship (admiralty) / regiment (general staff) per infiltrating sponsor."""
    out: dict[str, float] = {}
    for slug, count, per, label in (
            ("infiltrate-admiralty", ships, "upkeep_per_ship", "naval"),
            ("infiltrate-general-staff", regiments, "upkeep_per_regiment", "military")):
        rate = float(mission(slug).params[per])
        for _, effect in active_effects(world, kind="infiltration", mission=slug, target_kingdom=kingdom_id):
            name = f"{mission(slug).name.lower()}" if effect.get("known_to_target") else f"{label} waste"
            out[name] = out.get(name, 0.0) + rate * count
    return {k: v for k, v in out.items() if v}


if _upkeep_surcharge not in UPKEEP_SURCHARGES:
    UPKEEP_SURCHARGES.append(_upkeep_surcharge)


@year_start_step("cold-spies")
def _cold_spies(ctx: CommandContext, report: StepReport) -> None:
    world = ctx.world
    sums: dict[str, float] = {}
    for kingdom, doc in sorted(world.all(SPECIALISTS)):
        cold = int(doc.get("cold_spy", 0))
        if cold <= 0:
            continue
        pool = _edit_pool(world, kingdom)
        pool["spy"] = int(pool["spy"]) + cold
        pool["cold_spy"] = 0
        ctx.log(f"{cold} cold {'spy is' if cold == 1 else 'spies are'} active again in {_kname(world, kingdom)} "
                f"({pool['spy']} active).",
                kind=KIND, audience=kingdom_audience(kingdom), refs={"kingdom": kingdom})
        _add(sums, f"returned {kingdom}", cold)
    _secret_sums(ctx, report, "cold spies", sums)


@year_start_step("government")
def _government(ctx: CommandContext, report: StepReport) -> None:
    """Each Government infiltration cuts the target's manpower by a quarter, rounded down."""
    world = ctx.world
    sums: dict[str, float] = {}
    divisor = int(mission("infiltrate-government").params["manpower_divisor"])
    for _, effect in active_effects(world, kind="infiltration", mission="infiltrate-government"):
        target = effect["target_kingdom"]
        kingdom = world.edit("kingdoms", target)
        cut = int(kingdom["manpower"]) // divisor
        if cut <= 0:
            continue
        kingdom["manpower"] = int(kingdom["manpower"]) - cut
        ctx.log(f"{_kname(world, target)} loses {cut} manpower to a corrupt bureaucracy "
                f"({kingdom['manpower']} left).", kind=KIND, audience=_effect_audience(effect),
                refs={"target_kingdom": target})
        _add(sums, f"manpower cut {target}", cut)
    _secret_sums(ctx, report, "government infiltration", sums)


def expire_effects(ctx: CommandContext, report: StepReport) -> None:
    """Effects whose end date has come run out; their world changes are undone."""
    world = ctx.world
    today = world.date
    count = 0
    for effect_id, effect in active_effects(world):
        end = effect.get("end")
        if end is None or GameDate.from_dict(end) > today:
            continue
        if effect["kind"] in ("counterfeit",):
            continue  # settled by the counterfeit step
        province = effect.get("province")
        if effect["kind"] == "crash-market" and province:
            prov = world.edit("provinces", province)
            mods = prov.get("price_modifiers") or {}
            mods.pop(effect.get("commodity"), None)
            prov["price_modifiers"] = mods
        if effect["kind"] == "limit-trade" and province:
            prov = world.edit("provinces", province)
            prov["market_allowance"] = _num(float(prov.get("market_allowance", 0))
                                            - float(effect["data"].get("market_allowance", 0)))
        _end_effect(world, effect_id, "expired")
        count += 1
        label = effect["kind"].replace("-", " ")
        where = f" in {world.display_name('provinces', province)}" if province else ""
        ctx.log(f"Your {label}{where} against {_kname(world, effect['target_kingdom'])} has run its course.",
                kind=KIND, audience=_holder_audience(effect), refs={"effect": effect_id})
        if effect.get("known_to_target"):
            ctx.log(f"The {label}{where} has run its course.", kind=KIND,
                    audience=kingdom_audience(effect["target_kingdom"]), refs={"effect": effect_id})
    if count:
        _secret_sums(ctx, report, "espionage effects expired", {"expired": count})


year_start_step("expiries")(expire_effects)


@season_start_step("Espionage effects run out")
def _season_expiries(ctx: CommandContext, report: StepReport) -> None:
    if not ctx.world.date.is_year_start:
        expire_effects(ctx, report)


# ================================================================ due items and board queries


@due_reporter
def _due(world: World) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for order_id, order in sorted(world.all("orders")):
        if order.get("command") != MISSION_COMMAND or order.get("status") != WAITING:
            continue
        adjudicator = str(order.get("adjudicator", "gm"))
        audience = ADJUDICATORS if adjudicator == "gm" else kingdom_audience(adjudicator.partition(":")[2])
        items.append({"kind": "order", "text": f"Private espionage order {order_id} waits for your ruling",
                      "audience": audience, "urgent": False, "order": order_id})
    for effect_id, effect in active_effects(world, kind="assassination-attempt"):
        if effect.get("status") != "pending":
            continue
        who = world.display_name("characters", effect.get("character"))
        items.append({"kind": "assassination", "urgent": True, "audience": ADJUDICATORS, "effect": effect_id,
                      "text": f"Assassination attempt {effect_id} on {who} (by {_kname(world, effect['sponsor_kingdom'])})"
                              " waits to be played out: `yak do assassination-resolve`"})
    return items


def mission_board(world: World, viewer: Identity, sponsor: str, target: str) -> list[dict[str, Any]]:
    """Every mission against `target` with its prerequisite met or missing (the board's rows).

    Odds are computed with the modifiers the viewer may know (all of them for an adjudicator)."""
    held = infiltrations_held(world, sponsor, target)
    rows = []
    stakes = Stakes.of(target, kingdoms=[sponsor, target])
    full = may_adjudicate(world, viewer, stakes).allowed
    for slug, entry in catalogue().items():
        if entry.effect == "counter-spy":
            continue
        missing = None if entry.effect == "purge" else missing_prerequisite(entry, held)
        plan = Plan(entry, Sponsor(sponsor, ("kingdoms", sponsor), kingdom_audience(sponsor), None), target)
        plan.location_province = capital_province(world, target)
        applied = spy_modifiers(modifier_inputs(world, plan, known_to_sponsor_only=not full))
        odds = mission_odds(entry, applied.success, applied.detection).to_dict()
        rows.append({"slug": slug, "name": entry.name, "family": entry.family, "cost": entry.cost,
                     "prerequisite": entry.prerequisite, "prerequisite_met": missing is None,
                     "held": slug in held, "odds": odds})
    return rows


def effects_view(world: World, viewer: Identity) -> dict[str, list[dict[str, Any]]]:
    """Effects the viewer's side holds (all fields), and those against it that it knows of
    (the sponsor named only when identified). The GM sees everything as held."""
    if viewer.is_gm:
        return {"held": [dict(e, id=i) for i, e in sorted(world.all(EFFECTS))], "suffered": []}
    kingdom = viewer_kingdom(world, viewer)
    held, suffered = [], []
    for effect_id, effect in sorted(world.all(EFFECTS)):
        mine = (viewer.is_king and effect.get("holder_kingdom") == kingdom) or (
            viewer.is_player and effect.get("holder_character") == viewer.subject)
        if mine:
            held.append({**{k: v for k, v in effect.items() if k not in HIDDEN_FIELDS[EFFECTS]}, "id": effect_id})
        elif viewer.is_king and effect.get("target_kingdom") == kingdom and effect.get("known_to_target"):
            shown = {k: effect.get(k) for k in ("kind", "mission", "target_kingdom", "province", "commodity", "start",
                                                "end", "active")}
            shown["id"] = effect_id
            shown["sponsor_kingdom"] = effect["sponsor_kingdom"] if effect.get("known_sponsor") else None
            suffered.append(shown)
    return {"held": held, "suffered": suffered}


def espionage_inbox(world: World, viewer: Identity) -> list[tuple[str, dict[str, Any]]]:
    """Waiting private espionage orders this viewer adjudicates."""
    return [(oid, o) for oid, o in queue_for(world, viewer) if o.get("command") == MISSION_COMMAND]


def pending_attempts(world: World) -> list[tuple[str, dict[str, Any]]]:
    return [(i, e) for i, e in active_effects(world, kind="assassination-attempt") if e.get("status") == "pending"]
