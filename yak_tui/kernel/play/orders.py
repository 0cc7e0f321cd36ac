"""Orders: players (and Kings) file commands for their own holdings; the adjudicator of
RULINGS §1 resolves them with dice, or rejects them with a reason.

Who may file what, and which orders are private, is `kernel.play.filing`'s one rule: NPC espionage
missions are private to their filer, his adjudicator and the GM, every other order is public, and
the reason for a rejection goes to the filer and the adjudicator only. An order a seat may not see
does not exist for it: its id gets the reply an unknown id gets (`World.resolve_ref`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from yak_tui.kernel.errors import ShortfallError
from yak_tui.kernel.play.audience import ADJUDICATORS, PUBLIC, character_audience, kingdom_audience
from yak_tui.kernel.play.authority import adjudicator_for
from yak_tui.kernel.play.commands import (
    CommandContext,
    CommandError,
    Param,
    apply_command,
    command,
    spec_for,
    validate_only,
)
from yak_tui.kernel.play.fairdice import for_order
from yak_tui.kernel.play.filing import adjudicator_params, check_filing, check_season_cap, filing_refusal, is_private
from yak_tui.kernel.play.identity import GM, Identity, identity_name
from yak_tui.kernel.play.views import command_odds
from yak_tui.kernel.season import clock
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.numbers import counted

WAITING = "waiting"
# What the filer hears at once: the order is in the queue, in it with a warning, or refused (an error).
RECEIVED = "received"
RECEIVED_WITH_WARNINGS = "received with warnings"
# A free-text request to the GM (RULINGS §1): it waits in his queue like an order and changes nothing.
REQUEST = "ask"
# What the filer of a late order hears; the GM accepts or rejects late orders (`order-late`).
LATE_WARNING = "filed after the deadline: the GM decides whether it is accepted"


def order_params(text: str) -> dict[str, Any]:
    """Order parameters as JSON (`{"unit": "x"}`) or `key=value;key=value`."""
    text = text.strip()
    if not text:
        return {}
    if text.startswith("{"):
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError as error:
            raise CommandError("params", f"is not valid JSON: {error}") from None
        if not isinstance(value, dict):
            raise CommandError("params", "must be a JSON object")
        return value
    params: dict[str, Any] = {}
    for item in text.split(";"):
        key, sep, value = item.partition("=")
        if not sep or not key.strip():
            raise CommandError("params", f"{item!r} is not key=value")
        params[key.strip()] = value.strip()
    return params


def filer_audience(order: dict[str, Any]) -> str:
    """The audience of the order's filer alone: his character, or his kingdom for a King."""
    if order.get("character"):
        return character_audience(str(order["character"]))
    if order.get("kingdom"):
        return kingdom_audience(str(order["kingdom"]))
    return PUBLIC


def order_audience(order: dict[str, Any]) -> str:
    """Who reads the lines of an order: its filer alone (with its adjudicator, named on each line)
    when it is private, everyone otherwise."""
    return filer_audience(order) if order.get("private") else PUBLIC


@command(
    "order-file",
    "File an order for your own holdings; it waits for its adjudicator.",
    {
        "command": Param(str, help="the command to be carried out"),
        "params": Param(str, required=False, default="", help="JSON or key=value;key=value"),
        "private": Param(
            bool, required=False, default=False, help="espionage missions are always private; nothing else may be"
        ),
        "note": Param(str, required=False, default="", help="a word for the adjudicator"),
        "standing": Param(
            bool,
            required=False,
            default=False,
            help="filed again for you each season you send nothing, until withdrawn (NMR policy standing)",
        ),
    },
    category="orders",
)
def order_file(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    filer = ctx.identity
    spec = spec_for(p["command"])
    params = order_params(p["params"])
    check_filing(filer, spec, params)  # the one filing rule, before anything of the world is read
    check_season_cap(world, filer)  # then the seat's own count of orders this season, nothing else
    private = is_private(spec)
    if p["private"] and not private:
        raise CommandError("private", "only NPC espionage missions may be submitted privately (RULINGS §1)")
    # Checked as written, on a trial of today's world: refused if it is wrong (not his to order, a
    # bad parameter); received with a warning if only today's numbers fall short (they may change
    # before it is carried out).
    warning = ""
    try:
        validate_only(world, GM, spec.name, params, principal=filer, viewer=filer)
    except ShortfallError as error:
        warning = f"on today's numbers it would fail: {error.reason}"
    except CommandError as error:
        raise CommandError(f"order.{error.field}", error.reason) from None
    stakes = spec.stakes(world, filer, params) if spec.stakes else None
    adjudicator = adjudicator_for(world, stakes) if stakes is not None else "gm"
    character = filer.subject if filer.is_player else None
    kingdom = filer.subject if filer.is_king else world.kingdom_of_character(filer.subject) if character else None
    order_id = world.new_id("orders", "o")
    order = {
        "command": spec.name,
        "params": params,
        "filed_by": str(filer),
        "character": character,
        "kingdom": kingdom,
        "adjudicator": adjudicator,
        "private": private,
        "status": WAITING,
        "filed": world.meta["date"],
        "note": p["note"],
        "outcome": "",
        "reason": "",
    }
    if warning:
        order["warning"] = warning  # on the order only: the public line must not tell his numbers
    filed_at = clock.now()
    order["filed_at"] = clock.stored(filed_at)
    late = clock.is_late(world.meta, filed_at)
    if late:
        order["late"] = True  # for the GM to accept or reject (`order-late`)
    if p.get("standing"):  # `spy-order` files through here without it
        order["standing"] = True
    world.put("orders", order_id, order)
    summary = describe_order(world, order)
    ctx.log(
        f"{identity_name(world, filer)} files an order: {summary}",
        kind="order",
        audience=order_audience(order),
        refs={"order": order_id, "character": character, "kingdom": kingdom, "event": "filed"},
        adjudicator=adjudicator,
    )
    odds = command_odds(world, filer, spec.name, params)
    warnings = [warning] if warning else []
    if late:
        warnings.append(LATE_WARNING)
    reply = {
        "order": order_id,
        "adjudicator": adjudicator,
        "private": private,
        "status": RECEIVED_WITH_WARNINGS if warnings else RECEIVED,
        "warnings": warnings,
        "odds": dict(odds.rows) if odds is not None and odds.rows else {},
    }
    if late:
        reply["late"] = True
    return reply


def describe_order(world: World, order: Mapping[str, Any]) -> str:
    """An order in words a player reads ("business expand: business Hale Bank, sizes 1"): named
    documents by their names, never `name(key=value)` syntax or ids (those stay in --json)."""
    command = str(order["command"])
    try:
        specs = spec_for(command).params
    except CommandError:
        specs = {}
    parts = []
    for key, value in order.get("params", {}).items():
        if value is None or value == "":
            continue  # a value left out (or a JSON null) reads as absent, never "None"
        spec = specs.get(key)
        shown = value
        if spec is not None:
            if spec.ref:
                shown = world.display_name(spec.ref, str(value))
            elif spec.label:
                shown = spec.label(str(value))
        if isinstance(shown, bool):
            shown = "yes" if shown else "no"
        label = key.replace("_", " ")
        # "Kingdom of Valdor", never "kingdom Kingdom of Valdor": a name that says what it is needs no label.
        parts.append(str(shown) if str(shown).lower().startswith(label.lower() + " ") else f"{label} {shown}")
    words = command.replace("-", " ")
    return f"{words}: {', '.join(parts)}" if parts else words


def _waiting_order(ctx: CommandContext, order_id: str) -> dict[str, Any]:
    """The order `order_id` (already resolved as the actor may see it), waiting for this actor; an
    order filed by a seat that may not file it (an old save) is never carried out."""
    order = ctx.world.get("orders", order_id)
    if order["status"] != WAITING:
        raise CommandError("order", f"the order to {describe_order(ctx.world, order)} is already {order['status']}")
    ident = ctx.identity
    if not ident.is_gm and order["adjudicator"] != str(ident):
        raise CommandError(
            "identity",
            f"the order to {describe_order(ctx.world, order)} waits for "
            f"{identity_name(ctx.world, Identity.parse(order['adjudicator']))}, not "
            f"{identity_name(ctx.world, ident)}",
            ("gm", order["adjudicator"]),
        )
    refusal = (
        None
        if order["command"] == REQUEST
        else filing_refusal(Identity.parse(order["filed_by"]), spec_for(order["command"]))
    )
    if refusal is not None:
        raise CommandError(
            "order",
            f"the order to {describe_order(ctx.world, order)} cannot be carried out: {refusal.reason} (reject it)",
        )
    return order


def adjusted_params(order: dict[str, Any], adjust: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The order's parameters with the adjudicator's own values (`adjust`): only what the
    adjudicator sets (a modifier and its reason, who hears of it), never what the filer chose."""
    spec = spec_for(str(order["command"]))
    values = order_params(adjust)
    allowed = adjudicator_params(spec)
    for name in values:
        if name not in allowed:
            what = (
                f"{spec.name} has no parameter {name!r}" if name not in spec.params else f"{name} is the filer's choice"
            )
            mine = (
                f"; the adjudicator sets: {', '.join(allowed)}" if allowed else "; the adjudicator sets nothing of it"
            )
            raise CommandError("adjust", what + mine)
    return {**order.get("params", {}), **values}, values


@command(
    "order-resolve",
    "Carry out a waiting order (its adjudicator), rolling its dice.",
    {
        "order": Param(str, ref="orders"),
        "adjust": Param(
            str,
            required=False,
            default="",
            help="the adjudicator's values (a modifier, its reason) as key=value;key=value",
        ),
    },
    category="orders",
    rolls=True,
)
def order_resolve(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    order = _waiting_order(ctx, p["order"])
    filer = Identity.parse(order["filed_by"])
    params, adjusted = adjusted_params(order, p["adjust"])
    try:
        with for_order(ctx.dice.inner, p["order"]):
            result = apply_command(
                ctx.world, ctx.identity, order["command"], params, ctx.dice.inner, principal=filer, viewer=filer
            )
    except CommandError as error:
        raise CommandError(f"order.{error.field}", error.reason, error.who_may) from None
    ctx.entries.extend(result.entries)
    ctx.rolls.extend(result.rolls)
    edited = ctx.world.edit("orders", p["order"])
    edited["status"] = "resolved"
    edited["resolved"] = ctx.world.meta["date"]
    edited["resolved_by"] = str(ctx.identity)
    edited["outcome"] = str(result.data.get("outcome_text") or result.data.get("outcome") or "done")
    edited["entries"] = [e["id"] for e in result.entries]
    if adjusted:
        edited["adjusted"] = adjusted
    ctx.log(
        f"Order to {describe_order(ctx.world, order)} resolved: {edited['outcome']}",
        kind="order",
        audience=order_audience(order),
        refs={"order": p["order"], "character": order.get("character"), "event": "resolved"},
        adjudicator=str(ctx.identity),
    )
    return {"order": p["order"], "status": "resolved", "result": result.data}


@command(
    "order-reject",
    "Reject a waiting order with a reason (its adjudicator); only the filer reads the reason.",
    {"order": Param(str, ref="orders"), "reason": Param(str)},
    category="orders",
)
def order_reject(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    order = _waiting_or_unfileable(ctx, p["order"])
    if not p["reason"].strip():
        raise CommandError("reason", "is empty: say why the order is rejected")
    edited = ctx.world.edit("orders", p["order"])
    edited.update(
        {
            "status": "rejected",
            "reason": p["reason"],
            "resolved": ctx.world.meta["date"],
            "resolved_by": str(ctx.identity),
        }
    )
    what = describe_order(ctx.world, order)
    refs = {"order": p["order"], "character": order.get("character"), "event": "rejected"}
    if not order.get("private"):  # the table learns that it was rejected, never why (RULINGS §1)
        ctx.log(f"Order to {what} rejected.", kind="order", audience=PUBLIC, refs=refs, adjudicator=str(ctx.identity))
    ctx.log(
        f"Your order to {what} was rejected: {p['reason']}",
        kind="order",
        audience=filer_audience(order),
        refs=refs,
        adjudicator=str(ctx.identity),
    )
    return {"order": p["order"], "status": "rejected"}


def late_orders(world: World) -> list[tuple[str, dict[str, Any]]]:
    """The waiting orders filed after the deadline that the GM has not accepted yet, by id."""
    return [
        (oid, order)
        for oid, order in sorted(world.all("orders"))
        if order.get("late") and order.get("status") == WAITING and not order.get("late_accepted")
    ]


@command(
    "order-late",
    "Accept or reject, all at once, the waiting orders filed after the deadline (GM).",
    {
        "decision": Param(str, choices=("accept", "reject"), help="accept: they wait like any order; reject: refused"),
        "reason": Param(str, required=False, default="", help="for a rejection: what its filers read"),
    },
    category="orders",
    undoable=False,
    gm_only="accept or reject late orders",
)
def order_late(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    late = late_orders(ctx.world)
    if not late:
        raise CommandError("decision", "no order filed after the deadline is waiting")
    for order_id, _ in late:
        if p["decision"] == "accept":
            ctx.world.edit("orders", order_id)["late_accepted"] = True
            continue
        reason = p["reason"].strip() or "filed after the deadline"
        result = apply_command(ctx.world, ctx.identity, "order-reject", {"order": order_id, "reason": reason})
        ctx.entries.extend(result.entries)
    what = "accepted" if p["decision"] == "accept" else "rejected"
    ctx.log(
        f"The GM {what} {counted(len(late), 'order')} filed after the deadline.",
        kind="order",
        audience=ADJUDICATORS,
    )
    return {"decision": p["decision"], "orders": [order_id for order_id, _ in late]}


def _waiting_or_unfileable(ctx: CommandContext, order_id: str) -> dict[str, Any]:
    """`_waiting_order`, except that an order its filer could not file may still be rejected."""
    try:
        return _waiting_order(ctx, order_id)
    except CommandError as error:
        order = ctx.world.get("orders", order_id)
        if error.field == "order" and order["status"] == WAITING:
            return order
        raise


@command(
    "order-withdraw", "Withdraw one of your own waiting orders.", {"order": Param(str, ref="orders")}, category="orders"
)
def order_withdraw(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    order = ctx.world.get("orders", p["order"])
    if order["filed_by"] != str(ctx.identity) and not ctx.identity.is_gm:
        raise CommandError(
            "identity",
            f"the order to {describe_order(ctx.world, order)} was filed by "
            f"{identity_name(ctx.world, Identity.parse(order['filed_by']))}",
        )
    if order["status"] != WAITING:
        raise CommandError("order", f"the order to {describe_order(ctx.world, order)} is already {order['status']}")
    ctx.world.edit("orders", p["order"])["status"] = "withdrawn"
    ctx.log(
        f"Order to {describe_order(ctx.world, order)} withdrawn.",
        kind="order",
        audience=order_audience(order),
        refs={"order": p["order"], "event": "withdrawn"},
        adjudicator=order["adjudicator"],
    )
    return {"order": p["order"], "status": "withdrawn"}


@command(
    REQUEST,
    "Ask the GM for what no command of yours does (a change to your holdings, a ruling): it waits in "
    "his queue, private to you and him, and changes nothing by itself.",
    {
        "text": Param(str, help="what you ask the GM for"),
        "note": Param(str, required=False, default="", help="a word for the GM"),
    },
    category="orders",
)
def ask(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    text = p["text"].strip()
    if not text:
        raise CommandError("text", "is empty: say what you ask the GM for")
    asker = ctx.principal
    if ctx.identity.is_gm and not asker.is_gm:  # the GM grants it from his queue (`order-resolve`)
        ctx.log(
            f"The GM grants the request of {identity_name(world, asker)}: {text}",
            kind="order",
            audience=filer_audience(
                {
                    "character": asker.subject if asker.is_player else None,
                    "kingdom": asker.subject if asker.is_king else None,
                }
            ),
            adjudicator=str(ctx.identity),
        )
        return {"outcome_text": "granted"}
    if ctx.identity.is_gm:
        raise CommandError("identity", "the GM does what he is asked himself: he asks no one")
    check_season_cap(world, asker)
    character = asker.subject if asker.is_player else None
    kingdom = asker.subject if asker.is_king else world.kingdom_of_character(asker.subject)
    order_id = world.new_id("orders", "o")
    order = {
        "command": REQUEST,
        "params": {"text": text},
        "filed_by": str(asker),
        "character": character,
        "kingdom": kingdom,
        "adjudicator": "gm",
        "private": True,
        "status": WAITING,
        "filed": world.meta["date"],
        "note": p["note"],
        "outcome": "",
        "reason": "",
    }
    world.put("orders", order_id, order)
    ctx.log(
        f"{identity_name(world, asker)} asks the GM: {text}",
        kind="order",
        audience=filer_audience(order),
        refs={"order": order_id, "character": character, "kingdom": kingdom, "event": "asked"},
        adjudicator="gm",
    )
    return {"order": order_id, "adjudicator": "gm", "private": True, "status": RECEIVED, "warnings": [], "odds": {}}


def queue_for(world: World, identity: Identity) -> list[tuple[str, dict[str, Any]]]:
    """Orders waiting for this identity to adjudicate (the GM sees every queue)."""
    return [
        (oid, o)
        for oid, o in sorted(world.all("orders"))
        if o["status"] == WAITING and (identity.is_gm or o["adjudicator"] == str(identity))
    ]


def orders_of(world: World, identity: Identity) -> list[tuple[str, dict[str, Any]]]:
    return [(oid, o) for oid, o in sorted(world.all("orders")) if o["filed_by"] == str(identity)]
