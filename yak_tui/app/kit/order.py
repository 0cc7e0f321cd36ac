"""File an order: a player (or King) picks a command for his own holdings, fills its parameters
(validated as typed, as its adjudicator would carry it out), and it waits in that adjudicator's
queue. Privacy is not the filer's choice: an NPC espionage mission is always private, every other
order public (RULINGS §1, `kernel.play.filing.is_private`); the dialog says which under the command.
"""

from __future__ import annotations

from functools import partial
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Input, Label, Select, Static

from yak_tui.app.kit import YakModal
from yak_tui.app.kit.common import YakInput
from yak_tui.app.kit.keybar import KeyBar
from yak_tui.app.kit.paramform import ParamForm
from yak_tui.app.kit.select import YakSelect
from yak_tui.app.kit.styles import DIALOGS_TCSS
from yak_tui.app.kit.worker import CommandWorker
from yak_tui.kernel.play import views
from yak_tui.kernel.play.commands import spec_for
from yak_tui.kernel.play.filing import is_private
from yak_tui.kernel.play.identity import identity_label

PRIVATE_TEXT = "Private: only you, your adjudicator and the GM read it."
PUBLIC_TEXT = "Public: every seat reads this order."


def audience_line(name: str) -> str:
    """Who reads an order of `name` once filed ("" before a command is chosen): the kernel decides."""
    return (PRIVATE_TEXT if is_private(spec_for(name)) else PUBLIC_TEXT) if name else ""


class OrderScreen(YakModal[None]):
    CSS_PATH = DIALOGS_TCSS
    AUTO_FOCUS = ""  # its own first field (on_mount): the keys typed meanwhile wait for it (`hold_key`)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("ctrl+s", "file", "File order"),
    ]

    class Filed(Message):
        def __init__(self, data: dict[str, Any] | None, problem: views.Problem | None = None) -> None:
            super().__init__()
            self.data = data
            self.problem = problem

    def __init__(self, command: str | None = None, holding: tuple[str, str] | None = None) -> None:
        super().__init__()
        self.initial = command
        self.holding = holding
        self.problem: views.Problem | None = None
        self._checker: CommandWorker[views.Problem | None] = CommandWorker(self, "validate", self._checked)
        self._form_for = ""  # the command the form below was built for
        self.busy = False

    def compose(self) -> ComposeResult:
        world, identity = self.yak.world, self.yak.identity
        self.choices = {c.name: c for c in views.order_commands(world, identity)}
        holding = ""
        if self.holding:
            holding = f" · for {world.display_name(self.holding[0], self.holding[1])}"
        with Vertical(id="dialog", classes="dialog"):
            yield Static(Content.styled(f"File an order{holding}", "bold"), id="dialog-title")
            yield Static(
                f"As {identity_label(world, identity)}. It waits for its adjudicator, who resolves "
                "it with dice or rejects it with a reason.",
                id="dialog-help",
            )
            with VerticalScroll(id="dialog-body"):
                with Horizontal(classes="field"):
                    yield Label("command", classes="field-label -required")
                    yield YakSelect(
                        [(f"{c.name} — {c.category}", c.name) for c in self.choices.values()],
                        id="order-command",
                        prompt="(choose a command)",
                        compact=True,
                        value=self.initial if self.initial in self.choices else Select.NULL,
                    )
                # Who reads it, right under the command: the kernel's rule, not the filer's choice.
                audience = Static("", id="order-audience", markup=False)
                audience.display = False  # until a command is chosen (`_show_form`)
                yield audience
                yield Static("", id="command-help", markup=False)
                # The preset command's form is there from the start: the focus goes to its first
                # empty field at once, so a key typed as the dialog opens is not lost.
                with Vertical(id="order-form"):
                    if self.initial and self.initial in self.choices:
                        self._form_for = self.initial
                        yield self._form(self.initial)
                with Horizontal(classes="field"):
                    yield Label("note", classes="field-label")
                    yield YakInput(placeholder="a word for the adjudicator (optional)", id="order-note", compact=True)
                yield Static("", id="problem", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button("File order", id="file", variant="primary", disabled=True, compact=True)
                yield Button("Close", id="close", compact=True)
        yield KeyBar()  # the keys of this dialog, where the screen behind showed its own

    def on_mount(self) -> None:
        forms = self.query(ParamForm)
        self._describe(self._form_for)
        if forms:
            forms.first().focus_first(empty=True)
            self._validate()
        else:  # nothing to check yet: no scolding before a command is chosen
            self.query_one("#order-command", Select).focus()

    @on(Select.Changed, "#order-command")
    async def _command_changed(self, event: Select.Changed) -> None:
        """Rebuild only for another command (the Select also reports its first value as it mounts)."""
        event.stop()
        name = "" if event.value is Select.NULL else str(event.value)
        if name != self._form_for:
            await self._show_form(name)

    def _describe(self, name: str) -> None:
        """The command's help and who reads its order, under the command."""
        choice = self.choices.get(name)
        self.query_one("#command-help", Static).update(choice.help if choice else "")
        audience = self.query_one("#order-audience", Static)
        audience.update(audience_line(name) if choice else "")
        audience.display = choice is not None
        audience.set_class(choice is not None and is_private(spec_for(name)), "-private")

    def _form(self, name: str) -> ParamForm:
        """The command's fields, the holding the order is for already chosen."""
        choice = self.choices[name]
        preset: dict[str, Any] = {}
        if self.holding:
            for field in choice.fields:
                if any(c.value == self.holding[1] for c in field.options):
                    preset[field.name] = self.holding[1]
                    break
        return ParamForm(choice.fields, preset, id="form")

    async def _show_form(self, name: str) -> None:
        self._form_for = name
        holder = self.query_one("#order-form", Vertical)
        await holder.remove_children()
        self._describe(name)
        if name in self.choices:
            await holder.mount(self._form(name))
        self._validate()

    @on(ParamForm.Changed)
    @on(Input.Changed, "#order-note")
    def _changed(self, event: Message) -> None:
        event.stop()
        self._validate()

    def _command(self) -> str:
        value = self.query_one("#order-command", Select).value
        return "" if value is Select.NULL else str(value)

    def _values(self) -> dict[str, Any]:
        forms = self.query(ParamForm)
        return forms.first().values() if forms else {}

    def _validate(self) -> None:
        name = self._command()
        if not name:
            self._checker.cancel()
            self._apply(views.Problem("command", "choose the command to be carried out"))
            return
        # private=False: the filer does not choose; the kernel files an espionage mission privately.
        self._checker.start(partial(views.check_order, self.yak.world, self.yak.identity, name, self._values(), False))

    def _checked(self, problem: views.Problem | None) -> None:
        if not self.busy:
            self._apply(problem)

    def _apply(self, problem: views.Problem | None) -> None:
        self.problem = problem
        forms = self.query(ParamForm)
        taken = forms.first().show_problem(problem) if forms else False
        text = ""
        if problem is not None and (not taken or problem.who_may):
            text = problem.message()
        widget = self.query_one("#problem", Static)
        widget.update(text)
        widget.set_class(bool(text), "-shown")
        self.query_one("#file", Button).disabled = problem is not None

    @on(Button.Pressed, "#file")
    def action_file(self) -> None:
        if self.busy or self.problem is not None or not self._command():
            return
        self.busy = True
        self.query_one("#file", Button).disabled = True
        params = views.order_file_params(
            self._command(), self._values(), False, self.query_one("#order-note", Input).value.strip()
        )
        self._file(params)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_file()

    @work(thread=True, exclusive=True, group="file", exit_on_error=False)
    def _file(self, params: dict[str, Any]) -> None:
        try:
            outcome = self.yak.execute("order-file", params)
        except Exception as error:
            self.post_message(self.Filed(None, views.problem_of(error)))
            return
        self.post_message(self.Filed(outcome.result.data))

    @on(Filed)
    def _filed(self, event: Filed) -> None:
        self.busy = False
        if event.data is None:
            self._apply(event.problem)
            if event.problem:
                self.notify(event.problem.message(), title="Refused", severity="error")
            return
        self.notify(views.order_filed_text(self.yak.world, event.data), title="Order filed")
        self.dismiss(None)

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)
