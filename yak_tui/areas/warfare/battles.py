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

from typing import Any, NamedTuple

from yak_tui.areas.economy import fight_key, trap_fights
from yak_tui.areas.espionage import INFILTRATION, MORALE_PENALTY
from yak_tui.areas.warfare.shared import end_siege, name_of, today_dict
from yak_tui.kernel.play.audience import kingdom_audience
from yak_tui.kernel.play.authority import Stakes, adjudicates
from yak_tui.kernel.play.commands import CommandContext, CommandError, Param, command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.authoring import referrers
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.numbers import NumberError, parse_whole
from yak_tui.kernel.world.tables import table

ENGAGEMENTS = {"land": "military", "naval": "naval"}
CONTROL_BRANCHES = {"naval": "admiralty-control", "military": "general-staff-control"}


class Modifier(NamedTuple):
    """One effect bearing on a side in an engagement. `reason` names its cause (a covert mission's
    name: for the GM and its sponsor), `public` what everyone reads of it ("morale")."""

    effect: str
    value: int
    reason: str
    public: str
    sponsor: str | None = None


def engagement_modifiers(world: Any, kingdom: str, engagement: str, fight: str, units: set[str]) -> list[Modifier]:
    """Every effect bearing on `kingdom` in this engagement; a trap counts in the fight it was set for
    (`fight_key`: case and spacing aside) or where its unit fights."""
    out: list[Modifier] = []
    missions = {m.get("slug"): m for m in table("espionage").get("missions", [])}
    wanted = fight_key(fight) if fight else ""
    for effect_id, effect in sorted(world.all("effects")):
        if not effect.get("active"):
            continue
        data = effect.get("data") or {}
        kind = effect.get("kind")
        sponsor = effect.get("sponsor_kingdom")
        if kind == MORALE_PENALTY and effect.get("target_kingdom") == kingdom and data.get("engagement") == engagement:
            mission = missions.get(effect.get("mission"), {})
            name = str(mission.get("name", "morale penalty"))
            out.append(Modifier(effect_id, int(data.get("morale", -2)), name, "morale", sponsor))
        elif (
            kind == INFILTRATION
            and effect.get("target_kingdom") == kingdom
            and data.get("branch") == CONTROL_BRANCHES[engagement]
        ):
            mission = missions.get(effect.get("mission"), {})
            value = int((mission.get("params") or {}).get(f"{engagement}_engagement_modifier", -1))
            out.append(Modifier(effect_id, value, str(mission.get("name", "sabotage")), "sabotage", sponsor))
        elif (
            kind == "trap"
            and effect.get("holder_kingdom") == kingdom
            and ((wanted and fight_key(str(effect.get("fight", ""))) == wanted) or effect.get("unit") in units)
        ):
            out.append(Modifier(effect_id, int(effect.get("bonus", 1)), "trap", "trap"))
    return out


def _fight_of(world: Any, text: str) -> str:
    """The fight `fight=` names: its words, or a trap's id standing for that trap's fight."""
    text = text.strip()
    trap = world.find("effects", text) if text else None
    if trap is not None and trap.get("kind") == "trap":
        return str(trap.get("fight", ""))
    return text


def _require_trap_for(world: Any, viewer: Any, fight: str, sides: tuple[str, str], found: list[Modifier]) -> None:
    """A fight named must be one a trap of either side is set for: never silently ignored."""
    if not fight or any(m.reason == "trap" for m in found):
        return
    names = " or ".join(name_of(world, "kingdoms", side) for side in sides)
    known = [value for value, _ in trap_fights(world, viewer, sides)]
    where = f"; their traps are set for: {', '.join(repr(k) for k in known)}" if known else ""
    raise CommandError(
        "fight",
        f"no trap of {names} is set for {fight!r}{where}. Name the fight as the trap names it, or leave fight out",
    )


def side_modifiers(world: Any, viewer: Any, p: dict[str, Any], *, strict: bool = True) -> dict[str, list[Modifier]]:
    """The modifiers of each side (attacker first) for these parameters of `battle`."""
    attacker, defender = p["attacker"], p["defender"]
    engagement = ENGAGEMENTS[p.get("kind") or "land"]
    units = {world.resolve_ref("units", u) for u in p.get("units") or []}
    fight = _fight_of(world, str(p.get("fight") or ""))
    out = {
        side: engagement_modifiers(
            world, side, engagement, fight, {u for u in units if (world.find("units", u) or {}).get("owner") == side}
        )
        for side in (attacker, defender)
    }
    if strict:
        _require_trap_for(world, viewer, fight, (attacker, defender), [m for mods in out.values() for m in mods])
    return out


def modifier_words(world: Any, modifiers: dict[str, list[Modifier]], *, public: bool) -> list[str]:
    """`Principality of Sarn -2 (morale)` for everyone; the cause by name for the GM and its sponsor."""
    parts = []
    for side, mods in modifiers.items():
        if mods:
            shown = ", ".join(f"{m.value:+d} ({m.public if public else m.reason})" for m in mods)
            parts.append(f"{name_of(world, 'kingdoms', side)} {shown}")
    return parts


def _battle_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    """What the GM reads before he enters the winner: each side's modifiers and the net of them.
    A battle rolls no die in the rules (the GM plays it out), so there are no chances to give."""
    if not p.get("attacker") or not p.get("defender") or p["attacker"] == p["defender"]:
        return {"odds": {}}
    attacker, defender = p["attacker"], p["defender"]
    place = world.find("pcs", p["fort"]) if p.get("fort") else None
    stakes = Stakes.of((place or {}).get("controller"), kingdoms=[attacker, defender])
    if not adjudicates(world, identity, stakes):  # the modifiers are the adjudicator's to read
        return {"odds": {}}
    mods = side_modifiers(world, identity, p, strict=False)
    net = sum(m.value for m in mods[attacker]) - sum(m.value for m in mods[defender])
    words = modifier_words(world, mods, public=not identity.is_gm)
    notes = ["Modifiers: " + ("; ".join(words) if words else "none") + "."]
    if net:
        ahead, behind = (attacker, defender) if net > 0 else (defender, attacker)
        notes.append(
            f"Net: {name_of(world, 'kingdoms', ahead)} {abs(net):+d} over {name_of(world, 'kingdoms', behind)}."
        )
    else:
        notes.append("Net: even.")
    return {
        "odds": {},
        "modifiers": {
            side: [{"value": m.value, "reason": m.reason} for m in side_mods] for side, side_mods in mods.items()
        },
        "net": net,
        "notes": notes,
    }


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
        "fight": Param(
            str,
            required=False,
            default="",
            help="the fight a trap was set for (its words or the trap's id); a fight no trap names is refused",
            options=lambda world, viewer: trap_fights(world, viewer),
        ),
        "fort": Param(str, required=False, ref="pcs", help="a sally: the besieged fort whose defenders attack"),
    },
    category="battle",
    odds=_battle_odds,
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
    fight = _fight_of(world, p["fight"])
    modifiers = side_modifiers(world, ctx.identity, {**p, "units": sorted(set(units) | set(losses)), "fight": fight})
    trapped = [world.get("effects", m.effect) for mods in modifiers.values() for m in mods if m.reason == "trap"]
    if fight and trapped:  # the fight as its trap names it
        fight = next(
            (str(t["fight"]) for t in trapped if fight_key(str(t.get("fight", ""))) == fight_key(fight)), fight
        )
    spent: list[str] = []
    for side_mods in modifiers.values():
        for mod in side_mods:
            effect = world.get("effects", mod.effect)
            if effect.get("kind") != MORALE_PENALTY:
                continue
            edited = world.edit("effects", mod.effect)
            data = dict(edited.get("data") or {})
            left = int(data.get("engagements", 1)) - 1
            data["engagements"] = max(left, 0)
            edited["data"] = data
            if left <= 0:
                edited.update({"active": False, "consumed": today_dict(world), "ended_by": "spent in an engagement"})
            spent.append(mod.effect)
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
    parts = modifier_words(world, modifiers, public=True)
    what = "naval engagement" if ship_losses else "battle"
    if p["fort"]:
        what = f"sally from {name_of(world, 'pcs', p['fort'])}"
    text = (
        f"The {what} of {name_of(world, 'kingdoms', attacker)} against {name_of(world, 'kingdoms', defender)}"
        + (f" ({fight})" if fight else "")
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
    traps = [m.effect for side_mods in modifiers.values() for m in side_mods if m.reason == "trap"]
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
        },
    )
    # A covert mission's cause is its sponsor's (and the GM's) to read: the public line says "morale".
    for side, side_mods in modifiers.items():
        for mod in side_mods:
            if mod.sponsor and mod.sponsor != side:
                ctx.log(
                    f"Your {mod.reason} weighed on {name_of(world, 'kingdoms', side)} in the {what} of "
                    f"{name_of(world, 'kingdoms', attacker)} against {name_of(world, 'kingdoms', defender)}: "
                    f"{mod.value:+d}" + (", and is spent." if mod.effect in spent else "."),
                    kind="espionage",
                    audience=kingdom_audience(mod.sponsor),
                    refs={"effect": mod.effect, "kingdom": side},
                )
    return {
        "winner": p["winner"],
        "losses": losses,
        "spent": spent,
        "destroyed": destroyed,
        "modifiers": {
            side: [{"effect": m.effect, "value": m.value, "reason": m.reason} for m in mods]
            for side, mods in modifiers.items()
        },
        "siege": siege_id,
        "lifted": siege_id is not None and p["winner"] == "attacker",
    }
