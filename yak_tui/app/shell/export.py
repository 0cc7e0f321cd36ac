"""Forum export: the chosen season or entries as BBCode or Markdown, filtered for a chosen
audience, previewed, and copied to the clipboard with OSC 52 (works over SSH)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Button, Label, Select, Static

from yak_tui.app.kit import YakModal
from yak_tui.app.kit.keybar import KeyBar
from yak_tui.app.kit.styles import DIALOGS_TCSS
from yak_tui.areas import court as views
from yak_tui.kernel.play.views import problem_of


class ExportScreen(YakModal[None]):
    CSS_PATH = DIALOGS_TCSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close"), Binding("ctrl+y", "copy", "Copy")]

    def __init__(
        self,
        season: str | None = None,
        selected: Iterable[str] = (),
        kingdom: str | None = None,
        character: str | None = None,
        kind: str | None = None,
    ) -> None:
        super().__init__()
        self.season = season
        self.selected = tuple(selected)
        self.filters = {"kingdom": kingdom, "character": character, "kind": kind}
        self.text = ""

    def compose(self) -> ComposeResult:
        app = self.yak
        audiences = views.export_audiences(app.world, app.identity)
        scopes = [("The entries shown (filters)", "filtered")]
        if self.season:
            scopes.insert(0, (f"The season {self.season}", "season"))
        if self.selected:
            scopes.insert(0, (f"The {len(self.selected)} selected entries", "selected"))
        with Vertical(id="dialog", classes="dialog -wide"):
            yield Static(Content.styled("Export for the forum", "bold"), id="dialog-title")
            with Horizontal(id="export-options"):
                with Vertical(classes="option"):
                    yield Label("Format")
                    yield Select(
                        [("BBCode", "bbcode"), ("Markdown", "markdown")],
                        value="bbcode",
                        allow_blank=False,
                        id="export-format",
                        compact=True,
                    )
                with Vertical(classes="option"):
                    yield Label("For")
                    yield Select(
                        [(c.label, c.value) for c in audiences],
                        value="public",
                        allow_blank=False,
                        id="export-audience",
                        compact=True,
                    )
                with Vertical(classes="option"):
                    yield Label("What")
                    yield Select(scopes, value=scopes[0][1], allow_blank=False, id="export-scope", compact=True)
            with VerticalScroll(id="dialog-body", classes="preview"):
                yield Static("", id="export-preview", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button("Copy to clipboard", id="copy", variant="primary", compact=True)
                yield Button("Close", id="close", compact=True)
        yield KeyBar()  # the keys of this dialog, where the screen behind showed its own

    def on_mount(self) -> None:
        self._render_export()
        self.query_one("#copy", Button).focus()

    @on(Select.Changed)
    def _changed(self, event: Select.Changed) -> None:
        event.stop()
        self._render_export()

    def _render_export(self) -> None:
        app = self.yak
        fmt = str(self.query_one("#export-format", Select).value)
        audience = str(self.query_one("#export-audience", Select).value)
        scope = str(self.query_one("#export-scope", Select).value)
        season = self.season if scope in ("season", "filtered") else None
        ids = self.selected if scope == "selected" else None
        filters = self.filters if scope == "filtered" else {"kingdom": None, "character": None, "kind": None}
        try:
            self.text, count = views.export_text(app.world, app.identity, audience, fmt, season, ids, **filters)
        except Exception as error:
            self.text, count = "", 0
            self.query_one("#export-preview", Static).update(problem_of(error).message())
            return
        self.query_one("#export-preview", Static).update(self.text or "(nothing to export)")
        self.query_one("#dialog-body").border_title = f"Preview · {count} entries"

    @on(Button.Pressed, "#copy")
    def action_copy(self) -> None:
        if not self.text:
            self.notify("Nothing to copy.", severity="warning")
            return
        self.app.copy_to_clipboard(self.text)
        self.notify("Copied with OSC 52: paste it into the forum post.", title="Copied")

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)
