"""A document as a form, generated from its table's schema (`yak_tui.kernel.world.documents.SCHEMAS`).

One field per schema field, drawn by the kit's `ParamForm`: text and numbers are Inputs, a closed
list (the field's choices, or the documents of the table it names) is a Select, a flag is a
Switch, and the shapes a line cannot hold (dates, lists, tables) are their JSON. The form turns
what was typed into the GM commands' parameters: one `gm-set` per changed field, or the JSON
fields of a `gm-add`. It judges nothing itself: the commands validate against the same schema.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson

from yak_tui.kernel.play.views import Choice, ParamField, Problem
from yak_tui.kernel.world.documents import SCHEMAS
from yak_tui.kernel.world.fields import BOOL, INT, NUMBER, TEXT, Field
from yak_tui.kernel.world.model import World

PARAM_KINDS = {TEXT: "str", INT: "int", NUMBER: "float", BOOL: "bool"}
MAX_OPTIONS = 400  # a Select longer than this is no help: the id is typed instead


def field_text(spec: Field, value: Any) -> str:
    """A stored value as the form shows it (and as `gm-set` reads it back)."""
    if spec.kind == BOOL:
        return "true" if value else "false"  # an absent flag reads as off, as the Switch shows it
    if value is None:
        return ""
    if spec.kind == TEXT and isinstance(value, str):
        return value
    if spec.kind in (INT, NUMBER) and isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(int(value)) if isinstance(value, float) and value.is_integer() else repr(value)
    return orjson.dumps(value).decode()


def _options(world: World, spec: Field, current: Any) -> tuple[Choice, ...]:
    if spec.kind != TEXT:
        return ()
    options: tuple[Choice, ...] = ()
    if spec.choices:
        options = tuple(Choice(choice, choice) for choice in spec.choices)
    elif isinstance(spec.ref, str) and world.has_table(spec.ref) and len(world.table(spec.ref)) <= MAX_OPTIONS:
        options = tuple(
            Choice(doc_id, f"{world.display_name(spec.ref, doc_id)} ({doc_id})")
            for doc_id in sorted(world.table(spec.ref))
        )
    if options and isinstance(current, str) and current and current not in {o.value for o in options}:
        options = (Choice(current, f"{current} (as stored)"), *options)  # a Select must not drop it on save
    return options


def _help(spec: Field) -> str:
    if spec.kind in PARAM_KINDS:
        return spec.description
    return f"{spec.description} (JSON)"


def document_fields(world: World, table: str, doc: Mapping[str, Any] | None = None) -> tuple[ParamField, ...]:
    """The form's fields for a document of `table` (`doc`: the one being edited), in the schema's order."""
    doc = doc or {}
    return tuple(
        ParamField(
            name,
            PARAM_KINDS.get(spec.kind, "str"),
            spec.required,
            "",
            _help(spec),
            _options(world, spec, doc.get(name)),
        )
        for name, spec in SCHEMAS[table].fields.items()
    )


def document_texts(table: str, doc: Mapping[str, Any]) -> dict[str, str]:
    """The document's values as the form shows them, by field (absent fields: empty)."""
    return {name: field_text(spec, doc.get(name)) for name, spec in SCHEMAS[table].fields.items()}


def set_params(table: str, doc_id: str, before: Mapping[str, str], after: Mapping[str, str]) -> list[dict[str, str]]:
    """One `gm-set` per field whose text changed; an emptied field is cleared."""
    params: list[dict[str, str]] = []
    for name, spec in SCHEMAS[table].fields.items():
        old, new = before.get(name, ""), after.get(name, "")
        if old == new:
            continue
        if new == "" and (spec.kind != TEXT or spec.nullable or not spec.required):
            params.append({"table": table, "id": doc_id, "field": name, "clear": "true"})
        else:
            params.append({"table": table, "id": doc_id, "field": name, "value": new})
    return params


def new_document(table: str, texts: Mapping[str, str]) -> tuple[dict[str, Any], Problem | None]:
    """The fields of a new document from the form's texts (empty ones left out), for `gm-add`;
    a value that is not JSON where the field wants a number, a flag or a shape is a problem."""
    doc: dict[str, Any] = {}
    for name, spec in SCHEMAS[table].fields.items():
        text = texts.get(name, "").strip()
        if spec.kind == BOOL and text == "false" and not spec.required:
            continue
        if not text:
            if spec.required and spec.nullable:
                doc[name] = None  # it must be there, and may be none
            continue
        if spec.kind == TEXT:
            doc[name] = text
            continue
        try:
            doc[name] = orjson.loads(text)
        except orjson.JSONDecodeError:
            kind = {INT: "a whole number", NUMBER: "a number"}.get(spec.kind, f"JSON for a {spec.kind} field")
            return doc, Problem(name, f"must be {kind}, not {text!r}")
    return doc, None


def field_problem(table: str, problem: Problem, field: str | None = None) -> Problem:
    """A command's refusal as the form's: the field it names (`potentials.trade`, `hex[0]`), or the
    field being set when the command speaks of its own parameters (`value`, `clear`)."""
    head = problem.field.split(".", 1)[0].split("[", 1)[0]
    if head in SCHEMAS[table].fields:
        return problem._replace(field=head)
    if field is not None and problem.field in ("value", "clear", "field"):
        return problem._replace(field=field)
    return problem
