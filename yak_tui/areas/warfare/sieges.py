"""Sieges (RULINGS §3): begin, blockade, provisions eaten at each season end, the starving
defenders' choice (surrender or sally), lifting, and the sieges the dashboard shows as due.
Messengers out and provisions smuggled in are `siege_lines`; recruiting and upgrading under siege
`siege_recruits`.

State it owns: `sieges.<id>` (see `_new_siege`); `pcs.<id>`: `siege` (id of the active siege or
None), `last_besieged` (date), `provisions` (stock left by the last siege, for carry-over);
`units.<id>`: `inside` (the pc a garrison holds).
"""

from __future__ import annotations

import copy
from typing import Any

from yak_tui.areas.warfare import rules, siege_rules
from yak_tui.areas.warfare.plunder import take_structure
from yak_tui.areas.warfare.shared import (
    ACTIVE,
    active_siege,
    end_siege,
    garrison_of,
    is_sea_unit,
    is_today,
    name_of,
    regiments_inside,
    require_at,
    section,
    today_dict,
    unit_regiments,
)
from yak_tui.kernel.play.audience import ADJUDICATORS, PUBLIC, kingdom_audience
from yak_tui.kernel.play.commands import KING, CommandContext, CommandError, Param, command
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.season.seasons import StepReport, advance_guard, due_reporter, season_end_step
from yak_tui.kernel.world.authoring import referrers
from yak_tui.kernel.world.model import ValidationError, World
from yak_tui.kernel.world.money import money
from yak_tui.kernel.world.numbers import counted


def siege_of(world: World, pc_id: str) -> tuple[str, dict[str, Any]]:
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
    now = siege_rules.blockade_effective(
        bool(siege["port_access"]), bool(siege["land_blockade"]), bool(siege["sea_blockade"])
    )
    siege["effective"] = now
    fort = name_of(world, "pcs", siege["fort"])
    if now and not was:
        siege["effective_from"] = today_dict(world)
        ctx.log(f"The siege of {fort} takes effect.", kind="siege", refs={"siege": siege_id})
    elif was and not now:
        reason = siege_rules.blockade_refusal(
            bool(siege["port_access"]), bool(siege["land_blockade"]), bool(siege["sea_blockade"])
        )
        ctx.log(f"The siege of {fort} is no longer in effect: {reason}.", kind="siege", refs={"siege": siege_id})
    return now


def decided_this_season(world: World, siege: dict[str, Any]) -> bool:
    today = today_dict(world)
    return any(d.get("date") == today for d in siege.get("decisions") or [])


def decision_due(world: World, siege: dict[str, Any], regiments: int | None = None) -> bool:
    """RULINGS §3: defenders who will end this season short of food must choose before it closes.
    `regiments`: those inside the fort, when the caller has counted them."""
    if siege.get("status") != ACTIVE:
        return False
    if siege.get("decision_needed") and siege.get("decision") is None:
        return True
    if not siege.get("effective") or decided_this_season(world, siege):
        return False
    if regiments is None:
        regiments = regiments_inside(world, siege["fort"])
    return siege_rules.season_end_consumption(float(siege["provisions"]), regiments).short


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
        "level_name": siege_rules.fort_name(level),
        "besieger": siege["besieger"],
        "defender": siege.get("defender"),
        "defenders": [
            {"id": uid, "name": u["name"], "owner": u.get("owner"), "regiments": unit_regiments(u)}
            for uid, u in sorted(world.where("units", inside=siege["fort"]))
        ],
        "regiments": regiments,
        "provisions": siege["provisions"],
        "seasons_left": siege_rules.seasons_left(float(siege["provisions"]), regiments),
        "effective": bool(siege.get("effective")),
        "port_access": bool(siege.get("port_access")),
        "land_blockade": bool(siege.get("land_blockade")),
        "sea_blockade": bool(siege.get("sea_blockade")),
        "blockade_missing": siege_rules.blockade_refusal(
            bool(siege.get("port_access")), bool(siege.get("land_blockade")), bool(siege.get("sea_blockade"))
        ),
        "decision_needed": decision_due(world, siege, regiments),
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
    refusal = siege_rules.siege_refusal(int(fort.get("fort_level", 0) or 0))
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
    provisions = siege_rules.starting_provisions(level, ago, float(fort.get("provisions", 0) or 0))
    siege_id = world.new_id("sieges", "siege")
    siege = _new_siege(world, fort_id, besieger, defender, unit_ids, land, sea, port, provisions, ago)
    world.put("sieges", siege_id, siege)
    world.edit("pcs", fort_id)["siege"] = siege_id
    carried = (
        f"{money(provisions)} provisions carried over from the siege {counted(ago, 'season')} ago"
        if ago is not None and ago <= int(section("siege")["carry_over_seasons"])
        else f"{money(provisions)} provisions (fort level {level})"
    )
    ctx.log(
        f"{name_of(world, 'kingdoms', besieger)} besieges {fort['name']} ({siege_rules.fort_name(level)}) with "
        f"{', '.join(u['name'] for u in units)}: {carried}.",
        kind="siege",
        refs={"siege": siege_id, "fort": fort_id, "kingdom": besieger},
    )
    effective = _refresh_effect(ctx, siege_id)
    if not effective:
        ctx.log(
            f"The siege of {fort['name']} is not yet in effect: {siege_rules.blockade_refusal(port, land, sea)}.",
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
    siege_id, siege = siege_of(world, p["fort"])
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
        end = siege_rules.season_end_consumption(float(siege["provisions"]), regiments)
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
            left = siege_rules.seasons_left(end.provisions_after, regiments)
            report.lines.append(
                f"{fort}: {regiments} regiments eat {money(end.eaten)}; {money(end.provisions_after)} left"
            )
            ctx.log(
                f"Siege of {fort}: {regiments} regiments eat {money(end.eaten)} provisions; "
                f"{money(end.provisions_after)} left"
                + (f" ({counted(left, 'more season')} at this rate)." if left is not None else "."),
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
    siege_id, siege = siege_of(world, p["fort"])
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
    refusal = siege_rules.siege_choice_refusal(p["choice"])
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
    siege_id, siege = siege_of(world, p["fort"])
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


@due_reporter(name="warfare-sieges")
def _due_sieges(world: World) -> list[dict[str, Any]]:
    """A siege's provisions and blockades are due for its two sides (and the GM, who reads both:
    `due_for` and the reports list a fact once), not for every King: at 1000x each of 3,000 Kings'
    reports listed all 1,000 sieges of the world, 436 of the save's 491 MB (issue 30). The defenders'
    choice, urgent and rare, is everyone's news as it was. Unrest is the adjudicators'."""
    items: list[dict[str, Any]] = []
    for sid, siege in sorted(world.all("sieges")):
        if siege.get("status") != ACTIVE:
            continue
        item = _siege_due(world, sid, siege)
        if item["urgent"]:  # the defenders must choose this season: news for everyone, and rare
            items.append({**item, "audience": PUBLIC})
            continue
        for kingdom in dict.fromkeys((siege["besieger"], siege.get("defender"))):
            if kingdom:
                items.append({**item, "audience": kingdom_audience(str(kingdom))})
    # Only the provinces with unrest, in the order of their ids (not all 9,000 sorted at 1000x).
    for pid, province in sorted((pid, p) for pid, p in world.all("provinces") if p.get("unrest")):
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


def _siege_due(world: World, sid: str, siege: dict[str, Any]) -> dict[str, Any]:
    """What is due of one siege: the defenders' choice, a blockade missing, or its provisions (what
    `siege_summary` says of them, without the defenders' list it also makes for the monitor: `yak
    due` asks it of every siege, 1,000 at 1000x)."""
    regiments = regiments_inside(world, siege["fort"])
    info = {
        "fort_name": world.get("pcs", siege["fort"])["name"],
        "regiments": regiments,
        "provisions": siege["provisions"],
        "seasons_left": siege_rules.seasons_left(float(siege["provisions"]), regiments),
        "effective": bool(siege.get("effective")),
        "decision_needed": decision_due(world, siege, regiments),
    }
    besieger = name_of(world, "kingdoms", siege["besieger"])
    if info["decision_needed"]:
        return {
            "kind": "siege-decision",
            "urgent": True,
            "siege": sid,
            "text": f"{info['fort_name']} (besieged by {besieger}) has {info['provisions']} provisions "
            f"for {info['regiments']} regiments: the defenders must choose surrender or sally "
            f"before the season closes (press y on Sieges)",
        }
    if not info["effective"]:
        missing = siege_rules.blockade_refusal(
            bool(siege.get("port_access")), bool(siege.get("land_blockade")), bool(siege.get("sea_blockade"))
        )
        return {
            "kind": "siege",
            "urgent": False,
            "siege": sid,
            "text": f"Siege of {info['fort_name']} by {besieger} not yet in effect: {missing}",
        }
    left = info["seasons_left"]
    rate = "no regiment inside eats" if left is None else f"{counted(left, 'season')} left at this rate"
    return {
        "kind": "siege",
        "urgent": False,
        "siege": sid,
        "text": f"Siege of {info['fort_name']} by {besieger}: {info['provisions']} provisions, "
        f"{info['regiments']} regiments inside, {rate}",
    }


def siege_view(world: World) -> list[dict[str, Any]]:
    """Every siege, active first, as the siege monitor renders it."""
    rows = [{**siege_summary(world, sid), "doc": copy.deepcopy(s)} for sid, s in sorted(world.all("sieges"))]
    return sorted(rows, key=lambda row: (row["status"] != ACTIVE, row["id"]))
