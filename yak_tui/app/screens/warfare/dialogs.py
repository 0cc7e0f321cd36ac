"""The siege monitor's dialogs: beginning a siege (pick a walled fort and the units camped by it,
see the blockade and provisions it would start with, and why it would be refused) and the
starving defenders' choice to surrender or sally (`SiegeDecisionScreen`)."""

from __future__ import annotations

from functools import partial
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Label, Select, SelectionList, Static

from yak_tui.app.kit import YakModal
from yak_tui.app.kit.common import num, num_of
from yak_tui.app.kit.focus import focus_after_layout
from yak_tui.app.kit.styles import DIALOGS_TCSS
from yak_tui.app.kit.worker import CommandWorker
from yak_tui.areas import warfare as monitor

if TYPE_CHECKING:
    from yak_tui.kernel.play.identity import Identity
    from yak_tui.kernel.world.model import World

DIALOG_CSS: list[str | PurePath] = [DIALOGS_TCSS, Path(__file__).with_name("sieges.tcss")]


# --- beginning a siege ------------------------------------------------------------------------------------


class SiegeBeginScreen(YakModal[None]):
    """Pick a walled fort and the units camped at or next to it; see the blockade and provisions the
    siege would start with, and why it would be refused, before beginning it."""

    CSS_PATH = DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("ctrl+r", "begin", "Begin siege", show=False),
    ]

    class Done(Message):
        def __init__(self, lines: tuple[str, ...], problem: Any) -> None:
            super().__init__()
            self.lines = lines
            self.problem = problem

    def __init__(self, fort: str = "") -> None:
        super().__init__()
        self.fort = fort
        self.problem: Any = None
        self.running = False
        self._checker: CommandWorker[tuple[monitor.SiegePlan | None, Any]] = CommandWorker(
            self, "validate", self._checked
        )
        self._units_for: str | None = None  # the fort the unit list was filled for

    def compose(self) -> ComposeResult:
        view = monitor.siege_monitor(self.yak.world, self.yak.identity)
        forts = [f for f in view.forts if not f.siege]
        known = {f.id for f in forts}
        options = [
            (f"{f.name} — {f.level} {f.level_name}, {f.controller}" + (", open port" if f.port_access else ""), f.id)
            for f in forts
        ]
        with Vertical(id="dialog", classes="dialog"):
            yield Static(Content.styled("Begin a siege", "bold"), id="dialog-title")
            yield Static(
                "Pick a walled fort and the units camped at or next to it: ships blockade by sea, every "
                "other unit by land.",
                id="dialog-help",
            )
            with VerticalScroll(id="dialog-body"):
                with Horizontal(classes="field"):
                    yield Label("fort", classes="field-label -required")
                    yield Select(
                        options,
                        id="begin-fort",
                        prompt="(choose a walled fort)",
                        compact=True,
                        value=self.fort if self.fort in known else Select.NULL,
                    )
                yield Label("Units in reach", classes="section")
                yield SelectionList[str](id="begin-units", compact=True)
                yield Static("", id="begin-plan")
                yield Static("", id="problem", markup=False)
                yield Static("", id="result-lines", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button("Begin siege", id="begin", variant="primary", disabled=True, compact=True)
                yield Button("Close", id="close", compact=True)

    def on_mount(self) -> None:
        self.query_one("#result-lines").display = False
        self._fill_units()
        select = self.query_one("#begin-fort", Select)
        units = self.query_one("#begin-units", SelectionList)
        # The unit list is hidden when no unit is in reach: the keys then go to the fort choice.
        if select.value is not Select.NULL and units.display:
            units.focus()
        else:
            select.focus()

    def _fort(self) -> str:
        value = self.query_one("#begin-fort", Select).value
        return "" if value is Select.NULL else str(value)

    def _units(self) -> list[str]:
        return [str(v) for v in self.query_one("#begin-units", SelectionList).selected]

    def _fill_units(self) -> None:
        units = self.query_one("#begin-units", SelectionList)
        units.clear_options()
        fort = self._fort()
        self._units_for = fort
        forces = monitor.siege_forces(self.yak.world, self.yak.identity, fort) if fort else ()
        # Tick every free unit when they are all one kingdom's; a GM picks the side himself otherwise.
        one_side = len({f.owner_id for f in forces}) == 1
        for force in forces:
            strength = f", {force.regiments} reg." if force.regiments is not None else ""
            where = "in the hex" if force.distance == 0 else f"{force.distance} hex away"
            busy = f" — besieging {force.busy}" if force.busy else ""
            label = Content.assemble(
                (force.name, "bold"),
                f" · {force.owner} {force.kind}{strength} · ",
                ("sea" if force.sea else "land", "$accent"),
                f" · {where}{busy}",
            )
            units.add_option((label, force.id, one_side and not force.busy))
        units.display = bool(forces)
        if not forces and units.has_focus:
            self.query_one("#begin-fort", Select).focus()
        if fort and not forces:
            self.query_one("#begin-plan", Static).update(
                Content.styled("None of your units is camped at or next to this fort.", "italic $warning")
            )
        self._check()

    @on(Select.Changed, "#begin-fort")
    def _fort_changed(self, event: Select.Changed) -> None:
        """Refill only for another fort: the Select also reports its first value as it mounts, and a
        refill then would untick the units already chosen."""
        event.stop()
        if self._fort() != self._units_for:
            self._fill_units()

    @on(SelectionList.SelectedChanged, "#begin-units")
    def _units_changed(self, event: SelectionList.SelectedChanged[str]) -> None:
        event.stop()
        self._check()

    def _check(self) -> None:
        self.query_one("#begin", Button).disabled = True
        fort, units = self._fort(), self._units()
        if not fort:
            self._checker.cancel()
            self._show(None, None)
            return
        self._checker.start(partial(self._validate, self.yak.world, self.yak.identity, fort, units))

    @staticmethod
    def _validate(
        world: World, identity: Identity, fort: str, units: list[str]
    ) -> tuple[monitor.SiegePlan | None, Any]:
        """(In the validation worker.) The plan the siege would start with, and why it would be refused."""
        from yak_tui.kernel.play import views

        problem = views.check_command(world, identity, "siege-begin", {"fort": fort, "units": ",".join(units)})
        return monitor.siege_plan(world, identity, fort, units), problem

    def _checked(self, checked: tuple[monitor.SiegePlan | None, Any]) -> None:
        if not self.running:
            self._show(*checked)

    def _show(self, plan: monitor.SiegePlan | None, problem: Any) -> None:
        self.problem = problem
        if plan is not None:
            mark = ("✓", "$success")
            lines = [
                Content.assemble(("Besieger   ", "$foreground-muted"), (plan.besieger, "bold")),
                Content.assemble(
                    ("Blockade   ", "$foreground-muted"),
                    "land ",
                    ("✓", "$success") if plan.land else ("✗", "$error"),
                    "  sea ",
                    ("✓", "$success") if plan.sea else ("✗", "$error"),
                    "  (open port: both needed)" if plan.port_access else "  (no open port: land suffices)",
                ),
                Content.assemble(
                    ("           ", ""),
                    (mark[0] + " takes effect at once", mark[1])
                    if plan.effective
                    else (f"✗ not yet in effect: {plan.missing}", "$warning"),
                ),
                Content.assemble(
                    ("Provisions ", "$foreground-muted"),
                    (num(plan.provisions), "bold"),
                    f" for {num_of(plan.regiments, 'regiment')} inside: ",
                    (
                        "nobody eats"
                        if plan.seasons_left is None
                        else f"{num_of(plan.seasons_left, 'season')} before they run short",
                        "bold",
                    ),
                ),
            ]
            self.query_one("#begin-plan", Static).update(Content("\n").join(lines))
        elif self._fort() and self.query_one("#begin-units", SelectionList).option_count:
            self.query_one("#begin-plan", Static).update(
                Content.styled("Tick the besieging units (space).", "italic $foreground-muted")
            )
        widget = self.query_one("#problem", Static)
        text = problem.message() if problem is not None and self._units() else ""
        widget.update(text)
        widget.set_class(bool(text), "-shown")
        self.query_one("#begin", Button).disabled = problem is not None or not self._units()

    @on(Button.Pressed, "#begin")
    def action_begin(self) -> None:
        if self.running or self.query_one("#begin", Button).disabled:
            return
        self.running = True
        self.query_one("#begin", Button).disabled = True
        self._run(self._fort(), self._units())

    @work(thread=True, exclusive=True, group="run", exit_on_error=False)
    def _run(self, fort: str, units: list[str]) -> None:
        from yak_tui.kernel.play import views

        try:
            outcome = self.yak.execute("siege-begin", {"fort": fort, "units": ",".join(units)})
        except Exception as error:
            self.post_message(self.Done((), views.problem_of(error)))
            return
        self.post_message(self.Done(views.result_lines(outcome.world, self.yak.identity, outcome.result.entries), None))

    @on(Done)
    def _done(self, event: Done) -> None:
        self.running = False
        if event.problem is not None:
            self._show(None, event.problem)
            self.notify(event.problem.message(), title="Refused", severity="error")
            return
        self.query_one("#begin").display = False
        for widget in ("#begin-fort", "#begin-units", "#begin-plan"):
            self.query_one(widget).disabled = True
        lines = self.query_one("#result-lines", Static)
        lines.update("\n".join(event.lines))
        lines.display = True
        focus_after_layout(self.query_one("#close", Button))

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        if not self.running:
            self.dismiss(None)


# --- the defenders' choice ----------------------------------------------------------------------------------


class SiegeDecisionScreen(YakModal[None]):
    """Short of provisions, the defenders surrender or sally: the season cannot close until they do."""

    CSS_PATH = DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Later")]

    class Done(Message):
        def __init__(self, lines: tuple[str, ...], problem: Any) -> None:
            super().__init__()
            self.lines = lines
            self.problem = problem

    def __init__(self, card: monitor.SiegeCard, date: str) -> None:
        super().__init__()
        self.card = card
        self.date = date
        self.running = False
        self.recorded = False

    def compose(self) -> ComposeResult:
        card = self.card
        garrison = ", ".join(d.name for d in card.defenders) or f"{num_of(card.regiments, 'regiment')}"
        text = Content("\n").join(
            [
                Content.assemble(
                    "The defenders of ",
                    (card.fort, "bold"),
                    " will end ",
                    (self.date or "this season", "bold"),
                    " short of provisions: ",
                    (f"{num(card.provisions)} left", "bold $error"),
                    f" for {num_of(card.regiments, 'regiment')}, who need {num(card.eats)}.",
                ),
                Content.assemble(
                    ("The season cannot close until ", "$foreground-muted"),
                    (card.defender, "bold"),
                    (" chooses.", "$foreground-muted"),
                ),
                Content(""),
                Content.assemble(
                    ("Surrender  ", "bold $error"),
                    f"{card.fort} and its garrison ({garrison}) go to ",
                    (card.besieger, "bold"),
                    ".",
                ),
                Content.assemble(
                    ("Sally      ", "bold $warning"),
                    "the garrison attacks the besiegers; the GM plays out "
                    "the battle, then records capture or siege-lift.",
                ),
            ]
        )
        with Vertical(id="dialog", classes="dialog decision"):
            yield Static(Content.styled(f"⚠ {card.fort}: surrender or sally?", "bold $error"), id="dialog-title")
            with VerticalScroll(id="dialog-body"):
                yield Static(text, id="decision-text")
                yield Static("", id="problem", markup=False)
                yield Static("", id="result-lines", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button("Surrender", id="surrender", variant="error", compact=True)
                yield Button("Sally", id="sally", variant="warning", compact=True)
                yield Button("Later", id="close", compact=True)

    def on_mount(self) -> None:
        self.query_one("#result-lines").display = False
        self.query_one("#sally", Button).focus()

    @on(Button.Pressed, "#surrender, #sally")
    def _choose(self, event: Button.Pressed) -> None:
        if self.running or self.recorded:
            return
        self.running = True
        for button in ("#surrender", "#sally"):
            self.query_one(button, Button).disabled = True
        self._record(str(event.button.id))

    @work(thread=True, exclusive=True, group="decide", exit_on_error=False)
    def _record(self, choice: str) -> None:
        from yak_tui.kernel.play import views

        try:
            outcome = self.yak.execute("siege-decide", {"fort": self.card.fort_id, "choice": choice})
        except Exception as error:
            self.post_message(self.Done((), views.problem_of(error)))
            return
        self.post_message(self.Done(views.result_lines(outcome.world, self.yak.identity, outcome.result.entries), None))

    @on(Done)
    def _done(self, event: Done) -> None:
        self.running = False
        problem = self.query_one("#problem", Static)
        if event.problem is not None:
            for button in ("#surrender", "#sally"):
                self.query_one(button, Button).disabled = False
            problem.update(event.problem.message())
            problem.set_class(True, "-shown")
            self.notify(event.problem.message(), title="Refused", severity="error")
            return
        self.recorded = True
        problem.set_class(False, "-shown")
        self.query_one("#dialog-title", Static).update(
            Content.styled(f"✓ {self.card.fort}: the choice is recorded", "bold $success")
        )
        for button in ("#surrender", "#sally"):
            self.query_one(button).display = False
        lines = self.query_one("#result-lines", Static)
        lines.update("\n".join(event.lines) or "Recorded.")
        lines.display = True
        close = self.query_one("#close", Button)
        close.label = "Close"
        close.focus()
        self.notify("The defenders' choice is recorded: the season may close.", title="Recorded")

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        if not self.running:
            self.dismiss(None)
