"""The delivery verbs of `yak` (issue 31): `channel` (the GM's channels), `post` (the season to
them), `map` (a reader's map picture), and the seats' addresses for `user set`. Every one is the
GM's alone: the channels file holds credentials and the players' addresses."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from yak_tui.cli.session import GlobalOptions, emit, identity_of, open_save
from yak_tui.kernel.errors import UsageError


def add_deliver_parsers(sub: Any) -> None:
    channel = sub.add_parser("channel", help="where `yak post` delivers: Discord webhooks and an SMTP server (GM)")
    channel_sub = channel.add_subparsers(dest="channel_verb", metavar="ACTION")
    add = channel_sub.add_parser("add", help="add (or replace) a channel")
    add.add_argument("name")
    add.add_argument("--discord-webhook", metavar="URL", help="a Discord webhook: the public season post goes there")
    add.add_argument("--thread-name", default="", help="a forum channel: the post opens a thread of this name")
    add.add_argument("--smtp", metavar="HOST:PORT", help="an SMTP server: private reports by e-mail go through it")
    add.add_argument("--from", dest="sender", metavar="ADDR", help="the e-mail's sender")
    add.add_argument("--starttls", action="store_true", help="upgrade the connection with STARTTLS")
    add.add_argument("--user", default="", help="log in as this user; the password from YAK_SMTP_PASSWORD, else asked")
    channel_sub.add_parser("list", help="the channels (no token or password is shown)")
    remove = channel_sub.add_parser("remove", help="remove a channel")
    remove.add_argument("name")

    post = sub.add_parser(
        "post", help="send the season post to the public channels and each report to its own reader (GM)"
    )
    post.add_argument("--season", help="e.g. 'Spring 313' (default: the last season closed)")
    post.add_argument("--dry-run", action="store_true", help="print what would go where; send nothing")
    post.add_argument("--no-maps", action="store_true", help="attach no map pictures")

    drawn = sub.add_parser(
        "map", help="the hex map as the identity (--as; observer: the public) may see it, as SVG or PNG"
    )
    drawn.add_argument("--format", choices=("svg", "png"), default="svg")
    drawn.add_argument("--out", type=Path, help="the file to write (default: stdout for SVG)")


def _gm(opts: GlobalOptions, what: str) -> Any:
    from yak_tui.kernel.world.model import World

    save = open_save(opts)
    world = World.load(save)
    identity = identity_of(opts, world)
    if not identity.is_gm:
        from yak_tui.kernel.play.commands import gm_refusal  # lazy: `yak show` loads no commands

        raise gm_refusal(what, identity)
    return save, world


def verb_channel(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.deliver.channels import (
        PASSWORD_ENV,
        check_name,
        check_webhook,
        parse_host_port,
        read_channels,
        shown_channel,
        write_channels,
    )

    save, _ = _gm(opts, "manage the channels")
    data = read_channels(save.path)
    if args.channel_verb in (None, "list"):
        shown = [shown_channel(n, c) for n, c in sorted(data["channels"].items())]
        lines = [
            f"{c['name']}: discord {c['webhook']}"
            + (f" (forum thread '{c['thread_name']}')" if c["thread_name"] else "")
            if c["kind"] == "discord"
            else f"{c['name']}: smtp {c['host']}:{c['port']} from {c['from']}"
            + (" starttls" if c["starttls"] else "")
            + (f" user {c['user']}" if c["user"] else "")
            for c in shown
        ]
        emit(opts, {"channels": shown}, "\n".join(lines) or "no channels (yak channel add NAME --discord-webhook URL)")
        return 0
    name = check_name(args.name)
    if args.channel_verb == "remove":
        if name not in data["channels"]:
            raise UsageError(f"no channel named {name!r}")
        del data["channels"][name]
        write_channels(save.path, data)
        emit(opts, {"removed": name}, f"removed channel {name}")
        return 0
    if bool(args.discord_webhook) == bool(args.smtp):
        raise UsageError("channel add: give one of --discord-webhook URL or --smtp HOST:PORT")
    if args.discord_webhook:
        if args.sender or args.starttls or args.user:
            raise UsageError("channel add: --from, --starttls and --user are for an --smtp channel")
        channel: dict[str, Any] = {
            "kind": "discord",
            "webhook": check_webhook(args.discord_webhook),
            "thread_name": args.thread_name,
        }
    else:
        if args.thread_name:
            raise UsageError("channel add: --thread-name is for a --discord-webhook channel")
        if not args.sender:
            raise UsageError("channel add: an --smtp channel needs --from ADDR")
        from yak_tui.deliver.channels import check_email

        host, port = parse_host_port(args.smtp)
        password = ""
        if args.user:  # never on the command line: it would stay in the shell's history and `ps`
            import getpass  # termios: only where a password may be asked, not on every `yak` line

            password = os.environ.get(PASSWORD_ENV) or (
                getpass.getpass(f"SMTP password for {args.user}: ") if sys.stdin.isatty() else ""
            )
            if not password:
                raise UsageError(f"channel add --user: set {PASSWORD_ENV} (or run it in a terminal to be asked)")
        channel = {
            "kind": "smtp",
            "host": host,
            "port": port,
            "from": check_email(args.sender),
            "starttls": bool(args.starttls),
            "user": args.user,
            "password": password,
        }
    data["channels"][name] = channel
    write_channels(save.path, data)
    added = shown_channel(name, channel)
    emit(opts, {"added": added}, f"channel {name} added ({added['kind']})")
    return 0


def set_addresses(opts: GlobalOptions, login: str, email: str | None, discord: str | None) -> dict[str, Any]:
    """`yak user set NAME --email/--discord`: the addresses of the seat a roster login plays, kept in
    the GM-only channels file ('' clears one)."""
    from yak_tui.deliver.channels import check_email, check_webhook, read_channels, redact, write_channels

    save, world = _gm(opts, "set a seat's e-mail or Discord channel")
    user = world.find("users", login) if login else None
    if user is None:
        raise UsageError(f"no user named {login!r} on the roster (yak user list)")
    seat = str(user.get("identity", ""))
    data = read_channels(save.path)
    entry = dict(data["logins"].get(login) or {})
    if email is not None:
        entry["email"] = check_email(email) if email else ""
    if discord is not None:
        entry["discord"] = check_webhook(discord, "--discord") if discord else ""
    entry = {k: v for k, v in entry.items() if v}
    if entry:
        data["logins"][login] = entry
    else:
        data["logins"].pop(login, None)
    write_channels(save.path, data)
    return {
        "name": login,
        "seat": seat,
        "email": entry.get("email", ""),
        "discord": redact(entry["discord"]) if entry.get("discord") else "",
    }


def verb_post(opts: GlobalOptions, args: argparse.Namespace, sleep: Callable[[float], None] | None = None) -> int:
    from yak_tui.deliver.post import campaign_tag, deliver, deliveries_text, plan_post
    from yak_tui.kernel.play.commands import load_command_modules

    load_command_modules()
    save, world = _gm(opts, "post the season")
    planned = plan_post(save.path, world, args.season, maps=not args.no_maps)
    done = deliver(save.path, planned, dry_run=args.dry_run, sleep=sleep, campaign=campaign_tag(world))
    emit(opts, {"dry_run": bool(args.dry_run), "deliveries": [d.to_dict() for d in done]}, deliveries_text(done))
    return 0


def verb_map(opts: GlobalOptions, args: argparse.Namespace) -> int:
    from yak_tui.deliver.mapsvg import map_svg, svg_to_png
    from yak_tui.kernel.world.model import World

    world = World.load(open_save(opts))
    viewer = identity_of(opts, world)  # the map as he may see it: the map screen's own audience filter
    svg = map_svg(world, viewer)
    if args.format == "svg":
        if args.out is None:
            emit(opts, {"as": str(viewer), "format": "svg", "svg": svg}, svg.rstrip("\n"))
            return 0
        args.out.write_text(svg, encoding="utf-8")
        size = len(svg.encode())
    else:
        if args.out is None:
            raise UsageError("map --format png needs --out FILE")
        png = svg_to_png(svg)
        args.out.write_bytes(png)
        size = len(png)
    emit(
        opts,
        {"as": str(viewer), "format": args.format, "out": str(args.out), "bytes": size},
        f"wrote {args.out} ({args.format}, the map as {viewer} may see it)",
    )
    return 0


DELIVER_VERBS: dict[str, Callable[[GlobalOptions, argparse.Namespace], int]] = {
    "channel": verb_channel,
    "post": verb_post,
    "map": verb_map,
}
