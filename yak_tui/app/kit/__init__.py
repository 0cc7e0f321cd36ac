"""The app's own kit: the screen bases every screen and dialog is built on.

`YakScreen` for the six main screens, `YakModal` for every dialog; both guard their focus
(`FocusGuard`, see `focus.py`) so a key can never be sent to a widget that was removed.
"""

from yak_tui.app.kit.focus import FocusGuard, first_focusable, holds, repair_focus
from yak_tui.app.kit.screens import NARROW, YakModal, YakScreen

__all__ = ["NARROW", "FocusGuard", "YakModal", "YakScreen", "first_focusable", "holds", "repair_focus"]
