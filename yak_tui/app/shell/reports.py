"""Reports: the season reports stored in the save that the viewer may read (a player his own and
the public post, a King his kingdom's, the GM every one, an observer the public post), by season
and recipient. x, for the GM, writes the one shown as BBCode and Markdown files as `yak report --out`
does; for anyone else it writes nothing on this machine (over SSH that is the server's disk): it
copies the report as Markdown to his own clipboard (OSC 52) and shows the text to select by hand."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, ClassVar, overload

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Select, Static

from yak_tui.app.kit import YakModal
from yak_tui.app.kit.common import page_choice, paged_options, sync_select
from yak_tui.app.kit.keybar import KeyBar
from yak_tui.app.kit.pagedtext import PagedText
from yak_tui.app.kit.styles import DIALOGS_TCSS
from yak_tui.app.messages import PaletteEntry
from yak_tui.app.shell.side import SideScreen
from yak_tui.areas import court as views
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.views import problem_of
from yak_tui.kernel.world.model import World

LINE_STYLE = {"heading": "bold $primary", "section": "bold $accent", "item": "", "detail": "italic $foreground-muted"}


class ReportsScreen(SideScreen):
    SCREEN_NAME = "reports"
    CSS_PATH = Path(__file__).with_name("reports.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "export", "Export files"),  # the GM's: files on the machine running the app
        Binding("x", "copy_report", "Copy report"),  # anyone else's: his clipboard, never a file
        Binding("ctrl+y", "copy", "Copy BBCode", show=False),
        Binding("right_square_bracket", "page(1)", "Next page", show=False, key_display="]"),
        Binding("left_square_bracket", "page(-1)", "Previous page", show=False, key_display="["),
        Binding("P", "post_season", "Post the season", show=False),  # the GM's: to Discord and e-mail
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
            yield PagedText(id="report-text")

    def _picked(self, name: str) -> str | None:
        value = self.query_one(f"#report-{name}", Select).value
        if value is not Select.NULL and name == "recipient" and self.view is not None:
            value = page_choice(self._recipient_choices(self.view), value)  # "▸ the next page": its first
        return None if value is Select.NULL or value is None else str(value)

    @staticmethod
    def _recipient_choices(view: views.ReportsView) -> list[tuple[str, Any]]:
        return [(c.label, c.value) for c in view.recipients]

    def refresh_view(self, world: World) -> None:
        """Build the chosen report off the event loop (`reports_view`, already filtered for the viewer)."""
        season, recipient = self._picked("season"), self._picked("recipient")
        self.loader.start(lambda: self._build_report(world, self.identity, season, recipient))

    def _build_report(
        self, world: World, identity: Identity, season: str | None, recipient: str | None
    ) -> tuple[Identity, views.ReportsView]:
        return identity, views.reports_view(world, identity, season, recipient)

    def paint_view(self, view: views.ReportsView) -> None:
        seasons = [(c.label, c.value) for c in view.seasons]
        sync_select(self.query_one("#report-season", Select), seasons, view.season or None)
        # The GM's recipients at 1000x are 4,002: a page of them at a time (`paged_options`).
        recipients = paged_options(self._recipient_choices(view), view.recipient, "recipients")
        sync_select(self.query_one("#report-recipient", Select), recipients, view.recipient or None)
        self.view = view
        body = self.query_one("#report-body", VerticalScroll)
        body.border_title = "Report" if not view.recipient else f"{view.season} · {self._label(view)}"
        text = self.query_one("#report-text", PagedText)
        if not view.lines:
            text.show_message(
                Content.styled(
                    "No season report yet: reports are written when a season closes.", "italic $foreground-muted"
                )
            )
            body.border_subtitle = ""
            return
        # A page at a time (`PagedText`): each line is styled only when its page is drawn.
        text.show_lines(_StyledLines(view.lines, self._line))
        body.border_subtitle = text.status

    def action_page(self, delta: int) -> None:
        text = self.query_one("#report-text", PagedText)
        if text.turn(delta):
            body = self.query_one("#report-body", VerticalScroll)
            body.scroll_home(animate=False)
            body.border_subtitle = text.status

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
        from yak_tui.kernel.season.reports import reports_for

        view = self.view
        if view is None or not view.recipient:
            return []
        return [r for r in reports_for(self.yak.world, self.identity, view.season) if r["recipient"] == view.recipient]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """x shows one of its two labels: files for the GM, the clipboard for anyone else."""
        if not super().check_action(action, parameters):
            return False
        if action == "export":
            return self.identity.is_gm
        if action == "copy_report":
            return not self.identity.is_gm
        if action == "post_season":
            return self.identity.is_gm
        return True

    def action_post_season(self) -> None:
        """The GM's `yak post`: a preview of what would go where, then Post."""
        if not self.identity.is_gm:
            return
        view = self.view
        self.app.push_screen(PostSeasonScreen(self.yak.save.path, view.season if view is not None else None))

    def action_export(self) -> None:
        if not self.identity.is_gm:  # a seat never writes on the machine running the app (the server, over SSH)
            self.action_copy_report()
            return
        shown = self._shown()
        if not shown:
            self.notify("No report to export.", severity="warning")
            return
        if self.app.is_web:  # in a browser (`yak serve --web`): the files are the browser's downloads
            self._deliver(shown[0], ("bbcode", "markdown"))
            return
        self._export(shown, self.yak.save.path.parent / "reports")

    def _deliver(self, report: dict[str, Any], formats: tuple[str, ...]) -> None:
        """Give the browser the report as downloads (`App.deliver_text`, over textual-serve)."""
        from io import StringIO

        from yak_tui.kernel.season.calendar import GameDate
        from yak_tui.kernel.season.reports import FORMATS, Recipient, render_report, season_slug

        stem = f"{season_slug(GameDate.from_dict(report['season']))}-{Recipient(report['recipient']).file_stem}"
        names = []
        for fmt in formats:
            name = f"{stem}.{FORMATS[fmt]}"
            self.app.deliver_text(StringIO(render_report(report, fmt)), save_filename=name, mime_type="text/plain")
            names.append(name)
        self.notify(", ".join(names), title="Report downloading")

    def action_copy_report(self) -> None:
        """Copy the report shown as Markdown to the viewer's own clipboard (OSC 52 reaches his terminal,
        over SSH too) and show its text, for a terminal that ignores OSC 52."""
        from yak_tui.kernel.season.reports import render_report

        shown = self._shown()
        if not shown:
            self.notify("No report to copy.", severity="warning")
            return
        text = render_report(shown[0], "markdown")
        self.app.copy_to_clipboard(text)
        if self.app.is_web:  # in a browser: the page's clipboard, and the text as a download
            self._deliver(shown[0], ("markdown",))
            self.notify("Copied as Markdown to your browser's clipboard.", title="Report copied")
        else:
            self.notify("Copied as Markdown with OSC 52: paste it where you keep your notes.", title="Report copied")
        self.app.push_screen(
            ReportTextScreen(self.query_one("#report-body", VerticalScroll).border_title or "Report", text)
        )

    @work(thread=True, exclusive=True, group="export-report", exit_on_error=False)
    def _export(self, shown: list[dict[str, Any]], out: Path) -> None:
        from yak_tui.kernel.season.reports import FORMATS, export_reports

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
        from yak_tui.kernel.season.reports import render_report

        shown = self._shown()
        if not shown:
            self.notify("No report to copy.", severity="warning")
            return
        self.app.copy_to_clipboard(render_report(shown[0], "bbcode"))  # in a browser: the page's clipboard
        where = "to your browser's clipboard" if self.app.is_web else "with OSC 52"
        self.notify(f"Copied as BBCode {where}: paste it into the forum.", title="Copied")

    def palette_entries(self) -> list[Any]:
        first = (
            PaletteEntry(
                "Export this report as files",
                "BBCode and Markdown under reports/<season>/ (x)",
                self.action_export,
                True,
            )
            if self.identity.is_gm
            else PaletteEntry(
                "Copy this report as Markdown",
                "to your clipboard, and show its text (x)",
                self.action_copy_report,
                True,
            )
        )
        entries = [
            first,
            PaletteEntry(
                "Copy this report as BBCode", "to the clipboard, for a forum post (ctrl+y)", self.action_copy, True
            ),
        ]
        if self.identity.is_gm:
            entries.append(
                PaletteEntry(
                    "Post the season",
                    "the season post to the public channels, each report to its reader (yak post; P)",
                    self.action_post_season,
                    True,
                )
            )
        return entries


class _StyledLines(Sequence[Content]):
    """The report's lines, each styled when it is read: only the page drawn pays for it."""

    def __init__(self, lines: Sequence[views.ReportLine], style: Callable[[views.ReportLine], Content]) -> None:
        self.lines = lines
        self.style = style

    def __len__(self) -> int:
        return len(self.lines)

    @overload
    def __getitem__(self, index: int) -> Content: ...
    @overload
    def __getitem__(self, index: slice) -> list[Content]: ...
    def __getitem__(self, index: int | slice) -> Content | list[Content]:
        if isinstance(index, slice):
            return [self.style(line) for line in self.lines[index]]
        return self.style(self.lines[index])


class ReportTextScreen(YakModal[None]):
    """The report as Markdown, to read or select by hand where the terminal ignores OSC 52."""

    CSS_PATH = DIALOGS_TCSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]

    def __init__(self, title: str, text: str) -> None:
        super().__init__(id="report-copy-dialog")
        self.title_text = title
        self.text = text

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog -wide"):
            yield Static(Content.styled(f"Report copied · {self.title_text}", "bold"), id="dialog-title")
            yield Static(
                "Copied to your clipboard as Markdown. If your terminal does not take OSC 52, select the text below.",
                id="dialog-help",
            )
            with VerticalScroll(id="dialog-body", classes="preview"):
                yield Static(self.text, id="report-markdown", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button("Close", id="close", variant="primary", compact=True)
        yield KeyBar()  # the keys of this dialog, where the screen behind showed its own

    def on_mount(self) -> None:
        self.query_one("#close", Button).focus()

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)


class PostSeasonScreen(YakModal[None]):
    """The GM's "Post the season": what `yak post --dry-run` says would go where, then Post sends it
    (`deliver.post`, in a worker thread: Discord and the mail server may be slow)."""

    CSS_PATH = DIALOGS_TCSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]

    class Done(Message):
        def __init__(self, text: str, sent: bool, problem: str = "") -> None:
            super().__init__()
            self.text = text
            self.sent = sent
            self.problem = problem

    def __init__(self, save: Path, season: str | None) -> None:
        super().__init__(id="post-season-dialog")
        self.save_path = save
        self.season = season

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog -wide"):
            yield Static(
                Content.styled(f"Post the season · {self.season or 'the last closed'}", "bold"), id="dialog-title"
            )
            yield Static("Preview: nothing is sent until you press Post.", id="dialog-help")
            with VerticalScroll(id="dialog-body", classes="preview"):
                yield Static("Reading the channels…", id="post-preview", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button("Post", id="post", variant="primary", compact=True, disabled=True)
                yield Button("Close", id="close", compact=True)
        yield KeyBar()

    def on_mount(self) -> None:
        self._run(dry_run=True)
        self.query_one("#close", Button).focus()

    @work(thread=True, exclusive=True, group="post-season", exit_on_error=False)
    def _run(self, dry_run: bool) -> None:
        from yak_tui.deliver.post import deliveries_text, post_season

        try:
            done = post_season(self.save_path, self.season, dry_run=dry_run, maps=not dry_run)
        except Exception as error:
            self.post_message(self.Done("", not dry_run, problem_of(error).message()))
            return
        self.post_message(self.Done(deliveries_text(done), not dry_run))

    @on(Done)
    def _done(self, event: Done) -> None:
        preview = self.query_one("#post-preview", Static)
        if event.problem:
            preview.update(event.problem)
            if event.sent:
                self.notify(event.problem, title="The season was not (all) posted", severity="error")
            return
        preview.update(event.text)
        button = self.query_one("#post", Button)
        button.disabled = event.sent
        if event.sent:
            self.query_one("#dialog-help", Static).update("Posted. Posting again edits the messages instead.")
            self.notify("The season is posted.", title="Posted")

    @on(Button.Pressed, "#post")
    def action_post(self) -> None:
        self.query_one("#post", Button).disabled = True
        self.query_one("#post-preview", Static).update("Posting…")
        self._run(dry_run=False)

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)
