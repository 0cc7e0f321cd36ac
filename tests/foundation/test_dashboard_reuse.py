"""Issue 30: after a note or a roll, the dashboard keeps the parts of its read model that read no log.

An app follows another process's write through the change journal (`follow_save`): the new world
shares every table the write did not touch. The dashboard's read model then keeps its order queue,
kingdoms, holdings and the rest (the same objects: a panel shown them is not redrawn), and works out
again only the latest chronicle entries, what is due and the readiness line. Whatever it keeps, the
view must equal one built from nothing.
"""

from __future__ import annotations

from typing import Any

import pytest

import yak_tui.areas.court.read_season as read_season
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.world.model import World, follow_save
from yak_tui.store.storage import WorldFile

SEATS = ("gm", "king:elbreth", "player:lysa", "player:corvin", "observer")
KEPT = ("kingdoms", "history", "holdings", "queue", "my_orders")


def _queue_calls(monkeypatch: pytest.MonkeyPatch, name: str = "order_queue") -> list[str]:
    """The viewers `read_season.<name>` is called for from now on."""
    calls: list[str] = []
    made = getattr(read_season, name)

    def counted(world: World, viewer: Identity) -> Any:
        calls.append(str(viewer))
        return made(world, viewer)

    monkeypatch.setattr(read_season, name, counted)
    return calls


def test_a_note_and_a_roll_keep_the_parts_that_read_no_log(save: WorldFile, monkeypatch: pytest.MonkeyPatch) -> None:
    run_command(save, Identity.parse("player:lysa"), "order-file", {"command": "roll", "params": "reason=trade winds"})
    stamp, world = follow_save(save, None)
    built = {who: read_season.dashboard_view(world, Identity.parse(who)) for who in SEATS}
    calls = _queue_calls(monkeypatch)
    # What is due: its lines made from the orders are kept too (500 order lines at 100x, each write).
    order_lines = _queue_calls(monkeypatch, "orders_due_lines")
    for command, params in (("note", {"text": "the ford is watched"}), ("roll", {"reason": "weather"})):
        run_command(save, GM, command, params)
        stamp, followed = follow_save(save, (stamp, world))
        assert followed.follows() is not None  # brought up to date from the journal, not read whole
        for who in SEATS:
            viewer = Identity.parse(who)
            view = read_season.dashboard_view(followed, viewer, before=(world, built[who]))
            assert view == read_season.dashboard_view(World(save.read()), viewer), who
            assert [part for part in KEPT if getattr(view, part) is not getattr(built[who], part)] == [], (command, who)
            built[who] = view
        world = followed
    # Kept, not rebuilt: only the fresh views above asked for the queue.
    assert len(calls) == 2 * len(SEATS)
    assert len(order_lines) == 2 * len(SEATS)
    assert ("orders", "1 order waiting for adjudication", True) in built["gm"].due
    assert ("orders", "Your order to roll: reason trade winds waits for the GM", False) in built["player:lysa"].due
    assert "the ford is watched" in [entry.text for entry in built["gm"].chronicle]


def test_a_write_to_any_other_table_builds_the_view_again(save: WorldFile, monkeypatch: pytest.MonkeyPatch) -> None:
    stamp, world = follow_save(save, None)
    before = read_season.dashboard_view(world, GM)
    calls = _queue_calls(monkeypatch)
    run_command(save, Identity.parse("player:lysa"), "order-file", {"command": "roll", "params": "reason=trade winds"})
    stamp, followed = follow_save(save, (stamp, world))
    view = read_season.dashboard_view(followed, GM, before=(world, before))
    assert calls == ["gm"]
    assert view.queue != before.queue and any("trade winds" in str(row) for row in view.queue)
    assert view == read_season.dashboard_view(World(save.read()), GM)


def test_written_only_is_judged_on_the_very_tables_and_the_meta_documents_content(save: WorldFile) -> None:
    stamp, world = follow_save(save, None)
    assert not World(save.read()).written_only(world, read_season.LOGS)  # two full reads share nothing
    run_command(save, GM, "note", {"text": "a note"})
    stamp, noted = follow_save(save, (stamp, world))
    assert noted.written_only(world, read_season.LOGS)
    assert not noted.written_only(world, {"dice", "reports"})  # the chronicle was written
    run_command(save, GM, "season-deadline", {"at": "2030-01-01 12:00 UTC"})
    stamp, dated = follow_save(save, (stamp, noted))
    assert set(dated.follows()[1]) == {"chronicle", "meta"}  # the deadline is in the meta document
    assert not dated.written_only(noted, read_season.LOGS)


def test_a_build_overtaken_by_a_newer_one_does_not_keep_the_older_world(save: WorldFile) -> None:
    """The dashboard's loader may finish an older job after a newer one (a thread cannot be stopped):
    the view it keeps to build on stays the newer world's, or the older world would stay alive."""
    from yak_tui.app.screens.court.dashboard import DashboardScreen

    screen = DashboardScreen()
    older, newer = World(save.read()), World(save.read())
    screen.build_view(newer, GM)
    screen.build_view(older, GM)
    assert screen._built is not None and screen._built[0] is newer
