"""NPC espionage missions (RULINGS §7): the catalogue, the spy's modifiers and the two blind rolls.

Every number (costs, targets, modifiers, band offsets) lives in `tables/espionage.toml`; this
module only knows the shape of the two tables. Both rolls are 1d6 + modifiers judged on the total:
the RtD natural-1/6 rule does not apply here.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, cast

from yak_tui.areas.espionage.missions import (
    EspionageInputError,
    Extra,
    Mission,
    SpyOutcome,
    SpyRoll,
    UnknownMission,
    mission_from_row,
)
from yak_tui.areas.espionage.registry import KINDS
from yak_tui.kernel.play.dice import Dice, Modifier, exact_odds, total_of
from yak_tui.kernel.world.tables import RulesTableError, table

__all__ = [  # the mission's own types are read from here too
    "EspionageInputError",
    "Extra",
    "Mission",
    "SpyOutcome",
    "SpyRoll",
    "UnknownMission",
]

OUTCOMES = ("success", "failure", "not-rolled")
SPY_FATES = ("captured", "escaped")
EVIDENCE = ("identified", "detected", "undetected", "not-rolled")

# Band names of the two rolls, as they appear in the chronicle's RollRecord.
SUCCESS_BANDS = ("fails-spy-captured", "fails", "succeeds", "succeeds-spy-escapes")
DETECTION_BANDS = (
    "captured-identified",
    "captured-silent",
    "escaped-detected",
    "escaped-undetected",
)


def catalogue() -> dict[str, Mission]:
    """Every mission by slug, in seed order (built from the table, so house rules apply); a
    mission whose effect no `MissionKind` handles is refused (`KINDS` is filled by `kinds.py`,
    which the package loads with itself)."""
    rows = table("espionage")["missions"]
    # Built once per loaded rules table (the loader hands out the same list until the rules change).
    cached = _CATALOGUE.get("built")
    if cached is not None and cached[0] is rows and cached[1] == tuple(KINDS):
        return dict(cached[2])
    missions: dict[str, Mission] = {}
    for row in rows:
        entry = mission_from_row(row)
        if entry.slug in missions:
            raise RulesTableError(f"espionage mission {entry.slug!r} is listed twice")
        missions[entry.slug] = entry
    for entry in missions.values():
        if entry.effect not in KINDS:
            raise RulesTableError(
                f"espionage mission {entry.slug!r}: no code handles the effect {entry.effect!r} "
                f"(effects: {', '.join(sorted(KINDS))})"
            )
        if entry.prerequisite is not None and entry.prerequisite not in missions:
            raise RulesTableError(f"espionage mission {entry.slug!r} needs unknown mission {entry.prerequisite!r}")
    _CATALOGUE["built"] = (rows, tuple(KINDS), missions)
    return dict(missions)


# The last catalogue built and what it was built from: (mission rows, effect kinds, missions).
_CATALOGUE: dict[str, tuple[Any, tuple[str, ...], dict[str, Mission]]] = {}


def mission(slug: str) -> Mission:
    """The mission named `slug`, or an UnknownMission error that suggests close slugs."""
    missions = catalogue()
    if slug in missions:
        return missions[slug]
    import difflib  # on an unknown slug only

    close = difflib.get_close_matches(slug, list(missions), n=3, cutoff=0.5)
    if not close:
        close = [s for s in missions if slug and slug.lower() in s][:3]
    raise UnknownMission(slug, close)


def _as_mission(target: Mission | str) -> Mission:
    return target if isinstance(target, Mission) else mission(target)


def missing_prerequisite(target: Mission | str, held: Collection[str]) -> str | None:
    """The infiltration slug the sponsor still needs against the target, or None when met."""
    entry = _as_mission(target)
    if entry.prerequisite is None or entry.prerequisite in held:
        return None
    return entry.prerequisite


def mission_cost(target: Mission | str, extras: Mapping[str, int] | None = None) -> int:
    """Ducats the order costs: the listed cost plus the extras bought (the Spy is separate)."""
    entry = _as_mission(target)
    offered = {extra.kind: extra for extra in entry.extras}
    ducats = entry.cost
    for kind, count in (extras or {}).items():
        if kind not in offered:
            known = ", ".join(offered) or "none"
            raise EspionageInputError(f"{entry.slug} offers no extra {kind!r} (extras: {known})")
        if count < 0:
            raise EspionageInputError(f"{entry.slug}: {kind} count {count} is negative")
        limit = offered[kind].max
        if limit is not None and count > limit:
            raise EspionageInputError(f"{entry.slug}: at most {limit} {kind}, not {count}")
        ducats += count * offered[kind].ducats_each
    return ducats


# ---------------------------------------------------------------- modifiers


@dataclass(frozen=True)
class SpyModifiers:
    """What the world knows about sponsor and target when a mission is resolved."""

    province_counter_spy: bool = False
    nation_counter_spy: bool = False
    spy_ring_infiltrated_by_target: bool = False
    security_breach: bool = False
    gm_modifiers: Sequence[Modifier] = ()
    success_modifier: int = 0
    detection_modifier: int = 0


@dataclass(frozen=True)
class AppliedModifiers:
    """The modifier lists of both rolls, and which one-shot holdings the mission spends."""

    success: list[Modifier]
    detection: list[Modifier]
    counter_spy_spent: str | None  # "province", "nation" or None
    security_breach_spent: bool


def spy_modifiers(inputs: SpyModifiers) -> AppliedModifiers:
    """Modifiers for the spy's totals; counter-spies never stack, only the larger is spent."""
    values = table("espionage")["modifiers"]
    shared: list[Modifier] = []
    spent: str | None = None
    province = int(values["province_counter_spy"])
    nation = int(values["nation_counter_spy"])
    if inputs.province_counter_spy and (not inputs.nation_counter_spy or abs(province) >= abs(nation)):
        shared.append(Modifier(province, "province counter-spy"))
        spent = "province"
    elif inputs.nation_counter_spy:
        shared.append(Modifier(nation, "nation-wide counter-spy"))
        spent = "nation"
    if inputs.spy_ring_infiltrated_by_target:
        shared.append(Modifier(int(values["spy_ring_infiltrated"]), "spy ring infiltrated by target"))
    if inputs.security_breach:
        shared.append(Modifier(int(values["security_breach"]), "security breach"))
    shared.extend(inputs.gm_modifiers)
    success = list(shared)
    detection = list(shared)
    if inputs.success_modifier:
        success.append(Modifier(inputs.success_modifier, "success modifier"))
    if inputs.detection_modifier:
        detection.append(Modifier(inputs.detection_modifier, "detection modifier"))
    return AppliedModifiers(success, detection, spent, inputs.security_breach)


# ---------------------------------------------------------------- resolution


def _success_band(offset: int, bands: Mapping[str, Any]) -> str:
    if offset <= int(bands["success_capture_at_most"]):
        return SUCCESS_BANDS[0]
    if offset < 0:
        return SUCCESS_BANDS[1]
    if offset < int(bands["success_escape_at_least"]):
        return SUCCESS_BANDS[2]
    return SUCCESS_BANDS[3]


def _detection_band(offset: int, bands: Mapping[str, Any]) -> str:
    if offset <= int(bands["detection_identified_at_most"]):
        return DETECTION_BANDS[0]
    if offset <= int(bands["detection_captured_at_most"]):
        return DETECTION_BANDS[1]
    if offset <= int(bands["detection_detected_at_most"]):
        return DETECTION_BANDS[2]
    return DETECTION_BANDS[3]


_DETECTION_EVIDENCE = {
    "captured-identified": ("captured", "identified"),
    "captured-silent": ("captured", "detected"),
    "escaped-detected": ("escaped", "detected"),
    "escaped-undetected": ("escaped", "undetected"),
}


def _roll(dice: Dice, modifiers: Sequence[Modifier], purpose: str) -> tuple[int, int]:
    natural = dice.roll(6, purpose)
    return natural, natural + total_of(modifiers)


def resolve_mission(
    target: Mission | str,
    dice: Dice,
    success_modifiers: Sequence[Modifier] = (),
    detection_modifiers: Sequence[Modifier] = (),
) -> SpyOutcome:
    """Roll success (if any) then detection (if any) and read both tables of RULINGS §7."""
    entry = _as_mission(target)
    bands = table("espionage")["bands"]
    success_roll: SpyRoll | None = None
    outcome = "not-rolled"
    spy: str | None = None
    if entry.success_target is not None:
        natural, total = _roll(dice, success_modifiers, f"{entry.slug} success")
        band = _success_band(total - entry.success_target, bands)
        success_roll = SpyRoll(natural, list(success_modifiers), total, entry.success_target, band)
        outcome = "success" if band in SUCCESS_BANDS[2:] else "failure"
        if band == SUCCESS_BANDS[0]:
            spy = "captured"
        elif band == SUCCESS_BANDS[3]:
            spy = "escaped"
    # Capture/escape already settled, or a "(Special)" / success-N/A roll: evidence only.
    evidence_only = spy is not None or entry.detection_special or entry.success_target is None
    detection_roll: SpyRoll | None = None
    evidence = "not-rolled"
    if entry.detection_target is not None:
        natural, total = _roll(dice, detection_modifiers, f"{entry.slug} detection")
        band = _detection_band(total - entry.detection_target, bands)
        detection_roll = SpyRoll(natural, list(detection_modifiers), total, entry.detection_target, band)
        fate, evidence = _DETECTION_EVIDENCE[band]
        if not evidence_only:
            spy = fate
        elif spy == "captured" and evidence == "undetected":
            evidence = "detected"  # a captured spy is itself evidence of the mission
    return SpyOutcome(
        mission=entry.slug,
        success_roll=success_roll,
        detection_roll=detection_roll,
        outcome=outcome,
        spy=spy,
        evidence=evidence,
        spy_lost=spy == "captured" or entry.spy_used_up,
        spy_cold=spy == "escaped" and not entry.spy_used_up,
        assassination_attempt=entry.assassination_attempt,
        reported_outcome=entry.reported_outcome or outcome,
    )


# ---------------------------------------------------------------- odds


@dataclass(frozen=True)
class MissionOdds:
    """Exact chances, so a GM or player sees "62% success, 17% spy captured" beforehand."""

    outcome: dict[str, Fraction]
    spy: dict[str, Fraction]  # "captured", "escaped", "none" (fate not settled by a roll)
    evidence: dict[str, Fraction]
    success_and_undetected: Fraction
    spy_lost: Fraction

    def to_dict(self, digits: int = 6) -> dict[str, Any]:
        def floats(values: Mapping[str, Fraction]) -> dict[str, float]:
            return {k: round(float(v), digits) for k, v in values.items()}

        return {
            "outcome": floats(self.outcome),
            "spy": floats(self.spy),
            "evidence": floats(self.evidence),
            "success_and_undetected": round(float(self.success_and_undetected), digits),
            "spy_lost": round(float(self.spy_lost), digits),
        }


def _modifier_list(value: int | Sequence[Modifier], reason: str) -> list[Modifier]:
    if isinstance(value, int):
        return [Modifier(value, reason)] if value else []
    return list(value)


def mission_odds(
    target: Mission | str,
    success_mod: int | Sequence[Modifier] = 0,
    detection_mod: int | Sequence[Modifier] = 0,
) -> MissionOdds:
    """Probability of every outcome, spy fate and evidence (all keys, zeros included).

    An exact enumeration costs ~20 ms; the espionage screen asks it for every mission row, so each is
    worked out once per mission and pair of modifier totals (the dice read nothing else) under the
    rules in use (issue 30). Each caller gets its own dicts."""
    entry = _as_mission(target)
    success_mods = _modifier_list(success_mod, "success modifier")
    detection_mods = _modifier_list(detection_mod, "detection modifier")
    global _ODDS_BANDS
    bands = table("espionage")["bands"]
    if bands is not _ODDS_BANDS:  # other rules (house rules loaded): what was worked out no longer holds
        _ODDS_CACHE.clear()
        _ODDS_BANDS = bands
    key = (entry, total_of(success_mods), total_of(detection_mods))
    odds = _ODDS_CACHE.get(key)
    if odds is None:
        odds = _ODDS_CACHE[key] = _enumerate_odds(entry, success_mods, detection_mods)
    return MissionOdds(
        dict(odds.outcome), dict(odds.spy), dict(odds.evidence), odds.success_and_undetected, odds.spy_lost
    )


_ODDS_CACHE: dict[tuple[Mission, int, int], MissionOdds] = {}
_ODDS_BANDS: object = None


def _enumerate_odds(entry: Mission, success_mods: list[Modifier], detection_mods: list[Modifier]) -> MissionOdds:
    raw = exact_odds(
        lambda d: resolve_mission(entry, d, success_mods, detection_mods),
        lambda o: (o.outcome, o.spy, o.evidence, o.spy_lost),
    )
    outcome = {key: Fraction(0) for key in OUTCOMES}
    spy = {key: Fraction(0) for key in (*SPY_FATES, "none")}
    evidence = {key: Fraction(0) for key in EVIDENCE}
    both = Fraction(0)
    lost = Fraction(0)
    for key, p in raw.items():
        result, fate, found, spy_lost = cast(tuple[str, str | None, str, bool], key)
        outcome[result] += p
        spy[fate or "none"] += p
        evidence[found] += p
        if result == "success" and found == "undetected":
            both += p
        if spy_lost:
            lost += p
    return MissionOdds(outcome, spy, evidence, both, lost)
