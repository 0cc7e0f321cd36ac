"""The economy in the world (RULINGS §5–§6): businesses, competition, monopolies, production and
the market, credit and loans, specialists, academies, engineers and missionaries.

The arithmetic lives in `yak_tui.areas.economy.rules`; this module validates, rolls through `ctx.dice`,
moves every ducat through `ctx.move_ducats` and writes the chronicle.

State kept here (for the screens):
- `businesses.<id>`: name, owner, province, pc, sector, size, invested, plus `monopoly`
  (trade|service|goods|None), `stock` {good: n} (sold at season end), `warehouse` {good: n}
  (kept), `produced` {season, goods}, `trained` {year, count}, `income_looted_by` (kingdom id)
  and `income_looted_for` (year), set by warfare's looting and read by the business-income step.
- `provinces.<id>`: `potential_penalties` {potential: -n} (from monopolies), `price_modifiers`
  {good: ±n} (set by espionage).
- `characters.<id>.goods` {good: n}: shipped goods; `kingdoms.<id>.goods.Gunpowder`: barrels.
- `specialists.<kingdom>`: pool counts by type, `engineers_assigned` {siege: {engine: n},
  gunpowder: n}.
- `ledger.<id>`: credit, loan and bad-debt documents (see `_new_debt`), visible to `parties`.
- `effects.<id>`: traps (kind "trap") and standing counter-missionaries (kind
  "counter-missionary"); espionage's "academy-interference" and "sailor-recruitment-cut" are read
  (marked `consumed`; espionage's expiry step ends them).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

from yak_tui.areas.court import on_event, schedule_event
from yak_tui.areas.economy import rules
from yak_tui.areas.economy.rules import Rival
from yak_tui.kernel.audience import PUBLIC, character_audience, kingdom_audience
from yak_tui.kernel.authority import Stakes, who_may
from yak_tui.kernel.calendar import GameDate
from yak_tui.kernel.commands import CommandContext, CommandError, Param, command
from yak_tui.kernel.identity import Identity
from yak_tui.kernel.model import SECTORS, World
from yak_tui.kernel.seasons import (
    StepReport,
    due_reporter,
    season_end_step,
    season_start_step,
    year_start_step,
)
from yak_tui.kernel.tables import table as rules_table

# Where RULINGS §5–§6 are silent, this is how the world layer settles it (shown by help screens).
RULINGS_MADE = (
    "A business that loses its last Size in competition (or liquidation) is removed; its stock and "
    "warehoused goods go to its owner's goods, and its monopoly lapses.",
    "The loser of a competition also loses one Size's worth of `invested` (the sector cost); money "
    "spent on a failed competition is not invested.",
    "Opening a business into a full sector is a competition by a Size-0 expander; if it fails, no "
    "business opens and the cost is spent.",
    "A monopoly's kind defaults by sector (industrial goods, commercial trade, service service); "
    "one monopoly per sector and province; penalties of several monopolies add up (Potential never "
    "below 0).",
    "Deals that bind a second character (sale, credit, loan) are run by the GM or confirmed by an "
    "uninvolved King through an order; the seller/lender files it.",
    "Credit and loans are drawn from the lender's creditors (outside the game), not from its owner's "
    "treasury; repayments go back to them. When credit falls due unpaid (or a loan is past its term), "
    "the lender pays from its owner's treasury, then liquidates Size; what it pays, the debtor then "
    "owes the owner (repayments reimburse him first); what nobody pays is a bad debt against the "
    "debtor. The same procedure covers loan instalments.",
    "The credit (loan) limit counts what the lender still answers for on its open credit (loans).",
    "An optional `fee` is paid by the debtor to the lender's owner when credit or a loan is extended.",
    "Business tax goes to the kingdom of the province the business stands in; a looted business's "
    "income (after tax) goes to the looter, the tax still to the state.",
    "Production costs use the table base price; sales use the province price (base + espionage "
    "modifier, at least 1). One market-sale roll per business and good at season end.",
    "Warehoused goods (on site or in a commercial business of the same owner) are never sold "
    "automatically; goods-release puts them back on that business's market.",
    "Training may sponsor any specialist type, sailors included (the seed: 'of any kind').",
    "Academies stand in towns, cities, castles and ports the kingdom controls.",
    "Academy interference cuts a kingdom's graduates of that type by its reduction in total (not per "
    "academy), never below 0; the target learns of it only if the mission was detected.",
    "Gunpowder engineers return to the pool when they deliver at year start.",
    "A trap's engineer returns if a friendly unit escaped or his side won; otherwise he defects to "
    "the named winner, or is lost if none is named.",
    "A counter-missionary is entered by the GM, or staked beforehand by the defender "
    "(convert-counter); its ducats are paid, as far as the treasury holds, when it is used.",
)

MONOPOLY_KINDS = ("trade", "service", "goods")
# The monopoly a sector takes when none is named.
DEFAULT_MONOPOLY = {"industrial": "goods", "commercial": "trade", "service": "service"}
# Ruling: "Academies must be constructed in a town": the settlements that hold a town.
ACADEMY_PC_KINDS = ("town", "city", "castle", "port")
HIRED_TYPES = ("engineer", "spy", "missionary")
ENGINEER_TASKS = ("siege", "gunpowder")
GUNPOWDER = "Gunpowder"
# Effects written by the espionage layer that this module reads (field `kind` or `effect`).
ACADEMY_INTERFERENCE = ("academy-interference",)
SAILOR_RECRUITMENT = ("sailor-recruitment-cut", "sailor-recruitment")
OPEN_DEBT = ("open", "overdue")


# ---------------------------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------------------------


def _num(value: float) -> float | int:
    rounded = round(float(value), 4)
    return int(rounded) if rounded.is_integer() else rounded


def _char(cid: str) -> tuple[str, str]:
    return ("characters", cid)


def _name(world: World, table: str, doc_id: str | None) -> str:
    return world.display_name(table, doc_id)


def _today(ctx: CommandContext) -> GameDate:
    return ctx.world.date


def _business(world: World, business_id: str) -> dict[str, Any]:
    return world.get("businesses", business_id)


def _province_kingdom(world: World, province_id: str) -> str | None:
    return world.kingdom_of_province(province_id)


def _owner_kingdom(world: World, character_id: str) -> str | None:
    return world.kingdom_of_character(character_id)


def _character_parties(world: World, *characters: str | None) -> list[str]:
    """Ledger audience: each character, plus his kingdom when he is its ruler (so the King sees)."""
    parties: list[str] = []
    for cid in characters:
        if not cid:
            continue
        tag = character_audience(cid)
        if tag not in parties:
            parties.append(tag)
        for kid, kingdom in world.all("kingdoms"):
            if kingdom.get("ruler") == cid and kingdom_audience(kid) not in parties:
                parties.append(kingdom_audience(kid))
    return parties


def _require_witness(ctx: CommandContext, stakes: Stakes, what: str) -> None:
    """Deals that bind a second character need the GM or an uninvolved King (orders for players)."""
    if ctx.identity.is_gm:
        return
    if ctx.identity.is_player:
        raise CommandError("identity", f"{what} binds another character: file it as an order "
                           "(order-file) for the GM or a King to confirm", who_may(ctx.world, stakes))
    ctx.require_adjudicator(stakes)


def _add_goods(holder: dict[str, Any], field: str, good: str, quantity: int) -> None:
    goods = holder.setdefault(field, {})
    goods[good] = int(goods.get(good, 0)) + quantity
    if goods[good] == 0:
        del goods[good]


def _match_good(name: str, choices: Iterable[str]) -> str | None:
    for known in choices:
        if known.lower() == name.strip().lower():
            return known
    return None


# ---------------------------------------------------------------------------------------------
# Potentials, sectors, prices (view helpers for the screens too)
# ---------------------------------------------------------------------------------------------


def effective_potentials(world: World, province_id: str) -> dict[str, int]:
    """The province's Potentials after monopoly penalties (never below 0)."""
    province = world.get("provinces", province_id)
    base = {k: int(v) for k, v in province.get("potentials", {}).items()}
    for key, penalty in province.get("potential_penalties", {}).items():
        base[key] = max(0, base.get(key, 0) + int(penalty))
    return base


def sector_businesses(world: World, province_id: str, sector: str) -> list[tuple[str, dict[str, Any]]]:
    """Every business of a sector in a province, in the order the world keeps them."""
    return [(bid, b) for bid, b in world.all("businesses")
            if b.get("province") == province_id and b.get("sector") == sector]


def sector_usage(world: World, province_id: str) -> dict[str, dict[str, int | bool]]:
    """Per sector: Potential, Size used, room left and whether expanding means competition."""
    potentials = effective_potentials(world, province_id)
    used = dict.fromkeys(SECTORS, 0)
    for _, biz in world.all("businesses"):
        if biz.get("province") == province_id and biz.get("sector") in used:
            used[biz["sector"]] += int(biz.get("size", 0))
    out: dict[str, dict[str, int | bool]] = {}
    for sector in SECTORS:
        potential = int(potentials.get(sector, 0))
        out[sector] = {"potential": potential, "used": used[sector],
                       "room": rules.sector_room(potential, used[sector]),
                       "full": rules.needs_competition(potential, used[sector])}
    return out


def province_prices(world: World, province_id: str, goods: Iterable[str] | None = None) -> dict[str, dict[str, int]]:
    """Commodity prices in a province: base, espionage modifier, and the price (at least 1)."""
    province = world.get("provinces", province_id)
    modifiers = {k.lower(): int(v) for k, v in province.get("price_modifiers", {}).items()}
    table = rules.commodities()
    names = list(table) if goods is None else [g for g in (_match_good(n, table) for n in goods) if g]
    out: dict[str, dict[str, int]] = {}
    for name in names:
        base = table[name]
        modifier = modifiers.get(name.lower(), 0)
        out[name] = {"base": base, "modifier": modifier, "price": max(1, base + modifier)}
    return out


def business_income_preview(world: World, business_id: str) -> dict[str, Any]:
    """What a business will earn at year start: Size, the state's rate and cut, and the income."""
    biz = _business(world, business_id)
    state = _province_kingdom(world, biz["province"])
    rate = _tax_rate(world, state)
    size = int(biz.get("size", 0))
    return {"size": size, "state": state, "rate": rate, "tax": rules.business_tax(size, rate),
            "income": rules.business_income(size, rate), "looted_by": biz.get("income_looted_by")}


def _tax_rate(world: World, state: str | None) -> int:
    if state is None:
        return 0
    kingdom = world.find("kingdoms", state) or {}
    return int(kingdom.get("business_tax", 0))


# ---------------------------------------------------------------------------------------------
# Businesses: removal (shared with warfare), competition
# ---------------------------------------------------------------------------------------------


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
    ctx.log(f"{biz['name']} ({_name(world, 'provinces', biz['province'])}) is gone: {why}{detail}.",
            kind="business", refs={"business": business_id, "removed": True, "goods": goods})


def _goods_text(goods: dict[str, int]) -> str:
    return ", ".join(f"{qty} {good}" for good, qty in sorted(goods.items())) or "none"


def dismantle_business(ctx: CommandContext, business_id: str, beneficiary: tuple[str, str] | None,
                       reason: str = "dismantled") -> int:
    """Dismantle a business for floor(invested / 2) ducats, paid to `beneficiary`
    (("characters", owner) for the owner, ("kingdoms", captor) for an enemy who took the town,
    None when nobody gains). The business is removed. Returns the ducats yielded.
    The warfare layer calls this when a captor dismantles businesses in a captured town."""
    world = ctx.world
    biz = _business(world, business_id)
    value = rules.dismantle_value(int(biz.get("invested", 0)))
    if beneficiary is not None and value > 0:
        ctx.move_ducats(None, beneficiary, value, f"{biz['name']} {reason} (half of "
                        f"{_num(biz.get('invested', 0))} invested)", audience=_party_audience(beneficiary))
    _remove_business(ctx, business_id, reason)
    return value


def businesses_at_pc(world: World, pc_id: str) -> list[str]:
    """Ids of the businesses located in a population centre (for looting and capture)."""
    return [bid for bid, biz in world.all("businesses") if biz.get("pc") == pc_id]


def _party_audience(party: tuple[str, str]) -> str:
    table_name, doc_id = party
    return kingdom_audience(doc_id) if table_name == "kingdoms" else character_audience(doc_id)


def _competition_stakes(world: World, province_id: str, sector: str, owner: str,
                        exclude: str | None = None) -> Stakes:
    owners = [owner] + [b["owner"] for bid, b in sector_businesses(world, province_id, sector) if bid != exclude]
    return Stakes.of(_province_kingdom(world, province_id),
                     kingdoms=[_owner_kingdom(world, o) for o in owners], characters=owners)


def _rivals(world: World, province_id: str, sector: str, exclude: str | None) -> list[Rival]:
    return [Rival(bid, int(b["size"]), bool(b.get("monopoly")))
            for bid, b in sector_businesses(world, province_id, sector)
            if bid != exclude and int(b.get("size", 0)) >= 1]


def _compete(ctx: CommandContext, expander_id: str | None, expander_name: str, expander_size: int,
             monopoly: bool, province_id: str, sector: str) -> tuple[bool, str | None]:
    """Roll one competition for +1 Size; apply the loser's −1 (removal at 0). Returns
    (expander gains, loser id)."""
    world = ctx.world
    rivals = _rivals(world, province_id, sector, expander_id)
    key = expander_id or "new-business"
    outcome = rules.competition(ctx.dice, key, expander_size, monopoly, rivals)
    records = [ctx.record_roll(f"competition: {expander_name} expands", [outcome.expander_natural],
                               outcome.expander_roll, "gains" if outcome.expander_gains else "fails",
                               list(outcome.expander_modifiers))]
    for rival in rivals:
        band = "loses" if rival.id == outcome.loser else "holds"
        records.append(ctx.record_roll(f"competition: {_name(world, 'businesses', rival.id)} defends",
                                       [outcome.naturals[rival.id]], outcome.rolls[rival.id], band,
                                       list(outcome.rival_modifiers[rival.id])))
    rolls_text = ", ".join(f"{_name(world, 'businesses', r.id)} {outcome.rolls[r.id]}" for r in rivals) or "no rival"
    where = f"{sector} sector of {_name(world, 'provinces', province_id)}"
    if outcome.loser is None:
        text = (f"Competition in the {where}: {expander_name} rolls {outcome.expander_roll} against "
                f"{rolls_text}; nobody rolls lower, the expansion fails and the money is spent.")
    else:
        text = (f"Competition in the {where}: {expander_name} rolls {outcome.expander_roll} against "
                f"{rolls_text}; {_name(world, 'businesses', outcome.loser)} loses 1 Size and "
                f"{expander_name} gains 1.")
    ctx.log(text, kind="competition", rolls=records,
            refs={"province": province_id, "sector": sector, "expander": expander_id,
                  "expander_roll": outcome.expander_roll, "rolls": dict(outcome.rolls), "loser": outcome.loser})
    if outcome.loser is not None:
        loser = world.edit("businesses", outcome.loser)
        loser["size"] = int(loser["size"]) - 1
        loser["invested"] = _num(max(0.0, float(loser.get("invested", 0)) - rules.expansion_cost(sector, 1)))
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
    return {"competition": True, "odds": {"gains": odds.expander_gains, "fails": odds.fails},
            "losers": odds.losers, "per": "each Size that needs competition"}


def _open_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    usage = sector_usage(world, p["province"])[p["sector"]]
    if int(usage["room"]) >= 1:
        return {"competition": False, "odds": {"gains": 1.0, "fails": 0.0}, "losers": {}}
    rivals = _rivals(world, p["province"], p["sector"], None)
    odds = rules.competition_odds(False, rivals, "new-business", 0)
    return {"competition": True, "odds": {"gains": odds.expander_gains, "fails": odds.fails},
            "losers": odds.losers}


@command("business-open", "Open a business of Size 1 (pays the sector's cost; competition if the sector is full).",
         {"owner": Param(str, ref="characters", help="the owning character"),
          "province": Param(str, ref="provinces"),
          "pc": Param(str, ref="pcs", help="the population centre it stands in"),
          "sector": Param(str, choices=SECTORS),
          "name": Param(str, help="the business's name")},
         category="economy", odds=_open_odds, stakes=_open_stakes, rolls=True)
def business_open(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    ctx.require_acts_for(character=p["owner"])
    name = p["name"].strip()
    if not name:
        raise CommandError("name", "is empty")
    pc = world.get("pcs", p["pc"])
    if pc.get("province") != p["province"]:
        raise CommandError("pc", f"{pc['name']} is in {_name(world, 'provinces', pc.get('province'))}, "
                           f"not {_name(world, 'provinces', p['province'])}")
    usage = sector_usage(world, p["province"])[p["sector"]]
    competing = int(usage["room"]) < 1
    if competing:
        ctx.require_adjudicator(_open_stakes(world, ctx.identity, p))
    cost = rules.expansion_cost(p["sector"], 1)
    ctx.move_ducats(_char(p["owner"]), None, cost, f"opening {name} ({p['sector']}, Size 1)",
                    audience=character_audience(p["owner"]))
    if competing:
        gains, loser = _compete(ctx, None, name, 0, False, p["province"], p["sector"])
        if not gains:
            return {"business": None, "opened": False, "competition": True, "loser": None, "spent": cost}
    else:
        loser = None
    business_id = world.new_id("businesses", "b")
    world.put("businesses", business_id, {
        "name": name, "owner": p["owner"], "province": p["province"], "pc": p["pc"], "sector": p["sector"],
        "size": 1, "invested": cost, "monopoly": None, "stock": {}, "warehouse": {},
        "opened": world.meta["date"]})
    ctx.log(f"{_name(world, 'characters', p['owner'])} opens {name}, a {p['sector']} business of Size 1 in "
            f"{pc['name']} ({_name(world, 'provinces', p['province'])}).", kind="business",
            refs={"business": business_id, "size": 1, "invested": cost})
    return {"business": business_id, "opened": True, "competition": competing, "loser": loser, "spent": cost}


@command("business-expand", "Expand a business by Size (pays per Size; each Size over the Potential competes).",
         {"business": Param(str, ref="businesses"),
          "sizes": Param(int, required=False, default=1, minimum=1)},
         category="economy", odds=_expand_odds, stakes=_expand_stakes, rolls=True)
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
    ctx.move_ducats(_char(biz["owner"]), None, cost,
                    f"expanding {biz['name']} by {p['sizes']} Size ({unit} each)",
                    audience=character_audience(biz["owner"]))
    gained, losers = 0, []
    for _ in range(p["sizes"]):
        current = _business(world, business_id)
        if int(sector_usage(world, province)[sector]["room"]) >= 1:
            success = True
        else:
            success, loser = _compete(ctx, business_id, current["name"], int(current["size"]),
                                      bool(current.get("monopoly")), province, sector)
            if loser:
                losers.append(loser)
        if success:
            doc = world.edit("businesses", business_id)
            doc["size"] = int(doc["size"]) + 1
            doc["invested"] = _num(float(doc.get("invested", 0)) + unit)
            gained += 1
    after = _business(world, business_id)
    spent = cost - gained * unit
    ctx.log(f"{after['name']} grows by {gained} of {p['sizes']} Size to Size {after['size']} "
            f"(invested {_num(after['invested'])}" + (f"; {spent} ducats spent in failed competition)" if spent
                                                       else ")") + ".",
            kind="business", refs={"business": business_id, "gained": gained, "size": after["size"],
                                   "invested": after["invested"], "spent": spent})
    return {"business": business_id, "gained": gained, "size": after["size"], "invested": after["invested"],
            "competitions": competitions, "losers": losers, "cost": cost}


def _province_ruler_check(ctx: CommandContext, province_id: str) -> None:
    kingdom = _province_kingdom(ctx.world, province_id)
    try:
        ctx.require_acts_for(kingdom=kingdom)
    except CommandError:
        owner = f"the King of {_name(ctx.world, 'kingdoms', kingdom)}" if kingdom else "the GM (no kingdom rules it)"
        raise CommandError("identity", f"monopolies in {_name(ctx.world, 'provinces', province_id)} are granted by "
                           f"{owner} or the GM", ("gm", *([f"king:{kingdom}"] if kingdom else []))) from None


def _business_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    biz = _business(world, p["business"])
    return Stakes.of(_province_kingdom(world, biz["province"]), characters=[biz["owner"]])


@command("monopoly-grant", "Grant a business a monopoly (the province's ruler); the province loses Potential.",
         {"business": Param(str, ref="businesses"),
          "kind": Param(str, required=False, choices=MONOPOLY_KINDS,
                        help="trade, service or goods (default: by the sector)")},
         category="economy", stakes=_business_stakes)
def monopoly_grant(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz = _business(world, p["business"])
    province = biz["province"]
    _province_ruler_check(ctx, province)
    if biz.get("monopoly"):
        raise CommandError("business", f"{biz['name']} already holds a {biz['monopoly']} monopoly")
    for bid, other in sector_businesses(world, province, biz["sector"]):
        if bid != p["business"] and other.get("monopoly"):
            raise CommandError("business", f"{other['name']} already holds the {biz['sector']} monopoly in "
                               f"{_name(world, 'provinces', province)}; revoke it first")
    kind = p["kind"] or DEFAULT_MONOPOLY[biz["sector"]]
    world.edit("businesses", p["business"])["monopoly"] = kind
    penalties = _recompute_penalties(ctx, province)
    changes = ", ".join(f"{k} {v:+d}" for k, v in rules.monopoly_penalties(kind).items() if v)
    ctx.log(f"{biz['name']} is granted a {kind} monopoly in {_name(world, 'provinces', province)} "
            f"(+{rules.monopoly_bonus()} to its competition rolls; Potential {changes}).", kind="monopoly",
            refs={"business": p["business"], "kind": kind, "penalties": penalties})
    return {"business": p["business"], "monopoly": kind, "potential_penalties": penalties,
            "potentials": effective_potentials(world, province)}


@command("monopoly-revoke", "Revoke a business's monopoly (the province's ruler); its Potential penalty ends.",
         {"business": Param(str, ref="businesses")}, category="economy", stakes=_business_stakes)
def monopoly_revoke(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz = _business(world, p["business"])
    _province_ruler_check(ctx, biz["province"])
    if not biz.get("monopoly"):
        raise CommandError("business", f"{biz['name']} holds no monopoly")
    kind = biz["monopoly"]
    world.edit("businesses", p["business"])["monopoly"] = None
    penalties = _recompute_penalties(ctx, biz["province"])
    ctx.log(f"{biz['name']} loses its {kind} monopoly in {_name(world, 'provinces', biz['province'])}.",
            kind="monopoly", refs={"business": p["business"], "kind": None, "penalties": penalties})
    return {"business": p["business"], "monopoly": None, "potential_penalties": penalties}


def _sell_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    biz = _business(world, p["business"])
    return Stakes.of(_province_kingdom(world, biz["province"]), characters=[biz["owner"], p["buyer"]])


@command("business-sell", "Sell a business to another character for a price (the buyer pays the seller).",
         {"business": Param(str, ref="businesses"),
          "buyer": Param(str, ref="characters"),
          "price": Param(int, minimum=0, help="ducats the buyer pays")},
         category="economy", stakes=_sell_stakes)
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
        ctx.move_ducats(_char(buyer), _char(seller), p["price"], f"buys {biz['name']}",
                        audience=PUBLIC)
    world.edit("businesses", p["business"])["owner"] = buyer
    moved = []
    for lid, doc in world.all("ledger"):
        if doc.get("lender") == p["business"] and doc.get("status") in (*OPEN_DEBT, "covered", "defaulted"):
            entry = world.edit("ledger", lid)
            entry["lender_owner"] = buyer
            entry["parties"] = _character_parties(world, entry["debtor"], buyer)
            moved.append(lid)
    ctx.log(f"{_name(world, 'characters', seller)} sells {biz['name']} to {_name(world, 'characters', buyer)} "
            f"for {p['price']} ducats" + (f"; its {len(moved)} credit/loan book(s) go with it" if moved else "") + ".",
            kind="business", refs={"business": p["business"], "seller": seller, "buyer": buyer,
                                   "price": p["price"], "ledger": moved})
    return {"business": p["business"], "owner": buyer, "price": p["price"], "ledger": moved}


@command("business-dismantle", "Dismantle your business for half the ducats invested; it is removed.",
         {"business": Param(str, ref="businesses")}, category="economy", stakes=_business_stakes)
def business_dismantle(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    biz = _business(ctx.world, p["business"])
    ctx.require_acts_for(character=biz["owner"])
    value = dismantle_business(ctx, p["business"], _char(biz["owner"]), "dismantled by its owner")
    return {"business": p["business"], "yield": value, "owner": biz["owner"]}


# ---------------------------------------------------------------------------------------------
# Year start: business income
# ---------------------------------------------------------------------------------------------


def _looter(world: World, value: Any) -> tuple[str, str] | None:
    """`income_looted_by`: a kingdom id as warfare writes it (with `income_looted_for` = the year
    whose income is taken), or "kingdoms:<id>" / "characters:<id>" / a bare character id."""
    if not value:
        return None
    text = str(value)
    table_name, sep, doc_id = text.partition(":")
    if sep:
        table_name = {"kingdom": "kingdoms", "character": "characters"}.get(table_name, table_name)
        if table_name in ("kingdoms", "characters") and world.find(table_name, doc_id) is not None:
            return (table_name, doc_id)
        return None
    if world.find("kingdoms", text) is not None:
        return ("kingdoms", text)
    if world.find("characters", text) is not None:
        return ("characters", text)
    return None


# Names listed in one recipient's income line; the rest are counted ("and N more").
INCOME_NAMES_LISTED = 6


@year_start_step("business-income")
def _business_income(ctx: CommandContext, report: StepReport) -> None:
    """Each business earns its Size less the state's business tax; the state (the kingdom of the
    province it stands in) gets the tax. Paid as one sum per recipient, one chronicle line each
    (a line per business would make the year start of a big world as slow as its chronicle).
    The loop is kept lean on purpose: it runs once per business of the world."""
    world = ctx.world
    year = world.date.year
    totals: dict[str, int] = {}  # owner -> income
    counts: dict[str, int] = {}
    names: dict[str, list[str]] = {}
    looted_totals: dict[tuple[str, str], int] = {}
    looted_names: dict[tuple[str, str], list[str]] = {}
    taxes: dict[str, int] = {}
    rate_of: dict[Any, int] = {}
    state_of: dict[Any, Any] = {pid: prov.get("kingdom") for pid, prov in world.all("provinces")}
    cut: dict[tuple[int, int], int] = {}
    total_income = total_tax = total_looted = 0
    for business_id, biz in world.table("businesses").items():
        size = biz.get("size", 0)
        if size <= 0:
            continue
        state = state_of.get(biz.get("province"))
        rate = rate_of.get(state)
        if rate is None:
            rate = rate_of[state] = _tax_rate(world, state)
        if rate:
            key = (size, rate)
            tax = cut.get(key)
            if tax is None:
                tax = cut[key] = rules.business_tax(int(size), rate)
            if tax:
                total_tax += tax
                if state is not None:
                    taxes[state] = taxes.get(state, 0) + tax
        else:
            tax = 0
        income = size - tax
        total_income += income
        if biz.get("income_looted_by"):
            looter = _looted_income(world, business_id, biz, year)
            if looter is not None:
                total_looted += income
                looted_totals[looter] = looted_totals.get(looter, 0) + income
                looted_names.setdefault(looter, []).append(f"looted from {biz.get('name', business_id)} {income}")
                continue
        if not income:
            continue
        owner = biz["owner"]
        count = counts.get(owner, 0)
        if count:
            totals[owner] += income
            if count < INCOME_NAMES_LISTED:
                names[owner].append(f"{biz.get('name', business_id)} {income}")
        else:
            totals[owner] = income
            names[owner] = [f"{biz.get('name', business_id)} {income}"]
        counts[owner] = count + 1
    report.add("business income", total_income)
    report.add("business tax", total_tax)
    if total_looted:
        report.add("looted", total_looted)
    lines: dict[tuple[str, str], tuple[int, list[str], int]] = {
        ("characters", owner): (amount, names[owner], counts[owner]) for owner, amount in totals.items()}
    for looter, amount in looted_totals.items():
        held, listed, count = lines.get(looter, (0, [], 0))
        lines[looter] = (held + amount, listed + looted_names[looter], count + len(looted_names[looter]))
    for recipient in sorted(lines):
        amount, listed, count = lines[recipient]
        shown = listed[:INCOME_NAMES_LISTED]
        more = f" and {count - len(shown)} more" if count > len(shown) else ""
        ctx.move_ducats(None, recipient, amount, f"business income ({', '.join(shown)}{more})",
                        audience=_party_audience(recipient))
        report.lines.append(f"{world.display_name(*recipient)}: +{_num(amount)} business income")
    for state in sorted(taxes):
        ctx.move_ducats(None, ("kingdoms", state), taxes[state], "business tax for the year",
                        audience=kingdom_audience(state))
        report.lines.append(f"{world.display_name('kingdoms', state)}: +{_num(taxes[state])} business tax")


def _looted_income(world: World, business_id: str, biz: dict[str, Any], year: int) -> tuple[str, str] | None:
    """Who takes this year's income of a looted business (clearing the mark), or None."""
    looted_for = int(biz.get("income_looted_for") or year)
    if looted_for > year:
        return None  # looted for a later year: the mark waits
    looter = _looter(world, biz["income_looted_by"])
    edited = world.edit("businesses", business_id)
    edited["income_looted_by"] = None
    edited.pop("income_looted_for", None)
    return looter if looted_for == year else None


# ---------------------------------------------------------------------------------------------
# Production and the market
# ---------------------------------------------------------------------------------------------


def _season_key(world: World) -> str:
    return world.date.key()


def produced_this_season(world: World, biz: dict[str, Any]) -> int:
    made = biz.get("produced") or {}
    return int(made.get("goods", 0)) if made.get("season") == _season_key(world) else 0


@command("produce", "An industrial business makes goods of its province's resources (up to Size a season).",
         {"business": Param(str, ref="businesses"),
          "good": Param(str, help="a trade good the province lists as a resource"),
          "quantity": Param(int, minimum=1)},
         category="economy", stakes=_business_stakes)
def produce(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    business_id = p["business"]
    biz = _business(world, business_id)
    ctx.require_acts_for(character=biz["owner"])
    if biz["sector"] != "industrial":
        raise CommandError("business", f"{biz['name']} is {biz['sector']}; only industrial businesses produce goods")
    province = world.get("provinces", biz["province"])
    good = _match_good(p["good"], province.get("resources", []))
    if good is None:
        raise CommandError("good", f"{province['name']} has no {p['good']}; its resources are "
                           f"{', '.join(province.get('resources', [])) or 'none'}")
    try:
        base = rules.commodity_price(good)
    except ValueError as error:
        raise CommandError("good", str(error)) from None
    good = _match_good(good, rules.commodities()) or good
    made = produced_this_season(world, biz)
    limit = rules.production_limit(int(biz["size"]))
    if made + p["quantity"] > limit:
        raise CommandError("quantity", f"{biz['name']} (Size {biz['size']}) makes at most {limit} goods a season; "
                           f"{made} made this season, {limit - made} left")
    cost = rules.production_cost(base, p["quantity"])
    ctx.move_ducats(_char(biz["owner"]), None, cost,
                    f"{biz['name']} makes {p['quantity']} {good} ({cost // p['quantity']} each)",
                    audience=character_audience(biz["owner"]))
    doc = world.edit("businesses", business_id)
    doc["produced"] = {"season": _season_key(world), "goods": made + p["quantity"]}
    _add_goods(doc, "stock", good, p["quantity"])
    ctx.log(f"{biz['name']} produces {p['quantity']} {good}; unless stored or shipped they sell at season end.",
            kind="production", audience=character_audience(biz["owner"]),
            refs={"business": business_id, "good": good, "quantity": p["quantity"], "cost": cost})
    return {"business": business_id, "good": good, "quantity": p["quantity"], "cost": cost,
            "produced_this_season": made + p["quantity"], "limit": limit, "stock": dict(doc["stock"])}


def _take_goods(doc: dict[str, Any], field: str, good_text: str, quantity: int, what: str) -> str:
    held = doc.get(field, {})
    good = _match_good(good_text, held)
    have = int(held.get(good, 0)) if good else 0
    if good is None or have < quantity:
        raise CommandError("quantity", f"{doc['name']} holds {have} {good or good_text} in {what}, "
                           f"{quantity} asked")
    _add_goods(doc, field, good, -quantity)
    return good


@command("goods-store", "Store goods from a business's stock in a warehouse (not sold at season end).",
         {"business": Param(str, ref="businesses"),
          "good": Param(str), "quantity": Param(int, minimum=1),
          "warehouse": Param(str, required=False, ref="businesses",
                         help="a commercial business of the same owner (default: stored on site)")},
         category="economy", stakes=_business_stakes)
def goods_store(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz = _business(world, p["business"])
    ctx.require_acts_for(character=biz["owner"])
    target_id = p["warehouse"] or p["business"]
    if p["warehouse"]:
        house = _business(world, p["warehouse"])
        if house["sector"] != "commercial":
            raise CommandError("warehouse", f"{house['name']} is {house['sector']}; a warehouse is a commercial business")
        if house["owner"] != biz["owner"]:
            raise CommandError("warehouse", f"{house['name']} belongs to {_name(world, 'characters', house['owner'])}, "
                               f"not {_name(world, 'characters', biz['owner'])}")
    good = _take_goods(world.edit("businesses", p["business"]), "stock", p["good"], p["quantity"], "stock")
    _add_goods(world.edit("businesses", target_id), "warehouse", good, p["quantity"])
    where = _name(world, "businesses", target_id)
    ctx.log(f"{p['quantity']} {good} from {biz['name']} are stored in the warehouse of {where}.",
            kind="goods", audience=character_audience(biz["owner"]),
            refs={"business": p["business"], "warehouse": target_id, "good": good, "quantity": p["quantity"]})
    return {"business": p["business"], "warehouse": target_id, "good": good, "quantity": p["quantity"]}


@command("goods-release", "Put warehoused goods back on the market: they sell at this season's end.",
         {"business": Param(str, ref="businesses", help="the business holding the warehouse"),
          "good": Param(str), "quantity": Param(int, minimum=1)},
         category="economy", stakes=_business_stakes)
def goods_release(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz = _business(world, p["business"])
    ctx.require_acts_for(character=biz["owner"])
    doc = world.edit("businesses", p["business"])
    good = _take_goods(doc, "warehouse", p["good"], p["quantity"], "its warehouse")
    _add_goods(doc, "stock", good, p["quantity"])
    ctx.log(f"{p['quantity']} {good} leave the warehouse of {biz['name']} for the market at season end.",
            kind="goods", audience=character_audience(biz["owner"]),
            refs={"business": p["business"], "good": good, "quantity": p["quantity"]})
    return {"business": p["business"], "good": good, "quantity": p["quantity"]}


@command("goods-ship", "Ship goods from a business's stock or warehouse to another province (to the owner's goods).",
         {"business": Param(str, ref="businesses"),
          "good": Param(str), "quantity": Param(int, minimum=1),
          "destination": Param(str, ref="provinces"),
          "source": Param(str, required=False, default="stock", choices=("stock", "warehouse"))},
         category="economy", stakes=_business_stakes)
def goods_ship(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz = _business(world, p["business"])
    ctx.require_acts_for(character=biz["owner"])
    if p["destination"] == biz["province"]:
        raise CommandError("destination", f"{biz['name']} is already in {_name(world, 'provinces', p['destination'])}")
    good = _take_goods(world.edit("businesses", p["business"]), p["source"], p["good"], p["quantity"], p["source"])
    owner = world.edit("characters", biz["owner"])
    _add_goods(owner, "goods", good, p["quantity"])
    ctx.log(f"{biz['name']} ships {p['quantity']} {good} to {_name(world, 'provinces', p['destination'])} for "
            f"{owner['name']}.", kind="goods", audience=character_audience(biz["owner"]),
            refs={"business": p["business"], "good": good, "quantity": p["quantity"],
                  "destination": p["destination"]})
    return {"business": p["business"], "good": good, "quantity": p["quantity"], "destination": p["destination"],
            "owner_goods": dict(owner["goods"])}


@command("prices", "Commodity prices in a province: base, espionage modifiers and price (read only).",
         {"province": Param(str, ref="provinces"),
          "resources_only": Param(bool, required=False, default=False)},
         category="economy", undoable=False)
def prices(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    province = ctx.world.get("provinces", p["province"])
    goods = province.get("resources", []) if p["resources_only"] else None
    return {"province": p["province"], "prices": province_prices(ctx.world, p["province"], goods)}


@season_end_step("Unsold goods are sold to the market")
def _market_sales(ctx: CommandContext, report: StepReport) -> None:
    """Every business's stock sells at its province's price, one market-sale roll per good."""
    world = ctx.world
    for business_id in [bid for bid, biz in world.all("businesses") if biz.get("stock")]:
        biz = world.get("businesses", business_id)
        stock = biz["stock"]
        price_list = province_prices(world, biz["province"], stock)
        owner = biz["owner"]
        for good in sorted(stock):
            qty = int(stock[good])
            if qty <= 0:
                continue
            base = price_list.get(good, {"price": 1})["price"]
            sale = rules.market_sale(ctx.dice, base)
            record = ctx.record_roll(f"market sale: {qty} {good} of {biz['name']}", [sale.natural], sale.price,
                                     f"price {sale.price}", [], audience=character_audience(owner))
            proceeds = sale.price * qty
            ctx.log(f"{qty} {good} of {biz['name']} sell at {sale.price} each (base {base}, rolled "
                    f"{sale.natural}): {proceeds} ducats.", kind="market", audience=character_audience(owner),
                    rolls=[record], refs={"business": business_id, "good": good, "quantity": qty,
                                          "price": sale.price, "natural": sale.natural})
            if proceeds:
                ctx.move_ducats(None, _char(owner), proceeds, f"market sale of {qty} {good} from {biz['name']}",
                                audience=character_audience(owner))
            report.add("goods sold", qty)
            report.add("market proceeds", proceeds)
        world.edit("businesses", business_id)["stock"] = {}


# ---------------------------------------------------------------------------------------------
# Credit and loans
# ---------------------------------------------------------------------------------------------


def _open_liability(world: World, lender_id: str, kind: str) -> float:
    """What a lender still answers for on its open credit (or loans)."""
    total = 0.0
    for _, doc in world.all("ledger"):
        if doc.get("kind") == kind and doc.get("lender") == lender_id and doc.get("status") in OPEN_DEBT:
            total += _liability(doc)
    return total


def _liability(doc: dict[str, Any]) -> float:
    """The part of a debt the lender still guarantees: outstanding less what it already covered."""
    return max(0.0, float(doc["outstanding"]) - float(doc.get("owed_to_lender", 0)) - float(doc.get("bad_debt", 0)))


def _debt_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    biz = _business(world, p["lender"])
    return Stakes.of(_province_kingdom(world, biz["province"]), characters=[biz["owner"], p["debtor"]])


def _history(doc: dict[str, Any], world: World, event: str, amount: float, by: str = "") -> None:
    doc.setdefault("history", []).append({"date": world.meta["date"], "event": event, "amount": _num(amount),
                                          "by": by})


def _new_debt(ctx: CommandContext, kind: str, lender_id: str, debtor: str, amount: int, due: GameDate,
              extra: dict[str, Any]) -> str:
    """A ledger document: kind credit|loan, lender business and owner, debtor, amount, outstanding,
    owed_to_lender, lender_paid, bad_debt, drawn and due dates, status, parties, history."""
    world = ctx.world
    biz = _business(world, lender_id)
    ledger_id = world.new_id("ledger", "cr" if kind == "credit" else "ln")
    doc = {"kind": kind, "lender": lender_id, "lender_name": biz["name"], "lender_owner": biz["owner"],
           "debtor": debtor, "amount": amount, "outstanding": amount, "owed_to_lender": 0, "lender_paid": 0,
           "bad_debt": 0, "drawn": world.meta["date"], "due": due.to_dict(), "status": "open",
           "parties": _character_parties(world, debtor, biz["owner"]), "history": [], **extra}
    _history(doc, world, "drawn", amount, str(ctx.identity))
    world.put("ledger", ledger_id, doc)
    return ledger_id


def _log_parties(ctx: CommandContext, doc: dict[str, Any], text: str, skip: str | None, refs: dict[str, Any]) -> None:
    """A line for each party whose own money line (already written) did not tell them."""
    for cid in (doc["debtor"], doc["lender_owner"]):
        if cid != skip:
            ctx.log(text, kind="ledger", audience=character_audience(cid), refs=refs)
            skip = cid


def _lending(ctx: CommandContext, p: dict[str, Any], kind: str) -> tuple[dict[str, Any], float]:
    world = ctx.world
    biz = _business(world, p["lender"])
    ctx.require_acts_for(character=biz["owner"])
    if not world.get("characters", p["debtor"]).get("alive", True):
        raise CommandError("debtor", f"{_name(world, 'characters', p['debtor'])} is dead")
    limit = (rules.credit_limit if kind == "credit" else rules.loan_limit)(int(biz["size"]), biz["sector"])
    section = rules_table("economy")[kind]
    if limit <= 0:
        raise CommandError("lender", f"{biz['name']} ({biz['sector']}, Size {biz['size']}) cannot extend "
                           f"{kind}: it takes a {section['sector']} business of Size {section['min_size']} or more")
    used = _open_liability(world, p["lender"], kind)
    return biz, limit - used


def _fee(ctx: CommandContext, p: dict[str, Any], biz: dict[str, Any], what: str) -> None:
    if p["fee"]:
        ctx.move_ducats(_char(p["debtor"]), _char(biz["owner"]), p["fee"], f"fee to {biz['name']} for {what}",
                        audience=character_audience(p["debtor"]))


@command("credit-extend", "A commercial business of Size 4+ extends credit (up to 3 x Size) due in 4 seasons.",
         {"lender": Param(str, ref="businesses", help="the lending business"),
          "debtor": Param(str, ref="characters"),
          "amount": Param(int, minimum=1, help="ducats the debtor may spend now"),
          "fee": Param(int, required=False, default=0, minimum=0, help="ducats the debtor pays the owner now")},
         category="economy", stakes=_debt_stakes)
def credit_extend(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz, left = _lending(ctx, p, "credit")
    if p["amount"] > left:
        raise CommandError("amount", f"{biz['name']} may extend at most {_num(left)} more credit "
                           f"({rules.credit_limit(int(biz['size']), biz['sector'])} less "
                           f"{_num(_open_liability(world, p['lender'], 'credit'))} outstanding)")
    _require_witness(ctx, _debt_stakes(world, ctx.identity, p), "credit")
    due = _today(ctx).plus(rules.credit_due_seasons())
    ledger_id = _new_debt(ctx, "credit", p["lender"], p["debtor"], p["amount"], due, {"fee": p["fee"]})
    ctx.move_ducats(None, _char(p["debtor"]), p["amount"],
                    f"credit from {biz['name']} ({ledger_id}), due {due.label()}",
                    audience=character_audience(p["debtor"]))
    _fee(ctx, p, biz, "credit")
    _log_parties(ctx, world.get("ledger", ledger_id),
                 f"{biz['name']} extends {p['amount']} ducats of credit to {_name(world, 'characters', p['debtor'])} "
                 f"({ledger_id}), due {due.label()}; unpaid by then, the business pays it.",
                 p["debtor"], {"ledger": ledger_id})
    return {"ledger": ledger_id, "amount": p["amount"], "due": due.label(), "left": _num(left - p["amount"])}


@command("loan-extend", "A commercial business of Size 8+ lends (up to 12 x Size) for up to 5 years.",
         {"lender": Param(str, ref="businesses", help="the lending business"),
          "debtor": Param(str, ref="characters"),
          "principal": Param(int, minimum=1),
          "term": Param(int, minimum=1, help="years"),
          "collateral": Param(str, required=False, default="", help="free text"),
          "terms": Param(str, required=False, default="", help="conditions, free text"),
          "fee": Param(int, required=False, default=0, minimum=0, help="ducats the debtor pays the owner now")},
         category="economy", stakes=_debt_stakes)
def loan_extend(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz, left = _lending(ctx, p, "loan")
    if not rules.loan_term_allowed(p["term"]):
        raise CommandError("term", f"a loan runs 1 to {rules.loan_max_term_years()} years, not {p['term']}")
    if p["principal"] > left:
        raise CommandError("principal", f"{biz['name']} may lend at most {_num(left)} more "
                           f"({rules.loan_limit(int(biz['size']), biz['sector'])} less "
                           f"{_num(_open_liability(world, p['lender'], 'loan'))} outstanding)")
    _require_witness(ctx, _debt_stakes(world, ctx.identity, p), "a loan")
    due = _today(ctx).plus(4 * p["term"])
    ledger_id = _new_debt(ctx, "loan", p["lender"], p["debtor"], p["principal"], due,
                          {"term_years": p["term"], "collateral": p["collateral"].strip(),
                           "terms": p["terms"].strip(), "fee": p["fee"],
                           "instalment": rules.loan_instalment(p["principal"])})
    ctx.move_ducats(None, _char(p["debtor"]), p["principal"],
                    f"loan from {biz['name']} ({ledger_id}), due {due.label()}",
                    audience=character_audience(p["debtor"]))
    _fee(ctx, p, biz, "the loan")
    collateral = f"; collateral: {p['collateral'].strip()}" if p["collateral"].strip() else ""
    _log_parties(ctx, world.get("ledger", ledger_id),
                 f"{biz['name']} lends {p['principal']} ducats to {_name(world, 'characters', p['debtor'])} "
                 f"for {p['term']} year(s) ({ledger_id}), due {due.label()}{collateral}.",
                 p["debtor"], {"ledger": ledger_id})
    return {"ledger": ledger_id, "principal": p["principal"], "due": due.label(), "left": _num(left - p["principal"])}


def _repay(ctx: CommandContext, p: dict[str, Any], kind: str) -> dict[str, Any]:
    world = ctx.world
    doc = world.get("ledger", p["debt"])
    if doc.get("kind") != kind:
        raise CommandError("debt", f"{p['debt']} is a {doc.get('kind')}, not a {kind}")
    ctx.require_acts_for(character=doc["debtor"])
    outstanding = float(doc["outstanding"])
    if outstanding <= 0:
        raise CommandError("debt", f"{p['debt']} is already repaid")
    amount = float(p["amount"]) if p["amount"] is not None else outstanding
    if amount > outstanding + 1e-9:
        raise CommandError("amount", f"only {_num(outstanding)} is outstanding on {p['debt']}")
    to_lender = min(amount, float(doc.get("owed_to_lender", 0)))
    to_creditors = amount - to_lender
    debtor = _char(doc["debtor"])
    if to_lender:
        ctx.move_ducats(debtor, _char(doc["lender_owner"]), to_lender,
                        f"repays {doc['lender_name']} what it covered on {p['debt']}",
                        audience=character_audience(doc["debtor"]))
    if to_creditors:
        ctx.move_ducats(debtor, None, to_creditors, f"repays {kind} {p['debt']} of {doc['lender_name']}",
                        audience=character_audience(doc["debtor"]))
    entry = world.edit("ledger", p["debt"])
    entry["outstanding"] = _num(outstanding - amount)
    entry["owed_to_lender"] = _num(float(entry.get("owed_to_lender", 0)) - to_lender)
    # Repaying the part nobody covered settles the bad debt first.
    bad_paid = min(float(entry.get("bad_debt", 0)), to_creditors)
    if bad_paid:
        entry["bad_debt"] = _num(float(entry["bad_debt"]) - bad_paid)
        _settle_bad_debt_docs(world, p["debt"], bad_paid)
    _history(entry, world, "repaid", amount, str(ctx.principal))
    if float(entry["outstanding"]) <= 0:
        entry["status"] = "repaid"
    text = (f"{_name(world, 'characters', doc['debtor'])} repays {_num(amount)} on {kind} {p['debt']} of "
            f"{doc['lender_name']}; {_num(entry['outstanding'])} outstanding.")
    _log_parties(ctx, entry, text, doc["debtor"], {"ledger": p["debt"]})
    return {"ledger": p["debt"], "repaid": _num(amount), "outstanding": entry["outstanding"],
            "status": entry["status"]}


def _settle_bad_debt_docs(world: World, source: str, amount: float) -> None:
    for lid, doc in world.all("ledger"):
        if amount <= 0:
            return
        if doc.get("kind") == "bad-debt" and doc.get("source") == source and float(doc.get("outstanding", 0)) > 0:
            take = min(amount, float(doc["outstanding"]))
            entry = world.edit("ledger", lid)
            entry["outstanding"] = _num(float(entry["outstanding"]) - take)
            if float(entry["outstanding"]) <= 0:
                entry["status"] = "repaid"
            amount -= take


def _repay_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    doc = world.get("ledger", p["debt"])
    return Stakes.of(_owner_kingdom(world, doc["debtor"]), characters=[doc["debtor"]])


@command("credit-repay", "The debtor repays credit (all that is outstanding by default).",
         {"debt": Param(str, ref="ledger", help="the credit's ledger id"),
          "amount": Param(float, required=False, minimum=0.01)}, category="economy", stakes=_repay_stakes)
def credit_repay(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    return _repay(ctx, p, "credit")


@command("loan-repay", "The debtor repays a loan (all that is outstanding by default).",
         {"debt": Param(str, ref="ledger", help="the loan's ledger id"),
          "amount": Param(float, required=False, minimum=0.01)}, category="economy", stakes=_repay_stakes)
def loan_repay(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    return _repay(ctx, p, "loan")


def _lender_pays(ctx: CommandContext, ledger_id: str, amount: float, what: str) -> tuple[float, float]:
    """The lending business pays `amount` to the debtor's creditors: from its owner's treasury,
    then by liquidating Size (RULINGS §5); returns (covered, bad debt)."""
    world = ctx.world
    doc = world.get("ledger", ledger_id)
    owner = doc["lender_owner"]
    owner_doc = world.find("characters", owner)
    cash = min(max(0.0, float(owner_doc.get("treasury", 0))) if owner_doc else 0.0, amount)
    if cash > 0:
        ctx.move_ducats(_char(owner), None, cash, f"{doc['lender_name']} pays {what} of "
                        f"{_name(world, 'characters', doc['debtor'])} ({ledger_id})", audience=character_audience(owner))
    remaining = amount - cash
    raised_used = 0.0
    biz = world.find("businesses", doc["lender"])
    if remaining > 1e-9 and biz is not None:
        outcome = rules.liquidate(int(biz["size"]), biz["sector"], math.ceil(remaining - 1e-9))
        raised_used = min(float(outcome.ducats_raised), remaining)
        surplus = outcome.ducats_raised - raised_used
        if outcome.sizes_sold:
            edit = world.edit("businesses", doc["lender"])
            edit["size"] = outcome.remaining_size
            edit["invested"] = _num(max(0.0, float(edit.get("invested", 0))
                                        - rules.expansion_cost(biz["sector"], outcome.sizes_sold)))
            ctx.log(f"{biz['name']} liquidates {outcome.sizes_sold} Size (now {outcome.remaining_size}) to pay "
                    f"{_num(remaining)} of {what} of {_name(world, 'characters', doc['debtor'])} ({ledger_id}): "
                    f"raised {outcome.ducats_raised}.", kind="liquidation", audience=character_audience(owner),
                    refs={"business": doc["lender"], "ledger": ledger_id, "sizes_sold": outcome.sizes_sold,
                          "raised": outcome.ducats_raised})
        if surplus > 0:
            ctx.move_ducats(None, _char(owner), surplus, f"liquidation of {biz['name']} raised more than the debt",
                            audience=character_audience(owner))
        if outcome.remaining_size <= 0:
            _remove_business(ctx, doc["lender"], "liquidated to pay its creditors")
    covered = cash + raised_used
    bad = max(0.0, remaining - raised_used)
    entry = world.edit("ledger", ledger_id)
    entry["lender_paid"] = _num(float(entry.get("lender_paid", 0)) + covered)
    entry["owed_to_lender"] = _num(float(entry.get("owed_to_lender", 0)) + covered)
    _history(entry, world, f"lender paid {what}", covered, "year start" if world.date.is_year_start else "season")
    if bad > 1e-9:
        entry["bad_debt"] = _num(float(entry.get("bad_debt", 0)) + bad)
        _history(entry, world, "bad debt", bad)
        bad_id = world.new_id("ledger", "bd")
        world.put("ledger", bad_id, {
            "kind": "bad-debt", "debtor": doc["debtor"], "amount": _num(bad), "outstanding": _num(bad),
            "source": ledger_id, "lender": doc["lender"], "lender_name": doc["lender_name"],
            "lender_owner": owner, "date": world.meta["date"], "status": "open",
            "parties": list(doc["parties"])})
    return covered, bad


def _settle_due_credit(ctx: CommandContext, report: StepReport) -> None:
    """Credit falls due at the start of its due season: what is unpaid, the business pays."""
    world = ctx.world
    today = world.date
    for ledger_id, doc in list(world.all("ledger")):
        if doc.get("kind") != "credit" or doc.get("status") != "open":
            continue
        if GameDate.from_dict(doc["due"]) > today:
            continue
        owed = _liability(doc)
        entry = world.edit("ledger", ledger_id)
        if owed <= 0:
            entry["status"] = "repaid"
            continue
        covered, bad = _lender_pays(ctx, ledger_id, owed, "unpaid credit")
        entry["status"] = "defaulted" if bad > 0 else "covered"
        text = (f"Credit {ledger_id} of {_name(world, 'characters', doc['debtor'])} falls due with {_num(owed)} unpaid: "
                f"{doc['lender_name']} pays {_num(covered)}" + (f"; {_num(bad)} is a bad debt" if bad else "")
                + f". {_name(world, 'characters', doc['debtor'])} now owes {doc['lender_name']}'s owner "
                f"{_num(entry['owed_to_lender'])}.")
        _log_parties(ctx, entry, text, None, {"ledger": ledger_id, "covered": _num(covered), "bad_debt": _num(bad)})
        report.add("credit covered by lenders", covered)
        if bad:
            report.add("bad debt", bad)
        report.lines.append(text)


def _loan_instalments(ctx: CommandContext, report: StepReport) -> None:
    """After its term, an unpaid loan costs the lender ceil(principal / 4) a year until covered."""
    world = ctx.world
    today = world.date
    for ledger_id, doc in list(world.all("ledger")):
        if doc.get("kind") != "loan" or doc.get("status") not in OPEN_DEBT:
            continue
        if GameDate.from_dict(doc["due"]) > today:
            continue
        owed = _liability(doc)
        entry = world.edit("ledger", ledger_id)
        if owed <= 0:
            entry["status"] = "repaid" if float(doc["outstanding"]) <= 0 else "covered"
            continue
        instalment = min(float(rules.loan_instalment(int(doc["amount"]))), owed)
        covered, bad = _lender_pays(ctx, ledger_id, instalment, "a loan instalment")
        left = _liability(entry)
        entry["status"] = "defaulted" if bad > 0 else ("overdue" if left > 0 else "covered")
        text = (f"Loan {ledger_id} of {_name(world, 'characters', doc['debtor'])} is past its term: "
                f"{doc['lender_name']} pays an instalment of {_num(covered)}"
                + (f" ({_num(bad)} unpaid: bad debt)" if bad else "")
                + f"; {_num(left)} still to cover.")
        _log_parties(ctx, entry, text, None, {"ledger": ledger_id, "covered": _num(covered), "bad_debt": _num(bad)})
        report.add("loan instalments paid by lenders", covered)
        if bad:
            report.add("bad debt", bad)
        report.lines.append(text)


@year_start_step("credit-loans")
def _credit_loans(ctx: CommandContext, report: StepReport) -> None:
    _settle_due_credit(ctx, report)
    _loan_instalments(ctx, report)


@season_start_step("Credit falls due")
def _credit_season(ctx: CommandContext, report: StepReport) -> None:
    _settle_due_credit(ctx, report)


@due_reporter
def _due_debts(world: World) -> list[dict[str, Any]]:
    """Credit and loans falling due this season or the next, for each party."""
    today = world.date
    items: list[dict[str, Any]] = []
    for ledger_id, doc in world.all("ledger"):
        if doc.get("kind") not in ("credit", "loan") or doc.get("status") not in OPEN_DEBT:
            continue
        due = GameDate.from_dict(doc["due"])
        owed = _liability(doc)
        if owed <= 0:
            continue
        if doc["kind"] == "loan" and due <= today:
            if not today.next().is_year_start:
                continue
            text = (f"Loan {ledger_id} ({doc['lender_name']} to {world.display_name('characters', doc['debtor'])}) "
                    f"is past its term: an instalment of {_num(min(owed, float(doc.get('instalment', 0)) or owed))} "
                    f"falls on the lender at year start")
            urgent = True
        elif due == today.next():
            text = (f"{doc['kind'].capitalize()} {ledger_id} ({doc['lender_name']} to "
                    f"{world.display_name('characters', doc['debtor'])}): {_num(owed)} falls due at the start of "
                    f"{due.label()}")
            urgent = True
        elif due == today.next().next():
            text = (f"{doc['kind'].capitalize()} {ledger_id}: {_num(owed)} falls due in {due.label()}")
            urgent = False
        else:
            continue
        for cid in dict.fromkeys((doc["debtor"], doc["lender_owner"])):
            items.append({"kind": doc["kind"], "text": text, "audience": character_audience(cid), "urgent": urgent})
    return items


# ---------------------------------------------------------------------------------------------
# Specialists: pools and shared helpers
# ---------------------------------------------------------------------------------------------


def specialist_pool(world: World, kingdom_id: str) -> dict[str, Any]:
    """A kingdom's pool (read only); zeros when it has none yet."""
    return world.find("specialists", kingdom_id) or {"kingdom": kingdom_id}


def _pool_for_edit(world: World, kingdom_id: str) -> dict[str, Any]:
    world.get("kingdoms", kingdom_id)
    if world.find("specialists", kingdom_id) is None:
        world.put("specialists", kingdom_id, {"kingdom": kingdom_id, "engineer": 0, "spy": 0, "missionary": 0,
                                              "sailor": 0, "cold_spy": 0,
                                              "counter_spies": {"provinces": [], "nation": 0}})
    return world.edit("specialists", kingdom_id)


def add_specialists(ctx: CommandContext, kingdom_id: str, kind: str, count: int, reason: str,
                    log: bool = True) -> None:
    """Put specialists into a kingdom's pool (arrivals, academies, returns) with a chronicle line."""
    if count <= 0:
        return
    pool = _pool_for_edit(ctx.world, kingdom_id)
    pool[kind] = int(pool.get(kind, 0)) + count
    if log:
        ctx.log(f"{_name(ctx.world, 'kingdoms', kingdom_id)} gains {count} {kind}(s): {reason} "
                f"(now {pool[kind]}).", kind="specialists", audience=kingdom_audience(kingdom_id),
                refs={"kingdom": kingdom_id, "type": kind, "change": count})


def take_specialists(ctx: CommandContext, kingdom_id: str, kind: str, count: int, reason: str,
                     field: str = "count", log: bool = True) -> None:
    """Take specialists out of a pool, or refuse naming `field` when there are too few."""
    have = int(specialist_pool(ctx.world, kingdom_id).get(kind, 0))
    if have < count:
        raise CommandError(field, f"{_name(ctx.world, 'kingdoms', kingdom_id)} has {have} {kind}(s), "
                           f"{count} needed for {reason}")
    if count <= 0:
        return
    pool = _pool_for_edit(ctx.world, kingdom_id)
    pool[kind] = have - count
    if log:
        ctx.log(f"{_name(ctx.world, 'kingdoms', kingdom_id)} uses {count} {kind}(s): {reason} (now {pool[kind]}).",
                kind="specialists", audience=kingdom_audience(kingdom_id),
                refs={"kingdom": kingdom_id, "type": kind, "change": -count})


def controlled_provinces(world: World, kingdom_id: str) -> int:
    return sum(1 for _, prov in world.all("provinces") if prov.get("kingdom") == kingdom_id)


def hire_status(world: World, kingdom_id: str) -> dict[str, dict[str, int]]:
    """Per hireable type: hired this year and the year's limit (one per controlled province)."""
    counters = (world.get("kingdoms", kingdom_id).get("year_counters") or {})
    limit = rules.hire_limit(controlled_provinces(world, kingdom_id))
    return {kind: {"hired": int(counters.get(f"hired_{kind}", 0)), "limit": limit}
            for kind in rules.specialist_types() if rules.hireable(kind)}


def _kingdom_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    return Stakes.of(p["kingdom"], kingdoms=[p["kingdom"]])


def _arrival(ctx: CommandContext, kingdom_id: str, kind: str, count: int, seasons: int, source: str) -> str | None:
    """Immediately into the pool, or scheduled for the start of a later season."""
    if seasons <= 0:
        add_specialists(ctx, kingdom_id, kind, count, source)
        return None
    due = _today(ctx).plus(seasons)
    text = f"{count} {kind}(s) for {_name(ctx.world, 'kingdoms', kingdom_id)} ({source})"
    return schedule_event(ctx.world, due, "specialists-arrive",
                          {"kingdom": kingdom_id, "type": kind, "count": count, "source": source, "text": text},
                          kingdom_audience(kingdom_id))


@on_event("specialists-arrive")
def _specialists_arrive(ctx: CommandContext, event: dict[str, Any], report: StepReport) -> None:
    data = event["data"]
    if ctx.world.find("kingdoms", data["kingdom"]) is None:
        return
    add_specialists(ctx, data["kingdom"], data["type"], int(data["count"]), f"arrive ({data.get('source', '')})")
    report.add(f"{data['type']}s arrive", int(data["count"]))
    report.lines.append(data.get("text", ""))


@command("hire", "Hire specialists: 2 ducats each arriving next season, or 3 at once; one per province a year.",
         {"kingdom": Param(str, ref="kingdoms"),
          "type": Param(str, choices=HIRED_TYPES),
          "immediate": Param(bool, required=False, default=False, help="3 ducats, arrives at once"),
          "count": Param(int, required=False, default=1, minimum=1)},
         category="economy", stakes=_kingdom_stakes)
def hire(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    kingdom_id, kind, count = p["kingdom"], p["type"], p["count"]
    ctx.require_acts_for(kingdom=kingdom_id)
    if not rules.hireable(kind):
        raise CommandError("type", f"{kind}s cannot be hired")
    status = hire_status(world, kingdom_id)[kind]
    if not rules.hire_allowed(status["hired"] + count - 1, controlled_provinces(world, kingdom_id)):
        raise CommandError("count", f"{_name(world, 'kingdoms', kingdom_id)} may hire {status['limit']} {kind}(s) a "
                           f"year (one per province it controls); {status['hired']} hired this year, "
                           f"{max(0, status['limit'] - status['hired'])} left")
    cost = rules.hire_cost(p["immediate"]) * count
    when = "at once" if p["immediate"] else "next season"
    ctx.move_ducats(("kingdoms", kingdom_id), None, cost, f"hiring {count} {kind}(s), arriving {when}",
                    audience=kingdom_audience(kingdom_id))
    counters = world.edit("kingdoms", kingdom_id).setdefault("year_counters", {})
    counters[f"hired_{kind}"] = status["hired"] + count
    event = _arrival(ctx, kingdom_id, kind, count, rules.hire_arrival_seasons(p["immediate"]), "hired")
    return {"kingdom": kingdom_id, "type": kind, "count": count, "cost": cost, "arrives": when,
            "event": event, "hired_this_year": status["hired"] + count, "limit": status["limit"]}


def trained_this_year(world: World, biz: dict[str, Any]) -> int:
    """Specialists a business has sponsored this year (`trained` {year, count})."""
    trained = biz.get("trained") or {}
    return int(trained.get("count", 0)) if trained.get("year") == world.date.year else 0


@command("sponsor-training", "A service business of Size 3+ sponsors specialists: 1 ducat each, up to Size a year.",
         {"business": Param(str, ref="businesses"),
          "type": Param(str, choices=("engineer", "spy", "missionary", "sailor")),
          "count": Param(int, required=False, default=1, minimum=1)},
         category="economy", stakes=_business_stakes)
def sponsor_training(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz = _business(world, p["business"])
    ctx.require_acts_for(character=biz["owner"])
    limit = rules.training_limit(int(biz["size"]), biz["sector"])
    if limit <= 0:
        section = rules_table("economy")["training"]
        raise CommandError("business", f"{biz['name']} ({biz['sector']}, Size {biz['size']}) cannot sponsor training: "
                           f"it takes a {section['sector']} business of Size {section['min_size']} or more")
    done = trained_this_year(world, biz)
    if done + p["count"] > limit:
        raise CommandError("count", f"{biz['name']} sponsors at most {limit} a year; {done} this year, "
                           f"{limit - done} left")
    kingdom_id = _owner_kingdom(world, biz["owner"])
    if kingdom_id is None:
        raise CommandError("business", f"{_name(world, 'characters', biz['owner'])} serves no kingdom to train for")
    cost = rules.training_cost(p["count"])
    ctx.move_ducats(_char(biz["owner"]), None, cost, f"{biz['name']} sponsors training of {p['count']} {p['type']}(s)",
                    audience=character_audience(biz["owner"]))
    # Year-stamped rather than a year_counter, so the year start has nothing to reset (and need not
    # copy thousands of business documents to do it).
    world.edit("businesses", p["business"])["trained"] = {"year": world.date.year, "count": done + p["count"]}
    event = _arrival(ctx, kingdom_id, p["type"], p["count"], rules.training_arrival_seasons(),
                     f"trained by {biz['name']}")
    return {"business": p["business"], "kingdom": kingdom_id, "type": p["type"], "count": p["count"],
            "cost": cost, "event": event, "trained_this_year": done + p["count"], "limit": limit}


# ---------------------------------------------------------------------------------------------
# Academies
# ---------------------------------------------------------------------------------------------


@command("academy-found", "Found an academy in a town: 3 specialists of a type per level.",
         {"kingdom": Param(str, ref="kingdoms"), "pc": Param(str, ref="pcs"),
          "type": Param(str, choices=HIRED_TYPES),
          "levels": Param(int, required=False, default=1, minimum=1)},
         category="economy", stakes=_kingdom_stakes)
def academy_found(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    ctx.require_acts_for(kingdom=p["kingdom"])
    pc = world.get("pcs", p["pc"])
    if pc.get("kind") not in ACADEMY_PC_KINDS:
        raise CommandError("pc", f"{pc['name']} is a {pc.get('kind')}; academies stand in a town "
                           f"({', '.join(ACADEMY_PC_KINDS)})")
    if pc.get("controller") != p["kingdom"]:
        raise CommandError("pc", f"{pc['name']} is not controlled by {_name(world, 'kingdoms', p['kingdom'])}")
    for aid, academy in world.all("academies"):
        if academy.get("pc") == p["pc"] and academy.get("type") == p["type"]:
            raise CommandError("pc", f"{pc['name']} already has a {p['type']} academy ({aid}); use academy-expand")
    needed = rules.academy_specialists_needed(p["levels"])
    take_specialists(ctx, p["kingdom"], p["type"], needed, f"founding a level-{p['levels']} academy", "levels",
                     log=False)
    academy_id = world.new_id("academies", "ac")
    world.put("academies", academy_id, {"kingdom": p["kingdom"], "pc": p["pc"], "type": p["type"],
                                        "level": p["levels"], "founded": world.meta["date"]})
    ctx.log(f"{_name(world, 'kingdoms', p['kingdom'])} founds a level-{p['levels']} {p['type']} academy in "
            f"{pc['name']}, expending {needed} {p['type']}(s).", kind="academy",
            refs={"academy": academy_id, "type": p["type"], "level": p["levels"], "expended": needed})
    return {"academy": academy_id, "level": p["levels"], "expended": needed}


def _academy_stakes(world: World, p: dict[str, Any]) -> Stakes:
    kingdom_id = world.get("academies", p["academy"])["kingdom"]
    return Stakes.of(kingdom_id, kingdoms=[kingdom_id])


@command("academy-expand", "Add levels to an academy: 3 specialists of its type per level.",
         {"academy": Param(str, ref="academies"),
          "levels": Param(int, required=False, default=1, minimum=1)},
         category="economy", stakes=lambda w, i, p: _academy_stakes(w, p))
def academy_expand(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    academy = world.get("academies", p["academy"])
    kingdom_id, kind = academy["kingdom"], academy["type"]
    ctx.require_acts_for(kingdom=kingdom_id)
    needed = rules.academy_specialists_needed(p["levels"])
    take_specialists(ctx, kingdom_id, kind, needed, f"expanding an academy by {p['levels']} level(s)", "levels",
                     log=False)
    doc = world.edit("academies", p["academy"])
    doc["level"] = int(doc["level"]) + p["levels"]
    ctx.log(f"The {kind} academy in {_name(world, 'pcs', academy['pc'])} grows to level {doc['level']}, expending "
            f"{needed} {kind}(s).", kind="academy",
            refs={"academy": p["academy"], "level": doc["level"], "expended": needed})
    return {"academy": p["academy"], "level": doc["level"], "expended": needed}


def academy_follow_town(ctx: CommandContext, pc_id: str, captor_kingdom: str | None) -> list[str]:
    """A town's academies follow it: destroyed with the town (captor None) or passed to the captor.
    The warfare layer calls this when a town is captured or destroyed; returns the academy ids."""
    world = ctx.world
    changed: list[str] = []
    for academy_id, academy in list(world.all("academies")):
        if academy.get("pc") != pc_id:
            continue
        where = _name(world, "pcs", pc_id)
        if captor_kingdom is None:
            world.delete("academies", academy_id)
            ctx.log(f"The level-{academy['level']} {academy['type']} academy in {where} is destroyed with its town.",
                    kind="academy", refs={"academy": academy_id, "destroyed": True})
        elif academy.get("kingdom") != captor_kingdom:
            world.get("kingdoms", captor_kingdom)
            old = academy.get("kingdom")
            world.edit("academies", academy_id)["kingdom"] = captor_kingdom
            ctx.log(f"The level-{academy['level']} {academy['type']} academy in {where} passes from "
                    f"{_name(world, 'kingdoms', old)} to {_name(world, 'kingdoms', captor_kingdom)} with its town.",
                    kind="academy", refs={"academy": academy_id, "from": old, "to": captor_kingdom})
        else:
            continue
        changed.append(academy_id)
    return changed


def _effect_kind(doc: dict[str, Any]) -> str:
    return str(doc.get("kind") or doc.get("effect") or "")


def _effect_target(doc: dict[str, Any]) -> str | None:
    for key in ("target_kingdom", "target", "kingdom"):
        if doc.get(key):
            return str(doc[key])
    return None


def _effect_param(doc: dict[str, Any], *keys: str) -> Any:
    nested = [doc, doc.get("data") or {}, doc.get("params") or {}]
    for key in keys:
        for place in nested:
            if place.get(key) is not None:
                return place[key]
    return None


def _active(doc: dict[str, Any]) -> bool:
    return doc.get("active", True) is not False and not doc.get("consumed")


def _consume_reductions(ctx: CommandContext, kinds: tuple[str, ...], kingdom_id: str, specialist: str | None,
                        default: int) -> tuple[int, bool, list[str]]:
    """Sum the active espionage reductions of `kinds` aimed at a kingdom (and type) that are due,
    and mark them `consumed` (espionage's own expiry step ends them). Returns (reduction, whether
    the target knows of every one, effect ids)."""
    total, known, used = 0, True, []
    today = ctx.world.date
    for effect_id, effect in list(ctx.world.all("effects")):
        if _effect_kind(effect) not in kinds or _effect_target(effect) != kingdom_id or not _active(effect):
            continue
        if effect.get("due") and GameDate.from_dict(effect["due"]) > today:
            continue
        if specialist is not None:
            wanted = _effect_param(effect, "specialist", "type", "specialist_type")
            if wanted is not None and wanted != specialist:
                continue
        amount = _effect_param(effect, "reduction", "graduation_reduction", "recruitment_reduction")
        total += int(amount if amount is not None else default)
        known = known and bool(effect.get("known_to_target", False))
        ctx.world.edit("effects", effect_id)["consumed"] = ctx.world.meta["date"]
        used.append(effect_id)
    return total, known, used


def _production(ctx: CommandContext, report: StepReport) -> None:
    """Year start: academies graduate, ports bring sailors, gunpowder engineers deliver barrels."""
    world = ctx.world
    # Academies: per kingdom and type, the sum of levels, less espionage interference (consumed).
    output: dict[tuple[str, str], int] = {}
    for _, academy in sorted(world.all("academies")):
        key = (academy["kingdom"], academy["type"])
        output[key] = output.get(key, 0) + rules.academy_output(int(academy.get("level", 0)))
    for (kingdom_id, kind), made in sorted(output.items()):
        if world.find("kingdoms", kingdom_id) is None:
            continue
        cut, known, used = _consume_reductions(ctx, ACADEMY_INTERFERENCE, kingdom_id, kind, 2)
        gained = max(0, made - cut)
        note = f" ({made} less {cut} from academy interference)" if cut else ""
        add_specialists(ctx, kingdom_id, kind, gained, "academy graduates", log=False)
        # The target learns of the interference only if espionage detected it (RULINGS §7).
        ctx.log(f"{_name(world, 'kingdoms', kingdom_id)}'s {kind} academies graduate {gained}"
                f"{note if known else ''}.", kind="year-start", audience=kingdom_audience(kingdom_id),
                secret=f"{made} due, {cut} cut by interference ({', '.join(used)})" if cut else "",
                refs={"kingdom": kingdom_id, "type": kind, "graduates": gained})
        report.add("academy graduates", gained)
    # Sailors: one per port held.
    ports: dict[str, int] = {}
    for _, province in world.all("provinces"):
        for port_id in province.get("ports", []):
            holder = world.kingdom_of_pc(port_id)
            if holder:
                ports[holder] = ports.get(holder, 0) + 1
    for kingdom_id, count in sorted(ports.items()):
        if world.find("kingdoms", kingdom_id) is None:
            continue
        made = rules.sailors_gained(count)
        cut, known, used = _consume_reductions(ctx, SAILOR_RECRUITMENT, kingdom_id, None, 3)
        gained = max(0, made - cut)
        note = f" ({made} less {cut} from interference with shipbuilding)" if cut else ""
        add_specialists(ctx, kingdom_id, "sailor", gained, "", log=False)
        ctx.log(f"{_name(world, 'kingdoms', kingdom_id)} gains {gained} sailor(s) from {count} port(s)"
                f"{note if known else ''}.", kind="year-start", audience=kingdom_audience(kingdom_id),
                secret=f"{made} due, {cut} cut by interference ({', '.join(used)})" if cut else "",
                refs={"kingdom": kingdom_id, "type": "sailor", "ports": count, "gained": gained})
        report.add("sailors", gained)
    # Gunpowder: each assigned engineer makes a barrel, then is free again.
    for kingdom_id, pool in sorted(world.all("specialists")):
        engineers = int((pool.get("engineers_assigned") or {}).get("gunpowder", 0))
        if engineers <= 0 or world.find("kingdoms", kingdom_id) is None:
            continue
        barrels = rules.gunpowder_barrels(engineers)
        kingdom = world.edit("kingdoms", kingdom_id)
        _add_goods(kingdom, "goods", GUNPOWDER, barrels)
        edit = world.edit("specialists", kingdom_id)
        edit["engineers_assigned"]["gunpowder"] = 0
        edit["engineer"] = int(edit.get("engineer", 0)) + engineers
        ctx.log(f"{_name(world, 'kingdoms', kingdom_id)}'s {engineers} gunpowder engineer(s) deliver {barrels} "
                f"barrel(s) and return to the pool.", kind="year-start", audience=kingdom_audience(kingdom_id),
                refs={"kingdom": kingdom_id, "barrels": barrels, "engineers": engineers})
        report.add("gunpowder barrels", barrels)


year_start_step("production")(_production)


# ---------------------------------------------------------------------------------------------
# Engineers
# ---------------------------------------------------------------------------------------------


def assign_engineers(ctx: CommandContext, kingdom_id: str, count: int, task: str, engine: str | None = None) -> None:
    """Take engineers from the pool for siege engines (`engine` names them) or gunpowder."""
    if task not in ENGINEER_TASKS:
        raise CommandError("task", f"engineers work on {', '.join(ENGINEER_TASKS)}, not {task!r}")
    if task == "siege" and not (engine or "").strip():
        raise CommandError("engine", "name the siege engine (or unit) the engineers build")
    take_specialists(ctx, kingdom_id, "engineer", count, f"{task} work", log=False)
    pool = _pool_for_edit(ctx.world, kingdom_id)
    assigned = pool.setdefault("engineers_assigned", {"siege": {}, "gunpowder": 0})
    assigned.setdefault("siege", {})
    if task == "gunpowder":
        assigned["gunpowder"] = int(assigned.get("gunpowder", 0)) + count
    else:
        key = str(engine).strip()
        assigned["siege"][key] = int(assigned["siege"].get(key, 0)) + count


def release_engineers(ctx: CommandContext, kingdom_id: str, engine: str, count: int | None = None) -> int:
    """Siege engines disbanded: their engineers return to the pool. Returns how many returned."""
    pool = specialist_pool(ctx.world, kingdom_id)
    siege = (pool.get("engineers_assigned") or {}).get("siege") or {}
    have = int(siege.get(engine, 0))
    if have <= 0:
        known = ", ".join(siege) or "none"
        raise CommandError("engine", f"no engineers of {_name(ctx.world, 'kingdoms', kingdom_id)} work on "
                           f"{engine!r} (siege work: {known})")
    back = have if count is None else count
    if back > have:
        raise CommandError("count", f"only {have} engineer(s) work on {engine}")
    edit = _pool_for_edit(ctx.world, kingdom_id)
    if back == have:
        del edit["engineers_assigned"]["siege"][engine]
    else:
        edit["engineers_assigned"]["siege"][engine] = have - back
    edit["engineer"] = int(edit.get("engineer", 0)) + back
    return back


@command("engineer-assign", "Assign engineers to siege engines or to gunpowder (away until year start).",
         {"kingdom": Param(str, ref="kingdoms"), "task": Param(str, choices=ENGINEER_TASKS),
          "count": Param(int, required=False, default=1, minimum=1),
          "engine": Param(str, required=False, help="siege engine or unit (siege work)")},
         category="economy", stakes=_kingdom_stakes)
def engineer_assign(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    ctx.require_acts_for(kingdom=p["kingdom"])
    assign_engineers(ctx, p["kingdom"], p["count"], p["task"], p["engine"])
    what = "gunpowder (1 barrel each at year start)" if p["task"] == "gunpowder" else f"siege engine {p['engine']}"
    ctx.log(f"{_name(ctx.world, 'kingdoms', p['kingdom'])} assigns {p['count']} engineer(s) to {what}.",
            kind="specialists", audience=kingdom_audience(p["kingdom"]),
            refs={"kingdom": p["kingdom"], "task": p["task"], "engine": p["engine"], "count": p["count"]})
    return {"kingdom": p["kingdom"], "task": p["task"], "count": p["count"],
            "pool": int(specialist_pool(ctx.world, p["kingdom"]).get("engineer", 0))}


@command("engineer-release", "Siege engines disbanded: their engineers return to the pool.",
         {"kingdom": Param(str, ref="kingdoms"), "engine": Param(str),
          "count": Param(int, required=False, minimum=1, help="default: all of them")},
         category="economy", stakes=_kingdom_stakes)
def engineer_release(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    ctx.require_acts_for(kingdom=p["kingdom"])
    back = release_engineers(ctx, p["kingdom"], p["engine"], p["count"])
    ctx.log(f"{back} engineer(s) of {_name(ctx.world, 'kingdoms', p['kingdom'])} return from {p['engine']}.",
            kind="specialists", audience=kingdom_audience(p["kingdom"]),
            refs={"kingdom": p["kingdom"], "engine": p["engine"], "count": back})
    return {"kingdom": p["kingdom"], "returned": back,
            "pool": int(specialist_pool(ctx.world, p["kingdom"]).get("engineer", 0))}


@command("trap", "Spend 1 ducat and an engineer for +1 in one fight (attacking or defending).",
         {"kingdom": Param(str, ref="kingdoms"), "fight": Param(str, help="which fight, e.g. the hex or battle"),
          "unit": Param(str, required=False, ref="units", help="the unit it helps")},
         category="economy", stakes=_kingdom_stakes)
def trap(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    ctx.require_acts_for(kingdom=p["kingdom"])
    if not p["fight"].strip():
        raise CommandError("fight", "is empty: say which fight the trap is for")
    take_specialists(ctx, p["kingdom"], "engineer", 1, "a trap", "kingdom", log=False)
    cost = rules.trap_cost()
    ctx.move_ducats(("kingdoms", p["kingdom"]), None, cost, f"a trap for {p['fight']}",
                    audience=kingdom_audience(p["kingdom"]))
    effect_id = world.new_id("effects", "trap")
    world.put("effects", effect_id, {"kind": "trap", "holder_kingdom": p["kingdom"], "fight": p["fight"].strip(),
                                     "unit": p["unit"], "bonus": rules.trap_bonus(), "engineers": 1,
                                     "created": world.meta["date"], "active": True})
    ctx.log(f"{_name(world, 'kingdoms', p['kingdom'])} sets a trap (+{rules.trap_bonus()}) for {p['fight']} with "
            f"one engineer.", kind="specialists", audience=kingdom_audience(p["kingdom"]),
            refs={"effect": effect_id, "fight": p["fight"]})
    return {"trap": effect_id, "bonus": rules.trap_bonus(), "cost": cost}


@command("trap-resolve", "After the fight: the trap's engineer returns, or defects to the winner if no friendly "
         "unit escaped.",
         {"trap": Param(str, ref="effects"),
          "friendly_escaped": Param(bool, help="did any friendly unit escape (or hold) the field?"),
          "winner": Param(str, required=False, ref="kingdoms", help="the victorious kingdom")},
         category="economy")
def trap_resolve(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    effect = world.get("effects", p["trap"])
    if _effect_kind(effect) != "trap" or not _active(effect):
        raise CommandError("trap", f"{p['trap']} is not an active trap")
    holder = effect["holder_kingdom"]
    if not ctx.identity.is_gm:
        ctx.require_adjudicator(Stakes.of(None, kingdoms=[holder, p["winner"]]))
    engineers = int(effect.get("engineers", 1))
    if p["friendly_escaped"] or p["winner"] in (None, holder):
        destination = holder if p["friendly_escaped"] or p["winner"] == holder else None
    else:
        destination = p["winner"]
    if destination is not None:
        add_specialists(ctx, destination, "engineer", engineers, "", log=False)
    world.delete("effects", p["trap"])
    if destination == holder:
        text = f"The trap engineer of {_name(world, 'kingdoms', holder)} returns from {effect['fight']}."
        fate = "returned"
    elif destination is None:
        text = f"The trap engineer of {_name(world, 'kingdoms', holder)} is lost at {effect['fight']}."
        fate = "lost"
    else:
        text = (f"No unit of {_name(world, 'kingdoms', holder)} escaped {effect['fight']}: its trap engineer "
                f"defects to {_name(world, 'kingdoms', destination)}.")
        fate = "defected"
    ctx.log(text, kind="specialists", refs={"trap": p["trap"], "fate": fate, "to": destination})
    return {"trap": p["trap"], "fate": fate, "to": destination}


# ---------------------------------------------------------------------------------------------
# Missionaries
# ---------------------------------------------------------------------------------------------


def _standing_counter(world: World, province_id: str, sponsor: str) -> tuple[str, dict[str, Any]] | None:
    found = [(eid, e) for eid, e in world.all("effects")
             if _effect_kind(e) == "counter-missionary" and e.get("province") == province_id
             and e.get("holder_kingdom") != sponsor and _active(e)]
    if not found:
        return None
    owner = world.kingdom_of_province(province_id)
    found.sort(key=lambda item: (item[1].get("holder_kingdom") != owner, item[0]))
    return found[0]


def _counter_of(world: World, p: dict[str, Any]) -> tuple[str | None, int, str | None]:
    """(counter kingdom, counter ducats, standing-counter effect id) for a conversion."""
    if p.get("counter_kingdom"):
        return p["counter_kingdom"], int(p.get("counter_ducats") or 0), None
    standing = _standing_counter(world, p["province"], p["sponsor"])
    if standing is None:
        return None, 0, None
    effect_id, effect = standing
    holder = effect["holder_kingdom"]
    treasury = max(0.0, float(world.get("kingdoms", holder).get("treasury", 0)))
    return holder, min(int(effect.get("ducats", 0)), int(treasury)), effect_id


def _convert_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    counter, _, _ = _counter_of(world, p)
    return Stakes.of(world.kingdom_of_province(p["province"]), kingdoms=[p["sponsor"], counter])


def _convert_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    counter, counter_ducats, _ = _counter_of(world, p)
    bands, success = rules.conversion_odds(p["ducats"], counter is not None, counter_ducats)
    return {"odds": bands, "success": success, "countered": counter is not None}


@command("convert", "Missionary conversion: RtD at -2, +1 per ducat; a counter-missionary -3, -1 per ducat.",
         {"province": Param(str, ref="provinces"),
          "sponsor": Param(str, ref="kingdoms", help="the kingdom sending the missionary"),
          "ducats": Param(int, required=False, default=0, minimum=0, help="extra ducats, +1 each"),
          "counter_kingdom": Param(str, required=False, ref="kingdoms",
                                   help="a defending kingdom's counter-missionary (GM only)"),
          "counter_ducats": Param(int, required=False, default=0, minimum=0)},
         category="economy", odds=_convert_odds, stakes=_convert_stakes, rolls=True)
def convert(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    sponsor, province_id = p["sponsor"], p["province"]
    ctx.require_acts_for(kingdom=sponsor)
    if p["counter_kingdom"] and not ctx.principal.is_gm:
        raise CommandError("counter_kingdom", "a counter-missionary is entered by the GM, or staked beforehand by "
                           "the defending kingdom with convert-counter")
    if p["counter_ducats"] and not p["counter_kingdom"]:
        raise CommandError("counter_ducats", "counter ducats need a counter_kingdom")
    if p["counter_kingdom"] == sponsor:
        raise CommandError("counter_kingdom", "a kingdom does not counter its own missionary")
    province = world.get("provinces", province_id)
    faith = world.get("kingdoms", sponsor).get("faith")
    if not faith:
        raise CommandError("sponsor", f"{_name(world, 'kingdoms', sponsor)} has no faith to spread")
    if province.get("faith") == faith:
        raise CommandError("province", f"{province['name']} already follows {faith}")
    counter, counter_ducats, standing = _counter_of(world, p)
    ctx.require_adjudicator(_convert_stakes(world, ctx.identity, p))
    take_specialists(ctx, sponsor, "missionary", 1, f"conversion of {province['name']}", "sponsor", log=False)
    if p["ducats"]:
        ctx.move_ducats(("kingdoms", sponsor), None, p["ducats"], f"missionary work in {province['name']}",
                        audience=kingdom_audience(sponsor))
    if counter is not None:
        if int(specialist_pool(world, counter).get("missionary", 0)) < 1:
            if standing is None:
                raise CommandError("counter_kingdom", f"{_name(world, 'kingdoms', counter)} has no missionary")
            counter = None  # a standing counter without a missionary left lapses
            counter_ducats = 0
        else:
            take_specialists(ctx, counter, "missionary", 1, f"countering the conversion of {province['name']}",
                             "counter_kingdom", log=False)
            if counter_ducats:
                ctx.move_ducats(("kingdoms", counter), None, counter_ducats,
                                f"counter-missionary work in {province['name']}", audience=kingdom_audience(counter))
    if standing is not None:
        world.delete("effects", standing)
    outcome = rules.conversion(ctx.dice, p["ducats"], counter is not None, counter_ducats)
    record = ctx.record_roll(f"conversion of {province['name']} to {faith}", [outcome.natural], outcome.total,
                             outcome.band, list(outcome.modifiers))
    old_faith = province.get("faith")
    if outcome.success:
        world.edit("provinces", province_id)["faith"] = faith
    countered = f", countered by {_name(world, 'kingdoms', counter)}" if counter else ""
    result = f"{province['name']} converts from {old_faith} to {faith}" if outcome.success else \
        f"{province['name']} keeps {old_faith}"
    ctx.log(f"A missionary of {_name(world, 'kingdoms', sponsor)} preaches in {province['name']}{countered}: "
            f"RtD {outcome.natural}{outcome.modifier:+d} = {outcome.total}, {outcome.band}; {result}. "
            f"Every missionary involved is spent.", kind="conversion", rolls=[record],
            refs={"province": province_id, "sponsor": sponsor, "counter": counter, "success": outcome.success,
                  "faith": faith if outcome.success else old_faith})
    return {"province": province_id, "natural": outcome.natural, "total": outcome.total, "band": outcome.band,
            "success": outcome.success, "faith": world.get("provinces", province_id)["faith"],
            "countered": counter is not None, "counter_ducats": counter_ducats}


@command("convert-counter", "Stake a counter-missionary in a province: it opposes the next conversion there.",
         {"kingdom": Param(str, ref="kingdoms"), "province": Param(str, ref="provinces"),
          "ducats": Param(int, required=False, default=0, minimum=0, help="counter ducats, -1 each, paid when used")},
         category="economy", stakes=_kingdom_stakes)
def convert_counter(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    ctx.require_acts_for(kingdom=p["kingdom"])
    if int(specialist_pool(world, p["kingdom"]).get("missionary", 0)) < 1:
        raise CommandError("kingdom", f"{_name(world, 'kingdoms', p['kingdom'])} has no missionary to stake")
    for effect_id, effect in list(world.all("effects")):
        if (_effect_kind(effect) == "counter-missionary" and effect.get("province") == p["province"]
                and effect.get("holder_kingdom") == p["kingdom"]):
            world.delete("effects", effect_id)
    effect_id = world.new_id("effects", "cm")
    world.put("effects", effect_id, {"kind": "counter-missionary", "holder_kingdom": p["kingdom"],
                                     "province": p["province"], "ducats": p["ducats"],
                                     "created": world.meta["date"], "active": True})
    ctx.log(f"{_name(world, 'kingdoms', p['kingdom'])} stakes a counter-missionary in "
            f"{_name(world, 'provinces', p['province'])} ({p['ducats']} ducats).", kind="specialists",
            audience=kingdom_audience(p["kingdom"]), refs={"effect": effect_id})
    return {"effect": effect_id, "province": p["province"], "ducats": p["ducats"]}


__all__ = [
    "ACADEMY_INTERFERENCE",
    "RULINGS_MADE",
    "SAILOR_RECRUITMENT",
    "academy_follow_town",
    "add_specialists",
    "assign_engineers",
    "business_income_preview",
    "businesses_at_pc",
    "controlled_provinces",
    "dismantle_business",
    "effective_potentials",
    "hire_status",
    "produced_this_season",
    "province_prices",
    "release_engineers",
    "sector_businesses",
    "sector_usage",
    "specialist_pool",
    "take_specialists",
    "trained_this_year",
]
