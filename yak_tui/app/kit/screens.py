"""The two bases of every screen of the app: `YakScreen` (a main screen) and `YakModal` (a dialog).

Both keep the focus on live widgets of their own (`FocusGuard`) and reach the app as `self.yak`.

A main screen shares header, nav bar, footer, and live re-rendering: it subclasses `YakScreen`, sets `SCREEN_NAME`, yields its body from `compose_body()` and
draws read-model data. `refresh_view(world)` is called on mount, whenever the world changes (another
process wrote the save, a command ran, the identity changed) while the screen is shown, and when the
screen comes back into view after a change. By default it builds the screen's read model with
`build_view(world, identity)` in a thread worker (a `CommandWorker`: only the newest build is shown)
and hands the plain rows to `paint_view(view)` on the event loop, so a big world never freezes the
keyboard. A screen that names what its read model depends on besides the world and the identity
(`view_key()`) shares it with the other apps of the process (`SHARED_VIEWS`: the apps of one process on the same
seat build it once per change). Screens never compute rules: they render.
"""

from __future__ import annotations

import gc
import importlib
import threading
import weakref
from collections.abc import Callable, Hashable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from textual import events, on
from textual._context import active_app
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen, Screen

from yak_tui.app.kit.focus import FocusGuard
from yak_tui.app.kit.header import NavBar, YakHeader
from yak_tui.app.kit.keybar import KeyBar
from yak_tui.app.kit.running_app import ActingKeys, yak_of
from yak_tui.app.kit.worker import CommandWorker
from yak_tui.app.messages import WorldChanged
from yak_tui.app.navigation import SCREENS, SIDE_SCREENS, screen_class

if TYPE_CHECKING:
    from yak_tui.app.main import YakApp
    from yak_tui.app.messages import PaletteEntry
    from yak_tui.kernel.play.identity import Identity
    from yak_tui.kernel.world.model import World


NARROW = 110
TINY = 60  # a dialog's buttons shrink to their labels below this many columns
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
    """A dialog over a screen; `dismiss(value)` hands its `ResultType` back.

    Page up and page down scroll its body (`#dialog-body`, else the dialog) wherever the focus is,
    unless the focused widget scrolls itself: the keys reach what the eye reads."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("pagedown", "page_body(1)", "Page down", show=False),
        Binding("pageup", "page_body(-1)", "Page up", show=False),
    ]
    KEYS_WAIT = 0.02  # seconds between two looks for the dialog's first focus
    KEYS_LOOKS = 50  # looks before the keys held go wherever the focus then is

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._keys_ready = False
        self._held_keys: list[events.Key] = []
        self._replays: list[events.Key] = []

    # -- keys typed while the dialog is being built --------------------------------------------------
    # The keys that follow the one that opened a dialog (a fast typist, a paste) reach it before it
    # has put its focus on its first field: they went to no widget, or to the wrong one. The app asks
    # `hold_key` before it routes a key; keys are held until the dialog has its focus, then sent on
    # in the order typed (a key that comes while they are sent on goes after them).
    def hold_key(self, event: events.Key) -> bool:
        """Whether the app must leave `event` to this dialog (it is held, or sent on later)."""
        if any(event is replay for replay in self._replays):
            self._replays = [replay for replay in self._replays if replay is not event]
            return False
        if self._keys_ready and not self._replays:
            return False
        if self._keys_ready:
            self._send_on(event)
        else:
            self._held_keys.append(event)
        return True

    def _send_on(self, event: events.Key) -> None:
        replay = events.Key(event.key, event.character)
        # No sender, as a key from the terminal: a key "sent" by this screen would stop bubbling at
        # it, and the app would never run the binding it names (enter on an option list).
        replay.set_sender(None)  # type: ignore[arg-type]
        replay._yak_held_by_dialog = True  # type: ignore[attr-defined]  # typed before any key the app holds back
        self._replays.append(replay)
        self.app.post_message(replay)

    @on(events.Mount)
    def _watch_first_focus(self) -> None:
        self.call_after_refresh(self._look_for_focus, self.KEYS_LOOKS)

    def _look_for_focus(self, looks: int) -> None:
        if (self.focused is None or not self.is_mounted) and looks > 0:
            self.set_timer(self.KEYS_WAIT, partial(self._look_for_focus, looks - 1), name="first-focus")
            return
        self._keys_ready = True
        held, self._held_keys = self._held_keys, []
        for event in held:
            self._send_on(event)

    @on(events.Resize)
    def _size_class(self, event: events.Resize) -> None:
        """`-tiny` below 60 columns: the buttons lose their least width (dialogs.tcss), so a row
        of them fits a 40-column terminal."""
        self.set_class(event.size.width < TINY, "-tiny")

    def action_page_body(self, direction: int) -> None:
        for selector in ("#dialog-body", "#dialog"):
            for body in self.query(selector):
                if body.display and body.max_scroll_y > 0:
                    (body.scroll_page_down if direction > 0 else body.scroll_page_up)(animate=False)
                    return

    @property
    def yak(self) -> YakApp:
        return yak_of(self)


class YakScreen(ActingKeys, FocusGuard, Screen[None]):
    """A main screen (one per app mode): header, nav bar, body, key bar. Its keys that act on the
    world are named in `ACTS` (`ActingKeys`): an observer never sees them."""

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
        app = active_app.get(None)
        if app is not None and app in _WARMED and stylesheet_holds(app, type(self)):
            # The app's stylesheet was parsed with this screen's CSS in it (the warm-up): the screen
            # is styled as it mounts, so Textual need not parse and apply every stylesheet again
            # (twice) on its first visit, as it does for a screen it has never styled.
            self._css_update_count = app._css_update_count
        self.loader: CommandWorker[tuple[Identity, Any]] = CommandWorker(self, f"load-{self.SCREEN_NAME}", self._loaded)

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
        A screen whose drawing needs no read model may override this instead. The first screen of
        an app alone in its process builds its first one at once (`YakApp.take_first_view_inline`)."""
        if self.yak.take_first_view_inline():
            self._loaded(self._build(world, self.identity))
            return
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
        return identity, SHARED_VIEWS.get(world, (type(self), identity, key), partial(self.build_view, world, identity))

    def _loaded(self, built: tuple[Identity, Any]) -> None:
        identity, view = built
        if not self.is_mounted:
            return
        if identity != self.identity:  # the seat changed while it was being built: build it again
            self.refresh_view(self.yak.world)
            return
        self.paint_view(view)
        self._painted()
        if self.yak not in _WARMED:
            self.set_timer(WARM_UP_AFTER, partial(warm_up, self.yak), name="warm-up")
        elif type(self) not in _FROZEN_AFTER and self.SCREEN_NAME in SCREENS:
            self.set_timer(WARM_UP_AFTER, partial(freeze_visited, type(self)), name="freeze-visited")

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
        return (table, str(key)) if world.has_table(table) and world.find(table, str(key)) is not None else None

    # -- live ----------------------------------------------------------------------------------------
    def on_mount(self) -> None:
        self._styled_now()
        self._sync()

    def _styled_now(self) -> None:
        """A screen made before the warm-up is styled as it mounts, but Textual counts it unstyled:
        the app's first screen (the CSS refresh at its start ran before it was mounted) and any screen
        first shown before the warm-up. Shown again, Textual then parsed the whole stylesheet anew and
        restyled every widget of the app (50-130 ms at 100x). It is styled with the app's theme as it
        is now, unless a theme change is still on its way (that refresh restyles it anyway)."""
        app = self.app
        if self._css_update_count < 0 and app.stylesheet._variables == app.get_css_variables():
            self._css_update_count = app._css_update_count

    def on_resize(self, event: events.Resize) -> None:
        """`-narrow` below 110 columns: `.columns` stack into one scrolling column (see yak.tcss)."""
        self.set_class(event.size.width < NARROW, "-narrow")

    def on_screen_resume(self, event: events.ScreenResume | None = None) -> None:
        """Catch up with the world; and a screen shown again keeps its styles unless the stylesheet
        changed meanwhile. Textual's mode switch restyles every node of the screen on each visit
        (its `pop_screen` never does), which makes every table render each of its cells again:
        80-290 ms to show a screen already built. A stylesheet change (a theme) still restyles it:
        `switch_mode` refreshes the CSS of a screen whose update count is behind the app's."""
        if event is not None and event.refresh_styles and self._css_update_count == self.app._css_update_count:
            event.refresh_styles = False
        self._sync()

    @on(WorldChanged)
    def _world_changed(self, event: WorldChanged) -> None:
        self._sync()

    def _sync(self) -> None:
        if not self.is_mounted or self._seen_version == self.yak.world_version:
            return
        self._seen_version = self.yak.world_version
        self.refresh_view(self.yak.world)
        if not self.loader.pending:  # painted at once (or nothing to paint)
            self._painted()

    def _compositor_refresh(self) -> None:
        """No frame is drawn while the app holds the frames of this screen, being opened
        (`YakApp.hold_frames`): Textual would draw it (its layout done, the screen resized) only to
        drop it unshown. The hold's end draws the whole screen."""
        if self.app._batch_count and self is self.app.screen and self.yak.holds_frames:
            return
        super()._compositor_refresh()

    def _painted(self) -> None:
        """The screen shown has its data: the frames held while it was opened may show it."""
        if self.app.screen is self:
            self.yak.release_frames()


# -- the warm-up: a screen's first visit pays neither for its imports nor for parsing its CSS -----
WARM_UP_AFTER = 0.2  # seconds after the first screen painted its data
_WARMED: weakref.WeakSet[App[Any]] = weakref.WeakSet()


def screen_classes() -> list[type[Screen[Any]]]:
    """The main screens' classes, imported (each module once per process), and the read models of
    their areas (an area loads them when first used: kernel/play/lazy.py); then the side screens'."""
    for nav in SCREENS.values():
        area = importlib.import_module(f"yak_tui.areas.{nav.module.split('.')[0]}")
        for name in area.__all__:
            getattr(area, name)
    side = [getattr(importlib.import_module(module), cls) for module, cls in SIDE_SCREENS]
    return [*(screen_class(nav.module, nav.cls) for nav in SCREENS.values()), *side]


def css_paths(screen: type[Screen[Any]]) -> list[Path]:
    """A screen class's CSS files, as Textual resolves them (our CSS_PATHs are absolute)."""
    paths = screen.CSS_PATH if isinstance(screen.CSS_PATH, list) else [screen.CSS_PATH] if screen.CSS_PATH else []
    return [Path(path).absolute() for path in paths]


def stylesheet_holds(app: App[Any], screen: type[Screen[Any]]) -> bool:
    """Whether the app's stylesheet already holds (and has parsed) every CSS file of `screen`."""
    sheet = app.stylesheet
    return not sheet._require_parse and all(sheet.has_source(str(path), "") for path in css_paths(screen))


def warm_up(app: App[Any]) -> None:
    """Once per app, when its first screen is painted: import every main screen's module in a thread
    (once per process: the other apps of a `yak serve` find them imported) and then, on the event
    loop, add their CSS files to the app's stylesheet with one parse. No read model is built: a
    session pays for the screens it visits only."""
    if app in _WARMED or not app.is_running:
        return
    _WARMED.add(app)
    loader: CommandWorker[list[type[Screen[Any]]]] = CommandWorker(app, "warm-up", partial(_add_css, app))
    loader.start(screen_classes)


def _add_css(app: App[Any], screens: list[type[Screen[Any]]]) -> None:
    sheet = app.stylesheet
    missing = [path for screen in screens for path in css_paths(screen) if not sheet.has_source(str(path), "")]
    for path in missing:
        sheet.read(path)
    if missing:
        # Parsed in place, not afresh (`reparse`, as Textual does for a screen's CSS): the sheet keeps
        # every source's parse, and a widget's CSS added on a first visit (a Select, a DataTable)
        # costs that CSS alone, not the 20-odd sources again (about 10 ms at a first visit).
        sheet.parse()
    _freeze_once()


_FROZEN: list[bool] = []
_FROZEN_AFTER: set[type[Screen[Any]]] = set()  # the main screens whose first paint was frozen


def freeze_visited(screen: type[Screen[Any]]) -> None:
    """Once per process and main screen, a moment after its first paint: collect, then freeze what
    is alive, as `_freeze_once` does after the warm-up. A screen's first visit leaves a hundred
    thousand objects at 100x (its widgets, its read model, Textual's caches of rendered lines), all
    alive as long as the app; the collector's full collections walked them all again, and one fell
    in most of the next visits: 50-170 ms, more with every screen visited. Not while any app of the
    process shows a dialog or a side screen: those are dropped when closed, and a frozen object
    in a reference cycle is never collected."""
    if screen in _FROZEN_AFTER or not _FROZEN:
        return
    if any(len(app.screen_stack) > 1 for app in list(_WARMED) if app.is_running):
        return  # the next first visit tries again
    _FROZEN_AFTER.add(screen)
    gc.collect()
    gc.freeze()


def _freeze_once() -> None:
    """Once per process, after the first warm-up: collect, then move every object alive (modules,
    classes, the first app's widgets) out of the collector's sight, as `storage.collector_paused`
    does for a world it reads. A full collection then scans only what was made since: at 100x one
    fell in the middle of most first visits and took about 40 ms."""
    if not _FROZEN:
        _FROZEN.append(True)
        gc.collect()
        gc.freeze()
        gc.enable()  # `yak tui` starts with it paused until now (`cli.commands.verb_tui`)
