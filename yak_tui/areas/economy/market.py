"""The market: commodity prices, storing, releasing and shipping goods, and the season-end sale
of unsold stock (RULINGS §5)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from yak_tui.areas.economy import rules
from yak_tui.areas.economy.business import _business_stakes
from yak_tui.areas.economy.shared import _add_goods, _business, _char, _match_good, _name
from yak_tui.areas.espionage import npc_sales_tax_divisor
from yak_tui.kernel.errors import ShortfallError
from yak_tui.kernel.play.audience import character_audience, kingdom_audience
from yak_tui.kernel.play.commands import SEATS, CommandContext, CommandError, Param, command
from yak_tui.kernel.season.seasons import StepReport, season_end_step
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import ducats, money
from yak_tui.kernel.world.tables import table


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


def _take_goods(doc: dict[str, Any], field: str, good_text: str, quantity: int, what: str) -> str:
    held = doc.get(field, {})
    good = _match_good(good_text, held)
    have = int(held.get(good, 0)) if good else 0
    if good is None or have < quantity:
        refusal = CommandError if good is None else ShortfallError
        raise refusal("quantity", f"{doc['name']} holds {have} {good or good_text} in {what}, {quantity} asked")
    _add_goods(doc, field, good, -quantity)
    return good


@command(
    "goods-store",
    "Store goods from a business's stock in a warehouse (not sold at season end).",
    {
        "business": Param(str, ref="businesses"),
        "good": Param(str),
        "quantity": Param(int, minimum=1),
        "warehouse": Param(
            str,
            required=False,
            ref="businesses",
            help="a commercial business of the same owner (default: stored on site)",
        ),
    },
    category="economy",
    stakes=_business_stakes,
    filed_by=SEATS,
)
def goods_store(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz = _business(world, p["business"])
    ctx.require_acts_for(character=biz["owner"])
    target_id = p["warehouse"] or p["business"]
    if p["warehouse"]:
        house = _business(world, p["warehouse"])
        if house["sector"] != "commercial":
            raise CommandError(
                "warehouse", f"{house['name']} is {house['sector']}; a warehouse is a commercial business"
            )
        if house["owner"] != biz["owner"]:
            raise CommandError(
                "warehouse",
                f"{house['name']} belongs to {_name(world, 'characters', house['owner'])}, "
                f"not {_name(world, 'characters', biz['owner'])}",
            )
    good = _take_goods(world.edit("businesses", p["business"]), "stock", p["good"], p["quantity"], "stock")
    _add_goods(world.edit("businesses", target_id), "warehouse", good, p["quantity"])
    where = _name(world, "businesses", target_id)
    ctx.log(
        f"{p['quantity']} {good} from {biz['name']} are stored in the warehouse of {where}.",
        kind="goods",
        audience=character_audience(biz["owner"]),
        refs={"business": p["business"], "warehouse": target_id, "good": good, "quantity": p["quantity"]},
    )
    return {"business": p["business"], "warehouse": target_id, "good": good, "quantity": p["quantity"]}


@command(
    "goods-release",
    "Put warehoused goods back on the market: they sell at this season's end.",
    {
        "business": Param(str, ref="businesses", help="the business holding the warehouse"),
        "good": Param(str),
        "quantity": Param(int, minimum=1),
    },
    category="economy",
    stakes=_business_stakes,
    filed_by=SEATS,
)
def goods_release(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz = _business(world, p["business"])
    ctx.require_acts_for(character=biz["owner"])
    doc = world.edit("businesses", p["business"])
    good = _take_goods(doc, "warehouse", p["good"], p["quantity"], "its warehouse")
    _add_goods(doc, "stock", good, p["quantity"])
    ctx.log(
        f"{p['quantity']} {good} leave the warehouse of {biz['name']} for the market at season end.",
        kind="goods",
        audience=character_audience(biz["owner"]),
        refs={"business": p["business"], "good": good, "quantity": p["quantity"]},
    )
    return {"business": p["business"], "good": good, "quantity": p["quantity"]}


@command(
    "goods-ship",
    "Ship goods from a business's stock or warehouse to another province (to the owner's goods).",
    {
        "business": Param(str, ref="businesses"),
        "good": Param(str),
        "quantity": Param(int, minimum=1),
        "destination": Param(str, ref="provinces"),
        "source": Param(str, required=False, default="stock", choices=("stock", "warehouse")),
    },
    category="economy",
    stakes=_business_stakes,
    filed_by=SEATS,
)
def goods_ship(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz = _business(world, p["business"])
    ctx.require_acts_for(character=biz["owner"])
    if p["destination"] == biz["province"]:
        raise CommandError("destination", f"{biz['name']} is already in {_name(world, 'provinces', p['destination'])}")
    good = _take_goods(world.edit("businesses", p["business"]), p["source"], p["good"], p["quantity"], p["source"])
    owner = world.edit("characters", biz["owner"])
    _add_goods(owner, "goods", good, p["quantity"])
    ctx.log(
        f"{biz['name']} ships {p['quantity']} {good} to {_name(world, 'provinces', p['destination'])} for "
        f"{owner['name']}.",
        kind="goods",
        audience=character_audience(biz["owner"]),
        refs={"business": p["business"], "good": good, "quantity": p["quantity"], "destination": p["destination"]},
    )
    return {
        "business": p["business"],
        "good": good,
        "quantity": p["quantity"],
        "destination": p["destination"],
        "owner_goods": dict(owner["goods"]),
    }


@command(
    "prices",
    "Commodity prices in a province: base, espionage modifiers and price (read only).",
    {"province": Param(str, ref="provinces"), "resources_only": Param(bool, required=False, default=False)},
    category="economy",
    undoable=False,
)
def prices(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    province = ctx.world.get("provinces", p["province"])
    goods = province.get("resources", []) if p["resources_only"] else None
    return {"province": p["province"], "prices": province_prices(ctx.world, p["province"], goods)}


def npc_sales_tax(world: World, province_id: str, proceeds: float) -> float:
    """The NPC sales tax on `proceeds` sold in a province: the table's percent, divided where a
    smuggling ring operates (seed: "NPC sales tax halved")."""
    percent = float(table("economy")["market_sale"]["npc_sales_tax_percent"])
    return float(money(proceeds * percent / 100 / npc_sales_tax_divisor(world, province_id)))


def _sales_tax(ctx: CommandContext, biz: dict[str, Any], proceeds: float, report: StepReport) -> None:
    """The seller pays the NPC sales tax to the kingdom that rules the province (to nobody where
    none does)."""
    tax = npc_sales_tax(ctx.world, biz["province"], proceeds)
    if tax <= 0:
        return
    world = ctx.world
    ruler = world.get("provinces", biz["province"]).get("kingdom")
    ctx.move_ducats(
        _char(biz["owner"]),
        None,
        tax,
        f"sales tax on the market sale from {biz['name']}",
        audience=character_audience(biz["owner"]),
    )
    if ruler:  # each side is told of its own change to its own treasury
        ctx.move_ducats(
            None,
            ("kingdoms", ruler),
            tax,
            f"sales tax on market sales in {world.display_name('provinces', biz['province'])}",
            audience=kingdom_audience(ruler),
        )
    report.add("sales tax", tax)


def _price_reading(natural: int, base: int, price: int) -> str:
    """ "d6 rolled 6 on base 4 (1: -1, 2-5: +0, 6: +1) → price 5": the table a reader checks."""
    faces: list[str] = []
    low = 1
    for row in table("economy")["market_sale"]["faces"]:
        high = int(row["max_natural"])
        span = str(low) if low == high else f"{low}-{high}"
        faces.append(f"{span}: {int(row['delta']):+d}")
        low = high + 1
    return f"d6 rolled {natural} on base {base} ({', '.join(faces)}) → price {price}"


@season_end_step("Unsold goods are sold to the market", name="economy-market-sales")
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
            sale = rules.market_sale(ctx.dice_for(character_audience(owner)), base)
            record = ctx.record_roll(
                f"market sale: {qty} {good} of {biz['name']}",
                [sale.natural],
                sale.price,
                f"price {sale.price}",
                [],
                audience=character_audience(owner),
                reading=_price_reading(sale.natural, base, sale.price),
            )
            proceeds = sale.price * qty
            ctx.log(
                f"{qty} {good} of {biz['name']} sell at {sale.price} each (base {base}, rolled "
                f"{sale.natural}): {ducats(proceeds)}.",
                kind="market",
                audience=character_audience(owner),
                rolls=[record],
                refs={
                    "business": business_id,
                    "good": good,
                    "quantity": qty,
                    "price": sale.price,
                    "natural": sale.natural,
                },
            )
            if proceeds:
                ctx.move_ducats(
                    None,
                    _char(owner),
                    proceeds,
                    f"market sale of {qty} {good} from {biz['name']}",
                    audience=character_audience(owner),
                )
                _sales_tax(ctx, biz, proceeds, report)
            report.add("goods sold", qty)
            report.add("market proceeds", proceeds)
        world.edit("businesses", business_id)["stock"] = {}
