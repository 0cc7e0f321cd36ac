"""The court's read models: who may take the keyboard, kingdoms, holdings and orders, and the
palette's names. The chronicle's are in `read_chronicle`, the season's (the dashboard, the advance
preview, reports and history) in `read_season`.

Plain records, already filtered for one viewer: every document and chronicle entry reaches them
through `yak_tui.kernel.play.audience` (`visible_table`, `filter_document`, `visible_entries`), so a
screen cannot show what its viewer may not see. No Textual here. The records are NamedTuples
rather than dataclasses: the same immutable fields at a seventh of the import cost (the
dashboard must paint within twice a bare Textual app's startup).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from yak_tui.kernel.play.audience import (
    can_see_document,
    filter_document,
    visible_table,
)
from yak_tui.kernel.play.identity import Identity, identity_label
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import shown_value

if TYPE_CHECKING:
    pass


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


"""Entries `chronicle_view` draws up front, newest first: the screen's first page (off the event loop)."""


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
    late: bool = False  # filed after the deadline and not accepted yet (`order-late`)


class _OrderWords:
    """Words an order row repeats, worked out once per queue: a filer's label, a filing date's. The
    GM's queue at 1000x holds 5,000 orders from ~3,000 filers over a few seasons (issue 30)."""

    def __init__(self, world: World) -> None:
        from yak_tui.kernel.play.orders import describe_order

        self.world = world
        self.describe = describe_order
        self.filers: dict[str, str] = {}
        self.dates: dict[tuple[Any, Any], str] = {}

    def filer(self, filed_by: str) -> str:
        label = self.filers.get(filed_by)
        if label is None:
            label = self.filers[filed_by] = identity_label(self.world, Identity.parse(filed_by))
        return label

    def date(self, filed: Mapping[str, Any] | None) -> str:
        if not filed:
            return ""
        key = (filed.get("year"), filed.get("season"))
        label = self.dates.get(key)
        if label is None:
            label = self.dates[key] = GameDate.from_dict(dict(filed)).label()
        return label

    def row(self, order_id: str, order: Mapping[str, Any]) -> OrderRow:
        return OrderRow(
            id=order_id,
            command=str(order.get("command", "")),
            summary=self.describe(self.world, order),
            filed_by=str(order.get("filed_by", "")),
            filer=self.filer(str(order.get("filed_by", "gm"))),
            adjudicator=str(order.get("adjudicator", "gm")),
            status=str(order.get("status", "")),
            private=bool(order.get("private")),
            filed=self.date(order.get("filed")),
            outcome=str(order.get("outcome", "")),
            reason=str(order.get("reason", "")),
            note=str(order.get("note", "")),
            late=bool(order.get("late")) and not order.get("late_accepted"),
        )

    def rows(self, viewer: Identity, orders: Sequence[tuple[str, dict[str, Any]]]) -> tuple[OrderRow, ...]:
        """The orders as this viewer may see them, worded."""
        rows = []
        for oid, order in orders:
            shown = filter_document(self.world, viewer, "orders", oid, order)
            if shown is not None:
                rows.append(self.row(oid, shown))
        return tuple(rows)


def order_queue(world: World, viewer: Identity) -> tuple[OrderRow, ...]:
    """Orders waiting for this viewer to adjudicate, as far as he may see them."""
    from yak_tui.kernel.play.orders import queue_for

    return _OrderWords(world).rows(viewer, queue_for(world, viewer))


def my_orders(world: World, viewer: Identity) -> tuple[OrderRow, ...]:
    from yak_tui.kernel.play.orders import orders_of

    return _OrderWords(world).rows(viewer, orders_of(world, viewer))


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
