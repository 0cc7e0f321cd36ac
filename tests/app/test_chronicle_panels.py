"""The chronicle's panel draws exactly the read model it is shown: `show(view, selected)` is the
whole contract between the screen (filters and selection) and its entries."""

from __future__ import annotations

from pathlib import Path

from app_helpers import make_app, on_top, wait_for
from textual.widgets import OptionList

from yak_tui.app.screens.court.chronicle import ChronicleScreen
from yak_tui.app.screens.court.panels import EntriesPanel
from yak_tui.areas.court import EntryViews, chronicle_view
from yak_tui.kernel.play.identity import GM


async def test_the_entries_panel_draws_the_view_it_is_shown_not_the_screens(busy_save: Path) -> None:
    app = make_app(busy_save)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("c")
        await wait_for(pilot, lambda: on_top(app, ChronicleScreen), what="the chronicle")
        screen = app.screen
        panel = screen.query_one(EntriesPanel)
        listing = panel.query_one("#entries", OptionList)
        await wait_for(pilot, lambda: listing.option_count > 2, what="the entries")
        full = chronicle_view(app.world, GM)
        view = full._replace(entries=full.entries[-2:])
        newest, older = view.entries[-1].id, view.entries[-2].id

        panel.show(view, {older})
        assert [listing.get_option_at_index(i).id for i in range(listing.option_count)] == [newest, older]
        assert panel.border_title == f"Chronicle · 2 of {view.total} entries"
        assert panel.highlighted() == newest
        assert "1 selected" in str(panel.query_one("#chronicle-status").render())
        assert "●" in str(listing.get_option_at_index(1).prompt) and "●" not in str(
            listing.get_option_at_index(0).prompt
        )

        panel.mark(newest, True)
        assert "●" in str(listing.get_option_at_index(0).prompt) and panel.highlighted() == older

        panel.show(view._replace(entries=EntryViews()))
        assert listing.option_count == 0 and panel.highlighted() is None
        assert "No entries match" in str(panel.query_one("#chronicle-status").render())

        panel.show(view._replace(entries=(), total=0))
        assert "The chronicle is empty" in str(panel.query_one("#chronicle-status").render())
