"""Submit an NPC espionage mission privately (RULINGS §1): a King or a player picks the target
and the mission, fills only what that mission needs (a province, a unit, a victim, extras)
and a note, sees the odds his side may know, and files it with `spy-order`.

It waits in the inbox of whoever adjudicates it; the filer later sees only the outcome.
Validation runs as typed, in a worker, exactly as the adjudicator would carry the order out.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Input, Label, Select, Static

from yak_tui.app.kit import YakModal
from yak_tui.app.kit.common import YakInput
from yak_tui.app.kit.odds import odds_content
from yak_tui.app.kit.paramform import ParamForm
from yak_tui.app.kit.select import YakSelect
from yak_tui.app.kit.styles import DIALOGS_TCSS
from yak_tui.app.kit.worker import CommandWorker
from yak_tui.areas.espionage import (
    DialogOdds,
    catalogue,
    field_options,
    mission_dialog_odds,
    mission_lines,
    mission_needs,
    target_choices,
)
from yak_tui.kernel.play import views
from yak_tui.kernel.play.identity import Identity, identity_name
from yak_tui.kernel.world.money import ducats

if TYPE_CHECKING:
    from yak_tui.kernel.world.model import World

HERE = Path(__file__).parent


def _field_of(name: str) -> str:
    return name.rsplit(".", 1)[-1]


class SpyOrderScreen(YakModal[str | None]):
    """Dismisses with the new order's id (None when closed without filing)."""

    CSS_PATH = [DIALOGS_TCSS, HERE / "espionage.tcss"]  # noqa: RUF012 (Textual reads it as a list)
    AUTO_FOCUS = ""  # its own first field (on_mount): the keys typed meanwhile wait for it (`hold_key`)
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("ctrl+s", "submit", "Submit privately"),
    ]

    class Filed(Message):
        def __init__(self, data: dict[str, Any] | None, problem: views.Problem | None = None) -> None:
            super().__init__()
            self.data = data
            self.problem = problem

    def __init__(self, sponsor: str, target: str | None, mission: str | None = None) -> None:
        super().__init__(id="spy-order-dialog")
        self.sponsor = sponsor
        self.initial_target = target
        self.initial_mission = mission
        self.problem: views.Problem | None = views.Problem("mission", "choose the mission")
        self._checker: CommandWorker[tuple[views.Problem | None, DialogOdds | None]] = CommandWorker(
            self, "validate", self._checked
        )
        self._fields_for: tuple[str, str] | None = None  # (mission, target) the fields were built for
        self.busy = False
        self.forced = False  # the user tried to submit: show every problem in full

    def compose(self) -> ComposeResult:
        world, identity = self.yak.world, self.yak.identity
        targets = [(c.label, c.value) for c in target_choices(world, self.sponsor)]
        missions = [(f"{m.name}  · {m.family}", slug) for slug, m in catalogue().items() if m.effect != "counter-spy"]
        purse = "your purse" if identity.is_player else "the treasury"
        with Vertical(id="dialog", classes="dialog"):
            yield Static(Content.styled("Submit a private mission", "bold"), id="dialog-title")
            yield Static(
                f"You send a spy of {world.display_name('kingdoms', self.sponsor)}, paid from {purse}. "
                "Only the adjudicator sees the order; you learn the outcome, never the dice.",
                id="dialog-help",
            )
            with VerticalScroll(id="dialog-body"):
                with Horizontal(classes="field"):
                    yield Label("target", classes="field-label -required")
                    yield YakSelect(
                        targets,
                        id="spy-target",
                        compact=True,
                        allow_blank=False,
                        value=self.initial_target
                        if self.initial_target in [v for _, v in targets]
                        else (targets[0][1] if targets else Select.NULL),
                    )
                with Horizontal(classes="field"):
                    yield Label("mission", classes="field-label -required")
                    yield YakSelect(
                        missions,
                        id="spy-mission",
                        compact=True,
                        prompt="(choose a mission)",
                        value=self.initial_mission if self.initial_mission in catalogue() else Select.NULL,
                    )
                yield Static("", id="spy-mission-help")
                yield Vertical(id="spy-fields")
                with Horizontal(classes="field"):
                    yield Label("note", classes="field-label")
                    yield YakInput(placeholder="a word for your adjudicator (optional)", id="spy-note", compact=True)
                yield Static("", id="spy-cost")
                yield Label("Odds for your side", classes="section")
                yield Static(id="odds")
                yield Static("", id="problem", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button("Submit privately", id="submit", variant="primary", disabled=True, compact=True)
                yield Button("Close", id="close", compact=True)

    async def on_mount(self) -> None:
        await self._show_fields()
        self._focus_first_field()

    def _focus_first_field(self) -> None:
        """The first field still to fill: the mission's own, else the note, else the mission."""
        forms = self.query(ParamForm)
        if forms and forms.first().query("Input, Select, Switch"):
            forms.first().focus_first(empty=True)
        elif self._mission():
            self.query_one("#spy-note", Input).focus()
        else:
            self.query_one("#spy-mission", Select).focus()

    # -- values -------------------------------------------------------------------------------------
    def _mission(self) -> str:
        value = self.query_one("#spy-mission", Select).value
        return "" if value is Select.NULL else str(value)

    def _target(self) -> str:
        value = self.query_one("#spy-target", Select).value
        return "" if value is Select.NULL else str(value)

    def _values(self) -> dict[str, Any]:
        slug = self._mission()
        values: dict[str, Any] = {"mission": slug}
        purge = slug in catalogue() and catalogue()[slug].effect == "purge"
        if not purge:
            values["target"] = self._target()
        forms = self.query(ParamForm)
        if forms:
            values.update(forms.first().values())
        values["note"] = self.query_one("#spy-note", Input).value.strip()
        return values

    # -- the fields a mission needs -------------------------------------------------------------------
    async def _show_fields(self) -> None:
        world, identity = self.yak.world, self.yak.identity
        holder = self.query_one("#spy-fields", Vertical)
        slug, target = self._mission(), self._target()
        self._fields_for = (slug, target)
        await holder.remove_children()
        help_widget = self.query_one("#spy-mission-help", Static)
        if slug not in catalogue():
            help_widget.update("")
            self._validate()
            return
        entry = catalogue()[slug]
        purge = entry.effect == "purge"
        self.query_one("#spy-target", Select).disabled = purge
        line = next(
            (m for m in mission_lines(world, identity, self.sponsor, target or self.sponsor) if m.slug == slug), None
        )
        needs, style = "", "$secondary"
        if purge:
            needs = "Against your own administration: no target."
        elif line is not None and line.prerequisite:
            # None: a player's King knows, he does not; if it is missing the mission fails (RULINGS §1).
            mark, style = {
                True: ("✓ held", "bold $success"),
                False: ("✗ missing", "bold $error"),
                None: ("only your King knows", "bold $warning"),
            }[line.prerequisite_met]
            needs = f"Needs {catalogue()[line.prerequisite].name} against the target: {mark}."
        help_widget.update(Content.assemble((entry.text, "$foreground-muted"), "\n" if needs else "", (needs, style)))
        wanted = mission_needs(entry)
        options = field_options(world, identity, slug, self.sponsor, target)
        fields = []
        for field in views.param_fields(world, identity, "spy-order"):
            if field.name not in wanted:
                continue
            if field.name in options:
                field = field._replace(options=tuple(views.Choice(v, label) for v, label in options[field.name]))
            fields.append(field)
        if fields:
            await holder.mount(ParamForm(fields, id="spy-form"))
        self._validate()

    @on(Select.Changed, "#spy-mission")
    @on(Select.Changed, "#spy-target")
    async def _choice_changed(self, event: Select.Changed) -> None:
        """Rebuild only for a new mission or target: each Select also reports its first value as it
        mounts, and a rebuild then would remove the field the focus is on its way to."""
        event.stop()
        if (self._mission(), self._target()) != self._fields_for:
            await self._show_fields()

    @on(ParamForm.Changed)
    @on(Input.Changed, "#spy-note")
    def _changed(self, event: Message) -> None:
        event.stop()
        self._validate()

    # -- validation ---------------------------------------------------------------------------------
    def _validate(self) -> None:
        if not self._mission():
            self._checker.cancel()
            self._apply(views.Problem("mission", "choose the mission"), None)
            return
        self._checker.start(partial(self._check, self.yak.world, self.yak.identity, self._values()))

    @staticmethod
    def _check(
        world: World, identity: Identity, values: dict[str, Any]
    ) -> tuple[views.Problem | None, DialogOdds | None]:
        """(In the validation worker.)"""
        return views.check_command(world, identity, "spy-order", values), mission_dialog_odds(world, identity, values)

    def _checked(self, checked: tuple[views.Problem | None, DialogOdds | None]) -> None:
        if not self.busy:
            self._apply(*checked)

    def _apply(self, problem: views.Problem | None, odds: DialogOdds | None) -> None:
        self.problem = problem
        forms = self.query(ParamForm)
        form = forms.first() if forms else None
        field = _field_of(problem.field) if problem is not None else ""
        loud = self.forced or (form is not None and field in form.touched)
        taken = False
        if form is not None:
            taken = (
                form.show_problem(problem if loud else None, force=True)
                if problem is not None
                else form.show_problem(None)
            )
        widget = self.query_one("#problem", Static)
        text = (
            ""
            if problem is None or taken
            else (problem.reason if field in ("mission", "target") else f"{field}: {problem.reason}")
        )
        widget.update(text)
        widget.set_class(bool(text), "-shown")
        widget.set_class(bool(text) and not loud and field not in ("mission", "target"), "-hint")
        self.query_one("#submit", Button).disabled = problem is not None
        odds_widget = self.query_one("#odds", Static)
        shown = None if odds is None else views.OddsView(odds.rows, odds.extra)
        odds_widget.update(odds_content(shown, odds_widget.size.width or 76, "spy-order", {"mission": self._mission()}))
        self.query_one("#spy-cost", Static).update(self._cost_text(odds))

    def _cost_text(self, odds: DialogOdds | None) -> Content:
        slug = self._mission()
        if slug not in catalogue():
            return Content("")
        cost = odds.cost if odds is not None and odds.cost is not None else catalogue()[slug].cost
        known = ""
        if odds is not None:
            mods = ", ".join(f"{reason} {value:+d}" for value, reason in odds.modifiers)
            known = f"\nCounted: {mods}." if mods else "\nThe target's counter-spies and traps are not known to you."
        return Content.assemble(
            ("Costs ", "$foreground-muted"),
            (ducats(cost), "bold"),
            (" and 1 spy, whatever the outcome.", "$foreground-muted"),
            (known, "italic dim"),
        )

    # -- filing -------------------------------------------------------------------------------------
    @on(Button.Pressed, "#submit")
    def action_submit(self) -> None:
        if self.busy:
            return
        if self.problem is not None:
            self.forced = True
            self._validate()
            self.notify(self.problem.message(), title="Cannot submit yet", severity="warning")
            return
        self.busy = True
        self.query_one("#submit", Button).disabled = True
        self._file(views.clean_params(self._values()))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_submit()

    @work(thread=True, exclusive=True, group="file", exit_on_error=False)
    def _file(self, params: dict[str, Any]) -> None:
        try:
            outcome = self.yak.execute("spy-order", params)
        except Exception as error:
            self.post_message(self.Filed(None, views.problem_of(error)))
            return
        self.post_message(self.Filed(outcome.result.data))

    @on(Filed)
    def _filed(self, event: Filed) -> None:
        self.busy = False
        if event.data is None:
            self.forced = True
            self._apply(event.problem, None)
            if event.problem:
                self.notify(event.problem.message(), title="Refused", severity="error")
            return
        order = str(event.data.get("order", ""))
        who = str(event.data.get("adjudicator", "gm"))
        who = identity_name(self.yak.world, Identity.parse(who))
        mission = self.query_one("#spy-mission", Select).value
        name = catalogue()[mission].name if isinstance(mission, str) and mission in catalogue() else "The mission"
        self.notify(f"{name} submitted privately; it waits for {who}.", title="Mission submitted")
        self.dismiss(order)

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(None)
