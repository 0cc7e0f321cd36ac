"""Closing a season: guards, season-end steps, the year-start pipeline (DESIGN §9), due events.

Each rule area plugs its work into a named step; the steps run in the order listed here,
and every step writes chronicle entries with its sums.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from yak_tui.kernel.play.audience import ADJUDICATORS
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import World

YEAR_START_STEPS: tuple[tuple[str, str], ...] = (
    ("counterfeit", "Counterfeit-currency debts"),
    ("tax", "Tax and earnings"),
    ("business-income", "Business income, minus business tax"),
    ("upkeep", "Upkeep and wages"),
    ("credit-loans", "Credit falling due and loan instalments"),
    ("production", "Academies, sailors and gunpowder"),
    ("cold-spies", "Cold spies become active"),
    ("expiries", "Expired effects and per-year resets"),
    ("government", "Government infiltration cuts manpower"),
    ("new-year", "The new year opens in Spring"),
)


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
StepFn = Callable[[Any, StepReport], None]
GuardFn = Callable[[World], list[str]]

_year_start: dict[str, list[StepFn]] = {name: [] for name, _ in YEAR_START_STEPS}
_season_end: list[tuple[str, StepFn]] = []
_season_start: list[tuple[str, StepFn]] = []
_guards: list[GuardFn] = []
_due_reporters: list[Callable[[World], list[dict[str, Any]]]] = []


def year_start_step(name: str) -> Callable[[StepFn], StepFn]:
    if name not in _year_start:
        raise KeyError(f"no year-start step {name!r}")

    def wrap(fn: StepFn) -> StepFn:
        if fn not in _year_start[name]:
            _year_start[name].append(fn)
        return fn

    return wrap


def season_end_step(title: str) -> Callable[[StepFn], StepFn]:
    def wrap(fn: StepFn) -> StepFn:
        if all(f is not fn for _, f in _season_end):
            _season_end.append((title, fn))
        return fn

    return wrap


def season_start_step(title: str) -> Callable[[StepFn], StepFn]:
    """Runs when any season opens (after year start): scheduled arrivals and expiries fall due."""

    def wrap(fn: StepFn) -> StepFn:
        if all(f is not fn for _, f in _season_start):
            _season_start.append((title, fn))
        return fn

    return wrap


def advance_guard(fn: GuardFn) -> GuardFn:
    """A guard returns the reasons the season may not close yet (e.g. an undecided siege)."""
    if fn not in _guards:
        _guards.append(fn)
    return fn


def due_reporter(fn: Callable[[World], list[dict[str, Any]]]) -> Callable[[World], list[dict[str, Any]]]:
    """Reports what is due this season for the dashboard: {kind, text, audience, urgent}."""
    if fn not in _due_reporters:
        _due_reporters.append(fn)
    return fn


def blockers(world: World) -> list[str]:
    reasons: list[str] = []
    for guard in _guards:
        reasons.extend(guard(world))
    return reasons


def due_items(world: World) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for reporter in _due_reporters:
        items.extend(reporter(world))
    return items


def run_advance(ctx: Any) -> list[StepReport]:
    """Close the current season and open the next; returns the report of every step run."""
    world: World = ctx.world
    reports: list[StepReport] = []
    old = world.date
    for title, fn in _season_end:
        report = StepReport("season-end", title)
        fn(ctx, report)
        reports.append(report)
    new = old.next()
    _open_season(world, new)
    if new.is_year_start:
        for name, title in YEAR_START_STEPS:
            report = StepReport(name, title)
            if name == "new-year":
                report.lines.append(f"The year {new.year} opens in {new.season}.")
            for fn in _year_start[name]:
                fn(ctx, report)
            reports.append(report)
            _log_step(ctx, report)
    for title, fn in _season_start:
        report = StepReport("season-start", title)
        fn(ctx, report)
        if report.lines or report.sums:
            reports.append(report)
    return reports


def _open_season(world: World, date: GameDate) -> None:
    world.meta["date"] = date.to_dict()
    world.meta["undo"] = []


def _log_step(ctx: Any, report: StepReport) -> None:
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
