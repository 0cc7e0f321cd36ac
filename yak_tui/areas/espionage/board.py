"""Headless data for the espionage board screen (issue 4 item 5), shaped per viewer.

The screen only draws what these functions return; every number comes from the rules
(`rules.py`) through the planning of an order (`planning.py`), and everything shown goes through
the audience module:

- the GM sees every kingdom's spies, every effect and the whole inbox, with the odds of every
  modifier (counter-spies, spy ring, breach);
- a King or a player sees his own kingdom's spies, his side's effects, only what the target
  knows of effects against it (`effects_view`), and odds with the modifiers his side knows
  (`mission_board`): the target's counter-spies stay hidden;
- a player sees his own orders' state and the outcome the sponsor is told, never naturals,
  modifiers or evidence; the adjudicator's inbox holds only orders he may resolve (`order_lines.py`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from yak_tui.areas.espionage.effects import ASSASSINATION_ATTEMPT, INFILTRATION
from yak_tui.areas.espionage.fields import mission_needs
from yak_tui.areas.espionage.order_lines import OrderLine, inbox_lines, my_order_lines
from yak_tui.areas.espionage.planning import knows_kingdom_secrets, modifier_inputs
from yak_tui.areas.espionage.registry import branch_label, kind_of, kind_of_document
from yak_tui.areas.espionage.rules import Mission, catalogue, missing_prerequisite, mission, mission_odds, spy_modifiers
from yak_tui.areas.espionage.state import (
    EFFECTS,
    Plan,
    Sponsor,
    active_effects,
    capital_province,
    date_label,
    infiltrations_held,
    short_kingdom,
    spy_pool,
)
from yak_tui.kernel.play.audience import (
    can_see_document,
    character_audience,
    filter_document,
    kingdom_audience,
    viewer_kingdom,
)
from yak_tui.kernel.play.authority import Stakes, adjudicates
from yak_tui.kernel.play.dice import Modifier
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World

FAMILY_LABELS = {
    "general": "General",
    "counter-espionage": "Counter-espionage",
    "commercial": "Commercial",
    "naval": "Naval",
    "military": "Military",
    "state-level": "State-level",
}


# ================================================================ missions by target


def mission_board(world: World, viewer: Identity, sponsor: str, target: str) -> list[dict[str, Any]]:
    """Every mission against `target` with its prerequisite met or missing (the board's rows).

    Odds are computed with the modifiers the viewer may know (all of them for an adjudicator). A
    player who is not his kingdom's King knows only the infiltrations his own missions placed
    (RULINGS §1): `prerequisite_met` is None where his kingdom's may or may not hold it."""
    full_state = knows_kingdom_secrets(viewer)
    held = infiltrations_known(world, viewer, sponsor, target)
    rows = []
    stakes = Stakes.of(target, kingdoms=[sponsor, target])
    full = adjudicates(world, viewer, stakes)
    for slug, entry in catalogue().items():
        kind = kind_of(entry)
        if kind.apply is None:
            continue
        missing = None if kind.own_side else missing_prerequisite(entry, held)
        met: bool | None = missing is None
        if missing is not None and not full_state:
            met = None  # his kingdom may hold it: only its King knows
        plan = Plan(entry, board_sponsor(viewer, sponsor), target)
        plan.location_province = capital_province(world, target)
        applied = spy_modifiers(modifier_inputs(world, plan, known_to_sponsor_only=not full))
        odds = mission_odds(entry, applied.success, applied.detection).to_dict()
        rows.append(
            {
                "slug": slug,
                "name": entry.name,
                "family": entry.family,
                "cost": entry.cost,
                "prerequisite": entry.prerequisite,
                "prerequisite_met": met,
                "held": slug in held,
                "odds": odds,
            }
        )
    return rows


def board_sponsor(viewer: Identity, kingdom: str) -> Sponsor:
    """Who sponsors a mission the viewer plans: his kingdom, or the player himself (his own purse,
    his own knowledge) when he is not its King."""
    if knows_kingdom_secrets(viewer):
        return Sponsor(kingdom, ("kingdoms", kingdom), kingdom_audience(kingdom), None)
    return Sponsor(kingdom, ("characters", viewer.subject), character_audience(viewer.subject), viewer.subject)


def infiltrations_known(world: World, viewer: Identity, sponsor: str, target: str) -> set[str]:
    """The infiltrations of `sponsor` against `target` this viewer knows of: all of them for the GM
    and the sponsor's King, his own for a player (the audience filter decides, as for `show`)."""
    if viewer.is_gm:
        return infiltrations_held(world, sponsor, target)
    return {
        str(effect["mission"])
        for effect_id, effect in active_effects(
            world, kind=INFILTRATION, sponsor_kingdom=sponsor, target_kingdom=target
        )
        if can_see_document(world, viewer, EFFECTS, effect_id, effect) == "all"
    }


def effects_view(world: World, viewer: Identity) -> dict[str, list[dict[str, Any]]]:
    """Effects the viewer's side holds (all fields), and those against it that it knows of
    (the sponsor named only when identified). The GM sees everything as held.

    What a viewer may see of each effect is the audience filter's answer (`filter_document`), the
    one `yak show effects` gives: a King sees his kingdom's, a player only his own missions'
    (RULINGS §1), and a target King what detection told him ('known')."""
    if viewer.is_gm:
        return {"held": [dict(e, id=i) for i, e in sorted(world.all(EFFECTS))], "suffered": []}
    held, suffered = [], []
    for effect_id, effect in sorted(world.all(EFFECTS)):
        level = can_see_document(world, viewer, EFFECTS, effect_id, effect)
        shown = filter_document(world, viewer, EFFECTS, effect_id, effect)
        if shown is None:
            continue
        if level == "all":
            held.append({**shown, "id": effect_id})
        else:
            suffered.append(
                {
                    **shown,
                    "id": effect_id,
                    "sponsor_kingdom": shown.get("sponsor_kingdom"),
                    "sponsor_character": shown.get("holder_character"),
                }
            )
    return {"held": held, "suffered": suffered}


def pending_attempts(world: World) -> list[tuple[str, dict[str, Any]]]:
    """Assassination attempts the GM has still to play out."""
    return [(i, e) for i, e in active_effects(world, kind=ASSASSINATION_ATTEMPT) if e.get("status") == "pending"]


@dataclass(frozen=True)
class MissionLine:
    """One mission against the chosen target, with the viewer's side's odds (None: not rolled)."""

    slug: str
    name: str
    family: str
    cost: int
    prerequisite: str | None  # slug of the infiltration needed
    prerequisite_label: str  # "Treasury"
    prerequisite_met: bool | None  # None: the viewer cannot know (a player; his kingdom's King knows)
    held: bool  # an infiltration the sponsor already holds against the target
    success: float | None
    failure: float | None
    captured: float
    escaped: float
    detected: float | None  # the target learns of it (detected or identified)
    identified: float | None
    undetected: float | None
    spy_lost: float
    attempt: bool  # an assassination: the GM plays the attack out
    own_administration: bool  # purge: against the sponsor's own administration
    text: str
    extras: tuple[str, ...]
    spy_used_up: bool
    duration_seasons: int | None
    needs: tuple[str, ...]  # order fields this mission needs besides target and mission


@dataclass(frozen=True)
class Choice:
    value: str
    label: str


@dataclass(frozen=True)
class PoolLine:
    kingdom: str
    name: str
    spies: int
    cold: int
    counter_provinces: tuple[str, ...]
    counter_nation: int

    @property
    def counter_text(self) -> str:
        parts = list(self.counter_provinces)
        if self.counter_nation:
            parts.append(f"nation ×{self.counter_nation}")
        return ", ".join(parts) or "none"


@dataclass(frozen=True)
class EffectLine:
    """An infiltration or effect as the viewer may know it; `sponsor` is "?" when unknown."""

    id: str
    side: str  # "held" (the viewer's side runs it), "suffered" (it is against the viewer), "all" (GM)
    kind: str
    label: str
    mission: str
    sponsor: str
    target: str
    where: str
    start: str
    end: str
    active: bool
    known: str  # GM only: what the target knows ("secret", "detected", "identified"); "" otherwise
    pending: bool = False  # an assassination attempt the GM has still to play out


@dataclass(frozen=True)
class BoardView:
    viewer_kingdom: str | None
    sponsor: str | None
    sponsors: tuple[Choice, ...]
    target: str | None
    targets: tuple[Choice, ...]
    missions: tuple[MissionLine, ...]
    modifiers: tuple[tuple[int, str], ...]  # counted in the odds shown
    all_modifiers: bool  # the viewer adjudicates: every modifier is counted
    sponsor_pool: PoolLine | None
    pools: tuple[PoolLine, ...]
    infiltrations: tuple[EffectLine, ...]
    effects: tuple[EffectLine, ...]
    inbox: tuple[OrderLine, ...]
    my_orders: tuple[OrderLine, ...]
    may_run: bool  # the GM resolves missions directly
    may_submit: bool  # a King or player with a kingdom files private orders
    may_station: bool  # stations counter-spies (GM, or a King for his kingdom)


def sponsor_choices(world: World, viewer: Identity) -> tuple[Choice, ...]:
    """Whose spies: the GM picks any kingdom; anyone else is his own kingdom's sponsor."""
    if viewer.is_gm:
        return tuple(Choice(kid, short_kingdom(world, kid)) for kid, _ in sorted(world.all("kingdoms")))
    kingdom = viewer_kingdom(world, viewer)
    if kingdom is None or world.find("kingdoms", kingdom) is None:
        return ()
    return (Choice(kingdom, short_kingdom(world, kingdom)),)


def target_choices(world: World, sponsor: str | None) -> tuple[Choice, ...]:
    return tuple(Choice(kid, short_kingdom(world, kid)) for kid, _ in sorted(world.all("kingdoms")) if kid != sponsor)


def _extra_text(entry: Mission) -> tuple[str, ...]:
    out = []
    for extra in entry.extras:
        limit = f", at most {extra.max}" if extra.max is not None else ""
        out.append(f"{extra.kind.replace('-', ' ')}: {extra.ducats_each}d each{limit}")
    return tuple(out)


def full_view(world: World, viewer: Identity, sponsor: str, target: str) -> bool:
    return adjudicates(world, viewer, Stakes.of(target, kingdoms=[sponsor, target]))


def counted_modifiers(world: World, viewer: Identity, sponsor: str, target: str) -> tuple[list[Modifier], bool]:
    """The modifiers the board's odds count for this viewer (at the target's capital), and
    whether they are all of them (the viewer adjudicates) or only what the sponsor knows."""
    full = full_view(world, viewer, sponsor, target)
    plan = Plan(mission("infiltrate-treasury"), board_sponsor(viewer, sponsor), target)
    plan.location_province = capital_province(world, target)
    applied = spy_modifiers(modifier_inputs(world, plan, known_to_sponsor_only=not full))
    return applied.success, full


def _odds_or_none(value: float, not_rolled: float) -> float | None:
    return None if not_rolled >= 1 else value


def mission_lines(world: World, viewer: Identity, sponsor: str, target: str) -> tuple[MissionLine, ...]:
    """`mission_board` rows with the odds the board shows and what each order needs."""
    entries = catalogue()
    lines = []
    for row in mission_board(world, viewer, sponsor, target):
        entry = entries[row["slug"]]
        odds = row["odds"]
        outcome, spy, evidence = odds["outcome"], odds["spy"], odds["evidence"]
        prerequisite = entry.prerequisite
        branch = str(entries[prerequisite].params.get("branch", prerequisite)) if prerequisite else ""
        not_rolled = float(outcome.get("not-rolled", 0))
        no_detection = float(evidence.get("not-rolled", 0))
        lines.append(
            MissionLine(
                slug=entry.slug,
                name=entry.name,
                family=entry.family,
                cost=entry.cost,
                prerequisite=prerequisite,
                prerequisite_label=branch_label(branch),
                prerequisite_met=row["prerequisite_met"],
                held=bool(row["held"]),
                success=_odds_or_none(float(outcome["success"]), not_rolled),
                failure=_odds_or_none(float(outcome["failure"]), not_rolled),
                captured=float(spy["captured"]),
                escaped=float(spy["escaped"]),
                detected=_odds_or_none(float(evidence["detected"]) + float(evidence["identified"]), no_detection),
                identified=_odds_or_none(float(evidence["identified"]), no_detection),
                undetected=_odds_or_none(float(evidence["undetected"]), no_detection),
                spy_lost=float(odds["spy_lost"]),
                attempt=entry.assassination_attempt,
                own_administration=kind_of(entry).own_side,
                text=entry.text,
                extras=_extra_text(entry),
                spy_used_up=entry.spy_used_up,
                duration_seasons=entry.duration_seasons,
                needs=mission_needs(entry),
            )
        )
    return tuple(lines)


# ================================================================ spies, infiltrations, effects


def _pool_line(world: World, kingdom: str) -> PoolLine:
    pool = spy_pool(world, kingdom)
    counter = pool["counter_spies"]
    return PoolLine(
        kingdom,
        short_kingdom(world, kingdom),
        pool["spy"],
        pool["cold_spy"],
        tuple(world.display_name("provinces", p) for p in counter["provinces"]),
        counter["nation"],
    )


def pool_lines(world: World, viewer: Identity) -> tuple[PoolLine, ...]:
    """Spies active and cold and counter-spies of each kingdom whose specialists the viewer may see
    (the audience filter's answer: every kingdom for the GM, his own for a King, none for a player)."""
    kingdoms = sorted({kid for kid, _ in world.all("kingdoms")} | {sid for sid, _ in world.all("specialists")})
    return tuple(
        _pool_line(world, k) for k in kingdoms if world.find("kingdoms", k) is not None and _sees_pool(world, viewer, k)
    )


def _sees_pool(world: World, viewer: Identity, kingdom: str) -> bool:
    doc = world.find("specialists", kingdom) or {"kingdom": kingdom}
    return can_see_document(world, viewer, "specialists", kingdom, doc) == "all"


def _effect_label(effect: Mapping[str, Any], entries: Mapping[str, Mission]) -> str:
    """How the effect reads on the board: as the kind that wrote it says."""
    document = str(effect.get("kind", ""))
    kind = kind_of_document(document)
    entry = entries.get(str(effect.get("mission", "")))
    if kind is None:
        return document.replace("-", " ").capitalize()
    return kind.label_for(effect, entry)


def _effect_line(
    world: World, effect_id: str, effect: Mapping[str, Any], side: str, gm: bool, entries: Mapping[str, Mission]
) -> EffectLine:
    kind = str(effect.get("kind", ""))
    entry = entries.get(str(effect.get("mission", "")))
    sponsor = effect.get("sponsor_kingdom")
    where = ""
    if effect.get("province"):
        where = world.display_name("provinces", effect["province"])
    if effect.get("character"):
        where = world.display_name("characters", effect["character"])
    if not effect.get("active", True):
        end = f"ended {date_label(effect.get('ended') or effect.get('end'))}".strip()
        if effect.get("status") == "resolved":
            end = f"played out {date_label(effect.get('end'))}".strip()
    elif effect.get("due"):
        end = f"due {date_label(effect['due'])}"
    elif effect.get("end"):
        end = date_label(effect["end"])
    else:
        writer = kind_of_document(kind)
        end = writer.until if writer is not None else "—"
    known = ""
    if gm:
        known = (
            "identified" if effect.get("known_sponsor") else "detected" if effect.get("known_to_target") else "secret"
        )
    return EffectLine(
        id=effect_id,
        side=side,
        kind=kind,
        label=_effect_label(effect, entries),
        mission=entry.name if entry else str(effect.get("mission", "")),
        sponsor=short_kingdom(world, sponsor) if sponsor else "?",
        target=short_kingdom(world, effect.get("target_kingdom")),
        where=where,
        start=date_label(effect.get("start")),
        end=end,
        active=bool(effect.get("active", True)),
        known=known,
        pending=kind == ASSASSINATION_ATTEMPT and effect.get("status") == "pending",
    )


def effect_lines(world: World, viewer: Identity, *, include_ended: bool = False) -> tuple[EffectLine, ...]:
    """Every infiltration and effect the viewer may know of, his side's first (`effects_view`)."""
    entries = catalogue()
    view = effects_view(world, viewer)
    side = "all" if viewer.is_gm else "held"
    lines = []
    for group, name in ((view["held"], side), (view["suffered"], "suffered")):
        for effect in group:
            if not include_ended and not effect.get("active", True):
                continue
            lines.append(_effect_line(world, str(effect["id"]), effect, name, viewer.is_gm, entries))
    return tuple(lines)


# ================================================================ the board


def board_view(world: World, viewer: Identity, sponsor: str | None = None, target: str | None = None) -> BoardView:
    """Everything the board shows for this viewer; unknown or forbidden picks fall back to defaults."""
    sponsors = sponsor_choices(world, viewer)
    allowed = [c.value for c in sponsors]
    if sponsor not in allowed:
        sponsor = allowed[0] if allowed else None
    targets = target_choices(world, sponsor) if sponsor else ()
    if target not in [c.value for c in targets]:
        target = targets[0].value if targets else None
    missions: tuple[MissionLine, ...] = ()
    modifiers: list[Modifier] = []
    full = viewer.is_gm
    if sponsor and target:
        missions = mission_lines(world, viewer, sponsor, target)
        modifiers, full = counted_modifiers(world, viewer, sponsor, target)
    all_effects = effect_lines(world, viewer)
    mine = viewer_kingdom(world, viewer)
    station = viewer.is_gm or (viewer.is_king and world.find("kingdoms", viewer.subject) is not None)
    return BoardView(
        viewer_kingdom=mine,
        sponsor=sponsor,
        sponsors=sponsors,
        target=target,
        targets=targets,
        missions=missions,
        modifiers=tuple((m.value, m.reason) for m in modifiers),
        all_modifiers=full,
        sponsor_pool=_pool_line(world, sponsor) if sponsor and _sees_pool(world, viewer, sponsor) else None,
        pools=pool_lines(world, viewer),
        infiltrations=tuple(e for e in all_effects if e.kind == INFILTRATION),
        effects=tuple(e for e in all_effects if e.kind != INFILTRATION),
        inbox=inbox_lines(world, viewer),
        my_orders=my_order_lines(world, viewer),
        may_run=viewer.is_gm,
        may_submit=not viewer.is_gm and bool(sponsors),
        may_station=station,
    )
