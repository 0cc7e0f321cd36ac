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

This module is the listener, its watches and the `yak serve` verb; the settings and host key are
`config`, the roster `roster`, one client connection `connection`, one session channel `session`.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import signal
import ssl
import sys
import time
from pathlib import Path
from typing import Any

import asyncssh

from yak_tui.kernel.world.numbers import counted
from yak_tui.serve.config import ServeConfig, config_from_args, ensure_host_key
from yak_tui.serve.connection import RefusalLog, YakConnection
from yak_tui.serve.roster import Roster
from yak_tui.serve.session import AppSession

log = logging.getLogger("yak.serve")


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
        self.browser: Any = None  # the browser seat (`yak_tui.serve.web.WebSeatServer`) beside it, if any

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

    def ssh_sessions_of(self, name: str) -> int:
        return sum(1 for s in self.sessions if s.owner.user is not None and s.owner.user.name == name)

    def sessions_of(self, name: str) -> int:
        """A user's sessions, SSH and browser (`--web`) together: one limit for both."""
        return self.ssh_sessions_of(name) + (self.browser.web_sessions_of(name) if self.browser is not None else 0)

    def session_total(self) -> int:
        return len(self.sessions) + (len(self.browser.sessions) if self.browser is not None else 0)

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
        if self.config.nudge_before is not None:
            self._tasks.append(loop.create_task(self._watch_deadline()))
        return self

    async def _watch_deadline(self) -> None:
        """`--nudge-before`: every `nudge_poll` seconds, send the nudges that are due (each seat once
        per deadline; the rules' clock decides what is due, so a test or `YAK_NOW` can move it)."""
        while True:
            await self.nudge_once()
            await asyncio.sleep(self.config.nudge_poll)

    async def nudge_once(self) -> list[Any]:
        from yak_tui.deliver.nudge import nudge_now

        assert self.config.nudge_before is not None
        try:
            done = await asyncio.get_running_loop().run_in_executor(
                None, nudge_now, self.config.save, self.config.nudge_before
            )
        except Exception as error:  # a mail server down must not take the SSH server with it
            log.warning("deadline nudges failed: %s", error)
            return []
        for item in done:
            if item.action in ("sent", "posted"):
                log.info("nudged %s (%s)", item.recipient, item.kind)
        return done

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


def serve_forever(save_path: Path, args: argparse.Namespace) -> int:
    """Run the server until SIGINT/SIGTERM; every app is hung up and reaped before returning."""
    config = config_from_args(save_path, args)
    configure_logging()
    return asyncio.run(_serve(config))


async def _serve(config: ServeConfig) -> int:
    from yak_tui.areas.court import roster
    from yak_tui.kernel.errors import UsageError
    from yak_tui.kernel.world.model import World

    server = YakServer(config)
    web_server = None
    try:
        if config.ssh:
            await server.start()
        elif config.nudge_before is not None:  # browsers only: the deadline nudges still go out
            server._tasks.append(asyncio.get_running_loop().create_task(server._watch_deadline()))
        if config.web:
            from yak_tui.serve.web import WebSeatServer

            web_server = await WebSeatServer(config, server).start()
    except (asyncssh.KeyImportError, ValueError) as error:
        raise UsageError(f"--host-key: {config.host_key_path} is not a usable private key ({error})") from None
    except ssl.SSLError as error:
        raise UsageError(f"--tls-cert/--tls-key: not a usable certificate and key ({error})") from None
    except OSError as error:
        port = config.web_port if config.ssh is False or server.acceptor is not None else config.port
        raise UsageError(f"cannot listen on {config.host}:{port}: {error.strerror or error}") from None
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    users = roster(World.load(server.roster.file))
    if config.ssh:
        created = "created" if server.host_key_created else "loaded"
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
    if config.ssh:
        print(
            f"yak serve: listening on {config.host}:{server.port}, save {config.save}, "
            f"{counted(len(users), 'user')}, at most {config.max_sessions} sessions",
            flush=True,
        )
    if web_server is not None:
        scheme = "https" if web_server.tls else "http"
        print(
            f"yak serve: browsers on {scheme}://{config.host}:{web_server.port}"
            f"{' (public origin ' + config.web_origin + ')' if config.web_origin else ''}; "
            f"login links: `yak --save {config.save} user token NAME --url {config.web_origin or f'{scheme}://HOST:{web_server.port}'}`",
            flush=True,
        )
    try:
        await stop.wait()
    finally:
        print("yak serve: shutting down", flush=True)
        if web_server is not None:
            await web_server.close()
        await server.close()
    return 0
