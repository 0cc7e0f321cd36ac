"""Helpers for the app tests: build an app, fill a world with history, read what is on screen."""

from __future__ import annotations

import io
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from rich.console import Console
from textual.pilot import Pilot
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import DataTable, OptionList, Static
from textual.worker import WorkerState

from yak_tui.app.kit.rowtable import RowTable
from yak_tui.app.main import YakApp
from yak_tui.kernel.play.chronicle import append_entry
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import Modifier, RollRecord, ScriptedDice, SeededDice
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.season.session import advance_season
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

W = TypeVar("W", bound=Widget)
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
        record = RollRecord(
            purpose="Nyx scouts Varosgate",
            naturals=[5],
            modifiers=[Modifier(2, BLIND_MODIFIER)],
            total=7,
            band=BLIND_BAND,
            source="scripted",
            roller="gm",
            audience="character:nyx",
            blind=True,
            outcome=BLIND_OUTCOME,
        )
        append_entry(
            world,
            "Nyx's scouting of Varosgate is done.",
            kind="roll",
            audience="character:nyx",
            actor="gm",
            command="roll",
            rolls=[record],
            secret=GM_NOTE,
            adjudicator="gm",
        )
    run_command(
        save,
        NYX,
        "order-file",
        {"command": "roll", "params": '{"reason": "Slip past the March Patrol"}', "note": "at night"},
    )
    return save


def screen_text(app: YakApp) -> str:
    """Exactly what the terminal shows now (every screen layer), as plain text."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system="truecolor",
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
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


WAIT = 60.0  # seconds: how long any wait may take before it fails (never how long it should take)
POLL = 0.005  # seconds between two looks at the condition: the app runs its messages meanwhile


async def wait_for(pilot: Pilot[Any], condition: Callable[[], bool], timeout: float = WAIT, what: str = "") -> None:
    """Let workers and messages run until `condition()` holds (a generous bound: a loaded machine is slow)."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            if condition():
                return
        except Exception:
            pass
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or condition}")
        await pilot.pause(POLL)


def mounted(widget: Widget) -> bool:
    """Whether the widget and everything it composed are mounted: a widget found by a query may be
    in the DOM before its children are (a Select without its label yet), and setting its value
    then fails."""
    return all(node.is_mounted for node in widget.walk_children(with_self=True))


def on_top(app: Any, kind: type) -> bool:
    """Whether the top screen is a `kind` and mounted through and through: a pushed screen is on top
    of the stack before it has composed its widgets."""
    return isinstance(app.screen, kind) and mounted(app.screen)


async def query_ready(pilot: Pilot[Any], root: Widget | Screen[Any], selector: str, kind: type[W]) -> W:
    """The widget `selector` under `root` once it is there and mounted through and through."""
    await wait_for(pilot, lambda: mounted(root.query_one(selector, kind)), what=f"{selector} mounted")
    return root.query_one(selector, kind)


def _pending_timers(app: YakApp) -> list[Timer]:
    """One-shot timers not yet fired (a screen's deferred load, a plot's import); intervals repeat
    for ever and do not count."""
    nodes: list[Any] = [app]
    for screen in app.screen_stack:
        nodes.extend(screen.walk_children(with_self=True))
    return [
        timer
        for node in nodes
        for timer in list(node._timers)
        if timer._repeat is not None and timer._task is not None and not timer._task.done()
    ]


def busy(app: Any) -> str:
    """What the app is still doing ("" when idle): a worker, a one-shot timer, a refresh or layout
    not yet done, a table that has not measured its new rows."""
    workers = [w.name for w in app.workers if w.state in (WorkerState.PENDING, WorkerState.RUNNING)]
    if workers:
        return f"workers {workers}"
    timers = _pending_timers(app)
    if timers:
        return f"timers {[t.name for t in timers]}"
    if app.screen._dirty_widgets:
        return f"dirty {list(app.screen._dirty_widgets)[:3]}"
    if app.screen._callbacks:  # `call_after_refresh` work (a cursor scrolled into view) runs on the next refresh
        return f"after-refresh callbacks {app.screen._callbacks[:3]}"
    for widget in app.screen.walk_children(with_self=True):  # screens below wait for their turn on top
        if widget._layout_required or widget._repaint_required or widget._recompose_required:
            return f"refresh of {widget!r}"
        if isinstance(widget, DataTable) and (widget._require_update_dimensions or widget._updated_cells):
            return f"rows of {widget!r} not measured"
    return ""


async def settle(pilot: Pilot[Any]) -> None:
    """Until the app is idle (`busy` says nothing), and that for a few rounds in a row: a worker's
    result may start the next piece of work."""
    app: Any = pilot.app
    for _ in range(3):
        try:
            await wait_for(pilot, lambda: not busy(app), what="the app idle")
        except AssertionError as error:
            raise AssertionError(f"{error}: still {busy(app)}") from None
        await pilot.pause()


async def click(pilot: Pilot[Any], selector: str, **kwargs: Any) -> None:
    """Click a widget once the layout has settled: a click is aimed at where the widget is drawn,
    and a widget still moving (a line above it appeared or went) would not be there."""
    await settle(pilot)
    assert await pilot.click(selector, **kwargs), f"{selector} was not under the click"


def world_of(path: Path | str) -> World:
    return World(WorldFile(path).read())
