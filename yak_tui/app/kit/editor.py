"""The GM's editor: any document of any table as a form generated from its schema (`docform`).

`E` (shift+e) on a row of any screen (`e` on the World screen) opens it prefilled; `ctrl+s`
saves through the app's one command path: one `gm-set` per changed field, or one `gm-add` for a
new document, so the chronicle records each change and `u` undoes it. What was typed is checked
as it is typed (the same commands on a throwaway copy of the world, in a worker); a refusal
marks the field it names and says why, and nothing is written.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, ClassVar

import orjson
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Input, Static

from yak_tui.app.kit import YakModal
from yak_tui.app.kit.docform import document_fields, document_texts, field_problem, new_document, set_params
from yak_tui.app.kit.keybar import KeyBar
from yak_tui.app.kit.paramform import ParamForm
from yak_tui.app.kit.styles import DIALOGS_TCSS
from yak_tui.app.kit.worker import CommandWorker
from yak_tui.kernel.play import views
from yak_tui.kernel.play.views import ParamField
from yak_tui.kernel.world.documents import SCHEMAS
from yak_tui.kernel.world.numbers import counted

if TYPE_CHECKING:
    from yak_tui.kernel.play.identity import Identity
    from yak_tui.kernel.world.model import World

NEW_ID = "id"  # the add form's first field: the new document's id


class DocumentEditor(YakModal[bool]):
    """Edit `doc_id` of `table`, or (`doc_id` None) add a document to it; dismisses True once saved."""

    CSS_PATH = DIALOGS_TCSS
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close"),
        Binding("ctrl+s", "save", "Save"),
    ]

    class Saved(Message):
        def __init__(self, lines: tuple[str, ...]) -> None:
            super().__init__()
            self.lines = lines

    class Refused(Message):
        def __init__(self, problem: views.Problem, saved: int) -> None:
            super().__init__()
            self.problem = problem
            self.saved = saved

    def __init__(self, table: str, doc_id: str | None = None) -> None:
        super().__init__()
        self.table = table
        self.doc_id = doc_id
        self.before: dict[str, str] = {}
        self.problem: views.Problem | None = None
        self.saving = False
        self._save_when_checked = False
        self._checker: CommandWorker[views.Problem | None] = CommandWorker(self, "editor-check", self._checked)

    @property
    def adding(self) -> bool:
        return self.doc_id is None

    def compose(self) -> ComposeResult:
        world = self.yak.world
        schema = SCHEMAS[self.table]
        doc = world.find(self.table, self.doc_id) if self.doc_id is not None else {}
        if self.adding:
            title = f"Add to {self.table}"
            fields: tuple[ParamField, ...] = (
                ParamField(NEW_ID, "str", True, "", schema.id_description),
                *document_fields(world, self.table),
            )
        else:
            title = f"Edit {world.display_name(self.table, self.doc_id)} ({self.table} {self.doc_id})"
            fields = document_fields(world, self.table, doc)
            self.before = document_texts(self.table, doc or {})
        verb = "gm-add" if self.adding else "one gm-set per changed field"
        with Vertical(id="dialog", classes="dialog -wide"):
            yield Static(Content.styled(title, "bold"), id="dialog-title")
            yield Static(
                f"{schema.description} ctrl+s saves ({verb}: chronicled, u undoes); "
                "empty clears a field; lists and tables are JSON.",
                id="dialog-help",
                markup=False,
            )
            with VerticalScroll(id="dialog-body"):
                if doc is None:
                    yield Static(f"{self.table} holds no {self.doc_id!r} any longer.", id="editor-gone")
                else:
                    yield ParamForm(fields, self.before, id="form")
                yield Static("", id="problem", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button("Save", id="save", variant="primary", compact=True, disabled=doc is None)
                yield Button("Close", id="close", compact=True)
        yield KeyBar()

    def on_mount(self) -> None:
        forms = self.query(ParamForm)
        if forms:
            forms.first().focus_first()
        else:
            self.query_one("#close", Button).focus()
        if not self.yak.identity.is_gm:
            from yak_tui.kernel.play.commands import gm_refusal

            self._show(views.problem_of(gm_refusal("edit documents", self.yak.identity)), force=True)
            self.query_one("#save", Button).disabled = True

    # -- what was typed -------------------------------------------------------------------------------
    def _texts(self) -> dict[str, str]:
        forms = self.query(ParamForm)
        return {k: str(v) for k, v in forms.first().values().items()} if forms else {}

    def _commands(
        self, texts: dict[str, str]
    ) -> tuple[list[tuple[str, dict[str, str], str | None]], views.Problem | None]:
        """The commands that save `texts`: (name, params, the field it sets), or what stops them."""
        if self.doc_id is not None:
            return [
                ("gm-set", params, params["field"])
                for params in set_params(self.table, self.doc_id, self.before, texts)
            ], None
        doc, problem = new_document(self.table, texts)
        params = {"table": self.table, "id": texts.get(NEW_ID, ""), "fields": orjson.dumps(doc).decode()}
        return [("gm-add", params, None)], problem

    @on(ParamForm.Changed)
    def _changed(self) -> None:
        self._check()

    def _check(self) -> None:
        self._checker.start(partial(self._judge, self.yak.world, self.yak.identity, self._texts()))

    def _judge(self, world: World, identity: Identity, texts: dict[str, str]) -> views.Problem | None:
        """(In the check worker.) The first refusal among the commands that would save this."""
        commands, problem = self._commands(texts)
        if problem is not None:
            return problem
        for name, params, field in commands:
            found = views.check_command(world, identity, name, params)
            if found is not None:
                return field_problem(self.table, found, field)
        return None

    def _checked(self, problem: views.Problem | None) -> None:
        if self.saving:
            return
        self.problem = problem
        self._show(problem)
        if self._save_when_checked:
            self._save_when_checked = False
            self.action_save()

    def _show(self, problem: views.Problem | None, force: bool = False) -> None:
        forms = self.query(ParamForm)
        taken = forms.first().show_problem(problem, force) if forms else False
        text = "" if problem is None or (taken and not problem.who_may) else problem.message()
        widget = self.query_one("#problem", Static)
        widget.update(text)
        widget.set_class(bool(text), "-shown")

    # -- saving -----------------------------------------------------------------------------------------
    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        if self.saving or self.query_one("#save", Button).disabled:
            return
        if self._checker.pending:
            self._save_when_checked = True  # the last keystroke is still being checked
            return
        if self.problem is not None:
            self._show(self.problem, force=True)
            self.notify(self.problem.message(), title="Cannot save", severity="warning")
            return
        commands, _ = self._commands(self._texts())
        if not commands:
            self.notify("Nothing changed.", title="Editor")
            return
        self.saving = True
        self.query_one("#save", Button).disabled = True
        self._save(commands)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_save()

    @work(thread=True, exclusive=True, group="editor-save", exit_on_error=False)
    def _save(self, commands: list[tuple[str, dict[str, str], str | None]]) -> None:
        lines: list[str] = []
        for done, (name, params, field) in enumerate(commands):
            try:
                outcome = self.yak.execute(name, views.clean_params(params))
            except Exception as error:
                self.post_message(self.Refused(field_problem(self.table, views.problem_of(error), field), done))
                return
            lines.extend(views.result_lines(outcome.world, self.yak.identity, outcome.result.entries))
        self.post_message(self.Saved(tuple(lines)))

    @on(Refused)
    def _refused(self, event: Refused) -> None:
        self.saving = False
        self.problem = event.problem
        self._show(event.problem, force=True)
        self.query_one("#save", Button).disabled = False
        saved = f" ({counted(event.saved, 'field')} saved before it)" if event.saved else ""
        self.notify(event.problem.message() + saved, title="Refused", severity="error")
        if event.saved:  # what was saved is the new starting point
            self.before = document_texts(self.table, self.yak.world.find(self.table, self.doc_id or "") or {})

    @on(Saved)
    def _saved(self, event: Saved) -> None:
        self.saving = False
        self.notify("\n".join(event.lines) or "Saved.", title="Saved")
        self.dismiss(True)

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        self.dismiss(False)
