"""The hex map: places in their controller's colour, forces (♞) and people (♟), a movable cursor
and a details panel for the hex under it. The palette's "Jump to …" lands here.

Choose a noble, Agent or High Priestess with `n` and the map lights up his Relocate range:
reachable PCs, blocked ones (another kingdom's brigade or larger), empty hexes (the order would
fail with its ducat spent) and where he stands; every PC in reach carries the Incite/Usurp
chance it would give him. `v` relocates him to the cursor hex, `t`/`p` Incite or Usurp where he
stands: the GM through the roll dialog (odds first), anyone else by filing the order. All the
data is the nobles' read models (`yak_tui.areas.nobles`), filtered for the viewer.

Move mode (the GM's): `m` picks a unit or person on the cursor hex (again: the next one there);
as the cursor moves the map draws the path and the panel says what `gm-move` would do (a march
or a voyage, how many hexes, or why it is refused), checked off the event loop on a trial of
the world. Enter runs `gm-move` through the app's one command path; escape cancels.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, NamedTuple

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.reactive import reactive

from yak_tui.app.kit import YakScreen
from yak_tui.app.kit.worker import CommandWorker
from yak_tui.app.messages import FocusPlace, PaletteEntry
from yak_tui.app.screens.nobles.hexmap import CELL_SIZES, HexMap
from yak_tui.app.screens.nobles.map_layout import MapLayout, map_layout
from yak_tui.app.screens.nobles.panels import HexPanel, LegendPanel, MapPanel, NoblePanel
from yak_tui.areas import nobles as map_views
from yak_tui.kernel.play import views
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World
from yak_tui.store.files import collector_paused


class MapBuilt(NamedTuple):
    """The map screen's read models, built off the event loop for the noble chosen then."""

    view: map_views.MapView
    nobles: tuple[map_views.Commander, ...]
    noble: str | None
    relocation: map_views.RelocateView | None
    targets: map_views.TargetsView | None
    problem: str | None
    layout: MapLayout | None = None  # the map's bounds and rows, built here too (off the event loop)


class MapScreen(YakScreen):
    SCREEN_NAME = "map"
    CSS_PATH = Path(__file__).with_name("map.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next_noble(1)", "Noble"),
        Binding("N", "next_noble(-1)", "Previous noble", show=False, key_display="N"),
        Binding("v", "relocate", "Relocate here"),
        Binding("t", "command('incite')", "Incite"),
        Binding("p", "command('usurp')", "Usurp"),
        Binding("m", "pick_mover", "Move"),
        Binding("enter", "move_here", "Move here"),
        Binding("escape", "cancel", "Cancel", show=False),
        Binding("home", "home", "Home hex", show=False),
        Binding("z", "zoom(-1)", "Zoom in"),
        Binding("Z", "zoom(1)", "Zoom out", key_display="Z"),
    ]

    ACTS = frozenset({"relocate", "command", "pick_mover", "move_here"})  # never an observer's

    class Filed(Message):
        """An order went to its adjudicator (data), or was refused (problem)."""

        def __init__(self, data: dict[str, Any] | None, problem: views.Problem | None, what: str) -> None:
            super().__init__()
            self.data = data
            self.problem = problem
            self.what = what

    class Checked(Message):
        """A map action was checked: open the roll dialog, or say why not."""

        def __init__(
            self, command: str, params: dict[str, str], problem: views.Problem | None, title: str, intro: str
        ) -> None:
            super().__init__()
            self.command = command
            self.params = params
            self.problem = problem
            self.title = title
            self.intro = intro

    class MoveDone(Message):
        """`gm-move` ran (lines: what the chronicle says of it) or was refused (problem)."""

        def __init__(
            self, preview: map_views.MovePreview, lines: tuple[str, ...], problem: views.Problem | None
        ) -> None:
            super().__init__()
            self.preview = preview
            self.lines = lines
            self.problem = problem

    noble: reactive[str | None] = reactive(None, init=False)

    def __init__(self) -> None:
        super().__init__()
        self.view: map_views.MapView | None = None
        self.relocation: map_views.RelocateView | None = None
        self.targets: map_views.TargetsView | None = None
        self.nobles: tuple[map_views.Commander, ...] = ()
        self._pending: str | None = None
        self._zoom: int | None = None  # a cell size chosen with z; None: fit the window
        # Move mode: the unit or person picked (None: not moving), the others on his hex, and
        # what gm-move would do with him sent to the cursor hex.
        self.mover: map_views.Place | None = None
        self._movers: tuple[map_views.Place, ...] = ()
        self.preview: map_views.MovePreview | None = None
        self._previewer: CommandWorker[map_views.MovePreview] = CommandWorker(self, "move-preview", self._previewed)

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="map-columns"):
            yield MapPanel()
            with VerticalScroll(id="map-side", can_focus=False):
                yield HexPanel()
                yield NoblePanel()
                yield LegendPanel()

    def on_mount(self) -> None:
        self.query_one(HexMap).focus()

    # -- data ---------------------------------------------------------------------------------------
    @collector_paused(freeze=False)  # as `map_data` is: at 1000x the nobles and the layout are 100,000 objects more
    def build_view(self, world: World, identity: Identity) -> MapBuilt:
        """The map, the nobles, and the chosen noble's range (a problem instead if it cannot be shown)."""
        view = map_views.map_data(world, identity)
        nobles = map_views.commanders(world, identity)
        noble = self.noble
        relocation = targets = None
        problem: str | None = None
        if noble is not None and any(n.id == noble for n in nobles):
            try:
                relocation = map_views.relocate_view(world, identity, noble)
                targets = map_views.targets_view(world, identity, noble)
            except Exception as error:
                problem = views.problem_of(error).message()
        return MapBuilt(view, nobles, noble, relocation, targets, problem, map_layout(view))

    def paint_view(self, built: MapBuilt) -> None:
        self.view = built.view
        self.nobles = built.nobles
        if self.noble is not None and all(n.id != self.noble for n in self.nobles):
            self.set_reactive(MapScreen.noble, None)  # he died, or the identity changed
        if self.noble == built.noble:
            self.relocation, self.targets = built.relocation, built.targets
            if built.problem is not None:
                self.notify(built.problem, title="Cannot show his range", severity="warning")
                self.set_reactive(MapScreen.noble, None)
        else:  # another noble was chosen while the map was being built
            self._load_noble(self.yak.world)
        self.query_one(MapPanel).show(self.view, built.layout)
        if self.mover is not None and (
            not self.identity.is_gm or f"{self.mover.table}:{self.mover.id}" not in self.view.where
        ):
            self._leave_move_mode()  # not the GM any longer (hotseat), or it is gone from the map
        elif self.mover is not None:
            self._check_move()  # the world changed under the preview: check it again
        self._overlay()
        self._fit()
        self._legend()
        self._noble_panel()
        if self._pending:
            self._focus_key(self._pending)

    def _load_noble(self, world: World) -> None:
        self.relocation = None
        self.targets = None
        if self.noble is None:
            return
        try:
            self.relocation = map_views.relocate_view(world, self.identity, self.noble)
            self.targets = map_views.targets_view(world, self.identity, self.noble)
        except Exception as error:
            self.notify(views.problem_of(error).message(), title="Cannot show his range", severity="warning")
            self.set_reactive(MapScreen.noble, None)
            self.relocation = self.targets = None

    def watch_noble(self, noble: str | None) -> None:
        self._load_noble(self.yak.world)
        self._overlay()
        self._legend()
        self._noble_panel()
        hexmap = self.query_one(HexMap)
        self._details(hexmap.cursor, hexmap.cell_at(hexmap.cursor))
        self.refresh_bindings()

    def _overlay(self) -> None:
        if self.mover is not None:
            self.query_one(MapPanel).show_path(self.mover, self.preview)
        else:
            self.query_one(MapPanel).show_range(self.relocation)

    def _fit(self) -> None:
        hexmap = self.query_one(HexMap)
        if self._zoom is not None:
            hexmap.zoom = self._zoom
            return
        scroll = self.query_one("#map-scroll")
        hexmap.fit(scroll.size.width, scroll.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self.call_after_refresh(self._fit)

    # -- panels -------------------------------------------------------------------------------------
    def _legend(self) -> None:
        if self.view is not None:
            self.query_one(LegendPanel).show(
                self.view, self.relocation, moving=self.mover is not None, gm=self.identity.is_gm
            )

    def _noble_panel(self) -> None:
        self.query_one(NoblePanel).show(self.nobles, self.noble, self.relocation, self.targets)

    def _index(self) -> int:
        for index, item in enumerate(self.nobles):
            if item.id == self.noble:
                return index
        return -1

    @on(HexMap.Moved)
    def _moved(self, event: HexMap.Moved) -> None:
        self._details(event.cursor, event.cell)
        if self.mover is not None:
            self._check_move()

    def _details(self, cursor: tuple[int, int], cell: map_views.HexCell | None) -> None:
        self.query_one(HexPanel).show(cursor, cell, self.relocation, self.mover, self.preview)

    # -- choosing a noble -----------------------------------------------------------------------------
    def action_next_noble(self, step: int) -> None:
        if not self.nobles:
            self.notify("No noble, Agent or High Priestess of yours is on the map.", severity="warning")
            return
        hexmap = self.query_one(HexMap)
        index = self._index()
        if index < 0:
            # Start with the one under the cursor, if any, else the first.
            here = [i for i, n in enumerate(self.nobles) if n.hex == hexmap.cursor]
            index = here[0] if here else 0 if step > 0 else len(self.nobles) - 1
        else:
            index = (index + step) % len(self.nobles)
        self.choose(self.nobles[index].id)

    def choose(self, character_id: str | None) -> None:
        """Show this commander's range and targets (None: clear), and put the cursor on him."""
        self.noble = character_id
        if character_id is not None and self.relocation is not None:
            hexmap = self.query_one(HexMap)
            hexmap.focus_hex(self.relocation.character.hex)

    def action_clear_noble(self) -> None:
        self.noble = None

    def edit_target(self) -> tuple[str, str] | None:
        """The GM's editor (E): the first place, force or person on the hex under the cursor."""
        hexmap = self.query_one(HexMap)
        cell = hexmap.cell_at(hexmap.cursor)
        return (cell.places[0].table, cell.places[0].id) if cell and cell.places else None

    def action_cancel(self) -> None:
        """Escape: leave move mode (nothing moved), else put the chosen noble down."""
        if self.mover is not None:
            self._leave_move_mode()
        else:
            self.noble = None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not super().check_action(action, parameters):
            return False
        if action in ("relocate", "command", "clear_noble"):
            return self.noble is not None and self.mover is None
        if action == "cancel":
            return self.noble is not None or self.mover is not None
        if action == "pick_mover":
            return self.identity.is_gm  # move mode is the GM's: gm-move is his act alone
        if action == "move_here":
            return self.mover is not None
        return True

    # -- move mode (GM) -----------------------------------------------------------------------------
    def action_pick_mover(self) -> None:
        """Pick the first unit or person on the cursor hex; again, the next one on his hex."""
        if self.view is None:
            return
        hexmap = self.query_one(HexMap)
        if self.mover is None:
            movers = map_views.movers_at(self.view, hexmap.cursor)
            if not movers:
                q, r = hexmap.cursor
                self.notify(
                    f"No unit or person stands on hex {q},{r}: put the cursor on a ♞ or a ♟ first.",
                    title="Move",
                    severity="warning",
                )
                return
            self._movers = movers
            self.mover = movers[0]
        else:
            index = next((i for i, p in enumerate(self._movers) if p == self.mover), -1)
            self.mover = self._movers[(index + 1) % len(self._movers)]
        self.preview = None
        self._check_move()
        self._move_mode_changed()

    def _check_move(self) -> None:
        """What gm-move would do with the mover sent to the cursor hex (a trial, off the event loop)."""
        if self.mover is None or self.view is None:
            return
        world, identity, view, mover = self.yak.world, self.identity, self.view, self.mover
        target = self.query_one(HexMap).cursor
        self._previewer.start(lambda: map_views.move_preview(world, identity, view, mover, target))

    def _previewed(self, preview: map_views.MovePreview) -> None:
        if self.mover is None or (preview.table, preview.id) != (self.mover.table, self.mover.id):
            return
        self.preview = preview
        self._overlay()
        hexmap = self.query_one(HexMap)
        self._details(hexmap.cursor, hexmap.cell_at(hexmap.cursor))

    def _leave_move_mode(self) -> None:
        self._previewer.cancel()
        self.mover = None
        self._movers = ()
        self.preview = None
        self._move_mode_changed()

    def _move_mode_changed(self) -> None:
        self._overlay()
        self._legend()
        hexmap = self.query_one(HexMap)
        self._details(hexmap.cursor, hexmap.cell_at(hexmap.cursor))
        self.refresh_bindings()

    def action_move_here(self) -> None:
        """Enter: run gm-move for the mover to the cursor hex, or say why it would be refused."""
        preview = self.preview
        cursor = self.query_one(HexMap).cursor
        if self.mover is None:
            return
        if preview is None or preview.target != cursor or self._previewer.pending:
            self.notify("Still checking that move: press enter again in a moment.", title="Move", timeout=2)
            return
        if not preview.ok:
            self.notify(preview.problem, title=f"Cannot move {preview.name}", severity="error")
            return
        self._run_move(preview)

    @work(thread=True, exclusive=True, group="map-move", exit_on_error=False)
    def _run_move(self, preview: map_views.MovePreview) -> None:
        try:
            outcome = self.yak.execute("gm-move", dict(preview.params))
        except Exception as error:
            self.post_message(self.MoveDone(preview, (), views.problem_of(error)))
            return
        lines = views.result_lines(outcome.world, self.identity, outcome.result.entries)
        self.post_message(self.MoveDone(preview, lines, None))

    @on(MoveDone)
    def _move_done(self, event: MoveDone) -> None:
        if event.problem is not None:
            self.notify(event.problem.message(), title=f"Cannot move {event.preview.name}", severity="error")
            return
        self._leave_move_mode()
        self.notify(" ".join(event.lines) or f"{event.preview.name} moved.", title="Moved")

    # -- acting -----------------------------------------------------------------------------------------
    def action_relocate(self) -> None:
        if self.relocation is None:
            return
        cursor = self.query_one(HexMap).cursor
        cell = self.relocation.cells.get(cursor)
        who = self.relocation.character
        if cell is None:
            far = map_views.distance(who.hex, cursor)
            self.notify(
                f"{who.name} cannot reach {cursor[0]},{cursor[1]}: {far} hexes, the range is {self.relocation.range}.",
                title="Out of range",
                severity="warning",
            )
            return
        if cell.state in ("here", "refused"):
            self.notify(cell.message, title="Relocate", severity="warning")
            return
        params = map_views.relocate_params(cell, who.id)
        target = cell.legions[0][1] if cell.via_legion else cell.pc_name or f"hex {cursor[0]},{cursor[1]}"
        parts = [f"{cell.distance} hexes from {who.where}", f"{self.relocation.cost} ducat"]
        if cell.state != "reachable":
            parts.append(f"FAILS: {cell.message}; the ducat is spent")
        if cell.discovery is not None:
            parts.append(f"{cell.controller_name} learns of it on d100 ≤ {cell.discovery}")
        self._check("relocate", params, f"Relocate {who.name} to {target}", " · ".join(parts))

    def action_command(self, command: str) -> None:
        if self.targets is None or self.relocation is None:
            return
        item = self.targets.incite if command == "incite" else self.targets.usurp
        who = self.relocation.character
        label = "Incite Rebellion" if command == "incite" else "Usurp Control"
        if not item.ok:
            self.notify(item.reason, title=label, severity="warning")
            return
        intro = (
            f"{who.name} in {self.targets.pc_name}: Power {item.power:g} (±15% day swing) against "
            f"Resistance {item.resistance:g}{' (doubled)' if item.controlled else ''}; "
            f"{item.cost} ducat, spent even on a failure"
        )
        self._check(command, {"noble": who.id}, f"{label} in {self.targets.pc_name}", intro)

    @work(thread=True, exclusive=True, group="map-action", exit_on_error=False)
    def _check(self, command: str, params: dict[str, str], title: str, intro: str) -> None:
        """The GM (or an uninvolved King) rolls it; anyone else files it as an order."""
        world, identity = self.yak.world, self.identity
        route = views.command_route(world, identity, command, params)
        if route.as_order and route.problem is None:
            try:
                outcome = self.yak.execute("order-file", views.order_file_params(command, params))
            except Exception as error:
                self.post_message(self.Filed(None, views.problem_of(error), title))
                return
            self.post_message(self.Filed(outcome.result.data, None, title))
            return
        self.post_message(self.Checked(command, params, route.problem, title, intro))

    @on(Checked)
    def _checked(self, event: Checked) -> None:
        if event.problem is not None:
            self.notify(event.problem.message(), title=event.title, severity="error")
            return
        # The target stays on show (and takes the focus, so enter rolls); who acts is fixed.
        if event.command == "relocate":
            hidden = tuple(k for k in ("character", "hex", "pc", "legion") if k == "character" or k not in event.params)
        else:
            hidden = ("noble", "pc")
        self.yak.open_command(event.command, event.params, hidden=hidden, title=event.title, intro=event.intro)

    @on(Filed)
    def _filed(self, event: Filed) -> None:
        if event.data is None:
            message = event.problem.message() if event.problem else "refused"
            self.notify(message, title=f"{event.what}: refused", severity="error")
            return
        self.notify(views.order_filed_text(self.yak.world, event.data), title=event.what)

    # -- zoom, home, jumps ----------------------------------------------------------------------------
    def action_zoom(self, step: int) -> None:
        """One cell size in (-1) or out (+1); the map scrolls when it does not fit, and the cursor
        stays in view (`HexMap.watch_zoom`). At either end it says so."""
        hexmap = self.query_one(HexMap)
        zoom = hexmap.zoom + step
        if not 0 <= zoom < len(CELL_SIZES):
            self.notify(
                "The map is zoomed in as far as it goes." if step < 0 else "The map is zoomed out as far as it goes.",
                severity="information",
                timeout=2,
            )
            return
        self._zoom = zoom
        self._fit()

    def action_home(self) -> None:
        self.query_one(HexMap).action_home()

    @on(FocusPlace)
    def _focus_place(self, event: FocusPlace) -> None:
        self._focus_key(f"{event.table}:{event.doc_id}")

    def _focus_key(self, key: str) -> None:
        if self.view is None:
            self._pending = key
            return
        self._pending = None
        target = self.view.where.get(key)
        hexmap = self.query_one(HexMap)
        if target is None:
            self.notify("That is not on the map as far as you know.", severity="warning")
            return
        hexmap.focus_hex(target)
        hexmap.focus()
        if key.startswith("characters:") and any(n.id == key.partition(":")[2] for n in self.nobles):
            self.choose(key.partition(":")[2])

    def palette_entries(self) -> list[Any]:
        from functools import partial

        return [
            PaletteEntry(f"Map: show {n.name}'s Relocate range", f"{n.title} · {n.where}", partial(self.choose, n.id))
            for n in self.nobles
        ]
