"""Read models of specialists for the market screen: each kingdom's pool and this year's hiring,
academies, and what a hire would cost. Filtered for one viewer like `read`; nothing here writes."""

from __future__ import annotations

from typing import NamedTuple

from yak_tui.areas.economy import specialist_rules
from yak_tui.areas.economy.specialists import controlled_provinces, hire_status, hireable_types
from yak_tui.kernel.play.audience import visible_table
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import ducats
from yak_tui.kernel.world.tables import table


class SpecialistLine(NamedTuple):
    kingdom_id: str
    kingdom: str
    provinces: int
    pool: tuple[tuple[str, int], ...]  # (type, count) for every type
    hired: tuple[tuple[str, int, int], ...]  # (type, hired this year, allowed) for hireable types
    cold_spies: int


class AcademyLine(NamedTuple):
    id: str
    kingdom_id: str
    kingdom: str
    town: str
    type: str
    level: int
    output: int  # specialists a year


class HirePreview(NamedTuple):
    kingdom_id: str
    kingdom: str
    type: str
    quantity: int
    immediate: bool
    hired: int
    limit: int
    pool: int
    cost_next_season: int
    cost_now: int
    cost: int

    @property
    def left(self) -> int:
        return max(0, self.limit - self.hired)


def specialist_lines(world: World, viewer: Identity) -> tuple[SpecialistLine, ...]:
    """Each kingdom's pool the viewer may see (the GM all, a King his own), with hiring this year."""
    types = specialist_rules.specialist_types()
    hired = hireable_types()
    out = []
    for kid, doc in sorted(visible_table(world, viewer, "specialists").items()):
        if world.find("kingdoms", kid) is None:
            continue
        status = hire_status(world, kid, hired)
        out.append(
            SpecialistLine(
                kid,
                world.display_name("kingdoms", kid),
                controlled_provinces(world, kid),
                tuple((t, int(doc.get(t, 0))) for t in types),
                tuple((t, s["hired"], s["limit"]) for t, s in status.items()),
                int(doc.get("cold_spy", 0)),
            )
        )
    return tuple(out)


def academy_lines(world: World, viewer: Identity) -> tuple[AcademyLine, ...]:
    """Academies are public: anyone knows where a kingdom trains its engineers."""
    out = []
    for aid, doc in visible_table(world, viewer, "academies").items():
        level = int(doc.get("level", 0))
        kid = str(doc.get("kingdom", ""))
        out.append(
            AcademyLine(
                aid,
                kid,
                world.display_name("kingdoms", kid),
                world.display_name("pcs", doc.get("pc")),
                str(doc.get("type", "")),
                level,
                specialist_rules.academy_output(level),
            )
        )
    out.sort(key=lambda a: (a.kingdom, a.town, a.type))
    return tuple(out)


def hire_preview(
    world: World, viewer: Identity, kingdom_id: str, kind: str, count: int = 1, immediate: bool = False
) -> HirePreview | None:
    """Hiring `count` of a type: this year's count against the limit (one per controlled
    province) and the cost, 2 a head next season or 3 at once."""
    pool = visible_table(world, viewer, "specialists").get(kingdom_id)
    if pool is None or world.find("kingdoms", kingdom_id) is None:
        return None
    status = hire_status(world, kingdom_id).get(kind)
    if status is None:
        return None
    count = max(0, int(count))
    return HirePreview(
        kingdom_id,
        world.display_name("kingdoms", kingdom_id),
        kind,
        count,
        immediate,
        status["hired"],
        status["limit"],
        int(pool.get(kind, 0)),
        specialist_rules.hire_cost(False),
        specialist_rules.hire_cost(True),
        specialist_rules.hire_cost(immediate) * count,
    )


def _arrival(seasons: int) -> str:
    if seasons <= 0:
        return "at once"
    return "next season" if seasons == 1 else f"in {seasons} seasons"


def hire_help() -> str:
    """The hiring limit and the two prices, from the hiring table."""
    section = table("economy")["hiring"]
    per = int(section["per_province_per_year"])
    limit = "One hire" if per == 1 else f"{per} hires"
    return (
        f"{limit} per controlled province per type a year; {ducats(specialist_rules.hire_cost(False))} each arriving "
        f"{_arrival(specialist_rules.hire_arrival_seasons(False))}, or {specialist_rules.hire_cost(True)} "
        f"{_arrival(specialist_rules.hire_arrival_seasons(True))}."
    )
