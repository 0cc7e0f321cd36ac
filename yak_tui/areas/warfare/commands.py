"""Warfare in the world (RULINGS §2–§3): raids, slave raids, capture, looting, dismantling,
where treasuries live, sieges, messengers, smuggling, and recruiting under siege.

The arithmetic is in `yak_tui.areas.warfare.rules`; this module validates, rolls with `ctx.dice`,
moves every ducat through `ctx.move_ducats`, and writes the chronicle.

State this module owns (for the screens and the other areas):

- `pcs.<id>`: `raided_in` (date of the last raid), `raided_by`, `tax_taken` (ducats of the coming
  tax already taken by raids and looting; the year-start tax step subtracts and resets it),
  `captured_by`, `captured`, `captured_from`, `captured_owner`, `looted` {by, date, capture, tax,
  treasuries, businesses}, `destroyed` (date), `siege` (id of the active siege or None),
  `last_besieged` (date), `provisions` (stock left by the last siege, for carry-over),
  `holds_treasury_of` (["kingdoms:<id>", "characters:<id>"]: explicit treasury places).
- `sieges.<id>`: see `siege-begin` (`_new_siege`).
- `businesses.<id>`: `income_looted_by` (a bare kingdom id) and `income_looted_for` (the year whose
  year-start income is looted). The economy's business-income step pays that income to the looter
  and sets `income_looted_by` to None; `looted_income_recipient` answers the same question, and
  this module's `expiries` step drops spent marks.
- `units.<id>`: `inside` (the pc a garrison holds), `upgrades` [{date, note, cost}], `raised`.
- `kingdoms.<id>.goods`: {"Slaves": n} from slave raids and conversions.
- `provinces.<id>.unrest`: [{date, cause, amount}] raised by `convert-slaves`.
"""

from __future__ import annotations

import copy
from typing import Any

from yak_tui.areas.warfare import rules
from yak_tui.kernel.audience import ADJUDICATORS, PUBLIC
from yak_tui.kernel.authority import Stakes
from yak_tui.kernel.calendar import GameDate
from yak_tui.kernel.commands import CommandContext, CommandError, Param, command
from yak_tui.kernel.dice import Modifier
from yak_tui.kernel.hexgrid import hex_distance
from yak_tui.kernel.identity import Identity
from yak_tui.kernel.model import SIZES, ValidationError, World
from yak_tui.kernel.seasons import StepReport, advance_guard, due_reporter, season_end_step, year_start_step
from yak_tui.kernel.tables import table

ACTIVE = "active"
Party = tuple[str, str]


# --- small helpers ------------------------------------------------------------------------------

def _section(name: str) -> dict[str, Any]:
    return dict(table("warfare")[name])


def _kinds(section: str, key: str) -> set[str]:
    return {rules.normalise_kind(k) for k in _section(section)[key]}


def _today(world: World) -> dict[str, Any]:
    return dict(world.meta["date"])


def _is_today(world: World, value: Any) -> bool:
    return isinstance(value, dict) and GameDate.from_dict(value) == world.date


def _num(value: float) -> float | int:
    rounded = round(float(value), 4)
    return int(rounded) if rounded.is_integer() else rounded


def _name(world: World, table_name: str, doc_id: str | None) -> str:
    return world.display_name(table_name, doc_id)


def _ref(world: World, table_name: str, value: Any) -> str | None:
    """An id from raw order parameters (names accepted), or None when it names nothing."""
    if not isinstance(value, str) or not value:
        return None
    try:
        return world.resolve_ref(table_name, value)
    except ValidationError:
        return None


def _party_key(party: Party) -> str:
    return f"{party[0]}:{party[1]}"


def _regiments(unit: dict[str, Any]) -> int:
    return int(unit.get("regiments", 0) or 0)


def _hex_of(doc: dict[str, Any]) -> tuple[int, int]:
    q, r = doc["hex"][:2]
    return int(q), int(r)


def _distance(a: dict[str, Any], b: dict[str, Any]) -> int:
    return hex_distance(_hex_of(a), _hex_of(b))


def _is_sea_unit(unit: dict[str, Any]) -> bool:
    return rules.normalise_kind(str(unit.get("kind", ""))) in _kinds("world", "sea_units")


def _is_scout(unit: dict[str, Any]) -> bool:
    return rules.normalise_kind(str(unit.get("kind", ""))) in _kinds("world", "scout_units")


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


def _kingdom_of_party(world: World, party: Party) -> str | None:
    if party[0] == "kingdoms":
        return party[1]
    return world.kingdom_of_character(party[1])


def garrison_of(world: World, pc_id: str, besides: str | None = None) -> list[tuple[str, dict[str, Any]]]:
    """Units inside the structure, except those of the kingdom `besides` (the attacker)."""
    return [(uid, u) for uid, u in sorted(world.all("units"))
            if u.get("inside") == pc_id and u.get("owner") != besides]


def regiments_inside(world: World, pc_id: str) -> int:
    return sum(_regiments(u) for _, u in world.all("units") if u.get("inside") == pc_id)


def coming_tax_left(pc: dict[str, Any]) -> float:
    return max(0.0, float(pc.get("tax", 0)) - float(pc.get("tax_taken", 0) or 0))


def _add_tax_taken(world: World, pc_id: str, amount: float) -> None:
    pc = world.edit("pcs", pc_id)
    pc["tax_taken"] = _num(float(pc.get("tax_taken", 0) or 0) + amount)


def _add_goods(world: World, kingdom_id: str, good: str, amount: int) -> None:
    kingdom = world.edit("kingdoms", kingdom_id)
    goods = dict(kingdom.get("goods") or {})
    goods[good] = int(goods.get(good, 0)) + amount
    kingdom["goods"] = goods


def _unit(world: World, unit_id: str) -> dict[str, Any]:
    return world.get("units", unit_id)


def _pc(world: World, pc_id: str) -> dict[str, Any]:
    pc = world.get("pcs", pc_id)
    if pc.get("destroyed"):
        raise CommandError("pc", f"{pc['name']} was destroyed in {GameDate.from_dict(pc['destroyed']).label()}")
    return pc


def _require_at(world: World, field: str, unit_id: str, unit: dict[str, Any], pc: dict[str, Any],
                reach: int, what: str) -> None:
    distance = _distance(unit, pc)
    if distance > reach:
        where = "in its hex" if reach == 0 else f"within {reach} hex(es)"
        raise CommandError(field, f"{unit['name']} is at {tuple(unit['hex'])}, {distance} hex(es) from "
                                  f"{pc['name']} {tuple(pc['hex'])}; {what} needs it {where}")


# --- where treasuries live (RULINGS §2) ----------------------------------------------------------

def treasury_place(world: World, party: Party) -> str | None:
    """The pc id holding this kingdom's or citizen's treasury, or None when it is carried.

    Kingdoms: the structure naming it in `holds_treasury_of`, else the capital. Citizens: a vault
    (`characters.<id>.vault` or an explicit `holds_treasury_of`), else the rules' choice among the
    towns, markets and businesses he owns (a structure captured from him counts until it is
    looted: his treasury is still inside), else his town of residence, else carried."""
    table_name, doc_id = party
    key = _party_key(party)
    explicit = [pid for pid, pc in sorted(world.all("pcs")) if key in (pc.get("holds_treasury_of") or [])]
    if table_name == "kingdoms":
        if explicit:
            return explicit[0]
        capital = (world.find("kingdoms", doc_id) or {}).get("capital")
        return capital if capital and world.find("pcs", capital) else None
    char = world.find("characters", doc_id) or {}
    vault = char.get("vault") or (explicit[0] if explicit else None)
    owned: list[rules.OwnedStructure] = []
    for pid, pc in sorted(world.all("pcs")):
        if (pc.get("owner_character") == doc_id or _unlooted_capture_of(pc, doc_id)) and not pc.get("destroyed"):
            owned.append(rules.OwnedStructure(f"pcs:{pid}", str(pc["kind"]), bool(pc.get("capital")),
                                              float(pc.get("size", pc.get("tax", 0)) or 0),
                                              int(pc.get("fort_level", 0) or 0)))
    for bid, biz in sorted(world.all("businesses")):
        if biz.get("owner") == doc_id:
            home = world.find("pcs", biz.get("pc"))
            owned.append(rules.OwnedStructure(f"businesses:{bid}", "business", False, float(biz.get("size", 0)),
                                              int((home or {}).get("fort_level", 0) or 0)))
    where = rules.treasury_location(owned, char.get("residence"), vault)
    if where is None:
        return None
    kind, _, ident = where.partition(":")
    if kind == "businesses":
        return (world.find("businesses", ident) or {}).get("pc")
    if kind == "pcs":
        return ident
    return where


def _unlooted_capture_of(pc: dict[str, Any], character_id: str) -> bool:
    """A structure taken from this citizen still holds his treasury until it has been looted."""
    looted = pc.get("looted") or {}
    return pc.get("captured_owner") == character_id and looted.get("capture") != pc.get("captured")


def exposed_treasuries(world: World, pc_id: str) -> list[Party]:
    """Every treasury living in this structure: capturing it exposes them to looting."""
    parties: list[Party] = []
    for kid, _ in sorted(world.all("kingdoms")):
        if treasury_place(world, ("kingdoms", kid)) == pc_id:
            parties.append(("kingdoms", kid))
    for cid, char in sorted(world.all("characters")):
        if char.get("alive", True) and treasury_place(world, ("characters", cid)) == pc_id:
            parties.append(("characters", cid))
    return parties


def looted_income_recipient(world: World, business_id: str) -> str | None:
    """The kingdom that takes this business's income at the year start now running, or None.

    Contract for the business-income step: `businesses.<id>.income_looted_by` (kingdom id) and
    `income_looted_for` (year) are set by `loot`; when `income_looted_for` equals the year that
    just opened, pay the income to this kingdom instead of the owner. The warfare `expiries` step
    clears the marks afterwards."""
    biz = world.find("businesses", business_id)
    if not biz or not biz.get("income_looted_by"):
        return None
    if int(biz.get("income_looted_for", -1)) != world.date.year:
        return None
    return str(biz["income_looted_by"])


# --- raids ---------------------------------------------------------------------------------------

def _raid_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    unit = world.find("units", _ref(world, "units", p.get("unit")))
    pc = world.find("pcs", _ref(world, "pcs", p.get("pc")))
    controller = (pc or {}).get("controller")
    return Stakes.of(controller, kingdoms=[(unit or {}).get("owner"), controller],
                     characters=[(pc or {}).get("owner_character")])


def _check_raid(ctx: CommandContext, unit_id: str, pc_id: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    """Everything a raid (ducats or slaves) must pass before its die is rolled."""
    world = ctx.world
    unit = _unit(world, unit_id)
    pc = _pc(world, pc_id)
    raider = str(unit["owner"])
    ctx.require_acts_for(kingdom=raider, character=unit.get("commander"))
    if raider == pc.get("controller"):
        raise CommandError("unit", f"{unit['name']} belongs to {_name(world, 'kingdoms', raider)}, which holds "
                                   f"{pc['name']}: a kingdom does not raid its own structure")
    structure = rules.raid_refusal(str(pc["kind"]), "raider", False, False, False, False)
    if structure:
        raise CommandError("pc", structure)
    if _is_today(world, pc.get("raided_in")):
        raise CommandError("pc", f"{pc['name']} was already raided in {world.date.label()} (by "
                                 f"{_name(world, 'kingdoms', pc.get('raided_by'))}); a structure can be raided "
                                 f"once per season, by anyone (RULINGS §2)")
    _require_at(world, "unit", unit_id, unit, pc, int(_section("world")["raid_range"]), "a raid")
    garrisoned = bool(garrison_of(world, pc_id, besides=raider))
    refusal = rules.raid_refusal(str(pc["kind"]), str(unit["kind"]), bool(pc.get("coastal")), garrisoned,
                                 is_walled(pc), False)
    if refusal:
        raise CommandError("unit", f"{unit['name']} ({unit['kind']}): {refusal}")
    ctx.require_adjudicator(Stakes.of(pc.get("controller"), kingdoms=[raider, pc.get("controller")],
                                      characters=[pc.get("owner_character")]))
    return unit, pc, raider


def _mark_raided(world: World, pc_id: str, raider: str, kind: str, amount: float) -> None:
    pc = world.edit("pcs", pc_id)
    pc["raided_in"] = _today(world)
    pc["raided_by"] = raider
    pc["last_raid"] = {"date": _today(world), "by": raider, "kind": kind, "amount": _num(amount)}


RAID_PARAMS = {
    "unit": Param(str, ref="units", help="the raiding unit, in the structure's hex"),
    "pc": Param(str, ref="pcs", help="the structure raided"),
}


@command("raid", "Raid a structure for 1d6 ducats: the owner's treasury first, then its coming tax.",
         RAID_PARAMS, category="warfare", stakes=_raid_stakes, rolls=True)
def raid(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    unit, pc, raider = _check_raid(ctx, p["unit"], p["pc"])
    owner = structure_owner(pc)
    treasury = float(world.get(*owner).get("treasury", 0)) if owner else 0.0
    outcome = rules.ducat_raid(ctx.dice, treasury, coming_tax_left(pc))
    split = outcome.split
    text = (f"{_num(split.taken)} ducats ({_num(split.from_treasury)} from the treasury, "
            f"{_num(split.from_tax)} from the coming tax)")
    record = ctx.record_roll(f"ducat raid on {pc['name']}", [outcome.natural], outcome.natural, "raid",
                             outcome=f"took {text}")
    ctx.log(f"{unit['name']} ({_name(world, 'kingdoms', raider)}) raid {pc['name']}: 1d6 = {outcome.natural}; "
            f"they take {text}.", kind="raid", rolls=[record],
            refs={"pc": p["pc"], "unit": p["unit"], "kingdom": raider})
    target = ("kingdoms", raider)
    if split.from_treasury and owner is not None:
        ctx.move_ducats(owner, target, split.from_treasury, f"raid on {pc['name']}")
    if split.from_tax:
        _add_tax_taken(world, p["pc"], split.from_tax)
        ctx.move_ducats(None, target, split.from_tax, f"raid on {pc['name']}, taken from its coming tax")
    _mark_raided(world, p["pc"], raider, "ducats", split.taken)
    return {"natural": outcome.natural, "taken": _num(split.taken), "from_treasury": _num(split.from_treasury),
            "from_tax": _num(split.from_tax), "owner": _party_key(owner) if owner else None,
            "outcome_text": f"raided {pc['name']}: {text}"}


def _slave_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    pc = world.get("pcs", p["pc"])
    surplus = int(world.get("provinces", pc["province"]).get("surplus_manpower", 0))
    odds = rules.slave_raid_odds(surplus)
    return {"odds": {str(n): share for n, share in odds.items()}, "surplus": surplus}


@command("slave-raid", "Raid a structure for slaves: ceil(1d6/2) manpower capped by the province's surplus, "
         "taken as manpower or as Slaves (chosen before rolling).",
         {**RAID_PARAMS, "take": Param(str, choices=("manpower", "slaves"),
                                       help="manpower (pressganged) or slaves (Slaves goods), chosen before rolling")},
         category="warfare", stakes=_raid_stakes, odds=_slave_odds, rolls=True)
def slave_raid(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    unit, pc, raider = _check_raid(ctx, p["unit"], p["pc"])
    province_id = str(pc["province"])
    surplus = int(world.get("provinces", province_id).get("surplus_manpower", 0))
    outcome = rules.slave_raid(ctx.dice, surplus)
    taken = outcome.manpower
    as_what = "manpower" if p["take"] == "manpower" else "Slaves"
    record = ctx.record_roll(f"slave raid on {pc['name']}", [outcome.natural], outcome.natural, "slave-raid",
                             outcome=f"{taken} {as_what}")
    if taken:
        world.edit("provinces", province_id)["surplus_manpower"] = surplus - taken
        if p["take"] == "manpower":
            kingdom = world.edit("kingdoms", raider)
            kingdom["manpower"] = int(kingdom.get("manpower", 0)) + taken
        else:
            _add_goods(world, raider, "Slaves", taken)
    capped = " (capped by the surplus)" if taken < rules.slaves_wanted(outcome.natural) else ""
    ctx.log(f"{unit['name']} ({_name(world, 'kingdoms', raider)}) raid {pc['name']} for slaves, taken as "
            f"{p['take']}: 1d6 = {outcome.natural}; {taken} of {_name(world, 'provinces', province_id)}'s "
            f"{surplus} surplus manpower carried off{capped}.", kind="raid", rolls=[record],
            refs={"pc": p["pc"], "unit": p["unit"], "kingdom": raider, "province": province_id,
                  "manpower": taken, "take": p["take"]})
    _mark_raided(world, p["pc"], raider, f"slaves:{p['take']}", taken)
    return {"natural": outcome.natural, "manpower": taken, "take": p["take"], "surplus_before": surplus,
            "outcome_text": f"{taken} {as_what} from {pc['name']}"}


@command("convert-slaves", "A province's owner turns its surplus manpower into Slaves (a public unrest event).",
         {"province": Param(str, ref="provinces"),
          "amount": Param(int, minimum=1, help="manpower turned into Slaves shipments")},
         category="warfare")
def convert_slaves(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    province = world.get("provinces", p["province"])
    owner = province.get("kingdom")
    if not owner:
        raise CommandError("province", f"{province['name']} belongs to no kingdom; only its owner may do this")
    ctx.require_acts_for(kingdom=owner)
    surplus = int(province.get("surplus_manpower", 0))
    if p["amount"] > surplus:
        raise CommandError("amount", f"{province['name']} has {surplus} surplus manpower, not {p['amount']}")
    edited = world.edit("provinces", p["province"])
    edited["surplus_manpower"] = surplus - p["amount"]
    edited["unrest"] = [*(edited.get("unrest") or []),
                        {"date": _today(world), "cause": "slaves", "amount": p["amount"]}]
    _add_goods(world, owner, "Slaves", p["amount"])
    entry = ctx.log(f"{_name(world, 'kingdoms', owner)} turns {p['amount']} of {province['name']}'s manpower into "
                    f"Slaves. The populace is in uproar: unrest, perhaps rebellion, for the GM to adjudicate.",
                    kind="unrest", audience=PUBLIC,
                    refs={"province": p["province"], "kingdom": owner, "slaves": p["amount"], "unrest": True})
    return {"province": p["province"], "slaves": p["amount"], "surplus": surplus - p["amount"],
            "unrest_entry": entry["id"]}


# --- capture, destruction, looting, dismantling -----------------------------------------------------

def _end_siege(world: World, siege_id: str, status: str) -> None:
    siege = world.edit("sieges", siege_id)
    siege["status"] = status
    siege["ended"] = _today(world)
    if status == "lifted":
        siege["lifted"] = _today(world)
    siege["decision_needed"] = False
    pc = world.edit("pcs", siege["fort"])
    pc["siege"] = None
    pc["last_besieged"] = _today(world)
    pc["provisions"] = siege["provisions"]


def _take_structure(ctx: CommandContext, pc_id: str, captor: str) -> dict[str, Any]:
    """The structure changes hands: the captor controls it, its academies follow, a siege ends."""
    world = ctx.world
    pc = world.edit("pcs", pc_id)
    previous = pc.get("controller")
    pc["controller"] = captor
    pc["captured_by"] = captor
    pc["captured"] = _today(world)
    pc["captured_from"] = previous
    if pc.get("owner_character"):
        pc["captured_owner"] = pc.pop("owner_character")
    academies = []
    for aid, academy in sorted(world.all("academies")):
        if academy.get("pc") == pc_id and academy.get("kingdom") != captor:
            world.edit("academies", aid)["kingdom"] = captor
            academies.append(aid)
            ctx.log(f"The {academy.get('type', '')} academy of {pc['name']} (level {academy.get('level', 1)}) goes "
                    f"to {_name(world, 'kingdoms', captor)}.", kind="capture", refs={"academy": aid, "pc": pc_id})
    siege = active_siege(world, pc_id)
    if siege is not None:
        _end_siege(world, siege[0], "captured")
    return {"from": previous, "academies": academies}


def _destroy(ctx: CommandContext, pc_id: str) -> list[str]:
    """A destroyed town yields no tax, has no walls, and its academies are destroyed."""
    world = ctx.world
    pc = world.edit("pcs", pc_id)
    pc["destroyed"] = _today(world)
    pc["destroyed_from"] = {"tax": pc.get("tax", 0), "fort_level": pc.get("fort_level", 0),
                            "walled": bool(pc.get("walled"))}
    pc["tax"] = 0
    pc["fort_level"] = 0
    pc["walled"] = False
    gone = []
    for aid, academy in sorted(world.all("academies")):
        if academy.get("pc") == pc_id:
            world.delete("academies", aid)
            gone.append(aid)
            ctx.log(f"The {academy.get('type', '')} academy of {pc['name']} is destroyed with its town.",
                    kind="capture", refs={"academy": aid, "pc": pc_id})
    ctx.log(f"{pc['name']} is destroyed.", kind="capture", refs={"pc": pc_id})
    return gone


def _capture_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    unit = world.find("units", _ref(world, "units", p.get("unit")))
    pc = world.find("pcs", _ref(world, "pcs", p.get("pc")))
    controller = (pc or {}).get("controller")
    return Stakes.of(controller, kingdoms=[(unit or {}).get("owner"), controller],
                     characters=[(pc or {}).get("owner_character")])


@command("capture", "A hostile unit takes a structure (after the GM's battle); academies go to the captor.",
         {"pc": Param(str, ref="pcs", help="the structure taken"),
          "unit": Param(str, ref="units", help="the capturing unit, in the structure's hex"),
          "garrison": Param(str, required=False, choices=("destroyed", "fled"),
                            help="what became of a garrison still inside (required if there is one)"),
          "destroy": Param(bool, required=False, default=False, help="raze the town (its academies too)")},
         category="warfare", stakes=_capture_stakes)
def capture(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    pc = _pc(world, p["pc"])
    unit = _unit(world, p["unit"])
    captor = str(unit["owner"])
    ctx.require_acts_for(kingdom=captor, character=unit.get("commander"))
    if captor == pc.get("controller"):
        raise CommandError("unit", f"{unit['name']} belongs to {_name(world, 'kingdoms', captor)}, which already "
                                   f"holds {pc['name']}; only a hostile force captures")
    _require_at(world, "unit", p["unit"], unit, pc, int(_section("world")["raid_range"]), "a capture")
    garrison = garrison_of(world, p["pc"], besides=captor)
    if garrison and not p["garrison"]:
        names = ", ".join(f"{u['name']} ({_regiments(u)} regiments)" for _, u in garrison)
        raise CommandError("garrison", f"{pc['name']} still holds {names}: say whether they were destroyed or "
                                       f"fled (garrison=destroyed|fled) after the battle")
    ctx.require_adjudicator(_capture_stakes(world, ctx.identity, p))
    for uid, gunit in garrison:
        if p["garrison"] == "destroyed":
            world.delete("units", uid)
        else:
            world.edit("units", uid)["inside"] = None
        ctx.log(f"{gunit['name']} ({_name(world, 'kingdoms', gunit.get('owner'))}) "
                f"{'is destroyed' if p['garrison'] == 'destroyed' else 'flees'} as {pc['name']} falls.",
                kind="capture", refs={"unit": uid, "pc": p["pc"]})
    taken = _take_structure(ctx, p["pc"], captor)
    ctx.log(f"{unit['name']} ({_name(world, 'kingdoms', captor)}) capture {pc['name']} from "
            f"{_name(world, 'kingdoms', taken['from'])}.", kind="capture",
            refs={"pc": p["pc"], "unit": p["unit"], "kingdom": captor})
    destroyed = _destroy(ctx, p["pc"]) if p["destroy"] else None
    return {"pc": p["pc"], "captor": captor, "from": taken["from"], "academies": taken["academies"],
            "destroyed": destroyed is not None, "academies_destroyed": destroyed or [],
            "outcome_text": f"{pc['name']} captured by {_name(world, 'kingdoms', captor)}"}


@command("raze", "Destroy a structure its holder controls; its academies are destroyed with it.",
         {"pc": Param(str, ref="pcs")}, category="warfare")
def raze(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    pc = _pc(ctx.world, p["pc"])
    if not pc.get("controller"):
        raise CommandError("pc", f"{pc['name']} is held by no kingdom; capture it first")
    ctx.require_acts_for(kingdom=pc["controller"])
    if active_siege(ctx.world, p["pc"]) is not None:
        raise CommandError("pc", f"{pc['name']} is under siege; end the siege first")
    gone = _destroy(ctx, p["pc"])
    return {"pc": p["pc"], "academies_destroyed": gone}


@command("loot", "Loot a structure captured by a hostile force: its coming tax less raids, half of every "
         "treasury kept there, and next year's income of its businesses.",
         {"pc": Param(str, ref="pcs")}, category="warfare")
def loot(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    pc = _pc(world, p["pc"])
    looter = pc.get("captured_by")
    hostile = bool(looter) and looter == pc.get("controller") and looter != pc.get("captured_from")
    refusal = rules.loot_refusal(str(pc["kind"]), hostile)
    if refusal:
        raise CommandError("pc", refusal)
    looter = str(looter)
    ctx.require_acts_for(kingdom=looter)
    done = pc.get("looted") or {}
    if done and done.get("capture") == pc.get("captured"):
        raise CommandError("pc", f"{pc['name']} was already looted after its capture in "
                                 f"{GameDate.from_dict(pc['captured']).label()}")
    target = ("kingdoms", looter)
    tax = float(pc.get("tax", 0))
    raided = float(pc.get("tax_taken", 0) or 0)
    tax_loot = rules.loot(tax, raided, False, 0).tax_taken
    if tax_loot:
        _add_tax_taken(world, p["pc"], tax_loot)
        ctx.move_ducats(None, target, tax_loot, f"looting {pc['name']}: its coming tax less raids")
    treasuries: dict[str, int] = {}
    for party in exposed_treasuries(world, p["pc"]):
        if _kingdom_of_party(world, party) == looter:
            continue
        held = float(world.get(*party).get("treasury", 0))
        half = rules.loot(0, 0, True, held).treasury_taken
        treasuries[_party_key(party)] = half
        if half:
            ctx.move_ducats(party, target, half, f"looting {pc['name']}: half the treasury kept there")
    businesses: list[str] = []
    if rules.normalise_kind(str(pc["kind"])) in _kinds("world", "business_loot_kinds"):
        for bid, _ in sorted(world.all("businesses")):
            if world.get("businesses", bid).get("pc") == p["pc"]:
                biz = world.edit("businesses", bid)
                biz["income_looted_by"] = looter
                biz["income_looted_for"] = world.date.year + 1
                businesses.append(bid)
    record = {"by": looter, "date": _today(world), "capture": pc.get("captured"), "tax": _num(tax_loot),
              "treasuries": treasuries, "businesses": businesses}
    world.edit("pcs", p["pc"])["looted"] = record
    parts = [f"{_num(tax_loot)} ducats of tax"]
    parts += [f"{half} from {_name(world, *party.split(':', 1))}'s treasury" for party, half in treasuries.items()]
    if businesses:
        parts.append(f"next year's income of {', '.join(_name(world, 'businesses', b) for b in businesses)}")
    ctx.log(f"{_name(world, 'kingdoms', looter)} loots {pc['name']}: {'; '.join(parts)}.", kind="loot",
            refs={"pc": p["pc"], "kingdom": looter})
    total = tax_loot + sum(treasuries.values())
    return {"pc": p["pc"], "looter": looter, "tax": _num(tax_loot), "treasuries": treasuries,
            "businesses": businesses, "ducats": _num(total), "outcome_text": f"looted {pc['name']}: {_num(total)} ducats"}


@command("dismantle", "Dismantle a business for floor(invested/2) ducats: by its owner, or by the enemy who "
         "captured its town (give captor=KINGDOM).",
         {"business": Param(str, ref="businesses"),
          "captor": Param(str, required=False, ref="kingdoms", help="the capturing kingdom, if not the owner")},
         category="warfare")
def dismantle(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz = world.get("businesses", p["business"])
    owner = str(biz["owner"])
    if p["captor"] is None:
        ctx.require_acts_for(character=owner)
        receiver: Party = ("characters", owner)
    else:
        home = world.find("pcs", biz.get("pc"))
        captured = (home is not None and home.get("captured_by") == p["captor"]
                    and home.get("controller") == p["captor"] and world.kingdom_of_character(owner) != p["captor"])
        refusal = rules.dismantle_refusal(by_owner=False, captured_by_actor=captured)
        if refusal:
            where = home["name"] if home else "no town"
            raise CommandError("captor", f"{_name(world, 'kingdoms', p['captor'])} has not captured {where}: {refusal}")
        ctx.require_acts_for(kingdom=p["captor"])
        receiver = ("kingdoms", p["captor"])
    # The economy removes the business (its goods go to the owner, a monopoly lapses) and pays.
    from yak_tui.areas.economy import dismantle_business

    value = dismantle_business(ctx, p["business"], receiver, f"dismantled by {_name(world, *receiver)}")
    return {"business": p["business"], "ducats": value, "to": _party_key(receiver)}


# --- sieges --------------------------------------------------------------------------------------

def active_siege(world: World, pc_id: str) -> tuple[str, dict[str, Any]] | None:
    for sid, siege in sorted(world.all("sieges")):
        if siege.get("fort") == pc_id and siege.get("status") == ACTIVE:
            return sid, siege
    return None


def _siege_of(world: World, pc_id: str) -> tuple[str, dict[str, Any]]:
    found = active_siege(world, pc_id)
    if found is None:
        raise CommandError("fort", f"{_name(world, 'pcs', pc_id)} is not under siege")
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
    now = rules.blockade_effective(bool(siege["port_access"]), bool(siege["land_blockade"]),
                                   bool(siege["sea_blockade"]))
    siege["effective"] = now
    fort = _name(world, "pcs", siege["fort"])
    if now and not was:
        siege["effective_from"] = _today(world)
        ctx.log(f"The siege of {fort} takes effect.", kind="siege", refs={"siege": siege_id})
    elif was and not now:
        reason = rules.blockade_refusal(bool(siege["port_access"]), bool(siege["land_blockade"]),
                                        bool(siege["sea_blockade"]))
        ctx.log(f"The siege of {fort} is no longer in effect: {reason}.", kind="siege", refs={"siege": siege_id})
    return now


def decided_this_season(world: World, siege: dict[str, Any]) -> bool:
    today = _today(world)
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
        "id": siege_id, "fort": siege["fort"], "fort_name": fort["name"], "level": level,
        "level_name": rules.fort_name(level), "besieger": siege["besieger"], "defender": siege.get("defender"),
        "defenders": [{"id": uid, "name": u["name"], "owner": u.get("owner"), "regiments": _regiments(u)}
                      for uid, u in sorted(world.all("units")) if u.get("inside") == siege["fort"]],
        "regiments": regiments, "provisions": siege["provisions"],
        "seasons_left": rules.seasons_left(float(siege["provisions"]), regiments),
        "effective": bool(siege.get("effective")), "port_access": bool(siege.get("port_access")),
        "land_blockade": bool(siege.get("land_blockade")), "sea_blockade": bool(siege.get("sea_blockade")),
        "blockade_missing": rules.blockade_refusal(bool(siege.get("port_access")), bool(siege.get("land_blockade")),
                                                   bool(siege.get("sea_blockade"))),
        "decision_needed": decision_due(world, siege),
        "status": siege.get("status"),
    }


@command("siege-begin", "Besiege a walled fort with units camped at or next to it (land and/or sea).",
         {"fort": Param(str, ref="pcs", help="the walled fort"),
          "units": Param(list, help="besieging unit ids, comma-separated (ships and sea raiders blockade by sea)")},
         category="siege")
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
    reach = int(_section("world")["blockade_range"])
    for raw in p["units"]:
        try:
            uid = world.resolve_ref("units", raw)
        except ValidationError as error:
            raise CommandError("units", error.reason) from None
        unit = world.get("units", uid)
        owners.add(str(unit["owner"]))
        if unit.get("inside"):
            raise CommandError("units", f"{unit['name']} is inside {_name(world, 'pcs', unit['inside'])}")
        _require_at(world, "units", uid, unit, fort, reach, "a siege")
        busy = [s for _, s in world.all("sieges") if s.get("status") == ACTIVE and uid in (s.get("units") or [])]
        if busy:
            raise CommandError("units", f"{unit['name']} already besieges {_name(world, 'pcs', busy[0]['fort'])}")
        if uid not in unit_ids:
            unit_ids.append(uid)
    if len(owners) != 1:
        raise CommandError("units", f"the besieging units belong to several kingdoms ({', '.join(sorted(owners))}); "
                                    f"each kingdom begins its own siege")
    besieger = owners.pop()
    defender = fort.get("controller")
    if besieger == defender:
        raise CommandError("units", f"{_name(world, 'kingdoms', besieger)} holds {fort['name']}; it cannot besiege it")
    ctx.require_acts_for(kingdom=besieger)
    units = [world.get("units", uid) for uid in unit_ids]
    land = any(not _is_sea_unit(u) for u in units)
    sea = any(_is_sea_unit(u) for u in units)
    port = open_port_access(world, fort, besieger)
    last = fort.get("last_besieged")
    ago = max(0, GameDate.from_dict(last).seasons_until(world.date)) if last else None
    level = int(fort["fort_level"])
    provisions = rules.starting_provisions(level, ago, float(fort.get("provisions", 0) or 0))
    siege_id = world.new_id("sieges", "siege")
    siege = _new_siege(world, fort_id, besieger, defender, unit_ids, land, sea, port, provisions, ago)
    world.put("sieges", siege_id, siege)
    world.edit("pcs", fort_id)["siege"] = siege_id
    carried = (f"{_num(provisions)} provisions carried over from the siege {ago} season(s) ago"
               if ago is not None and ago <= int(_section("siege")["carry_over_seasons"])
               else f"{_num(provisions)} provisions (fort level {level})")
    ctx.log(f"{_name(world, 'kingdoms', besieger)} besieges {fort['name']} ({rules.fort_name(level)}) with "
            f"{', '.join(u['name'] for u in units)}: {carried}.", kind="siege",
            refs={"siege": siege_id, "fort": fort_id, "kingdom": besieger})
    effective = _refresh_effect(ctx, siege_id)
    if not effective:
        ctx.log(f"The siege of {fort['name']} is not yet in effect: "
                f"{rules.blockade_refusal(port, land, sea)}.", kind="siege", refs={"siege": siege_id})
    return {"siege": siege_id, "provisions": _num(provisions), "effective": effective, "port_access": port,
            "land_blockade": land, "sea_blockade": sea}


def _new_siege(world: World, fort_id: str, besieger: str, defender: str | None, units: list[str], land: bool,
               sea: bool, port: bool, provisions: float, ago: int | None) -> dict[str, Any]:
    """The siege document. Dates are {year, season}; lists grow as the siege goes on.

    fort, besieger, defender (kingdom or None), units (besieging unit ids), started, status
    ("active" | "lifted" | "surrendered" | "captured"), ended, lifted, port_access, land_blockade,
    sea_blockade, effective, effective_from, provisions (current stock), starting_provisions,
    carried_over_from (seasons since the last siege, or None), seasons (besieged season ends),
    consumption [{date, regiments, eaten, provisions, short}], decision_needed, decision
    (None | "surrender" | "sally"), decided, decisions [{date, choice}], messengers [...],
    smuggling [...], surrendered_units [...]."""
    return {
        "fort": fort_id, "besieger": besieger, "defender": defender, "units": units, "started": _today(world),
        "status": ACTIVE, "ended": None, "lifted": None, "port_access": port, "land_blockade": land,
        "sea_blockade": sea, "effective": False, "effective_from": None, "provisions": _num(provisions),
        "starting_provisions": _num(provisions), "carried_over_from": ago, "seasons": 0, "consumption": [],
        "decision_needed": False, "decision": None, "decided": None, "decisions": [], "messengers": [],
        "smuggling": [], "surrendered_units": [],
    }


@command("blockade", "Put a land or sea blockade in place around a besieged fort (lift=true removes one).",
         {"fort": Param(str, ref="pcs"), "kind": Param(str, choices=("land", "sea")),
          "unit": Param(str, ref="units", help="the besieging unit that blockades"),
          "lift": Param(bool, required=False, default=False, help="the unit leaves or is driven off")},
         category="siege")
def blockade(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    siege_id, siege = _siege_of(world, p["fort"])
    unit = world.get("units", p["unit"])
    besieger = siege["besieger"]
    ctx.require_acts_for(kingdom=besieger)
    if unit.get("owner") != besieger:
        raise CommandError("unit", f"{unit['name']} is not {_name(world, 'kingdoms', besieger)}'s")
    sea = p["kind"] == "sea"
    if _is_sea_unit(unit) != sea:
        raise CommandError("unit", f"{unit['name']} is a {unit['kind']} unit; a {p['kind']} blockade needs "
                                   f"{'ships' if sea else 'land troops'}")
    flag = "sea_blockade" if sea else "land_blockade"
    edited = world.edit("sieges", siege_id)
    units = list(edited.get("units") or [])
    if p["lift"]:
        if p["unit"] not in units:
            raise CommandError("unit", f"{unit['name']} does not take part in the siege")
        units.remove(p["unit"])
        edited[flag] = any(_is_sea_unit(world.get("units", u)) == sea for u in units if world.find("units", u))
        verb = "leaves"
    else:
        _require_at(world, "unit", p["unit"], unit, world.get("pcs", p["fort"]),
                    int(_section("world")["blockade_range"]), "a blockade")
        busy = [s for sid, s in world.all("sieges")
                if sid != siege_id and s.get("status") == ACTIVE and p["unit"] in (s.get("units") or [])]
        if busy:
            raise CommandError("unit", f"{unit['name']} already besieges {_name(world, 'pcs', busy[0]['fort'])}")
        if p["unit"] not in units:
            units.append(p["unit"])
        edited[flag] = True
        verb = "joins"
    edited["units"] = units
    ctx.log(f"{unit['name']} {verb} the {p['kind']} blockade of {_name(world, 'pcs', p['fort'])}.", kind="siege",
            refs={"siege": siege_id, "unit": p["unit"]})
    effective = _refresh_effect(ctx, siege_id)
    return {"siege": siege_id, "land_blockade": edited["land_blockade"], "sea_blockade": edited["sea_blockade"],
            "effective": effective}


@season_end_step("Sieges: every regiment inside eats one provision")
def _siege_season_end(ctx: CommandContext, report: StepReport) -> None:
    world = ctx.world
    for siege_id, siege in sorted(world.all("sieges")):
        if siege.get("status") != ACTIVE:
            continue
        fort = _name(world, "pcs", siege["fort"])
        if not siege.get("effective"):
            report.lines.append(f"{fort}: the siege is not in effect; nothing eaten")
            continue
        regiments = regiments_inside(world, siege["fort"])
        end = rules.season_end_consumption(float(siege["provisions"]), regiments)
        edited = world.edit("sieges", siege_id)
        edited["provisions"] = _num(end.provisions_after)
        edited["seasons"] = int(edited.get("seasons", 0)) + 1
        edited["consumption"] = [*edited.get("consumption", []),
                                 {"date": _today(world), "regiments": regiments, "eaten": _num(end.eaten),
                                  "provisions": _num(end.provisions_after), "short": end.short}]
        pc = world.edit("pcs", siege["fort"])
        pc["last_besieged"] = _today(world)
        pc["provisions"] = _num(end.provisions_after)
        report.add("provisions eaten", end.eaten)
        if end.short:
            # The advance guard made sure the defenders chose (a sally) before this season closed.
            edited["decision_needed"] = False
            report.add("sieges short of provisions", 1)
            report.lines.append(f"{fort}: {regiments} regiments, {_num(end.eaten)} provisions left to eat: short")
            ctx.log(f"The defenders of {fort} end {world.date.label()} with only {_num(end.eaten)} provisions for "
                    f"{regiments} regiments, after choosing to sally; the siege goes on until the GM records "
                    f"`capture` or `siege-lift`.", kind="siege", refs={"siege": siege_id})
        else:
            left = rules.seasons_left(end.provisions_after, regiments)
            report.lines.append(f"{fort}: {regiments} regiments eat {_num(end.eaten)}; "
                                f"{_num(end.provisions_after)} left")
            ctx.log(f"Siege of {fort}: {regiments} regiments eat {_num(end.eaten)} provisions; "
                    f"{_num(end.provisions_after)} left"
                    + (f" ({left} more season(s) at this rate)." if left is not None else "."),
                    kind="siege", refs={"siege": siege_id})


def _undecided(world: World) -> list[tuple[str, dict[str, Any]]]:
    return [(sid, s) for sid, s in sorted(world.all("sieges")) if decision_due(world, s)]


@advance_guard
def _siege_guard(world: World) -> list[str]:
    return [f"the defenders of {_name(world, 'pcs', s['fort'])} ({sid}) will end the season short of provisions "
            f"and must choose first: record `siege-decide fort={s['fort']} choice=surrender|sally`"
            for sid, s in _undecided(world)]


@command("siege-decide", "Record the starving defenders' choice: surrender, or sally against the besiegers.",
         {"fort": Param(str, ref="pcs"), "choice": Param(str, choices=("surrender", "sally"))}, category="siege")
def siege_decide(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    siege_id, siege = _siege_of(world, p["fort"])
    fort = world.get("pcs", p["fort"])
    if siege.get("defender"):
        ctx.require_acts_for(kingdom=siege["defender"])
    else:
        ctx.require_gm("decide for the defenders of a fort no kingdom holds")
    if not decision_due(world, siege):
        raise CommandError("choice", f"no choice is due: the defenders of {fort['name']} are not short of provisions "
                                     f"(a sally at will is a battle for the GM)")
    refusal = rules.siege_choice_refusal(p["choice"])
    if refusal:
        raise CommandError("choice", refusal)
    edited = world.edit("sieges", siege_id)
    edited["decision"] = p["choice"]
    edited["decided"] = _today(world)
    edited["decision_needed"] = False
    edited["decisions"] = [*edited.get("decisions", []), {"date": _today(world), "choice": p["choice"]}]
    besieger = siege["besieger"]
    if p["choice"] == "surrender":
        surrendered = []
        for uid, unit in garrison_of(world, p["fort"]):
            surrendered.append({"id": uid, "name": unit["name"], "owner": unit.get("owner"),
                                "regiments": _regiments(unit)})
            world.delete("units", uid)
        edited["surrendered_units"] = surrendered
        ctx.log(f"Starving, the defenders of {fort['name']} surrender to {_name(world, 'kingdoms', besieger)}"
                + (f"; {', '.join(u['name'] for u in surrendered)} lay down their arms." if surrendered else "."),
                kind="siege", refs={"siege": siege_id, "fort": p["fort"]})
        _take_structure(ctx, p["fort"], besieger)
        world.edit("sieges", siege_id)["status"] = "surrendered"
        return {"siege": siege_id, "choice": "surrender", "captor": besieger,
                "surrendered_units": [u["id"] for u in surrendered]}
    ctx.log(f"Starving, the defenders of {fort['name']} sally against the besiegers "
            f"({_name(world, 'kingdoms', besieger)}): the GM plays out the battle, then records `capture` or "
            f"`siege-lift`.", kind="siege", refs={"siege": siege_id, "fort": p["fort"], "battle": True})
    return {"siege": siege_id, "choice": "sally"}


@command("siege-lift", "End a siege (the besiegers leave or are driven off); provisions left carry over.",
         {"fort": Param(str, ref="pcs"), "reason": Param(str, required=False, default="")}, category="siege")
def siege_lift(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    siege_id, siege = _siege_of(world, p["fort"])
    ctx.require_acts_for(kingdom=siege["besieger"])
    _end_siege(world, siege_id, "lifted")
    reason = f": {p['reason'].strip()}" if p["reason"].strip() else ""
    ctx.log(f"The siege of {_name(world, 'pcs', p['fort'])} by {_name(world, 'kingdoms', siege['besieger'])} is "
            f"lifted{reason}. {siege['provisions']} provisions remain.", kind="siege",
            refs={"siege": siege_id, "fort": p["fort"]})
    return {"siege": siege_id, "provisions": siege["provisions"]}


# --- messengers and smuggling ----------------------------------------------------------------------

def _effective_siege(world: World, fort_id: str, what: str) -> tuple[str, dict[str, Any]]:
    siege_id, siege = _siege_of(world, fort_id)
    if not siege.get("effective"):
        raise CommandError("fort", f"the siege of {_name(world, 'pcs', fort_id)} is not in effect: {what} pass freely")
    return siege_id, siege


def _scouts(world: World, raw: list[str], owner: str | None, fort: dict[str, Any], field: str) -> list[str]:
    reach = int(_section("world")["scout_range"])
    found: list[str] = []
    for item in raw:
        try:
            uid = world.resolve_ref("units", item)
        except ValidationError as error:
            raise CommandError(field, error.reason) from None
        unit = world.get("units", uid)
        if not _is_scout(unit):
            raise CommandError(field, f"{unit['name']} is a {unit['kind']} unit, not a Scout unit")
        if unit.get("owner") != owner:
            raise CommandError(field, f"{unit['name']} is not {_name(world, 'kingdoms', owner)}'s")
        if not unit.get("inside"):
            _require_at(world, field, uid, unit, fort, reach, "scouting the messenger's way")
        if uid not in found:
            found.append(uid)
    return found


def _messenger_scouts(world: World, p: dict[str, Any]) -> tuple[str, dict[str, Any], list[str], list[str]]:
    siege_id, siege = _effective_siege(world, p["fort"], "messengers")
    fort = world.get("pcs", p["fort"])
    friendly = _scouts(world, p["scouts"] or [], siege.get("defender"), fort, "scouts")
    if p["enemy_scouts"] is None:  # default: every besieging Scout within range opposes
        reach = int(_section("world")["scout_range"])
        enemy = [uid for uid, u in sorted(world.all("units"))
                 if u.get("owner") == siege["besieger"] and _is_scout(u) and _distance(u, fort) <= reach]
    else:
        named = [u for u in p["enemy_scouts"] if u.lower() != "none"]
        enemy = _scouts(world, named, siege["besieger"], fort, "enemy_scouts")
    return siege_id, siege, friendly, enemy


def _messenger_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    _, _, friendly, enemy = _messenger_scouts(world, p)
    odds = rules.messenger_odds(len(friendly), len(enemy))
    return {"odds": odds, "success": odds["success"], "scouts": friendly, "enemy_scouts": enemy}


def _messenger_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    found = active_siege(world, _ref(world, "pcs", p.get("fort")) or "")
    siege = found[1] if found else {}
    return Stakes.of(siege.get("defender"), kingdoms=[siege.get("defender"), siege.get("besieger")])


def _modifiers(mods: tuple[Modifier, ...]) -> list[dict[str, Any]]:
    return [m.to_dict() for m in mods]


@command("messenger", "Send a messenger out of a besieged fort: 1d6 + helping Scouts - besieging Scouts >= 3; "
         "a caught messenger's ducats go to the besieger.",
         {"fort": Param(str, ref="pcs"),
          "ducats": Param(int, required=False, default=0, minimum=0,
                          help="ducats he carries from the defender's treasury (to recruit outside)"),
          "scouts": Param(list, required=False, default=[], help="the defender's Scout units helping"),
          "enemy_scouts": Param(list, required=False, default=None,
                                help="the besieger's Scout units opposing (default: all within range)"),
          "purpose": Param(str, required=False, default="", help="what the message is for")},
         category="siege", odds=_messenger_odds, stakes=_messenger_stakes, rolls=True)
def messenger(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    siege_id, siege, friendly, enemy = _messenger_scouts(world, p)
    defender = siege.get("defender")
    if not defender:
        raise CommandError("fort", "the fort is held by no kingdom: there is no treasury to send from")
    ctx.require_acts_for(kingdom=defender)
    treasury = float(world.get("kingdoms", defender).get("treasury", 0))
    if p["ducats"] > treasury:
        raise CommandError("ducats", f"{_name(world, 'kingdoms', defender)} has {_num(treasury)} ducats, "
                                     f"not {p['ducats']}")
    ctx.require_adjudicator(Stakes.of(defender, kingdoms=[defender, siege["besieger"]]))
    chance = rules.messenger_odds(len(friendly), len(enemy))["success"]
    outcome = rules.messenger(ctx.dice, len(friendly), len(enemy), p["ducats"])
    fort = _name(world, "pcs", p["fort"])
    verdict = "gets through" if outcome.success else "is caught"
    record = ctx.record_roll(f"messenger out of {fort}", [outcome.natural], outcome.total,
                             "success" if outcome.success else "failure", list(outcome.modifiers),
                             outcome=verdict)
    mods = "".join(f" {m.value:+d} ({m.reason})" for m in outcome.modifiers)
    carried = f" carrying {p['ducats']} ducats" if p["ducats"] else ""
    purpose = f" ({p['purpose'].strip()})" if p["purpose"].strip() else ""
    ctx.log(f"A messenger{carried} leaves besieged {fort}{purpose}: 1d6 = {outcome.natural}{mods}, total "
            f"{outcome.total} against 3: he {verdict}.", kind="siege", rolls=[record],
            refs={"siege": siege_id, "fort": p["fort"]})
    if not outcome.success and outcome.ducats_captured:
        ctx.move_ducats(("kingdoms", defender), ("kingdoms", siege["besieger"]), outcome.ducats_captured,
                        f"a messenger from {fort} caught with his ducats")
    attempt = {"date": _today(world), "ducats": p["ducats"], "purpose": p["purpose"], "scouts": friendly,
               "enemy_scouts": enemy, "natural": outcome.natural, "modifiers": _modifiers(outcome.modifiers),
               "total": outcome.total, "success": outcome.success, "odds": chance,
               "captured_ducats": _num(outcome.ducats_captured)}
    edited = world.edit("sieges", siege_id)
    edited["messengers"] = [*edited.get("messengers", []), attempt]
    return {"siege": siege_id, "natural": outcome.natural, "total": outcome.total, "success": outcome.success,
            "ducats_captured": _num(outcome.ducats_captured), "odds": chance,
            "outcome_text": f"messenger {verdict}"}


def _smuggle_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    odds = rules.smuggle_odds(p["bribe"], p["modifier"])
    return {"odds": odds, "success": odds["success"]}


def _smuggle_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    found = active_siege(world, _ref(world, "pcs", p.get("fort")) or "")
    siege = found[1] if found else {}
    merchant = _ref(world, "characters", p.get("merchant"))
    return Stakes.of(siege.get("defender"),
                     kingdoms=[siege.get("defender"), siege.get("besieger"),
                               world.kingdom_of_character(merchant) if merchant else None],
                     characters=[merchant])


@command("smuggle", "A merchant smuggles staple provisions into a besieged fort: 1d6 + bribe (+1/ducat, max +2) "
         "+ modifier >= 4; a success adds the shipments and pays the merchant.",
         {"fort": Param(str, ref="pcs"), "merchant": Param(str, ref="characters"),
          "shipments": Param(int, minimum=1), "bribe": Param(int, required=False, default=0, minimum=0,
                                                             help="ducats to a besieging NPC officer, spent anyway"),
          "modifier": Param(int, required=False, default=0, help="any other modifier, e.g. a smuggling ring"),
          "good": Param(str, required=False, default="Grain", help="an edible staple")},
         category="siege", odds=_smuggle_odds, stakes=_smuggle_stakes, rolls=True)
def smuggle(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    siege_id, siege = _effective_siege(world, p["fort"], "provisions")
    merchant = world.get("characters", p["merchant"])
    settings = _section("smuggle")
    if rules.normalise_kind(str(merchant.get("kind", ""))) not in _kinds("smuggle", "merchant_kinds"):
        raise CommandError("merchant", f"{merchant['name']} is not a merchant adventurer")
    if not merchant.get("alive", True):
        raise CommandError("merchant", f"{merchant['name']} is dead")
    staples = [str(s) for s in settings["staples"]]
    good = next((s for s in staples if s.lower() == p["good"].strip().lower()), None)
    if good is None:
        raise CommandError("good", f"{p['good']} is not an edible staple ({', '.join(staples)})")
    ctx.require_acts_for(kingdom=merchant.get("kingdom"), character=p["merchant"])
    if p["bribe"] > float(merchant.get("treasury", 0)):
        raise CommandError("bribe", f"{merchant['name']} has {_num(merchant.get('treasury', 0))} ducats, "
                                    f"not {p['bribe']}")
    defender = siege.get("defender")
    pay = p["shipments"] * float(settings["pay_per_shipment"])
    payer: Party | None = None
    if str(settings["payer"]) == "defender" and defender and pay:
        payer = ("kingdoms", defender)
        held = float(world.get("kingdoms", defender).get("treasury", 0))
        if held < pay:
            raise CommandError("shipments", f"{_name(world, 'kingdoms', defender)} has {_num(held)} ducats and could "
                                            f"not pay {_num(pay)} for {p['shipments']} shipment(s)")
    ctx.require_adjudicator(_smuggle_stakes(world, ctx.identity, p))
    chance = rules.smuggle_odds(p["bribe"], p["modifier"])["success"]
    outcome = rules.smuggle(ctx.dice, p["bribe"], p["modifier"], p["shipments"])
    fort = _name(world, "pcs", p["fort"])
    verdict = "gets through" if outcome.success else "is stopped"
    record = ctx.record_roll(f"smuggling {good} into {fort}", [outcome.natural], outcome.total,
                             "success" if outcome.success else "failure", list(outcome.modifiers), outcome=verdict)
    mods = "".join(f" {m.value:+d} ({m.reason})" for m in outcome.modifiers)
    ctx.log(f"{merchant['name']} smuggles {p['shipments']} shipment(s) of {good} into besieged {fort}: "
            f"1d6 = {outcome.natural}{mods}, total {outcome.total} against "
            f"{settings['threshold']}: the convoy {verdict}.", kind="siege", rolls=[record],
            refs={"siege": siege_id, "fort": p["fort"], "merchant": p["merchant"]})
    if p["bribe"]:
        ctx.move_ducats(("characters", p["merchant"]), None, p["bribe"], "a bribe to a besieging NPC officer")
    paid = 0.0
    edited = world.edit("sieges", siege_id)
    if outcome.success:
        edited["provisions"] = _num(float(edited["provisions"]) + outcome.provisions_added)
        if pay:
            ctx.move_ducats(payer, ("characters", p["merchant"]), pay,
                            f"{p['shipments']} shipment(s) of {good} smuggled into {fort} (military and staple "
                            f"demand)")
            paid = pay
    attempt = {"date": _today(world), "merchant": p["merchant"], "good": good, "shipments": p["shipments"],
               "bribe": p["bribe"], "modifier": p["modifier"], "natural": outcome.natural,
               "modifiers": _modifiers(outcome.modifiers), "total": outcome.total, "success": outcome.success,
               "odds": chance, "provisions_added": _num(outcome.provisions_added), "paid": _num(paid)}
    edited["smuggling"] = [*edited.get("smuggling", []), attempt]
    return {"siege": siege_id, "natural": outcome.natural, "total": outcome.total, "success": outcome.success,
            "provisions": edited["provisions"], "paid": _num(paid), "odds": chance,
            "outcome_text": f"smuggling {verdict}"}


# --- recruiting and upgrading under siege ----------------------------------------------------------

def recruit_refusal_at(world: World, pc_id: str | None) -> str | None:
    """The recruit hook for any area: why regiments cannot be raised at this structure now."""
    if not pc_id:
        return None
    found = active_siege(world, pc_id)
    besieged = found is not None and bool(found[1].get("effective"))
    refusal = rules.recruit_refusal(besieged)
    return f"{_name(world, 'pcs', pc_id)} is besieged: {refusal}" if refusal else None


def _size_for(regiments: int) -> str:
    settings = _section("recruit")
    for row in settings["sizes"]:
        if regiments <= int(row["max_regiments"]):
            return str(row["size"])
    return str(settings["top_size"])


@command("recruit", "Raise regiments at a structure the kingdom holds (refused inside a besieged fort).",
         {"kingdom": Param(str, ref="kingdoms"), "pc": Param(str, ref="pcs", help="where they are raised"),
          "kind": Param(str, help="infantry, cavalry, scout, raider, ..."),
          "regiments": Param(int, minimum=1), "name": Param(str, required=False, default=""),
          "size": Param(str, required=False, choices=SIZES, help="default: from the number of regiments")},
         category="warfare")
def recruit(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    pc = _pc(world, p["pc"])
    kingdom_id = p["kingdom"]
    ctx.require_acts_for(kingdom=kingdom_id)
    if pc.get("controller") != kingdom_id:
        raise CommandError("pc", f"{pc['name']} is not held by {_name(world, 'kingdoms', kingdom_id)}")
    refusal = recruit_refusal_at(world, p["pc"])
    if refusal:
        raise CommandError("pc", refusal)
    kind = rules.normalise_kind(p["kind"])
    if not kind:
        raise CommandError("kind", "is empty")
    settings = _section("recruit")
    cost = p["regiments"] * float(settings["cost_per_regiment"])
    manpower = p["regiments"] * int(settings["manpower_per_regiment"])
    kingdom = world.get("kingdoms", kingdom_id)
    if int(kingdom.get("manpower", 0)) < manpower:
        raise CommandError("regiments", f"{kingdom['name']} has {kingdom.get('manpower', 0)} manpower, "
                                        f"{manpower} are needed")
    unit_id = world.new_id("units", "u")
    unit: dict[str, Any] = {"name": p["name"].strip() or f"{pc['name']} {kind}", "owner": kingdom_id, "kind": kind,
                            "size": p["size"] or _size_for(p["regiments"]), "regiments": p["regiments"],
                            "hex": list(pc["hex"]), "raised": _today(world)}
    if is_walled(pc):
        unit["inside"] = p["pc"]
    world.put("units", unit_id, unit)
    world.edit("kingdoms", kingdom_id)["manpower"] = int(kingdom.get("manpower", 0)) - manpower
    ctx.log(f"{kingdom['name']} raises {unit['name']} ({p['regiments']} {kind} regiment(s)) at {pc['name']}.",
            kind="recruit", refs={"unit": unit_id, "pc": p["pc"], "kingdom": kingdom_id, "manpower": manpower})
    if cost:
        ctx.move_ducats(("kingdoms", kingdom_id), None, cost, f"recruiting {unit['name']}")
    return {"unit": unit_id, "cost": _num(cost), "manpower": manpower}


@command("upgrade", "Record an upgrade of a unit's regiments (allowed even inside a besieged fort).",
         {"unit": Param(str, ref="units"), "upgrade": Param(str, help="what is upgraded"),
          "cost": Param(int, required=False, default=0, minimum=0, help="ducats paid by the owner")},
         category="warfare")
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
    edited["upgrades"] = [*(edited.get("upgrades") or []),
                          {"date": _today(world), "note": p["upgrade"].strip(), "cost": p["cost"]}]
    where = f" inside besieged {_name(world, 'pcs', inside)}" if found else ""
    ctx.log(f"{unit['name']} ({_name(world, 'kingdoms', owner)}) upgraded{where}: {p['upgrade'].strip()}.",
            kind="recruit", refs={"unit": p["unit"]})
    if p["cost"]:
        ctx.move_ducats(("kingdoms", owner), None, p["cost"], f"upgrading {unit['name']}")
    return {"unit": p["unit"], "besieged": found is not None}


# --- year start and the dashboard ------------------------------------------------------------------

@year_start_step("expiries")
def _clear_looted_income(ctx: CommandContext, report: StepReport) -> None:
    """After the business-income step (which pays and clears `income_looted_by`), the marks of this
    year or older are spent."""
    world = ctx.world
    year = world.date.year
    for bid, biz in sorted(world.all("businesses")):
        if "income_looted_for" in biz and (not biz.get("income_looted_by")
                                           or int(biz.get("income_looted_for") or year) <= year):
            edited = world.edit("businesses", bid)
            edited.pop("income_looted_by", None)
            edited.pop("income_looted_for", None)
            report.add("looted incomes spent", 1)


@due_reporter
def _due_sieges(world: World) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for sid, siege in sorted(world.all("sieges")):
        if siege.get("status") != ACTIVE:
            continue
        info = siege_summary(world, sid)
        besieger = _name(world, "kingdoms", siege["besieger"])
        if info["decision_needed"]:
            items.append({"kind": "siege-decision", "urgent": True, "audience": PUBLIC, "siege": sid,
                          "text": f"{info['fort_name']} (besieged by {besieger}) has {info['provisions']} provisions "
                                  f"for {info['regiments']} regiments: the defenders must choose surrender or sally "
                                  f"before the season closes (siege-decide)"})
        elif not info["effective"]:
            items.append({"kind": "siege", "urgent": False, "audience": PUBLIC, "siege": sid,
                          "text": f"Siege of {info['fort_name']} by {besieger} not yet in effect: "
                                  f"{info['blockade_missing']}"})
        else:
            left = info["seasons_left"]
            rate = "no regiment inside eats" if left is None else f"{left} season(s) left at this rate"
            items.append({"kind": "siege", "urgent": False, "audience": PUBLIC, "siege": sid,
                          "text": f"Siege of {info['fort_name']} by {besieger}: {info['provisions']} provisions, "
                                  f"{info['regiments']} regiments inside, {rate}"})
    for pid, province in sorted(world.all("provinces")):
        for event in province.get("unrest") or []:
            if _is_today(world, event.get("date")):
                items.append({"kind": "unrest", "urgent": False, "audience": ADJUDICATORS, "province": pid,
                              "text": f"Unrest in {province['name']} to adjudicate: {event.get('amount')} manpower "
                                      f"turned into {str(event.get('cause', '')).capitalize()}"})
    return items


def siege_view(world: World) -> list[dict[str, Any]]:
    """Every siege, active first, as the siege monitor renders it."""
    rows = [{**siege_summary(world, sid), "doc": copy.deepcopy(s)} for sid, s in sorted(world.all("sieges"))]
    return sorted(rows, key=lambda row: (row["status"] != ACTIVE, row["id"]))
