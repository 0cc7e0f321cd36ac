"""Headless data for the espionage board screen (issue 4 item 5), shaped per viewer.

The screen only draws what these functions return; every number comes from
`yak_tui.areas.espionage.commands` (which calls `yak_tui.areas.espionage.rules`), and everything shown goes
through the audience module:

- the GM sees every kingdom's spies, every effect and the whole inbox, with the odds of every
  modifier (counter-spies, spy ring, breach);
- a King or a player sees his own kingdom's spies, his side's effects, only what the target
  knows of effects against it (`effects_view`), and odds with the modifiers his side knows
  (`mission_board`): the target's counter-spies stay hidden;
- a player sees his own orders' state and the outcome the sponsor is told, never naturals,
  modifiers or evidence; the adjudicator's inbox holds only orders he may resolve.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from yak_tui.areas.espionage.kinds import branch_label, kind_of, kind_of_document
from yak_tui.areas.espionage.planning import (
    academy_specialists,
    knows_kingdom_secrets,
    mission_odds_for,
    modifier_inputs,
    plan_mission,
    purgeable_infiltrations,
)
from yak_tui.areas.espionage.rules import Mission, catalogue, missing_prerequisite, mission, mission_odds, spy_modifiers
from yak_tui.areas.espionage.state import (
    EFFECTS,
    EXTRA_PARAMS,
    MISSION_COMMAND,
    POISON_EXTRA,
    Plan,
    Sponsor,
    active_effects,
    capital_province,
    infiltrations_held,
    is_port,
    province_pcs,
    spy_pool,
)
from yak_tui.kernel.errors import CommandError, ValidationError
from yak_tui.kernel.play.audience import (
    can_see_document,
    character_audience,
    filter_document,
    kingdom_audience,
    viewer_kingdom,
    visible_table,
)
from yak_tui.kernel.play.authority import Stakes, may_adjudicate
from yak_tui.kernel.play.commands import COMMANDS
from yak_tui.kernel.play.dice import Modifier
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.orders import orders_of, queue_for
from yak_tui.kernel.play.params import coerce_params
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import table

FAMILY_LABELS = {
    "general": "General",
    "counter-espionage": "Counter-espionage",
    "commercial": "Commercial",
    "naval": "Naval",
    "military": "Military",
    "state-level": "State-level",
}


def short_kingdom(world: World, kingdom: str | None) -> str:
    """ "Varos" for "Kingdom of Varos" (narrow cells)."""
    name = world.display_name("kingdoms", kingdom)
    head, sep, tail = name.partition(" of ")
    return tail if sep and head in ("Kingdom", "Principality", "Empire", "Duchy", "County", "Realm") else name


def _date_label(value: Any) -> str:
    if isinstance(value, Mapping) and "year" in value:
        return GameDate.from_dict(dict(value)).label()
    return ""


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
    full = may_adjudicate(world, viewer, stakes).allowed
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
            world, kind="infiltration", sponsor_kingdom=sponsor, target_kingdom=target
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


def espionage_inbox(world: World, viewer: Identity) -> list[tuple[str, dict[str, Any]]]:
    """Waiting private espionage orders this viewer adjudicates."""
    return [(oid, o) for oid, o in queue_for(world, viewer) if o.get("command") == MISSION_COMMAND]


def pending_attempts(world: World) -> list[tuple[str, dict[str, Any]]]:
    """Assassination attempts the GM has still to play out."""
    return [(i, e) for i, e in active_effects(world, kind="assassination-attempt") if e.get("status") == "pending"]


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


def mission_needs(entry: Mission) -> tuple[str, ...]:
    """The order fields a mission reads besides target and mission (its kind's needs, then extras)."""
    by_kind = {kind: name for name, kind in EXTRA_PARAMS.items()} | {POISON_EXTRA: "poison"}
    return (*kind_of(entry).needs(entry), *(by_kind[extra.kind] for extra in entry.extras if extra.kind in by_kind))


def _extra_text(entry: Mission) -> tuple[str, ...]:
    out = []
    for extra in entry.extras:
        limit = f", at most {extra.max}" if extra.max is not None else ""
        out.append(f"{extra.kind.replace('-', ' ')}: {extra.ducats_each}d each{limit}")
    return tuple(out)


def _full_view(world: World, viewer: Identity, sponsor: str, target: str) -> bool:
    return may_adjudicate(world, viewer, Stakes.of(target, kingdoms=[sponsor, target])).allowed


def counted_modifiers(world: World, viewer: Identity, sponsor: str, target: str) -> tuple[list[Modifier], bool]:
    """The modifiers the board's odds count for this viewer (at the target's capital), and
    whether they are all of them (the viewer adjudicates) or only what the sponsor knows."""
    full = _full_view(world, viewer, sponsor, target)
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
        end = f"ended {_date_label(effect.get('ended') or effect.get('end'))}".strip()
        if effect.get("status") == "resolved":
            end = f"played out {_date_label(effect.get('end'))}".strip()
    elif effect.get("due"):
        end = f"due {_date_label(effect['due'])}"
    elif effect.get("end"):
        end = _date_label(effect["end"])
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
        start=_date_label(effect.get("start")),
        end=end,
        active=bool(effect.get("active", True)),
        known=known,
        pending=kind == "assassination-attempt" and effect.get("status") == "pending",
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


# ================================================================ orders


def _order_where(world: World, params: Mapping[str, Any]) -> str:
    for name, tbl in (("province", "provinces"), ("unit", "units"), ("character", "characters")):
        if params.get(name):
            return world.display_name(tbl, str(params[name]))
    if params.get("infiltration"):
        return str(params["infiltration"])
    return ""


def _order_extras(params: Mapping[str, Any]) -> str:
    parts = [f"{name} {params[name]}" for name in ("bandits", "privateers", "rebels") if params.get(name)]
    if params.get("poison") in (True, "true"):
        parts.append("poison")
    for name in ("commodity", "direction", "choice", "specialist", "against"):
        if params.get(name):
            parts.append(f"{name} {params[name]}")
    return ", ".join(parts)


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
        where=_order_where(world, params),
        extras=_order_extras(params),
        note=str(order.get("note") or ""),
        filed=_date_label(order.get("filed")),
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
        infiltrations=tuple(e for e in all_effects if e.kind == "infiltration"),
        effects=tuple(e for e in all_effects if e.kind != "infiltration"),
        inbox=inbox_lines(world, viewer),
        my_orders=my_order_lines(world, viewer),
        may_run=viewer.is_gm,
        may_submit=not viewer.is_gm and bool(sponsors),
        may_station=station,
    )


# ================================================================ dialogs: fields and odds


def _options(docs: Iterable[tuple[str, Mapping[str, Any]]]) -> tuple[tuple[str, str], ...]:
    return tuple(
        (doc_id, str(doc.get("name") or doc_id))
        for doc_id, doc in sorted(docs, key=lambda item: str(item[1].get("name", item[0])))
    )


def field_options(
    world: World, viewer: Identity, slug: str, sponsor: str | None, target: str | None
) -> dict[str, tuple[tuple[str, str], ...]]:
    """Closed lists for a mission's fields, narrowed to what makes sense against `target`
    (public documents only: any player may see the target's provinces, units and nobles)."""
    entry = mission(slug)
    kind = kind_of(entry)
    out: dict[str, tuple[tuple[str, str], ...]] = {}
    needs = mission_needs(entry)
    if "province" in needs:
        owner = sponsor if kind.own_side else target
        provinces = [
            (pid, p) for pid, p in visible_table(world, viewer, "provinces").items() if p.get("kingdom") == owner
        ]
        if kind.port:
            provinces = [(pid, p) for pid, p in provinces if any(is_port(pc) for _, pc in province_pcs(world, pid))]
        out["province"] = _options(provinces)
    if "unit" in needs:
        ships = kind.unit == "ship"
        units = [
            (uid, u)
            for uid, u in visible_table(world, viewer, "units").items()
            if u.get("owner") == target and (u.get("kind") == "ship") == ships
        ]
        out["unit"] = _options(units)
    if "character" in needs:
        victim = entry.params.get("target")
        ruler = (world.find("kingdoms", target) or {}).get("ruler")
        chars = [
            (cid, c)
            for cid, c in visible_table(world, viewer, "characters").items()
            if c.get("alive", True)
            and cid != ruler
            and (c.get("kingdom") == target if victim == "noble-bureaucrat" else True)
        ]
        out["character"] = _options(chars)
    if "infiltration" in needs:
        out["infiltration"] = tuple((s, catalogue()[s].name) for s in purgeable_infiltrations())
    if "commodity" in needs:
        out["commodity"] = tuple((str(c), str(c)) for c in table("economy")["commodities"])
    if "specialist" in needs:
        out["specialist"] = tuple((t, t) for t in academy_specialists())
    return out


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
    extra = [("spy lost", float(odds["spy_lost"]))]
    if float(outcome.get("not-rolled", 0)) < 1 and float(evidence.get("not-rolled", 0)) < 1:
        extra.insert(0, ("success and undetected", float(odds["success_and_undetected"])))
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
        line.cost,
    )


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
    full = _full_view(world, viewer, plan.sponsor.kingdom, plan.target)
    applied = spy_modifiers(modifier_inputs(world, plan, known_to_sponsor_only=not full))
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
    return DialogOdds(tuple(rows), (("spy lost", line.spy_lost),), (), False, None)
