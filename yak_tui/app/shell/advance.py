"""Advance the season: a preview of exactly what closing it (and year start) will do, a
confirmation, and a progress bar while it runs. Only the GM may confirm. With orders still
waiting, the first press asks before carrying them into the next season (`session.check_carry`,
the rule `yak advance --carry` applies too); the second closes the season."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, ProgressBar, Static

from yak_tui.app.kit import YakModal
from yak_tui.app.kit.focus import focus_after_layout
from yak_tui.app.kit.keybar import KeyBar
from yak_tui.app.kit.styles import DIALOGS_TCSS
from yak_tui.areas import court as views
from yak_tui.kernel.play.queue import orders_counted
from yak_tui.kernel.play.views import Problem, problem_of
from yak_tui.kernel.season.calendar import GameDate


def carry_label(preview: views.AdvancePreview, asked: bool) -> str:
    """The confirm button: it first asks about the waiting orders, then advances carrying them."""
    if not preview.waiting:
        return f"Advance to {preview.target}"
    orders = orders_counted(len(preview.waiting))
    return f"Advance to {preview.target}, carrying {orders}" if asked else f"Carry {orders} over…"


def preview_content(preview: views.AdvancePreview, done: int = -1, *, carry_asked: bool = False) -> Content:
    """The steps with their sums; steps up to `done` are ticked off."""
    lines = [Content.assemble((preview.source, "bold"), (" → ", "dim"), (preview.target, "bold $primary"))]
    if preview.year_start:
        lines.append(Content.styled("The year turns: the year-start pipeline runs, in this order.", "$warning"))
    else:
        lines.append(Content.styled("The season closes; year start does not run this time.", "dim"))
    if preview.blocked:
        lines.append(Content(""))
        lines.append(Content.styled("The season cannot close yet:", "bold $error"))
        lines.extend(Content.assemble(("  ✗ ", "$error"), reason) for reason in preview.blocked)
    if preview.waiting:
        lines.append(Content(""))
        count = len(preview.waiting)
        waits = "1 order still waits and carries over" if count == 1 else f"{count} orders still wait and carry over"
        lines.append(Content.styled(f"{waits}:", "bold $warning"))
        lines.extend(Content.styled(f"  · {order}", "dim") for order in preview.waiting)
        if carry_asked and done < 0:
            lines.append(
                Content.styled(
                    f"They will wait on into {preview.target}, unresolved. Press the button again to close "
                    f"the season carrying them, or cancel and rule on them first.",
                    "bold $warning",
                )
            )
    if preview.no_orders:
        lines.append(Content.assemble(("No orders from: ", "bold $warning"), ", ".join(preview.no_orders)))
    if preview.steps:
        lines.append(Content(""))
    for index, step in enumerate(preview.steps):
        mark = ("✓ ", "bold $success") if index <= done else (f"{index + 1:>2} ", "dim")
        sums = ", ".join(f"{k} {v:g}" for k, v in step.sums if v) or "nothing to do"
        lines.append(Content.assemble(mark, (step.title, "bold"), (": ", "dim"), sums))
        for line in step.lines[:6]:
            lines.append(Content.styled(f"     {line}", "dim"))
        if len(step.lines) > 6:
            lines.append(Content.styled(f"     … {len(step.lines) - 6} more", "dim"))
    if not preview.steps and not preview.blocked:
        lines.append(Content.styled("Nothing else happens at this change of season.", "italic dim"))
    return Content("\n").join(lines)


class AdvanceScreen(YakModal[None]):
    CSS_PATH = DIALOGS_TCSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]

    class Previewed(Message):
        def __init__(self, preview: views.AdvancePreview | None, problem: str = "") -> None:
            super().__init__()
            self.preview = preview
            self.problem = problem

    class Advanced(Message):
        def __init__(self, preview: views.AdvancePreview | None, problem: Problem | None = None) -> None:
            super().__init__()
            self.preview = preview
            self.problem = problem

    def __init__(self) -> None:
        super().__init__()
        self.preview: views.AdvancePreview | None = None
        self.running = False
        self.carry_asked = False  # the GM was asked about the waiting orders: the next press carries them

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog -wide"):
            yield Static(Content.styled("Advance the season", "bold"), id="dialog-title")
            yield Static("Exactly what closing this season will do, computed on a copy of the world.", id="dialog-help")
            with VerticalScroll(id="dialog-body"):
                yield Static("Working out the preview…", id="preview")
            yield ProgressBar(id="progress", show_eta=False)
            with Horizontal(id="dialog-buttons"):
                yield Button("Advance", id="confirm", variant="warning", disabled=True, compact=True)
                yield Button("Cancel", id="close", compact=True)
        yield KeyBar()  # the keys of this dialog, where the screen behind showed its own

    def on_mount(self) -> None:
        self.query_one("#progress").display = False
        self.query_one("#close", Button).focus()
        if not self.yak.identity.is_gm:
            # The preview is the whole world's sums (every kingdom's tax and upkeep): GM only.
            self.query_one("#preview", Static).update(
                Content.assemble(("Only the GM may close the season. ", "bold $error"), "Who may: gm")
            )
            return
        self._load_preview()

    @work(thread=True, exclusive=True, group="preview", exit_on_error=False)
    def _load_preview(self) -> None:
        from yak_tui.kernel.season.session import preview
        from yak_tui.kernel.world.model import World

        try:
            data = preview(self.yak.save)
            shaped = views.advance_preview(data, World.load(self.yak.save))
        except Exception as error:
            self.post_message(self.Previewed(None, problem_of(error).message()))
            return
        self.post_message(self.Previewed(shaped))

    @on(Previewed)
    def _previewed(self, event: Previewed) -> None:
        self.preview = event.preview
        if event.preview is None:
            self.query_one("#preview", Static).update(Content.styled(event.problem, "$error"))
            return
        self.query_one("#preview", Static).update(preview_content(event.preview))
        button = self.query_one("#confirm", Button)
        button.label = carry_label(event.preview, asked=False)
        button.disabled = bool(event.preview.blocked)
        button.refresh(layout=True)
        if not button.disabled:
            focus_after_layout(button)  # scrolled to once the preview above it is laid out (40x12)

    @on(Button.Pressed, "#confirm")
    def _confirm(self) -> None:
        if self.running or self.preview is None:
            return
        if self.preview.waiting and not self.carry_asked:  # ask first: they would carry over unresolved
            self.carry_asked = True
            self.query_one("#preview", Static).update(preview_content(self.preview, carry_asked=True))
            button = self.query_one("#confirm", Button)
            button.label = carry_label(self.preview, asked=True)
            button.refresh(layout=True)
            return
        self.running = True
        self.query_one("#confirm", Button).disabled = True
        self.query_one("#close", Button).disabled = True
        progress = self.query_one("#progress", ProgressBar)
        progress.display = True
        progress.update(total=len(self.preview.steps) + 2, progress=0)
        self._advance()

    @work(thread=True, exclusive=True, group="advance", exit_on_error=False)
    def _advance(self) -> None:
        progress = self.query_one("#progress", ProgressBar)
        self.app.call_from_thread(progress.advance, 1)
        previewed = self.preview.source if self.preview else None
        try:
            # Only the season the GM saw, carrying its waiting orders only if he said so.
            outcome = self.yak.execute_advance(expected=previewed, carry=self.carry_asked)
        except Exception as error:
            self.post_message(self.Advanced(None, problem_of(error)))
            return
        self.post_message(self.Advanced(views.advance_preview(outcome.result.data, outcome.world)))

    @on(Advanced)
    def _advanced(self, event: Advanced) -> None:
        self.running = False
        close = self.query_one("#close", Button)
        close.disabled = False
        close.label = "Close"
        if event.preview is None:
            problem = event.problem.message() if event.problem else "the season did not close"
            self.query_one("#preview", Static).update(Content.styled(problem, "bold $error"))
            self.notify(problem, title="Refused", severity="error")
            close.focus()
            return
        done = event.preview
        self.query_one("#dialog-title", Static).update(Content.styled(f"{done.target} begins", "bold"))
        self.query_one("#dialog-help", Static).update(
            "The season is closed; every step wrote its sums to the chronicle."
        )
        self._tick(done, 0)
        close.focus()

    def _tick(self, done: views.AdvancePreview, index: int) -> None:
        """Tick the steps off one by one (at once without animations)."""
        progress = self.query_one("#progress", ProgressBar)
        if not self.yak.animate_dice or not done.steps:
            self.query_one("#preview", Static).update(preview_content(done, len(done.steps)))
            progress.update(progress=progress.total or 1)
            return
        self.query_one("#preview", Static).update(preview_content(done, index))
        progress.advance(1)
        if index < len(done.steps):
            self.set_timer(0.08, lambda: self._tick(done, index + 1))
        else:
            progress.update(progress=progress.total or 1)

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        if not self.running:
            self.dismiss(None)


def last_advance_backup(backups: list[Path], date: GameDate) -> Path | None:
    """The backup the advance into `date` took: the newest one labelled with the season before it
    (an advance backs up the season it closes, under that season's key)."""
    closed = date.plus(-1).key()
    taken = [path for path in backups if path.stem.split("--")[1] == closed]
    return taken[-1] if taken else None


class UndoAdvanceScreen(YakModal[None]):
    """Undo a wrong advance: confirm, then put back the backup that advance took (the store's
    restore, which keeps the replaced file as `<save>.before-restore`)."""

    CSS_PATH = DIALOGS_TCSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]

    class Restored(Message):
        def __init__(self, name: str, problem: str = "") -> None:
            super().__init__()
            self.name = name
            self.problem = problem

    def __init__(self, backup: Path | None = None, season: str = "") -> None:
        """`backup` and its `season`: roll back to an earlier season (the history view's pick);
        by default the backup the last advance took."""
        super().__init__()
        self.chosen = (backup, season) if backup is not None and season else None
        self.backup: Path | None = None
        self.closed = ""  # the label of the season the advance closed

    def compose(self) -> ComposeResult:
        date = self.yak.world.date
        if self.chosen is not None:
            self.backup, closed = self.chosen[0], GameDate.parse(self.chosen[1])
        else:
            self.backup, closed = last_advance_backup(self.yak.save.backups(), date), date.plus(-1)
        self.closed = closed.label()
        advances = closed.seasons_until(date)
        lost = ", ".join(closed.plus(step).label() for step in range(1, advances + 1))
        title = "Undo the last advance" if advances == 1 else f"Roll back {advances} advances, to {self.closed}"
        with Vertical(id="dialog", classes="dialog"):
            yield Static(Content.styled(title, "bold"), id="dialog-title")
            with VerticalScroll(id="dialog-body"):
                if self.backup is None or advances < 1:
                    text = Content.styled(
                        f"No backup of {self.closed} is kept: there is no advance to undo here.", "$warning"
                    )
                    self.backup = None
                else:
                    text = Content.assemble(
                        "Put the world back as it was before ",
                        (self.closed, "bold"),
                        " closed. ",
                        ("Everything done since, in ", "$warning"),
                        (lost, "bold $warning"),
                        (", is lost", "$warning"),
                        f" (the file replaced is kept beside the save as {self.yak.save.path.name}.before-restore).",
                    )
                yield Static(text, id="undo-advance-text")
                yield Static("", id="problem", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button(
                    "Restore the backup", id="restore", variant="error", compact=True, disabled=self.backup is None
                )
                yield Button("Cancel", id="close", compact=True)
        yield KeyBar()

    def on_mount(self) -> None:
        self.query_one("#close", Button).focus()  # the safe choice first: restoring loses a season's work

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)

    @on(Button.Pressed, "#restore")
    def _restore_pressed(self) -> None:
        if not self.yak.identity.is_gm:  # reached some other way: a restore is the GM's alone
            self.post_message(self.Restored("", "Only the GM may undo an advance."))
            return
        if self.backup is not None:
            self.query_one("#restore", Button).disabled = True
            self._restore(self.backup.name)

    @work(thread=True, exclusive=True, group="restore", exit_on_error=False)
    def _restore(self, name: str) -> None:
        from yak_tui.kernel.season.session import restore_backup

        try:  # a public event: the chronicle and the dice ledger name what it rolled back
            restore_backup(self.yak.save, name, self.yak.identity)
        except Exception as error:
            self.post_message(self.Restored(name, str(error)))
            return
        self.post_message(self.Restored(name))

    @on(Restored)
    def _restored(self, event: Restored) -> None:
        if event.problem:
            problem = self.query_one("#problem", Static)
            problem.update(event.problem)
            problem.add_class("-shown")
            return
        self.yak.reload_world()
        self.yak.notify(f"Restored the world as it was before {self.closed} closed.")
        self.dismiss(None)
