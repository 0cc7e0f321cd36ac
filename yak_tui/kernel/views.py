"""Read models for the front ends: plain records, already filtered for one viewer.

Screens render these and nothing else. Every document and chronicle entry reaches them
through `yak_tui.kernel.audience` (`visible_table`, `filter_document`, `visible_entries`),
so a screen cannot show what its viewer may not see, and the arithmetic a screen would
otherwise be tempted to do (sector fill, provisions, odds, history) lives here, headless.

No Textual in this module: the core stays importable without a UI. The records are
NamedTuples rather than dataclasses: the same immutable fields, at a seventh of the import
cost (the dashboard must paint within twice a bare Textual app's startup).
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, NamedTuple

from yak_tui.kernel.audience import (
    ADJUDICATORS,
    PUBLIC,
    can_see_document,
    filter_document,
    filter_entry,
    visible_entries,
    visible_table,
)
from yak_tui.kernel.calendar import GameDate
from yak_tui.kernel.identity import GM, Identity
from yak_tui.kernel.model import World
from yak_tui.kernel.numbers import shown

# A viewer who sees exactly the public record: the audience of a public forum post.
PUBLIC_VIEWER = Identity("player", "")
HIDDEN = None  # a value the viewer may not see is None; screens draw it as a dash


# -- identities -----------------------------------------------------------------------------------

class IdentityChoice(NamedTuple):
    identity: str
    label: str
    group: str  # "GM", "Kings", "Players"


def identity_label(world: World, identity: Identity) -> str:
    """How the header names the acting identity."""
    if identity.is_gm:
        return "GM"
    if identity.is_king:
        return f"King · {world.display_name('kingdoms', identity.subject)}"
    if not identity.subject:
        return "Public"
    return f"Player · {world.display_name('characters', identity.subject)}"


def identities(world: World) -> list[IdentityChoice]:
    """Everyone the hotseat GM may hand the keyboard to: the GM, each King, each living character."""
    out = [IdentityChoice("gm", "GM", "GM")]
    for kid, kingdom in sorted(world.all("kingdoms")):
        out.append(IdentityChoice(f"king:{kid}", f"King · {kingdom.get('name', kid)}", "Kings"))
    for cid, char in sorted(world.all("characters"), key=lambda item: (str(item[1].get("kingdom")), item[0])):
        if not char.get("alive", True):
            continue
        realm = world.display_name("kingdoms", char.get("kingdom"))
        out.append(IdentityChoice(f"player:{cid}", f"{char.get('name', cid)} ({char.get('title', '')}, {realm})",
                                  "Players"))
    return out


# -- chronicle ------------------------------------------------------------------------------------

class EntryView(NamedTuple):
    id: str
    seq: int
    date: str
    season_key: str
    kind: str
    text: str
    audience: str
    actor: str
    rolls: tuple[str, ...] = ()
    blind: bool = False
    note: str = ""  # the adjudicator's note: present only when the viewer may read it


def entry_view(entry: Mapping[str, Any]) -> EntryView:
    """An entry that has already been through the audience filter, ready to draw."""
    from yak_tui.kernel.chronicle import roll_line

    date = GameDate.from_dict(entry["date"])
    rolls = tuple(roll_line(r) for r in entry.get("rolls", []))
    return EntryView(
        id=str(entry.get("id", entry.get("seq", ""))), seq=int(entry.get("seq", 0)), date=date.label(),
        season_key=date.key(), kind=str(entry.get("kind", "event")), text=str(entry.get("text", "")),
        audience=str(entry.get("audience", PUBLIC)), actor=str(entry.get("actor", "")), rolls=rolls,
        blind=any(r.get("blind") for r in entry.get("rolls", [])),
        note=str(entry.get("secret") or entry.get("adjudicator_note") or ""),
    )


class Choice(NamedTuple):
    value: str
    label: str


class ChronicleView(NamedTuple):
    entries: tuple[EntryView, ...]
    seasons: tuple[Choice, ...]
    kingdoms: tuple[Choice, ...]
    characters: tuple[Choice, ...]
    kinds: tuple[Choice, ...]
    total: int  # entries the viewer may see before the filter


def chronicle_view(world: World, viewer: Identity, season: str | None = None, kingdom: str | None = None,
                   character: str | None = None, kind: str | None = None) -> ChronicleView:
    """The chronicle as the viewer may see it, narrowed by the filter bar's choices."""
    from yak_tui.kernel.chronicle import ChronicleFilter

    visible = visible_entries(world, viewer)
    chosen = ChronicleFilter.from_args(world, season, kingdom, character, kind)
    shown = [entry_view(e) for e in visible if chosen.matches(world, e)]
    seasons: dict[str, str] = {}
    kinds: set[str] = set()
    for entry in visible:
        date = GameDate.from_dict(entry["date"])
        seasons[date.label()] = date.label()
        kinds.add(str(entry.get("kind", "event")))
    season_list = sorted(seasons, key=lambda label: GameDate.parse(label), reverse=True)
    return ChronicleView(
        entries=tuple(shown),
        seasons=tuple(Choice(s, s) for s in season_list),
        kingdoms=tuple(Choice(k, d.get("name", k)) for k, d in sorted(visible_table(world, viewer, "kingdoms").items())),
        characters=tuple(Choice(c, d.get("name", c)) for c, d in
                         sorted(visible_table(world, viewer, "characters").items(), key=lambda i: i[1].get("name", i[0]))),
        kinds=tuple(Choice(k, k) for k in sorted(kinds)),
        total=len(visible),
    )


def latest_entries(world: World, viewer: Identity, limit: int = 8) -> tuple[EntryView, ...]:
    entries = visible_entries(world, viewer)
    return tuple(entry_view(e) for e in entries[-limit:][::-1])


def export_audiences(world: World, viewer: Identity) -> tuple[Choice, ...]:
    """Whom the viewer may export for: never anyone who sees more than the viewer does."""
    out = [Choice("public", "Public (forum thread)")]
    if viewer.is_gm:
        out.append(Choice("gm", "GM (everything)"))
        for kid, kingdom in sorted(world.all("kingdoms")):
            out.append(Choice(f"king:{kid}", f"King · {kingdom.get('name', kid)}"))
        for cid, char in sorted(world.all("characters")):
            out.append(Choice(f"player:{cid}", f"Player · {char.get('name', cid)}"))
    elif viewer.subject:
        out.append(Choice(str(viewer), identity_label(world, viewer)))
    return tuple(out)


def _audience_identity(audience: str) -> Identity:
    return PUBLIC_VIEWER if audience == "public" else Identity.parse(audience)


def export_text(world: World, viewer: Identity, audience: str, fmt: str, season: str | None = None,
                entry_ids: Iterable[str] | None = None, kingdom: str | None = None, character: str | None = None,
                kind: str | None = None) -> tuple[str, int]:
    """Forum text of the chosen season or entries, filtered for `audience` (which the viewer may export for).

    Returns the text and how many entries it holds.
    """
    from yak_tui.kernel.chronicle import ChronicleFilter, export_entries, filter_entries
    from yak_tui.kernel.model import ValidationError

    allowed = {c.value for c in export_audiences(world, viewer)}
    if audience not in allowed:
        raise ValidationError("audience", f"{viewer} may not export for {audience}; choose {', '.join(sorted(allowed))}")
    reader = _audience_identity(audience)
    chosen = ChronicleFilter.from_args(world, season, kingdom, character, kind)
    entries = filter_entries(world, reader, chosen)
    # Only what the viewer may see too (the audience never sees more, but be strict).
    mine = {e.get("id") for e in visible_entries(world, viewer)}
    entries = [e for e in entries if e.get("id") in mine]
    if entry_ids is not None:
        wanted = set(entry_ids)
        entries = [e for e in entries if e.get("id") in wanted]
    return export_entries(world, entries, fmt, reader), len(entries)


# -- kingdoms, holdings, orders -------------------------------------------------------------------

class KingdomRow(NamedTuple):
    id: str
    name: str
    short: str  # "Elbreth" for "Kingdom of Elbreth": narrow tables and plot legends
    colour: str
    ruler: str
    capital: str
    player: bool
    treasury: float | None
    manpower: int | None
    influence: float | None
    mine: bool


def kingdom_rows(world: World, viewer: Identity) -> tuple[KingdomRow, ...]:
    rows = []
    mine = _viewer_kingdom(world, viewer)
    for kid, doc in sorted(visible_table(world, viewer, "kingdoms").items()):
        rows.append(KingdomRow(
            id=kid, name=str(doc.get("name", kid)), short=short_name(str(doc.get("name", kid))),
            colour=str(doc.get("color", "")),
            ruler=world.display_name("characters", doc.get("ruler")), capital=world.display_name("pcs", doc.get("capital")),
            player=bool(doc.get("player")), treasury=doc.get("treasury"), manpower=doc.get("manpower"),
            influence=doc.get("influence"), mine=kid == mine,
        ))
    return tuple(rows)


def short_name(name: str) -> str:
    """A realm's name without its style ("Principality of Kesh" -> "Kesh")."""
    head, sep, tail = name.partition(" of ")
    return tail if sep and head in ("Kingdom", "Principality", "Empire", "Duchy", "County", "Realm", "Republic") else name


def _viewer_kingdom(world: World, viewer: Identity) -> str | None:
    if viewer.is_king:
        return viewer.subject
    if viewer.is_player:
        return world.kingdom_of_character(viewer.subject)
    return None


class Series(NamedTuple):
    key: str
    name: str
    colour: str
    labels: tuple[str, ...]
    values: tuple[float, ...]


def treasury_history(world: World, viewer: Identity, measure: str = "treasury") -> tuple[Series, ...]:
    """Treasury (or manpower) of each kingdom at each season start, only where the viewer may see it."""
    history = list(world.meta.get("history") or [])
    out = []
    for kid, doc in sorted(world.all("kingdoms")):
        if can_see_document(world, viewer, "kingdoms", kid, doc) != "all":
            continue
        labels, values = [], []
        for point in history:
            value = (point.get("kingdoms") or {}).get(kid, {}).get(measure)
            if value is None:
                continue
            labels.append(GameDate.from_dict(point["date"]).label())
            values.append(float(value))
        current = GameDate.from_dict(world.meta["date"]).label()
        if not labels or labels[-1] != current:
            labels.append(current)
            values.append(float(doc.get(measure, 0)))
        out.append(Series(kid, short_name(str(doc.get("name", kid))), str(doc.get("color", "")), tuple(labels),
                          tuple(values)))
    return tuple(out)


class HoldingRow(NamedTuple):
    table: str
    id: str
    kind: str
    name: str
    detail: str


def holdings(world: World, viewer: Identity) -> tuple[HoldingRow, ...]:
    """What the viewer holds: a player his character and its holdings; a King his kingdom's."""
    if viewer.is_gm or not viewer.subject:
        return ()
    rows: list[HoldingRow] = []
    kingdom = viewer.subject if viewer.is_king else None
    character = viewer.subject if viewer.is_player else None
    if kingdom:
        doc = visible_table(world, viewer, "kingdoms").get(kingdom, {})
        rows.append(HoldingRow("kingdoms", kingdom, "kingdom", str(doc.get("name", kingdom)),
                               f"treasury {_fmt(doc.get('treasury'))} · manpower {_fmt(doc.get('manpower'))}"))
    for cid, doc in sorted(visible_table(world, viewer, "characters").items()):
        if cid == character or (kingdom and doc.get("kingdom") == kingdom):
            rows.append(HoldingRow("characters", cid, doc.get("title", "character").lower(), str(doc.get("name", cid)),
                                   f"treasury {_fmt(doc.get('treasury'))} · {doc.get('status', '')} · at "
                                   f"{world.display_name('pcs', doc.get('location'))}"))
    for pid, doc in sorted(visible_table(world, viewer, "pcs").items()):
        if (character and doc.get("owner_character") == character) or (kingdom and doc.get("controller") == kingdom):
            fort = f" · fort {doc['fort_level']}" if doc.get("fort_level") else ""
            rows.append(HoldingRow("pcs", pid, str(doc.get("kind", "pc")), str(doc.get("name", pid)),
                                   f"tax {_fmt(doc.get('tax'))}{fort}"))
    for uid, doc in sorted(visible_table(world, viewer, "units").items()):
        if (kingdom and doc.get("owner") == kingdom) or (character and doc.get("commander") == character):
            rows.append(HoldingRow("units", uid, str(doc.get("kind", "unit")), str(doc.get("name", uid)),
                                   f"{doc.get('size', '')} · hex {_hex_text(doc.get('hex'))}"))
    kingdom_characters = {cid for cid, c in world.all("characters") if kingdom and c.get("kingdom") == kingdom}
    for bid, doc in sorted(visible_table(world, viewer, "businesses").items()):
        owner = doc.get("owner")
        if owner == character or owner in kingdom_characters:
            rows.append(HoldingRow("businesses", bid, f"{doc.get('sector', '')} business", str(doc.get("name", bid)),
                                   f"size {doc.get('size', '?')} · {world.display_name('provinces', doc.get('province'))}"))
    return tuple(rows)


def _hex_text(value: Any) -> str:
    if isinstance(value, list | tuple) and len(value) == 2:
        return f"{value[0]},{value[1]}"
    return "?"


def _fmt(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class OrderRow(NamedTuple):
    id: str
    command: str
    summary: str
    filed_by: str
    filer: str
    adjudicator: str
    status: str
    private: bool
    filed: str
    outcome: str
    reason: str
    note: str


def _order_row(world: World, order_id: str, order: Mapping[str, Any]) -> OrderRow:
    from yak_tui.kernel.orders import describe_order

    filer = Identity.parse(str(order.get("filed_by", "gm")))
    filed = order.get("filed")
    return OrderRow(
        id=order_id, command=str(order.get("command", "")), summary=describe_order(world, dict(order)),
        filed_by=str(order.get("filed_by", "")), filer=identity_label(world, filer),
        adjudicator=str(order.get("adjudicator", "gm")), status=str(order.get("status", "")),
        private=bool(order.get("private")), filed=GameDate.from_dict(filed).label() if filed else "",
        outcome=str(order.get("outcome", "")), reason=str(order.get("reason", "")), note=str(order.get("note", "")),
    )


def order_queue(world: World, viewer: Identity) -> tuple[OrderRow, ...]:
    """Orders waiting for this viewer to adjudicate, as far as he may see them."""
    from yak_tui.kernel.orders import queue_for

    rows = []
    for oid, order in queue_for(world, viewer):
        shown = filter_document(world, viewer, "orders", oid, order)
        if shown is not None:
            rows.append(_order_row(world, oid, shown))
    return tuple(rows)


def my_orders(world: World, viewer: Identity) -> tuple[OrderRow, ...]:
    from yak_tui.kernel.orders import orders_of

    rows = []
    for oid, order in orders_of(world, viewer):
        shown = filter_document(world, viewer, "orders", oid, order)
        if shown is not None:
            rows.append(_order_row(world, oid, shown))
    return tuple(rows)


# -- dashboard ------------------------------------------------------------------------------------

class DueItem(NamedTuple):
    kind: str
    text: str
    urgent: bool = False


class DashboardView(NamedTuple):
    world_name: str
    date: str
    season: str
    year: int
    year_start_in: int
    identity: str
    identity_label: str
    due: tuple[DueItem, ...]
    kingdoms: tuple[KingdomRow, ...]
    history: tuple[Series, ...]
    chronicle: tuple[EntryView, ...]
    holdings: tuple[HoldingRow, ...]
    queue: tuple[OrderRow, ...]
    my_orders: tuple[OrderRow, ...]
    due_pending: bool = False  # `due` not worked out yet (see dashboard_view)


def due_list(world: World, viewer: Identity) -> tuple[DueItem, ...]:
    """What is due this season for this viewer, with the orders that wait for him first."""
    from yak_tui.kernel.session import due_for

    items = [DueItem(str(i.get("kind", "due")), str(i.get("text", "")), bool(i.get("urgent"))) for i in
             due_for(world, viewer)]
    queue = order_queue(world, viewer)
    if queue:
        items.insert(0, DueItem("orders", f"{len(queue)} order{'s' if len(queue) != 1 else ''} waiting for "
                                          f"{'you' if not viewer.is_gm else 'adjudication'}", True))
    waiting = [o for o in my_orders(world, viewer) if o.status == "waiting"]
    if len(waiting) == 1:
        items.append(DueItem("orders", f"Your order {waiting[0].id} waits for {waiting[0].adjudicator}"))
    elif waiting:
        items.append(DueItem("orders", f"{len(waiting)} of your orders wait for their adjudicators"))
    return tuple(sorted(items, key=lambda i: not i.urgent))


def dashboard_view(world: World, viewer: Identity, chronicle_limit: int = 8, due: bool = True) -> DashboardView:
    """Everything the season dashboard shows. With `due=False` the due list is left for later
    (`due_list`): it needs every rule module's due reporter imported, which a first paint need
    not wait for."""
    date = world.date
    spring = GameDate(date.year + 1, 0)
    return DashboardView(
        world_name=world.name, date=date.label(), season=date.season, year=date.year,
        year_start_in=date.seasons_until(spring), identity=str(viewer), identity_label=identity_label(world, viewer),
        due=due_list(world, viewer) if due else (), kingdoms=kingdom_rows(world, viewer),
        history=treasury_history(world, viewer), chronicle=latest_entries(world, viewer, chronicle_limit),
        holdings=holdings(world, viewer), queue=order_queue(world, viewer), my_orders=my_orders(world, viewer),
        due_pending=not due,
    )


# -- advancing the season -------------------------------------------------------------------------

class StepView(NamedTuple):
    step: str
    title: str
    sums: tuple[tuple[str, float], ...]
    lines: tuple[str, ...]


class AdvancePreview(NamedTuple):
    source: str
    target: str
    year_start: bool
    blocked: tuple[str, ...]
    steps: tuple[StepView, ...]


def advance_preview(preview: Mapping[str, Any], world: World) -> AdvancePreview:
    """Shape `session.preview(save)` (exactly what year start will do) for the confirmation dialog."""
    date = world.date
    steps = tuple(StepView(str(s.get("step", "")), str(s.get("title", "")),
                           tuple((str(k), float(v)) for k, v in (s.get("sums") or {}).items()),
                           tuple(str(line) for line in s.get("lines", [])))
                  for s in preview.get("steps", []))
    return AdvancePreview(source=str(preview.get("from", date.label())), target=str(preview.get("to", date.next().label())),
                          year_start=bool(preview.get("year_start")), blocked=tuple(preview.get("blocked", [])),
                          steps=steps)


# -- commands: forms, odds, dice ------------------------------------------------------------------

class ParamField(NamedTuple):
    name: str
    kind: str  # "str", "int", "float", "bool", "list"
    required: bool
    default: str
    help: str
    options: tuple[Choice, ...] = ()  # a closed list (choices, a referenced table, audiences)


class CommandChoice(NamedTuple):
    name: str
    help: str
    category: str
    fields: tuple[ParamField, ...]
    rolls: bool
    has_odds: bool


def audience_choices(world: World, viewer: Identity) -> tuple[Choice, ...]:
    out = [Choice(PUBLIC, "public"), Choice(ADJUDICATORS, "adjudicators")]
    for kid, doc in sorted(visible_table(world, viewer, "kingdoms").items()):
        if viewer.is_gm or (viewer.is_king and viewer.subject == kid):
            out.append(Choice(f"kingdom:{kid}", f"kingdom · {doc.get('name', kid)}"))
    for cid, doc in sorted(visible_table(world, viewer, "characters").items()):
        if viewer.is_gm or (viewer.is_player and viewer.subject == cid):
            out.append(Choice(f"character:{cid}", f"character · {doc.get('name', cid)}"))
    return tuple(out)


def _default_text(param: Any) -> str:
    """A parameter's default as a form shows it: lists comma-separated, booleans lower-case."""
    default = param.default
    if default is None:
        return ""
    if isinstance(default, list):
        return ",".join(str(item) for item in default)
    if param.kind is bool:
        return str(default).lower()
    return str(default)


def param_fields(world: World, viewer: Identity, name: str) -> tuple[ParamField, ...]:
    """The inputs a form draws for a command, with closed lists already filtered for the viewer."""
    from yak_tui.kernel.commands import spec_for

    spec = spec_for(name)
    fields = []
    for pname, param in spec.params.items():
        options: tuple[Choice, ...] = ()
        if param.choices:
            options = tuple(Choice(str(c), str(c)) for c in param.choices)
        elif param.ref:
            docs = visible_table(world, viewer, param.ref)
            options = tuple(Choice(i, str(d.get("name") or d.get("command") or i)) for i, d in
                            sorted(docs.items(), key=lambda item: str(item[1].get("name", item[0]))))
        elif pname == "audience":
            options = audience_choices(world, viewer)
        fields.append(ParamField(pname, param.kind.__name__, param.required, _default_text(param), param.help,
                                 options))
    return tuple(fields)


def command_choice(world: World, viewer: Identity, name: str) -> CommandChoice:
    from yak_tui.kernel.commands import spec_for

    spec = spec_for(name)
    return CommandChoice(spec.name, spec.help, spec.category, param_fields(world, viewer, name), spec.rolls,
                         spec.odds is not None)


def order_commands(world: World, viewer: Identity) -> tuple[CommandChoice, ...]:
    """Commands a player or King may file as an order: those with stakes, or outside season and orders."""
    from yak_tui.kernel.commands import COMMANDS, load_command_modules

    load_command_modules()
    out = []
    for name, spec in sorted(COMMANDS.items()):
        if name in ("advance", "undo") or name.startswith("order-"):
            continue
        # Issue 3's rule, plus the SSH roster: a login is the GM's business, never an order.
        if spec.category != "roster" and (spec.stakes is not None or spec.category not in ("season", "orders")):
            out.append(command_choice(world, viewer, name))
    return tuple(out)


def all_commands() -> tuple[tuple[str, str, str], ...]:
    """(name, help, category) of every registered command, for the command palette."""
    from yak_tui.kernel.commands import COMMANDS, load_command_modules

    load_command_modules()
    return tuple((n, s.help, s.category) for n, s in sorted(COMMANDS.items()))


class Problem(NamedTuple):
    """A refused command or form: which field, why, and who may do it instead."""

    field: str
    reason: str
    who_may: tuple[str, ...] = ()

    def message(self) -> str:
        who = f" — who may: {', '.join(self.who_may)}" if self.who_may else ""
        return f"{self.field}: {self.reason}{who}"


def problem_of(error: BaseException) -> Problem:
    from yak_tui.kernel.commands import CommandError
    from yak_tui.kernel.model import ValidationError

    if isinstance(error, CommandError):
        return Problem(error.field, error.reason, tuple(error.who_may))
    if isinstance(error, ValidationError):
        return Problem(error.field, error.reason)
    name = type(error).__name__
    text = str(error)
    if name == "DiceError":
        return Problem("dice", text)
    if name in ("StoreError", "CorruptSaveError"):
        return Problem("save", text)
    return Problem("error", f"{name}: {text}")


def clean_params(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Form values as the command layer reads them (empty text means 'not given')."""
    return {k: v for k, v in raw.items() if v not in (None, "")}


def check_command(world: World, viewer: Identity, name: str, raw: Mapping[str, Any],
                  principal: Identity | None = None) -> Problem | None:
    """Validate a command as typed, on a throwaway copy (nothing is written)."""
    from yak_tui.kernel.commands import validate_only

    try:
        validate_only(world, viewer, name, clean_params(raw), principal)
    except Exception as error:
        return problem_of(error)
    return None


def check_order(world: World, filer: Identity, name: str, raw: Mapping[str, Any], private: bool = False) -> Problem | None:
    """Would `order-file` accept this order right now? (checked as the adjudicator would carry it out)."""
    from yak_tui.kernel.commands import spec_for
    from yak_tui.kernel.orders import PRIVATE_CATEGORIES

    try:
        spec = spec_for(name)
    except Exception as error:
        return problem_of(error)
    if private and spec.category not in PRIVATE_CATEGORIES:
        return Problem("private", "only NPC espionage missions may be submitted privately (RULINGS §1)")
    problem = check_command(world, GM, name, raw, principal=filer)
    if problem is not None:
        return Problem(f"order.{problem.field}" if not problem.field.startswith("order") else problem.field,
                       problem.reason, problem.who_may)
    return None


def order_file_params(name: str, raw: Mapping[str, Any], private: bool = False, note: str = "") -> dict[str, Any]:
    """The `order-file` parameters for an order written in a form."""
    import orjson

    return {"command": name, "params": orjson.dumps(clean_params(raw)).decode(), "private": private, "note": note}


class OddsView(NamedTuple):
    rows: tuple[tuple[str, float], ...]
    extra: tuple[tuple[str, float], ...] = ()


def command_odds(world: World, viewer: Identity, name: str, raw: Mapping[str, Any]) -> OddsView | None:
    """Exact odds of each outcome before rolling (CommandSpec.odds), or None if it rolls none or input is bad.

    For `order-resolve` the odds are those of the order being carried out, for its filer.
    """
    from yak_tui.kernel.commands import coerce_params, spec_for

    try:
        spec = spec_for(name)
        # Odds depend on the modifiers, not on the text still to be typed: missing required
        # parameters are left at their defaults rather than refusing to show any odds.
        lenient = replace(spec, params={k: replace(p, required=False) for k, p in spec.params.items()})
        params = coerce_params(lenient, clean_params(raw), world)
        actor = viewer
        if name == "order-resolve":
            order = world.get("orders", params["order"])
            spec = spec_for(order["command"])
            actor = Identity.parse(order["filed_by"])
            params = coerce_params(spec, order.get("params", {}), world)
        if spec.odds is None:
            return None
        data = spec.odds(world, actor, params)
    except Exception:
        return None
    odds = data.get("odds", data)
    rows = tuple((str(k), float(v)) for k, v in odds.items() if isinstance(v, int | float))
    # Extras are probabilities (the odds JSON convention); counts, costs and percents beside them are not.
    extra = tuple((str(k), float(v)) for k, v in data.items() if k != "odds" and isinstance(v, float)
                  and 0.0 <= v <= 1.0)
    return OddsView(rows, extra)


def parse_naturals(text: str) -> tuple[list[int], str | None]:
    """Naturals typed off physical dice (`4` or `4, 2`): each a whole number 1..6."""
    naturals: list[int] = []
    items = [item.strip() for item in text.replace(" ", ",").split(",") if item.strip()]
    if not items:
        return [], "type the dice as rolled, e.g. 4 or 4,2"
    for index, item in enumerate(items, start=1):
        if not item.isdecimal() or len(item) > 3:  # "²" is a digit int() refuses; 5,000 digits overflow it
            return [], f"die {index} is {shown(item)}, not a whole number from 1 to 6"
        value = int(item)
        if not 1 <= value <= 6:
            return [], f"die {index} is {value}, but a d6 shows 1 to 6"
        naturals.append(value)
    return naturals, None


def check_hand_dice(world: World, viewer: Identity, name: str, raw: Mapping[str, Any],
                    naturals: list[int]) -> str | None:
    """Are these hand-rolled naturals exactly what the command will read? (trial run, nothing written)"""
    from yak_tui.kernel.commands import apply_command
    from yak_tui.kernel.dice import HandDice

    dice = HandDice(naturals)
    try:
        apply_command(World(copy.deepcopy(world.data)), viewer, name, clean_params(raw), dice)
    except Exception as error:
        return problem_of(error).message()
    if dice.remaining:
        return f"{len(naturals)} dice typed, but the roll reads only {dice.used}"
    return None


# -- rolls just made --------------------------------------------------------------------------------

class RollView(NamedTuple):
    """One roll as the viewer may see it: naturals are None for someone else's blind roll."""

    purpose: str
    naturals: tuple[int, ...] | None
    modifiers: tuple[tuple[int, str], ...]
    total: int | None
    band: str
    outcome: str
    blind: bool
    manual: bool
    line: str


def roll_views(world: World, viewer: Identity, entries: Iterable[Mapping[str, Any]]) -> tuple[RollView, ...]:
    """The rolls of the entries a command just wrote, through the audience filter."""
    from yak_tui.kernel.chronicle import roll_line

    out = []
    for entry in entries:
        shown = filter_entry(world, viewer, dict(entry))
        if shown is None:
            continue
        for roll in shown.get("rolls", []):
            hidden = "naturals" not in roll
            out.append(RollView(
                purpose=str(roll.get("purpose", "roll")),
                naturals=None if hidden else tuple(int(n) for n in roll.get("naturals", [])),
                modifiers=() if hidden else tuple((int(m["value"]), str(m["reason"])) for m in roll.get("modifiers", [])),
                total=None if hidden else roll.get("total"), band="" if hidden else str(roll.get("band", "")),
                outcome=str(roll.get("outcome", "")), blind=bool(roll.get("blind")),
                manual=roll.get("source") == "manual", line=roll_line(roll),
            ))
    return tuple(out)


def result_lines(world: World, viewer: Identity, entries: Iterable[Mapping[str, Any]]) -> tuple[str, ...]:
    """The chronicle lines a command wrote, as far as the viewer may see them."""
    out = []
    for entry in entries:
        shown = filter_entry(world, viewer, dict(entry))
        if shown is not None:
            out.append(str(shown.get("text", "")))
    return tuple(out)


# -- rule screens ---------------------------------------------------------------------------------

PC_GLYPHS = {"castle": "♜", "fort": "▲", "city": "◉", "town": "●", "village": "∙", "market": "¤", "port": "≈",
             "temple": "†", "monastery": "‡", "mine": "◆"}


class Place(NamedTuple):
    table: str
    id: str
    name: str
    detail: str
    kingdom: str
    colour: str


class HexCell(NamedTuple):
    q: int
    r: int
    glyph: str
    controller: str
    colour: str
    province: str
    places: tuple[Place, ...] = ()

    @property
    def units(self) -> int:
        return sum(1 for p in self.places if p.table == "units")

    @property
    def characters(self) -> int:
        return sum(1 for p in self.places if p.table == "characters")


class MapView(NamedTuple):
    cells: dict[tuple[int, int], HexCell]
    legend: tuple[tuple[str, str, str], ...]  # (kingdom id, name, colour)
    home: tuple[int, int] | None  # where the cursor starts: the viewer's capital or whereabouts
    where: dict[str, tuple[int, int]]  # "table:id" -> the hex it stands on


def _as_hex(value: Any) -> tuple[int, int] | None:
    if isinstance(value, list | tuple) and len(value) == 2 and all(isinstance(v, int) for v in value):
        return int(value[0]), int(value[1])
    return None


def map_view(world: World, viewer: Identity) -> MapView:
    """The hexes that hold something the viewer may see: places, forces and people."""
    kingdoms = visible_table(world, viewer, "kingdoms")
    colour = {k: str(d.get("color", "")) for k, d in kingdoms.items()}
    cells: dict[tuple[int, int], dict[str, Any]] = {}
    index: dict[str, tuple[int, int]] = {}
    pcs = visible_table(world, viewer, "pcs")

    def cell(h: tuple[int, int]) -> dict[str, Any]:
        return cells.setdefault(h, {"glyph": "", "controller": "", "province": "", "places": []})

    for pid, doc in sorted(pcs.items()):
        h = _as_hex(doc.get("hex"))
        if h is None:
            continue
        c = cell(h)
        controller = str(doc.get("controller") or "")
        c.update(glyph=PC_GLYPHS.get(str(doc.get("kind")), "○"), controller=controller,
                 province=world.display_name("provinces", doc.get("province")))
        fort = f" · fort level {doc['fort_level']}" if doc.get("fort_level") else ""
        c["places"].append(Place("pcs", pid, str(doc.get("name", pid)), f"{doc.get('kind', '')}{fort}", controller,
                                 colour.get(controller, "")))
        index[f"pcs:{pid}"] = h
    for uid, doc in sorted(visible_table(world, viewer, "units").items()):
        h = _as_hex(doc.get("hex"))
        if h is None:
            continue
        owner = str(doc.get("owner", ""))
        cell(h)["places"].append(Place("units", uid, str(doc.get("name", uid)),
                                       f"{doc.get('size', '')} {doc.get('kind', '')}".strip(), owner, colour.get(owner, "")))
        index[f"units:{uid}"] = h
    for cid, doc in sorted(visible_table(world, viewer, "characters").items()):
        location = doc.get("location")
        if not location or location not in pcs:
            continue
        h = _as_hex(pcs[location].get("hex"))
        if h is None:
            continue
        kingdom = str(doc.get("kingdom") or "")
        cell(h)["places"].append(Place("characters", cid, str(doc.get("name", cid)), str(doc.get("title", "")), kingdom,
                                       colour.get(kingdom, "")))
        index[f"characters:{cid}"] = h
    for kid, doc in kingdoms.items():
        capital = doc.get("capital")
        if capital and f"pcs:{capital}" in index:
            index[f"kingdoms:{kid}"] = index[f"pcs:{capital}"]
    for pid in visible_table(world, viewer, "provinces"):
        for pc_id, pc in sorted(pcs.items()):
            if pc.get("province") == pid and f"pcs:{pc_id}" in index:
                index[f"provinces:{pid}"] = index[f"pcs:{pc_id}"]
                break
    built = {h: HexCell(h[0], h[1], c["glyph"], c["controller"], colour.get(c["controller"], ""), c["province"],
                        tuple(c["places"])) for h, c in cells.items()}
    home = None
    if viewer.is_king:
        home = index.get(f"kingdoms:{viewer.subject}")
    elif viewer.is_player:
        home = index.get(f"characters:{viewer.subject}")
    if home is None and built:
        home = min(built, key=lambda h: (h[1], h[0]))
    legend = tuple((k, str(d.get("name", k)), colour.get(k, "")) for k, d in sorted(kingdoms.items()))
    return MapView(built, legend, home, index)  # (cells, legend, home, where)


# -- the command palette ---------------------------------------------------------------------------

class SearchItem(NamedTuple):
    table: str  # kingdoms, provinces, characters, pcs, units
    id: str
    name: str
    detail: str


def search_items(world: World, viewer: Identity) -> tuple[SearchItem, ...]:
    """Everything the palette can jump to by name, as far as the viewer may see it."""
    out = []
    labels = {"kingdoms": "kingdom", "provinces": "province", "characters": "character", "pcs": "place", "units": "force"}
    for table_name, label in labels.items():
        for doc_id, doc in sorted(visible_table(world, viewer, table_name).items()):
            detail = label
            if table_name == "characters":
                detail = f"{doc.get('title', 'character')} · {world.display_name('kingdoms', doc.get('kingdom'))}"
            elif table_name == "provinces":
                detail = f"province · {world.display_name('kingdoms', doc.get('kingdom'))}"
            elif table_name == "pcs":
                detail = f"{doc.get('kind', 'place')} · {world.display_name('provinces', doc.get('province'))}"
            elif table_name == "units":
                detail = f"{doc.get('size', '')} {doc.get('kind', '')} · {world.display_name('kingdoms', doc.get('owner'))}"
            out.append(SearchItem(table_name, doc_id, str(doc.get("name", doc_id)), detail))
    return tuple(out)


def describe(world: World, viewer: Identity, table_name: str, doc_id: str) -> tuple[tuple[str, str], ...]:
    """Field/value pairs of one document as the viewer may see it (the map's details panel)."""
    doc = visible_table(world, viewer, table_name).get(doc_id)
    if doc is None:
        return ()
    out = []
    for key, value in doc.items():
        if key in ("year_counters",) or (isinstance(value, Mapping) and not value):
            continue
        if isinstance(value, str) and key in ("kingdom", "controller", "owner") and value in world.table("kingdoms"):
            value = world.display_name("kingdoms", value)
        elif isinstance(value, str) and key in ("location", "capital", "pc", "residence") and value in world.table("pcs"):
            value = world.display_name("pcs", value)
        elif isinstance(value, str) and key in ("ruler", "owner_character", "commander") and value in world.table("characters"):
            value = world.display_name("characters", value)
        elif isinstance(value, str) and key == "province":
            value = world.display_name("provinces", value)
        out.append((key.replace("_", " "), _value_text(value)))
    return tuple(out)


def _value_text(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Mapping):
        return ", ".join(f"{k} {_value_text(v)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(_value_text(v) for v in value) or "—"
    return _fmt(value)
