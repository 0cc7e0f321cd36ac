"""Issue 17: players read names and sentences. Every screen, and every dialog its keys open, as the
GM, a King and a player: no document id (`o-0001`, `e000032`, `cr-0001`, `r000004`: the patterns
`World.new_id` and the chronicle and dice ledger write) and no `name(key=value)` call syntax on
screen or in any table, list or text the screen holds (scrolled into view or not).

The world is `populate`'s two seasons plus Corvin's orders (an espionage mission resolved, one
waiting, a business expansion carried out), so the queues, inboxes and "My orders" have rows.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, screen_text, settle, wait_for, widget_text
from test_readable_screens import orders_save  # noqa: F401 - the fixture
from textual.binding import Binding
from textual.pilot import Pilot
from textual.widget import Widget

from yak_tui.app.kit.plot import TreasuryPlot
from yak_tui.app.messages import SCREENS

# `World.new_id`: a prefix and four digits (o-0001, cr-0001, fx-0002, siege-0001, elbreth-0003);
# chronicle entries e000032 and dice records r000004.
DOCUMENT_ID = re.compile(r"\b[a-z]+-\d{4}\b|\b[er]\d{6}\b")
CALL_SYNTAX = re.compile(r"\b[\w-]+\(\s*\w+=")
APP_KEYS = ("r", "a", "o", "g", "i", "u", "R", "H", "question_mark")
NOT_DIALOG_KEYS = {
    "q",
    "escape",
    "tab",
    "shift+tab",
    "up",
    "down",
    "left",
    "right",
    "home",
    "end",
    "pageup",
    "pagedown",
    "ctrl+t",
    "ctrl+c",
    "ctrl+q",
    "ctrl+p",
    *(key for _, _, key, _ in SCREENS.values()),
}
IDENTITIES = ["gm", "king:elbreth", "player:corvin"]


def offending(text: str) -> list[str]:
    """The lines of `text` that show an id or call syntax."""
    return [line.strip() for line in text.splitlines() if DOCUMENT_ID.search(line) or CALL_SYNTAX.search(line)]


def check(app: Any, where: str) -> None:
    found = offending(screen_text(app)) + offending(widget_text(app))
    assert not found, f"{where}: {found[:5]}"


def keys_of(node: Any) -> list[str]:
    """The first key of each of `node`'s own bindings that may open something."""
    keys = []
    for binding in getattr(type(node), "BINDINGS", []):
        key = binding.key if isinstance(binding, Binding) else binding[0]
        first = key.split(",")[0].strip()
        if first not in NOT_DIALOG_KEYS and first not in keys:
            keys.append(first)
    return keys


async def close_to(pilot: Pilot[Any], base: Any) -> None:
    app = pilot.app
    while app.screen is not base and len(app.screen_stack) > 1:
        app.pop_screen()
        await settle(pilot)


async def try_key(pilot: Pilot[Any], base: Any, key: str, where: str, widget: Widget | None = None) -> None:
    """Press `key` (on `widget` focused): check what opens, then go back to `base`."""
    app = pilot.app
    if app.screen is not base:
        return
    if widget is not None:
        if not widget.display or not widget.focusable:
            return
        widget.focus()
    else:
        app.set_focus(None)  # the screen's own keys, not a filter field's typing
    await settle(pilot)
    await pilot.press(key)
    await settle(pilot)
    if app.screen is not base:
        check(app, f"{where} after {key}")
        await close_to(pilot, base)
    else:
        check(app, f"{where} after {key}")


@pytest.mark.parametrize("who", IDENTITIES)
@pytest.mark.parametrize("name", list(SCREENS))
async def test_no_ids_nor_call_syntax_on_a_screen_or_its_dialogs(
    orders_save: Path,  # noqa: F811
    name: str,
    who: str,
) -> None:
    app = make_app(orders_save, who, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for(pilot, lambda: all(p.ready for p in app.screen.query(TreasuryPlot)), what="the plot")
        await settle(pilot)
        await pilot.press(SCREENS[name][2])
        await wait_for(pilot, lambda: app.current_mode == name and app.screen.is_mounted, what=name)
        await settle(pilot)
        base = app.screen
        check(app, f"{who} on {name}")
        for key in [*keys_of(base), *APP_KEYS]:
            await try_key(pilot, base, key, f"{who} on {name}")
        for widget in list(base.query("*")):
            for key in keys_of(widget):
                if isinstance(widget, Widget) and widget.can_focus:
                    await try_key(pilot, base, key, f"{who} on {name} ({type(widget).__name__})", widget)
