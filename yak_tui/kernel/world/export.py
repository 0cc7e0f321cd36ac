"""A world written back as TOML (`yak export --format toml`), in the format `yak new --from` loads.

TOML has no null: the writer lists each null by its path in the document's `nulls` key, so an
export loads back as an equal world (`worlds_equal`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import orjson

from yak_tui.kernel.errors import YakError
from yak_tui.kernel.world.authoring import AUTHORED_TABLES, COUNTER_KEYS, NULLS, STATE_KEYS
from yak_tui.kernel.world.documents import META, META_ID, SCHEMAS
from yak_tui.kernel.world.problems import json_problem

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


def _string(text: str) -> str:
    # JSON's escapes are TOML's, except DEL, which TOML wants escaped.
    return orjson.dumps(text).decode().replace("\x7f", "\\u007f")


def _key(name: str) -> str:
    return name if _BARE_KEY.match(name) else _string(name)


def _value(value: Any, path: list[str | int], nulls: list[list[str | int]]) -> str:
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        items = []
        for index, item in enumerate(value):
            if item is None:
                nulls.append([*path, index])
                items.append("{}")
            else:
                items.append(_value(item, [*path, index], nulls))
        return "[" + ", ".join(items) + "]"
    if isinstance(value, dict):
        pairs = []
        for key, item in value.items():
            if item is None:
                nulls.append([*path, key])
            else:
                pairs.append(f"{_key(key)} = {_value(item, [*path, key], nulls)}")
        return "{ " + ", ".join(pairs) + " }" if pairs else "{}"
    found = json_problem(value, ".".join(map(str, path)))
    raise YakError(f"cannot write {found[1] if found else type(value).__name__} as TOML")


def _null_entry(path: list[str | int]) -> str:
    if len(path) == 1 and isinstance(path[0], str):
        return _string(path[0])
    return "[" + ", ".join(_string(p) if isinstance(p, str) else str(p) for p in path) + "]"


def export_world(data: Mapping[str, Mapping[str, Any]]) -> str:
    """The world as a file `load_world_text` reads back to an equal world (the undo stack aside)."""
    meta = dict(data.get(META, {}).get(META_ID, {}))
    date = meta.get("date", {"year": 312, "season": "Spring"})
    out = [
        "# A yak_tui world, written by `yak export --format toml`.",
        "# Load it with `yak new campaign.json --from this-file.toml`; docs/world-format.md explains it.",
        "",
        "[world]",
        f"name = {_string(str(meta.get('name', 'world')))}",
        f"year = {date['year']}",
        f"season = {_string(date['season'])}",
    ]
    for key in ("map", "rules_overrides", "history", *STATE_KEYS):
        if key in meta:
            out.append(f"{key} = {_value(meta[key], [key], [])}")
    counters = {key: meta[key] for key in COUNTER_KEYS if key in meta}
    if counters:
        out.append(f"counters = {_value(counters, ['counters'], [])}")
    for table in AUTHORED_TABLES:
        keeps_id = "id" in SCHEMAS[table].fields
        for doc_id, doc in data.get(table, {}).items():
            nulls: list[list[str | int]] = []
            lines = [
                f"{_key(name)} = {_value(value, [name], nulls)}" for name, value in doc.items() if value is not None
            ]
            nulls.extend([name] for name, value in doc.items() if value is None)
            head = [] if keeps_id else [f"id = {_string(doc_id)}"]
            if nulls:
                head.append(f"{NULLS} = [" + ", ".join(_null_entry(path) for path in nulls) + "]")
            out += ["", f"[[{table}]]", *head, *lines]
    return "\n".join(out) + "\n"


def worlds_equal(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Equal worlds: every table equal, and the world settings equal but for the undo stack."""

    def without_undo(data: Mapping[str, Any]) -> dict[str, Any]:
        copy = {name: dict(docs) for name, docs in data.items() if docs}
        meta = dict(copy.get(META, {}).get(META_ID, {}))
        meta.pop("undo", None)
        copy[META] = {META_ID: meta}
        return copy

    return without_undo(a) == without_undo(b)
