"""Spell casting in the world (RULINGS §4): `yak do cast` and `yak do consequence-fill`.

The rolls are `rules.spells.cast_spell`; this module finds the caster's trained ranks, the ±1
stored for his power source (`power_carry: {source: ±1}` on the character, spent by the next
Power roll with that source and replaced by what Resolution leaves), records each stage roll,
and turns every consequence (backlash, spill, mishap, open source) into a *pending* chronicle
entry that the GM describes later with `consequence-fill`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from yak_tui.areas.magic.rules import (
    STAGES,
    SpellOutcome,
    StageRoll,
    allowed_carries,
    cast_spell,
    spell_odds,
    stage_bands,
)
from yak_tui.kernel.play.audience import ADJUDICATORS, PUBLIC
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import SEATS, CommandContext, CommandError, Param, audience_param, command
from yak_tui.kernel.play.dice import Dice, Modifier, exact_odds
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.seasons import due_reporter
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import table

CARRY_FIELD = "power_carry"
RANKS_FIELD = "ranks"
MAGE_KINDS = ("mage",)
DIGITS = 6

# What the chronicle calls each consequence key of tables/spells.toml [consequences]; a key a GM
# adds in an override shows as itself.
CONSEQUENCE_LABELS = {
    "power-backlash": "backlash from the power source",
    "control-backlash": "loss of control with an unpleasant consequence",
    "spill": "the effect spills beyond the caster's intent",
    "mishap": "a mishap as the resolution fails",
    "open-source": "the power source is left open",
}


def normalize_source(text: str) -> str:
    """`Ley Line`, `ley-line` and `LEY_LINE` are one power source: `ley-line`."""
    return "-".join(re.findall(r"[a-z0-9]+", text.lower()))


def _p(value: Fraction) -> float:
    return round(float(value), DIGITS)


# --- reading the caster ---------------------------------------------------------------------


def caster_doc(world: World, caster_id: str) -> dict[str, Any]:
    """The living caster. Ruling: a caster is a character of kind "mage" or one with spell ranks
    (the seed lets anyone attempt magic but makes mages train each stage separately)."""
    char = world.get("characters", caster_id)
    name = char.get("name", caster_id)
    if not char.get("alive", True):
        raise CommandError("caster", f"{name} is dead")
    ranks = char.get(RANKS_FIELD)
    if char.get("kind") not in MAGE_KINDS and not isinstance(ranks, dict):
        raise CommandError("caster", f"{name} is no mage: a caster needs spell ranks {{power, control, resolution}}")
    if ranks is not None and not isinstance(ranks, dict):
        raise CommandError("caster", f"{name} has ranks {ranks!r}, not a table of stage ranks")
    return char


def caster_ranks(world: World, caster_id: str) -> dict[str, int]:
    """Trained rank per stage; a stage not trained is 0."""
    ranks = caster_doc(world, caster_id).get(RANKS_FIELD) or {}
    out: dict[str, int] = {}
    for stage in STAGES:
        value = ranks.get(stage, 0)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise CommandError("caster", f"the {stage} rank is {value!r}, not a whole number ≥ 0")
        out[stage] = value
    return out


def stored_carry(world: World, caster_id: str, source: str) -> int:
    """The ±1 waiting for the caster's next Power roll with this source (0 if none)."""
    carries = world.get("characters", caster_id).get(CARRY_FIELD) or {}
    value = carries.get(normalize_source(source), 0)
    if value not in allowed_carries():
        allowed = ", ".join(map(str, allowed_carries()))
        raise CommandError("caster", f"the stored carry for {source} is {value!r}, not one of {allowed}")
    return int(value)


@dataclass(frozen=True)
class CastInputs:
    """Everything a casting rolls with, read from the world and the GM's parameters."""

    caster: str
    source: str
    ranks: dict[str, int]
    carry: int
    modifiers: dict[str, tuple[Modifier, ...]]

    def roll(self, dice: Dice) -> SpellOutcome:
        return cast_spell(
            dice,
            self.ranks["power"],
            self.ranks["control"],
            self.ranks["resolution"],
            self.carry,
            self.modifiers["power"],
            self.modifiers["control"],
            self.modifiers["resolution"],
        )


def cast_inputs(world: World, p: dict[str, Any]) -> CastInputs:
    """Checked inputs of a `cast` (refusals name the parameter)."""
    caster_id = p["caster"]
    ranks = caster_ranks(world, caster_id)
    source = normalize_source(p["source"])
    if not source:
        raise CommandError("source", "name the power source, e.g. ley-line, spirits, a demon's name")
    reason = (p.get("reason") or "").strip() or "GM modifier"
    mods: dict[str, tuple[Modifier, ...]] = {}
    for stage in STAGES:
        value = int(p.get(f"{stage}_modifier") or 0)
        mods[stage] = (Modifier(value, reason),) if value else ()
    return CastInputs(caster_id, source, ranks, stored_carry(world, caster_id, source), mods)


def cast_stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
    """Where the caster stands (the kingdom controlling his PC) and who takes part."""
    char = world.get("characters", p["caster"])
    return Stakes.of(_location_kingdom(world, char), kingdoms=[char.get("kingdom")], characters=[p["caster"]])


def _location_kingdom(world: World, char: dict[str, Any]) -> str | None:
    location = char.get("location")
    pc = world.find("pcs", location)
    if pc is not None:
        return pc.get("controller")
    unit = world.find("units", location)  # an Agent riding with a legion
    if unit is not None:
        for _, candidate in world.all("pcs"):
            if list(candidate.get("hex", [])) == list(unit.get("hex", [])):
                return candidate.get("controller")
    return None


# --- odds -------------------------------------------------------------------------------------


def cast_odds(world: World, identity: Identity, p: dict[str, Any]) -> dict[str, Any]:
    """Exact odds of every band of every stage, of the effect and of the next carry."""
    inputs = cast_inputs(world, p)
    odds = spell_odds(
        inputs.ranks["power"],
        inputs.ranks["control"],
        inputs.ranks["resolution"],
        inputs.carry,
        inputs.modifiers["power"],
        inputs.modifiers["control"],
        inputs.modifiers["resolution"],
    )
    works = sum((q for effect, q in odds["effect"].items() if effect != "none"), Fraction(0))
    return {
        "odds": {part: {k: _p(v) for k, v in probs.items()} for part, probs in odds.items()},
        "effect_works": _p(works),
        "ranks": inputs.ranks,
        "carry": inputs.carry,
        "source": inputs.source,
    }


class _ThenDice:
    """Replays the naturals already rolled, then asks the inner dice (for conditional odds)."""

    def __init__(self, known: Sequence[int], inner: Dice) -> None:
        self.known = list(known)
        self.inner = inner
        self.source = inner.source

    def roll(self, sides: int = 6, purpose: str = "") -> int:
        if self.known:
            return self.known.pop(0)
        return self.inner.roll(sides, purpose)


def stage_odds(world: World, p: dict[str, Any], known: Sequence[int] = ()) -> dict[str, float]:
    """Odds of each band of the next stage, given the naturals of the stages already rolled.

    For the casting screen: before Power pass `()`, before Control `[power natural]`, before
    Resolution `[power, control]`. Empty when the spell has ended.
    """
    inputs = cast_inputs(world, p)
    stage_index = len(known)
    if stage_index >= len(STAGES):
        return {}
    stage = STAGES[stage_index]

    def key(outcome: SpellOutcome) -> str:
        rolled = outcome.stages
        return rolled[stage_index].band if len(rolled) > stage_index else "not-rolled"

    odds = exact_odds(lambda d: inputs.roll(_ThenDice(known, d)), key)
    if odds.get("not-rolled"):
        return {}
    return {band: _p(odds.get(band, Fraction(0))) for band in stage_bands(stage)}


# --- the command ------------------------------------------------------------------------------


def _stage_text(roll: StageRoll) -> str:
    mods = "".join(f"{m.value:+d}" for m in roll.modifiers)
    return f"{roll.stage.capitalize()} {roll.natural}{mods} = {roll.total} {roll.band}"


def _consequence_stage() -> dict[str, str]:
    """Which stage each consequence key comes from (keys are unique across stages)."""
    out: dict[str, str] = {}
    for stage, bands in table("spells").get("consequences", {}).items():
        for keys in bands.values():
            for key in keys:
                out.setdefault(str(key), str(stage))
    return out


@command(
    "cast",
    "Cast a spell: Power, Control, Resolution (adjudicated; consequences wait for the GM).",
    {
        "caster": Param(str, ref="characters", help="the mage (a character with spell ranks)"),
        "source": Param(str, help="the power source, free text: ley-line, spirits, a demon's name"),
        "spell": Param(str, help="what the spell is meant to do"),
        "power_modifier": Param(int, required=False, default=0, help="GM modifier to Power", by_adjudicator=True),
        "control_modifier": Param(int, required=False, default=0, help="GM modifier to Control", by_adjudicator=True),
        "resolution_modifier": Param(
            int, required=False, default=0, help="GM modifier to Resolution", by_adjudicator=True
        ),
        "reason": Param(str, required=False, default="", help="why the GM modifiers apply", by_adjudicator=True),
        "audience": Param(
            str,
            required=False,
            default=PUBLIC,
            help="who reads the casting: public, kingdom:<id>, character:<id>",
            by_adjudicator=True,
        ),
    },
    category="magic",
    filed_by=SEATS,
    odds=cast_odds,
    stakes=cast_stakes,
    rolls=True,
)
def cast(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    spell = p["spell"].strip()
    if not spell:
        raise CommandError("spell", "is empty: say what the spell is meant to do")
    inputs = cast_inputs(world, p)
    char = world.get("characters", inputs.caster)
    name = str(char.get("name", inputs.caster))
    audience = audience_param(world, p["audience"])
    ctx.require_adjudicator(cast_stakes(world, ctx.identity, p))
    ctx.require_acts_for(kingdom=char.get("kingdom"), character=inputs.caster)

    outcome = inputs.roll(ctx.dice_for(audience))

    records = [
        ctx.record_roll(
            f"spell {roll.stage}: {spell} ({inputs.source})",
            [roll.natural],
            roll.total,
            roll.band,
            list(roll.modifiers),
            audience=audience,
        )
        for roll in outcome.stages
    ]
    # The stored carry is spent by this Power roll and replaced by what Resolution leaves.
    edited = world.edit("characters", inputs.caster)
    carries = dict(edited.get(CARRY_FIELD) or {})
    carries.pop(inputs.source, None)
    if outcome.next_power_modifier:
        carries[inputs.source] = outcome.next_power_modifier
    edited[CARRY_FIELD] = carries

    stages = "; ".join(_stage_text(roll) for roll in outcome.stages)
    if outcome.ended_at_power:
        result = "the spell fails at Power"
    else:
        result = f"effect: {outcome.effect}" + (", greater magnitude" if outcome.greater_magnitude else "")
    carry_note = (
        f" Next Power with {inputs.source}: {outcome.next_power_modifier:+d}." if outcome.next_power_modifier else ""
    )
    refs = {"caster": inputs.caster, "kingdom": char.get("kingdom"), "source": inputs.source, "spell": spell}
    entry = ctx.log(
        f"{name} casts '{spell}' drawing on {inputs.source}: {stages}; {result}.{carry_note}",
        kind="spell",
        audience=audience,
        rolls=records,
        refs=refs,
    )

    stage_of = _consequence_stage()
    pending: list[str] = []
    for key in outcome.consequences:
        label = CONSEQUENCE_LABELS.get(key, key)
        note = ctx.log(
            f"Consequence of {name}'s '{spell}' ({inputs.source}): {label}. The GM will describe it.",
            kind="consequence",
            audience=audience,
            refs={**refs, "consequence": key, "stage": stage_of.get(key, ""), "casting": entry["id"]},
        )
        world.edit("chronicle", note["id"])["pending"] = True
        pending.append(note["id"])

    return {
        "caster": inputs.caster,
        "source": inputs.source,
        "spell": spell,
        "power": outcome.power.to_dict(),
        "control": outcome.control.to_dict() if outcome.control else None,
        "resolution": outcome.resolution.to_dict() if outcome.resolution else None,
        "effect": outcome.effect,
        "greater_magnitude": outcome.greater_magnitude,
        "carry_used": inputs.carry,
        "next_power_modifier": outcome.next_power_modifier,
        "consequences": list(outcome.consequences),
        "consequence_entries": pending,
        "entry": entry["id"],
        "outcome": outcome.effect,
        "outcome_text": result,
    }


@command(
    "consequence-fill",
    "Describe a pending spell consequence (the GM, or the casting's adjudicator).",
    {
        "entry": Param(str, ref="chronicle", help="the pending consequence entry id"),
        "text": Param(str, help="what happens"),
    },
    category="magic",
)
def consequence_fill(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    """Ruling: the description is a new entry dated now; the old entry only loses its pending
    flag and points at it, so nothing is back-dated into a closed season."""
    world = ctx.world
    entry = world.get("chronicle", p["entry"])
    if entry.get("kind") != "consequence" or "pending" not in entry:
        raise CommandError("entry", f"{p['entry']} is a {entry.get('kind')} entry, not a spell consequence")
    if not entry["pending"]:
        raise CommandError("entry", f"{p['entry']} is already described: {entry.get('detail', '')}")
    if not ctx.identity.is_gm and entry.get("adjudicator") != str(ctx.identity):
        raise CommandError(
            "identity",
            f"only the GM or the casting's adjudicator ({entry.get('adjudicator') or 'gm'}) describes its consequences",
            ("gm", *([entry["adjudicator"]] if entry.get("adjudicator") else [])),
        )
    text = p["text"].strip()
    if not text:
        raise CommandError("text", "is empty: say what happens")
    refs = dict(entry.get("refs") or {})
    key = str(refs.get("consequence", ""))
    note = ctx.log(
        f"{CONSEQUENCE_LABELS.get(key, key).capitalize()}: {text}",
        kind="consequence",
        audience=str(entry.get("audience", PUBLIC)),
        refs={**refs, "fills": p["entry"]},
    )
    edited = world.edit("chronicle", p["entry"])
    edited.update({"pending": False, "detail": text, "filled_by": note["id"]})
    return {"entry": p["entry"], "filled_by": note["id"]}


# A pending consequence's field as a save's bytes hold it (orjson's compact form).
PENDING_MARK = b'"pending":true'


def pending_consequences(world: World) -> list[tuple[str, dict[str, Any]]]:
    """Consequence entries the GM has not described yet, oldest first. Most seasons have none: a
    chronicle not parsed yet with no pending entry in its bytes is not parsed for them (`due`)."""
    if not world.may_hold("chronicle", PENDING_MARK):
        return []
    return sorted(
        ((i, e) for i, e in world.all("chronicle") if e.get("kind") == "consequence" and e.get("pending")),
        key=lambda item: int(item[1].get("seq", 0)),
    )


@due_reporter(name="magic-consequences")
def _due_consequences(world: World) -> list[dict[str, Any]]:
    return [
        {
            "kind": "consequence",
            "text": f"Describe the consequence: {entry['text']}",
            "audience": ADJUDICATORS,
            "urgent": True,
            "entry": entry_id,
        }
        for entry_id, entry in pending_consequences(world)
    ]
