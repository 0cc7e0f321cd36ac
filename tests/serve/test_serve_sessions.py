"""`yak serve` mechanics with a real SSH client (asyncssh) and a stand-in app (stub_app.py):
key-only login, identity from the key, pty and window size, exit status, no orphans, refusals.

The stand-in makes these checks exact and fast; test_serve_app.py runs the real `yak tui`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import asyncssh
import pytest
from serve_helpers import (
    ServerThread,
    User,
    connect,
    make_world,
    open_terminal,
    processes_in_group,
    stub_argv,
    stub_pid,
    wait_gone,
)
from yak_plugin import Table

from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import Identity
from yak_tui.serve.server import ServeConfig

T = TypeVar("T")
USERS = {"gm": "gm", "edmund": "player:edmund", "mirela": "king:varos", "nyx": "player:nyx"}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, User]]:
    save, users = make_world(tmp_path_factory.mktemp("serve"), USERS)
    return save.path, users


@pytest.fixture(scope="module")
def server(world: tuple[Path, dict[str, User]]) -> Iterator[ServerThread]:
    save, _ = world
    config = ServeConfig(
        save=save,
        port=0,
        app_argv=stub_argv,
        kill_grace=0.5,
        max_sessions=16,
        # Many tests share this server: a burst of refused logins from one test must not
        # hold back the refusal line the next one waits for (the limit has its own test).
        refusal_lines_per_second=1000,
    )
    with ServerThread(config) as thread:
        yield thread


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 60))


def test_key_decides_identity_whatever_the_client_sends(
    server: ServerThread, world: tuple[Path, dict[str, User]]
) -> None:
    save, users = world

    async def body() -> str:
        # Asks to be the GM by user name and by environment: the key says edmund.
        async with await connect(server.port, users["edmund"], username="gm") as conn:
            term = await open_terminal(conn, 100, 30, env={"YAK_AS": "gm", "YAK_SERVED": "0", "TERM": "dumb"})
            return await term.wait_line("STUB")

    text = run(body())
    assert "identity=player:edmund" in text
    assert "term=xterm " in text  # the pty request's terminal type, not the env variable
    assert "served=1" in text and "user=edmund" in text
    assert f"save={save}" in text  # every session opens the same save
    assert "ctty=True" in text  # session leader with the pty as controlling terminal
    assert "size=100x30" in text
    line = server.log.wait_for("login user=edmund")
    fingerprint = users["edmund"].key.get_fingerprint("sha256")
    assert f"key={fingerprint}" in line and "from=127.0.0.1:" in line and "ssh_user=gm" in line
    server.log.wait_for("logout user=edmund")


def test_each_key_gets_its_own_identity(server: ServerThread, world: tuple[Path, dict[str, User]]) -> None:
    _, users = world

    async def body() -> list[str]:
        shown = []
        for name in ("gm", "mirela", "nyx"):
            async with await connect(server.port, users[name]) as conn:
                term = await open_terminal(conn)
                shown.append(await term.wait_line("STUB"))
        return shown

    gm, king, player = run(body())
    assert "identity=gm " in gm
    assert "identity=king:varos " in king
    assert "identity=player:nyx " in player


def test_unknown_key_is_refused_and_logged(server: ServerThread) -> None:
    stranger = asyncssh.generate_private_key("ssh-ed25519")

    async def body() -> None:
        await asyncssh.connect(
            "127.0.0.1", server.port, username="edmund", client_keys=[stranger], known_hosts=None, agent_path=None
        )

    with pytest.raises(asyncssh.PermissionDenied):
        run(body())
    line = server.log.wait_for(stranger.get_fingerprint("sha256"))
    assert "refused login" in line and "unknown key" in line and "from=127.0.0.1:" in line


@pytest.mark.parametrize("method", ["password", "keyboard-interactive"])
def test_password_and_keyboard_interactive_are_refused(server: ServerThread, method: str) -> None:
    async def body() -> None:
        await asyncssh.connect(
            "127.0.0.1",
            server.port,
            username=f"by-{method}",
            password="edmund",
            client_keys=None,
            known_hosts=None,
            agent_path=None,
            preferred_auth=method,
        )

    with pytest.raises(asyncssh.PermissionDenied):
        run(body())
    line = server.log.wait_for(f"refused login ssh_user=by-{method}")
    assert "from=127.0.0.1:" in line


def test_resize_reaches_the_app(server: ServerThread, world: tuple[Path, dict[str, User]]) -> None:
    _, users = world

    async def body() -> str:
        async with await connect(server.port, users["edmund"]) as conn:
            term = await open_terminal(conn, 100, 30)
            await term.wait_line("size=100x30")
            term.resize(132, 43)
            await term.wait_raw(b"WINCH size=132x43")
            term.resize(80, 24)
            await term.wait_raw(b"WINCH size=80x24")
            return bytes(term.raw).decode()

    assert "WINCH size=132x43" in run(body())


def test_app_exit_closes_the_session_with_its_status(server: ServerThread, world: tuple[Path, dict[str, User]]) -> None:
    _, users = world

    async def body() -> tuple[int | None, int]:
        async with await connect(server.port, users["edmund"]) as conn:
            term = await open_terminal(conn)
            pid = stub_pid(await term.wait_line("STUB"))
            term.send("x")
            await term.wait_line("KEY b'x'")
            term.send("q")
            await term.wait_closed()
            return term.exit_status, pid

    status, pid = run(body())
    assert status == 3
    assert wait_gone(pid)


@pytest.mark.parametrize("stubborn", [False, True], ids=["hangs-up", "ignores-sighup"])
def test_client_gone_leaves_no_process(
    server: ServerThread, world: tuple[Path, dict[str, User]], stubborn: bool
) -> None:
    _, users = world

    async def body() -> int:
        conn = await connect(server.port, users["edmund"])
        term = await open_terminal(conn)
        pid = stub_pid(await term.wait_line("STUB"))
        if stubborn:  # the app ignores SIGHUP: SIGKILL follows after the grace
            term.send("h")
            await term.wait_line("HANGING")
        conn.abort()
        return pid

    pid = run(body())
    assert wait_gone(pid), f"app {pid} still there after the client left"
    assert processes_in_group(pid) == []
    server.log.wait_for(f"session end user=edmund pid={pid}")
    assert pid not in server.app_pids()


def test_a_crashing_session_takes_no_other_down(server: ServerThread, world: tuple[Path, dict[str, User]]) -> None:
    _, users = world

    async def body() -> tuple[str | None, str]:
        async with (
            await connect(server.port, users["gm"]) as gm_conn,
            await connect(server.port, users["edmund"]) as conn,
        ):
            gm = await open_terminal(gm_conn)
            await gm.wait_line("STUB")
            crasher = await open_terminal(conn)
            await crasher.wait_line("STUB")
            crasher.send("c")
            await crasher.wait_closed()
            gm.send("k")
            await gm.wait_line("KEY b'k'")
            async with await connect(server.port, users["nyx"]) as later:
                fresh = await open_terminal(later)
                text = await fresh.wait_line("STUB")
            return crasher.exit_signal, text

    signal_name, text = run(body())
    assert signal_name == "ABRT"
    assert "identity=player:nyx" in text


@pytest.mark.parametrize("with_pty", [False, True])
def test_exec_requests_are_refused_with_a_message(
    server: ServerThread, world: tuple[Path, dict[str, User]], with_pty: bool
) -> None:
    _, users = world

    async def body() -> asyncssh.SSHCompletedProcess:
        async with await connect(server.port, users["gm"]) as conn:
            extra = {"term_type": "xterm"} if with_pty else {}
            return await conn.run("yak --as gm do note text=hacked", **extra)

    result = run(body())
    assert result.exit_status == 1
    message = (result.stderr or "") + (result.stdout or "")
    assert "commands are refused" in message
    server.log.wait_for("refused exec 'yak --as gm do note text=hacked' user=gm")


def test_subsystems_are_refused(server: ServerThread, world: tuple[Path, dict[str, User]]) -> None:
    _, users = world

    async def body() -> tuple[int | None, bytes]:
        async with await connect(server.port, users["gm"]) as conn:
            _chan, term = await conn.create_session(lambda: Terminal(80, 24), subsystem="sftp", encoding=None)
            await term.wait_closed()
            return term.exit_status, bytes(term.stderr)

    from serve_helpers import Terminal

    status, stderr = run(body())
    assert status == 1 and b"sftp is refused" in stderr
    with pytest.raises((asyncssh.Error, OSError)):
        run(_sftp(server.port, users["gm"]))


async def _sftp(port: int, user: User) -> None:
    async with await connect(port, user) as conn:
        async with conn.start_sftp_client() as sftp:
            await sftp.listdir(".")


def test_a_session_without_a_pty_is_refused(server: ServerThread, world: tuple[Path, dict[str, User]]) -> None:
    _, users = world

    async def body() -> tuple[int | None, bytes]:
        async with await connect(server.port, users["edmund"]) as conn:
            term = await open_terminal(conn, term=None)
            await term.wait_closed()
            return term.exit_status, bytes(term.stderr)

    status, stderr = run(body())
    assert status == 1 and b"asked for none" in stderr and b"ssh -t" in stderr


def test_port_and_agent_forwarding_are_refused(server: ServerThread, world: tuple[Path, dict[str, User]]) -> None:
    _, users = world

    async def body() -> bytes:
        async with await connect(server.port, users["gm"], agent_forwarding="/tmp/no-agent.sock") as conn:
            with pytest.raises(asyncssh.ChannelOpenError, match="port forwarding is refused"):
                await conn.open_connection("127.0.0.1", 22)
            with pytest.raises(asyncssh.ChannelListenError):
                await conn.forward_remote_port("127.0.0.1", 0, "127.0.0.1", 9)
            with pytest.raises(asyncssh.ChannelOpenError):
                await conn.open_unix_connection("/tmp/anything.sock")
            term = await open_terminal(conn)
            await term.wait_line("STUB")
            return await term.wait_stderr(b"agent forwarding is refused")

    stderr = run(body())
    assert b"agent forwarding is refused" in stderr
    server.log.wait_for("refused port forwarding user=gm")
    server.log.wait_for("remote forward from 127.0.0.1:0")
    server.log.wait_for("refused agent forwarding user=gm")


def test_roster_changes_apply_without_restart(server: ServerThread, world: tuple[Path, dict[str, User]]) -> None:
    from yak_tui.store.storage import WorldFile

    save, _ = world
    newcomer = asyncssh.generate_private_key("ssh-ed25519")

    async def login() -> str:
        async with await asyncssh.connect(
            "127.0.0.1", server.port, username="rowena", client_keys=[newcomer], known_hosts=None, agent_path=None
        ) as conn:
            term = await open_terminal(conn)
            return await term.wait_line("STUB")

    with pytest.raises(asyncssh.PermissionDenied):
        run(login())
    file = WorldFile(save)
    run_command(
        file,
        Identity.parse("gm"),
        "user-add",
        {"name": "rowena", "identity": "player:rowena", "key": newcomer.export_public_key().decode()},
    )
    assert "identity=player:rowena" in run(login())
    run_command(file, Identity.parse("gm"), "user-remove", {"name": "rowena"})
    with pytest.raises(asyncssh.PermissionDenied):
        run(login())


def test_max_sessions_refuses_beyond_the_limit(world: tuple[Path, dict[str, User]]) -> None:
    save, users = world
    config = ServeConfig(save=save, port=0, app_argv=stub_argv, kill_grace=0.5, max_sessions=2)

    async def body(port: int) -> str:
        async with await connect(port, users["gm"]) as a, await connect(port, users["edmund"]) as b:
            first = await open_terminal(a)
            second = await open_terminal(b)
            await first.wait_line("STUB")
            await second.wait_line("STUB")
            with pytest.raises(asyncssh.ChannelOpenError, match=r"full \(2 sessions\)"):
                await open_terminal(b)
            first.send("q")
            await first.wait_closed()
            for _ in range(100):  # the slot frees once the app is reaped
                try:
                    again = await open_terminal(b)
                    break
                except asyncssh.ChannelOpenError:
                    await asyncio.sleep(0.05)
            return await again.wait_line("STUB")

    with ServerThread(config) as thread:
        assert "identity=player:edmund" in run(body(thread.port))
        thread.log.wait_for("refused session user=edmund")


def test_idle_sessions_are_closed(world: tuple[Path, dict[str, User]]) -> None:
    save, users = world
    config = ServeConfig(save=save, port=0, app_argv=stub_argv, kill_grace=0.5, idle_timeout=1.0)

    async def body(port: int) -> tuple[int, bytes, bytes]:
        async with await connect(port, users["edmund"]) as conn:
            term = await open_terminal(conn)
            pid = stub_pid(await term.wait_line("STUB"))
            for _ in range(4):  # typing keeps it open
                await asyncio.sleep(0.3)
                term.send("k")
            await term.wait_closed(10)
            return pid, bytes(term.stderr), bytes(term.raw)

    with ServerThread(config) as thread:
        pid, stderr, raw = run(body(thread.port))
        assert b"closed after 1 s without input" in stderr
        assert raw.count(b"KEY b'k'") == 4
        assert raw.endswith(b"\x1b[?1049l\r\n")  # the client's terminal is put back in order
        assert wait_gone(pid)
        thread.log.wait_for("idle: closing session of user=edmund")


def test_shutdown_hangs_up_and_reaps_every_app(world: tuple[Path, dict[str, User]]) -> None:
    save, users = world
    config = ServeConfig(save=save, port=0, app_argv=stub_argv, kill_grace=0.5)
    thread = ServerThread(config).__enter__()

    async def body() -> list[int]:
        pids = []
        conns = [await connect(thread.port, users[name]) for name in ("gm", "edmund")]
        terms = [await open_terminal(conn) for conn in conns]
        for term in terms:
            pids.append(stub_pid(await term.wait_line("STUB")))
        terms[0].send("h")  # one of them ignores SIGHUP
        await terms[0].wait_line("HANGING")
        await asyncio.get_running_loop().run_in_executor(None, thread.stop)
        for term in terms:
            await term.wait_closed()
        return pids

    for pid in run(body()):
        assert wait_gone(pid)


def test_only_the_gm_changes_the_roster(world: tuple[Path, dict[str, User]]) -> None:
    from yak_tui.store.storage import WorldFile

    save, _ = world
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode()
    table = Table(WorldFile(save))
    table.refused(
        "king:varos", "user-add", name="x", identity="king:varos", key=key, field="identity", text="only the GM"
    )
    table.refused("player:edmund", "user-remove", name="gm", field="identity", text="only the GM")


def test_a_user_whose_identity_no_longer_exists_is_refused(
    server: ServerThread, world: tuple[Path, dict[str, User]]
) -> None:
    from yak_tui.store.storage import WorldFile

    save, _ = world
    ghost = asyncssh.generate_private_key("ssh-ed25519")
    file = WorldFile(save)
    run_command(
        file,
        Identity.parse("gm"),
        "user-add",
        {"name": "ghost", "identity": "player:tobias", "key": ghost.export_public_key().decode()},
    )
    with file.transaction() as data:  # the character leaves the world after the user was added
        data["users"]["ghost"]["identity"] = "player:tobias-the-dead"

    async def login() -> None:
        await asyncssh.connect(
            "127.0.0.1", server.port, username="ghost", client_keys=[ghost], known_hosts=None, agent_path=None
        )

    with pytest.raises(asyncssh.PermissionDenied):
        run(login())
    line = server.log.wait_for("ssh_user=ghost")
    assert "identity player:tobias-the-dead is no longer valid" in line
