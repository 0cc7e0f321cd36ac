"""The Reports screen (R, or the palette): the season reports stored in the save that the viewer
may read, by season and recipient, and their export as files. A player's screen never shows
another player's private strings, whichever report he picks."""

from __future__ import annotations

from pathlib import Path

from app_helpers import make_app, on_top, screen_text, settle, wait_for, widget_text
from textual.widgets import Select, Static

from yak_tui.app.shell.reports import ReportsScreen
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import SeededDice
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.season.session import advance_season
from yak_tui.store.storage import WorldFile

NYX_SECRET = "NYX-PRIVATE-4417 the smuggler's ledger"
ALDRIC_SECRET = "ALDRIC-PRIVATE-9023 the crown's debt"
PUBLIC_NEWS = "Envoys of Varos reach Highmoor"


def close_a_season(path: Path) -> None:
    """Two players ready, a private note for each and a public one, then the advance that writes
    every recipient's report."""
    save = WorldFile(path)
    for player in ("nyx", "aldric"):
        run_command(save, Identity.parse(f"player:{player}"), "ready", {"ready": True})
    run_command(save, GM, "note", {"text": NYX_SECRET, "audience": "character:nyx"})
    run_command(save, GM, "note", {"text": ALDRIC_SECRET, "audience": "character:aldric"})
    run_command(save, GM, "note", {"text": PUBLIC_NEWS})
    advance_season(save, GM, SeededDice(1))


async def open_reports(pilot: object, app: object) -> ReportsScreen:
    await settle(pilot)  # type: ignore[arg-type]
    await pilot.press("R")  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: on_top(app, ReportsScreen), what="the Reports screen")  # type: ignore[arg-type]
    screen = app.screen  # type: ignore[attr-defined]
    await wait_for(pilot, lambda: screen.view is not None, what="the report")  # type: ignore[arg-type]
    await settle(pilot)  # type: ignore[arg-type]
    return screen  # type: ignore[no-any-return]


def report_text(screen: ReportsScreen) -> str:
    return str(screen.query_one("#report-text", Static).render())


def recipients_offered(screen: ReportsScreen) -> set[str]:
    return {str(value) for _, value in screen.query_one("#report-recipient", Select)._options if value != Select.NULL}


async def test_a_player_reads_his_report_and_the_post_never_another_players(save_path: Path) -> None:
    close_a_season(save_path)
    app = make_app(save_path, "player:nyx")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_reports(pilot, app)
        assert recipients_offered(screen) == {"player:nyx", "public"}
        assert NYX_SECRET in screen_text(app)  # his own report first
        for recipient in ("public", "player:nyx"):
            screen.query_one("#report-recipient", Select).value = recipient
            await wait_for(
                pilot,
                lambda r=recipient: screen.view is not None and screen.view.recipient == r,
                what=f"the {recipient} report",
            )
            await settle(pilot)
            assert ALDRIC_SECRET not in widget_text(app)  # nowhere on any screen of his
            if recipient == "public":
                assert PUBLIC_NEWS in report_text(screen) and NYX_SECRET not in report_text(screen)
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, ReportsScreen), what="back to the dashboard")


async def test_the_gm_reads_every_report_and_exports_one_as_files(save_path: Path) -> None:
    close_a_season(save_path)
    app = make_app(save_path, "gm")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_reports(pilot, app)
        assert {"gm", "public", "player:nyx", "player:aldric", "king:elbreth"} <= recipients_offered(screen)
        screen.query_one("#report-recipient", Select).value = "player:aldric"
        # The GM's own report (shown first) tells every secret too: wait for Aldric's itself.
        await wait_for(
            pilot,
            lambda: (
                screen.view is not None
                and screen.view.recipient == "player:aldric"
                and ALDRIC_SECRET in report_text(screen)
                and "report for King Aldric" in report_text(screen)
            ),
            what="Aldric's report",
        )
        await pilot.press("x")
        folder = save_path.parent / "reports" / "spring-312"
        await wait_for(
            pilot,
            lambda: (folder / "player-aldric.md").exists() and (folder / "player-aldric.bbcode").exists(),
            what="the exported files",
        )
        assert ALDRIC_SECRET in (folder / "player-aldric.md").read_text(encoding="utf-8")
        assert "[b]" in (folder / "player-aldric.bbcode").read_text(encoding="utf-8")


async def test_an_observer_reads_only_the_season_post(save_path: Path) -> None:
    close_a_season(save_path)
    app = make_app(save_path, "observer")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_reports(pilot, app)
        assert recipients_offered(screen) == {"public"}
        text = widget_text(app)
        assert PUBLIC_NEWS in report_text(screen) and NYX_SECRET not in text and ALDRIC_SECRET not in text


async def test_the_palette_opens_the_reports(save_path: Path) -> None:
    app = make_app(save_path, "gm")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        entry = next(e for e in app.palette_entries(app.screen) if e.title == "Season reports")
        entry.callback()
        await wait_for(pilot, lambda: on_top(app, ReportsScreen), what="the Reports screen")
        await wait_for(pilot, lambda: "No season report yet" in report_text(app.screen), what="the empty state")


async def test_a_screen_key_leaves_the_reports_behind(save_path: Path) -> None:
    from yak_tui.app.screens.court.dashboard import DashboardScreen

    close_a_season(save_path)
    app = make_app(save_path, "gm")
    async with app.run_test(size=(120, 40)) as pilot:
        await open_reports(pilot, app)
        await pilot.press("c")
        await wait_for(pilot, lambda: app.current_mode == "chronicle", what="the chronicle")
        await pilot.press("d")
        await wait_for(
            pilot,
            lambda: app.current_mode == "dashboard" and isinstance(app.screen, DashboardScreen),
            what="the dashboard itself, not the reports left on top of it",
        )


async def test_in_a_browser_x_downloads_the_report_and_ctrl_y_copies_it(save_path: Path, monkeypatch: object) -> None:
    """Under `yak serve --web` (the web driver) nothing is written on the server: `x` gives the
    browser the report as a download (`App.deliver_text`), ctrl+y puts it on the page's clipboard."""
    from io import StringIO

    import pytest
    from textual.app import App

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    close_a_season(save_path)
    delivered: list[tuple[str, str]] = []

    def deliver_text(self: App[object], path_or_file: StringIO, **options: object) -> str:
        delivered.append((str(options["save_filename"]), path_or_file.getvalue()))
        return "key"

    monkeypatch.setattr(App, "is_web", property(lambda self: True))
    monkeypatch.setattr(App, "deliver_text", deliver_text)
    app = make_app(save_path, "player:nyx")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_reports(pilot, app)
        await wait_for(pilot, lambda: NYX_SECRET in report_text(screen), what="his report")
        await pilot.press("x")
        await wait_for(pilot, lambda: bool(delivered), what="the download")
        assert delivered[0][0] == "spring-312-player-nyx.md" and NYX_SECRET in delivered[0][1]
        assert NYX_SECRET in app.clipboard
        await pilot.press("escape")  # the report's text shown for a clipboard the page may refuse
        await wait_for(pilot, lambda: isinstance(app.screen, ReportsScreen), what="back to the reports")
        await pilot.press("ctrl+y")
        await wait_for(pilot, lambda: "[b]" in app.clipboard, what="the BBCode copied")
        assert any("browser's clipboard" in note.message for note in app._notifications)
    assert not (save_path.parent / "reports").exists()  # nothing written on the server


async def test_a_long_report_is_laid_out_a_page_at_a_time(save_path: Path, monkeypatch: object) -> None:
    """Issue 30: at 1000x the GM's report is 24,017 lines, and laying it out whole took 25 s. The
    screen draws a page of it; ] and [ turn the pages, and the panel says which lines are shown."""
    from yak_tui.app.kit import pagedtext

    monkeypatch.setattr(pagedtext, "PAGE_LINES", 5)  # type: ignore[attr-defined]
    close_a_season(save_path)
    app = make_app(save_path, "gm")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_reports(pilot, app)
        assert screen.view is not None and len(screen.view.lines) > 10
        total = len(screen.view.lines)
        body = screen.query_one("#report-body")
        assert len(report_text(screen).splitlines()) <= 5 + 2  # a page (a section title adds a blank line)
        assert body.border_subtitle == f"lines 1-5 of {total:,} · ] next page"
        first = report_text(screen)
        await pilot.press("right_square_bracket")
        await wait_for(pilot, lambda: report_text(screen) != first, what="the next page")
        assert body.border_subtitle.startswith(f"lines 6-10 of {total:,}")
        await pilot.press("left_square_bracket")
        await wait_for(pilot, lambda: report_text(screen) == first, what="the first page again")


async def test_many_recipients_are_offered_a_page_at_a_time(save_path: Path, monkeypatch: object) -> None:
    """Issue 30: the GM's picker at 1000x held 4,002 recipients; past `PICKER_PAGE` it offers the page of
    the one shown and a way to the page before and after (here two a page, the demo's five or more)."""
    from yak_tui.app.kit import common

    monkeypatch.setattr(common, "PICKER_PAGE", 2)  # type: ignore[attr-defined]
    close_a_season(save_path)
    app = make_app(save_path, "gm")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_reports(pilot, app)
        assert screen.view is not None
        every = [c.value for c in screen.view.recipients]
        assert len(every) >= 5
        picker = screen.query_one("#report-recipient", Select)
        offered = [value for _, value in picker._options if value != Select.NULL]
        assert len(offered) == 3  # the page of the one shown (the first two) and "the next page"
        assert offered[:2] == every[:2] and str(offered[2]).startswith(common.PAGE_MARK)
        picker.value = offered[2]  # "▸ recipients 3-4 of N": the first of that page is shown
        await wait_for(
            pilot, lambda: screen.view is not None and screen.view.recipient == every[2], what="the next page"
        )
        await settle(pilot)
        offered = [value for _, value in picker._options if value != Select.NULL]
        assert offered[1:3] == every[2:4] and str(offered[0]).startswith(common.PAGE_MARK)
        assert picker.value == every[2]
        labels = [str(label) for label, _ in picker._options]
        assert any(label.startswith("◂ recipients 1-2 of ") for label in labels)
