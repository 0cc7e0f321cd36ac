"""`yak rules set DIR | show [TABLE] [--changed] | clear`: the house rules a campaign keeps in its save.

Which rules apply: the save's own overrides when it keeps any (`yak rules set`); otherwise the
`--rules DIR` / YAK_RULES directory; otherwise the stock tables. A `--rules` given for a save
that keeps its own is ignored, with a warning on stderr that says so.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

import orjson

from yak_tui.cli.session import GlobalOptions, emit, identity_of, open_save, save_path
from yak_tui.kernel.errors import UsageError
from yak_tui.store.storage import WorldFile


def add_rules_parser(sub: Any) -> None:
    rules = sub.add_parser("rules", help="the house rules this save plays by (set DIR, show, clear)")
    actions = rules.add_subparsers(dest="rules_verb", metavar="ACTION")
    set_ = actions.add_parser("set", help="keep the house rules of DIR in the save (GM)")
    set_.add_argument("dir", help="a house-rules directory, as for --rules")
    show = actions.add_parser("show", help="every effective rules value and where it comes from")
    show.add_argument("table", nargs="?", help="only this table")
    show.add_argument("--changed", action="store_true", help="only the values a house rule changes")
    actions.add_parser("clear", help="drop the house rules kept in the save (GM)")


def _read_save(opts: GlobalOptions) -> WorldFile | None:
    """The save, read once so that its own rules apply (None when there is none yet)."""
    save = WorldFile(save_path(opts))
    if not save.exists():
        return None
    save.read()
    return save


def warn_if_saved_rules_win(opts: GlobalOptions, args: argparse.Namespace) -> None:
    """`--rules DIR` on a save that keeps its own house rules: the saved ones win, say so."""
    directory = os.environ.get("YAK_RULES") or None  # `tables.house_rules_dir`, without importing tomllib
    if directory:
        from yak_tui.kernel.world.tables import house_rules_dir

        directory = house_rules_dir()
    if (
        not directory
        or args.verb in (None, "new", "resolve")
        or (args.verb == "rules" and args.rules_verb in ("set", "clear"))
    ):
        return
    save = WorldFile(save_path(opts))
    if not save.exists():
        return
    meta = save.read()["meta"]["world"]
    if meta.get("rules_overrides"):
        source = meta.get("rules_source") or "yak rules set"
        sys.stderr.write(
            f"yak: warning: --rules {directory} is ignored: this save keeps its own house rules "
            f"(from {source}; see `yak rules show`). `yak rules set {directory}` replaces them, "
            "`yak rules clear` drops them.\n"
        )


def verb_rules(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.kernel.play.commands import run_command
    from yak_tui.kernel.world.model import World
    from yak_tui.kernel.world.tables import house_rules_dir, read_override_dir, rules_listing, saved_rules

    if args.rules_verb in ("set", "clear"):
        save = open_save(opts)
        identity = identity_of(opts, World.load(save))
        if args.rules_verb == "set":
            tables = read_override_dir(args.dir)
            result = run_command(
                save, identity, "rules-set", {"tables": orjson.dumps(tables).decode(), "source": str(args.dir)}
            )
        else:
            result = run_command(save, identity, "rules-clear", {})
        emit(
            opts,
            {"command": f"rules-{args.rules_verb}", **result.data},
            "\n".join(e["text"] for e in result.shown or []),
        )
        return 0
    if args.rules_verb not in (None, "show"):
        raise UsageError(f"rules: unknown action {args.rules_verb!r} (set, show, clear)")
    existing = _read_save(opts)
    rows = rules_listing()
    if getattr(args, "table", None):
        rows = [row for row in rows if row["table"] == args.table]
        if not rows:
            raise UsageError(f"rules show: no rules table named {args.table!r}")
    if getattr(args, "changed", False):
        rows = [row for row in rows if row["source"] != "stock"]
    saved = saved_rules()
    source = "saved override" if saved is not None else "house file" if house_rules_dir() else "stock"
    meta = World.load(existing).meta if existing is not None else {}
    payload = {
        "rules": source,
        "saved_from": meta.get("rules_source") if saved is not None else None,
        "house_dir": house_rules_dir(),
        "values": rows,
    }
    lines = [f"rules in use: {source}" + (f" (saved from {payload['saved_from']})" if payload["saved_from"] else "")]
    lines += [f"{row['table']}.{row['key']} = {orjson.dumps(row['value']).decode()}  [{row['source']}]" for row in rows]
    emit(opts, payload, "\n".join(lines))
    return 0
