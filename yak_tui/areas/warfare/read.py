"""The siege monitor's data (yak_tui/app/screens/warfare/screen.py), shaped headless and audience-filtered.

Everything here reads the world through `yak_tui.kernel.play.audience`: a siege is fought in the open
(its document is public), so every viewer sees its provisions, blockade, messengers and smuggling;
the regiments inside count as public too (the dashboard's public due item states them), but which
units they are, and their strength, only their owner and the GM see. Places and forces show only
what the viewer may see of them. This module holds the sieges and the places; the forces and the
verdicts on actions are `read_forces`. No rule arithmetic: the numbers come from `yak_tui.areas.warfare.rules`
and the command modules (`raids`, `sieges`), and verdicts on actions from a trial run of the command itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from yak_tui.areas.warfare import rules, siege_rules
from yak_tui.areas.warfare.shared import ACTIVE, regiments_inside
from yak_tui.areas.warfare.sieges import siege_summary
from yak_tui.kernel.errors import CommandError, ValidationError, YakError
from yak_tui.kernel.play.audience import visible_table
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.hexgrid import hex_distance
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import ducats
from yak_tui.kernel.world.tables import table
from yak_tui.store.files import collector_paused

STATUS_TEXT = {"lifted": "lifted", "surrendered": "surrendered", "captured": "fort taken"}


def _short(name: str) -> str:
    head, sep, tail = name.partition(" of ")
    return tail if sep and head in ("Kingdom", "Principality", "Empire", "Duchy", "County", "Realm") else name


def kingdom_label(world: World, kid: Any) -> str:
    return _short(world.display_name("kingdoms", str(kid))) if kid else "nobody"


def _date(value: Any) -> str:
    return GameDate.from_dict(dict(value)).label() if isinstance(value, Mapping) else ""


def _hex(doc: Mapping[str, Any]) -> tuple[int, int] | None:
    value = doc.get("hex")
    if isinstance(value, list | tuple) and len(value) >= 2:
        return int(value[0]), int(value[1])
    return None


def distance_between(a: Mapping[str, Any], b: Mapping[str, Any]) -> int | None:
    ha, hb = _hex(a), _hex(b)
    return None if ha is None or hb is None else hex_distance(ha, hb)


def kind_of(doc: Mapping[str, Any]) -> str:
    return rules.normalise_kind(str(doc.get("kind", "")))


def world_kinds(key: str) -> set[str]:
    return {rules.normalise_kind(str(k)) for k in table("warfare")["world"][key]}


def setting(section: str, key: str) -> int:
    return int(table("warfare")[section][key])


def _amount(value: Any) -> float:
    """A stored amount as a float; an optional amount never written is none. The documents are
    validated on load, so anything else here is a bug and raises."""
    return 0.0 if value is None else float(value)


# --- one siege -----------------------------------------------------------------------------------


class DefenderView(NamedTuple):
    id: str
    name: str
    owner: str
    regiments: int | None  # None: the viewer may not know this unit's strength


class AttemptView(NamedTuple):
    """A messenger sent out or a smuggling run, with its odds before the roll and the dice."""

    kind: str  # "messenger" | "smuggle"
    date: str
    detail: str
    odds: float | None
    natural: int | None
    modifiers: tuple[tuple[int, str], ...]
    total: int | None
    target: int
    success: bool
    result: str


class SiegeCard(NamedTuple):
    id: str
    fort_id: str
    fort: str
    province: str
    level: int
    level_name: str
    besieger_id: str
    besieger: str
    defender_id: str
    defender: str
    besiegers: tuple[tuple[str, str], ...]  # (unit name, "land" | "sea")
    defenders: tuple[DefenderView, ...]
    regiments: int | None
    eats: int | None  # provisions eaten at each season end at this rate
    provisions: float
    starting_provisions: float
    carried_over: bool
    seasons: int  # besieged season ends so far
    seasons_left: int | None  # None: nobody inside eats, or the siege has ended
    started: str
    ended: str
    status: str
    active: bool
    effective: bool
    port_access: bool
    land_blockade: bool
    sea_blockade: bool
    blockade_missing: str | None
    decision_needed: bool
    may_decide: bool
    decision: str | None
    decided: str
    surrendered: tuple[str, ...]
    attempts: tuple[AttemptView, ...]
    messenger_odds: float | None  # the next messenger, with every friendly Scout in reach helping
    friendly_scouts: tuple[str, ...]  # names of the defender's Scout units in reach
    enemy_scouts: tuple[str, ...]  # names of the besieger's
    friendly_scout_ids: tuple[str, ...]
    smuggle_odds: tuple[tuple[int, float], ...]  # (bribe, chance) from no bribe to the cap
    mine: bool  # the viewer besieges or defends

    @property
    def state(self) -> str:
        """One short word or two for a table cell."""
        if not self.active:
            return STATUS_TEXT.get(self.status, self.status)
        if self.decision_needed:
            return "surrender or sally?"
        if self.decision == "sally":
            return "sallied: battle"
        return "in effect" if self.effective else "not in effect"

    @property
    def missing(self) -> tuple[str, ...]:
        """The halves of the blockade still needed for the siege to take effect ("land", "sea")."""
        needed = (
            (("land", self.land_blockade), ("sea", self.sea_blockade))
            if self.port_access
            else (("land", self.land_blockade),)
        )
        return tuple(side for side, present in needed if not present)

    @property
    def blockade(self) -> str:
        parts = [f"land {'✓' if self.land_blockade else '✗'}"]
        if self.port_access or self.sea_blockade:
            parts.append(f"sea {'✓' if self.sea_blockade else '✗'}")
        return "  ".join(parts)


def _attempts(world: World, doc: Mapping[str, Any]) -> tuple[AttemptView, ...]:
    out: list[tuple[int, AttemptView]] = []
    for item in doc.get("messengers") or []:
        scouts, enemy = len(item.get("scouts") or []), len(item.get("enemy_scouts") or [])
        detail = f"{ducats(item.get('ducats', 0))} · scouts {scouts} vs {enemy}"
        if str(item.get("purpose", "")).strip():
            detail += f" · {str(item['purpose']).strip()}"
        success = bool(item.get("success"))
        captured = _amount(item.get("captured_ducats"))
        result = "got through" if success else ("caught" + (f", {ducats(captured)} lost" if captured else ""))
        out.append(
            (
                GameDate.from_dict(item["date"]).ordinal if item.get("date") else 0,
                _attempt("messenger", item, detail, setting("messenger", "threshold"), success, result),
            )
        )
    for item in doc.get("smuggling") or []:
        merchant = world.display_name("characters", item.get("merchant"))
        detail = f"{merchant}: {item.get('shipments', 0)} {item.get('good', '')}"
        if item.get("bribe"):
            detail += f", bribe {item['bribe']}"
        success = bool(item.get("success"))
        added = _amount(item.get("provisions_added"))
        result = f"got in, +{added:g} provisions" if success else "stopped"
        out.append(
            (
                GameDate.from_dict(item["date"]).ordinal if item.get("date") else 0,
                _attempt("smuggle", item, detail, setting("smuggle", "threshold"), success, result),
            )
        )
    return tuple(a for _, a in sorted(out, key=lambda pair: pair[0]))


def _attempt(kind: str, item: Mapping[str, Any], detail: str, target: int, success: bool, result: str) -> AttemptView:
    mods = tuple((int(m.get("value", 0)), str(m.get("reason", ""))) for m in item.get("modifiers") or [])
    odds = item.get("odds")
    return AttemptView(
        kind,
        _date(item.get("date")),
        detail,
        float(odds) if isinstance(odds, int | float) else None,
        item.get("natural"),
        mods,
        item.get("total"),
        target,
        success,
        result,
    )


def _scouts_near(
    world: World, units: Mapping[str, Mapping[str, Any]], owner: Any, fort: Mapping[str, Any]
) -> tuple[str, ...]:
    """Scout units of `owner` within scout range of the fort (public: kind, owner and hex)."""
    reach = setting("world", "scout_range")
    scouts = world_kinds("scout_units")
    found = []
    # Through the world's index by owner (a card per siege must not measure every unit of the world).
    for uid, _ in sorted(world.where("units", owner=owner)):
        unit = units.get(uid)
        if unit is None or kind_of(unit) not in scouts:
            continue
        distance = distance_between(unit, fort)
        if distance is not None and distance <= reach:
            found.append(uid)
    return tuple(found)


def may_run(world: World, viewer: Identity, name: str, params: dict[str, Any]) -> tuple[bool, str, str]:
    """Would the command run for this viewer (as an order for a player)? (ok, field, reason)"""
    from yak_tui.kernel.play.commands import validate_only

    try:
        if viewer.is_player:
            validate_only(world, GM, name, params, principal=viewer)
        else:
            validate_only(world, viewer, name, params)
    except (CommandError, ValidationError) as error:  # the command's own refusal, field by field
        return False, error.field, error.reason
    except YakError as error:  # any other refusal a person caused; anything else is a bug and raises
        return False, "", str(error)
    return True, "", ""


def _viewer_kingdom(world: World, viewer: Identity) -> str | None:
    if viewer.is_king:
        return viewer.subject
    if viewer.is_player:
        return world.kingdom_of_character(viewer.subject)
    return None


def _level_name(level: int) -> str:
    return siege_rules.fort_name(level) or f"level {level}"


class _Odds:
    """The messenger's and the smuggler's odds, worked out once for every card of one monitor: they
    depend only on the rules tables and the Scouts counted (1,000 sieges at 1000x walked every die
    sequence 4,000 times for a handful of answers)."""

    def __init__(self) -> None:
        cap = setting("smuggle", "bribe_cap")
        self.smuggle = tuple((bribe, siege_rules.smuggle_odds(bribe)["success"]) for bribe in range(cap + 1))
        self._messenger: dict[tuple[int, int], float] = {}

    def messenger(self, friendly: int, enemy: int) -> float:
        key = (friendly, enemy)
        if key not in self._messenger:
            self._messenger[key] = siege_rules.messenger_odds(friendly, enemy)["success"]
        return self._messenger[key]


def siege_card(
    world: World,
    viewer: Identity,
    siege_id: str,
    doc: Mapping[str, Any],
    units: Mapping[str, Mapping[str, Any]] | None = None,
    odds: _Odds | None = None,
) -> SiegeCard:
    """One siege as the viewer may see it (`doc` is the audience-filtered siege document; `units` the
    units he may see, when the caller has them already; `odds` the odds the monitor's cards share)."""
    fort_id = str(doc.get("fort", ""))
    fort = world.find("pcs", fort_id) or {}
    if units is None:
        units = visible_table(world, viewer, "units")
    active = doc.get("status") == ACTIVE
    summary = siege_summary(world, siege_id) if active else None
    level = int(fort.get("fort_level", 0) or 0) or int((fort.get("destroyed_from") or {}).get("fort_level", 0) or 0)
    besieger, defender = str(doc.get("besieger", "")), str(doc.get("defender") or "")
    mine = _viewer_kingdom(world, viewer)
    sea_kinds = world_kinds("sea_units")
    besiegers = tuple(
        (world.display_name("units", uid), "sea" if kind_of(world.find("units", uid) or {}) in sea_kinds else "land")
        for uid in doc.get("units") or []
        if uid in units
    )
    defenders = tuple(
        DefenderView(
            uid,
            str(u.get("name", uid)),
            kingdom_label(world, u.get("owner")),
            int(u["regiments"]) if "regiments" in u else None,
        )
        for uid, u in sorted((uid, units[uid]) for uid, _ in world.where("units", inside=fort_id) if uid in units)
        if u.get("inside") == fort_id  # as he may see it
    )
    regiments = regiments_inside(world, fort_id) if active else None
    eats = None if regiments is None else regiments * setting("siege", "consumption_per_regiment")
    friendly = _scouts_near(world, units, defender, fort) if active else ()
    enemy = _scouts_near(world, units, besieger, fort) if active else ()
    decision_needed = bool(summary and summary["decision_needed"])
    may_decide = decision_needed and may_run(world, viewer, "siege-decide", {"fort": fort_id, "choice": "sally"})[0]
    if odds is None:
        odds = _Odds()
    return SiegeCard(
        id=siege_id,
        fort_id=fort_id,
        fort=str(fort.get("name", fort_id)),
        province=world.display_name("provinces", fort.get("province")),
        level=level,
        level_name=siege_rules.fort_name(level) or f"level {level}",
        besieger_id=besieger,
        besieger=kingdom_label(world, besieger),
        defender_id=defender,
        defender=kingdom_label(world, defender or None),
        besiegers=besiegers,
        defenders=defenders,
        regiments=regiments,
        eats=eats,
        provisions=_amount(doc.get("provisions")),
        starting_provisions=_amount(doc.get("starting_provisions")),
        carried_over=doc.get("carried_over_from") is not None
        and int(doc["carried_over_from"]) <= setting("siege", "carry_over_seasons"),
        seasons=int(doc.get("seasons", 0) or 0),
        seasons_left=summary["seasons_left"] if summary else None,
        started=_date(doc.get("started")),
        ended=_date(doc.get("ended")),
        status=str(doc.get("status", "")),
        active=active,
        effective=bool(doc.get("effective")),
        port_access=bool(doc.get("port_access")),
        land_blockade=bool(doc.get("land_blockade")),
        sea_blockade=bool(doc.get("sea_blockade")),
        blockade_missing=siege_rules.blockade_refusal(
            bool(doc.get("port_access")), bool(doc.get("land_blockade")), bool(doc.get("sea_blockade"))
        ),
        decision_needed=decision_needed,
        may_decide=may_decide,
        decision=doc.get("decision"),
        decided=_date(doc.get("decided")),
        surrendered=tuple(str(u.get("name", u.get("id", ""))) for u in doc.get("surrendered_units") or []),
        attempts=_attempts(world, doc),
        messenger_odds=odds.messenger(len(friendly), len(enemy)) if active else None,
        friendly_scouts=tuple(world.display_name("units", u) for u in friendly),
        enemy_scouts=tuple(world.display_name("units", u) for u in enemy),
        friendly_scout_ids=friendly,
        smuggle_odds=odds.smuggle,
        mine=mine is not None and mine in (besieger, defender),
    )


# --- walled places and other structures ------------------------------------------------------------


class FortView(NamedTuple):
    id: str
    name: str
    province: str
    controller_id: str
    controller: str
    level: int
    level_name: str
    provisions: float | None  # what a siege begun now would start with, as far as the viewer knows
    port_access: bool
    siege: str  # the active siege's id, or ""
    mine: bool


class PlaceView(NamedTuple):
    id: str
    name: str
    kind: str
    province: str
    controller_id: str
    controller: str
    level: int
    state: str  # this season's raid, a capture, looting, a siege, or "" (as far as the viewer may see)
    raided: bool
    captured: bool
    looted: bool
    besieged: bool
    destroyed: bool
    mine: bool


class SiegeMonitor(NamedTuple):
    date: str
    sieges: tuple[SiegeCard, ...]
    forts: tuple[FortView, ...]
    places: tuple[PlaceView, ...]

    @property
    def active(self) -> tuple[SiegeCard, ...]:
        return tuple(s for s in self.sieges if s.active)

    @property
    def decisions(self) -> tuple[SiegeCard, ...]:
        """Sieges whose defenders must choose (surrender or sally) before the season closes."""
        return tuple(s for s in self.sieges if s.decision_needed)


def opening_provisions(world: World, pc: Mapping[str, Any], level: int) -> float | None:
    """A new siege's provisions: the level, or the stock carried over from a recent siege (if the
    viewer may see that stock; otherwise the level's)."""
    last = pc.get("last_besieged")
    ago = max(0, GameDate.from_dict(dict(last)).seasons_until(world.date)) if isinstance(last, Mapping) else None
    try:
        return siege_rules.starting_provisions(level, ago, _amount(pc.get("provisions")))
    except ValueError:
        return None


def _place_state(world: World, doc: Mapping[str, Any], besieged: bool) -> tuple[str, bool, bool, bool]:
    """What happened to a place lately, from the fields the viewer may see:
    (text, raided this season, captured, looted since its capture)."""
    parts: list[str] = []
    looted = False
    raided = isinstance(doc.get("raided_in"), Mapping) and GameDate.from_dict(dict(doc["raided_in"])) == world.date
    captured = bool(doc.get("captured_by")) and doc.get("captured_by") == doc.get("controller")
    if doc.get("destroyed"):
        parts.append(f"destroyed {_date(doc['destroyed'])}")
    if besieged:
        parts.append("besieged")
    if captured:
        parts.append(f"captured by {kingdom_label(world, doc['captured_by'])} {_date(doc.get('captured'))}".strip())
        record = doc.get("looted") or {}
        looted = bool(record) and record.get("capture") == doc.get("captured")
        if looted:
            parts.append("looted")
    if raided:
        parts.append(f"raided by {kingdom_label(world, doc.get('raided_by'))} this season")
    return " · ".join(parts), raided, captured, looted


# At 1000x the GM's view is hundreds of thousands of objects, none of them garbage: the collector is
# paused while they are made (it walked them again and again: ~30% of the map's build).
@collector_paused(freeze=False)
def siege_monitor(world: World, viewer: Identity) -> SiegeMonitor:
    """Every siege (active first), every walled place, and every structure the viewer may see."""
    mine = _viewer_kingdom(world, viewer)
    units = visible_table(world, viewer, "units")  # once for every card
    odds = _Odds()
    cards = [
        siege_card(world, viewer, sid, doc, units, odds)
        for sid, doc in sorted(visible_table(world, viewer, "sieges").items())
    ]
    cards.sort(key=lambda c: (not c.active, not c.decision_needed, c.id))
    pcs = visible_table(world, viewer, "pcs")
    forts = []
    places = []
    # Each fort's running siege, as `active_siege` finds it (the first by id), from one pass over the
    # sieges rather than a look-up per place (15,000 at 1000x).
    running: dict[Any, tuple[str, dict[str, Any]]] = {}
    for sid, siege in sorted(world.table("sieges").items()):
        if siege.get("status") == ACTIVE:
            running.setdefault(siege.get("fort"), (sid, siege))
    level_names: dict[int, str] = {}
    names: dict[tuple[str, Any], str] = {}
    for pid, doc in sorted(pcs.items(), key=lambda i: (str(i[1].get("name", i[0])), i[0])):
        level = int(doc.get("fort_level", 0) or 0)
        found = running.get(pid)
        controller = str(doc.get("controller") or "")
        owned = bool(mine) and controller == mine
        # Named once each: 15,000 places at 1000x stand in 9,000 provinces of 3,000 kingdoms.
        province = doc.get("province")
        province_name = names.get(("provinces", province))
        if province_name is None:
            province_name = names[("provinces", province)] = world.display_name("provinces", province)
        ruler = names.get(("kingdoms", controller))
        if ruler is None:
            ruler = names[("kingdoms", controller)] = kingdom_label(world, controller) if controller else "unclaimed"
        if level > 0:
            forts.append(
                FortView(
                    pid,
                    str(doc.get("name", pid)),
                    province_name,
                    controller,
                    ruler,
                    level,
                    level_names.get(level) or level_names.setdefault(level, _level_name(level)),
                    opening_provisions(world, doc, level),
                    bool(doc.get("port_access")),
                    found[0] if found else "",
                    owned,
                )
            )
        state, raided, captured, looted = _place_state(world, doc, found is not None)
        places.append(
            PlaceView(
                pid,
                str(doc.get("name", pid)),
                str(doc.get("kind", "")),
                province_name,
                controller,
                ruler,
                level,
                state,
                raided,
                captured,
                looted,
                found is not None,
                bool(doc.get("destroyed")),
                owned,
            )
        )
    forts.sort(key=lambda f: (-f.level, f.name))
    return SiegeMonitor(world.date.label(), tuple(cards), tuple(forts), tuple(places))
