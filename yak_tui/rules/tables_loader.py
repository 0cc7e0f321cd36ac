"""Loads the rules tables (`yak_tui/rules/tables/*.toml`) with tomllib.

A GM's override directory (`--rules DIR` or `YAK_RULES`) wins file by file and key by key.
"""

from __future__ import annotations

import os
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

TABLES_DIR = Path(__file__).parent / "tables"


class RulesTableError(ValueError):
    """A rules table is missing or malformed."""


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    merged = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


def _read(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as error:
        raise RulesTableError(f"rules table {path} is not valid TOML: {error}") from None


@cache
def _load(name: str, override_dir: str | None) -> dict[str, Any]:
    path = TABLES_DIR / f"{name}.toml"
    if not path.exists():
        raise RulesTableError(f"no rules table named {name!r} in {TABLES_DIR}")
    data = _read(path)
    if override_dir:
        override = Path(override_dir) / f"{name}.toml"
        if override.exists():
            data = _merge(data, _read(override))
    return data


def table(name: str) -> dict[str, Any]:
    """The merged table `name` (a fresh top-level dict; nested values are shared, do not mutate)."""
    return dict(_load(name, os.environ.get("YAK_RULES") or None))


def set_override_dir(path: str | None) -> None:
    """Point every later lookup at a house-rules directory (the CLI's `--rules`)."""
    if path is None:
        os.environ.pop("YAK_RULES", None)
    else:
        if not Path(path).is_dir():
            raise RulesTableError(f"--rules {path}: no such directory")
        os.environ["YAK_RULES"] = str(path)
    _load.cache_clear()
