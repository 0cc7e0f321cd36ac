"""The season-cycle verbs of `yak`: `verify` (the dice ledger). Kept apart from
`yak_tui.cli.commands` so each verb's parser and handler sit together."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any

from yak_tui.cli import GlobalOptions, emit, save_path
from yak_tui.kernel.errors import YakError
from yak_tui.store.storage import StoreError, WorldFile


def add_season_parsers(sub: Any) -> None:
    """The season verbs' sub-parsers (called by `yak_tui.cli.build_parser`)."""
    sub.add_parser("verify", help="check the dice ledger of the save and its backups (exit 1 if a link is broken)")


def _read_any(path: Path) -> dict[str, dict[str, Any]] | None:
    """A save or backup as data (migrated), or None if it cannot be read as one."""
    from yak_tui.store.migrations import migrate
    from yak_tui.store.storage import SCHEMA_VERSION, decode_save

    try:
        return migrate(decode_save(path, path.read_bytes()), SCHEMA_VERSION, path)
    except (OSError, YakError):
        return None


def verb_verify(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.kernel.dicechain import verify_files

    save = WorldFile(save_path(opts))
    if not save.exists():
        raise StoreError(f"no save at {save.path}; create one with `yak new {save.path} --demo`")
    data = save.read()
    result = verify_files(data, save.path.name, ((path, _read_any(path)) for path in save.backups()))
    main = result.reports[0]
    lines = [f"{main.name}: {main.records} dice records"
             + (f", {main.undone} of them undone (kept in the ledger)" if main.undone else "")
             + (f"; {main.before_chain} older rolls from before the ledger, not chained" if main.before_chain else ""),
             f"backups checked: {len(result.reports) - 1}"]
    first = result.first_broken
    if first is None:
        lines.append("the dice ledger holds: every link checks")
    else:
        lines.append(f"BROKEN: {first.line()}")
        problems = sum(len(r.broken) for r in result.reports) + len(result.forks)
        if problems > 1:
            lines.append(f"({problems - 1} more problems; --json lists them all)")
    emit(opts, result.to_dict(), "\n".join(lines))
    return 0 if result.ok else 1


SEASON_VERBS: dict[str, Callable[[GlobalOptions, argparse.Namespace], int]] = {
    "verify": verb_verify,
}
