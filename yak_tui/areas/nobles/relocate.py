"""Relocate (RULINGS §8): a noble, Agent or High Priestess moves to a hex, a PC or a friendly legion.

The checks are `rules.nobles`; this module plans the move (range, a PC to stand in, legions in the
way), spends its ducats from the mover's own treasury, rolls the chance that the target PC's ruler
learns of it, and writes the chronicle. `relocate_targets` gives the map screen the reachable places."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from yak_tui.areas.nobles.commands import (
    FLEET_KINDS,
    HIGH_PRIESTESS,
    _p,
    character_hex,
    commander,
    commander_kind,
    legions_at,
    pc_at,
    private_audience,
)
from yak_tui.areas.nobles.rules import (
    RelocateCheck,
    command_cost,
    discovery_chance,
    discovery_odds,
    relocate_check,
    relocate_discovery,
    relocate_range,
    strongest_counter_spy,
)
from yak_tui.kernel.play.audience import ADJUDICATORS, kingdom_audience
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import SEATS, CommandContext, CommandError, Param, command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.hexgrid import Hex, hex_distance, hexes_within
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.numbers import NumberError, parse_whole, shown
from yak_tui.kernel.world.tables import table


def parse_hex(text: str) -> Hex:
    """`5,3`, `5 3` or `[5, 3]` → Hex(5, 3)."""
    numbers = re.findall(r"-?\d+", text)
    if len(numbers) != 2 or re.sub(r"[-\d\s,\[\]()]", "", text):
        raise CommandError("hex", f"{text!r} is not a hex; write q,r such as 5,3")
    try:
        return Hex(parse_whole(numbers[0]), parse_whole(numbers[1]))
    except NumberError as error:
        raise CommandError("hex", f"{shown(text)}: a coordinate {error}") from None


@dataclass(frozen=True)
class RelocatePlan:
    """A checked Relocate order: where from and to, what the rules say, who might learn of it."""

    character: str
    kind: str
    origin: Hex
    target: Hex
    distance: int
    pc: str | None
    legion: str | None
    controller: str | None
    check: RelocateCheck
    cost: int
    discovery_chance: int | None  # None: no roll (own or neutral PC, a legion, or a failure)
    counter_spy: str | None


def counter_spy_of(world: World, owner: str, pc: dict[str, Any]) -> str | None:
    """The owner's strongest counter-spy for this PC: "province", "nation" or None."""
    doc = world.find("specialists", owner)
    if doc is None:
        found = world.where("specialists", kingdom=owner)
        doc = found[0][1] if found else {}
    spies = doc.get("counter_spies") or {}
    in_province = pc.get("province") in (spies.get("provinces") or [])
    return strongest_counter_spy(in_province, bool(spies.get("nation")))


def _who(char: dict[str, Any]) -> str:
    return "High Priestess" if commander_kind(char) == HIGH_PRIESTESS else str(char.get("title"))


def _status(char: dict[str, Any]) -> str:
    return str(char.get("status") or "fresh")


def _blocking_sizes(world: World, h: Hex, own: str) -> list[str]:
    return [str(u["size"]) for _, u in legions_at(world, h) if u.get("owner") != own]


def relocate_plan(
    world: World, character_id: str, hex_text: str | None = None, pc: str | None = None, legion: str | None = None
) -> RelocatePlan:
    """Check a Relocate order. Refusals (CommandError) change nothing; a plan whose check is not
    ok (`no-pc`, `blocked`) is an order that fails with its cost spent."""
    char = commander(world, character_id)
    name = char.get("name", character_id)
    own = str(char["kingdom"])
    kind = commander_kind(char)
    origin = character_hex(world, char)
    if origin is None:
        raise CommandError("character", f"{name} has no location to relocate from")
    given = [n for n, v in (("hex", hex_text), ("pc", pc), ("legion", legion)) if v]
    if len(given) != 1:
        raise CommandError("hex", "give exactly one target: hex=q,r, pc=<id> or legion=<unit id>")
    target_pc: str | None = None
    unit_id: str | None = None
    if legion:
        unit = world.get("units", legion)
        if unit.get("kind") in FLEET_KINDS:
            raise CommandError("legion", f"{unit['name']} is a fleet, not a legion")
        if unit.get("owner") != own:
            raise CommandError(
                "legion",
                f"{unit['name']} belongs to "
                f"{world.display_name('kingdoms', unit.get('owner'))}; "
                "an Agent relocates only onto a friendly legion",
            )
        unit_id = legion
        target = Hex(int(unit["hex"][0]), int(unit["hex"][1]))
    elif pc:
        doc = world.get("pcs", pc)
        target_pc = pc
        target = Hex(int(doc["hex"][0]), int(doc["hex"][1]))
    else:
        target = parse_hex(str(hex_text))
        found = pc_at(world, target)
        target_pc = found[0] if found else None
    here = (unit_id is not None and unit_id == char.get("legion")) or (
        unit_id is None and target_pc is not None and target_pc == char.get("location")
    )
    if here:
        raise CommandError(given[0], f"{name} is already there")
    distance = hex_distance(origin, target)
    try:
        check = relocate_check(
            distance,
            target_pc is not None,
            [] if unit_id else _blocking_sizes(world, target, own),
            unit_id is not None,
            kind,
            _status(char),
        )
    except ValueError as error:
        raise CommandError("character", str(error)) from None
    if check.refused:
        field = "character" if check.reason == _status(char) else given[0]
        raise CommandError(field, f"{name}: {check.message}")
    controller = world.get("pcs", target_pc).get("controller") if target_pc else None
    chance: int | None = None
    counter_spy: str | None = None
    if check.ok and unit_id is None and target_pc is not None and controller not in (None, own):
        counter_spy = counter_spy_of(world, str(controller), world.get("pcs", target_pc))
        chance = discovery_chance(_who(char), counter_spy)
    return RelocatePlan(
        character_id,
        kind,
        origin,
        target,
        distance,
        target_pc,
        unit_id,
        controller,
        check,
        command_cost("relocate"),
        chance,
        counter_spy,
    )


def relocate_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    """Location: the target PC's controller (none for an empty hex); party: the mover's kingdom.

    Ruling: when that controller is another kingdom he is a party too, since the discovery roll
    decides what he learns; so he never adjudicates (or sees queued) a move onto his own PC.
    """
    char = world.get("characters", p["character"])
    controller: str | None = None
    if p.get("pc"):
        controller = world.get("pcs", p["pc"]).get("controller")
    elif p.get("hex"):
        found = pc_at(world, parse_hex(p["hex"]))
        controller = found[1].get("controller") if found else None
    elif p.get("legion"):
        unit = world.get("units", p["legion"])
        found = pc_at(world, Hex(int(unit["hex"][0]), int(unit["hex"][1])))
        controller = found[1].get("controller") if found else None
    own = char.get("kingdom")
    owner = controller if controller not in (None, own) else None
    return Stakes.of(controller, kingdoms=[own, owner], characters=[p["character"]])


def _plan_from(world: World, p: dict[str, Any]) -> RelocatePlan:
    return relocate_plan(world, p["character"], p.get("hex") or None, p.get("pc") or None, p.get("legion") or None)


def _relocate_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    plan = _plan_from(world, p)
    out: dict[str, Any] = {
        "reason": plan.check.reason,
        "message": plan.check.message,
        "distance": plan.distance,
        "cost": plan.cost,
        "discovery_chance": plan.discovery_chance,
    }
    if plan.discovery_chance is not None:
        found = discovery_odds(plan.discovery_chance)
        out["odds"] = {"discovered": _p(found), "undiscovered": _p(1 - found)}
        out["discovered"] = _p(found)
    else:
        out["odds"] = {"discovered": 0.0, "undiscovered": 1.0}
    return out


@command(
    "relocate",
    lambda: (
        f"Relocate a noble, Agent or High Priestess up to {relocate_range()} hexes: to a PC (hex or pc), "
        "or an Agent onto a friendly legion; a PC of another kingdom may learn of it."
    ),
    {
        "character": Param(str, ref="characters", help="the noble, Agent or High Priestess"),
        "hex": Param(str, required=False, help="target hex q,r (a hex without a PC fails, cost spent)"),
        "pc": Param(str, required=False, ref="pcs", help="target PC"),
        "legion": Param(str, required=False, ref="units", help="a friendly legion (Agents only)"),
    },
    category="nobles",
    filed_by=SEATS,
    odds=_relocate_odds,
    stakes=relocate_stakes,
    rolls=True,
)
def relocate(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    plan = _plan_from(world, p)
    char = world.get("characters", plan.character)
    name = str(char.get("name", plan.character))
    own = str(char["kingdom"])
    ctx.require_adjudicator(relocate_stakes(world, ctx.identity, p))
    ctx.require_acts_for(kingdom=own, character=plan.character)
    private = private_audience(plan.character, char)
    origin_name = _place_name(world, char.get("legion") or char.get("location"))
    target_name = (
        world.display_name("units", plan.legion)
        if plan.legion
        else world.display_name("pcs", plan.pc)
        if plan.pc
        else f"hex {plan.target.q},{plan.target.r}"
    )
    # Spent on an empty hex or a blocked move too (RULINGS §8); refused if he cannot pay.
    ctx.move_ducats(("characters", plan.character), None, plan.cost, f"Relocate to {target_name}", audience=private)
    refs = {"character": plan.character, "kingdom": own, "hex": list(plan.target), "pc": plan.pc, "legion": plan.legion}
    discovery: dict[str, Any] | None = None
    if not plan.check.ok:
        why = "there is no PC in that hex" if plan.check.reason == "no-pc" else plan.check.message
        entry = ctx.log(
            f"{name}'s relocation from {origin_name} to {target_name} fails: {why}; its cost is spent.",
            kind="relocate",
            audience=private,
            refs=refs,
        )
        return {
            "character": plan.character,
            "outcome": "failed",
            "reason": plan.check.reason,
            "message": plan.check.message,
            "location": char.get("location"),
            "cost": plan.cost,
            "discovery": None,
            "entry": entry["id"],
            "outcome_text": f"failed: {plan.check.message}",
        }

    edited = world.edit("characters", plan.character)
    if plan.legion:
        edited["location"] = plan.legion
        edited["legion"] = plan.legion
    else:
        edited["location"] = plan.pc
        edited.pop("legion", None)
    entry = ctx.log(
        f"{name} relocates from {origin_name} to {target_name}.", kind="relocate", audience=private, refs=refs
    )
    if plan.discovery_chance is not None and plan.controller is not None:
        roll = relocate_discovery(ctx.dice, plan.discovery_chance)
        verdict = "discovered" if roll.discovered else "unnoticed"
        spy = {"nation": ", with a nation-wide counter-spy", "province": ", with a counter-spy in the province"}
        reading = (
            f"d{table('nobles')['discovery']['die']} rolled {roll.natural}, discovered on {roll.chance} or less "
            f"(the {_who(char)}'s chance{spy.get(str(plan.counter_spy), '')}) → {verdict}"
        )
        record = ctx.record_roll(
            f"discovery of {name}'s relocation to {target_name}",
            [roll.natural],
            roll.natural,
            verdict,
            [],
            audience=ADJUDICATORS,
            outcome=verdict,
            reading=reading,
        )
        ctx.log(
            f"Discovery roll for {name}'s relocation to {target_name}: d100 {roll.natural} against "
            f"{roll.chance}%: {verdict}.",
            kind="discovery-roll",
            audience=ADJUDICATORS,
            rolls=[record],
            refs={**refs, "target_kingdom": plan.controller},
        )
        if roll.discovered:
            ctx.log(
                f"{world.display_name('kingdoms', plan.controller)} learns that {name} "
                f"({char.get('title')} of {world.display_name('kingdoms', own)}) has relocated to "
                f"{target_name}.",
                kind="discovery",
                audience=kingdom_audience(plan.controller),
                refs={"character": plan.character, "pc": plan.pc, "kingdom": plan.controller, "target_kingdom": own},
            )
        discovery = {
            "chance": roll.chance,
            "natural": roll.natural,
            "discovered": roll.discovered,
            "counter_spy": plan.counter_spy,
        }
    return {
        "character": plan.character,
        "outcome": "relocated",
        "reason": plan.check.reason,
        "message": plan.check.message,
        "location": edited["location"],
        "hex": list(plan.target),
        "cost": plan.cost,
        "discovery": discovery,
        "entry": entry["id"],
        "outcome_text": f"relocated to {target_name}",
    }


def _place_name(world: World, location: str | None) -> str:
    if location is None:
        return "nowhere"
    if world.find("pcs", location):
        return world.display_name("pcs", location)
    return world.display_name("units", location)


def relocate_targets(world: World, character_id: str) -> list[dict[str, Any]]:
    """Every hex within Relocate range of the character, as the map highlights it.

    Each item: `{"hex": [q, r], "distance", "pc": id|None, "controller", "ok", "reason",
    "message", "cost_spent", "legions": [friendly legion ids an Agent may join],
    "discovery_chance": int|None}`. `reason` is the rules' ("ok", "no-pc", "blocked",
    "out-of-range", a refused status), or "here" for where he stands. The GM's truth: hidden
    legions and PCs are shown; a player's screen filters what he may not know.
    """
    char = commander(world, character_id)
    own = str(char["kingdom"])
    kind = commander_kind(char)
    origin = character_hex(world, char)
    if origin is None:
        return []
    out: list[dict[str, Any]] = []
    for h in hexes_within(origin, relocate_range()):
        found = pc_at(world, h)
        pc_id = found[0] if found else None
        controller = found[1].get("controller") if found else None
        distance = hex_distance(origin, h)
        check = relocate_check(distance, found is not None, _blocking_sizes(world, h, own), False, kind, _status(char))
        friendly = [uid for uid, u in legions_at(world, h) if u.get("owner") == own and uid != char.get("legion")]
        legions = friendly if kind in table("nobles")["relocate"]["legion_kinds"] and not check.refused else []
        reason, message, ok = check.reason, check.message, check.ok
        if pc_id is not None and pc_id == char.get("location"):
            reason, message, ok = "here", f"{char.get('name')} is already there", False
        chance = None
        if ok and controller not in (None, own) and found is not None:
            chance = discovery_chance(_who(char), counter_spy_of(world, str(controller), found[1]))
        out.append(
            {
                "hex": [h.q, h.r],
                "distance": distance,
                "pc": pc_id,
                "controller": controller,
                "ok": ok,
                "reason": reason,
                "message": message,
                "cost_spent": check.cost_spent,
                "legions": legions,
                "discovery_chance": chance,
            }
        )
    return out
