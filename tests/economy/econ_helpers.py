"""Shared helpers for the economy world-layer tests: one-line commands and state reads."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from yak_tui.kernel.calendar import GameDate
from yak_tui.kernel.commands import CommandResult, run_command
from yak_tui.kernel.dice import ScriptedDice
from yak_tui.kernel.identity import Identity
from yak_tui.store.storage import WorldFile


def run(save: WorldFile, who: str, name: str, params: dict[str, Any] | None = None,
        dice: Sequence[int] = ()) -> CommandResult:
    """Run a command; with no dice given, any die rolled fails the test (ScriptedDice([]))."""
    return run_command(save, Identity.parse(who), name, params or {}, ScriptedDice(list(dice)))


def state(save: WorldFile) -> dict[str, dict[str, Any]]:
    return save.read()


def edit(save: WorldFile, change: Callable[[dict[str, dict[str, Any]]], None]) -> None:
    """Change the saved world directly (test set-up only)."""
    with save.transaction() as data:
        change(data)


def set_date(save: WorldFile, label: str) -> None:
    def change(data: dict[str, dict[str, Any]]) -> None:
        data["meta"]["world"]["date"] = GameDate.parse(label).to_dict()
        data["meta"]["world"]["undo"] = []

    edit(save, change)


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
