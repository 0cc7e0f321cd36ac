"""The two bases of every screen of the app: `YakScreen` (a main screen) and `YakModal` (a dialog).

Both keep the focus on live widgets of their own (`FocusGuard`) and reach the app as `self.yak`.

A main screen shares header, nav bar, footer, and live re-rendering: it subclasses `YakScreen`, sets `SCREEN_NAME`, yields its body from `compose_body()` and
draws read-model data. `refresh_view(world)` is called on mount, whenever the world changes (another
process wrote the save, a command ran, the identity changed) while the screen is shown, and when the
screen comes back into view after a change. By default it builds the screen's read model with
`build_view(world, identity)` in a thread worker (a `CommandWorker`: only the newest build is shown)
and hands the plain rows to `paint_view(view)` on the event loop, so a big world never freezes the
keyboard. A screen that names what its read model depends on besides the world and the identity
(`view_key()`) shares it with the other apps of the process (`SHARED_VIEWS`: one build per change
for every session on the same seat). Screens never compute rules: they render.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Hashable
from functools import partial
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen

from yak_tui.app.kit.focus import FocusGuard
from yak_tui.app.kit.header import NavBar, YakHeader
from yak_tui.app.kit.keybar import KeyBar
from yak_tui.app.kit.worker import CommandWorker
from yak_tui.app.kit.yak import yak_of
from yak_tui.app.messages import WorldChanged

if TYPE_CHECKING:
    from yak_tui.app.main import YakApp
    from yak_tui.app.messages import PaletteEntry
    from yak_tui.kernel.identity import Identity
    from yak_tui.kernel.model import World


NARROW = 110
ResultType = TypeVar("ResultType")


class _Built:
    """One read model being built or built: the first app to ask builds it, the others wait for it."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.done = False
        self.view: Any = None


class SharedViews:
    """The read models of the apps of one process (`yak serve`'s sessions, the bench's apps), kept
    per `World` object: a read model is a pure function of the world, the identity and the screen's
    `view_key`, so apps on the same world and seat build each one once per change (read models are
    plain rows, and screens only read them). A world no app holds any more drops its read models."""

    def __init__(self) -> None:
        self._guard = threading.Lock()
        self._built: weakref.WeakKeyDictionary[World, dict[Hashable, _Built]] = weakref.WeakKeyDictionary()

    def get(self, world: World, key: Hashable, build: Callable[[], Any]) -> Any:
        """The read model for `key` on `world`, built by `build()` unless an app already has it."""
        with self._guard:
            built = self._built.setdefault(world, {}).setdefault(key, _Built())
        with built.lock:
            if not built.done:
                built.view = build()  # raises: not kept, the next app tries again
                built.done = True
            return built.view


SHARED_VIEWS = SharedViews()


class YakModal(FocusGuard, ModalScreen[ResultType], Generic[ResultType]):
    """A dialog over a screen; `dismiss(value)` hands its `ResultType` back."""

    @property
    def yak(self) -> YakApp:
        return yak_of(self)


class YakScreen(FocusGuard, Screen[None]):
    """A main screen (one per app mode): header, nav bar, body, key bar."""

    SCREEN_NAME = ""
    # The GM's editor on the row under the cursor: shift+e, as `e` goes to the espionage screen
    # (the World screen, where nothing else wants it, takes `e` too). Hidden from everyone else.
    BINDINGS: ClassVar[list[BindingType]] = [Binding("E", "app.edit_row", "Edit", show=False, key_display="E")]
    # The hook `edit_target` reads: (a focused table's id, the world table its row keys name)
    # ("": the keys are `table:id` themselves). A screen with another cursor overrides `edit_target`.
    EDIT_ROWS: ClassVar[tuple[tuple[str, str], ...]] = ()

    def __init__(self) -> None:
        super().__init__(id=f"screen-{self.SCREEN_NAME}")
        self._seen_version = -1
        self.loader: CommandWorker[tuple[Identity, Any]] = CommandWorker(self, f"load-{self.SCREEN_NAME}",
                                                                          self._loaded)

    @property
    def yak(self) -> YakApp:
        return yak_of(self)

    @property
    def identity(self) -> Identity:
        return self.yak.identity

    def compose(self) -> ComposeResult:
        yield YakHeader(id="header")
        yield NavBar(self.SCREEN_NAME)
        yield from self.compose_body()
        yield KeyBar()

    def compose_body(self) -> ComposeResult:
        yield from ()

    def refresh_view(self, world: World) -> None:
        """Draw the screen's views for the acting identity: build them off the event loop, then paint.
        A screen whose drawing needs no read model may override this instead."""
        self.loader.start(partial(self._build, world, self.identity))

    def build_view(self, world: World, identity: Identity) -> Any:
        """The screen's read model (runs in a worker thread: touch no widget here)."""
        return None

    def view_key(self) -> Hashable | None:
        """What, besides the world and the identity, `build_view` depends on (e.g. a chosen noble):
        a screen that returns one shares its read models with the other apps of the process
        (`SHARED_VIEWS`); None (the default) builds its own."""
        return None

    def paint_view(self, view: Any) -> None:
        """Draw `view`, the result of `build_view`, on the event loop."""

    def _build(self, world: World, identity: Identity) -> tuple[Identity, Any]:
        key = self.view_key()
        if key is None:
            return identity, self.build_view(world, identity)
        return identity, SHARED_VIEWS.get(world, (type(self), identity, key),
                                          partial(self.build_view, world, identity))

    def _loaded(self, built: tuple[Identity, Any]) -> None:
        identity, view = built
        if not self.is_mounted:
            return
        if identity != self.identity:  # the seat changed while it was being built: build it again
            self.refresh_view(self.yak.world)
            return
        self.paint_view(view)

    def palette_entries(self) -> list[PaletteEntry]:
        """Extra command palette lines for this screen (its own actions)."""
        return []

    def edit_target(self) -> tuple[str, str] | None:
        """The document under the cursor as (table, id), for the GM's editor; None when there is none."""
        focused = self.focused
        table = dict(self.EDIT_ROWS).get(focused.id or "") if focused is not None else None
        cursor_key = getattr(focused, "cursor_row_key", None)
        key = cursor_key() if table is not None and callable(cursor_key) else None
        if not key:
            return None
        if not table:
            table, _, key = str(key).partition(":")
        world = self.yak.world
        return (table, str(key)) if table in world.data and world.find(table, str(key)) is not None else None

    # -- live ----------------------------------------------------------------------------------------
    def on_mount(self) -> None:
        self._sync()

    def on_resize(self, event: events.Resize) -> None:
        """`-narrow` below 110 columns: `.columns` stack into one scrolling column (see yak.tcss)."""
        self.set_class(event.size.width < NARROW, "-narrow")

    def on_screen_resume(self) -> None:
        self._sync()

    @on(WorldChanged)
    def _world_changed(self, event: WorldChanged) -> None:
        self._sync()

    def _sync(self) -> None:
        if not self.is_mounted or self._seen_version == self.yak.world_version:
            return
        self._seen_version = self.yak.world_version
        self.refresh_view(self.yak.world)
