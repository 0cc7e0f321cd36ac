"""How warfare's orders read in a season post and a report (`kernel.season.post`): one sentence an order
and its outcome, in the War section."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yak_tui.kernel.play.outcomes import odds_phrase
from yak_tui.kernel.season.post import filer_name, order_words, post_section, shown_param
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import ducats
from yak_tui.kernel.world.numbers import counted

post_section("War", "warfare", "siege", "battle", rank=10)


def _count(order: dict[str, Any], key: str, default: int = 1) -> int:
    try:
        return int((order.get("params") or {}).get(key, default) or default)
    except (TypeError, ValueError):
        return default


def _recruit(world: World, order: dict[str, Any]) -> str:
    kind = shown_param(world, order, "kind", "troops")
    return f"{counted(_count(order, 'regiments'), 'regiment')} of {kind} at {shown_param(world, order, 'pc')}"


order_words(
    "recruit",
    did=lambda world, order, own: f"{filer_name(world, order)} raised {_recruit(world, order)}",
    plan=lambda world, order: f"raise {_recruit(world, order)}",
    tells=("recruit",),
)


def _guard(world: World, order: dict[str, Any]) -> str:
    return f"{counted(_count(order, 'regiments'), 'regiment')} of personal guard"


order_words(
    "raise-guard",
    did=lambda world, order, own: f"{shown_param(world, order, 'character')} raised {_guard(world, order)}",
    plan=lambda world, order: f"raise {_guard(world, order)}",
    tells=("recruit",),
)


def _marches(order: dict[str, Any]) -> bool:
    """A raid order that marches its unit there first (`march=true`)."""
    return str((order.get("params") or {}).get("march", "")).strip().lower() in ("1", "true", "yes", "y", "on")


def _ships(world: World, order: dict[str, Any]) -> str:
    return f"{counted(_count(order, 'ships'), 'ship')} at {shown_param(world, order, 'port')}"


order_words(
    "ship-build",
    did=lambda world, order, own: f"{filer_name(world, order)} built {_ships(world, order)}",
    plan=lambda world, order: f"build {_ships(world, order)}",
    tells=("ships",),
)
order_words(
    "raid",
    did=lambda world, order, own: (
        f"{shown_param(world, order, 'unit')} raided {shown_param(world, order, 'pc')}: {order.get('outcome') or 'done'}"
    ),
    plan=lambda world, order: (
        f"march {shown_param(world, order, 'unit')} to {shown_param(world, order, 'pc')} and raid it"
        if _marches(order)
        else f"raid {shown_param(world, order, 'pc')} with {shown_param(world, order, 'unit')}"
    ),
)


def _raid_odds_phrase(params: Mapping[str, Any], key: str, p: float) -> tuple[str, bool]:
    """A raid's odds row: what it takes, "takes 4 ducats" (the keys are the amounts)."""
    return f"takes {ducats(float(key))}", True


def _slave_odds_phrase(params: Mapping[str, Any], key: str, p: float) -> tuple[str, bool]:
    """A slave raid's odds row: "takes 2 as Slaves"."""
    as_what = "Slaves" if params.get("take") == "slaves" else "manpower"
    return f"takes {key} as {as_what}", True


odds_phrase("raid", _raid_odds_phrase)
odds_phrase("slave-raid", _slave_odds_phrase)

__all__: list[str] = []
