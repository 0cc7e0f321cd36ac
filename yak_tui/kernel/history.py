"""Season history: what changed between two seasons, from the backups an advance takes.

Each side is read through the audience filter for the viewer first, so a player's diff shows only
what he could have seen in each season, and an observer's only what is public.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from yak_tui.kernel.audience import visible_entries, visible_table
from yak_tui.kernel.calendar import GameDate
from yak_tui.kernel.identity import Identity
from yak_tui.kernel.model import TABLES, World

# Not compared document by document: the world's own settings, and the append-only logs (counted).
SKIPPED = ("meta", "chronicle", "dice", "reports")


@dataclass
class DocumentChange:
    table: str
    doc_id: str
    name: str
    change: str  # "added", "removed", "changed"
    fields: dict[str, tuple[Any, Any]] = field(default_factory=dict)

    def line(self) -> str:
        where = f"{self.table} · {self.name}"
        if self.change != "changed":
            return f"{where}: {self.change}"
        return f"{where}: " + "; ".join(f"{key} {_shown(old)} → {_shown(new)}" for key, (old, new) in self.fields.items())

    def to_dict(self) -> dict[str, Any]:
        return {"table": self.table, "id": self.doc_id, "name": self.name, "change": self.change,
                "fields": {key: {"before": old, "after": new} for key, (old, new) in self.fields.items()}}


@dataclass
class SeasonDiff:
    before: GameDate
    after: GameDate
    changes: list[DocumentChange]
    new_entries: int

    def to_dict(self) -> dict[str, Any]:
        return {"from": self.before.label(), "to": self.after.label(), "new_chronicle_entries": self.new_entries,
                "changes": [c.to_dict() for c in self.changes]}

    def lines(self) -> list[str]:
        head = [f"{self.before.label()} → {self.after.label()}: {len(self.changes)} documents changed, "
                f"{self.new_entries} new chronicle entries"]
        return head + [f"  {c.line()}" for c in self.changes]


def _shown(value: Any) -> str:
    if value is None:
        return "—"
    if isinstance(value, str):
        return value
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


def diff_worlds(before: World, after: World, viewer: Identity) -> SeasonDiff:
    """Every document the viewer may see that was added, removed or changed between two states."""
    changes: list[DocumentChange] = []
    for table in TABLES:
        if table in SKIPPED:
            continue
        old, new = visible_table(before, viewer, table), visible_table(after, viewer, table)
        for doc_id in sorted(set(old) | set(new)):
            was, now = old.get(doc_id), new.get(doc_id)
            name = str((now or was or {}).get("name") or doc_id)
            if was is None:
                changes.append(DocumentChange(table, doc_id, name, "added"))
            elif now is None:
                changes.append(DocumentChange(table, doc_id, name, "removed"))
            elif was != now:
                fields = {key: (was.get(key), now.get(key)) for key in sorted(set(was) | set(now))
                          if was.get(key) != now.get(key)}
                changes.append(DocumentChange(table, doc_id, name, "changed", fields))
    seen = {str(e.get("id")) for e in visible_entries(before, viewer)}
    new_entries = sum(1 for e in visible_entries(after, viewer) if str(e.get("id")) not in seen)
    return SeasonDiff(before.date, after.date, changes, new_entries)


__all__ = ["DocumentChange", "SeasonDiff", "diff_worlds"]
