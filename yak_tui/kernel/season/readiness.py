"""The season's rhythm of a forum game: the GM's orders deadline, each seat marking itself ready,
and who has filed, who is ready and who has sent nothing (NMR, "no moves received").

A seat is an identity expected to send orders: the King of every player kingdom, every player or
King on the SSH roster, and anyone who filed an order or marked himself ready this season.
Deadline and readiness belong to the season: opening the next one clears them.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from yak_tui.kernel.play.audience import ADJUDICATORS, PUBLIC
from yak_tui.kernel.play.commands import CommandContext, CommandError, Param, command
from yak_tui.kernel.play.identity import Identity, IdentityError, identity_label
from yak_tui.kernel.season import clock
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.season.seasons import StepReport, due_reporter, season_start_step
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import table

if TYPE_CHECKING:
    from zoneinfo import ZoneInfo

READY = "ready"
FILED = "filed"
NMR = "no orders"
NMR_POLICIES = ("hold", "standing", "civil-disorder")
DUE_KIND = "deadline"  # the kind of the due item `_due_orders` gives
# The kind of the lines that move the deadline (extend, pause, resume): news for the season post,
# unlike the bookkeeping "season" lines (`kernel.season.post.BOOKKEEPING_KINDS`).
DEADLINE_NEWS = "deadline"


def seat_zone(world: World, identity: Identity | None) -> ZoneInfo | None:
    """The zone a seat reads deadlines in: the one set on his roster login (`user-zone`), if any."""
    if identity is None:
        return None
    for _, user in sorted(world.all("users")):
        if user.get("identity") == str(identity) and user.get("zone"):
            from zoneinfo import ZoneInfo  # a seat's zone: imported when one is set

            try:
                return ZoneInfo(str(user["zone"]))
            except (ValueError, KeyError):
                continue
    return None


def deadline_of(world: World) -> datetime | None:
    """The season's deadline in UTC, if the GM set one."""
    text = world.meta.get("deadline")
    return clock.read_stored(str(text)) if text else None


def paused_at(world: World) -> datetime | None:
    """When the GM paused the deadline, if it is paused now."""
    text = world.meta.get("deadline_paused")
    return clock.read_stored(str(text)) if text else None


def deadline_for(world: World, viewer: Identity | None) -> dict[str, Any]:
    """The deadline as `viewer` reads it: in his zone, and how far off it is (or since when it
    passed); while paused, the time that will be left when the GM resumes it."""
    deadline = deadline_of(world)
    tz = seat_zone(world, viewer)
    if deadline is None:
        return {"deadline": None, "shown": "", "relative": "", "paused": False, "zone": tz.key if tz else "UTC"}
    paused = paused_at(world)
    if paused is not None:
        relative = f"paused, {clock.span(deadline - paused)} left" if deadline > paused else "paused, already passed"
    else:
        relative = clock.relative(deadline, clock.now())
    return {
        "deadline": clock.stored(deadline),
        "shown": clock.shown_in(deadline, tz),
        "relative": relative,
        "paused": paused is not None,
        "zone": tz.key if tz else "UTC",
    }


def deadline_line(world: World, viewer: Identity | None) -> str:
    """'2026-12-07 14:00 EST (America/New_York), in 2 days 3 h', or '' without a deadline."""
    view = deadline_for(world, viewer)
    return f"{view['shown']}, {view['relative']}" if view["deadline"] else ""


def nmr_rules() -> tuple[str, int]:
    """The campaign's NMR policy and the missed seasons that bring civil disorder (`core.toml [nmr]`)."""
    rules = table("core").get("nmr", {})
    policy = str(rules.get("policy", "hold"))
    if policy not in NMR_POLICIES:
        raise CommandError("nmr.policy", f"must be one of {', '.join(NMR_POLICIES)}, not {policy!r} (core.toml [nmr])")
    return policy, int(rules.get("civil_disorder_after", 2))


@dataclass(frozen=True)
class SeatStatus:
    """One seat this season: who, how many orders he filed, whether he said he is ready, and how
    many seasons in a row before this one he sent nothing."""

    identity: str
    label: str
    filed: int
    ready: bool
    missed: int = 0

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
            "missed": self.missed,
        }


def _counted_for(order: dict[str, Any], viewer: Identity | None) -> bool:
    """A private order is counted only for those who may know of it (RULINGS §1: its filer, its
    adjudicator, the GM); `viewer` None is the GM's own count."""
    if viewer is None or viewer.is_gm or not order.get("private"):
        return True
    return str(viewer) in (order.get("filed_by"), order.get("adjudicator"))


def _filed_in(world: World, viewer: Identity | None = None, season: dict[str, Any] | None = None) -> dict[str, int]:
    """Orders each seat filed in `season` (default: this one), as `viewer` may count them."""
    wanted = season or world.meta.get("date")
    counts: dict[str, int] = {}
    for _, order in world.all("orders"):
        if order.get("filed") == wanted and order.get("status") != "withdrawn" and _counted_for(order, viewer):
            counts[order["filed_by"]] = counts.get(order["filed_by"], 0) + 1
    return counts


def _dead_seat(world: World, identity: Identity) -> bool:
    """A player whose character died sends no orders: his seat has passed to his heir."""
    if not identity.is_player:
        return False
    character = world.find("characters", identity.subject)
    return character is not None and not character.get("alive", True)


def seats(world: World, viewer: Identity | None = None, season: dict[str, Any] | None = None) -> list[Identity]:
    """Every identity expected to send orders this season, Kings first, then players, by id (a
    seat that filed only private orders is a seat only for those who may know of them; a dead
    character is no seat)."""
    found: set[Identity] = {Identity("king", kid) for kid, k in world.all("kingdoms") if k.get("player")}
    names = [str(doc.get("identity", "")) for _, doc in world.all("users")]
    names += list(_filed_in(world, viewer, season)) + [str(i) for i in world.meta.get("ready", [])]
    for name in names:
        try:
            identity = Identity.parse(name)
        except IdentityError:
            continue
        if not identity.is_gm and not identity.is_observer:  # an observer sends no orders
            found.add(identity)
    return sorted((i for i in found if not _dead_seat(world, i)), key=lambda i: (i.role != "king", i.subject))


def readiness(world: World, viewer: Identity | None = None, season: dict[str, Any] | None = None) -> list[SeatStatus]:
    filed = _filed_in(world, viewer, season)
    ready = set(world.meta.get("ready", []))
    missed = world.meta.get("missed", {})
    return [
        SeatStatus(str(i), identity_label(world, i), filed.get(str(i), 0), str(i) in ready, int(missed.get(str(i), 0)))
        for i in seats(world, viewer, season)
    ]


def season_status(world: World, viewer: Identity | None = None) -> dict[str, Any]:
    """The deadline (in `viewer`'s zone) and every seat's state, as the dashboard, `yak season
    status` and the preview show it to `viewer` (None: the GM): private orders count only for
    those who may know of them."""
    rows = readiness(world, viewer)
    when = deadline_for(world, viewer)
    return {
        "season": world.date.label(),
        "deadline": when["deadline"],
        "deadline_shown": deadline_line(world, viewer),
        "paused": when["paused"],
        "zone": when["zone"],
        "nmr_policy": nmr_rules()[0],
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


def _public_moment(moment: datetime) -> str:
    """A moment in a public line: UTC (each seat reads it in his own zone where he reads the deadline)."""
    return clock.shown_in(moment, None)


@command(
    "season-deadline",
    "Set the orders deadline of the current season (GM); empty clears it. Give an offset or a zone "
    "(2026-12-07 20:00 Europe/Berlin, 2026-12-07T20:00Z); without one it is read in your own zone, "
    "else UTC. A moment already past is refused unless force=true.",
    {
        "at": Param(str, required=False, default="", help="e.g. 2026-12-07 20:00 Europe/Berlin or 2026-12-07T19:00Z"),
        "force": Param(bool, required=False, default=False, help="true: set it even though it has passed"),
    },
    category="season",
    undoable=False,
    gm_only="set the orders deadline",
)
def season_deadline(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    season = ctx.date.label()
    ctx.world.meta.pop("deadline_paused", None)
    if not p["at"].strip():
        ctx.world.meta.pop("deadline", None)
        ctx.log(f"The orders deadline for {season} is lifted.", kind="season", audience=PUBLIC)
        return {"deadline": None}
    own = seat_zone(ctx.world, ctx.identity)
    deadline = clock.parse_moment(p["at"], own.key if own else "UTC")
    now = clock.now()
    if deadline <= now and not p["force"]:
        raise CommandError(
            "at",
            f"{clock.shown_in(deadline, own)} has already passed ({clock.relative(deadline, now)}); "
            "give a later one, or force=true (--force) to set it all the same",
        )
    ctx.world.meta["deadline"] = clock.stored(deadline)
    ctx.log(f"Orders for {season} are due by {_public_moment(deadline)}.", kind="season", audience=PUBLIC)
    return {"deadline": clock.stored(deadline), "shown": deadline_line(ctx.world, ctx.identity)}


def _set_deadline(ctx: CommandContext) -> datetime:
    deadline = deadline_of(ctx.world)
    if deadline is None:
        raise CommandError("deadline", "no orders deadline is set this season; set one first (season deadline)")
    return deadline


@command(
    "season-extend",
    "Move the orders deadline on by a length of time, with a reason every seat reads (GM).",
    {
        "by": Param(str, help="how long: 24h, 2d, 90m, 1d12h"),
        "reason": Param(str, help="why, for the public post"),
    },
    category="season",
    undoable=False,
    gm_only="extend the orders deadline",
)
def season_extend(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    deadline = _set_deadline(ctx)
    by = clock.parse_duration(p["by"])
    if not p["reason"].strip():
        raise CommandError("reason", "is empty: say why the deadline moves")
    later = deadline + by
    ctx.world.meta["deadline"] = clock.stored(later)
    ctx.log(
        f"The orders deadline for {ctx.date.label()} is extended by {clock.span(by)} "
        f"to {_public_moment(later)}: {p['reason'].strip()}",
        kind=DEADLINE_NEWS,
        audience=PUBLIC,
    )
    return {"deadline": clock.stored(later), "shown": deadline_line(ctx.world, ctx.identity)}


@command(
    "season-pause",
    "Stop the season's clock (GM): nothing filed while it is paused is late; resuming moves the "
    "deadline on by the time it stood still.",
    {"reason": Param(str, required=False, default="", help="why, for the public post")},
    category="season",
    undoable=False,
    gm_only="pause the season",
)
def season_pause(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    _set_deadline(ctx)
    if paused_at(ctx.world) is not None:
        raise CommandError("season", "the season is already paused; resume it first")
    ctx.world.meta["deadline_paused"] = clock.stored(clock.now())
    reason = p["reason"].strip()
    ctx.log(
        f"The season {ctx.date.label()} is paused" + (f": {reason}" if reason else "."),
        kind=DEADLINE_NEWS,
        audience=PUBLIC,
    )
    return {"paused": True, "shown": deadline_line(ctx.world, ctx.identity)}


@command(
    "season-resume",
    "Start the season's clock again (GM): the deadline moves on by the time it stood still.",
    {},
    category="season",
    undoable=False,
    gm_only="resume the season",
)
def season_resume(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    deadline = _set_deadline(ctx)
    paused = paused_at(ctx.world)
    if paused is None:
        raise CommandError("season", "the season is not paused")
    stood = clock.now() - paused
    later = deadline + stood
    ctx.world.meta.pop("deadline_paused")
    ctx.world.meta["deadline"] = clock.stored(later)
    ctx.log(
        f"The season {ctx.date.label()} resumes; orders are now due by {_public_moment(later)}.",
        kind=DEADLINE_NEWS,
        audience=PUBLIC,
    )
    return {"paused": False, "deadline": clock.stored(later), "shown": deadline_line(ctx.world, ctx.identity)}


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


def due_line(world: World, reader: Identity | None = None) -> str:
    """The dashboard's line: the deadline in `reader`'s zone, and who is ready, who filed, who has
    sent nothing, as the public may know it (a seat's private orders are not told); '' while the
    season does not use the cycle."""
    status = season_status(world, Identity("observer"))
    if not in_use(status):
        return ""
    shown = deadline_line(world, reader)
    head = f"Orders due by {shown}" if shown else "Orders (no deadline set)"
    parts = [f"ready: {', '.join(status['ready']) or 'nobody'}"]
    if status["filed"]:
        parts.append(f"filed, not ready: {', '.join(status['filed'])}")
    if status["no_orders"]:
        parts.append(f"no orders: {', '.join(status['no_orders'])}")
    return f"{head}; {'; '.join(parts)}"


@due_reporter(name="season-orders-deadline")
def _due_orders(world: World) -> list[dict[str, Any]]:
    """One public dashboard line (`due_line`); `session.due_for` shows its deadline in the reader's zone."""
    text = due_line(world)
    if not text:
        return []
    status = season_status(world, Identity("observer"))
    return [{"kind": DUE_KIND, "text": text, "audience": PUBLIC, "urgent": bool(status["no_orders"])}]


def _count_missed(world: World, closed: dict[str, Any]) -> list[str]:
    """Raise each seat's count of seasons missed in a row if it sent nothing in the season just
    closed (which used the deadline cycle), clear it if it did; the seats that missed it."""
    filed = _filed_in(world, None, closed)
    ready = set(world.meta.get("ready", []))
    missed = dict(world.meta.get("missed", {}))
    behind = []
    for identity in seats(world, None, closed):
        key = str(identity)
        if filed.get(key) or key in ready:
            missed.pop(key, None)
        else:
            missed[key] = int(missed.get(key, 0)) + 1
            behind.append(key)
    world.meta["missed"] = missed
    return behind


def _repeat_standing_orders(ctx: Any, seat: str) -> int:
    """File again, in the new season, the standing orders of a seat that sent nothing (NMR policy
    `standing`); a withdrawn one is not repeated, nor is one repeated twice."""
    world = ctx.world
    repeated = {str(o.get("standing_of")) for _, o in world.all("orders") if o.get("standing_of")}
    standing = [
        (oid, o)
        for oid, o in sorted(world.all("orders"))
        if o.get("filed_by") == seat and o.get("standing") and o.get("status") != "withdrawn" and oid not in repeated
    ]
    for order_id, order in standing:
        copy = {
            **{k: v for k, v in order.items() if k not in ("entries", "resolved", "resolved_by", "late", "warning")},
            "status": "waiting",
            "filed": world.meta["date"],
            "filed_at": clock.stored(clock.now()),
            "outcome": "",
            "reason": "",
            "standing_of": order_id,
        }
        copy.pop("late_accepted", None)
        world.put("orders", world.new_id("orders", "o"), copy)
    return len(standing)


@season_start_step("Orders deadline and readiness", name="season-orders-readiness")
def _new_season_clears_readiness(ctx: Any, report: StepReport) -> None:
    world = ctx.world
    closed = GameDate.from_dict(world.meta["date"]).plus(-1).to_dict()
    if world.meta.get("deadline") or world.meta.get("ready"):  # the closed season used the cycle
        policy, after = nmr_rules()
        for seat in _count_missed(world, closed):
            label = identity_label(world, Identity.parse(seat))
            count = int(world.meta["missed"][seat])
            if policy == "standing":
                again = _repeat_standing_orders(ctx, seat)
                if again:
                    report.lines.append(f"{label} sent no orders: {again} standing orders filed again.")
            elif policy == "civil-disorder" and count == after:
                ctx.log(
                    f"{label} has sent no orders for {count} seasons: the seat's holdings fall into "
                    "civil disorder and hold and defend only until it files again.",
                    kind="nmr",
                    audience=ADJUDICATORS,
                )
    world.meta.pop("deadline", None)
    world.meta.pop("deadline_paused", None)
    world.meta["ready"] = []
