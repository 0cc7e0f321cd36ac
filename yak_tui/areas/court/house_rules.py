"""House rules kept in the save (`yak rules set DIR`, `yak rules clear`): the GM's overrides of
the rules tables live in `meta.world.rules_overrides`, so every process that plays the save (the
CLI, the app, each SSH session, a CI run) uses the same rules, whatever `--rules` it was given."""

from __future__ import annotations

from typing import Any

import orjson

from yak_tui.kernel.errors import YakError
from yak_tui.kernel.play.audience import PUBLIC
from yak_tui.kernel.play.commands import CommandContext, CommandError, Param, command
from yak_tui.kernel.world.tables import check_tables, saved_rules, table_names, use_saved_rules


def check_rules_load(overrides: dict[str, Any]) -> None:
    """Every table loads under `overrides`, and the checks each area registered for its tables hold
    (every mission has a handler, the season order names what the code registers, ...); the rules
    in use are put back whatever happens."""
    before = saved_rules()
    try:
        use_saved_rules(overrides)
        check_tables()
    finally:
        use_saved_rules(before)


@command(
    "rules-set",
    "Keep house rules in the save: every later command, in every process, plays by them (GM).",
    {
        "tables": Param(
            str,
            help="the overrides as JSON, {table: override} (`yak rules set DIR` reads a house-rules directory into it)",
        ),
        "source": Param(str, required=False, default="", help="where they came from, for `yak rules show`"),
    },
    category="court",
    undoable=False,
    gm_only="change the house rules",
)
def rules_set(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    try:
        overrides = orjson.loads(p["tables"])
    except orjson.JSONDecodeError as error:
        raise CommandError("tables", f"is not JSON: {error}") from None
    if not isinstance(overrides, dict) or not all(isinstance(v, dict) for v in overrides.values()):
        raise CommandError("tables", "must be a JSON object of tables, {table: {key: value}}")
    unknown = sorted(set(overrides) - set(table_names()))
    if unknown:
        raise CommandError("tables", f"no rules table named {unknown[0]!r} (tables: {', '.join(table_names())})")
    try:
        check_rules_load(overrides)
    except YakError as error:
        raise CommandError("tables", str(error)) from None
    meta = ctx.world.meta
    meta["rules_overrides"] = overrides
    meta["rules_source"] = p["source"]  # the next read of the save, in any process, plays by them
    changed = sorted(overrides)
    ctx.log(
        f"The GM set the house rules of this campaign ({', '.join(changed) or 'no table'} changed"
        f"{' from ' + p['source'] if p['source'] else ''}).",
        kind="rules",
        audience=PUBLIC,
        refs={"tables": changed},
    )
    return {"tables": changed, "source": p["source"]}


@command(
    "rules-clear",
    "Drop the house rules kept in the save: the stock tables apply again (GM).",
    {},
    category="court",
    undoable=False,
    gm_only="change the house rules",
)
def rules_clear(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    meta = ctx.world.meta
    dropped = sorted(meta.get("rules_overrides") or {})
    meta["rules_overrides"] = {}
    meta.pop("rules_source", None)
    ctx.log(
        "The GM cleared the house rules of this campaign: the stock tables apply.",
        kind="rules",
        audience=PUBLIC,
        refs={"tables": dropped},
    )
    return {"tables": dropped}
