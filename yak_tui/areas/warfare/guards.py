"""A character's personal guard (seed 002: "At the start of each year ... several abilities such as
raising personal guard regiments are reset"). The yearly count lives in the character's
`year_counters["guard"]`, which the year-start `expiries` step clears; the numbers are the warfare
table's `[guard]` section (house rule: the seed gives none).
"""

from __future__ import annotations

from typing import Any

from yak_tui.areas.warfare.shared import name_of, section
from yak_tui.kernel.play.audience import character_audience
from yak_tui.kernel.play.commands import SEATS, CommandContext, CommandError, Param, command
from yak_tui.kernel.world.money import ducats
from yak_tui.kernel.world.numbers import counted

COUNTER = "guard"


def _guard_help() -> str:
    rule = section("guard")
    return (
        f"A character raises a personal guard: up to {counted(rule['regiments_per_year'], 'regiment')} a year, "
        f"{ducats(rule['cost_per_regiment'])} each from his treasury and {rule['manpower_per_regiment']} "
        "manpower of his kingdom; the count resets at year start."
    )


@command(
    "raise-guard",
    _guard_help,
    {"character": Param(str, ref="characters"), "regiments": Param(int, required=False, default=1, minimum=1)},
    category="warfare",
    filed_by=SEATS,
)
def raise_guard(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    char_id = p["character"]
    ctx.require_acts_for(character=char_id)
    char = world.get("characters", char_id)
    if not char.get("alive", True):
        raise CommandError("character", f"{char['name']} is dead")
    if char.get("captive_of"):
        raise CommandError(
            "character", f"{char['name']} is a captive of {name_of(world, 'kingdoms', char['captive_of'])}"
        )
    kingdom_id = char.get("kingdom")
    if not kingdom_id:
        raise CommandError("character", f"{char['name']} serves no kingdom to draw manpower from")
    rule = section("guard")
    raised = int((char.get("year_counters") or {}).get(COUNTER, 0))
    allowed = int(rule["regiments_per_year"]) - raised
    if p["regiments"] > allowed:
        raise CommandError(
            "regiments",
            f"{char['name']} has raised {counted(raised, 'guard regiment')} this year; "
            f"{max(allowed, 0)} more may be raised before the next year start",
        )
    place = world.find("pcs", char.get("location") or "")
    if place is None or len(place.get("hex") or []) != 2:
        raise CommandError("character", f"{char['name']} is not at a place on the map to raise a guard")
    manpower = p["regiments"] * int(rule["manpower_per_regiment"])
    kingdom = world.get("kingdoms", kingdom_id)
    if int(kingdom.get("manpower", 0)) < manpower:
        raise CommandError(
            "regiments", f"{kingdom['name']} has {kingdom.get('manpower', 0)} manpower, {manpower} are needed"
        )
    cost = p["regiments"] * float(rule["cost_per_regiment"])
    world.edit("kingdoms", kingdom_id)["manpower"] = int(kingdom.get("manpower", 0)) - manpower
    guard_id = next((uid for uid, unit in sorted(world.all("units")) if unit.get("guard_of") == char_id), None)
    if guard_id is None:
        guard_id = world.new_id("units", "guard")
        world.put(
            "units",
            guard_id,
            {
                "name": f"{char['name']}'s Guard",
                "owner": kingdom_id,
                "kind": rule["kind"],
                "size": "patrol",
                "regiments": p["regiments"],
                "hex": list(place["hex"]),
                "commander": char_id,
                "guard_of": char_id,
                "raised": world.meta["date"],
            },
        )
    else:
        guard = world.edit("units", guard_id)
        guard["regiments"] = int(guard.get("regiments", 0) or 0) + p["regiments"]
    edited = world.edit("characters", char_id)
    edited["year_counters"] = {**(edited.get("year_counters") or {}), COUNTER: raised + p["regiments"]}
    ctx.log(
        f"{char['name']} raises {counted(p['regiments'], 'regiment')} of personal guard at {place['name']}.",
        kind="recruit",
        audience=character_audience(char_id),
        refs={"character": char_id, "unit": guard_id, "manpower": manpower},
    )
    if cost:
        ctx.move_ducats(
            ("characters", char_id),
            None,
            cost,
            f"{char['name']}'s personal guard",
            audience=character_audience(char_id),
        )
    return {
        "unit": guard_id,
        "regiments": p["regiments"],
        "cost": cost,
        "manpower": manpower,
        "left_this_year": allowed - p["regiments"],
    }
