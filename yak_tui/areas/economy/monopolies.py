"""Monopolies (RULINGS §5): the province's ruler grants or revokes one per sector; the holder gains
on competition rolls and the province loses Potential (`business._recompute_penalties`)."""

from __future__ import annotations

from typing import Any

from yak_tui.areas.economy import rules
from yak_tui.areas.economy._shared import DEFAULT_MONOPOLY, MONOPOLY_KINDS, _business, _name, _province_kingdom
from yak_tui.areas.economy.business import (
    _business_stakes,
    _recompute_penalties,
    effective_potentials,
    sector_businesses,
)
from yak_tui.kernel.play.commands import KING, CommandContext, CommandError, Param, command


def _province_ruler_check(ctx: CommandContext, province_id: str) -> None:
    kingdom = _province_kingdom(ctx.world, province_id)
    try:
        ctx.require_acts_for(kingdom=kingdom)
    except CommandError:
        owner = f"the King of {_name(ctx.world, 'kingdoms', kingdom)}" if kingdom else "the GM (no kingdom rules it)"
        raise CommandError(
            "identity",
            f"monopolies in {_name(ctx.world, 'provinces', province_id)} are granted by {owner} or the GM",
            ("gm", *([f"king:{kingdom}"] if kingdom else [])),
        ) from None


@command(
    "monopoly-grant",
    "Grant a business a monopoly (the province's ruler); the province loses Potential.",
    {
        "business": Param(str, ref="businesses"),
        "kind": Param(
            str, required=False, choices=MONOPOLY_KINDS, help="trade, service or goods (default: by the sector)"
        ),
    },
    category="economy",
    stakes=_business_stakes,
    filed_by=KING,
)
def monopoly_grant(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz = _business(world, p["business"])
    province = biz["province"]
    _province_ruler_check(ctx, province)
    if biz.get("monopoly"):
        raise CommandError("business", f"{biz['name']} already holds a {biz['monopoly']} monopoly")
    for bid, other in sector_businesses(world, province, biz["sector"]):
        if bid != p["business"] and other.get("monopoly"):
            raise CommandError(
                "business",
                f"{other['name']} already holds the {biz['sector']} monopoly in "
                f"{_name(world, 'provinces', province)}; revoke it first",
            )
    kind = p["kind"] or DEFAULT_MONOPOLY[biz["sector"]]
    world.edit("businesses", p["business"])["monopoly"] = kind
    penalties = _recompute_penalties(ctx, province)
    changes = ", ".join(f"{k} {v:+d}" for k, v in rules.monopoly_penalties(kind).items() if v)
    ctx.log(
        f"{biz['name']} is granted a {kind} monopoly in {_name(world, 'provinces', province)} "
        f"(+{rules.monopoly_bonus()} to its competition rolls; Potential {changes}).",
        kind="monopoly",
        refs={"business": p["business"], "kind": kind, "penalties": penalties},
    )
    return {
        "business": p["business"],
        "monopoly": kind,
        "potential_penalties": penalties,
        "potentials": effective_potentials(world, province),
    }


@command(
    "monopoly-revoke",
    "Revoke a business's monopoly (the province's ruler); its Potential penalty ends.",
    {"business": Param(str, ref="businesses")},
    category="economy",
    stakes=_business_stakes,
    filed_by=KING,
)
def monopoly_revoke(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    biz = _business(world, p["business"])
    _province_ruler_check(ctx, biz["province"])
    if not biz.get("monopoly"):
        raise CommandError("business", f"{biz['name']} holds no monopoly")
    kind = biz["monopoly"]
    world.edit("businesses", p["business"])["monopoly"] = None
    penalties = _recompute_penalties(ctx, biz["province"])
    ctx.log(
        f"{biz['name']} loses its {kind} monopoly in {_name(world, 'provinces', biz['province'])}.",
        kind="monopoly",
        refs={"business": p["business"], "kind": None, "penalties": penalties},
    )
    return {"business": p["business"], "monopoly": None, "potential_penalties": penalties}
