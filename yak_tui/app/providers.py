"""The command palette (ctrl+p): every screen, every action, every command, every name.

The entries come from `YakApp.palette_entries(screen)`, which a screen extends with its own
`palette_entries()`; so a rule screen adds its actions here without touching this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.command import DiscoveryHit, Hit, Hits, Provider

if TYPE_CHECKING:
    from yak_tui.app.messages import PaletteEntry


class YakCommands(Provider):
    """Fuzzy search over the app's palette entries (filtered for the acting identity)."""

    _cached: list[PaletteEntry] | None = None

    async def startup(self) -> None:
        """Gather the entries once per palette opening, in a thread: each keystroke only matches."""
        import asyncio

        self._cached = await asyncio.to_thread(self._gather)

    def _gather(self) -> list[PaletteEntry]:
        app: Any = self.app
        entries: list[PaletteEntry] = app.palette_entries(self.screen) if hasattr(app, "palette_entries") else []
        return entries

    def _entries(self) -> list[PaletteEntry]:
        return self._cached if self._cached is not None else self._gather()

    async def discover(self) -> Hits:
        for entry in self._entries():
            if entry.discover:
                yield DiscoveryHit(entry.title, entry.callback, help=entry.help)

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for entry in self._entries():
            score = max(matcher.match(entry.title), matcher.match(entry.help) * 0.5)
            if score > 0:
                yield Hit(score, matcher.highlight(entry.title), entry.callback, text=entry.title, help=entry.help)
