"""How the economy's orders read in a season post and a report (`kernel.season.post`): one sentence an
order and its outcome, in the Trade section."""

from __future__ import annotations

from typing import Any

from yak_tui.kernel.season.post import filer_name, order_words, post_section, shown_param
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.numbers import counted

post_section("Trade", "economy", rank=20)


def _count(order: dict[str, Any], key: str) -> int:
    try:
        return int((order.get("params") or {}).get(key, 1) or 1)
    except (TypeError, ValueError):
        return 1


def _expanded(world: World, order: dict[str, Any], own: list[dict[str, Any]]) -> str:
    """What an expansion came to: every Size asked, some of them, or none (lost to competition)."""
    business = shown_param(world, order, "business")
    asked = _count(order, "sizes")
    grew = next((entry["refs"] for entry in own if "gained" in (entry.get("refs") or {})), None)
    who = filer_name(world, order)
    if grew is None:
        return f"{who} expanded {business}"
    gained, size = int(grew["gained"]), grew.get("size", "?")
    if gained == 0:
        return f"{who} failed to expand {business}: it lost the competition and stays at Size {size}"
    part = counted(asked, "Size", "Sizes") if gained == asked else f"{gained} of {counted(asked, 'Size', 'Sizes')}"
    return f"{who} expanded {business} by {part} to Size {size}"


order_words(
    "business-expand",
    did=_expanded,
    plan=lambda world, order: (
        f"expand {shown_param(world, order, 'business')} by {counted(_count(order, 'sizes'), 'Size', 'Sizes')}"
    ),
    tells=("business",),
)
order_words(
    "business-open",
    did=lambda world, order, own: (
        f"{shown_param(world, order, 'owner')} opened {shown_param(world, order, 'name')}, a "
        f"{shown_param(world, order, 'sector')} business in {shown_param(world, order, 'pc')}"
    ),
    plan=lambda world, order: f"open {shown_param(world, order, 'name')} in {shown_param(world, order, 'pc')}",
    tells=("business",),
)


def _hired(world: World, order: dict[str, Any]) -> str:
    kind = shown_param(world, order, "type", "specialist")
    return counted(_count(order, "count"), kind)


order_words(
    "hire",
    did=lambda world, order, own: f"{filer_name(world, order)} hired {_hired(world, order)}",
    plan=lambda world, order: f"hire {_hired(world, order)}",
    tells=("specialists",),
)

__all__: list[str] = []
