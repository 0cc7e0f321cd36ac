"""Helpers for the warfare world tests: the demo world on disk and a way to drive it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import pytest

from yak_tui.kernel.audience import visible_entries
from yak_tui.kernel.commands import CommandError, CommandResult, run_command
from yak_tui.kernel.dice import ScriptedDice
from yak_tui.kernel.identity import Identity
from yak_tui.kernel.model import World
from yak_tui.kernel.session import advance_season
from yak_tui.store.storage import WorldFile


class Table:
    """The demo world on disk, driven the way the CLI and the app drive it."""

    def __init__(self, save: WorldFile) -> None:
        self.save = save

    @property
    def world(self) -> World:
        return World(self.save.read())

    def get(self, table: str, doc_id: str) -> dict[str, Any]:
        return self.world.get(table, doc_id)

    def treasury(self, table: str, doc_id: str) -> float:
        return float(self.get(table, doc_id)["treasury"])

    def edit(self, fn: Callable[[World], None]) -> None:
        with self.save.transaction() as data:
            fn(World(data))

    def set(self, table: str, doc_id: str, **fields: Any) -> None:
        def change(world: World) -> None:
            world.data[table][doc_id].update(fields)

        self.edit(change)

    def do(self, name: str, params: dict[str, Any] | None = None, dice: Sequence[int] = (),
           who: str = "gm") -> CommandResult:
        return run_command(self.save, Identity.parse(who), name, params or {}, ScriptedDice(list(dice)))

    def refused(self, name: str, params: dict[str, Any], field: str, text: str, dice: Sequence[int] = (),
                who: str = "gm") -> CommandError:
        before = self.save.path.read_bytes()
        with pytest.raises(CommandError) as caught:
            self.do(name, params, dice, who)
        assert caught.value.field == field, caught.value
        assert text in caught.value.reason, caught.value.reason
        assert self.save.path.read_bytes() == before, "a refused command changed the save"
        return caught.value

    def advance(self) -> CommandResult:
        """Close the season as the app and the CLI do (a backup, then the `advance` command)."""
        return advance_season(self.save, Identity("gm"))

    def entries(self, who: str = "gm") -> list[dict[str, Any]]:
        return visible_entries(self.world, Identity.parse(who))

    def texts(self, who: str = "gm") -> list[str]:
        return [e["text"] for e in self.entries(who)]
