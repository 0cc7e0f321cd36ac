"""How the economy's orders read in a season post and a report (`kernel.season.post`): one sentence an
order and its outcome, in the Trade section."""

from __future__ import annotations

from typing import Any

from yak_tui.kernel.season.post import filer_name, order_words, post_section, shown_param
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.numbers import counted

post_section("Trade", "economy")


def _count(order: dict[str, Any], key: str) -> int:
    try:
        return int((order.get("params") or {}).get(key, 1) or 1)
    except (TypeError, ValueError):
        return 1


def _size_now(world: World, order: dict[str, Any]) -> str:
    business = world.find("businesses", str((order.get("params") or {}).get("business", "")))
    return f" (now Size {business['size']})" if business and "size" in business else ""


order_words(
    "business-expand",
    did=lambda world, order: (
        f"{filer_name(world, order)} expanded {shown_param(world, order, 'business')} by "
        f"{counted(_count(order, 'sizes'), 'Size', 'Sizes')}{_size_now(world, order)}"
    ),
    plan=lambda world, order: (
        f"expand {shown_param(world, order, 'business')} by {counted(_count(order, 'sizes'), 'Size', 'Sizes')}"
    ),
    tells=("business",),
)
order_words(
    "business-open",
    did=lambda world, order: (
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
    did=lambda world, order: f"{filer_name(world, order)} hired {_hired(world, order)}",
    plan=lambda world, order: f"hire {_hired(world, order)}",
    tells=("specialists",),
)

__all__: list[str] = []
