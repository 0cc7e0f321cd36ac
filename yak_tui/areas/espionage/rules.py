"""NPC espionage missions (RULINGS §7): the catalogue, the spy's modifiers and the two blind rolls.

Every number (costs, targets, modifiers, band offsets) lives in `tables/espionage.toml`; this
module only knows the shape of the two tables. Both rolls are 1d6 + modifiers judged on the total:
the RtD natural-1/6 rule does not apply here.
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, cast

from yak_tui.kernel.errors import RulesError
from yak_tui.kernel.play.dice import Dice, Modifier, exact_odds, total_of
from yak_tui.kernel.world.money import money
from yak_tui.kernel.world.tables import RulesTableError, table

FAMILIES = ("general", "counter-espionage", "commercial", "naval", "military", "state-level")
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


class UnknownMission(RulesError):
    """A slug names no mission of the catalogue; the message lists the close matches."""

    def __init__(self, slug: str, close: Sequence[str]) -> None:
        self.slug = slug
        self.close = list(close)
        hint = f"; did you mean {', '.join(self.close)}?" if self.close else ""
        super().__init__(f"unknown spy mission {slug!r}{hint}")


class EspionageInputError(RulesError):
    """An order asks for something the mission does not offer (an unknown or excess extra)."""


@dataclass(frozen=True)
class Extra:
    """Something more the sponsor may buy with ducats (bandits, ships, rebels, poison)."""

    kind: str
    ducats_each: int
    max: int | None = None

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind, "ducats_each": self.ducats_each}
        if self.max is not None:
            data["max"] = self.max
        return data


@dataclass(frozen=True)
class Mission:
    """One catalogue entry; None targets mean the seed's N/A (that die is not rolled)."""

    slug: str
    name: str
    family: str
    cost: int
    success_target: int | None
    detection_target: int | None
    detection_special: bool
    prerequisite: str | None
    spy_used_up: bool
    is_infiltration: bool
    assassination_attempt: bool
    reported_outcome: str | None
    extras: tuple[Extra, ...]
    text: str
    duration_seasons: int | None
    effect: str
    params: Mapping[str, Any] = field(default_factory=dict, compare=False)

    @property
    def rolls_success(self) -> bool:
        return self.success_target is not None

    @property
    def rolls_detection(self) -> bool:
        return self.detection_target is not None

    def listing(self) -> dict[str, Any]:
        """The `yak resolve spy --list` entry, keys in the order the CLI promises."""
        return {
            "slug": self.slug,
            "name": self.name,
            "family": self.family,
            "cost": self.cost,
            "success_target": self.success_target,
            "detection_target": self.detection_target,
            "detection_special": self.detection_special,
            "prerequisite": self.prerequisite,
            "spy_used_up": self.spy_used_up,
            "extras": [extra.to_dict() for extra in self.extras],
            "effect": self.effect,
            "duration_seasons": self.duration_seasons,
        }


def _optional_int(row: Mapping[str, Any], key: str) -> int | None:
    value = row.get(key)
    return None if value is None else int(value)


def _number(value: Any) -> Any:
    """A number as mission text quotes it (0.5, and 1 rather than 1.0); anything else unchanged."""
    return money(value) if isinstance(value, int | float) and not isinstance(value, bool) else value


def _mission_text(row: Mapping[str, Any]) -> str:
    """The mission's `text` with its placeholders filled from its own values, so a house rule that
    changes a number changes the description too: `{cost}`, `{years}` (of `duration_seasons`),
    a param by name (`{assassins}`), an extra's price (`{extras[poison]}`) and the table's
    modifiers (`{modifiers[security_breach]}`). Literal braces are written `{{` and `}}`."""
    text = str(row.get("text", ""))
    values: dict[str, Any] = {key: _number(value) for key, value in row.get("params", {}).items()}
    values["cost"] = _number(row.get("cost"))
    seasons = row.get("duration_seasons")
    if seasons is not None:
        values["years"] = _number(int(seasons) / len(table("core")["calendar"]["seasons"]))
    values["extras"] = {str(e.get("kind")): _number(e.get("ducats_each")) for e in row.get("extras", [])}
    values["modifiers"] = {key: _number(value) for key, value in table("espionage")["modifiers"].items()}
    try:
        return text.format(**values)
    except (KeyError, IndexError) as missing:
        raise RulesTableError(
            f"espionage mission {row.get('slug', '?')!r}: its text names {missing}, "
            f"which the mission does not have (placeholders: {', '.join(sorted(values))})"
        ) from None
    except (ValueError, AttributeError) as error:
        raise RulesTableError(
            f"espionage mission {row.get('slug', '?')!r}: its text has a bad placeholder "
            f"({error}; write a literal brace as {{{{ or }}}})"
        ) from None


def _mission_from_row(row: Mapping[str, Any]) -> Mission:
    try:
        slug = str(row["slug"])
        extras = tuple(
            Extra(str(e["kind"]), int(e["ducats_each"]), _optional_int(e, "max")) for e in row.get("extras", [])
        )
        built = Mission(
            slug=slug,
            name=str(row["name"]),
            family=str(row["family"]),
            cost=int(row["cost"]),
            success_target=_optional_int(row, "success_target"),
            detection_target=_optional_int(row, "detection_target"),
            detection_special=bool(row.get("detection_special", False)),
            prerequisite=row.get("prerequisite"),
            spy_used_up=bool(row.get("spy_used_up", False)),
            is_infiltration=bool(row.get("is_infiltration", False)),
            assassination_attempt=bool(row.get("assassination_attempt", False)),
            reported_outcome=row.get("reported_outcome"),
            extras=extras,
            text=_mission_text(row),
            duration_seasons=_optional_int(row, "duration_seasons"),
            effect=str(row["effect"]),
            params=dict(row.get("params", {})),
        )
    except KeyError as missing:
        raise RulesTableError(f"espionage mission {row.get('slug', '?')!r} lacks the field {missing}") from None
    if built.family not in FAMILIES:
        raise RulesTableError(f"espionage mission {slug!r}: unknown family {built.family!r}")
    return built


def catalogue() -> dict[str, Mission]:
    """Every mission by slug, in seed order (built from the table, so house rules apply); a
    mission whose effect no `MissionKind` handles is refused."""
    rows = table("espionage")["missions"]
    from yak_tui.areas.espionage.kinds import KINDS  # the kinds need this module's Mission

    # Built once per loaded rules table (the loader hands out the same list until the rules change).
    cached = _CATALOGUE.get("built")
    if cached is not None and cached[0] is rows and cached[1] == tuple(KINDS):
        return dict(cached[2])
    missions: dict[str, Mission] = {}
    for row in rows:
        entry = _mission_from_row(row)
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


@dataclass(frozen=True)
class SpyRoll:
    """One of the two blind rolls: natural, modifiers with reasons, total, band."""

    natural: int
    modifiers: list[Modifier]
    total: int
    target: int
    band: str

    def to_dict(self) -> dict[str, int]:
        return {"natural": self.natural, "total": self.total}


@dataclass(frozen=True)
class SpyOutcome:
    """The adjudicator's full view; `reported_outcome` is all the sponsor is told."""

    mission: str
    success_roll: SpyRoll | None
    detection_roll: SpyRoll | None
    outcome: str  # "success" | "failure" | "not-rolled"
    spy: str | None  # "captured" | "escaped" | None (not settled by any roll)
    evidence: str  # "identified" | "detected" | "undetected" | "not-rolled"
    spy_lost: bool
    spy_cold: bool
    assassination_attempt: bool
    reported_outcome: str

    @property
    def success(self) -> bool:
        return self.outcome == "success"


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
    """Probability of every outcome, spy fate and evidence (all keys, zeros included)."""
    entry = _as_mission(target)
    success_mods = _modifier_list(success_mod, "success modifier")
    detection_mods = _modifier_list(detection_mod, "detection modifier")
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
