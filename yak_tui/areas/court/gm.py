"""The GM's own acts (issue 15 §2): what the rules leave to him, each a command like any other, so
it goes through the one transaction path, is undoable, and is written to the chronicle.

`gm-set`, `gm-add` and `gm-remove` edit any document of any table the GM authors, driven by the
one schema (`yak_tui.kernel.world.documents`, strict as a world file is: no unknown field, every
reference resolving). The others are the everyday acts: moving a unit or a character (a march
or a voyage), handing a province to a new ruler (conquest), and transferring ducats, goods and
manpower between two owners.
"""

from __future__ import annotations

import copy
from typing import Any

import orjson

from yak_tui.kernel.play.audience import ADJUDICATORS, PUBLIC
from yak_tui.kernel.play.commands import CommandContext, CommandError, Param, audience_param, command
from yak_tui.kernel.world.authoring import AUTHORED_TABLES, document_problems, reference_problems, referrers
from yak_tui.kernel.world.documents import SCHEMAS
from yak_tui.kernel.world.fields import BOOL, INT, MAP, NUMBER, RECORD, TEXT, Field
from yak_tui.kernel.world.hexgrid import hex_distance
from yak_tui.kernel.world.model import ValidationError, World
from yak_tui.kernel.world.money import ducats, shown_money
from yak_tui.kernel.world.numbers import NumberError, parse_number, parse_whole

# The chronicle and the SSH roster have their own commands (`note`, `yak user`); the world's own
# settings change through the season commands; the dice ledger is written only by rolls (a hand
# edit is what `yak verify` exists to catch, so no GM act makes one).
EDITABLE = tuple(name for name in AUTHORED_TABLES if name not in ("chronicle", "users", "dice"))
OWNERS = ("kingdoms", "characters")
AUDIENCE_HELP = "who reads of it: adjudicators (default), public, kingdom:<id> or character:<id>"


def _audience(ctx: CommandContext, value: str) -> str:
    return audience_param(ctx.world, value or ADJUDICATORS)


def _table(value: str) -> str:
    if value not in EDITABLE:
        raise CommandError("table", f"must be one of {', '.join(EDITABLE)}, not {value!r}")
    return value


def _doc_id(world: World, table: str, value: str) -> str:
    try:
        return world.resolve_ref(table, value)
    except ValidationError as error:
        raise CommandError("id", error.reason) from None


def _refuse_problems(world: World, table: str, doc: dict[str, Any], field_prefix: str = "") -> None:
    problems = document_problems(table, doc) or reference_problems(world.data, table, doc)
    if problems:
        path, reason = problems[0]
        raise CommandError(f"{field_prefix}{path}" if field_prefix else path, reason)


# -- gm-set ----------------------------------------------------------------------------------------


def _field_spec(table: str, path: list[str]) -> Field:
    """The schema of `field.key.key` in `table`; unknown names are refused with the known ones."""
    fields = SCHEMAS[table].fields
    spec = fields.get(path[0])
    if spec is None:
        raise CommandError("field", f"{table} has no field {path[0]!r} (fields: {', '.join(fields)})")
    for step in path[1:]:
        if spec.kind == RECORD and spec.fields:
            inner = spec.fields.get(step)
            if inner is None:
                raise CommandError("field", f"{'.'.join(path)}: no key {step!r} (keys: {', '.join(spec.fields)})")
            spec = inner
        elif spec.kind == MAP and spec.values is not None:
            if spec.choices and step not in spec.choices:
                raise CommandError("field", f"{'.'.join(path)}: the key must be one of {', '.join(spec.choices)}")
            spec = spec.values
        else:
            raise CommandError("field", f"{'.'.join(path[:-1])} holds no keys to set {step!r} in")
    return spec


def _parse_value(spec: Field, text: str) -> Any:
    """The typed value a form or the command line gave as text, as the field's kind wants it."""
    try:
        if spec.kind == TEXT:
            return text
        if spec.kind == INT:
            return parse_whole(text, spec.low, spec.high)
        if spec.kind == NUMBER:  # within the field's one range; a whole amount is an int (12, not 12.0)
            number = parse_number(text, spec.low, spec.high)
            return int(number) if number.is_integer() else number
    except NumberError as error:
        raise CommandError("value", str(error)) from None
    if spec.kind == BOOL:
        lowered = text.strip().lower()
        if lowered in ("true", "yes", "1", "on"):
            return True
        if lowered in ("false", "no", "0", "off"):
            return False
        raise CommandError("value", f"must be true or false, not {text!r}")
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        raise CommandError(
            "value",
            f'must be JSON for a {spec.kind} field, e.g. [4, 3] or {{"year": 312, "season": "Spring"}}, not {text!r}',
        ) from None


@command(
    "gm-set",
    "Set (or clear) one field of any document, checked against its table's schema (GM).",
    {
        "table": Param(str, help="the table, e.g. kingdoms"),
        "id": Param(str, help="the document's id (or name)"),
        "field": Param(str, help="the field; key.key reaches inside a table field, e.g. potentials.trade"),
        "value": Param(str, required=False, default="", help="the new value (lists, tables: JSON)"),
        "clear": Param(bool, required=False, default=False, help="set it to none (or remove an optional field)"),
        "audience": Param(str, required=False, default=ADJUDICATORS, help=AUDIENCE_HELP),
    },
    category="gm",
    gm_only="edit documents",
)
def gm_set(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    table = _table(p["table"])
    doc_id = _doc_id(world, table, p["id"])
    path = [part for part in p["field"].split(".")]
    if not all(path):
        raise CommandError("field", f"{p['field']!r} is not a field name")
    spec = _field_spec(table, path)
    doc = copy.deepcopy(world.get(table, doc_id))
    holder: Any = doc
    for step in path[:-1]:
        holder = holder.setdefault(step, {}) if isinstance(holder, dict) else None
        if not isinstance(holder, dict):
            raise CommandError("field", f"{'.'.join(path)}: {step} is not a table in this document")
    last = path[-1]
    before = holder.get(last)
    if p["clear"]:
        if p["value"]:
            raise CommandError("clear", "give a value or clear=true, not both")
        if spec.nullable:
            holder[last] = None
        elif spec.required:
            raise CommandError("field", f"{'.'.join(path)} is required and cannot be none")
        else:
            holder.pop(last, None)
        after = None
    else:
        if spec.kind != TEXT and not p["value"].strip():
            raise CommandError("value", "is required (or clear=true)")
        after = _parse_value(spec, p["value"])
        holder[last] = after
    _refuse_problems(world, table, doc)
    world.put(table, doc_id, doc)
    shown = "none" if after is None else orjson.dumps(after).decode()
    ctx.log(
        f"The GM sets {world.display_name(table, doc_id)} ({table}) {'.'.join(path)} to {shown}"
        f" (was {'none' if before is None else orjson.dumps(before).decode()}).",
        kind="gm",
        audience=_audience(ctx, p["audience"]),
        refs={"table": table, "id": doc_id, "field": ".".join(path)},
    )
    return {"table": table, "id": doc_id, "field": ".".join(path), "value": after, "was": before}


# -- gm-add / gm-remove ------------------------------------------------------------------------------


@command(
    "gm-add",
    "Create a document in any table from its fields as a JSON table, checked against the schema (GM).",
    {
        "table": Param(str, help="the table, e.g. units"),
        "id": Param(str, help="the new document's id (a slug)"),
        "fields": Param(str, help='its fields as JSON, e.g. {"name": "Red Company", "owner": "elbreth", ...}'),
        "audience": Param(str, required=False, default=ADJUDICATORS, help=AUDIENCE_HELP),
    },
    category="gm",
    gm_only="create documents",
)
def gm_add(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    table = _table(p["table"])
    doc_id = p["id"].strip()
    if not doc_id or any(ch.isspace() for ch in doc_id):
        raise CommandError("id", f"{p['id']!r} is not an id: a slug without spaces, e.g. red-company")
    if doc_id in world.table(table):
        raise CommandError("id", f"{table} already holds {doc_id!r}; gm-set changes it")
    try:
        doc = orjson.loads(p["fields"])
    except orjson.JSONDecodeError as error:
        raise CommandError("fields", f"is not JSON: {error}") from None
    if not isinstance(doc, dict):
        raise CommandError("fields", "must be a JSON table of fields, {...}")
    _refuse_problems(world, table, doc)
    world.put(table, doc_id, doc)
    ctx.log(
        f"The GM adds {doc.get('name', doc_id)} to {table}.",
        kind="gm",
        audience=_audience(ctx, p["audience"]),
        refs={"table": table, "id": doc_id},
    )
    return {"table": table, "id": doc_id}


@command(
    "gm-remove",
    "Remove a document nothing else names any longer (GM).",
    {
        "table": Param(str, help="the table"),
        "id": Param(str, help="the document's id (or name)"),
        "audience": Param(str, required=False, default=ADJUDICATORS, help=AUDIENCE_HELP),
    },
    category="gm",
    gm_only="remove documents",
)
def gm_remove(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    table = _table(p["table"])
    doc_id = _doc_id(world, table, p["id"])
    named_by = referrers(world.data, table, doc_id)
    if named_by:
        more = f" and {len(named_by) - 5} more" if len(named_by) > 5 else ""
        raise CommandError("id", f"{doc_id!r} is still named by {'; '.join(named_by[:5])}{more}: change those first")
    name = world.display_name(table, doc_id)
    world.delete(table, doc_id)
    ctx.log(
        f"The GM removes {name} from {table}.",
        kind="gm",
        audience=_audience(ctx, p["audience"]),
        refs={"table": table, "id": doc_id},
    )
    return {"table": table, "id": doc_id}


# -- moving ------------------------------------------------------------------------------------------


def _hex_text(value: str) -> list[int] | None:
    parts = value.replace("(", "").replace(")", "").replace("[", "").replace("]", "").split(",")
    if len(parts) != 2:
        return None
    try:
        return [parse_whole(parts[0].strip(), None, None), parse_whole(parts[1].strip(), None, None)]
    except NumberError:
        return None


@command(
    "gm-move",
    "Move a unit (a march, or a voyage for ships) or a character to a place, a hex or a unit (GM).",
    {
        "unit": Param(str, required=False, ref="units", help="the unit to move"),
        "character": Param(str, required=False, ref="characters", help="or the character to move"),
        "to": Param(str, help="a place (id or name), a hex 'q,r' (units), or a unit (characters ride with it)"),
        "garrison": Param(bool, required=False, default=False, help="a unit goes inside the walled place"),
        "audience": Param(str, required=False, default=ADJUDICATORS, help=AUDIENCE_HELP),
    },
    category="gm",
    gm_only="move units and characters",
)
def gm_move(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    if (p["unit"] is None) == (p["character"] is None):
        raise CommandError("unit", "name a unit or a character to move (one of them)")
    audience = _audience(ctx, p["audience"])
    target = p["to"].strip()
    place = world.find("pcs", target) and target
    if not place:
        try:
            place = world.resolve_ref("pcs", target)
        except ValidationError:
            place = None
    if p["unit"] is not None:
        unit_id = p["unit"]
        unit = world.edit("units", unit_id)
        start = list(unit["hex"])
        if place:
            goal = list(world.get("pcs", place)["hex"] or [])
            if len(goal) != 2:
                raise CommandError("to", f"{world.display_name('pcs', place)} has no hex on the map")
        else:
            parsed = _hex_text(target)
            if parsed is None:
                raise CommandError("to", f"{target!r} is neither a place nor a hex like 4,3")
            goal = parsed
        if p["garrison"]:
            if not place or not world.get("pcs", place).get("walled"):
                raise CommandError("garrison", "only a walled place can be garrisoned")
            unit["inside"] = place
        elif unit.get("inside") is not None:
            unit["inside"] = None
        unit["hex"] = goal
        steps = hex_distance(tuple(start), tuple(goal))  # type: ignore[arg-type]
        verb = "sails" if unit.get("kind") == "ship" or int(unit.get("ships", 0) or 0) > 0 else "marches"
        where = world.display_name("pcs", place) if place else f"hex {goal[0]},{goal[1]}"
        ctx.log(
            f"{unit['name']} {verb} from {start[0]},{start[1]} to {where}: {steps} hex{'es' if steps != 1 else ''}"
            + (", and garrisons it." if p["garrison"] else "."),
            kind="move",
            audience=audience,
            refs={"unit": unit_id, "from": start, "to": goal},
        )
        return {"unit": unit_id, "from": start, "to": goal, "hexes": steps, "voyage": verb == "sails"}
    character_id = p["character"]
    if p["garrison"]:
        raise CommandError("garrison", "only a unit garrisons a place")
    if not place:
        try:
            place = world.resolve_ref("units", target)
        except ValidationError:
            raise CommandError("to", f"{target!r} is neither a place nor a unit a character can be with") from None
    character = world.edit("characters", character_id)
    before = character.get("location")
    character["location"] = place
    table = "pcs" if place in world.table("pcs") else "units"
    ctx.log(
        f"{character['name']} travels from {world.display_name('pcs', before) if before else 'nowhere'} to "
        f"{world.display_name(table, place)}.",
        kind="move",
        audience=audience,
        refs={"character": character_id, "from": before, "to": place},
    )
    return {"character": character_id, "from": before, "to": place}


# -- conquest ------------------------------------------------------------------------------------------


@command(
    "gm-conquer",
    "Hand a province and its places to a new ruler (or none); treasuries kept there move home (GM).",
    {
        "province": Param(str, ref="provinces"),
        "kingdom": Param(str, required=False, ref="kingdoms", help="the new ruler (empty: nobody)"),
        "audience": Param(str, required=False, default=PUBLIC, help="who reads of it (default public)"),
    },
    category="gm",
    gm_only="change who rules a province",
)
def gm_conquer(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    province_id, new = p["province"], p["kingdom"]
    province = world.edit("provinces", province_id)
    old = province.get("kingdom")
    if old == new:
        raise CommandError("kingdom", f"{province['name']} is already ruled by {world.display_name('kingdoms', new)}")
    province["kingdom"] = new
    places = [pc_id for pc_id, pc in world.all("pcs") if pc.get("province") == province_id]
    moved: list[str] = []
    for pc_id in places:
        pc = world.edit("pcs", pc_id)
        pc["controller"] = new
        kept = list(pc.get("holds_treasury_of") or [])
        for holder in kept:
            kind, _, holder_id = holder.partition(":")
            if kind != "kingdoms" or holder_id == new:
                continue
            home = _treasury_home(world, holder_id, province_id)
            kept.remove(holder)
            if home is not None:
                target = world.edit("pcs", home)
                target["holds_treasury_of"] = [*(target.get("holds_treasury_of") or []), holder]
            moved.append(
                f"the treasury of {world.display_name('kingdoms', holder_id)} moves to "
                f"{world.display_name('pcs', home) if home else 'nowhere (no place left to keep it)'}"
            )
        if "holds_treasury_of" in pc or kept:
            pc["holds_treasury_of"] = kept
    names = ", ".join(world.display_name("pcs", pc_id) for pc_id in places) or "no places"
    ctx.log(
        f"{province['name']} passes from {world.display_name('kingdoms', old)} to "
        f"{world.display_name('kingdoms', new)} ({names})" + ("; " + "; ".join(moved) if moved else "") + ".",
        kind="conquest",
        audience=audience_param(world, p["audience"]),
        refs={"province": province_id, "from": old, "to": new},
    )
    return {"province": province_id, "from": old, "to": new, "places": places}


def _treasury_home(world: World, kingdom_id: str, lost_province: str) -> str | None:
    """Where a kingdom keeps its treasury once the place holding it is lost: its capital, else
    the first place it still controls."""
    kingdom = world.get("kingdoms", kingdom_id)
    capital = kingdom.get("capital")
    pc = world.find("pcs", capital)
    if pc is not None and pc.get("province") != lost_province and pc.get("controller") == kingdom_id:
        return str(capital)
    for pc_id, other in sorted(world.all("pcs")):
        if other.get("controller") == kingdom_id and other.get("province") != lost_province:
            return pc_id
    return None


# -- transfers -----------------------------------------------------------------------------------------


def _owner(world: World, value: str, field: str) -> tuple[str, str]:
    table, sep, doc_id = value.partition(":")
    if sep and table in OWNERS:
        try:
            return table, world.resolve_ref(table, doc_id)
        except ValidationError as error:
            raise CommandError(field, error.reason) from None
    for table in OWNERS:
        if value in world.table(table):
            return table, value
    raise CommandError(field, f"{value!r} is not kingdoms:<id> or characters:<id> (or a kingdom's or character's id)")


def _goods(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in (part.strip() for part in text.split(",") if part.strip()):
        name, sep, count = item.rpartition(":")
        if not sep or not name.strip():
            raise CommandError("goods", f"{item!r} is not Good:count, e.g. Grain:3")
        try:
            out[name.strip()] = out.get(name.strip(), 0) + parse_whole(count, 1, None)
        except NumberError as error:
            raise CommandError("goods", f"{item}: {error}") from None
    return out


@command(
    "gm-transfer",
    "Transfer ducats, goods and manpower between two owners (alliances, tribute, trade, loot) (GM).",
    {
        "source": Param(str, help="kingdoms:<id> or characters:<id>"),
        "target": Param(str, help="kingdoms:<id> or characters:<id>"),
        "ducats": Param(float, required=False, default=0.0, minimum=0),
        "goods": Param(str, required=False, default="", help="Good:count, comma-separated, e.g. Grain:3,Wool:1"),
        "manpower": Param(int, required=False, default=0, minimum=0, help="kingdoms only"),
        "reason": Param(str, required=False, default="a transfer"),
        "audience": Param(str, required=False, default=PUBLIC, help="who reads of it (default public)"),
    },
    category="gm",
    gm_only="transfer holdings",
)
def gm_transfer(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    source, target = _owner(world, p["source"], "source"), _owner(world, p["target"], "target")
    if source == target:
        raise CommandError("target", "is the source: a transfer needs two owners")
    goods = _goods(p["goods"])
    if not (p["ducats"] or goods or p["manpower"]):
        raise CommandError("ducats", "nothing to transfer: give ducats, goods or manpower")
    audience = audience_param(world, p["audience"])
    reason = p["reason"].strip() or "a transfer"
    if p["ducats"]:
        ctx.move_ducats(source, target, p["ducats"], reason, audience=audience)
    if goods:
        giver, taker = world.edit(*source), world.edit(*target)
        held = dict(giver.get("goods") or {})
        for good, count in goods.items():
            if held.get(good, 0) < count:
                raise CommandError("goods", f"{giver['name']} holds {held.get(good, 0)} {good}, not {count}")
            held[good] -= count
            received = dict(taker.get("goods") or {})
            received[good] = received.get(good, 0) + count
            taker["goods"] = received
        giver["goods"] = {good: count for good, count in held.items() if count}
    if p["manpower"]:
        if source[0] != "kingdoms" or target[0] != "kingdoms":
            raise CommandError("manpower", "only kingdoms hold manpower")
        giver, taker = world.edit(*source), world.edit(*target)
        if giver["manpower"] < p["manpower"]:
            raise CommandError("manpower", f"{giver['name']} has {giver['manpower']} manpower, not {p['manpower']}")
        giver["manpower"] -= p["manpower"]
        taker["manpower"] += p["manpower"]
    if goods or p["manpower"]:
        parts = [f"{count} {good}" for good, count in goods.items()]
        if p["manpower"]:
            parts.append(f"{p['manpower']} manpower")
        ctx.log(
            f"{world.display_name(*source)} hands {', '.join(parts)} to {world.display_name(*target)}: {reason}.",
            kind="transfer",
            audience=audience,
        )
    return {
        "source": ":".join(source),
        "target": ":".join(target),
        "ducats": shown_money(p["ducats"]),
        "goods": goods,
        "manpower": p["manpower"],
    }


# -- a dead character's estate --------------------------------------------------------------------------


@command(
    "gm-estate",
    "Settle a dead character's estate: to the heir the GM names, or escheat to the crown (his "
    "kingdom): treasury, goods, businesses and places he owned (GM).",
    {
        "character": Param(str, ref="characters", help="the dead character"),
        "heir": Param(str, required=False, ref="characters", help="the heir (empty: escheat to the crown)"),
        "audience": Param(str, required=False, default=PUBLIC, help="who reads of it (default public)"),
    },
    category="gm",
    gm_only="settle estates",
)
def gm_estate(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    dead_id, heir_id = p["character"], p["heir"]
    dead = world.get("characters", dead_id)
    if dead.get("alive", True):
        raise CommandError("character", f"{dead['name']} is alive: an estate passes at death")
    if dead.get("estate"):
        raise CommandError("character", f"{dead['name']}'s estate is already settled")
    audience = audience_param(world, p["audience"])
    businesses = sorted(bid for bid, biz in world.all("businesses") if biz.get("owner") == dead_id)
    places = sorted(pc_id for pc_id, pc in world.all("pcs") if pc.get("owner_character") == dead_id)
    if heir_id is not None:
        heir = world.get("characters", heir_id)
        if heir_id == dead_id or not heir.get("alive", True):
            raise CommandError("heir", f"{heir['name']} cannot inherit: the heir must be another, living character")
        target: tuple[str, str] = ("characters", heir_id)
        new_owner: str | None = heir_id
    else:
        crown = dead.get("kingdom")
        if not crown:
            raise CommandError("heir", f"{dead['name']} served no kingdom: name an heir")
        target = ("kingdoms", crown)
        new_owner = world.get("kingdoms", crown).get("ruler")
        if businesses and not new_owner:
            raise CommandError(
                "heir",
                f"{world.display_name('kingdoms', crown)} has no ruler to hold the businesses "
                "of the crown: name an heir",
            )
    for business_id in businesses:
        world.edit("businesses", business_id)["owner"] = new_owner
    for pc_id in places:  # to the heir; escheated, the place's tax goes to its controller
        world.edit("pcs", pc_id)["owner_character"] = heir_id
    for pc_id, pc in world.all("pcs"):
        kept = pc.get("holds_treasury_of") or []
        if f"characters:{dead_id}" in kept:
            world.edit("pcs", pc_id)["holds_treasury_of"] = [h for h in kept if h != f"characters:{dead_id}"]
    goods = dict(dead.get("goods") or {})
    treasury = float(dead.get("treasury", 0))
    edited = world.edit("characters", dead_id)
    edited["estate"] = {"date": dict(world.meta["date"]), "to": ":".join(target)}
    if goods:
        edited["goods"] = {}
        taker = world.edit(*target)
        held = dict(taker.get("goods") or {})
        for good, count in goods.items():
            held[good] = held.get(good, 0) + count
        taker["goods"] = held
    how = (
        f"passes to his heir {world.display_name(*target)}"
        if heir_id
        else f"escheats to the crown of {world.display_name(*target)}"
    )
    owned = [world.display_name("businesses", b) for b in businesses] + [world.display_name("pcs", c) for c in places]
    ctx.log(
        f"The estate of the late {dead['name']} {how}: {ducats(treasury)}"
        + (f", {', '.join(f'{n} {g}' for g, n in goods.items())}" if goods else "")
        + (f", {', '.join(owned)}" if owned else "")
        + ".",
        kind="estate",
        audience=audience,
        refs={"character": dead_id, "to": ":".join(target), "businesses": businesses, "pcs": places},
    )
    if treasury > 0:
        ctx.move_ducats(("characters", dead_id), target, treasury, f"the estate of {dead['name']}", audience=audience)
    elif treasury < 0:  # his debts pass with his estate
        ctx.move_ducats(
            target,
            ("characters", dead_id),
            -treasury,
            f"the debts of {dead['name']}'s estate",
            audience=audience,
            allow_negative=True,
        )
    return {
        "character": dead_id,
        "to": ":".join(target),
        "ducats": shown_money(treasury),
        "goods": goods,
        "businesses": businesses,
        "pcs": places,
    }
