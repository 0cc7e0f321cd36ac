"""Recruiting and upgrading under siege (RULINGS §3): what a siege forbids, the besieged
kingdom's treasury, and the ducats a messenger carried out to recruit with.

State it owns: `units.<id>`: `upgrades` [{date, note, cost}], `raised`.
"""

from __future__ import annotations

from typing import Any

from yak_tui.areas.warfare import rules, siege_rules
from yak_tui.areas.warfare.shared import (
    active_siege,
    is_walled,
    name_of,
    section,
    standing_pc,
    today_dict,
)
from yak_tui.areas.warfare.treasuries import treasury_place
from yak_tui.kernel.errors import ShortfallError
from yak_tui.kernel.play.commands import KING, CommandContext, CommandError, Param, command
from yak_tui.kernel.world.authoring import unit_kind_problem
from yak_tui.kernel.world.fields import UNIT_KINDS
from yak_tui.kernel.world.model import SIZES, World
from yak_tui.kernel.world.money import money
from yak_tui.kernel.world.numbers import counted


def recruit_refusal_at(world: World, pc_id: str | None) -> str | None:
    """The recruit hook for any area: why regiments cannot be raised at this structure now."""
    if not pc_id:
        return None
    found = active_siege(world, pc_id)
    besieged = found is not None and bool(found[1].get("effective"))
    refusal = siege_rules.recruit_refusal(besieged)
    return f"{name_of(world, 'pcs', pc_id)} is besieged: {refusal}" if refusal else None


def besieged_treasury(world: World, kingdom_id: str) -> tuple[str, dict[str, Any]] | None:
    """The effective siege around the place holding this kingdom's treasury, if any: then it
    recruits outside only with ducats a messenger got out (seed 002 "Siege Rules")."""
    place = treasury_place(world, ("kingdoms", kingdom_id))
    found = active_siege(world, place) if place else None
    return found if found is not None and found[1].get("effective") else None


def messenger_ducats(siege: dict[str, Any]) -> int:
    """Ducats that messengers got out of the fort and that are not yet spent recruiting."""
    return sum(int(m.get("carried_left", 0) or 0) for m in siege.get("messengers") or [] if m.get("success"))


def _spend_messenger_ducats(world: World, siege_id: str, amount: float) -> None:
    siege = world.edit("sieges", siege_id)
    left = amount
    messengers = [dict(m) for m in siege.get("messengers") or []]
    for item in messengers:
        if left <= 0 or not item.get("success"):
            continue
        used = min(float(item.get("carried_left", 0) or 0), left)
        item["carried_left"] = money(float(item.get("carried_left", 0) or 0) - used)
        left -= used
    siege["messengers"] = messengers


def _size_for(regiments: int) -> str:
    settings = section("recruit")
    for row in settings["sizes"]:
        if regiments <= int(row["max_regiments"]):
            return str(row["size"])
    return str(settings["top_size"])


@command(
    "recruit",
    "Raise regiments at a structure the kingdom holds (refused inside a besieged fort; with the "
    "treasury shut in a besieged fort, paid with ducats a messenger got out).",
    {
        "kingdom": Param(str, ref="kingdoms"),
        "pc": Param(str, ref="pcs", help="where they are raised"),
        "kind": Param(
            str,
            help="the unit kind: " + ", ".join(UNIT_KINDS),
            options=lambda world, viewer: tuple((kind, kind) for kind in UNIT_KINDS),
        ),
        "regiments": Param(int, minimum=1),
        "name": Param(str, required=False, default=""),
        "size": Param(str, required=False, choices=SIZES, help="default: from the number of regiments"),
    },
    category="warfare",
    filed_by=KING,
)
def recruit(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    pc = standing_pc(world, p["pc"])
    kingdom_id = p["kingdom"]
    ctx.require_acts_for(kingdom=kingdom_id)
    if pc.get("controller") != kingdom_id:
        raise CommandError("pc", f"{pc['name']} is not held by {name_of(world, 'kingdoms', kingdom_id)}")
    refusal = recruit_refusal_at(world, p["pc"])
    if refusal:
        raise CommandError("pc", refusal)
    kind = rules.normalise_kind(p["kind"])  # "Sea Raider" is a sea-raider
    refusal = unit_kind_problem(kind) if kind else "is empty"
    if refusal:
        raise CommandError("kind", refusal.replace(repr(kind), repr(p["kind"]), 1))
    settings = section("recruit")
    cost = p["regiments"] * float(settings["cost_per_regiment"])
    manpower = p["regiments"] * int(settings["manpower_per_regiment"])
    kingdom = world.get("kingdoms", kingdom_id)
    if int(kingdom.get("manpower", 0)) < manpower:
        raise ShortfallError(
            "regiments", f"{kingdom['name']} has {kingdom.get('manpower', 0)} manpower, {manpower} are needed"
        )
    shut_in = besieged_treasury(world, kingdom_id) if cost else None
    if shut_in is not None:
        out = messenger_ducats(shut_in[1])
        if out < cost:
            raise CommandError(
                "regiments",
                f"the treasury of {kingdom['name']} is shut in besieged "
                f"{name_of(world, 'pcs', shut_in[1]['fort'])}: recruiting outside is "
                f"paid with ducats a messenger got out ({out} so far, {money(cost)} "
                "needed); send a messenger carrying them",
            )
        _spend_messenger_ducats(world, shut_in[0], cost)
    unit_id = world.new_id("units", "u")
    unit: dict[str, Any] = {
        "name": p["name"].strip() or f"{pc['name']} {kind}",
        "owner": kingdom_id,
        "kind": kind,
        "size": p["size"] or _size_for(p["regiments"]),
        "regiments": p["regiments"],
        "hex": list(pc["hex"]),
        "raised": today_dict(world),
    }
    if is_walled(pc):
        unit["inside"] = p["pc"]
    world.put("units", unit_id, unit)
    world.edit("kingdoms", kingdom_id)["manpower"] = int(kingdom.get("manpower", 0)) - manpower
    ctx.log(
        f"{kingdom['name']} raises {unit['name']} ({counted(p['regiments'], kind + ' regiment')}) at {pc['name']}.",
        kind="recruit",
        refs={"unit": unit_id, "pc": p["pc"], "kingdom": kingdom_id, "manpower": manpower},
    )
    if cost:
        ctx.move_ducats(("kingdoms", kingdom_id), None, cost, f"recruiting {unit['name']}")
    return {"unit": unit_id, "cost": money(cost), "manpower": manpower}


@command(
    "upgrade",
    "Record an upgrade of a unit's regiments (allowed even inside a besieged fort).",
    {
        "unit": Param(str, ref="units"),
        "upgrade": Param(str, help="what is upgraded"),
        "cost": Param(int, required=False, default=0, minimum=0, help="ducats paid by the owner"),
    },
    category="warfare",
    filed_by=KING,
)
def upgrade(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    unit = world.get("units", p["unit"])
    owner = str(unit["owner"])
    ctx.require_acts_for(kingdom=owner)
    if not p["upgrade"].strip():
        raise CommandError("upgrade", "is empty: say what is upgraded")
    inside = unit.get("inside")
    found = active_siege(world, inside) if inside else None
    refusal = siege_rules.upgrade_refusal(found is not None)
    if refusal:
        raise CommandError("unit", refusal)
    edited = world.edit("units", p["unit"])
    edited["upgrades"] = [
        *(edited.get("upgrades") or []),
        {"date": today_dict(world), "note": p["upgrade"].strip(), "cost": p["cost"]},
    ]
    where = f" inside besieged {name_of(world, 'pcs', inside)}" if found else ""
    ctx.log(
        f"{unit['name']} ({name_of(world, 'kingdoms', owner)}) upgraded{where}: {p['upgrade'].strip()}.",
        kind="recruit",
        refs={"unit": p["unit"]},
    )
    if p["cost"]:
        ctx.move_ducats(("kingdoms", owner), None, p["cost"], f"upgrading {unit['name']}")
    return {"unit": p["unit"], "besieged": found is not None}
