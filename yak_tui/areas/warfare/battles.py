"""Battles and engagements (issue 15 §3): the adjudicator records the sides, the result and each
unit's losses; the command reads the modifiers the rules attach to engagements and spends those
that last one engagement.

- Cripple Naval/Military Morale: the victim's next naval/military engagement at -2, then spent.
- Control Admiralty / Suborn General Staff: -1 to every naval/military engagement while the
  infiltration stands (the modifier is read from the mission's row in the espionage table).
- Traps: +bonus to the holder in the fight it was set for (or where its unit fights); its
  engineer's fate is settled afterwards with `trap-resolve`.
- A sally: with `fort`, the besieged defenders attack the besiegers; if they win, the siege is lifted.
"""

from __future__ import annotations

from typing import Any

from yak_tui.areas.espionage import INFILTRATION, MORALE_PENALTY
from yak_tui.areas.warfare.shared import end_siege, name_of, today_dict
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import CommandContext, CommandError, Param, command
from yak_tui.kernel.world.authoring import referrers
from yak_tui.kernel.world.numbers import NumberError, parse_whole
from yak_tui.kernel.world.tables import table

ENGAGEMENTS = {"land": "military", "naval": "naval"}
CONTROL_BRANCHES = {"naval": "admiralty-control", "military": "general-staff-control"}


def engagement_modifiers(
    world: Any, kingdom: str, engagement: str, fight: str, units: set[str]
) -> list[tuple[str, int, str]]:
    """(effect id, modifier, reason) of every effect bearing on `kingdom` in this engagement."""
    out: list[tuple[str, int, str]] = []
    missions = {m.get("slug"): m for m in table("espionage").get("missions", [])}
    for effect_id, effect in sorted(world.all("effects")):
        if not effect.get("active"):
            continue
        data = effect.get("data") or {}
        kind = effect.get("kind")
        if kind == MORALE_PENALTY and effect.get("target_kingdom") == kingdom and data.get("engagement") == engagement:
            mission = missions.get(effect.get("mission"), {})
            out.append((effect_id, int(data.get("morale", -2)), str(mission.get("name", "morale penalty"))))
        elif (
            kind == INFILTRATION
            and effect.get("target_kingdom") == kingdom
            and data.get("branch") == CONTROL_BRANCHES[engagement]
        ):
            mission = missions.get(effect.get("mission"), {})
            value = int((mission.get("params") or {}).get(f"{engagement}_engagement_modifier", -1))
            out.append((effect_id, value, str(mission.get("name", "sabotage"))))
        elif (
            kind == "trap"
            and effect.get("holder_kingdom") == kingdom
            and ((fight and effect.get("fight") == fight) or effect.get("unit") in units)
        ):
            out.append((effect_id, int(effect.get("bonus", 1)), "trap"))  # no id in a public line
    return out


def _losses(world: Any, text: str, sides: set[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for item in (part.strip() for part in text.split(",") if part.strip()):
        unit_text, sep, count = item.rpartition(":")
        if not sep:
            raise CommandError("losses", f"{item!r} is not unit:count, e.g. varos-siege-host:2")
        unit_id = world.resolve_ref("units", unit_text.strip()) if unit_text.strip() else ""
        if world.get("units", unit_id).get("owner") not in sides:
            raise CommandError("losses", f"{unit_id} belongs to neither side")
        try:
            out[unit_id] = out.get(unit_id, 0) + parse_whole(count, 0, None)
        except NumberError as error:
            raise CommandError("losses", f"{item}: {error}") from None
    return out


@command(
    "battle",
    "Record a battle or engagement: sides, result, losses; reads and spends morale, sabotage and "
    "traps; with fort=, resolves the defenders' sally.",
    {
        "attacker": Param(str, ref="kingdoms"),
        "defender": Param(str, ref="kingdoms"),
        "winner": Param(str, choices=("attacker", "defender", "draw")),
        "kind": Param(str, required=False, default="land", choices=("land", "naval")),
        "units": Param(list, required=False, default=[], help="the units that fought, comma-separated"),
        "losses": Param(
            str, required=False, default="", help="regiments (ships at sea) each unit lost, as UNIT:COUNT, e.g. a:2,b:1"
        ),
        "fight": Param(str, required=False, default="", help="the fight's name, as traps were set for it"),
        "fort": Param(str, required=False, ref="pcs", help="a sally: the besieged fort whose defenders attack"),
    },
    category="battle",
)
def battle(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    attacker, defender = p["attacker"], p["defender"]
    if attacker == defender:
        raise CommandError("defender", "is the attacker: a battle needs two sides")
    place = world.find("pcs", p["fort"]) if p["fort"] else None
    ctx.require_adjudicator(Stakes.of(place.get("controller") if place else None, kingdoms=[attacker, defender]))
    siege_id = None
    if p["fort"]:
        siege_id = (place or {}).get("siege")
        siege = world.find("sieges", siege_id)
        if siege is None or siege.get("status") != "active":
            raise CommandError("fort", f"{name_of(world, 'pcs', p['fort'])} is not under siege: there is no sally")
        if siege.get("besieger") != defender:
            raise CommandError(
                "defender", f"in a sally the defender is the besieger, {name_of(world, 'kingdoms', siege['besieger'])}"
            )
    units = [world.resolve_ref("units", u) for u in p["units"]]
    for unit_id in units:
        if world.get("units", unit_id).get("owner") not in (attacker, defender):
            raise CommandError("units", f"{unit_id} belongs to neither side")
    losses = _losses(world, p["losses"], {attacker, defender})
    engagement = ENGAGEMENTS[p["kind"]]
    fought = set(units) | set(losses)
    modifiers = {
        side: engagement_modifiers(
            world,
            side,
            engagement,
            p["fight"].strip(),
            {u for u in fought if world.get("units", u).get("owner") == side},
        )
        for side in (attacker, defender)
    }
    spent: list[str] = []
    for side_mods in modifiers.values():
        for effect_id, _, _ in side_mods:
            effect = world.get("effects", effect_id)
            if effect.get("kind") != MORALE_PENALTY:
                continue
            edited = world.edit("effects", effect_id)
            data = dict(edited.get("data") or {})
            left = int(data.get("engagements", 1)) - 1
            data["engagements"] = max(left, 0)
            edited["data"] = data
            if left <= 0:
                edited.update({"active": False, "consumed": today_dict(world), "ended_by": "spent in an engagement"})
            spent.append(effect_id)
    ship_losses = p["kind"] == "naval"
    destroyed: list[str] = []
    for unit_id, count in losses.items():
        unit = world.edit("units", unit_id)
        key = "ships" if ship_losses and "ships" in unit else "regiments"
        have = int(unit.get(key, 0) or 0)
        if count > have:
            raise CommandError("losses", f"{unit['name']} has {have} {key}, it cannot lose {count}")
        unit[key] = have - count
        if unit[key] == 0 and not referrers(world.data, "units", unit_id):
            destroyed.append(unit["name"])
            world.delete("units", unit_id)
    outcome = {
        "attacker": f"{name_of(world, 'kingdoms', attacker)} wins",
        "defender": f"{name_of(world, 'kingdoms', defender)} wins",
        "draw": "neither side wins",
    }[p["winner"]]
    parts = []
    for side, side_mods in modifiers.items():
        if side_mods:
            parts.append(f"{name_of(world, 'kingdoms', side)} " + ", ".join(f"{v:+d} {why}" for _, v, why in side_mods))
    what = "naval engagement" if ship_losses else "battle"
    if p["fort"]:
        what = f"sally from {name_of(world, 'pcs', p['fort'])}"
    text = (
        f"The {what} of {name_of(world, 'kingdoms', attacker)} against {name_of(world, 'kingdoms', defender)}"
        + (f" ({p['fight'].strip()})" if p["fight"].strip() else "")
        + f": {outcome}."
    )
    if parts:
        text += " Modifiers: " + "; ".join(parts) + "."
    if losses:
        text += (
            " Losses: "
            + ", ".join(f"{name_of(world, 'units', u) if world.find('units', u) else u} {n}" for u, n in losses.items())
            + "."
        )
    if destroyed:
        text += f" Destroyed: {', '.join(destroyed)}."
    if siege_id is not None:
        if p["winner"] == "attacker":
            end_siege(world, siege_id, "lifted")
            text += " The besiegers are driven off: the siege is lifted."
        else:
            text += " The sally is thrown back: the siege goes on."
    traps = [eid for side_mods in modifiers.values() for eid, _, why in side_mods if why == "trap"]
    # The GM's next step is his alone: in the line's GM note, never in the public text.
    ctx.log(
        text,
        kind="battle",
        secret=f"settle the trap engineers with trap-resolve ({', '.join(traps)})" if traps else "",
        refs={
            "attacker": attacker,
            "defender": defender,
            "winner": p["winner"],
            "losses": losses,
            "fort": p["fort"],
            "spent": spent,
        },
    )
    return {
        "winner": p["winner"],
        "losses": losses,
        "spent": spent,
        "destroyed": destroyed,
        "modifiers": {
            side: [{"effect": e, "value": v, "reason": r} for e, v, r in mods] for side, mods in modifiers.items()
        },
        "siege": siege_id,
        "lifted": siege_id is not None and p["winner"] == "attacker",
    }
