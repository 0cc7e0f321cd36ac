"""Crossing the siege lines (RULINGS §3): messengers sent out of a besieged fort, provisions
smuggled in by a merchant.
"""

from __future__ import annotations

from typing import Any

from yak_tui.areas.espionage import smuggling_bonus
from yak_tui.areas.warfare import rules, siege_rules
from yak_tui.areas.warfare.shared import (
    Party,
    active_siege,
    doc_distance,
    is_scout,
    kinds,
    name_of,
    ref_id,
    require_at,
    section,
    today_dict,
)
from yak_tui.areas.warfare.sieges import siege_of
from yak_tui.kernel.errors import ShortfallError
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import KING, SEATS, CommandContext, CommandError, Param, command
from yak_tui.kernel.play.dice import Modifier
from yak_tui.kernel.play.helptext import signed
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import ValidationError, World
from yak_tui.kernel.world.money import ducats, money
from yak_tui.kernel.world.numbers import counted
from yak_tui.kernel.world.tables import table


def _effective_siege(world: World, fort_id: str, what: str) -> tuple[str, dict[str, Any]]:
    siege_id, siege = siege_of(world, fort_id)
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
    odds = siege_rules.messenger_odds(len(friendly), len(enemy))
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
            "ducats", f"{name_of(world, 'kingdoms', defender)} has {ducats(treasury)}, not {p['ducats']}"
        )
    ctx.require_adjudicator(Stakes.of(defender, kingdoms=[defender, siege["besieger"]]))
    chance = siege_rules.messenger_odds(len(friendly), len(enemy))["success"]
    outcome = siege_rules.messenger(ctx.dice_for(), len(friendly), len(enemy), p["ducats"])
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
        reading=_threshold_reading(
            outcome.natural, mods, outcome.total, section("messenger")["threshold"], f"he {verdict}"
        ),
    )
    carried = f" carrying {ducats(p['ducats'])}" if p["ducats"] else ""
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
    if bribe > siege_rules.bribe_limit():
        raise CommandError(
            "bribe",
            f"is at most {ducats(siege_rules.bribe_limit())}: each ducat to a besieging NPC officer "
            f"gives {signed(settings['bribe_per_ducat'])}, up to {signed(settings['bribe_cap'])}, "
            f"so {bribe} would buy nothing more",
        )


def _smuggle_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    odds = siege_rules.smuggle_odds(p["bribe"], _smuggle_modifiers(world, p, identity))
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
        raise ShortfallError("bribe", f"{merchant['name']} has {ducats(merchant.get('treasury', 0))}, not {p['bribe']}")
    defender = siege.get("defender")
    pay = p["shipments"] * float(settings["pay_per_shipment"])
    payer: Party | None = None
    if str(settings["payer"]) == "defender" and defender and pay:
        payer = ("kingdoms", defender)
        held = float(world.get("kingdoms", defender).get("treasury", 0))
        if held < pay:
            raise CommandError(
                "shipments",
                f"{name_of(world, 'kingdoms', defender)} has {ducats(held)} and could "
                f"not pay {money(pay)} for {counted(p['shipments'], 'shipment')}",
            )
    ctx.require_adjudicator(_smuggle_stakes(world, ctx.identity, p))
    modifiers = _smuggle_modifiers(world, p)
    chance = siege_rules.smuggle_odds(p["bribe"], modifiers)["success"]
    outcome = siege_rules.smuggle(ctx.dice_for(), p["bribe"], modifiers, p["shipments"])
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
        reading=_threshold_reading(
            outcome.natural, mods, outcome.total, settings["threshold"], f"the convoy {verdict}"
        ),
    )
    ctx.log(
        f"{merchant['name']} smuggles {counted(p['shipments'], 'shipment')} of {good} into besieged {fort}: "
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
                f"{counted(p['shipments'], 'shipment')} of {good} smuggled into {fort} (military and staple demand)",
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


def _threshold_reading(natural: int, mods: str, total: int, threshold: Any, result: str) -> str:
    """A one-die roll against a threshold as its die reads it (messenger, smuggling):
    "rolled 4 +1 (bribe) = 5, needing 4 or more → the convoy gets through"."""
    return f"rolled {natural}{mods} = {total}, needing {threshold} or more → {result}"
