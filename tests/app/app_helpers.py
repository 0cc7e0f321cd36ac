"""Helpers for the app tests: build an app, fill a world with history, read what is on screen."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList, Static

from yak_tui.app.main import YakApp
from yak_tui.app.widgets.rowtable import RowTable
from yak_tui.rules.dice import Modifier, RollRecord, ScriptedDice, SeededDice
from yak_tui.store.storage import WorldFile
from yak_tui.world.commands import append_entry, run_command
from yak_tui.world.identity import GM, Identity
from yak_tui.world.model import World
from yak_tui.world.session import advance_season

NYX = Identity.parse("player:nyx")
# What only the adjudicators may know of Nyx's blind roll, and the GM's note on it.
BLIND_MODIFIER = "BLINDMOD-moonless night"
BLIND_BAND = "BLINDBAND-escaped-undetected"
BLIND_OUTCOME = "Nyx returns unseen"
GM_NOTE = "GMNOTE-7731 the gate guard was bribed"
ADJUDICATORS_NOTE = "ADJ-NOTE-5512 the bandits are paid by Kesh"
VAROS_PRIVATE = "VAROS-PRIVATE-3391 Queen Mirela hides her silver"


def make_app(path: Path | str, identity: str = "gm", **kwargs: Any) -> YakApp:
    """An app with animations and cursor blink off; the save is polled as in real use."""
    kwargs.setdefault("animations", False)
    kwargs.setdefault("cursor_blink", False)
    return YakApp(path, identity, **kwargs)


def _set_treasuries(save: WorldFile, values: dict[str, float]) -> None:
    with save.transaction() as data:
        for kingdom, value in values.items():
            data["kingdoms"][kingdom]["treasury"] = value


def populate(path: Path | str) -> WorldFile:
    """Two seasons of play: treasuries that move, rolls, notes for several audiences, a blind roll
    with a GM note, and a player's order waiting for the GM. Deterministic (scripted dice)."""
    save = WorldFile(path)
    _set_treasuries(save, {"elbreth": 47, "varos": 26, "kesh": 28})
    advance_season(save, GM, SeededDice(1))
    _set_treasuries(save, {"elbreth": 51, "varos": 33, "kesh": 22})
    advance_season(save, GM, SeededDice(2))
    run_command(save, GM, "roll", {"reason": "Storm the gate of Ravenrock", "modifier": "1"}, ScriptedDice([4]))
    run_command(save, GM, "note", {"text": "Envoys of Varos reach Highmoor."})
    run_command(save, GM, "note", {"text": VAROS_PRIVATE, "audience": "kingdom:varos"})
    run_command(save, GM, "note", {"text": ADJUDICATORS_NOTE, "audience": "adjudicators"})
    with save.transaction() as data:
        world = World(data)
        record = RollRecord(purpose="Nyx scouts Varosgate", naturals=[5], modifiers=[Modifier(2, BLIND_MODIFIER)],
                            total=7, band=BLIND_BAND, source="scripted", roller="gm", audience="character:nyx",
                            blind=True, outcome=BLIND_OUTCOME)
        append_entry(world, "Nyx's scouting of Varosgate is done.", kind="roll", audience="character:nyx",
                     actor="gm", command="roll", rolls=[record], secret=GM_NOTE, adjudicator="gm")
    run_command(save, NYX, "order-file", {"command": "roll", "params": '{"reason": "Slip past the March Patrol"}',
                                          "note": "at night"})
    return save


def screen_text(app: YakApp) -> str:
    """Exactly what the terminal shows now (every screen layer), as plain text."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), force_terminal=True, color_system="truecolor",
                      record=True, legacy_windows=False, safe_box=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()


def widget_text(app: YakApp) -> str:
    """Everything the current screen holds, scrolled into view or not: statics, tables, lists."""
    parts: list[str] = []
    for screen in app.screen_stack:
        for widget in screen.walk_children(with_self=False):
            if isinstance(widget, DataTable):
                parts.extend(str(cell) for row in widget.rows for cell in widget.get_row(row))
                parts.extend(str(c.label) for c in widget.columns.values())
            elif isinstance(widget, RowTable):
                parts.extend(widget.columns)
                parts.extend(str(cell) for key in widget.rows for cell in widget.get_row(key))
                parts.append(widget._empty)
            elif isinstance(widget, OptionList):
                parts.extend(str(widget.get_option_at_index(i).prompt) for i in range(widget.option_count))
            elif isinstance(widget, Static):
                parts.append(str(widget.render()))
    return "\n".join(parts)


async def wait_for(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = 5.0, what: str = "") -> None:
    """Let workers and messages run until `condition()` holds."""
    steps = int(timeout / 0.05)
    for _ in range(steps):
        await pilot.pause(0.05)
        try:
            if condition():
                return
        except Exception:
            pass
    raise AssertionError(f"timed out waiting for {what or condition}")


def world_of(path: Path | str) -> World:
    return World(WorldFile(path).read())
