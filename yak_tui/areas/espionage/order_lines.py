"""The espionage orders a viewer may see, as lines: the adjudicator's inbox of private orders
waiting for him, and a filer's own orders with the outcome he was told (never the rolls)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from yak_tui.areas.espionage.fields import order_extras, order_where
from yak_tui.areas.espionage.registry import kind_of
from yak_tui.areas.espionage.rules import catalogue
from yak_tui.areas.espionage.state import (
    MISSION_COMMAND,
    date_label,
    short_kingdom,
)
from yak_tui.kernel.play.audience import (
    filter_document,
    viewer_kingdom,
)
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.orders import orders_of, queue_for
from yak_tui.kernel.world.model import World


def espionage_inbox(world: World, viewer: Identity) -> list[tuple[str, dict[str, Any]]]:
    """Waiting private espionage orders this viewer adjudicates."""
    return [(oid, o) for oid, o in queue_for(world, viewer) if o.get("command") == MISSION_COMMAND]


@dataclass(frozen=True)
class OrderLine:
    """A private espionage order: in the adjudicator's inbox, or among the filer's own."""

    id: str
    filer: str
    mission: str
    sponsor: str
    target: str
    where: str
    extras: str
    note: str
    filed: str
    status: str
    outcome: str  # the whole text the sponsor was told (or the rejection's reason)
    reported: str  # one word of it: "success", "failure", "cleared", "arranged", "rejected"...
    adjudicator: str


def _order_line(world: World, order_id: str, order: Mapping[str, Any]) -> OrderLine:
    from yak_tui.kernel.play.identity import identity_label

    params = order.get("params") or {}
    slug = str(params.get("mission", ""))
    entries = catalogue()
    entry = entries.get(slug)
    filer = Identity.parse(str(order.get("filed_by", "gm")))
    sponsor = order.get("kingdom") or viewer_kingdom(world, filer)
    target = params.get("target") or (sponsor if entry is not None and kind_of(entry).own_side else None)
    status = str(order.get("status", ""))
    outcome = str(order.get("outcome") or "") if status == "resolved" else str(order.get("reason") or "")
    return OrderLine(
        id=order_id,
        filer=identity_label(world, filer).split(" · ", 1)[-1],
        mission=entry.name if entry else slug,
        sponsor=short_kingdom(world, sponsor) if sponsor else "?",
        target=short_kingdom(world, target) if target else "?",
        where=order_where(world, params),
        extras=order_extras(params),
        note=str(order.get("note") or ""),
        filed=date_label(order.get("filed")),
        status=status,
        outcome=outcome,
        reported=_reported(status, outcome),
        adjudicator=str(order.get("adjudicator", "gm")),
    )


def _reported(status: str, outcome: str) -> str:
    """The outcome word of "Espionage: <mission> against <target>: <word>. ..." (the sponsor's line)."""
    if status != "resolved":
        return status
    head = outcome.split(". ", 1)[0].rstrip(".")
    word = head.rsplit(": ", 1)[-1] if ": " in head else ""
    return word if word and len(word) <= 20 else "resolved"


def inbox_lines(world: World, viewer: Identity) -> tuple[OrderLine, ...]:
    """Private espionage orders waiting for this viewer to adjudicate."""
    if viewer.is_player:
        return ()
    lines = []
    for order_id, order in espionage_inbox(world, viewer):
        shown = filter_document(world, viewer, "orders", order_id, order)
        if shown is not None:
            lines.append(_order_line(world, order_id, shown))
    return tuple(lines)


def my_order_lines(world: World, viewer: Identity) -> tuple[OrderLine, ...]:
    """The viewer's own espionage orders: state, and the outcome the sponsor is told."""
    if viewer.is_gm:
        return ()
    lines = []
    for order_id, order in orders_of(world, viewer):
        if order.get("command") != MISSION_COMMAND:
            continue
        shown = filter_document(world, viewer, "orders", order_id, order)
        if shown is not None:
            lines.append(_order_line(world, order_id, shown))
    return tuple(reversed(lines))  # newest first
