"""The areas' screens, one package per area. Each area's package declares what the app shows of it,
and nothing else imports its screens by name:

- `SCREENS`: its nav bar screens, `{name: NavScreen(module, class, key, title)}`;
- `ACTIONS`: its app-wide actions (`AreaAction`: a key and a palette line that open one of its screens).

`yak_tui.app.navigation` gathers them, in the nav bar's order declared there once. A screen's module is
imported when it is first shown (`navigation.screen_class`), so an area's package imports none of them."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from yak_tui.kernel.play.identity import Identity


class NavScreen(NamedTuple):
    """A screen of the nav bar: its module (under `yak_tui.app.screens`) and class, its key and title."""

    module: str
    cls: str
    key: str
    title: str


class AreaAction(NamedTuple):
    """An area's action from any screen: `key` (or the palette's `title` line) pushes the screen
    `cls` of `module` unless it is on top already. `name` is the app's action (`check_action`), and
    `allowed` says which seats may take it (for the others the key does nothing and the palette omits it)."""

    name: str
    key: str
    title: str
    help: str
    module: str
    cls: str
    allowed: Callable[[Identity], bool]
