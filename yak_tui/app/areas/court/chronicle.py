"""Chronicle: every entry the viewer may see, filtered by season, kingdom, character and kind,
each with its rolls as far as the viewer may see them; space selects entries, x exports."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import OptionList, Select, Static
from textual.widgets.option_list import Option

from yak_tui.app.kit import YakScreen
from yak_tui.app.kit.common import Panel
from yak_tui.app.messages import PaletteEntry
from yak_tui.areas import court as views
from yak_tui.kernel.model import World

FILTERS = ("season", "kingdom", "character", "kind")


def entry_prompt(entry: views.EntryView, selected: bool) -> Content:
    mark = ("● ", "bold $accent") if selected else ("  ", "")
    head = Content.assemble(mark, (entry.date, "dim"), " ", (f"[{entry.kind}]", "$secondary"), " ", entry.text)
    if entry.audience != "public":
        head = Content.assemble(head, (f"  ({entry.audience})", "italic $warning"))
    lines = [head]
    for roll in entry.rolls:
        lines.append(Content.styled(f"      ↳ {roll}", "italic $foreground-muted"))
    if entry.note:
        lines.append(Content.assemble(("      ✎ GM note: ", "bold $warning"), (entry.note, "italic")))
    return Content("\n").join(lines)


class ChronicleScreen(YakScreen):
    SCREEN_NAME = "chronicle"
    CSS_PATH = Path(__file__).with_name("chronicle.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("space", "toggle_select", "Select"),
        Binding("x", "export", "Export"),
        Binding("ctrl+a", "select_all", "Select all", show=False),
        Binding("escape", "clear", "Clear filters", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.selected: set[str] = set()
        self.entries: dict[str, views.EntryView] = {}

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="chronicle-filters"):
            for name in FILTERS:
                yield Select([], id=f"filter-{name}", prompt=f"any {name}", allow_blank=True, compact=True)
        yield Panel("Chronicle", OptionList(id="entries"), Static(id="chronicle-status"), id="chronicle")

    def _filter(self, name: str) -> str | None:
        value = self.query_one(f"#filter-{name}", Select).value
        return None if value is Select.NULL else str(value)

    def refresh_view(self, world: World) -> None:
        view = views.chronicle_view(world, self.identity, *(self._filter(n) for n in FILTERS))
        for name, choices in (("season", view.seasons), ("kingdom", view.kingdoms), ("character", view.characters),
                              ("kind", view.kinds)):
            select = self.query_one(f"#filter-{name}", Select)
            current = select.value
            with select.prevent(Select.Changed):
                select.set_options([(c.label, c.value) for c in choices])
                if current is not Select.NULL and any(c.value == current for c in choices):
                    select.value = current
        self._fill(view)

    def _fill(self, view: views.ChronicleView) -> None:
        listing = self.query_one("#entries", OptionList)
        highlighted = listing.highlighted_option.id if listing.highlighted_option else None
        self.entries = {e.id: e for e in view.entries}
        self.selected &= set(self.entries)
        listing.clear_options()
        listing.add_options([Option(entry_prompt(e, e.id in self.selected), id=e.id) for e in reversed(view.entries)])
        if highlighted in self.entries:
            listing.highlighted = listing.get_option_index(highlighted)
        elif view.entries:
            listing.highlighted = 0
        panel = self.query_one("#chronicle")
        panel.border_title = f"Chronicle · {len(view.entries)} of {view.total} entries"
        self._status()

    def _status(self) -> None:
        chosen = f"{len(self.selected)} selected · " if self.selected else ""
        text = f"{chosen}space select · x export · newest first"
        if not self.entries:
            text = "No entries match. Clear the filters with escape."
        self.query_one("#chronicle-status", Static).update(Content.styled(text, "dim"))

    @on(Select.Changed)
    def _filter_changed(self, event: Select.Changed) -> None:
        self._seen_version = -1
        self.refresh_view(self.yak.world)

    def action_toggle_select(self) -> None:
        listing = self.query_one("#entries", OptionList)
        option = listing.highlighted_option
        if option is None or option.id is None:
            return
        entry_id = option.id
        self.selected ^= {entry_id}
        listing.replace_option_prompt(entry_id, entry_prompt(self.entries[entry_id], entry_id in self.selected))
        if listing.highlighted is not None and listing.highlighted < listing.option_count - 1:
            listing.highlighted += 1
        self._status()

    def action_select_all(self) -> None:
        everything = set(self.entries)
        self.selected = set() if self.selected == everything else everything
        self._seen_version = -1
        self.refresh_view(self.yak.world)

    def action_clear(self) -> None:
        for name in FILTERS:
            self.query_one(f"#filter-{name}", Select).clear()

    def action_export(self) -> None:
        from yak_tui.app.areas.court.export import ExportScreen

        kwargs: dict[str, Any] = {"kingdom": self._filter("kingdom"), "character": self._filter("character"),
                                  "kind": self._filter("kind")}
        season = self._filter("season")
        # Newest-first selection order does not matter: export keeps the chronicle's order.
        self.app.push_screen(ExportScreen(season, sorted(self.selected), **kwargs))

    def palette_entries(self) -> list[Any]:
        return [PaletteEntry("Export the chronicle for the forum", "BBCode or Markdown, for a chosen audience (x)",
                             self.action_export, True)]
