"""The `yak` command line: every verb's arguments, and `yak resolve`'s checks from the area packages."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Any, NoReturn

from yak_tui.cli.deliver import add_deliver_parsers
from yak_tui.cli.rules import add_rules_parser
from yak_tui.cli.season import add_season_parsers
from yak_tui.kernel.errors import UsageError
from yak_tui.kernel.play.areas import AREA_PACKAGES
from yak_tui.kernel.world.numbers import NumberError, parse_whole

INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# Importing an area package registers its `yak resolve` checks.
RESOLVE_MODULES = AREA_PACKAGES


def terminal_columns() -> int:
    """`shutil.get_terminal_size().columns`, step for step, without importing shutil (and bz2, lzma
    and zlib with it, ~2 ms of every `yak` line): argparse makes a help formatter, which asks the
    width, for each argument it adds (to check its metavar), though a read prints no help."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    try:
        lines = int(os.environ["LINES"])
    except (KeyError, ValueError):
        lines = 0
    if columns <= 0 or lines <= 0:
        try:
            size = os.get_terminal_size(sys.__stdout__.fileno())  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            size = os.terminal_size((80, 24))
        if columns <= 0:
            columns = size.columns or 80
    return columns


class YakHelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter, as wide as argparse makes it (`terminal_columns`)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, terminal_columns() - 2 if width is None else width)


class YakArgumentParser(argparse.ArgumentParser):
    """Every parse error, in any sub-command, is one line on stderr (a UsageError), not a usage block."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", YakHelpFormatter)  # every sub-parser's too (their class is this one)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        where = self.prog.removeprefix("yak").strip()
        raise UsageError(f"{where}: {message}" if where else message)


def load_resolve_checks() -> None:
    # An area package registers its commands and season steps when imported: load them all first,
    # in the kernel's order, so the order of the season's steps never depends on this list.
    from yak_tui.kernel.play.commands import load_command_modules

    load_command_modules()
    for module in RESOLVE_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise


class _Skipped:
    """A verb's sub-parser not built (`build_parser(only=...)`): every call on it does nothing."""

    def __getattr__(self, name: str) -> Any:
        return self._nothing

    def _nothing(self, *args: Any, **kwargs: Any) -> _Skipped:
        return self


class _OnlyVerb:
    """`add_subparsers`' action, building the sub-parser of one verb and skipping the others (argparse
    makes a whole parser, with its help formatter, for each of ~40 verbs and their actions)."""

    def __init__(self, sub: Any, only: str) -> None:
        self.sub, self.only = sub, only
        self.names: set[str] = set()

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        self.names.add(name)
        return self.sub.add_parser(name, **kwargs) if name == self.only else _Skipped()


def build_parser(with_checks: bool = True, only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line. `with_checks=False` leaves `resolve`'s checks out: listing them
    imports every area package, which a verb that reads the save (`show`, `log`) does not need.

    `only`: build that verb's sub-parser alone (what `yak show ...` parses and its `--help` prints
    are the same); a word that names no verb gets the whole line, so its refusal lists them all."""
    if only is not None:
        parser = _build(with_checks, only)
        if only in parser.verbs:  # type: ignore[attr-defined]
            return parser
    return _build(with_checks, None)


def _build(with_checks: bool, only: str | None) -> argparse.ArgumentParser:
    parser = YakArgumentParser(
        prog="yak",
        description="yak_tui: run a You Are King campaign from a terminal. "
        "Global options anywhere: --save PATH, --as gm|king:<kingdom>|player:<character>, --json, --rules DIR.",
    )
    action = parser.add_subparsers(dest="verb", metavar="COMMAND")
    sub: Any = action if only is None else _OnlyVerb(action, only)
    # The browser seat's port, for `serve` and `user token` (its module imports what only they use).
    web_port = _web_port() if only in (None, "serve", "user") else 0

    new = sub.add_parser("new", help="create a world file")
    new.add_argument("path", nargs="?")
    new.add_argument("--demo", action="store_true", help="fill it with the demo world Elbreth")
    new.add_argument(
        "--from", dest="source", metavar="TOML", help="build it from a world file you wrote (docs/world-format.md)"
    )
    new.add_argument(
        "--template",
        action="store_true",
        help="print a commented starting world file (two kingdoms) instead of creating a save",
    )
    new.add_argument("--force", action="store_true", help="overwrite an existing file")

    resolve = sub.add_parser("resolve", help="run one rule check without a world")
    checks = resolve.add_subparsers(dest="check", metavar="CHECK")
    if with_checks:
        from yak_tui.kernel.play.checks import RESOLVE_CHECKS

        load_resolve_checks()
        for name, check in RESOLVE_CHECKS.items():
            cp = checks.add_parser(name, help=check.help_text)
            check.add_arguments(cp)
            _dice_flags(cp)

    # Its own --help: `yak do COMMAND --help` prints that command's parameters (`kernel.play.usage`).
    do = sub.add_parser("do", help="apply one command to the world", add_help=False)
    do.add_argument("command", nargs="?")
    do.add_argument("params", nargs="*", help="key=value")
    do.add_argument("-h", "--help", action="store_true", help="this help; with COMMAND, its parameters and an example")
    do.add_argument("--list", action="store_true", help="list the commands")
    _dice_flags(do)
    do.set_defaults(usage=do.format_help)

    show = sub.add_parser("show", help="print what the identity may see")
    show.add_argument("table", nargs="?")
    show.add_argument("id", nargs="?")

    log = sub.add_parser("log", help="print the chronicle")
    log.add_argument("--season", help="e.g. 'Spring 312'")
    log.add_argument("--kingdom")
    log.add_argument("--character")
    log.add_argument("--kind")

    adv = sub.add_parser("advance", help="close the season (Winter into Spring runs year start)")
    adv.add_argument("--preview", action="store_true", help="show what it would do, change nothing")
    adv.add_argument(
        "--from",
        dest="expected",
        metavar="SEASON",
        help="close only this season, e.g. 'Winter 312'; refused if another command closed it first",
    )
    adv.add_argument(
        "--carry",
        action="store_true",
        help="carry the orders still waiting into the next season (without it, waiting orders refuse the close)",
    )

    sub.add_parser("undo", help="undo the last command of the current season (GM)")
    sub.add_parser("due", help="what is due this season for you: orders to rule on, your own, what the rules say")
    sub.add_parser("orders", help="the orders still waiting, in words, by adjudicator, as you may see them")

    restore = sub.add_parser(
        "restore", help="list backups, or restore one (a public event: the chronicle and the dice ledger name it)"
    )
    restore.add_argument("backup", nargs="?")

    campaign = sub.add_parser("campaign", help="the campaign as a whole (GM)")
    campaign_sub = campaign.add_subparsers(dest="campaign_verb", metavar="ACTION")
    campaign_sub.add_parser("close", help="end the campaign: reveal every season's dice secrets, private ones too")

    export = sub.add_parser("export", help="export the chronicle as forum text, or the whole world as TOML (GM)")
    export.add_argument("--format", choices=("bbcode", "markdown", "toml"), default="bbcode")
    export.add_argument("--season")
    export.add_argument("--kingdom")
    export.add_argument(
        "--audience",
        default="public",
        help="whose record: public (the default, the forum's), gm, kingdom:<id> or player:<id>",
    )

    serve = sub.add_parser("serve", help="host the campaign over SSH and/or in a browser (--web)")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=2222)
    serve.add_argument("--web", action="store_true", help="also serve the app to browsers (login: `yak user token`)")
    serve.add_argument("--web-port", type=int, default=web_port, help="the browser seat's port (default %(default)s)")
    serve.add_argument("--no-ssh", action="store_true", help="with --web: serve browsers only")
    serve.add_argument("--tls-cert", metavar="FILE", help="with --web: serve HTTPS with this certificate (PEM)")
    serve.add_argument("--tls-key", metavar="FILE", help="with --web: the certificate's private key (PEM)")
    serve.add_argument(
        "--web-origin",
        metavar="URL",
        help="with --web behind a reverse proxy: the public origin browsers use, e.g. https://yak.example.org",
    )
    serve.add_argument("--host-key")
    serve.add_argument(
        "--max-sessions", type=int, default=32, metavar="N", help="sessions in all (default %(default)s)"
    )
    serve.add_argument(
        "--max-sessions-per-user",
        type=int,
        default=4,
        metavar="N",
        help="sessions of one user at once (default %(default)s)",
    )
    serve.add_argument(
        "--idle-timeout",
        type=float,
        default=3600.0,
        metavar="SECONDS",
        help="close a session after this long without a keystroke; 0: never (default %(default)g)",
    )
    serve.add_argument(
        "--request-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="close a channel that has asked for no terminal after this long (default %(default)g)",
    )
    serve.add_argument(
        "--session-memory",
        type=int,
        default=1024,
        metavar="MIB",
        help="memory limit of each session's app, MiB; 0: none (default %(default)s)",
    )
    serve.add_argument(
        "--max-auth-tries",
        type=int,
        default=6,
        metavar="N",
        help="failed logins on one connection before it is dropped (default %(default)s)",
    )
    serve.add_argument(
        "--max-unauthenticated",
        type=int,
        default=10,
        metavar="N",
        help="connections logging in at once; more are dropped (default %(default)s)",
    )
    serve.add_argument(
        "--max-unauthenticated-per-address",
        type=int,
        default=3,
        metavar="N",
        help="connections logging in at once from one address; more are dropped (default %(default)s)",
    )
    serve.add_argument(
        "--banner-timeout",
        type=float,
        default=10.0,
        metavar="SECONDS",
        help="time a connection has to send its SSH version line (default %(default)g)",
    )
    serve.add_argument(
        "--login-timeout",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="time a connection has to log in (default %(default)g)",
    )

    serve.add_argument(
        "--nudge-before",
        metavar="SPAN",
        help="remind the seats with no orders this long before the deadline, e.g. 12h (`yak season nudge`)",
    )

    user = sub.add_parser("user", help="the roster: who logs in (SSH key or browser link) as which seat")
    user_sub = user.add_subparsers(dest="user_verb", metavar="ACTION")
    add = user_sub.add_parser("add", help="add a login for a seat: --identity, and --key for SSH (none: browser only)")
    add.add_argument("name")
    add.add_argument("--identity", required=True, help="the seat he plays, e.g. player:corvin, king:elbreth, gm")
    add.add_argument("--key", help="public key file (none: the seat plays in a browser only, `user token`)")
    user_sub.add_parser("list", help="the logins and the seat each plays")
    remove = user_sub.add_parser("remove", help="remove a login: his SSH and browser sessions end")
    remove.add_argument("name")
    token = user_sub.add_parser("token", help="print a one-time browser login link for a login (`yak serve --web`)")
    token.add_argument("name")
    token.add_argument(
        "--url",
        default=f"http://127.0.0.1:{web_port}",
        help="where players reach `yak serve --web` (default %(default)s)",
    )
    revoke = user_sub.add_parser("revoke", help="end a login's browser logins: links and live browser sessions")
    revoke.add_argument("name")
    set_user = user_sub.add_parser(
        "set",
        help="a login's settings: --zone, the zone he reads deadlines in; --email, --discord (GM): where his report goes",
    )
    set_user.add_argument("name", nargs="?", default="", help="login name (a seat: default, his own logins)")
    set_user.add_argument("--zone", help="an IANA zone, e.g. Asia/Tokyo")
    set_user.add_argument("--email", help="his e-mail address for his private report ('' clears it; GM)")
    set_user.add_argument(
        "--discord", metavar="WEBHOOK", help="the webhook of his own Discord channel ('' clears it; GM)"
    )

    add_season_parsers(sub)
    add_deliver_parsers(sub)
    add_rules_parser(sub)

    tui = sub.add_parser("tui", help="open the terminal app (the default)")
    tui.add_argument("--no-animation", action="store_true")
    tui.add_argument(
        "--gm-pin",
        action="store_true",
        help="hotseat: going back to the GM's seat asks for a PIN (from YAK_GM_PIN, else asked now)",
    )
    parser.verbs = sub.names if only is not None else set(action.choices)  # type: ignore[attr-defined]
    return parser


def _web_port() -> int:
    from yak_tui.serve.weblogin import WEB_PORT

    return WEB_PORT


def _dice_flags(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--dice", help="naturals in the order the check rolls them, e.g. 4,2")
    parser.add_argument("--seed", type=seed_option, help="seed for random dice (recorded, replayable)")
    parser.add_argument("--odds", action="store_true", help="print exact probabilities instead of rolling")


def seed_option(text: str) -> int:
    """argparse type: a seed is recorded in the chronicle, so it must fit in 64 bits."""
    try:
        return parse_whole(text, INT64_MIN, INT64_MAX)
    except NumberError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
