"""What each `yak` verb does. Front-end only: every change goes through world commands."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from yak_tui.cli.deliver import DELIVER_VERBS, set_addresses
from yak_tui.cli.rules import verb_rules
from yak_tui.cli.season import SEASON_VERBS
from yak_tui.cli.session import GlobalOptions, dice_from, emit, identity_of, open_save, save_path
from yak_tui.kernel.errors import UsageError
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.numbers import counted
from yak_tui.store.files import collector_paused
from yak_tui.store.storage import WorldFile

# The verbs that run as long as someone uses them (`tui` pauses the collector for its start only).
LASTING_VERBS = frozenset({"tui", "serve"})


def dispatch(opts: GlobalOptions, args: argparse.Namespace) -> int:
    verb = args.verb or "tui"
    handler = VERBS.get(verb)
    if handler is None:
        raise UsageError(f"unknown command {verb!r}")
    if verb in LASTING_VERBS:
        result: int = handler(opts, args)
        return result
    # Any other command is done in a moment, and leaves by `os._exit` (`cli.run`): the young
    # collections on its way walked the objects its imports made, all alive until the end (~4% of
    # `yak due` at 100x; issue 30). On again after it, for a caller that goes on (a test).
    with collector_paused(freeze=False):
        result = handler(opts, args)
    return result


def verb_new(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.kernel.world.demo import create_world

    if args.template:
        from yak_tui.kernel.world.authoring import template_text

        if args.path or args.source or args.demo:
            raise UsageError("new --template prints a starting file: give no path, --from or --demo with it")
        text = template_text()
        emit(opts, {"template": text}, text.rstrip("\n"))
        return 0
    if not args.path:
        raise UsageError("new: give the path of the save to create (or --template)")
    if args.source and args.demo:
        raise UsageError("new: --from and --demo both say what to fill the world with; give one")
    from yak_tui.kernel.season.session import open_fair_dice

    save = create_world(args.path, demo=args.demo, overwrite=args.force, source=args.source)
    committed = open_fair_dice(save)  # the first season's dice secrets, committed before any order
    payload = {"created": str(save.path), "demo": bool(args.demo), "from": args.source, "fair_dice": committed}
    emit(
        opts,
        payload,
        f"created {save.path}"
        + (f" from {args.source}" if args.source else "")
        + f"\nfair dice: public secret sha256 {committed['public']}, private {committed['private']}"
        + " (post these before the first season: docs/fair-dice.md)",
    )
    return 0


def verb_resolve(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.kernel.play.checks import RESOLVE_CHECKS
    from yak_tui.kernel.play.dice import ScriptedDice

    if not args.check:
        raise UsageError(f"resolve needs a check: {', '.join(RESOLVE_CHECKS)}")
    check = RESOLVE_CHECKS[args.check]
    if args.odds:
        if check.odds is None:
            raise UsageError(f"resolve {check.name} has no --odds")
        emit(opts, check.odds(args))
        return 0
    dice = dice_from(args)
    result = check.run(args, dice)
    if isinstance(dice, ScriptedDice) and dice.remaining:
        # A rule check changes nothing: a die it did not read is named on stderr (its JSON unchanged),
        # and one that no die shows is refused.
        if any(not 1 <= value <= 6 for value in dice.unread):
            dice.require_all_read()
        sys.stderr.write(f"yak: {dice.remaining} die given was not read: {', '.join(map(str, dice.unread))}\n")
    emit(opts, result)
    return 0


def parse_params(items: list[str]) -> dict[str, str]:
    params: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise UsageError(f"parameter {item!r} is not key=value")
        params[key.strip()] = value
    return params


def verb_do(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.kernel.play.commands import COMMANDS, load_command_modules, run_command, spec_for

    load_command_modules()
    if args.help:
        if not args.command:
            emit(opts, {"help": args.usage()}, args.usage().rstrip("\n"))
            return 0
        return _command_help(opts, args.command)
    if args.list or not args.command:
        listing = {
            name: {
                "help": spec.help_text,
                "category": spec.category,
                "params": {
                    k: {"type": p.kind.__name__, "required": p.required, "help": p.help_text}
                    for k, p in spec.params.items()
                },
            }
            for name, spec in sorted(COMMANDS.items())
        }
        text = "\n".join(f"{name:20} {spec.help_text}" for name, spec in sorted(COMMANDS.items()))
        emit(opts, {"commands": listing}, text)
        return 0
    params = parse_params(args.params)
    if args.command not in COMMANDS:
        from yak_tui.kernel.play.filing import unknown_command

        raise unknown_command(args.command, identity_of(opts))
    spec = spec_for(args.command)
    save = open_save(opts)
    if args.odds:
        from dataclasses import replace

        from yak_tui.kernel.play.params import coerce_params
        from yak_tui.kernel.world.model import World

        world = World.load(save)
        identity = identity_of(opts, world)
        if spec.odds is None:
            raise UsageError(f"{spec.name} rolls no dice to give odds for")
        # As the form: the odds hang on the modifiers, not on a value still to come (a battle's winner).
        lenient = replace(spec, params={k: replace(p, required=False) for k, p in spec.params.items()})
        coerced = coerce_params(lenient, params, world, identity)
        odds = spec.odds(world, identity, coerced)
        notes = odds.get("notes")
        from yak_tui.kernel.play.views import odds_text

        text = "\n".join(notes) if notes else odds_text(spec.name, coerced, odds)
        emit(opts, {"command": spec.name, **odds}, text)
        return 0
    from yak_tui.kernel.season.session import check_identity

    identity = identity_of(opts)
    # The identity is checked inside the command's transaction: one read of the save, not two.
    result = run_command(
        save,
        identity,
        args.command,
        params,
        dice_from(args, real=True),
        check=lambda world: check_identity(world, identity),
        exact_dice=True,
    )
    text_lines = [e["text"] for e in result.shown or []] or [f"{result.command}: done"]
    if result.command == "order-file" and not opts.json:  # received, or received with a warning, and the odds
        from yak_tui.kernel.play.views import order_filed_text
        from yak_tui.kernel.world.model import World

        text_lines.append(order_filed_text(World.load(save), result.data))
    # The reply was serialised inside the transaction, before the write: printing it cannot fail.
    emit(opts, result.payload(), "\n".join(text_lines), encoded=result.encoded)
    return 0


def _command_help(opts: GlobalOptions, name: str) -> int:
    """`yak do COMMAND --help`: read from the registry; with a save, its example names what the
    identity may see in it (without one, placeholders)."""
    from yak_tui.kernel.play.usage import command_usage, usage_text
    from yak_tui.kernel.world.model import World

    save = WorldFile(save_path(opts))
    world = World.load(save) if save.exists() else None
    identity = identity_of(opts, world)
    usage = command_usage(name, world, identity)
    emit(opts, usage, usage_text(usage))
    return 0


def verb_show(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.kernel.play.audience import visible_count, visible_table
    from yak_tui.kernel.world.model import TABLES, World

    save = open_save(opts)
    world = World.load(save)
    identity = identity_of(opts, world)
    if not args.table:
        counts = {name: visible_count(world, identity, name) for name in TABLES}
        payload = {"world": world.name, "date": world.date.label(), "as": str(identity), "tables": counts}
        emit(opts, payload)
        return 0
    table = args.table
    if table not in TABLES:
        raise UsageError(f"no table named {table!r}; tables: {', '.join(TABLES)}")
    docs = visible_table(world, identity, table)
    if args.id:
        doc_id = args.id
        if doc_id not in docs:
            try:
                doc_id = world.resolve_ref(table, doc_id)
            except Exception:
                raise UsageError(f"no {table} document {args.id!r} that {identity} may see") from None
        if doc_id not in docs:
            raise UsageError(f"no {table} document {args.id!r} that {identity} may see")
        emit(opts, {"table": table, "id": doc_id, "document": docs[doc_id]})
        return 0
    if table == "orders":  # every order he may see, in words (the JSON stays the documents)
        from yak_tui.kernel.play.queue import order_lines, queue_text

        lines = order_lines(world, identity, waiting_only=False)
        emit(opts, {"table": table, "documents": docs}, queue_text(world, identity, lines, "(no orders)"))
        return 0
    emit(
        opts,
        {"table": table, "documents": docs},
        "\n".join(f"{doc_id}: {doc.get('name', doc.get('text', ''))}" for doc_id, doc in docs.items()),
    )
    return 0


def verb_orders(opts: GlobalOptions, args: argparse.Namespace) -> int:
    """The orders still waiting, in words, by adjudicator, as the identity may see them (only the
    areas of their commands are imported: `kernel.play.commands.spec_for`)."""
    from yak_tui.kernel.play.queue import order_lines, waiting_text
    from yak_tui.kernel.world.model import World

    world = World.load(open_save(opts))
    identity = identity_of(opts, world)
    lines = order_lines(world, identity)
    emit(
        opts,
        {"date": world.date.label(), "orders": [line.to_dict() for line in lines]},
        waiting_text(world, identity, lines),
    )
    return 0


def verb_log(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.kernel.play.chronicle import ChronicleFilter, filter_entries
    from yak_tui.kernel.world.model import World

    save = open_save(opts)
    world = World.load(save)
    identity = identity_of(opts, world)
    entries = filter_entries(
        world, identity, ChronicleFilter.from_args(world, args.season, args.kingdom, args.character, args.kind)
    )
    text = "" if opts.json else "\n".join(f"[{e['date']['season']} {e['date']['year']}] {e['text']}" for e in entries)
    emit(opts, {"entries": entries}, text or "(no entries)")
    return 0


def verb_advance(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.kernel.season.session import advance_season

    save = open_save(opts)
    if args.preview:
        from yak_tui.kernel.play.commands import load_command_modules
        from yak_tui.kernel.season.session import preview_advance
        from yak_tui.kernel.world.model import World

        load_command_modules()
        world = World.load(save)  # one read: the identity check and the preview share it
        identity = identity_of(opts, world)
        if not identity.is_gm:  # every waiting order and the year start's secret sums: the GM's alone
            raise UsageError(f"only the GM may preview the season's close (you are {identity})")
        previewed = preview_advance(world)
        emit(opts, previewed, preview_text(world, previewed))
        return 0
    kept: list[Any] = []
    result = advance_season(save, identity_of(opts), expected=args.expected, carry=args.carry, keep=kept)
    LEFT_TO_EXIT[:] = kept  # the closed world: the process's exit drops it (`run` leaves at once), not this verb
    emit(opts, {"command": "advance", **result.data}, advance_text(result.data))
    return 0


# What a verb leaves for the process's exit to drop instead of freeing it object by object (the world
# a season's close wrote: ~0.25 CPU-s at 1000x); the last one only, when `main` runs in a process that goes on.
LEFT_TO_EXIT: list[Any] = []


def preview_text(world: Any, data: dict[str, Any]) -> str:
    """`yak advance --preview`: what stands in the way, the orders that would carry over, the steps."""
    from yak_tui.kernel.play.identity import identity_name
    from yak_tui.kernel.play.queue import orders_counted

    if data["blocked"]:
        return "\n".join(["the season cannot close yet:", *(f"  {reason}" for reason in data["blocked"])])
    lines = [f"preview, nothing was changed: {advance_text(data)}"]
    waiting = data.get("waiting_orders") or []
    if waiting:
        lines.append(f"{orders_counted(len(waiting))} still waiting (closing needs --carry to carry them over):")
        lines.extend(
            f"  {order['order']}  {order['text']} (waits for {identity_name(world, Identity.parse(order['adjudicator']))})"
            for order in waiting
        )
    if data.get("no_orders"):
        lines.append(f"no orders from: {', '.join(data['no_orders'])}")
    return "\n".join(lines)


def advance_text(data: dict[str, Any]) -> str:
    """What closing the season did: the change of season, the orders carried over, the reports
    written, and each step with its sums."""
    from yak_tui.kernel.play.queue import orders_counted

    lines = [f"{data['from']} -> {data['to']}"]
    carried = data.get("carried") or []
    if carried:
        lines.append(f"carried over into {data['to']}: {orders_counted(len(carried))} ({', '.join(carried)})")
    reports = data.get("reports") or []
    lines.append(f"reports written: {len(reports)} (`yak report --season '{data['from']}'`)")
    for step in data.get("steps") or []:
        sums = ", ".join(f"{key} {value:g}" for key, value in step["sums"].items())
        if sums or step["lines"]:
            lines.append(f"{step['title']}: {sums or 'done'}")
            lines.extend(f"  {line}" for line in step["lines"])
    return "\n".join(lines)


def verb_undo(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.kernel.play.commands import run_command

    save = open_save(opts)
    result = run_command(save, identity_of(opts), "undo", {})
    emit(opts, {"command": "undo", **result.data}, f"undid {result.data['undone']}")
    return 0


def verb_due(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.kernel.season.session import due_for, due_text
    from yak_tui.kernel.world.model import World

    save = open_save(opts)
    world = World.load(save)
    items = due_for(world, identity_of(opts, world))
    emit(opts, {"date": world.date.label(), "due": items}, due_text(items))
    return 0


def verb_restore(opts: GlobalOptions, args: argparse.Namespace) -> int:
    save = WorldFile(save_path(opts))
    if not args.backup:
        names = [p.name for p in save.backups()]
        emit(opts, {"backups": names}, "\n".join(names) or "no backups yet")
        return 0
    if not Identity.parse(opts.identity).is_gm:
        raise UsageError("only the GM may restore a backup")
    from yak_tui.kernel.season.session import restore_backup

    source, summary = restore_backup(save, args.backup, Identity.parse(opts.identity))
    emit(
        opts,
        {"restored": source.name, "save": str(save.path), **summary},
        f"restored {source.name} into {save.path}: back in {summary['seasons'][0]}, "
        f"{counted(summary['abandoned_rolls'], 'roll')} abandoned (a public chronicle entry and a dice-ledger record say so)",
    )
    return 0


def verb_campaign(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.kernel.season.session import close_fair_campaign

    if args.campaign_verb != "close":
        raise UsageError("campaign needs an action: close")
    identity = Identity.parse(opts.identity)
    if not identity.is_gm:
        raise UsageError("only the GM may close the campaign")
    revealed = close_fair_campaign(WorldFile(save_path(opts)), identity)
    emit(
        opts,
        {"closed": True, "seasons_revealed": revealed},
        f"campaign closed: the dice secrets of {counted(revealed, 'season')} are revealed; `yak verify --reveal` checks every roll",
    )
    return 0


def verb_export(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.kernel.world.model import World

    save = open_save(opts)
    world = World.load(save)
    identity = identity_of(opts, world)
    if args.format == "toml":
        from yak_tui.kernel.world.export import export_world

        if not identity.is_gm:
            raise UsageError(f"only the GM may export the whole world (you are {identity})")
        if args.season or args.kingdom or args.audience != "public":
            raise UsageError(
                "export --format toml writes the whole world: --season, --kingdom and --audience do not apply"
            )
        text = export_world(world.data)
        emit(opts, {"format": "toml", "text": text}, text.rstrip("\n"))
        return 0
    from yak_tui.areas.court import export_text

    # The forum's record unless another audience is named (one the identity may export for).
    text, count = export_text(world, identity, args.audience, args.format, season=args.season, kingdom=args.kingdom)
    emit(opts, {"format": args.format, "as": str(identity), "count": count, "text": text}, text)
    return 0


GM_PIN_MIN = 4  # characters


def gm_pin(args: argparse.Namespace) -> str | None:
    """`--gm-pin`: the hotseat GM's PIN, from YAK_GM_PIN or asked (twice, hidden) before the app opens."""
    if not getattr(args, "gm_pin", False):
        return None
    pin = os.environ.get("YAK_GM_PIN")
    if pin is None:
        import getpass

        pin = getpass.getpass("GM PIN: ")
        if getpass.getpass("GM PIN again: ") != pin:
            raise UsageError("--gm-pin: the two PINs differ; nothing was opened")
    if len(pin) < GM_PIN_MIN:
        raise UsageError(f"--gm-pin: the PIN must have at least {GM_PIN_MIN} characters")
    return pin


def verb_tui(opts: GlobalOptions, args: argparse.Namespace) -> int:
    pin = gm_pin(args)  # asked before anything else, so a refusal opens nothing
    # The collector is paused until the app's warm-up has frozen what the start made, and then runs
    # again (`app.kit.screens._freeze_once`): a start makes ~half a million objects that live as long
    # as the app, and ~170 young collections walked them on the way to the first frame (~30 ms at
    # 100x, as much as a hello world's whole Textual import spends collecting; issue 30). On again
    # however the app ends, for a caller that goes on (an app that quits before its warm-up).
    with collector_paused(freeze=False):
        save = open_save(opts, create_demo=True)
        from yak_tui.kernel.world.model import World

        stamp = save.stamp()
        world = World.load(save)
        identity = identity_of(opts, world)
        from yak_tui.app.main import run_app

        # One read per start: the app opens on the world read here, unless the save changed meanwhile.
        opened = world if save.stamp() == stamp else None
        code = run_app(
            save.path,
            identity,
            animations=not getattr(args, "no_animation", False),
            world=opened,
            stamp=stamp if opened is not None else None,
            gm_pin=pin,
        )
        return int(code or 0)


def verb_serve(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.serve.server import serve_forever

    return serve_forever(save_path(opts), args)


def verb_user(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.kernel.play.commands import run_command

    save = open_save(opts)
    identity = identity_of(opts)
    if args.user_verb == "list" or not args.user_verb:
        from yak_tui.kernel.world.model import World

        world = World.load(save)
        if not identity.is_gm:
            raise UsageError("only the GM may read the roster")
        users = {
            name: {"identity": u["identity"], "fingerprint": u.get("fingerprint", "")} for name, u in world.all("users")
        }
        emit(opts, {"users": users}, "\n".join(f"{n}: {u['identity']} {u['fingerprint']}" for n, u in users.items()))
        return 0
    if args.user_verb == "token":
        import json

        from yak_tui.serve.weblogin import new_login

        token, kept = new_login()
        run_command(save, identity, "user-web-login", {"name": args.name, "login": json.dumps(kept)})
        link = f"{args.url.rstrip('/')}/login?token={token}"
        emit(opts, {"command": "user-token", "name": args.name, "link": link}, link)
        return 0
    if args.user_verb == "add":
        try:
            key_text = Path(args.key).read_bytes().decode("utf-8") if args.key else ""
        except UnicodeDecodeError:
            raise UsageError(f"--key {args.key}: is not a text file (an OpenSSH public key)") from None
        result = run_command(
            save, identity, "user-add", {"name": args.name, "identity": args.identity, "key": key_text}
        )
    elif args.user_verb == "set":
        if args.zone is None and args.email is None and args.discord is None:
            raise UsageError("user set: give --zone, --email or --discord")
        payload: dict[str, Any] = {}
        lines: list[str] = []
        if args.email is not None or args.discord is not None:  # the GM's channels file, not the save
            payload["addresses"] = set_addresses(opts, args.name, args.email, args.discord)
            lines.append(f"{args.name}: addresses set (shown to the GM only)")
        if args.zone is not None:
            result = run_command(save, identity, "user-zone", {"name": args.name, "zone": args.zone})
            payload.update({"command": "user-zone", **result.data})
            lines += [e["text"] for e in result.shown or []]
        emit(opts, payload, "\n".join(lines))
        return 0
    elif args.user_verb == "revoke":
        result = run_command(save, identity, "user-revoke", {"name": args.name})
    else:
        result = run_command(save, identity, "user-remove", {"name": args.name})
    emit(opts, {"command": f"user-{args.user_verb}", **result.data}, "\n".join(e["text"] for e in result.shown or []))
    return 0


VERBS = {
    "new": verb_new,
    "resolve": verb_resolve,
    "do": verb_do,
    "show": verb_show,
    "log": verb_log,
    "advance": verb_advance,
    "undo": verb_undo,
    "due": verb_due,
    "orders": verb_orders,
    "restore": verb_restore,
    "campaign": verb_campaign,
    "export": verb_export,
    "tui": verb_tui,
    "serve": verb_serve,
    "user": verb_user,
    **SEASON_VERBS,
    **DELIVER_VERBS,
    "rules": verb_rules,
}
