"""Season history (GM): the seasons the backups keep, what changed between the two chosen (the
words of `yak diff`), and a rollback of whole advances to a kept season, after a confirm that
names what is lost (`UndoAdvanceScreen`, the store's restore)."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.widgets import Label, Select

from yak_tui.app.kit.common import Panel, sync_select
from yak_tui.app.kit.pagedtext import PagedText
from yak_tui.app.kit.rowtable import RowTable
from yak_tui.app.messages import PaletteEntry
from yak_tui.app.shell.side import SideScreen
from yak_tui.areas import court as views
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World


class HistoryScreen(SideScreen):
    SCREEN_NAME = "history"
    CSS_PATH = Path(__file__).with_name("history.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "compare", "Compare with now"),
        Binding("z", "roll_back", "Roll back to this"),
        Binding("right_square_bracket", "page(1)", "Next page", show=False, key_display="]"),
        Binding("left_square_bracket", "page(-1)", "Previous page", show=False, key_display="["),
    ]

    ACTS = frozenset({"roll_back"})  # the GM's alone (below); never an observer's
    # The seasons, not the "from" dropdown: down moves the cursor and z rolls back, as the key bar says.
    AUTO_FOCUS = "#seasons-table"

    def __init__(self) -> None:
        super().__init__()
        self.view: views.HistoryView | None = None

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="history-pickers"):
            yield Label("From ")
            yield Select([], id="history-before", prompt="season", allow_blank=True, compact=True)
            yield Label(" to ")
            yield Select([], id="history-after", prompt="season", allow_blank=True, compact=True)
        with Horizontal(id="history-columns"):
            yield Panel("Seasons kept", RowTable(id="seasons-table"), id="seasons")
            with VerticalScroll(id="diff-body", classes="panel"):
                yield PagedText(id="diff-text")

    def _picked(self, name: str) -> str | None:
        value = self.query_one(f"#history-{name}", Select).value
        return None if value is Select.NULL else str(value)

    def refresh_view(self, world: World) -> None:
        """Read the backups and diff the two seasons off the event loop."""
        before, after = self._picked("before"), self._picked("after")
        save = self.yak.save
        self.loader.start(lambda: self._build_history(save, world, self.identity, before, after))

    def _build_history(
        self, save: Any, world: World, identity: Identity, before: str | None, after: str | None
    ) -> tuple[Identity, views.HistoryView]:
        if not identity.is_gm:
            return identity, views.HistoryView((), "", "", (), "The season history is the GM's.")
        return identity, views.history_view(save, world, identity, before, after)

    def paint_view(self, view: views.HistoryView) -> None:
        options = [(row.label, row.label) for row in view.seasons]
        for name, value in (("before", view.before), ("after", view.after)):
            sync_select(self.query_one(f"#history-{name}", Select), options, value or None)
        self.view = view
        table = self.query_one("#seasons-table", RowTable)
        table.fill(
            ["Season", "Kept"],
            [
                (
                    row.label,
                    [
                        Text(row.label, style="bold"),
                        "as it closed (backup)" if row.backup else Text("now (the save)", style="dim"),
                    ],
                )
                for row in reversed(view.seasons)
            ],
            empty="No season kept yet.",
        )
        body = self.query_one("#diff-body", VerticalScroll)
        body.border_title = f"{view.before} → {view.after}" if view.before != view.after else "What changed"
        text = self.query_one("#diff-text", PagedText)
        if view.problem:
            text.show_message(Content.styled(view.problem, "italic $foreground-muted"))
        else:
            text.show_lines(view.lines)  # a page at a time: at 1000x a season's diff is 11,001 lines
        body.border_subtitle = text.status

    def action_page(self, delta: int) -> None:
        text = self.query_one("#diff-text", PagedText)
        if text.turn(delta):
            body = self.query_one("#diff-body", VerticalScroll)
            body.scroll_home(animate=False)
            body.border_subtitle = text.status

    @on(Select.Changed)
    def _picked_changed(self, event: Select.Changed) -> None:
        event.stop()
        self._seen_version = -1
        self.refresh_view(self.yak.world)

    def _highlighted(self) -> str | None:
        return self.query_one("#seasons-table", RowTable).cursor_row_key()

    def action_compare(self) -> None:
        """Compare the highlighted season with the current one."""
        season = self._highlighted()
        if season is None or self.view is None or not self.view.seasons:
            return
        self.query_one("#history-before", Select).value = season
        self.query_one("#history-after", Select).value = self.view.seasons[-1].label

    def action_roll_back(self) -> None:
        """Put back the highlighted season's backup, undoing every advance since (confirm first)."""
        from yak_tui.app.shell.advance import UndoAdvanceScreen

        season = self._highlighted()
        row = next((r for r in self.view.seasons if r.label == season), None) if self.view else None
        if row is None or not row.backup:
            self.notify("Pick a kept season before now: the current one is the save itself.", severity="warning")
            return
        self.app.push_screen(UndoAdvanceScreen(self.yak.save.backup_dir / row.backup, row.label))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not super().check_action(action, parameters):
            return False
        if action in ("roll_back", "compare"):
            return self.identity.is_gm
        return True

    def palette_entries(self) -> list[Any]:
        if not self.identity.is_gm:
            return []
        return [
            PaletteEntry(
                "Roll back to the highlighted season",
                "undo every advance since, after a confirm (z)",
                self.action_roll_back,
                True,
            )
        ]
