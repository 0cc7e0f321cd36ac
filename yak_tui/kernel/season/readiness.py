"""The season's rhythm of a forum game: the GM's orders deadline, each seat marking itself ready,
and who has filed, who is ready and who has sent nothing (NMR, "no moves received").

A seat is an identity expected to send orders: the King of every player kingdom, every player or
King on the SSH roster, and anyone who filed an order or marked himself ready this season.
Deadline and readiness belong to the season: opening the next one clears them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from yak_tui.kernel.play.audience import PUBLIC
from yak_tui.kernel.play.commands import CommandContext, CommandError, Param, command
from yak_tui.kernel.play.identity import Identity, IdentityError, identity_label
from yak_tui.kernel.season.seasons import StepReport, due_reporter, season_start_step
from yak_tui.kernel.world.model import World

DEADLINE_FORMATS = ("%Y-%m-%d %H:%M", "%Y-%m-%d")
READY = "ready"
FILED = "filed"
NMR = "no orders"


def parse_deadline(text: str) -> str:
    """'2026-12-07 20:00' (or a date alone, meaning midnight) as the one written form."""
    cleaned = " ".join(text.split())
    for form in DEADLINE_FORMATS:
        try:
            # isoformat pads every year to four digits (strftime writes year 1 as "1-01-01").
            return datetime.strptime(cleaned, form).isoformat(sep=" ", timespec="minutes")
        except ValueError:
            continue
    raise CommandError("at", f"must be a date and time like 2026-12-07 20:00, not {text!r}")


@dataclass(frozen=True)
class SeatStatus:
    """One seat this season: who, how many orders he filed, whether he said he is ready."""

    identity: str
    label: str
    filed: int
    ready: bool

    @property
    def status(self) -> str:
        return READY if self.ready else FILED if self.filed else NMR

    def to_dict(self) -> dict[str, Any]:
        return {
            "identity": self.identity,
            "label": self.label,
            "filed": self.filed,
            "ready": self.ready,
            "status": self.status,
        }


def _counted_for(order: dict[str, Any], viewer: Identity | None) -> bool:
    """A private order is counted only for those who may know of it (RULINGS §1: its filer, its
    adjudicator, the GM); `viewer` None is the GM's own count."""
    if viewer is None or viewer.is_gm or not order.get("private"):
        return True
    return str(viewer) in (order.get("filed_by"), order.get("adjudicator"))


def _filed_this_season(world: World, viewer: Identity | None = None) -> dict[str, int]:
    counts: dict[str, int] = {}
    today = world.meta.get("date")
    for _, order in world.all("orders"):
        if order.get("filed") == today and order.get("status") != "withdrawn" and _counted_for(order, viewer):
            counts[order["filed_by"]] = counts.get(order["filed_by"], 0) + 1
    return counts


def seats(world: World, viewer: Identity | None = None) -> list[Identity]:
    """Every identity expected to send orders this season, Kings first, then players, by id (a
    seat that filed only private orders is a seat only for those who may know of them)."""
    found: set[Identity] = {Identity("king", kid) for kid, k in world.all("kingdoms") if k.get("player")}
    names = [str(doc.get("identity", "")) for _, doc in world.all("users")]
    names += list(_filed_this_season(world, viewer)) + [str(i) for i in world.meta.get("ready", [])]
    for name in names:
        try:
            identity = Identity.parse(name)
        except IdentityError:
            continue
        if not identity.is_gm and not identity.is_observer:  # an observer sends no orders
            found.add(identity)
    return sorted(found, key=lambda i: (i.role != "king", i.subject))


def readiness(world: World, viewer: Identity | None = None) -> list[SeatStatus]:
    filed = _filed_this_season(world, viewer)
    ready = set(world.meta.get("ready", []))
    return [
        SeatStatus(str(i), identity_label(world, i), filed.get(str(i), 0), str(i) in ready)
        for i in seats(world, viewer)
    ]


def season_status(world: World, viewer: Identity | None = None) -> dict[str, Any]:
    """The deadline and every seat's state, as the dashboard, `yak season status` and the preview show
    it to `viewer` (None: the GM): private orders count only for those who may know of them."""
    rows = readiness(world, viewer)
    return {
        "season": world.date.label(),
        "deadline": world.meta.get("deadline"),
        "seats": [r.to_dict() for r in rows],
        "ready": [r.label for r in rows if r.status == READY],
        "filed": [r.label for r in rows if r.status == FILED],
        "no_orders": [r.label for r in rows if r.status == NMR],
    }


def in_use(status: dict[str, Any]) -> bool:
    """The cycle runs this season once the GM set a deadline or a seat said it is ready: before
    that, a campaign that does not use deadlines hears nothing of NMR (filing orders alone is
    how every campaign plays)."""
    return bool(status["deadline"] or status["ready"])


@command(
    "season-deadline",
    "Set the orders deadline of the current season (GM); empty clears it.",
    {"at": Param(str, required=False, default="", help="date and time, e.g. 2026-12-07 20:00")},
    category="season",
    undoable=False,
    gm_only="set the orders deadline",
)
def season_deadline(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    season = ctx.date.label()
    if not p["at"].strip():
        ctx.world.meta.pop("deadline", None)
        ctx.log(f"The orders deadline for {season} is lifted.", kind="season", audience=PUBLIC)
        return {"deadline": None}
    deadline = parse_deadline(p["at"])
    ctx.world.meta["deadline"] = deadline
    ctx.log(f"Orders for {season} are due by {deadline}.", kind="season", audience=PUBLIC)
    return {"deadline": deadline}


@command(
    "ready",
    "Say you have sent all your orders for this season (ready=false takes it back).",
    {"ready": Param(bool, required=False, default=True, help="true: ready; false: not yet")},
    category="orders",
    undoable=False,
)
def mark_ready(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    who = ctx.identity
    if who.is_gm:
        raise CommandError("identity", "the GM sends no orders to be ready with; only players and Kings are")
    ready = [i for i in ctx.world.meta.get("ready", []) if i != str(who)]
    if p["ready"]:
        ready.append(str(who))
    ctx.world.meta["ready"] = ready
    label = identity_label(ctx.world, who)
    ctx.log(
        f"{label} is {'ready' if p['ready'] else 'not ready yet'} for {ctx.date.label()}.",
        kind="ready",
        audience=PUBLIC,
    )
    return {"identity": str(who), "ready": bool(p["ready"])}


@due_reporter(name="season-orders-deadline")
def _due_orders(world: World) -> list[dict[str, Any]]:
    """One dashboard line: the deadline, and who is ready, who filed, who has sent nothing. The line
    is public, so it counts what the public may know: a seat's private orders are not told."""
    status = season_status(world, Identity("observer"))
    if not in_use(status):
        return []
    head = f"Orders due by {status['deadline']}" if status["deadline"] else "Orders (no deadline set)"
    parts = [f"ready: {', '.join(status['ready']) or 'nobody'}"]
    if status["filed"]:
        parts.append(f"filed, not ready: {', '.join(status['filed'])}")
    if status["no_orders"]:
        parts.append(f"no orders: {', '.join(status['no_orders'])}")
    return [
        {
            "kind": "deadline",
            "text": f"{head}; {'; '.join(parts)}",
            "audience": PUBLIC,
            "urgent": bool(status["no_orders"]),
        }
    ]


@season_start_step("Orders deadline and readiness", name="season-orders-readiness")
def _new_season_clears_readiness(ctx: Any, report: StepReport) -> None:
    ctx.world.meta.pop("deadline", None)
    ctx.world.meta["ready"] = []
