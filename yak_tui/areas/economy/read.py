"""Read models for the business market screen, headless and filtered for one viewer.

Everything the market screen draws comes from here: sectors with their Potential and how full
they are, businesses with their income after the state's tax, the exact competition odds of an
expansion with the names of who may lose, production costs, the credit and loans ledger,
specialist pools with the year's hiring limits, and academies. Documents reach this module
through `yak_tui.kernel.play.audience`, so a player sees his own businesses' books and debts only;
the rest of the market (names, owners, Sizes, monopolies) is public. The arithmetic comes from
`yak_tui.areas.economy.rules` and the economy world layer; nothing here writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple

from yak_tui.areas.economy import rules, specialist_rules
from yak_tui.areas.economy.business import (
    business_income_preview,
    effective_potentials,
    sector_businesses,
    sector_usage,
)
from yak_tui.areas.economy.credit_read import LedgerLine, Lending, ledger_lines, lending_capacity
from yak_tui.areas.economy.market import province_prices
from yak_tui.areas.economy.production import produced_this_season
from yak_tui.areas.economy.specialist_read import AcademyLine, SpecialistLine, academy_lines, specialist_lines
from yak_tui.areas.economy.specialists import hireable_types, trained_this_year
from yak_tui.kernel.play.audience import can_see_document, filter_document, visible_table
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import SECTORS, World
from yak_tui.kernel.world.tables import table
from yak_tui.store.files import collector_paused

# Potentials a province lists besides its three business sectors (monopolies cut these).
OTHER_POTENTIALS = ("trade", "urban")


# -- records -----------------------------------------------------------------------------------


class Goods(NamedTuple):
    good: str
    quantity: int


class BusinessLine(NamedTuple):
    """One business. `detailed` is False for someone else's: its books are then None."""

    id: str
    name: str
    owner_id: str
    owner: str
    province_id: str
    province: str
    place: str
    sector: str
    size: int
    monopoly: str | None
    mine: bool
    detailed: bool
    income: int | None  # at year start, after the state's business tax
    tax: int | None
    tax_rate: int | None
    state: str  # the kingdom that taxes it (where it stands)
    invested: float | None
    stock: tuple[Goods, ...] = ()
    warehouse: tuple[Goods, ...] = ()


class SectorLine(NamedTuple):
    province_id: str
    province: str
    kingdom: str
    sector: str
    potential: int  # after monopoly penalties
    base_potential: int
    used: int
    room: int
    full: bool  # expanding here means competition
    businesses: tuple[BusinessLine, ...]

    @property
    def key(self) -> str:
        return f"{self.province_id}:{self.sector}"

    @property
    def fill(self) -> float:
        """Share of the Potential in use (1.0 = full)."""
        if self.potential <= 0:
            return 1.0 if self.used else 0.0
        return min(1.0, self.used / self.potential)

    @property
    def usage(self) -> str:
        return f"{self.used}/{self.potential}"


class GoodPrice(NamedTuple):
    good: str
    base: int
    price: int | None  # the province's price (base + espionage); None when the viewer may not know
    cost_each: int  # production cost of one good


class ProvinceInfo(NamedTuple):
    id: str
    name: str
    kingdom: str
    potentials: tuple[tuple[str, int, int], ...]  # (name, effective, base)
    resources: tuple[GoodPrice, ...]
    tax_rate: int | None  # the state's business tax, when the viewer may know it


class RivalOdds(NamedTuple):
    id: str
    name: str
    owner: str
    size: int
    monopoly: bool
    lose: float  # chance this rival loses 1 Size in one competition


class ExpandPreview(NamedTuple):
    """What expanding by `sizes` costs and, past the Potential, the odds of each competition."""

    business_id: str
    name: str
    province: str
    sector: str
    size: int
    sizes: int
    potential: int
    used: int
    room: int
    competitions: int
    unit_cost: int
    cost: int
    monopoly: bool
    gains: float  # one competition: the expander gains 1 Size
    fails: float  # nobody rolls lower: the Size's ducats are spent
    rivals: tuple[RivalOdds, ...]

    @property
    def dice_per_competition(self) -> int:
        return 1 + len(self.rivals)


class ProducePreview(NamedTuple):
    business_id: str
    name: str
    good: str | None
    quantity: int
    base: int | None
    cost_each: int | None
    cost: int | None
    made: int
    limit: int
    resources: tuple[GoodPrice, ...]

    @property
    def left(self) -> int:
        return max(0, self.limit - self.made)


class BusinessDetail(NamedTuple):
    business: BusinessLine
    sector: SectorLine | None
    expand: ExpandPreview | None
    production: ProducePreview | None
    credit: Lending | None
    loan: Lending | None
    training: tuple[int, int] | None  # (sponsored this year, limit) for a service business of Size 3+
    dismantle: int | None
    province: ProvinceInfo | None = None


class MarketBoard(NamedTuple):
    sectors: tuple[SectorLine, ...]
    businesses: tuple[BusinessLine, ...]
    ledger: tuple[LedgerLine, ...]
    specialists: tuple[SpecialistLine, ...]
    academies: tuple[AcademyLine, ...]
    hire_cost_next_season: int
    hire_cost_now: int
    specialist_types: tuple[str, ...]
    hired_types: tuple[str, ...]


class Route(NamedTuple):
    """How the viewer carries out an action: run it (`direct`), file it as an order for its
    adjudicator (`order`), or not at all (`refused`, with the reason)."""

    kind: str
    reason: str = ""
    who_may: tuple[str, ...] = ()


# -- helpers -------------------------------------------------------------------------------------


def _goods(value: Mapping[str, int] | None) -> tuple[Goods, ...]:
    """A business's stock or warehouse (absent: nothing), by name, without empty lines."""
    return tuple(Goods(str(g), int(q)) for g, q in sorted((value or {}).items()) if int(q))


def _acts_for(world: World, viewer: Identity, owner: str) -> bool:
    """The viewer's own business: his character's, or (a King) his kingdom's characters'."""
    if viewer.is_player:
        return owner == viewer.subject
    if viewer.is_king:
        return world.kingdom_of_character(owner) == viewer.subject
    return False


def _tax_rate_known(world: World, viewer: Identity, kingdom_id: str | None) -> int | None:
    """A state's business tax rate, if the viewer may read that kingdom's books (0 for no state)."""
    doc = world.find("kingdoms", kingdom_id) if kingdom_id else None
    if doc is None:
        return 0
    if can_see_document(world, viewer, "kingdoms", str(kingdom_id), doc) != "all":
        return None
    return int(doc.get("business_tax", 0))


def _business_line(world: World, viewer: Identity, bid: str, doc: Mapping[str, Any], detailed: bool) -> BusinessLine:
    owner = str(doc.get("owner", ""))
    province = str(doc.get("province", ""))
    state = world.kingdom_of_province(province)
    income = tax = rate = None
    if detailed:
        preview = business_income_preview(world, bid)
        income, tax, rate = int(preview["income"]), int(preview["tax"]), int(preview["rate"])
    monopoly = doc.get("monopoly")
    return BusinessLine(
        bid,
        str(doc.get("name", bid)),
        owner,
        world.display_name("characters", owner),
        province,
        world.display_name("provinces", province),
        world.display_name("pcs", doc.get("pc")),
        str(doc.get("sector", "")),
        int(doc.get("size", 0)),
        str(monopoly) if monopoly else None,
        _acts_for(world, viewer, owner),
        detailed,
        income,
        tax,
        rate,
        world.display_name("kingdoms", state) if state else "no state",
        float(doc["invested"]) if detailed else None,
        _goods(doc.get("stock")) if detailed else (),
        _goods(doc.get("warehouse")) if detailed else (),
    )


def _visible_businesses(world: World, viewer: Identity, province_id: str | None = None) -> list[BusinessLine]:
    lines = []
    for bid, doc in world.all("businesses"):
        if province_id is not None and doc.get("province") != province_id:
            continue
        level = can_see_document(world, viewer, "businesses", bid, doc)
        shown = filter_document(world, viewer, "businesses", bid, doc)
        if shown is not None:
            lines.append(_business_line(world, viewer, bid, shown, level == "all"))
    # Province, then sector in the table's order, then largest first.
    order = {s: i for i, s in enumerate(SECTORS)}
    lines.sort(key=lambda b: (b.province, order.get(b.sector, 9), -b.size, b.name))
    return lines


def _sector_lines(
    world: World, viewer: Identity, businesses: Iterable[BusinessLine], province_id: str | None = None
) -> list[SectorLine]:
    by_sector: dict[tuple[str, str], list[BusinessLine]] = {}
    for line in businesses:
        by_sector.setdefault((line.province_id, line.sector), []).append(line)
    rows = []
    provinces = visible_table(world, viewer, "provinces")
    if province_id is not None:
        provinces = {k: v for k, v in provinces.items() if k == province_id}
    for pid, doc in sorted(provinces.items(), key=lambda item: str(item[1].get("name", item[0]))):
        usage = sector_usage(world, pid)
        base = doc.get("potentials") or {}
        kingdom = world.display_name("kingdoms", doc.get("kingdom")) if doc.get("kingdom") else "no state"
        for sector in SECTORS:
            u = usage[sector]
            rows.append(
                SectorLine(
                    pid,
                    str(doc.get("name", pid)),
                    kingdom,
                    sector,
                    int(u["potential"]),
                    int(base.get(sector, 0)),
                    int(u["used"]),
                    int(u["room"]),
                    bool(u["full"]),
                    tuple(by_sector.get((pid, sector), ())),
                )
            )
    return rows


def _sees_province(world: World, viewer: Identity, province_id: str) -> bool:
    doc = world.find("provinces", province_id)
    return doc is not None and can_see_document(world, viewer, "provinces", province_id, doc) == "all"


def _resources(world: World, viewer: Identity, province_id: str) -> tuple[GoodPrice, ...]:
    doc = world.get("provinces", province_id)
    names = [str(g) for g in doc.get("resources", [])]
    known = _sees_province(world, viewer, province_id)
    prices = province_prices(world, province_id, names)
    out = []
    for name in names:
        match = next((g for g in prices if g.lower() == name.lower()), None)
        if match is None:
            continue
        base = prices[match]["base"]
        out.append(GoodPrice(match, base, prices[match]["price"] if known else None, rules.production_cost(base, 1)))
    return tuple(out)


# -- the board -------------------------------------------------------------------------------------


# At 1000x the GM's view is hundreds of thousands of objects, none of them garbage: the collector is
# paused while they are made (it walked them again and again: ~30% of the map's build).
@collector_paused(freeze=False)
def market_board(world: World, viewer: Identity) -> MarketBoard:
    """Everything the market screen lists, for this viewer."""
    businesses = _visible_businesses(world, viewer)
    return MarketBoard(
        sectors=tuple(_sector_lines(world, viewer, businesses)),
        businesses=tuple(businesses),
        ledger=ledger_lines(world, viewer),
        specialists=specialist_lines(world, viewer),
        academies=academy_lines(world, viewer),
        hire_cost_next_season=specialist_rules.hire_cost(False),
        hire_cost_now=specialist_rules.hire_cost(True),
        specialist_types=specialist_rules.specialist_types(),
        hired_types=hireable_types(),
    )


def province_info(world: World, viewer: Identity, province_id: str) -> ProvinceInfo | None:
    doc = visible_table(world, viewer, "provinces").get(province_id)
    if doc is None:
        return None
    effective = effective_potentials(world, province_id)
    base = doc.get("potentials") or {}
    names = [*SECTORS, *(p for p in OTHER_POTENTIALS if p in base)]
    potentials = tuple((name, int(effective.get(name, 0)), int(base.get(name, 0))) for name in names)
    return ProvinceInfo(
        province_id,
        str(doc.get("name", province_id)),
        world.display_name("kingdoms", doc.get("kingdom")) if doc.get("kingdom") else "no state",
        potentials,
        _resources(world, viewer, province_id),
        _tax_rate_known(world, viewer, doc.get("kingdom")),
    )


def expand_preview(world: World, viewer: Identity, business_id: str, sizes: int = 1) -> ExpandPreview | None:
    """The cost of expanding by `sizes`, and each competition's exact odds with who may lose.

    Odds are per competition: every Size beyond the room left is one competition, rolled by the
    expander and every rival of the sector and province (monopolies +3); the lowest rival below
    the expander loses 1 Size.
    """
    doc = world.find("businesses", business_id)
    if doc is None or can_see_document(world, viewer, "businesses", business_id, doc) == "none":
        return None
    sizes = max(1, int(sizes))
    province, sector = str(doc["province"]), str(doc["sector"])
    usage = sector_usage(world, province)[sector]
    room = int(usage["room"])
    rivals = [
        (rid, r)
        for rid, r in sector_businesses(world, province, sector)
        if rid != business_id and int(r.get("size", 0)) >= 1
    ]
    monopoly = bool(doc.get("monopoly"))
    odds = rules.competition_odds(
        monopoly,
        [rules.Rival(rid, int(r["size"]), bool(r.get("monopoly"))) for rid, r in rivals],
        business_id,
        int(doc.get("size", 0)),
    )
    rival_odds = tuple(
        RivalOdds(
            rid,
            str(r.get("name", rid)),
            world.display_name("characters", r.get("owner")),
            int(r["size"]),
            bool(r.get("monopoly")),
            odds.losers.get(rid, 0.0),
        )
        for rid, r in rivals
    )
    return ExpandPreview(
        business_id,
        str(doc.get("name", business_id)),
        world.display_name("provinces", province),
        sector,
        int(doc.get("size", 0)),
        sizes,
        int(usage["potential"]),
        int(usage["used"]),
        room,
        max(0, sizes - room),
        rules.expansion_cost(sector, 1),
        rules.expansion_cost(sector, sizes),
        monopoly,
        odds.expander_gains,
        odds.fails,
        rival_odds,
    )


def produce_preview(
    world: World, viewer: Identity, business_id: str, good: str = "", quantity: int = 1
) -> ProducePreview | None:
    """An industrial business's production order: the goods it may make, each one's cost, what
    `quantity` of `good` costs, and how much of this season's Size-sized allowance is used."""
    doc = world.find("businesses", business_id)
    if doc is None or can_see_document(world, viewer, "businesses", business_id, doc) == "none":
        return None
    resources = _resources(world, viewer, str(doc["province"]))
    match = next((r for r in resources if r.good.lower() == good.strip().lower()), None)
    quantity = max(0, int(quantity))
    made = produced_this_season(world, doc)
    limit = rules.production_limit(int(doc.get("size", 0))) if doc.get("sector") == "industrial" else 0
    return ProducePreview(
        business_id,
        str(doc.get("name", business_id)),
        match.good if match else None,
        quantity,
        match.base if match else None,
        match.cost_each if match else None,
        rules.production_cost(match.base, quantity) if match else None,
        made,
        limit,
        resources,
    )


def business_detail(world: World, viewer: Identity, business_id: str) -> BusinessDetail | None:
    """One business as its panel shows it: books (its owner and the GM only), its sector, the
    odds of expanding by one Size, production, credit and loan capacity, training."""
    doc = world.find("businesses", business_id)
    if doc is None:
        return None
    level = can_see_document(world, viewer, "businesses", business_id, doc)
    if level == "none":
        return None
    shown = filter_document(world, viewer, "businesses", business_id, doc) or {}
    line = _business_line(world, viewer, business_id, shown, level == "all")
    here = _visible_businesses(world, viewer, line.province_id)
    sectors = [s for s in _sector_lines(world, viewer, here, line.province_id) if s.sector == line.sector]
    production = None
    credit = loan = None
    training = None
    dismantle = None
    if level == "all":
        if line.sector == "industrial":
            production = produce_preview(world, viewer, business_id)
        if line.sector == "commercial":
            credit = lending_capacity(world, business_id, doc, "credit")
            loan = lending_capacity(world, business_id, doc, "loan")
        limit = rules.training_limit(line.size, line.sector)
        if limit > 0:
            training = (trained_this_year(world, doc), limit)
        dismantle = rules.dismantle_value(int(doc["invested"]))
    return BusinessDetail(
        line,
        sectors[0] if sectors else None,
        expand_preview(world, viewer, business_id),
        production,
        credit,
        loan,
        training,
        dismantle,
        province_info(world, viewer, line.province_id),
    )


# -- ledger, specialists, academies -------------------------------------------------------------------


# -- help text (worded from the loaded tables, so a house rule changes it too) -------------------------


def expand_help() -> str:
    """How competition for a Size works, with the monopoly bonus of the tables."""
    return (
        "Each Size beyond the sector's Potential is won in competition: the expander and every rival roll "
        f"a d6 (monopolies +{rules.monopoly_bonus()}); the lowest rival below the expander loses 1 Size."
    )


def production_help() -> str:
    """What goods cost to make and how many a business makes, from the production table."""
    section = table("economy")["production"]
    per_increment = int(section["ducats_per_increment"])
    each = f"max({int(section['min_increments'])}, base price − {int(section['discount'])})"
    cost = f"{each} × {per_increment} ducats" if per_increment != 1 else f"{each} ducats"
    per_size = int(section["goods_per_size"])
    allowance = "its Size" if per_size == 1 else f"{per_size} × its Size"
    return (
        f"Goods cost {cost} each; a business makes up to {allowance} a season. Unless stored or shipped "
        "they sell at season end."
    )


# -- who may act ------------------------------------------------------------------------------------


def action_route(world: World, viewer: Identity, command: str, params: Mapping[str, Any]) -> Route:
    """Run it, file it as an order, or neither, by the one rule (`kernel.play.views.command_route`).
    Any refusal but one about who may act is for the dialog to show, so the action opens it; an
    order the adjudicator could not carry out for the viewer either is "refused", with why."""
    from yak_tui.kernel.play.views import command_route

    route = command_route(world, viewer, command, params)
    if not route.as_order:
        problem = route.problem
        if problem is None or problem.field != "identity":
            return Route("direct")
        return Route("refused", problem.reason, problem.who_may)
    order_problem = route.problem
    # Not his to act on, or not his to file (`kernel.play.filing`): neither now nor as an order.
    if order_problem is not None and order_problem.field.rsplit(".", 1)[-1] in ("identity", "command"):
        return Route("refused", order_problem.reason, order_problem.who_may)
    refusal = route.refusal
    return Route("order", refusal.reason if refusal else "", refusal.who_may if refusal else ())
