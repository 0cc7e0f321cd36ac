"""What the raids and sieges of the warfare area share: table settings, dates, names, distances,
the structures and units they act on, and the one running siege of a fort.

The arithmetic is in `yak_tui.areas.warfare.rules`; amounts are rounded by `yak_tui.kernel.world.money`.
"""

from __future__ import annotations

from typing import Any

from yak_tui.areas.warfare import rules
from yak_tui.kernel.play.commands import CommandError
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.hexgrid import hex_distance
from yak_tui.kernel.world.model import ValidationError, World
from yak_tui.kernel.world.money import money
from yak_tui.kernel.world.tables import table

ACTIVE = "active"
Party = tuple[str, str]


def section(name: str) -> dict[str, Any]:
    """One section of the warfare table, read afresh (a house rule may have changed it)."""
    return dict(table("warfare")[name])


def kinds(part: str, key: str) -> set[str]:
    """The normalised kinds listed under `key` in the table's `part` section."""
    return {rules.normalise_kind(k) for k in section(part)[key]}


def today_dict(world: World) -> dict[str, Any]:
    return dict(world.meta["date"])


def is_today(world: World, value: Any) -> bool:
    return isinstance(value, dict) and GameDate.from_dict(value) == world.date


def name_of(world: World, table_name: str, doc_id: str | None) -> str:
    return world.display_name(table_name, doc_id)


def ref_id(world: World, table_name: str, value: Any) -> str | None:
    """An id from raw order parameters (names accepted), or None when it names nothing."""
    if not isinstance(value, str) or not value:
        return None
    try:
        return world.resolve_ref(table_name, value)
    except ValidationError:
        return None


def party_key(party: Party) -> str:
    return f"{party[0]}:{party[1]}"


def unit_regiments(unit: dict[str, Any]) -> int:
    return int(unit.get("regiments", 0) or 0)


def hex_of(doc: dict[str, Any]) -> tuple[int, int]:
    q, r = doc["hex"][:2]
    return int(q), int(r)


def doc_distance(a: dict[str, Any], b: dict[str, Any]) -> int:
    return hex_distance(hex_of(a), hex_of(b))


def is_sea_unit(unit: dict[str, Any]) -> bool:
    return rules.normalise_kind(str(unit.get("kind", ""))) in kinds("world", "sea_units")


def is_scout(unit: dict[str, Any]) -> bool:
    return rules.normalise_kind(str(unit.get("kind", ""))) in kinds("world", "scout_units")


def is_walled(pc: dict[str, Any]) -> bool:
    return int(pc.get("fort_level", 0) or 0) >= 1 or bool(pc.get("walled"))


def structure_owner(pc: dict[str, Any]) -> Party | None:
    """Whose treasury a raid hits first and who receives the tax: the owning citizen if any,
    else the controlling kingdom (the same rule as the year-start tax step)."""
    if pc.get("owner_character"):
        return ("characters", str(pc["owner_character"]))
    if pc.get("controller"):
        return ("kingdoms", str(pc["controller"]))
    return None


def kingdom_of_party(world: World, party: Party) -> str | None:
    if party[0] == "kingdoms":
        return party[1]
    return world.kingdom_of_character(party[1])


def garrison_of(world: World, pc_id: str, besides: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Units inside the structure, except those of the kingdom `besides` (the attacker)."""
    return sorted((uid, u) for uid, u in world.where("units", inside=pc_id) if u.get("owner") != besides)


def regiments_inside(world: World, pc_id: str) -> int:
    # Through the world's index: a siege per fort must not scan every unit of the world.
    return sum(unit_regiments(u) for _, u in world.where("units", inside=pc_id))


def coming_tax_left(pc: dict[str, Any]) -> float:
    return max(0.0, float(pc.get("tax", 0)) - float(pc.get("tax_taken", 0) or 0))


def add_tax_taken(world: World, pc_id: str, amount: float) -> None:
    pc = world.edit("pcs", pc_id)
    pc["tax_taken"] = money(float(pc.get("tax_taken", 0) or 0) + amount)


def add_goods(world: World, kingdom_id: str, good: str, amount: int) -> None:
    kingdom = world.edit("kingdoms", kingdom_id)
    goods = dict(kingdom.get("goods") or {})
    goods[good] = int(goods.get(good, 0)) + amount
    kingdom["goods"] = goods


def unit_doc(world: World, unit_id: str) -> dict[str, Any]:
    return world.get("units", unit_id)


def standing_pc(world: World, pc_id: str) -> dict[str, Any]:
    pc = world.get("pcs", pc_id)
    if pc.get("destroyed"):
        raise CommandError("pc", f"{pc['name']} was destroyed in {GameDate.from_dict(pc['destroyed']).label()}")
    return pc


def require_at(
    world: World, field: str, unit_id: str, unit: dict[str, Any], pc: dict[str, Any], reach: int, what: str
) -> None:
    distance = doc_distance(unit, pc)
    if distance > reach:
        where = "in its hex" if reach == 0 else f"within {reach} hex(es)"
        raise CommandError(
            field,
            f"{unit['name']} is at {tuple(unit['hex'])}, {distance} hex(es) from "
            f"{pc['name']} {tuple(pc['hex'])}; {what} needs it {where}",
        )


# --- the running siege of a fort ----------------------------------------------------------------


def active_siege(world: World, pc_id: str) -> tuple[str, dict[str, Any]] | None:
    """The siege of this structure now running, or None."""
    for sid, siege in sorted(world.where("sieges", fort=pc_id)):  # the index: asked for every fort
        if siege.get("status") == ACTIVE:
            return sid, siege
    return None


def end_siege(world: World, siege_id: str, status: str) -> None:
    """The siege ends; the provisions left stay in the fort for a later siege to carry over."""
    siege = world.edit("sieges", siege_id)
    siege["status"] = status
    siege["ended"] = today_dict(world)
    if status == "lifted":
        siege["lifted"] = today_dict(world)
    siege["decision_needed"] = False
    pc = world.edit("pcs", siege["fort"])
    pc["siege"] = None
    pc["last_besieged"] = today_dict(world)
    pc["provisions"] = siege["provisions"]
