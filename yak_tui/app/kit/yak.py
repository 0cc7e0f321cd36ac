"""`yak_of(node)`: the running `YakApp`, typed, for any widget; screens, dialogs and panels say `self.yak`."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from yak_tui.app.main import YakApp


def yak_of(node: DOMNode) -> YakApp:
    """The one place the app is cast to `YakApp`."""
    return cast("YakApp", node.app)
