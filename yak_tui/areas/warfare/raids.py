"""Raids, slave raids and the conversion of slaves (RULINGS §2).

This module validates, rolls with `ctx.dice`, moves every ducat through `ctx.move_ducats`, and
writes the chronicle; the arithmetic is in `yak_tui.areas.warfare.rules`. Capture, razing, looting
and dismantling are `plunder`; where treasuries live, `treasuries`.

State it owns (for the screens and the other areas):

- `pcs.<id>`: `raided_in` (date of the last raid), `raided_by`, `last_raid`, `tax_taken` (ducats of
  the coming tax already taken by raids and looting; the year-start tax step subtracts and resets
  it).
- `kingdoms.<id>.goods`: {"Slaves": n} from slave raids and conversions.
- `provinces.<id>.unrest`: [{date, cause, amount}] raised by `convert-slaves`.
"""

from __future__ import annotations

from typing import Any

from yak_tui.areas.warfare import rules
from yak_tui.areas.warfare.shared import (
    add_goods,
    add_tax_taken,
    coming_tax_left,
    doc_distance,
    garrison_of,
    is_sea_unit,
    is_today,
    is_walled,
    name_of,
    party_key,
    ref_id,
    require_at,
    section,
    standing_pc,
    structure_owner,
    today_dict,
    unit_doc,
)
from yak_tui.areas.warfare.sponsored import is_irregular, pay_sponsor, sponsor_of
from yak_tui.kernel.errors import ShortfallError
from yak_tui.kernel.play.audience import ADJUDICATORS, PUBLIC, kingdom_audience
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import KING, SEATS, CommandContext, CommandError, Param, command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import ducats, money
from yak_tui.kernel.world.numbers import counted
from yak_tui.kernel.world.tables import table


def _raid_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    unit = world.find("units", ref_id(world, "units", p.get("unit")))
    pc = world.find("pcs", ref_id(world, "pcs", p.get("pc")))
    controller = (pc or {}).get("controller")
    owner = (unit or {}).get("owner")
    return Stakes.of(
        controller,
        kingdoms=[None if is_irregular(owner) else owner, (unit or {}).get("friendly_to"), controller],
        characters=[(pc or {}).get("owner_character")],
    )


def _march(ctx: CommandContext, unit_id: str, pc_id: str) -> None:
    """A raid order's march (`march=true`): the unit leaves any garrison and marches onto the
    structure's hex, told to its own side and the adjudicator; the raid follows in the same
    transaction, so a refused raid leaves the unit where it was. Ruling (issue 29): the rules give a
    march no reach, so the adjudicator who carries the order out judges it (he may reject it)."""
    world = ctx.world
    unit = world.get("units", unit_id)
    pc = standing_pc(world, pc_id)
    owner = str(unit["owner"])
    ctx.require_acts_for(kingdom=owner, character=unit.get("commander"))
    start, goal = list(unit["hex"]), list(pc["hex"])
    if start == goal and not unit.get("inside"):
        return
    edited = world.edit("units", unit_id)
    edited["hex"] = goal
    if edited.get("inside") is not None:
        edited["inside"] = None
    steps = doc_distance({"hex": start}, pc)
    ctx.log(
        f"{unit['name']} {'sails' if is_sea_unit(unit) else 'marches'} from {start[0]},{start[1]} to {pc['name']}: "
        f"{counted(steps, 'hex', 'hexes')}, to raid it.",
        kind="move",
        audience=ADJUDICATORS if is_irregular(owner) else kingdom_audience(owner),
        refs={"unit": unit_id, "from": start, "to": goal},
    )


def _check_raid(
    ctx: CommandContext, unit_id: str, pc_id: str, march: bool = False
) -> tuple[dict[str, Any], dict[str, Any], str]:
    """Everything a raid (ducats or slaves) must pass before its die is rolled; with `march`, the
    unit marches onto the structure's hex first."""
    world = ctx.world
    if march:
        _march(ctx, unit_id, pc_id)
    unit = unit_doc(world, unit_id)
    pc = standing_pc(world, pc_id)
    raider = str(unit["owner"])
    ctx.require_acts_for(kingdom=raider, character=unit.get("commander"))
    if raider == pc.get("controller"):
        raise CommandError(
            "unit",
            f"{unit['name']} belongs to {name_of(world, 'kingdoms', raider)}, which holds "
            f"{pc['name']}: a kingdom does not raid its own structure",
        )
    structure = rules.raid_refusal(str(pc["kind"]), "raider", False, False, False, False)
    if structure:
        raise CommandError("pc", structure)
    if is_today(world, pc.get("raided_in")):
        raise CommandError(
            "pc",
            f"{pc['name']} was already raided in {world.date.label()} (by "
            f"{name_of(world, 'kingdoms', pc.get('raided_by'))}); a structure can be raided "
            f"once per season, by anyone (RULINGS §2)",
        )
    try:
        require_at(world, "unit", unit_id, unit, pc, int(section("world")["raid_range"]), "a raid")
    except CommandError as error:  # one order may carry the march as well
        raise CommandError(error.field, f"{error.reason} (march=true marches it there first)") from None
    garrisoned = bool(garrison_of(world, pc_id, besides=raider))
    refusal = rules.raid_refusal(
        str(pc["kind"]), str(unit["kind"]), bool(pc.get("coastal")), garrisoned, is_walled(pc), False
    )
    if refusal:
        raise CommandError("unit", f"{unit['name']} ({unit['kind']}): {refusal}")
    ctx.require_adjudicator(
        Stakes.of(
            pc.get("controller"),
            kingdoms=[None if is_irregular(raider) else raider, unit.get("friendly_to"), pc.get("controller")],
            characters=[pc.get("owner_character")],
        )
    )
    return unit, pc, raider


def _mark_raided(world: World, pc_id: str, raider: str, kind: str, amount: float) -> None:
    pc = world.edit("pcs", pc_id)
    pc["raided_in"] = today_dict(world)
    pc["raided_by"] = raider
    pc["last_raid"] = {"date": today_dict(world), "by": raider, "kind": kind, "amount": money(amount)}


RAID_PARAMS = {
    "unit": Param(str, ref="units", help="the raiding unit, in the structure's hex (or marching there)"),
    "pc": Param(str, ref="pcs", help="the structure raided"),
    "march": Param(
        bool,
        required=False,
        default=False,
        help="march the unit onto the structure's hex first (in the same order, before the raid)",
    ),
}


def _warfare(section: str, key: str) -> Any:
    """One number of the loaded warfare table, for the help lines."""
    return table("warfare")[section][key]


def _raid_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    pc = world.get("pcs", p["pc"])
    owner = structure_owner(pc)
    treasury = float(world.get(*owner).get("treasury", 0)) if owner else 0.0
    odds = rules.ducat_raid_odds(treasury, coming_tax_left(pc))
    return {"odds": {f"{money(taken)}": share for taken, share in odds.items()}}


@command(
    "raid",
    lambda: (
        f"Raid a structure for 1d{_warfare('raid', 'die')} ducats: the owner's treasury first, then its coming tax."
    ),
    RAID_PARAMS,
    category="warfare",
    stakes=_raid_stakes,
    odds=_raid_odds,
    rolls=True,
    filed_by=SEATS,
)
def raid(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    unit, pc, raider = _check_raid(ctx, p["unit"], p["pc"], p["march"])
    owner = structure_owner(pc)
    treasury = float(world.get(*owner).get("treasury", 0)) if owner else 0.0
    outcome = rules.ducat_raid(ctx.dice_for(), treasury, coming_tax_left(pc))
    split = outcome.split
    text = (
        f"{ducats(split.taken)} ({money(split.from_treasury)} from the treasury, "
        f"{money(split.from_tax)} from the coming tax)"
    )
    record = ctx.record_roll(
        f"ducat raid on {pc['name']}",
        [outcome.natural],
        outcome.natural,
        "raid",
        outcome=f"took {ducats(split.taken)}",
        # Short parts (the dice tray draws one a line beside the die): wanted, then where it came from.
        reading=(
            f"d6 rolled {outcome.natural}: {ducats(outcome.natural)} wanted; "
            f"{money(split.from_treasury)} from the treasury; {money(split.from_tax)} from the coming tax"
        ),
    )
    ctx.log(
        f"{unit['name']} ({name_of(world, 'kingdoms', raider)}) raid {pc['name']}: 1d6 = {outcome.natural}; "
        f"they take {text}.",
        kind="raid",
        rolls=[record],
        refs={"pc": p["pc"], "unit": p["unit"], "kingdom": raider},
    )
    # A band no kingdom owns carries its take off: it lands in no treasury.
    target = None if is_irregular(raider) else ("kingdoms", raider)
    if split.from_treasury and owner is not None:
        ctx.move_ducats(owner, target, split.from_treasury, f"raid on {pc['name']} by {unit['name']}")
    if split.from_tax:
        add_tax_taken(world, p["pc"], split.from_tax)
        if target is not None:
            ctx.move_ducats(None, target, split.from_tax, f"raid on {pc['name']}, taken from its coming tax")
    _mark_raided(world, p["pc"], raider, "ducats", split.taken)
    share = pay_sponsor(ctx, p["unit"], split.taken, f"in the raid on {pc['name']}") if sponsor_of(unit) else 0
    return {
        "natural": outcome.natural,
        "taken": money(split.taken),
        "from_treasury": money(split.from_treasury),
        "from_tax": money(split.from_tax),
        "owner": party_key(owner) if owner else None,
        "sponsor_share": money(share),
        "outcome_text": f"raided {pc['name']}: {text}",
    }


def _slave_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    pc = world.get("pcs", p["pc"])
    surplus = int(world.get("provinces", pc["province"]).get("surplus_manpower", 0))
    odds = rules.slave_raid_odds(surplus)
    return {"odds": {str(n): share for n, share in odds.items()}, "surplus": surplus}


@command(
    "slave-raid",
    lambda: (
        f"Raid a structure for slaves: ceil(1d{_warfare('slaves', 'die')}/"
        f"{_warfare('slaves', 'divisor')}) manpower capped by the province's surplus, "
        "taken as manpower or as Slaves (chosen before rolling)."
    ),
    {
        **RAID_PARAMS,
        "take": Param(
            str,
            choices=("manpower", "slaves"),
            help="manpower (pressganged) or slaves (Slaves goods), chosen before rolling",
        ),
    },
    category="warfare",
    stakes=_raid_stakes,
    odds=_slave_odds,
    rolls=True,
    filed_by=SEATS,
)
def slave_raid(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    unit, pc, raider = _check_raid(ctx, p["unit"], p["pc"], p["march"])
    if is_irregular(raider):
        raise CommandError(
            "unit",
            f"{unit['name']} belong to no kingdom that could keep manpower or Slaves: a band raids for ducats (raid)",
        )
    province_id = str(pc["province"])
    surplus = int(world.get("provinces", province_id).get("surplus_manpower", 0))
    outcome = rules.slave_raid(ctx.dice_for(), surplus)
    taken = outcome.manpower
    as_what = "manpower" if p["take"] == "manpower" else "Slaves"
    wanted = rules.slaves_wanted(outcome.natural)
    cap = f"; capped at the surplus of {surplus}" if taken < wanted else ""
    record = ctx.record_roll(
        f"slave raid on {pc['name']}",
        [outcome.natural],
        outcome.natural,
        "slave-raid",
        outcome=f"took {taken} as {as_what}",
        reading=f"d6 rolled {outcome.natural}, halved rounding up: {wanted}{cap}",
    )
    if taken:
        raided = world.edit("provinces", province_id)
        raided["surplus_manpower"] = surplus - taken
        raided["surplus_raided"] = int(raided.get("surplus_raided", 0)) + taken  # may regrow (table setting)
        if p["take"] == "manpower":
            kingdom = world.edit("kingdoms", raider)
            kingdom["manpower"] = int(kingdom.get("manpower", 0)) + taken
        else:
            add_goods(world, raider, "Slaves", taken)
    capped = " (capped by the surplus)" if taken < rules.slaves_wanted(outcome.natural) else ""
    ctx.log(
        f"{unit['name']} ({name_of(world, 'kingdoms', raider)}) raid {pc['name']} for slaves, taken as "
        f"{p['take']}: 1d6 = {outcome.natural}; {taken} of {name_of(world, 'provinces', province_id)}'s "
        f"{surplus} surplus manpower carried off{capped}.",
        kind="raid",
        rolls=[record],
        refs={
            "pc": p["pc"],
            "unit": p["unit"],
            "kingdom": raider,
            "province": province_id,
            "manpower": taken,
            "take": p["take"],
        },
    )
    _mark_raided(world, p["pc"], raider, f"slaves:{p['take']}", taken)
    return {
        "natural": outcome.natural,
        "manpower": taken,
        "take": p["take"],
        "surplus_before": surplus,
        "outcome_text": f"{taken} {as_what} from {pc['name']}",
    }


@command(
    "convert-slaves",
    "A province's owner turns its surplus manpower into Slaves (a public unrest event).",
    {
        "province": Param(str, ref="provinces"),
        "amount": Param(int, minimum=1, help="manpower turned into Slaves shipments"),
    },
    category="warfare",
    filed_by=KING,
)
def convert_slaves(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    province = world.get("provinces", p["province"])
    owner = province.get("kingdom")
    if not owner:
        raise CommandError("province", f"{province['name']} belongs to no kingdom; only its owner may do this")
    ctx.require_acts_for(kingdom=owner)
    surplus = int(province.get("surplus_manpower", 0))
    if p["amount"] > surplus:
        raise ShortfallError("amount", f"{province['name']} has {surplus} surplus manpower, not {p['amount']}")
    edited = world.edit("provinces", p["province"])
    edited["surplus_manpower"] = surplus - p["amount"]
    edited["unrest"] = [
        *(edited.get("unrest") or []),
        {"date": today_dict(world), "cause": "slaves", "amount": p["amount"]},
    ]
    add_goods(world, owner, "Slaves", p["amount"])
    entry = ctx.log(
        f"{name_of(world, 'kingdoms', owner)} turns {p['amount']} of {province['name']}'s manpower into "
        f"Slaves. The populace is in uproar: unrest, perhaps rebellion, for the GM to adjudicate.",
        kind="unrest",
        audience=PUBLIC,
        refs={"province": p["province"], "kingdom": owner, "slaves": p["amount"], "unrest": True},
    )
    return {
        "province": p["province"],
        "slaves": p["amount"],
        "surplus": surplus - p["amount"],
        "unrest_entry": entry["id"],
    }
