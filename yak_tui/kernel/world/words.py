"""A document's fields and values as a person reads them: "Tax taken: 1 → 0", "captured by Kingdom of
Sarn", "Winter 420", "goods 3, ducats 2" (never `tax_taken`, an id, a date record or JSON). The
history's diff (`yak diff`, the app's History) and the map's details panel read documents here."""

from __future__ import annotations

from typing import Any

import orjson

from yak_tui.kernel.world.documents import SCHEMAS
from yak_tui.kernel.world.fields import field_words
from yak_tui.kernel.world.model import TABLES, World
from yak_tui.kernel.world.money import shown_money


def field_refs(table: str, key: str) -> tuple[str, ...]:
    """The tables a document field names ids of (its schema's `ref`, or its items'), for its value in words."""
    schema = SCHEMAS.get(table)
    found = schema.fields.get(key) if schema is not None else None
    if found is not None and found.items is not None:
        found = found.items
    return found.ref_tables if found is not None else ()


def is_empty(value: Any) -> bool:
    """Nothing to read: none, "", an empty list or record."""
    return value is None or value == "" or value == [] or value == {}


def value_words(value: Any, world: World | None = None, refs: tuple[str, ...] = ()) -> str:
    """A field's value in words: a dash for none, yes or no, a document's name for its id (`refs`
    the tables it may name), a date as "Winter 420", a record as "goods 3, ducats 2", a list
    comma-separated."""
    if is_empty(value):
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return shown_money(value)
    if isinstance(value, str):
        table, sep, doc_id = value.partition(":")
        if world is not None and sep and table in TABLES and world.find(table, doc_id) is not None:
            return world.display_name(table, doc_id)  # a tagged reference (`kingdoms:elbreth`)
        if world is not None:
            for table in refs:
                if world.find(table, value) is not None:
                    return world.display_name(table, value)
        return value
    if isinstance(value, dict):
        if set(value) == {"year", "season"}:
            return f"{str(value['season']).capitalize()} {value['year']}"
        return ", ".join(f"{field_words(str(k)).lower()} {value_words(v, world)}" for k, v in value.items())
    if isinstance(value, list | tuple):
        return ", ".join(value_words(item, world, refs) for item in value)
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS).decode()


__all__ = ["field_refs", "field_words", "is_empty", "value_words"]
