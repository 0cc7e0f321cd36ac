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

HELP_WIDTH = 110  # `.dialog.-wide` in dialogs.tcss
HELP_CHROME = 10  # columns the dialog's border, padding and scrollbars take


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
                yield Static(self._keys(self.app.size.width), id="keys")
        yield KeyBar()  # the keys of this dialog, where the screen behind showed its own

    def on_resize(self) -> None:
        """Re-flow the key columns for the new width (more columns fit a wider terminal)."""
        self.query_one("#keys", Static).update(self._keys(self.app.size.width))

    def _rows(self) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
        """The keys of the screen underneath, then the app's: (key shown, what it does)."""
        stack = self.app.screen_stack
        under = stack[-1] if stack and stack[-1] is not self else stack[-2] if len(stack) > 1 else None
        here: list[tuple[str, str]] = []
        everywhere: list[tuple[str, str]] = []
        if under is None:
            return here, everywhere
        seen: set[str] = set()
        for key, active in under.active_bindings.items():
            binding = active.binding
            # Textual's own widget keys (cursor movement, paging) are not worth a line.
            if not binding.description or key in seen or binding.action not in _our_actions(active.node):
                continue
            seen.add(key)
            display = binding.key_display or self.app.get_key_display(binding)
            row = (display, binding.description + ("" if active.enabled else " (not now)"))
            (everywhere if active.node is self.app else here).append(row)
        return here, everywhere

    def _keys(self, width: int) -> Content:
        """Each section's keys in as many columns as the terminal's width holds, so the tips
        (the palette first) stay on screen in a tall list of keys."""
        lines: list[Content] = []
        usable = max(1, min(width, HELP_WIDTH) - HELP_CHROME)
        for title, rows in zip(("On this screen", "Everywhere"), self._rows(), strict=True):
            if not rows:
                continue
            lines.append(Content.styled(title, "bold $primary"))
            cells = [
                Content.assemble((f"  {display:>10}  ", "bold $accent"), description) for display, description in rows
            ]
            column = max(cell.cell_length for cell in cells) + 2
            columns = max(1, min(len(cells), usable // column))
            height = -(-len(cells) // columns)
            for row in range(height):
                parts = [cells[index] for index in range(row, len(cells), height)]
                lines.append(
                    Content("").join(part.pad_right(column - part.cell_length) for part in parts[:-1]) + parts[-1]
                )
            lines.append(Content(""))
        lines.append(Content.styled("Tips", "bold $primary"))
        lines.extend(Content.styled(f"  • {tip}", "") for tip in TIPS)
        return Content("\n").join(lines)

    def on_mount(self) -> None:
        self.query_one("#dialog-body").focus()

    def action_close(self) -> None:
        self.dismiss(None)
