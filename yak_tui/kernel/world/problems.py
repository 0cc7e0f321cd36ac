"""The explaining checker: what is wrong with a value, in the words a refusal gives.

It names the table, the id and the field, holds every number to its field's range (`Field.low`/
`high`) and every text free of the characters that reorder or hide text (`hidden_character`),
and refuses what JSON cannot hold faithfully. The compiled predicates (`compiled_checks`) are the
fast path; a document they reject is walked again here.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from yak_tui.kernel.errors import ValidationError, YakError
from yak_tui.kernel.world.documents import SEASON_CHOICES
from yak_tui.kernel.world.fields import (
    BOOL,
    DATE,
    INT,
    INT64_MAX,
    INT64_MIN,
    JSON,
    LIST,
    MAP,
    NUMBER,
    RECORD,
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


def join_path(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


TEXT_ONLY = {str}
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


def plain_text(text: str) -> bool:
    return _hidden(text) is None


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
        if value and set(map(type, value)) != TEXT_ONLY:  # the keys' types, gathered in C
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
            found = json_problem(item, join_path(path, key))
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
        found = number_problem(spec, value["year"], join_path(path, "year"))
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
                return join_path(path, key), f"is not one of {', '.join(spec.choices)}"
            found = problem(spec.values, item, join_path(path, key))
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
            found = problem(spec, doc[name], join_path(path, name))
            if found:
                return found
        elif spec.required:
            return join_path(path, name), "is required"
    for name, value in doc.items():
        if type(name) is not str:
            return path, f"has a key {shown(name)} that is not text"
        if name not in fields:
            found = json_problem(value, join_path(path, name))
            if found:
                return found
    return None
