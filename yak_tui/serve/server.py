"""`yak serve`: host a campaign over SSH, one terminal app per session, all on one save.

- Public-key authentication only. The offered key is looked up by fingerprint in the world's
  roster (`yak user add`); the key decides the identity, whatever user name, environment or
  command the client sends. Passwords and keyboard-interactive are not even offered.
- Each session with a pty gets its own `yak tui` child in its own pseudo-terminal (see
  `ptyproc`), running as the key's identity, with the client's TERM and `YAK_SERVED=1`.
  Window changes reach it as TIOCSWINSZ (so SIGWINCH); when it exits the channel closes with
  its exit status; when the client goes, its process group is hung up, killed and reaped.
- Exec requests are answered only for the allow-list of `execs` (`orders submit`, `orders list`,
  `report`), as the key's identity; every other command, subsystems (sftp), sessions without a
  pty, port, X11 and agent forwarding are refused with a message. All sessions share the save path; the app's own polling of the file
  (and the store's locked transactions) make it a shared live world.
- Every login, logout and refusal is logged (who, key fingerprint, address, UTC time); refusal
  lines are rate-limited (`RefusalLog`) so a flood of bad logins cannot bury the rest.
- Limits, so that no client can take the host or the table down: the pty size is clamped and
  each app's address space is capped (`ptyproc`); sessions per server and per user; a channel
  that never asks for a shell is closed; idle sessions are closed; failed authentication
  requests per connection (MaxAuthTries) and connections still logging in at once
  (MaxStartups), in all and from one address (PerSourceMaxStartups), are bounded; a client must
  send its SSH version line within the banner timeout and finish its login within the login
  timeout, so silent connections from one address can neither fill the slots nor hold them.
- The roster is watched: when a logged-in user's seat goes (removed, given another identity,
  or the save replaced), his sessions end with a message and his connection is closed.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import ipaddress
import logging
import math
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import asyncssh

from yak_tui.serve.execs import MAX_ORDERS_BYTES, USAGE, exec_verb, run_exec
from yak_tui.serve.ptyproc import TERMINAL_RESTORE, PtyProcess, clamp_size

log = logging.getLogger("yak.serve")

DEFAULT_TERM = "xterm-256color"
HOST_KEY_NAME = "host_key_ed25519"
# Variables of the server's environment that describe the server's own terminal or SSH
# connection, or a size: the child gets the client's terminal instead.
DROPPED_ENV = (
    "TERM",
    "COLORTERM",
    "COLUMNS",
    "LINES",
    "TERM_PROGRAM",
    "TERM_PROGRAM_VERSION",
    "TMUX",
    "TMUX_PANE",
    "STY",
    "SSH_AUTH_SOCK",
    "SSH_CONNECTION",
    "SSH_CLIENT",
    "SSH_TTY",
    "YAK_SAVE",
    "YAK_AS",
    "WINDOWID",
    "VTE_VERSION",
    "KITTY_WINDOW_ID",
)
REFUSE_NO_PTY = (
    "yak serve runs the campaign app in a terminal, and this session asked for none.\r\n"
    "Connect with a terminal: ssh -t -p PORT NAME@HOST\r\n"
)
REFUSE_EXEC = "yak serve runs the campaign app; other commands are refused ({what}); " + USAGE + ".\r\n"
REFUSE_SUBSYSTEM = "yak serve offers no subsystems; {what} is refused.\r\n"
SEAT_REMOVED = "yak serve: your seat {name} was removed from the roster; goodbye.\r\n"
SEAT_CHANGED = "yak serve: your seat {name} no longer plays {identity} ({why}); goodbye.\r\n"


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
    max_sessions_per_user: int = 4
    idle_timeout: float = 3600.0  # seconds without client input before a session is closed; 0: never
    request_timeout: float = 10.0  # seconds a session channel may stay open without a shell request
    session_memory: int = 1024  # MiB of address space for each app process; 0: no limit
    max_auth_tries: int = 6  # failed authentication requests on one connection before it is dropped
    max_unauthenticated: int = 10  # connections logging in at once; those past it are dropped
    # connections logging in at once from one address (PerSourceMaxStartups): a flood from one
    # address cannot fill the slots above and lock every other address out
    max_unauthenticated_per_address: int = 3
    banner_timeout: float = 10.0  # seconds a connection has to send its SSH version line
    login_timeout: float = 30.0  # seconds a connection has to authenticate
    kill_grace: float = 2.0  # seconds between SIGHUP and SIGKILL of a disconnected client's app
    roster_poll: float = 1.0  # seconds between looks at the save's stamp for roster changes
    refusal_lines_per_second: int = 10  # refusal log lines past it are counted in one summary line
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
    """The users table of the save, followed as the file changes (so `yak user add` and
    `user remove` apply without restarting the server): brought up to date from the save's change
    journal when it can say what a write changed, as the apps are (`follow_save`), else read in full.
    A journal entry counts only when signed with the campaign's key and checked against the save's
    bytes: a seat written into the journal by hand logs nobody in."""

    def __init__(self, save: Path) -> None:
        from yak_tui.store.storage import WorldFile

        self.file = WorldFile(save)
        self._stamp: tuple[int, int, int] | None = None
        self._world: Any = None
        # Logins and the roster watch read from executor threads: the world and its stamp are
        # replaced together, or a stale world could pass for the current one.
        self._lock = threading.Lock()

    def world(self) -> Any:
        from yak_tui.kernel.world.model import follow_save

        with self._lock:
            self._stamp, self._world = follow_save(
                self.file, None if self._world is None else (self._stamp, self._world)
            )
            return self._world

    def lookup(self, fingerprint: str) -> tuple[Any, str]:
        """(RosterUser, "") for a known key whose identity is still valid, else (None, reason)."""
        from yak_tui.areas.court import user_for_fingerprint
        from yak_tui.kernel.play.identity import IdentityError
        from yak_tui.kernel.season.session import check_identity

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

    def seat_gone(self, user: Any) -> str:
        """Why a logged-in user may no longer play: "removed", another identity, or his identity no
        longer in the world; "" while his seat holds. Raises if the save cannot be read."""
        from yak_tui.areas.court import user_for_fingerprint
        from yak_tui.kernel.play.identity import IdentityError
        from yak_tui.kernel.season.session import check_identity

        world = self.world()
        current = user_for_fingerprint(world, user.fingerprint)
        if current is None or current.name != user.name:
            return "removed"
        if current.identity != user.identity:
            return f"the roster now gives this key {current.identity}"
        try:
            check_identity(world, user.identity)
        except IdentityError as error:
            return f"{user.identity} is not in this campaign: {error}"
        return ""


# -- refusal log lines --------------------------------------------------------------------------
class RefusalLog:
    """Refusal warnings, at most `per_window` of them per `window` seconds, so a flood of bad
    logins can neither fill the disk nor bury the other lines. Lines held back are counted and
    reported in one summary line when their window ends."""

    def __init__(self, per_window: int, window: float = 1.0, clock: Callable[[], float] = time.monotonic) -> None:
        self.per_window = per_window
        self.window = window
        self.clock = clock
        self.window_start = -math.inf
        self.written = 0
        self.suppressed = 0
        self._timer: asyncio.TimerHandle | None = None

    def warning(self, message: str, *args: Any) -> None:
        now = self.clock()
        if now - self.window_start >= self.window:
            self.flush()
            self.window_start, self.written = now, 0
        if self.written < self.per_window:
            self.written += 1
            log.warning(message, *args)
            return
        self.suppressed += 1
        if self._timer is None:
            with contextlib.suppress(RuntimeError):  # no running loop: the next line flushes
                delay = max(0.0, self.window_start + self.window - now)
                self._timer = asyncio.get_running_loop().call_later(delay, self.flush)

    def flush(self) -> None:
        """Write the summary of the lines held back, if any."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self.suppressed:
            log.warning("suppressed %d similar refusal line(s) in the last %gs", self.suppressed, self.window)
            self.suppressed = 0


# -- one connection -----------------------------------------------------------------------------
def _peer(conn: asyncssh.SSHServerConnection) -> str:
    peer = conn.get_extra_info("peername")
    if isinstance(peer, tuple) and len(peer) >= 2:
        return f"{peer[0]}:{peer[1]}"
    return str(peer or "?")


def _peer_host(conn: asyncssh.SSHServerConnection) -> str:
    """The client's address without its port, the unit of the per-address limit: an IPv4 client
    of a dual-stack listener (`::ffff:203.0.113.7`) counts as its IPv4 address."""
    peer = conn.get_extra_info("peername")
    host = str(peer[0]) if isinstance(peer, tuple) and peer else str(peer or "?")
    try:
        address = ipaddress.ip_address(host.split("%", 1)[0])
    except ValueError:
        return host
    mapped = getattr(address, "ipv4_mapped", None)
    return str(mapped or address)


class YakConnection(asyncssh.SSHServer):
    """One client connection: authentication by roster key, then its session channels."""

    def __init__(self, server: YakServer) -> None:
        self.server = server
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.host = "?"  # the address without its port (the per-address limit counts by it)
        self.ssh_user = ""
        self.user: Any = None  # RosterUser once authenticated
        self._candidate: Any = None
        self._candidate_fp = ""
        self.fingerprint = ""
        self._refused: dict[str, str] = {}
        self.started = time.monotonic()
        self.dropped = ""  # why the connection was dropped before it could log in
        self.auth_failures = 0
        self._probed = False  # the first request (a client's "none" probe) is not counted
        self._key_tried = False
        self._send_auth_failure: Callable[[bool], None] | None = None
        self.revoked = ""  # why this user's seat is gone; his sessions are being ended
        self.checked_stamp: tuple[int, ...] | None = None  # the save's stamp his seat was checked at
        self._banner_timer: asyncio.TimerHandle | None = None

    # -- lifecycle
    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.address = _peer(conn)
        self.host = _peer_host(conn)
        config = self.server.config
        pending = self.server.pending_logins()
        from_here = self.server.pending_logins(self.host)
        self.server.connections.add(self)
        # MaxStartups, in all and per address: the version line goes out first, then the disconnect
        if pending >= config.max_unauthenticated:
            self._drop(f"{pending} connections are already logging in (at most {config.max_unauthenticated})")
            return
        if from_here >= config.max_unauthenticated_per_address:
            self._drop(
                f"{from_here} connections from {self.host} are already logging in "
                f"(at most {config.max_unauthenticated_per_address} from one address)"
            )
            return
        if config.banner_timeout > 0:
            self._banner_timer = asyncio.get_running_loop().call_later(config.banner_timeout, self._banner_overdue)
        # Every failed authentication request goes out through this method: counting there
        # covers keys, passwords, keyboard-interactive and any other method alike.
        self._send_auth_failure = conn.send_userauth_failure
        conn.send_userauth_failure = self._auth_failed  # type: ignore[method-assign]

    def _drop(self, why: str) -> None:
        """Refuse a connection before it may log in: logged (rate-limited), told, disconnected."""
        assert self.conn is not None
        self.dropped = why
        self.server.refusals.warning("refused connection from=%s: %s", self.address, why)
        asyncio.get_running_loop().call_soon(
            self.conn.disconnect,
            asyncssh.DISC_TOO_MANY_CONNECTIONS,
            "yak serve: too many connections are logging in; try again later",
        )

    def _banner_overdue(self) -> None:
        """LoginGraceTime for the first line: a client that has not even sent its SSH version line
        by now is dropped, so that silent connections give their slot back within seconds."""
        self._banner_timer = None
        if self.conn is None or self.user is not None or self.dropped:
            return
        if self.conn.get_extra_info("client_version") is not None:
            return  # it spoke SSH: the login timeout watches the rest
        self.dropped = f"no SSH version line within {self.server.config.banner_timeout:g} s"
        self.server.refusals.warning("refused connection from=%s: %s", self.address, self.dropped)
        self.conn.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self.server.connections.discard(self)
        if self._banner_timer is not None:
            self._banner_timer.cancel()
            self._banner_timer = None
        if self.user is not None:
            log.info(
                "logout user=%s identity=%s key=%s from=%s after=%.1fs",
                self.user.name,
                self.user.identity,
                self.fingerprint,
                self.address,
                time.monotonic() - self.started,
            )
            return
        if self.dropped:
            return  # logged when it was dropped
        if self._refused:
            why = "keys refused: " + ", ".join(f"{fp} ({reason})" for fp, reason in self._refused.items())
        else:
            why = "no public key offered (passwords and keyboard-interactive are not accepted)"
        if self.auth_failures >= self.server.config.max_auth_tries:
            why += f"; too many authentication failures ({self.auth_failures}), disconnected"
        elif exc is not None and not self._refused:
            why += f"; {exc}"
        self.server.refusals.warning("refused login ssh_user=%s from=%s: %s", self.ssh_user or "-", self.address, why)

    def _auth_failed(self, partial_success: bool) -> None:
        """MaxAuthTries: send the failure, or drop the connection at the limit of failures."""
        if self._key_tried or self._probed:
            self.auth_failures += 1
        self._probed, self._key_tried = True, False
        limit = self.server.config.max_auth_tries
        if self.auth_failures >= limit and self.conn is not None:
            self.conn.disconnect(
                asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE, f"yak serve: too many authentication failures ({limit})"
            )
            return
        assert self._send_auth_failure is not None
        self._send_auth_failure(partial_success)

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
        self._key_tried = True
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
        log.info(
            "login user=%s identity=%s key=%s from=%s ssh_user=%s",
            self.user.name,
            self.user.identity,
            self.fingerprint,
            self.address,
            self.ssh_user,
        )

    # -- channels
    def session_requested(self) -> Any:
        if self.user is None or self.conn is None:
            return False
        if self.revoked:
            self.refuse("session", f"the seat is gone ({self.revoked})")
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, f"yak serve: your seat {self.user.name} is gone"
            )
        limit = self.server.config.max_sessions
        if len(self.server.sessions) >= limit:
            self.refuse("session", f"the server is full ({limit} sessions)")
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_RESOURCE_SHORTAGE, f"yak serve is full ({limit} sessions); try again later"
            )
        per_user = self.server.config.max_sessions_per_user
        if self.server.sessions_of(self.user.name) >= per_user:
            self.refuse("session", f"user {self.user.name} already has {per_user} sessions")
            raise asyncssh.ChannelOpenError(
                asyncssh.OPEN_RESOURCE_SHORTAGE,
                f"yak serve: you already have {per_user} sessions open; close one first",
            )
        chan = self.conn.create_server_channel(encoding=None)
        session = AppSession(self)
        self._guard_channel(chan, session)
        self.server.sessions.add(session)
        return chan, session

    def _guard_channel(self, chan: Any, session: AppSession) -> None:
        """Refuse agent and X11 forwarding on this channel at once, noting it for the client.

        asyncssh already refuses them (agent_forwarding/x11_forwarding off); wrapping the
        handlers lets the refusal be logged and told to the client."""
        for request, what in (("auth_agent_req_at_openssh_dot_com", "agent forwarding"), ("x11_req", "X11 forwarding")):
            name = f"_process_{request}_request"
            if hasattr(chan, name):
                setattr(chan, name, lambda _packet, what=what: session.refuse_forwarding(what))

    def refuse(self, what: str, reason: str) -> None:
        name = self.user.name if self.user is not None else "-"
        self.server.refusals.warning(
            "refused %s user=%s key=%s from=%s: %s", what, name, self.fingerprint or "-", self.address, reason
        )

    def revoke(self, why: str) -> None:
        """The seat this connection logged in as is gone: end its sessions with a message saying
        so; the connection is closed once they are over (`close_if_revoked`)."""
        assert self.user is not None
        self.revoked = why
        if why == "removed":
            note = SEAT_REMOVED.format(name=self.user.name)
        else:
            note = SEAT_CHANGED.format(name=self.user.name, identity=self.user.identity, why=why)
        mine = [session for session in self.server.sessions if session.owner is self]
        log.warning(
            "seat gone: ending %d session(s) of user=%s identity=%s key=%s from=%s: %s",
            len(mine),
            self.user.name,
            self.user.identity,
            self.fingerprint,
            self.address,
            "removed from the roster" if why == "removed" else why,
        )
        for session in mine:
            session.end(note)
        self.close_if_revoked()

    def close_if_revoked(self) -> None:
        if self.revoked and self.conn is not None and not any(s.owner is self for s in self.server.sessions):
            self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, f"yak serve: your seat is gone ({self.revoked})")

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str, orig_port: int) -> Any:
        self.refuse("port forwarding", f"local forward to {dest_host}:{dest_port}")
        raise asyncssh.ChannelOpenError(
            asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, "port forwarding is refused by yak serve"
        )

    def server_requested(self, listen_host: str, listen_port: int) -> Any:
        self.refuse("port forwarding", f"remote forward from {listen_host}:{listen_port}")
        return False

    def unix_connection_requested(self, dest_path: str) -> Any:
        self.refuse("socket forwarding", f"local forward to {dest_path}")
        raise asyncssh.ChannelOpenError(
            asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED, "socket forwarding is refused by yak serve"
        )

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
        self.end_note = ""  # said to the client after a forced end (idle, shutdown, seat gone)
        self.pending_notes: list[str] = []
        self.clamped_logged = False
        self.exec_verb: str | None = None  # an allowed exec command (yak_tui.serve.execs)
        self.exec_input = bytearray()
        self.exec_answered = False
        # Set when the client goes while its exec is answered off the loop: `orders submit` stops
        # and files nothing (its one transaction is never written).
        self.exec_gone = threading.Event()

    # -- requests
    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self.term = term_type or DEFAULT_TERM
        self._set_size(*term_size)
        return True

    def _set_size(self, columns: int, rows: int, xpixels: int, ypixels: int) -> None:
        """The client's window size, clamped (a huge one would make the app's buffers grow without end)."""
        clamped = clamp_size(columns, rows)
        if clamped != (columns or 80, rows or 24):
            xpixels = ypixels = 0
            if not self.clamped_logged:
                self.clamped_logged = True
                log.info("clamped terminal size %dx%d to %dx%d for user=%s", columns, rows, *clamped, self.user_name)
        self.size = (*clamped, xpixels, ypixels)

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
        if self.exec_verb == "orders submit" and not self.exec_answered:
            self._answer_exec(bytes(self.exec_input))
        return True  # the app (or the exec answer) decides when the session ends

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
            self.exec_verb = exec_verb(self.what)
            if self.exec_verb is None:
                self._refuse_session(f"exec {self.what!r}", REFUSE_EXEC.format(what=self.what or "empty command"))
            elif self.exec_verb != "orders submit":
                self._answer_exec(b"")  # orders submit is answered at the end of its stdin
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
        memory = self.server.config.session_memory
        self.proc = PtyProcess(
            argv,
            self._child_env(),
            columns,
            rows,
            self._output,
            self._app_exited,
            memory_limit=memory * 1024 * 1024 if memory else None,
        )
        self.proc.resize(columns, rows, xpixels, ypixels)
        log.info(
            "session start user=%s identity=%s pid=%d term=%s size=%dx%d memory=%s from=%s",
            user.name,
            user.identity,
            self.proc.pid,
            self.term,
            columns,
            rows,
            f"{memory}MiB" if memory else "unlimited",
            self.owner.address,
        )

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

    def _answer_exec(self, stdin: bytes) -> None:
        """Answer an allowed exec verb off the event loop, as the key's identity, then exit with its status."""
        from yak_tui.kernel.play.identity import Identity

        verb = str(self.exec_verb)
        self.exec_answered = True
        identity = Identity.parse(str(self.owner.user.identity))
        log.info("exec %r user=%s identity=%s", verb, self.user_name, identity)
        future = asyncio.get_running_loop().run_in_executor(
            None, run_exec, self.server.config.save, identity, verb, stdin, self.exec_gone.is_set
        )

        def done(finished: asyncio.Future[tuple[int, str]]) -> None:
            try:
                code, text = finished.result()
            except Exception as error:  # a bug: said once, the session ends
                log.exception("exec %r of user=%s failed", verb, self.user_name)
                code, text = 2, f"yak serve: {verb} failed: {error}\n"
            if self.exec_gone.is_set():
                log.info(
                    "exec %r of user=%s: the client went away before its answer: %s",
                    verb,
                    self.user_name,
                    text.strip().splitlines()[-1] if text.strip() else f"status {code}",
                )
            if self.channel_open:
                with contextlib.suppress(OSError, asyncssh.Error):
                    self.chan.write((text.replace("\n", "\r\n") if self.term else text).encode())
                    self.chan.exit(code)

        future.add_done_callback(done)

    # -- data
    def data_received(self, data: bytes, datatype: Any) -> None:
        self.last_input = time.monotonic()
        if self.exec_verb == "orders submit" and not self.exec_answered:
            self.exec_input.extend(data)
            if len(self.exec_input) > MAX_ORDERS_BYTES:
                self.exec_answered = True
                self._refuse_session(
                    "orders submit over the size limit",
                    f"yak serve: orders over {MAX_ORDERS_BYTES} bytes are refused; nothing was filed.\r\n",
                )
            return
        if self.proc is not None:
            self.proc.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.last_input = time.monotonic()
        self._set_size(width or self.size[0], height or self.size[1], pixwidth, pixheight)
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
        """Close this session from the server side (idle, shutdown, seat gone): the app is hung up first."""
        self.end_note = note
        if self.proc is not None and self.proc.alive:
            self.proc.terminate(self.server.config.kill_grace)
        elif self.channel_open:
            with contextlib.suppress(OSError, asyncssh.Error):
                self.chan.write_stderr(note.encode())
                self.chan.exit(1)

    def connection_lost(self, exc: Exception | None) -> None:
        self.channel_open = False
        self.exec_gone.set()
        if self.proc is not None and self.proc.alive:
            log.info("client gone: hanging up pid=%d of user=%s", self.proc.pid, self.user_name)
            self.proc.terminate(self.server.config.kill_grace)
        self._maybe_forget()

    def _maybe_forget(self) -> None:
        if not self.channel_open and (self.proc is None or not self.proc.alive):
            self.server.sessions.discard(self)
            self.server.notify()
            self.owner.close_if_revoked()


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
        self.refusals = RefusalLog(config.refusal_lines_per_second)
        self._tasks: list[asyncio.Task[None]] = []
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

    def pending_logins(self, host: str | None = None) -> int:
        """Connections still logging in (the ones dropped do not count), from `host` if given."""
        return sum(1 for c in self.connections if c.user is None and not c.dropped and (host is None or c.host == host))

    def sessions_of(self, name: str) -> int:
        return sum(1 for s in self.sessions if s.owner.user is not None and s.owner.user.name == name)

    def app_pids(self) -> list[int]:
        return [s.proc.pid for s in list(self.sessions) if s.proc is not None and s.proc.alive]

    async def start(self) -> YakServer:
        self.host_key, self.host_key_created = ensure_host_key(self.config.host_key_path)
        self.acceptor = await asyncssh.listen(
            self.config.host,
            self.config.port,
            server_factory=lambda: YakConnection(self),
            server_host_keys=[self.host_key],
            encoding=None,
            line_editor=False,
            allow_pty=True,
            agent_forwarding=False,
            x11_forwarding=False,
            allow_scp=False,
            gss_host=None,
            login_timeout=self.config.login_timeout,
            keepalive_interval=30,
            keepalive_count_max=4,
        )
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._watch_sessions()), loop.create_task(self._watch_roster())]
        return self

    async def _watch_sessions(self) -> None:
        """Close channels that never asked for a shell, and sessions idle past the idle timeout."""
        request_limit, idle_limit = self.config.request_timeout, self.config.idle_timeout
        step = max(0.05, min([limit / 4 for limit in (request_limit, idle_limit) if limit > 0] + [5.0]))
        while True:
            await asyncio.sleep(step)
            now = time.monotonic()
            for session in list(self.sessions):
                if session.end_note:
                    continue
                if session.proc is None and not session.kind and session.channel_open:
                    if 0 < request_limit < now - session.started:  # opened, never asked for a shell
                        log.info(
                            "closing channel of user=%s after %gs without a shell request",
                            session.user_name,
                            request_limit,
                        )
                        session.end(f"yak serve: channel closed after {request_limit:g} s without a request.\r\n")
                elif (
                    idle_limit > 0
                    and session.exec_verb
                    and not session.exec_answered
                    and now - session.last_input > idle_limit
                ):
                    session.end(f"yak serve: no end to the orders after {idle_limit:g} s; nothing was filed.\r\n")
                elif (
                    idle_limit > 0
                    and now - session.last_input > idle_limit
                    and session.proc is not None
                    and session.proc.alive
                ):
                    log.info(
                        "idle: closing session of user=%s pid=%d after %gs without input",
                        session.user_name,
                        session.proc.pid,
                        idle_limit,
                    )
                    session.end(f"yak serve: session closed after {idle_limit:g} s without input.\r\n")

    def _seats_gone(self, users: list[Any]) -> list[str]:
        return [self.roster.seat_gone(user) for user in users]

    async def _watch_roster(self) -> None:
        """End the sessions of users whose seat is gone. Polls the save's stamp, as the app does;
        each logged-in connection is checked once against every new state of the save."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.config.roster_poll)
            stamp = self.roster.file.stamp()
            unchecked = [
                c for c in self.connections if c.user is not None and not c.revoked and c.checked_stamp != stamp
            ]
            if not unchecked or stamp is None:
                continue
            try:
                users = [c.user for c in unchecked]
                verdicts = await loop.run_in_executor(None, self._seats_gone, users)
            except Exception as error:
                log.warning("roster check skipped: the save cannot be read (%s)", error)
                for connection in unchecked:
                    connection.checked_stamp = stamp
                continue
            for connection, why in zip(unchecked, verdicts, strict=True):
                connection.checked_stamp = stamp
                if why and connection.conn is not None and not connection.revoked:
                    connection.revoke(why)

    async def close(self) -> None:
        """Stop listening, hang up every app, wait for them to be reaped, drop the connections."""
        for task in self._tasks:
            task.cancel()
        self.refusals.flush()
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


# MiB: a floor with room to spare (the app starts in about 64 MiB of address space when limited,
# and reserves about 400 MiB when it is not).
MIN_SESSION_MEMORY = 256


def config_from_args(save_path: Path, args: argparse.Namespace) -> ServeConfig:
    from yak_tui.kernel.errors import UsageError
    from yak_tui.store.storage import StoreError, WorldFile

    def count(option: str, value: int, minimum: int) -> int:
        if value < minimum:
            raise UsageError(f"{option}: must be at least {minimum}, not {value}")
        return value

    def seconds(option: str, value: float, *, zero_is_never: bool) -> float:
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero_is_never):
            allowed = "0 (never) or more seconds" if zero_is_never else "more than 0 seconds"
            raise UsageError(f"{option}: must be {allowed}, not {value:g}")
        return value

    save = Path(save_path).expanduser().resolve()
    if not save.exists():
        raise StoreError(f"no save at {save}; create one with `yak new {save} --demo`")
    WorldFile(save).read()  # a corrupt save is refused now, with its restore hint
    port = int(args.port)
    if not 0 <= port <= 65535:
        raise UsageError(f"--port: {port} is not a TCP port (0-65535)")
    memory = int(args.session_memory)
    if memory != 0 and memory < MIN_SESSION_MEMORY:
        raise UsageError(f"--session-memory: must be 0 (no limit) or at least {MIN_SESSION_MEMORY} MiB, not {memory}")
    host_key = Path(args.host_key).expanduser().resolve() if getattr(args, "host_key", None) else None
    return ServeConfig(
        save=save,
        host=args.host,
        port=port,
        host_key=host_key,
        max_sessions=count("--max-sessions", int(args.max_sessions), 1),
        max_sessions_per_user=count("--max-sessions-per-user", int(args.max_sessions_per_user), 1),
        idle_timeout=seconds("--idle-timeout", float(args.idle_timeout), zero_is_never=True),
        request_timeout=seconds("--request-timeout", float(args.request_timeout), zero_is_never=False),
        session_memory=memory,
        max_auth_tries=count("--max-auth-tries", int(args.max_auth_tries), 1),
        max_unauthenticated=count("--max-unauthenticated", int(args.max_unauthenticated), 1),
        max_unauthenticated_per_address=count(
            "--max-unauthenticated-per-address", int(args.max_unauthenticated_per_address), 1
        ),
        banner_timeout=seconds("--banner-timeout", float(args.banner_timeout), zero_is_never=False),
        login_timeout=seconds("--login-timeout", float(args.login_timeout), zero_is_never=False),
    )


def serve_forever(save_path: Path, args: argparse.Namespace) -> int:
    """Run the server until SIGINT/SIGTERM; every app is hung up and reaped before returning."""
    config = config_from_args(save_path, args)
    configure_logging()
    return asyncio.run(_serve(config))


async def _serve(config: ServeConfig) -> int:
    from yak_tui.areas.court import roster
    from yak_tui.kernel.errors import UsageError
    from yak_tui.kernel.world.model import World

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
        print(
            f"yak serve: no users yet; add one with `yak --save {config.save} user add NAME "
            "--identity gm --key ~/.ssh/id_ed25519.pub`",
            flush=True,
        )
    idle = f"{config.idle_timeout:g} s" if config.idle_timeout else "never"
    memory = f"{config.session_memory} MiB" if config.session_memory else "no limit"
    print(
        f"yak serve: limits: {config.max_sessions_per_user} sessions per user, idle timeout {idle}, "
        f"memory per session {memory}, {config.max_auth_tries} login tries, "
        f"{config.max_unauthenticated} logins at once ({config.max_unauthenticated_per_address} from one address), "
        f"banner timeout {config.banner_timeout:g} s, login timeout {config.login_timeout:g} s",
        flush=True,
    )
    print(
        f"yak serve: listening on {config.host}:{server.port}, save {config.save}, "
        f"{len(users)} user(s), at most {config.max_sessions} sessions",
        flush=True,
    )
    try:
        await stop.wait()
    finally:
        print("yak serve: shutting down", flush=True)
        await server.close()
    return 0
