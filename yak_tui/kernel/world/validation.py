"""Validating documents against `yak_tui.kernel.world.documents`: a whole save when it is loaded, and a
document when a command writes it.

Loading runs on every process start over worlds of tens of megabytes, so each table's schema is
compiled once (when the table is first checked) into a plain Python predicate (type checks only,
no allocation) that accepts a valid document quickly; only a document it rejects is walked again
by the explaining checker, which names the table, the id and the field. Writes use the explaining
checker's verdict (a strict compiled predicate says yes, the explaining checker words a refusal)
and also refuse what JSON cannot hold faithfully: NaN and infinities (orjson would write them as
null), integers beyond 64 bits, and keys that are not text.

Both checkers hold every number to its field's range (`Field.low`/`high`: ±AMOUNT_LIMIT unless the
field says otherwise; a whole-number field to an int, 12.0 is no whole number) and every text field
free of the characters that reorder or hide text (`hidden_character`).

References: every field that names another document (`Field.ref`, not a `history` one) must name
one the world holds. The load checks them all, table by table, over the tables' own id dicts (no
copies, one lookup per value); a write checks the documents it wrote and, when it removed some,
that nothing still names them (`check_written_references`). The words are `gm-set`'s.
"""

from __future__ import annotations

import functools
import hashlib
import math
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from yak_tui.kernel.errors import ValidationError, YakError
from yak_tui.kernel.world.documents import (
    BOOL,
    DATE,
    INT,
    INT64_MAX,
    INT64_MIN,
    JSON,
    LIST,
    MAP,
    META,
    META_ID,
    NUMBER,
    RECORD,
    SCHEMAS,
    SEASON_CHOICES,
    TEXT,
    Field,
)
from yak_tui.kernel.world.numbers import shown


class DocumentError(ValidationError):
    """A document does not match its table's schema; the message names the table, id and field."""

    def __init__(self, table: str, doc_id: str | None, path: str, reason: str, source: str | None = None) -> None:
        where = f"{source}: " if source else ""
        doc = f"{table} {doc_id!r}" if doc_id is not None else f"table {table!r}"
        at = f", field {path}" if path else ""
        message = f"{where}{doc}{at}: {reason}"
        YakError.__init__(self, message)
        self.table = table
        self.doc_id = doc_id
        self.path = path
        self.field = ".".join(part for part in (table, doc_id, path) if part)
        self.reason = reason


# -- explaining checker --------------------------------------------------------------------------

_NOUNS = {
    TEXT: "text",
    INT: "a whole number",
    NUMBER: "a number",
    BOOL: "true or false",
    DATE: 'a date like {year = 312, season = "Spring"}',
    LIST: "a list",
    RECORD: "a table",
    MAP: "a table",
    JSON: "plain JSON",
}


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


_TEXT_ONLY = {str}


# -- text a person types -------------------------------------------------------------------------

# Characters that reorder or hide text, refused in every text field of a document and in every text
# a command is given: the bidirectional controls (U+061C ARABIC LETTER MARK, U+200E/U+200F the
# left-to-right and right-to-left marks, U+202A-U+202E the embeddings and overrides, U+2066-U+2069
# the isolates) and the invisible format characters that hide text or split a name that looks whole
# (U+180E, U+200B ZERO WIDTH SPACE, U+2060-U+2064, the deprecated U+206A-U+206F, U+FEFF, the
# interlinear annotations U+FFF9-U+FFFB and the tag characters U+E0000-U+E007F). The zero width
# joiner and non-joiner (U+200C, U+200D) stay: scripts and emoji need them, and they move nothing.
HIDDEN_CHARACTERS = re.compile(
    r"[\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff"
    r"\ufff9-\ufffb\U000e0000-\U000e007f]"
)
_hidden = HIDDEN_CHARACTERS.search


def hidden_character(text: str) -> str | None:
    """Why `text` is refused if it holds a character that reorders or hides text (its code point
    and name), else None."""
    if text.isascii():  # most text: a flag CPython keeps on the string, no scan
        return None
    found = _hidden(text)
    if found is None:
        return None
    char = found.group()
    name = unicodedata.name(char, "a format character")
    return f"holds U+{ord(char):04X} ({name}), an invisible character that reorders or hides text: remove it"


def _plain(text: str) -> bool:
    return _hidden(text) is None


# -- numbers -------------------------------------------------------------------------------------


def _bound(value: float) -> str:
    if type(value) is int:
        return str(value)
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def number_problem(spec: Field, value: Any, path: str) -> tuple[str, str] | None:
    """The way `value` breaks an INT or NUMBER field (or a date's year): its type, its range."""
    kind = type(value)
    if kind is float and spec.kind == NUMBER:
        if not math.isfinite(value):
            return path, f"must be a finite number, not {value}"
    elif kind is not int:
        return path, f"must be {_NOUNS[spec.kind]}, not {shown(value)}"
    if value < spec.low:
        return path, f"must be at least {_bound(spec.low)}, not {shown(value)}"
    if value > spec.high:
        return path, f"must be at most {_bound(spec.high)}, not {shown(value)}"
    return None


def json_faithful(value: Any) -> bool:
    """Whether JSON holds `value` faithfully: `json_problem` finds nothing (without naming it)."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        whole: int = value
        return INT64_MIN <= whole <= INT64_MAX
    if kind is float:
        real: float = value
        return real - real == 0.0  # NaN and the infinities give NaN
    if kind is dict:
        if value and set(map(type, value)) != _TEXT_ONLY:  # the keys' types, gathered in C
            return False
        items: Iterable[Any] = value.values()
    elif kind is list:
        items = value
    else:
        return False
    for item in items:  # the scalars inline: most values of a document are
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is int:
            if not INT64_MIN <= item <= INT64_MAX:
                return False
        elif kind is float:
            if item - item != 0.0:
                return False
        elif not json_faithful(item):
            return False
    return True


def json_problem(value: Any, path: str) -> tuple[str, str] | None:
    """The first thing JSON cannot hold faithfully in `value`: (path, reason), or None."""
    kind = type(value)
    if value is None or kind is bool or kind is str:
        return None
    if kind is int:
        if not INT64_MIN <= value <= INT64_MAX:
            return path, f"is {shown(value)}, beyond 64 bits"
        return None
    if kind is float:
        if not math.isfinite(value):
            return path, f"must be a finite number, not {value}"
        return None
    if kind is list:
        for index, item in enumerate(value):
            found = json_problem(item, f"{path}[{index}]")
            if found:
                return found
        return None
    if kind is dict:
        for key, item in value.items():
            if type(key) is not str:
                return path, f"has a key {shown(key)} that is not text"
            found = json_problem(item, _join(path, key))
            if found:
                return found
        return None
    return path, f"holds a {kind.__name__}, which is not plain JSON"


def problem(spec: Field, value: Any, path: str) -> tuple[str, str] | None:
    """The first way `value` breaks `spec`: (path, reason), or None."""
    if value is None:
        if spec.nullable or spec.kind == JSON:
            return None
        return path, f"must be {_NOUNS[spec.kind]}, not null"
    kind = spec.kind
    if kind == JSON:
        return json_problem(value, path)
    if kind == TEXT:
        if type(value) is not str:
            return path, f"must be text, not {shown(value)}"
        if spec.choices and value not in spec.choices:
            return path, f"must be one of {', '.join(spec.choices)}, not {shown(value)}"
        hidden = hidden_character(value)
        return None if hidden is None else (path, hidden)
    if kind == BOOL:
        return None if type(value) is bool else (path, f"must be true or false, not {shown(value)}")
    if kind in (INT, NUMBER):
        return number_problem(spec, value, path)
    if kind == DATE:
        if type(value) is not dict or type(value.get("year")) is not int or value.get("season") not in SEASON_CHOICES:
            return path, f"must be {_NOUNS[DATE]}, not {shown(value)}"
        found = number_problem(spec, value["year"], _join(path, "year"))
        return found or json_problem(value, path)
    if kind == LIST:
        if type(value) is not list:
            return path, f"must be a list, not {shown(value)}"
        assert spec.items is not None
        for index, item in enumerate(value):
            found = problem(spec.items, item, f"{path}[{index}]")
            if found:
                return found
        return None
    if kind == MAP:
        if type(value) is not dict:
            return path, f"must be a table, not {shown(value)}"
        assert spec.values is not None
        for key, item in value.items():
            if type(key) is not str:
                return path, f"has a key {shown(key)} that is not text"
            if spec.choices and key not in spec.choices:
                return _join(path, key), f"is not one of {', '.join(spec.choices)}"
            found = problem(spec.values, item, _join(path, key))
            if found:
                return found
        return None
    if kind == RECORD:
        if type(value) is not dict:
            return path, f"must be a table, not {shown(value)}"
        return fields_problem(spec.fields or {}, value, path)
    raise AssertionError(f"unknown field kind {kind!r}")


def fields_problem(fields: Mapping[str, Field], doc: dict[str, Any], path: str = "") -> tuple[str, str] | None:
    """Known fields against their specs, required ones present, the others plain JSON."""
    for name, spec in fields.items():
        if name in doc:
            found = problem(spec, doc[name], _join(path, name))
            if found:
                return found
        elif spec.required:
            return _join(path, name), "is required"
    for name, value in doc.items():
        if type(name) is not str:
            return path, f"has a key {shown(name)} that is not text"
        if name not in fields:
            found = json_problem(value, _join(path, name))
            if found:
                return found
    return None


def validate_document(table: str, doc_id: str | None, doc: Any, source: str | None = None) -> None:
    """Raise DocumentError unless `doc` is a valid, JSON-faithful document of `table`.

    The schema's strict compiled predicate (`WRITE_CHECKS`: the schema and `json_faithful` where the
    schema leaves values open) accepts what the explaining checker does (tests/hostile/
    test_documents.py), so it gives the quick yes; the explaining checker runs only to word a
    refusal. A year start writes tens of thousands of documents."""
    if table in SCHEMAS and (table != META or doc_id == META_ID) and WRITE_CHECKS[table](doc):
        return
    explain_document(table, doc_id, doc, source)


def explain_document(table: str, doc_id: str | None, doc: Any, source: str | None = None) -> None:
    """The explaining checker alone: raise DocumentError naming the first problem of `doc`."""
    if type(doc) is not dict:
        raise DocumentError(table, doc_id, "", f"must be a document (a table of fields), not {shown(doc)}", source)
    schema = SCHEMAS.get(table)
    if table == META and doc_id != META_ID:
        schema = None
    found = fields_problem(schema.fields if schema else {}, doc)
    if found:
        raise DocumentError(table, doc_id, found[0], found[1], source)


def validate_written(table: str, doc_id: str, doc: Any) -> None:
    """A document a command writes: as `validate_document`, and its table must have a schema
    (a table no schema describes would be written unchecked)."""
    if table not in SCHEMAS:
        raise DocumentError(
            table,
            doc_id,
            "",
            "no schema describes this table (kernel/world/documents.py SCHEMAS), so nothing may be written to it",
        )
    validate_document(table, doc_id, doc)


# -- references ----------------------------------------------------------------------------------

Tables = Mapping[str, Mapping[str, Any]]


def reference_problem(data: Tables, spec: Field, value: str) -> str | None:
    """Why `value` of a referencing field names nothing the world holds (the words `gm-set` and a
    world file's loader use), or None. The tables' own dicts answer: one lookup per table named."""
    tables = spec.ref_tables
    if value in spec.besides:
        return None
    if spec.tagged:
        kind, sep, doc_id = value.partition(":")
        if sep and kind in tables and doc_id in data.get(kind, _NONE):
            return None
        return f"{value!r} is not {' or '.join(f'{table}:<id>' for table in tables)} of the world"
    for table in tables:
        if value in data.get(table, _NONE):
            return None
    if len(tables) == 1:
        return f"names {tables[0]} {value!r}, which the world does not hold"
    return f"names {value!r}, which is neither a {' nor a '.join(tables)} id of the world"


_NONE: Mapping[str, Any] = {}


def references(spec: Field, value: Any, path: str, *, history: bool = True) -> Iterator[tuple[str, Field, str]]:
    """(path, field, text) of every reference `value` holds through the schema's `ref`s; `history`
    False leaves out the fields that name what once was."""
    kind = spec.kind
    if kind == TEXT:
        if spec.ref is not None and type(value) is str and (history or not spec.history) and value not in spec.besides:
            yield path, spec, value
    elif kind == LIST:
        if type(value) is list and spec.items is not None:
            for index, item in enumerate(value):
                yield from references(spec.items, item, f"{path}[{index}]", history=history)
    elif kind == RECORD:
        if type(value) is dict and spec.fields:
            for key, item in value.items():
                inner = spec.fields.get(key)
                if inner is not None:
                    yield from references(inner, item, _join(path, key), history=history)
    elif kind == MAP and type(value) is dict and spec.values is not None:
        for key, item in value.items():
            yield from references(spec.values, item, _join(path, key), history=history)


def dangling_references(
    data: Tables, table: str, doc: Mapping[str, Any], *, history: bool = True
) -> list[tuple[str, str]]:
    """(path, reason) of every reference of `doc` (a document of `table`) the world does not hold,
    in the schema's order of fields."""
    schema = SCHEMAS.get(table)
    if schema is None or type(doc) is not dict:
        return []
    out: list[tuple[str, str]] = []
    for name in _referencing(table, history):
        if name in doc:
            for path, spec, named in references(schema.fields[name], doc[name], name, history=history):
                reason = reference_problem(data, spec, named)
                if reason is not None:
                    out.append((path, reason))
    return out


def referrers(data: Tables, table: str, doc_id: str, *, history: bool = True) -> list[str]:
    """`table 'id' field` of every document that names `doc_id` of `table` (before removing it).
    The chronicle is history: it may name what is gone."""
    out: list[str] = []
    tagged = f"{table}:{doc_id}"
    for other, fields in _referencing_tables(history, table).items():
        if other == "chronicle":
            continue
        for other_id, doc in data.get(other, _NONE).items():
            for name in fields:
                if name in doc:
                    out.extend(
                        f"{other} {other_id!r} {path}"
                        for path, spec, named in references(
                            SCHEMAS[other].fields[name], doc[name], name, history=history
                        )
                        if table in spec.ref_tables and named == (tagged if spec.tagged else doc_id)
                    )
    return out


def _tables_named(spec: Field, history: bool) -> frozenset[str]:
    """The tables a field names documents of, through its items, fields and values."""
    if spec.kind == TEXT:
        return frozenset(spec.ref_tables) if history or not spec.history else frozenset()
    inner = [
        *([spec.items] if spec.items else []),
        *([spec.values] if spec.values else []),
        *(spec.fields or {}).values(),
    ]
    return frozenset().union(*(_tables_named(field, history) for field in inner))


@functools.cache
def _referencing(table: str, history: bool) -> dict[str, frozenset[str]]:
    """The fields of `table` that name documents, and the tables they name."""
    found = {name: _tables_named(spec, history) for name, spec in SCHEMAS[table].fields.items()}
    return {name: named for name, named in found.items() if named}


@functools.cache
def _referencing_tables(history: bool, target: str | None = None) -> dict[str, tuple[str, ...]]:
    """The tables whose documents name others (those that name `target`, if given), and their fields."""
    out: dict[str, tuple[str, ...]] = {}
    for table in SCHEMAS:
        fields = tuple(
            name for name, named in _referencing(table, history).items() if target is None or target in named
        )
        if fields:
            out[table] = fields
    return out


def check_references(data: Tables, source: str | None = None, targets: Iterable[str] | None = None) -> None:
    """Every live reference of the world (`targets`: only those naming these tables) names a
    document it holds; DocumentError names the first that does not. Run on data that passed the
    schema (so a referencing value is text or null, a list a list).

    Table by table: one pass over its documents gathers the distinct names each referencing field
    holds (`_gatherer`, compiled once), then each name is looked up once in the named table's own
    dict (no copies, no id sets to build); only a table with a dangling name is walked again,
    document by document, to say which one."""
    wanted = None if targets is None else frozenset(targets)
    for table in _referencing_tables(False):
        docs = data.get(table)
        if not docs or type(docs) is not dict:
            continue
        leaves, gather = _gatherer(table)
        if wanted is not None and all(wanted.isdisjoint(spec.ref_tables) for spec in leaves):
            continue
        for spec, names in zip(leaves, gather(docs), strict=True):
            names.discard(None)
            if spec.besides:
                names.difference_update(spec.besides)
            if not _all_held(data, spec, names):
                _explain_references(data, table, docs, source)


@functools.cache
def _gatherer(table: str) -> tuple[tuple[Field, ...], Callable[[Mapping[str, Any]], list[set[Any]]]]:
    """The live references of `table`'s documents, and a function that gathers, in one pass over
    its documents, the set of names each one holds (a document is read once, while it is in the
    cache, whatever the number of its referencing fields)."""
    leaves: list[Field] = []
    lines = ["def gather(docs, _gather=_gather):"]
    body = []
    for name in _referencing_tables(False)[table]:
        for steps, spec in _ref_leaves(table, name):
            n = len(leaves)
            leaves.append(spec)
            lines.append(f"    s{n} = set()")
            if not steps:
                lines.append(f"    a{n} = s{n}.add")
                body += [f"        if {name!r} in d:", f"            a{n}(d[{name!r}])"]
            elif steps == ("[]",):  # a list of ids: added as it is
                lines.append(f"    u{n} = s{n}.update")
                body += [f"        v = d.get({name!r})", "        if v:", f"            u{n}(v)"]
            else:
                body += [f"        if {name!r} in d:", f"            _gather(d[{name!r}], {steps!r}, 0, s{n})"]
    lines += ["    for d in docs.values():", *body, f"    return [{', '.join(f's{n}' for n in range(len(leaves)))}]"]
    namespace: dict[str, Any] = {}
    exec(compile("\n".join(lines) + "\n", f"<yak_tui references of {table}>", "exec"), {"_gather": _gather}, namespace)
    return tuple(leaves), namespace["gather"]


def _all_held(data: Tables, spec: Field, names: Iterable[Any]) -> bool:
    """Whether every name is an id of one of the tables the field names (`table:<id>` if tagged)."""
    left = names
    for target in spec.ref_tables:
        held = data.get(target, _NONE)
        if spec.tagged:
            prefix = f"{target}:"
            cut = len(prefix)
            left = [name for name in left if not (name.startswith(prefix) and name[cut:] in held)]
        else:
            left = [name for name in left if name not in held]
        if not left:
            return True
    return not left


def _gather(value: Any, steps: tuple[str, ...], at: int, out: set[Any]) -> None:
    """The texts at `steps` inside `value` ("[]": each item of a list, "{}": each value of a table,
    else a key of a record) added to `out`."""
    if value is None:
        return
    step = steps[at]
    last = at + 1 == len(steps)
    if step in ("[]", "{}"):
        items = (
            value
            if step == "[]" and type(value) is list
            else value.values()
            if step == "{}" and type(value) is dict
            else ()
        )
        if last:
            out.update(items)
        else:
            for item in items:
                _gather(item, steps, at + 1, out)
    elif type(value) is dict and step in value:
        if last:
            out.add(value[step])
        else:
            _gather(value[step], steps, at + 1, out)


@functools.cache
def _ref_leaves(table: str, name: str) -> tuple[tuple[tuple[str, ...], Field], ...]:
    """Where the live references of a field are: (steps from the field's value, the text field)."""

    def leaves(spec: Field) -> list[tuple[tuple[str, ...], Field]]:
        if spec.kind == TEXT:
            return [((), spec)] if spec.ref is not None and not spec.history else []
        if spec.kind == LIST and spec.items is not None:
            return [(("[]", *steps), leaf) for steps, leaf in leaves(spec.items)]
        if spec.kind == MAP and spec.values is not None:
            return [(("{}", *steps), leaf) for steps, leaf in leaves(spec.values)]
        if spec.kind == RECORD and spec.fields:
            return [((key, *steps), leaf) for key, inner in spec.fields.items() for steps, leaf in leaves(inner)]
        return []

    return tuple(leaves(SCHEMAS[table].fields[name]))


def _explain_references(data: Tables, table: str, docs: Mapping[str, Any], source: str | None) -> None:
    for doc_id, doc in docs.items():
        found = dangling_references(data, table, doc, history=False)
        if found:
            raise DocumentError(table, doc_id, found[0][0], found[0][1], source)
    raise DocumentError(table, None, "", "names a document the world does not hold", source)  # never: a bug


def check_written_references(data: Tables, written: Mapping[str, Iterable[str]]) -> None:
    """The references a write made or broke: those of every document it wrote ({table: [ids]}),
    and, for every document it removed (an id no longer there), that no document names it still."""
    removed: set[str] = set()
    for table, ids in written.items():
        docs = data.get(table, _NONE)
        for doc_id in ids:
            doc = docs.get(doc_id)
            if doc is None:
                removed.add(table)
            elif table in _referencing_tables(False):
                found = dangling_references(data, table, doc, history=False)
                if found:
                    raise DocumentError(table, doc_id, found[0][0], found[0][1])
    if removed:
        check_references(data, targets=removed)


# -- compiled fast predicates --------------------------------------------------------------------


class _Compiler:
    """Turns field specs into the source of small predicates; `env` holds what they refer to.

    `strict`: the predicate also refuses what JSON cannot hold faithfully (`json_faithful`), as
    the explaining checker does: for documents a command writes. A loaded save needs no such
    check (orjson reads only plain JSON), so its predicate skips the walk."""

    def __init__(self, strict: bool = False) -> None:
        self.env: dict[str, Any] = {
            "_LO": INT64_MIN,
            "_HI": INT64_MAX,
            "_SEASONS": tuple(SEASON_CHOICES),
            "_faithful": json_faithful,
            "_TEXT_ONLY": _TEXT_ONLY,
            "_plain": _plain,
        }
        self.count = 0
        self.strict = strict

    def name(self, prefix: str, value: Any) -> str:
        self.count += 1
        key = f"_{prefix}{self.count}"
        self.env[key] = value
        return key

    def expr(self, spec: Field, v: str) -> str:
        """A Python expression, true when the present value `v` matches `spec`."""
        kind = spec.kind
        if kind == JSON:
            return f"_faithful({v})" if self.strict else "True"
        if kind == TEXT:
            test = f"type({v}) is str"
            if spec.choices:
                test += f" and {v} in {self.name('c', frozenset(spec.choices))}"
            test += f" and ({v}.isascii() or _plain({v}))"
        elif kind == BOOL:
            test = f"type({v}) is bool"
        elif kind in (INT, NUMBER):
            within = f"{spec.low!r} <= {v} <= {spec.high!r}"  # also false for NaN
            test = f"type({v}) is int and {within}"
            if kind == NUMBER:
                test = f"(({test}) or (type({v}) is float and {within}))"
        elif kind == DATE:
            test = (
                f"type({v}) is dict and type({v}['year']) is int and {spec.low!r} <= {v}['year'] <= {spec.high!r}"
                f" and {v}['season'] in _SEASONS"
            )
            if self.strict:
                test += f" and _faithful({v})"
        elif kind == LIST:
            assert spec.items is not None
            item = self.function(spec.items)
            test = f"type({v}) is list and (not {v} or all(map({item}, {v})))"
        elif kind == MAP:
            assert spec.values is not None
            if spec.values.kind == JSON:
                test = f"type({v}) is dict" + (f" and _faithful({v})" if self.strict else "")
            else:
                item = self.function(spec.values)
                keys = f"set(map(type, {v})) <= _TEXT_ONLY and " if self.strict else ""
                test = f"type({v}) is dict and (not {v} or ({keys}all(map({item}, {v}.values()))))"
            if spec.choices:
                test += f" and {self.name('k', frozenset(spec.choices))}.issuperset({v})"
        elif kind == RECORD:
            test = f"{self.record(spec.fields or {})}({v})"
        else:
            raise AssertionError(f"unknown field kind {kind!r}")
        if spec.nullable:
            test = f"{v} is None or ({test})"
        return test

    def function(self, spec: Field) -> str:
        if spec.kind == RECORD and not spec.nullable:
            return self.record(spec.fields or {})  # no wrapper: one call per list item
        source = f"def check(x{self.LOCALS}):\n    return {self.expr(spec, 'x')}\n"
        return self.name("f", self.build(source))

    def record(self, fields: Mapping[str, Field]) -> str:
        return self.name("r", self.build(self.record_source(fields)))

    # Names the predicates use, bound as default arguments: local lookups are the cheapest.
    LOCALS = (
        ", type=type, str=str, int=int, float=float, bool=bool, dict=dict, list=list, all=all, map=map, "
        "_LO=_LO, _HI=_HI, _SEASONS=_SEASONS, _plain=_plain"
    )

    def record_source(self, fields: Mapping[str, Field]) -> str:
        """Fields by subscript (a missing required one raises KeyError), optional ones behind `in`:
        the cheapest lookups Python has, as this runs for every document of every save."""
        lines = [f"def check(d{self.LOCALS}):", "    if type(d) is not dict:", "        return False", "    try:"]
        for field_name, spec in sorted(fields.items(), key=lambda item: not item[1].required):
            test = f"        if not ({self.expr(spec, 'v')}):"
            if spec.required:
                lines += [f"        v = d[{field_name!r}]", test, "            return False"]
            else:
                lines += [
                    f"        if {field_name!r} in d:",
                    f"            v = d[{field_name!r}]",
                    "    " + test,
                    "                return False",
                ]
        if self.strict:  # the other fields: text keys and plain JSON, as `fields_problem` says
            known = self.name("n", frozenset(fields))
            lines += [
                "        for k in d:",
                f"            if k not in {known} and (type(k) is not str or not _faithful(d[k])):",
                "                return False",
            ]
        elif not fields:
            lines.append("        pass")
        lines += ["    except KeyError:", "        return False", "    return True"]
        return "\n".join(lines) + "\n"

    def build(self, source: str) -> Callable[[Any], bool]:
        namespace: dict[str, Any] = {}
        exec(compile(source, "<yak_tui schema>", "exec"), self.env, namespace)
        built: Callable[[Any], bool] = namespace["check"]
        return built


class _FastChecks(dict[str, Callable[[Any], bool]]):
    """Each table's predicate, compiled the first time one of its documents is checked: compiling
    them all cost every process about 12 ms at import, also those that read no save, and a save's
    empty tables need none. `FAST_CHECKS[table]` for a table no schema describes is a KeyError."""

    def __init__(self, strict: bool = False) -> None:
        super().__init__()
        self._compiler = _Compiler(strict)
        self._lock = threading.Lock()  # the app reads saves in worker threads

    def __missing__(self, table: str) -> Callable[[Any], bool]:
        schema = SCHEMAS[table]
        with self._lock:
            if table not in self:
                self[table] = self._compiler.build(self._compiler.record_source(schema.fields))
            return dict.__getitem__(self, table)


FAST_CHECKS = _FastChecks()
WRITE_CHECKS = _FastChecks(strict=True)  # a written document: the schema and what JSON holds faithfully


def _is_document(doc: Any) -> bool:
    return type(doc) is dict


def _ascii_ids(docs: Mapping[Any, Any]) -> bool:
    try:
        return all(map(str.isascii, docs))  # in C: about 10 ns an id
    except TypeError:
        return False


def validate_table(table: str, docs: Any, source: str | None = None) -> None:
    """Every document of one table; fast when they are all valid."""
    if type(docs) is not dict:
        raise DocumentError(table, None, "", f"must be a table of documents, not {shown(docs)}", source)
    if table == META:
        world = docs.get(META_ID)
        if not FAST_CHECKS[META](world):
            if world is None:
                raise DocumentError(META, META_ID, "", "is missing: this is not a yak_tui world", source)
            validate_document(META, META_ID, world, source)
        others = {doc_id: doc for doc_id, doc in docs.items() if doc_id != META_ID}
        if not all(map(_is_document, others.values())):
            for doc_id, doc in others.items():
                validate_document(META, doc_id, doc, source)
        return
    if not docs:
        return
    if not _ascii_ids(docs):  # an id typed with a character that reorders or hides text
        for doc_id in docs:
            hidden = hidden_character(doc_id) if type(doc_id) is str else None
            if hidden is not None:
                raise DocumentError(table, doc_id, "", f"its id {hidden}", source)
    check = FAST_CHECKS[table] if table in SCHEMAS else _is_document
    if all(map(check, docs.values())):
        return
    for doc_id, doc in docs.items():
        if not check(doc):
            validate_document(table, doc_id, doc, source)


def validate_world(data: Any, source: str | None = None) -> None:
    """The whole save: every table a table of documents, every document valid (once, at load)."""
    if type(data) is not dict:
        raise DocumentError("save", None, "", f"must be a table of tables, not {shown(data)}", source)
    if META not in data:
        raise DocumentError(META, None, "", "is missing: this is not a yak_tui world", source)
    for table, docs in data.items():
        validate_table(table, docs, source)
    check_references(data, source)


def validate_changed(data: Mapping[str, Any], changed: Mapping[str, Iterable[str]]) -> None:
    """What a write changed, as a full read would check it: the documents named ({table: [ids]}; an
    id no longer there was removed), the meta table whole, and every table a table of documents.
    The rest of `data` must already have passed `validate_world`."""
    for table, docs in data.items():
        if type(docs) is not dict:
            raise DocumentError(table, None, "", f"must be a table of documents, not {shown(docs)}")
    if META not in data:
        raise DocumentError(META, None, "", "is missing: this is not a yak_tui world")
    validate_table(META, data[META])
    for table, ids in changed.items():
        if table != META and table in data:
            docs = data[table]
            validate_table(table, {doc_id: docs[doc_id] for doc_id in ids if doc_id in docs})
    check_written_references(data, {table: ids for table, ids in changed.items() if table != META})


@functools.cache
def rules_fingerprint() -> str:
    """The version of the rules `validate_world` applies: this module's and the schemas' source, the
    schemas as built, and the JSON parser's version. A save vouched for under other rules (another
    yak) is validated again."""
    import orjson

    from yak_tui.kernel.world import documents, numbers

    digest = hashlib.sha256(f"orjson {orjson.__version__}\n{sorted(SCHEMAS.items())!r}".encode())
    for module_file in (__file__, documents.__file__, numbers.__file__):
        try:
            digest.update(Path(module_file).read_bytes())
        except (OSError, TypeError):
            digest.update(f"no source for {module_file}".encode())
    return digest.hexdigest()


def _register_load_check() -> None:
    """Every world the store reads is validated once, whoever reads it (CLI, app, server); a vouch
    for the exact bytes (written by a yak that knew them valid under these rules) stands for it."""
    from yak_tui.store import storage

    if validate_world not in storage.LOAD_CHECKS:
        storage.LOAD_CHECKS.append(validate_world)
        storage.VOUCHABLE.append(storage.Vouchable(validate_world, validate_changed, rules_fingerprint))


_register_load_check()
