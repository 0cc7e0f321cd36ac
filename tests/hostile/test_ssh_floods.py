"""Floods against `yak serve` (issue 25, items 5 and 6), each against a real server on loopback:
silent TCP connections from one address neither fill the login slots of every other address nor
hold theirs past the banner grace; a 64 KB `orders submit` is one transaction (one save write) of at
most `orders_per_submit` lines under the seat's `orders_per_seat_per_season`; a client that goes
while its submit is being filed has nothing of it filed."""

from __future__ import annotations

import asyncio
import hashlib
import sys
import threading
import time
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import asyncssh
import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "serve"))
from serve_helpers import TIMEOUT, ServerThread, User, connect, make_world, stub_argv

from yak_tui.kernel.play import commands as kernel_commands
from yak_tui.kernel.world.model import World
from yak_tui.serve.config import ServeConfig
from yak_tui.serve.execs import MAX_ORDERS_BYTES
from yak_tui.store.storage import WorldFile

T = TypeVar("T")
USERS = {"gm": "gm", "corvin": "player:corvin", "lysa": "player:lysa", "edmund": "player:edmund"}
FLOODER = "127.0.0.1"
OTHER = "127.0.0.2"  # all of 127/8 is loopback on Linux: a second client address without a network


def run(coro: Coroutine[Any, Any, T], bound: float = 60) -> T:
    return asyncio.run(asyncio.wait_for(coro, bound))


def config(save: Path, **limits: Any) -> ServeConfig:
    return ServeConfig(save=save, port=0, app_argv=stub_argv, kill_grace=0.5, refusal_lines_per_second=1000, **limits)


async def until(condition: Any, what: str, timeout: float = TIMEOUT) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.02)


async def read_to_eof(reader: asyncio.StreamReader) -> None:
    while await asyncio.wait_for(reader.read(65536), TIMEOUT):
        pass


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, dict[str, User]]:
    save, users = make_world(tmp_path / "floods", USERS)
    return save.path, users


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Path]]:
    """Every save write of the test, in any thread (the server answers execs off its loop)."""
    written: list[Path] = []
    write = WorldFile._write

    def counted(self: WorldFile, snapshot: Any) -> None:
        written.append(self.path)
        write(self, snapshot)

    monkeypatch.setattr(WorldFile, "_write", counted)
    yield written


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- 5: pre-auth floods ---------------------------------------------------------------------------
def test_thirty_silent_connections_from_one_address_do_not_lock_out_another(
    world: tuple[Path, dict[str, User]],
) -> None:
    save, users = world
    # Long graces, so that only the per-address cap keeps the silent ones from the other slots.
    limits = config(
        save, max_unauthenticated=10, max_unauthenticated_per_address=3, banner_timeout=60.0, login_timeout=60.0
    )

    async def body(server: ServerThread) -> tuple[float, str, str]:
        port = server.port
        silent = [await asyncio.open_connection(FLOODER, port) for _ in range(30)]  # never send a version line

        def settled() -> bool:  # each one is logging in, or was dropped and is gone
            return server.call(lambda: (server.server.pending_logins(), len(server.server.connections))) == (3, 3)

        await until(settled, "3 of the 30 logging in, the other 27 dropped")
        started = time.monotonic()
        async with await connect(port, users["edmund"], local_addr=(OTHER, 0)) as conn:
            listed = await conn.run("orders list")
        took = time.monotonic() - started
        # The flooding address itself is at its cap: its next connection is dropped.
        with pytest.raises(asyncssh.DisconnectError, match="too many connections are logging in"):
            await connect(port, users["corvin"], local_addr=(FLOODER, 0))
        for _, writer in silent:
            writer.close()
        return took, str(listed.stdout), str(listed.stderr)

    with ServerThread(limits) as server:
        took, out, err = run(body(server))
        refused = [
            line for line in server.log.text().splitlines() if line.startswith(f"refused connection from={FLOODER}:")
        ]
    assert "no orders filed by player:edmund" in out, (out, err)
    assert took < 5.0, f"the login from {OTHER} took {took:.1f} s"
    assert len(refused) == 28 and all(
        f"connections from {FLOODER} are already logging in (at most 3 from one address)" in line for line in refused
    ), refused[:3]


def test_silent_connections_are_dropped_after_the_banner_grace(world: tuple[Path, dict[str, User]]) -> None:
    save, users = world
    limits = config(save, max_unauthenticated_per_address=3, banner_timeout=0.5, login_timeout=60.0)

    async def body(server: ServerThread) -> tuple[list[float], str]:
        port = server.port
        started = time.monotonic()
        silent = [await asyncio.open_connection(FLOODER, port) for _ in range(2)]
        speaker = await asyncio.open_connection(FLOODER, port)  # says its version, then nothing more
        speaker[1].write(b"SSH-2.0-flood_0.1\r\n")
        gone: list[float] = []
        for reader, writer in silent:  # the server hangs up: no SSH version line within the grace
            await read_to_eof(reader)
            gone.append(time.monotonic() - started)
            writer.close()
        # The one that spoke SSH is the login timeout's (60 s here): still logging in.
        await until(lambda: server.call(lambda: server.server.pending_logins()) == 1, "the silent ones forgotten")
        async with await connect(port, users["edmund"]) as conn:  # the slots they held are free again
            listed = await conn.run("orders list")
        speaker[1].close()
        return gone, str(listed.stdout)

    with ServerThread(limits) as server:
        gone, out = run(body(server))
        line = server.log.wait_for("no SSH version line within 0.5 s")
    assert all(0.4 < after < 10.0 for after in gone), gone
    assert line.startswith(f"refused connection from={FLOODER}:")
    assert "no orders filed by player:edmund" in out


# -- 6: a flood of orders ---------------------------------------------------------------------------
LINE = "roll reason=scout\n"  # 18 bytes: 3,640 of them are just under 64 KB


def orders_of(save: Path, identity: str) -> list[dict[str, Any]]:
    return [order for _, order in World(WorldFile(save).read()).all("orders") if order["filed_by"] == identity]


def test_a_64kb_submit_is_one_write_of_at_most_the_caps(
    world: tuple[Path, dict[str, User]], writes: list[Path]
) -> None:
    save, users = world
    flood = LINE * (MAX_ORDERS_BYTES // len(LINE))
    lines = flood.count("\n")
    assert lines > 3600 and len(flood) <= MAX_ORDERS_BYTES
    revision = World(WorldFile(save).read()).meta.get("revision", 0)
    chronicle = len(World(WorldFile(save).read()).data["chronicle"])

    async def body(port: int) -> tuple[float, asyncssh.SSHCompletedProcess, asyncssh.SSHCompletedProcess]:
        async with await connect(port, users["corvin"]) as conn:
            started = time.monotonic()
            first = await conn.run("orders submit", input=flood)
            took = time.monotonic() - started
            again = await conn.run("orders submit", input=LINE + 'ask text="one more"\n')
        return took, first, again

    with ServerThread(config(save)) as server:
        took, first, again = run(body(server.port), bound=30)
    out = str(first.stdout).splitlines()
    assert first.exit_status == 1
    assert out[0].startswith("line 1: received as o-") and out[49].startswith("line 50: received as o-")
    assert out[50] == (
        f"lines 51-{lines} ({lines - 50} more): refused, not read: one submit carries out at most 50 "
        "lines (orders_per_submit = 50, core.toml [orders]); send them in another submit"
    )
    assert out[51:] == [f"50 received, {lines - 50} refused"]
    assert took < 15.0, f"the submit took {took:.1f} s"
    # One write for the whole submit, and the save holds the 50 orders it filed and their 50 lines.
    assert writes == [save]
    after = World(WorldFile(save).read())
    assert after.meta["revision"] == revision + 1
    assert len(orders_of(save, "player:corvin")) == 50
    assert len(after.data["chronicle"]) == chronicle + 50
    # The season's cap (50) is reached: the next submit files nothing and writes nothing.
    assert again.exit_status == 1
    refusals = str(again.stdout).splitlines()
    assert len(refusals) == 3 and refusals[-1] == "0 received, 2 refused"
    for line in refusals[:2]:
        assert ": refused: order: Corvin Hale has filed 50 orders this season" in line
        assert "(orders_per_seat_per_season = 50, core.toml [orders])" in line
    assert writes == [save]
    assert len(orders_of(save, "player:corvin")) == 50


def test_a_client_that_goes_mid_submit_has_nothing_filed(
    world: tuple[Path, dict[str, User]], writes: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    save, users = world
    before = digest(save)
    third_order = threading.Event()  # the server is filing the third line of the submit
    go_on = threading.Event()  # the test has seen the server notice that the client is gone
    filed = []
    apply = kernel_commands.apply_command

    def held(world: World, identity: Any, name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "order-file":
            filed.append(name)
            if len(filed) == 3:
                third_order.set()
                assert go_on.wait(TIMEOUT), "never released"
        return apply(world, identity, name, *args, **kwargs)

    monkeypatch.setattr(kernel_commands, "apply_command", held)

    async def body(server: ServerThread) -> None:
        conn = await connect(server.port, users["lysa"])
        process = await conn.create_process("orders submit")
        process.stdin.write(LINE * 10)
        process.stdin.write_eof()
        await until(third_order.is_set, "the server filing the third line")
        conn.close()
        await conn.wait_closed()
        await until(lambda: not server.call(lambda: server.server.sessions), "the server seeing the client go")

    with ServerThread(config(save)) as server:
        try:
            run(body(server))
        finally:
            go_on.set()
        line = server.log.wait_for("the client went away before its answer")
    assert "nothing was written" in line
    assert len(filed) == 3  # it stopped at the next line
    assert writes == [] and digest(save) == before
    assert orders_of(save, "player:lysa") == []
