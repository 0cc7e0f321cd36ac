"""`yak serve --web`: the campaign app in a browser, one app process per tab, each as its login.

Built on textual-serve: its page, its xterm.js front end and its `AppService` (one Textual app per
websocket, over the web driver's packet protocol). What textual-serve leaves out is here:

- **Login per seat.** `yak user token NAME` prints a one-time link; `/login?token=…` checks it
  against the roster's scrypt hash, marks it used, and sets a signed cookie (HttpOnly,
  SameSite=Strict, Secure under TLS). Failed logins are limited per address (`FailedLogins`: 429).
- **The identity comes from the roster, never from the request:** the command of each session is
  `yak --save SAVE --as IDENTITY tui` (`ServeConfig.app_argv`, logged as its `shlex.join`), for the
  identity the roster gives the cookie's login now, and run without a shell.
- **The SSH side's limits:** sessions per login (SSH and browser together) and in all, the idle
  timeout, the terminal size clamped to 500x200 (the query string's and every resize), the memory
  limit of each app process (`prlimit`, as `ptyproc`), an Origin that must be the server's own.
- **Revocation:** the roster is watched as the SSH side does; a session whose login is removed,
  given another identity, or whose link was revoked (`yak user revoke`) ends with a message,
  written to the terminal and shown in the page.
- Downloads (`App.deliver_text`: a report's `x`) go only to the login whose app made them.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import os
import re
import shlex
import signal
import ssl
import time
from asyncio.subprocess import Process
from pathlib import Path
from typing import TYPE_CHECKING, Any

from aiohttp import WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.download_manager import DownloadManager

from yak_tui.serve.ptyproc import TERMINAL_RESTORE, clamp_size, limit_address_space
from yak_tui.serve.roster import Roster
from yak_tui.serve.session import DROPPED_ENV
from yak_tui.serve.weblogin import (
    COOKIE_LIFETIME,
    COOKIE_NAME,
    FailedLogins,
    Seat,
    UsedLinks,
    load_secret,
    read_cookie,
    secret_matches,
    sign_cookie,
    split_token,
    web_secret_path,
    web_used_path,
)

if TYPE_CHECKING:
    from yak_tui.serve.config import ServeConfig
    from yak_tui.serve.server import YakServer

log = logging.getLogger("yak.serve")

TEXTUAL_SERVE = Path(str(__import__("textual_serve").__file__)).parent
# The page tells why a session ended: it asks /ended when the socket closes.
END_SCRIPT = """
<script>
  new MutationObserver(async () => {
    if (!document.body.classList.contains("-closed") || document.body.dataset.told) return;
    document.body.dataset.told = "1";
    const answer = await fetch("/ended", {credentials: "same-origin"});
    const note = (await answer.text()).trim();
    if (note) document.querySelector(".closed-dialog .message").textContent = note;
  }).observe(document.body, {attributes: true, attributeFilter: ["class"]});
</script>
"""

# No framing by another site (clickjacking), no caching of a seat's page.
PAGE_HEADERS = {
    "Cache-Control": "no-store",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "Referrer-Policy": "no-referrer",
}

LOGIN_PAGE = """<!DOCTYPE html><html><head><title>{title}</title></head>
<body style="background:#0c181f;color:#eee;font-family:monospace;padding:2em">
<h1>{title}</h1><p id="message">{message}</p></body></html>"""


def page(status: int, title: str, message: str) -> web.Response:
    return web.Response(
        status=status,
        text=LOGIN_PAGE.format(title=html.escape(title), message=html.escape(message)),
        content_type="text/html",
        headers=PAGE_HEADERS,
    )


class SeatAppService(AppService):
    """One app process for one browser tab: an argv (no shell), its own process group, a memory cap."""

    def __init__(self, argv: list[str], env: dict[str, str], memory_limit: int | None, **kwargs: Any) -> None:
        super().__init__(shlex.join(argv), **kwargs)
        self.argv = argv
        self.env = env
        self.memory_limit = memory_limit

    @property
    def process(self) -> Process | None:
        return self._process

    async def _open_app_process(self, width: int = 80, height: int = 24) -> Process:
        env = {k: v for k, v in self._build_environment(width, height).items() if k not in DROPPED_ENV}
        env.update(self.env)
        env["COLUMNS"], env["ROWS"] = str(width), str(height)
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=env,
            start_new_session=True,
        )
        if self.memory_limit is not None:
            try:
                limit_address_space(process.pid, self.memory_limit)
            except OSError:
                self.kill_group(signal.SIGKILL)
                await process.wait()
                raise
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    def kill_group(self, signum: int) -> None:
        if self._process is not None and self._process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._process.pid, signum)


class WebSession:
    """One browser tab: its login, its app, when it last had input, why it was ended."""

    def __init__(self, seat: Seat, identity: str, socket: web.WebSocketResponse, address: str) -> None:
        self.seat = seat
        self.identity = identity
        self.socket = socket
        self.address = address
        self.service: SeatAppService | None = None
        self.started = self.last_input = time.monotonic()
        self.end_note = ""
        self.checked_stamp: Any = None


class WebSeatServer:
    """The browser seat: an aiohttp app on its own port. `start()`, then `close()`."""

    def __init__(self, config: ServeConfig, ssh: YakServer | None = None) -> None:
        self.config = config
        self.ssh = ssh
        self.roster = ssh.roster if ssh is not None else Roster(config.save)
        if ssh is not None:
            ssh.browser = self
        self.secret = load_secret(web_secret_path(config.save))
        self.used = UsedLinks(web_used_path(config.save))
        self.failed = FailedLogins(config.web_login_failures, 60.0)
        self.sessions: set[WebSession] = set()
        self.ended: dict[str, str] = {}  # link id -> why its last session ended, for the page to show
        self.downloads = DownloadManager()
        self.runner: web.AppRunner | None = None
        self.site: web.TCPSite | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._template = (TEXTUAL_SERVE / "templates" / "app_index.html").read_text()

    # -- setup
    @property
    def tls(self) -> bool:
        return self.config.tls_cert is not None

    @property
    def port(self) -> int:
        assert self.site is not None
        server = self.site._server
        assert server is not None
        return int(server.sockets[0].getsockname()[1])  # type: ignore[attr-defined]

    def make_app(self) -> web.Application:
        app = web.Application(client_max_size=64 * 1024)
        app.add_routes(
            [
                web.get("/", self.handle_index),
                web.get("/login", self.handle_login),
                web.get("/ws", self.handle_websocket),
                web.get("/ended", self.handle_ended),
                web.get("/download/{key}", self.handle_download),
                web.static("/static", TEXTUAL_SERVE / "static"),
            ]
        )
        return app

    async def start(self) -> WebSeatServer:
        ssl_context = None
        if self.config.tls_cert is not None:
            ssl_context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            ssl_context.load_cert_chain(str(self.config.tls_cert), str(self.config.tls_key))
        self.runner = web.AppRunner(self.make_app(), access_log=None, handle_signals=False)
        await self.runner.setup()
        self.site = web.TCPSite(self.runner, self.config.host, self.config.web_port, ssl_context=ssl_context)
        await self.site.start()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._watch_idle()), loop.create_task(self._watch_roster())]
        return self

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for session in list(self.sessions):
            await self.end(session, "yak serve: the server is shutting down.")
        if self.runner is not None:
            await self.runner.cleanup()

    # -- who is asking
    def origin(self, request: web.Request) -> str:
        if self.config.web_origin:
            return self.config.web_origin.rstrip("/")
        return f"{'https' if self.tls else 'http'}://{request.host}"

    def origin_ok(self, request: web.Request) -> bool:
        return request.headers.get("Origin", "") == self.origin(request)

    def seat_of(self, request: web.Request) -> tuple[Seat | None, str]:
        """(the cookie's seat, the identity the roster gives it now), or (None, why not)."""
        seat = read_cookie(self.secret, request.cookies.get(COOKIE_NAME))
        if seat is None:
            return None, "You are not logged in: open the login link the GM gave you (`yak user token`)."
        why = self.seat_gone(seat)
        return (None, why) if why else (seat, seat.identity)

    def seat_gone(self, seat: Seat) -> str:
        """Why a cookie's seat may no longer play ("" while it may). Reads the roster."""
        from yak_tui.areas.court import web_seat_gone

        why = web_seat_gone(self.roster.world(), seat.name, seat.identity, seat.login_id)
        return f"yak serve: {why}" if why else ""

    # -- pages
    async def handle_login(self, request: web.Request) -> web.StreamResponse:
        from yak_tui.areas.court import web_login

        address = request.remote or "-"
        if self.failed.blocked(address):
            log.info("web login refused from=%s: too many failed logins", address)
            return page(429, "Too many tries", "Too many failed logins from this address; wait a minute.")
        parts = split_token(request.query.get("token", ""))
        found: tuple[str, str, dict[str, Any]] | None = None
        if parts is not None and parts[0] not in self.used:
            found = web_login(self.roster.world(), parts[0])
        ok = found is not None and await asyncio.get_running_loop().run_in_executor(
            None, secret_matches, parts[1] if parts else "", found[2] if found else {}
        )
        if not ok or found is None or parts is None or parts[0] in self.used:
            self.failed.failed(address)
            log.info("web login refused from=%s: unknown, used or revoked link", address)
            return page(403, "Login refused", "This login link is not valid: used, revoked or mistyped. Ask the GM.")
        self.used.take(parts[0])
        seat = Seat(found[0], found[1], parts[0], time.time())
        log.info("web login user=%s identity=%s link=%s from=%s", seat.name, seat.identity, seat.login_id, address)
        response = web.Response(status=303, headers={"Location": "/"})
        response.set_cookie(
            COOKIE_NAME,
            sign_cookie(self.secret, seat),
            max_age=int(COOKIE_LIFETIME),
            httponly=True,
            samesite="Strict",
            secure=self.tls or self.origin(request).startswith("https:"),
            path="/",
        )
        return response

    async def handle_index(self, request: web.Request) -> web.StreamResponse:
        seat, why = self.seat_of(request)
        if seat is None:
            return page(403, "yak", why)
        from jinja2 import Template

        origin = self.origin(request)
        websocket = ("wss:" if origin.startswith("https:") else "ws:") + origin.split(":", 1)[1] + "/ws"
        text = Template(self._template).render(
            font_size=16,
            app_websocket_url=websocket,
            config={"static": {"url": "/static/"}},
            application={"name": f"yak · {seat.name} ({seat.identity})"},
        )
        text = text.replace("</body>", END_SCRIPT + "</body>")
        # The page asks nothing of another site (textual-serve's page links a web font: dropped).
        text = re.sub(r'\s*<link\s+rel="stylesheet"\s+href="https://fonts\.googleapis\.com[^>]*/>', "", text)
        return web.Response(text=text, content_type="text/html", headers=PAGE_HEADERS)

    async def handle_ended(self, request: web.Request) -> web.StreamResponse:
        seat = read_cookie(self.secret, request.cookies.get(COOKIE_NAME))
        note = self.ended.get(seat.login_id, "") if seat is not None else ""
        return web.Response(text=note or "Session ended.", headers={"Cache-Control": "no-store"})

    async def handle_download(self, request: web.Request) -> web.StreamResponse:
        seat, why = self.seat_of(request)
        key = request.match_info["key"]
        download = self.downloads._active_downloads.get(key)
        mine = {s.service for s in self.sessions if seat is not None and s.seat.name == seat.name}
        if seat is None or download is None or download.app_service not in mine:
            return page(404, "Not found", why if seat is None else "No such download.")
        response = web.StreamResponse()
        content_type = download.mime_type + (f"; charset={download.encoding}" if download.encoding else "")
        response.headers["Content-Type"] = content_type
        disposition = "inline" if download.open_method == "browser" else "attachment"
        response.headers["Content-Disposition"] = f'{disposition}; filename="{Path(download.file_name).name}"'
        await response.prepare(request)
        async for chunk in self.downloads.download(key):
            await response.write(chunk)
        await response.write_eof()
        return response

    # -- sessions
    def web_sessions_of(self, name: str) -> int:
        return sum(1 for s in self.sessions if s.seat.name == name)

    def sessions_of(self, name: str) -> int:
        """A login's sessions, browser and SSH together: one limit for both."""
        return self.web_sessions_of(name) + (self.ssh.ssh_sessions_of(name) if self.ssh is not None else 0)

    def total_sessions(self) -> int:
        return len(self.sessions) + (len(self.ssh.sessions) if self.ssh is not None else 0)

    async def handle_websocket(self, request: web.Request) -> web.StreamResponse:
        address = request.remote or "-"
        if not self.origin_ok(request):
            log.info("web session refused from=%s: Origin %r", address, request.headers.get("Origin"))
            return page(403, "Refused", "This page may only be opened from the server's own address.")
        seat, why = self.seat_of(request)
        if seat is None:
            log.info("web session refused from=%s: %s", address, why)
            return page(403, "Refused", why)
        limit = self.config.max_sessions_per_user
        if self.sessions_of(seat.name) >= limit:
            log.info("web session refused user=%s from=%s: %d sessions already", seat.name, address, limit)
            return page(429, "Too many sessions", f"{seat.name} already has {limit} sessions open; close one.")
        if self.total_sessions() >= self.config.max_sessions:
            return page(503, "Server full", f"The server has {self.config.max_sessions} sessions open; try later.")

        def number(key: str, default: int) -> int:
            try:
                return int(request.query.get(key, default))
            except ValueError:
                return default

        width, height = clamp_size(number("width", 80), number("height", 24))
        socket = web.WebSocketResponse(heartbeat=15, max_msg_size=64 * 1024)
        await socket.prepare(request)
        session = WebSession(seat, seat.identity, socket, address)
        argv = self.config.app_argv(self.config.save, seat.identity)
        memory = self.config.session_memory
        service = SeatAppService(
            argv,
            {"YAK_SERVED": "1", "YAK_USER": seat.name},
            memory * 1024 * 1024 if memory else None,
            write_bytes=socket.send_bytes,
            write_str=socket.send_str,
            close=lambda: self._app_closed(session),
            download_manager=self.downloads,
        )
        session.service = service
        self.sessions.add(session)
        try:
            await service.start(width, height)
            process = service.process
            log.info(
                "web session start user=%s identity=%s pid=%d size=%dx%d memory=%s from=%s command=%s",
                seat.name,
                seat.identity,
                process.pid if process is not None else -1,
                width,
                height,
                f"{memory}MiB" if memory else "unlimited",
                address,
                service.command,
            )
            await self._pump(session)
        except Exception:
            log.exception("web session of user=%s failed", seat.name)
        finally:
            self.sessions.discard(session)
            await self._stop(session)
            log.info("web session end user=%s after=%.1fs", seat.name, time.monotonic() - session.started)
        return socket

    async def _app_closed(self, session: WebSession) -> None:
        """The app quit: close the page's socket, unless the server is ending it (its note goes first)."""
        if not session.end_note:
            await session.socket.close()

    async def _pump(self, session: WebSession) -> None:
        """The browser's messages to the app: keys and resizes (clamped) count as input."""
        service = session.service
        assert service is not None
        async for message in session.socket:
            if message.type != WSMsgType.TEXT:
                continue
            try:
                envelope = json.loads(message.data)
                kind, data = envelope[0], envelope[1] if len(envelope) > 1 else None
            except (ValueError, IndexError, KeyError, TypeError):
                continue
            if kind == "stdin" and isinstance(data, str):
                session.last_input = time.monotonic()
                await service.send_bytes(data.encode("utf-8"))
            elif kind == "resize" and isinstance(data, dict):
                session.last_input = time.monotonic()
                try:
                    width, height = clamp_size(int(data.get("width", 80)), int(data.get("height", 24)))
                except (TypeError, ValueError):
                    continue
                await service.set_terminal_size(width, height)
            elif kind == "ping":
                await session.socket.send_json(["pong", data])
            elif kind == "blur":
                await service.blur()
            elif kind == "focus":
                await service.focus()

    async def _stop(self, session: WebSession) -> None:
        """Ask the app to quit; hang up its group if it lingers, kill it past the grace."""
        service = session.service
        if service is None or service.process is None:
            return
        process = service.process
        with contextlib.suppress(Exception):
            await service.send_meta({"type": "quit"})
        for signum, wait in ((None, 1.0), (signal.SIGHUP, self.config.kill_grace), (signal.SIGKILL, 5.0)):
            if signum is not None:
                service.kill_group(signum)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(process.wait()), wait)
            if process.returncode is not None:
                break
        service.kill_group(signal.SIGKILL)  # whatever it left in its group
        if service._task is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(service._task, 2.0)
            service._task = None

    async def end(self, session: WebSession, note: str) -> None:
        """End a session from the server side (idle, shutdown, seat gone), with a note to the browser."""
        if session.end_note:
            return
        session.end_note = note
        self.ended[session.seat.login_id] = note
        await self._stop(session)
        with contextlib.suppress(Exception):
            await session.socket.send_bytes(TERMINAL_RESTORE + note.encode() + b"\r\n")
        with contextlib.suppress(Exception):
            await session.socket.close()

    async def _watch_idle(self) -> None:
        idle_limit = self.config.idle_timeout
        if idle_limit <= 0:
            return
        step = max(0.05, min(idle_limit / 4, 5.0))
        while True:
            await asyncio.sleep(step)
            now = time.monotonic()
            for session in list(self.sessions):
                if not session.end_note and now - session.last_input > idle_limit:
                    log.info(
                        "idle: closing web session of user=%s after %gs without input", session.seat.name, idle_limit
                    )
                    await self.end(session, f"yak serve: session closed after {idle_limit:g} s without input.")

    def _seats_gone(self, seats: list[Seat]) -> list[str]:
        return [self.seat_gone(seat) for seat in seats]

    async def _watch_roster(self) -> None:
        """End the sessions whose seat is gone (removed, another identity, its link revoked)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.config.roster_poll)
            stamp = self.roster.file.stamp()
            unchecked = [s for s in self.sessions if not s.end_note and s.checked_stamp != stamp]
            if not unchecked or stamp is None:
                continue
            try:
                verdicts = await loop.run_in_executor(None, self._seats_gone, [s.seat for s in unchecked])
            except Exception as error:
                log.warning("web roster check skipped: the save cannot be read (%s)", error)
                continue
            for session, why in zip(unchecked, verdicts, strict=True):
                session.checked_stamp = stamp
                if why:
                    log.info("web session of user=%s ended: %s", session.seat.name, why)
                    await self.end(session, why)
