"""The season told as events: the chronicle of a season folded into the lines a forum reader reads.

An order and what came of it are ONE line ("Kingdom of Varos raised 2 regiments of infantry at
Thornfield (6 ducats)"): its filing, its payments and the line saying it was carried out are folded
into it. Bookkeeping (who is ready, the deadline, a season closing) is left out, and each line is
placed in the section a reader looks for it in (war, trade, intrigue, magic, court, the new year).

The words are the areas': each registers how its orders read (`order_words`) and which section its
commands belong to (`post_section`); the kernel knows no area. An order no area words is told by
what its own chronicle lines say.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from yak_tui.kernel.play.chronicle import roll_line
from yak_tui.kernel.play.identity import Identity, IdentityError, identity_name
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import ducats

COURT = "Court"
NEW_YEAR = "The new year"
# The sections an area named (`post_section`), their places in a post, and each command category's.
_SECTION_ORDER: list[str] = []
_SECTION_RANK: dict[str, int] = {}
_SECTION_OF_CATEGORY: dict[str, str] = {}
# Chronicle kinds that are bookkeeping, never news: the season closing and opening, readiness.
BOOKKEEPING_KINDS = ("season", "ready", "undo")


def post_section(title: str, *categories: str, rank: int = 50) -> None:
    """An area names the section its commands' lines go in (by command category), and where the
    section stands in a post (a lower `rank` first; the court and the new year close it)."""
    if title not in _SECTION_ORDER:
        _SECTION_ORDER.append(title)
        _SECTION_RANK[title] = rank
    for category in categories:
        _SECTION_OF_CATEGORY[category] = title


def section_order() -> list[str]:
    """The sections in the order a post shows them: the areas' by rank, then the court's, then the new year."""
    areas = sorted((t for t in _SECTION_ORDER if t not in (COURT, NEW_YEAR)), key=lambda t: _SECTION_RANK[t])
    return [*areas, COURT, NEW_YEAR]


# What was done: from the world, the order, and the order's own chronicle lines this reader may see.
Did = Callable[[World, dict[str, Any], list[dict[str, Any]]], str]


@dataclass(frozen=True)
class OrderWords:
    """How an order of one command reads. `did`: what was done, a whole sentence without its cost
    ("Kingdom of Varos raised 2 regiments of infantry at Thornfield"), read from the world, the order
    and the order's own lines; `plan`: the order as asked, after "to" ("raise 2 regiments of infantry
    at Thornfield"). `tells`: the kinds of its own chronicle lines the sentence already says (left
    out; the others follow it as details)."""

    did: Did | None  # None: its own first line says it
    plan: Callable[[World, dict[str, Any]], str]
    tells: tuple[str, ...] = ()


ORDER_WORDS: dict[str, OrderWords] = {}


def order_words(
    command: str,
    did: Did | None,
    plan: Callable[[World, dict[str, Any]], str],
    tells: tuple[str, ...] = (),
) -> None:
    """Register how orders of `command` read (called by the area that owns the command)."""
    ORDER_WORDS[command] = OrderWords(did, plan, tells)


def filer_name(world: World, order: dict[str, Any]) -> str:
    """Who filed an order, as a sentence names him: the kingdom for a King, else the character."""
    filer = str(order.get("filed_by", ""))
    if filer.startswith("king:") and order.get("kingdom"):
        return world.display_name("kingdoms", str(order["kingdom"]))
    try:
        return identity_name(world, Identity.parse(filer))
    except IdentityError:
        return filer


def named(world: World, table: str, doc_id: Any) -> str:
    """A document by its name (an id no one can read never reaches a post: "someone" instead)."""
    found = world.find(table, str(doc_id)) if doc_id else None
    return str(found.get("name", "someone")) if found else "someone"


def shown_param(world: World, order: dict[str, Any], key: str, default: str = "") -> str:
    """One of an order's values as a reader names it: a document by its name, a mission by its
    label, anything else as it was written."""
    from yak_tui.kernel.play.commands import CommandError, spec_for

    value = (order.get("params") or {}).get(key)
    if value is None or value == "":
        return default
    try:
        param = spec_for(str(order.get("command", ""))).params.get(key)
    except CommandError:
        param = None
    if param is not None and isinstance(param.ref, str):
        return named(world, param.ref, value)
    if param is not None and param.label is not None:
        return param.label(str(value))
    return str(value)


def _plan_words(world: World, order: dict[str, Any]) -> str:
    words = ORDER_WORDS.get(str(order.get("command", "")))
    if words is not None:
        return words.plan(world, order)
    from yak_tui.kernel.play.commands import CommandError, spec_for

    try:
        params = spec_for(str(order["command"])).params
    except CommandError:
        params = {}
    names = [
        named(world, str(params[key].ref), value)
        for key, value in (order.get("params") or {}).items()
        if key in params and isinstance(params[key].ref, str) and value
    ]
    what = str(order.get("command", "")).replace("-", " ")
    return f"{what} ({', '.join(names)})" if names else what


def _category(command: str) -> str:
    from yak_tui.kernel.play.commands import CommandError, spec_for

    try:
        return spec_for(command).category
    except CommandError:
        return ""


def section_of(entry: dict[str, Any], command: str | None = None) -> str:
    if str(entry.get("kind", "")).startswith("year-start"):
        return NEW_YEAR
    return _SECTION_OF_CATEGORY.get(_category(command or str(entry.get("command", ""))), COURT)


Notes = Callable[[dict[str, Any]], list[str]] | None


def _told_rolls(entry: dict[str, Any], notes: Notes = None) -> list[str]:
    """The roll lines a reader can check (a blind roll that says only that it was rolled tells
    nothing and is left out), then any note for this reader (the GM's)."""
    out = []
    for roll in entry.get("rolls", []):
        if "naturals" not in roll and str(roll.get("outcome", "")).strip() in ("", "rolled"):
            continue
        out.append(roll_line(roll))
    return out + (notes(entry) if notes is not None else [])


def _paid(order: dict[str, Any], entry: dict[str, Any]) -> float:
    """What the filer paid in this line (0: it is no payment of his)."""
    payer = (
        f"kingdoms:{order.get('kingdom')}"
        if str(order.get("filed_by", "")).startswith("king:")
        else f"characters:{order.get('character')}"
    )
    amount = float((entry.get("amounts") or {}).get(payer, 0))
    return -amount if amount < 0 else 0.0


@dataclass
class Event:
    """One line of a post or a report: its section, its words and what follows it."""

    section: str
    text: str
    details: list[str]

    def item(self) -> dict[str, Any]:
        return {"text": self.text, "details": self.details}


def _order_line(world: World, order: dict[str, Any], own: list[dict[str, Any]], notes: Notes) -> Event:
    """A carried-out order and what came of it, as one line; its other lines become details."""
    command = str(order.get("command", ""))
    words = ORDER_WORDS.get(command)
    rest = [entry for entry in own if not _paid(order, entry)]
    if words is not None and words.did is not None:
        text = words.did(world, order, own)
        rest = [entry for entry in rest if entry.get("kind") not in words.tells]
    elif rest:
        text, rest = str(rest[0]["text"]), rest[1:]
    else:
        outcome = str(order.get("outcome") or "done")
        text = f"{filer_name(world, order)}: {_plan_words(world, order)}, {outcome}"
    cost = sum(_paid(order, entry) for entry in own)
    if cost:
        text = f"{text.rstrip('.')} ({ducats(cost)})"
    details: list[str] = []
    for entry in own:
        if entry in rest:
            details.append(str(entry["text"]))
        details += _told_rolls(entry, notes)
    return Event(section_of({}, command), text, details)


def season_events(world: World, entries: list[dict[str, Any]], notes: Notes = None) -> list[Event]:
    """The season's entries (already filtered for their reader, oldest first) as events: each order
    once, with its outcome and cost; no bookkeeping; no line said twice. `notes`: what else this
    reader reads under a line (the GM's notes)."""
    orders = {
        str(entry["refs"]["order"]): world.find("orders", str(entry["refs"]["order"])) or {}
        for entry in entries
        if (entry.get("refs") or {}).get("order")
    }
    by_id = {str(entry.get("id")): entry for entry in entries}
    # An order's own lines are told in its one line, so only where that line is told (an entry of an
    # older save, with no `event`, is told as it was written).
    told = {str(e["refs"]["order"]) for e in entries if (e.get("refs") or {}).get("event") == "resolved"}
    folded = {str(eid) for order_id in told for eid in orders.get(order_id, {}).get("entries", [])}
    events: list[Event] = []
    seen: set[str] = set()
    previous: dict[str, Any] = {}
    for entry in entries:
        kind = str(entry.get("kind", ""))
        refs = entry.get("refs") or {}
        if kind in BOOKKEEPING_KINDS or str(entry.get("id")) in folded or _told_before(entry, previous):
            continue
        previous = entry
        event: Event | None
        if kind == "order" and refs.get("order"):
            event = _order_event(world, orders.get(str(refs["order"])) or {}, entry, by_id, notes)
        else:
            event = Event(section_of(entry), str(entry["text"]), _told_rolls(entry, notes))
        if event is None or event.text in seen:
            continue
        seen.add(event.text)
        events.append(event)
    return events


def _told_before(entry: dict[str, Any], previous: dict[str, Any]) -> bool:
    """A payment line whose sum the same command's line just before it already told ("captures Lysa
    and robs her of 11 ducats", then "Lysa pays 11 ducats to ..."): one event, told once."""
    if entry.get("kind") != "ducats" or not previous:
        return False
    if (entry.get("command"), entry.get("actor")) != (previous.get("command"), previous.get("actor")):
        return False
    sums = {ducats(abs(float(amount))) for amount in (entry.get("amounts") or {}).values() if amount}
    return bool(sums) and all(said in str(previous.get("text", "")) for said in sums)


def _order_event(
    world: World, order: dict[str, Any], entry: dict[str, Any], by_id: dict[str, dict[str, Any]], notes: Notes
) -> Event | None:
    """The one line an order's entry stands for: its outcome when it was carried out or rejected;
    nothing for its filing or a withdrawal (the outcome line tells the order)."""
    event = str((entry.get("refs") or {}).get("event", ""))
    command = str(order.get("command", ""))
    if event == "resolved" and order:
        own = [by_id[str(eid)] for eid in order.get("entries", []) if str(eid) in by_id]
        return _order_line(world, order, own, notes)
    if event == "rejected" and order:
        told = f"{filer_name(world, order)}'s order to {_plan_words(world, order)} was rejected"
        reason = str(order.get("reason", "")).strip()
        if entry.get("audience", "public") != "public" and reason:
            told += f": {reason}"
        return Event(section_of({}, command), told + ("" if told.endswith(".") else "."), [])
    if event in ("filed", "withdrawn"):
        return None
    return Event(section_of(entry, command or None), str(entry["text"]), _told_rolls(entry, notes))


def sections_of(events: list[Event]) -> list[dict[str, Any]]:
    """Events grouped by section, in the post's order of sections (empty ones left out)."""
    grouped: dict[str, list[dict[str, Any]]] = {}
    for event in events:
        grouped.setdefault(event.section, []).append(event.item())
    order = section_order()
    titles = sorted(grouped, key=lambda t: order.index(t) if t in order else len(order))
    return [{"title": title, "items": grouped[title]} for title in titles]


post_section(COURT, "general", "dice", "season", "orders", "gm", "world")
post_section(NEW_YEAR)

__all__ = [
    "COURT",
    "NEW_YEAR",
    "ORDER_WORDS",
    "Event",
    "OrderWords",
    "filer_name",
    "named",
    "order_words",
    "post_section",
    "season_events",
    "section_of",
    "section_order",
    "sections_of",
    "shown_param",
]
