"""The espionage read models the screens and `yak show` use, in one module the package loads
when first asked (`kernel/play/lazy.py`): the board (`board.py`), the order lines
(`order_lines.py`), and here the odds a dialog shows while an order is typed or resolved.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from yak_tui.areas.espionage.board import (
    FAMILY_LABELS,
    BoardView,
    Choice,
    EffectLine,
    MissionLine,
    board_view,
    counted_modifiers,
    full_view,
    mission_lines,
    target_choices,
)
from yak_tui.areas.espionage.fields import extras_bought
from yak_tui.areas.espionage.order_lines import OrderLine
from yak_tui.areas.espionage.planning import applied_modifiers, mission_odds_for, plan_mission
from yak_tui.areas.espionage.rules import (
    EspionageInputError,
    catalogue,
    mission,
    mission_cost,
    mission_odds,
)
from yak_tui.areas.espionage.state import (
    MISSION_COMMAND,
)
from yak_tui.kernel.errors import CommandError, ValidationError
from yak_tui.kernel.play.audience import (
    viewer_kingdom,
)
from yak_tui.kernel.play.commands import COMMANDS
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.params import coerce_params
from yak_tui.kernel.world.model import World

__all__ = [  # the board's and the order lines' models, read through this module by the package
    "FAMILY_LABELS",
    "BoardView",
    "Choice",
    "DialogOdds",
    "EffectLine",
    "MissionLine",
    "OrderLine",
    "board_view",
    "line_odds",
    "mission_dialog_odds",
    "mission_lines",
    "odds_rows",
    "order_odds",
    "target_choices",
]


@dataclass(frozen=True)
class DialogOdds:
    """Odds for a dialog: labelled rows, extra lines, the modifiers counted, and the cost."""

    rows: tuple[tuple[str, float], ...]
    extra: tuple[tuple[str, float], ...]
    modifiers: tuple[tuple[int, str], ...]
    all_modifiers: bool
    cost: int | None


def odds_rows(odds: Mapping[str, Any]) -> tuple[tuple[tuple[str, float], ...], tuple[tuple[str, float], ...]]:
    """Rows worth showing of a `MissionOdds.to_dict()`: outcome, spy fate, evidence (rolled ones)."""
    outcome, spy, evidence = odds["outcome"], odds["spy"], odds["evidence"]
    rows: list[tuple[str, float]] = []
    if float(outcome.get("not-rolled", 0)) < 1:
        rows += [("success", float(outcome["success"])), ("failure", float(outcome["failure"]))]
    else:
        rows.append(("attempt for the GM to play out", 1.0))
    rows += [("spy captured", float(spy["captured"])), ("spy escapes", float(spy["escaped"]))]
    if float(evidence.get("not-rolled", 0)) < 1:
        rows += [
            ("sponsor identified", float(evidence["identified"])),
            ("detected, sponsor unknown", float(evidence["detected"])),
            ("undetected", float(evidence["undetected"])),
        ]
    # Keyed as the odds are (`spy_lost`): the dialog words them for the mission (`outcomes`).
    extra = [("spy_lost", float(odds["spy_lost"]))]
    if float(outcome.get("not-rolled", 0)) < 1 and float(evidence.get("not-rolled", 0)) < 1:
        extra.insert(0, ("success_and_undetected", float(odds["success_and_undetected"])))
    return tuple(rows), tuple(extra)


def _dialog_odds(data: Mapping[str, Any]) -> DialogOdds:
    rows, extra = odds_rows(data["odds"])
    mods = tuple((int(m["value"]), str(m["reason"])) for m in data.get("modifiers", {}).get("success", []))
    return DialogOdds(rows, extra, mods, not data.get("hidden_modifiers", False), data.get("cost"))


def mission_dialog_odds(world: World, viewer: Identity, params: Mapping[str, Any]) -> DialogOdds | None:
    """Odds of a mission as typed (`spy-mission` by the GM, `spy-order` by its filer). The filer
    sees only the modifiers his side knows. While the form is incomplete (no province yet), the
    board's odds at the target's capital stand in; None when not even the mission is known."""
    clean = {k: v for k, v in params.items() if v not in (None, "") and k != "note"}
    try:
        coerced = coerce_params(COMMANDS[MISSION_COMMAND], clean, world)
        return _dialog_odds(mission_odds_for(world, viewer, coerced))
    except (CommandError, ValidationError):
        pass  # the form is not a valid order yet: the board's odds stand in
    sponsor = _kingdom_ref(world, clean.get("sponsor")) or viewer_kingdom(world, viewer)
    target = _kingdom_ref(world, clean.get("target")) or sponsor
    slug = str(clean.get("mission", ""))
    if sponsor is None or target is None or slug not in catalogue():
        return None
    line = next((m for m in mission_lines(world, viewer, sponsor, target) if m.slug == slug), None)
    if line is None:
        return None
    mods, full = counted_modifiers(world, viewer, sponsor, target)
    shown = line_odds(line)
    return DialogOdds(
        shown.rows,
        shown.extra,
        () if line.own_administration else tuple((m.value, m.reason) for m in mods),
        full,
        typed_cost(slug, clean, line.cost),
    )


def typed_cost(slug: str, params: Mapping[str, Any], listed: int) -> int:
    """What a mission costs with the extras typed so far (the one `mission_cost`), or its listed
    cost while an extra is not yet a number the mission offers."""
    try:
        return mission_cost(slug, extras_bought(mission(slug), params))
    except (CommandError, EspionageInputError, ValueError, TypeError):
        return listed


def _kingdom_ref(world: World, value: Any) -> str | None:
    if not value:
        return None
    try:
        return world.resolve_ref("kingdoms", str(value))
    except ValidationError:
        return None  # a kingdom half typed


def order_odds(
    world: World, viewer: Identity, order_id: str, gm_modifier: int = 0, gm_reason: str = ""
) -> DialogOdds | None:
    """Odds of a waiting order as its adjudicator will roll it (every modifier, with his own)."""
    order = world.find("orders", order_id)
    if order is None or order.get("command") != MISSION_COMMAND:
        return None
    filer = Identity.parse(str(order["filed_by"]))
    raw = dict(order.get("params") or {})
    if gm_modifier:
        raw.update(gm_modifier=gm_modifier, gm_reason=gm_reason or "GM")
    try:
        plan = plan_mission(world, filer, coerce_params(COMMANDS[MISSION_COMMAND], raw, world))
    except (CommandError, ValidationError):
        return None  # the world has changed since the order was filed: it can no longer be rolled
    full = full_view(world, viewer, plan.sponsor.kingdom, plan.target)
    applied = applied_modifiers(world, plan, every_modifier=full)
    odds = mission_odds(plan.mission, applied.success, applied.detection).to_dict()
    rows, extra = odds_rows(odds)
    return DialogOdds(rows, extra, tuple((m.value, m.reason) for m in applied.success), full, plan.cost)


def line_odds(line: MissionLine) -> DialogOdds:
    """A board row's odds as dialog rows (while an order form is still incomplete)."""
    rows: list[tuple[str, float]] = []
    if line.success is not None:
        rows += [("success", line.success), ("failure", line.failure or 0.0)]
    else:
        rows.append(("attempt for the GM to play out", 1.0))
    rows += [("spy captured", line.captured), ("spy escapes", line.escaped)]
    if line.detected is not None:
        identified = line.identified or 0.0
        rows += [
            ("sponsor identified", identified),
            ("detected, sponsor unknown", round(line.detected - identified, 6)),
            ("undetected", line.undetected or 0.0),
        ]
    return DialogOdds(tuple(rows), (("spy_lost", line.spy_lost),), (), False, None)
