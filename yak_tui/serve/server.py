"""`yak serve`: host a campaign over SSH, one terminal app per session, all on one save.

- Public-key authentication only. The offered key is looked up by fingerprint in the world's
  roster (`yak user add`); the key decides the identity, whatever user name, environment or
  command the client sends. Passwords and keyboard-interactive are not even offered.
- Each session with a pty gets its own `yak tui` child in its own pseudo-terminal (see
  `ptyproc`), running as the key's identity, with the client's TERM and `YAK_SERVED=1`.
  Window changes reach it as TIOCSWINSZ (so SIGWINCH); when it exits the channel closes with
  its exit status; when the client goes, its process group is hung up, killed and reaped.
- Exec requests, subsystems (sftp), sessions without a pty, port, X11 and agent forwarding are
  refused with a message. All sessions share the save path; the app's own polling of the file
  (and the store's locked transactions) make it a shared live world.
- Every login, logout and refusal is logged (who, key fingerprint, address, UTC time).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import signal
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from yak_tui.serve.ptyproc import TERMINAL_RESTORE, PtyProcess

log = logging.getLogger("yak.serve")

DEFAULT_TERM = "xterm-256color"
HOST_KEY_NAME = "host_key_ed25519"
# Variables of the server's environment that describe the server's own terminal or SSH
# connection, or a size: the child gets the client's terminal instead.
DROPPED_ENV = ("TERM", "COLORTERM", "COLUMNS", "LINES", "TERM_PROGRAM", "TERM_PROGRAM_VERSION", "TMUX",
               "TMUX_PANE", "STY", "SSH_AUTH_SOCK", "SSH_CONNECTION", "SSH_CLIENT", "SSH_TTY", "YAK_SAVE",
               "YAK_AS", "WINDOWID", "VTE_VERSION", "KITTY_WINDOW_ID")
REFUSE_NO_PTY = ("yak serve runs the campaign app in a terminal, and this session asked for none.\r\n"
                 "Connect with a terminal: ssh -t -p PORT NAME@HOST\r\n")
REFUSE_EXEC = "yak serve runs only the campaign app; commands are refused ({what}).\r\n"
REFUSE_SUBSYSTEM = "yak serve offers no subsystems; {what} is refused.\r\n"


def default_app_argv(save: Path, identity: str) -> list[str]:
    """The command line of one session's app: the TUI, as the key's identity, on the shared save."""
    return [sys.executable, "-m", "yak_tui", "--save", str(save), "--as", identity, "tui"]


@dataclass
class ServeConfig:
    """Everything `yak serve` needs; tests and the benchmark build one directly."""

    save: Path
    host: str = "127.0.0.1"
    port: int = 2222
    host_key: Path | None = None
    max_sessions: int = 32
    idle_timeout: float = 0.0  # seconds without client input before a session is closed; 0: never
    kill_grace: float = 2.0  # seconds between SIGHUP and SIGKILL of a disconnected client's app
    login_timeout: float = 60.0
    app_argv: Callable[[Path, str], list[str]] = field(default=default_app_argv)

    @property
    def host_key_path(self) -> Path:
        return self.host_key or self.save.parent / HOST_KEY_NAME


# -- host key ---------------------------------------------------------------------------------
def ensure_host_key(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """Load the server's key, or create it (ed25519, mode 0600) on first start. (key, created)."""
    if path.exists():
        mode = path.stat().st_mode & 0o777
        if mode & 0o077:
            log.warning("host key %s is readable by others (mode %o); chmod 600 it", path, mode)
        return asyncssh.read_private_key(str(path)), False
    key = asyncssh.generate_private_key("ssh-ed25519", comment="yak serve host key")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key.export_private_key())
    os.chmod(path, 0o600)
    pub = path.with_name(path.name + ".pub")
    with contextlib.suppress(OSError):
        pub.write_bytes(key.export_public_key())
    return key, True


# -- roster -----------------------------------------------------------------------------------
class Roster:
    """The users table of the save, re-read whenever the file changes (so `yak user add` and
    `user remove` apply without restarting the server)."""

    def __init__(self, save: Path) -> None:
        from yak_tui.store.storage import WorldFile

        self.file = WorldFile(save)
        self._stamp: tuple[int, int] | None = None
        self._world: Any = None

    def world(self) -> Any:
        from yak_tui.world.model import World

        stamp = self.file.stamp()
        if self._world is None or stamp != self._stamp:
            self._world = World(self.file.read())
            self._stamp = stamp
        return self._world

    def lookup(self, fingerprint: str) -> tuple[Any, str]:
        """(RosterUser, "") for a known key whose identity is still valid, else (None, reason)."""
        from yak_tui.world.identity import IdentityError
        from yak_tui.world.roster import user_for_fingerprint
        from yak_tui.world.session import check_identity

        try:
            world = self.world()
        except Exception as error:
            return None, f"the save cannot be read ({error})"
        user = user_for_fingerprint(world, fingerprint)
        if user is None:
            return None, "unknown key"
        try:
            check_identity(world, user.identity)
        except IdentityError as error:
            return None, f"user {user.name}'s identity {user.identity} is no longer valid ({error})"
        return user, ""


# -- one connection -----------------------------------------------------------------------------
def _peer(conn: asyncssh.SSHServerConnection) -> str:
    peer = conn.get_extra_info("peername")
    if isinstance(peer, tuple) and len(peer) >= 2:
        return f"{peer[0]}:{peer[1]}"
    return str(peer or "?")


class YakConnection(asyncssh.SSHServer):
    """One client connection: authentication by roster key, then its session channels."""

    def __init__(self, server: YakServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.ssh_user = ""
        self.user: Any = None  # RosterUser once authenticated
        self._candidate: Any = None
        self._candidate_fp = ""
        self.fingerprint = ""
        self._refused: dict[str, str] = {}
        self.started = time.monotonic()

    # -- lifecycle
    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.address = _peer(conn)
        self.server.connections.add(self)

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections.discard(self)
        if self.user is not None:
            log.info("logout user=%s identity=%s key=%s from=%s after=%.1fs", self.user.name, self.user.identity,
                     self.fingerprint, self.address, time.monotonic() - self.started)
            return
        if self._refused:
            keys = ", ".join(f"{fp} ({why})" for fp, why in self._refused.items())
            log.warning("refused login ssh_user=%s from=%s: keys refused: %s", self.ssh_user or "-", self.address, keys)
        else:
            why = "no public key offered (passwords and keyboard-interactive are not accepted)"
            if exc is not None:
                why += f"; {exc}"
            log.warning("refused login ssh_user=%s from=%s: %s", self.ssh_user or "-", self.address, why)

    # -- authentication: public keys of the roster, nothing else
    def begin_auth(self, username: str) -> bool:
        self.ssh_user = username
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    async def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        fingerprint = key.get_fingerprint("sha256")
        # Reading the save may take a moment on a long campaign: keep it off the event loop.
        user, reason = await asyncio.get_running_loop().run_in_executor(None, self.server.roster.lookup, fingerprint)
        if user is None:
            self._refused[fingerprint] = reason
            return False
        # asyncssh validates the signed request last, right before success: the last accepted
        # key is the one that logged in.
        self._candidate, self._candidate_fp = user, fingerprint
        return True

    def auth_completed(self) -> None:
        self.user, self.fingerprint = self._candidate, self._candidate_fp
        self._refused.clear()
        log.info("login user=%s identity=%s key=%s from=%s ssh_user=%s", self.user.name, self.user.identity,
                 self.fingerprint, self.address, self.ssh_user)

    # -- channels
    def session_requested(self) -> Any:
        if self.user is None or self.conn is None:
            return False
        limit = self.server.config.max_sessions
        if len(self.server.sessions) >= limit:
            self.refuse("session", f"the server is full ({limit} sessions)")
            raise asyncssh.ChannelOpenError(asyncssh.OPEN_RESOURCE_SHORTAGE,
                                            f"yak serve is full ({limit} sessions); try again later")
        chan = self.conn.create_server_channel(encoding=None)
        session = AppSession(self)
        self._guard_channel(chan, session)
        self.server.sessions.add(session)
        return chan, session

    def _guard_channel(self, chan: Any, session: AppSession) -> None:
        """Refuse agent and X11 forwarding on this channel at once, noting it for the client.

        asyncssh already refuses them (agent_forwarding/x11_forwarding off); wrapping the
        handlers lets the refusal be logged and told to the client."""
        for request, what in (("auth_agent_req_at_openssh_dot_com", "agent forwarding"),
                              ("x11_req", "X11 forwarding")):
            name = f"_process_{request}_request"
            if hasattr(chan, name):
                setattr(chan, name, lambda _packet, what=what: session.refuse_forwarding(what))

    def refuse(self, what: str, reason: str) -> None:
        name = self.user.name if self.user is not None else "-"
        log.warning("refused %s user=%s key=%s from=%s: %s", what, name, self.fingerprint or "-", self.address,
                    reason)

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> Any:
        self.refuse("port forwarding", f"local forward to {dest_host}:{dest_port}")
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                        "port forwarding is refused by yak serve")

    def server_requested(self, listen_host: str, listen_port: int) -> Any:
        self.refuse("port forwarding", f"remote forward from {listen_host}:{listen_port}")
        return False

    def unix_connection_requested(self, dest_path: str) -> Any:
        self.refuse("socket forwarding", f"local forward to {dest_path}")
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                        "socket forwarding is refused by yak serve")

    def unix_server_requested(self, listen_path: str) -> Any:
        self.refuse("socket forwarding", f"remote forward from {listen_path}")
        return False

    def tun_requested(self, unit: int | None) -> Any:
        self.refuse("tunnel", f"tun/tap unit {unit}")
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, "tunnels are refused by yak serve")

    def tap_requested(self, unit: int | None) -> Any:
        return self.tun_requested(unit)


# -- one session: one app in one pty -----------------------------------------------------------
class AppSession(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One SSH session channel running one app process."""

    def __init__(self, owner: YakConnection) -> None:
        self.owner = owner
        self.server = owner.server
        self.chan: Any = None
        self.term: str | None = None
        self.size = (80, 24, 0, 0)
        self.kind = ""
        self.what = ""
        self.proc: PtyProcess | None = None
        self.channel_open = True
        self.started = time.monotonic()
        self.last_input = time.monotonic()
        self.end_note = ""  # said to the client after a forced end (idle, shutdown)
        self.pending_notes: list[str] = []

    # -- requests
    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self.term = term_type or DEFAULT_TERM
        columns, rows, xpixels, ypixels = term_size
        self.size = (columns or 80, rows or 24, xpixels, ypixels)
        return True

    def shell_requested(self) -> bool:
        self.kind = "shell"
        return True

    def exec_requested(self, command: str) -> bool:
        self.kind, self.what = "exec", command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self.kind, self.what = "subsystem", subsystem
        return True

    def refuse_forwarding(self, what: str) -> bool:
        self.owner.refuse(what, "not offered")
        if not self.kind:  # told on stderr when the session starts, before the app paints
            self.pending_notes.append(f"yak serve: {what} is refused.\r\n")
        return False

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal: str) -> None:
        log.info("ignored signal %s from user=%s", signal, self.user_name)

    def eof_received(self) -> bool:
        return True  # the app decides when the session ends

    @property
    def user_name(self) -> str:
        return str(self.owner.user.name) if self.owner.user is not None else "-"

    def session_started(self) -> None:
        try:
            self._start()
        except Exception as error:
            log.exception("session of user=%s failed to start", self.user_name)
            self._refuse_session("error", f"yak serve could not start the app: {error}\r\n")

    def _start(self) -> None:
        for note in self.pending_notes:
            self.chan.write_stderr(note.encode())
        self.pending_notes.clear()
        if self.kind == "exec":
            self._refuse_session(f"exec {self.what!r}", REFUSE_EXEC.format(what=self.what or "empty command"))
            return
        if self.kind == "subsystem":
            self._refuse_session(f"subsystem {self.what!r}", REFUSE_SUBSYSTEM.format(what=self.what))
            return
        if self.term is None:
            self._refuse_session("session without a pty", REFUSE_NO_PTY)
            return
        user = self.owner.user
        argv = self.server.config.app_argv(self.server.config.save, str(user.identity))
        columns, rows, xpixels, ypixels = self.size
        self.proc = PtyProcess(argv, self._child_env(), columns, rows, self._output, self._app_exited)
        self.proc.resize(columns, rows, xpixels, ypixels)
        log.info("session start user=%s identity=%s pid=%d term=%s size=%dx%d from=%s", user.name, user.identity,
                 self.proc.pid, self.term, columns, rows, self.owner.address)

    def _child_env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
        env["TERM"] = self.term or DEFAULT_TERM
        # The client's environment is ignored, except a colour capability that changes nothing else.
        client_env = self.chan.get_environment() if self.chan is not None else {}
        if client_env.get("COLORTERM") in ("truecolor", "24bit"):
            env["COLORTERM"] = client_env["COLORTERM"]
        env["YAK_SERVED"] = "1"
        env["YAK_USER"] = str(self.owner.user.name)
        return env

    def _refuse_session(self, what: str, message: str) -> None:
        self.owner.refuse(what, message.strip())
        if self.channel_open:
            self.chan.write_stderr(message.encode())
            self.chan.exit(1)

    # -- data
    def data_received(self, data: bytes, datatype: Any) -> None:
        self.last_input = time.monotonic()
        if self.proc is not None:
            self.proc.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.last_input = time.monotonic()
        self.size = (width or self.size[0], height or self.size[1], pixwidth, pixheight)
        if self.proc is not None and self.proc.alive:
            self.proc.resize(*self.size)

    def pause_writing(self) -> None:
        if self.proc is not None:
            self.proc.pause_output()

    def resume_writing(self) -> None:
        if self.proc is not None:
            self.proc.resume_output()

    def _output(self, data: bytes) -> None:
        if self.channel_open:
            try:
                self.chan.write(data)
            except (OSError, asyncssh.Error):
                self.channel_open = False

    # -- ending
    def _app_exited(self, code: int) -> None:
        duration = time.monotonic() - self.started
        assert self.proc is not None
        log.info("session end user=%s pid=%d status=%d after=%.1fs", self.user_name, self.proc.pid, code, duration)
        if self.channel_open:
            try:
                if code < 0 or self.end_note:
                    self.chan.write(TERMINAL_RESTORE)
                if self.end_note:
                    self.chan.write_stderr(self.end_note.encode())
                if code >= 0:
                    self.chan.exit(code)
                else:
                    name = signal.Signals(-code).name.removeprefix("SIG")
                    self.chan.exit_with_signal(name, False, f"the app ended on signal {name}")
            except (OSError, asyncssh.Error):
                pass
        self._maybe_forget()

    def end(self, note: str) -> None:
        """Close this session from the server side (idle, shutdown): the app is hung up first."""
        self.end_note = note
        if self.proc is not None and self.proc.alive:
            self.proc.terminate(self.server.config.kill_grace)
        elif self.channel_open:
            with contextlib.suppress(OSError, asyncssh.Error):
                self.chan.write_stderr(note.encode())
                self.chan.exit(1)

    def connection_lost(self, exc: Exception | None) -> None:
        self.channel_open = False
        if self.proc is not None and self.proc.alive:
            log.info("client gone: hanging up pid=%d of user=%s", self.proc.pid, self.user_name)
            self.proc.terminate(self.server.config.kill_grace)
        self._maybe_forget()

    def _maybe_forget(self) -> None:
        if not self.channel_open and (self.proc is None or not self.proc.alive):
            self.server.sessions.discard(self)
            self.server.notify()


# -- the server -----------------------------------------------------------------------------------
class YakServer:
    """The listener, the live sessions and the idle watch. `start()`, then `close()`."""

    def __init__(self, config: ServeConfig) -> None:
        self.config = config
        self.roster = Roster(config.save)
        self.sessions: set[AppSession] = set()
        self.connections: set[YakConnection] = set()
        self.acceptor: asyncssh.SSHAcceptor | None = None
        self.host_key: asyncssh.SSHKey | None = None
        self.host_key_created = False
        self._idle_task: asyncio.Task[None] | None = None
        self._changed = asyncio.Event()

    @property
    def port(self) -> int:
        assert self.acceptor is not None
        return int(self.acceptor.get_port())

    @property
    def host_fingerprint(self) -> str:
        assert self.host_key is not None
        return str(self.host_key.get_fingerprint("sha256"))

    def notify(self) -> None:
        self._changed.set()

    def app_pids(self) -> list[int]:
        return [s.proc.pid for s in list(self.sessions) if s.proc is not None and s.proc.alive]

    async def start(self) -> YakServer:
        self.host_key, self.host_key_created = ensure_host_key(self.config.host_key_path)
        self.acceptor = await asyncssh.listen(
            self.config.host, self.config.port, server_factory=lambda: YakConnection(self),
            server_host_keys=[self.host_key], encoding=None, line_editor=False, allow_pty=True,
            agent_forwarding=False, x11_forwarding=False, allow_scp=False, gss_host=None,
            login_timeout=self.config.login_timeout, keepalive_interval=30, keepalive_count_max=4,
        )
        if self.config.idle_timeout > 0:
            self._idle_task = asyncio.get_running_loop().create_task(self._watch_idle())
        return self

    async def _watch_idle(self) -> None:
        limit = self.config.idle_timeout
        step = max(0.05, min(limit / 4, 5.0))
        while True:
            await asyncio.sleep(step)
            now = time.monotonic()
            for session in list(self.sessions):
                if session.end_note or now - session.last_input <= limit:
                    continue
                if session.proc is not None and session.proc.alive:
                    log.info("idle: closing session of user=%s pid=%d after %gs without input",
                             session.user_name, session.proc.pid, limit)
                    session.end(f"yak serve: session closed after {limit:g} s without input.\r\n")
                elif session.proc is None and session.channel_open:  # opened, never started an app
                    log.info("idle: closing unstarted session of user=%s after %gs", session.user_name, limit)
                    session.end(f"yak serve: session closed after {limit:g} s without a request.\r\n")

    async def close(self) -> None:
        """Stop listening, hang up every app, wait for them to be reaped, drop the connections."""
        if self._idle_task is not None:
            self._idle_task.cancel()
        if self.acceptor is not None:
            self.acceptor.close()
        for session in list(self.sessions):
            session.end("yak serve: the server is shutting down.\r\n")
        deadline = time.monotonic() + self.config.kill_grace + 3.0
        while self.app_pids() and time.monotonic() < deadline:
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), 0.1)
        for connection in list(self.connections):
            if connection.conn is not None:
                connection.conn.close()
        if self.acceptor is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.acceptor.wait_closed(), 2.0)


async def start_server(config: ServeConfig) -> YakServer:
    return await YakServer(config).start()


# -- the `yak serve` verb ---------------------------------------------------------------------------
def configure_logging() -> None:
    """Log lines on stderr with UTC timestamps; asyncssh's own chatter only from warnings up."""
    logger = logging.getLogger("yak.serve")
    if not logger.handlers:
        handler = logging.StreamHandler(sys.stderr)
        formatter = logging.Formatter("%(asctime)s yak serve %(levelname)s %(message)s", "%Y-%m-%dT%H:%M:%SZ")
        formatter.converter = time.gmtime
        handler.setFormatter(formatter)
        logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    logging.getLogger("asyncssh").setLevel(logging.WARNING)


def config_from_args(save_path: Path, args: argparse.Namespace) -> ServeConfig:
    from yak_tui.cli import UsageError
    from yak_tui.store.storage import StoreError, WorldFile

    save = Path(save_path).expanduser().resolve()
    if not save.exists():
        raise StoreError(f"no save at {save}; create one with `yak new {save} --demo`")
    WorldFile(save).read()  # a corrupt save is refused now, with its restore hint
    port = int(args.port)
    if not 0 <= port <= 65535:
        raise UsageError(f"--port: {port} is not a TCP port (0-65535)")
    if int(args.max_sessions) < 1:
        raise UsageError(f"--max-sessions: must be at least 1, not {args.max_sessions}")
    if float(args.idle_timeout) < 0:
        raise UsageError(f"--idle-timeout: must be 0 (never) or more seconds, not {args.idle_timeout}")
    host_key = Path(args.host_key).expanduser().resolve() if getattr(args, "host_key", None) else None
    return ServeConfig(save=save, host=args.host, port=port, host_key=host_key,
                       max_sessions=int(args.max_sessions), idle_timeout=float(args.idle_timeout))


def serve_forever(save_path: Path, args: argparse.Namespace) -> int:
    """Run the server until SIGINT/SIGTERM; every app is hung up and reaped before returning."""
    config = config_from_args(save_path, args)
    configure_logging()
    return asyncio.run(_serve(config))


async def _serve(config: ServeConfig) -> int:
    from yak_tui.cli import UsageError
    from yak_tui.world.model import World
    from yak_tui.world.roster import roster

    try:
        server = await start_server(config)
    except (asyncssh.KeyImportError, ValueError) as error:
        raise UsageError(f"--host-key: {config.host_key_path} is not a usable private key ({error})") from None
    except OSError as error:
        raise UsageError(f"cannot listen on {config.host}:{config.port}: {error.strerror or error}") from None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    created = "created" if server.host_key_created else "loaded"
    users = roster(World(server.roster.file.read()))
    print(f"yak serve: host key {server.host_fingerprint} ({created} {config.host_key_path})", flush=True)
    if not users:
        print(f"yak serve: no users yet; add one with `yak --save {config.save} user add NAME "
              "--identity gm --key ~/.ssh/id_ed25519.pub`", flush=True)
    print(f"yak serve: listening on {config.host}:{server.port}, save {config.save}, "
          f"{len(users)} user(s), at most {config.max_sessions} sessions", flush=True)
    try:
        await stop.wait()
    finally:
        print("yak serve: shutting down", flush=True)
        await server.close()
    return 0
