"""Issue 13, the chronicle open while another process writes: the page is redrawn with the new entry
on top, the entries selected for export stay marked (and unmarked ones unmarked) though the page
keeps the options it already had, and a player's page never shows what only others may read."""

from __future__ import annotations

from pathlib import Path

from app_helpers import GM_NOTE, VAROS_PRIVATE, make_app, on_top, settle, wait_for
from textual.widgets import OptionList

from yak_tui.app.screens.court.chronicle import ChronicleScreen
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.store.storage import WorldFile

MARK = "●"


def _lines(app: object) -> list[str]:
    listing = app.screen.query_one("#entries", OptionList)  # type: ignore[attr-defined]
    return [listing.get_option_at_index(i).prompt.plain for i in range(listing.option_count)]


def _newest_is(app: object, text: str) -> bool:
    screen = app.screen  # type: ignore[attr-defined]
    return isinstance(screen, ChronicleScreen) and not screen.loader.pending and text in (_lines(app) or [""])[0]


async def _open(app, pilot) -> ChronicleScreen:  # type: ignore[no-untyped-def]
    await pilot.press("c")
    await wait_for(pilot, lambda: on_top(app, ChronicleScreen) and bool(_lines(app)), what="the chronicle")
    await settle(pilot)
    return app.screen  # type: ignore[no-any-return]


async def test_an_outside_note_tops_the_page_and_the_marks_follow_their_entries(busy_save: Path) -> None:
    app = make_app(busy_save, poll_interval=0.05)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await _open(app, pilot)
        first = _lines(app)[0]
        screen.query_one("#entries", OptionList).focus()
        await settle(pilot)
        await pilot.press("space")  # marks the newest entry, and moves on to the next
        await wait_for(pilot, lambda: _lines(app)[0].startswith(MARK), what="the mark")
        run_command(WorldFile(busy_save), GM, "note", {"text": "RELOAD-NOTE-1 from another process"})
        await wait_for(pilot, lambda: _newest_is(app, "RELOAD-NOTE-1"), what="the first note on top")
        lines = _lines(app)
        assert not lines[0].startswith(MARK)
        assert lines[1].startswith(MARK) and lines[1][1:].strip() == first.strip()
        assert [line for line in lines if line.startswith(MARK)] == [lines[1]]

        listing = screen.query_one("#entries", OptionList)
        listing.highlighted = 1
        await pilot.press("space")  # unmarks it: the page must not bring back its marked option
        await wait_for(pilot, lambda: not _lines(app)[1].startswith(MARK), what="the mark gone")
        run_command(WorldFile(busy_save), GM, "note", {"text": "RELOAD-NOTE-2 from another process"})
        await wait_for(pilot, lambda: _newest_is(app, "RELOAD-NOTE-2"), what="the second note on top")
        lines = _lines(app)
        assert not any(line.startswith(MARK) for line in lines)
        assert "RELOAD-NOTE-1" in lines[1] and lines[2].strip() == first.strip()
        assert screen.query_one("#entries", OptionList).option_count == len(app.world.table("chronicle"))


async def test_a_players_page_after_an_outside_write_holds_only_what_he_may_read(busy_save: Path) -> None:
    app = make_app(busy_save, "player:nyx", poll_interval=0.05)
    async with app.run_test(size=(140, 45)) as pilot:
        await _open(app, pilot)
        before = _lines(app)
        save = WorldFile(busy_save)
        run_command(save, GM, "note", {"text": "RELOAD-PRIVATE-7 for Varos only", "audience": "kingdom:varos"})
        run_command(save, GM, "note", {"text": "RELOAD-PUBLIC-7 for everyone"})
        await wait_for(pilot, lambda: _newest_is(app, "RELOAD-PUBLIC-7"), what="the public note on top")
        lines = _lines(app)
        text = "\n".join(lines)
        assert "RELOAD-PRIVATE-7" not in text and VAROS_PRIVATE not in text and GM_NOTE not in text
        assert lines[1:] == before


async def test_the_gm_handing_the_keyboard_to_a_player_redraws_the_page_without_the_gms_notes(busy_save: Path) -> None:
    app = make_app(busy_save, poll_interval=0.05)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await _open(app, pilot)
        assert GM_NOTE in "\n".join(_lines(app))
        app.switch_identity("player:nyx")
        await wait_for(
            pilot,
            lambda: not screen.loader.pending and VAROS_PRIVATE not in "\n".join(_lines(app)),
            what="the player's page",
        )
        await settle(pilot)
        text = "\n".join(_lines(app))
        assert GM_NOTE not in text and VAROS_PRIVATE not in text
        assert "Nyx's scouting of Varosgate is done." in text


async def test_entries_marked_one_by_one_and_cleared_at_once_show_unmarked(busy_save: Path) -> None:
    """ctrl+a with every entry selected clears the selection: the page is drawn again, and no option
    made while the entries were marked one by one (space) may come back marked."""
    app = make_app(busy_save, poll_interval=0)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await _open(app, pilot)
        listing = screen.query_one("#entries", OptionList)
        listing.focus()
        await settle(pilot)
        for _ in range(listing.option_count):
            await pilot.press("space")
        await wait_for(pilot, lambda: all(line.startswith(MARK) for line in _lines(app)), what="every entry marked")
        await pilot.press("ctrl+a")
        await wait_for(pilot, lambda: not screen.selected, what="the selection cleared")
        await settle(pilot)
        assert not any(line.startswith(MARK) for line in _lines(app))
