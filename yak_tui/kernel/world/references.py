"""References between documents: every field that names another document must name one that exists.

Checked over a whole world on load, and over just what a command wrote before it writes; the tables
each table's references can reach are worked out once from the schemas.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from yak_tui.kernel.world.documents import SCHEMAS
from yak_tui.kernel.world.fields import (
    LIST,
    MAP,
    RECORD,
    TEXT,
    Field,
)
from yak_tui.kernel.world.problems import DocumentError, join_path

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
                    yield from references(inner, item, join_path(path, key), history=history)
    elif kind == MAP and type(value) is dict and spec.values is not None:
        for key, item in value.items():
            yield from references(spec.values, item, join_path(path, key), history=history)


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
