"""Sieges (RULINGS §3): begin, blockade, provisions eaten at each season end, the starving
defenders' choice (surrender or sally), lifting; messengers out and provisions smuggled in; and
recruiting and upgrading under siege.

State it owns: `sieges.<id>` (see `_new_siege`); `pcs.<id>`: `siege` (id of the active siege or
None), `last_besieged` (date), `provisions` (stock left by the last siege, for carry-over);
`units.<id>`: `inside` (the pc a garrison holds), `upgrades` [{date, note, cost}], `raised`.
"""

from __future__ import annotations

import copy
from typing import Any

from yak_tui.areas.espionage import smuggling_bonus
from yak_tui.areas.warfare import rules
from yak_tui.areas.warfare.raids import take_structure, treasury_place
from yak_tui.areas.warfare.shared import (
    ACTIVE,
    Party,
    active_siege,
    doc_distance,
    end_siege,
    garrison_of,
    is_scout,
    is_sea_unit,
    is_today,
    is_walled,
    kinds,
    name_of,
    ref_id,
    regiments_inside,
    require_at,
    section,
    standing_pc,
    today_dict,
    unit_regiments,
)
from yak_tui.kernel.errors import ShortfallError
from yak_tui.kernel.play.audience import ADJUDICATORS, PUBLIC
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import KING, SEATS, CommandContext, CommandError, Param, command
from yak_tui.kernel.play.dice import Modifier
from yak_tui.kernel.play.helptext import signed
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.season.seasons import StepReport, advance_guard, due_reporter, season_end_step
from yak_tui.kernel.world.authoring import referrers
from yak_tui.kernel.world.model import SIZES, ValidationError, World
from yak_tui.kernel.world.money import money
from yak_tui.kernel.world.numbers import counted
from yak_tui.kernel.world.tables import table

# --- sieges --------------------------------------------------------------------------------------


def _siege_of(world: World, pc_id: str) -> tuple[str, dict[str, Any]]:
    found = active_siege(world, pc_id)
    if found is None:
        raise CommandError("fort", f"{name_of(world, 'pcs', pc_id)} is not under siege")
    return found


def open_port_access(world: World, pc: dict[str, Any], besieger: str) -> bool:
    """The fort sits in a port, or its province has a port the besieger does not hold."""
    if "port_access" in pc:
        return bool(pc["port_access"])
    if rules.normalise_kind(str(pc["kind"])) == "port":
        return True
    province = world.find("provinces", pc.get("province")) or {}
    for port_id in province.get("ports") or []:
        port = world.find("pcs", port_id)
        if port is not None and port.get("controller") != besieger and not port.get("destroyed"):
            return True
    return False


def _refresh_effect(ctx: CommandContext, siege_id: str) -> bool:
    """Recompute whether the siege is in effect and say so when that changes."""
    world = ctx.world
    siege = world.edit("sieges", siege_id)
    was = bool(siege.get("effective"))
    now = rules.blockade_effective(
        bool(siege["port_access"]), bool(siege["land_blockade"]), bool(siege["sea_blockade"])
    )
    siege["effective"] = now
    fort = name_of(world, "pcs", siege["fort"])
    if now and not was:
        siege["effective_from"] = today_dict(world)
        ctx.log(f"The siege of {fort} takes effect.", kind="siege", refs={"siege": siege_id})
    elif was and not now:
        reason = rules.blockade_refusal(
            bool(siege["port_access"]), bool(siege["land_blockade"]), bool(siege["sea_blockade"])
        )
        ctx.log(f"The siege of {fort} is no longer in effect: {reason}.", kind="siege", refs={"siege": siege_id})
    return now


def decided_this_season(world: World, siege: dict[str, Any]) -> bool:
    today = today_dict(world)
    return any(d.get("date") == today for d in siege.get("decisions") or [])


def decision_due(world: World, siege: dict[str, Any]) -> bool:
    """RULINGS §3: defenders who will end this season short of food must choose before it closes."""
    if siege.get("status") != ACTIVE:
        return False
    if siege.get("decision_needed") and siege.get("decision") is None:
        return True
    if not siege.get("effective") or decided_this_season(world, siege):
        return False
    regiments = regiments_inside(world, siege["fort"])
    return rules.season_end_consumption(float(siege["provisions"]), regiments).short


def siege_summary(world: World, siege_id: str) -> dict[str, Any]:
    """What the siege monitor shows for one siege (a plain dict, safe to render)."""
    siege = world.get("sieges", siege_id)
    fort = world.get("pcs", siege["fort"])
    regiments = regiments_inside(world, siege["fort"])
    level = int(fort.get("fort_level", 0) or 0)
    return {
        "id": siege_id,
        "fort": siege["fort"],
        "fort_name": fort["name"],
        "level": level,
        "level_name": rules.fort_name(level),
        "besieger": siege["besieger"],
        "defender": siege.get("defender"),
        "defenders": [
            {"id": uid, "name": u["name"], "owner": u.get("owner"), "regiments": unit_regiments(u)}
            for uid, u in sorted(world.all("units"))
            if u.get("inside") == siege["fort"]
        ],
        "regiments": regiments,
        "provisions": siege["provisions"],
        "seasons_left": rules.seasons_left(float(siege["provisions"]), regiments),
        "effective": bool(siege.get("effective")),
        "port_access": bool(siege.get("port_access")),
        "land_blockade": bool(siege.get("land_blockade")),
        "sea_blockade": bool(siege.get("sea_blockade")),
        "blockade_missing": rules.blockade_refusal(
            bool(siege.get("port_access")), bool(siege.get("land_blockade")), bool(siege.get("sea_blockade"))
        ),
        "decision_needed": decision_due(world, siege),
        "status": siege.get("status"),
    }


@command(
    "siege-begin",
    "Besiege a walled fort with units camped at or next to it (land and/or sea).",
    {
        "fort": Param(str, ref="pcs", help="the walled fort"),
        "units": Param(list, help="besieging unit ids, comma-separated (ships and sea raiders blockade by sea)"),
    },
    category="siege",
    filed_by=KING,
)
def siege_begin(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    fort_id = p["fort"]
    fort = world.get("pcs", fort_id)
    if fort.get("destroyed"):
        raise CommandError("fort", f"{fort['name']} was destroyed")
    refusal = rules.siege_refusal(int(fort.get("fort_level", 0) or 0))
    if refusal:
        raise CommandError("fort", f"{fort['name']} (fort level {fort.get('fort_level', 0)}): {refusal} (RULINGS §3)")
    if active_siege(world, fort_id) is not None:
        raise CommandError("fort", f"{fort['name']} is already under siege")
    if not p["units"]:
        raise CommandError("units", "name at least one besieging unit")
    unit_ids: list[str] = []
    owners: set[str] = set()
    reach = int(section("world")["blockade_range"])
    for raw in p["units"]:
        try:
            uid = world.resolve_ref("units", raw)
        except ValidationError as error:
            raise CommandError("units", error.reason) from None
        unit = world.get("units", uid)
        owners.add(str(unit["owner"]))
        if unit.get("inside"):
            raise CommandError("units", f"{unit['name']} is inside {name_of(world, 'pcs', unit['inside'])}")
        require_at(world, "units", uid, unit, fort, reach, "a siege")
        busy = [s for _, s in world.all("sieges") if s.get("status") == ACTIVE and uid in (s.get("units") or [])]
        if busy:
            raise CommandError("units", f"{unit['name']} already besieges {name_of(world, 'pcs', busy[0]['fort'])}")
        if uid not in unit_ids:
            unit_ids.append(uid)
    if len(owners) != 1:
        raise CommandError(
            "units",
            f"the besieging units belong to several kingdoms ({', '.join(sorted(owners))}); "
            f"each kingdom begins its own siege",
        )
    besieger = owners.pop()
    defender = fort.get("controller")
    if besieger == defender:
        raise CommandError(
            "units", f"{name_of(world, 'kingdoms', besieger)} holds {fort['name']}; it cannot besiege it"
        )
    ctx.require_acts_for(kingdom=besieger)
    units = [world.get("units", uid) for uid in unit_ids]
    land = any(not is_sea_unit(u) for u in units)
    sea = any(is_sea_unit(u) for u in units)
    port = open_port_access(world, fort, besieger)
    last = fort.get("last_besieged")
    ago = max(0, GameDate.from_dict(last).seasons_until(world.date)) if last else None
    level = int(fort["fort_level"])
    provisions = rules.starting_provisions(level, ago, float(fort.get("provisions", 0) or 0))
    siege_id = world.new_id("sieges", "siege")
    siege = _new_siege(world, fort_id, besieger, defender, unit_ids, land, sea, port, provisions, ago)
    world.put("sieges", siege_id, siege)
    world.edit("pcs", fort_id)["siege"] = siege_id
    carried = (
        f"{money(provisions)} provisions carried over from the siege {ago} season(s) ago"
        if ago is not None and ago <= int(section("siege")["carry_over_seasons"])
        else f"{money(provisions)} provisions (fort level {level})"
    )
    ctx.log(
        f"{name_of(world, 'kingdoms', besieger)} besieges {fort['name']} ({rules.fort_name(level)}) with "
        f"{', '.join(u['name'] for u in units)}: {carried}.",
        kind="siege",
        refs={"siege": siege_id, "fort": fort_id, "kingdom": besieger},
    )
    effective = _refresh_effect(ctx, siege_id)
    if not effective:
        ctx.log(
            f"The siege of {fort['name']} is not yet in effect: {rules.blockade_refusal(port, land, sea)}.",
            kind="siege",
            refs={"siege": siege_id},
        )
    return {
        "siege": siege_id,
        "provisions": money(provisions),
        "effective": effective,
        "port_access": port,
        "land_blockade": land,
        "sea_blockade": sea,
    }


def _new_siege(
    world: World,
    fort_id: str,
    besieger: str,
    defender: str | None,
    units: list[str],
    land: bool,
    sea: bool,
    port: bool,
    provisions: float,
    ago: int | None,
) -> dict[str, Any]:
    """The siege document. Dates are {year, season}; lists grow as the siege goes on.

    fort, besieger, defender (kingdom or None), units (besieging unit ids), started, status
    ("active" | "lifted" | "surrendered" | "captured"), ended, lifted, port_access, land_blockade,
    sea_blockade, effective, effective_from, provisions (current stock), starting_provisions,
    carried_over_from (seasons since the last siege, or None), seasons (besieged season ends),
    consumption [{date, regiments, eaten, provisions, short}], decision_needed, decision
    (None | "surrender" | "sally"), decided, decisions [{date, choice}], messengers [...],
    smuggling [...], surrendered_units [...]."""
    return {
        "fort": fort_id,
        "besieger": besieger,
        "defender": defender,
        "units": units,
        "started": today_dict(world),
        "status": ACTIVE,
        "ended": None,
        "lifted": None,
        "port_access": port,
        "land_blockade": land,
        "sea_blockade": sea,
        "effective": False,
        "effective_from": None,
        "provisions": money(provisions),
        "starting_provisions": money(provisions),
        "carried_over_from": ago,
        "seasons": 0,
        "consumption": [],
        "decision_needed": False,
        "decision": None,
        "decided": None,
        "decisions": [],
        "messengers": [],
        "smuggling": [],
        "surrendered_units": [],
    }


@command(
    "blockade",
    "Put a land or sea blockade in place around a besieged fort (lift=true removes one).",
    {
        "fort": Param(str, ref="pcs"),
        "kind": Param(str, choices=("land", "sea")),
        "unit": Param(str, ref="units", help="the besieging unit that blockades"),
        "lift": Param(bool, required=False, default=False, help="the unit leaves or is driven off"),
    },
    category="siege",
    filed_by=KING,
)
def blockade(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    siege_id, siege = _siege_of(world, p["fort"])
    unit = world.get("units", p["unit"])
    besieger = siege["besieger"]
    ctx.require_acts_for(kingdom=besieger)
    if unit.get("owner") != besieger:
        raise CommandError("unit", f"{unit['name']} is not {name_of(world, 'kingdoms', besieger)}'s")
    sea = p["kind"] == "sea"
    if is_sea_unit(unit) != sea:
        raise CommandError(
            "unit",
            f"{unit['name']} is a {unit['kind']} unit; a {p['kind']} blockade needs "
            f"{'ships' if sea else 'land troops'}",
        )
    flag = "sea_blockade" if sea else "land_blockade"
    edited = world.edit("sieges", siege_id)
    units = list(edited.get("units") or [])
    if p["lift"]:
        if p["unit"] not in units:
            raise CommandError("unit", f"{unit['name']} does not take part in the siege")
        units.remove(p["unit"])
        edited[flag] = any(is_sea_unit(world.get("units", u)) == sea for u in units if world.find("units", u))
        verb = "leaves"
    else:
        require_at(
            world,
            "unit",
            p["unit"],
            unit,
            world.get("pcs", p["fort"]),
            int(section("world")["blockade_range"]),
            "a blockade",
        )
        busy = [
            s
            for sid, s in world.all("sieges")
            if sid != siege_id and s.get("status") == ACTIVE and p["unit"] in (s.get("units") or [])
        ]
        if busy:
            raise CommandError("unit", f"{unit['name']} already besieges {name_of(world, 'pcs', busy[0]['fort'])}")
        if p["unit"] not in units:
            units.append(p["unit"])
        edited[flag] = True
        verb = "joins"
    edited["units"] = units
    ctx.log(
        f"{unit['name']} {verb} the {p['kind']} blockade of {name_of(world, 'pcs', p['fort'])}.",
        kind="siege",
        refs={"siege": siege_id, "unit": p["unit"]},
    )
    effective = _refresh_effect(ctx, siege_id)
    return {
        "siege": siege_id,
        "land_blockade": edited["land_blockade"],
        "sea_blockade": edited["sea_blockade"],
        "effective": effective,
    }


@season_end_step("Sieges: every regiment inside eats one provision", name="warfare-siege-provisions")
def _siege_season_end(ctx: CommandContext, report: StepReport) -> None:
    world = ctx.world
    for siege_id, siege in sorted(world.all("sieges")):
        if siege.get("status") != ACTIVE:
            continue
        fort = name_of(world, "pcs", siege["fort"])
        if not siege.get("effective"):
            report.lines.append(f"{fort}: the siege is not in effect; nothing eaten")
            continue
        regiments = regiments_inside(world, siege["fort"])
        end = rules.season_end_consumption(float(siege["provisions"]), regiments)
        edited = world.edit("sieges", siege_id)
        edited["provisions"] = money(end.provisions_after)
        edited["seasons"] = int(edited.get("seasons", 0)) + 1
        edited["consumption"] = [
            *edited.get("consumption", []),
            {
                "date": today_dict(world),
                "regiments": regiments,
                "eaten": money(end.eaten),
                "provisions": money(end.provisions_after),
                "short": end.short,
            },
        ]
        pc = world.edit("pcs", siege["fort"])
        pc["last_besieged"] = today_dict(world)
        pc["provisions"] = money(end.provisions_after)
        report.add("provisions eaten", end.eaten)
        if end.short:
            # The advance guard made sure the defenders chose (a sally) before this season closed.
            edited["decision_needed"] = False
            report.add("sieges short of provisions", 1)
            report.lines.append(f"{fort}: {regiments} regiments, {money(end.eaten)} provisions left to eat: short")
            ctx.log(
                f"The defenders of {fort} end {world.date.label()} with only {money(end.eaten)} provisions for "
                f"{regiments} regiments, after choosing to sally; the siege goes on until the GM records "
                f"the fort's capture or lifts the siege.",
                kind="siege",
                refs={"siege": siege_id},
            )
        else:
            left = rules.seasons_left(end.provisions_after, regiments)
            report.lines.append(
                f"{fort}: {regiments} regiments eat {money(end.eaten)}; {money(end.provisions_after)} left"
            )
            ctx.log(
                f"Siege of {fort}: {regiments} regiments eat {money(end.eaten)} provisions; "
                f"{money(end.provisions_after)} left"
                + (f" ({left} more season(s) at this rate)." if left is not None else "."),
                kind="siege",
                refs={"siege": siege_id},
            )


def _undecided(world: World) -> list[tuple[str, dict[str, Any]]]:
    return [(sid, s) for sid, s in sorted(world.all("sieges")) if decision_due(world, s)]


@advance_guard(name="warfare-undecided-sieges")
def _siege_guard(world: World) -> list[str]:
    return [
        f"the defenders of {name_of(world, 'pcs', s['fort'])} will end the season short of provisions "
        f"and must choose first: surrender or sally (press y on Sieges)"
        for _, s in _undecided(world)
    ]


@command(
    "siege-decide",
    "Record the starving defenders' choice: surrender, or sally against the besiegers.",
    {"fort": Param(str, ref="pcs"), "choice": Param(str, choices=("surrender", "sally"))},
    category="siege",
    filed_by=KING,
)
def siege_decide(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    siege_id, siege = _siege_of(world, p["fort"])
    fort = world.get("pcs", p["fort"])
    if siege.get("defender"):
        ctx.require_acts_for(kingdom=siege["defender"])
    else:
        ctx.require_gm("decide for the defenders of a fort no kingdom holds")
    if not decision_due(world, siege):
        raise CommandError(
            "choice",
            f"no choice is due: the defenders of {fort['name']} are not short of provisions "
            f"(a sally at will is a battle for the GM)",
        )
    refusal = rules.siege_choice_refusal(p["choice"])
    if refusal:
        raise CommandError("choice", refusal)
    edited = world.edit("sieges", siege_id)
    edited["decision"] = p["choice"]
    edited["decided"] = today_dict(world)
    edited["decision_needed"] = False
    edited["decisions"] = [*edited.get("decisions", []), {"date": today_dict(world), "choice": p["choice"]}]
    besieger = siege["besieger"]
    if p["choice"] == "surrender":
        surrendered = []
        for uid, unit in garrison_of(world, p["fort"]):
            surrendered.append(
                {"id": uid, "name": unit["name"], "owner": unit.get("owner"), "regiments": unit_regiments(unit)}
            )
            if referrers(world.data, "units", uid):  # named still (an agent rides with it): kept, empty
                world.edit("units", uid).update(regiments=0, inside=None)
            else:
                world.delete("units", uid)
        edited["surrendered_units"] = surrendered
        ctx.log(
            f"Starving, the defenders of {fort['name']} surrender to {name_of(world, 'kingdoms', besieger)}"
            + (f"; {', '.join(u['name'] for u in surrendered)} lay down their arms." if surrendered else "."),
            kind="siege",
            refs={"siege": siege_id, "fort": p["fort"]},
        )
        take_structure(ctx, p["fort"], besieger)
        world.edit("sieges", siege_id)["status"] = "surrendered"
        return {
            "siege": siege_id,
            "choice": "surrender",
            "captor": besieger,
            "surrendered_units": [u["id"] for u in surrendered],
        }
    ctx.log(
        f"Starving, the defenders of {fort['name']} sally against the besiegers "
        f"({name_of(world, 'kingdoms', besieger)}): the GM plays out the battle, then records "
        f"the fort's capture or lifts the siege.",
        kind="siege",
        refs={"siege": siege_id, "fort": p["fort"], "battle": True},
    )
    return {"siege": siege_id, "choice": "sally"}


@command(
    "siege-lift",
    "End a siege (the besiegers leave or are driven off); provisions left carry over.",
    {"fort": Param(str, ref="pcs"), "reason": Param(str, required=False, default="")},
    category="siege",
    filed_by=KING,
)
def siege_lift(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    siege_id, siege = _siege_of(world, p["fort"])
    ctx.require_acts_for(kingdom=siege["besieger"])
    end_siege(world, siege_id, "lifted")
    reason = f": {p['reason'].strip()}" if p["reason"].strip() else ""
    ctx.log(
        f"The siege of {name_of(world, 'pcs', p['fort'])} by {name_of(world, 'kingdoms', siege['besieger'])} is "
        f"lifted{reason}. {siege['provisions']} provisions remain.",
        kind="siege",
        refs={"siege": siege_id, "fort": p["fort"]},
    )
    return {"siege": siege_id, "provisions": siege["provisions"]}


# --- messengers and smuggling ----------------------------------------------------------------------


def _effective_siege(world: World, fort_id: str, what: str) -> tuple[str, dict[str, Any]]:
    siege_id, siege = _siege_of(world, fort_id)
    if not siege.get("effective"):
        raise CommandError(
            "fort", f"the siege of {name_of(world, 'pcs', fort_id)} is not in effect: {what} pass freely"
        )
    return siege_id, siege


def _scouts(world: World, raw: list[str], owner: str | None, fort: dict[str, Any], field: str) -> list[str]:
    reach = int(section("world")["scout_range"])
    found: list[str] = []
    for item in raw:
        try:
            uid = world.resolve_ref("units", item)
        except ValidationError as error:
            raise CommandError(field, error.reason) from None
        unit = world.get("units", uid)
        if not is_scout(unit):
            raise CommandError(field, f"{unit['name']} is a {unit['kind']} unit, not a Scout unit")
        if unit.get("owner") != owner:
            raise CommandError(field, f"{unit['name']} is not {name_of(world, 'kingdoms', owner)}'s")
        if not unit.get("inside"):
            require_at(world, field, uid, unit, fort, reach, "scouting the messenger's way")
        if uid not in found:
            found.append(uid)
    return found


def _messenger_scouts(world: World, p: dict[str, Any]) -> tuple[str, dict[str, Any], list[str], list[str]]:
    siege_id, siege = _effective_siege(world, p["fort"], "messengers")
    fort = world.get("pcs", p["fort"])
    friendly = _scouts(world, p["scouts"] or [], siege.get("defender"), fort, "scouts")
    if p["enemy_scouts"] is None:  # default: every besieging Scout within range opposes
        reach = int(section("world")["scout_range"])
        enemy = [
            uid
            for uid, u in sorted(world.all("units"))
            if u.get("owner") == siege["besieger"] and is_scout(u) and doc_distance(u, fort) <= reach
        ]
    else:
        named = [u for u in p["enemy_scouts"] if u.lower() != "none"]
        enemy = _scouts(world, named, siege["besieger"], fort, "enemy_scouts")
    return siege_id, siege, friendly, enemy


def _messenger_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    _, _, friendly, enemy = _messenger_scouts(world, p)
    odds = rules.messenger_odds(len(friendly), len(enemy))
    return {"odds": odds, "success": odds["success"], "scouts": friendly, "enemy_scouts": enemy}


def _messenger_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    found = active_siege(world, ref_id(world, "pcs", p.get("fort")) or "")
    siege = found[1] if found else {}
    return Stakes.of(siege.get("defender"), kingdoms=[siege.get("defender"), siege.get("besieger")])


def _modifiers(mods: tuple[Modifier, ...]) -> list[dict[str, Any]]:
    return [m.to_dict() for m in mods]


def _messenger_help() -> str:
    check = table("warfare")["messenger"]
    return (
        f"Send a messenger out of a besieged fort: 1d{check['die']} + helping Scouts - besieging Scouts "
        f">= {check['threshold']}; a caught messenger's ducats go to the besieger."
    )


def _smuggle_help() -> str:
    check = table("warfare")["smuggle"]
    return (
        f"A merchant smuggles staple provisions into a besieged fort: 1d{check['die']} + bribe "
        f"({signed(check['bribe_per_ducat'])}/ducat, max {signed(check['bribe_cap'])}) + modifier "
        f">= {check['threshold']}; a success adds the shipments and pays the merchant."
    )


@command(
    "messenger",
    _messenger_help,
    {
        "fort": Param(str, ref="pcs"),
        "ducats": Param(
            int,
            required=False,
            default=0,
            minimum=0,
            help="ducats he carries from the defender's treasury (to recruit outside)",
        ),
        "scouts": Param(list, required=False, default=[], help="the defender's Scout units helping"),
        "enemy_scouts": Param(
            list,
            required=False,
            default=None,
            by_adjudicator=True,
            help="the besieger's Scout units opposing (default: all within range)",
        ),
        "purpose": Param(str, required=False, default="", help="what the message is for"),
    },
    category="siege",
    odds=_messenger_odds,
    stakes=_messenger_stakes,
    rolls=True,
    filed_by=KING,
)
def messenger(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    siege_id, siege, friendly, enemy = _messenger_scouts(world, p)
    defender = siege.get("defender")
    if not defender:
        raise CommandError("fort", "the fort is held by no kingdom: there is no treasury to send from")
    ctx.require_acts_for(kingdom=defender)
    treasury = float(world.get("kingdoms", defender).get("treasury", 0))
    if p["ducats"] > treasury:
        raise ShortfallError(
            "ducats", f"{name_of(world, 'kingdoms', defender)} has {money(treasury)} ducats, not {p['ducats']}"
        )
    ctx.require_adjudicator(Stakes.of(defender, kingdoms=[defender, siege["besieger"]]))
    chance = rules.messenger_odds(len(friendly), len(enemy))["success"]
    outcome = rules.messenger(ctx.dice, len(friendly), len(enemy), p["ducats"])
    fort = name_of(world, "pcs", p["fort"])
    verdict = "gets through" if outcome.success else "is caught"
    mods = "".join(f" {m.value:+d} ({m.reason})" for m in outcome.modifiers)
    record = ctx.record_roll(
        f"messenger out of {fort}",
        [outcome.natural],
        outcome.total,
        "success" if outcome.success else "failure",
        list(outcome.modifiers),
        outcome=verdict,
        reading=(
            f"rolled {outcome.natural}{mods} = {outcome.total}, needing "
            f"{section('messenger')['threshold']} or more → he {verdict}"
        ),
    )
    carried = f" carrying {p['ducats']} ducats" if p["ducats"] else ""
    purpose = f" ({p['purpose'].strip()})" if p["purpose"].strip() else ""
    ctx.log(
        f"A messenger{carried} leaves besieged {fort}{purpose}: 1d6 = {outcome.natural}{mods}, total "
        f"{outcome.total} against 3: he {verdict}.",
        kind="siege",
        rolls=[record],
        refs={"siege": siege_id, "fort": p["fort"]},
    )
    if not outcome.success and outcome.ducats_captured:
        ctx.move_ducats(
            ("kingdoms", defender),
            ("kingdoms", siege["besieger"]),
            outcome.ducats_captured,
            f"a messenger from {fort} caught with his ducats",
        )
    attempt = {
        "date": today_dict(world),
        "ducats": p["ducats"],
        "purpose": p["purpose"],
        "scouts": friendly,
        "enemy_scouts": enemy,
        "natural": outcome.natural,
        "modifiers": _modifiers(outcome.modifiers),
        "total": outcome.total,
        "success": outcome.success,
        "odds": chance,
        "captured_ducats": money(outcome.ducats_captured),
        "carried_left": p["ducats"] if outcome.success else 0,
    }
    edited = world.edit("sieges", siege_id)
    edited["messengers"] = [*edited.get("messengers", []), attempt]
    return {
        "siege": siege_id,
        "natural": outcome.natural,
        "total": outcome.total,
        "success": outcome.success,
        "ducats_captured": money(outcome.ducats_captured),
        "odds": chance,
        "outcome_text": f"messenger {verdict}",
    }


def _smuggle_modifiers(world: World, p: dict[str, Any], viewer: Identity | None = None) -> list[Modifier]:
    """The adjudicator's modifier and, where the merchant's kingdom runs a smuggling ring in the fort's
    province, the ring's bonus (seed: "+2 to player merchant smuggling efforts"). For a player's own
    odds (`viewer`), only a ring he may know of: one his own mission set up (RULINGS §1). The public
    line names the ring's help without naming the ring."""
    mods = [Modifier(p["modifier"], "modifier")] if p.get("modifier") else []
    fort = world.find("pcs", ref_id(world, "pcs", p.get("fort")) or "")
    merchant = world.find("characters", ref_id(world, "characters", p.get("merchant")) or "")
    if fort is not None and merchant is not None:
        known_to = viewer.subject if viewer is not None and viewer.is_player else None
        ring = smuggling_bonus(world, fort.get("province"), merchant.get("kingdom"), known_to=known_to)
        if ring:
            mods.append(Modifier(ring, "local smugglers"))
    return mods


def _bribe_within_cap(bribe: int) -> None:
    """A bribe past the ducats that still buy a bonus is refused, naming the seed's cap (issue 24)."""
    settings = section("smuggle")
    if bribe > rules.bribe_limit():
        raise CommandError(
            "bribe",
            f"is at most {rules.bribe_limit()} ducat(s): each ducat to a besieging NPC officer "
            f"gives {signed(settings['bribe_per_ducat'])}, up to {signed(settings['bribe_cap'])}, "
            f"so {bribe} would buy nothing more",
        )


def _smuggle_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    odds = rules.smuggle_odds(p["bribe"], _smuggle_modifiers(world, p, identity))
    return {"odds": odds, "success": odds["success"]}


def _smuggle_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    found = active_siege(world, ref_id(world, "pcs", p.get("fort")) or "")
    siege = found[1] if found else {}
    merchant = ref_id(world, "characters", p.get("merchant"))
    return Stakes.of(
        siege.get("defender"),
        kingdoms=[
            siege.get("defender"),
            siege.get("besieger"),
            world.kingdom_of_character(merchant) if merchant else None,
        ],
        characters=[merchant],
    )


@command(
    "smuggle",
    _smuggle_help,
    {
        "fort": Param(str, ref="pcs"),
        "merchant": Param(str, ref="characters"),
        "shipments": Param(int, minimum=1),
        "bribe": Param(
            int, required=False, default=0, minimum=0, help="ducats to a besieging NPC officer, spent anyway"
        ),
        "modifier": Param(
            int,
            required=False,
            default=0,
            by_adjudicator=True,
            help="any other modifier (a smuggling ring of the merchant's kingdom counts itself)",
        ),
        "good": Param(str, required=False, default="Grain", help="an edible staple"),
    },
    category="siege",
    odds=_smuggle_odds,
    stakes=_smuggle_stakes,
    rolls=True,
    filed_by=SEATS,
)
def smuggle(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    _bribe_within_cap(p["bribe"])
    siege_id, siege = _effective_siege(world, p["fort"], "provisions")
    merchant = world.get("characters", p["merchant"])
    settings = section("smuggle")
    if rules.normalise_kind(str(merchant.get("kind", ""))) not in kinds("smuggle", "merchant_kinds"):
        raise CommandError("merchant", f"{merchant['name']} is not a merchant adventurer")
    if not merchant.get("alive", True):
        raise CommandError("merchant", f"{merchant['name']} is dead")
    staples = [str(s) for s in settings["staples"]]
    good = next((s for s in staples if s.lower() == p["good"].strip().lower()), None)
    if good is None:
        raise CommandError("good", f"{p['good']} is not an edible staple ({', '.join(staples)})")
    ctx.require_acts_for(kingdom=merchant.get("kingdom"), character=p["merchant"])
    if p["bribe"] > float(merchant.get("treasury", 0)):
        raise ShortfallError(
            "bribe", f"{merchant['name']} has {money(merchant.get('treasury', 0))} ducats, not {p['bribe']}"
        )
    defender = siege.get("defender")
    pay = p["shipments"] * float(settings["pay_per_shipment"])
    payer: Party | None = None
    if str(settings["payer"]) == "defender" and defender and pay:
        payer = ("kingdoms", defender)
        held = float(world.get("kingdoms", defender).get("treasury", 0))
        if held < pay:
            raise CommandError(
                "shipments",
                f"{name_of(world, 'kingdoms', defender)} has {money(held)} ducats and could "
                f"not pay {money(pay)} for {p['shipments']} shipment(s)",
            )
    ctx.require_adjudicator(_smuggle_stakes(world, ctx.identity, p))
    modifiers = _smuggle_modifiers(world, p)
    chance = rules.smuggle_odds(p["bribe"], modifiers)["success"]
    outcome = rules.smuggle(ctx.dice, p["bribe"], modifiers, p["shipments"])
    fort = name_of(world, "pcs", p["fort"])
    verdict = "gets through" if outcome.success else "is stopped"
    mods = "".join(f" {m.value:+d} ({m.reason})" for m in outcome.modifiers)
    record = ctx.record_roll(
        f"smuggling {good} into {fort}",
        [outcome.natural],
        outcome.total,
        "success" if outcome.success else "failure",
        list(outcome.modifiers),
        outcome=verdict,
        reading=(
            f"rolled {outcome.natural}{mods} = {outcome.total}, needing "
            f"{settings['threshold']} or more → the convoy {verdict}"
        ),
    )
    ctx.log(
        f"{merchant['name']} smuggles {p['shipments']} shipment(s) of {good} into besieged {fort}: "
        f"1d6 = {outcome.natural}{mods}, total {outcome.total} against "
        f"{settings['threshold']}: the convoy {verdict}.",
        kind="siege",
        rolls=[record],
        refs={"siege": siege_id, "fort": p["fort"], "merchant": p["merchant"]},
    )
    if p["bribe"]:
        ctx.move_ducats(("characters", p["merchant"]), None, p["bribe"], "a bribe to a besieging NPC officer")
    paid = 0.0
    edited = world.edit("sieges", siege_id)
    if outcome.success:
        edited["provisions"] = money(float(edited["provisions"]) + outcome.provisions_added)
        if pay:
            ctx.move_ducats(
                payer,
                ("characters", p["merchant"]),
                pay,
                f"{p['shipments']} shipment(s) of {good} smuggled into {fort} (military and staple demand)",
            )
            paid = pay
    attempt = {
        "date": today_dict(world),
        "merchant": p["merchant"],
        "good": good,
        "shipments": p["shipments"],
        "bribe": p["bribe"],
        "modifier": p["modifier"],
        "natural": outcome.natural,
        "modifiers": _modifiers(outcome.modifiers),
        "total": outcome.total,
        "success": outcome.success,
        "odds": chance,
        "provisions_added": money(outcome.provisions_added),
        "paid": money(paid),
    }
    edited["smuggling"] = [*edited.get("smuggling", []), attempt]
    return {
        "siege": siege_id,
        "natural": outcome.natural,
        "total": outcome.total,
        "success": outcome.success,
        "provisions": edited["provisions"],
        "paid": money(paid),
        "odds": chance,
        "outcome_text": f"smuggling {verdict}",
    }


# --- recruiting and upgrading under siege ----------------------------------------------------------


def recruit_refusal_at(world: World, pc_id: str | None) -> str | None:
    """The recruit hook for any area: why regiments cannot be raised at this structure now."""
    if not pc_id:
        return None
    found = active_siege(world, pc_id)
    besieged = found is not None and bool(found[1].get("effective"))
    refusal = rules.recruit_refusal(besieged)
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
        "kind": Param(str, help="infantry, cavalry, scout, raider, ..."),
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
    kind = rules.normalise_kind(p["kind"])
    if not kind:
        raise CommandError("kind", "is empty")
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
    refusal = rules.upgrade_refusal(found is not None)
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


# --- the dashboard ------------------------------------------------------------------------------


@due_reporter(name="warfare-sieges")
def _due_sieges(world: World) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for sid, siege in sorted(world.all("sieges")):
        if siege.get("status") != ACTIVE:
            continue
        info = siege_summary(world, sid)
        besieger = name_of(world, "kingdoms", siege["besieger"])
        if info["decision_needed"]:
            items.append(
                {
                    "kind": "siege-decision",
                    "urgent": True,
                    "audience": PUBLIC,
                    "siege": sid,
                    "text": f"{info['fort_name']} (besieged by {besieger}) has {info['provisions']} provisions "
                    f"for {info['regiments']} regiments: the defenders must choose surrender or sally "
                    f"before the season closes (press y on Sieges)",
                }
            )
        elif not info["effective"]:
            items.append(
                {
                    "kind": "siege",
                    "urgent": False,
                    "audience": PUBLIC,
                    "siege": sid,
                    "text": f"Siege of {info['fort_name']} by {besieger} not yet in effect: {info['blockade_missing']}",
                }
            )
        else:
            left = info["seasons_left"]
            rate = "no regiment inside eats" if left is None else f"{left} season(s) left at this rate"
            items.append(
                {
                    "kind": "siege",
                    "urgent": False,
                    "audience": PUBLIC,
                    "siege": sid,
                    "text": f"Siege of {info['fort_name']} by {besieger}: {info['provisions']} provisions, "
                    f"{info['regiments']} regiments inside, {rate}",
                }
            )
    for pid, province in sorted(world.all("provinces")):
        for event in province.get("unrest") or []:
            if is_today(world, event.get("date")):
                items.append(
                    {
                        "kind": "unrest",
                        "urgent": False,
                        "audience": ADJUDICATORS,
                        "province": pid,
                        "text": f"Unrest in {province['name']} to adjudicate: {event.get('amount')} manpower "
                        f"turned into {str(event.get('cause', '')).capitalize()}",
                    }
                )
    return items


def siege_view(world: World) -> list[dict[str, Any]]:
    """Every siege, active first, as the siege monitor renders it."""
    rows = [{**siege_summary(world, sid), "doc": copy.deepcopy(s)} for sid, s in sorted(world.all("sieges"))]
    return sorted(rows, key=lambda row: (row["status"] != ACTIVE, row["id"]))
