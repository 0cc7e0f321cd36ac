"""The hex map: places in their controller's colour, forces (♞) and people (♟), a movable cursor
and a details panel for the hex under it. The palette's "Jump to …" lands here.

Choose a noble, Agent or High Priestess with `n` and the map lights up his Relocate range:
reachable PCs, blocked ones (another kingdom's brigade or larger), empty hexes (the order would
fail with its ducat spent) and where he stands; every PC in reach carries the Incite/Usurp
chance it would give him. `v` relocates him to the cursor hex, `t`/`p` Incite or Usurp where he
stands: the GM through the roll dialog (odds first), anyone else by filing the order. All the
data is `yak_tui.areas.nobles.read`, filtered for the viewer.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, ScrollableContainer, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Static

from yak_tui.app.areas.nobles.hexmap import HexMap
from yak_tui.app.kit import YakScreen
from yak_tui.app.kit.common import Panel
from yak_tui.app.kit.odds import odds_row
from yak_tui.app.messages import FocusPlace, PaletteEntry
from yak_tui.areas import nobles as map_views
from yak_tui.areas.court import short_name
from yak_tui.kernel import forms as views
from yak_tui.kernel.model import World

TABLE_LABEL = {"pcs": "place", "units": "force", "characters": "person"}
# Relocate states (map_views.STATES): the background each paints and how the legend names it.
STATE_STYLE = {
    "reachable": "on $success 30%",
    "blocked": "on $error 40%",
    "empty": "on $foreground 7%",
    "here": "on $secondary 45%",
    "refused": "on $warning 30%",
}
STATE_LABEL = {
    "reachable": "reachable",
    "blocked": "blocked by a legion",
    "empty": "no PC: fails, ducat spent",
    "here": "where he stands",
    "refused": "refused",
}
OUTCOME_STYLE = {"success": "$success", "failure": "$foreground-muted", "evicted": "$warning", "executed": "$error"}


def pct(p: float) -> str:
    """A chance as the panels print it: 56%, 0.5%, 100%."""
    value = p * 100
    return f"{value:.0f}%" if value == round(value) or value >= 10 else f"{value:.1f}%"


def odds_lines(item: map_views.CommandOdds, width: int = 10) -> list[Content]:
    """Incite or Usurp: the outcome chances as small bars, with Power against Resistance."""
    title = "Incite" if item.command == "incite" else "Usurp"
    if not item.ok:
        return [Content.assemble((f"{title} ", "bold"), (item.reason, "dim italic"))]
    doubled = " (doubled)" if item.controlled else ""
    lines = [Content.assemble((f"{title} ", "bold"), (f"Power {item.power:g} vs Resistance {item.resistance:g}"
                                                        f"{doubled} · {item.cost} ducat", "dim"))]
    for outcome, p in item.rows:
        lines.append(Content.assemble("  ", odds_row(outcome, p, label_width=9, width=width, gap="",
                                                     style=OUTCOME_STYLE.get(outcome, "$primary"),
                                                     shown=f"{pct(p):>5}", shown_style="bold" if p else "dim")))
    return lines


class MapScreen(YakScreen):
    SCREEN_NAME = "map"
    CSS_PATH = Path(__file__).with_name("map.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "next_noble(1)", "Noble"),
        Binding("N", "next_noble(-1)", "Previous noble", show=False, key_display="N"),
        Binding("v", "relocate", "Relocate here"),
        Binding("t", "command('incite')", "Incite"),
        Binding("p", "command('usurp')", "Usurp"),
        Binding("escape", "clear_noble", "Clear", show=False),
        Binding("home", "home", "Home hex", show=False),
        Binding("z", "toggle_zoom", "Zoom"),
    ]

    class Filed(Message):
        """An order went to its adjudicator (data), or was refused (problem)."""

        def __init__(self, data: dict[str, Any] | None, problem: views.Problem | None, what: str) -> None:
            super().__init__()
            self.data = data
            self.problem = problem
            self.what = what

    class Checked(Message):
        """A map action was checked: open the roll dialog, or say why not."""

        def __init__(self, command: str, params: dict[str, str], problem: views.Problem | None, title: str,
                     intro: str) -> None:
            super().__init__()
            self.command = command
            self.params = params
            self.problem = problem
            self.title = title
            self.intro = intro

    noble: reactive[str | None] = reactive(None, init=False)

    def __init__(self) -> None:
        super().__init__()
        self.view: map_views.MapView | None = None
        self.relocation: map_views.RelocateView | None = None
        self.targets: map_views.TargetsView | None = None
        self.nobles: tuple[map_views.Commander, ...] = ()
        self._pending: str | None = None
        self._zoom: int | None = None  # a cell size chosen with z; None: fit the window

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="map-columns"):
            yield Panel("Map", ScrollableContainer(HexMap(id="hexmap"), id="map-scroll"), id="map-panel")
            with VerticalScroll(id="map-side", can_focus=False):
                yield Panel("Hex", Static(id="hex-details"), id="hex-panel")
                yield Panel("Noble", Static(id="noble-details"), id="noble-panel")
                yield Panel("Legend", Static(id="legend"), id="legend-panel")

    def on_mount(self) -> None:
        self.query_one(HexMap).focus()

    # -- data ---------------------------------------------------------------------------------------
    def refresh_view(self, world: World) -> None:
        self.view = map_views.map_data(world, self.identity)
        self.nobles = map_views.commanders(world, self.identity)
        if self.noble is not None and all(n.id != self.noble for n in self.nobles):
            self.set_reactive(MapScreen.noble, None)  # he died, or the identity changed
        self._load_noble(world)
        hexmap = self.query_one(HexMap)
        hexmap.set_view(self.view)
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
        hexmap = self.query_one(HexMap)
        overlays: dict[tuple[int, int], str] = {}
        notes: dict[tuple[int, int], tuple[str, str]] = {}
        if self.relocation is not None:
            for h, cell in self.relocation.cells.items():
                overlays[h] = STATE_STYLE[cell.state]
                best = max((t.success for t in cell.targets), default=None)
                if best is not None:
                    notes[h] = (pct(best), "bold $success" if best >= 0.5 else "bold $warning" if best else "dim")
                elif cell.state == "reachable":
                    notes[h] = (f"→{cell.distance}", "$success")
        hexmap.set_overlays(overlays, notes)

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
        if self.view is None:
            return
        legend = [Content.assemble(("■ ", k[2] or ""), k[1]) for k in self.view.legend]
        legend += [Content(""), Content.assemble(("♜▲●¤≈† ", "bold"), "places"),
                   Content.assemble(("♞", "bold $accent"), " forces  ", ("♟", "bold $secondary"), " people")]
        if self.relocation is not None:
            legend.append(Content(""))
            for state in ("reachable", "blocked", "empty", "here"):
                legend.append(Content.assemble(("   ", STATE_STYLE[state]), f" {STATE_LABEL[state]}"))
            legend.append(Content.styled("56% best Incite/Usurp chance there", "dim"))
        legend.append(Content.styled("arrows/hjkl move · z zoom", "dim"))
        legend.append(Content.styled("n choose a noble · esc clear", "dim"))
        self.query_one("#legend", Static).update(Content("\n").join(legend))

    def _noble_panel(self) -> None:
        panel = self.query_one("#noble-panel")
        static = self.query_one("#noble-details", Static)
        if not self.nobles:
            panel.border_title = "Noble"
            static.update(Content.styled("No noble, Agent or High Priestess of yours to move.", "italic dim"))
            return
        if self.noble is None or self.relocation is None:
            panel.border_title = "Noble"
            static.update(Content.assemble(("n", "bold $accent"), (" choose a noble, Agent or High Priestess "
                                                                   f"({len(self.nobles)})", "dim")))
            return
        who = self.relocation.character
        panel.border_title = f"Noble {self._index() + 1}/{len(self.nobles)}"
        panel.border_subtitle = "n next · esc clear"
        reach = self.relocation
        lines = [Content.assemble(("♟ ", who.colour or "bold"), (who.name, "bold")),
                 Content.assemble((f"  {who.title}", ""), (f" · {who.kingdom_name}", "dim")),
                 Content.assemble(("  in ", "dim"), (who.where, "bold"), (f" · {who.status}", "dim")),
                 Content.assemble(("  Relocate ", "dim"), (f"{reach.range} hexes · {reach.cost} ducat", "")),
                 Content.assemble(("  ", ""), (f"{reach.count('reachable')} reachable", "$success"), (" · ", "dim"),
                                  (f"{reach.count('blocked')} blocked", "$error"))]
        if self.targets is not None:
            lines.append(Content(""))
            lines.append(Content.assemble(("Here: ", "bold $primary"), (self.targets.pc_name, "bold")))
            for item in (self.targets.incite, self.targets.usurp):
                lines.extend(odds_lines(item))
        best = sorted(((max(t.success for t in c.targets), c) for c in reach.cells.values()
                       if c.targets and c.state == "reachable"), key=lambda item: (-item[0], item[1].distance))
        if best:
            lines.append(Content(""))
            lines.append(Content.assemble(("Targets in reach".ljust(20), "bold $primary"),
                                          ("Incite Usurp", "dim")))
            for _, cell in best[:6]:
                chance = {t.command: t.success for t in cell.targets}
                parts: list[tuple[str, str]] = [(f"  {cell.pc_name[:17]}".ljust(20), "")]
                for cmd, width in (("incite", 6), ("usurp", 6)):
                    p = chance.get(cmd)
                    text = "—" if p is None else pct(p)
                    style = "dim" if not p else "bold $success" if p >= 0.5 else "bold $warning"
                    parts.append((f"{text:>{width}} ", style))
                lines.append(Content.assemble(*parts))
        static.update(Content("\n").join(lines))

    def _index(self) -> int:
        for index, item in enumerate(self.nobles):
            if item.id == self.noble:
                return index
        return -1

    @on(HexMap.Moved)
    def _moved(self, event: HexMap.Moved) -> None:
        self._details(event.cursor, event.cell)

    def _details(self, cursor: tuple[int, int], cell: map_views.HexCell | None) -> None:
        panel = self.query_one("#hex-panel")
        panel.border_title = f"Hex {cursor[0]},{cursor[1]}"
        panel.border_subtitle = cell.province if cell is not None and cell.province else ""
        lines: list[Content] = []
        if cell is None or not cell.places:
            lines.append(Content.styled("Nothing you know of stands here.", "italic dim"))
        else:
            world = self.yak.world
            for place in cell.places:
                owner = short_name(world.display_name("kingdoms", place.kingdom)) if place.kingdom \
                    else "unclaimed"
                if place.table == "pcs":
                    kind = str(world.get("pcs", place.id).get("kind", "place"))
                    lines.append(Content.assemble(("■ ", place.colour or ""), (place.name, "bold"),
                                                  (f" · {kind}", "dim")))
                    lines.append(Content.assemble(("  ", ""), (owner, place.colour or "")))
                    facts = self._facts(world, place.id)
                    if facts:
                        lines.append(Content.assemble(("  ", ""), (facts, "dim")))
                else:
                    mark = ("♞ ", "bold $accent") if place.table == "units" else ("♟ ", "bold $secondary")
                    lines.append(Content.assemble(mark, (place.name, "bold")))
                    lines.append(Content.assemble(("  ", ""), (place.detail, ""), (f" · {owner}", "dim")))
        lines.extend(self._relocate_lines(cursor))
        self.query_one("#hex-details", Static).update(Content("\n").join(lines))

    def _facts(self, world: World, pc_id: str) -> str:
        """A PC's public (or, for its owner, full) facts on one wrapped line: fort 2 · walled · tax 4."""
        skip = ("name", "hex", "kind", "province", "controller", "capital", "holds treasury of")
        facts = []
        for key, value in map_views.describe(world, self.identity, "pcs", pc_id):
            if key in skip or (value in ("no", "—", "0") and key != "resistance"):
                continue
            if key == "fort level":
                key = "fort"
            facts.append(key if value == "yes" else f"{key} {value}")
        return " · ".join(facts)

    def _relocate_lines(self, cursor: tuple[int, int]) -> list[Content]:
        if self.relocation is None:
            return []
        who = self.relocation.character
        head = Content.styled("Relocate here", "bold $primary")
        cell = self.relocation.cells.get(cursor)
        if cell is None:
            far = map_views.distance(who.hex, cursor)
            return [Content(""), head, Content.styled(f"  out of range: {far} hexes, the range is "
                                                      f"{self.relocation.range}", "$error")]
        state, style = {"reachable": ("✔ reachable", "bold $success"), "blocked": ("✘ blocked", "bold $error"),
                        "empty": ("∅ empty hex", "bold $warning"), "here": ("● he is here", "bold $secondary"),
                        "refused": ("✘ refused", "bold $warning")}[cell.state]
        lines = [Content(""), head]
        lines.append(Content.assemble(("  ", ""), (state, style),
                                      (f" · {cell.distance} hex{'' if cell.distance == 1 else 'es'}", "dim") if cell.state != "here" else ("", "")))
        if cell.state == "here":
            return lines
        if cell.via_legion:
            lines.append(Content.assemble(("  onto ", "dim"), (cell.legions[0][1], "bold"), (" (Agent)", "dim")))
        elif cell.state != "reachable":
            lines.append(Content.styled(f"  {cell.message}", "italic"))
        if cell.cost_spent:
            lines.append(Content.styled(f"  costs {self.relocation.cost} ducat"
                                        + (", spent though it fails" if cell.state != "reachable" else ""), "dim"))
        if cell.discovery is not None:
            bound = "" if cell.discovery_exact else "≥"
            lines.append(Content.assemble(("  discovery ", "dim"), (f"{bound}{cell.discovery}%", "bold $warning"),
                                          (f" by {short_name(cell.controller_name)}", "dim")))
            if not cell.discovery_exact:
                lines.append(Content.styled("  (their counter-spies are unknown to you)", "dim italic"))
        for item in cell.targets:
            lines.append(Content.assemble(("  then ", "dim"), (f"{item.command} ", ""),
                                          (pct(item.success), "bold $success" if item.success else "dim"),
                                          (" success", "dim")))
        verb = "roll it" if self.identity.is_gm else "file the order"
        lines.append(Content.assemble(("  v", "bold $accent"), (f" {verb}", "dim")))
        return lines

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

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in ("relocate", "command", "clear_noble"):
            return self.noble is not None
        return True

    # -- acting -----------------------------------------------------------------------------------------
    def action_relocate(self) -> None:
        if self.relocation is None:
            return
        cursor = self.query_one(HexMap).cursor
        cell = self.relocation.cells.get(cursor)
        who = self.relocation.character
        if cell is None:
            far = map_views.distance(who.hex, cursor)
            self.notify(f"{who.name} cannot reach {cursor[0]},{cursor[1]}: {far} hexes, the range is "
                        f"{self.relocation.range}.", title="Out of range", severity="warning")
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
        intro = (f"{who.name} in {self.targets.pc_name}: Power {item.power:g} (±15% day swing) against "
                 f"Resistance {item.resistance:g}{' (doubled)' if item.controlled else ''}; "
                 f"{item.cost} ducat, spent even on a failure")
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
        self.notify(views.order_filed_text(self.yak.world, event.data),
                    title=event.what)

    # -- zoom, home, jumps ----------------------------------------------------------------------------
    def action_toggle_zoom(self) -> None:
        """Cycle the cell size: roomy, medium, compact (the map scrolls when it does not fit)."""
        from yak_tui.app.areas.nobles.hexmap import CELL_SIZES

        hexmap = self.query_one(HexMap)
        self._zoom = (hexmap.zoom + 1) % len(CELL_SIZES)
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

        return [PaletteEntry(f"Map: show {n.name}'s Relocate range", f"{n.title} · {n.where}",
                             partial(self.choose, n.id)) for n in self.nobles]
