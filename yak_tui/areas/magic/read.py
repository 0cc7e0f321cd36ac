"""Headless data for the casting screen: who may cast, what carries into his next Power roll,
the odds before each stage given the naturals so far, and a stage-by-stage preview of naturals
typed off physical dice (issue 7, item 1).

All arithmetic is `yak_tui.areas.magic.commands` (which calls `rules.spells`); this module only shapes
it for the screen and filters it for the viewer: a mage's ranks and carried modifiers are his
kingdom's business, so only the GM, his King and the mage himself see them. No Textual here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any, NamedTuple

from yak_tui.areas.magic import commands as magic
from yak_tui.areas.magic.rules import STAGES, StageRoll, stage_bands
from yak_tui.kernel.play.audience import can_see_document, visible_table
from yak_tui.kernel.play.commands import CommandError
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.views import Problem, RollView, clean_params, problem_of
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import table

STAGE_TITLES = {"power": "Power", "control": "Control", "resolution": "Resolution"}
TONES = ("good", "ok", "warn", "bad")


class CasterRow(NamedTuple):
    """A mage the viewer may see casting: his trained ranks and the ±1 stored per power source."""

    id: str
    name: str
    title: str
    kingdom: str
    where: str
    ranks: tuple[tuple[str, int], ...]  # (stage, rank) in stage order
    carries: tuple[tuple[str, int], ...]  # (power source, ±1) waiting for the next Power roll

    @property
    def label(self) -> str:
        return f"{self.name} · {self.where}" if self.where else self.name


def casters(world: World, viewer: Identity) -> tuple[CasterRow, ...]:
    """Living mages whose ranks the viewer may see (GM: all; a King: his kingdom's; a player: himself)."""
    out: list[CasterRow] = []
    for cid, doc in sorted(
        visible_table(world, viewer, "characters").items(), key=lambda item: str(item[1].get("name", item[0]))
    ):
        if can_see_document(world, viewer, "characters", cid, world.get("characters", cid)) != "all":
            continue
        try:
            magic.caster_doc(world, cid)
            ranks = magic.caster_ranks(world, cid)
        except CommandError:
            continue
        carries = tuple(sorted((str(k), int(v)) for k, v in (doc.get(magic.CARRY_FIELD) or {}).items() if v))
        location = doc.get("location")
        where = (
            world.display_name("pcs", location)
            if world.find("pcs", location)
            else world.display_name("units", location)
            if location
            else ""
        )
        out.append(
            CasterRow(
                cid,
                str(doc.get("name", cid)),
                str(doc.get("title", "")),
                world.display_name("kingdoms", doc.get("kingdom")),
                where,
                tuple((s, ranks[s]) for s in STAGES),
                carries,
            )
        )
    return tuple(out)


def cast_params(world: World, raw: Mapping[str, Any]) -> dict[str, Any]:
    """Form text → the typed parameters `magic` reads (the spell text may still be missing:
    odds do not depend on it). CommandError names the field that is wrong."""
    from yak_tui.kernel.play.commands import spec_for
    from yak_tui.kernel.play.params import coerce_params

    spec = spec_for("cast")
    lenient = replace(spec, params={k: replace(p, required=k in ("caster", "source")) for k, p in spec.params.items()})
    return coerce_params(lenient, clean_params(raw), world)


class CastSetup(NamedTuple):
    """What the screen shows before the dice: the carried modifier and the odds of the casting."""

    caster: str
    source: str  # normalised, as the carry is stored
    carry: int
    carry_text: str
    ranks: tuple[tuple[str, int], ...]
    power_odds: tuple[tuple[str, float], ...]
    effect_odds: tuple[tuple[str, float], ...]
    next_carry_odds: tuple[tuple[str, float], ...]
    problem: Problem | None = None


def cast_setup(world: World, viewer: Identity, raw: Mapping[str, Any]) -> CastSetup:
    """The carried modifier for this caster and source, and the exact odds before Power."""
    try:
        p = cast_params(world, raw)
        if not any(c.id == p["caster"] for c in casters(world, viewer)):
            raise CommandError("caster", f"{world.display_name('characters', p['caster'])} is no mage of yours")
        inputs = magic.cast_inputs(world, p)
        odds = magic.cast_odds(world, viewer, p)["odds"]
    except Exception as error:
        return CastSetup("", "", 0, "", (), (), (), (), problem_of(error))
    if inputs.carry:
        band = "bonded" if inputs.carry > 0 else "oversealed"
        text = f"{inputs.carry:+d} carried into this Power roll ({band} last time with {inputs.source})"
    else:
        text = f"nothing carried with {inputs.source}"
    rows = tuple((b, float(odds["power"].get(b, 0.0))) for b in stage_bands("power"))
    effect = tuple((str(k), float(v)) for k, v in odds["effect"].items())
    carry = tuple((f"{int(k):+d}" if int(k) else "0", float(v)) for k, v in odds["next_power_modifier"].items())
    return CastSetup(inputs.caster, inputs.source, inputs.carry, text, tuple(inputs.ranks.items()), rows, effect, carry)


def stage_odds_rows(world: World, raw: Mapping[str, Any], known: Sequence[int]) -> tuple[tuple[str, float], ...]:
    """Odds of each band of the next stage given the naturals rolled so far (empty: not rolled)."""
    try:
        odds = magic.stage_odds(world, cast_params(world, raw), known)
    except Exception:
        return ()
    return tuple((band, float(p)) for band, p in odds.items())


# -- tones: how good a band is, for colours --------------------------------------------------------


def band_tone(stage: str, band: str) -> str:
    """good, ok, warn or bad, read from the spells table (so a GM's override keeps its colours)."""
    rules = table("spells")
    stage_rules = rules[stage]
    has_consequence = bool(rules.get("consequences", {}).get(stage, {}).get(band))
    if stage == "power":
        if band in stage_rules.get("ends_spell", []):
            return "bad"
        if band in stage_rules.get("greater_magnitude", []):
            return "good" if not stage_rules.get("penalties", {}).get(band) else "warn"
        return "ok"
    if stage == "control":
        effect = str(stage_rules.get("effect", {}).get(band, "none"))
        if effect == "none":
            return "bad"
        if has_consequence:
            return "warn"
        return "good" if band == stage_rules.get("top_band") else "ok"
    carry = int(stage_rules.get("next_power", {}).get(band, 0))
    if carry > 0:
        return "good"
    if has_consequence:
        return "bad"
    return "warn" if carry < 0 else "ok"


def effect_tone(effect: str) -> str:
    """The tone of a spell's effect: that of the Control band giving it (none is bad)."""
    if effect == "none":
        return "bad"
    for band, value in table("spells")["control"].get("effect", {}).items():
        if str(value) == effect:
            return band_tone("control", str(band))
    return "ok"


def carry_tone(value: str) -> str:
    """+1 for the next Power is good, -1 a nuisance, 0 plain."""
    number = int(value)
    return "good" if number > 0 else "warn" if number < 0 else "ok"


# RollView.outcome words the dice tray colours by (it looks for "fail" and "succe").
_TRAY_WORD = {"good": "success", "bad": "failure", "ok": "", "warn": ""}


def stage_roll_view(roll: StageRoll, manual: bool) -> RollView:
    """One stage as the dice tray draws it."""
    mods = tuple((m.value, m.reason) for m in roll.modifiers)
    mod_text = "".join(f" {v:+d} ({r})" for v, r in mods)
    title = STAGE_TITLES.get(roll.stage, roll.stage)
    line = f"{title}: rolled {roll.natural}{mod_text} = {roll.total} → {roll.band}"
    return RollView(
        title,
        (roll.natural,),
        mods,
        roll.total,
        roll.band,
        _TRAY_WORD[band_tone(roll.stage, roll.band)],
        False,
        manual,
        line,
    )


def retone(rolls: Sequence[RollView]) -> tuple[RollView, ...]:
    """The rolls a `cast` recorded (from `views.roll_views`), titled and coloured per stage."""
    out = []
    for stage, roll in zip(STAGES, rolls, strict=False):
        out.append(
            roll._replace(
                purpose=STAGE_TITLES[stage],
                outcome=_TRAY_WORD[band_tone(stage, roll.band)] if roll.band else roll.outcome,
            )
        )
    return tuple(out)


def given_words(rolls: Sequence[RollView]) -> str:
    """The stages rolled before this one, by the totals their trays show ("Power 6, Control 4"):
    the one figure for a stage, modifiers included (never the bare natural beside its total)."""
    said = []
    for stage, roll in zip(STAGES, rolls, strict=False):
        figure = roll.total if roll.total is not None else (roll.naturals or (None,))[0]
        if figure is not None:
            said.append(f"{STAGE_TITLES[stage]} {figure}")
    return ", ".join(said)


class Preview(NamedTuple):
    """The stages the naturals typed so far decide, and whether the spell needs another die."""

    rolls: tuple[RollView, ...]
    done: bool
    ended_at_power: bool


def preview(world: World, raw: Mapping[str, Any], naturals: Sequence[int]) -> Preview:
    """Stage by stage, before anything is written: the naturals of physical dice, as typed.

    Stage k depends only on the first k naturals, so the rest are padded with any die; the
    real casting (one transaction, `HandDice`) reads the same naturals and lands the same way.
    """
    inputs = magic.cast_inputs(world, cast_params(world, raw))
    known = list(naturals)[: len(STAGES)]
    outcome = inputs.roll(ScriptedDice([*known, *([3] * (len(STAGES) - len(known)))]))
    rolled = outcome.stages
    shown = tuple(stage_roll_view(r, manual=True) for r in rolled[: len(known)])
    return Preview(shown, len(rolled) <= len(known), outcome.ended_at_power)


def pending_lines(world: World, viewer: Identity, entry_ids: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """(entry id, text) of the consequences a casting left for the GM to describe."""
    shown = visible_table(world, viewer, "chronicle")
    out = []
    for entry_id in entry_ids:
        entry = shown.get(entry_id) or next((e for e in shown.values() if e.get("id") == entry_id), None)
        if entry is not None and entry.get("pending"):
            out.append((entry_id, str(entry.get("text", ""))))
    return tuple(out)
