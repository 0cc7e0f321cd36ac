"""The siege monitor's forces and verdicts: which of the viewer's forces may begin a siege of a place
or raid it, the plan a chosen set of forces makes, and each action's verdict from a trial run of
the command itself. Headless and audience-filtered, as `read`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from yak_tui.areas.warfare import siege_rules
from yak_tui.areas.warfare.read import (
    distance_between,
    kind_of,
    kingdom_label,
    may_run,
    opening_provisions,
    setting,
    world_kinds,
)
from yak_tui.areas.warfare.shared import ACTIVE, regiments_inside
from yak_tui.areas.warfare.sieges import open_port_access
from yak_tui.kernel.play.audience import can_see_document, visible_table
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World


class ForceView(NamedTuple):
    id: str
    name: str
    owner_id: str
    owner: str
    kind: str
    regiments: int | None
    sea: bool
    distance: int
    busy: str  # the fort this unit already besieges, or ""


def _forces(world: World, viewer: Identity, pc_id: str, reach: int) -> list[ForceView]:
    """Units the viewer commands (all, for the GM) standing within `reach` hexes of the place,
    outside any fort, and not its holder's."""
    pc = world.get("pcs", pc_id)
    sea = world_kinds("sea_units")
    busy = {
        uid: str(s.get("fort"))
        for _, s in world.all("sieges")
        if s.get("status") == ACTIVE
        for uid in s.get("units") or []
    }
    out = []
    for uid, unit in sorted(world.all("units")):
        if can_see_document(world, viewer, "units", uid, unit) != "all":
            continue
        distance = distance_between(unit, pc)
        if distance is None or distance > reach or unit.get("inside") or unit.get("owner") == pc.get("controller"):
            continue
        regiments = unit.get("regiments")
        out.append(
            ForceView(
                uid,
                str(unit.get("name", uid)),
                str(unit.get("owner", "")),
                kingdom_label(world, unit.get("owner")),
                str(unit.get("kind", "")),
                int(regiments) if isinstance(regiments, int) else None,
                kind_of(unit) in sea,
                distance,
                world.display_name("pcs", busy[uid]) if uid in busy else "",
            )
        )
    return sorted(out, key=lambda f: (f.owner, f.distance, f.name))


def siege_forces(world: World, viewer: Identity, fort_id: str) -> tuple[ForceView, ...]:
    """Units that could join a siege of this fort: camped within blockade range of it."""
    return tuple(_forces(world, viewer, fort_id, setting("world", "blockade_range")))


class SiegePlan(NamedTuple):
    """What beginning this siege with these units would mean, before it is begun."""

    fort: str
    level_name: str
    besieger: str
    land: bool
    sea: bool
    port_access: bool
    effective: bool
    missing: str | None
    provisions: float | None
    regiments: int
    seasons_left: int | None


def siege_plan(world: World, viewer: Identity, fort_id: str, unit_ids: Sequence[str]) -> SiegePlan | None:
    """The blockade and provisions a siege of `fort_id` by these units would start with (None when
    nothing sensible is chosen yet). The command itself still decides: this is a preview."""
    fort = world.find("pcs", fort_id)
    units = [world.find("units", u) for u in unit_ids]
    if fort is None or not unit_ids or any(u is None for u in units):
        return None
    sea_kinds = world_kinds("sea_units")
    owners = {str(u.get("owner")) for u in units if u}
    besieger = sorted(owners)[0]
    land = any(kind_of(u) not in sea_kinds for u in units if u)
    sea = any(kind_of(u) in sea_kinds for u in units if u)
    port = open_port_access(world, fort, besieger)
    level = int(fort.get("fort_level", 0) or 0)
    shown = visible_table(world, viewer, "pcs").get(fort_id, {})
    provisions = opening_provisions(world, shown, level) if level else None
    regiments = regiments_inside(world, fort_id)
    left = siege_rules.seasons_left(provisions, regiments) if provisions is not None else None
    return SiegePlan(
        str(fort.get("name", fort_id)),
        siege_rules.fort_name(level) or "unwalled",
        kingdom_label(world, besieger) if len(owners) == 1 else "several kingdoms",
        land,
        sea,
        port,
        siege_rules.blockade_effective(port, land, sea),
        siege_rules.blockade_refusal(port, land, sea),
        provisions,
        regiments,
        left,
    )


class Verdict(NamedTuple):
    """May this action be taken? `reason` says why not (or what is still to be said)."""

    action: str
    ok: bool
    reason: str = ""


class ForceVerdicts(NamedTuple):
    force: ForceView
    verdicts: tuple[Verdict, ...]


class PlaceVerdicts(NamedTuple):
    place: str
    forces: tuple[ForceVerdicts, ...]
    loot: Verdict
    reach: int


RAID_ACTIONS: tuple[tuple[str, str, dict[str, str]], ...] = (
    ("raid", "raid", {}),
    ("slave raid", "slave-raid", {"take": "manpower"}),
    ("capture", "capture", {}),
)


def place_verdicts(world: World, viewer: Identity, pc_id: str) -> PlaceVerdicts:
    """For each force of the viewer's in reach of the place: may it raid, slave-raid or capture it,
    and if not, why (the command's own refusal, from a trial run). And may the place be looted.
    Slow-ish (a trial run per action): call it from a worker."""
    pc = world.get("pcs", pc_id)
    reach = setting("world", "raid_range")
    forces = []
    for force in _forces(world, viewer, pc_id, reach):
        verdicts = []
        for label, name, extra in RAID_ACTIONS:
            ok, field, reason = may_run(world, viewer, name, {"unit": force.id, "pc": pc_id, **extra})
            if not ok and name == "capture" and field == "garrison":
                verdicts.append(
                    Verdict(label, True, "after the battle, say whether the garrison was destroyed or fled")
                )
            else:
                verdicts.append(Verdict(label, ok, reason))
        forces.append(ForceVerdicts(force, tuple(verdicts)))
    ok, _, reason = may_run(world, viewer, "loot", {"pc": pc_id})
    return PlaceVerdicts(str(pc.get("name", pc_id)), tuple(forces), Verdict("loot", ok, reason), reach)
