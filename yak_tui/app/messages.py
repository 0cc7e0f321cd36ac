"""What screens and the app share: typed messages that cross screens (handlers use `@on(...)`) and
the command palette's entries. Screens take these from here, never from `yak_tui.app.main`, so the
app imports its screens and no screen imports the app (the screens' table: `yak_tui.app.navigation`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple

from textual.message import Message

if TYPE_CHECKING:
    from yak_tui.kernel.world.model import World


class PaletteEntry(NamedTuple):
    """One command palette line: what it says, what it does, and whether it shows before typing."""

    title: str
    help: str
    callback: Callable[[], Any]
    discover: bool = False


class WorldChanged(Message):
    """The world was (re)loaded: another process wrote the save, a command ran, or the identity changed.

    Posted to every screen on the active stack; a screen re-renders with `refresh_view(world)`.
    """

    def __init__(self, world: World, version: int) -> None:
        super().__init__()
        self.world = world
        self.version = version


class FocusPlace(Message):
    """Show one document (`table`, `doc_id`) on the map: posted by the palette's jump to a name."""

    def __init__(self, table: str, doc_id: str) -> None:
        super().__init__()
        self.table = table
        self.doc_id = doc_id


class OrderAction(Message):
    """A screen asks for an order action (`resolve`, `reject`, `withdraw`) on `order_id`."""

    def __init__(self, action: str, order_id: str) -> None:
        super().__init__()
        self.action = action
        self.order_id = order_id
