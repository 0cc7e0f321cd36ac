"""Production (RULINGS §5): an industrial business makes goods of its province's resources, up to
its Size a season; unless stored or shipped they sell at season end (`market`)."""

from __future__ import annotations

from typing import Any

from yak_tui.areas.economy import rules
from yak_tui.areas.economy._shared import _add_goods, _business, _char, _match_good
from yak_tui.areas.economy.business import _business_stakes
from yak_tui.kernel.play.audience import character_audience
from yak_tui.kernel.play.commands import SEATS, CommandContext, CommandError, Param, command
from yak_tui.kernel.world.model import World


def _season_key(world: World) -> str:
    return world.date.key()


def produced_this_season(world: World, biz: dict[str, Any]) -> int:
    made = biz.get("produced") or {}
    return int(made.get("goods", 0)) if made.get("season") == _season_key(world) else 0


@command(
    "produce",
    "An industrial business makes goods of its province's resources (up to Size a season).",
    {
        "business": Param(str, ref="businesses"),
        "good": Param(str, help="a trade good the province lists as a resource"),
        "quantity": Param(int, minimum=1),
    },
    category="economy",
    stakes=_business_stakes,
    filed_by=SEATS,
)
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
        raise CommandError(
            "good",
            f"{province['name']} has no {p['good']}; its resources are "
            f"{', '.join(province.get('resources', [])) or 'none'}",
        )
    try:
        base = rules.commodity_price(good)
    except ValueError as error:
        raise CommandError("good", str(error)) from None
    good = _match_good(good, rules.commodities()) or good
    made = produced_this_season(world, biz)
    limit = rules.production_limit(int(biz["size"]))
    if made + p["quantity"] > limit:
        raise CommandError(
            "quantity",
            f"{biz['name']} (Size {biz['size']}) makes at most {limit} goods a season; "
            f"{made} made this season, {limit - made} left",
        )
    cost = rules.production_cost(base, p["quantity"])
    ctx.move_ducats(
        _char(biz["owner"]),
        None,
        cost,
        f"{biz['name']} makes {p['quantity']} {good} ({cost // p['quantity']} each)",
        audience=character_audience(biz["owner"]),
    )
    doc = world.edit("businesses", business_id)
    doc["produced"] = {"season": _season_key(world), "goods": made + p["quantity"]}
    _add_goods(doc, "stock", good, p["quantity"])
    ctx.log(
        f"{biz['name']} produces {p['quantity']} {good}; unless stored or shipped they sell at season end.",
        kind="production",
        audience=character_audience(biz["owner"]),
        refs={"business": business_id, "good": good, "quantity": p["quantity"], "cost": cost},
    )
    return {
        "business": business_id,
        "good": good,
        "quantity": p["quantity"],
        "cost": cost,
        "produced_this_season": made + p["quantity"],
        "limit": limit,
        "stock": dict(doc["stock"]),
    }
