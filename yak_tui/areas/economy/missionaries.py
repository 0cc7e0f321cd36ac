"""Missionaries: conversion, and counter-missionaries staked beforehand (RULINGS §6)."""

from __future__ import annotations

from typing import Any

from yak_tui.areas.economy import specialist_rules
from yak_tui.areas.economy.shared import _active, _effect_kind, _name
from yak_tui.areas.economy.specialists import _kingdom_stakes, specialist_pool, take_specialists
from yak_tui.kernel.play.audience import kingdom_audience
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import KING, CommandContext, CommandError, Param, command
from yak_tui.kernel.play.helptext import signed
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import ducats
from yak_tui.kernel.world.tables import table as rules_table


def _standing_counter(world: World, province_id: str, sponsor: str) -> tuple[str, dict[str, Any]] | None:
    found = [
        (eid, e)
        for eid, e in world.all("effects")
        if _effect_kind(e) == "counter-missionary"
        and e.get("province") == province_id
        and e.get("holder_kingdom") != sponsor
        and _active(e)
    ]
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
    bands, success = specialist_rules.conversion_odds(p["ducats"], counter is not None, counter_ducats)
    return {"odds": bands, "success": success, "countered": counter is not None}


def _conversion(key: str) -> str:
    """One conversion modifier from the loaded table, signed ("-2", "+1")."""
    return signed(rules_table("economy")["conversion"][key])


def _convert_help() -> str:
    return (
        f"Missionary conversion: RtD at {_conversion('base')}, {_conversion('per_ducat')} per ducat; "
        f"a counter-missionary {_conversion('counter')}, {_conversion('per_counter_ducat')} per ducat."
    )


@command(
    "convert",
    _convert_help,
    {
        "province": Param(str, ref="provinces"),
        "sponsor": Param(str, ref="kingdoms", help="the kingdom sending the missionary"),
        "ducats": Param(
            int, required=False, default=0, minimum=0, help=lambda: f"extra ducats, {_conversion('per_ducat')} each"
        ),
        "counter_kingdom": Param(
            str,
            required=False,
            ref="kingdoms",
            by_adjudicator=True,
            help="a defending kingdom's counter-missionary (GM only)",
        ),
        "counter_ducats": Param(int, required=False, default=0, minimum=0, by_adjudicator=True),
    },
    category="economy",
    odds=_convert_odds,
    stakes=_convert_stakes,
    rolls=True,
    filed_by=KING,
)
def convert(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    sponsor, province_id = p["sponsor"], p["province"]
    ctx.require_acts_for(kingdom=sponsor)
    if p["counter_kingdom"] and not ctx.principal.is_gm:
        raise CommandError(
            "counter_kingdom",
            "a counter-missionary is entered by the GM, or staked beforehand by "
            "the defending kingdom with convert-counter",
        )
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
        ctx.move_ducats(
            ("kingdoms", sponsor),
            None,
            p["ducats"],
            f"missionary work in {province['name']}",
            audience=kingdom_audience(sponsor),
        )
    if counter is not None:
        if int(specialist_pool(world, counter).get("missionary", 0)) < 1:
            if standing is None:
                raise CommandError("counter_kingdom", f"{_name(world, 'kingdoms', counter)} has no missionary")
            counter = None  # a standing counter without a missionary left lapses
            counter_ducats = 0
        else:
            take_specialists(
                ctx,
                counter,
                "missionary",
                1,
                f"countering the conversion of {province['name']}",
                "counter_kingdom",
                log=False,
            )
            if counter_ducats:
                ctx.move_ducats(
                    ("kingdoms", counter),
                    None,
                    counter_ducats,
                    f"counter-missionary work in {province['name']}",
                    audience=kingdom_audience(counter),
                )
    if standing is not None:
        world.delete("effects", standing)
    outcome = specialist_rules.conversion(ctx.dice_for(), p["ducats"], counter is not None, counter_ducats)
    record = ctx.record_roll(
        f"conversion of {province['name']} to {faith}",
        [outcome.natural],
        outcome.total,
        outcome.band,
        list(outcome.modifiers),
    )
    old_faith = province.get("faith")
    if outcome.success:
        world.edit("provinces", province_id)["faith"] = faith
    countered = f", countered by {_name(world, 'kingdoms', counter)}" if counter else ""
    result = (
        f"{province['name']} converts from {old_faith} to {faith}"
        if outcome.success
        else f"{province['name']} keeps {old_faith}"
    )
    ctx.log(
        f"A missionary of {_name(world, 'kingdoms', sponsor)} preaches in {province['name']}{countered}: "
        f"RtD {outcome.natural}{outcome.modifier:+d} = {outcome.total}, {outcome.band}; {result}. "
        f"Every missionary involved is spent.",
        kind="conversion",
        rolls=[record],
        refs={
            "province": province_id,
            "sponsor": sponsor,
            "counter": counter,
            "success": outcome.success,
            "faith": faith if outcome.success else old_faith,
        },
    )
    return {
        "province": province_id,
        "natural": outcome.natural,
        "total": outcome.total,
        "band": outcome.band,
        "success": outcome.success,
        "faith": world.get("provinces", province_id)["faith"],
        "countered": counter is not None,
        "counter_ducats": counter_ducats,
    }


@command(
    "convert-counter",
    "Stake a counter-missionary in a province: it opposes the next conversion there.",
    {
        "kingdom": Param(str, ref="kingdoms"),
        "province": Param(str, ref="provinces"),
        "ducats": Param(
            int,
            required=False,
            default=0,
            minimum=0,
            help=lambda: f"counter ducats, {_conversion('per_counter_ducat')} each, paid when used",
        ),
    },
    category="economy",
    stakes=_kingdom_stakes,
    filed_by=KING,
)
def convert_counter(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    ctx.require_acts_for(kingdom=p["kingdom"])
    if int(specialist_pool(world, p["kingdom"]).get("missionary", 0)) < 1:
        raise CommandError("kingdom", f"{_name(world, 'kingdoms', p['kingdom'])} has no missionary to stake")
    for effect_id, effect in list(world.all("effects")):
        if (
            _effect_kind(effect) == "counter-missionary"
            and effect.get("province") == p["province"]
            and effect.get("holder_kingdom") == p["kingdom"]
        ):
            world.delete("effects", effect_id)
    effect_id = world.new_id("effects", "cm")
    world.put(
        "effects",
        effect_id,
        {
            "kind": "counter-missionary",
            "holder_kingdom": p["kingdom"],
            "province": p["province"],
            "ducats": p["ducats"],
            "created": world.meta["date"],
            "active": True,
        },
    )
    ctx.log(
        f"{_name(world, 'kingdoms', p['kingdom'])} stakes a counter-missionary in "
        f"{_name(world, 'provinces', p['province'])} ({ducats(p['ducats'])}).",
        kind="specialists",
        audience=kingdom_audience(p["kingdom"]),
        refs={"effect": effect_id},
    )
    return {"effect": effect_id, "province": p["province"], "ducats": p["ducats"]}
