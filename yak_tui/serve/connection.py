"""One client connection: authenticated by its roster key, its session channels opened and
refused, its refusals logged at a bounded rate."""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import math
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import asyncssh

from yak_tui.serve.session import AppSession

if TYPE_CHECKING:
    from yak_tui.serve.server import YakServer

log = logging.getLogger("yak.serve")

SEAT_REMOVED = "yak serve: your seat {name} was removed from the roster; goodbye.\r\n"
SEAT_CHANGED = "yak serve: your seat {name} no longer plays {identity} ({why}); goodbye.\r\n"


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
        if self.server.session_total() >= limit:
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
