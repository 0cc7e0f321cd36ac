"""Season history: what changed between two seasons, from the backups an advance takes.

Each side is read through the audience filter for the viewer first, so a player's diff shows only
what he could have seen in each season, and an observer's only what is public. `yak diff` and the
app's history view read the seasons the same way (`season_state`, `kept_seasons`).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any

import orjson

from yak_tui.kernel.errors import YakError
from yak_tui.kernel.play.audience import seen_entries, visible_table
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.views import document_words
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import TABLES, World
from yak_tui.kernel.world.words import field_refs, field_words, value_words

if TYPE_CHECKING:
    from yak_tui.store.storage import WorldFile

# Not compared document by document: the world's own settings, and the append-only logs (counted).
SKIPPED = ("meta", "chronicle", "dice", "reports")


@dataclass
class DocumentChange:
    table: str
    doc_id: str
    name: str
    change: str  # "added", "removed", "changed"
    fields: dict[str, tuple[Any, Any]] = field(default_factory=dict)
    # Each field's values as a reader reads them (names for ids): what `line` shows, never the JSON.
    words: dict[str, tuple[str, str]] = field(default_factory=dict)

    def line(self) -> str:
        where = f"{self.table} · {self.name}"
        if self.change != "changed":
            return f"{where}: {self.change}"
        return f"{where}: " + "; ".join(
            f"{field_words(key)}: {old} → {new}"
            for key, (old, new) in (
                (key, self.words.get(key) or (_shown(was), _shown(now))) for key, (was, now) in self.fields.items()
            )
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "table": self.table,
            "id": self.doc_id,
            "name": self.name,
            "change": self.change,
            "fields": {key: {"before": old, "after": new} for key, (old, new) in self.fields.items()},
        }


@dataclass
class SeasonDiff:
    before: GameDate
    after: GameDate
    changes: list[DocumentChange]
    new_entries: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "from": self.before.label(),
            "to": self.after.label(),
            "new_chronicle_entries": self.new_entries,
            "changes": [c.to_dict() for c in self.changes],
        }

    def lines(self) -> list[str]:
        head = [
            f"{self.before.label()} → {self.after.label()}: {len(self.changes)} documents changed, "
            f"{self.new_entries} new chronicle entries"
        ]
        return head + [f"  {c.line()}" for c in self.changes]


def document_label(world: World, table: str, doc_id: str, doc: dict[str, Any]) -> str:
    """What a reader calls a document (`views.document_words`)."""
    return document_words(world, table, doc_id, doc)


def _shown(value: Any) -> str:
    return value_words(value)


_ENTRY_ID = operator.methodcaller("get", "id")


def _first(item: tuple[str, Any, Any]) -> str:  # a change's id: the order `yak diff` lists them in
    return item[0]


def diff_worlds(before: World, after: World, viewer: Identity) -> SeasonDiff:
    """Every document the viewer may see that was added, removed or changed between two states."""
    changes: list[DocumentChange] = []
    for table in TABLES:
        if table in SKIPPED:
            continue
        old, new = visible_table(before, viewer, table), visible_table(after, viewer, table)
        # Only the documents that differ are sorted and named (at 1000x 74,000 are compared, a few
        # thousand differ); a document both seasons hold as one object (a table the backup shares
        # with the save, `season_state`) is the same in each.
        differ: list[tuple[str, dict[str, Any] | None, dict[str, Any] | None]] = [
            (doc_id, was, now) for doc_id, now in new.items() if (was := old.get(doc_id)) is not now and was != now
        ]
        differ += [(doc_id, gone, None) for doc_id, gone in old.items() if doc_id not in new]
        for doc_id, was, now in sorted(differ, key=_first):
            name = document_label(after if now is not None else before, table, doc_id, now or was or {})
            if was is None:
                changes.append(DocumentChange(table, doc_id, name, "added"))
            elif now is None:
                changes.append(DocumentChange(table, doc_id, name, "removed"))
            elif was != now:
                fields = {
                    key: (was.get(key), now.get(key))
                    for key in sorted(set(was) | set(now))
                    if was.get(key) != now.get(key)
                }
                words = {
                    key: (
                        value_words(old, before, field_refs(table, key)),
                        value_words(new, after, field_refs(table, key)),
                    )
                    for key, (old, new) in fields.items()
                }
                changes.append(DocumentChange(table, doc_id, name, "changed", fields, words))
    # Counted by id, which no redaction changes: no entry is redacted only to be counted (and each id
    # is taken and looked up in C: 200,000 entries at 1000x).
    seen = set(map(str, map(_ENTRY_ID, seen_entries(before, viewer))))
    ids = list(map(str, map(_ENTRY_ID, seen_entries(after, viewer))))
    new_entries = len(ids) - sum(map(seen.__contains__, ids))
    return SeasonDiff(before.date, after.date, changes, new_entries)


# -- the seasons the backups keep ------------------------------------------------------------------


def read_state(path: Path, current: Mapping[str, Any] | None = None) -> dict[str, dict[str, Any]] | None:
    """A save or backup as data (migrated), or None if it cannot be read as one.

    `current`: the save as the caller holds it. A table the backup holds byte for byte as `current`
    would be written, or as its first documents (the chronicle a season only added to), is taken
    from `current` instead of being parsed again (`_kept_tables`): the same data either way."""
    from yak_tui.store.files import SCHEMA_VERSION, decode_save
    from yak_tui.store.migrations import migrate

    try:
        raw = path.read_bytes()
        kept = _kept_tables(path, raw, current) if current is not None else None
        return kept if kept is not None else migrate(decode_save(path, raw), SCHEMA_VERSION, path)
    except (OSError, YakError):
        return None


# -- a backup read beside the save -------------------------------------------------------------------
# At 1000x a season's backup is 54 MB, 39 of them the chronicle, and History parsed all of it (0.6 s)
# to diff it against the save the app already holds: the close changes a few tables and only adds to
# the chronicle. Each table of the save is written as the store writes it (orjson) and looked for in the
# backup's bytes; one found whole, or as its first documents, is spliced out of what is parsed (a
# placeholder stands in its place) and taken from the save. Every step is checked against the bytes:
# anything unexpected (a table moved, a placeholder not where it was put, another schema) reads the
# backup whole, as before.
_WORTH_KEEPING = 1 << 16  # bytes: a smaller table costs less to parse than to look for
_KEPT_KEY = "\u0000yak: kept from the save"
_KEPT = {_KEPT_KEY: True}
_KEPT_TEXT = orjson.dumps(_KEPT)
_JSON_STRING = re.compile(rb'"(?:[^"\\]|\\.)*"')
_CHUNK = 1 << 20


def _same_prefix(raw: bytes, start: int, text: bytes) -> int:
    """How many leading bytes of `text` the bytes of `raw` from `start` repeat."""
    view = memoryview(text)
    end = min(len(text), len(raw) - start)
    low = 0
    while low < end:
        high = min(end, low + _CHUNK)
        if raw.startswith(view[low:high], start + low):
            low = high
            continue
        while high - low > 1:  # the first difference is in [low, high)
            middle = (low + high) // 2
            if raw.startswith(view[low:middle], start + low):
                low = middle
            else:
                high = middle
        return low
    return end


def _kept_span(raw: bytes, name: str, docs: dict[str, Any]) -> tuple[int, int, int | None] | None:
    """Where the backup holds table `name` as `docs` are (start, end, None), or as the first k of them
    (start, end, k); None if it does not (or it is not worth looking)."""
    if not docs:
        return None
    # Looked for by its name and first document before the whole table is written out.
    key = orjson.dumps(name) + b":"
    found = raw.find(key + orjson.dumps(dict(islice(docs.items(), 1)))[:-1])
    if found < 0:
        return None
    text = orjson.dumps(docs)
    if len(text) < _WORTH_KEEPING:
        return None
    start = found + len(key)
    same = _same_prefix(raw, start, text)
    if same == len(text):
        return start, start + same, None
    # The backup's table ends where the save's goes on to more documents: `{A}` against `{A,B}`.
    if text[same : same + 1] != b"," or raw[start + same : start + same + 1] != b"}":
        return None
    following = _JSON_STRING.match(text, same + 1)
    if following is None:
        return None
    try:
        first_new = orjson.loads(following.group())
        k = list(docs).index(first_new)
    except (orjson.JSONDecodeError, ValueError):
        return None
    rest = orjson.dumps(dict(islice(docs.items(), k, None)))
    # text is `{` A `,` B `}` with B the documents from the k-th on: then `{` A `}` is the first k, whole.
    if k == 0 or len(text) != same + len(rest) or not text.endswith(memoryview(rest)[1:]):
        return None
    return start, start + same + 1, k


def _kept_tables(path: Path, raw: bytes, current: Mapping[str, Any]) -> dict[str, dict[str, Any]] | None:
    """The backup at `path` (its bytes `raw`) as data, its tables that `current` holds too taken from
    it; None when none is worth it or anything does not check out (the caller parses it whole)."""
    from yak_tui.store.files import SCHEMA_VERSION, decode_save

    spans: list[tuple[int, int, str, int | None]] = []
    for name, docs in current.items():
        if name != "meta" and isinstance(docs, dict) and (span := _kept_span(raw, name, docs)) is not None:
            spans.append((span[0], span[1], name, span[2]))
    if not spans:
        return None
    spans.sort()
    pieces: list[bytes | memoryview] = []
    view = memoryview(raw)
    at = 0
    for start, end, _, _ in spans:
        if start < at:
            return None  # overlapping finds: not the tables themselves
        pieces += [view[at:start], _KEPT_TEXT]
        at = end
    pieces.append(view[at:])
    try:
        data = decode_save(path, b"".join(pieces))
    except YakError:
        return None
    if data.get("meta", {}).get("world", {}).get("schema_version") != SCHEMA_VERSION:
        return None
    for _, _, name, k in spans:
        if data.get(name) != _KEPT:
            return None
        docs = current[name]
        data[name] = dict(docs) if k is None else dict(islice(docs.items(), k))
    return data


@dataclass(frozen=True)
class KeptSeason:
    """A season as the backup its advance took holds it (`backup` None: the save, the current season)."""

    date: GameDate
    backup: Path | None

    @property
    def label(self) -> str:
        return self.date.label()


def _backup_date(path: Path) -> GameDate | None:
    """The season a backup's name says it closed (`world--312-spring--<stamp>.json`)."""
    year, _, season = path.stem.split("--")[1].partition("-")
    try:
        return GameDate.parse(f"{season.capitalize()} {year}")
    except ValueError:
        return None


def kept_seasons(save: WorldFile, current: GameDate) -> list[KeptSeason]:
    """Every season the backups keep (the newest backup of each: a re-run advance wins), oldest
    first, then the current one (the save itself)."""
    newest: dict[GameDate, Path] = {}
    for path in save.backups():  # oldest first
        date = _backup_date(path)
        if date is not None and date != current:
            newest[date] = path
    return [KeptSeason(date, newest[date]) for date in sorted(newest)] + [KeptSeason(current, None)]


def season_state(
    save: WorldFile, label: str, current: dict[str, dict[str, Any]] | None = None
) -> dict[str, dict[str, Any]]:
    """The world as the season stood when it closed (its newest backup), or the save for the current one.

    `current`: the save as the caller already read it (the app's world, `yak diff`'s other side), so it
    is not read again. A backup is read only if its name says the season asked for (as `kept_seasons`
    lists them), newest first, and its contents decide; only if none holds it are the others read, to
    say which seasons there are (issue 30: History read the save and every backup on each visit)."""
    try:
        wanted = GameDate.parse(label)
    except ValueError as error:
        raise YakError(f"{label!r} is not a season: {error}") from None
    if current is None:
        current = save.read()
    if GameDate.from_dict(current["meta"]["world"]["date"]) == wanted:
        return current
    backups = save.backups()  # oldest first: a later backup of the same season (a re-run) wins
    for path in reversed(backups):
        if _backup_date(path) != wanted:
            continue
        data = read_state(path, current)
        if data is not None and GameDate.from_dict(data["meta"]["world"]["date"]) == wanted:
            return data
    found: dict[str, dict[str, Any]] | None = None
    known: set[GameDate] = {GameDate.from_dict(current["meta"]["world"]["date"])}
    for path in backups:
        data = read_state(path)
        if data is None:
            continue
        date = GameDate.from_dict(data["meta"]["world"]["date"])
        known.add(date)
        if date == wanted:
            found = data
    if found is None:
        held = ", ".join(d.label() for d in sorted(known))
        raise YakError(f"no backup of {wanted.label()}: the save and its backups hold {held}")
    return found


__all__ = ["DocumentChange", "KeptSeason", "SeasonDiff", "diff_worlds", "kept_seasons", "read_state", "season_state"]
