"""The orders as a reader may see them, in words, by adjudicator: the GM reads every queue, a King
the orders waiting for him and his kingdom's public ones, a player his own. `yak orders`,
`yak show orders`, `yak due` and `ssh … orders` print these lines; the one audience rule
(`kernel.play.audience.filter_document`) decides what each reader sees, so a private order a
reader may not know of is not there at all (not even as a count)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yak_tui.kernel.play.audience import visible_table
from yak_tui.kernel.play.identity import Identity, identity_name
from yak_tui.kernel.play.orders import REQUEST, WAITING, describe_order
from yak_tui.kernel.play.outcomes import ODDS_PHRASES
from yak_tui.kernel.play.views import command_odds, odds_words
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import World


@dataclass(frozen=True)
class OrderLine:
    """One order as its reader reads it: who filed it, what it asks, for whom it waits."""

    id: str
    filed_by: str
    filer: str  # the filer's name
    adjudicator: str
    adjudicator_name: str
    text: str  # what it asks, in words (`describe_order`)
    filed: str  # the season it was filed in
    private: bool
    status: str
    odds: dict[str, float]  # {} when it rolls no dice, or the reader is not told them
    note: str
    outcome: str
    odds_said: str = ""  # the odds in words, as the order's command words them (not in to_dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "order": self.id,
            "filed_by": self.filed_by,
            "filer": self.filer,
            "adjudicator": self.adjudicator,
            "adjudicator_name": self.adjudicator_name,
            "text": self.text,
            "filed": self.filed,
            "private": self.private,
            "status": self.status,
            "odds": self.odds,
            "note": self.note,
            "outcome": self.outcome,
        }

    def line(self, *, filer: bool = True) -> str:
        """`o-0003  Corvin Hale: roll: reason Ford the river (filed Spring 312; public; odds …)`;
        `filer=False` leaves out who filed it (the reader did)."""
        said = [f"filed {self.filed}" if self.filed else "", "private" if self.private else "public"]
        if self.status != WAITING:
            said.append(self.status + (f": {self.outcome}" if self.outcome else ""))
        if self.odds:
            said.append(f"odds {self.odds_said or odds_words(self.odds)}")
        if self.note:
            said.append(f"note: {self.note}")
        who = f"{self.filer}: " if filer else ""
        return f"{self.id}  {who}{self.text} ({'; '.join(part for part in said if part)})"


def order_lines(world: World, viewer: Identity, *, waiting_only: bool = True, odds: bool = True) -> list[OrderLine]:
    """The orders `viewer` may see (only those still waiting, by default), by adjudicator (the
    GM's queue first), then by id. `odds=False`: no line works out its odds (a reader that only
    counts the lines or names what they ask: the dashboard's due list, ~8 ms an order at 100x)."""
    named: dict[str, str] = {}  # per seat and season, not per line: 5,000 lines at 1000x name a few
    dated: dict[tuple[Any, Any], str] = {}
    worded: dict[tuple[str, tuple[tuple[str, float], ...]], str] = {}  # odds whose words are the rows'
    shown = [
        _line(world, viewer, order_id, order, odds, named, dated, worded)
        for order_id, order in visible_table(world, viewer, "orders").items()
        if not waiting_only or order.get("status") == WAITING
    ]
    return sorted(shown, key=lambda line: (line.adjudicator != "gm", line.adjudicator, line.id))


def _line(
    world: World,
    viewer: Identity,
    order_id: str,
    order: dict[str, Any],
    with_odds: bool = True,
    named: dict[str, str] | None = None,
    dated: dict[tuple[Any, Any], str] | None = None,
    worded: dict[tuple[str, tuple[tuple[str, float], ...]], str] | None = None,
) -> OrderLine:
    named = {} if named is None else named
    dated = {} if dated is None else dated
    worded = {} if worded is None else worded
    filed_by = str(order.get("filed_by", ""))
    adjudicator = str(order.get("adjudicator", "gm"))
    filed = order.get("filed")
    status = str(order.get("status", ""))
    # The odds are his who filed it and his who rolls it (as when it was filed, and at its roll):
    # others reading a public order are told what it asks, not how it stands.
    told = viewer.is_gm or str(viewer) in (filed_by, adjudicator)
    odds = None
    if with_odds and told and status == WAITING and order.get("command") != REQUEST:
        # His who rolls it: with every modifier the roll will count (the filer's: what he knows).
        rolls_it = Identity.parse(adjudicator) if str(viewer) == adjudicator or viewer.is_gm else None
        odds = command_odds(
            world, Identity.parse(filed_by), str(order.get("command")), order.get("params") or {}, rolls_it
        )
    if filed_by and filed_by not in named:
        named[filed_by] = identity_name(world, Identity.parse(filed_by))
    if adjudicator not in named:
        named[adjudicator] = identity_name(world, Identity.parse(adjudicator))
    when = ""
    if isinstance(filed, dict):
        key = (filed.get("year"), filed.get("season"))
        when = dated.get(key) or dated.setdefault(key, GameDate.from_dict(filed).label())
    command = str(order.get("command"))
    said = ""
    if odds is not None and odds.rows:
        if command in ODDS_PHRASES:  # its words depend on its parameters: worded for this order
            said = odds_words(dict(odds.rows), command, order.get("params") or {})
        else:  # the same rows read the same (200 RtD orders at 100x): worded once
            rows = (command, odds.rows)
            said = worded.get(rows) or worded.setdefault(rows, odds_words(dict(odds.rows), command, {}))
    return OrderLine(
        id=order_id,
        filed_by=filed_by,
        filer=named[filed_by] if filed_by else "",
        adjudicator=adjudicator,
        adjudicator_name=named[adjudicator],
        text=describe_order(world, order),
        filed=when,
        private=bool(order.get("private")),
        status=status,
        odds=dict(odds.rows) if odds is not None and odds.rows else {},
        note=str(order.get("note") or ""),
        outcome=str(order.get("outcome") or order.get("reason") or ""),
        odds_said=said,
    )


def queue_text(world: World, viewer: Identity, lines: list[OrderLine], empty: str) -> str:
    """The lines under one heading per adjudicator ("Waiting for the GM (2):"), or `empty`."""
    if not lines:
        return empty
    out: list[str] = []
    groups: dict[str, list[OrderLine]] = {}  # one pass: a King each adjudicating made it lines x Kings
    for line in lines:
        groups.setdefault(line.adjudicator, []).append(line)
    for adjudicator, group in groups.items():
        name = (
            "you" if adjudicator == str(viewer) or (viewer.is_gm and adjudicator == "gm") else group[0].adjudicator_name
        )
        waiting = all(line.status == WAITING for line in group)
        out.append(f"{'Waiting for' if waiting else 'Adjudicated by'} {name} ({len(group)}):")
        out.extend(f"  {line.line()}" for line in group)
    return "\n".join(out)


def waiting_text(world: World, viewer: Identity, lines: list[OrderLine]) -> str:
    """The waiting orders as `yak orders` and `ssh … orders` print them."""
    return queue_text(world, viewer, lines, f"no orders waiting in {world.date.label()}")


def orders_counted(count: int) -> str:
    """A count of orders in words: 1 order, 3 orders."""
    return f"{count} order{'' if count == 1 else 's'}"
