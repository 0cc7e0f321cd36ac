"""Hotseat: the GM hands the keyboard to a King or a player (and takes it back)."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from yak_tui.app.kit import YakModal
from yak_tui.app.kit.keybar import KeyBar
from yak_tui.app.kit.styles import DIALOGS_TCSS
from yak_tui.areas import court as views


class IdentityScreen(YakModal[str | None]):
    CSS_PATH = DIALOGS_TCSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        app = self.yak
        current = str(app.identity)
        options: list[Option | None] = []
        group = ""
        for choice in views.identities(app.world):
            if choice.group != group:
                if group:
                    options.append(None)
                group = choice.group
            marker = "◆ " if choice.identity == current else "  "
            options.append(Option(Content.assemble((marker, "bold $primary"), choice.label), id=choice.identity))
        with Vertical(id="dialog", classes="dialog"):
            yield Static(Content.styled("Who is at the keyboard?", "bold"), id="dialog-title")
            yield Static("Everything shown from now on is filtered for this identity.", id="dialog-help")
            yield OptionList(*options, id="identities")
        yield KeyBar()  # the keys of this dialog, where the screen behind showed its own

    def on_mount(self) -> None:
        app = self.yak
        options = self.query_one(OptionList)
        try:
            options.highlighted = options.get_option_index(str(app.identity))
        except Exception:
            options.highlighted = 0
        options.focus()

    @on(OptionList.OptionSelected)
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
