"""A switch that says what it is set to: `■ on` / `□ off`.

Textual's Switch shows its state only by colour (a slider drawn in blank cells), which a terminal
with few colours, a screen reader or `tmux capture-pane` cannot tell apart: a GM once read "Dice by
hand" as on and got a random roll. This one draws the word beside the mark, and is a `Switch` in
every other way (`value`, `Switch.Changed`, space and enter to flip it).
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.geometry import Size
from textual.widgets import Switch


class Toggle(Switch):
    """A `Switch` drawn as `■ on` or `□ off`."""

    DEFAULT_CSS = """
    Toggle {
        width: auto;
        height: 1;
        border: none;
        padding: 0;
        background: transparent;
    }
    Toggle > .toggle--on { color: $text-success; text-style: bold; }
    Toggle > .toggle--off { color: $text-muted; }
    Toggle:focus { background-tint: $primary 30%; }
    """
    COMPONENT_CLASSES: ClassVar[set[str]] = {"switch--slider", "toggle--on", "toggle--off"}

    def render(self) -> Text:
        if self.value:
            return Text("■ on ", style=self.get_component_rich_style("toggle--on"))
        return Text("□ off", style=self.get_component_rich_style("toggle--off"))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return 5
