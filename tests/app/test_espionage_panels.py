"""A panel of the espionage board draws exactly the read model it is shown: `show(view)` is the
whole contract between the screen and its panels (the screen only routes its state)."""

from __future__ import annotations

from pathlib import Path

from app_helpers import make_app, on_top, wait_for, widget_text

from yak_tui.app.kit.common import YakTable
from yak_tui.app.screens.espionage.panels import EffectsPanel, MissionPanel, MissionsPanel, PoolsPanel
from yak_tui.app.screens.espionage.screen import EspionageScreen
from yak_tui.areas.espionage.read import board_view
from yak_tui.kernel.play.identity import GM


async def test_the_missions_panel_draws_the_view_it_is_shown_not_the_screens(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("e")
        await wait_for(pilot, lambda: on_top(app, EspionageScreen), what="the board")
        screen = app.screen
        assert isinstance(screen, EspionageScreen)
        await wait_for(pilot, lambda: screen.view is not None, what="the board's data")
        assert screen.view is not None
        other = next(c for c in screen.view.targets if c.value != screen.target)
        view = board_view(app.world, GM, screen.sponsor, other.value)

        panel = screen.query_one(MissionsPanel)
        panel.show(view)
        assert panel.border_title == f"Missions against {other.label}"
        table = panel.query_one("#missions-table", YakTable)
        assert [str(key.value) for key in table.rows] == [m.slug for m in view.missions]
        assert panel.highlighted() == view.missions[0]

        detail = screen.query_one(MissionPanel)
        detail.show(view, view.missions[-1])
        assert detail.border_title == view.missions[-1].name
        await wait_for(pilot, lambda: view.missions[-1].text[:20] in widget_text(app), what="the mission's text drawn")

        pools = screen.query_one(PoolsPanel)
        pools.show(view)
        assert pools.query_one("#pools-table", YakTable).row_count == len(view.pools)
        effects = screen.query_one(EffectsPanel)
        effects.show(view)
        assert effects.query_one("#effects-table", YakTable).row_count == len(view.effects)
