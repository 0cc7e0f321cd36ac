"""The field-by-field reference of the world format (docs/world-format.md), generated from the schemas."""

from __future__ import annotations

from yak_tui.kernel.world.authoring import AUTHORED_TABLES
from yak_tui.kernel.world.documents import SCHEMAS
from yak_tui.kernel.world.fields import DATE, INT, LIST, MAP, NUMBER, RECORD, Field

_KIND_WORDS = {
    "text": "text",
    "int": "whole number",
    "number": "number",
    "bool": "true/false",
    "date": "date `{ year, season }`",
    "list": "list",
    "record": "table",
    "map": "table",
    "json": "any",
}


def _describe(spec: Field) -> str:
    kind = _KIND_WORDS[spec.kind]
    if spec.kind == LIST and spec.items is not None:
        kind = f"list of {_describe(spec.items)}"
    elif spec.kind == MAP and spec.values is not None:
        kind = f"table of {_describe(spec.values)}"
    if spec.ref and spec.tagged:
        kind += f" ({' or '.join(f'{table}:<id>' for table in spec.ref_tables)})"
    elif spec.ref:
        kind += (
            f" (an id of {' or '.join(spec.ref_tables)}{', or ' + ' / '.join(spec.besides) if spec.besides else ''}"
            f"{'; it may name one since removed' if spec.history else ''})"
        )
    if spec.choices:
        kind += ": " + " / ".join(spec.choices)
    if spec.kind in (INT, NUMBER, DATE):
        if spec.minimum is not None and spec.maximum is not None and spec.minimum <= -(2**63):
            kind += ", any 64-bit integer"
        elif spec.minimum is not None and spec.maximum is not None:
            kind += f", {spec.minimum:g} to {spec.maximum:g}"
        elif spec.minimum is not None:
            kind += f", at least {spec.minimum:g}"
        elif spec.maximum is not None:
            kind += f", at most {spec.maximum:g}"
    return kind


def format_reference() -> str:
    """Markdown: every table of a world file and every field, from the one schema."""
    out: list[str] = []
    for table in AUTHORED_TABLES:
        schema = SCHEMAS[table]
        out += [
            f"### `[[{table}]]`",
            "",
            f"{schema.description} `id`: {schema.id_description}.",
            "",
            "| field | required | holds | meaning |",
            "| --- | --- | --- | --- |",
        ]
        for name, spec in schema.fields.items():
            need = (
                "yes" + (" (or `nulls`)" if spec.nullable else "")
                if spec.required
                else ("no (may be in `nulls`)" if spec.nullable else "no")
            )
            meaning = spec.description.replace("|", "/")
            if spec.kind == RECORD and spec.fields:
                meaning += "; keys: " + ", ".join(f"`{key}`" for key in spec.fields)
            out.append(f"| `{name}` | {need} | {_describe(spec).replace('|', '/')} | {meaning} |")
        out.append("")
    return "\n".join(out)
