"""The yak Textual app: one world file, one acting identity, six screens and their dialogs.

The app owns the live world: it polls the save's stamp every half second and reloads it in a
thread worker when another process (an SSH session, `yak do`) wrote it, then tells every open
screen with a `WorldChanged` message. Commands run through `execute()` inside thread workers,
the one transaction path of the world layer, and the reload that follows reaches every screen
the same way. Screens only render read models (`yak_tui.kernel.play.views`, each area's public names); nothing here does rule arithmetic.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from textual import events
from textual.app import App, ScreenError
from textual.binding import Binding, BindingType
from textual.reactive import reactive, var
from textual.screen import Screen

from yak_tui.app.kit.focus import repair_focus
from yak_tui.app.messages import FocusPlace, PaletteEntry, WorldChanged
from yak_tui.app.navigation import AREA_ACTIONS, SCREENS, screen_class
from yak_tui.app.palette import palette_actions
from yak_tui.app.providers import PaletteName, YakCommands
from yak_tui.app.reads import SHARED_READS
from yak_tui.app.shell.side import SideScreen
from yak_tui.app.themes import THEMES, YAK_DARK, YAK_LIGHT, preferred_theme
from yak_tui.kernel.play.identity import GM, Identity, identity_label
from yak_tui.kernel.world.model import World
from yak_tui.store.files import Stamp
from yak_tui.store.storage import WorldFile

if TYPE_CHECKING:
    from textual.widget import AwaitMount

    from yak_tui.app.shell.identity import GmPin
    from yak_tui.kernel.play.commands import CommandResult
    from yak_tui.kernel.play.dice import Dice


ROUTED = "_yak_routed_to"  # the screen a key was first routed to (an attribute set on the key)
TAB_REPLAY = "_yak_tab_replay"  # a key sent on after the keys typed before it were handled
TAB_WAIT = 0.01  # seconds between two looks at the keys still on their way
TAB_LOOKS = 100  # looks before the keys waiting go on regardless
FIRST_PAINT_HOLD = 0.25  # seconds a new screen's frames wait at most for its data (`hold_frames`)


def queued_messages(node: Any) -> list[Any]:
    """The messages waiting in a widget's, screen's or app's queue (Textual's own `Queue` keeps
    them in `values`; nothing if a later Textual keeps them elsewhere)."""
    return list(getattr(node._message_queue, "values", ()))


def _screen_factory(name: str) -> Callable[[], Screen[Any]]:
    """Screens are imported when first shown, so startup pays only for the dashboard."""

    def make() -> Screen[Any]:
        return screen_class(SCREENS[name].module, SCREENS[name].cls)()

    return make


class Outcome(NamedTuple):
    """What a command run from a dialog produced, with the world as it now is."""

    result: CommandResult
    world: World


# How often an app looks at the save's stamp for another process's write. One stat a look: 30 idle
# apps cost ~0.05 CPU-s a second in all (issue 30). Another's write is seen within a quarter of a
# second, an eighth on average: 0.5 s kept the last of 30 apps' terminals past a second after a note.
SAVE_POLL_SECONDS = 0.25


class YakApp(App[None]):
    """You Are King, at the table: the GM's console and each player's window on the campaign."""

    # Absolute: subclasses may live anywhere. The dashboard's own sheet too: it is the first screen
    # of every start, and a sheet a screen brings when it mounts makes Textual parse every sheet again.
    CSS_PATH: ClassVar[list[str | PurePath]] = [
        Path(__file__).with_name("yak.tcss"),
        Path(__file__).parent / "screens" / "court" / "dashboard.tcss",
    ]
    TITLE = "yak"
    COMMANDS = App.COMMANDS | {YakCommands}
    COMMAND_PALETTE_DISPLAY = "^p"
    MODES: ClassVar[dict[str, str | Callable[[], Screen[Any]]]] = {name: _screen_factory(name) for name in SCREENS}
    DEFAULT_MODE = "dashboard"  # the first screen is the dashboard itself, not an empty one to switch from
    _showing_built_screen = False  # within `switch_mode`: the mode's screen exists (`delay_update`)
    _switching = False  # within `switch_mode`
    _held_frames: Callable[[], None] | None = None  # ends `hold_frames`
    BINDINGS: ClassVar[list[BindingType]] = [
        *(Binding(nav.key, f"goto('{name}')", nav.title, show=False) for name, nav in SCREENS.items()),
        Binding("r", "roll", "Roll"),
        Binding("a", "advance", "Advance"),
        Binding("o", "file_order", "Order"),
        *(Binding(action.key, f"area('{name}')", action.title, show=False) for name, action in AREA_ACTIONS.items()),
        Binding("i", "switch_identity", "Identity"),
        # The same key on a seat that cannot hand the keyboard on: it says why (kept off the key bar).
        Binding("i", "refuse_identity", "Identity", show=False),
        Binding("u", "undo", "Undo", show=False),
        Binding("w", "world", "World (GM)", show=False),
        Binding("R", "reports", "Reports", show=False),
        Binding("H", "history", "Season history", show=False),
        Binding("question_mark", "help", "Help", key_display="?"),
        Binding("ctrl+t", "toggle_theme", "Theme", show=False),
        Binding("q", "quit", "Quit"),
        # Priority, so the focus has moved before the next key is routed: a value typed (or pasted)
        # right after tab lands in the next field, not in the one being left.
        Binding("tab", "focus_next", show=False, priority=True),
        Binding("shift+tab", "focus_previous", show=False, priority=True),
    ]

    identity: reactive[Identity] = reactive(GM, init=False)
    animations: reactive[bool] = reactive(True, init=False)
    dice_by_hand: reactive[bool] = reactive(False, init=False)
    world_version: var[int] = var(0)

    def __init__(
        self,
        path: str | Path,
        identity: Identity | str = GM,
        animations: bool = True,
        *,
        world: World | None = None,
        poll_interval: float = SAVE_POLL_SECONDS,
        cursor_blink: bool | None = None,
        stamp: Stamp | None = None,
        gm_pin: str | None = None,
        first_view_inline: bool = False,
    ) -> None:
        super().__init__()
        # The app alone in its process (`yak tui`): its first screen builds its first read model on
        # the event loop, before the first frame, so that frame is the screen with its data rather
        # than an empty one drawn, laid out and drawn again (~30-45 ms CPU of a start at 100x). The
        # save is read before the first frame anyway. Never for the sessions `yak serve` runs in one
        # process: one session's start would hold up the others' screens.
        self._first_view_inline = first_view_inline
        # Hotseat (`yak tui --gm-pin`): going back to a GM seat asks for this PIN; only its hash is kept.
        self._gm_pin: GmPin | None = None
        if gm_pin is not None:
            from yak_tui.app.shell.identity import GmPin

            self._gm_pin = GmPin(gm_pin)
        self._pin_passed = False  # set only while `switch_identity` hands over a seat the PIN opened
        self.save = WorldFile(path)
        # The first read happens before the first paint so the dashboard opens with data;
        # every later read runs in a thread worker.
        if world is None:
            self._stamp, self.world = SHARED_READS.read(self.save)
        elif stamp is not None:  # the save's version that world was read from: the next reload starts from it
            self.world, self._stamp = world, stamp
            SHARED_READS.wrote(self.save, stamp, world)
        else:
            self.world, self._stamp = world, self.save.stamp()
        ident = Identity.parse(identity) if isinstance(identity, str) else identity
        self.launched_as = ident
        self.set_reactive(YakApp.identity, ident)
        self.set_reactive(YakApp.animations, animations)
        self.poll_interval = poll_interval
        self._held = 0
        self._deferred_keys: list[events.Key] = []
        self._keys_ahead = 0  # of the keys waiting, those a dialog held (typed before the rest)
        self._pending = False
        self._reloading = False
        self.cursor_blink = (self.animation_level != "none" and animations) if cursor_blink is None else cursor_blink
        for theme in THEMES:
            self.register_theme(theme)
        self._start_theme(preferred_theme())

    def take_first_view_inline(self) -> bool:
        """Whether the screen asking builds its read model now, on the event loop (once per app)."""
        inline, self._first_view_inline = self._first_view_inline, False
        return inline

    def _start_theme(self, name: str) -> None:
        """The theme the app starts in, set before any CSS is parsed. Assigning `theme` here would
        make Textual parse every sheet again once running (and again when the first screen mounts);
        nothing is parsed yet, so giving the stylesheet the theme's variables now is the whole change.
        What the theme's watcher does besides (its classes, the ANSI colours' mapping) is done here."""
        self.set_reactive(App.theme, name)
        theme = self.current_theme
        self.set_class(True, f"-theme-{name}", update=False)
        self.set_class(theme.dark, "-dark-mode", update=False)
        self.set_class(not theme.dark, "-light-mode", update=False)
        refresh_filter = getattr(self, "_refresh_truecolor_filter", None)
        if callable(refresh_filter):
            refresh_filter(self.ansi_theme)
        self.stylesheet.set_variables(self.get_css_variables())

    def refresh_css(self, animate: bool = True) -> None:
        """Textual's refresh, less a parse that would change nothing. Textual refreshes the CSS for a
        mode's first screen (the first of every start too) even when the theme is the one the sheets
        were parsed with: setting the same variables again emptied the sheet's parse cache, then every
        sheet was parsed afresh, and again when the screen mounted (three parses at the start instead
        of one; issue 30). What else Textual's refresh does (restyle the app and every screen) is done
        as Textual does it (textual 8)."""
        sheet = self.stylesheet
        if sheet._require_parse or sheet._variables != self.get_css_variables():
            super().refresh_css(animate)
            return
        sheet.update(self, animate=animate)
        try:
            if self.screen.is_mounted:
                self.screen._refresh_layout(self.size)
                self.screen._css_update_count = self._css_update_count
        except ScreenError:
            pass
        for screen in self.screen_stack:
            if screen != self.screen:
                sheet.update(screen, animate=animate)
                screen._css_update_count = self._css_update_count

    # -- lifecycle ----------------------------------------------------------------------------------
    def on_mount(self) -> None:
        if self.poll_interval > 0:
            self.set_interval(self.poll_interval, self._poll, name="poll-save")

    async def on_event(self, event: events.Event) -> None:
        """The last safety net under `FocusGuard`: a key must never go to a removed widget (it would
        drop it, and escape, q and ctrl+c with it), so a stale focus is repaired before the key is routed."""
        if isinstance(event, events.Key) and self.screen_stack:
            # A key routed to the screen below a dialog that one of the keys before it opened (they
            # arrived together) comes back here once that dialog is on top: it was typed for the
            # dialog. The dialog holds it (and any key while it is being built) and sends it on to
            # its focus (`YakModal.hold_key`).
            hold = getattr(self.screen, "hold_key", None)
            typed_for_it = not event.is_forwarded or getattr(event, ROUTED, self.screen) is not self.screen
            if hold is not None and typed_for_it and hold(event):
                return
            if not event.is_forwarded and self._defer_key(event):
                return
            if not event.is_forwarded:
                setattr(event, ROUTED, self.screen)
                repair_focus(self.screen)
        await super().on_event(event)

    # -- tab after keys still on their way ----------------------------------------------------------
    # Tab moves the focus at once (a priority binding), so a value typed after it lands in the next
    # field. But the keys typed before it may still be on their way (queued at the focused widget, or
    # bubbling up to the bindings that open a dialog): a burst such as `r ford <tab> 2` moved the focus
    # on the screen *under* the dialog `r` was about to open, and the `2` meant for the modifier landed
    # in the reason. So tab, and every key after it, waits until the keys before it have been handled,
    # then goes on in the order typed.
    def _keys_in_flight(self) -> bool:
        """Whether a key sent to a widget or a screen on the stack (or bubbled back to this app's own
        queue, for its bindings) has not been handled yet."""
        if any(isinstance(m, events.Key) and m.is_forwarded for m in queued_messages(self)):
            return True
        for screen in self.screen_stack:
            node: Any = screen.focused or screen
            while node is not None and node is not self:
                if any(isinstance(m, events.Key) for m in queued_messages(node)):
                    return True
                node = node._parent
        return False

    def _defer_key(self, event: events.Key) -> bool:
        """Whether `event` waits behind keys still on their way (see above); it is sent on later.
        A key a dialog held while it was being built, and sends on now, was typed before every key
        waiting here: it goes first (or, a tab among them, first of those waiting)."""
        if getattr(event, TAB_REPLAY, False):
            return False
        is_tab = event.key in ("tab", "shift+tab")
        if getattr(event, "_yak_held_by_dialog", False):
            if not self._keys_ahead and not (is_tab and self._keys_in_flight()):
                return False
            self._deferred_keys.insert(self._keys_ahead, event)
            self._keys_ahead += 1
        elif self._deferred_keys or (is_tab and self._keys_in_flight()):
            self._deferred_keys.append(event)
        else:
            return False
        if len(self._deferred_keys) == 1:
            self.call_later(self._send_deferred_keys, TAB_LOOKS)
        return True

    def _send_deferred_keys(self, looks: int) -> None:
        if looks > 0 and self._keys_in_flight():
            self.set_timer(TAB_WAIT, partial(self._send_deferred_keys, looks - 1), name="keys-in-flight")
            return
        deferred, self._deferred_keys, self._keys_ahead = self._deferred_keys, [], 0
        for event in deferred:
            replay = events.Key(event.key, event.character)
            replay.set_sender(None)  # type: ignore[arg-type]  # as from the terminal (see YakModal)
            setattr(replay, TAB_REPLAY, True)
            self.post_message(replay)

    @property
    def animate_dice(self) -> bool:
        """Dice tumble unless the app setting or `TEXTUAL_ANIMATIONS=none` says otherwise."""
        return self.animations and self.animation_level != "none"

    @property
    def may_switch_identity(self) -> bool:
        return self.launched_as.is_gm

    # -- live data ---------------------------------------------------------------------------------
    def _poll(self) -> None:
        """One reload at a time: a burst of writes while a reload runs is caught by the next poll
        (the stamp read before that reload differs from the file's), so each app reads at most once
        per change it has not seen, however many changes come."""
        if self._reloading:
            return
        stamp = self.save.stamp()
        if stamp is not None and stamp != self._stamp:
            self.reload_world()

    def reload_world(self) -> None:
        self._reloading = True
        self.run_worker(self._reload, thread=True, group="reload", name="reload-world", exit_on_error=False)

    def _reload(self) -> None:
        stamp = self.save.stamp()
        try:
            stamp, world = SHARED_READS.read(self.save)
        except Exception as error:
            self.call_from_thread(self._reload_failed, str(error), stamp)
            return
        self.call_from_thread(self._apply_world, world, stamp, reloaded=True)

    def _reload_failed(self, message: str, stamp: Stamp | None) -> None:
        self._reloading = False
        self._stamp = stamp
        self.notify(message, title="Cannot read the save", severity="error")

    def _apply_world(self, world: World, stamp: Stamp | None, reloaded: bool = False) -> None:
        if reloaded:
            self._reloading = False
        self._stamp = stamp
        revision = world.meta.get("revision")
        # The same revision as shown (the file was touched, or this app wrote it): nothing to redraw.
        # A restore may make the revision go backwards: any other value is a new world.
        if revision is not None and revision == self.world.meta.get("revision") and world is not self.world:
            self.world = world
            return
        self.world = world
        self.broadcast()

    def hold_broadcast(self) -> None:
        """Keep screens as they are (e.g. while dice tumble: the chronicle behind must not tell the
        result first); `release_broadcast` shows the world as it then is."""
        self._held += 1

    def release_broadcast(self) -> None:
        self._held = max(0, self._held - 1)
        if not self._held and self._pending:
            self._pending = False
            self.broadcast()

    def broadcast(self) -> None:
        """Tell every screen on the active stack to re-render; other modes catch up on resume."""
        if self._held:
            self._pending = True
            return
        self.world_version += 1
        for screen in self.screen_stack:
            screen.post_message(WorldChanged(self.world, self.world_version))

    # -- commands (call from thread workers) -------------------------------------------------------
    def execute(
        self, name: str, params: dict[str, Any], dice: Dice | None = None, identity: Identity | None = None
    ) -> Outcome:
        """Run one world command in its transaction (blocking: call it from a thread worker)."""
        from yak_tui.kernel.play.commands import run_command

        # The world the command wrote is the one shown next: no read of the save after its own
        # write. The stamp is taken under the same lock, so a write by another process right after
        # it still differs from it and is reloaded by the poll.
        written: list[World] = []
        with self.save.locked():
            result = run_command(self.save, identity or self.identity, name, params, dice, check=written.append)
            stamp = self.save.stamp()
        world = written[0]
        world.originals.clear()
        SHARED_READS.wrote(self.save, stamp, world)
        self.call_from_thread(self._apply_world, world, stamp)
        return Outcome(result, world)

    def execute_advance(self, dice: Dice | None = None, expected: str | None = None, carry: bool = False) -> Outcome:
        """Back up and close the season `expected` (blocking: call it from a thread worker); orders
        still waiting refuse it unless the GM said to `carry` them over (`session.check_carry`)."""
        from yak_tui.kernel.season.session import advance_season

        result = advance_season(self.save, self.identity, dice, expected=expected, carry=carry)
        return self._after_write(result)

    def _after_write(self, result: CommandResult) -> Outcome:
        stamp = self.save.stamp()
        world = World.load(self.save)
        self.call_from_thread(self._apply_world, world, stamp)
        return Outcome(result, world)

    # -- identity ------------------------------------------------------------------------------------
    def switch_identity(self, text: str) -> None:
        """The one way to change seats (the `i` dialog, the palette, tests): with a GM PIN set, any
        switch made from a player's or a King's seat (back to the GM, or to another seat and its
        secrets) asks for it first; the GM hands the keyboard on freely."""
        from yak_tui.kernel.season.session import check_identity

        if not self.may_switch_identity:
            self.notify("Only a GM seat can hand the keyboard to someone else.", severity="warning")
            return
        identity = Identity.parse(text)
        check_identity(self.world, identity)
        if self._needs_pin(identity):
            from yak_tui.app.shell.identity import PinScreen

            self.push_screen(PinScreen(identity_label(self.world, identity)), partial(self._pin_entered, identity))
            return
        self.identity = identity

    def _needs_pin(self, identity: Identity) -> bool:
        return self._gm_pin is not None and not self.identity.is_gm and identity != self.identity

    def _pin_entered(self, identity: Identity, pin: str | None) -> None:
        if pin is None:  # cancelled
            return
        if self._gm_pin is None or not self._gm_pin.matches(pin):
            self.notify("Wrong PIN: the seat stays as it is.", title="GM PIN", severity="warning")
            return
        self._pin_passed = True
        try:
            self.identity = identity
        finally:
            self._pin_passed = False

    def validate_identity(self, identity: Identity) -> Identity:
        """With a GM PIN, no path but `switch_identity`'s PIN check may hand a GM seat to the keyboard."""
        if self._needs_pin(identity) and not self._pin_passed:
            self.notify("Changing seats asks for the GM PIN: switch with i.", title="GM PIN", severity="warning")
            return self.identity
        return identity

    def watch_identity(self, identity: Identity) -> None:
        self.refresh_bindings()
        self.broadcast()
        self.notify(f"Now acting as {identity_label(self.world, identity)}", title="Identity")

    # -- actions ---------------------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        ident = self.identity
        if action in ("advance", "undo", "undo_advance", "history"):
            return ident.is_gm
        if action == "roll":  # players file their rolls as orders; an observer acts on nothing
            return ident.is_gm or ident.is_king
        if action == "file_order":
            return not ident.is_gm and not ident.is_observer
        if action == "area" and parameters:  # an area's action, by its name (`check_action("cast", ())` too)
            action = str(parameters[0])
        if action in AREA_ACTIONS:
            return AREA_ACTIONS[action].allowed(ident)
        if action == "switch_identity":
            return self.may_switch_identity
        if action == "refuse_identity":  # a player's or King's own seat hears why; an observer acts on nothing
            return not self.may_switch_identity and not ident.is_observer
        if action == "edit_row":  # the GM's: the row's editor, or the World editor with no row under the cursor
            return ident.is_gm
        return True

    def action_goto(self, name: str) -> None:
        """A screen key or a click on the nav bar: a side screen (Reports, History) is left first,
        so the mode's own screen is shown, now and when the mode is shown again."""
        if name not in SCREENS:
            return
        while len(self.screen_stack) > 1 and isinstance(self.screen, SideScreen):
            self.pop_screen()
        self.switch_mode(name)

    def switch_mode(self, mode: str) -> AwaitMount:
        """Show a mode's screen; one already built is shown at once, a new one when it has painted
        its data (see `delay_update`)."""
        self._showing_built_screen = mode in self._screen_stacks
        self._switching = True
        try:
            return super().switch_mode(mode)
        finally:
            self._showing_built_screen = self._switching = False

    def delay_update(self, delay: float = 0.05) -> None:
        """Textual holds every frame for 50 ms on a mode switch, to hide a new screen's half-built
        frames. A screen shown again is whole already: holding it only made each return to a screen
        cost 50 ms more than drawing it. A new screen is held until it has painted its read model
        (`hold_frames`)."""
        if self._showing_built_screen:
            return
        if self._switching:
            self.hold_frames()
        else:
            super().delay_update(delay)

    def hold_frames(self) -> None:
        """Show no frame until the screen being opened has painted its read model (it calls
        `release_frames`), or `FIRST_PAINT_HOLD` seconds have passed (a slow build then shows the
        screen's panels while it waits). The frames of a screen still waiting for its data (laying
        out and drawing its empty tables, then all of it again a moment later) cost a first visit
        about 50 ms at 100x; the screen a person sees is the same, whole at once."""
        self.release_frames()  # a screen left before it painted: its hold ends now
        self._begin_batch()
        held = [True]

        def release() -> None:
            if held[0]:
                held[0] = False
                timer.stop()
                self._end_batch()
                if not self._batch_count:
                    self.screen.refresh()

        timer = self.set_timer(FIRST_PAINT_HOLD, release, name="first-paint-hold")
        self._held_frames = release

    @property
    def holds_frames(self) -> bool:
        """Whether `hold_frames` holds the frames of a screen being opened."""
        return self._held_frames is not None

    def release_frames(self) -> None:
        """End `hold_frames`: the screen opened has painted (nothing if no frame is held)."""
        release, self._held_frames = self._held_frames, None
        if release is not None:
            release()

    def jump_to(self, table: str, doc_id: str) -> None:
        """Show a kingdom, province, character, place or force on the map (the palette's jump)."""
        self.switch_mode("map")
        self.call_after_refresh(lambda: self.screen.post_message(FocusPlace(table, doc_id)))

    def open_command(
        self,
        name: str,
        preset: dict[str, Any] | None = None,
        hidden: Iterable[str] = (),
        title: str | None = None,
        intro: str = "",
    ) -> None:
        """Open the command dialog: fields, odds, dice by hand, the dice animation and the result.

        Rule screens call this for their actions (e.g. `open_command("spy", {"kingdom": k})`).
        """
        from yak_tui.app.kit.command import CommandScreen

        self.push_screen(CommandScreen(name, preset=preset, hidden=hidden, title=title, intro=intro))

    def _edit_target(self) -> tuple[str, str] | None:
        """The row under the cursor of the screen under any dialog (help and the palette ask too)."""
        from textual.screen import ModalScreen

        screens = [s for s in self.screen_stack if not isinstance(s, ModalScreen)]
        hook = getattr(screens[-1], "edit_target", None) if screens else None
        return hook() if callable(hook) else None

    def _refuse_gm_only(self, what: str) -> bool:
        """Say why a GM tool is refused to this identity; True when it is."""
        if self.identity.is_gm:
            return False
        from yak_tui.kernel.play.commands import gm_refusal

        self.notify(gm_refusal(what, self.identity).reason, title="GM only", severity="warning")
        return True

    def open_editor(self, table: str, doc_id: str | None = None) -> None:
        """The GM's editor on one document (`doc_id` None: a new one), generated from its schema."""
        from yak_tui.app.kit.editor import DocumentEditor

        if not self._refuse_gm_only("edit documents"):
            self.push_screen(DocumentEditor(table, doc_id))

    def action_edit_row(self) -> None:
        """E: the GM's editor on the row under the cursor; with none there, the World editor."""
        target = self._edit_target()
        if self._refuse_gm_only("edit documents"):
            return
        if target is None:
            self.action_world()
            return
        self.open_editor(*target)

    def action_world(self) -> None:
        from yak_tui.app.shell.world import WorldScreen

        if not self._refuse_gm_only("open the World screen") and not isinstance(self.screen, WorldScreen):
            self.push_screen(WorldScreen())

    def action_roll(self) -> None:
        self.open_command("roll", title="Roll the dice (RtD)")

    def action_undo(self) -> None:
        self.open_command("undo", title="Undo the last command of this season")

    def action_advance(self) -> None:
        from yak_tui.app.shell.advance import AdvanceScreen

        self.push_screen(AdvanceScreen())

    def action_undo_advance(self) -> None:
        from yak_tui.app.shell.advance import UndoAdvanceScreen

        self.push_screen(UndoAdvanceScreen())

    def action_reports(self) -> None:
        from yak_tui.app.shell.reports import ReportsScreen

        if not isinstance(self.screen, ReportsScreen):
            self.hold_frames()
            self.push_screen(ReportsScreen())

    def action_history(self) -> None:
        from yak_tui.app.shell.history import HistoryScreen

        if not isinstance(self.screen, HistoryScreen):
            self.hold_frames()
            self.push_screen(HistoryScreen())

    def action_area(self, name: str) -> None:
        """An area's action (`app/screens/<area>/__init__.py`): its screen, unless it is on top already."""
        action = AREA_ACTIONS[name]
        screen = screen_class(action.module, action.cls)
        if not isinstance(self.screen, screen):
            self.push_screen(screen())

    def action_file_order(self, table: str = "", doc_id: str = "") -> None:
        from yak_tui.app.kit.order import OrderScreen

        self.push_screen(OrderScreen(holding=(table, doc_id) if table else None))

    def action_refuse_identity(self) -> None:
        self.switch_identity(str(GM))  # refused, with the reason `switch_identity` gives every caller

    def action_switch_identity(self) -> None:
        from yak_tui.app.shell.identity import IdentityScreen

        def chosen(value: str | None) -> None:
            if value:
                try:
                    self.switch_identity(value)
                except Exception as error:
                    self.notify(str(error), severity="error")

        self.push_screen(IdentityScreen(), chosen)

    def action_help(self) -> None:
        from yak_tui.app.shell.help import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen())

    def action_toggle_theme(self) -> None:
        self.theme = YAK_LIGHT.name if self.theme == YAK_DARK.name else YAK_DARK.name

    def action_toggle_animations(self) -> None:
        self.animations = not self.animations
        self.notify(f"Dice animation {'on' if self.animations else 'off'}")

    def action_toggle_dice_by_hand(self) -> None:
        self.dice_by_hand = not self.dice_by_hand
        self.notify(f"Dice by hand {'on: you will type the naturals' if self.dice_by_hand else 'off'}")

    # -- the command palette ------------------------------------------------------------------------
    def palette_entries(self, screen: Screen[Any]) -> list[PaletteEntry]:
        """Every screen, every action, every registered command and every name the viewer may see
        (the palette itself lists the actions at once and gathers the names in a thread)."""
        from yak_tui.app.providers import palette_names

        names = palette_names(self.world, self.identity, self.may_switch_identity)
        return [*self.palette_actions(screen), *map(self.palette_entry, names.lines)]

    def palette_actions(self, screen: Screen[Any]) -> list[PaletteEntry]:
        """Every screen, every action and every registered command, and `screen`'s own lines: quick
        to gather on the event loop, whatever the world's size (`app/palette.py`)."""
        return palette_actions(self, screen)

    def palette_entry(self, name: PaletteName) -> PaletteEntry:
        """A name's palette line (`providers.name_lines`, shared between apps) with this app's action."""
        handlers: dict[str, Callable[..., Any]] = {
            "act_as": self.switch_identity,
            "order": self._order_for,
            "jump": self.jump_to,
        }
        return PaletteEntry(name.title, name.help, partial(handlers[name.kind], *name.target))

    def _order_for(self, command: str) -> None:
        from yak_tui.app.kit.order import OrderScreen

        self.push_screen(OrderScreen(command=command))


def run_app(
    path: str | Path,
    identity: Identity | str = GM,
    animations: bool = True,
    world: World | None = None,
    stamp: Stamp | None = None,
    gm_pin: str | None = None,
) -> int:
    """Open the TUI on a save as an identity (the `yak` default verb); returns the exit code.

    `world`: the save as the caller just read it (at version `stamp`), so the app does not read it
    again, and the next change is applied from the save's change journal. `gm_pin`: going back to a
    GM seat at a hotseat table asks for it (`yak tui --gm-pin`)."""
    app = YakApp(path, identity, animations=animations, world=world, stamp=stamp, gm_pin=gm_pin, first_view_inline=True)
    app.run()
    return int(app.return_code or 0)
