"""Raids, slave raids, capture, destruction, looting and dismantling (RULINGS §2), and where
treasuries live.

This module validates, rolls with `ctx.dice`, moves every ducat through `ctx.move_ducats`, and
writes the chronicle; the arithmetic is in `yak_tui.areas.warfare.rules`.

State it owns (for the screens and the other areas):

- `pcs.<id>`: `raided_in` (date of the last raid), `raided_by`, `last_raid`, `tax_taken` (ducats of
  the coming tax already taken by raids and looting; the year-start tax step subtracts and resets
  it), `captured_by`, `captured`, `captured_from`, `captured_owner`, `looted` {by, date, capture,
  tax, treasuries, businesses}, `destroyed` (date), `holds_treasury_of` (["kingdoms:<id>",
  "characters:<id>"]: explicit treasury places).
- `businesses.<id>`: `income_looted_by` (a bare kingdom id) and `income_looted_for` (the year whose
  year-start income is looted). The economy's business-income step pays that income to the looter
  and sets `income_looted_by` to None; `looted_income_recipient` answers the same question, and
  the warfare `expiries` step (year_start.py) drops spent marks.
- `kingdoms.<id>.goods`: {"Slaves": n} from slave raids and conversions.
- `provinces.<id>.unrest`: [{date, cause, amount}] raised by `convert-slaves`.
"""

from __future__ import annotations

from typing import Any

from yak_tui.areas.warfare import rules
from yak_tui.areas.warfare.shared import (
    Party,
    active_siege,
    add_goods,
    add_tax_taken,
    coming_tax_left,
    end_siege,
    garrison_of,
    is_today,
    is_walled,
    kinds,
    kingdom_of_party,
    name_of,
    party_key,
    ref_id,
    require_at,
    section,
    standing_pc,
    structure_owner,
    today_dict,
    unit_doc,
    unit_regiments,
)
from yak_tui.kernel.errors import ShortfallError
from yak_tui.kernel.play.audience import PUBLIC, character_audience, kingdom_audience
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import KING, SEATS, CommandContext, CommandError, Param, command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.authoring import referrers
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import money
from yak_tui.kernel.world.tables import table

# --- where treasuries live (RULINGS §2) ----------------------------------------------------------


def treasury_place(world: World, party: Party) -> str | None:
    """The pc id holding this kingdom's or citizen's treasury, or None when it is carried.

    Kingdoms: the structure naming it in `holds_treasury_of`, else the capital. Citizens: a vault
    (`characters.<id>.vault` or an explicit `holds_treasury_of`), else the rules' choice among the
    towns, markets and businesses he owns (a structure captured from him counts until it is
    looted: his treasury is still inside), else his town of residence, else carried."""
    table_name, doc_id = party
    key = party_key(party)
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
            owned.append(
                rules.OwnedStructure(
                    f"pcs:{pid}",
                    str(pc["kind"]),
                    bool(pc.get("capital")),
                    float(pc.get("size", pc.get("tax", 0)) or 0),
                    int(pc.get("fort_level", 0) or 0),
                )
            )
    for bid, biz in sorted(world.all("businesses")):
        if biz.get("owner") == doc_id:
            home = world.find("pcs", biz.get("pc"))
            owned.append(
                rules.OwnedStructure(
                    f"businesses:{bid}",
                    "business",
                    False,
                    float(biz.get("size", 0)),
                    int((home or {}).get("fort_level", 0) or 0),
                )
            )
    where = rules.treasury_location(owned, char.get("residence"), vault)
    if where is None:
        return None
    kind, _, ident = where.partition(":")
    if kind == "businesses":
        return (world.find("businesses", ident) or {}).get("pc")
    if kind == "pcs":
        return ident
    return where


@command(
    "vault-set",
    "Choose where a treasury is kept: a King his kingdom's, in a place it controls; "
    "a citizen his own, in a place of his kingdom or one he owns. No place: the rules' choice.",
    {
        "pc": Param(str, required=False, ref="pcs", help="the vault (empty: the capital, or the rules' choice)"),
        "kingdom": Param(str, required=False, ref="kingdoms", help="the kingdom whose treasury moves (a King's own)"),
        "character": Param(
            str, required=False, ref="characters", help="the citizen whose treasury moves (a player's own)"
        ),
    },
    category="warfare",
    filed_by=SEATS,
)
def vault_set(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    """What a King or a citizen asked the GM to `gm-set` before: his own vault, told to him alone
    (where a treasury lies is what a raider wants to know)."""
    world = ctx.world
    principal = ctx.principal
    kingdom, character = p["kingdom"], p["character"]
    if kingdom and character:
        raise CommandError("character", "name the kingdom or the citizen whose treasury moves, not both")
    if not kingdom and not character:
        if principal.is_king:
            kingdom = principal.subject
        elif principal.is_player:
            character = principal.subject
        else:
            raise CommandError("kingdom", "name the kingdom or the citizen whose treasury moves")
    ctx.require_acts_for(kingdom=kingdom, character=character)
    party: Party = ("kingdoms", kingdom) if kingdom else ("characters", character)
    own_kingdom = kingdom or world.kingdom_of_character(character)
    place = p["pc"]
    if place:
        pc = world.get("pcs", place)
        if pc.get("destroyed"):
            raise CommandError("pc", f"{pc['name']} is destroyed: no vault there")
        if pc.get("controller") != own_kingdom and not (character and pc.get("owner_character") == character):
            raise CommandError(
                "pc",
                f"{pc['name']} is not held by {world.display_name('kingdoms', own_kingdom)}"
                + ("" if kingdom else " nor owned by " + world.display_name("characters", character)),
            )
    key = party_key(party)
    for pc_id, pc in sorted(world.all("pcs")):
        if key in (pc.get("holds_treasury_of") or []) and pc_id != place:
            edited = world.edit("pcs", pc_id)
            edited["holds_treasury_of"] = [holder for holder in edited["holds_treasury_of"] if holder != key]
    if kingdom and place:
        edited = world.edit("pcs", place)
        if key not in (edited.get("holds_treasury_of") or []):
            edited["holds_treasury_of"] = [*(edited.get("holds_treasury_of") or []), key]
    if character:
        world.edit("characters", character)["vault"] = place or None
    now = treasury_place(world, party)
    where = world.display_name("pcs", now) if now else "carried"
    owner = world.display_name(*party)
    chosen = "kept in a vault at" if place else "back where the rules keep it:"
    audience = kingdom_audience(kingdom) if kingdom else character_audience(str(character))
    ctx.log(
        f"The treasury of {owner} is now {chosen} {where}.",
        kind="treasury",
        audience=audience,
        refs={"party": key, "pc": now},
    )
    return {"party": key, "vault": place or None, "kept_at": now}


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
    unit = world.find("units", ref_id(world, "units", p.get("unit")))
    pc = world.find("pcs", ref_id(world, "pcs", p.get("pc")))
    controller = (pc or {}).get("controller")
    return Stakes.of(
        controller, kingdoms=[(unit or {}).get("owner"), controller], characters=[(pc or {}).get("owner_character")]
    )


def _check_raid(ctx: CommandContext, unit_id: str, pc_id: str) -> tuple[dict[str, Any], dict[str, Any], str]:
    """Everything a raid (ducats or slaves) must pass before its die is rolled."""
    world = ctx.world
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
    require_at(world, "unit", unit_id, unit, pc, int(section("world")["raid_range"]), "a raid")
    garrisoned = bool(garrison_of(world, pc_id, besides=raider))
    refusal = rules.raid_refusal(
        str(pc["kind"]), str(unit["kind"]), bool(pc.get("coastal")), garrisoned, is_walled(pc), False
    )
    if refusal:
        raise CommandError("unit", f"{unit['name']} ({unit['kind']}): {refusal}")
    ctx.require_adjudicator(
        Stakes.of(pc.get("controller"), kingdoms=[raider, pc.get("controller")], characters=[pc.get("owner_character")])
    )
    return unit, pc, raider


def _mark_raided(world: World, pc_id: str, raider: str, kind: str, amount: float) -> None:
    pc = world.edit("pcs", pc_id)
    pc["raided_in"] = today_dict(world)
    pc["raided_by"] = raider
    pc["last_raid"] = {"date": today_dict(world), "by": raider, "kind": kind, "amount": money(amount)}


RAID_PARAMS = {
    "unit": Param(str, ref="units", help="the raiding unit, in the structure's hex"),
    "pc": Param(str, ref="pcs", help="the structure raided"),
}


def _warfare(section: str, key: str) -> Any:
    """One number of the loaded warfare table, for the help lines."""
    return table("warfare")[section][key]


@command(
    "raid",
    lambda: (
        f"Raid a structure for 1d{_warfare('raid', 'die')} ducats: the owner's treasury first, then its coming tax."
    ),
    RAID_PARAMS,
    category="warfare",
    stakes=_raid_stakes,
    rolls=True,
    filed_by=SEATS,
)
def raid(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    unit, pc, raider = _check_raid(ctx, p["unit"], p["pc"])
    owner = structure_owner(pc)
    treasury = float(world.get(*owner).get("treasury", 0)) if owner else 0.0
    outcome = rules.ducat_raid(ctx.dice_for(), treasury, coming_tax_left(pc))
    split = outcome.split
    text = (
        f"{money(split.taken)} ducats ({money(split.from_treasury)} from the treasury, "
        f"{money(split.from_tax)} from the coming tax)"
    )
    record = ctx.record_roll(
        f"ducat raid on {pc['name']}",
        [outcome.natural],
        outcome.natural,
        "raid",
        outcome=f"took {text}",
        reading=f"d6 rolled {outcome.natural}: {outcome.natural} ducats wanted → took {text}",
    )
    ctx.log(
        f"{unit['name']} ({name_of(world, 'kingdoms', raider)}) raid {pc['name']}: 1d6 = {outcome.natural}; "
        f"they take {text}.",
        kind="raid",
        rolls=[record],
        refs={"pc": p["pc"], "unit": p["unit"], "kingdom": raider},
    )
    target = ("kingdoms", raider)
    if split.from_treasury and owner is not None:
        ctx.move_ducats(owner, target, split.from_treasury, f"raid on {pc['name']}")
    if split.from_tax:
        add_tax_taken(world, p["pc"], split.from_tax)
        ctx.move_ducats(None, target, split.from_tax, f"raid on {pc['name']}, taken from its coming tax")
    _mark_raided(world, p["pc"], raider, "ducats", split.taken)
    return {
        "natural": outcome.natural,
        "taken": money(split.taken),
        "from_treasury": money(split.from_treasury),
        "from_tax": money(split.from_tax),
        "owner": party_key(owner) if owner else None,
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
    unit, pc, raider = _check_raid(ctx, p["unit"], p["pc"])
    province_id = str(pc["province"])
    surplus = int(world.get("provinces", province_id).get("surplus_manpower", 0))
    outcome = rules.slave_raid(ctx.dice_for(), surplus)
    taken = outcome.manpower
    as_what = "manpower" if p["take"] == "manpower" else "Slaves"
    wanted = rules.slaves_wanted(outcome.natural)
    cap = f", capped at the surplus of {surplus}" if taken < wanted else ""
    record = ctx.record_roll(
        f"slave raid on {pc['name']}",
        [outcome.natural],
        outcome.natural,
        "slave-raid",
        outcome=f"{taken} {as_what}",
        reading=(f"d6 rolled {outcome.natural}, halved rounding up = {wanted}{cap} → {taken} {as_what}"),
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


# --- capture, destruction, looting, dismantling -----------------------------------------------------


def take_structure(ctx: CommandContext, pc_id: str, captor: str) -> dict[str, Any]:
    """The structure changes hands: the captor controls it, its academies follow, a siege ends."""
    world = ctx.world
    pc = world.edit("pcs", pc_id)
    previous = pc.get("controller")
    pc["controller"] = captor
    pc["captured_by"] = captor
    pc["captured"] = today_dict(world)
    pc["captured_from"] = previous
    if pc.get("owner_character"):
        pc["captured_owner"] = pc.pop("owner_character")
    academies = []
    for aid, academy in sorted(world.all("academies")):
        if academy.get("pc") == pc_id and academy.get("kingdom") != captor:
            world.edit("academies", aid)["kingdom"] = captor
            academies.append(aid)
            ctx.log(
                f"The {academy.get('type', '')} academy of {pc['name']} (level {academy.get('level', 1)}) goes "
                f"to {name_of(world, 'kingdoms', captor)}.",
                kind="capture",
                refs={"academy": aid, "pc": pc_id},
            )
    siege = active_siege(world, pc_id)
    if siege is not None:
        end_siege(world, siege[0], "captured")
    return {"from": previous, "academies": academies}


def _destroy(ctx: CommandContext, pc_id: str) -> list[str]:
    """A destroyed town yields no tax, has no walls, and its academies are destroyed."""
    world = ctx.world
    pc = world.edit("pcs", pc_id)
    pc["destroyed"] = today_dict(world)
    pc["destroyed_from"] = {
        "tax": pc.get("tax", 0),
        "fort_level": pc.get("fort_level", 0),
        "walled": bool(pc.get("walled")),
    }
    pc["tax"] = 0
    pc["fort_level"] = 0
    pc["walled"] = False
    gone = []
    for aid, academy in sorted(world.all("academies")):
        if academy.get("pc") == pc_id:
            world.delete("academies", aid)
            gone.append(aid)
            ctx.log(
                f"The {academy.get('type', '')} academy of {pc['name']} is destroyed with its town.",
                kind="capture",
                refs={"academy": aid, "pc": pc_id},
            )
    ctx.log(f"{pc['name']} is destroyed.", kind="capture", refs={"pc": pc_id})
    return gone


def _capture_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    unit = world.find("units", ref_id(world, "units", p.get("unit")))
    pc = world.find("pcs", ref_id(world, "pcs", p.get("pc")))
    controller = (pc or {}).get("controller")
    return Stakes.of(
        controller, kingdoms=[(unit or {}).get("owner"), controller], characters=[(pc or {}).get("owner_character")]
    )


@command(
    "capture",
    "A hostile unit takes a structure (after the GM's battle); academies go to the captor.",
    {
        "pc": Param(str, ref="pcs", help="the structure taken"),
        "unit": Param(str, ref="units", help="the capturing unit, in the structure's hex"),
        "garrison": Param(
            str,
            required=False,
            choices=("destroyed", "fled"),
            help="what became of a garrison still inside (required if there is one)",
        ),
        "destroy": Param(bool, required=False, default=False, help="raze the town (its academies too)"),
    },
    category="warfare",
    stakes=_capture_stakes,
    filed_by=SEATS,
)
def capture(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    pc = standing_pc(world, p["pc"])
    unit = unit_doc(world, p["unit"])
    captor = str(unit["owner"])
    ctx.require_acts_for(kingdom=captor, character=unit.get("commander"))
    if captor == pc.get("controller"):
        raise CommandError(
            "unit",
            f"{unit['name']} belongs to {name_of(world, 'kingdoms', captor)}, which already "
            f"holds {pc['name']}; only a hostile force captures",
        )
    require_at(world, "unit", p["unit"], unit, pc, int(section("world")["raid_range"]), "a capture")
    garrison = garrison_of(world, p["pc"], besides=captor)
    if garrison and not p["garrison"]:
        names = ", ".join(f"{u['name']} ({unit_regiments(u)} regiments)" for _, u in garrison)
        raise CommandError(
            "garrison",
            f"{pc['name']} still holds {names}: say whether they were destroyed or "
            f"fled (garrison=destroyed|fled) after the battle",
        )
    ctx.require_adjudicator(_capture_stakes(world, ctx.identity, p))
    for uid, gunit in garrison:
        if p["garrison"] == "destroyed" and referrers(world.data, "units", uid):  # named still: kept, empty
            world.edit("units", uid).update(regiments=0, inside=None)
        elif p["garrison"] == "destroyed":
            world.delete("units", uid)
        else:
            world.edit("units", uid)["inside"] = None
        ctx.log(
            f"{gunit['name']} ({name_of(world, 'kingdoms', gunit.get('owner'))}) "
            f"{'is destroyed' if p['garrison'] == 'destroyed' else 'flees'} as {pc['name']} falls.",
            kind="capture",
            refs={"unit": uid, "pc": p["pc"]},
        )
    taken = take_structure(ctx, p["pc"], captor)
    ctx.log(
        f"{unit['name']} ({name_of(world, 'kingdoms', captor)}) capture {pc['name']} from "
        f"{name_of(world, 'kingdoms', taken['from'])}.",
        kind="capture",
        refs={"pc": p["pc"], "unit": p["unit"], "kingdom": captor},
    )
    destroyed = _destroy(ctx, p["pc"]) if p["destroy"] else None
    return {
        "pc": p["pc"],
        "captor": captor,
        "from": taken["from"],
        "academies": taken["academies"],
        "destroyed": destroyed is not None,
        "academies_destroyed": destroyed or [],
        "outcome_text": f"{pc['name']} captured by {name_of(world, 'kingdoms', captor)}",
    }


@command(
    "raze",
    "Destroy a structure its holder controls; its academies are destroyed with it.",
    {"pc": Param(str, ref="pcs")},
    category="warfare",
    filed_by=KING,
)
def raze(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    pc = standing_pc(ctx.world, p["pc"])
    if not pc.get("controller"):
        raise CommandError("pc", f"{pc['name']} is held by no kingdom; capture it first")
    ctx.require_acts_for(kingdom=pc["controller"])
    if active_siege(ctx.world, p["pc"]) is not None:
        raise CommandError("pc", f"{pc['name']} is under siege; end the siege first")
    gone = _destroy(ctx, p["pc"])
    return {"pc": p["pc"], "academies_destroyed": gone}


@command(
    "loot",
    "Loot a structure captured by a hostile force: its coming tax less raids, half of every "
    "treasury kept there, and next year's income of its businesses.",
    {"pc": Param(str, ref="pcs")},
    category="warfare",
    filed_by=KING,
)
def loot(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    pc = standing_pc(world, p["pc"])
    looter = pc.get("captured_by")
    hostile = bool(looter) and looter == pc.get("controller") and looter != pc.get("captured_from")
    refusal = rules.loot_refusal(str(pc["kind"]), hostile)
    if refusal:
        raise CommandError("pc", refusal)
    looter = str(looter)
    ctx.require_acts_for(kingdom=looter)
    done = pc.get("looted") or {}
    if done and done.get("capture") == pc.get("captured"):
        raise CommandError(
            "pc", f"{pc['name']} was already looted after its capture in {GameDate.from_dict(pc['captured']).label()}"
        )
    target = ("kingdoms", looter)
    tax = float(pc.get("tax", 0))
    raided = float(pc.get("tax_taken", 0) or 0)
    tax_loot = rules.loot(tax, raided, False, 0).tax_taken
    if tax_loot:
        add_tax_taken(world, p["pc"], tax_loot)
        ctx.move_ducats(None, target, tax_loot, f"looting {pc['name']}: its coming tax less raids")
    treasuries: dict[str, int] = {}
    for party in exposed_treasuries(world, p["pc"]):
        if kingdom_of_party(world, party) == looter:
            continue
        held = float(world.get(*party).get("treasury", 0))
        half = rules.loot(0, 0, True, held).treasury_taken
        treasuries[party_key(party)] = half
        if half:
            ctx.move_ducats(party, target, half, f"looting {pc['name']}: half the treasury kept there")
    businesses: list[str] = []
    if rules.normalise_kind(str(pc["kind"])) in kinds("world", "business_loot_kinds"):
        for bid, _ in sorted(world.all("businesses")):
            if world.get("businesses", bid).get("pc") == p["pc"]:
                biz = world.edit("businesses", bid)
                biz["income_looted_by"] = looter
                biz["income_looted_for"] = world.date.year + 1
                businesses.append(bid)
    record = {
        "by": looter,
        "date": today_dict(world),
        "capture": pc.get("captured"),
        "tax": money(tax_loot),
        "treasuries": treasuries,
        "businesses": businesses,
    }
    world.edit("pcs", p["pc"])["looted"] = record
    parts = [f"{money(tax_loot)} ducats of tax"]
    parts += [f"{half} from {name_of(world, *party.split(':', 1))}'s treasury" for party, half in treasuries.items()]
    if businesses:
        parts.append(f"next year's income of {', '.join(name_of(world, 'businesses', b) for b in businesses)}")
    ctx.log(
        f"{name_of(world, 'kingdoms', looter)} loots {pc['name']}: {'; '.join(parts)}.",
        kind="loot",
        refs={"pc": p["pc"], "kingdom": looter},
    )
    total = tax_loot + sum(treasuries.values())
    return {
        "pc": p["pc"],
        "looter": looter,
        "tax": money(tax_loot),
        "treasuries": treasuries,
        "businesses": businesses,
        "ducats": money(total),
        "outcome_text": f"looted {pc['name']}: {money(total)} ducats",
    }


@command(
    "dismantle",
    lambda: (
        f"Dismantle a business for floor(invested/{_warfare('dismantle', 'divisor')}) ducats: "
        "by its owner, or by the enemy who captured its town (give captor=KINGDOM)."
    ),
    {
        "business": Param(str, ref="businesses"),
        "captor": Param(str, required=False, ref="kingdoms", help="the capturing kingdom, if not the owner"),
    },
    category="warfare",
    filed_by=KING,
)
def dismantle(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz = world.get("businesses", p["business"])
    owner = str(biz["owner"])
    if p["captor"] is None:
        ctx.require_acts_for(character=owner)
        receiver: Party = ("characters", owner)
    else:
        home = world.find("pcs", biz.get("pc"))
        captured = (
            home is not None
            and home.get("captured_by") == p["captor"]
            and home.get("controller") == p["captor"]
            and world.kingdom_of_character(owner) != p["captor"]
        )
        refusal = rules.dismantle_refusal(by_owner=False, captured_by_actor=captured)
        if refusal:
            where = home["name"] if home else "no town"
            raise CommandError(
                "captor", f"{name_of(world, 'kingdoms', p['captor'])} has not captured {where}: {refusal}"
            )
        ctx.require_acts_for(kingdom=p["captor"])
        receiver = ("kingdoms", p["captor"])
    # The economy removes the business (its goods go to the owner, a monopoly lapses) and pays.
    from yak_tui.areas.economy import dismantle_business

    value = dismantle_business(ctx, p["business"], receiver, f"dismantled by {name_of(world, *receiver)}")
    return {"business": p["business"], "ducats": value, "to": party_key(receiver)}
