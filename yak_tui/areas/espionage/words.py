"""How espionage orders read in a report (`kernel.season.post`): a mission and its outcome as one line,
in the Intrigue section (a mission's lines are private to those who may know of it)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yak_tui.areas.espionage.effects import INFILTRATION
from yak_tui.kernel.play.outcomes import odds_phrase
from yak_tui.kernel.season.post import filer_name, order_words, post_section, shown_param
from yak_tui.kernel.world.model import World

post_section("Intrigue", "espionage", rank=30)


def _mission(world: World, order: dict[str, Any]) -> str:
    target = shown_param(world, order, "target")
    return shown_param(world, order, "mission", "a mission") + (f" against {target}" if target else "")


def _outcome(order: dict[str, Any]) -> str:
    """The mission's outcome without its heading ("Espionage: <mission> against <target>: ")."""
    text = str(order.get("outcome") or "done")
    if text.startswith("Espionage: "):
        text = text.split(": ", 2)[-1]
    return text


order_words(
    "spy-mission",
    did=lambda world, order, own: f"{filer_name(world, order)}'s mission {_mission(world, order)}: {_outcome(order)}",
    plan=lambda world, order: f"send a spy on {_mission(world, order)}",
    tells=("espionage",),
)

# An infiltration's branch (the table's `branch`) as its result reads: the part of the target's
# administration the spy now sits in, and whether he only listens there or commands it.
BRANCH_WORDS: dict[str, tuple[str, bool]] = {
    "spy-ring": ("spy ring", False),
    "treasury": ("treasury", False),
    "admiralty": ("admiralty", False),
    "admiralty-control": ("admiralty", True),
    "general-staff": ("general staff", False),
    "general-staff-control": ("general staff", True),
    "government": ("government", False),
}


def infiltration_words(branch: str, target: str) -> str:
    """A successful infiltration, in words: "your man is in place in Sarn's treasury until purged"."""
    where, commands = BRANCH_WORDS.get(branch, (branch.replace("-", " "), False))
    if commands:
        return f"your man commands {target}'s {where} until purged"
    return f"your man is in place in {target}'s {where} until purged"


def _mission_odds_phrase(params: Mapping[str, Any], key: str, p: float) -> tuple[str, bool] | None:
    """A mission whose spy is used up on the attempt has no chance of losing him: it is certain,
    and an infiltration's spy, on a success, stays in place as the infiltrator (RULINGS §7)."""
    from yak_tui.areas.espionage.rules import catalogue

    entry = catalogue().get(str(params.get("mission", "")))
    if key != "spy_lost" or entry is None or not entry.spy_used_up:
        return None
    if entry.effect == INFILTRATION:
        return "the spy stays in place as your infiltrator, or is lost if it fails", False
    return "the spy is used up whatever happens", False


odds_phrase("spy-order", _mission_odds_phrase)
odds_phrase("spy-mission", _mission_odds_phrase)

__all__ = ["BRANCH_WORDS", "infiltration_words"]
