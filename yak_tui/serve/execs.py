"""The few commands `yak serve` answers without the app (`ssh -p 2222 host orders list`).

An allow-list, parsed exactly: `orders submit` (orders on stdin, one a line), `orders list` and
`report`. Nothing else: no options, no `--as`, no other words; the identity is the key's, given
by the server, and the client's environment is never read. Every order goes through the same
`order-file` command (or `ask` / `spy-order`), with the same filing rule and validation, as in the app.
"""

from __future__ import annotations

import shlex
from pathlib import Path

import orjson

from yak_tui.kernel.errors import YakError
from yak_tui.kernel.identity import Identity

ALLOWED = ("orders submit", "orders list", "report")
# Lines a seat runs as itself (`kernel.filing.SEAT_RUNS`: a request to the GM, a private mission,
# withdrawing his own order, saying he is ready); every other line is filed through `order-file`.
MAX_ORDERS_BYTES = 64 * 1024  # orders on stdin; more is refused, nothing filed
USAGE = "allowed: orders submit < orders.txt, orders list, report"


def exec_verb(command: str) -> str | None:
    """The allowed verb a command line asks for, or None (refused)."""
    try:
        words = shlex.split(command)
    except ValueError:
        return None
    joined = " ".join(words)
    return joined if joined in ALLOWED else None


def _parse_order_line(line: str) -> tuple[str, dict[str, str]]:
    """`roll reason="scout the ford"`: the command, then key=value words (shell quoting)."""
    try:
        words = shlex.split(line)
    except ValueError as error:
        raise YakError(f"cannot read the line ({error})") from None
    name, *rest = words
    params: dict[str, str] = {}
    for word in rest:
        key, sep, value = word.partition("=")
        if not sep or not key:
            raise YakError(f"{word!r} is not key=value")
        params[key] = value
    return name, params


def submit_orders(save: Path, identity: Identity, text: str) -> tuple[int, str]:
    """File each order line; answer each with "received", "received with warnings" (it would fail on
    today's numbers) or "refused" and the reason, with the odds where there are dice.
    Exit status 0 if every order was received, 1 if any was refused."""
    from yak_tui.kernel.commands import load_command_modules, run_command
    from yak_tui.kernel.filing import SEAT_RUNS
    from yak_tui.kernel.forms import odds_words
    from yak_tui.kernel.session import check_identity
    from yak_tui.store.storage import WorldFile

    load_command_modules()
    world_file = WorldFile(save)
    lines = [(n, raw.strip()) for n, raw in enumerate(text.splitlines(), start=1)]
    orders = [(n, line) for n, line in lines if line and not line.startswith("#")]
    if not orders:
        return 1, "no orders given: one order a line, e.g.  roll reason=\"scout the ford\"\n"
    out: list[str] = []
    refused = 0
    for number, line in orders:
        try:
            name, params = _parse_order_line(line)
            command, filed = (name, params) if name in SEAT_RUNS else (
                "order-file", {"command": name, "params": orjson.dumps(params).decode()})
            result = run_command(world_file, identity, command, filed,
                                 check=lambda world: check_identity(world, identity))
            if "adjudicator" not in result.data:  # withdrawn, or ready: what it did, in its own words
                said = "; ".join(str(entry["text"]) for entry in result.shown or []) or f"{name}: done"
                out.append(f"line {number}: done: {said}")
                continue
            out.append(f"line {number}: {result.data['status']} as {result.data['order']} ({name}, waits for "
                       f"{result.data['adjudicator']})"
                       + "".join(f"; warning: {warning}" for warning in result.data["warnings"])
                       + (f"; odds: {odds_words(result.data['odds'])}" if result.data["odds"] else ""))
        except YakError as error:
            refused += 1
            out.append(f"line {number}: refused: {error}")
    out.append(f"{len(orders) - refused} received, {refused} refused")
    return (1 if refused else 0), "\n".join(out) + "\n"


def list_orders(save: Path, identity: Identity) -> tuple[int, str]:
    from yak_tui.kernel.commands import load_command_modules
    from yak_tui.kernel.model import World
    from yak_tui.kernel.orders import describe_order, orders_of
    from yak_tui.store.storage import WorldFile

    load_command_modules()
    world = World(WorldFile(save).read())
    rows = [f"{oid}  {order['status']:9}  {describe_order(world, order)}"
            + (f"  -> {order['outcome'] or order['reason']}" if order.get("outcome") or order.get("reason") else "")
            for oid, order in orders_of(world, identity)]
    return 0, ("\n".join(rows) if rows else f"no orders filed by {identity}") + "\n"


def season_report(save: Path, identity: Identity) -> tuple[int, str]:
    """The key's own report of the last closed season, as Markdown (the one the advance stored);
    before any season has closed, what this identity may read of the chronicle so far."""
    from yak_tui.kernel.chronicle import ChronicleFilter, export_entries, filter_entries
    from yak_tui.kernel.commands import load_command_modules
    from yak_tui.kernel.model import World
    from yak_tui.kernel.reports import render_report, reports_for
    from yak_tui.store.storage import WorldFile

    load_command_modules()
    world = World(WorldFile(save).read())
    found = reports_for(world, identity)
    if found:
        return 0, render_report(found[0], "markdown")
    entries = filter_entries(world, identity, ChronicleFilter.from_args(world, world.date.label(), None, None, None))
    return 0, export_entries(world, entries, "markdown", identity) + "\n"


def run_exec(save: Path, identity: Identity, verb: str, stdin: bytes) -> tuple[int, str]:
    """Answer one allowed verb for the key's identity: (exit status, text for stdout)."""
    try:
        if verb == "orders submit":
            return submit_orders(save, identity, stdin.decode("utf-8", errors="replace"))
        if verb == "orders list":
            return list_orders(save, identity)
        if verb == "report":
            return season_report(save, identity)
    except YakError as error:
        return 2, f"yak serve: {error}\n"
    return 2, f"yak serve: {verb!r} is not allowed ({USAGE})\n"
