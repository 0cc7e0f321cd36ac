"""The court's read models: who may take the keyboard, the chronicle and its export, kingdoms,
holdings and orders, the season dashboard, the advance preview and the palette's names.

Plain records, already filtered for one viewer: every document and chronicle entry reaches them
through `yak_tui.kernel.play.audience` (`visible_table`, `filter_document`, `visible_entries`), so a
screen cannot show what its viewer may not see. No Textual here. The records are NamedTuples
rather than dataclasses: the same immutable fields at a seventh of the import cost (the
dashboard must paint within twice a bare Textual app's startup).
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, overload

from yak_tui.kernel.errors import ValidationError, YakError
from yak_tui.kernel.play.audience import (
    PUBLIC,
    can_see_document,
    filter_document,
    newest_seen,
    redact_entry,
    seen_entries,
    visible_entries,
    visible_table,
)
from yak_tui.kernel.play.identity import GM, Identity, identity_label
from yak_tui.kernel.play.views import Choice
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import shown_value

if TYPE_CHECKING:
    from yak_tui.store.storage import WorldFile

# A viewer who sees exactly the public record: the audience of a public forum post.
PUBLIC_VIEWER = Identity("player", "")


# -- identities -----------------------------------------------------------------------------------


class IdentityChoice(NamedTuple):
    identity: str
    label: str
    group: str  # "GM", "Kings", "Players"


def identities(world: World) -> list[IdentityChoice]:
    """Everyone the hotseat GM may hand the keyboard to: the GM (and each co-GM of the roster), each
    King, each living character."""
    out = [IdentityChoice("gm", "GM", "GM")]
    co_gms = sorted(
        {str(doc.get("identity")) for _, doc in world.all("users") if str(doc.get("identity", "")).startswith("gm:")}
    )
    out += [IdentityChoice(gm, identity_label(world, Identity.parse(gm)), "GM") for gm in co_gms]
    for kid, kingdom in sorted(world.all("kingdoms")):
        if not kingdom.get("player"):
            continue  # an NPC kingdom (Kesh) has no King at the table: the GM plays it, and its rolls are refused
        out.append(IdentityChoice(f"king:{kid}", f"King · {kingdom.get('name', kid)}", "Kings"))
    for cid, char in sorted(world.all("characters"), key=lambda item: (str(item[1].get("kingdom")), item[0])):
        if not char.get("alive", True):
            continue
        realm = world.display_name("kingdoms", char.get("kingdom"))
        out.append(
            IdentityChoice(f"player:{cid}", f"{char.get('name', cid)} ({char.get('title', '')}, {realm})", "Players")
        )
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
    signed_by: str = ""  # the co-GM who acted ("alice" for `gm:alice`): shown to the GM only


def signer(actor: str, viewer: Identity | None) -> str:
    """Who of several GMs did it, for a GM's eyes ("" for the plain GM or another viewer)."""
    if viewer is None or not viewer.is_gm:
        return ""
    role, _, name = actor.partition(":")
    return name if role == "gm" else ""


def _entry_id(entry: Mapping[str, Any]) -> str:
    return str(entry.get("id", entry.get("seq", "")))


def entry_view(entry: Mapping[str, Any], viewer: Identity | None = None) -> EntryView:
    """An entry that has already been through the audience filter, ready to draw; `viewer` a GM:
    with the co-GM who acted."""
    from yak_tui.kernel.play.chronicle import roll_line

    date = GameDate.from_dict(entry["date"])
    rolls = tuple(roll_line(r) for r in entry.get("rolls", []))
    return EntryView(
        id=_entry_id(entry),
        seq=int(entry.get("seq", 0)),
        date=date.label(),
        season_key=date.key(),
        kind=str(entry.get("kind", "event")),
        text=str(entry.get("text", "")),
        audience=str(entry.get("audience", PUBLIC)),
        actor=str(entry.get("actor", "")),
        rolls=rolls,
        blind=any(r.get("blind") for r in entry.get("rolls", [])),
        note=str(entry.get("secret") or entry.get("adjudicator_note") or ""),
        signed_by=signer(str(entry.get("actor", "")), viewer),
    )


class EntryViews(Sequence[EntryView]):
    """Chronicle entries, oldest first, each redacted and drawn the first time it is asked for: a
    screen shows a page of them, so a chronicle of 100,000 entries costs a page, not 100,000 views.

    Built from entries as stored that `viewer` may see (`seen_entries`); without a viewer, from
    entries already filtered for their reader."""

    def __init__(
        self, entries: Sequence[dict[str, Any]] = (), viewer: Identity | None = None, ids: tuple[str, ...] | None = None
    ) -> None:
        self._entries = entries
        self._viewer = viewer
        self._drawn: dict[int, EntryView] = {}
        self._ids: tuple[str, ...] | None = ids  # every entry's id, when the caller has them already
        self._positions: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def __getitem__(self, index: int) -> EntryView: ...

    @overload
    def __getitem__(self, index: slice) -> EntryViews: ...

    def __getitem__(self, index: int | slice) -> EntryView | EntryViews:
        if isinstance(index, slice):
            return EntryViews(self._entries[index], self._viewer)
        return self._draw(range(len(self._entries))[index])  # a negative index counts from the newest

    def _draw(self, position: int) -> EntryView:
        drawn = self._drawn.get(position)
        if drawn is None:
            entry = self._entries[position]
            drawn = entry_view(entry if self._viewer is None else redact_entry(self._viewer, entry), self._viewer)
            self._drawn[position] = drawn
        return drawn

    def draw_newest(self, count: int) -> None:
        """Draw the newest `count` entries, and list every id, now (in the screen's worker, not
        on the event loop)."""
        for position in range(max(0, len(self._entries) - count), len(self._entries)):
            self._draw(position)
        self._ids = self.ids

    @property
    def ids(self) -> tuple[str, ...]:
        """Every entry's id, without drawing any."""
        if self._ids is None:
            self._ids = tuple(_entry_id(entry) for entry in self._entries)
        return self._ids

    def by_id(self, entry_id: str) -> EntryView:
        if self._positions is None:
            self._positions = {entry_id: position for position, entry_id in enumerate(self.ids)}
        return self[self._positions[entry_id]]


NEWEST_DRAWN = 200
"""Entries `chronicle_view` draws up front, newest first: the screen's first page (off the event loop)."""


class ChronicleView(NamedTuple):
    entries: EntryViews
    seasons: tuple[Choice, ...]
    kingdoms: tuple[Choice, ...]
    characters: tuple[Choice, ...]
    kinds: tuple[Choice, ...]
    total: int  # entries the viewer may see before the filter


class _WholeChronicle(NamedTuple):
    """The GM's whole chronicle on one world, and what the filter bar offers for it: kept for the
    last two worlds (`_GM_CHRONICLES`, by `World.serial`), so that the world a note later
    (`World.follows`) extends it by the entries the note added instead of sorting and walking
    100,000 entries again."""

    table: dict[str, dict[str, Any]]  # that world's chronicle table
    seen: list[dict[str, Any]]  # every entry as stored, by seq
    ids: tuple[str, ...]
    dates: frozenset[tuple[Any, Any]]
    kinds: frozenset[str]
    kingdoms: tuple[Choice, ...]
    characters: tuple[Choice, ...]


_GM_CHRONICLES: dict[int, _WholeChronicle] = {}
_GM_CHRONICLES_KEPT = 2  # worlds: the one shown, and the one before it (the next reload follows the first)
_GM_CHRONICLES_GUARD = threading.Lock()  # the apps of one process build read models in threads


def _choices(world: World, viewer: Identity) -> tuple[tuple[Choice, ...], tuple[Choice, ...]]:
    """The kingdoms and characters the filter bar offers the viewer."""
    kingdoms = tuple(Choice(k, d.get("name", k)) for k, d in sorted(visible_table(world, viewer, "kingdoms").items()))
    characters = tuple(
        Choice(c, d.get("name", c))
        for c, d in sorted(visible_table(world, viewer, "characters").items(), key=lambda i: i[1].get("name", i[0]))
    )
    return kingdoms, characters


def _whole(
    world: World,
    viewer: Identity,
    seen: list[dict[str, Any]],
    ids: tuple[str, ...] = (),
    dates: frozenset[tuple[Any, Any]] = frozenset(),
    kinds: frozenset[str] = frozenset(),
    choices: tuple[tuple[Choice, ...], tuple[Choice, ...]] | None = None,
    walked: int = 0,
) -> _WholeChronicle:
    """The chronicle's parts from `seen` (the viewer's entries by seq): the entries past the first
    `walked` are walked, the `ids`, `dates` and `kinds` of those are given."""
    more_dates: set[tuple[Any, Any]] = set()
    more_kinds: set[str] = set()
    for entry in seen[walked:]:
        date = entry["date"]
        more_dates.add((date["year"], date["season"]))
        more_kinds.add(str(entry.get("kind", "event")))
    kingdoms, characters = choices or _choices(world, viewer)
    return _WholeChronicle(
        table=world.table("chronicle"),
        seen=seen,
        ids=ids + tuple(_entry_id(entry) for entry in seen[walked:]),
        dates=dates | more_dates,
        kinds=kinds | more_kinds,
        kingdoms=kingdoms,
        characters=characters,
    )


def _gm_chronicle(world: World) -> _WholeChronicle:
    """The GM's whole chronicle on `world`: extended from the one built on the world it follows
    when the writes since only added entries (a note, a roll), else built whole."""
    with _GM_CHRONICLES_GUARD:
        held = _GM_CHRONICLES.get(world.serial)
    if held is not None and held.table is world.table("chronicle"):
        return held
    built = _gm_chronicle_extended(world) or _whole(world, GM, seen_entries(world, GM))
    with _GM_CHRONICLES_GUARD:
        _GM_CHRONICLES[world.serial] = built
        while len(_GM_CHRONICLES) > _GM_CHRONICLES_KEPT:
            del _GM_CHRONICLES[next(iter(_GM_CHRONICLES))]
    return built


def _gm_chronicle_extended(world: World) -> _WholeChronicle | None:
    follows = world.follows()
    if follows is None:
        return None
    serial, written = follows
    with _GM_CHRONICLES_GUARD:
        before = _GM_CHRONICLES.get(serial)
    if before is None:
        return None
    table, earlier = world.table("chronicle"), before.table
    written_ids = written.get("chronicle", frozenset())
    if len(table) != len(earlier) + len(written_ids) or any(entry_id in earlier for entry_id in written_ids):
        return None  # an entry edited or removed: the order and the filters' choices may change
    added = sorted((table[entry_id] for entry_id in written_ids), key=lambda entry: entry.get("seq", 0))
    if added and before.seen and added[0].get("seq", 0) <= before.seen[-1].get("seq", 0):
        return None  # not after the last one: its place is somewhere in the middle
    choices = None if {"kingdoms", "characters"} & written.keys() else (before.kingdoms, before.characters)
    return _whole(
        world, GM, before.seen + added, before.ids, before.dates, before.kinds, choices, walked=len(before.seen)
    )


def chronicle_view(
    world: World,
    viewer: Identity,
    season: str | None = None,
    kingdom: str | None = None,
    character: str | None = None,
    kind: str | None = None,
) -> ChronicleView:
    """The chronicle as the viewer may see it, narrowed by the filter bar's choices. The GM's, who
    sees every entry whole, is extended from the last world's when a note only added entries."""
    from yak_tui.kernel.play.chronicle import ChronicleFilter

    whole = _gm_chronicle(world) if viewer.is_gm else _whole(world, viewer, seen_entries(world, viewer))
    seen = whole.seen
    chosen = ChronicleFilter.from_args(world, season, kingdom, character, kind)
    if chosen == ChronicleFilter():
        shown = EntryViews(seen, viewer, whole.ids)
    else:
        shown = EntryViews([e for e in seen if chosen.matches(world, redact_entry(viewer, e))], viewer)
    shown.draw_newest(NEWEST_DRAWN)
    labels = {GameDate.of(int(year), str(season_name)).label() for year, season_name in whole.dates}
    season_list = sorted(labels, key=lambda label: GameDate.parse(label), reverse=True)
    return ChronicleView(
        entries=shown,
        seasons=tuple(Choice(s, s) for s in season_list),
        kingdoms=whole.kingdoms,
        characters=whole.characters,
        kinds=tuple(Choice(k, k) for k in sorted(whole.kinds)),
        total=len(seen),
    )


def latest_entries(world: World, viewer: Identity, limit: int = 8) -> tuple[EntryView, ...]:
    """The newest `limit` entries the viewer may see, newest first."""
    return tuple(entry_view(redact_entry(viewer, e), viewer) for e in newest_seen(world, viewer, limit))


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


def export_audience(text: str) -> str:
    """An export's audience as `export_audiences` names it: `kingdom:<id>` is the King's record,
    `character:<id>` the player's (the words of an entry's audience work too)."""
    text = text.strip()
    kind, sep, subject = text.partition(":")
    if sep and kind.lower() == "kingdom":
        return f"king:{subject.strip()}"
    if sep and kind.lower() == "character":
        return f"player:{subject.strip()}"
    return text.lower() if text.lower() in ("public", "gm") else text


def private_export_line(world: World, audience: str) -> str:
    """The first line of an export that is not the public record: who may read it (RULINGS §1)."""
    reader = _audience_identity(audience)
    who = "the GM" if reader.is_gm else f"{identity_label(world, reader)} ({reader})"
    return f"Private: for {who} only. Not for the forum thread."


def export_text(
    world: World,
    viewer: Identity,
    audience: str,
    fmt: str,
    season: str | None = None,
    entry_ids: Iterable[str] | None = None,
    kingdom: str | None = None,
    character: str | None = None,
    kind: str | None = None,
) -> tuple[str, int]:
    """Forum text of the chosen season or entries, filtered for `audience` (which the viewer may export for).

    Returns the text and how many entries it holds.
    """
    from yak_tui.kernel.play.chronicle import ChronicleFilter, export_entries, filter_entries

    audience = export_audience(audience)
    allowed = {c.value for c in export_audiences(world, viewer)}
    if audience not in allowed:
        raise ValidationError(
            "audience", f"{viewer} may not export for {audience}; choose {', '.join(sorted(allowed))}"
        )
    reader = _audience_identity(audience)
    chosen = ChronicleFilter.from_args(world, season, kingdom, character, kind)
    entries = filter_entries(world, reader, chosen)
    # Only what the viewer may see too (the audience never sees more, but be strict).
    mine = {e.get("id") for e in visible_entries(world, viewer)}
    entries = [e for e in entries if e.get("id") in mine]
    if entry_ids is not None:
        wanted = set(entry_ids)
        entries = [e for e in entries if e.get("id") in wanted]
    heading = None if audience == "public" else private_export_line(world, audience)
    return export_entries(world, entries, fmt, reader, heading=heading), len(entries)


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
        rows.append(
            KingdomRow(
                id=kid,
                name=str(doc.get("name", kid)),
                short=short_name(str(doc.get("name", kid))),
                colour=str(doc.get("color", "")),
                ruler=world.display_name("characters", doc.get("ruler")),
                capital=world.display_name("pcs", doc.get("capital")),
                player=bool(doc.get("player")),
                treasury=doc.get("treasury"),
                manpower=doc.get("manpower"),
                influence=doc.get("influence"),
                mine=kid == mine,
            )
        )
    return tuple(rows)


def short_name(name: str) -> str:
    """A realm's name without its style ("Principality of Kesh" -> "Kesh")."""
    head, sep, tail = name.partition(" of ")
    return (
        tail if sep and head in ("Kingdom", "Principality", "Empire", "Duchy", "County", "Realm", "Republic") else name
    )


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
        out.append(
            Series(kid, short_name(str(doc.get("name", kid))), str(doc.get("color", "")), tuple(labels), tuple(values))
        )
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
        rows.append(
            HoldingRow(
                "kingdoms",
                kingdom,
                "kingdom",
                str(doc.get("name", kingdom)),
                f"treasury {shown_value(doc.get('treasury'))} · manpower {shown_value(doc.get('manpower'))}",
            )
        )
    for cid, doc in _held(world, viewer, "characters", [("kingdom", kingdom)], [character]):
        if cid == character or (kingdom and doc.get("kingdom") == kingdom):
            rows.append(
                HoldingRow(
                    "characters",
                    cid,
                    doc.get("title", "character").lower(),
                    str(doc.get("name", cid)),
                    f"treasury {shown_value(doc.get('treasury'))} · {doc.get('status', '')} · at "
                    f"{world.display_name('pcs', doc.get('location'))}",
                )
            )
    for pid, doc in _held(world, viewer, "pcs", [("owner_character", character), ("controller", kingdom)]):
        if (character and doc.get("owner_character") == character) or (kingdom and doc.get("controller") == kingdom):
            fort = f" · fort {doc['fort_level']}" if doc.get("fort_level") else ""
            rows.append(
                HoldingRow(
                    "pcs",
                    pid,
                    str(doc.get("kind", "pc")),
                    str(doc.get("name", pid)),
                    f"tax {shown_value(doc.get('tax'))}{fort}",
                )
            )
    for uid, doc in _held(world, viewer, "units", [("owner", kingdom), ("commander", character)]):
        if (kingdom and doc.get("owner") == kingdom) or (character and doc.get("commander") == character):
            rows.append(
                HoldingRow(
                    "units",
                    uid,
                    str(doc.get("kind", "unit")),
                    str(doc.get("name", uid)),
                    f"{doc.get('size', '')} · hex {_hex_text(doc.get('hex'))}",
                )
            )
    kingdom_characters = {cid for cid, _ in world.where("characters", kingdom=kingdom)} if kingdom else set()
    owners = [("owner", owner) for owner in (character, *kingdom_characters)]
    for bid, doc in _held(world, viewer, "businesses", owners):
        owner = doc.get("owner")
        if owner == character or owner in kingdom_characters:
            rows.append(
                HoldingRow(
                    "businesses",
                    bid,
                    f"{doc.get('sector', '')} business",
                    str(doc.get("name", bid)),
                    f"size {doc.get('size', '?')} · {world.display_name('provinces', doc.get('province'))}",
                )
            )
    return tuple(rows)


def _held(
    world: World, viewer: Identity, table: str, fields: Sequence[tuple[str, str | None]], ids: Sequence[str | None] = ()
) -> list[tuple[str, dict[str, Any]]]:
    """The documents of `table` whose `field` is one of the values (or whose id is one of `ids`),
    as the viewer may see them, by id: found through the world's index, not by filtering the whole
    table (a player's dashboard at 100x). Callers test the filtered document again, so the rows
    are exactly those of filtering every document first."""
    docs = world.table(table)
    found = {doc_id for doc_id in ids if doc_id is not None and doc_id in docs}
    for field, value in fields:
        if value is not None:
            found.update(doc_id for doc_id, _ in world.where(table, **{field: value}))
    shown = ((doc_id, filter_document(world, viewer, table, doc_id, docs[doc_id])) for doc_id in sorted(found))
    return [(doc_id, doc) for doc_id, doc in shown if doc is not None]


def _hex_text(value: Any) -> str:
    if isinstance(value, list | tuple) and len(value) == 2:
        return f"{value[0]},{value[1]}"
    return "?"


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
    from yak_tui.kernel.play.orders import describe_order

    filer = Identity.parse(str(order.get("filed_by", "gm")))
    filed = order.get("filed")
    return OrderRow(
        id=order_id,
        command=str(order.get("command", "")),
        summary=describe_order(world, dict(order)),
        filed_by=str(order.get("filed_by", "")),
        filer=identity_label(world, filer),
        adjudicator=str(order.get("adjudicator", "gm")),
        status=str(order.get("status", "")),
        private=bool(order.get("private")),
        filed=GameDate.from_dict(filed).label() if filed else "",
        outcome=str(order.get("outcome", "")),
        reason=str(order.get("reason", "")),
        note=str(order.get("note", "")),
    )


def order_queue(world: World, viewer: Identity) -> tuple[OrderRow, ...]:
    """Orders waiting for this viewer to adjudicate, as far as he may see them."""
    from yak_tui.kernel.play.orders import queue_for

    rows = []
    for oid, order in queue_for(world, viewer):
        shown = filter_document(world, viewer, "orders", oid, order)
        if shown is not None:
            rows.append(_order_row(world, oid, shown))
    return tuple(rows)


def my_orders(world: World, viewer: Identity) -> tuple[OrderRow, ...]:
    from yak_tui.kernel.play.orders import orders_of

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


class SeatRow(NamedTuple):
    identity: str
    label: str
    filed: int
    status: str  # "ready", "filed", "no orders"


class ReadinessView(NamedTuple):
    """The season's orders deadline and the seats' state (`kernel.season.readiness`): every seat for the
    GM and the Kings, his own for a player, none for an observer. `in_use`: a deadline is set or
    someone said he is ready (before that, NMR means nothing)."""

    deadline: str
    in_use: bool
    seats: tuple[SeatRow, ...]
    ready: bool  # the viewer has said he is ready


def readiness_view(world: World, viewer: Identity) -> ReadinessView:
    from yak_tui.kernel.season.readiness import in_use, season_status

    status = season_status(world, viewer)
    rows = [SeatRow(str(r["identity"]), str(r["label"]), int(r["filed"]), str(r["status"])) for r in status["seats"]]
    if viewer.is_observer:
        rows = []
    elif viewer.is_player:
        rows = [r for r in rows if r.identity == str(viewer)]
    ready = str(viewer) in world.meta.get("ready", [])
    return ReadinessView(str(status["deadline"] or ""), in_use(status), tuple(rows), ready)


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
    readiness: ReadinessView = ReadinessView("", False, (), False)


def due_list(world: World, viewer: Identity) -> tuple[DueItem, ...]:
    """What is due this season for this viewer (`session.due_for`), as the dashboard shows it: the
    orders that wait for him as one line first (its queue panel lists them), his own as one line,
    and his filing state left to the readiness panel."""
    from yak_tui.kernel.season.session import FILED, FILING, QUEUE, due_for

    due = due_for(world, viewer)
    items = [
        DueItem(str(i.get("kind", "due")), str(i.get("text", "")), bool(i.get("urgent")))
        for i in due
        if i.get("kind") not in (QUEUE, FILED, FILING)
    ]
    queued = sum(1 for i in due if i.get("kind") == QUEUE)
    if queued:
        items.insert(
            0,
            DueItem(
                "orders",
                f"{queued} order{'s' if queued != 1 else ''} waiting for "
                f"{'you' if not viewer.is_gm else 'adjudication'}",
                True,
            ),
        )
    waiting = [i for i in due if i.get("kind") == FILED]
    if len(waiting) == 1:
        items.append(DueItem("orders", f"Your order to {waiting[0]['what']} waits for {waiting[0]['waits_for']}"))
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
        world_name=world.name,
        date=date.label(),
        season=date.season,
        year=date.year,
        year_start_in=date.seasons_until(spring),
        identity=str(viewer),
        identity_label=identity_label(world, viewer),
        due=due_list(world, viewer) if due else (),
        kingdoms=kingdom_rows(world, viewer),
        history=treasury_history(world, viewer),
        chronicle=latest_entries(world, viewer, chronicle_limit),
        holdings=holdings(world, viewer),
        queue=order_queue(world, viewer),
        my_orders=my_orders(world, viewer),
        due_pending=not due,
        readiness=readiness_view(world, viewer),
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
    # Orders still waiting for their adjudicator ("filer: order"), and the seats that sent none.
    waiting: tuple[str, ...] = ()
    no_orders: tuple[str, ...] = ()


def advance_preview(preview: Mapping[str, Any], world: World) -> AdvancePreview:
    """Shape `session.preview(save)` (exactly what year start will do) for the confirmation dialog."""
    date = world.date
    steps = tuple(
        StepView(
            str(s.get("step", "")),
            str(s.get("title", "")),
            tuple((str(k), float(v)) for k, v in (s.get("sums") or {}).items()),
            tuple(str(line) for line in s.get("lines", [])),
        )
        for s in preview.get("steps", [])
    )
    return AdvancePreview(
        source=str(preview.get("from", date.label())),
        target=str(preview.get("to", date.next().label())),
        year_start=bool(preview.get("year_start")),
        blocked=tuple(preview.get("blocked", [])),
        steps=steps,
        waiting=tuple(f"{o['filed_by']}: {o['text']}" for o in preview.get("waiting_orders", [])),
        no_orders=tuple(str(label) for label in preview.get("no_orders", [])),
    )


# -- the command palette ---------------------------------------------------------------------------


class SearchItem(NamedTuple):
    table: str  # kingdoms, provinces, characters, pcs, units
    id: str
    name: str
    detail: str


def search_items(world: World, viewer: Identity) -> tuple[SearchItem, ...]:
    """Everything the palette can jump to by name, as far as the viewer may see it."""
    out = []
    labels = {
        "kingdoms": "kingdom",
        "provinces": "province",
        "characters": "character",
        "pcs": "place",
        "units": "force",
    }
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
                detail = (
                    f"{doc.get('size', '')} {doc.get('kind', '')} · {world.display_name('kingdoms', doc.get('owner'))}"
                )
            out.append(SearchItem(table_name, doc_id, str(doc.get("name", doc_id)), detail))
    return tuple(out)


# -- season reports -------------------------------------------------------------------------------


class ReportLine(NamedTuple):
    kind: str  # "heading", "section", "item", "detail"
    text: str


class ReportsView(NamedTuple):
    """The season reports the viewer may read: the seasons (newest first), the recipients of the
    chosen season (his own first, then the public post), and the chosen report's lines."""

    seasons: tuple[Choice, ...]
    recipients: tuple[Choice, ...]
    season: str
    recipient: str
    lines: tuple[ReportLine, ...]


def _recipient_label(world: World, key: str) -> str:
    from yak_tui.kernel.season.reports import PUBLIC_RECIPIENT

    if key == PUBLIC_RECIPIENT:
        return "The season post (public)"
    try:
        return identity_label(world, Identity.parse(key))
    except ValidationError:
        return key


def report_lines(report: Mapping[str, Any]) -> tuple[ReportLine, ...]:
    """A stored report as lines to draw: its heading, the GM's narrative, then each section that says
    something (an order template's lines as they are to be copied), then its closing lines."""
    lines = [ReportLine("heading", str(report.get("heading", "")))]
    if report.get("narrative"):
        lines += [ReportLine("detail", paragraph) for paragraph in str(report["narrative"]).split("\n") if paragraph]
    for section in report.get("sections", []):
        items = section.get("items", [])
        if not items:
            continue
        lines.append(ReportLine("section", str(section.get("title", ""))))
        for item in items:
            lines.append(ReportLine("detail" if section.get("kind") == "code" else "item", str(item.get("text", ""))))
            lines.extend(ReportLine("detail", str(detail)) for detail in item.get("details", []))
    lines += [ReportLine("detail", str(line)) for line in report.get("footer", [])]
    return tuple(lines)


def reports_view(
    world: World, viewer: Identity, season: str | None = None, recipient: str | None = None
) -> ReportsView:
    """The viewer's reports (`kernel.season.reports.reports_for`: a player his own and the public post, a
    King his kingdom's, the GM every one, an observer the public post), for the season chosen (the
    last one closed by default) and the recipient chosen (the viewer's own by default)."""
    from yak_tui.kernel.season.reports import reported_seasons, reports_for

    seasons = tuple(Choice(d.label(), d.label()) for d in reversed(reported_seasons(world)))
    if not seasons:
        return ReportsView((), (), "", "", ())
    chosen_season = season if season in {c.value for c in seasons} else seasons[0].value
    found = reports_for(world, viewer, chosen_season)
    recipients = tuple(Choice(str(r["recipient"]), _recipient_label(world, str(r["recipient"]))) for r in found)
    report = next((r for r in found if r["recipient"] == recipient), found[0] if found else None)
    if report is None:
        return ReportsView(seasons, recipients, chosen_season, "", ())
    return ReportsView(seasons, recipients, chosen_season, str(report["recipient"]), report_lines(report))


# -- season history -------------------------------------------------------------------------------


class SeasonRow(NamedTuple):
    label: str
    backup: str  # the backup's file name; "" for the current season (the save itself)


class HistoryView(NamedTuple):
    """The seasons the backups keep (oldest first, the current one last) and what changed between
    the two chosen, as `yak diff` tells it (`kernel.season.history`)."""

    seasons: tuple[SeasonRow, ...]
    before: str
    after: str
    lines: tuple[str, ...]
    problem: str = ""


def history_view(
    save: WorldFile, world: World, viewer: Identity, before: str | None = None, after: str | None = None
) -> HistoryView:
    """The history of `save` (whose current state is `world`): by default the last season kept
    against the current one."""
    from yak_tui.kernel.season.history import diff_worlds, kept_seasons, season_state

    kept = kept_seasons(save, world.date)
    rows = tuple(SeasonRow(k.label, k.backup.name if k.backup else "") for k in kept)
    labels = [r.label for r in rows]
    after = after if after in labels else labels[-1]
    before = before if before in labels else labels[-2] if len(labels) > 1 else labels[-1]
    if len(labels) < 2:
        return HistoryView(
            rows, before, after, (), "No season is kept yet: each advance backs up the season it closes."
        )
    try:
        older = World(season_state(save, before))
        newer = world if after == world.date.label() else World(season_state(save, after))
    except YakError as error:
        return HistoryView(rows, before, after, (), str(error))
    return HistoryView(rows, before, after, tuple(diff_worlds(older, newer, viewer).lines()))
