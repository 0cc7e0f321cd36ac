"""The checks every world must pass when it is read, registered by the world layer.

The store does not know what a document looks like: the world layer appends its schema validation
here, and says which of its checks a vouch may stand for.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

# Checks every world must pass when it is read, fn(data) raising ValueError with a message that
# names the table, id and field. The world layer registers its schema validation here: the store
# does not know what a document looks like.
LOAD_CHECKS: list[Callable[[dict[str, Any]], None]] = []


@dataclass(frozen=True)
class Vouchable:
    """A load check a vouch may stand for (the schema validation: the costly one).

    `check` is the load check itself; `check_written(data, changed, checked)` checks only the
    documents a write changed ({table: [ids]}, the meta table always), as a reader applying them
    would, but for those the writer says it has already checked as they are (`checked`, or None);
    `rules` names the rules' version: a vouch made under other rules is not trusted."""

    check: Callable[[dict[str, Any]], None]
    check_written: Callable[[dict[str, Any], Mapping[str, list[str]], Mapping[str, list[str]] | None], None]
    rules: Callable[[], str]


VOUCHABLE: list[Vouchable] = []

# Load checks that read no log table (`files.LOG_TABLES`): a read may run them before it parses the
# logs (`WorldFile.read_deferring_logs`), and does so only when every check a vouch does not stand for
# is one of these.
HEAD_CHECKS: set[Callable[[dict[str, Any]], None]] = set()
