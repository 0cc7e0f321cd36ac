"""A panel of the siege monitor draws exactly the read model it is shown: `show(view)` is the whole
contract between the screen and its panels (the screen only routes its state)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from app_helpers import make_app, wait_for, widget_text, world_of
from test_sieges_screen import besiege, open_sieges

from yak_tui.app.kit.common import YakTable
from yak_tui.app.screens.warfare.panels import AttemptsPanel, CardPanel, RaidsPanel, SiegesPanel, WalledPanel
from yak_tui.areas import warfare as monitor
from yak_tui.kernel.play.identity import GM


async def test_the_siege_panels_draw_the_view_they_are_shown_not_the_screens(save_path: Path, tmp_path: Path) -> None:
    # Another world, where Brinehaven is besieged; the app's own world has no siege.
    other = tmp_path / "besieged.json"
    shutil.copyfile(save_path, other)
    besiege(other)
    view = monitor.siege_monitor(world_of(other), GM)
    card = view.sieges[0]

    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_sieges(pilot)
        assert screen.monitor is not None and not screen.monitor.sieges

        sieges = screen.query_one(SiegesPanel)
        sieges.show(view, wide=True)
        table = sieges.query_one("#siege-list", YakTable)
        assert [str(key.value) for key in table.rows] == [s.id for s in view.sieges]
        assert sieges.border_title == f"Sieges ({len(view.active)} active)"
        assert len(table.columns) == 8
        sieges.fill(view.sieges, wide=False)
        assert len(table.columns) == 5

        panel = screen.query_one(CardPanel)
        panel.show(view, card)
        assert panel.border_title == f"Siege of {card.fort}" and panel.border_subtitle == card.id
        assert not panel.has_class("grow")
        attempts = screen.query_one(AttemptsPanel)
        attempts.show(view, card)
        assert attempts.display
        await wait_for(
            pilot,
            lambda: re.search(r"season ends? under siege", widget_text(app)) is not None,
            what="the siege's card drawn",
        )
        attempts.show(view, None)
        panel.show(view, None)
        assert not attempts.display and panel.has_class("grow") and panel.border_title == "Siege"

        walled = screen.query_one(WalledPanel)
        walled.show(view)
        assert walled.border_title == f"Walled places ({len(view.forts)})"
        forts = walled.query_one("#forts-table", YakTable)
        assert [str(key.value) for key in forts.rows] == [f.id for f in view.forts]
        await wait_for(pilot, lambda: "besieged" in widget_text(app), what="the besieged fort's state")

        raids = screen.query_one(RaidsPanel)
        raids.show(view)
        assert raids.query_one("#places-table", YakTable).row_count == len(view.places)
        place = next(p for p in view.places if p.id == raids.highlighted())
        raids.show_verdicts(place, monitor.place_verdicts(world_of(other), GM, place.id))
        assert raids.border_title == "Raids & looting"


async def test_a_sieges_row_is_made_only_when_it_is_drawn(
    save_path: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: the sieges table made every siege's eight cells (1,000 sieges at 1000x) for a table
    that draws a window of them; a row's cells are made when drawn, narrow or wide."""
    from yak_tui.app.screens.warfare import panels

    other = tmp_path / "besieged.json"
    shutil.copyfile(save_path, other)
    besiege(other)
    view = monitor.siege_monitor(world_of(other), GM)
    many = tuple(view.sieges[0]._replace(id=f"siege-{n:04d}") for n in range(1000))
    made: list[str] = []
    cells = panels._siege_cells

    def counted(card: monitor.SiegeCard, wide: bool) -> list[object]:
        made.append(card.id)
        return cells(card, wide)

    monkeypatch.setattr(panels, "_siege_cells", counted)
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_sieges(pilot)
        panel = screen.query_one(SiegesPanel)
        for wide, columns in ((True, 8), (False, 5)):
            made.clear()
            panel.fill(many, wide)
            table = panel.query_one("#siege-list", YakTable)
            assert table.total_rows == 1000 and len(made) == YakTable.WINDOW and len(table.columns) == columns
            assert len(table.get_row("siege-0999")) == columns  # a row not drawn, when asked
