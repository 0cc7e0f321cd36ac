"""The leak hunter's app side (tests/hostile/test_leak_hunter.py): file orders through the app's forms
(the order dialog, key `o`; the espionage board's private mission, key `n`) and read every screen a seat
can reach (d e b s m c, R with each season and recipient it offers, H where allowed) as text.

The app helpers of tests/app are reused (the screen as the terminal shows it, every widget's full text,
waiting for the app to be idle)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).parents[1] / "app"))

from app_helpers import make_app, on_top, query_ready, screen_text, settle, wait_for, widget_text
from textual.widgets import Button, Input, Select

from yak_tui.app.kit.order import OrderScreen
from yak_tui.app.navigation import SCREENS
from yak_tui.app.screens.court.panels import EntriesPanel
from yak_tui.app.screens.espionage.screen import EspionageScreen
from yak_tui.app.screens.espionage.spy_order import SpyOrderScreen
from yak_tui.app.shell.export import ExportScreen

SIZE = (120, 40)
# Missions a seat's kingdom may send through the board's form with no field but the target.
FORM_MISSIONS = {
    "elbreth": (("varos", "infiltrate-admiralty"), ("varos", "infiltrate-government")),
    "varos": (("elbreth", "create-security-breach"), ("elbreth", "infiltrate-admiralty")),
}


async def file_order(app: Any, pilot: Any, command: str, values: dict[str, str], note: str) -> None:
    """The order dialog (key `o`): choose the command, fill its fields and the note, file it."""
    await wait_for(pilot, lambda: app.check_action("file_order", ()), what="the order key")
    await pilot.press("o")
    await wait_for(pilot, lambda: on_top(app, OrderScreen), what="the order form")
    dialog = app.screen
    (await query_ready(pilot, dialog, "#order-command", Select)).value = command
    for name, value in values.items():
        (await query_ready(pilot, dialog, f"#param-{name}", Input)).value = value
    dialog.query_one("#order-note", Input).value = note
    await wait_for(pilot, lambda: not dialog.query_one("#file", Button).disabled, what="a valid order")
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: not isinstance(app.screen, OrderScreen), what="the order filed")
    await settle(pilot)


async def file_mission(app: Any, pilot: Any, target: str, mission: str, note: str) -> None:
    """The espionage board's private mission (key `n` on the board): target, mission, note, submit."""
    await pilot.press("e")
    await wait_for(pilot, lambda: on_top(app, EspionageScreen) and app.screen.view is not None, what="the board")
    board = app.screen
    await pilot.press("n")
    await wait_for(pilot, lambda: on_top(app, SpyOrderScreen), what="the mission form")
    dialog = app.screen
    (await query_ready(pilot, dialog, "#spy-target", Select)).value = target
    (await query_ready(pilot, dialog, "#spy-mission", Select)).value = mission
    await settle(pilot)
    dialog.query_one("#spy-note", Input).value = note
    await wait_for(pilot, lambda: not dialog.query_one("#submit", Button).disabled, what="a valid mission")
    await pilot.press("ctrl+s")
    await wait_for(pilot, lambda: app.screen is board, what="the mission filed")
    await pilot.press("d")
    await settle(pilot)


async def file_through_forms(
    path: Path, seat: str, orders: list[tuple[str, dict[str, str], str]], missions: list[tuple[str, str, str]]
) -> None:
    """One app for `seat`: each (command, values, note) through the order dialog, each (target,
    mission, note) through the board."""
    app = make_app(path, seat)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        for command, values, note in orders:
            await file_order(app, pilot, command, values, note)
        for target, mission, note in missions:
            await file_mission(app, pilot, target, mission, note)


async def chronicle_pages_and_export(app: Any, pilot: Any, look: Callable[[str], None]) -> None:
    """On the chronicle: every older page (`]`), then the export dialog (`x`) in each format for each
    audience it offers."""
    panel = app.screen.query_one(EntriesPanel)
    while panel.page + 1 < panel.pages:
        page = panel.page
        await pilot.press("right_square_bracket")
        await wait_for(pilot, lambda page=page: panel.page == page + 1, what="an older page")
        await settle(pilot)
        look(f"chronicle page {panel.page + 1}")
    await pilot.press("x")
    await wait_for(pilot, lambda: on_top(app, ExportScreen), what="the export dialog")
    await settle(pilot)
    dialog = app.screen
    audiences = dialog.query_one("#export-audience", Select)
    for fmt in ("bbcode", "markdown"):
        dialog.query_one("#export-format", Select).value = fmt
        for audience in [value for _, value in audiences._options if isinstance(value, str)]:
            audiences.value = audience
            await settle(pilot)
            look(f"chronicle export, {fmt} for {audience}")
    await pilot.press("escape")
    await wait_for(pilot, lambda: not isinstance(app.screen, ExportScreen), what="the export dialog closed")


async def every_screen(path: Path, seat: str, scan: Callable[[str, str], None]) -> None:
    """Open the app as `seat` and pass the text of every screen it can reach to `scan(text, where)`:
    each area screen, every page of the chronicle and its export dialog, the reports (each season and
    recipient offered) and the season history (each season offered) where the seat may open them."""
    app = make_app(path, seat)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)

        def look(where: str) -> None:
            scan(screen_text(app), f"app {where} (screen)")
            scan(widget_text(app), f"app {where} (widgets)")

        look("start")
        keys = {key: mode for mode, (_, _, key, _) in SCREENS.items()}
        for key in "debsmc":
            await pilot.press(key)
            await wait_for(
                pilot,
                lambda key=key: app.current_mode == keys[key] and on_top(app, type(app.screen)),
                what=f"the {keys[key]} screen",
            )
            await settle(pilot)
            look(f"{keys[key]} screen (key {key})")
        await chronicle_pages_and_export(app, pilot, look)
        await pilot.press("d")
        await settle(pilot)
        for key, name in (("R", "reports"), ("H", "history")):
            if not app.check_action(name, ()):
                continue
            await pilot.press(key)
            await wait_for(
                pilot,
                lambda name=name: (
                    getattr(app.screen, "SCREEN_NAME", "") == name or type(app.screen).__name__.lower().startswith(name)
                ),
                what=f"the {name} screen",
            )
            await settle(pilot)
            look(f"{name} screen (key {key})")
            for select in list(app.screen.query(Select)):
                for value in [v for _, v in select._options if v is not Select.NULL]:
                    select.value = value
                    await settle(pilot)
                    look(f"{name} screen, {select.id} = {value}")
            await pilot.press("escape")
            await settle(pilot)
