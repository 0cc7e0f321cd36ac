"""The game state as one aggregate over the TinyDB-format document tables.

The save holds `{table: {doc_id: document}}`, exactly the layout TinyDB reads, with
string ids (`elbreth`, `c-0042`). Every change goes through `World`, which keeps the
original of each touched document so the transaction can offer undo.
"""

from __future__ import annotations

import copy
import itertools
import threading
from collections.abc import Callable, Collection, Hashable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

import orjson

from yak_tui.kernel.errors import ValidationError
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.documents import DICE_STATE_KEYS, META, META_ID
from yak_tui.kernel.world.fields import PC_KINDS, SECTORS, SIZES, STATUSES, TABLE_NAMES
from yak_tui.kernel.world.references import check_written_references
from yak_tui.kernel.world.validation import validate_changed, validate_document, validate_world, validate_written
from yak_tui.store.files import LOG_TABLES

if TYPE_CHECKING:
    from yak_tui.store.files import DeferredLogs, Stamp
    from yak_tui.store.storage import WorldFile

__all__ = [
    "META",
    "META_ID",
    "PC_KINDS",
    "SECTORS",
    "SIZES",
    "STATUSES",
    "TABLES",
    "ValidationError",
    "World",
    "follow_save",
    "validate_document",
]


# Every table of a world file.
TABLES = TABLE_NAMES
_SERIALS = itertools.count(1)  # `World.serial`: one per World made in this process


# (table, doc_id, doc) -> may the reader of an error message know of this document?
Visible = Callable[[str, str, dict[str, Any]], bool]


class World:
    """The aggregate. Mutations record originals so a command can be undone exactly."""

    def __init__(self, data: dict[str, dict[str, Any]], logs: DeferredLogs | None = None) -> None:
        # The tables. `logs`: the log tables not parsed yet (`WorldFile.read_deferring_logs`); each
        # is parsed the first time anything asks for it, and all of them when `data` is asked whole.
        self._data: dict[str, dict[str, dict[str, Any]]] = data
        # The log tables this world has not taken from `logs` yet (a table `logs` parsed for another
        # world that shares it is taken at once when asked for).
        self._unparsed: set[str] = set() if logs is None else {name for name in logs.order if name not in data}
        self._logs = logs if self._unparsed else None
        self._log_source = self._logs  # kept once all are taken: `written_only` compares by it
        self._logs_lock = threading.Lock()
        for name in TABLES:
            if name not in self._unparsed:
                data.setdefault(name, {})
        self.originals: dict[tuple[str, str], dict[str, Any] | None] = {}
        # Whether `originals` keeps a copy of each document as it was (the undo record needs them):
        # a command that keeps no undo record (a season's close, which edits thousands) only notes
        # that the document existed (`UNKEPT`), which is all the journal and the checks ask.
        self.keep_originals = True
        # True while a command runs: a command applied inside another (an order being resolved)
        # shares its undo record instead of pushing its own.
        self.in_command = False
        # While a command runs for someone other than the GM: which documents he may see, so that
        # "no such id" refusals suggest nothing he may not know of.
        self.visible: Visible | None = None
        # Lookup indexes for `where`, one per table, built on first use (see _TableIndex).
        self._indexes: dict[str, _TableIndex] = {}
        # A trial (see `trial`): tables and documents are shared with the world it was made from
        # until written; these name the tables and documents that are already its own.
        self._trial = False
        self._own_tables: set[str] = set()
        self._own_docs: set[tuple[str, str]] = set()
        # Which world this is (`follows`), and, when made by `with_changes`, which one it was made
        # from and the documents written since.
        self.serial = next(_SERIALS)
        self._follows: tuple[int, dict[str, frozenset[str]]] | None = None
        # What the last `revalidate_touched` checked, by table (the meta table aside): each document
        # there with the write checks, and the references it makes or, gone, those made to it.
        self.checked: dict[str, list[str]] = {}

    @classmethod
    def load(cls, save: WorldFile) -> World:
        """The save as it is now, its logs parsed when first asked for (`WorldFile.read_deferring_logs`):
        a read that never looks at the dice, the chronicle or the reports does not pay for them."""
        data, logs = save.read_deferring_logs()
        return cls(data, logs)

    @property
    def data(self) -> dict[str, dict[str, dict[str, Any]]]:
        """Every table (the logs parsed first if they were left for later)."""
        if self._logs is not None:
            self._load_logs(LOG_TABLES)
        return self._data

    @property
    def logs_deferred(self) -> bool:
        """Whether any log table is still bytes: a first frame may leave what reads them for after it."""
        return self._logs is not None

    def has_table(self, name: str) -> bool:
        """Whether the world has this table (a log not parsed yet counts; nothing is parsed)."""
        return name in self._data or name in self._unparsed

    def deferred(self, table: str) -> bool:
        """Whether this log table is still bytes (`logs_deferred`, for one table)."""
        return table in self._unparsed

    def may_hold(self, table: str, marker: bytes) -> bool:
        """Whether log table `table` may hold a document with these bytes in orjson's form
        (`DeferredLogs.may_hold`): True once it is parsed, so the caller then looks itself. A rare
        thing kept in a big log (a spell's consequence the GM has not described) is known absent
        without the log's parse."""
        logs = self._logs
        return logs is None or table not in self._unparsed or logs.may_hold(table, marker)

    def _load_logs(self, tables: Iterable[str]) -> None:
        with self._logs_lock:
            logs = self._logs
            if logs is None:  # another thread parsed them meanwhile
                return
            for name in tables:
                if name in self._unparsed:
                    self._data[name] = logs.load(name)
                    self._unparsed.discard(name)
            if not self._unparsed:
                for name in logs.order:  # the tables in the save's order again, as a whole read gives
                    self._data[name] = self._data.pop(name)
                self._logs = None

    def _docs(self, table: str) -> dict[str, dict[str, Any]]:
        """A table by a name known to exist (a log table parsed first if it was left for later)."""
        if self._logs is not None and table in LOG_TABLES:
            self._load_logs((table,))
        return self._data[table]

    def trial(self) -> World:
        """A throwaway World for a dry run (a form's check, a preview) that copies nothing up front.

        It shares this world's tables and documents; a table is copied (shallowly) on its first
        write and a document on its first `edit`, so the dry run never changes this world and costs
        what the command touches, not what the world holds. The meta document, which commands
        change in place, is copied two levels deep (the undo stack and history lists themselves)."""
        from yak_tui.kernel.play.dicechain import TABLE as LEDGER

        if self._logs is not None:
            self._load_logs((LEDGER,))
        data = dict(self._data)
        data[META] = {doc_id: _meta_copy(doc) for doc_id, doc in data[META].items()}
        # The dice ledger is appended to straight through the data (`dicechain.chain_rolls`), not
        # through `put`: its own copy, or a dry run's rolls would land in this world's ledger. The
        # other logs not parsed yet stay bytes, shared: a form's check reads none of them.
        data[LEDGER] = dict(data.get(LEDGER, {}))
        trial = World(data, self._logs)
        trial._trial = True
        trial._own_tables.update((META, LEDGER))
        return trial

    def with_changes(self, changes: Iterable[Mapping[str, Mapping[str, Any]]]) -> World:
        """A new World: this one with the documents later writes wrote (the store's change journal,
        oldest first: `{table: {id: document or None for removed}}`, the meta table whole).

        This world is left as it was (the apps of one process share it, across threads): only the
        tables written are copied, shallowly. The documents written, and the meta table, pass the
        validation a full read applies, and the other load checks see the new state. A document
        that fails raises ValueError (the caller then reads the save in full)."""
        from yak_tui.store.checks import HEAD_CHECKS, LOAD_CHECKS

        changes = list(changes)
        if self._logs is not None:
            # A log table no change writes stays bytes, shared with this world: no document's live
            # reference names a log table or is held in one (`test_no_live_reference_touches_a_log`),
            # so checking what was written needs none of them, unless a load check reads them.
            if all(check is validate_world or check in HEAD_CHECKS for check in LOAD_CHECKS):
                self._load_logs([table for tables in changes for table in tables if table in LOG_TABLES])
            else:
                self._load_logs(LOG_TABLES)
        data = dict(self._data)
        written: dict[str, set[str]] = {}
        for tables in changes:
            for table, docs in tables.items():
                if type(docs) is not dict:
                    raise ValidationError(table, f"the change journal's table {table!r} is not a table of documents")
                if table == META:
                    data[META] = docs
                    written[META] = set()
                    continue
                if table not in written:
                    data[table] = dict(data.get(table, {}))
                    written[table] = set()
                target = data[table]
                for doc_id, doc in docs.items():
                    if doc is None:
                        target.pop(doc_id, None)
                    else:
                        target[doc_id] = doc
                    written[table].add(doc_id)
        if META not in written:
            raise ValidationError(META, "the change journal does not hold the meta table")
        validate_changed(data, written)
        for check in LOAD_CHECKS:
            if check is not validate_world:
                check(data)
        world = World(data, self._logs)
        world._indexes = {table: index for table, index in self._indexes.items() if table not in written}
        world._follows = (self.serial, {table: frozenset(ids) for table, ids in written.items()})
        return world

    def follows(self) -> tuple[int, Mapping[str, frozenset[str]]] | None:
        """The `serial` of the world this one was brought up to date from by `with_changes`, and
        the ids of the documents written since, by table (the meta table always, with no ids); None
        for a world read whole. A read model that costs the whole of a big table (the chronicle)
        can extend the one it built on that world instead of starting again."""
        return self._follows

    def written_only(self, before: World, tables: Collection[str]) -> bool:
        """Whether this world is `before` with nothing written but `tables` (and the meta document's
        bookkeeping, `META_BOOKKEEPING`), judged by its other tables being the very same
        objects. That holds for a world brought up to date by `with_changes` (it copies only the
        tables written) and for a trial, and never for two full reads; it is only sound for worlds
        nobody changes in place any more, as the app's are. A read model may then keep the parts of
        what it built on `before` that read none of `tables` (the dashboard after a note)."""
        names = self._table_names()
        if names != before._table_names():
            return False
        for table in names:
            if table in tables:
                continue
            mine, theirs = self._table_token(table), before._table_token(table)
            if mine is theirs or (type(mine) is tuple and mine == theirs):
                continue
            if table != META or _meta_content(self._data[table]) != _meta_content(before._data[table]):
                return False
        return True

    def _table_names(self) -> set[str]:
        """Every table's name, parsed or not (read while another thread may be parsing a log)."""
        source = self._log_source
        return self._data.keys() | set(source.order if source is not None else ())

    def _table_token(self, table: str) -> object:
        """What stands for a table in `written_only`, parsing nothing: its documents, or, for a log
        table still bytes, the documents its source has parsed for another world, else the source and
        the table's name (two worlds of one read whose logs nobody wrote hold the same bytes). Read
        without the lock: a log being put in the save's order is taken from its source."""
        docs = self._data.get(table)
        if docs is not None:
            return docs
        source = self._log_source
        parsed = None if source is None else source.parsed(table)
        return (id(source), table) if parsed is None else parsed

    def _writable(self, table: str) -> dict[str, dict[str, Any]]:
        """The table to write into: in a trial, its own copy, made on the first write."""
        if self._trial and table not in self._own_tables:
            self._data[table] = dict(self._docs(table))
            self._own_tables.add(table)
        return self._docs(table)

    # -- meta ---------------------------------------------------------------------------------
    @property
    def meta(self) -> dict[str, Any]:
        return self._data[META].setdefault(META_ID, {})

    @property
    def date(self) -> GameDate:
        return GameDate.from_dict(self.meta["date"])

    @property
    def name(self) -> str:
        return str(self.meta.get("name", "world"))

    def next_seq(self, counter: str = "seq") -> int:
        value = int(self.meta.get(counter, 0)) + 1
        self.meta[counter] = value
        return value

    def new_id(self, table: str, prefix: str) -> str:
        number = self.next_seq(f"next_{table}")
        candidate = f"{prefix}-{number:04d}"
        while candidate in self._docs(table):
            number = self.next_seq(f"next_{table}")
            candidate = f"{prefix}-{number:04d}"
        return candidate

    # -- reads --------------------------------------------------------------------------------
    def table(self, name: str) -> dict[str, dict[str, Any]]:
        if self._logs is not None and name in LOG_TABLES:
            self._load_logs((name,))
        docs = self._data.get(name)
        if docs is None:
            raise ValidationError("table", f"no table named {name!r}; tables: {', '.join(TABLES)}")
        return docs

    def get(self, table: str, doc_id: str) -> dict[str, Any]:
        """A document for reading (do not mutate: use `edit`). Unknown ids name the table."""
        doc = self.table(table).get(doc_id)
        if doc is None:
            raise ValidationError(
                _singular(table),
                f"no {_singular(table)} with id {doc_id!r}{self._suggest(table, doc_id, self.visible)}",
            )
        return doc

    def find(self, table: str, doc_id: str | None) -> dict[str, Any] | None:
        if doc_id is None:
            return None
        return self.table(table).get(doc_id)

    def all(self, table: str) -> Iterator[tuple[str, dict[str, Any]]]:
        return iter(self.table(table).items())

    def where(self, table: str, **match: Any) -> list[tuple[str, dict[str, Any]]]:
        """The documents whose fields equal `match`, in table order.

        Answered from an index on the most selective field (built once, then kept right through
        every write of this World), so a query per kingdom over a big table stays cheap."""
        return self.where_any(table, match)

    def where_any(self, table: str, *matches: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
        """The documents that equal any one of `matches` (field -> value), each once, in table order."""
        docs = self.table(table)
        if len(matches) == 1 and len(matches[0]) == 1:
            # One field asked (a query per kingdom, per King's report): while no document of the
            # table was written since its index was built, the bucket holds the answer in table
            # order, each still checked as the general path checks it, with no set to make and
            # sort (issue 30: a season's reports ask tens of thousands of these).
            ((field, value),) = matches[0].items()
            key = _index_key(value)
            if key is not _UNKEYABLE:
                built = self._table_index(table)
                if not built.live:
                    return [
                        (doc_id, doc)
                        for doc_id in built.bucket(docs, field, key)
                        if (doc := docs[doc_id]).get(field) == value
                    ]
        index: _TableIndex | None = None
        candidates: set[str] = set()
        for match in matches:
            keyed = [
                (field, key) for field, key in ((f, _index_key(v)) for f, v in match.items()) if key is not _UNKEYABLE
            ]
            if not keyed:  # nothing to look up by: every document is a candidate
                return [(i, d) for i, d in docs.items() if any(_matches(d, m) for m in matches)]
            index = self._table_index(table)
            buckets = [index.bucket(docs, field, key) for field, key in keyed]
            smallest: list[str] = min(buckets, key=len)
            candidates.update(smallest)
        if index is None:
            return []
        if index.live:
            candidates.difference_update(index.live)
            candidates.update(doc_id for doc_id in index.live if doc_id in docs)
        ordered = sorted(candidates, key=index.position.__getitem__)
        return [(doc_id, docs[doc_id]) for doc_id in ordered if any(_matches(docs[doc_id], m) for m in matches)]

    def _table_index(self, table: str) -> _TableIndex:
        index = self._indexes.get(table)
        if index is None:
            index = self._indexes[table] = _TableIndex(self._docs(table))
        return index

    def _written(self, table: str, doc_id: str, existed: bool) -> None:
        """Keep the table's index right: the document may change at any time from now on."""
        index = self._indexes.get(table)
        if index is None:
            return
        index.live.add(doc_id)
        present = doc_id in self._docs(table)
        if present and not existed:
            index.position[doc_id] = index.next_position
            index.next_position += 1
        elif existed and not present:
            index.position.pop(doc_id, None)

    # -- writes -------------------------------------------------------------------------------
    def _remember(self, table: str, doc_id: str) -> None:
        key = (table, doc_id)
        if key not in self.originals:
            current = self._docs(table).get(doc_id)
            if current is None:
                self.originals[key] = None
            else:
                self.originals[key] = _copy_document(current) if self.keep_originals else UNKEPT

    def edit(self, table: str, doc_id: str) -> dict[str, Any]:
        """The live document, to change in place; its original is kept for undo."""
        self.get(table, doc_id)
        self._remember(table, doc_id)
        if self._trial and (table, doc_id) not in self._own_docs:
            docs = self._writable(table)
            docs[doc_id] = _copy_document(docs[doc_id])
            self._own_docs.add((table, doc_id))
        self._written(table, doc_id, existed=True)
        return self._docs(table)[doc_id]

    def put(self, table: str, doc_id: str, doc: dict[str, Any], *, final: bool = False) -> dict[str, Any]:
        """Write a whole document, checked now. `final`: the caller never changes it after the put,
        and a command is running: the check `revalidate_touched` makes of every document the command
        wrote, before anything is saved, is then its only one (a season's close puts a report per
        seat; issue 30). Outside a command it is checked now all the same."""
        if not (final and self.in_command):
            validate_document(table, doc_id, doc)
        self.table(table)
        self._remember(table, doc_id)
        existed = doc_id in self._docs(table)
        self._writable(table)[doc_id] = doc
        if self._trial:
            self._own_docs.add((table, doc_id))
        self._written(table, doc_id, existed)
        return doc

    def delete(self, table: str, doc_id: str) -> None:
        self.get(table, doc_id)
        self._remember(table, doc_id)
        del self._writable(table)[doc_id]
        self._own_docs.discard((table, doc_id))
        self._written(table, doc_id, existed=True)

    def revalidate_touched(self) -> None:
        """Check every document a command touched, and the meta document, before it is written: its
        schema, and its references (those it makes, and, for one it removed, those made to it)."""
        written: dict[str, list[str]] = {}
        for (table, doc_id), original in self.originals.items():
            doc = self._docs(table).get(doc_id)
            if doc is not None:
                validate_written(table, doc_id, doc)
            if doc is not None or original is not None:
                written.setdefault(table, []).append(doc_id)
        validate_document(META, META_ID, self.meta)
        written.pop(META, None)
        check_written_references(self.data, written)
        self.checked = written

    def changes(self) -> dict[str, dict[str, Any]]:
        """Undo record: the originals of everything touched except the meta document."""
        out: dict[str, dict[str, Any]] = {}
        for (table, doc_id), original in self.originals.items():
            if table == META:
                continue
            if original is UNKEPT:
                raise RuntimeError(f"no undo record: {table} {doc_id} was written while originals were not kept")
            out.setdefault(table, {})[doc_id] = original
        return out

    def restore(self, changes: dict[str, dict[str, Any]]) -> None:
        for table, docs in changes.items():
            for doc_id, original in docs.items():
                self._remember(table, doc_id)
                existed = doc_id in self._docs(table)
                if original is None:
                    self._writable(table).pop(doc_id, None)
                else:
                    self._writable(table)[doc_id] = original
                self._own_docs.discard((table, doc_id))  # the undo record's copy: copied on its next edit
                self._written(table, doc_id, existed)

    # -- convenience ----------------------------------------------------------------------------
    def kingdom_of_character(self, character_id: str) -> str | None:
        char = self.find("characters", character_id)
        return None if char is None else char.get("kingdom")

    def kingdom_of_pc(self, pc_id: str) -> str | None:
        pc = self.find("pcs", pc_id)
        return None if pc is None else pc.get("controller")

    def kingdom_of_province(self, province_id: str) -> str | None:
        province = self.find("provinces", province_id)
        return None if province is None else province.get("kingdom")

    def display_name(self, table: str, doc_id: str | None) -> str:
        if doc_id is None:
            return "none"
        doc = self.find(table, doc_id)
        return str(doc.get("name", doc_id)) if doc else doc_id

    def resolve_ref(self, table: str, text: str, visible: Visible | None = None) -> str:
        """An id from an id or a (case-insensitive) name, so `Elbreth` and `elbreth` both work.

        With `visible`, an id or a name matches, and a refusal suggests, only documents it lets
        through: a document the reader may not see gets the very reply an id that names nothing gets
        (RULINGS §1, no oracle)."""
        docs = self.table(table)
        if text in docs and (visible is None or visible(table, text, docs[text])):
            return text
        lowered = text.strip().lower()
        for doc_id, doc in docs.items():
            if str(doc.get("name", "")).lower() == lowered and (visible is None or visible(table, doc_id, doc)):
                return doc_id
        raise ValidationError(
            _singular(table), f"no {_singular(table)} with id {text!r}{self._suggest(table, text, visible)}"
        )

    def _suggest(self, table: str, wanted: str, visible: Visible | None) -> str:
        """' (did you mean ...?)' over the ids the reader may see, or ' (known: ...)' if they are few."""
        import difflib

        names = [doc_id for doc_id, doc in self.table(table).items() if visible is None or visible(table, doc_id, doc)]
        close = difflib.get_close_matches(wanted, names, n=3, cutoff=0.5)
        if close:
            return f" (did you mean {', '.join(close)}?)"
        if len(names) <= 12:
            return f" (known: {', '.join(names) or 'none'})"
        return ""


# What `originals` holds for a document that existed, when no copy of it is kept (`keep_originals`).
UNKEPT: dict[str, Any] = {}


def _meta_copy(doc: dict[str, Any]) -> dict[str, Any]:
    """The meta document for a trial: its own top level and its own lists and tables one level
    down (commands append to the undo stack and history and set counters in place)."""
    return {
        key: list(value) if isinstance(value, list) else dict(value) if isinstance(value, dict) else value
        for key, value in doc.items()
    }


# The meta document's bookkeeping (`World.written_only`): what every write changes (the undo stack, the
# revision, the last write's changed ids) and the counters of the logs (chronicle, dice ledger).
META_BOOKKEEPING = frozenset({"undo", "revision", "changed", "chronicle_seq", *DICE_STATE_KEYS})


def _meta_content(table: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    doc = table.get(META_ID, {})
    return {key: value for key, value in doc.items() if key not in META_BOOKKEEPING}


def _matches(doc: dict[str, Any], match: dict[str, Any]) -> bool:
    return all(doc.get(field) == value for field, value in match.items())


# A query value no index can hold (a dict, a tuple...): `where` scans for it instead.
_UNKEYABLE: Hashable = object()


def _index_key(value: Any) -> Hashable:
    """A hashable stand-in for a JSON value: equal values (by ==) get equal keys."""
    if isinstance(value, (str, int, float)):
        return value
    if value is None:
        return None
    if isinstance(value, list):
        items = tuple(_index_key(item) for item in value)
        return _UNKEYABLE if _UNKEYABLE in items else (list, items)
    return _UNKEYABLE


class _TableIndex:
    """Ids of one table by the value of a field, for `World.where`.

    Built from the table as it is at first use. A document that is written afterwards (`edit`,
    `put`, `delete`, `restore`) becomes *live*: its entries in the buckets may be stale (an edited
    document changes in place, whenever its holder likes), so `where` skips live ids in the buckets
    and checks each live document as it is now. `position` keeps the table's order (a dict's:
    a new id goes last) so results come out exactly as a scan would give them.
    """

    def __init__(self, docs: dict[str, dict[str, Any]]) -> None:
        self.position: dict[str, int] = {doc_id: n for n, doc_id in enumerate(docs)}
        self.next_position = len(self.position)
        self.live: set[str] = set()
        self.fields: dict[str, dict[Hashable, list[str]]] = {}

    def bucket(self, docs: dict[str, dict[str, Any]], field: str, key: Hashable) -> list[str]:
        by_value = self.fields.get(field)
        if by_value is None:
            # Filled first, then published: apps of one process share a World, and a read model in
            # another thread must never find a field's buckets half built.
            by_value = {}
            for doc_id, doc in docs.items():
                if doc_id in self.live:
                    continue
                value_key = _index_key(doc.get(field))
                if value_key is not _UNKEYABLE:
                    by_value.setdefault(value_key, []).append(doc_id)
            self.fields[field] = by_value
        return by_value.get(key, [])


def _copy_document(doc: dict[str, Any]) -> dict[str, Any]:
    """A deep copy of a JSON document: an orjson round trip is many times faster than
    copy.deepcopy (a big year start touches thousands of documents); anything orjson cannot
    write falls back to deepcopy."""
    try:
        copied: dict[str, Any] = orjson.loads(orjson.dumps(doc))
        return copied
    except (TypeError, orjson.JSONEncodeError):
        return copy.deepcopy(doc)


def _singular(table: str) -> str:
    return {
        "businesses": "business",
        "pcs": "population centre",
        "specialists": "specialist pool",
        "academies": "academy",
        "chronicle": "chronicle entry",
    }.get(table, table.rstrip("s"))


def follow_save(save: WorldFile, held: tuple[Stamp | None, World] | None) -> tuple[Stamp | None, World]:
    """The save as it is now, with its stamp (taken before the read: a later write differs from it).

    A reader that keeps a world (an app, `yak serve`'s roster) hands back the one it holds and the
    stamp it was read at: when the save's change journal can say what the writes since then
    changed (a note: one entry and the meta table), that world is brought up to date from it
    (`World.with_changes`); anything else, or a journal that does not hold up, is a full read.
    The journal is never believed over the save: `WorldFile.changes_between` answers only for
    entries signed with the campaign's key whose last one names the sha256 of the save on disk.
    Applying the journal, like a full read, freezes what it made for the garbage collector
    (`storage.collector_paused`): the copied tables of a big world are otherwise walked again by
    every full collection, which then stalls the app's screen as it redraws."""
    from yak_tui.store.files import collector_paused

    stamp = save.stamp()
    if held is not None and stamp is not None and held[0] == stamp:
        return held
    if held is not None and held[0] is not None and stamp is not None:
        changes = save.changes_between(held[0], stamp)
        if changes is not None:
            try:
                with collector_paused():
                    return stamp, held[1].with_changes(changes)
            except ValueError:
                pass
    return stamp, World.load(save)
