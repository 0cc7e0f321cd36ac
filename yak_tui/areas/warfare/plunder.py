"""Taking a place and what follows (RULINGS §2): capture, razing, looting and dismantling.

Every ducat moves through `ctx.move_ducats`; the arithmetic is in `yak_tui.areas.warfare.rules`.
State it writes: `pcs.<id>`: `captured_by`, `captured`, `captured_from`, `captured_owner`,
`looted` {by, date, capture, tax, treasuries, businesses}, `destroyed` (date);
`businesses.<id>`: `income_looted_by`, `income_looted_for`.
"""

from __future__ import annotations

from typing import Any

from yak_tui.areas.warfare import rules
from yak_tui.areas.warfare.shared import (
    Party,
    active_siege,
    add_tax_taken,
    end_siege,
    garrison_of,
    kinds,
    kingdom_of_party,
    name_of,
    party_key,
    ref_id,
    require_at,
    section,
    standing_pc,
    today_dict,
    unit_doc,
    unit_regiments,
)
from yak_tui.areas.warfare.sponsored import is_irregular
from yak_tui.areas.warfare.treasuries import exposed_treasuries
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import KING, SEATS, CommandContext, CommandError, Param, command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.authoring import referrers
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import ducats, money


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
    if is_irregular(captor):
        raise CommandError(
            "unit",
            f"{unit['name']} belong to no kingdom that could hold {pc['name']}: a band raids it (raid), and the "
            "GM records any other plunder of theirs with loot-share",
        )
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
    parts = [f"{ducats(tax_loot)} of tax"]
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
        "outcome_text": f"looted {pc['name']}: {ducats(total)}",
    }


@command(
    "dismantle",
    lambda: (
        f"Dismantle a business for floor(invested/{section('dismantle')['divisor']}) ducats: "
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
