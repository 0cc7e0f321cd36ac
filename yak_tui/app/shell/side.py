"""`SideScreen`: a screen pushed over the main screen of the mode it was opened from (Reports,
Season history). Escape goes back to it; a screen key (d, e, b, ...) leaves the side screen first,
so coming back to that mode later shows its main screen, not a side screen left behind."""

from __future__ import annotations

from typing import ClassVar

from textual.binding import Binding, BindingType

from yak_tui.app.kit import YakScreen
from yak_tui.app.navigation import SCREENS


class SideScreen(YakScreen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        *(Binding(nav.key, f"leave('{name}')", nav.title, show=False) for name, nav in SCREENS.items()),
    ]

    def action_close(self) -> None:
        self.app.pop_screen()

    def action_leave(self, name: str) -> None:
        self.yak.action_goto(name)  # leaves this side screen first, as a click on the nav bar does
