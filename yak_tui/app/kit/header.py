"""The header (world, date, acting identity) and the nav bar of screens, on every screen."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.content import Content
from textual.widgets import Static

from yak_tui.app.kit.running_app import yak_of
from yak_tui.app.navigation import SCREENS


class YakHeader(Horizontal):
    """`♛ Elbreth · Spring 312 · 3 seasons to year start ........ ◆ King · Kingdom of Varos`.

    The identity is always visible here; it follows `app.identity` and `app.world_version`.
    """

    def compose(self) -> ComposeResult:
        yield Static(id="brand")
        yield Static(id="when")
        yield Static(id="who")

    def on_mount(self) -> None:
        self.watch(self.app, "world_version", self._update)
        self.watch(self.app, "identity", self._update)

    _shown: tuple[str, ...] | None = None

    def _update(self, _: Any = None) -> None:
        from yak_tui.kernel.play.identity import identity_label

        app = yak_of(self)
        world = app.world
        date = world.date
        to_spring = date.seasons_until(type(date)(date.year + 1, 0))
        year_start = "year start next" if to_spring == 1 else f"{to_spring} seasons to year start"
        identity = app.identity
        role = "gm" if identity.is_gm else identity.role
        label = identity_label(world, identity)
        shown = (world.name, date.label(), year_start, role, label)
        # Most writes (a note, an order) change none of this: a Static's update lays the whole screen
        # out again, which was a third of each app's redraw after a note (issue 30).
        if shown == self._shown:
            return
        self._shown = shown
        self.query_one("#brand", Static).update(Content.from_markup("[b]♛ $name[/b]", name=world.name))
        self.query_one("#when", Static).update(
            Content.from_markup("[b]$date[/b] [dim]· $rest[/dim]", date=date.label(), rest=year_start)
        )
        who = self.query_one("#who", Static)
        who.set_classes(f"-{role}")
        who.update(Content(f" ◆ {label} "))


class NavBar(Static):
    """The six screens with their keys; the current one is lit. Click or press the key."""

    def __init__(self, current: str) -> None:
        super().__init__(id="nav")
        self.current = current

    def on_mount(self) -> None:
        parts = []
        for name, nav in SCREENS.items():
            key, title = nav.key, nav.title
            if name == self.current:
                markup = f"[@click=app.goto('{name}')][b $background on $primary] $key $title [/][/]"
            else:
                markup = f"[@click=app.goto('{name}')] [b $primary]$key[/] [$foreground-muted]$title[/] [/]"
            parts.append(Content.from_markup(markup, key=key, title=title))
        self.update(Content(" ").join(parts))
