"""The `yak` command: the TUI by default, and a headless interface for scripts and tests.

`--json`, `--as`, `--save` and `--rules` are accepted anywhere on the line. With `--json`,
stdout is exactly one JSON object. Errors go to stderr with exit code 2 and change nothing.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NoReturn

import orjson

from yak_tui.kernel.errors import CommandError, UsageError, YakError
from yak_tui.kernel.play.areas import AREA_PACKAGES
from yak_tui.kernel.world.numbers import NumberError, parse_whole
from yak_tui.kernel.world.tables import set_override_dir

DEFAULT_SAVE = Path("saves") / "world.json"
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# Importing an area package registers its `yak resolve` checks.
RESOLVE_MODULES = AREA_PACKAGES
# The flags of `yak tui` that may come without its verb (it is the default one).
TUI_FLAGS = ("--no-animation", "--gm-pin")


class YakArgumentParser(argparse.ArgumentParser):
    """Every parse error, in any sub-command, is one line on stderr (a UsageError), not a usage block."""

    def error(self, message: str) -> NoReturn:
        where = self.prog.removeprefix("yak").strip()
        raise UsageError(f"{where}: {message}" if where else message)


@dataclass
class GlobalOptions:
    json: bool = False
    identity: str = "gm"
    save: str | None = None
    rules: str | None = None


def _take_globals(argv: Sequence[str]) -> tuple[GlobalOptions, list[str]]:
    opts = GlobalOptions()
    rest: list[str] = []
    items = list(argv)
    i = 0
    valued = {"--as": "identity", "--save": "save", "--rules": "rules"}
    while i < len(items):
        item = items[i]
        if item == "--":
            rest.extend(items[i:])
            break
        if item == "--json":
            opts.json = True
        elif item in valued:
            if i + 1 >= len(items):
                raise UsageError(f"{item} needs a value")
            setattr(opts, valued[item], items[i + 1])
            i += 1
        elif any(item.startswith(f"{flag}=") for flag in valued):
            flag, _, value = item.partition("=")
            setattr(opts, valued[flag], value)
        else:
            rest.append(item)
        i += 1
    return opts, rest


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


def build_parser(with_checks: bool = True) -> argparse.ArgumentParser:
    """The whole command line. `with_checks=False` leaves `resolve`'s checks out: listing them
    imports every area package, which a verb that reads the save (`show`, `log`) does not need."""
    parser = YakArgumentParser(
        prog="yak",
        description="yak_tui: run a You Are King campaign from a terminal. "
        "Global options anywhere: --save PATH, --as gm|king:<kingdom>|player:<character>, --json, --rules DIR.",
    )
    sub = parser.add_subparsers(dest="verb", metavar="COMMAND")

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

    restore = sub.add_parser("restore", help="list backups, or restore one")
    restore.add_argument("backup", nargs="?")

    export = sub.add_parser("export", help="export the chronicle as forum text, or the whole world as TOML (GM)")
    export.add_argument("--format", choices=("bbcode", "markdown", "toml"), default="bbcode")
    export.add_argument("--season")
    export.add_argument("--kingdom")
    export.add_argument(
        "--audience",
        default="public",
        help="whose record: public (the default, the forum's), gm, kingdom:<id> or player:<id>",
    )

    serve = sub.add_parser("serve", help="host the campaign over SSH")
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=2222)
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

    user = sub.add_parser("user", help="the SSH roster")
    user_sub = user.add_subparsers(dest="user_verb", metavar="ACTION")
    add = user_sub.add_parser("add")
    add.add_argument("name")
    add.add_argument("--identity", required=True)
    add.add_argument("--key", required=True, help="public key file")
    user_sub.add_parser("list")
    remove = user_sub.add_parser("remove")
    remove.add_argument("name")

    from yak_tui.cli.season import add_season_parsers

    add_season_parsers(sub)
    from yak_tui.cli.rules import add_rules_parser

    add_rules_parser(sub)

    tui = sub.add_parser("tui", help="open the terminal app (the default)")
    tui.add_argument("--no-animation", action="store_true")
    tui.add_argument(
        "--gm-pin",
        action="store_true",
        help="hotseat: going back to the GM's seat asks for a PIN (from YAK_GM_PIN, else asked now)",
    )
    return parser


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


def dice_from(args: argparse.Namespace) -> Any:
    from yak_tui.kernel.play.dice import ScriptedDice, SeededDice, parse_dice

    if getattr(args, "dice", None):
        return ScriptedDice(parse_dice(args.dice))
    return SeededDice(getattr(args, "seed", None))


def emit(opts: GlobalOptions, payload: dict[str, Any], text: str | None = None, encoded: bytes = b"") -> None:
    """Print a reply: exactly one JSON object with --json (`encoded` if it is already serialised)."""
    if opts.json:
        sys.stdout.write((encoded or orjson.dumps(payload)).decode() + "\n")
    else:
        sys.stdout.write((text if text is not None else human(payload)) + "\n")


def human(payload: dict[str, Any], indent: int = 0) -> str:
    lines = []
    pad = "  " * indent
    for key, value in payload.items():
        if isinstance(value, dict):
            lines.append(f"{pad}{key}:")
            lines.append(human(value, indent + 1))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(f"{pad}{key}:")
            for item in value:
                lines.append(human(item, indent + 1))
                lines.append("")
        else:
            lines.append(f"{pad}{key}: {value}")
    return "\n".join(line for line in lines if line is not None)


def save_path(opts: GlobalOptions) -> Path:
    return Path(opts.save or os.environ.get("YAK_SAVE") or DEFAULT_SAVE)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    opts = GlobalOptions()
    try:
        opts, rest = _take_globals(argv)
        # House rules are checked once, here, before anything reads a table.
        rules = opts.rules or os.environ.get("YAK_RULES")
        if rules:
            set_override_dir(rules)
        if _first_word(rest) is None and any(item in TUI_FLAGS for item in rest):
            rest = ["tui", *rest]  # `yak --gm-pin`: the default verb's own flags
        parser = build_parser(with_checks=_first_word(rest) in (None, "resolve"))
        parser.exit_on_error = False
        args = _parse(parser, rest)
        from yak_tui.cli.commands import dispatch
        from yak_tui.cli.rules import warn_if_saved_rules_win

        warn_if_saved_rules_win(opts, args)

        return dispatch(opts, args)
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 2
        return 0 if code == 0 else 2
    except Exception as error:  # every failure becomes a clear message and exit 2
        return report_error(opts, error)


def _first_word(rest: Sequence[str]) -> str | None:
    """The verb on the line (the first word that is not an option), if any."""
    return next((item for item in rest if not item.startswith("-")), None)


def _parse(parser: argparse.ArgumentParser, rest: list[str]) -> argparse.Namespace:
    try:
        return parser.parse_args(rest)
    except argparse.ArgumentError as error:
        raise UsageError(str(error)) from None


def report_error(opts: GlobalOptions, error: BaseException) -> int:
    # Every error the core raises on bad input is a YakError: its message is one clear line.
    # Anything else is a bug, reported as such (YAK_DEBUG=1 shows the traceback).
    if isinstance(error, YakError):
        message = str(error)
    elif isinstance(error, OSError):
        where = f"{error.filename}: " if error.filename else ""
        message = f"{where}{error.strerror or error}"
    else:
        message = f"internal error ({type(error).__name__}): {error}"
    message = message.replace("\n", " ")  # one line on stderr, always
    payload: dict[str, Any] = {"error": message}
    if isinstance(error, CommandError):
        payload.update({"field": error.field, "reason": error.reason})
        if error.who_may:
            payload["who_may"] = list(error.who_may)
            message = f"{message} (who may: {', '.join(error.who_may)})"
    if opts.json:
        sys.stderr.write(orjson.dumps(payload).decode() + "\n")
    else:
        sys.stderr.write(f"yak: {message}\n")
    if not isinstance(error, YakError | OSError) and os.environ.get("YAK_DEBUG"):
        raise error
    return 2


def run() -> None:
    sys.exit(main())
