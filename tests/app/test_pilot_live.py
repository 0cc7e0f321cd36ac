"""Live data and identities: another process's write shows within about a second; the hotseat
GM switches identity from a key and from the palette, always shown in the header; a player or
King seat cannot switch; the command layer's refusals reach the screen."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from app_helpers import make_app, on_top, screen_text, settle, wait_for, widget_text
from textual.command import CommandPalette
from textual.widgets import OptionList

from yak_tui.app.main import SAVE_POLL_SECONDS
from yak_tui.app.shell.identity import IdentityScreen
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.store.storage import WorldFile

YAK = str(Path(sys.executable).with_name("yak"))


async def test_another_process_writing_the_save_refreshes_the_open_screen(save_path: Path) -> None:
    """The first poll of the save after the write sees it (so the screen follows within one poll
    interval, a quarter of a second, plus the reload), with no key pressed."""
    app = make_app(save_path)
    polls: list[bool] = []  # for each poll after the write: did it start a reload?
    reloads: list[int] = []
    writing = False
    poll, reload = app._poll, app.reload_world

    def watched_reload() -> None:
        reloads.append(1)
        reload()

    def watched_poll() -> None:
        before = len(reloads)
        poll()
        if writing:
            polls.append(len(reloads) > before)

    app.reload_world = watched_reload  # type: ignore[method-assign]
    app._poll = watched_poll  # type: ignore[method-assign]
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        writing = True
        subprocess.run(
            [YAK, "--save", str(save_path), "do", "note", "text=A raven arrives from Keshar"],
            check=True,
            capture_output=True,
        )  # blocks the app's loop: no poll runs meanwhile
        await wait_for(pilot, lambda: "A raven arrives from Keshar" in widget_text(app), what="the external note")
        assert polls and polls[0], f"the first poll after the write did not reload: {polls}"
        assert app.poll_interval == SAVE_POLL_SECONDS == 0.25


async def test_screens_not_on_view_catch_up_when_shown(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("c")
        await pilot.press("d")
        run_command(WorldFile(save_path), GM, "note", {"text": "Snow closes the passes"})
        await wait_for(pilot, lambda: "Snow closes the passes" in widget_text(app))
        await pilot.press("c")
        await wait_for(pilot, lambda: "Snow closes the passes" in screen_text(app), what="the chronicle")


async def test_the_gm_switches_identity_with_a_key_and_back_with_the_palette(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(120, 40)) as pilot:
        assert "◆ GM" in screen_text(app)
        await pilot.press("i")
        await wait_for(pilot, lambda: on_top(app, IdentityScreen))
        options = app.screen.query_one(OptionList)
        options.highlighted = options.get_option_index("king:varos")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "◆ King · Kingdom of Varos" in screen_text(app), what="the King's header")
        assert str(app.identity) == "king:varos"
        await wait_for(pilot, lambda: "My holdings" in screen_text(app), what="the King's holdings")
        await pilot.press("ctrl+p")
        await wait_for(pilot, lambda: on_top(app, CommandPalette), what="the palette")
        await pilot.press(*"Act as GM")
        await wait_for(pilot, lambda: "Act as GM" in screen_text(app))
        await pilot.press("enter")
        await wait_for(pilot, lambda: "◆ GM" in screen_text(app), what="the GM's header")


async def test_a_player_seat_cannot_switch_identity(save_path: Path) -> None:
    app = make_app(save_path, "player:edmund")
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("i")
        await settle(pilot)
        assert not isinstance(app.screen, IdentityScreen)
        assert not any(e.title.startswith("Act as") for e in app.palette_entries(app.screen))
        app.switch_identity("gm")
        await settle(pilot)
        assert str(app.identity) == "player:edmund"
        assert "◆ Player · Prince Edmund" in screen_text(app)
