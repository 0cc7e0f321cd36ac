"""How espionage orders read in a report (`kernel.season.post`): a mission and its outcome as one line,
in the Intrigue section (a mission's lines are private to those who may know of it)."""

from __future__ import annotations

from typing import Any

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

__all__: list[str] = []
