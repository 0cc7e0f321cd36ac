"""An espionage mission as the table describes it, and what its two rolls came to: the data every
other espionage module reads (this module imports no other module of the package).

`Mission` is one row of `tables/espionage.toml` (its text filled from its own numbers), `SpyRoll`
and `SpyOutcome` the result of `rules.resolve_mission`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from yak_tui.kernel.errors import RulesError
from yak_tui.kernel.play.dice import Modifier
from yak_tui.kernel.world.money import money
from yak_tui.kernel.world.tables import RulesTableError, table

FAMILIES = ("general", "counter-espionage", "commercial", "naval", "military", "state-level")


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


def mission_from_row(row: Mapping[str, Any]) -> Mission:
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
