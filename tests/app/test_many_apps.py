"""Issue 13, many apps on one save: apps of one process on the same world and seat build each read
model once per change, a write redraws only the dashboard panels whose part of the view changed,
and a screen that is not shown does not rebuild until it is shown again."""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, on_top, settle, wait_for

from yak_tui.app.kit.rowtable import RowTable
from yak_tui.app.screens.court.chronicle import ChronicleScreen
from yak_tui.app.screens.court.dashboard import DashboardScreen
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile


def _counting_builds(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Every dashboard read model built, as (identity, the world's revision)."""
    built: list[tuple[str, int]] = []
    original = DashboardScreen.build_view

    def counting(self: DashboardScreen, world: World, identity: Identity) -> Any:
        built.append((str(identity), int(world.meta.get("revision", 0))))
        return original(self, world, identity)

    monkeypatch.setattr(DashboardScreen, "build_view", counting)
    return built


def _shows_revision(app: Any, revision: int) -> bool:
    screen = app.screen
    return (
        isinstance(screen, DashboardScreen)
        and screen.view is not None
        and app.world_version > 0
        and app.world.meta.get("revision") == revision
        and not screen.loader.pending
        and any("MANY-NOTE" in entry.text for entry in screen.view.chronicle)
    )


async def test_apps_of_one_process_on_one_seat_build_one_read_model_per_change(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = _counting_builds(monkeypatch)
    first, second = make_app(save_path, poll_interval=0.05), make_app(save_path, poll_interval=0.05)
    king = make_app(save_path, "king:varos", poll_interval=0.05)
    async with (
        first.run_test(size=(100, 30)) as one,
        second.run_test(size=(100, 30)) as two,
        king.run_test(size=(100, 30)) as three,
    ):
        for pilot in (one, two, three):
            await settle(pilot)
        revision = int(first.world.meta.get("revision", 0)) + 1
        run_command(WorldFile(save_path), GM, "note", {"text": "MANY-NOTE for every seat"})
        for app, pilot in ((first, one), (second, two), (king, three)):
            await wait_for(pilot, lambda a=app: _shows_revision(a, revision), what="the note on the dashboard")
        gm_view, other_gm_view, king_view = (app.screen.view for app in (first, second, king))
    after = [who for who, seen in built if seen == revision]
    assert after.count("gm") == 1  # two GM dashboards, one read model
    assert after.count("king:varos") == 1  # another seat builds its own
    assert gm_view is other_gm_view
    assert king_view is not gm_view
    assert king_view.identity == "king:varos" and gm_view.identity == "gm"


async def test_a_note_redraws_the_latest_chronicle_and_not_the_kingdoms_table(save_path: Path) -> None:
    app = make_app(save_path, poll_interval=0.05)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.screen.query_one("#kingdoms-table", RowTable)
        rows = table._rows  # `fill` replaces the list: the same list is the same drawing
        revision = int(app.world.meta.get("revision", 0)) + 1
        run_command(WorldFile(save_path), GM, "note", {"text": "MANY-NOTE only the chronicle changes"})
        await wait_for(pilot, lambda: _shows_revision(app, revision), what="the note on the dashboard")
        await settle(pilot)
        latest = str(app.screen.query_one("#latest-text").render())
        assert "MANY-NOTE only the chronicle changes" in latest
        assert table._rows is rows
        # A change to a kingdom redraws the table.
        save = WorldFile(save_path)
        with save.transaction() as data:
            data["kingdoms"]["varos"]["treasury"] = 4321
            World(data).meta["revision"] = revision + 1  # a new revision, as a command would make
        await wait_for(pilot, lambda: table._rows is not rows, what="the kingdoms table redrawn")
        assert str(table.get_row("varos")[1]).replace(",", "") == "4321"


async def test_a_screen_not_shown_does_not_rebuild_until_it_is_shown(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    built = _counting_builds(monkeypatch)
    app = make_app(save_path, poll_interval=0.05)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        await pilot.press("c")
        await wait_for(pilot, lambda: on_top(app, ChronicleScreen), what="the chronicle")
        await settle(pilot)
        revision = int(app.world.meta.get("revision", 0)) + 1
        run_command(WorldFile(save_path), GM, "note", {"text": "MANY-NOTE while the chronicle is shown"})
        await wait_for(pilot, lambda: app.world.meta.get("revision") == revision, what="the reload")
        await settle(pilot)
        assert [seen for _, seen in built if seen == revision] == []
        await pilot.press("d")
        await wait_for(pilot, lambda: _shows_revision(app, revision), what="the dashboard caught up")
        assert [seen for _, seen in built if seen == revision] == [revision]


def test_shared_read_models_go_with_their_world_and_a_failed_build_is_not_kept() -> None:
    import gc

    from yak_tui.app.kit.screens import SharedViews
    from yak_tui.areas import court, economy, warfare
    from yak_tui.kernel.world.demo import build_world

    shared = SharedViews()
    world = World(build_world())
    seat = Identity.parse("player:nyx")
    builds = {"dashboard": court.dashboard_view, "market": economy.market_board, "sieges": warfare.siege_monitor}
    views = {name: shared.get(world, (name, seat), partial(build, world, seat)) for name, build in builds.items()}
    assert all(shared.get(world, (name, seat), lambda: None) is view for name, view in views.items())

    def failing() -> Any:
        raise RuntimeError("the save changed under the build")

    with pytest.raises(RuntimeError):
        shared.get(world, ("failing", seat), failing)
    assert shared.get(world, ("failing", seat), lambda: "built on the next try") == "built on the next try"
    del world
    gc.collect()
    assert len(shared._built) == 0  # the views kept no reference to the world they came from


async def test_a_note_leaves_a_players_own_orders_drawn_and_a_rename_redraws_them(save_path: Path) -> None:
    """Issue 30: the "My orders" panel was redrawn on every write (it said nothing of what it draws
    from); now only when the player's orders or the names of those they wait for change."""
    from yak_tui.cli import main

    filed = ["--save", str(save_path), "--as", "player:corvin", "do", "order-file", "command=credit-extend"]
    assert main([*filed, "params=lender=hale-bank;debtor=lysa;amount=5"]) == 0  # King Aldric rules on it
    app = make_app(save_path, "player:corvin", poll_interval=0.05)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        table = app.screen.query_one("#my-orders-table", RowTable)
        await wait_for(pilot, lambda: table.row_count == 1, what="his order")
        rows = table._rows
        assert "waits for King Aldric" in str(table.get_row(rows[0][0]))
        revision = int(app.world.meta.get("revision", 0)) + 1
        run_command(WorldFile(save_path), GM, "note", {"text": "MANY-NOTE only the chronicle changes"})
        await wait_for(pilot, lambda: _shows_revision(app, revision), what="the note on the dashboard")
        await settle(pilot)
        assert table._rows is rows
        save = WorldFile(save_path)
        with save.transaction() as data:  # the King renamed: the line that names him is drawn again
            ruler = data["kingdoms"]["elbreth"]["ruler"]
            data["characters"][ruler]["name"] = "Aldwin"
            World(data).meta["revision"] = revision + 1
        await wait_for(pilot, lambda: table._rows is not rows, what="his orders redrawn")
        assert "Aldwin" in str(table.get_row(table._rows[0][0]))
