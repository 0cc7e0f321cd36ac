"""The command dialog: any registered command as a form, with exact odds before rolling,
dice by hand for a hotseat table, the dice animation, and the chronicle lines it wrote.

Rule screens reuse it for their actions: `app.open_command("name", preset={...}, hidden=(...))`.
Everything is validated as it is typed (on a throwaway copy of the world, in a worker); a
refusal says which field is wrong, why, and who may do it instead.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Input, Label, Static, Switch

from yak_tui.app.kit import YakModal
from yak_tui.app.kit.common import YakInput
from yak_tui.app.kit.dice import DiceTray
from yak_tui.app.kit.focus import focus_after_layout
from yak_tui.app.kit.keybar import KeyBar
from yak_tui.app.kit.odds import odds_content
from yak_tui.app.kit.paramform import ParamForm
from yak_tui.app.kit.styles import DIALOGS_TCSS
from yak_tui.app.kit.toggle import Toggle
from yak_tui.app.kit.worker import CommandWorker
from yak_tui.kernel.play import views

if TYPE_CHECKING:
    from yak_tui.kernel.play.identity import Identity
    from yak_tui.kernel.world.model import World


ONCE_ONLY = ("order-", "season-deadline", "undo")
"""Commands (or prefixes) whose result offers no "Again": a resolved, rejected or withdrawn order
cannot be acted on twice, a deadline set is read back by pressing t again, and undo undoes once."""


def may_repeat(command: str) -> bool:
    return not any(command == once or (once.endswith("-") and command.startswith(once)) for once in ONCE_ONLY)


class CommandScreen(YakModal[None]):
    CSS_PATH = DIALOGS_TCSS
    AUTO_FOCUS = ""  # its own first field (on_mount): the keys typed meanwhile wait for it (`hold_key`)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("ctrl+r", "run", "Run / roll"),
        Binding("ctrl+y", "copy", "Copy result"),
    ]

    class Validated(NamedTuple):
        """What the newest validation found: the problem, the odds, and what is wrong with the hand dice."""

        problem: views.Problem | None
        odds: views.OddsView | None
        dice: str | None

    class Ran(Message):
        def __init__(self, rolls: tuple[views.RollView, ...], lines: tuple[str, ...], data: dict[str, Any]) -> None:
            super().__init__()
            self.rolls = rolls
            self.lines = lines
            self.data = data

    class Refused(Message):
        def __init__(self, problem: views.Problem) -> None:
            super().__init__()
            self.problem = problem

    def __init__(
        self,
        command: str,
        preset: dict[str, Any] | None = None,
        hidden: Iterable[str] = (),
        title: str | None = None,
        intro: str = "",
    ) -> None:
        super().__init__()
        self.command = command
        self.preset = dict(preset or {})
        self.hidden = tuple(hidden)
        self.title_text = title or f"Command: {command}"
        self.intro = intro
        self.problem: views.Problem | None = None
        self.running = False
        self.result_text = ""
        # Validations finish out of order; only the newest one is shown.
        self._checker: CommandWorker[CommandScreen.Validated] = CommandWorker(self, "validate", self._validated)
        self._run_when_checked = False  # enter came while the last keystroke was being validated
        self.dice_problem: str | None = None
        self._holding = False

    def compose(self) -> ComposeResult:
        world = self.yak.world
        try:
            choice = views.command_choice(world, self.yak.identity, self.command)
        except Exception as error:
            choice = None
            self.problem = views.problem_of(error)
        self.choice = choice
        with Vertical(id="dialog", classes="dialog"):
            yield Static(Content.styled(self.title_text, "bold"), id="dialog-title")
            help_text = self.intro or (choice.help if choice else "")
            if choice and self.intro:
                help_text = f"{self.intro}\n{choice.help}"
            yield Static(help_text, id="dialog-help", markup=False)
            with VerticalScroll(id="dialog-body"):
                with Vertical(id="form-part"):
                    if choice is not None:
                        yield ParamForm(choice.fields, self.preset, self.hidden, id="form")
                    if self._rolls:
                        # A command with no die (a battle) shows what bears on it before it runs.
                        yield Label("Odds before rolling" if self._dice else "Before you run", classes="section")
                        yield Static(id="odds")
                        with Horizontal(id="hand-row"):
                            yield Label("Dice by hand", id="by-hand-label")
                            yield Toggle(value=self._dice and self.yak.dice_by_hand, id="by-hand")
                            yield YakInput(placeholder="naturals, e.g. 4 or 4,2", id="naturals", compact=True)
                        yield Static("", id="naturals-error", markup=False)
                yield Static("", id="problem", markup=False)
                yield DiceTray(id="tray")
                yield Static("", id="result-lines", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button("Roll" if self._dice else "Run", id="run", variant="primary", compact=True)
                yield Button("Copy result", id="copy", compact=True)
                yield Button("Again", id="again", compact=True)
                yield Button("Close", id="close", compact=True)
        yield KeyBar()  # the keys of this dialog, where the screen behind showed its own

    @property
    def _rolls(self) -> bool:
        return bool(self.choice and (self.choice.rolls or self.choice.has_odds))

    @property
    def _dice(self) -> bool:
        """It rolls dice (the hand-dice row). A battle rolls none: the GM plays it out and enters the
        winner; its "odds" are the modifiers that bear on it."""
        return self._rolls and self.command != "battle"

    def on_mount(self) -> None:
        self.query_one("#tray").display = False
        self.query_one("#result-lines").display = False
        self.query_one("#copy").display = False
        self.query_one("#again").display = False
        if self._rolls:
            self.query_one("#hand-row").display = self._dice
            self._sync_hand()
        if self.problem is not None:
            self._show_problem(self.problem)
        self._validate()
        form = self.query("#form")
        if form:
            self.query_one(ParamForm).focus_first()
        else:
            self.query_one("#run", Button).focus()

    # -- validation as you type -------------------------------------------------------------------
    def odds_words_for(self) -> tuple[str, dict[str, Any]]:
        """The command and values its odds are worded for (`kernel.play.outcomes`): this form's."""
        return self.command, self._values()

    def _values(self) -> dict[str, Any]:
        forms = self.query(ParamForm)
        return forms.first().values() if forms else dict(self.preset)

    def _naturals(self) -> tuple[list[int] | None, str | None]:
        if not self._rolls or not self.query_one("#by-hand", Switch).value:
            return None, None
        naturals, error = views.parse_naturals(self.query_one("#naturals", Input).value)
        return (naturals or None), error

    def _sync_hand(self) -> None:
        by_hand = self.query_one("#by-hand", Switch).value
        self.query_one("#naturals").display = by_hand
        self.query_one("#naturals-error").display = by_hand

    @on(ParamForm.Changed)
    @on(Input.Changed, "#naturals")
    def _changed(self) -> None:
        self._validate()

    @on(Switch.Changed, "#by-hand")
    def _hand_changed(self, event: Switch.Changed) -> None:
        self._sync_hand()
        if event.value:
            self.query_one("#naturals", Input).focus()
        self._validate()

    def _validate(self) -> None:
        if self.choice is None:
            return
        naturals, error = self._naturals()
        if self._rolls:
            self.query_one("#naturals-error", Static).update(error or "")
        self._checker.start(partial(self._check, self.yak.world, self.yak.identity, self._values(), naturals))

    def _check(
        self, world: World, identity: Identity, values: dict[str, Any], naturals: list[int] | None
    ) -> CommandScreen.Validated:
        """(In the validation worker.)"""
        try:
            problem = views.check_command(world, identity, self.command, values)
            odds = self._odds(world, identity, values) if self._rolls else None
            dice = None
            if problem is None and naturals:
                dice = views.check_hand_dice(world, identity, self.command, values, naturals)
        except Exception as error:  # every check must answer: a run may be waiting for it
            return self.Validated(views.problem_of(error), None, None)
        return self.Validated(problem, odds, dice)

    def _odds(self, world: World, identity: Identity, values: dict[str, Any]) -> views.OddsView | None:
        """The odds shown before rolling (in the validation worker)."""
        return views.command_odds(world, identity, self.command, values)

    def _validated(self, event: Validated) -> None:
        if self.running:
            return
        self.problem = event.problem
        self.dice_problem = event.dice
        self._show_problem(event.problem)
        if self._rolls:
            odds = self.query_one("#odds", Static)
            odds.update(odds_content(event.odds, odds.size.width or 76, *self.odds_words_for()))
            if event.dice:
                self.query_one("#naturals-error", Static).update(event.dice)
        self._update_run()
        if self._run_when_checked:
            self._run_when_checked = False
            self.action_run()

    def _show_problem(self, problem: views.Problem | None, force: bool = False) -> None:
        forms = self.query(ParamForm)
        taken = forms.first().show_problem(problem, force) if forms else False
        text = ""
        if problem is not None:
            text = problem.reason if taken else problem.what()
            if problem.who_may:
                text += f"\nWho may: {problem.who_may_words()}"
            if taken and not problem.who_may:
                text = ""
        widget = self.query_one("#problem", Static)
        widget.update(text)
        widget.set_class(bool(text), "-shown")

    def _update_run(self) -> None:
        naturals, error = self._naturals()
        by_hand = self._rolls and self.query_one("#by-hand", Switch).value
        blocked = self.problem is not None or (
            by_hand and (error is not None or not naturals or bool(self.dice_problem))
        )
        self.query_one("#run", Button).disabled = bool(blocked)

    # -- running ------------------------------------------------------------------------------------
    @on(Button.Pressed, "#run")
    def action_run(self) -> None:
        if not self.running and self._checker.pending:
            # What was just typed is still being checked: run (or say why not) once it is.
            self._run_when_checked = True
            return
        if self.running or self.query_one("#run", Button).disabled:
            if self.problem is not None:
                self._show_problem(self.problem, force=True)
                self.notify(self.problem.message(), title="Cannot run yet", severity="warning")
            return
        naturals, error = self._naturals()
        if error:
            self.notify(error, severity="warning")
            return
        self.running = True
        self.query_one("#run", Button).disabled = True
        if self._rolls and self.yak.animate_dice and not self._holding:
            self._holding = True  # the screens behind wait for the dice to land
            self.yak.hold_broadcast()
        self._execute(self._values(), naturals)

    def _release(self) -> None:
        if self._holding:
            self._holding = False
            self.yak.release_broadcast()

    def on_unmount(self) -> None:
        self._release()

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_run()

    @work(thread=True, exclusive=True, group="run", exit_on_error=False)
    def _execute(self, values: dict[str, Any], naturals: list[int] | None) -> None:
        from yak_tui.kernel.play.dice import HandDice

        dice = HandDice(naturals) if naturals else None  # None: the season's derived dice
        try:
            outcome = self.yak.execute(self.command, views.clean_params(values), dice)
        except Exception as error:
            self.post_message(self.Refused(views.problem_of(error)))
            return
        identity = self.yak.identity
        rolls = views.roll_views(outcome.world, identity, outcome.result.entries)
        lines = views.result_lines(outcome.world, identity, outcome.result.entries)
        self.post_message(self.Ran(rolls, lines, outcome.result.data))

    @on(Refused)
    def _refused(self, event: Refused) -> None:
        self.running = False
        self._release()
        self.problem = event.problem
        self._show_problem(event.problem)
        self._update_run()
        self.notify(event.problem.message(), title="Refused", severity="error")

    @on(Ran)
    def _ran(self, event: Ran) -> None:
        self.running = False
        self.query_one("#form-part").display = False
        self.query_one("#run").display = False
        self.query_one("#copy").display = True
        self.query_one("#again").display = may_repeat(self.command)
        text = list(event.lines) or [f"{self.command}: done"]
        self.result_text = "\n".join([*text, *(r.line for r in event.rolls)])
        lines = self.query_one("#result-lines", Static)
        lines.update("\n".join(text))
        tray = self.query_one("#tray", DiceTray)
        if event.rolls:
            # The chronicle line tells the result: it shows when the dice have landed, not before.
            tray.display = True
            tray.show(event.rolls, animate=self.yak.animate_dice)
        else:
            self._release()
            lines.display = True
            self._focus_close()

    @on(DiceTray.Landed)
    def _landed(self) -> None:
        self._release()
        self.query_one("#result-lines").display = True
        self._focus_close()

    def _focus_close(self) -> None:
        focus_after_layout(self.query_one("#close", Button))

    @on(Button.Pressed, "#again")
    def _again(self) -> None:
        self.query_one("#form-part").display = True
        self.query_one("#run").display = True
        self.query_one("#copy").display = False
        self.query_one("#again").display = False
        self.query_one("#tray").display = False
        self.query_one("#result-lines").display = False
        self._validate()
        forms = self.query(ParamForm)
        if forms:
            forms.first().focus_first()

    @on(Button.Pressed, "#copy")
    def action_copy(self) -> None:
        if self.result_text:
            self.app.copy_to_clipboard(self.result_text)
            self.notify("Result copied (OSC 52): paste it into the forum thread.", title="Copied")

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)
