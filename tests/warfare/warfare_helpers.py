"""Helpers for the warfare world tests: the shared `table` fixture (tests/yak_plugin.py) with the
warfare tests' shorthands (treasuries, field updates, the chronicle as a viewer reads it)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import yak_plugin

from yak_tui.kernel.play.audience import visible_entries
from yak_tui.kernel.play.commands import CommandResult
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.session import advance_season
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile


class Table:
    """The shared fixture's demo world on disk, driven the way the CLI and the app drive it."""

    def __init__(self, table: yak_plugin.Table) -> None:
        self.table = table
        self.save: WorldFile = table.save

    @property
    def world(self) -> World:
        return self.table.world

    def get(self, table: str, doc_id: str) -> dict[str, Any]:
        return self.world.get(table, doc_id)

    def treasury(self, table: str, doc_id: str) -> float:
        return float(self.get(table, doc_id)["treasury"])

    def edit(self, fn: Callable[[World], None]) -> None:
        self.table.edit(lambda data: fn(World(data)))

    def set(self, table: str, doc_id: str, **fields: Any) -> None:
        def change(world: World) -> None:
            world.data[table][doc_id].update(fields)

        self.edit(change)

    def advance(self) -> CommandResult:
        """Close the season as the app and the CLI do (a backup, then the `advance` command)."""
        return advance_season(self.save, Identity("gm"))

    def entries(self, who: str = "gm") -> list[dict[str, Any]]:
        return visible_entries(self.world, Identity.parse(who))

    def texts(self, who: str = "gm") -> list[str]:
        return [e["text"] for e in self.entries(who)]
