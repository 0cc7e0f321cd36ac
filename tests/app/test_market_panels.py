"""A panel of the market draws exactly the read model it is shown: `show(view)` is the whole
contract between the screen and its panels (the screen only routes its state)."""

from __future__ import annotations

from pathlib import Path

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
