"""Issue 13, many apps: after another process's command an app brings its world up to date from the
save's change journal (no full read of the save), and shows the change; a journal that does not
hold up is a full read with the same result."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from app_helpers import make_app, settle, wait_for
from yak_plugin import counting_full_reads, journal_entries, write_journal

from yak_tui.app.reads import SharedReads
from yak_tui.app.screens.court.dashboard import DashboardScreen
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.store.storage import WorldFile


def _data(world: Any) -> bytes:
    return orjson.dumps(world.data, option=orjson.OPT_SORT_KEYS)


async def test_an_app_applies_an_outside_note_from_the_journal_and_shows_it(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(save_path, poll_interval=0.05)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        reads = counting_full_reads(monkeypatch)
        revision = int(app.world.meta.get("revision", 0)) + 1
        run_command(WorldFile(save_path), GM, "note", {"text": "JOURNAL-NOTE for the open app"})

        def shown() -> bool:
            screen = app.screen
            return (
                isinstance(screen, DashboardScreen)
                and screen.view is not None
                and app.world.meta.get("revision") == revision
                and not screen.loader.pending
                and any("JOURNAL-NOTE" in entry.text for entry in screen.view.chronicle)
            )

        await wait_for(pilot, shown, what="the note on the dashboard")
        assert reads == []
        assert _data(app.world) == _data(type(app.world)(WorldFile(save_path).read()))


@pytest.mark.parametrize("journal", [b"not json", b'{"entries": []}'])
def test_a_journal_that_does_not_hold_up_is_a_full_read_with_the_same_world(
    save_path: Path, monkeypatch: pytest.MonkeyPatch, journal: bytes
) -> None:
    shared = SharedReads()
    save = WorldFile(save_path)
    shared.read(save)
    run_command(save, GM, "note", {"text": "JOURNAL-NOTE spoilt"})
    save.journal.write_bytes(journal)
    reads = counting_full_reads(monkeypatch)
    _, world = shared.read(save)
    assert reads == [save.path]
    assert any("JOURNAL-NOTE" in entry["text"] for entry in world.data["chronicle"].values())


def test_a_journal_document_that_fails_validation_is_a_full_read(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shared = SharedReads()
    save = WorldFile(save_path)
    shared.read(save)
    run_command(save, GM, "note", {"text": "JOURNAL-NOTE spoilt"})
    entries = journal_entries(save)
    chronicle = entries[-1]["docs"]["chronicle"]
    chronicle[next(iter(chronicle))]["text"] = 5  # not text
    write_journal(save, entries)  # signed with the campaign's key: the validation is what refuses it
    reads = counting_full_reads(monkeypatch)
    _, world = shared.read(save)
    assert reads == [save.path]
    assert _data(world) == _data(type(world)(save.read()))


async def test_the_world_an_app_held_before_a_reload_is_freed_with_the_collector_frozen(save_path: Path) -> None:
    """Applying the journal freezes the collector's view of what is alive (as a full read does), so
    a finished read-model job (Textual keeps its Worker in reference cycles) must not hold the world
    it was built from: reference counting alone frees each world the app no longer shows."""
    import gc
    import weakref

    app = make_app(save_path, poll_interval=0.05)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        for number in range(2):
            old = weakref.ref(app.world)
            revision = int(app.world.meta.get("revision", 0)) + 1
            run_command(WorldFile(save_path), GM, "note", {"text": f"JOURNAL-NOTE {number}"})
            await wait_for(
                pilot,
                lambda r=revision: app.world.meta.get("revision") == r and not app.screen.loader.pending,
                what="the reload",
            )
            await settle(pilot)
            gc.freeze()  # whatever is alive now is out of the collector's reach: only references free it
            await wait_for(pilot, lambda o=old: o() is None, timeout=10, what="the old world freed")


async def test_the_due_job_holds_no_world_once_it_is_done(save_path: Path) -> None:
    """The dashboard works out what is due after its first frame, in a thread worker. A finished
    Worker stays in reference cycles: had it kept the world as its argument, a collector frozen
    meanwhile (a journal applied, a screen's first visit) would keep that world alive for good."""
    import gc
    import weakref

    from yak_tui.kernel.world.model import World

    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        world = World(WorldFile(save_path).read())
        gone = weakref.ref(world)
        worker = screen._load_due([world], GM, True)
        await worker.wait()
        await settle(pilot)
        gc.freeze()  # the Worker's cycles are out of the collector's reach: only references free the world
        try:
            del world
            assert gone() is None, "the finished due job still holds the world it was given"
        finally:
            gc.unfreeze()


async def test_after_an_outside_note_only_what_it_changed_is_worked_out_and_laid_out_again(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30, many apps: the first write an app sees after its start keeps the dashboard's parts
    the note did not touch (what is due, worked out after the first paint, is part of the view they
    are kept from), and the header and the due panel, unchanged, are not laid out again."""
    from textual.widget import Widget

    app = make_app(save_path, poll_interval=0.05)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await wait_for(pilot, lambda: screen._due_loaded and screen.view is not None, what="what is due")
        before = screen.view
        assert before is not None and not before.due_pending
        laid_out: list[str] = []
        refresh = Widget.refresh

        def watched(widget: Widget, *args: Any, layout: bool = False, **kwargs: Any) -> Any:
            if layout:
                laid_out.append(str(widget.id))
            return refresh(widget, *args, layout=layout, **kwargs)

        monkeypatch.setattr(Widget, "refresh", watched)
        run_command(WorldFile(save_path), GM, "note", {"text": "KEPT-NOTE for the open app"})

        def shown() -> bool:
            view = screen.view
            return view is not None and any("KEPT-NOTE" in entry.text for entry in view.chronicle)

        await wait_for(pilot, shown, what="the note on the dashboard")
        await settle(pilot)
        after = screen.view
        assert after is not None
        # Kept, not worked out again: the same objects.
        assert after.queue is before.queue and after.kingdoms is before.kingdoms
        assert after.holdings is before.holdings and after.due_orders is before.due_orders
        assert after.due == before.due and not after.due_pending
        assert {"brand", "when", "who", "season-summary"}.isdisjoint(laid_out), laid_out
        assert "latest-text" in laid_out


async def test_the_first_frame_leaves_the_logs_for_after_it_and_the_chronicle_then_shows(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: the app's first read leaves the save's logs as bytes (`World.logs_deferred`), so
    the dashboard's first frame is drawn without them ("Reading the chronicle…"); what is due brings
    the latest chronicle with it, parsed after that frame, into the same view."""
    from app_helpers import widget_text

    from yak_tui.store.files import DeferredLogs

    run_command(WorldFile(save_path), GM, "note", {"text": "DEFERRED-NOTE in the logs"})  # vouched, split
    painted: list[Any] = []
    parsed: list[int] = []
    paint, load = DashboardScreen.paint_view, DeferredLogs.load

    def watched_paint(screen: DashboardScreen, view: Any) -> None:
        painted.append((view, len(parsed)))
        paint(screen, view)

    def watched_load(logs: DeferredLogs, name: str) -> dict[str, Any]:
        parsed.append(1)
        return load(logs, name)

    monkeypatch.setattr(DashboardScreen, "paint_view", watched_paint)
    monkeypatch.setattr(DeferredLogs, "load", watched_load)
    app = make_app(save_path)
    assert app.world.logs_deferred
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DashboardScreen)
        await wait_for(pilot, lambda: screen._due_loaded and "DEFERRED-NOTE" in widget_text(app), what="the chronicle")
        (first, parsed_then), *later = painted
        assert first.chronicle_pending and first.chronicle == () and parsed_then == 0
        assert later and not later[-1][0].chronicle_pending
        assert any("DEFERRED-NOTE" in entry.text for entry in later[-1][0].chronicle)
        assert parsed == [1] and not app.world.deferred("chronicle")  # the chronicle alone
        assert "Reading the chronicle" not in widget_text(app)
