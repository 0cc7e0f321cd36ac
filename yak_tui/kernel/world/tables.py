"""Loads the rules tables (`yak_tui/rules/tables/*.toml`) with tomllib.

A GM's override directory (`--rules DIR` or `YAK_RULES`) wins file by file and key by key. A list
of entries named by a key (`slug`, `id` or `name`: the espionage missions, say) merges entry by
entry: a house rule that lists one mission changes that mission's fields only, and a new slug
adds a mission; the other entries stay as the default table has them.

A campaign keeps its house rules in its save (`yak rules set DIR`: `meta.world.rules_overrides`,
one override per table). Every process that reads the save (CLI, app, SSH session) then uses
them, whatever `--rules` says: the saved overrides win over a house-rules directory.
"""

from __future__ import annotations

import copy
import math
import os
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any, NoReturn, TypeVar

from yak_tui.codecache import CodeCache, cache_path, keep
from yak_tui.kernel.errors import RulesError
from yak_tui.kernel.world.numbers import shown

TABLES_DIR = Path(__file__).parents[2] / "rules" / "tables"


class RulesTableError(RulesError):
    """A rules table is missing or malformed."""


ENTRY_KEYS = ("slug", "id", "name")  # what names an entry of a list, in this order of preference


def entry_key(entries: list[Any]) -> str | None:
    """The key every entry of `entries` is named by (text, unique), or None for a plain list."""
    if not entries or not all(isinstance(entry, dict) for entry in entries):
        return None
    for key in ENTRY_KEYS:
        names = [entry.get(key) for entry in entries]
        if all(isinstance(name, str) for name in names) and len(set(names)) == len(names):
            return key
    return None


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        elif isinstance(value, list) and isinstance(merged.get(key), list):
            merged[key] = _merge_entries(merged[key], value)
        else:
            merged[key] = value
    return merged


def _merge_entries(base: list[Any], override: list[Any]) -> list[Any]:
    """Named entries merge one by one (in the default's order, new names after); any other list
    is replaced whole."""
    key = entry_key(base)
    if key is None or not all(isinstance(item, dict) and isinstance(item.get(key), str) for item in override):
        return override
    changes = {item[key]: item for item in override}
    merged = [_merge(entry, changes.pop(entry[key])) if entry[key] in changes else entry for entry in base]
    return merged + [item for item in override if item[key] in changes]


# How deep a TOML file's arrays and tables may nest: the rules and world files nest a few levels; a
# file nested thousands deep is refused with this number, never a RecursionError.
MAX_TOML_DEPTH = 32


def toml_text(text: str) -> dict[str, Any]:
    """TOML text as data: a `tomllib.TOMLDecodeError` for bad TOML, including one nested deeper than
    `MAX_TOML_DEPTH` (tomllib itself recurses, and so does everything that reads the data after it)."""
    import tomllib  # imported when a TOML text is parsed: the stock tables come from `PARSED_TABLES`

    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise tomllib.TOMLDecodeError(f"it nests arrays or tables more than {MAX_TOML_DEPTH} deep") from None
    if nesting_depth(data) > MAX_TOML_DEPTH:
        raise tomllib.TOMLDecodeError(f"it nests arrays or tables more than {MAX_TOML_DEPTH} deep")
    return data


def nesting_depth(value: Any) -> int:
    """How deep lists and dicts nest in `value` (a scalar: 0), walked without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if isinstance(item, dict) else item if isinstance(item, list) else None
        if children is None:
            continue
        deepest = max(deepest, depth)
        if depth > MAX_TOML_DEPTH:
            return depth
        stack.extend((child, depth + 1) for child in children)
    return deepest


# The stock tables as tomllib parsed them, kept like bytecode by their text (issue 30): every `yak`
# that plays reads most of the seven tables, ~10 ms of CPU to parse and 2-3 ms to import tomllib.
# A table whose text changed is parsed again; a house file is always parsed.
PARSED_TABLES = CodeCache(cache_path("rules_tables"))


def _parse_stock_tables() -> None:
    for name in table_names():
        stock_table(name)


keep(PARSED_TABLES, _parse_stock_tables)


def _read(path: Path) -> dict[str, Any]:
    """A TOML file, or a RulesTableError that names it and says what is wrong."""
    stock = path.parent == TABLES_DIR
    label = f"rules table {path}" if stock else f"house rules {path}"
    if path.is_dir():
        raise RulesTableError(f"{label}: is a directory, not a TOML file")
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise RulesTableError(f"{label}: cannot be read ({error.strerror or error})") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RulesTableError(
            f"{label}: is not UTF-8 text (byte 0x{raw[error.start]:02x} at offset {error.start})"
        ) from None
    return PARSED_TABLES.value(text, lambda: _parsed(text, label)) if stock else _parsed(text, label)


def _parsed(text: str, label: str) -> dict[str, Any]:
    import tomllib

    try:
        return toml_text(text)
    except tomllib.TOMLDecodeError as error:
        raise RulesTableError(f"{label}: is not valid TOML: {error}") from None


# Tables a house rule may add entries to (a new commodity, a new title); anywhere else a key the
# default table lacks is refused, as it is most likely a typo that would silently change nothing.
EXTENSIBLE = {("economy", "commodities"), ("nobles", "titles")}
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1


def table_names() -> list[str]:
    return sorted(path.stem for path in TABLES_DIR.glob("*.toml"))


def check_override_dir(path: str) -> None:
    """Check every house-rules file in `path` against the default tables, at startup: each must
    be UTF-8 TOML named after a table, with only keys the table has and values of their types."""
    directory = Path(path)
    if not directory.is_dir():
        raise RulesTableError(f"house rules directory {path} (--rules or YAK_RULES): no such directory")
    names = table_names()
    for entry in sorted(directory.iterdir()):
        if entry.suffix != ".toml":
            continue
        if entry.stem not in names:
            raise RulesTableError(
                f"house rules {entry}: no rules table named {entry.stem!r} (tables: {', '.join(names)})"
            )
        override = _read(entry)
        _check_table(_read(TABLES_DIR / entry.name), override, _Where(f"house rules {entry}", entry.stem))


class _Where:
    """Where a value sits, for the error line: the file, the section or list entry, the field."""

    def __init__(self, label: str, table_name: str, container: str = "", extensible: bool = False) -> None:
        self.label = label
        self.table_name = table_name
        self.container = container  # "[outcome]", "missions[2] (slug 'fund-bandits')", ""
        self.extensible = extensible

    def inside(self, container: str, extensible: bool = False) -> _Where:
        return _Where(self.label, self.table_name, container, extensible)

    def refuse(self, field: str, reason: str) -> NoReturn:
        parts = [part for part in (self.container, f"field {field}" if field else "") if part]
        raise RulesTableError(f"{self.label}: {', '.join(parts)}: {reason}")


def _check_table(base: dict[str, Any], override: dict[str, Any], where: _Where, section: str = "") -> None:
    """The keys of a TOML table: each one the default table has (or a new entry of an extensible
    table, shaped like the others), with a value of the default's type."""
    for key, value in override.items():
        if key in base:
            _check_value(base[key], value, where, key, f"{section}.{key}" if section else key)
        elif where.extensible and base:
            siblings = list(base.values())
            if isinstance(value, dict) and all(isinstance(sibling, dict) for sibling in siblings):
                missing = sorted(set.intersection(*(set(sibling) for sibling in siblings)) - set(value))
                if missing:
                    where.inside(f"[{section}.{key}]").refuse(missing[0], "is required")
            _check_value(_shape(siblings), value, where, key, f"{section}.{key}")
        else:
            known = ", ".join(base) or "none"
            where.refuse(key, f"is not a key of this table (keys: {known})")


def _check_value(base: Any, value: Any, where: _Where, field: str, dotted: str) -> None:
    """`value` must have the shape of the default `base`."""
    if isinstance(base, dict):
        if not isinstance(value, dict):
            where.refuse(field, f"must be a table, not {shown(value)}")
        extensible = "." not in dotted and (where.table_name, dotted) in EXTENSIBLE
        _check_table(base, value, where.inside(f"[{dotted}]", extensible), dotted)
        return
    if isinstance(base, list):
        if not isinstance(value, list):
            where.refuse(field, f"must be a list, not {shown(value)}")
        shape = _shape(base) if base else None
        required = (
            set.intersection(*(set(item) for item in base))
            if base and all(isinstance(item, dict) for item in base)
            else set()
        )
        key = entry_key(base)
        named = {entry[key]: entry for entry in base} if key else {}
        for index, item in enumerate(value):
            entry = where.inside(_entry_name(dotted, index, item))
            if isinstance(shape, dict):
                if not isinstance(item, dict):
                    entry.refuse("", f"must be a table, not {shown(item)}")
                if key and isinstance(item.get(key), str) and item[key] in named:
                    # Changes to a named entry give only what changes.
                    _check_table({**shape, **named[item[key]]}, item, entry, dotted)
                    continue
                missing = sorted(required - set(item))
                if missing:
                    entry.refuse(missing[0], "is required")
                _check_table(shape, item, entry, dotted)
            else:
                _check_scalar(shape, item, entry, "")
        return
    _check_scalar(base, value, where, field)


def _check_scalar(base: Any, value: Any, where: _Where, field: str) -> None:
    """A number, text or flag of the default's type (None: any plain value); numbers finite and
    within 64 bits, as TOML allows `nan`, `inf` and huge integers."""
    if isinstance(value, (dict, list)):
        where.refuse(field, f"must be {_noun(base)}, not {shown(value)}")
    if isinstance(value, float) and not math.isfinite(value):
        where.refuse(field, f"must be a finite number, not {value}")
    if isinstance(value, int) and not isinstance(value, bool) and not INT64_MIN <= value <= INT64_MAX:
        where.refuse(field, f"is {shown(value)}, beyond 64 bits")
    if base is None:
        return
    if isinstance(base, bool):
        ok = isinstance(value, bool)
    elif isinstance(base, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(base, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
    else:
        ok = isinstance(value, type(base))
    if not ok:
        where.refuse(field, f"must be {_noun(base)}, not {shown(value)}")


def _shape(samples: list[Any]) -> Any:
    """One value with every key and list item the samples have: the template a new entry follows."""
    if all(isinstance(sample, dict) for sample in samples):
        keys: dict[str, list[Any]] = {}
        for sample in samples:
            for key, value in sample.items():
                keys.setdefault(key, []).append(value)
        return {key: _shape(values) for key, values in keys.items()}
    if all(isinstance(sample, list) for sample in samples):
        return [item for sample in samples for item in sample]
    floats = [sample for sample in samples if isinstance(sample, float)]
    return floats[0] if floats else samples[0]


def _entry_name(dotted: str, index: int, item: Any) -> str:
    name = f"{dotted}[{index + 1}]"
    if isinstance(item, dict):
        for key in ("slug", "id", "name"):
            if isinstance(item.get(key), str):
                return f"{name} ({key} {item[key]!r})"
    return name


def _noun(base: Any) -> str:
    if base is None:
        return "a plain value"
    if isinstance(base, bool):
        return "true or false"
    if isinstance(base, int):
        return "a whole number"
    if isinstance(base, float):
        return "a number"
    if isinstance(base, str):
        return "text"
    return "a list" if isinstance(base, list) else "a table"


# The overrides of the save being played (`meta.world.rules_overrides`), None when it has none.
_saved: dict[str, Any] | None = None


@cache
def _load(name: str, override_dir: str | None) -> dict[str, Any]:
    path = TABLES_DIR / f"{name}.toml"
    if not path.exists():
        raise RulesTableError(f"no rules table named {name!r} in {TABLES_DIR}")
    data = _read(path)
    if _saved is not None:
        if isinstance(_saved.get(name), dict):
            data = _merge(data, _saved[name])
    elif override_dir:
        override = Path(override_dir) / f"{name}.toml"
        if override.exists():
            data = _merge(data, _read(override))
    return data


def stock_table(name: str) -> dict[str, Any]:
    """The default table `name`, without any house rule."""
    return _read(TABLES_DIR / f"{name}.toml")


def read_override_dir(path: str) -> dict[str, dict[str, Any]]:
    """The house rules in `path`, checked as `--rules` checks them: {table name: its override}."""
    check_override_dir(path)
    return {entry.stem: _read(entry) for entry in sorted(Path(path).iterdir()) if entry.suffix == ".toml"}


def use_saved_rules(overrides: Mapping[str, Any] | None) -> None:
    """Play by the overrides a save keeps (None or empty: it keeps none, `--rules` applies)."""
    global _saved
    wanted = copy.deepcopy(dict(overrides)) if overrides else None
    if wanted != _saved:
        _saved = wanted
        _load.cache_clear()


def saved_rules() -> dict[str, Any] | None:
    """The save's overrides in use now (None: none)."""
    return copy.deepcopy(_saved)


def house_rules_dir() -> str | None:
    """The house-rules directory given by `--rules` or YAK_RULES (ignored while a save's own apply)."""
    return os.environ.get("YAK_RULES") or None


def _apply_saved_rules(data: dict[str, Any]) -> None:
    """Load hook: a save's own house rules apply from the moment any process reads it."""
    meta = (data.get("meta") or {}).get("world") or {}
    overrides = meta.get("rules_overrides")
    use_saved_rules(overrides if isinstance(overrides, dict) else None)


def _register_load_hook() -> None:
    from yak_tui.store import checks

    if _apply_saved_rules not in checks.LOAD_CHECKS:
        checks.LOAD_CHECKS.append(_apply_saved_rules)
        checks.HEAD_CHECKS.add(_apply_saved_rules)  # it reads the meta table only


_register_load_hook()


def _flatten(value: Any, path: str, out: dict[str, Any]) -> None:
    """Every leaf of a table by its dotted path; named entries of a list by `list[name]`."""
    if isinstance(value, dict):
        for key, item in value.items():
            _flatten(item, f"{path}.{key}" if path else key, out)
        return
    if isinstance(value, list):
        key = entry_key(value)
        if key is not None:
            for entry in value:
                _flatten(entry, f"{path}[{entry[key]}]", out)
            return
    out[path] = value


def _override_paths(base: Any, override: Any, path: str, out: set[str]) -> None:
    """The leaf paths an override sets (a plain list, or a new entry, counts whole)."""
    leaves: dict[str, Any] = {}
    if isinstance(override, dict):
        for key, item in override.items():
            _override_paths(
                base.get(key) if isinstance(base, dict) else None, item, f"{path}.{key}" if path else key, out
            )
        return
    if isinstance(override, list) and isinstance(base, list):
        key = entry_key(base)
        if key is not None and all(isinstance(item, dict) and isinstance(item.get(key), str) for item in override):
            named = {entry[key]: entry for entry in base}
            for item in override:
                entry = named.get(item[key])
                # The name of an entry the default has only says which entry changes.
                changes = {k: v for k, v in item.items() if k != key} if entry is not None else item
                _override_paths(entry or {}, changes, f"{path}[{item[key]}]", out)
            return
    _flatten(override, path, leaves)
    out.update(leaves or {path})


def rules_listing() -> list[dict[str, Any]]:
    """Every effective rules value, with where it comes from: `stock`, `house file` (the
    `--rules` directory) or `saved override` (the save's own)."""
    rows: list[dict[str, Any]] = []
    directory = house_rules_dir()
    for name in table_names():
        stock = stock_table(name)
        changed: set[str] = set()
        if _saved is not None:
            source = "saved override"
            if isinstance(_saved.get(name), dict):
                _override_paths(stock, _saved[name], "", changed)
        else:
            source = "house file"
            house = Path(directory) / f"{name}.toml" if directory else None
            if house is not None and house.exists():
                _override_paths(stock, _read(house), "", changed)
        effective: dict[str, Any] = {}
        _flatten(table(name), "", effective)
        for key, value in effective.items():
            rows.append({"table": name, "key": key, "value": value, "source": source if key in changed else "stock"})
    return rows


def table(name: str) -> dict[str, Any]:
    """The merged table `name` (a fresh top-level dict; nested values are shared, do not mutate)."""
    return dict(_load(name, os.environ.get("YAK_RULES") or None))


def set_override_dir(path: str | None) -> None:
    """Point every later lookup at a house-rules directory (the CLI's `--rules`)."""
    if path is None:
        os.environ.pop("YAK_RULES", None)
    else:
        check_override_dir(path)
        os.environ["YAK_RULES"] = str(path)
    _load.cache_clear()


# Checks an area makes of its own tables beyond their shape (every mission has code that handles
# it, the season order names what the code registers), by a name that orders them. Registered when
# the area's package is imported; `check_tables` runs them under the rules in use.
TABLE_CHECKS: dict[str, Callable[[], object]] = {}
Check = TypeVar("Check", bound=Callable[[], object])


def table_check(name: str) -> Callable[[Check], Check]:
    def wrap(check: Check) -> Check:
        TABLE_CHECKS[name] = check
        return check

    return wrap


def check_tables() -> None:
    """Load every table, then run every registered check, in the order of their names (a
    RulesTableError says what is wrong); the callers load the areas first, as a command does."""
    for name in table_names():
        table(name)
    for name in sorted(TABLE_CHECKS):
        TABLE_CHECKS[name]()
