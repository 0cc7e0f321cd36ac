"""`MissionKind`: everything the code does for one mission effect, and the registry of kinds.

A mission of `tables/espionage.toml` names its effect (`effect = "crash-market"`); the kind
registered under that name (in `kinds.py`) says

- `apply`: what a success does to the world (and what each party is told);
- `label`: how an effect document it wrote reads on the board (`document` names that kind of
  effect document, `until` what ends an effect without an end date);
- `expire`: what is undone when that effect runs out (its end date comes at a season start).

The order fields a mission asks for are not here: `fields.MISSION_FIELDS` names, for each field,
the effects whose missions need it. `rules.catalogue()` refuses a mission whose effect has no kind,
so a house rule cannot add a mission no code handles.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from yak_tui.areas.espionage.missions import Mission, SpyOutcome
from yak_tui.areas.espionage.state import Applied, Plan
from yak_tui.kernel.play.commands import CommandContext
from yak_tui.kernel.world.model import World

ApplyFn = Callable[[CommandContext, Plan, SpyOutcome], Applied]
LabelFn = Callable[[Mapping[str, Any], Mission | None], str]
ExpireFn = Callable[[World, Mapping[str, Any]], None]
CheckFn = Callable[[World, Plan], None]

# The infiltration each prerequisite names, as the board's short "Needs" cell says it.
BRANCH_LABELS = {
    "spy-ring": "Spy Ring",
    "treasury": "Treasury",
    "admiralty": "Admiralty",
    "general-staff": "Gen. Staff",
    "government": "Government",
    "admiralty-control": "Admiralty ctl",
    "general-staff-control": "Gen. Staff ctl",
}


def plain_label(text: str) -> LabelFn:
    """A label that does not depend on the effect's data."""
    return lambda _effect, _entry: text


def branch_label(branch: str) -> str:
    return BRANCH_LABELS.get(branch, branch.replace("-", " ").title())


@dataclass(frozen=True)
class MissionKind:
    """What the code does for one `effect` of the mission table (see the module docstring)."""

    effect: str
    apply: ApplyFn | None  # None: the mission is not rolled (`refusal` says what to do instead)
    document: str = ""  # the kind of effect document `apply` writes ("" when it writes none)
    label: LabelFn | None = None  # default: the document kind, capitalised
    until: str = "—"  # the board's "ends" cell for an active effect without an end date
    expire: ExpireFn | None = None  # undoes the world change when the effect runs out
    expires_at_its_step: bool = False  # ends in its own year-start step, not with the others
    unit: str = ""  # "ship" or "regiment": what a `unit` field must be
    port: bool = False  # a `province` field must have a port
    own_side: bool = False  # acts on the sponsor's own administration (purge)
    applies_on_failure: bool = False  # `apply` runs whatever the outcome (it reports failures itself)
    check: CheckFn | None = None  # refuses an order the world makes pointless
    refusal: str = ""  # why a mission of this effect is not rolled

    def label_for(self, effect: Mapping[str, Any], entry: Mission | None) -> str:
        if self.label is not None:
            return self.label(effect, entry)
        return str(effect.get("kind", self.document)).replace("-", " ").capitalize()


# Every effect's kind, by effect: filled by `kinds.py`, which the package imports.
KINDS: dict[str, MissionKind] = {}


def kind_of(entry: Mission) -> MissionKind:
    """The kind that handles `entry` (the catalogue has checked one exists)."""
    return KINDS[entry.effect]


def kind_of_document(document: str) -> MissionKind | None:
    """The kind that writes effect documents of `document` kind, if any."""
    return next((kind for kind in KINDS.values() if kind.document == document), None)
