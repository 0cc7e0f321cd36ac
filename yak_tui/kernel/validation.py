"""Validating documents against `yak_tui.kernel.documents`: a whole save when it is loaded, and a
document when a command writes it.

Loading runs on every process start over worlds of tens of megabytes, so each table's schema is
compiled once (when the table is first checked) into a plain Python predicate (type checks only,
no allocation) that accepts a valid document quickly; only a document it rejects is walked again
by the explaining checker, which names the table, the id and the field. Writes use the explaining
checker's verdict (a strict compiled predicate says yes, the explaining checker words a refusal)
and also refuse what JSON cannot hold faithfully: NaN and infinities (orjson would write them as
null), integers beyond 64 bits, and keys that are not text.
"""

from __future__ import annotations

import functools
import hashlib
import math
import threading
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

from yak_tui.kernel.documents import (
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
from yak_tui.kernel.errors import ValidationError, YakError
from yak_tui.kernel.numbers import shown


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

_NOUNS = {TEXT: "text", INT: "a whole number", NUMBER: "a number", BOOL: "true or false",
          DATE: "a date like {year = 312, season = \"Spring\"}", LIST: "a list", RECORD: "a table",
          MAP: "a table", JSON: "plain JSON"}


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


_TEXT_ONLY = {str}


def json_faithful(value: Any) -> bool:
    """Whether JSON holds `value` faithfully: `json_problem` finds nothing (without naming it)."""
    kind = type(value)
    if kind is str or kind is bool or value is None:
        return True
    if kind is int:
        return INT64_MIN <= value <= INT64_MAX
    if kind is float:
        return value - value == 0.0  # NaN and the infinities give NaN
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
        return None
    if kind == BOOL:
        return None if type(value) is bool else (path, f"must be true or false, not {shown(value)}")
    if kind in (INT, NUMBER):
        allowed = (int,) if kind == INT else (int, float)
        if type(value) not in allowed:
            return path, f"must be {_NOUNS[kind]}, not {shown(value)}"
        found = json_problem(value, path)
        if found:
            return found
        if spec.minimum is not None and value < spec.minimum:
            return path, f"must be at least {spec.minimum:g}, not {shown(value)}"
        return None
    if kind == DATE:
        if (type(value) is not dict or type(value.get("year")) is not int
                or value.get("season") not in SEASON_CHOICES):
            return path, f"must be {_NOUNS[DATE]}, not {shown(value)}"
        return json_problem(value, path)
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
        raise DocumentError(table, doc_id, "", f"must be a document (a table of fields), not {shown(doc)}",
                            source)
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
        raise DocumentError(table, doc_id, "", "no schema describes this table (kernel/documents.py SCHEMAS), "
                            "so nothing may be written to it")
    validate_document(table, doc_id, doc)


# -- compiled fast predicates --------------------------------------------------------------------

class _Compiler:
    """Turns field specs into the source of small predicates; `env` holds what they refer to.

    `strict`: the predicate also refuses what JSON cannot hold faithfully (`json_faithful`), as
    the explaining checker does: for documents a command writes. A loaded save needs no such
    check (orjson reads only plain JSON), so its predicate skips the walk."""

    def __init__(self, strict: bool = False) -> None:
        self.env: dict[str, Any] = {"_LO": INT64_MIN, "_HI": INT64_MAX,
                                    "_SEASONS": tuple(SEASON_CHOICES), "_faithful": json_faithful,
                                    "_TEXT_ONLY": _TEXT_ONLY}
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
        elif kind == BOOL:
            test = f"type({v}) is bool"
        elif kind == INT:
            test = f"type({v}) is int and _LO <= {v} <= _HI"
        elif kind == NUMBER:
            test = f"((type({v}) is int and _LO <= {v} <= _HI) or (type({v}) is float and {v} - {v} == 0.0))"
        elif kind == DATE:
            test = f"type({v}) is dict and type({v}['year']) is int and {v}['season'] in _SEASONS"
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
        if spec.minimum is not None and kind in (INT, NUMBER):
            test = f"{test} and {v} >= {spec.minimum!r}"
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
    LOCALS = (", type=type, str=str, int=int, float=float, bool=bool, dict=dict, list=list, all=all, map=map, "
              "_LO=_LO, _HI=_HI, _SEASONS=_SEASONS")

    def record_source(self, fields: Mapping[str, Field]) -> str:
        """Fields by subscript (a missing required one raises KeyError), optional ones behind `in`:
        the cheapest lookups Python has, as this runs for every document of every save."""
        lines = [f"def check(d{self.LOCALS}):", "    if type(d) is not dict:", "        return False", "    try:"]
        for field_name, spec in sorted(fields.items(), key=lambda item: not item[1].required):
            test = f"        if not ({self.expr(spec, 'v')}):"
            if spec.required:
                lines += [f"        v = d[{field_name!r}]", test, "            return False"]
            else:
                lines += [f"        if {field_name!r} in d:", f"            v = d[{field_name!r}]", "    " + test,
                          "                return False"]
        if self.strict:  # the other fields: text keys and plain JSON, as `fields_problem` says
            known = self.name("n", frozenset(fields))
            lines += ["        for k in d:",
                      f"            if k not in {known} and (type(k) is not str or not _faithful(d[k])):",
                      "                return False"]
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


@functools.cache
def rules_fingerprint() -> str:
    """The version of the rules `validate_world` applies: this module's and the schemas' source, the
    schemas as built, and the JSON parser's version. A save vouched for under other rules (another
    yak) is validated again."""
    import orjson

    from yak_tui.kernel import documents

    digest = hashlib.sha256(f"orjson {orjson.__version__}\n{sorted(SCHEMAS.items())!r}".encode())
    for module_file in (__file__, documents.__file__):
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
