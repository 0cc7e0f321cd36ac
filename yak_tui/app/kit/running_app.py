"""The running app as a widget reaches it: `yak_of(node)`, the `YakApp`, typed (screens, dialogs and
panels say `self.yak`), and `ActingKeys`, the keys of a screen or a table that change the world and
so are never the observer's seat's."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, cast

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from yak_tui.app.main import YakApp


def yak_of(node: DOMNode) -> YakApp:
    """The one place the app is cast to `YakApp`."""
    return cast("YakApp", node.app)


class ActingKeys:
    """Mixed into a screen or a widget with keys: the actions named in `ACTS` change the world (a
    command, an order, a dialog that runs one). An observer reads the public record and acts on
    nothing, so for him they are hidden from the key bar and a press does nothing; a subclass's
    `check_action` asks `super()` first."""

    ACTS: ClassVar[frozenset[str]] = frozenset()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in self.ACTS and yak_of(cast("DOMNode", self)).identity.is_observer:
            return False
        result: bool | None = super().check_action(action, parameters)  # type: ignore[misc]
        return result
