"""The app's own kit: the screen bases every screen and dialog is built on.

`YakScreen` for the six main screens, `YakModal` for every dialog; both guard their focus
(`FocusGuard`, see `focus.py`) so a key can never be sent to a widget that was removed.
"""

from yak_tui.app.kit.focus import FocusGuard, first_focusable, holds, repair_focus
from yak_tui.app.kit.screens import NARROW, YakModal, YakScreen
from yak_tui.app.kit.styles import DIALOGS_TCSS, KIT_DIR, RULES_TCSS

__all__ = [
    "DIALOGS_TCSS",
    "KIT_DIR",
    "NARROW",
    "RULES_TCSS",
    "FocusGuard",
    "YakModal",
    "YakScreen",
    "first_focusable",
    "holds",
    "repair_focus",
]
