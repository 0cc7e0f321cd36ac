"""The espionage steps of the year start and the season start (RULINGS §7): counterfeit debts,
the treasury infiltration's theft, cold spies coming back, the government infiltration's manpower
cut, the admiralty / general staff upkeep surcharge, and effects running out.

Year-start sums of espionage effects are secret: each step writes an adjudicators' entry with its
sums (the public step line does not show them).
"""

from __future__ import annotations

import math

from yak_tui.areas.espionage.kinds import kind_of_document
from yak_tui.areas.espionage.rules import mission
from yak_tui.areas.espionage.state import (
    KIND,
    SPECIALISTS,
    active_effects,
    edit_pool,
    end_effect,
    holder_audience,
    kingdom_name,
)
from yak_tui.kernel.play.audience import ADJUDICATORS, kingdom_audience
from yak_tui.kernel.play.commands import CommandContext
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.season.seasons import StepReport, season_start_step, upkeep_surcharge, year_start_step
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import ducats
from yak_tui.kernel.world.numbers import capped


def _secret_sums(ctx: CommandContext, report: StepReport, title: str, sums: dict[str, float]) -> None:
    """Espionage sums are secret: the adjudicators' entry carries them, the GM's report lines too."""
    if not sums:
        return
    text = ", ".join(f"{k} {v:g}" for k, v in sums.items())
    report.lines.append(f"{title} (secret): {text}")
    ctx.log(
        f"Year start, {title}: {text}",
        kind=f"{KIND}-year-start",
        audience=ADJUDICATORS,
        refs={"step": report.step, "sums": sums, "secret": True},
    )


def _add(sums: dict[str, float], key: str, amount: float) -> None:
    sums[key] = round(sums.get(key, 0) + amount, 4)


@year_start_step("counterfeit", name="espionage-counterfeit-debts")
def _counterfeit_debts(ctx: CommandContext, report: StepReport) -> None:
    """Each counterfeit effect due now costs its target 5 ducats, before upkeep, even below zero."""
    world = ctx.world
    today = world.date
    sums: dict[str, float] = {}
    for effect_id, effect in active_effects(world, kind="counterfeit"):
        if GameDate.from_dict(effect.get("due") or effect["end"]) > today:
            continue
        debt = float(effect["data"]["debt"])
        # The owner sees every change to his treasury; the cause only if he detected it (issue 14).
        cause = "debt from counterfeit coin" if effect.get("known_to_target") else "unexplained loss"
        ctx.move_ducats(
            ("kingdoms", effect["target_kingdom"]),
            None,
            debt,
            cause,
            audience=kingdom_audience(effect["target_kingdom"]),
            allow_negative=True,
            kind=KIND,
            secret=f"counterfeit debt of {effect['sponsor_kingdom']} ({effect_id})",
        )
        end_effect(world, effect_id, "paid")
        _add(sums, f"counterfeit debt {effect['target_kingdom']}", debt)
    _secret_sums(ctx, report, "counterfeit debts", sums)


@year_start_step("tax", name="espionage-treasury-theft")
def _treasury_theft(ctx: CommandContext, report: StepReport) -> None:
    """Infiltrate Treasury: 1 ducat per province out of the target's tax; half to the sponsor."""
    world = ctx.world
    sums: dict[str, float] = {}
    for _, effect in active_effects(world, kind="infiltration", mission="infiltrate-treasury"):
        params = mission("infiltrate-treasury").params
        target, sponsor = effect["target_kingdom"], effect["sponsor_kingdom"]
        provinces = sum(1 for _, prov in world.all("provinces") if prov.get("kingdom") == target)
        treasury = float(world.get("kingdoms", target)["treasury"])
        stolen = max(0, min(provinces * int(params["ducats_per_province"]), math.floor(treasury)))
        if stolen <= 0:
            continue
        share = stolen // int(params["sponsor_share_divisor"])
        # The target's ledger reconciles: one line for all it lost, its cause only if it knows.
        cause = (
            "stolen from the tax collection by an infiltrator in the treasury"
            if effect.get("known_to_target")
            else "unexplained loss from the tax collection"
        )
        ctx.move_ducats(("kingdoms", target), None, stolen, cause, audience=kingdom_audience(target), kind=KIND)
        if share:
            # The half reaches the sponsoring kingdom's treasury: its King is told (issue 14, leak 8),
            # and the player who holds the infiltration too.
            skimmed = f"skimmed from the tax by the man in the treasury of {kingdom_name(world, target)}"
            holder = effect.get("holder_character")
            by = f" (the infiltration of {world.display_name('characters', holder)})" if holder else ""
            ctx.move_ducats(
                None, ("kingdoms", sponsor), share, skimmed + by, audience=kingdom_audience(sponsor), kind=KIND
            )
            if holder:
                ctx.log(
                    f"Your man in the treasury of {kingdom_name(world, target)} skimmed {ducats(share)} "
                    f"for {kingdom_name(world, sponsor)}.",
                    kind=KIND,
                    audience=holder_audience(effect),
                    refs={"kingdom": sponsor},
                )
        _add(sums, f"stolen from {kingdom_name(world, target)}", stolen)
        if share:
            _add(sums, f"to {kingdom_name(world, sponsor)}", share)
    _secret_sums(ctx, report, "treasury infiltration", sums)


@upkeep_surcharge(name="espionage-infiltrations")
def _upkeep_surcharge(world: World, kingdom_id: str, regiments: int, ships: int) -> dict[str, float]:
    """+0.5 upkeep per ship (admiralty) / regiment (general staff) per infiltrating sponsor."""
    out: dict[str, float] = {}
    for slug, count, per, label in (
        ("infiltrate-admiralty", ships, "upkeep_per_ship", "naval"),
        ("infiltrate-general-staff", regiments, "upkeep_per_regiment", "military"),
    ):
        infiltration = mission(slug)  # looked up once (a catalogue copy each time), not once an effect
        rate = float(infiltration.params[per])
        for _, effect in active_effects(world, kind="infiltration", mission=slug, target_kingdom=kingdom_id):
            name = f"{infiltration.name.lower()}" if effect.get("known_to_target") else f"{label} waste"
            out[name] = out.get(name, 0.0) + rate * count
    return {k: v for k, v in out.items() if v}


@year_start_step("cold-spies", name="espionage-cold-spies")
def _cold_spies(ctx: CommandContext, report: StepReport) -> None:
    world = ctx.world
    sums: dict[str, float] = {}
    for kingdom, doc in sorted(world.all(SPECIALISTS)):
        cold = int(doc.get("cold_spy", 0))
        if cold <= 0:
            continue
        pool = edit_pool(world, kingdom)
        pool["spy"] = capped(int(pool["spy"]) + cold)
        pool["cold_spy"] = 0
        ctx.log(
            f"{cold} cold {'spy is' if cold == 1 else 'spies are'} active again in {kingdom_name(world, kingdom)} "
            f"({pool['spy']} active).",
            kind=KIND,
            audience=kingdom_audience(kingdom),
            refs={"kingdom": kingdom},
        )
        _add(sums, f"returned {kingdom}", cold)
    _secret_sums(ctx, report, "cold spies", sums)


@year_start_step("government", name="espionage-government")
def _government(ctx: CommandContext, report: StepReport) -> None:
    """Each Government infiltration cuts the target's manpower by a quarter, rounded down."""
    world = ctx.world
    sums: dict[str, float] = {}
    divisor = int(mission("infiltrate-government").params["manpower_divisor"])
    for _, effect in active_effects(world, kind="infiltration", mission="infiltrate-government"):
        target = effect["target_kingdom"]
        kingdom = world.edit("kingdoms", target)
        cut = int(kingdom["manpower"]) // divisor
        if cut <= 0:
            continue
        kingdom["manpower"] = int(kingdom["manpower"]) - cut
        cause = "to a corrupt bureaucracy" if effect.get("known_to_target") else "in an unexplained loss"
        ctx.log(
            f"{kingdom_name(world, target)} loses {cut} manpower {cause} ({kingdom['manpower']} left).",
            kind=KIND,
            audience=kingdom_audience(target),
            refs={"target_kingdom": target},
            secret=f"infiltrate government by {effect['sponsor_kingdom']}",
        )
        _add(sums, f"manpower cut {target}", cut)
    _secret_sums(ctx, report, "government infiltration", sums)


def expire_effects(ctx: CommandContext, report: StepReport) -> None:
    """Effects whose end date has come run out; their kind undoes its world change."""
    world = ctx.world
    today = world.date
    count = 0
    for effect_id, effect in active_effects(world):
        end = effect.get("end")
        if end is None or GameDate.from_dict(end) > today:
            continue
        kind = kind_of_document(str(effect["kind"]))
        if kind is not None and kind.expires_at_its_step:
            continue  # settled by its own year-start step
        if kind is not None and kind.expire is not None:
            kind.expire(world, effect)
        province = effect.get("province")
        end_effect(world, effect_id, "expired")
        count += 1
        label = effect["kind"].replace("-", " ")
        where = f" in {world.display_name('provinces', province)}" if province else ""
        ctx.log(
            f"Your {label}{where} against {kingdom_name(world, effect['target_kingdom'])} has run its course.",
            kind=KIND,
            audience=holder_audience(effect),
            refs={"effect": effect_id},
        )
        if effect.get("known_to_target"):
            ctx.log(
                f"The {label}{where} has run its course.",
                kind=KIND,
                audience=kingdom_audience(effect["target_kingdom"]),
                refs={"effect": effect_id},
            )
        elif (effect.get("data") or {}).get("market_allowance"):
            # A secret Limit Trade wearing off gives the owner back what it took: told without cause.
            ctx.log(
                f"The market allowance{where} recovers by {-float(effect['data']['market_allowance']):g} "
                "(unexplained).",
                kind=KIND,
                audience=kingdom_audience(effect["target_kingdom"]),
                refs={"province": province},
            )
    if count:
        _secret_sums(ctx, report, "espionage effects expired", {"expired": count})


year_start_step("expiries", name="espionage-effects-expire")(expire_effects)


@season_start_step("Espionage effects run out", name="espionage-effects-run-out")
def _season_expiries(ctx: CommandContext, report: StepReport) -> None:
    if not ctx.world.date.is_year_start:
        expire_effects(ctx, report)
