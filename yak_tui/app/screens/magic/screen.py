"""Casting a spell (RULINGS §4): pick the mage and his power source, see what carries into his
Power roll and the odds of the whole casting, then watch Power, Control and Resolution land one
after another, each with its odds given the dice before it. Results and consequences go to the
chronicle (the consequences wait for the GM to describe them).

The casting itself is one `cast` command in one transaction. With the app's dice the screen runs
it at once and then reveals the stages in turn; with dice by hand the naturals are typed one
stage at a time, each stage shown (and the next one's odds computed) before the next die is
asked for, and the command runs when the spell is complete. A player or King who may not roll
it files it as an order instead. The data is `yak_tui.areas.magic.read`; no rules here.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Button, Input, Switch

from yak_tui.app.kit import YakScreen
from yak_tui.app.kit.dice import DiceTray
from yak_tui.app.kit.paramform import ParamForm
from yak_tui.app.kit.worker import CommandWorker
from yak_tui.app.screens.magic.panels import ChroniclePanel, OddsPanel, SetupPanel, StagePanel
from yak_tui.areas import magic as casting_views
from yak_tui.areas.magic import STAGES
from yak_tui.kernel.play import views

if TYPE_CHECKING:
    from yak_tui.kernel.play.identity import Identity
    from yak_tui.kernel.world.model import World

GM_ONLY = ("power_modifier", "control_modifier", "resolution_modifier", "reason")
NO_MAGE = "No mage you may see: a caster is a character of kind mage, or one with spell ranks."


class CastingScreen(YakScreen):
    """A pushed screen (key g, or the palette): escape goes back to where you were."""

    SCREEN_NAME = "casting"
    CSS_PATH = Path(__file__).with_name("casting.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        Binding("ctrl+r", "cast", "Cast"),
        Binding("ctrl+n", "again", "New casting"),
        Binding("ctrl+f", "describe", "Describe consequence"),
    ]

    ACTS = frozenset({"cast", "again", "describe"})  # never an observer's

    class Validated(NamedTuple):
        """What the newest validation found: the setup and its odds, the problem, and whether it files an order."""

        setup: casting_views.CastSetup
        problem: views.Problem | None
        order: bool

    class Cast(Message):
        """The casting was written: its rolls (stage order), the odds before each, the chronicle lines."""

        def __init__(
            self,
            rolls: tuple[views.RollView, ...],
            odds: tuple[tuple[tuple[str, float], ...], ...],
            lines: tuple[str, ...],
            pending: tuple[tuple[str, str], ...],
            by_hand: bool,
        ) -> None:
            super().__init__()
            self.rolls = rolls
            self.odds = odds
            self.lines = lines
            self.pending = pending
            self.by_hand = by_hand

    class Previewed(Message):
        """Dice by hand: the stages the naturals typed so far decide, and the next stage's odds."""

        def __init__(self, preview: casting_views.Preview, next_odds: tuple[tuple[str, float], ...]) -> None:
            super().__init__()
            self.preview = preview
            self.next_odds = next_odds

    class Failed(Message):
        def __init__(self, problem: views.Problem) -> None:
            super().__init__()
            self.problem = problem

    class Filed(Message):
        def __init__(self, data: dict[str, Any]) -> None:
            super().__init__()
            self.data = data

    # setup: the form; rolling: stages being revealed; done: the result is shown
    phase: reactive[str] = reactive("setup", init=False)

    def __init__(self, caster: str | None = None) -> None:
        super().__init__()
        self.caster = caster
        self.setup: casting_views.CastSetup | None = None
        self.problem: views.Problem | None = None
        self.as_order = False
        self._checker: CommandWorker[CastingScreen.Validated] = CommandWorker(self, "cast-validate", self._validated)
        self._cast_when_checked = False  # ctrl+r came while the last keystroke was being validated
        self.stage = 0  # the stage being revealed
        self.naturals: list[int] = []  # dice by hand, typed so far
        self._hand_rolls: list[views.RollView] = []  # their stages as previewed (totals with modifiers)
        self.rolls: tuple[views.RollView, ...] = ()
        self.stage_odds: list[tuple[tuple[str, float], ...]] = []
        self.pending: tuple[tuple[str, str], ...] = ()
        self.values: dict[str, Any] = {}
        self.by_hand = False
        self._hand_done = False
        self._next_odds: tuple[tuple[str, float], ...] = ()
        self._result_lines: tuple[str, ...] = ()
        self._consequences: tuple[str, ...] = ()
        self._composed_for: Identity | None = None  # whose mages the form lists

    # -- layout ---------------------------------------------------------------------------------------
    def compose_body(self) -> ComposeResult:
        world, identity = self.yak.world, self.identity
        self._composed_for = identity
        self.casters = casting_views.casters(world, identity)
        choice = views.command_choice(world, identity, "cast")
        ids = {c.id for c in self.casters}
        fields = []
        for field in choice.fields:
            if field.name == "caster":
                labels = {c.id: c.label for c in self.casters}
                field = field._replace(
                    options=tuple(views.Choice(c.value, labels[c.value]) for c in field.options if c.value in ids)
                )
            fields.append(field)
        preset: dict[str, Any] = {}
        if self.caster in ids or len(ids) == 1:
            preset["caster"] = self.caster if self.caster in ids else next(iter(ids))
        hidden: tuple[str, ...] = ()
        if not identity.is_gm:
            hidden = GM_ONLY
            preset.update({name: "0" for name in GM_ONLY[:3]})
        with VerticalScroll(id="cast-columns", classes="columns", can_focus=False):
            with VerticalScroll(id="cast-left", classes="column", can_focus=False):
                yield SetupPanel(fields, preset, hidden, self.yak.dice_by_hand)
                yield OddsPanel()
            with VerticalScroll(id="cast-right", classes="column", can_focus=False):
                for index in range(len(STAGES)):
                    yield StagePanel(index)
                yield ChroniclePanel()

    def on_mount(self) -> None:
        for panel in self.query(StagePanel):
            panel.clear()
        self.query_one("#cast-again").display = False
        self.query_one("#cast-chronicle").display = False
        self._waiting()
        if not self.casters:
            self.query_one(SetupPanel).show_problem(NO_MAGE)
        self.query_one(ParamForm).focus_first()
        self._validate()

    def refresh_view(self, world: World) -> None:
        if self.identity != self._composed_for:
            # The mages and fields were chosen for the previous identity: do not show them to this one.
            self.app.pop_screen()
            return
        if self.phase == "setup" and self.is_mounted:
            self._validate()
        elif self.phase == "done" and self.pending:
            # A consequence described meanwhile is no longer pending.
            self.pending = casting_views.pending_lines(world, self.identity, self._consequences)
            self._show_result()
            self.refresh_bindings()

    def _waiting(self) -> None:
        for index, stage in enumerate(STAGES[1:], start=1):
            before = casting_views.STAGE_TITLES[STAGES[index - 1]]
            self._stage(stage).note(f"Odds once {before} is known.", "")

    def _stage(self, stage: str) -> StagePanel:
        return self.query_one(f"#stage-{stage}", StagePanel)

    # -- setup: validation as you type ---------------------------------------------------------------
    def _form_values(self) -> dict[str, Any]:
        return self.query_one(ParamForm).values()

    @on(ParamForm.Changed)
    def _changed(self) -> None:
        if self.phase == "setup":
            self._validate()

    @on(Switch.Changed, "#cast-by-hand")
    def _hand_changed(self) -> None:
        self._update_button()

    def _validate(self) -> None:
        self._checker.start(partial(self._check, self.yak.world, self.identity, self._form_values()))

    def _check(self, world: World, identity: Identity, values: dict[str, Any]) -> CastingScreen.Validated:
        """(In the validation worker.)"""
        setup = casting_views.cast_setup(world, identity, values)
        route = views.command_route(world, identity, "cast", values)
        return self.Validated(setup, route.problem, route.as_order)

    def _validated(self, event: Validated) -> None:
        if self.phase != "setup":
            return
        self.setup = event.setup
        self.problem = event.problem
        self.as_order = event.order
        self._show_setup(event.setup)
        forms = self.query(ParamForm)
        taken = forms.first().show_problem(event.problem) if forms else False
        text = ""
        if event.problem is not None and (not taken or event.problem.who_may):
            text = event.problem.message() if not taken else f"Who may: {event.problem.who_may_words()}"
        if "required" in (event.problem.reason if event.problem else "") and not taken:
            text = ""
        if not self.casters:
            text = NO_MAGE
        self.query_one(SetupPanel).show_problem(text)
        self._update_button()
        if self._cast_when_checked:
            self._cast_when_checked = False
            self.action_cast()

    def _update_button(self) -> None:
        button = self.query_one("#cast-run", Button)
        hand = self.query_one("#cast-by-hand", Switch).value
        if self.as_order:
            button.label = "File order"
        else:
            button.label = "Cast by hand" if hand else "Cast"
        button.disabled = self.problem is not None or self.phase != "setup"
        button.display = self.phase == "setup"
        self.query_one("#cast-hand-row").display = not self.as_order

    def _show_setup(self, setup: casting_views.CastSetup) -> None:
        self.query_one(SetupPanel).show(setup)
        self.query_one(OddsPanel).show(setup)
        if not setup.caster:
            self._stage("power").note("No odds yet.")
            return
        self._stage("power").show(setup.power_odds)

    # -- casting ------------------------------------------------------------------------------------------
    @on(Button.Pressed, "#cast-run")
    def action_cast(self) -> None:
        if self.phase != "setup":
            return
        if self._checker.pending:
            # What was just typed is still being checked: cast (or say why not) once it is.
            self._cast_when_checked = True
            return
        if self.problem is not None or self.setup is None or not self.setup.caster:
            if self.problem is not None:
                self.query_one(ParamForm).show_problem(self.problem, force=True)
                self.notify(self.problem.message(), title="Cannot cast yet", severity="warning")
            return
        self.values = self._form_values()
        if self.as_order:
            self.query_one("#cast-run", Button).disabled = True
            self._file(self.values)
            return
        self.by_hand = self.query_one("#cast-by-hand", Switch).value
        self.phase = "rolling"
        self.stage = 0
        self.naturals = []
        self._hand_rolls = []
        self.stage_odds = [self.setup.power_odds]
        self.query_one("#cast-setup").set_class(True, "-locked")
        self.query_one(ParamForm).disabled = True
        self.query_one("#cast-by-hand", Switch).disabled = True
        self._update_button()
        if self.by_hand:
            self._ask_die(0)
        else:
            self._cast_now(self.values)

    @work(thread=True, exclusive=True, group="cast-run", exit_on_error=False)
    def _cast_now(self, values: dict[str, Any]) -> None:
        """The app's dice: one transaction now; the screen reveals the stages afterwards."""
        before = self.yak.world
        try:
            outcome = self.yak.execute("cast", views.clean_params(values))  # the season's derived dice
        except Exception as error:
            self.post_message(self.Failed(views.problem_of(error)))
            return
        self.post_message(self._cast_message(outcome, before, values, by_hand=False))

    def _cast_message(self, outcome: Any, before: World, values: dict[str, Any], by_hand: bool) -> Cast:
        identity = self.identity
        rolls = casting_views.retone(views.roll_views(outcome.world, identity, outcome.result.entries))
        naturals = [r.naturals[0] if r.naturals else 0 for r in rolls]
        odds = tuple(casting_views.stage_odds_rows(before, values, naturals[:k]) for k in range(len(rolls)))
        lines = views.result_lines(outcome.world, identity, outcome.result.entries)
        pending = casting_views.pending_lines(
            outcome.world, identity, outcome.result.data.get("consequence_entries", [])
        )
        return self.Cast(rolls, odds, lines, pending, by_hand)

    @on(Cast)
    def _cast(self, event: Cast) -> None:
        self.rolls = event.rolls
        self.pending = event.pending
        self._consequences = tuple(entry_id for entry_id, _ in event.pending)
        self._result_lines = event.lines
        if event.by_hand:
            # The stages were shown as typed; put the recorded rolls in their place and finish.
            for index, roll in enumerate(event.rolls):
                self._stage(STAGES[index]).tray.show([roll], animate=False)
            self._finish()
            return
        self.stage_odds = list(event.odds)
        self._reveal(0)

    def _reveal(self, index: int) -> None:
        """Odds before the stage, then its die tumbling onto the recorded natural."""
        self.stage = index
        stage = STAGES[index]
        panel = self._stage(stage)
        self._show_stage_odds(index)
        tray = panel.tray
        tray.display = True
        self.set_timer(0.05, lambda: self._bring_into_view(panel))
        delay = 0.5 if self.yak.animate_dice and index else 0.0
        if delay:
            self.set_timer(delay, lambda: tray.show([self.rolls[index]], animate=True))
        else:
            tray.show([self.rolls[index]], animate=self.yak.animate_dice)

    def _show_stage_odds(self, index: int) -> None:
        stage = STAGES[index]
        rows = self.stage_odds[index] if index < len(self.stage_odds) else ()
        rolled = self._hand_rolls if self.by_hand else list(self.rolls)
        given = casting_views.given_words(rolled[:index])
        panel = self._stage(stage)
        panel.show(rows, given)
        panel.add_class("-active")

    @on(DiceTray.Landed)
    def _landed(self, event: DiceTray.Landed) -> None:
        if self.phase != "rolling":
            return
        tray_stage = (event.tray.id or "").removeprefix("tray-")
        if tray_stage != STAGES[self.stage]:
            return
        self._stage(tray_stage).remove_class("-active")
        if self.by_hand:
            if self._hand_done:
                self._cast_by_hand(self.values, list(self.naturals))
            else:
                self.stage_odds.append(self._next_odds)
                self._ask_die(self.stage + 1)
            return
        if self.stage + 1 < len(self.rolls):
            self._reveal(self.stage + 1)
        else:
            self._finish()

    # -- dice by hand -------------------------------------------------------------------------------------
    def _ask_die(self, index: int) -> None:
        self.stage = index
        stage = STAGES[index]
        self._show_stage_odds(index)
        self._stage(stage).die_row.display = True
        die = self.query_one(f"#die-{stage}", Input)
        die.value = ""
        die.disabled = False
        # The die takes the focus at once (the next key typed is this stage's die, however busy the
        # machine); the whole stage comes into view after the layout that gives it its new height.
        die.focus(scroll_visible=False)
        self.set_timer(0.05, lambda: self._bring_into_view(self._stage(stage)))

    def _bring_into_view(self, widget: Any) -> None:
        """Scroll to a panel at once; a tumbling die's own (animated) scroll must not pull back."""
        for ancestor in widget.ancestors:
            if getattr(ancestor, "is_scrollable", False):
                self.app.animator.force_stop_animation(ancestor, "scroll_y")
        widget.scroll_visible(animate=False)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if self.phase == "setup" and not (event.input.id or "").startswith("die-"):
            self.action_cast()
            return
        if self.phase != "rolling" or not self.by_hand or event.input.id != f"die-{STAGES[self.stage]}":
            return
        naturals, error = views.parse_naturals(event.value)
        if error or len(naturals) != 1:
            self.notify(error or "type one die: the natural of this stage", title="Dice by hand", severity="warning")
            return
        event.input.disabled = True
        self.naturals.append(naturals[0])
        self._preview(self.values, list(self.naturals))

    @work(thread=True, exclusive=True, group="cast-preview", exit_on_error=False)
    def _preview(self, values: dict[str, Any], naturals: list[int]) -> None:
        world = self.yak.world
        try:
            preview = casting_views.preview(world, values, naturals)
        except Exception as error:
            self.post_message(self.Failed(views.problem_of(error)))
            return
        odds = () if preview.done else casting_views.stage_odds_rows(world, values, naturals)
        self.post_message(self.Previewed(preview, odds))

    @on(Previewed)
    def _previewed(self, event: Previewed) -> None:
        self._hand_done = event.preview.done
        self._next_odds = event.next_odds
        roll = event.preview.rolls[self.stage]
        self._hand_rolls = list(event.preview.rolls)
        tray = self._stage(STAGES[self.stage]).tray
        tray.display = True
        tray.show([roll], animate=self.yak.animate_dice)

    @work(thread=True, exclusive=True, group="cast-run", exit_on_error=False)
    def _cast_by_hand(self, values: dict[str, Any], naturals: list[int]) -> None:
        from yak_tui.kernel.play.dice import HandDice

        before = self.yak.world
        try:
            outcome = self.yak.execute("cast", views.clean_params(values), HandDice(naturals))
        except Exception as error:
            self.post_message(self.Failed(views.problem_of(error)))
            return
        self.post_message(self._cast_message(outcome, before, values, by_hand=True))

    # -- the end ------------------------------------------------------------------------------------------
    def _finish(self) -> None:
        self.phase = "done"
        for index, stage in enumerate(STAGES):
            panel = self._stage(stage)
            panel.die_row.display = False
            if index >= len(self.rolls):
                panel.note("Not rolled: the spell ended at Power.", "")
                panel.add_class("-skipped")
        self._update_button()
        chronicle = self.query_one("#cast-chronicle")
        chronicle.display = True
        self._show_result()
        self.query_one("#cast-again").display = True
        self.query_one("#cast-again", Button).focus(scroll_visible=False)
        self.set_timer(0.05, lambda: self._bring_into_view(chronicle))
        self.refresh_bindings()

    def _show_result(self) -> None:
        """The chronicle lines the casting wrote; consequences still to describe stand out."""
        self.query_one(ChroniclePanel).show(self._result_lines, self.pending, self.identity.is_gm)

    @on(Failed)
    def _failed(self, event: Failed) -> None:
        self.notify(event.problem.message(), title="The casting was refused", severity="error")
        self._reset()

    @work(thread=True, exclusive=True, group="cast-run", exit_on_error=False)
    def _file(self, values: dict[str, Any]) -> None:
        try:
            outcome = self.yak.execute("order-file", views.order_file_params("cast", values))
        except Exception as error:
            self.post_message(self.Failed(views.problem_of(error)))
            return
        self.post_message(self.Filed(outcome.result.data))

    @on(Filed)
    def _filed(self, event: Filed) -> None:
        self.notify(views.order_filed_text(self.yak.world, event.data), title="Casting ordered")
        self._update_button()

    @on(Button.Pressed, "#cast-again")
    def action_again(self) -> None:
        if self.phase == "done":
            self._reset()

    def _reset(self) -> None:
        self.phase = "setup"
        self.rolls = ()
        self.naturals = []
        self._hand_rolls = []
        self.pending = ()
        for panel in self.query(StagePanel):
            panel.clear()
        self.query_one("#cast-again").display = False
        self.query_one("#cast-chronicle").display = False
        self.query_one("#cast-setup").set_class(False, "-locked")
        self.query_one(ParamForm).disabled = False
        self.query_one("#cast-by-hand", Switch).disabled = False
        self._waiting()
        self.query_one(ParamForm).focus_first()
        self._validate()
        self.refresh_bindings()

    def action_describe(self) -> None:
        if self.pending and self.identity.is_gm:
            entry_id, text = self.pending[0]
            self.yak.open_command(
                "consequence-fill", {"entry": entry_id}, hidden=("entry",), title="Describe the consequence", intro=text
            )

    def action_close(self) -> None:
        if len(self.app.screen_stack) > 1:
            self.app.pop_screen()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not super().check_action(action, parameters):
            return False
        if action == "cast":
            return self.phase == "setup"
        if action == "again":
            return self.phase == "done"
        if action == "describe":
            return bool(self.pending) and self.identity.is_gm
        return True
