"""Chronicle: every entry the viewer may see, filtered by season, kingdom, character and kind,
each with its rolls as far as the viewer may see them; space selects entries, x exports."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Select

from yak_tui.app.kit import YakScreen
from yak_tui.app.kit.common import sync_select
from yak_tui.app.messages import PaletteEntry
from yak_tui.app.screens.court.panels import EntriesPanel
from yak_tui.areas import court as views
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World

FILTERS = ("season", "kingdom", "character", "kind")


class ChronicleScreen(YakScreen):
    SCREEN_NAME = "chronicle"
    CSS_PATH = Path(__file__).with_name("chronicle.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_select", "Select"),
        Binding("x", "export", "Export"),
        Binding("right_square_bracket", "page(1)", "Older", show=False, key_display="]"),
        Binding("left_square_bracket", "page(-1)", "Newer", show=False, key_display="["),
        Binding("ctrl+a", "select_all", "Select all", show=False),
        Binding("escape", "clear", "Clear filters", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.selected: set[str] = set()
        self.entries = views.EntryViews()
        self.view: views.ChronicleView | None = None

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="chronicle-filters"):
            for name in FILTERS:
                yield Select([], id=f"filter-{name}", prompt=f"any {name}", allow_blank=True, compact=True)
        yield EntriesPanel()

    def _filter(self, name: str) -> str | None:
        value = self.query_one(f"#filter-{name}", Select).value
        return None if value is Select.NULL else str(value)

    def refresh_view(self, world: World) -> None:
        """Build the entries for the filters as they are now, off the event loop."""
        filters = tuple(self._filter(n) for n in FILTERS)
        self.loader.start(partial(self._build_filtered, world, self.identity, filters))

    def _build_filtered(
        self, world: World, identity: Identity, filters: tuple[str | None, ...]
    ) -> tuple[Identity, views.ChronicleView]:
        return identity, views.chronicle_view(world, identity, *filters)

    def paint_view(self, view: views.ChronicleView) -> None:
        for name, choices in (
            ("season", view.seasons),
            ("kingdom", view.kingdoms),
            ("character", view.characters),
            ("kind", view.kinds),
        ):
            select = self.query_one(f"#filter-{name}", Select)
            sync_select(select, [(c.label, c.value) for c in choices], select.value)
        self.view = view
        self._fill(view)

    def _fill(self, view: views.ChronicleView, page: int | None = None) -> None:
        panel = self.query_one(EntriesPanel)
        if self.selected:
            self.selected &= set(view.entries.ids)
        panel.show(view, self.selected, page)
        self.entries = panel.entries

    def action_page(self, step: int) -> None:
        """Show the next older (`]`) or newer (`[`) page of entries."""
        panel = self.query_one(EntriesPanel)
        if self.view is not None and 0 <= panel.page + step < panel.pages:
            self._fill(self.view, panel.page + step)

    @on(Select.Changed)
    def _filter_changed(self, event: Select.Changed) -> None:
        self._seen_version = -1
        self.query_one(EntriesPanel).page = 0
        self.refresh_view(self.yak.world)

    def action_toggle_select(self) -> None:
        panel = self.query_one(EntriesPanel)
        entry_id = panel.highlighted()
        if entry_id is None:
            return
        self.selected ^= {entry_id}
        panel.mark(entry_id, entry_id in self.selected)
        panel.status(len(self.selected))

    def action_select_all(self) -> None:
        everything = set(self.entries.ids)
        self.selected = set() if self.selected == everything else everything
        if self.view is not None:
            self._fill(self.view)

    def action_clear(self) -> None:
        for name in FILTERS:
            self.query_one(f"#filter-{name}", Select).clear()

    def action_export(self) -> None:
        from yak_tui.app.shell.export import ExportScreen

        kwargs: dict[str, Any] = {
            "kingdom": self._filter("kingdom"),
            "character": self._filter("character"),
            "kind": self._filter("kind"),
        }
        season = self._filter("season")
        # Newest-first selection order does not matter: export keeps the chronicle's order.
        self.app.push_screen(ExportScreen(season, sorted(self.selected), **kwargs))

    def palette_entries(self) -> list[Any]:
        return [
            PaletteEntry(
                "Export the chronicle for the forum",
                "BBCode or Markdown, for a chosen audience (x)",
                self.action_export,
                True,
            )
        ]
