"""Helpers for the `yak serve` tests: a server in a background thread, SSH users with fresh
keys, and an SSH client terminal whose screen is read through pyte."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncssh
import pyte

from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.demo import create_world
from yak_tui.serve.config import ServeConfig
from yak_tui.serve.server import YakServer, start_server
from yak_tui.store.storage import WorldFile

STUB_APP = Path(__file__).with_name("stub_app.py")
TIMEOUT = 20.0


def stub_argv(save: Path, identity: str) -> list[str]:
    return [sys.executable, str(STUB_APP), "--save", str(save), "--as", identity]


@dataclass
class User:
    name: str
    identity: str
    key: asyncssh.SSHKey
    key_file: Path


def make_world(directory: Path, users: dict[str, str]) -> tuple[WorldFile, dict[str, User]]:
    """The demo world with one roster user (fresh ed25519 key) per {name: identity}."""
    directory.mkdir(parents=True, exist_ok=True)
    save = create_world(directory / "world.json")
    made = {}
    for name, identity in users.items():
        key = asyncssh.generate_private_key("ssh-ed25519", comment=f"{name}@test")
        key_file = directory / f"{name}_key"
        key.write_private_key(str(key_file))
        os.chmod(key_file, 0o600)
        key.write_public_key(str(key_file) + ".pub")
        run_command(
            save,
            Identity.parse("gm"),
            "user-add",
            {"name": name, "identity": identity, "key": key.export_public_key().decode()},
        )
        made[name] = User(name, identity, key, key_file)
    return save, made


class LogRecorder(logging.Handler):
    """Collects the yak.serve log lines (thread-safe) for assertions."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []
        self._lock2 = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        with self._lock2:
            self.lines.append(record.getMessage())

    def text(self) -> str:
        with self._lock2:
            return "\n".join(self.lines)

    def wait_for(self, needle: str, timeout: float = TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in list(self.lines):
                if needle in line:
                    return line
            time.sleep(0.02)
        raise AssertionError(f"no log line with {needle!r}; log:\n{self.text()}")


class LoopThread:
    """A server started on its own event loop in a thread, with the `yak.serve` log recorded:
    `__enter__` waits until `_start` has run (or raises its error); `call` runs on that loop."""

    THREAD_NAME = "yak-serve-test"

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.loop = asyncio.new_event_loop()
        self.log = LogRecorder()
        self._ready = threading.Event()
        self._error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, name=self.THREAD_NAME, daemon=True)

    async def _start(self) -> None:
        raise NotImplementedError

    def __enter__(self) -> Any:
        logger = logging.getLogger("yak.serve")
        logger.addHandler(self.log)
        logger.setLevel(logging.INFO)
        self.thread.start()
        if not self._ready.wait(TIMEOUT):
            raise RuntimeError("server did not start")
        if self._error is not None:
            raise self._error
        return self

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        try:
            self.loop.run_until_complete(self._start())
        except BaseException as error:
            self._error = error
            self._ready.set()
            return
        self._ready.set()
        self.loop.run_forever()
        self.loop.close()

    def call(self, fn: Callable[[], Any]) -> Any:
        """Run fn on the server's loop and return its result (to read sessions safely)."""

        async def wrapper() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(wrapper(), self.loop).result(TIMEOUT)


class ServerThread(LoopThread):
    """A YakServer on a free loopback port, in its own thread and event loop."""

    def __init__(self, config: ServeConfig) -> None:
        super().__init__(config)
        self.server: YakServer | None = None

    async def _start(self) -> None:
        self.server = await start_server(self.config)

    def __enter__(self) -> ServerThread:
        super().__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self.server is not None
        return self.server.port

    def app_pids(self) -> list[int]:
        assert self.server is not None
        server = self.server
        return list(self.call(server.app_pids))

    def stop(self) -> None:
        if self.server is not None and self.loop.is_running():
            asyncio.run_coroutine_threadsafe(self.server.close(), self.loop).result(TIMEOUT)
            self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(TIMEOUT)
        logging.getLogger("yak.serve").removeHandler(self.log)


class Terminal(asyncssh.SSHClientSession):  # type: ignore[type-arg]
    """The client end of one session: stdout goes through pyte, stderr is kept apart."""

    def __init__(self, columns: int, rows: int) -> None:
        self.screen = pyte.Screen(columns, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.stderr = bytearray()
        self.exit_status: int | None = None
        self.exit_signal: str | None = None
        self.closed = asyncio.Event()
        self.chan: Any = None

    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def data_received(self, data: bytes, datatype: Any) -> None:
        if datatype == asyncssh.EXTENDED_DATA_STDERR:
            self.stderr += data
            return
        self.raw += data
        self.stream.feed(data)

    def exit_status_received(self, status: int) -> None:
        self.exit_status = status

    def exit_signal_received(self, signal: str, core_dumped: bool, msg: str, lang: str) -> None:
        self.exit_signal = signal

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()

    # -- reading the screen
    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def wait_for(self, predicate: str | Callable[[str], bool], timeout: float = TIMEOUT) -> str:
        check = (lambda text: predicate in text) if isinstance(predicate, str) else predicate
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.text()
            if check(text):
                return text
            if self.closed.is_set():
                break
            await asyncio.sleep(0.02)
        raise AssertionError(
            f"screen never showed {predicate!r}; screen:\n{self.text()}\nstderr: {bytes(self.stderr)!r}"
        )

    def _why(self, timeout: float) -> str:
        """Why a wait ended without its text: the session closed, or the time ran out."""
        return "the session closed" if self.closed.is_set() else f"nothing came for {timeout:g} s"

    async def wait_raw(self, needle: bytes, timeout: float = TIMEOUT) -> None:
        deadline = time.monotonic() + timeout
        while needle not in self.raw:
            if time.monotonic() > deadline or self.closed.is_set():
                raise AssertionError(
                    f"output never had {needle!r} ({self._why(timeout)}); "
                    f"got {bytes(self.raw[-2000:])!r}; stderr {bytes(self.stderr)!r}"
                )
            await asyncio.sleep(0.02)

    async def wait_stderr(self, needle: bytes, timeout: float = TIMEOUT) -> bytes:
        """stderr once it holds `needle` (it may arrive after the app's first output)."""
        deadline = time.monotonic() + timeout
        while needle not in self.stderr:
            if time.monotonic() > deadline or self.closed.is_set():
                raise AssertionError(f"stderr never had {needle!r} ({self._why(timeout)}); got {bytes(self.stderr)!r}")
            await asyncio.sleep(0.02)
        return bytes(self.stderr)

    async def wait_line(self, marker: str, timeout: float = TIMEOUT) -> str:
        """The first complete output line containing marker (raw bytes, not the wrapped screen)."""
        deadline = time.monotonic() + timeout
        while True:
            for line in bytes(self.raw).decode(errors="replace").split("\r\n")[:-1]:
                if marker in line:
                    return line
            if time.monotonic() > deadline or self.closed.is_set():
                raise AssertionError(f"no line with {marker!r} ({self._why(timeout)}); got {bytes(self.raw[-2000:])!r}")
            await asyncio.sleep(0.02)

    async def wait_closed(self, timeout: float = TIMEOUT) -> None:
        await asyncio.wait_for(self.closed.wait(), timeout)

    # -- acting
    def send(self, data: bytes | str) -> None:
        self.chan.write(data.encode() if isinstance(data, str) else data)

    def resize(self, columns: int, rows: int) -> None:
        self.screen.resize(rows, columns)
        self.chan.change_terminal_size(columns, rows)


async def connect(port: int, user: User | None = None, **kwargs: Any) -> asyncssh.SSHClientConnection:
    options: dict[str, Any] = {"known_hosts": None, "agent_path": None, "username": user.name if user else "nobody"}
    if user is not None:
        options["client_keys"] = [user.key]
    options.update(kwargs)
    return await asyncio.wait_for(asyncssh.connect("127.0.0.1", port, **options), TIMEOUT)


async def open_terminal(
    conn: asyncssh.SSHClientConnection, columns: int = 100, rows: int = 30, term: str | None = "xterm", **kwargs: Any
) -> Terminal:
    def factory() -> Terminal:
        return Terminal(columns, rows)

    if term is None:
        _, terminal = await conn.create_session(factory, encoding=None, **kwargs)
    else:
        _, terminal = await conn.create_session(
            factory, term_type=term, term_size=(columns, rows), encoding=None, **kwargs
        )
    return terminal


def stub_pid(text: str) -> int:
    """The pid the stand-in app reported in its STUB line."""
    match = re.search(r"pid=(\d+)", text)
    assert match, text
    return int(match.group(1))


class BareChannel(asyncssh.SSHClientChannel):  # type: ignore[type-arg]
    """A session channel that is opened and then asks for nothing (no pty, shell or command):
    what a hostile client holds to use up session slots. asyncssh's public API always sends a
    request, so this opens the channel the way `SSHClientChannel.create` does and stops there."""

    @classmethod
    async def open(cls, conn: asyncssh.SSHClientConnection) -> Terminal:
        chan = cls(conn, asyncio.get_running_loop(), "strict", None, "strict", 2 * 1024 * 1024, 32768)
        packet = await chan._open(b"session")
        packet.check_end()
        terminal = Terminal(80, 24)
        chan._session = terminal
        terminal.connection_made(chan)
        await chan._start_reading()
        return terminal


def pid_alive(pid: int) -> bool:
    """True while a process (not a zombie) with this pid exists."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            state = handle.read().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def wait_gone(pid: int, timeout: float = TIMEOUT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not pid_alive(pid) and not os.path.exists(f"/proc/{pid}"):
            return True
        time.sleep(0.05)
    return False


def processes_in_group(pgid: int) -> list[int]:
    """Pids whose process group is pgid, from a /proc scan (no psutil)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid:
            found.append(int(entry))
    return found


class YakServe:
    """`python -m yak_tui --save SAVE serve --port 0 ...` as a subprocess; its banner parsed."""

    def __init__(self, save: Path, *args: str, env: dict[str, str] | None = None) -> None:
        import subprocess

        self.stderr_path = save.parent / f"serve-{time.monotonic_ns()}.log"
        self._stderr = open(self.stderr_path, "wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "yak_tui", "--save", str(save), "serve", "--port", "0", *args],
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            env={**os.environ, **(env or {})},
            cwd=Path(__file__).parents[2],
        )
        self.banner: list[str] = []
        assert self.proc.stdout is not None
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError(f"yak serve ended: {self.banner} {self.stderr_text()}")
            self.banner.append(line.rstrip("\n"))
            if "listening on" in line:
                break
        import re

        text = "\n".join(self.banner)
        self.port = int(re.search(r"listening on [^:]+:(\d+)", text).group(1))  # type: ignore[union-attr]
        self.fingerprint = re.search(r"host key (SHA256:\S+)", text).group(1)  # type: ignore[union-attr]

    def stderr_text(self) -> str:
        if not self._stderr.closed:
            self._stderr.flush()
        return self.stderr_path.read_text(errors="replace")

    def wait_log(self, needle: str, timeout: float = TIMEOUT) -> str:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.stderr_text().splitlines():
                if needle in line:
                    return line
            time.sleep(0.05)
        raise AssertionError(f"no log line with {needle!r}:\n{self.stderr_text()}")

    def stop(self) -> int:
        import signal
        import subprocess

        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(TIMEOUT)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            code = self.proc.wait()
        assert self.proc.stdout is not None
        self.banner.extend(self.proc.stdout.read().splitlines())
        self.proc.stdout.close()
        self._stderr.close()
        return code
