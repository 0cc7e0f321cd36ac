"""Season-end pay-outs of sponsored irregulars. Fund Bandits: "Bandits provide a share of the loot";
Fund Privateers: "Privateers send back a cut of the take" (seed 002). The bands the missions raise
are units with `raised_by` the mission and `friendly_to` the sponsor; what they take by raiding
lands in their owner's treasury. Once a season the GM records a band's take, and the sponsor
receives the table's share of it (`[sponsored] share`), paid from the band's owner's treasury.
"""

from __future__ import annotations

import math
from typing import Any

from yak_tui.areas.warfare.shared import is_today, name_of, section, today_dict
from yak_tui.kernel.play.audience import ADJUDICATORS, kingdom_audience
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import CommandContext, CommandError, Param, command
from yak_tui.kernel.world.money import ducats, money

SPONSORED = {"fund-bandits": "a share of the loot", "fund-privateers": "a cut of the take"}


def _share_help() -> str:
    return (
        f"Season end: a sponsored band of bandits or privateers pays its sponsor {section('sponsored')['share']:g} "
        "of this season's take (from the band's treasury); once a season per band."
    )


@command(
    "loot-share",
    _share_help,
    {
        "unit": Param(str, ref="units", help="the bandits or privateers a Fund mission raised"),
        "take": Param(int, minimum=0, help="ducats the band took this season"),
    },
    category="battle",
)
def loot_share(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    unit = world.get("units", p["unit"])
    what = SPONSORED.get(str(unit.get("raised_by", "")))
    sponsor = unit.get("friendly_to")
    if what is None or not sponsor:
        raise CommandError("unit", f"{unit['name']} was not raised by Fund Bandits or Fund Privateers for a sponsor")
    owner = str(unit["owner"])
    ctx.require_adjudicator(Stakes.of(None, kingdoms=[sponsor, owner]))
    if is_today(world, unit.get("paid_out")):
        raise CommandError("unit", f"{unit['name']} has already paid its sponsor this season")
    share = math.floor(p["take"] * float(section("sponsored")["share"]))
    world.edit("units", p["unit"])["paid_out"] = today_dict(world)
    ctx.log(
        f"{unit['name']} took {ducats(p['take'])} this season and sends {name_of(world, 'kingdoms', sponsor)} "
        f"{what}: {ducats(share)}.",
        kind="espionage",
        audience=ADJUDICATORS,
        refs={"unit": p["unit"], "sponsor": sponsor, "take": p["take"], "share": share},
    )
    if share:
        ctx.move_ducats(
            ("kingdoms", owner),
            ("kingdoms", sponsor),
            share,
            f"{what} from {unit['name']}",
            audience=kingdom_audience(sponsor),
        )
    return {"unit": p["unit"], "sponsor": sponsor, "take": p["take"], "share": money(share)}
