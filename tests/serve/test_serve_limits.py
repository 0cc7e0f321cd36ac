"""`yak serve` limits, each against a real server on loopback with asyncssh as the client and
the stand-in app: a huge pty is clamped and the app's memory capped; bare channels time out and
one user cannot hold every slot; MaxAuthTries; connections still logging in are bounded and
timed out; refusal log lines are rate-limited; a user whose seat goes is sent away."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import time
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import asyncssh
import pytest
from serve_helpers import (
    TIMEOUT,
    BareChannel,
    LogRecorder,
    ServerThread,
    Terminal,
    User,
    connect,
    make_world,
    open_terminal,
    stub_argv,
    stub_pid,
    wait_gone,
)

from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.demo import create_world
from yak_tui.serve.config import ServeConfig
from yak_tui.serve.connection import RefusalLog
from yak_tui.serve.ptyproc import MAX_COLUMNS, MAX_ROWS

T = TypeVar("T")
USERS = {"gm": "gm", "edmund": "player:edmund", "mirela": "king:varos", "nyx": "player:nyx"}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, User]]:
    save, users = make_world(tmp_path_factory.mktemp("limits"), USERS)
    return save.path, users


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 60))


def stub_config(save: Path, **limits: Any) -> ServeConfig:
    return ServeConfig(save=save, port=0, app_argv=stub_argv, kill_grace=0.5, **limits)


async def until(condition: Any, what: str, timeout: float = TIMEOUT) -> None:
    """Wait for a condition checked on the client's loop (poll, generous bound)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"never happened: {what}")
        await asyncio.sleep(0.02)


# -- 8: pty size and memory ---------------------------------------------------------------------
def address_space_limit(pid: int) -> tuple[str, str]:
    limits = Path(f"/proc/{pid}/limits").read_text()
    match = re.search(r"^Max address space\s+(\S+)\s+(\S+)", limits, re.MULTILINE)
    assert match, limits
    return match.group(1), match.group(2)


def test_a_huge_pty_is_clamped_and_the_apps_memory_is_limited(world: tuple[Path, dict[str, User]]) -> None:
    save, users = world

    async def body(port: int) -> tuple[str, tuple[str, str], bytes]:
        async with await connect(port, users["edmund"]) as conn:
            _, term = await conn.create_session(
                lambda: Terminal(100, 30), term_type="xterm", term_size=(65535, 65535), encoding=None
            )
            line = await term.wait_line("STUB")
            limit = address_space_limit(stub_pid(line))
            term.chan.change_terminal_size(80, 24)
            await term.wait_raw(b"WINCH size=80x24")
            term.chan.change_terminal_size(65535, 4000)  # window changes are clamped too
            await term.wait_raw(f"WINCH size={MAX_COLUMNS}x{MAX_ROWS}".encode())
            term.send("m")  # the app asks for 4 GiB of address space
            await term.wait_line("MMAP")
            term.send("q")
            await term.wait_closed()
            return line, limit, bytes(term.raw)

    with ServerThread(stub_config(save, session_memory=640)) as server:
        line, limit, raw = run(body(server.port))
        server.log.wait_for("clamped terminal size 65535x65535 to 500x200 for user=edmund")
        assert "memory=640MiB" in server.log.wait_for("session start user=edmund")
    assert f"size={MAX_COLUMNS}x{MAX_ROWS}" in line
    assert limit == (str(640 * 1024 * 1024),) * 2
    assert b"MMAP refused errno=12" in raw  # ENOMEM: the limit holds in the app


def test_session_memory_zero_means_no_limit(world: tuple[Path, dict[str, User]]) -> None:
    save, users = world

    async def body(port: int) -> tuple[str, str]:
        async with await connect(port, users["edmund"]) as conn:
            term = await open_terminal(conn)
            return address_space_limit(stub_pid(await term.wait_line("STUB")))

    with ServerThread(stub_config(save, session_memory=0)) as server:
        assert run(body(server.port)) == ("unlimited", "unlimited")


# -- 9: bare channels, sessions per user ------------------------------------------------------------
def test_bare_channels_time_out_and_one_user_cannot_hold_every_slot(world: tuple[Path, dict[str, User]]) -> None:
    save, users = world
    config = stub_config(save, request_timeout=1.5, max_sessions_per_user=4, max_sessions=16)

    async def body(port: int) -> tuple[list[bytes], str]:
        async with (
            await connect(port, users["edmund"]) as first,
            await connect(port, users["edmund"]) as second,
            await connect(port, users["gm"]) as gm_conn,
        ):
            gm = await open_terminal(gm_conn)  # a real session, started before the bare channels
            await gm.wait_line("STUB")
            bare = [await BareChannel.open(conn) for conn in (first, first, second, second)]
            for conn in (first, second):  # the 5th of the same user, on either connection
                with pytest.raises(asyncssh.ChannelOpenError, match="already have 4 sessions open"):
                    await open_terminal(conn)
            async with await connect(port, users["mirela"]) as other:  # other users still get in
                await (await open_terminal(other)).wait_line("STUB")
            for channel in bare:  # closed by the request timeout, without the client doing anything
                await channel.wait_closed()
            gm.send("k")  # a session with a shell is not touched by the request timeout
            await gm.wait_line("KEY b'k'")
            again = await open_terminal(first)  # the slots are free again
            return [bytes(channel.stderr) for channel in bare], await again.wait_line("STUB")

    with ServerThread(config) as server:
        notes, line = run(body(server.port))
        server.log.wait_for("refused session user=edmund")
        server.log.wait_for("closing channel of user=edmund after 1.5s without a shell request")
    assert all(b"closed after 1.5 s without a request" in note for note in notes)
    assert "identity=player:edmund" in line


# -- 10: authentication tries, connections logging in, log flood ----------------------------------------
def test_the_seventh_key_is_never_tried(world: tuple[Path, dict[str, User]]) -> None:
    save, users = world
    strangers = [asyncssh.generate_private_key("ssh-ed25519") for _ in range(7)]
    edmund = users["edmund"]

    async def login(keys: list[asyncssh.SSHKey]) -> str:
        async with await connect(port, edmund, client_keys=keys) as conn:
            term = await open_terminal(conn)
            return await term.wait_line("STUB")

    with ServerThread(stub_config(save, max_auth_tries=6)) as server:
        port = server.port
        # Five failures, then the right key: in (six tries in all).
        assert "identity=player:edmund" in run(login([*strangers[:5], edmund.key]))
        # Six failures: the connection is dropped before a seventh key is looked at.
        with pytest.raises(asyncssh.PermissionDenied, match=r"too many authentication failures \(6\)"):
            run(login([*strangers, edmund.key]))
        line = server.log.wait_for("too many authentication failures")
    assert "refused login ssh_user=edmund" in line and "(6), disconnected" in line
    assert all(key.get_fingerprint("sha256") in line for key in strangers[:6])
    assert strangers[6].get_fingerprint("sha256") not in line


def test_connections_logging_in_are_bounded_and_timed_out(world: tuple[Path, dict[str, User]]) -> None:
    save, users = world
    config = stub_config(save, max_unauthenticated=3, login_timeout=1.0, refusal_lines_per_second=1000)

    async def body(server: ServerThread) -> str:
        port = server.port
        holders = [await asyncio.open_connection("127.0.0.1", port) for _ in range(3)]
        for reader, _ in holders:  # accepted: the server said its version, and waits for a login
            assert (await asyncio.wait_for(reader.readline(), TIMEOUT)).startswith(b"SSH-2.0-")
        with pytest.raises(asyncssh.DisconnectError, match="too many connections are logging in; try again later"):
            await connect(port, users["edmund"])
        for reader, writer in holders:  # the login timeout drops the silent ones
            while await asyncio.wait_for(reader.read(65536), TIMEOUT):
                pass
            writer.close()
        await until(lambda: server.call(lambda: server.server.pending_logins()) == 0, "holders forgotten")
        async with await connect(port, users["edmund"]) as conn:
            return await (await open_terminal(conn)).wait_line("STUB")

    with ServerThread(config) as server:
        assert "identity=player:edmund" in run(body(server))
        line = server.log.wait_for("refused connection from=127.0.0.1:")
        assert "3 connections are already logging in (at most 3)" in line
        server.log.wait_for("Login timeout expired")


def test_a_connection_flood_is_logged_in_few_lines(world: tuple[Path, dict[str, User]]) -> None:
    save, _ = world
    config = stub_config(save, max_unauthenticated=1, login_timeout=30.0, refusal_lines_per_second=3)
    dropped = 12

    async def body(port: int) -> None:
        holder = await asyncio.open_connection("127.0.0.1", port)
        await asyncio.wait_for(holder[0].readline(), TIMEOUT)
        for _ in range(dropped):
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            while await asyncio.wait_for(reader.read(65536), TIMEOUT):  # dropped by the server
                pass
            writer.close()
        holder[1].close()

    with ServerThread(config) as server:
        run(body(server.port))

        def counted() -> tuple[int, int]:
            lines = server.log.text().splitlines()
            written = sum(1 for line in lines if line.startswith("refused "))
            held = sum(int(n) for line in lines for n in re.findall(r"^suppressed (\d+) similar refusal line", line))
            return written, held

        # Every refusal is either written or counted: the dropped ones and the holder's refused login.
        refusals = dropped + 1
        deadline = time.monotonic() + TIMEOUT
        while sum(counted()) < refusals and time.monotonic() < deadline:  # a summary comes at its window's end
            time.sleep(0.02)
    written, held = counted()
    assert written + held == refusals
    # 12 drops on loopback take far less than the 4 seconds that 3 lines a second would need.
    assert held > 0 and written < refusals


def test_refusal_lines_past_the_rate_are_summed_up() -> None:
    recorder = LogRecorder()
    logger = logging.getLogger("yak.serve")
    logger.addHandler(recorder)
    logger.setLevel(logging.INFO)
    now = [100.0]
    try:
        refusals = RefusalLog(3, window=1.0, clock=lambda: now[0])
        for n in range(10):
            refusals.warning("refused login n=%d", n)
        now[0] = 101.5
        refusals.warning("refused login n=%d", 10)
        refusals.flush()

        async def timed() -> None:  # with a loop running, the summary does not wait for a next line
            live = RefusalLog(2, window=0.2)
            for n in range(5):
                live.warning("refused session n=%d", n)
            await until(
                lambda: "suppressed 3 similar refusal line(s) in the last 0.2s" in recorder.text(),
                "the summary at the end of the window",
            )

        run(timed())
    finally:
        logger.removeHandler(recorder)
    assert recorder.lines[:5] == [
        "refused login n=0",
        "refused login n=1",
        "refused login n=2",
        "suppressed 7 similar refusal line(s) in the last 1s",
        "refused login n=10",
    ]


# -- 11: a seat that goes --------------------------------------------------------------------------
def test_a_user_whose_seat_goes_is_sent_away(tmp_path: Path) -> None:
    save, users = make_world(tmp_path, {"edmund": "player:edmund", "nyx": "player:nyx", "mirela": "king:varos"})
    gm = Identity.parse("gm")

    async def body(port: int) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        conns = {name: await connect(port, users[name]) for name in users}
        terms = {name: await open_terminal(conns[name]) for name in users}
        terms["edmund 2"] = await open_terminal(conns["edmund"])
        pids = {name: stub_pid(await term.wait_line("STUB")) for name, term in terms.items()}
        # The GM removes edmund: both his sessions end, and his connection with them.
        await loop.run_in_executor(None, lambda: run_command(save, gm, "user-remove", {"name": "edmund"}))
        for name in ("edmund", "edmund 2"):
            await terms[name].wait_closed()
        await asyncio.wait_for(conns["edmund"].wait_closed(), TIMEOUT)
        for name in ("nyx", "mirela"):  # the others play on
            terms[name].send("k")
            await terms[name].wait_line("KEY b'k'")
        # nyx's key is given another identity: his session (as player:nyx) ends.
        with save.transaction() as data:
            data["users"]["nyx"]["identity"] = "player:edmund"
        await terms["nyx"].wait_closed()
        terms["mirela"].send("j")
        await terms["mirela"].wait_line("KEY b'j'")
        # The save is replaced by another campaign, without a roster: mirela goes too.
        other = create_world(tmp_path / "other" / "world.json")
        await loop.run_in_executor(None, os.replace, other.path, save.path)
        await terms["mirela"].wait_closed()
        for conn in conns.values():
            conn.close()
        return {
            "stderr": {name: bytes(term.stderr) for name, term in terms.items()},
            "pids": pids,
            "raw": bytes(terms["edmund"].raw),
        }

    with ServerThread(stub_config(save.path, roster_poll=0.1)) as server:
        seen = run(body(server.port))
        line = server.log.wait_for("seat gone: ending 2 session(s) of user=edmund")
        assert "removed from the roster" in line
        server.log.wait_for("seat gone: ending 1 session(s) of user=nyx")
        server.log.wait_for("seat gone: ending 1 session(s) of user=mirela")
    stderr = seen["stderr"]
    for name in ("edmund", "edmund 2"):
        assert b"your seat edmund was removed from the roster; goodbye" in stderr[name]
    assert b"your seat nyx no longer plays player:nyx (the roster now gives this key player:edmund)" in stderr["nyx"]
    assert b"your seat mirela was removed from the roster; goodbye" in stderr["mirela"]
    assert seen["raw"].endswith(b"\x1b[?1049l\r\n")  # the terminal is put back in order first
    for pid in seen["pids"].values():
        assert wait_gone(pid)
