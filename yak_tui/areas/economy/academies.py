"""Academies: founding and expanding them, and their fate when their town falls (RULINGS §6)."""

from __future__ import annotations

from typing import Any

from yak_tui.areas.economy import specialist_rules
from yak_tui.areas.economy._shared import ACADEMY_PC_KINDS, HIRED_TYPES, _name
from yak_tui.areas.economy.specialists import _kingdom_stakes, take_specialists
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import KING, CommandContext, CommandError, Param, command
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.numbers import counted
from yak_tui.kernel.world.tables import table as rules_table


def _academy_help(what: str, whose: str) -> str:
    """`what`, then the specialists an academy level costs (from the loaded table)."""
    per_level = rules_table("economy")["academy"]["specialists_per_level"]
    return f"{what}: {per_level} specialists of {whose} type per level."


@command(
    "academy-found",
    lambda: _academy_help("Found an academy in a town", "a"),
    {
        "kingdom": Param(str, ref="kingdoms"),
        "pc": Param(str, ref="pcs"),
        "type": Param(str, choices=HIRED_TYPES),
        "levels": Param(int, required=False, default=1, minimum=1),
    },
    category="economy",
    stakes=_kingdom_stakes,
    filed_by=KING,
)
def academy_found(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    ctx.require_acts_for(kingdom=p["kingdom"])
    pc = world.get("pcs", p["pc"])
    if pc.get("kind") not in ACADEMY_PC_KINDS:
        raise CommandError(
            "pc", f"{pc['name']} is a {pc.get('kind')}; academies stand in a town ({', '.join(ACADEMY_PC_KINDS)})"
        )
    if pc.get("controller") != p["kingdom"]:
        raise CommandError("pc", f"{pc['name']} is not controlled by {_name(world, 'kingdoms', p['kingdom'])}")
    for aid, academy in world.all("academies"):
        if academy.get("pc") == p["pc"] and academy.get("type") == p["type"]:
            raise CommandError("pc", f"{pc['name']} already has a {p['type']} academy ({aid}); use academy-expand")
    needed = specialist_rules.academy_specialists_needed(p["levels"])
    take_specialists(
        ctx, p["kingdom"], p["type"], needed, f"founding a level-{p['levels']} academy", "levels", log=False
    )
    academy_id = world.new_id("academies", "ac")
    world.put(
        "academies",
        academy_id,
        {
            "kingdom": p["kingdom"],
            "pc": p["pc"],
            "type": p["type"],
            "level": p["levels"],
            "founded": world.meta["date"],
        },
    )
    ctx.log(
        f"{_name(world, 'kingdoms', p['kingdom'])} founds a level-{p['levels']} {p['type']} academy in "
        f"{pc['name']}, expending {counted(needed, p['type'])}.",
        kind="academy",
        refs={"academy": academy_id, "type": p["type"], "level": p["levels"], "expended": needed},
    )
    return {"academy": academy_id, "level": p["levels"], "expended": needed}


def _academy_stakes(world: World, p: dict[str, Any]) -> Stakes:
    kingdom_id = world.get("academies", p["academy"])["kingdom"]
    return Stakes.of(kingdom_id, kingdoms=[kingdom_id])


@command(
    "academy-expand",
    lambda: _academy_help("Add levels to an academy", "its"),
    {"academy": Param(str, ref="academies"), "levels": Param(int, required=False, default=1, minimum=1)},
    category="economy",
    stakes=lambda w, i, p: _academy_stakes(w, p),
    filed_by=KING,
)
def academy_expand(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    academy = world.get("academies", p["academy"])
    kingdom_id, kind = academy["kingdom"], academy["type"]
    ctx.require_acts_for(kingdom=kingdom_id)
    needed = specialist_rules.academy_specialists_needed(p["levels"])
    take_specialists(
        ctx, kingdom_id, kind, needed, f"expanding an academy by {counted(p['levels'], 'level')}", "levels", log=False
    )
    doc = world.edit("academies", p["academy"])
    doc["level"] = int(doc["level"]) + p["levels"]
    ctx.log(
        f"The {kind} academy in {_name(world, 'pcs', academy['pc'])} grows to level {doc['level']}, expending "
        f"{counted(needed, kind)}.",
        kind="academy",
        refs={"academy": p["academy"], "level": doc["level"], "expended": needed},
    )
    return {"academy": p["academy"], "level": doc["level"], "expended": needed}


def academy_follow_town(ctx: CommandContext, pc_id: str, captor_kingdom: str | None) -> list[str]:
    """A town's academies follow it: destroyed with the town (captor None) or passed to the captor.
    The warfare layer calls this when a town is captured or destroyed; returns the academy ids."""
    world = ctx.world
    changed: list[str] = []
    for academy_id, academy in list(world.all("academies")):
        if academy.get("pc") != pc_id:
            continue
        where = _name(world, "pcs", pc_id)
        if captor_kingdom is None:
            world.delete("academies", academy_id)
            ctx.log(
                f"The level-{academy['level']} {academy['type']} academy in {where} is destroyed with its town.",
                kind="academy",
                refs={"academy": academy_id, "destroyed": True},
            )
        elif academy.get("kingdom") != captor_kingdom:
            world.get("kingdoms", captor_kingdom)
            old = academy.get("kingdom")
            world.edit("academies", academy_id)["kingdom"] = captor_kingdom
            ctx.log(
                f"The level-{academy['level']} {academy['type']} academy in {where} passes from "
                f"{_name(world, 'kingdoms', old)} to {_name(world, 'kingdoms', captor_kingdom)} with its town.",
                kind="academy",
                refs={"academy": academy_id, "from": old, "to": captor_kingdom},
            )
        else:
            continue
        changed.append(academy_id)
    return changed
