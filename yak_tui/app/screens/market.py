"""Business market: every province's sectors with their potential, what is in use and the
room left (a full sector means expanding needs competition), and the businesses there.

Extend it by adding a Panel in `compose_body` and filling it in `refresh_view` from a
`yak_tui.world.views` function; actions open `app.open_command(...)` with a preset.
"""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.widgets import DataTable

from yak_tui.app.screens.base import YakScreen
from yak_tui.app.widgets.common import Panel, YakTable, bar, num
from yak_tui.world import views
from yak_tui.world.model import World


class MarketScreen(YakScreen):
    SCREEN_NAME = "market"
    CSS_PATH = Path(__file__).with_name("rules.tcss")

    def __init__(self) -> None:
        super().__init__()
        self.view: views.MarketView | None = None

    def compose_body(self) -> ComposeResult:
        yield Panel("Sectors by province", YakTable(id="sectors-table"), id="sectors", classes="grow")
        yield Panel("Businesses", YakTable(id="businesses-table"), id="businesses")

    def refresh_view(self, world: World) -> None:
        self.view = views.market_view(world, self.identity)
        rows = []
        for s in self.view.sectors:
            names = ", ".join(f"{b.name} ({b.size})" for b in s.businesses) or "—"
            rows.append((f"{s.province_id}:{s.sector}", [
                Text(s.province, style="bold"), s.sector, Text(num(s.potential), justify="right"),
                Text(num(s.used), justify="right"), Text(num(s.room), justify="right"), bar(s.fill, 8), names]))
        self.query_one("#sectors-table", YakTable).fill(
            ["Province", "Sector", "Potential", "In use", "Room", "Fill", "Businesses (size)"], rows,
            empty="No province you may see.")
        self._businesses()

    def _businesses(self) -> None:
        if self.view is None:
            return
        key = self.query_one("#sectors-table", YakTable).cursor_row_key() or ""
        province, _, sector = key.partition(":")
        shown = [b for b in self.view.businesses if b.province_id == province] or list(self.view.businesses)
        title = f"Businesses in {shown[0].province}" if shown and province else "Businesses"
        self.query_one("#businesses").border_title = title
        self.query_one("#businesses-table", YakTable).fill(
            ["Business", "Owner", "Place", "Sector", "Size", "Invested"],
            [(b.id, [Text(b.name, style="bold" if b.mine else ""), b.owner, b.place,
                     Text(b.sector, style="bold" if b.sector == sector else "dim"), Text(str(b.size), justify="right"),
                     Text(num(b.invested), justify="right")]) for b in shown],
            empty="No businesses here.")

    @on(DataTable.RowHighlighted, "#sectors-table")
    def _sector_highlighted(self) -> None:
        self._businesses()
