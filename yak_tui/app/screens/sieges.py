"""Siege monitor: every siege with its provisions, the seasons they last, blockade and state
(and the surrender-or-sally prompt), and every walled place with its fort level and the
provisions a siege would start with.

Extend it by adding a Panel in `compose_body` and filling it in `refresh_view` from a
`yak_tui.world.views` function; actions open `app.open_command(...)` with a preset.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult

from yak_tui.app.screens.base import YakScreen
from yak_tui.app.widgets.common import FULL, Panel, YakTable, num
from yak_tui.world import views
from yak_tui.world.model import World
from yak_tui.world.views import short_name


class SiegesScreen(YakScreen):
    SCREEN_NAME = "sieges"
    CSS_PATH = Path(__file__).with_name("rules.tcss")

    def compose_body(self) -> ComposeResult:
        yield Panel("Sieges", YakTable(id="sieges-table"), id="sieges")
        yield Panel("Walled places", YakTable(id="forts-table"), id="forts", classes="grow")

    def refresh_view(self, world: World) -> None:
        view = views.sieges_view(world, self.identity)
        self.query_one("#sieges").border_title = f"Sieges ({len(view.sieges)})" if view.sieges else "Sieges"
        self.query_one("#sieges-table", YakTable).fill(
            ["Fort", "Besieger", "Provisions", "Regiments", "Seasons left", "Blockade", "State"],
            [(s.id, [Text(s.fort, style="bold"), s.besieger, Text(num(s.provisions), justify="right"),
                     Text(num(s.regiments), justify="right"), Text(num(s.seasons_left), justify="right"), s.blockade,
                     Text(s.state, style=f"bold {FULL}" if s.awaiting_choice else "")]) for s in view.sieges],
            empty="No fort is under siege.")
        self.query_one("#forts").border_title = f"Walled places ({len(view.forts)})"
        self.query_one("#forts-table", YakTable).fill(
            ["Place", "Province", "Held by", "Fortification", "Provisions", "Port", "State"],
            [(f.id, [Text(f.name, style="bold"), f.province, short_name(f.controller),
                     Text.assemble((str(f.level), "bold"), " ", f.level_name), Text(num(f.provisions), justify="right"),
                     "open" if f.port_access else "—",
                     Text("besieged", style=f"bold {FULL}") if f.besieged else Text("at peace", style="dim")])
             for f in view.forts],
            empty="No walled place you may see.")
