"""Typed messages that cross screens. Handlers use `@on(...)`; nothing else couples screens."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from yak_tui.kernel.model import World


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
