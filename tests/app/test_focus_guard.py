"""Issue 11: a key must never go to a removed widget.

Textual defers `Widget.focus()`; when the widget is removed before the deferred call lands,
`Screen.set_focus` used to put the focus on it, every key was then posted to a widget that drops
it, and not even escape or q worked (the espionage order dialog froze the app that way). Every
screen of the app refuses such a focus (`FocusGuard`); the app repairs a stale focus before it
routes a key, whatever screen holds it."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from pathlib import Path

from app_helpers import make_app, on_top, settle, wait_for
from textual.screen import Screen
from textual.widgets import Input, Select

import yak_tui.app
from yak_tui.app.kit import FocusGuard, holds
from yak_tui.app.kit.order import OrderScreen
from yak_tui.app.kit.paramform import ParamForm
from yak_tui.app.screens.espionage.screen import EspionageScreen
from yak_tui.app.screens.espionage.spy_order import SpyOrderScreen


def test_every_screen_and_dialog_of_the_app_guards_its_focus() -> None:
    found = []
    for module in pkgutil.walk_packages(yak_tui.app.__path__, "yak_tui.app."):
        loaded = importlib.import_module(module.name)
        for _, cls in inspect.getmembers(loaded, inspect.isclass):
            if issubclass(cls, Screen) and cls.__module__.startswith("yak_tui."):
                found.append(cls)
    assert len(found) >= 20
    assert [cls.__name__ for cls in found if not issubclass(cls, FocusGuard)] == []


async def test_a_focus_that_lands_after_its_widget_was_removed_does_not_swallow_escape(save_path: Path) -> None:
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.press("o")
        await wait_for(pilot, lambda: on_top(app, OrderScreen), what="the order form")
        dialog = app.screen
        note = dialog.query_one("#order-note", Input)
        await wait_for(pilot, lambda: dialog.focused is not None and note.is_mounted, what="the first focus")
        # The focus call is deferred; the widget is gone before it lands (the dialog's old race).
        note.focus()
        await note.remove()
        await wait_for(pilot, lambda: not note.is_attached, what="the note removed")
        await pilot.pause()
        assert dialog.focused is not note
        assert dialog.focused is not None and holds(dialog, dialog.focused)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, OrderScreen), what="the dialog closed")


async def test_the_app_repairs_a_stale_focus_before_it_routes_a_key(save_path: Path) -> None:
    """Whatever put it there (a screen of Textual's own, a path the guard does not see): the key still works."""
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.press("o")
        await wait_for(pilot, lambda: on_top(app, OrderScreen), what="the order form")
        dialog = app.screen
        note = dialog.query_one("#order-note", Input)
        await wait_for(pilot, lambda: note.is_mounted, what="the note field")
        await note.remove()
        await wait_for(pilot, lambda: not note.is_attached, what="the note removed")
        dialog.focused = note  # stale, behind every guard's back
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, OrderScreen), what="the dialog closed")

        board = app.screen
        table = board.query_one("#holdings-table")
        await table.remove()
        await wait_for(pilot, lambda: not table.is_attached, what="the table removed")
        board.focused = table
        await pilot.press("q")
        await wait_for(pilot, lambda: app._exit, what="q quits")


async def test_the_spy_order_form_is_built_once_and_its_first_field_keeps_the_focus(save_path: Path) -> None:
    """The mission's and the target's Selects report their first value as they mount: that must
    not rebuild the form the focus is on its way to."""
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=(120, 45)) as pilot:
        await pilot.press("e")
        await wait_for(pilot, lambda: on_top(app, EspionageScreen) and app.screen.view is not None, what="the board")
        built: list[ParamForm] = []
        original = SpyOrderScreen._show_fields

        async def counting(self: SpyOrderScreen) -> None:
            await original(self)
            built.extend(self.query(ParamForm))

        SpyOrderScreen._show_fields = counting  # type: ignore[method-assign]
        try:
            app.push_screen(SpyOrderScreen("elbreth", "kesh", "establish-smuggling-ring"))
            await wait_for(pilot, lambda: on_top(app, SpyOrderScreen), what="the order form")
            dialog = app.screen
            await wait_for(
                pilot,
                lambda: dialog.focused is dialog.query_one("#param-province", Select),
                what="the province focused",
            )
            province = dialog.query_one("#param-province", Select)
            await settle(pilot)  # every message the mount queued has run
            assert len(built) == 1 and built[0].is_attached
            assert dialog.focused is province and holds(dialog, province)
        finally:
            SpyOrderScreen._show_fields = original  # type: ignore[method-assign]
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, SpyOrderScreen), what="the dialog closed")
        await pilot.press("q")
        await wait_for(pilot, lambda: app._exit, what="q quits")
