"""Help: every key of the screen underneath, and of the app, with what it does."""

from __future__ import annotations

from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static

from yak_tui.app.kit import YakModal
from yak_tui.app.kit.keybar import KeyBar
from yak_tui.app.kit.styles import DIALOGS_TCSS

TIPS = (
    "ctrl+p opens the command palette: every screen, action and command, and a jump to any "
    "kingdom, province, character, place or force by name.",
    "Tables: arrows move, enter acts on the row. Dialogs: tab moves between fields, escape closes.",
    "While dice tumble any key shows the result at once.",
)


def _our_actions(node: object) -> set[str]:
    """Actions bound in yak's own classes (the app, our screens and widgets), not Textual's."""
    actions: set[str] = set()
    for cls in type(node).__mro__:
        if cls.__module__.startswith("yak_tui") and "BINDINGS" in cls.__dict__:
            for item in cls.__dict__["BINDINGS"]:
                actions.add(item.action if isinstance(item, Binding) else item[1])
    return actions


class HelpScreen(YakModal[None]):
    CSS_PATH = DIALOGS_TCSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,question_mark", "close", "Close")]

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog", classes="dialog -wide"):
            yield Static(Content.styled("Keys", "bold"), id="dialog-title")
            with VerticalScroll(id="dialog-body"):
                yield Static(self._keys(), id="keys")
        yield KeyBar()  # the keys of this dialog, where the screen behind showed its own

    def _keys(self) -> Content:
        stack = self.app.screen_stack
        under = stack[-1] if stack and stack[-1] is not self else stack[-2] if len(stack) > 1 else None
        lines: list[Content] = []
        if under is not None:
            seen: set[str] = set()
            here: list[tuple[str, str]] = []
            everywhere: list[tuple[str, str]] = []
            for key, active in under.active_bindings.items():
                binding = active.binding
                # Textual's own widget keys (cursor movement, paging) are not worth a line.
                if not binding.description or key in seen or binding.action not in _our_actions(active.node):
                    continue
                seen.add(key)
                display = binding.key_display or self.app.get_key_display(binding)
                row = (display, binding.description + ("" if active.enabled else " (not now)"))
                (everywhere if active.node is self.app else here).append(row)
            for title, rows in (("On this screen", here), ("Everywhere", everywhere)):
                if not rows:
                    continue
                lines.append(Content.styled(title, "bold $primary"))
                for display, description in rows:
                    lines.append(Content.assemble((f"  {display:>10}  ", "bold $accent"), description))
                lines.append(Content(""))
        lines.append(Content.styled("Tips", "bold $primary"))
        lines.extend(Content.styled(f"  • {tip}", "") for tip in TIPS)
        return Content("\n").join(lines)

    def on_mount(self) -> None:
        self.query_one("#dialog-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)
