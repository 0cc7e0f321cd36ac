"""A form for a command's parameters, drawn from `views.param_fields` (its `Param` list).

Text and numbers are Inputs, closed lists (choices, a referenced table, audiences) are Selects,
flags are Switches. The form does not judge values itself: its host validates the whole command
as it is typed (`views.check_command` / `views.check_order`) and calls `show_problem`, which
marks the field at fault and says why.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Input, Label, Select, Static, Switch

from yak_tui.app.kit.common import YakInput
from yak_tui.app.kit.select import YakSelect
from yak_tui.app.kit.toggle import Toggle
from yak_tui.kernel.play.views import ParamField, Problem


class ParamForm(Vertical):
    """Inputs for `fields`; `values()` gives the raw text the command layer coerces."""

    DEFAULT_CSS = """
    ParamForm { height: auto; }
    ParamForm > .field-row { height: auto; }
    ParamForm .field { height: 1; }
    ParamForm .field-label { width: 14; padding: 0 1 0 0; text-align: right; color: $foreground-muted; }
    ParamForm .field-label.-required { color: $foreground; text-style: bold; }
    ParamForm .field Input, ParamForm .field Select { width: 1fr; }
    ParamForm .field-help { color: $foreground-muted; padding: 0 1; width: 1fr; }
    ParamForm .field-error { color: $error; padding: 0 0 0 14; height: auto; display: none; }
    ParamForm .field-row.-invalid .field-error { display: block; }
    ParamForm .field-row.-invalid Input, ParamForm .field-row.-invalid SelectCurrent { background: $error 25%; }
    ParamForm Switch { width: auto; height: 1; border: none; padding: 0; }
    """

    class Changed(Message):
        """Some value changed: the host re-validates."""

        def __init__(self, form: ParamForm) -> None:
            super().__init__()
            self.form = form

        @property
        def control(self) -> ParamForm:
            return self.form

    def __init__(
        self,
        fields: Iterable[ParamField],
        preset: Mapping[str, Any] | None = None,
        hidden: Iterable[str] = (),
        *,
        id: str | None = None,
    ) -> None:
        super().__init__(id=id)
        self.fields = tuple(fields)
        self.preset = dict(preset or {})
        self.hidden = set(hidden)
        self.touched: set[str] = set()

    def compose(self) -> ComposeResult:
        shown = [field for field in self.fields if field.name not in self.hidden]
        # The label column is as wide as the longest label: a two-word label ("power modifier")
        # must not wrap into a row of its own.
        width = max([LABEL_WIDTH, *(len(_label(field.name)) + 1 for field in shown)])
        for field in shown:
            value = self.preset.get(field.name, field.default)
            with Vertical(classes="field-row", id=f"field-{field.name}"):
                with Horizontal(classes="field"):
                    label = Label(_label(field.name), classes="field-label" + (" -required" if field.required else ""))
                    label.styles.width = width
                    yield label
                    yield self._control(field, value)
                    if field.kind == "bool" and field.help:
                        yield Static(field.help, classes="field-help", markup=False)
                error = Static("", classes="field-error", id=f"error-{field.name}", markup=False)
                error.styles.padding = (0, 0, 0, width)
                yield error

    def _control(self, field: ParamField, value: Any) -> Any:
        name = f"param-{field.name}"
        if field.kind == "bool":
            return Toggle(value=str(value).lower() in ("1", "true", "yes", "on"), id=name)
        if field.options:
            options = [(c.label, c.value) for c in field.options]
            known = {c.value for c in field.options}
            text = str(value) if value not in (None, "") else ""
            prompt = field.help or ("(choose)" if field.required else "(none)")
            select: Select[str] = YakSelect(
                options,
                id=name,
                allow_blank=True,
                compact=True,
                prompt=prompt,
                value=text if text in known else Select.NULL,
            )
            select.tooltip = field.help or None
            return select
        kind = {"int": "integer", "float": "number"}.get(field.kind, "text")
        control = YakInput(
            value="" if value is None else str(value),
            id=name,
            type=kind,  # type: ignore[arg-type]
            placeholder=field.help,
            valid_empty=not field.required,
            compact=True,
        )
        control.tooltip = field.help or None
        return control

    def values(self) -> dict[str, Any]:
        """Raw values by parameter name (hidden ones from the preset); empty means 'not given'."""
        out: dict[str, Any] = {k: v for k, v in self.preset.items() if k in self.hidden}
        for field in self.fields:
            if field.name in self.hidden:
                continue
            widget = self.query_one(f"#param-{field.name}")
            if isinstance(widget, Switch):
                out[field.name] = "true" if widget.value else "false"
            elif isinstance(widget, Select):
                out[field.name] = "" if widget.value is Select.NULL else str(widget.value)
            elif isinstance(widget, Input):
                out[field.name] = widget.value.strip()
        return out

    def show_problem(self, problem: Problem | None, force: bool = False) -> bool:
        """Mark the field the problem names; returns whether a field of this form took it.

        A required field nobody has typed in yet is not flagged (the Run button stays off),
        unless `force`: the form should not scold before the user has started.
        """
        taken = False
        for field in self.fields:
            if field.name in self.hidden:
                continue
            row = self.query_one(f"#field-{field.name}")
            error = self.query_one(f"#error-{field.name}", Static)
            hit = problem is not None and _field_of(problem.field) == field.name
            quiet = (
                hit
                and not force
                and field.name not in self.touched
                and "required" in (problem.reason if problem else "")
            )
            row.set_class(hit and not quiet, "-invalid")
            error.update(problem.reason if hit and problem is not None and not quiet else "")
            taken = taken or hit
        return taken

    def focus_first(self, empty: bool = False) -> None:
        """Focus the first field (`empty`: the first one still to fill, else the first)."""
        fields = [widget for widget in self.query("Input, Select, Switch") if widget.focusable]
        if empty:
            blank = [
                w for w in fields if (isinstance(w, Input) and not w.value) or (isinstance(w, Select) and w.is_blank())
            ]
            fields = blank + fields
        if fields:
            fields[0].focus()

    @on(Input.Changed)
    @on(Select.Changed)
    @on(Switch.Changed)
    def _changed(self, event: Message) -> None:
        event.stop()
        control = getattr(event, "control", None)
        if control is not None and control.id and control.id.startswith("param-"):
            self.touched.add(control.id.removeprefix("param-"))
        self.post_message(self.Changed(self))


LABEL_WIDTH = 14  # the label column's least width, as the dialogs' own fields (dialogs.tcss `.field-label`)


def _label(name: str) -> str:
    return name.replace("_", " ")


def _field_of(name: str) -> str:
    """`order.modifier` and `modifier` both name the field `modifier`."""
    return name.rsplit(".", 1)[-1]
