"""`yak serve` as a command (host key, banner, logs, clean stop) and OpenSSH's `ssh` against it,
in tmux where a terminal is needed."""

from __future__ import annotations

import asyncio
import re
import shutil
import stat
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import asyncssh
import pytest
from serve_helpers import TIMEOUT, ServerThread, User, YakServe, make_world, stub_argv, wait_gone

from yak_tui.cli import main
from yak_tui.kernel.world.demo import create_world
from yak_tui.serve.config import HOST_KEY_NAME, ServeConfig

HAVE_SSH = shutil.which("ssh") is not None
HAVE_TMUX = shutil.which("tmux") is not None


def ssh_argv(port: int, user: User, *extra: str) -> list[str]:
    return [
        "ssh",
        "-F",
        "/dev/null",
        "-p",
        str(port),
        "-i",
        str(user.key_file),
        "-o",
        "IdentitiesOnly=yes",
        "-o",
        "StrictHostKeyChecking=no",
        "-o",
        "UserKnownHostsFile=/dev/null",
        "-o",
        "LogLevel=ERROR",
        "-o",
        "BatchMode=yes",
        *extra,
        f"{user.name}@127.0.0.1",
    ]


def test_yak_serve_makes_its_host_key_once_and_logs_refusals(tmp_path: Path) -> None:
    save, _ = make_world(tmp_path, {})
    server = YakServe(save.path)
    try:
        key_path = tmp_path / HOST_KEY_NAME
        assert stat.S_IMODE(key_path.stat().st_mode) == 0o600
        assert server.fingerprint == asyncssh.read_private_key(str(key_path)).get_fingerprint("sha256")
        assert any(f"created {key_path}" in line for line in server.banner)
        assert any("no users yet" in line for line in server.banner)
        stranger = asyncssh.generate_private_key("ssh-ed25519")

        async def knock() -> None:
            await asyncssh.connect(
                "127.0.0.1", server.port, username="anyone", client_keys=[stranger], known_hosts=None, agent_path=None
            )

        with pytest.raises(asyncssh.PermissionDenied):
            asyncio.run(knock())
        line = server.wait_log(stranger.get_fingerprint("sha256"))
        assert re.match(
            r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ yak serve WARNING refused login ssh_user=anyone "
            r"from=127\.0\.0\.1:\d+",
            line,
        ), line
    finally:
        assert server.stop() == 0
    assert "shutting down" in server.banner[-1]
    again = YakServe(save.path)
    try:
        assert again.fingerprint == server.fingerprint
        assert any(f"loaded {key_path}" in line for line in again.banner)
    finally:
        assert again.stop() == 0


def test_yak_serve_host_key_and_limit_options(tmp_path: Path) -> None:
    save, _ = make_world(tmp_path, {})
    custom = tmp_path / "keys" / "host"
    server = YakServe(
        save.path,
        "--host-key",
        str(custom),
        "--max-sessions",
        "3",
        "--idle-timeout",
        "60",
        "--max-sessions-per-user",
        "2",
        "--request-timeout",
        "5",
        "--session-memory",
        "512",
        "--max-auth-tries",
        "3",
        "--max-unauthenticated",
        "4",
        "--login-timeout",
        "20",
        "--max-unauthenticated-per-address",
        "2",
        "--banner-timeout",
        "5",
    )
    try:
        assert stat.S_IMODE(custom.stat().st_mode) == 0o600
        assert any("at most 3 sessions" in line for line in server.banner)
        assert (
            "yak serve: limits: 2 sessions per user, idle timeout 60 s, memory per session 512 MiB, "
            "3 login tries, 4 logins at once (2 from one address), banner timeout 5 s, login timeout 20 s"
        ) in server.banner
    finally:
        assert server.stop() == 0


def test_yak_serve_defaults_are_in_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["serve", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    for shown in (
        "sessions of one user at once (default 4)",
        "0: never (default 3600)",
        "asked for no terminal after this long (default 10)",
        "MiB; 0: none (default 1024)",
        "before it is dropped (default 6)",
        "more are dropped (default 10)",
        "time a connection has to log in (default 30)",
        "logging in at once from one address; more are dropped (default 3)",
        "time a connection has to send its SSH version line (default 10)",
    ):
        assert shown in text


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--max-sessions", "0", "--max-sessions: must be at least 1, not 0"),
        ("--port", "70000", "--port: 70000 is not a TCP port"),
        ("--max-sessions-per-user", "0", "--max-sessions-per-user: must be at least 1, not 0"),
        ("--idle-timeout", "-1", "--idle-timeout: must be 0 (never) or more seconds, not -1"),
        ("--idle-timeout", "inf", "--idle-timeout: must be 0 (never) or more seconds, not inf"),
        ("--request-timeout", "0", "--request-timeout: must be more than 0 seconds, not 0"),
        ("--session-memory", "64", "--session-memory: must be 0 (no limit) or at least 256 MiB, not 64"),
        ("--max-auth-tries", "0", "--max-auth-tries: must be at least 1, not 0"),
        ("--max-unauthenticated", "-3", "--max-unauthenticated: must be at least 1, not -3"),
        ("--login-timeout", "nan", "--login-timeout: must be more than 0 seconds, not nan"),
        ("--max-unauthenticated-per-address", "0", "--max-unauthenticated-per-address: must be at least 1, not 0"),
        ("--banner-timeout", "0", "--banner-timeout: must be more than 0 seconds, not 0"),
    ],
)
def test_yak_serve_bad_options_are_refused_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], option: str, value: str, message: str
) -> None:
    save = create_world(tmp_path / "world.json")
    before = save.path.read_bytes()
    assert main(["--save", str(save.path), "serve", option, value]) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1, err
    assert save.path.read_bytes() == before
    assert not (tmp_path / HOST_KEY_NAME).exists()  # refused before anything was made


def test_yak_serve_without_a_save_is_refused(tmp_path: Path) -> None:
    done = subprocess.run(
        [*_python_yak(), "--save", str(tmp_path / "missing.json"), "serve"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2 and "no save at" in done.stderr, done.stderr


def _python_yak() -> list[str]:
    import sys

    return [sys.executable, "-m", "yak_tui"]


# -- OpenSSH ----------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def stub_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerThread, dict[str, User]]]:
    save, users = make_world(tmp_path_factory.mktemp("openssh"), {"edmund": "player:edmund", "gm": "gm"})
    with ServerThread(ServeConfig(save=save.path, port=0, app_argv=stub_argv, kill_grace=0.5)) as thread:
        yield thread, users


@pytest.mark.e2e
@pytest.mark.skipif(not HAVE_SSH, reason="OpenSSH client not installed")
def test_openssh_offers_only_public_keys_and_refuses_commands(
    stub_server: tuple[ServerThread, dict[str, User]],
) -> None:
    server, users = stub_server
    denied = subprocess.run(
        [*ssh_argv(server.port, users["edmund"], "-o", "PubkeyAuthentication=no"), "true"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert denied.returncode == 255
    assert "Permission denied (publickey)" in denied.stderr  # no password, no keyboard-interactive on offer
    command = subprocess.run(
        [*ssh_argv(server.port, users["gm"]), "yak", "do", "advance"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert command.returncode == 1 and "commands are refused" in command.stderr
    forward = subprocess.run(
        [*ssh_argv(server.port, users["gm"], "-N", "-o", "ExitOnForwardFailure=yes", "-R", "0:127.0.0.1:9")],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert forward.returncode == 255 and "forwarding failed" in forward.stderr


class Tmux:
    """One detached tmux session of a given size, read with capture-pane."""

    def __init__(self, name: str, command: list[str], columns: int = 100, rows: int = 30) -> None:
        self.name = name
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)
        subprocess.run(
            [
                "tmux",
                "new-session",
                "-d",
                "-s",
                name,
                "-x",
                str(columns),
                "-y",
                str(rows),
                subprocess.list2cmdline(command),
            ],
            check=True,
            timeout=30,
        )
        subprocess.run(["tmux", "set-option", "-t", name, "remain-on-exit", "on"], capture_output=True)

    def capture(self) -> str:
        done = subprocess.run(["tmux", "capture-pane", "-p", "-t", self.name], capture_output=True, text=True)
        return done.stdout

    def wait_for(self, needle: str, timeout: float = TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.capture()
            if needle in text:
                return text
            time.sleep(0.1)
        raise AssertionError(f"tmux never showed {needle!r}:\n{self.capture()}")

    def keys(self, *keys: str) -> None:
        subprocess.run(["tmux", "send-keys", "-t", self.name, *keys], check=True)

    def resize(self, columns: int, rows: int) -> None:
        subprocess.run(["tmux", "resize-window", "-t", self.name, "-x", str(columns), "-y", str(rows)], check=True)

    def dead(self) -> bool:
        done = subprocess.run(
            ["tmux", "display-message", "-p", "-t", self.name, "#{pane_dead}"], capture_output=True, text=True
        )
        return done.stdout.strip() == "1" or done.returncode != 0

    def kill(self) -> None:
        subprocess.run(["tmux", "kill-session", "-t", self.name], capture_output=True)


@pytest.mark.e2e
@pytest.mark.skipif(not (HAVE_SSH and HAVE_TMUX), reason="needs OpenSSH's ssh and tmux")
def test_openssh_in_tmux_pty_size_resize_and_exit(stub_server: tuple[ServerThread, dict[str, User]]) -> None:
    server, users = stub_server
    tmux = Tmux(f"yakserve-stub-{server.port}", [*ssh_argv(server.port, users["edmund"], "-t")])
    try:
        text = tmux.wait_for("size=100x30")
        assert "STUB identity=player:edmund" in text and "ctty=True" in text
        pid = int(re.search(r"pid=(\d+)", text).group(1))  # type: ignore[union-attr]
        tmux.resize(120, 40)
        tmux.wait_for("WINCH size=120x40")
        tmux.keys("q")
        tmux.wait_for("BYE")
        server.log.wait_for(f"session end user=edmund pid={pid} status=3")
        assert wait_gone(pid)
        deadline = time.monotonic() + TIMEOUT
        while not tmux.dead() and time.monotonic() < deadline:  # ssh itself ends with the session
            time.sleep(0.1)
        assert tmux.dead()
    finally:
        tmux.kill()


@pytest.mark.e2e
@pytest.mark.skipif(not (HAVE_SSH and HAVE_TMUX), reason="needs OpenSSH's ssh and tmux")
def test_openssh_killed_client_leaves_no_process(stub_server: tuple[ServerThread, dict[str, User]]) -> None:
    server, users = stub_server
    tmux = Tmux(f"yakserve-kill-{server.port}", [*ssh_argv(server.port, users["gm"], "-t")])
    try:
        text = tmux.wait_for("size=100x30")
        pid = int(re.search(r"pid=(\d+)", text).group(1))  # type: ignore[union-attr]
    finally:
        tmux.kill()  # the terminal goes away with ssh in it
    assert wait_gone(pid)
