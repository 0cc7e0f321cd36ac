"""Issue 13 (scale), app part: every screen's read model is built in a worker thread (the event
loop only paints), the chronicle draws a page of entries at a time, and an app reads the save at
most once per change it has not seen (never after its own command)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, on_top, settle, wait_for, world_of
from yak_plugin import counting_full_reads

from yak_tui.app.kit.screens import YakScreen
from yak_tui.app.navigation import SCREENS as SCREEN_TABLE
from yak_tui.app.screens.court.chronicle import ChronicleScreen
from yak_tui.app.screens.court.panels import PAGE_SIZE, EntriesPanel
from yak_tui.kernel.play.chronicle import append_entry
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

SCREENS = {name: key for name, (_, _, key, _) in SCREEN_TABLE.items()}


async def test_every_screen_builds_its_read_model_off_the_event_loop(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built: dict[str, str] = {}
    original = YakScreen._build

    def recording(self: YakScreen, world: World, identity: Any) -> Any:
        built[self.SCREEN_NAME] = threading.current_thread().name
        return original(self, world, identity)

    monkeypatch.setattr(YakScreen, "_build", recording)
    from yak_tui.app.screens.court import chronicle

    original_filtered = chronicle.ChronicleScreen._build_filtered

    def recording_filtered(self: Any, world: World, identity: Any, filters: Any) -> Any:
        built["chronicle"] = threading.current_thread().name
        return original_filtered(self, world, identity, filters)

    monkeypatch.setattr(chronicle.ChronicleScreen, "_build_filtered", recording_filtered)
    from yak_tui.app.screens.espionage import screen as espionage

    original_board = espionage.EspionageScreen._build_board

    def recording_board(self: Any, *args: Any) -> Any:
        built["espionage"] = threading.current_thread().name
        return original_board(self, *args)

    monkeypatch.setattr(espionage.EspionageScreen, "_build_board", recording_board)
    from yak_tui.app.screens.warfare import screen as warfare

    original_sieges = warfare.SiegesScreen._build_sieges

    def recording_sieges(self: Any, *args: Any) -> Any:
        built["sieges"] = threading.current_thread().name
        return original_sieges(self, *args)

    monkeypatch.setattr(warfare.SiegesScreen, "_build_sieges", recording_sieges)
    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(100, 30)) as pilot:
        main = threading.current_thread().name
        for name, key in SCREENS.items():
            await pilot.press(key)
            await wait_for(pilot, lambda n=name: n in built and app.current_mode == n, what=f"the {name} model")
            await settle(pilot)
    assert set(built) == set(SCREENS)
    assert all(thread != main for thread in built.values()), built


def _grow_chronicle(path: Path, count: int) -> None:
    save = WorldFile(path)
    with save.transaction() as data:
        world = World(data)
        for number in range(count):
            append_entry(world, f"PAGED-{number:04d} a quiet day", kind="note", actor="gm", command="note")


async def test_the_chronicle_pages_its_entries_and_says_how_many(save_path: Path) -> None:
    _grow_chronicle(save_path, PAGE_SIZE + 30)
    total = len(world_of(save_path).table("chronicle"))
    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("c")
        await wait_for(pilot, lambda: on_top(app, ChronicleScreen))
        panel = app.screen.query_one(EntriesPanel)
        listing = panel.query_one("#entries")
        await wait_for(pilot, lambda: listing.option_count > 0, what="the first page")
        assert listing.option_count == PAGE_SIZE
        assert "PAGED-0229" in str(listing.get_option_at_index(0).prompt)  # newest first
        status = str(panel.query_one("#chronicle-status").render())
        assert f"page 1 of 2 · 1-{PAGE_SIZE} of {total}" in status
        await pilot.press("right_square_bracket")
        await wait_for(pilot, lambda: panel.page == 1, what="page 2")
        assert listing.option_count == total - PAGE_SIZE
        assert "PAGED-0029" in str(listing.get_option_at_index(0).prompt)
        status = str(panel.query_one("#chronicle-status").render())
        assert f"page 2 of 2 · {PAGE_SIZE + 1}-{total} of {total}" in status
        assert panel.border_title == f"Chronicle · {total} of {total} entries"
        await pilot.press("left_square_bracket")
        await wait_for(pilot, lambda: panel.page == 0, what="back to page 1")
        assert "PAGED-0229" in str(listing.get_option_at_index(0).prompt)


async def test_the_app_reads_the_save_once_per_outside_change_and_not_after_its_own(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(save_path, poll_interval=0.05)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        reads = counting_full_reads(monkeypatch)
        revision = app.world.meta.get("revision", 0)
        app.run_worker(lambda: app.execute("note", {"text": "OWN-NOTE from this app"}), thread=True)
        await wait_for(pilot, lambda: app.world.meta.get("revision") == revision + 1, what="the app's own note")
        for _ in range(5):  # several polls: the stamp it took under the lock is the file's
            await pilot.pause(0.06)
        assert reads == []
        run_command(WorldFile(save_path), GM, "note", {"text": "OUTSIDE-NOTE from another process"})
        await wait_for(pilot, lambda: app.world.meta.get("revision") == revision + 2, what="the outside note")
        for _ in range(5):
            await pilot.pause(0.06)
        assert reads == []  # the outside note came from the save's change journal, not a full read
        with WorldFile(save_path).transaction() as data:  # a write that leaves no journal: one full read
            data["kingdoms"]["varos"]["treasury"] = 4321
            data["meta"]["world"]["revision"] = revision + 3
        await wait_for(pilot, lambda: app.world.meta.get("revision") == revision + 3, what="the outside write")
        for _ in range(5):
            await pilot.pause(0.06)
        assert len(reads) == 1


async def test_apps_of_one_process_on_one_save_share_each_read(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = make_app(save_path, poll_interval=0.05), make_app(save_path, poll_interval=0.05)
    async with first.run_test(size=(100, 30)) as pilot, second.run_test(size=(100, 30)) as other:
        await settle(pilot)
        await settle(other)
        reads = counting_full_reads(monkeypatch)
        revision = first.world.meta.get("revision", 0)
        run_command(WorldFile(save_path), GM, "note", {"text": "SHARED-NOTE from another process"})
        for app, driver in ((first, pilot), (second, other)):
            await wait_for(driver, lambda a=app: a.world.meta.get("revision") == revision + 1, what="the note")
        assert first.world is second.world
        assert reads == []  # one application of the save's change journal, shared


def test_yak_tui_reads_the_save_once(save_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`yak tui` checks `--as` on the world it read and hands that world to the app."""
    from yak_tui.app import main as app_main
    from yak_tui.app.reads import SHARED_READS
    from yak_tui.cli import main

    expected = World(WorldFile(save_path).read()).data
    opened: list[Any] = []

    def opening(
        path: Any,
        identity: Any,
        animations: bool = True,
        world: World | None = None,
        stamp: Any = None,
        gm_pin: str | None = None,
    ) -> int:
        opened.append(app_main.YakApp(path, identity, animations=animations, world=world, stamp=stamp, gm_pin=gm_pin))
        return 0

    reads = counting_full_reads(monkeypatch)
    monkeypatch.setattr(app_main, "run_app", opening)
    assert main(["--save", str(save_path), "--as", "king:varos", "tui"]) == 0
    assert len(reads) == 1 and len(opened) == 1
    assert opened[0].world.data == expected
    # The app holds that world at the version the CLI read: another process's note is then applied
    # from the save's change journal, still without reading the save again.
    run_command(WorldFile(save_path), GM, "note", {"text": "JOURNAL-NOTE after yak tui opened"})
    _, world = SHARED_READS.read(WorldFile(save_path))
    assert len(reads) == 1
    assert any("JOURNAL-NOTE" in entry["text"] for entry in world.data["chronicle"].values())
    assert main(["--save", str(save_path), "--as", "king:nowhere", "tui"]) == 2  # refused before any app
    assert len(opened) == 1


def test_yak_alone_opens_the_app_and_its_help_still_lists_every_verb(
    save_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`yak` with no verb is `yak tui` (the README's launch), parsed by tui's sub-parser alone: the
    whole command line (every verb, `resolve`'s checks) is not built for it; `yak --help` is."""
    from yak_tui.app import main as app_main
    from yak_tui.cli import main, parser

    opened: list[Any] = []
    built: list[str | None] = []
    build = parser.build_parser

    def watched(with_checks: bool = True, only: str | None = None) -> Any:
        built.append(only)
        return build(with_checks, only)

    monkeypatch.setattr("yak_tui.cli.build_parser", watched)
    monkeypatch.setattr(app_main, "run_app", lambda path, identity, **kwargs: opened.append(str(identity)) or 0)
    assert main(["--save", str(save_path)]) == 0
    assert main(["--save", str(save_path), "--as", "king:varos", "--no-animation"]) == 0
    assert opened == ["gm", "king:varos"] and built == ["tui", "tui"]
    assert main(["--help"]) == 0
    assert built[-1] is None and "resolve" in capsys.readouterr().out
