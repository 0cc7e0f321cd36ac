"""A panel of the market draws exactly the read model it is shown: `show(view)` is the whole
contract between the screen and its panels (the screen only routes its state)."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_helpers import make_app, on_top, wait_for, widget_text
from textual.widgets import DataTable

from yak_tui.app.kit.common import YakTable
from yak_tui.app.screens.economy.panels import (
    AcademiesPanel,
    BusinessesPanel,
    DetailPanel,
    LedgerPanel,
    SectorsPanel,
    SpecialistsPanel,
)
from yak_tui.app.screens.economy.screen import MarketScreen
from yak_tui.areas.economy import read as board
from yak_tui.kernel.play.identity import GM


async def test_the_market_panels_draw_the_view_they_are_shown_not_the_screens(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("b")
        await wait_for(pilot, lambda: on_top(app, MarketScreen), what="the market")
        screen = app.screen
        assert isinstance(screen, MarketScreen)
        await wait_for(pilot, lambda: screen.query_one("#sectors-table", DataTable).row_count > 0, what="sectors")
        full = board.market_board(app.world, GM)
        # A view of one province only: the panels draw that, whatever the screen holds.
        province = full.sectors[0].province_id
        view = full._replace(
            sectors=tuple(s for s in full.sectors if s.province_id == province),
            businesses=tuple(b for b in full.businesses if b.province_id == province),
            ledger=(),
            academies=full.academies[:1],
            specialists=full.specialists[:1],
        )

        sectors = screen.query_one(SectorsPanel)
        sectors.show(view)
        table = sectors.query_one("#sectors-table", YakTable)
        assert [str(key.value) for key in table.rows] == [s.key for s in view.sectors]
        assert sectors.border_subtitle == f"{sum(s.full for s in view.sectors)} full: expanding there means competition"
        sectors.move_to(view.sectors[-1].key)
        assert sectors.highlighted() == (province, view.sectors[-1].sector)

        businesses = screen.query_one(BusinessesPanel)
        businesses.show(view, mine_only=False, province=province, sector=view.sectors[-1].sector)
        shown = businesses.query_one("#businesses-table", YakTable)
        assert {str(key.value) for key in shown.rows} == {b.id for b in view.businesses}
        assert businesses.border_title == f"Businesses in {app.world.display_name('provinces', province)}"
        businesses.show(view, mine_only=True)
        assert shown.row_count == sum(b.mine for b in view.businesses)
        assert businesses.border_title == "Your kingdom's businesses"

        ledger = screen.query_one(LedgerPanel)
        ledger.show(view)
        assert ledger.border_title == "Credit & loans" and ledger.highlighted() is None
        await wait_for(pilot, lambda: "No credit or loans on the books." in widget_text(app), what="the empty ledger")
        specialists = screen.query_one(SpecialistsPanel)
        specialists.show(view)
        assert specialists.highlighted() == view.specialists[0].kingdom_id
        academies = screen.query_one(AcademiesPanel)
        academies.show(view)
        assert academies.query_one("#academies-table", YakTable).row_count == 1

        business = view.businesses[0]
        detail = board.business_detail(app.world, GM, business.id)
        assert detail is not None
        panel = screen.query_one(DetailPanel)
        panel.show_detail(detail)
        assert panel.border_title == business.name
        info = board.province_info(app.world, GM, province)
        panel.show_detail(None, info)
        assert info is not None and panel.border_title == info.name
        await wait_for(pilot, lambda: "No business highlighted" in widget_text(app), what="the province's detail")


async def test_a_kingdoms_specialists_are_drawn_only_when_their_row_is(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: the specialists panel made every kingdom's cells (3,000 kingdoms at 1000x, ~0.1 s of
    the GM's first visit) for a table that draws a window of them; a row's cells are made when drawn."""
    from yak_tui.app.screens.economy import panels

    made: list[str] = []
    cells = panels._specialist_cells

    def counted(line: board.SpecialistLine, types: tuple[str, ...]) -> list[object]:
        made.append(line.kingdom_id)
        return cells(line, types)

    monkeypatch.setattr(panels, "_specialist_cells", counted)
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("b")
        await wait_for(pilot, lambda: on_top(app, MarketScreen), what="the market")
        screen = app.screen
        await wait_for(pilot, lambda: screen.query_one("#sectors-table", DataTable).row_count > 0, what="sectors")
        full = board.market_board(app.world, GM)
        line = full.specialists[0]
        many = tuple(line._replace(kingdom_id=f"k{n:04d}") for n in range(1000))
        panel = screen.query_one(SpecialistsPanel)
        made.clear()
        panel.show(full._replace(specialists=many))
        table = panel.query_one("#specialists-table", YakTable)
        assert table.total_rows == 1000 and table.row_count == YakTable.WINDOW
        assert len(made) == YakTable.WINDOW  # the window's rows, not the thousand
        assert str(table.get_row("k0999")[0]) == str(table.get_row("k0000")[0])  # a row not drawn, when asked
