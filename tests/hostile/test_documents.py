"""The declarative schemas: one per table, well formed, describing what the demo world holds; and
the compiled load-time check agrees with the explaining checker on any document."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yak_tui.kernel.world.compiled_checks import FAST_CHECKS
from yak_tui.kernel.world.demo import build_world
from yak_tui.kernel.world.documents import SCHEMAS
from yak_tui.kernel.world.fields import INT64_MAX, INT64_MIN, KINDS, LIST, MAP, Field
from yak_tui.kernel.world.model import TABLES
from yak_tui.kernel.world.problems import DocumentError, fields_problem
from yak_tui.kernel.world.validation import validate_world

DEMO = build_world()


def test_every_table_has_a_schema() -> None:
    assert set(SCHEMAS) == set(TABLES)
    assert len(SCHEMAS) == 18


def _fields(spec: Field) -> list[Field]:
    nested = [
        *([spec.items] if spec.items else []),
        *([spec.values] if spec.values else []),
        *(spec.fields or {}).values(),
    ]
    return [spec, *(inner for field in nested for inner in _fields(field))]


def test_schemas_are_well_formed_and_described() -> None:
    for schema in SCHEMAS.values():
        assert schema.description and schema.id_description
        for spec in (inner for field in schema.fields.values() for inner in _fields(field)):
            assert spec.kind in KINDS and spec.description
            assert (spec.kind == LIST) == (spec.items is not None)
            assert (spec.kind == MAP) == (spec.values is not None)
            assert all(table in SCHEMAS for table in spec.ref_tables)
            assert (spec.ref is not None) == bool(spec.ref_tables) and (spec.ref is None or spec.kind == "text")
            assert not (spec.tagged or spec.history) or spec.ref is not None


def test_the_demo_world_validates_and_every_field_it_holds_is_described() -> None:
    validate_world(DEMO)
    for table, docs in DEMO.items():
        for doc_id, doc in docs.items():
            known = SCHEMAS[table].fields
            assert set(doc) <= set(known), (table, doc_id, set(doc) - set(known))


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(INT64_MIN, INT64_MAX)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)
DOCUMENTS = [(table, doc_id) for table, docs in sorted(DEMO.items()) for doc_id in sorted(docs)]


def _verdict(check: Any, table: str, doc_id: str, doc: Any) -> str | None:
    """What `check` says of the document: None, or the words of its refusal."""
    try:
        check(table, doc_id, doc)
    except DocumentError as error:
        return str(error)
    return None


def _by_kind(spec: Field) -> st.SearchStrategy[Any]:
    """Values shaped like `spec` (a date, a table, a list of its items...) with anything a command
    might write inside, faithful to JSON or not."""
    from yak_tui.kernel.world.documents import SEASON_CHOICES
    from yak_tui.kernel.world.fields import DATE, RECORD

    if spec.kind == DATE:
        return st.fixed_dictionaries(
            {"year": st.integers(-(2**70), 2**70) | WRITTEN, "season": st.sampled_from(SEASON_CHOICES) | WRITTEN},
            optional={"extra": WRITTEN},
        )
    if spec.kind == MAP:
        assert spec.values is not None
        keys = st.text(max_size=4) | st.integers(0, 3) | st.sampled_from(sorted(spec.choices or ("k",)))
        return st.dictionaries(keys, _by_kind(spec.values) | WRITTEN, max_size=3)
    if spec.kind == LIST:
        assert spec.items is not None
        return st.lists(_by_kind(spec.items) | WRITTEN, max_size=3)
    if spec.kind == RECORD:
        fields = spec.fields or {}
        return st.fixed_dictionaries(
            {}, optional={**{name: _by_kind(inner) for name, inner in fields.items()}, "extra": WRITTEN}
        )
    return WRITTEN


def _mutated(data: st.DataObject, original: dict[str, Any], values: st.SearchStrategy[Any]) -> tuple[Any, list[Any]]:
    """A copy of `original` with one field (or one nested value) replaced by a drawn value, or
    dropped; and the path to it."""
    doc: Any = copy.deepcopy(original)
    target = doc
    path = [data.draw(st.sampled_from(sorted(doc)))]
    while isinstance(target[path[-1]], (dict, list)) and target[path[-1]] and data.draw(st.booleans()):
        target = target[path[-1]]
        path.append(data.draw(st.sampled_from(sorted(target) if isinstance(target, dict) else range(len(target)))))
    if data.draw(st.booleans()) or not isinstance(target, dict):
        target[path[-1]] = data.draw(values)
    else:
        del target[path[-1]]
    return doc, path


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(DOCUMENTS), st.data())
def test_the_fast_check_agrees_with_the_explaining_one(where: tuple[str, str], data: st.DataObject) -> None:
    table, doc_id = where
    doc, path = _mutated(data, DEMO[table][doc_id], JSON)
    fast = FAST_CHECKS[table](doc)
    schema = SCHEMAS[table].fields
    slow = fields_problem(schema, doc)
    assert fast == (slow is None), (table, doc_id, path, slow)
    if slow is not None:
        try:
            validate_world({**DEMO, table: {**DEMO[table], doc_id: doc}}, "w.json")
        except DocumentError as error:
            assert error.table == table and error.doc_id == doc_id and error.path == slow[0]
        else:
            raise AssertionError("an invalid document was accepted")


# What a command may put in a document: JSON and what JSON cannot hold faithfully.
UNFAITHFUL = st.sampled_from(
    [
        float("nan"),
        float("inf"),
        -float("inf"),
        2**64,
        -(2**63) - 1,
        (1, 2),
        {1: "a"},
        {"k": float("nan")},
        [float("inf")],
        b"bytes",
        {("t",): 1},
        {"year": 2**70, "season": "Spring"},  # a date: a year beyond 64 bits
        {"year": 312, "season": "Spring", "note": float("nan")},  # a date, an odd extra
        {"a": 1, 2: "b"},
        [{"k": [2**65]}],
    ]
)
WRITTEN = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(INT64_MIN, INT64_MAX)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=5)
    | UNFAITHFUL,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
    max_leaves=8,
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(DOCUMENTS), st.data())
def test_a_written_document_is_refused_exactly_when_the_explaining_checker_refuses_it(
    where: tuple[str, str], data: st.DataObject
) -> None:
    """`validate_document` (and `validate_written`) take the strict compiled predicate
    (`WRITE_CHECKS`) for a quick yes; their verdict, and the words of a refusal, are the explaining
    checker's."""
    from yak_tui.kernel.world.validation import explain_document, validate_document, validate_written

    table, doc_id = where
    doc, path = _mutated(data, DEMO[table][doc_id], WRITTEN)
    if data.draw(st.booleans()):
        doc[data.draw(st.text(min_size=1, max_size=4).filter(lambda k: k not in SCHEMAS[table].fields))] = data.draw(
            WRITTEN
        )

    if data.draw(st.booleans()):  # a field of the schema (present in the demo or not), by its kind
        name = data.draw(st.sampled_from(sorted(SCHEMAS[table].fields)))
        doc[name] = data.draw(_by_kind(SCHEMAS[table].fields[name]))

    explained = _verdict(explain_document, table, doc_id, doc)
    assert _verdict(validate_written, table, doc_id, doc) == explained, (table, doc_id, path)
    assert _verdict(validate_document, table, doc_id, doc) == explained, (table, doc_id, path)


# Shapes a command might write where the schema leaves values open or keyed by free text.
ODD_VALUES: list[Any] = [
    float("nan"),
    float("inf"),
    2**64,
    (1, 2),
    b"x",
    {1: "a"},
    {1: 2},
    {"k": float("nan")},
    {"k": [2**65]},
    {"year": 2**70, "season": "Spring"},
    {"year": 312, "season": "Spring", "note": float("inf")},
    [float("nan")],
    "text",
    3,
    None,
]


def _open_fields(fields: dict[str, Field], path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Paths of the fields whose values the schema keys by free text, leaves open or dates."""
    from yak_tui.kernel.world.fields import DATE, JSON, RECORD

    found = []
    for name, spec in fields.items():
        here = (*path, name)
        if spec.kind in (MAP, JSON, DATE):
            found.append(here)
        if spec.kind == RECORD and spec.fields:
            found += _open_fields(spec.fields, here)
    return found


def test_every_open_field_of_every_table_is_refused_as_the_explaining_checker_refuses_it(table: Any) -> None:
    """Each table's documents as a season of commands writes them (every table has one), each field
    the schema leaves open (a table of anything, a date, free JSON) set to shapes JSON cannot hold
    faithfully and to plain ones: `validate_document` says what the explaining checker says."""
    import asyncssh

    from yak_tui.kernel.play.dice import ScriptedDice
    from yak_tui.kernel.play.identity import Identity
    from yak_tui.kernel.season.session import advance_season
    from yak_tui.kernel.world.model import World
    from yak_tui.kernel.world.validation import explain_document, validate_document

    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode()
    table.run("gm", "user-add", name="corvin", identity="player:corvin", key=key)
    table.run("gm", "note", text="a note")
    table.run("gm", "roll", dice=[4], reason="Storm the gate", modifier="1")
    table.run("player:silas", "spy-order", mission="create-security-breach", target="elbreth")
    table.run("gm", "season-deadline", at="2026-12-07 20:00")
    advance_season(table.save, Identity.parse("gm"), ScriptedDice([3] * 40))
    world = World(table.save.read())
    checked = 0
    for name, schema in sorted(SCHEMAS.items()):
        docs = world.data.get(name) or {}
        if not docs:
            continue
        doc_id, base = next(iter(sorted(docs.items())))
        for path in _open_fields(schema.fields):
            for odd in ODD_VALUES:
                doc = copy.deepcopy(base)
                target = doc
                for step in path[:-1]:
                    target = target.setdefault(step, {}) if isinstance(target.get(step), dict) else target
                target[path[-1]] = odd
                assert _verdict(validate_document, name, doc_id, doc) == _verdict(
                    explain_document, name, doc_id, doc
                ), (name, path, odd)
                checked += 1
    assert checked > 100
