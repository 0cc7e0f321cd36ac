"""Businesses: the sectors' Potentials, opening, expanding and competition, sale, dismantling and
the business tax (RULINGS §5); monopolies and production have their own modules."""

from __future__ import annotations

from typing import Any

from yak_tui.areas.economy import rules
from yak_tui.areas.economy.rules import Rival
from yak_tui.areas.economy.shared import (
    OPEN_DEBT,
    _add_goods,
    _business,
    _char,
    _character_parties,
    _name,
    _owner_kingdom,
    _party_audience,
    _province_kingdom,
    _require_witness,
)
from yak_tui.kernel.play.audience import PUBLIC, character_audience
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import KING, SEATS, CommandContext, CommandError, Param, command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import SECTORS, World
from yak_tui.kernel.world.money import ducats, money
from yak_tui.kernel.world.numbers import counted
from yak_tui.kernel.world.tables import table as rules_table


def effective_potentials(world: World, province_id: str) -> dict[str, int]:
    """The province's Potentials after monopoly penalties (never below 0)."""
    province = world.get("provinces", province_id)
    base = {k: int(v) for k, v in province.get("potentials", {}).items()}
    for key, penalty in province.get("potential_penalties", {}).items():
        base[key] = max(0, base.get(key, 0) + int(penalty))
    return base


def sector_businesses(world: World, province_id: str, sector: str) -> list[tuple[str, dict[str, Any]]]:
    """Every business of a sector in a province, in the order the world keeps them."""
    return world.where("businesses", province=province_id, sector=sector)


def sector_usage(world: World, province_id: str) -> dict[str, dict[str, int | bool]]:
    """Per sector: Potential, Size used, room left and whether expanding means competition."""
    potentials = effective_potentials(world, province_id)
    used = dict.fromkeys(SECTORS, 0)
    for _, biz in world.where("businesses", province=province_id):
        if biz.get("sector") in used:
            used[biz["sector"]] += int(biz.get("size", 0))
    out: dict[str, dict[str, int | bool]] = {}
    for sector in SECTORS:
        potential = int(potentials.get(sector, 0))
        out[sector] = {
            "potential": potential,
            "used": used[sector],
            "room": rules.sector_room(potential, used[sector]),
            "full": rules.needs_competition(potential, used[sector]),
        }
    return out


def business_income_preview(world: World, business_id: str) -> dict[str, Any]:
    """What a business will earn at year start: Size, the state's rate and cut, and the income."""
    biz = _business(world, business_id)
    state = _province_kingdom(world, biz["province"])
    rate = _tax_rate(world, state)
    size = int(biz.get("size", 0))
    return {
        "size": size,
        "state": state,
        "rate": rate,
        "tax": rules.business_tax(size, rate),
        "income": rules.business_income(size, rate),
        "looted_by": biz.get("income_looted_by"),
    }


def _tax_rate(world: World, state: str | None) -> int:
    if state is None:
        return 0
    kingdom = world.find("kingdoms", state) or {}
    return int(kingdom.get("business_tax", 0))


def _recompute_penalties(ctx: CommandContext, province_id: str) -> dict[str, int]:
    """A province's potential penalties are the sum over its monopolies (recomputed, not patched)."""
    penalties: dict[str, int] = {}
    for _, biz in ctx.world.all("businesses"):
        if biz.get("province") == province_id and biz.get("monopoly"):
            for key, value in rules.monopoly_penalties(biz["monopoly"]).items():
                if value:
                    penalties[key] = penalties.get(key, 0) + value
    province = ctx.world.get("provinces", province_id)
    if penalties != province.get("potential_penalties", {}):
        ctx.world.edit("provinces", province_id)["potential_penalties"] = penalties
    return penalties


def _remove_business(ctx: CommandContext, business_id: str, why: str) -> None:
    """A business at Size 0 or dismantled is gone; its goods go to the owner, its monopoly lapses."""
    world = ctx.world
    biz = _business(world, business_id)
    owner = biz["owner"]
    goods: dict[str, int] = {}
    for field in ("stock", "warehouse"):
        for good, qty in biz.get(field, {}).items():
            goods[good] = goods.get(good, 0) + int(qty)
    if goods and world.find("characters", owner) is not None:
        holder = world.edit("characters", owner)
        for good, qty in goods.items():
            _add_goods(holder, "goods", good, qty)
    world.delete("businesses", business_id)
    if biz.get("monopoly"):
        _recompute_penalties(ctx, biz["province"])
    detail = f"; its goods ({_goods_text(goods)}) go to {_name(world, 'characters', owner)}" if goods else ""
    ctx.log(
        f"{biz['name']} ({_name(world, 'provinces', biz['province'])}) is gone: {why}{detail}.",
        kind="business",
        refs={"business": business_id, "removed": True, "goods": goods},
    )


def _goods_text(goods: dict[str, int]) -> str:
    return ", ".join(f"{qty} {good}" for good, qty in sorted(goods.items())) or "none"


def dismantle_business(
    ctx: CommandContext, business_id: str, beneficiary: tuple[str, str] | None, reason: str = "dismantled"
) -> int:
    """Dismantle a business for floor(invested / 2) ducats, paid to `beneficiary`
    (("characters", owner) for the owner, ("kingdoms", captor) for an enemy who took the town,
    None when nobody gains). The business is removed. Returns the ducats yielded.
    The warfare layer calls this when a captor dismantles businesses in a captured town."""
    world = ctx.world
    biz = _business(world, business_id)
    value = rules.dismantle_value(int(biz.get("invested", 0)))
    if beneficiary is not None and value > 0:
        ctx.move_ducats(
            None,
            beneficiary,
            value,
            f"{biz['name']} {reason} (half of {money(biz.get('invested', 0))} invested)",
            audience=_party_audience(beneficiary),
        )
    _remove_business(ctx, business_id, reason)
    return value


def businesses_at_pc(world: World, pc_id: str) -> list[str]:
    """Ids of the businesses located in a population centre (for looting and capture)."""
    return [bid for bid, biz in world.all("businesses") if biz.get("pc") == pc_id]


def _competition_stakes(world: World, province_id: str, sector: str, owner: str, exclude: str | None = None) -> Stakes:
    owners = [owner] + [b["owner"] for bid, b in sector_businesses(world, province_id, sector) if bid != exclude]
    return Stakes.of(
        _province_kingdom(world, province_id), kingdoms=[_owner_kingdom(world, o) for o in owners], characters=owners
    )


def _rivals(world: World, province_id: str, sector: str, exclude: str | None) -> list[Rival]:
    return [
        Rival(bid, int(b["size"]), bool(b.get("monopoly")))
        for bid, b in sector_businesses(world, province_id, sector)
        if bid != exclude and int(b.get("size", 0)) >= 1
    ]


def _compete(
    ctx: CommandContext,
    expander_id: str | None,
    expander_name: str,
    expander_size: int,
    monopoly: bool,
    province_id: str,
    sector: str,
) -> tuple[bool, str | None]:
    """Roll one competition for +1 Size; apply the loser's −1 (removal at 0). Returns
    (expander gains, loser id)."""
    world = ctx.world
    rivals = _rivals(world, province_id, sector, expander_id)
    key = expander_id or "new-business"
    outcome = rules.competition(ctx.dice_for(), key, expander_size, monopoly, rivals)
    records = [
        ctx.record_roll(
            f"competition: {expander_name} expands",
            [outcome.expander_natural],
            outcome.expander_roll,
            "gains" if outcome.expander_gains else "fails",
            list(outcome.expander_modifiers),
        )
    ]
    for rival in rivals:
        band = "loses" if rival.id == outcome.loser else "holds"
        records.append(
            ctx.record_roll(
                f"competition: {_name(world, 'businesses', rival.id)} defends",
                [outcome.naturals[rival.id]],
                outcome.rolls[rival.id],
                band,
                list(outcome.rival_modifiers[rival.id]),
            )
        )
    rolls_text = ", ".join(f"{_name(world, 'businesses', r.id)} {outcome.rolls[r.id]}" for r in rivals) or "no rival"
    where = f"{sector} sector of {_name(world, 'provinces', province_id)}"
    if outcome.loser is None:
        text = (
            f"Competition in the {where}: {expander_name} rolls {outcome.expander_roll} against "
            f"{rolls_text}; nobody rolls lower, the expansion fails and the money is spent."
        )
    else:
        text = (
            f"Competition in the {where}: {expander_name} rolls {outcome.expander_roll} against "
            f"{rolls_text}; {_name(world, 'businesses', outcome.loser)} loses 1 Size and "
            f"{expander_name} gains 1."
        )
    ctx.log(
        text,
        kind="competition",
        rolls=records,
        refs={
            "province": province_id,
            "sector": sector,
            "expander": expander_id,
            "expander_roll": outcome.expander_roll,
            "rolls": dict(outcome.rolls),
            "loser": outcome.loser,
        },
    )
    if outcome.loser is not None:
        loser = world.edit("businesses", outcome.loser)
        loser["size"] = int(loser["size"]) - 1
        loser["invested"] = money(max(0.0, float(loser.get("invested", 0)) - rules.expansion_cost(sector, 1)))
        if loser["size"] <= 0:
            _remove_business(ctx, outcome.loser, "driven out of business by competition")
    return outcome.expander_gains, outcome.loser


# ---------------------------------------------------------------------------------------------
# Businesses: commands
# ---------------------------------------------------------------------------------------------


def _open_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    return _competition_stakes(world, p["province"], p["sector"], p["owner"])


def _expand_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    biz = _business(world, p["business"])
    return _competition_stakes(world, biz["province"], biz["sector"], biz["owner"], exclude=p["business"])


def _expand_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    biz = _business(world, p["business"])
    usage = sector_usage(world, biz["province"])[biz["sector"]]
    if int(usage["room"]) >= p["sizes"]:
        return {"competition": False, "odds": {"gains": 1.0, "fails": 0.0}, "losers": {}}
    rivals = _rivals(world, biz["province"], biz["sector"], p["business"])
    odds = rules.competition_odds(bool(biz.get("monopoly")), rivals, p["business"], int(biz["size"]))
    return {
        "competition": True,
        "odds": {"gains": odds.expander_gains, "fails": odds.fails},
        "losers": odds.losers,
        "per": "each Size that needs competition",
    }


def _open_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    usage = sector_usage(world, p["province"])[p["sector"]]
    if int(usage["room"]) >= 1:
        return {"competition": False, "odds": {"gains": 1.0, "fails": 0.0}, "losers": {}}
    rivals = _rivals(world, p["province"], p["sector"], None)
    odds = rules.competition_odds(False, rivals, "new-business", 0)
    return {"competition": True, "odds": {"gains": odds.expander_gains, "fails": odds.fails}, "losers": odds.losers}


@command(
    "business-open",
    "Open a business of Size 1 (pays the sector's cost; competition if the sector is full).",
    {
        "owner": Param(str, ref="characters", help="the owning character"),
        "province": Param(str, ref="provinces"),
        "pc": Param(str, ref="pcs", help="the population centre it stands in"),
        "sector": Param(str, choices=SECTORS),
        "name": Param(str, help="the business's name"),
    },
    category="economy",
    odds=_open_odds,
    stakes=_open_stakes,
    rolls=True,
    filed_by=SEATS,
)
def business_open(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    ctx.require_acts_for(character=p["owner"])
    name = p["name"].strip()
    if not name:
        raise CommandError("name", "is empty")
    pc = world.get("pcs", p["pc"])
    if pc.get("province") != p["province"]:
        raise CommandError(
            "pc",
            f"{pc['name']} is in {_name(world, 'provinces', pc.get('province'))}, "
            f"not {_name(world, 'provinces', p['province'])}",
        )
    usage = sector_usage(world, p["province"])[p["sector"]]
    competing = int(usage["room"]) < 1
    if competing:
        ctx.require_adjudicator(_open_stakes(world, ctx.identity, p))
    cost = rules.expansion_cost(p["sector"], 1)
    ctx.move_ducats(
        _char(p["owner"]),
        None,
        cost,
        f"opening {name} ({p['sector']}, Size 1)",
        audience=character_audience(p["owner"]),
    )
    if competing:
        gains, loser = _compete(ctx, None, name, 0, False, p["province"], p["sector"])
        if not gains:
            return {"business": None, "opened": False, "competition": True, "loser": None, "spent": cost}
    else:
        loser = None
    business_id = world.new_id("businesses", "b")
    world.put(
        "businesses",
        business_id,
        {
            "name": name,
            "owner": p["owner"],
            "province": p["province"],
            "pc": p["pc"],
            "sector": p["sector"],
            "size": 1,
            "invested": cost,
            "monopoly": None,
            "stock": {},
            "warehouse": {},
            "opened": world.meta["date"],
        },
    )
    ctx.log(
        f"{_name(world, 'characters', p['owner'])} opens {name}, a {p['sector']} business of Size 1 in "
        f"{pc['name']} ({_name(world, 'provinces', p['province'])}).",
        kind="business",
        refs={"business": business_id, "size": 1, "invested": cost},
    )
    return {"business": business_id, "opened": True, "competition": competing, "loser": loser, "spent": cost}


@command(
    "business-expand",
    "Expand a business by Size (pays per Size; each Size over the Potential competes).",
    {"business": Param(str, ref="businesses"), "sizes": Param(int, required=False, default=1, minimum=1)},
    category="economy",
    odds=_expand_odds,
    stakes=_expand_stakes,
    rolls=True,
    filed_by=SEATS,
)
def business_expand(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    business_id = p["business"]
    biz = _business(world, business_id)
    ctx.require_acts_for(character=biz["owner"])
    sector, province = biz["sector"], biz["province"]
    room = int(sector_usage(world, province)[sector]["room"])
    competitions = max(0, p["sizes"] - room)
    if competitions:
        ctx.require_adjudicator(_expand_stakes(world, ctx.identity, p))
    unit = rules.expansion_cost(sector, 1)
    cost = rules.expansion_cost(sector, p["sizes"])
    ctx.move_ducats(
        _char(biz["owner"]),
        None,
        cost,
        f"expanding {biz['name']} by {p['sizes']} Size ({unit} each)",
        audience=character_audience(biz["owner"]),
    )
    gained, losers = 0, []
    for _ in range(p["sizes"]):
        current = _business(world, business_id)
        if int(sector_usage(world, province)[sector]["room"]) >= 1:
            success = True
        else:
            success, loser = _compete(
                ctx, business_id, current["name"], int(current["size"]), bool(current.get("monopoly")), province, sector
            )
            if loser:
                losers.append(loser)
        if success:
            doc = world.edit("businesses", business_id)
            doc["size"] = int(doc["size"]) + 1
            doc["invested"] = money(float(doc.get("invested", 0)) + unit)
            gained += 1
    after = _business(world, business_id)
    spent = cost - gained * unit
    ctx.log(
        f"{after['name']} grows by {gained} of {p['sizes']} Size to Size {after['size']} "
        f"(invested {money(after['invested'])}"
        + (f"; {ducats(spent)} spent in failed competition)" if spent else ")")
        + ".",
        kind="business",
        refs={
            "business": business_id,
            "gained": gained,
            "size": after["size"],
            "invested": after["invested"],
            "spent": spent,
        },
    )
    return {
        "business": business_id,
        "gained": gained,
        "size": after["size"],
        "invested": after["invested"],
        "competitions": competitions,
        "losers": losers,
        "cost": cost,
    }


def _business_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    biz = _business(world, p["business"])
    return Stakes.of(_province_kingdom(world, biz["province"]), characters=[biz["owner"]])


def _sell_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    biz = _business(world, p["business"])
    return Stakes.of(_province_kingdom(world, biz["province"]), characters=[biz["owner"], p["buyer"]])


@command(
    "business-sell",
    "Sell a business to another character for a price (the buyer pays the seller).",
    {
        "business": Param(str, ref="businesses"),
        "buyer": Param(str, ref="characters"),
        "price": Param(int, minimum=0, help="ducats the buyer pays"),
    },
    category="economy",
    stakes=_sell_stakes,
    filed_by=SEATS,
)
def business_sell(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz = _business(world, p["business"])
    seller, buyer = biz["owner"], p["buyer"]
    ctx.require_acts_for(character=seller)
    if buyer == seller:
        raise CommandError("buyer", f"{_name(world, 'characters', buyer)} already owns {biz['name']}")
    if not (world.get("characters", buyer)).get("alive", True):
        raise CommandError("buyer", f"{_name(world, 'characters', buyer)} is dead")
    _require_witness(ctx, _sell_stakes(world, ctx.identity, p), "a sale")
    if p["price"]:
        ctx.move_ducats(_char(buyer), _char(seller), p["price"], f"buys {biz['name']}", audience=PUBLIC)
    world.edit("businesses", p["business"])["owner"] = buyer
    moved = []
    for lid, doc in world.all("ledger"):
        if doc.get("lender") == p["business"] and doc.get("status") in (*OPEN_DEBT, "covered", "defaulted"):
            entry = world.edit("ledger", lid)
            entry["lender_owner"] = buyer
            entry["parties"] = _character_parties(world, entry["debtor"], buyer)
            moved.append(lid)
    ctx.log(
        f"{_name(world, 'characters', seller)} sells {biz['name']} to {_name(world, 'characters', buyer)} "
        f"for {ducats(p['price'])}"
        + (f"; its {counted(len(moved), 'credit or loan book')} go with it" if moved else "")
        + ".",
        kind="business",
        refs={"business": p["business"], "seller": seller, "buyer": buyer, "price": p["price"], "ledger": moved},
    )
    return {"business": p["business"], "owner": buyer, "price": p["price"], "ledger": moved}


@command(
    "business-dismantle",
    "Dismantle your business for half the ducats invested; it is removed.",
    {"business": Param(str, ref="businesses")},
    category="economy",
    stakes=_business_stakes,
    filed_by=SEATS,
)
def business_dismantle(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    biz = _business(ctx.world, p["business"])
    ctx.require_acts_for(character=biz["owner"])
    value = dismantle_business(ctx, p["business"], _char(biz["owner"]), "dismantled by its owner")
    return {"business": p["business"], "yield": value, "owner": biz["owner"]}


def _tax_help() -> str:
    return (
        f"Set your kingdom's business tax, a whole percent 0..{rules_table('economy')['income']['max_rate']} (a King)."
    )


@command(
    "business-tax-set",
    _tax_help,
    {
        "rate": Param(int, minimum=0, help="the new rate, a whole percent"),
        "kingdom": Param(str, required=False, ref="kingdoms", help="the kingdom (a King's own)"),
    },
    category="economy",
    filed_by=KING,
)
def business_tax_set(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    """What a King asked the GM to `gm-set` before: his kingdom's business tax, taken at the next
    year start (RULINGS §5), announced to the table (businesses of every realm pay it)."""
    world = ctx.world
    kingdom = p["kingdom"] or (ctx.principal.subject if ctx.principal.is_king else None)
    if kingdom is None:
        raise CommandError("kingdom", "name the kingdom whose business tax is set")
    ctx.require_acts_for(kingdom=kingdom)
    top = int(rules_table("economy")["income"]["max_rate"])
    if p["rate"] > top:
        raise CommandError("rate", f"must be 0..{top} percent, not {p['rate']}")
    doc = world.edit("kingdoms", kingdom)
    old = int(doc.get("business_tax", 0))
    if old == p["rate"]:
        raise CommandError("rate", f"{world.display_name('kingdoms', kingdom)} already taxes businesses at {old}%")
    doc["business_tax"] = p["rate"]
    ctx.log(
        f"{world.display_name('kingdoms', kingdom)} sets its business tax at {p['rate']}% (was {old}%), "
        "from the next year start.",
        kind="economy",
        audience=PUBLIC,
        refs={"kingdom": kingdom, "business_tax": p["rate"], "was": old},
    )
    return {"kingdom": kingdom, "business_tax": p["rate"], "was": old}
