"""The fields of an espionage order, in one table (`ORDER_FIELDS`).

Each row says what a field is (its `Param`: type, default, help, the table it names, how a value
is labelled), which missions need it (the effects whose missions check it, or the extra it buys),
how its value is checked into the `Plan`, how a form finds its options, and how an order's
description shows it. Everything else is derived from the table: the parameters of `spy-mission`
and `spy-order` (`mission_params`), the fields a mission's form asks for (`mission_needs`, and the
app's `MISSION_FIELDS`), the checks `plan_mission` runs (`plan_fields`), the form's closed lists
(`field_options`) and an order's description (`order_where`, `order_extras`).

A mission that needs a new field: one row here (and the mission's TOML entry); a new effect names
its `MissionKind` in `kinds.py` as well.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from yak_tui.areas.espionage.missions import Mission
from yak_tui.areas.espionage.registry import MissionKind, kind_of
from yak_tui.areas.espionage.rules import catalogue, mission
from yak_tui.areas.espionage.state import POISON_EXTRA, Plan, is_port, kingdom_name, province_pcs, unit_in_port
from yak_tui.kernel.play.audience import visible_table
from yak_tui.kernel.play.commands import CommandError, Param
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import table

Options = tuple[tuple[str, str], ...]  # (value, label) pairs of a closed list


@dataclass(frozen=True)
class Asking:
    """What a field's options depend on: who asks, for which mission, from whom, against whom."""

    world: World
    viewer: Identity
    entry: Mission
    kind: MissionKind
    sponsor: str | None
    target: str | None


CheckFn = Callable[[World, Plan, MissionKind, dict[str, Any]], None]
OptionsFn = Callable[[Asking], Options]


def _always(_entry: Mission) -> bool:
    return True


@dataclass(frozen=True)
class OrderField:
    """One field of an espionage order (see the module docstring)."""

    name: str
    param: Param  # type, default, choices, help, referenced table, value labels: the CLI and the form
    effects: tuple[str, ...] = ()  # the effects whose missions check it
    extra: str = ""  # the extra it buys (tables/espionage.toml): asked when the mission offers it
    asked: Callable[[Mission], bool] = _always  # narrows `effects` for the form (the plan checks all)
    check: CheckFn | None = None  # puts the order's value into the plan, or refuses it (None: as typed)
    options: OptionsFn | None = None  # the form's closed list for it
    shown: str = ""  # in an order's description: "where" (its place), "listed" (among its extras), "" not

    @property
    def for_missions(self) -> bool:
        """A field some missions ask and others do not (mission, target and sponsor are every order's)."""
        return bool(self.effects or self.extra)

    def checked_for(self, entry: Mission) -> bool:
        return entry.effect in self.effects

    def asked_for(self, entry: Mission) -> bool:
        if self.extra:
            return any(offered.kind == self.extra for offered in entry.extras)
        return self.checked_for(entry) and self.asked(entry)


# ================================================================ labels and prices the help quotes


def mission_name(slug: str) -> str:
    """A mission as a reader names it ("Fund Bandits"); an unknown slug as it was given."""
    found = catalogue().get(slug)
    return found.name if found is not None else slug


def _extra_price(kind: str) -> int:
    """Ducats one extra of `kind` costs, as the loaded mission table prices it."""
    for row in table("espionage")["missions"]:
        for extra in row.get("extras", []):
            if extra.get("kind") == kind:
                return int(extra["ducats_each"])
    return 0


def academy_specialists() -> list[str]:
    """Specialist types whose academies Interfere with Academies may disrupt."""
    specialists = table("economy")["specialists"]
    return [t for t in specialists["types"] if t not in specialists["not_hired"]]


def purgeable_infiltrations() -> list[str]:
    """What Purge Administration may clear: every infiltration, and a smuggling ring."""
    return [*sorted(s for s, m in catalogue().items() if m.is_infiltration), "establish-smuggling-ring"]


# ================================================================ checks: an order's value into the plan


def _check_province(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    if kind.own_side:  # a purged smuggling ring's province (`_check_infiltration` refuses a wrong one)
        purged = (p.get("infiltration") or "").strip()
        plan.province = p.get("province") if purged == "establish-smuggling-ring" else None
        return
    province = p.get("province")
    if not province:
        raise CommandError("province", f"{plan.mission.name} needs a province of {kingdom_name(world, plan.target)}")
    doc = world.get("provinces", province)
    if doc.get("kingdom") != plan.target:
        raise CommandError("province", f"{doc['name']} is not a province of {kingdom_name(world, plan.target)}")
    if kind.port and not any(is_port(pc) for _, pc in province_pcs(world, province)):
        raise CommandError("province", f"{doc['name']} has no port: privateers need an enemy coast")
    plan.province = str(province)


def _check_unit(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    unit_id = p.get("unit")
    if not unit_id:
        raise CommandError("unit", f"{plan.mission.slug} needs a {kind.unit} of {kingdom_name(world, plan.target)}")
    unit = world.get("units", unit_id)
    if unit.get("owner") != plan.target:
        raise CommandError("unit", f"{unit['name']} does not belong to {kingdom_name(world, plan.target)}")
    field_name = "ships" if kind.unit == "ship" else "regiments"
    if int(unit.get(field_name, 0)) <= 0:
        raise CommandError("unit", f"{unit['name']} has no {field_name}")
    if plan.mission.params.get("requires_in_port") and not unit_in_port(world, unit):
        raise CommandError("unit", f"{unit['name']} is not in port: {plan.mission.name} can only be done in port")
    plan.unit = str(unit_id)


def _check_character(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    target_k = world.get("kingdoms", plan.target)
    victim = plan.mission.params.get("target")
    char_id = p.get("character") or (target_k.get("ruler") if victim == "ruler" else None)
    if not char_id:
        raise CommandError("character", f"{plan.mission.slug} needs the character to attack")
    char = world.get("characters", char_id)
    name = char.get("name", char_id)
    if not char.get("alive", True):
        raise CommandError("character", f"{name} is dead")
    place_kingdom = world.kingdom_of_pc(char.get("location") or "") or char.get("kingdom")
    if victim == "ruler":
        if char_id != target_k.get("ruler"):
            raise CommandError("character", f"{name} is not the ruler of {target_k['name']}")
    elif victim == "noble-bureaucrat":
        if char.get("kingdom") != plan.target or char_id == target_k.get("ruler"):
            raise CommandError(
                "character", f"{name} is not a noble or official of {target_k['name']} (the ruler is assassinate-ruler)"
            )
    else:
        if place_kingdom != plan.target:
            raise CommandError("character", f"{name} is not in {target_k['name']}")
        if char.get("kingdom") == plan.target and (
            char.get("kind") in ("king", "noble", "high-priestess") or char_id == target_k.get("ruler")
        ):
            raise CommandError(
                "character",
                f"{name} belongs to the government or nobility of {target_k['name']}: "
                "use assassinate-noble-bureaucrat or assassinate-ruler",
            )
    plan.character = str(char_id)


def _check_commodity(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    wanted = (p.get("commodity") or "").strip()
    if not wanted:
        raise CommandError("commodity", "crash-commodity-market needs the commodity")
    known = list(table("economy")["commodities"])
    for name in known:
        if name.lower() == wanted.lower():
            plan.commodity = str(name)
            return
    raise CommandError("commodity", f"unknown commodity {wanted!r}; known: {', '.join(known)}")


def _check_direction(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    plan.direction = p.get("direction") or "lower"


def _check_choice(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    plan.choice = p.get("choice") or "sailors"


def _check_specialist(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    types = academy_specialists()
    chosen = (p.get("specialist") or "").strip().lower()
    if chosen not in types:
        raise CommandError("specialist", f"name the academies' specialist type: one of {', '.join(types)}")
    plan.specialist = chosen


def _check_infiltration(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    slug = (p.get("infiltration") or "").strip()
    purgeable = purgeable_infiltrations()
    if slug not in purgeable:
        raise CommandError("infiltration", f"name what to purge: one of {', '.join(purgeable)}")
    if slug == "establish-smuggling-ring":
        if not p.get("province"):
            raise CommandError("province", "purging a smuggling ring needs its province")
        doc = world.get("provinces", p["province"])
        if doc.get("kingdom") != plan.sponsor.kingdom:
            raise CommandError("province", f"{doc['name']} is not your province")
    plan.infiltration = slug


def _check_against(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    plan.against = (p.get("against") or "").strip()
    if not plan.against:
        raise CommandError("against", "name the guild, nation or merchant the public turns against")


# ================================================================ options: the form's closed lists


def _named(docs: Iterable[tuple[str, Mapping[str, Any]]]) -> Options:
    return tuple(
        (doc_id, str(doc.get("name") or doc_id))
        for doc_id, doc in sorted(docs, key=lambda item: str(item[1].get("name", item[0])))
    )


def _province_options(a: Asking) -> Options:
    owner = a.sponsor if a.kind.own_side else a.target
    provinces = [
        (pid, p) for pid, p in visible_table(a.world, a.viewer, "provinces").items() if p.get("kingdom") == owner
    ]
    if a.kind.port:
        provinces = [(pid, p) for pid, p in provinces if any(is_port(pc) for _, pc in province_pcs(a.world, pid))]
    return _named(provinces)


def _unit_options(a: Asking) -> Options:
    ships = a.kind.unit == "ship"
    units = visible_table(a.world, a.viewer, "units").items()
    return _named((uid, u) for uid, u in units if u.get("owner") == a.target and (u.get("kind") == "ship") == ships)


def _character_options(a: Asking) -> Options:
    victim = a.entry.params.get("target")
    ruler = (a.world.find("kingdoms", a.target) or {}).get("ruler")
    return _named(
        (cid, c)
        for cid, c in visible_table(a.world, a.viewer, "characters").items()
        if c.get("alive", True)
        and cid != ruler
        and (c.get("kingdom") == a.target if victim == "noble-bureaucrat" else True)
    )


def _infiltration_options(_a: Asking) -> Options:
    return tuple((s, catalogue()[s].name) for s in purgeable_infiltrations())


def _commodity_options(_a: Asking) -> Options:
    return tuple((str(c), str(c)) for c in table("economy")["commodities"])


def _specialist_options(_a: Asking) -> Options:
    return tuple((t, t) for t in academy_specialists())


def _not_the_ruler(entry: Mission) -> bool:
    """A ruler's assassins need no character named: the target's ruler is the one."""
    return entry.params.get("target") != "ruler"


# ================================================================ the table

PROVINCE_EFFECTS = (
    "smuggling-ring",
    "bandits",
    "rebels",
    "privateers",
    "crash-market",
    "limit-trade",
    "commercial-animosity",
    "purge",
)
UNIT_EFFECTS = ("scuttle", "poison-regiment", "suborn-ship", "suborn-regiment")

ORDER_FIELDS: tuple[OrderField, ...] = (
    OrderField("mission", Param(str, help="mission slug (see `yak resolve spy --list`)", label=mission_name)),
    OrderField(
        "target",
        Param(str, required=False, ref="kingdoms", help="target kingdom (purge: your own, may be omitted)"),
    ),
    OrderField(
        "sponsor",
        Param(
            str,
            required=False,
            ref="kingdoms",
            help="sponsoring kingdom (the GM acting directly; otherwise the filer's kingdom)",
        ),
    ),
    OrderField(
        "province",
        Param(str, required=False, ref="provinces", help="target province, where the mission needs one"),
        effects=PROVINCE_EFFECTS,
        check=_check_province,
        options=_province_options,
        shown="where",
    ),
    OrderField(
        "character",
        Param(str, required=False, ref="characters", help="assassination target"),
        effects=("assassination",),
        asked=_not_the_ruler,
        check=_check_character,
        options=_character_options,
        shown="where",
    ),
    OrderField(
        "unit",
        Param(str, required=False, ref="units", help="ship or regiment to scuttle, poison or suborn"),
        effects=UNIT_EFFECTS,
        check=_check_unit,
        options=_unit_options,
        shown="where",
    ),
    OrderField(
        "commodity",
        Param(str, required=False, help="Pick a trade good"),
        effects=("crash-market",),
        check=_check_commodity,
        options=_commodity_options,
        shown="listed",
    ),
    OrderField(
        "direction",
        Param(
            str,
            required=False,
            default="lower",
            choices=("raise", "lower"),
            help="Raise or lower its price",
        ),
        effects=("crash-market",),
        check=_check_direction,
        shown="listed",
    ),
    OrderField(
        "choice",
        Param(
            str,
            required=False,
            default="sailors",
            choices=("sailors", "recruitment"),
            help="Destroy sailors or cut recruitment",
        ),
        effects=("shipbuilding",),
        check=_check_choice,
        shown="listed",
    ),
    OrderField(
        "specialist",
        Param(str, required=False, help="Choose the specialist type"),
        effects=("academy-interference",),
        check=_check_specialist,
        options=_specialist_options,
        shown="listed",
    ),
    OrderField(
        "infiltration",
        Param(str, required=False, help="Choose the infiltration to purge", label=mission_name),
        effects=("purge",),
        check=_check_infiltration,
        options=_infiltration_options,
        shown="where",
    ),
    OrderField(
        "against",
        Param(str, required=False, default="", help="A guild, nation or merchant"),
        effects=("commercial-animosity",),
        check=_check_against,
        shown="listed",
    ),
    OrderField(
        "bandits",
        Param(
            int,
            required=False,
            default=0,
            minimum=0,
            help=lambda: f"extra bandit regiments ({_extra_price('bandit-regiment')}d each)",
        ),
        extra="bandit-regiment",
        shown="listed",
    ),
    OrderField(
        "privateers",
        Param(
            int,
            required=False,
            default=0,
            minimum=0,
            help=lambda: f"extra privateer ships ({_extra_price('privateer-ship')}d each)",
        ),
        extra="privateer-ship",
        shown="listed",
    ),
    OrderField(
        "rebels",
        Param(
            int,
            required=False,
            default=0,
            minimum=0,
            help=lambda: f"extra rebel regiments ({_extra_price('infantry-regiment')}d each)",
        ),
        extra="infantry-regiment",
        shown="listed",
    ),
    OrderField(
        "poison",
        Param(
            bool,
            required=False,
            default=False,
            help=lambda: f"assassinations: +{_extra_price(POISON_EXTRA)}d for poison",
        ),
        extra=POISON_EXTRA,
        shown="listed",
    ),
)

# The fields some missions ask and others do not, in the order the form shows them.
MISSION_FIELDS: tuple[str, ...] = tuple(f.name for f in ORDER_FIELDS if f.for_missions)


# ================================================================ what the table gives


def mission_params() -> dict[str, Param]:
    """The parameters of an espionage order (`spy-mission`, `spy-order`); the prices quoted come
    from the tables loaded when the help is shown."""
    return {f.name: f.param for f in ORDER_FIELDS}


def mission_needs(entry: Mission) -> tuple[str, ...]:
    """The order fields the form asks for this mission besides target and mission, in form order."""
    return tuple(f.name for f in ORDER_FIELDS if f.for_missions and f.asked_for(entry))


def plan_fields(world: World, plan: Plan, kind: MissionKind, p: dict[str, Any]) -> None:
    """Check the fields this mission needs into `plan`, in table order: each by its own check, or,
    without one, as typed (its `Param` has checked type, choices, range and reference) into
    `plan.values`, where the mission's `apply` reads it."""
    for f in ORDER_FIELDS:
        if not f.checked_for(plan.mission):
            continue
        if f.check is not None:
            f.check(world, plan, kind, p)
        else:
            plan.values[f.name] = p.get(f.name, f.param.default)


def extras_bought(entry: Mission, p: Mapping[str, Any]) -> dict[str, int]:
    """The extras an order buys (extra kind -> count); refuses one the mission does not offer."""
    bought = {f.extra: int(p.get(f.name) or 0) for f in ORDER_FIELDS if f.extra and int(p.get(f.name) or 0)}
    offered = [extra.kind for extra in entry.extras]
    for f in ORDER_FIELDS:
        if f.extra in bought and f.extra not in offered:
            raise CommandError(
                f.name, f"{entry.slug} offers no extra {f.name} (extras: {', '.join(offered) or 'none'})"
            )
    return bought


def field_options(
    world: World, viewer: Identity, slug: str, sponsor: str | None, target: str | None
) -> dict[str, Options]:
    """Closed lists for a mission's fields, narrowed to what makes sense against `target`
    (public documents only: any player may see the target's provinces, units and nobles)."""
    entry = mission(slug)
    asking = Asking(world, viewer, entry, kind_of(entry), sponsor, target)
    return {f.name: f.options(asking) for f in ORDER_FIELDS if f.options is not None and f.asked_for(entry)}


def order_where(world: World, params: Mapping[str, Any]) -> str:
    """Where an order acts, as its description names it: its first place field given."""
    for f in ORDER_FIELDS:
        value = params.get(f.name)
        if f.shown == "where" and value:
            return world.display_name(f.param.ref, str(value)) if f.param.ref else str(value)
    return ""


def order_extras(params: Mapping[str, Any]) -> str:
    """An order's extras as its description lists them: what it buys, then what it chooses."""
    listed = [f for f in ORDER_FIELDS if f.shown == "listed"]
    parts = []
    for f in [*(f for f in listed if f.extra), *(f for f in listed if not f.extra)]:
        value = params.get(f.name)
        if f.param.kind is bool:
            if value in (True, "true"):
                parts.append(f.name)
        elif value:
            parts.append(f"{f.name} {value}")
    return ", ".join(parts)
