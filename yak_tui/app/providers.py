"""The command palette (ctrl+p): every screen, every action, every command, every name.

The entries come from `YakApp.palette_actions(screen)` (screens, actions, commands; a screen extends
them with its own `palette_entries()`, so a rule screen adds its actions here without touching this
module) and `palette_names` (every seat, order and name the viewer may see: ~69,000 lines at 1000x).
The palette lists the actions at once; the names are gathered in a thread after its first frame,
once per world and seat (`SHARED_VIEWS`: shared by later openings and by the process's other apps),
and each query is matched off the event loop, its best `LISTED` lines listed.
"""

from __future__ import annotations

import asyncio
import heapq
import re
from collections.abc import Callable, Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Generic, NamedTuple, Protocol, TypeVar

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.fuzzy import Matcher

from yak_tui.app.messages import PaletteEntry

if TYPE_CHECKING:
    from yak_tui.kernel.play.identity import Identity
    from yak_tui.kernel.world.model import World

LISTED = 100
"""The most lines a query lists: the best by Textual's fuzzy score (typing more narrows them)."""

STOP_EVERY = 2048
"""How many lines a search scores between looks at whether a newer letter made it moot."""


class Line(Protocol):
    @property
    def title(self) -> str: ...

    @property
    def help(self) -> str: ...


LineType = TypeVar("LineType", bound=Line)


class PaletteName(NamedTuple):
    """A palette line about the world, kept free of any app so that apps can share it: `kind`
    ("act_as", "order" or "jump") and `target` say what the viewer's app does with it."""

    title: str
    help: str
    kind: str
    target: tuple[str, ...]


def letters_in_order(query: str) -> re.Pattern[str]:
    """A pattern for a lowercased line holding the query's letters in order within its title or its
    help (`title\\nhelp`: no letter gap crosses the line break): exactly the lines Textual's fuzzy
    matcher scores above 0, found at C speed."""
    letters = query.lower()
    parts = [re.escape(letters[:1])]
    parts += [f"[^{re.escape(letter)}\\n]*{re.escape(letter)}" for letter in letters[1:]]
    return re.compile("".join(parts))


class Catalogue(Generic[LineType]):
    """Palette lines and their lowercased text, searched a query at a time (off the event loop)."""

    def __init__(self, lines: Sequence[LineType]) -> None:
        self.lines = lines
        self.folded = [f"{line.title}\n{line.help}".lower() for line in lines]
        self.titles = frozenset(line.title.lower() for line in lines)

    def best(self, query: str, limit: int, stopped: Callable[[], bool]) -> list[tuple[float, LineType]] | None:
        """The `limit` best lines for `query` by the palette's score (the title's, or half the
        help's), the earlier first among equals; None once `stopped()` says a newer query came.

        Only a title that is the query itself scores above one holding the query at a word's start
        (`ceiling`, the score of the query followed by a space): once `limit` lines reach that, no
        later line can list before them, and the rest are not scored (a name typed, at 1000x)."""
        search = letters_in_order(query).search
        matcher = Matcher(query)
        ceiling = matcher.match(f"{query} ") if query.lower() not in self.titles else float("inf")
        helped: dict[str, float] = {}  # many lines share a help ("kingdom", "province · …")
        scored: list[tuple[float, int]] = []
        at_ceiling = 0
        for index, text in enumerate(self.folded):
            if index % STOP_EVERY == 0 and stopped():
                return None
            if search(text) is None:
                continue
            line = self.lines[index]
            help_score = helped.get(line.help)
            if help_score is None:
                help_score = helped[line.help] = matcher.match(line.help) * 0.5
            score = max(matcher.match(line.title), help_score)
            scored.append((score, index))
            if score >= ceiling:
                at_ceiling += 1
                if at_ceiling >= limit:
                    break
        return [(score, self.lines[index]) for score, index in heapq.nlargest(limit, scored, key=itemgetter(0))]


def name_lines(world: World, identity: Identity, may_switch: bool) -> tuple[PaletteName, ...]:
    """Every seat to act as (a GM's app), order to file (not the GM) and name to jump to that
    `identity` may see."""
    from yak_tui.areas.court import identities, search_items
    from yak_tui.kernel.play import views

    lines: list[PaletteName] = []
    if may_switch:
        lines += [
            PaletteName(f"Act as {seat.label}", f"identity {seat.identity}", "act_as", (seat.identity,))
            for seat in identities(world)
        ]
    if not identity.is_gm:
        lines += [
            PaletteName(f"File order: {choice.name}", choice.help, "order", (choice.name,))
            for choice in views.order_commands(world, identity)
        ]
    lines += [
        PaletteName(f"Jump to {item.name}", item.detail, "jump", (item.table, item.id))
        for item in search_items(world, identity)
    ]
    return tuple(lines)


def palette_names(world: World, identity: Identity, may_switch: bool) -> Catalogue[PaletteName]:
    """The names' catalogue, built once per world and seat for all the process's apps (slow at
    1000x: call it in a thread)."""
    from yak_tui.app.kit.screens import SHARED_VIEWS

    return SHARED_VIEWS.get(
        world,
        ("palette names", identity, may_switch),  # type: ignore[no-any-return]
        lambda: Catalogue(name_lines(world, identity, may_switch)),
    )


class YakCommands(Provider):
    """Fuzzy search over the app's palette entries (filtered for the acting identity)."""

    _actions: Catalogue[PaletteEntry] | None = None
    _names: asyncio.Future[Catalogue[PaletteName]] | None = None
    _asked = 0  # searches asked so far: a search in a thread stops when a newer one is asked

    async def startup(self) -> None:
        """The actions now (the palette's first frame lists them); the names after that frame."""
        app: Any = self.app
        self._actions = Catalogue(app.palette_actions(self.screen))
        app.call_after_refresh(self._start_gathering)

    def _start_gathering(self) -> None:
        """(Returns nothing: Textual would await a returned future, holding the app's messages.)"""
        self._gather_names()

    def _gather_names(self) -> asyncio.Future[Catalogue[PaletteName]]:
        if self._names is None:
            app: Any = self.app
            self._names = asyncio.ensure_future(
                asyncio.to_thread(palette_names, app.world, app.identity, app.may_switch_identity)
            )
        return self._names

    async def discover(self) -> Hits:
        for entry in self._actions.lines if self._actions is not None else ():
            if entry.discover:
                yield DiscoveryHit(entry.title, entry.callback, help=entry.help)

    async def search(self, query: str) -> Hits:
        self._asked += 1
        asked = self._asked

        def stopped() -> bool:
            return self._asked != asked

        try:
            # Shielded: a search given up (a newer letter) must not cancel the shared gathering.
            names = await asyncio.shield(self._gather_names())
            found = await asyncio.to_thread(self._best, query, names, stopped)
        except asyncio.CancelledError:
            if self._asked == asked:
                self._asked += 1  # the thread stops at its next look
            raise
        if found is None:
            return
        app: Any = self.app
        matcher = self.matcher(query)
        for score, line in found:
            entry = line if isinstance(line, PaletteEntry) else app.palette_entry(line)
            yield Hit(score, matcher.highlight(entry.title), entry.callback, text=entry.title, help=entry.help)

    def _best(
        self, query: str, names: Catalogue[PaletteName], stopped: Callable[[], bool]
    ) -> list[tuple[float, PaletteEntry | PaletteName]] | None:
        """The best `LISTED` lines of the actions and the names (the actions first among equals)."""
        found: list[tuple[float, PaletteEntry | PaletteName]] = []
        for catalogue in (self._actions, names):
            if catalogue is None:
                continue
            best = catalogue.best(query, LISTED, stopped)
            if best is None:
                return None
            found += best
        return heapq.nlargest(LISTED, found, key=itemgetter(0))

    async def shutdown(self) -> None:
        self._asked += 1  # the palette closed: a search still running stops
