"""The espionage state every part of the area reads and writes (RULINGS §7): spy pools, effects,
where a target sits, the parties of an order (`Sponsor`, `Plan`) and what a mission did (`Applied`).

State (for the screens):

- `specialists.<kingdom>`: `spy`, `cold_spy`, `counter_spies {provinces: [...], nation: n}`.
- `effects.<id>`: `kind`, `mission`, `sponsor_kingdom`, `target_kingdom`, `province?`,
  `commodity?`, `character?`, `data`, `start`, `end` (date or null), `due?`, `holder_kingdom`
  (the sponsor, for the audience filter), `holder_character?` (the filing player),
  `known_to_target`, `known_sponsor`, `active`. The kinds of effect a mission writes are
  named in `effects.py` and written by its `MissionKind` (`kinds.py`).
- `provinces.<id>.price_modifiers {commodity: ±increments}` while a crashed market lasts.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from yak_tui.areas.espionage.effects import INFILTRATION, SMUGGLING_RING
from yak_tui.areas.espionage.missions import Mission, SpyOutcome
from yak_tui.kernel.play.audience import character_audience, kingdom_audience
from yak_tui.kernel.play.commands import CommandContext, CommandError
from yak_tui.kernel.play.dice import Modifier
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import table

EFFECTS = "effects"
SPECIALISTS = "specialists"
MISSION_COMMAND = "spy-mission"
KIND = "espionage"

# The extra (tables/espionage.toml) an assassin's `poison` field buys.
POISON_EXTRA = "poison"


# ================================================================ state helpers


def seasons_per_year() -> int:
    return len(table("core")["calendar"]["seasons"])


def spy_pool(world: World, kingdom: str) -> dict[str, Any]:
    """The kingdom's spies as stored, with defaults (read only)."""
    doc = world.find(SPECIALISTS, kingdom) or {}
    counter = doc.get("counter_spies") or {}
    return {
        "spy": int(doc.get("spy", 0)),
        "cold_spy": int(doc.get("cold_spy", 0)),
        "counter_spies": {"provinces": list(counter.get("provinces", [])), "nation": int(counter.get("nation", 0))},
    }


def edit_pool(world: World, kingdom: str) -> dict[str, Any]:
    if world.find(SPECIALISTS, kingdom) is None:
        world.put(
            SPECIALISTS,
            kingdom,
            {
                "kingdom": kingdom,
                "engineer": 0,
                "spy": 0,
                "missionary": 0,
                "sailor": 0,
                "cold_spy": 0,
                "counter_spies": {"provinces": [], "nation": 0},
            },
        )
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
    return {
        str(e["mission"])
        for _, e in active_effects(world, kind=INFILTRATION, sponsor_kingdom=sponsor, target_kingdom=target)
    }


def smuggling_rings(world: World, province: str | None) -> list[dict[str, Any]]:
    """The smuggling rings active in `province` (at most one per sponsor)."""
    return [ring for _, ring in active_effects(world, kind=SMUGGLING_RING, province=province)] if province else []


def smuggling_bonus(world: World, province: str | None, kingdom: str | None, *, known_to: str | None = None) -> int:
    """Establish Smuggling Ring: "+2 to player merchant smuggling efforts". Ruling: the ring is
    the sponsor's network, so it helps the merchants of the sponsoring kingdom in its province
    (a merchant of another kingdom is not helped, and so learns nothing of a secret ring).
    `known_to` (a player's character): only a ring his own mission set up, the one he may know of."""
    rings = [
        ring
        for ring in smuggling_rings(world, province)
        if kingdom
        and ring["sponsor_kingdom"] == kingdom
        and (known_to is None or ring.get("holder_character") == known_to)
    ]
    return max((int(ring["data"].get("merchant_smuggling_bonus", 0)) for ring in rings), default=0)


def npc_sales_tax_divisor(world: World, province: str | None) -> int:
    """Establish Smuggling Ring: "NPC sales tax halved" in its province (rings do not stack)."""
    return max(
        (int(ring["data"].get("npc_sales_tax_divisor", 1)) for ring in smuggling_rings(world, province)), default=1
    )


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


def is_port(pc: dict[str, Any]) -> bool:
    return pc.get("kind") == "port" or bool(pc.get("port_access"))


def unit_in_port(world: World, unit: dict[str, Any]) -> bool:
    inside = world.find("pcs", unit.get("inside"))
    if inside is not None and is_port(inside):
        return True
    found = _pc_at(world, unit.get("hex", []))
    return found is not None and is_port(found[1])


def character_province(world: World, character: dict[str, Any]) -> str | None:
    pc = world.find("pcs", character.get("location"))
    return None if pc is None else str(pc["province"])


def province_pcs(world: World, province: str) -> list[tuple[str, dict[str, Any]]]:
    return sorted(
        ((pid, pc) for pid, pc in world.all("pcs") if pc.get("province") == province),
        key=lambda item: (int(item[1].get("fort_level", 0)), item[0]),
    )


def next_year_start(date: GameDate) -> GameDate:
    return GameDate(date.year + 1, 0)


def kingdom_name(world: World, kingdom: str | None) -> str:
    return world.display_name("kingdoms", kingdom)


def short_kingdom(world: World, kingdom: str | None) -> str:
    """ "Varos" for "Kingdom of Varos" (narrow cells)."""
    name = world.display_name("kingdoms", kingdom)
    head, sep, tail = name.partition(" of ")
    return tail if sep and head in ("Kingdom", "Principality", "Empire", "Duchy", "County", "Realm") else name


def date_label(value: Any) -> str:
    if isinstance(value, Mapping) and "year" in value:
        return GameDate.from_dict(dict(value)).label()
    return ""


def sponsor_name(world: World, sponsor: Sponsor) -> str:
    """Who ordered an operation, as an identified operation names him: the filing player (of his
    kingdom) or the sponsoring kingdom."""
    if sponsor.character:
        return f"{world.display_name('characters', sponsor.character)} of {kingdom_name(world, sponsor.kingdom)}"
    return kingdom_name(world, sponsor.kingdom)


def effect_sponsor_name(world: World, effect: dict[str, Any]) -> str:
    """`sponsor_name` for a stored effect (its holder character, if a player holds it)."""
    character = effect.get("holder_character")
    name = kingdom_name(world, effect.get("sponsor_kingdom"))
    return f"{world.display_name('characters', character)} of {name}" if character else name


# ================================================================ an order's parties and plan


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
    values: dict[str, Any] = field(default_factory=dict)  # fields taken as typed (`fields.plan_fields`)
    extras: dict[str, int] = field(default_factory=dict)
    cost: int = 0
    gm_modifiers: list[Modifier] = field(default_factory=list)

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
            raise CommandError("sponsor", f"{principal} sponsors missions for {kingdom_name(world, kingdom)} only")
        return Sponsor(kingdom, ("kingdoms", kingdom), kingdom_audience(kingdom), None)
    char = world.get("characters", principal.subject)
    kingdom = str(char.get("kingdom") or "")
    if not kingdom:
        raise CommandError("sponsor", f"{char.get('name', principal.subject)} serves no kingdom, so has no spies")
    if sponsor_param and sponsor_param != kingdom:
        raise CommandError("sponsor", f"{principal} sponsors missions for {kingdom_name(world, kingdom)} only")
    return Sponsor(kingdom, ("characters", principal.subject), character_audience(principal.subject), principal.subject)


# ================================================================ effects


def new_effect(
    ctx: CommandContext,
    plan: Plan,
    outcome: SpyOutcome,
    kind: str,
    *,
    data: dict[str, Any] | None = None,
    end: GameDate | None = None,
    **extra: Any,
) -> str:
    world = ctx.world
    effect_id = world.new_id(EFFECTS, "fx")
    doc: dict[str, Any] = {
        "kind": kind,
        "mission": plan.mission.slug,
        "sponsor_kingdom": plan.sponsor.kingdom,
        "target_kingdom": plan.target,
        "data": data or {},
        "start": world.meta["date"],
        "end": end.to_dict() if end else None,
        "holder_kingdom": plan.sponsor.kingdom,
        "known_to_target": outcome.evidence in ("detected", "identified"),
        "known_sponsor": outcome.evidence == "identified",
        "active": True,
    }
    if plan.sponsor.character:
        doc["holder_character"] = plan.sponsor.character
    if plan.province:
        doc["province"] = plan.province
    doc.update({k: v for k, v in extra.items() if v is not None})
    world.put(EFFECTS, effect_id, doc)
    return effect_id


def end_of_year(ctx: CommandContext) -> GameDate:
    """A year from today: how long the market effects last."""
    return ctx.world.date.plus(seasons_per_year())


@dataclass
class Applied:
    """What a mission did: told to the sponsor (`text`), the truth for the adjudicator (`secret`),
    neutral facts for the target's own holdings (`target_facts`), public facts (`public_facts`)."""

    text: str
    secret: str = ""
    target_facts: list[str] = field(default_factory=list)
    public_facts: list[str] = field(default_factory=list)
    effect: str | None = None
    truth: str = ""  # what really happened, where `text` is what the sponsor is told (a failed purge)


def holder_audience(effect: dict[str, Any]) -> str:
    if effect.get("holder_character"):
        return character_audience(effect["holder_character"])
    return kingdom_audience(effect["holder_kingdom"])


def end_effect(world: World, effect_id: str, why: str) -> None:
    doc = world.edit(EFFECTS, effect_id)
    doc["active"] = False
    doc["ended"] = world.meta["date"]
    doc["ended_by"] = why
    if doc.get("end") is None:
        doc["end"] = world.meta["date"]
