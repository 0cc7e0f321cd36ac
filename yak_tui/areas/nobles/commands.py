"""Fall of Rome noble commands in the world (RULINGS §8): `incite`, `usurp`, `relocate`.

The arithmetic is `rules.nobles`; this module finds the noble's title share, his kingdom's
Influence, the PC he stands in and the legions around it, spends each command's ducats from the
noble's own treasury (even on a failure), applies the outcome and writes the chronicle. It also
gives the map screen its headless views: `relocate_targets` and `command_targets`.

A character's `location` is a PC id, or for an Agent riding with a friendly legion the unit id
(with `legion` set to the same id); `None` once executed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from yak_tui.areas.nobles.rules import (
    CommandRoll,
    RelocateCheck,
    apply_swing,
    command_cost,
    command_odds,
    controlled_resistance,
    discovery_chance,
    discovery_odds,
    noble_power,
    normalize_key,
    relocate_check,
    relocate_discovery,
    relocate_range,
    roll_command,
    strongest_counter_spy,
    swing_die_sides,
    swing_max_percent,
    title_names,
    title_share,
)
from yak_tui.kernel.play.audience import ADJUDICATORS, PUBLIC, character_audience, kingdom_audience
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import SEATS, CommandContext, CommandError, Param, command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.hexgrid import Hex, hex_distance, hexes_within
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import money, shown_money
from yak_tui.kernel.world.numbers import NumberError, parse_whole, shown
from yak_tui.kernel.world.tables import table

DIGITS = 6
HIGH_PRIESTESS = "high_priestess"
AGENT = "agent"
FLEET_KINDS = ("ship",)


def _p(value: Fraction) -> float:
    return round(float(value), DIGITS)


# --- who may command ------------------------------------------------------------------------


def commander_kinds() -> tuple[str, ...]:
    """Nobles, Agents and the High Priestess (RULINGS §8), as the nobles table lists them."""
    return tuple(str(k) for k in table("nobles")["relocate"]["character_kinds"])


def commander_kind(char: dict[str, Any]) -> str:
    """The rules' kind of a character (`high-priestess` → `high_priestess`)."""
    return normalize_key(str(char.get("kind") or "noble"))


def commander(world: World, character_id: str, field: str = "character") -> dict[str, Any]:
    """A living noble, Agent or High Priestess of a kingdom; anything else is refused.

    Ruling: a King is not a noble (RULINGS §8 names nobles, Agents and the HP), so he gives
    no Noble Commands.
    """
    char = world.get("characters", character_id)
    name = char.get("name", character_id)
    kind = commander_kind(char)
    if kind not in commander_kinds():
        who = ", ".join(k.replace("_", " ") for k in commander_kinds())
        raise CommandError(field, f"{name} is a {char.get('kind')}; noble commands are for: {who}")
    if not char.get("alive", True):
        raise CommandError(field, f"{name} is dead")
    if not char.get("kingdom"):
        raise CommandError(field, f"{name} serves no kingdom")
    share_of(char, field)
    return char


def share_of(char: dict[str, Any], field: str = "character") -> int:
    """The title's share of the king's Influence (nobles table)."""
    try:
        return title_share(str(char.get("title", "")))
    except ValueError:
        raise CommandError(
            field,
            f"{char.get('name')} has the title {char.get('title')!r}, not a court title ({', '.join(title_names())})",
        ) from None


def base_power(world: World, char: dict[str, Any]) -> float:
    """share × the kingdom's Influence, before the day swing."""
    kingdom = world.get("kingdoms", str(char["kingdom"]))
    return noble_power(share_of(char), kingdom.get("influence", 0))


def private_audience(char_id: str, char: dict[str, Any]) -> str:
    """A character's whereabouts are private to his kingdom (or himself if he has none)."""
    kingdom = char.get("kingdom")
    return kingdom_audience(kingdom) if kingdom else character_audience(char_id)


def character_hex(world: World, char: dict[str, Any]) -> Hex | None:
    """Where a character stands: his PC's hex, or the hex of the legion he rides with."""
    location = char.get("location")
    pc = world.find("pcs", location)
    if pc is not None:
        return Hex(int(pc["hex"][0]), int(pc["hex"][1]))
    unit = world.find("units", char.get("legion") or location)
    if unit is not None:
        return Hex(int(unit["hex"][0]), int(unit["hex"][1]))
    return None


def pc_at(world: World, h: Hex) -> tuple[str, dict[str, Any]] | None:
    """The PC in a hex (the first by id if a hex ever holds two)."""
    for pc_id, pc in sorted(world.all("pcs")):
        if Hex(int(pc["hex"][0]), int(pc["hex"][1])) == h:
            return pc_id, pc
    return None


def legions_at(world: World, h: Hex) -> list[tuple[str, dict[str, Any]]]:
    """Land units in a hex. Ruling: a fleet (kind "ship") is not a legion."""
    return [
        (uid, u)
        for uid, u in sorted(world.all("units"))
        if u.get("kind") not in FLEET_KINDS and Hex(int(u["hex"][0]), int(u["hex"][1])) == h
    ]


# --- Incite Rebellion and Usurp Control -----------------------------------------------------


@dataclass(frozen=True)
class CommandTarget:
    """A noble and the PC he stands in, checked for one command."""

    command: str
    character: str
    pc: str
    controller: str | None
    controlled: bool
    base_power: float
    resistance: float
    cost: int


def command_target(world: World, character_id: str, cmd: str, pc: str | None = None) -> CommandTarget:
    """Check an Incite or Usurp order; CommandError names the field and the reason."""
    char = commander(world, character_id, "noble")
    name = char.get("name", character_id)
    location = char.get("location")
    here = world.find("pcs", location)
    if here is None:
        where = "nowhere" if location is None else f"with {world.display_name('units', location)}"
        raise CommandError(
            "noble",
            f"{name} is {where}, not in a PC; noble commands act on the PC the noble is in (relocate him first)",
        )
    if pc is not None and pc != location:
        raise CommandError(
            "pc",
            f"{name} is in {here['name']}, not {world.display_name('pcs', pc)}; "
            "noble commands act on the PC the noble is in",
        )
    own = char["kingdom"]
    controller = here.get("controller")
    if controller == own:
        raise CommandError("pc", f"{here['name']} is already controlled by {name}'s own kingdom")
    if cmd == "incite" and controller is None:
        raise CommandError(
            "pc",
            f"{here['name']} is neutral; Incite Rebellion needs a PC another "
            "kingdom controls (use usurp to take a neutral PC)",
        )
    return CommandTarget(
        cmd,
        character_id,
        str(location),
        controller,
        controller is not None and cmd == "usurp",
        base_power(world, char),
        float(here.get("resistance", 0)),
        command_cost(cmd),
    )


def _modifiers(p: dict[str, Any]) -> dict[str, Any]:
    return {
        "modifier": p.get("modifier") or 0.0,
        "resistance_modifier": p.get("resistance_modifier") or 0.0,
        "swing": bool(p.get("swing", True)),
    }


def command_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    """Location: the PC's controller; parties: the noble's kingdom, the controller, the noble."""
    char = world.get("characters", p["noble"])
    pc = world.find("pcs", char.get("location"))
    controller = pc.get("controller") if pc else None
    return Stakes.of(controller, kingdoms=[char.get("kingdom"), controller], characters=[p["noble"]])


def _odds_of(target: CommandTarget, p: dict[str, Any]) -> dict[str, Any]:
    probs = command_odds(
        target.command, target.base_power, target.resistance, controlled=target.controlled, **_modifiers(p)
    )
    return {
        "odds": {k: _p(v) for k, v in probs.items()},
        "success": _p(probs["success"]),
        "pc": target.pc,
        "power": money(target.base_power),
        "resistance": money(target.resistance),
        "controlled": target.controlled,
        "cost": target.cost,
    }


def _command_params(cmd: str) -> dict[str, Param]:
    return {
        "noble": Param(str, ref="characters", help="the noble, Agent or High Priestess giving it"),
        "pc": Param(str, required=False, ref="pcs", help="the PC he is in (checked, optional)"),
        "modifier": Param(float, required=False, default=0.0, help="GM modifier to Power", by_adjudicator=True),
        "resistance_modifier": Param(
            float,
            required=False,
            default=0.0,
            help="GM modifier to PC Resistance" + (" (after the doubling)" if cmd == "usurp" else ""),
            by_adjudicator=True,
        ),
        "reason": Param(str, required=False, default="", help="why the GM modifiers apply", by_adjudicator=True),
        "swing": Param(
            bool,
            required=False,
            default=True,
            help=lambda: f"roll the ±{swing_max_percent()}% day swing",
            by_adjudicator=True,
        ),
    }


def _run_command(ctx: CommandContext, p: dict[str, Any], cmd: str) -> dict[str, Any]:
    world = ctx.world
    target = command_target(world, p["noble"], cmd, p.get("pc"))
    char = world.get("characters", target.character)
    name = str(char.get("name", target.character))
    pc_name = world.display_name("pcs", target.pc)
    ctx.require_adjudicator(command_stakes(world, ctx.identity, p))
    ctx.require_acts_for(kingdom=char["kingdom"], character=target.character)
    label = "Incite Rebellion" if cmd == "incite" else "Usurp Control"
    # Spent even when the command fails (RULINGS §8); refused here if he cannot pay.
    ctx.move_ducats(
        ("characters", target.character),
        None,
        target.cost,
        f"{label} in {pc_name}",
        audience=kingdom_audience(char["kingdom"]),
    )

    rolled: CommandRoll = roll_command(
        ctx.dice_for(), cmd, target.base_power, target.resistance, controlled=target.controlled, **_modifiers(p)
    )
    outcome = rolled.outcome
    swing = rolled.swing
    reason = (p.get("reason") or "").strip() or "GM modifier"
    record = ctx.record_roll(
        f"{label} in {pc_name}: day swing",
        [swing.natural] if swing else [],
        swing.percent if swing else 0,
        outcome.outcome,
        [],
        outcome=outcome.outcome,
        reading=_command_reading(rolled),
    )

    edited_pc = world.edit("pcs", target.pc)
    edited_char = world.edit("characters", target.character)
    own = str(char["kingdom"])
    if outcome.outcome == "success":
        edited_pc["controller"] = None if cmd == "incite" else own
        effect = (
            f"{pc_name} rises and becomes neutral"
            if cmd == "incite"
            else f"{pc_name} passes to {world.display_name('kingdoms', own)}"
        )
    elif outcome.outcome == "evicted":
        capital = world.find("kingdoms", own) or {}
        edited_char["location"] = capital.get("capital")
        edited_char.pop("legion", None)
        effect = f"{name} is evicted to {world.display_name('pcs', capital.get('capital'))}"
    elif outcome.outcome == "executed":
        edited_char.update({"alive": False, "location": None})
        edited_char.pop("legion", None)
        effect = f"{name} is executed by the outraged citizens"
    else:
        effect = "the order fails"

    swing_text = f" (day swing {swing.percent:+d}%)" if swing else " (no day swing)"
    power_mod = f" {outcome.power_modifier:+g} {reason}" if outcome.power_modifier else ""
    doubled = " doubled" if target.controlled else ""
    res_mod = f" {outcome.resistance_modifier:+g} {reason}" if outcome.resistance_modifier else ""
    text = (
        f"{name} ({char.get('title')} of {world.display_name('kingdoms', own)}) orders {label} in "
        f"{pc_name}: Power {money(outcome.power)}{swing_text}{power_mod} against Resistance "
        f"{money(outcome.resistance)}{doubled}{res_mod}: {outcome.outcome}, {effect}."
    )
    entry = ctx.log(
        text,
        kind="noble-command",
        audience=PUBLIC,
        rolls=[record],
        refs={
            "character": target.character,
            "kingdom": own,
            "pc": target.pc,
            "target_kingdom": target.controller,
            "command": cmd,
        },
    )
    return {
        "noble": target.character,
        "pc": target.pc,
        "command": cmd,
        "base_power": money(target.base_power),
        "swing": swing.percent if swing else None,
        "swing_natural": swing.natural if swing else None,
        "power": money(outcome.power),
        "resistance": money(outcome.resistance),
        "outcome": outcome.outcome,
        "margin": money(outcome.margin),
        "controller": edited_pc.get("controller"),
        "location": edited_char.get("location"),
        "alive": edited_char.get("alive"),
        "cost": target.cost,
        "entry": entry["id"],
        "outcome_text": f"{outcome.outcome}: {effect}",
    }


def _incite_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    return _odds_of(command_target(world, p["noble"], "incite", p.get("pc")), p)


def _usurp_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    return _odds_of(command_target(world, p["noble"], "usurp", p.get("pc")), p)


@command(
    "incite",
    "Incite Rebellion in the PC the noble is in (another kingdom's): neutral on a "
    "success; eviction or execution on a large failure.",
    _command_params("incite"),
    category="nobles",
    odds=_incite_odds,
    stakes=command_stakes,
    rolls=True,
    filed_by=SEATS,
)
def incite(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    return _run_command(ctx, p, "incite")


@command(
    "usurp",
    lambda: (
        "Usurp Control of the PC the noble is in (neutral, or another kingdom's with "
        f"{controlled_resistance()} Resistance): his kingdom takes it on a success."
    ),
    _command_params("usurp"),
    category="nobles",
    odds=_usurp_odds,
    stakes=command_stakes,
    rolls=True,
    filed_by=SEATS,
)
def usurp(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    return _run_command(ctx, p, "usurp")


def command_targets(world: World, character_id: str) -> dict[str, Any]:
    """Incite and Usurp as the map shows them for the PC the character is in.

    `{"character", "pc", "incite": {...}, "usurp": {...}}`; each command is
    `{"ok": True, "odds": {outcome: p}, "success": p, "power", "resistance", "controlled", "cost"}`
    or `{"ok": False, "reason": "..."}`.
    """
    char = world.get("characters", character_id)
    pc = char.get("location") if world.find("pcs", char.get("location")) else None
    out: dict[str, Any] = {"character": character_id, "pc": pc}
    for cmd in ("incite", "usurp"):
        try:
            out[cmd] = {"ok": True, **_odds_of(command_target(world, character_id, cmd), {})}
        except CommandError as error:
            out[cmd] = {"ok": False, "reason": error.reason}
    return out


# --- Relocate -------------------------------------------------------------------------------


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


def _command_reading(rolled: CommandRoll) -> str:
    """Incite or Usurp as a reader checks it: the swing die, Power after it, against Resistance."""
    outcome = rolled.outcome
    if rolled.swing is None:
        swing = f"no day swing; Power {shown_money(rolled.base_power)}"
    else:
        n, pct = rolled.swing.natural, rolled.swing.percent
        swung = apply_swing(rolled.base_power, pct)
        swing = (
            f"d{swing_die_sides()} rolled {n}: day swing {n} - {swing_max_percent() + 1} = {pct:+d}%; "
            f"Power {shown_money(rolled.base_power)} {pct:+d}% = {shown_money(swung)}"
        )
    if outcome.power_modifier:
        swing += f" {outcome.power_modifier:+g} = {shown_money(outcome.power)}"
    resistance = shown_money(outcome.base_resistance)
    if outcome.resistance_multiplier != 1:
        resistance += f" x{outcome.resistance_multiplier}"
    if outcome.resistance_modifier:
        resistance += f" {outcome.resistance_modifier:+g}"
    if resistance != shown_money(outcome.resistance):
        resistance += f" = {shown_money(outcome.resistance)}"
    return f"{swing} against Resistance {resistance} → {outcome.outcome}"


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
        roll = relocate_discovery(ctx.dice_for(ADJUDICATORS), plan.discovery_chance)
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
