"""What the command palette lists of the app itself, quick to gather on the event loop whatever the
world's size: a "Go to" line per nav screen, the app's actions (the areas' own among them), the
settings, every registered command, and the screen's own lines (`palette_entries()`). The names of
the world (seats, orders, places) are `providers.name_lines`, gathered in a thread."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

from yak_tui.app.messages import PaletteEntry
from yak_tui.app.navigation import AREA_ACTIONS, SCREENS

if TYPE_CHECKING:
    from textual.screen import Screen

    from yak_tui.app.main import YakApp

# (the app's action, its palette title, its help). The acts of play come first, the areas' actions
# after them (`app/screens/<area>/__init__.py`), then the seat's tools; each listed when
# `check_action` allows it.
PLAY_ACTIONS: tuple[tuple[str, str, str], ...] = (
    ("roll", "Roll the dice", "an ad hoc RtD roll with odds, written to the chronicle (r)"),
    ("advance", "Advance the season", "preview what closes and what year start does, then confirm (a)"),
    ("file_order", "File an order", "an order for your own holdings, for its adjudicator (o)"),
)
TOOL_ACTIONS: tuple[tuple[str, str, str], ...] = (
    ("switch_identity", "Switch identity", "hand the keyboard to a King or a player (i)"),
    ("undo", "Undo the last command", "of the current season (GM, u)"),
    ("edit_row", "Edit the highlighted row", "its document as a form (GM, E)"),
    ("undo_advance", "Undo the last advance", "restore the backup the last advance took (GM, confirms first)"),
    ("reports", "Season reports", "the reports of closed seasons you may read; export them (R)"),
    ("history", "Season history", "what changed between two kept seasons; roll back to one (GM, H)"),
    ("help", "Help: keys", "every key of this screen (?)"),
)


def palette_actions(app: YakApp, screen: Screen[Any]) -> list[PaletteEntry]:
    """The palette's lines of the app, for `app`'s seat, on `screen`."""
    from yak_tui.kernel.play import views

    entries = [
        PaletteEntry(f"Go to {nav.title}", f"screen ({nav.key})", partial(app.action_goto, name), True)
        for name, nav in SCREENS.items()
    ]
    actions = [
        *((name, title, help_text, getattr(app, f"action_{name}")) for name, title, help_text in PLAY_ACTIONS),
        *((name, area.title, area.help, partial(app.action_area, name)) for name, area in AREA_ACTIONS.items()),
        *((name, title, help_text, getattr(app, f"action_{name}")) for name, title, help_text in TOOL_ACTIONS),
    ]
    for action, title, help_text, callback in actions:
        if app.check_action(action, ()):
            entries.append(PaletteEntry(title, help_text, callback, True))
    if app.identity.is_gm:
        entries.append(
            PaletteEntry(
                "World: every table", "search, add, edit and remove any document (GM, w)", app.action_world, True
            )
        )
    entries.append(
        PaletteEntry(
            f"Dice animation: turn {'off' if app.animations else 'on'}",
            "show results at once, or let the dice tumble",
            app.action_toggle_animations,
            True,
        )
    )
    entries.append(
        PaletteEntry(
            f"Dice by hand: turn {'off' if app.dice_by_hand else 'on'}",
            "type the naturals of physical dice at a hotseat table",
            app.action_toggle_dice_by_hand,
            True,
        )
    )
    entries.append(
        PaletteEntry("Toggle light/dark theme", "for light or dark terminals (ctrl+t)", app.action_toggle_theme, True)
    )
    for name, help_text, category in views.all_commands():
        if app.identity.is_gm or app.identity.is_king:
            entries.append(
                PaletteEntry(f"Run command: {name}", f"{category} · {help_text}", partial(app.open_command, name))
            )
    extra = getattr(screen, "palette_entries", None)
    if callable(extra):
        entries.extend(extra())
    return entries
