"""The footer: the keys that work here and now, one line, clickable.

Textual's `Footer` builds a widget per key and restyles them all on every focus change, which
costs more at startup than the rest of the dashboard; this draws the same line as one Content
and redraws it when the screen's bindings change. A click on a key presses it.
"""

from __future__ import annotations

from typing import Any

from textual.content import Content
from textual.widget import Widget


class KeyBar(Widget):
    """Every shown binding of the focused widget, the screen and the app; `^p palette` on the right."""

    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        background: $panel;
        color: $foreground;
        text-wrap: nowrap;
        text-overflow: ellipsis;
        link-style: none;
        link-background-hover: $primary 25%;
        link-style-hover: none;
    }
    """

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self._bindings_changed)

    def _bindings_changed(self, _screen: Any) -> None:
        self.refresh()

    def keys(self) -> list[tuple[str, str, str, bool]]:
        """(key, key as shown, description, enabled) of every binding shown here, in the footer's order."""
        out: list[tuple[str, str, str, bool]] = []
        seen: set[str] = set()
        for key, active in self.screen.active_bindings.items():
            binding = active.binding
            if not binding.show or not binding.description or binding.action in seen:
                continue
            seen.add(binding.action)
            out.append((key, self.app.get_key_display(binding), binding.description, active.enabled))
        return out

    def render(self) -> Content:
        parts: list[Content] = []
        for key, shown, description, enabled in self.keys():
            style = "" if enabled else "dim"
            parts.append(
                Content.assemble(
                    Content.from_markup(
                        f"[@click=app.simulate_key('{key}')]"
                        f"[b $footer-key-foreground] $shown [/][$foreground-muted]$description [/][/]",
                        shown=shown,
                        description=description,
                    )
                ).stylize(style)
            )
        line = Content("").join(parts)
        palette = (
            Content.from_markup("[@click=app.command_palette][b $footer-key-foreground]^p[/] palette [/]")
            if getattr(self.app, "ENABLE_COMMAND_PALETTE", False)
            else Content("")
        )
        room = self.size.width - line.cell_length - palette.cell_length
        if room < 1:
            return line
        return Content.assemble(line, " " * room, palette)
