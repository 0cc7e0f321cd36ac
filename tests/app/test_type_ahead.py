"""Keys typed ahead, as a terminal delivers them: a fast typist or a paste sends the next key
before the app has acted on the previous one. Each must still land where the user meant it.

The keys are handed to the app's driver all at once (Pilot's `press` waits between keys, which
hides exactly this)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, on_top, wait_for, world_of
from textual import events
from textual.widgets import Input, Select

from yak_tui.app.kit.command import CommandScreen
from yak_tui.app.main import YakApp
from yak_tui.app.screens.magic.screen import CastingScreen
from yak_tui.kernel.play import views


def send_at_once(app: YakApp, *keys: str) -> None:
    assert app._driver is not None
    for key in keys:
        event = events.Key(key, key if len(key) == 1 else {"tab": "\t", "enter": "\r"}.get(key))
        event.set_sender(app)
        app._driver.send_message(event)


async def test_a_key_typed_right_after_tab_lands_in_the_next_field(save_path: Path) -> None:
    """A terminal delivers tab and the next key together (a fast typist, a paste): the focus must
    have moved before that key is routed, or it goes to the field being left."""
    app = make_app(save_path)
    async with app.run_test(size=(120, 45)) as pilot:
        await pilot.press("g")
        await wait_for(pilot, lambda: on_top(app, CastingScreen), what="the casting screen")
        screen = app.screen
        await wait_for(
            pilot, lambda: screen.focused is screen.query_one("#param-caster", Select), what="the caster focused"
        )
        send_at_once(app, "tab", "l", "e", "y")
        source = screen.query_one("#param-source", Input)
        await wait_for(pilot, lambda: source.value == "ley", what="the keys in the source field")
        assert screen.focused is source


async def test_enter_typed_right_after_the_last_character_rolls_once_it_is_checked(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The dialog validates each keystroke in a worker; enter must not be refused because the check
    of the characters before it has not come back yet. The check is held until enter has arrived."""
    gate = threading.Event()
    check = views.check_command

    def held(world: Any, identity: Any, name: str, values: dict[str, Any]) -> Any:
        if values.get("reason"):
            gate.wait(60)
        return check(world, identity, name, values)

    monkeypatch.setattr(views, "check_command", held)
    app = make_app(save_path)
    async with app.run_test(size=(120, 45)) as pilot:
        await pilot.press("r")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the roll dialog")
        dialog = app.screen
        await wait_for(
            pilot, lambda: dialog.focused is dialog.query_one("#param-reason", Input), what="the reason focused"
        )
        send_at_once(app, *"Hold", "enter")
        await wait_for(pilot, lambda: dialog.query_one("#param-reason", Input).value == "Hold", what="typed")
        await pilot.pause()  # enter has been handled, with the check of "Hold" still out
        gate.set()
        await wait_for(
            pilot,
            lambda: any(e.get("kind") == "roll" for _, e in world_of(save_path).all("chronicle")),
            what="the roll written",
        )
        [entry] = [e for _, e in world_of(save_path).all("chronicle") if e.get("kind") == "roll"]
        assert "Hold" in entry["text"]
