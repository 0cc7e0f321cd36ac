"""The few commands `yak serve` answers without the app (`ssh -p 2222 host orders list`).

An allow-list, parsed exactly: `orders submit` (orders on stdin, one a line), `orders list` (the key's
own orders), `orders` (the orders waiting, by adjudicator, as the key may see them: a King's queue),
`due` (what is due for the key), `report` and `map` (the hex map as the key may see it, as SVG). Nothing else: no options, no `--as`, no other words; the identity is the key's, given
by the server, and the client's environment is never read. Every order goes through the same
`order-file` command (or `ask` / `spy-order`), with the same filing rule and validation, as in the app;
one submit is one transaction (one save write), of at most `orders_per_submit` lines.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from pathlib import Path

import orjson

from yak_tui.kernel.errors import YakError
from yak_tui.kernel.play.identity import Identity

ALLOWED = ("orders submit", "orders list", "orders", "due", "report", "map")
# Lines a seat runs as itself (`kernel.play.filing.SEAT_RUNS`: a request to the GM, a private mission,
# withdrawing his own order, saying he is ready); every other line is filed through `order-file`.
MAX_ORDERS_BYTES = 64 * 1024  # orders on stdin; more is refused, nothing filed
USAGE = "allowed: orders submit < orders.txt, orders list, orders, due, report, map > map.svg"


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


def submit_orders(save: Path, identity: Identity, text: str, stop: Callable[[], bool] | None = None) -> tuple[int, str]:
    """Carry out the order lines in ONE transaction (`kernel.play.commands.run_commands`: one save
    write for the lot); answer each with "received", "received with warnings" (it would fail on
    today's numbers) or "refused" and the reason, with the odds where there are dice. A refused line
    leaves the others filed. At most `orders_per_submit` lines are read (the rest are refused
    unread, in one line), and the seat's `orders_per_seat_per_season` holds as everywhere.
    `stop` says the client is gone: then nothing of the submit is filed (`Stopped`).
    Exit status 0 if every order was received, 1 if any was refused."""
    from yak_tui.kernel.play.commands import CommandResult, load_command_modules, run_commands
    from yak_tui.kernel.play.filing import SEAT_RUNS, orders_cap
    from yak_tui.kernel.play.views import odds_words
    from yak_tui.kernel.season.session import check_identity
    from yak_tui.kernel.world.model import World
    from yak_tui.store.storage import WorldFile

    load_command_modules()
    world_file = WorldFile(save)
    lines = [(n, raw.strip()) for n, raw in enumerate(text.splitlines(), start=1)]
    orders = [(n, line) for n, line in lines if line and not line.startswith("#")]
    if not orders:
        return 1, 'no orders given: one order a line, e.g.  roll reason="scout the ford"\n'
    answers: dict[int, str] = {}  # line number -> its answer
    refused: set[int] = set()
    ran: list[tuple[int, str]] = []  # (line number, command) of each command carried out, in order
    unread: list[tuple[int, str]] = []
    caps: list[int] = []

    def plan(world: World) -> list[tuple[str, dict[str, str]]]:
        check_identity(world, identity)
        cap = orders_cap("orders_per_submit")  # read now: the save's own rules are loaded
        caps.append(cap)
        read = orders if cap <= 0 else orders[:cap]
        unread.extend(orders[len(read) :])
        commands: list[tuple[str, dict[str, str]]] = []
        for number, line in read:
            try:
                name, params = _parse_order_line(line)
            except YakError as error:
                answers[number] = f"line {number}: refused: {error}"
                refused.add(number)
                continue
            ran.append((number, name))
            commands.append(
                (name, params)
                if name in SEAT_RUNS
                else ("order-file", {"command": name, "params": orjson.dumps(params).decode()})
            )
        return commands

    results = run_commands(world_file, identity, plan, stop=stop)
    for (number, name), result in zip(ran, results, strict=True):
        if not isinstance(result, CommandResult):
            answers[number] = f"line {number}: refused: {result}"
            refused.add(number)
        elif "adjudicator" not in result.data:  # withdrawn, or ready: what it did, in its own words
            said = "; ".join(str(entry["text"]) for entry in result.shown or []) or f"{name}: done"
            answers[number] = f"line {number}: done: {said}"
        else:
            answers[number] = (
                f"line {number}: {result.data['status']} as {result.data['order']} ({name}, waits for "
                f"{result.data['adjudicator']})"
                + "".join(f"; warning: {warning}" for warning in result.data["warnings"])
                + (f"; odds: {odds_words(result.data['odds'], name)}" if result.data["odds"] else "")
            )
    out = [answers[number] for number, _ in orders if number in answers]
    if unread:
        first, last = unread[0][0], unread[-1][0]
        where = f"line {first}" if first == last else f"lines {first}-{last}"
        out.append(
            f"{where} ({len(unread)} more): refused, not read: one submit carries out at most {caps[0]} lines "
            f"(orders_per_submit = {caps[0]}, core.toml [orders]); send them in another submit"
        )
    count = len(refused) + len(unread)
    out.append(f"{len(orders) - count} received, {count} refused")
    return (1 if count else 0), "\n".join(out) + "\n"


def list_orders(save: Path, identity: Identity) -> tuple[int, str]:
    from yak_tui.kernel.play.commands import load_command_modules
    from yak_tui.kernel.play.orders import describe_order, orders_of
    from yak_tui.kernel.season.readiness import deadline_line
    from yak_tui.kernel.world.model import World
    from yak_tui.store.storage import WorldFile

    load_command_modules()
    world = World.load(WorldFile(save))
    due = deadline_line(world, identity)  # in the key's own zone (`user-zone`)
    head = [f"Orders for {world.date.label()} due by {due}"] if due else []
    rows = [
        f"{oid}  {order['status']:9}  {describe_order(world, order)}"
        + ("  (filed after the deadline)" if order.get("late") else "")
        + (f"  -> {order['outcome'] or order['reason']}" if order.get("outcome") or order.get("reason") else "")
        for oid, order in orders_of(world, identity)
    ]
    return 0, "\n".join(head + (rows or [f"no orders filed by {identity}"])) + "\n"


def waiting_orders(save: Path, identity: Identity) -> tuple[int, str]:
    """`yak orders` for the key: the orders waiting that it may see, by adjudicator."""
    from yak_tui.kernel.play.commands import load_command_modules
    from yak_tui.kernel.play.queue import order_lines, waiting_text
    from yak_tui.kernel.season.session import check_identity
    from yak_tui.kernel.world.model import World
    from yak_tui.store.storage import WorldFile

    load_command_modules()
    world = World.load(WorldFile(save))
    check_identity(world, identity)
    return 0, waiting_text(world, identity, order_lines(world, identity)) + "\n"


def due_now(save: Path, identity: Identity) -> tuple[int, str]:
    """`yak due` for the key: the orders it rules on, its own, and what the rules say is due."""
    from yak_tui.kernel.season.session import check_identity, due_for, due_text
    from yak_tui.kernel.world.model import World
    from yak_tui.store.storage import WorldFile

    world = World.load(WorldFile(save))
    check_identity(world, identity)
    return 0, due_text(due_for(world, identity)) + "\n"


def season_report(save: Path, identity: Identity) -> tuple[int, str]:
    """The key's own report of the last closed season, as Markdown (the one the advance stored);
    before any season has closed, what this identity may read of the chronicle so far."""
    from yak_tui.kernel.play.chronicle import ChronicleFilter, export_entries, filter_entries
    from yak_tui.kernel.play.commands import load_command_modules
    from yak_tui.kernel.season.reports import render_report, reports_for
    from yak_tui.kernel.world.model import World
    from yak_tui.store.storage import WorldFile

    load_command_modules()
    world = World.load(WorldFile(save))
    found = reports_for(world, identity)
    if found:
        return 0, render_report(found[0], "markdown")
    entries = filter_entries(world, identity, ChronicleFilter.from_args(world, world.date.label(), None, None, None))
    return 0, export_entries(world, entries, "markdown", identity) + "\n"


def map_picture(save: Path, identity: Identity) -> tuple[int, str]:
    """`yak map` for the key: the hex map as SVG, drawn as this identity may see it (the same
    picture `yak post` attaches to his report)."""
    from yak_tui.deliver.mapsvg import map_svg
    from yak_tui.kernel.season.session import check_identity
    from yak_tui.kernel.world.model import World
    from yak_tui.store.storage import WorldFile

    world = World.load(WorldFile(save))
    check_identity(world, identity)
    return 0, map_svg(world, identity)


def run_exec(
    save: Path, identity: Identity, verb: str, stdin: bytes, stop: Callable[[], bool] | None = None
) -> tuple[int, str]:
    """Answer one allowed verb for the key's identity: (exit status, text for stdout). `stop` says
    the client has gone (an `orders submit` then files nothing)."""
    try:
        if verb == "orders submit":
            return submit_orders(save, identity, stdin.decode("utf-8", errors="replace"), stop)
        if verb == "orders list":
            return list_orders(save, identity)
        if verb == "orders":
            return waiting_orders(save, identity)
        if verb == "due":
            return due_now(save, identity)
        if verb == "report":
            return season_report(save, identity)
        if verb == "map":
            return map_picture(save, identity)
    except YakError as error:
        return 2, f"yak serve: {error}\n"
    return 2, f"yak serve: {verb!r} is not allowed ({USAGE})\n"
