"""The declarative schemas: one per table, well formed, describing what the demo world holds; and
the compiled load-time check agrees with the explaining checker on any document."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yak_tui.kernel.demo import build_world
from yak_tui.kernel.documents import INT64_MAX, INT64_MIN, KINDS, LIST, MAP, SCHEMAS, Field
from yak_tui.kernel.model import TABLES
from yak_tui.kernel.validation import FAST_CHECKS, DocumentError, fields_problem, validate_world

DEMO = build_world()


def test_every_table_has_a_schema() -> None:
    assert set(SCHEMAS) == set(TABLES)
    assert len(SCHEMAS) == 18


def _fields(spec: Field) -> list[Field]:
    nested = [*([spec.items] if spec.items else []), *([spec.values] if spec.values else []),
              *(spec.fields or {}).values()]
    return [spec, *(inner for field in nested for inner in _fields(field))]


def test_schemas_are_well_formed_and_described() -> None:
    for schema in SCHEMAS.values():
        assert schema.description and schema.id_description
        for spec in (inner for field in schema.fields.values() for inner in _fields(field)):
            assert spec.kind in KINDS and spec.description
            assert (spec.kind == LIST) == (spec.items is not None)
            assert (spec.kind == MAP) == (spec.values is not None)
            assert spec.ref is None or spec.ref in SCHEMAS


def test_the_demo_world_validates_and_every_field_it_holds_is_described() -> None:
    validate_world(DEMO)
    for table, docs in DEMO.items():
        for doc_id, doc in docs.items():
            known = SCHEMAS[table].fields
            assert set(doc) <= set(known), (table, doc_id, set(doc) - set(known))


JSON = st.recursive(st.none() | st.booleans() | st.integers(INT64_MIN, INT64_MAX)
                    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=5),
                    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=3),
                    max_leaves=8)
DOCUMENTS = [(table, doc_id) for table, docs in sorted(DEMO.items()) for doc_id in sorted(docs)]


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
UNFAITHFUL = st.sampled_from([float("nan"), float("inf"), -float("inf"), 2**64, -(2**63) - 1, (1, 2), {1: "a"},
                              {"k": float("nan")}, [float("inf")], b"bytes", {("t",): 1}])
WRITTEN = st.recursive(st.none() | st.booleans() | st.integers(INT64_MIN, INT64_MAX)
                       | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=5) | UNFAITHFUL,
                       lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner,
                                                                                     max_size=3),
                       max_leaves=8)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(DOCUMENTS), st.data())
def test_a_written_document_is_refused_exactly_when_the_explaining_checker_refuses_it(
        where: tuple[str, str], data: st.DataObject) -> None:
    """`validate_document` (and `validate_written`) take the compiled predicate and `json_faithful`
    for a quick yes; their verdict, and the words of a refusal, are the explaining checker's."""
    from yak_tui.kernel.validation import explain_document, validate_document, validate_written

    table, doc_id = where
    doc, path = _mutated(data, DEMO[table][doc_id], WRITTEN)
    if data.draw(st.booleans()):
        doc[data.draw(st.text(min_size=1, max_size=4).filter(lambda k: k not in SCHEMAS[table].fields))] = \
            data.draw(WRITTEN)

    def verdict(check: Any) -> str | None:
        try:
            check(table, doc_id, doc)
        except DocumentError as error:
            return str(error)
        return None

    explained = verdict(explain_document)
    assert verdict(validate_written) == explained, (table, doc_id, path)
    assert verdict(validate_document) == explained, (table, doc_id, path)
