"""The `yak` command: the TUI by default, and a headless interface for scripts and tests.

`--json`, `--as`, `--save` and `--rules` are accepted anywhere on the line. With `--json`,
stdout is exactly one JSON object. Errors go to stderr with exit code 2 and change nothing.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import Any

import orjson

from yak_tui.cli.parser import build_parser
from yak_tui.cli.session import GlobalOptions
from yak_tui.kernel.errors import CommandError, UsageError, YakError


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


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    opts = GlobalOptions()
    try:
        opts, rest = _take_globals(argv)
        # House rules are checked once, here, before anything reads a table.
        rules = opts.rules or os.environ.get("YAK_RULES")
        if rules:
            from yak_tui.kernel.world.tables import set_override_dir  # tomllib: only when rules are given

            set_override_dir(rules)
        if _first_word(rest) is None and not any(item in ("-h", "--help") for item in rest):
            # `yak` alone (the README's launch), or with the default verb's own flags (`yak --gm-pin`):
            # its sub-parser alone is built, not the whole line's (~50 ms of every start, issue 30).
            rest = ["tui", *rest]
        verb = _first_word(rest)
        parser = build_parser(with_checks=verb in (None, "resolve"), only=verb)
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
            from yak_tui.kernel.play.identity import who_may_words

            message = f"{message} (who may: {who_may_words(error.who_may)})"
    if opts.json:
        sys.stderr.write(orjson.dumps(payload).decode() + "\n")
    else:
        sys.stderr.write(f"yak: {message}\n")
    if not isinstance(error, YakError | OSError) and os.environ.get("YAK_DEBUG"):
        raise error
    return 2


def run() -> None:
    """The `yak` command. A command that is done leaves the process at once (`os._exit`, its output
    flushed) instead of freeing what it read one object at a time: a 1000x world is millions of
    objects, ~0.2 s of CPU to free (16 ms at 100x), memory the system takes back anyway. Not while
    another thread runs (a server's, a worker's: exiting would cut it short)."""
    code = main()
    threading = sys.modules.get("threading")  # never imported: no thread was ever started
    if threading is None or threading.active_count() == 1:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (OSError, ValueError):  # a closed pipe, a closed stream: the ordinary exit reports it
            pass
        else:
            from yak_tui.codecache import save_kept

            save_kept()  # what its `atexit` handler would store: `os._exit` runs none
            os._exit(code)
    sys.exit(code)
