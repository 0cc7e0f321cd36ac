"""Hotseat: the GM hands the keyboard to a King or a player (and takes it back).

With `yak tui --gm-pin`, taking it back asks for the GM's PIN (`PinScreen`), so the player at the
keyboard cannot make himself the GM. The app keeps only a salted hash of the PIN (`GmPin`)."""

from __future__ import annotations

import hashlib
import hmac
import os
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from yak_tui.app.kit import YakModal
from yak_tui.app.kit.keybar import KeyBar
from yak_tui.app.kit.styles import DIALOGS_TCSS
from yak_tui.areas import court as views


class GmPin:
    """The hotseat GM's PIN as a hash with a salt drawn for this run: the PIN itself is never kept."""

    def __init__(self, pin: str) -> None:
        self._salt = os.urandom(16)
        self._hash = self._digest(pin)

    def _digest(self, pin: str) -> bytes:
        return hashlib.sha256(self._salt + pin.encode("utf-8")).digest()

    def matches(self, pin: str) -> bool:
        return hmac.compare_digest(self._digest(pin), self._hash)


class PinScreen(YakModal[str | None]):
    """Asks for the GM's PIN before the keyboard goes back to a GM seat; dismisses with what was typed
    (None: cancelled). The app checks it (`GmPin.matches`)."""

    CSS_PATH = DIALOGS_TCSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, who: str) -> None:
        super().__init__(id="pin-dialog")
        self.who = who

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog -narrow"):
            yield Static(Content.styled(f"Act as {self.who}", "bold"), id="dialog-title")
            yield Static("Only the GM hands the keyboard to another seat: type the GM's PIN.", id="dialog-help")
            yield Input(password=True, placeholder="GM PIN", id="pin-input", compact=True)
            with Horizontal(id="dialog-buttons"):
                yield Button("Act as GM", id="pin-ok", variant="primary", compact=True)
                yield Button("Cancel", id="pin-cancel", compact=True)
        yield KeyBar()  # the keys of this dialog, where the screen behind showed its own

    def on_mount(self) -> None:
        self.query_one("#pin-input", Input).focus()

    @on(Input.Submitted, "#pin-input")
    @on(Button.Pressed, "#pin-ok")
    def _entered(self, event: Input.Submitted | Button.Pressed) -> None:
        event.stop()
        self.dismiss(self.query_one("#pin-input", Input).value)

    @on(Button.Pressed, "#pin-cancel")
    def action_cancel(self) -> None:
        self.dismiss(None)


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
