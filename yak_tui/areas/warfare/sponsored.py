"""Pay-outs of sponsored irregulars. Fund Bandits: "Bandits provide a share of the loot";
Fund Privateers: "Privateers send back a cut of the take" (seed 002).

The bands the missions raise are units owned by `bandits` or `privateers` (no kingdom: no treasury),
with `raised_by` the mission and `friendly_to` the sponsor, who is kept on the unit. The sponsor
receives the table's share (`[sponsored] share`) of the band's take:

- a raid by the band (`raid`) pays it at once, out of what the raid took (`pay_sponsor`);
- a take the commands did not see (plunder played out by hand) the adjudicator records once a
  season with `loot-share`; the share comes out of that take.

Ruling: the take of a band no kingdom owns lands in no treasury (the band spends or hides it); the
sponsor's share is that part of the take. A band an authored world gives to a kingdom keeps its take
in that kingdom's treasury, and the share is paid from there.
"""

from __future__ import annotations

import math
from typing import Any

from yak_tui.areas.warfare.shared import is_today, name_of, section, today_dict
from yak_tui.kernel.play.audience import ADJUDICATORS, kingdom_audience
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import CommandContext, CommandError, Param, command
from yak_tui.kernel.world.fields import IRREGULAR_OWNERS
from yak_tui.kernel.world.money import ducats, money

SPONSORED = {"fund-bandits": "a share of the loot", "fund-privateers": "a cut of the take"}


def is_irregular(owner: Any) -> bool:
    """A band no kingdom owns (bandits, privateers, rebels): it has no treasury."""
    return owner in IRREGULAR_OWNERS


def sponsor_of(unit: dict[str, Any]) -> str | None:
    """The kingdom a Fund Bandits or Fund Privateers band pays, or None."""
    if str(unit.get("raised_by", "")) in SPONSORED and unit.get("friendly_to"):
        return str(unit["friendly_to"])
    return None


def sponsor_share(take: float) -> int:
    """The sponsor's part of a take: floor(take x share), the table's share."""
    return math.floor(take * float(section("sponsored")["share"]))


def pay_sponsor(ctx: CommandContext, unit_id: str, take: float, how: str) -> int:
    """The sponsor's share of `take`, paid out of the take: from the owning kingdom's treasury
    where one owns the band, else straight from the take (it lands in no treasury). Told to the
    sponsor and the adjudicators only (the band's sponsor is his secret)."""
    world = ctx.world
    unit = world.get("units", unit_id)
    sponsor = sponsor_of(unit)
    if sponsor is None:
        return 0
    what = SPONSORED[str(unit["raised_by"])]
    share = sponsor_share(take)
    ctx.log(
        f"{unit['name']} took {ducats(take)} {how}; their sponsor {name_of(world, 'kingdoms', sponsor)} "
        f"receives {what}: {ducats(share)}.",
        kind="espionage",
        audience=ADJUDICATORS,
        refs={"unit": unit_id, "sponsor": sponsor, "take": money(take), "share": share},
    )
    if share:
        owner = str(unit["owner"])
        ctx.move_ducats(
            None if is_irregular(owner) else ("kingdoms", owner),
            ("kingdoms", sponsor),
            share,
            f"{what} from {unit['name']}",
            audience=kingdom_audience(sponsor),
        )
    return share


def _share_help() -> str:
    return (
        f"A sponsored band of bandits or privateers pays its sponsor {section('sponsored')['share']:g} of a take "
        "the commands did not see (a raid by the band pays at once); once a season per band."
    )


@command(
    "loot-share",
    _share_help,
    {
        "unit": Param(str, ref="units", help="the bandits or privateers a Fund mission raised"),
        "take": Param(int, minimum=0, help="ducats the band took this season outside the raid commands"),
    },
    category="battle",
)
def loot_share(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    unit = world.get("units", p["unit"])
    sponsor = sponsor_of(unit)
    if sponsor is None:
        raise CommandError("unit", f"{unit['name']} was not raised by Fund Bandits or Fund Privateers for a sponsor")
    owner = str(unit["owner"])
    ctx.require_adjudicator(Stakes.of(None, kingdoms=[sponsor, None if is_irregular(owner) else owner]))
    if is_today(world, unit.get("paid_out")):
        raise CommandError("unit", f"{unit['name']} has already paid its sponsor this season")
    world.edit("units", p["unit"])["paid_out"] = today_dict(world)
    share = pay_sponsor(ctx, p["unit"], p["take"], "this season")
    return {"unit": p["unit"], "sponsor": sponsor, "take": p["take"], "share": money(share)}
