"""Focus that can only rest on a live widget of its own screen.

Textual defers `Widget.focus()` (`app.call_later`), and `Screen.set_focus` does not ask whether
the widget is still in the DOM: a dialog that rebuilds a form while the focus call is in flight
ends with `screen.focused` on a removed widget, and every key is then posted to a widget that
drops it (Textualize/textual#939). `FocusGuard` refuses such a target and falls back to the
screen's first focusable widget; `repair_focus` fixes a screen whose focus went stale anyway
(the app calls it before it routes each key).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.screen import Screen
from textual.widget import Widget

if TYPE_CHECKING:
    _ScreenMixin = Screen[Any]
else:  # a plain mixin: Textual takes a screen's CSS from its first DOMNode base, which must stay the screen class
    _ScreenMixin = object


def focus_after_layout(widget: Widget) -> None:
    """Focus `widget` and bring it into view once the content just shown above it is laid out:
    a scroll worked out before that layout stops short of it (a dialog's buttons at 80x24,
    seen under load)."""
    widget.focus(scroll_visible=False)
    widget.call_after_refresh(widget.scroll_visible, animate=False)


def holds(screen: Screen[Any], widget: Widget) -> bool:
    """Whether `widget` is a live widget of `screen`: in the app's DOM, under this screen, and
    not being removed."""
    if widget._closing or widget._closed or widget._pruning or not widget.is_attached:
        return False
    node = widget._parent
    while node is not None:
        if node is screen:
            return True
        node = node._parent
    return False


def first_focusable(screen: Screen[Any]) -> Widget | None:
    """The first widget of the screen's focus chain that is live (None when there is none)."""
    return next((widget for widget in screen.focus_chain if holds(screen, widget)), None)


def repair_focus(screen: Screen[Any]) -> bool:
    """Move a stale focus (a removed widget, or one of another screen) to the screen's first
    focusable widget. Returns whether it had to."""
    focused = screen.focused
    if focused is None or holds(screen, focused):
        return False
    screen.set_focus(first_focusable(screen))
    return True


class FocusGuard(_ScreenMixin):
    """A screen whose focus never lands on a widget that is not (or no longer) its own.

    Mix it in first: `class MyScreen(FocusGuard, Screen[None])`.
    """

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        if widget is not None and not holds(self, widget):
            widget = first_focusable(self)
        super().set_focus(widget, scroll_visible=scroll_visible, from_app_focus=from_app_focus)
