"""Fall of Rome noble commands in the world (RULINGS §8): `incite` and `usurp` (`relocate` has its own module).

The arithmetic is `rules.nobles`; this module finds the noble's title share, his kingdom's
Influence, the PC he stands in and the legions around it, spends each command's ducats from the
noble's own treasury (even on a failure), applies the outcome and writes the chronicle. It also
gives the map screen its headless view `command_targets` (`relocate` holds Relocate).

A character's `location` is a PC id, or for an Agent riding with a friendly legion the unit id
(with `legion` set to the same id); `None` once executed.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from yak_tui.areas.nobles.rules import (
    CommandRoll,
    apply_swing,
    command_cost,
    command_odds,
    controlled_resistance,
    noble_power,
    normalize_key,
    roll_command,
    swing_die_sides,
    swing_max_percent,
    title_names,
    title_share,
)
from yak_tui.kernel.play.audience import PUBLIC, character_audience, kingdom_audience
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import SEATS, CommandContext, CommandError, Param, command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.hexgrid import Hex
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import money, shown_money
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
        ctx.dice, cmd, target.base_power, target.resistance, controlled=target.controlled, **_modifiers(p)
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
