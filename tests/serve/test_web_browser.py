"""The browser seat in a real browser: Debian's headless Chromium driven by Playwright.

Two players log in at once, each in his own browser context with his own one-time link, each
files an order with the keyboard in the page, and each sees only his own: on his page, and in the
save read back through `yak --json`. Screenshots of both dashboards are kept in the test's
directory (and written to docs/ with YAK_SCREENSHOT_DOCS=1). The terminal is read from the
websocket frames the page receives, through pyte; every wait waits for the page's text."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_helpers import CHROMIUM, PageTerminal, WebServerThread, issue_token, make_web_world, web_config

pytestmark = [
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium on PATH (.ci/run installs Debian's `chromium`)"),
]

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright  # in the [dev] extras: missing is a failure, not a skip

    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield browser
        browser.close()


def yak_json(save: Path, identity: str, *args: str) -> Any:
    out = subprocess.run(
        [sys.executable, "-m", "yak_tui", "--save", str(save), "--as", identity, "--json", *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(out.stdout)


def file_roll(term: PageTerminal, reason: str) -> None:
    """`o` on the dashboard, the `roll` command chosen by typing, a reason, ctrl+s: all keys in the page."""
    term.keys("o")
    term.wait_for("File an order")
    term.keys("Enter")
    term.wait_for("Dismiss menu")
    term.type("roll")  # the menu's type-to-search
    term.wait_for("roll — dice")
    term.keys("Enter")
    term.wait_for("what the roll decides")
    term.keys("Tab")
    term.type(reason)
    term.wait_for(f"reason {reason}")
    # The form checks what is typed before it lets an order be filed: ctrl+s files once it is checked.
    for _ in range(10):
        term.keys("Control+s")
        try:
            term.wait_for(f"Roll — reason {reason}", timeout=3)
            return
        except AssertionError:
            continue
    term.wait_for(f"Roll — reason {reason}")


def test_two_players_in_two_browsers_each_file_and_see_their_own(browser: Any, tmp_path: Path) -> None:
    seats = {"corvin": "player:corvin", "elbreth": "king:elbreth"}
    reasons = {"corvin": "Corvin buys salt", "elbreth": "Elbreth musters"}
    save = make_web_world(tmp_path / "campaign", seats)
    with WebServerThread(web_config(save)) as server:
        pages: dict[str, tuple[Any, PageTerminal]] = {}
        for name in seats:  # both logged in at once, each in his own context (his own cookie jar)
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            term = PageTerminal(page)
            response = page.goto(f"{server.url}/login?token={issue_token(save, name)}")
            assert response is not None and response.ok
            cookies = {c["name"]: c for c in context.cookies()}
            assert cookies["yak_seat"]["httpOnly"] and cookies["yak_seat"]["sameSite"] == "Strict"
            pages[name] = (page, term)
        corvin, elbreth = pages["corvin"][1], pages["elbreth"][1]
        corvin.wait_for("Player · Corvin Hale")
        elbreth.wait_for("King · Kingdom of Elbreth")
        assert server.session_count("corvin") == 1 and server.session_count("elbreth") == 1
        for name, (_, term) in pages.items():
            term.wait_for("My orders")
            file_roll(term, reasons[name])
        for name, (page, term) in pages.items():
            other = next(n for n in seats if n != name)
            text = term.wait_for(f"Roll — reason {reasons[name]}")
            assert f"Roll — reason {reasons[other]}" not in text  # his "My orders" lists only his own
            shot = tmp_path / f"browser-{name}.png"
            page.screenshot(path=str(shot))
            assert shot.stat().st_size > 10_000
        if os.environ.get("YAK_SCREENSHOT_DOCS"):
            shutil.copy(tmp_path / "browser-corvin.png", DOCS / "browser-seat.png")
            shutil.copy(tmp_path / "browser-elbreth.png", DOCS / "browser-seat-king.png")
        # The save: two orders, each filed by the identity his login maps to, never by request data.
        orders = yak_json(save.path, "gm", "show", "orders")
        filed = {o["params"]["reason"]: o["filed_by"] for o in _orders(orders)}
        assert filed == {"Corvin buys salt": "player:corvin", "Elbreth musters": "king:elbreth"}
        for name, identity in seats.items():
            mine = [o for o in _orders(yak_json(save.path, identity, "show", "orders")) if o["filed_by"] == identity]
            assert [o["params"]["reason"] for o in mine] == [reasons[name]]
        # The GM revokes Corvin's browser login: his page says so; Elbreth plays on.
        subprocess.run(
            [sys.executable, "-m", "yak_tui", "--save", str(save.path), "--as", "gm", "user", "revoke", "corvin"],
            check=True,
            capture_output=True,
            timeout=60,
        )
        corvin_page = pages["corvin"][0]
        corvin_page.wait_for_function(
            "document.querySelector('.closed-dialog .message').textContent.includes('revoked')", timeout=30_000
        )
        assert "corvin's browser login was revoked" in corvin_page.inner_text(".closed-dialog .message")
        assert server.session_count("corvin") == 0 and server.session_count("elbreth") == 1
        for page, _ in pages.values():
            page.context.close()


def _orders(shown: Any) -> list[dict[str, Any]]:
    return list(shown["documents"].values())
