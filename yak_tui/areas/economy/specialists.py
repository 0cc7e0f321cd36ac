"""Specialists: each kingdom's pool, hiring, and training sponsored by service businesses
(RULINGS §6)."""

from __future__ import annotations

from typing import Any

from yak_tui.areas.court import on_event, schedule_event
from yak_tui.areas.economy import rules, specialist_rules
from yak_tui.areas.economy.business import _business_stakes
from yak_tui.areas.economy.shared import HIRED_TYPES, _business, _char, _name, _owner_kingdom, _today
from yak_tui.kernel.play.audience import character_audience, kingdom_audience
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import KING, SEATS, CommandContext, CommandError, Param, command
from yak_tui.kernel.play.helptext import ducats
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.seasons import StepReport
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.numbers import capped, counted
from yak_tui.kernel.world.tables import table as rules_table


def specialist_pool(world: World, kingdom_id: str) -> dict[str, Any]:
    """A kingdom's pool (read only); zeros when it has none yet."""
    return world.find("specialists", kingdom_id) or {"kingdom": kingdom_id}


def _pool_for_edit(world: World, kingdom_id: str) -> dict[str, Any]:
    world.get("kingdoms", kingdom_id)
    if world.find("specialists", kingdom_id) is None:
        world.put(
            "specialists",
            kingdom_id,
            {
                "kingdom": kingdom_id,
                "engineer": 0,
                "spy": 0,
                "missionary": 0,
                "sailor": 0,
                "cold_spy": 0,
                "counter_spies": {"provinces": [], "nation": 0},
            },
        )
    return world.edit("specialists", kingdom_id)


def add_specialists(ctx: CommandContext, kingdom_id: str, kind: str, count: int, reason: str, log: bool = True) -> None:
    """Put specialists into a kingdom's pool (arrivals, academies, returns) with a chronicle line."""
    if count <= 0:
        return
    pool = _pool_for_edit(ctx.world, kingdom_id)
    pool[kind] = capped(int(pool.get(kind, 0)) + count)
    if log:
        ctx.log(
            f"{_name(ctx.world, 'kingdoms', kingdom_id)} gains {counted(count, kind)}: {reason} (now {pool[kind]}).",
            kind="specialists",
            audience=kingdom_audience(kingdom_id),
            refs={"kingdom": kingdom_id, "type": kind, "change": count},
        )


def take_specialists(
    ctx: CommandContext, kingdom_id: str, kind: str, count: int, reason: str, field: str = "count", log: bool = True
) -> None:
    """Take specialists out of a pool, or refuse naming `field` when there are too few."""
    have = int(specialist_pool(ctx.world, kingdom_id).get(kind, 0))
    if have < count:
        raise CommandError(
            field, f"{_name(ctx.world, 'kingdoms', kingdom_id)} has {counted(have, kind)}, {count} needed for {reason}"
        )
    if count <= 0:
        return
    pool = _pool_for_edit(ctx.world, kingdom_id)
    pool[kind] = have - count
    if log:
        ctx.log(
            f"{_name(ctx.world, 'kingdoms', kingdom_id)} uses {counted(count, kind)}: {reason} (now {pool[kind]}).",
            kind="specialists",
            audience=kingdom_audience(kingdom_id),
            refs={"kingdom": kingdom_id, "type": kind, "change": -count},
        )


def controlled_provinces(world: World, kingdom_id: str) -> int:
    """From the provinces' index: the market board asks this for every kingdom."""
    return len(world.where("provinces", kingdom=kingdom_id))


def hireable_types() -> tuple[str, ...]:
    """The specialist types a kingdom may hire, in the table's order."""
    return tuple(kind for kind in specialist_rules.specialist_types() if specialist_rules.hireable(kind))


def hire_status(world: World, kingdom_id: str, kinds: tuple[str, ...] | None = None) -> dict[str, dict[str, int]]:
    """Per hireable type: hired this year and the year's limit (one per controlled province).
    `kinds`: `hireable_types()`, when the caller asks for many kingdoms (the market board: 3,000 at
    1000x, each reading the tables again for the same types)."""
    counters = world.get("kingdoms", kingdom_id).get("year_counters") or {}
    limit = specialist_rules.hire_limit(controlled_provinces(world, kingdom_id))
    return {
        kind: {"hired": int(counters.get(f"hired_{kind}", 0)), "limit": limit}
        for kind in (hireable_types() if kinds is None else kinds)
    }


def _kingdom_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    return Stakes.of(p["kingdom"], kingdoms=[p["kingdom"]])


def _arrival(ctx: CommandContext, kingdom_id: str, kind: str, count: int, seasons: int, source: str) -> str | None:
    """Immediately into the pool, or scheduled for the start of a later season."""
    if seasons <= 0:
        add_specialists(ctx, kingdom_id, kind, count, source)
        return None
    due = _today(ctx).plus(seasons)
    text = f"{counted(count, kind)} for {_name(ctx.world, 'kingdoms', kingdom_id)} ({source})"
    return schedule_event(
        ctx.world,
        due,
        "specialists-arrive",
        {"kingdom": kingdom_id, "type": kind, "count": count, "source": source, "text": text},
        kingdom_audience(kingdom_id),
    )


@on_event("specialists-arrive")
def _specialists_arrive(ctx: CommandContext, event: dict[str, Any], report: StepReport) -> None:
    data = event["data"]
    if ctx.world.find("kingdoms", data["kingdom"]) is None:
        return
    add_specialists(ctx, data["kingdom"], data["type"], int(data["count"]), f"arrive ({data.get('source', '')})")
    many = counted(2, str(data["type"])).split(" ", 1)[1]  # "spies", never "spys"
    report.add(f"{many} arrive", int(data["count"]))
    report.lines.append(data.get("text", ""))


def _hire_help() -> str:
    hiring = rules_table("economy")["hiring"]
    per_year = hiring["per_province_per_year"]
    return (
        f"Hire specialists: {ducats(hiring['cost_next_season'])} each arriving next season, or "
        f"{hiring['cost_immediate']} at once; {'one' if per_year == 1 else per_year} per province a year."
    )


def _training_help() -> str:
    training = rules_table("economy")["training"]
    per_size = training["per_size"]
    limit = "Size" if per_size == 1 else f"{per_size} x Size"
    return (
        f"A {training['sector']} business of Size {training['min_size']}+ sponsors specialists: "
        f"{ducats(training['cost'])} each, up to {limit} a year."
    )


@command(
    "hire",
    _hire_help,
    {
        "kingdom": Param(str, ref="kingdoms"),
        "type": Param(str, choices=HIRED_TYPES),
        "immediate": Param(
            bool,
            required=False,
            default=False,
            help=lambda: f"{ducats(rules_table('economy')['hiring']['cost_immediate'])}, arrives at once",
        ),
        "count": Param(int, required=False, default=1, minimum=1),
    },
    category="economy",
    stakes=_kingdom_stakes,
    filed_by=KING,
)
def hire(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    kingdom_id, kind, count = p["kingdom"], p["type"], p["count"]
    ctx.require_acts_for(kingdom=kingdom_id)
    if not specialist_rules.hireable(kind):
        raise CommandError("type", f"{kind}s cannot be hired")
    status = hire_status(world, kingdom_id)[kind]
    if not specialist_rules.hire_allowed(status["hired"] + count - 1, controlled_provinces(world, kingdom_id)):
        raise CommandError(
            "count",
            f"{_name(world, 'kingdoms', kingdom_id)} may hire {counted(status['limit'], kind)} a "
            f"year (one per province it controls); {status['hired']} hired this year, "
            f"{max(0, status['limit'] - status['hired'])} left",
        )
    cost = specialist_rules.hire_cost(p["immediate"]) * count
    when = "at once" if p["immediate"] else "next season"
    ctx.move_ducats(
        ("kingdoms", kingdom_id),
        None,
        cost,
        f"hiring {counted(count, kind)}, arriving {when}",
        audience=kingdom_audience(kingdom_id),
    )
    counters = world.edit("kingdoms", kingdom_id).setdefault("year_counters", {})
    counters[f"hired_{kind}"] = status["hired"] + count
    event = _arrival(ctx, kingdom_id, kind, count, specialist_rules.hire_arrival_seasons(p["immediate"]), "hired")
    return {
        "kingdom": kingdom_id,
        "type": kind,
        "count": count,
        "cost": cost,
        "arrives": when,
        "event": event,
        "hired_this_year": status["hired"] + count,
        "limit": status["limit"],
    }


def trained_this_year(world: World, biz: dict[str, Any]) -> int:
    """Specialists a business has sponsored this year (`trained` {year, count})."""
    trained = biz.get("trained") or {}
    return int(trained.get("count", 0)) if trained.get("year") == world.date.year else 0


@command(
    "sponsor-training",
    _training_help,
    {
        "business": Param(str, ref="businesses"),
        "type": Param(str, choices=("engineer", "spy", "missionary", "sailor")),
        "count": Param(int, required=False, default=1, minimum=1),
    },
    category="economy",
    stakes=_business_stakes,
    filed_by=SEATS,
)
def sponsor_training(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz = _business(world, p["business"])
    ctx.require_acts_for(character=biz["owner"])
    limit = rules.training_limit(int(biz["size"]), biz["sector"])
    if limit <= 0:
        section = rules_table("economy")["training"]
        raise CommandError(
            "business",
            f"{biz['name']} ({biz['sector']}, Size {biz['size']}) cannot sponsor training: "
            f"it takes a {section['sector']} business of Size {section['min_size']} or more",
        )
    done = trained_this_year(world, biz)
    if done + p["count"] > limit:
        raise CommandError(
            "count", f"{biz['name']} sponsors at most {limit} a year; {done} this year, {limit - done} left"
        )
    kingdom_id = _owner_kingdom(world, biz["owner"])
    if kingdom_id is None:
        raise CommandError("business", f"{_name(world, 'characters', biz['owner'])} serves no kingdom to train for")
    cost = rules.training_cost(p["count"])
    ctx.move_ducats(
        _char(biz["owner"]),
        None,
        cost,
        f"{biz['name']} sponsors training of {counted(p['count'], p['type'])}",
        audience=character_audience(biz["owner"]),
    )
    # Year-stamped rather than a year_counter, so the year start has nothing to reset (and need not
    # copy thousands of business documents to do it).
    world.edit("businesses", p["business"])["trained"] = {"year": world.date.year, "count": done + p["count"]}
    event = _arrival(
        ctx, kingdom_id, p["type"], p["count"], rules.training_arrival_seasons(), f"trained by {biz['name']}"
    )
    return {
        "business": p["business"],
        "kingdom": kingdom_id,
        "type": p["type"],
        "count": p["count"],
        "cost": cost,
        "event": event,
        "trained_this_year": done + p["count"],
        "limit": limit,
    }
