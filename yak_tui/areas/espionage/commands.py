"""Espionage commands (RULINGS §7): NPC spy missions run by the GM (`operation.run_mission`),
private orders filed and resolved by their adjudicator, counter-spies stationed, assassination
attempts played out; and the due items of the adjudicator's queue.

Rulings where RULINGS §7 is silent are listed in `RULINGS_MADE` below.
"""

from __future__ import annotations

from typing import Any

import orjson

from yak_tui.areas.espionage.effects import ASSASSINATION_ATTEMPT
from yak_tui.areas.espionage.fields import mission_params
from yak_tui.areas.espionage.operation import run_mission
from yak_tui.areas.espionage.planning import (
    GM_PARAMS,
    _order_odds,
    adjudicated_mission_odds,
    mission_odds_for,
    mission_stakes,
)
from yak_tui.areas.espionage.state import (
    EFFECTS,
    KIND,
    MISSION_COMMAND,
    active_effects,
    edit_pool,
    effect_sponsor_name,
    holder_audience,
    kingdom_name,
)
from yak_tui.kernel.play.audience import ADJUDICATORS, PUBLIC, character_audience, kingdom_audience
from yak_tui.kernel.play.commands import (
    COMMANDS,
    KING,
    SEATS,
    CommandContext,
    CommandError,
    Param,
    audience_param,
    command,
)
from yak_tui.kernel.play.fairdice import for_order
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.orders import _waiting_order, describe_order, order_audience, order_file
from yak_tui.kernel.play.params import coerce_params
from yak_tui.kernel.season.seasons import due_reporter
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import table

RULINGS_MADE = (
    "A King's mission is paid from the kingdom treasury; a player's private mission from his own "
    "purse. The spy always comes from the sponsoring kingdom's pool.",
    "A mission without a province, unit or character target (infiltrations, embezzlement, "
    "counterfeit, killing specialists...) happens in the target's capital province: a province "
    "counter-spy there guards it ('spies stationed in the capital protect against infiltrations'); the "
    'table\'s counter_spy.capital_guards = "infiltrations" keeps it to infiltrations only.',
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
    "Limit Trade stacks and persists (the seed gives it no duration and bars only Crash Commodity "
    "Market from repeating); its -10 never takes an allowance below 0. A table duration_seasons "
    "makes it wear off, and the amount taken is restored then.",
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
    "A player's mission spends a spy of his kingdom: its King is told who used it and whether it comes "
    "back, not the mission or target. Theft income paid into the kingdom treasury is told to the King.",
    "An identified operation names its perpetrator: the player who ordered it (of his kingdom), or the "
    "sponsoring kingdom when its King did.",
    "Year-start sums of espionage effects are secret: each step writes an adjudicators entry with "
    "its sums (the public step line does not show them).",
    "RULINGS §1: a player who is not his kingdom's King is never refused, nor shown odds, on his kingdom's "
    "secret state. A mission of his whose prerequisite the kingdom lacks, or for which it has no free spy "
    "(or whose ring would double one already running), is not attempted: it fails at resolution, nothing "
    "is spent, and he alone is told why.",
)


MISSION_PARAMS = mission_params()


@command(
    MISSION_COMMAND,
    "An NPC espionage mission against a kingdom, rolled blind by its adjudicator (the GM).",
    {**MISSION_PARAMS, **GM_PARAMS},
    category=KIND,
    odds=mission_odds_for,
    adjudicated_odds=adjudicated_mission_odds,
    stakes=mission_stakes,
    rolls=True,
    filed_by=SEATS,
)
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


@command(
    "spy-order",
    "File an NPC espionage mission privately; it waits for its adjudicator (RULINGS §1).",
    {**MISSION_PARAMS, "note": Param(str, required=False, default="", help="a note for the adjudicator")},
    category="orders",
    odds=_order_odds,
)
def spy_order(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    if ctx.identity.is_gm:
        raise CommandError("identity", f"the GM resolves missions directly: `yak do {MISSION_COMMAND}`")
    params = _order_params(p)
    filed = order_file(
        ctx, {"command": MISSION_COMMAND, "params": orjson.dumps(params).decode(), "private": True, "note": p["note"]}
    )
    return filed or {}


@command(
    "spy-resolve",
    "Resolve a waiting espionage order blind, optionally with a GM modifier (its adjudicator).",
    {"order": Param(str, ref="orders"), **GM_PARAMS},
    category="orders",
    rolls=True,
)
def spy_resolve(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    order = _waiting_order(ctx, p["order"])
    if order["command"] != MISSION_COMMAND:
        raise CommandError(
            "order", f"the order to {describe_order(world, order)} is not an espionage mission (resolve it as an order)"
        )
    raw = dict(order["params"])
    if p["gm_modifier"]:
        raw.update(gm_modifier=p["gm_modifier"], gm_reason=p["gm_reason"])  # kept off the filer's order
    filer = Identity.parse(order["filed_by"])
    sub = CommandContext(world, ctx.identity, ctx.dice.inner, MISSION_COMMAND, principal=filer)
    try:
        with for_order(ctx.dice.inner, p["order"]):  # each derived die names the order it carries out
            data = run_mission(sub, coerce_params(COMMANDS[MISSION_COMMAND], raw, world, filer))
    except CommandError as error:
        raise CommandError(f"order.{error.field}", error.reason, error.who_may) from None
    ctx.entries.extend(sub.entries)
    ctx.rolls.extend(sub.rolls)
    ctx.adjudicator = sub.adjudicator
    edited = world.edit("orders", p["order"])
    edited.update(
        {
            "status": "resolved",
            "resolved": world.meta["date"],
            "outcome": data["outcome_text"],
            "entries": [e["id"] for e in sub.entries],
        }
    )
    ctx.log(
        f"Order to {describe_order(world, order)} resolved: {data['outcome_text']}",
        kind="order",
        audience=order_audience(order),
        refs={"order": p["order"], "character": order.get("character"), "event": "resolved"},
    )
    return {"order": p["order"], "status": "resolved", "result": data}


def _counter_spy_help() -> str:
    """The command's line, with the counter-spy's price from the loaded mission table."""
    cost = next((int(row["cost"]) for row in table("espionage")["missions"] if row.get("effect") == "counter-spy"), 0)
    return f"Station a spy as a counter-spy in a province, or nation-wide (costs {cost}d and one spy)."


@command(
    "counter-spy",
    _counter_spy_help,
    {
        "kingdom": Param(str, required=False, ref="kingdoms", help="your kingdom (the GM names it)"),
        "province": Param(str, required=False, ref="provinces", help="omit for a nation-wide counter-spy"),
    },
    category=KIND,
    filed_by=KING,
)
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
            raise CommandError("province", f"{prov['name']} is not a province of {kingdom_name(world, kingdom)}")
    pool = edit_pool(world, kingdom)
    if int(pool["spy"]) < 1:
        raise CommandError("spy", f"{kingdom_name(world, kingdom)} has no active spy to station")
    pool["spy"] = int(pool["spy"]) - 1
    modifiers = table("espionage")["modifiers"]
    if p["province"]:
        pool["counter_spies"]["provinces"].append(p["province"])
        where = (
            f"in {world.display_name('provinces', p['province'])} "
            f"({modifiers['province_counter_spy']:+d} to the next enemy operation there)"
        )
    else:
        pool["counter_spies"]["nation"] = int(pool["counter_spies"]["nation"]) + 1
        where = f"nation-wide ({modifiers['nation_counter_spy']:+d} to the next enemy operation anywhere)"
    entry = ctx.log(
        f"A counter-spy of {kingdom_name(world, kingdom)} is stationed {where}.",
        kind=KIND,
        audience=kingdom_audience(kingdom),
        refs={"kingdom": kingdom},
    )
    return {
        "kingdom": kingdom,
        "province": p["province"],
        "spies": pool["spy"],
        "counter_spies": pool["counter_spies"],
        "entry": entry["id"],
    }


@command(
    "assassination-resolve",
    "Close a pending assassination attempt with what happened (GM).",
    {
        "attempt": Param(str, ref=EFFECTS, help="the assassination-attempt effect id"),
        "result": Param(str, help="what happened, in a sentence"),
        "killed": Param(bool, required=False, default=False, help="the victim died"),
        "audience": Param(str, required=False, default=PUBLIC, help="who hears of the attack"),
    },
    category="gm",
    gm_only="play out assassination attempts",
)
def assassination_resolve(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    attempt = world.get(EFFECTS, p["attempt"])
    if attempt.get("kind") != ASSASSINATION_ATTEMPT:
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
    doc.update(
        {
            "status": "resolved",
            "result": result,
            "active": False,
            "end": world.meta["date"],
            "known_to_target": True,
            "known_sponsor": attempt.get("evidence") == "identified",
        }
    )
    if p["killed"]:
        world.edit("characters", victim)["alive"] = False
    ctx.log(f"Assassins attacked {who}: {result}", kind=KIND, audience=audience, refs={"target_character": victim})
    evidence = attempt.get("evidence")
    clue = {
        "identified": f"The assassins left proof: they were paid by {effect_sponsor_name(world, attempt)}.",
        "detected": "The assassins were hired by an enemy power; the employer is unknown.",
    }.get(str(evidence), "They left no trace of their employers.")
    for aud in {kingdom_audience(attempt["target_kingdom"]), character_audience(victim)}:
        ctx.log(f"The attack on {who}: {clue}", kind=KIND, audience=aud, refs={"effect": p["attempt"]})
    ctx.log(
        f"The assassination attempt on {who}: {result}",
        kind=KIND,
        audience=holder_audience(attempt),
        refs={"effect": p["attempt"]},
    )
    return {"attempt": p["attempt"], "status": "resolved", "killed": p["killed"]}


# ================================================================ due items and board queries


@due_reporter(name="espionage-assassinations")
def _due(world: World) -> list[dict[str, Any]]:
    # Assassination attempts to play out; a waiting mission is in its adjudicator's queue with every
    # other order (`session.orders_due`).
    items: list[dict[str, Any]] = []
    for effect_id, effect in active_effects(world, kind=ASSASSINATION_ATTEMPT):
        if effect.get("status") != "pending":
            continue
        who = world.display_name("characters", effect.get("character"))
        items.append(
            {
                "kind": "assassination",
                "urgent": True,
                "audience": ADJUDICATORS,
                "effect": effect_id,
                "text": f"Assassination attempt {effect_id} on {who} (by {kingdom_name(world, effect['sponsor_kingdom'])})"
                " waits to be played out: `yak do assassination-resolve`",
            }
        )
    return items
