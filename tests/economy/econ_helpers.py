"""Shared helpers for the economy world-layer tests: state reads over the shared `table` fixture
(tests/yak_plugin.py), which runs the commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from yak_plugin import Table

from yak_tui.kernel.play.commands import CommandResult
from yak_tui.store.storage import WorldFile


def state(save: WorldFile) -> dict[str, dict[str, Any]]:
    return save.read()


def edit(save: WorldFile, change: Callable[[dict[str, dict[str, Any]]], None]) -> None:
    """Change the saved world directly (test set-up only)."""
    Table(save).edit(change)


def set_date(save: WorldFile, label: str) -> None:
    Table(save).set_date(label)


def treasury(save: WorldFile, table: str, doc_id: str) -> float:
    return float(state(save)[table][doc_id]["treasury"])


def step(result: CommandResult, name: str) -> dict[str, Any]:
    """The report of one year-start step from an `advance` result."""
    for report in result.data["steps"]:
        if report["step"] == name:
            return dict(report)
    raise AssertionError(f"no step {name} in {[r['step'] for r in result.data['steps']]}")


def money_sum(entries: list[dict[str, Any]]) -> dict[str, float]:
    """Sum of chronicle `amounts` per party."""
    out: dict[str, float] = {}
    for entry in entries:
        for party, amount in entry.get("amounts", {}).items():
            out[party] = round(out.get(party, 0) + amount, 4)
    return out
