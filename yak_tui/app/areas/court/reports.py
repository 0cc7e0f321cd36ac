"""Reports: the season reports stored in the save that the viewer may read (a player his own and
the public post, a King his kingdom's, the GM every one, an observer the public post), by season
and recipient; x writes the one shown as BBCode and Markdown files as `yak report --out` does."""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Select, Static

from yak_tui.app.areas.court.side import SideScreen
from yak_tui.app.kit.common import sync_select
from yak_tui.app.messages import PaletteEntry
from yak_tui.areas import court as views
from yak_tui.kernel.identity import Identity
from yak_tui.kernel.model import World

LINE_STYLE = {"heading": "bold $primary", "section": "bold $accent", "item": "", "detail": "italic $foreground-muted"}


class ReportsScreen(SideScreen):
    SCREEN_NAME = "reports"
    CSS_PATH = Path(__file__).with_name("reports.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "export", "Export files"),
        Binding("ctrl+y", "copy", "Copy BBCode", show=False),
    ]

    class Exported(Message):
        def __init__(self, written: list[Path], problem: str = "") -> None:
            super().__init__()
            self.written = written
            self.problem = problem

    def __init__(self) -> None:
        super().__init__()
        self.view: views.ReportsView | None = None

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="report-pickers"):
            yield Select([], id="report-season", prompt="season", allow_blank=True, compact=True)
            yield Select([], id="report-recipient", prompt="recipient", allow_blank=True, compact=True)
        with VerticalScroll(id="report-body", classes="panel"):
            yield Static("", id="report-text")

    def _picked(self, name: str) -> str | None:
        value = self.query_one(f"#report-{name}", Select).value
        return None if value is Select.NULL else str(value)

    def refresh_view(self, world: World) -> None:
        """Build the chosen report off the event loop (`reports_view`, already filtered for the viewer)."""
        season, recipient = self._picked("season"), self._picked("recipient")
        self.loader.start(lambda: self._build_report(world, self.identity, season, recipient))

    def _build_report(self, world: World, identity: Identity, season: str | None,
                      recipient: str | None) -> tuple[Identity, views.ReportsView]:
        return identity, views.reports_view(world, identity, season, recipient)

    def paint_view(self, view: views.ReportsView) -> None:
        for name, choices, value in (("season", view.seasons, view.season),
                                     ("recipient", view.recipients, view.recipient)):
            sync_select(self.query_one(f"#report-{name}", Select), [(c.label, c.value) for c in choices],
                        value or None)
        self.view = view
        body = self.query_one("#report-body", VerticalScroll)
        body.border_title = "Report" if not view.recipient else f"{view.season} · {self._label(view)}"
        text = self.query_one("#report-text", Static)
        if not view.lines:
            text.update(Content.styled("No season report yet: reports are written when a season closes.",
                                       "italic $foreground-muted"))
            return
        text.update(Content("\n").join(self._line(line) for line in view.lines))

    @staticmethod
    def _label(view: views.ReportsView) -> str:
        return next((c.label for c in view.recipients if c.value == view.recipient), view.recipient)

    @staticmethod
    def _line(line: views.ReportLine) -> Content:
        if line.kind == "section":
            return Content.assemble("\n", (line.text, LINE_STYLE["section"]))
        if line.kind == "item":
            return Content.assemble(("• ", "$secondary"), line.text)
        if line.kind == "detail":
            return Content.styled(f"    {line.text}", LINE_STYLE["detail"])
        return Content.styled(line.text, LINE_STYLE["heading"])

    @on(Select.Changed)
    def _picked_changed(self, event: Select.Changed) -> None:
        event.stop()
        self._seen_version = -1
        self.refresh_view(self.yak.world)

    # -- export ----------------------------------------------------------------------------------------
    def _shown(self) -> list[dict[str, Any]]:
        from yak_tui.kernel.reports import reports_for

        view = self.view
        if view is None or not view.recipient:
            return []
        return [r for r in reports_for(self.yak.world, self.identity, view.season) if r["recipient"] == view.recipient]

    def action_export(self) -> None:
        shown = self._shown()
        if not shown:
            self.notify("No report to export.", severity="warning")
            return
        self._export(shown, self.yak.save.path.parent / "reports")

    @work(thread=True, exclusive=True, group="export-report", exit_on_error=False)
    def _export(self, shown: list[dict[str, Any]], out: Path) -> None:
        from yak_tui.kernel.reports import FORMATS, export_reports

        try:
            written = export_reports(shown, out, tuple(FORMATS))
        except OSError as error:
            self.post_message(self.Exported([], str(error)))
            return
        self.post_message(self.Exported(written))

    @on(Exported)
    def _exported(self, event: Exported) -> None:
        if event.problem:
            self.notify(event.problem, title="Cannot write the report files", severity="error")
            return
        self.notify("\n".join(str(path) for path in event.written), title="Report written")

    def action_copy(self) -> None:
        from yak_tui.kernel.reports import render_report

        shown = self._shown()
        if not shown:
            self.notify("No report to copy.", severity="warning")
            return
        self.app.copy_to_clipboard(render_report(shown[0], "bbcode"))
        self.notify("Copied as BBCode with OSC 52: paste it into the forum.", title="Copied")

    def palette_entries(self) -> list[Any]:
        return [PaletteEntry("Export this report as files", "BBCode and Markdown under reports/<season>/ (x)",
                             self.action_export, True),
                PaletteEntry("Copy this report as BBCode", "to the clipboard, for a forum post (ctrl+y)",
                             self.action_copy, True)]
