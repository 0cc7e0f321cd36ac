"""The effect documents a successful mission writes: how each reads on the board (`label`) and
what is undone when one runs out (`expire`). `kinds.py` names them in each `MissionKind`."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from yak_tui.areas.espionage.missions import Mission
from yak_tui.areas.espionage.registry import LabelFn, branch_label
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import money

# ================================================================ how an effect reads on the board


def infiltration_label(effect: Mapping[str, Any], entry: Mission | None) -> str:
    data = effect.get("data") or {}
    branch = str(data.get("branch") or (entry.params.get("branch") if entry else "") or "")
    return branch_label(branch) or (entry.name if entry else str(effect.get("kind", "")))


def with_data(plain: str, shown: Callable[[Mapping[str, Any], Mapping[str, Any]], str | None]) -> LabelFn:
    """`shown(effect, data)` when the effect carries its data, else the plain label."""

    def label(effect: Mapping[str, Any], _entry: Mission | None) -> str:
        return shown(effect, effect.get("data") or {}) or plain

    return label


def crash_label(effect: Mapping[str, Any], data: Mapping[str, Any]) -> str | None:
    if not effect.get("commodity"):
        return None
    step = data.get("increments")
    return f"{effect['commodity']} market" + (f" {int(step):+d}" if isinstance(step, int) else "")


def morale_label(_effect: Mapping[str, Any], data: Mapping[str, Any]) -> str | None:
    if not data.get("engagement"):
        return None
    return f"{str(data['engagement']).capitalize()} morale {int(data.get('morale', 0)):+d}"


def academies_label(_effect: Mapping[str, Any], data: Mapping[str, Any]) -> str | None:
    if not data.get("specialist"):
        return None
    return f"{str(data['specialist']).capitalize()} academies -{data.get('reduction', '?')}"


# ================================================================ what runs out


def restore_price(world: World, effect: Mapping[str, Any]) -> None:
    """A crashed market's price modifier goes when the crash runs out."""
    province = effect.get("province")
    if not province:
        return
    prov = world.edit("provinces", province)
    mods = prov.get("price_modifiers") or {}
    mods.pop(effect.get("commodity"), None)
    prov["price_modifiers"] = mods


def restore_allowance(world: World, effect: Mapping[str, Any]) -> None:
    """The market allowance Limit Trade took comes back."""
    province = effect.get("province")
    if not province:
        return
    prov = world.edit("provinces", province)
    prov["market_allowance"] = money(
        float(prov.get("market_allowance", 0)) - float(effect["data"].get("market_allowance", 0))
    )
