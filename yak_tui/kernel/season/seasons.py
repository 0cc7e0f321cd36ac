"""Closing a season: guards, season-end steps, the year-start pipeline (DESIGN §9), due events.

Each rule area registers its handlers by name (`@year_start_step("tax", name="court-tax")`,
`@season_end_step(title, name=...)`, ...); the order they run in is declared once, in the rules
table `core` (`[season]`), never the order their modules happened to be imported. A registered
handler the order does not name, or a name no code registers, refuses the advance (and a house
rule that would make it so), naming the difference. Every step writes chronicle entries with its sums.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from yak_tui.kernel.play.audience import ADJUDICATORS
from yak_tui.kernel.play.commands import CommandContext, load_command_modules
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import RulesTableError, table, table_check


@dataclass
class StepReport:
    """What one step did, as sums a GM can check against the chronicle."""

    step: str
    title: str
    lines: list[str] = field(default_factory=list)
    sums: dict[str, float] = field(default_factory=dict)
    private: set[str] = field(default_factory=set)  # sums kept off the public year-start line

    def add(self, key: str, amount: float, *, public: bool = True) -> None:
        """Add to a sum; `public=False` when the figure would reveal what its owner alone may know
        (or a secret: an upkeep surcharge, an academy's interference)."""
        self.sums[key] = round(self.sums.get(key, 0) + amount, 4)
        if not public:
            self.private.add(key)

    def to_dict(self) -> dict[str, Any]:
        return {"step": self.step, "title": self.title, "lines": self.lines, "sums": self.sums}


# A step function changes the world through the context and fills the report.
StepFn = Callable[[CommandContext, StepReport], None]
GuardFn = Callable[[World], list[str]]
DueFn = Callable[[World], list[dict[str, Any]]]
# (world, kingdom, its regiments, its ships) -> {label: ducats} added to the kingdom's upkeep.
SurchargeFn = Callable[[World, str, int, int], dict[str, float]]

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class Handler(Generic[F]):
    """A registered handler; `label` is the year-start step it belongs to, or a season step's title."""

    fn: F
    label: str = ""


class HandlerRegistry(Generic[F]):
    """The handlers of one kind by name; `key` is the list of `core.toml [season]` that orders them."""

    def __init__(self, key: str) -> None:
        self.key = key
        self.by_name: dict[str, Handler[F]] = {}

    def register(self, name: str, label: str = "") -> Callable[[F], F]:
        def wrap(fn: F) -> F:
            known = self.by_name.get(name)
            if known is not None and _code_of(known.fn) != _code_of(fn):
                raise ValueError(
                    f"season {self.key}: {name!r} is registered twice ({_code_of(known.fn)}, {_code_of(fn)})"
                )
            self.by_name[name] = Handler(fn, label)  # a module imported again registers its new function
            return fn

        return wrap


def _code_of(fn: Callable[..., Any]) -> str:
    return f"{fn.__module__}.{fn.__qualname__}"


YEAR_START = HandlerRegistry[StepFn]("year_start")
SEASON_END = HandlerRegistry[StepFn]("season_end")
SEASON_START = HandlerRegistry[StepFn]("season_start")
GUARDS = HandlerRegistry[GuardFn]("advance_guards")
DUE_REPORTERS = HandlerRegistry[DueFn]("due_reporters")
UPKEEP_SURCHARGES = HandlerRegistry[SurchargeFn]("upkeep_surcharges")
REGISTRIES = (SEASON_END, YEAR_START, SEASON_START, GUARDS, DUE_REPORTERS, UPKEEP_SURCHARGES)
REGISTRIES_BY_KEY = {registry.key: registry for registry in REGISTRIES}


def year_start_step(step: str, *, name: str) -> Callable[[StepFn], StepFn]:
    """Run the function in year-start step `step`, where `core.toml [season.year_start]` lists `name`."""
    return YEAR_START.register(name, step)


def season_end_step(title: str, *, name: str) -> Callable[[StepFn], StepFn]:
    """Run the function when a season closes, before the next opens; its report is called `title`."""
    return SEASON_END.register(name, title)


def season_start_step(title: str, *, name: str) -> Callable[[StepFn], StepFn]:
    """Runs when any season opens (after year start): scheduled arrivals and expiries fall due."""
    return SEASON_START.register(name, title)


def advance_guard(*, name: str) -> Callable[[GuardFn], GuardFn]:
    """A guard returns the reasons the season may not close yet (e.g. an undecided siege)."""
    return GUARDS.register(name)


def due_reporter(*, name: str) -> Callable[[DueFn], DueFn]:
    """Reports what is due this season for the dashboard: {kind, text, audience, urgent}."""
    return DUE_REPORTERS.register(name)


def upkeep_surcharge(*, name: str) -> Callable[[SurchargeFn], SurchargeFn]:
    """Adds to a kingdom's upkeep (an infiltration's waste): the area that knows of it registers it,
    the upkeep step asks `upkeep_surcharges()` without importing that area."""
    return UPKEEP_SURCHARGES.register(name)


@dataclass(frozen=True)
class YearStartStep:
    name: str
    title: str
    handlers: tuple[str, ...]


@dataclass(frozen=True)
class SeasonOrder:
    """`core.toml [season]`, checked against what the code registers: names in running order."""

    year_start: tuple[YearStartStep, ...]
    lists: dict[str, tuple[str, ...]]  # registry key -> handler names, for every other kind


def season_order() -> SeasonOrder:
    """The declared order, once every area has registered; a RulesTableError naming each handler
    registered but not listed, each name listed but not registered, each one listed twice."""
    section = table("core")["season"]
    cached = _CHECKED.get("order")
    if cached is not None and cached[0] is section and cached[1] == _registered():
        return cached[2]
    load_command_modules()
    steps = tuple(
        YearStartStep(str(entry["name"]), str(entry["title"]), tuple(entry["handlers"]))
        for entry in section["year_start"]
    )
    lists = {registry.key: tuple(section[registry.key]) for registry in REGISTRIES if registry is not YEAR_START}
    problems = _check_year_start(steps)
    for key, names in lists.items():
        problems += _check_names(key, names, REGISTRIES_BY_KEY[key])
    if problems:
        raise RulesTableError(f"rules table core, [season]: {'; '.join(problems)}")
    order = SeasonOrder(steps, lists)
    _CHECKED["order"] = (section, _registered(), order)
    return order


# The last order checked, with what it was checked against: (the [season] table, the names
# registered); the dashboard asks for the order on every refresh, the upkeep step once a kingdom.
_CHECKED: dict[str, tuple[Any, tuple[tuple[str, ...], ...], SeasonOrder]] = {}


def _registered() -> tuple[tuple[str, ...], ...]:
    return tuple(tuple(registry.by_name) for registry in REGISTRIES)


table_check("core-season-order")(season_order)


def _check_names(key: str, names: tuple[str, ...], registry: HandlerRegistry[Any]) -> list[str]:
    problems = [f"{key} lists {name!r} twice" for name in sorted({n for n in names if names.count(n) > 1})]
    problems += [f"{key} lists {name!r}, which no code registers" for name in names if name not in registry.by_name]
    problems += [
        f"{key} does not list {name!r} (registered by {_code_of(handler.fn)})"
        for name, handler in sorted(registry.by_name.items())
        if name not in names
    ]
    return problems


def _check_year_start(steps: tuple[YearStartStep, ...]) -> list[str]:
    step_names = [step.name for step in steps]
    problems = [
        f"year_start lists step {name!r} twice" for name in sorted({n for n in step_names if step_names.count(n) > 1})
    ]
    listed = tuple(name for step in steps for name in step.handlers)
    problems += _check_names("year_start", listed, YEAR_START)
    for step in steps:
        for name in step.handlers:
            handler = YEAR_START.by_name.get(name)
            if handler is not None and handler.label != step.name:
                problems.append(
                    f"year_start lists {name!r} under step {step.name!r}, but it is registered for step {handler.label!r}"
                )
    return problems


def in_order(registry: HandlerRegistry[F], order: SeasonOrder | None = None) -> list[Handler[F]]:
    """The handlers of `registry` in the declared order (`order`: one already checked)."""
    names = (order or season_order()).lists[registry.key]
    return [registry.by_name[name] for name in names]


def year_start_steps() -> list[tuple[str, str]]:
    """The year-start steps as (name, title), in the order they run."""
    return [(step.name, step.title) for step in season_order().year_start]


def blockers(world: World) -> list[str]:
    reasons: list[str] = []
    for guard in in_order(GUARDS):
        reasons.extend(guard.fn(world))
    return reasons


def due_items(world: World) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for reporter in in_order(DUE_REPORTERS):
        items.extend(reporter.fn(world))
    return items


def upkeep_surcharges() -> list[SurchargeFn]:
    """What adds to a kingdom's upkeep, in the declared order."""
    return [surcharge.fn for surcharge in in_order(UPKEEP_SURCHARGES)]


def run_advance(ctx: CommandContext) -> list[StepReport]:
    """Close the current season and open the next; returns the report of every step run."""
    order = season_order()  # refused before any step runs if the order does not fit the code
    world = ctx.world
    reports: list[StepReport] = []
    for handler in in_order(SEASON_END, order):
        report = StepReport("season-end", handler.label)
        handler.fn(ctx, report)
        reports.append(report)
    new = world.date.next()
    _open_season(world, new)
    if new.is_year_start:
        for step in order.year_start:
            report = StepReport(step.name, step.title)
            for name in step.handlers:
                YEAR_START.by_name[name].fn(ctx, report)
            reports.append(report)
            _log_step(ctx, report)
    for handler in in_order(SEASON_START, order):
        report = StepReport("season-start", handler.label)
        handler.fn(ctx, report)
        if report.lines or report.sums:
            reports.append(report)
    return reports


@year_start_step("new-year", name="season-new-year")
def _new_year(ctx: CommandContext, report: StepReport) -> None:
    date = ctx.world.date
    report.lines.append(f"The year {date.year} opens in {date.season}.")


def _open_season(world: World, date: GameDate) -> None:
    world.meta["date"] = date.to_dict()
    world.meta["undo"] = []


def _log_step(ctx: CommandContext, report: StepReport) -> None:
    """The public line carries the public sums only, the adjudicators' line all of them. Its words
    never depend on what only some may know (RULINGS §1): a step with no public sum says "done"
    whether or not a secret operation ran in it (a counterfeit debt, a government infiltration)."""
    public = {k: v for k, v in report.sums.items() if k not in report.private}
    sums = ", ".join(f"{k} {v:g}" for k, v in public.items())
    text = f"Year start, {report.title}: " + (sums or "done")
    ctx.log(text, kind="year-start", amounts=None, refs={"step": report.step, "sums": public})
    if len(public) < len(report.sums):
        every = ", ".join(f"{k} {v:g}" for k, v in report.sums.items())
        ctx.log(
            f"Year start, {report.title} (adjudicators): {every}",
            kind="year-start-secret",
            amounts=None,
            audience=ADJUDICATORS,
            refs={"step": report.step, "sums": dict(report.sums), "secret": True},
        )
