"""Helpers for the browser seat's tests: `yak serve --web` in a background thread, login links,
and a page's terminal read through pyte from the websocket frames the page receives."""

from __future__ import annotations

import asyncio
import logging
import shutil
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlparse

import pyte
from serve_helpers import TIMEOUT, LoopThread

from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.demo import create_world
from yak_tui.serve.config import ServeConfig
from yak_tui.serve.web import WebSeatServer
from yak_tui.serve.weblogin import new_login
from yak_tui.store.storage import WorldFile

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def make_web_world(directory: Path, users: dict[str, str]) -> WorldFile:
    """The demo world with one browser-only roster login per {name: identity}."""
    directory.mkdir(parents=True, exist_ok=True)
    save = create_world(directory / "world.json")
    for name, identity in users.items():
        run_command(save, Identity.parse("gm"), "user-add", {"name": name, "identity": identity})
    return save


def issue_token(save: WorldFile, name: str) -> str:
    """A one-time login token for `name`, as `yak user token` makes it."""
    import json

    token, kept = new_login()
    run_command(save, Identity.parse("gm"), "user-web-login", {"name": name, "login": json.dumps(kept)})
    return token


class WebServerThread(LoopThread):
    """A WebSeatServer (browsers only) on a free loopback port, in its own thread and loop."""

    THREAD_NAME = "yak-web-test"

    def __init__(self, config: ServeConfig) -> None:
        super().__init__(config)
        self.server: WebSeatServer | None = None
        self.ssh: Any = None  # the SSH server beside it, when the config serves SSH too

    async def _start(self) -> None:
        if self.config.ssh:
            from yak_tui.serve.server import start_server

            self.ssh = await start_server(self.config)
        self.server = await WebSeatServer(self.config, self.ssh).start()

    def __enter__(self) -> WebServerThread:
        super().__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.server is not None and self.loop.is_running():
            asyncio.run_coroutine_threadsafe(self.server.close(), self.loop).result(TIMEOUT * 2)
            if self.ssh is not None:
                asyncio.run_coroutine_threadsafe(self.ssh.close(), self.loop).result(TIMEOUT * 2)
            self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(TIMEOUT)
        logging.getLogger("yak.serve").removeHandler(self.log)

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.port}"

    def session_count(self, name: str) -> int:
        assert self.server is not None
        server = self.server
        return int(self.call(lambda: server.sessions_of(name)))


def web_config(save: WorldFile, **overrides: Any) -> ServeConfig:
    settings: dict[str, Any] = {"save": save.path, "web": True, "ssh": False, "web_port": 0, "roster_poll": 0.2}
    settings.update(overrides)
    return ServeConfig(**settings)


class PageTerminal:
    """What a browser page's terminal shows: the app's bytes from its websocket, through pyte,
    sized as the page asked (the width and height of its websocket's query string)."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.screen: pyte.Screen | None = None
        self.stream: pyte.ByteStream | None = None
        self.closed = False
        page.on("websocket", self._socket)

    def _socket(self, socket: Any) -> None:
        query = parse_qs(urlparse(socket.url).query)
        self.screen = pyte.Screen(int(query.get("width", ["80"])[0]), int(query.get("height", ["24"])[0]))
        self.stream = pyte.ByteStream(self.screen)
        socket.on("framereceived", self._frame)
        socket.on("close", lambda *_: setattr(self, "closed", True))

    def _frame(self, payload: Any) -> None:
        if isinstance(payload, bytes) and self.stream is not None:
            self.stream.feed(payload)

    def text(self) -> str:
        return "" if self.screen is None else "\n".join(line.rstrip() for line in self.screen.display)

    def wait_for(self, predicate: str | Callable[[str], bool], timeout: float = TIMEOUT * 2) -> str:
        """Wait until the screen shows `predicate`; the page's own event loop runs while we wait."""
        check = (lambda text: predicate in text) if isinstance(predicate, str) else predicate
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            text = self.text()
            if check(text):
                return text
            # Playwright delivers the page's events only while it is called: let them in.
            self.page.wait_for_timeout(50)
        raise AssertionError(f"the page never showed {predicate!r}; it shows:\n{self.text()}")

    def keys(self, *keys: str) -> None:
        """Type into the terminal: each key as Playwright names it ("o", "Enter", "Tab")."""
        self.page.locator(".xterm-helper-textarea").focus()
        for key in keys:
            self.page.keyboard.press(key)

    def type(self, text: str) -> None:
        self.page.locator(".xterm-helper-textarea").focus()
        self.page.keyboard.type(text)
