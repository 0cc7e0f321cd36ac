"""A panel of the casting screen draws exactly what it is shown: `show(...)` is the whole contract
between the screen and its panels (the screen runs the casting and routes what each shows)."""

from __future__ import annotations

from pathlib import Path

from app_helpers import make_app, on_top, wait_for, world_of
from textual.widgets import Static

from yak_tui.app.screens.magic.panels import ChroniclePanel, OddsPanel, SetupPanel, StagePanel
from yak_tui.app.screens.magic.screen import CastingScreen
from yak_tui.areas.magic import cast_setup, stage_odds_rows
from yak_tui.kernel.play.identity import GM

VALUES = {
    "caster": "maelis",
    "source": "ley-line",
    "power_modifier": 0,
    "control_modifier": 0,
    "resolution_modifier": 0,
    "reason": "",
}


def text_of(screen: CastingScreen, selector: str) -> str:
    return " ".join(str(screen.query_one(selector, Static).render()).split())


async def test_the_casting_panels_draw_what_they_are_shown_not_the_screens(save_path: Path) -> None:
    setup = cast_setup(world_of(save_path), GM, VALUES)
    assert setup.caster == "maelis"
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("g")
        await wait_for(pilot, lambda: on_top(app, CastingScreen), what="the casting screen")
        screen = app.screen
        assert isinstance(screen, CastingScreen)
        # The form has no power source yet: the screen's own setup has no odds to show.
        await wait_for(pilot, lambda: screen.setup is not None and not screen._checker.pending, what="the form checked")
        assert "Next Power with" not in text_of(screen, "#cast-overall")

        screen.query_one(SetupPanel).show(setup)
        assert "Ranks Power 1 Control 1 Resolution 0" in text_of(screen, "#cast-carry")
        screen.query_one(SetupPanel).show_problem("Not now.")
        assert text_of(screen, "#cast-problem") == "Not now."
        screen.query_one(OddsPanel).show(setup)
        assert "Next Power with ley-line" in text_of(screen, "#cast-overall")

        control = screen.query_one("#stage-control", StagePanel)
        rows = stage_odds_rows(app.world, VALUES, [6])
        control.show(rows, "Power 6")
        assert control.border_subtitle == "odds given Power 6"
        assert all(band in text_of(screen, "#odds-control") for band, _ in rows)
        control.note("Not rolled.", "")
        assert control.border_subtitle == "" and text_of(screen, "#odds-control") == "Not rolled."
        control.die_row.display = True
        control.add_class("-active")
        control.clear()
        assert not control.die_row.display and not control.has_class("-active")

        chronicle = screen.query_one(ChroniclePanel)
        chronicle.show(["A spell was cast.", "Something went awry."], [("e1", "Something went awry.")], gm=True)
        assert chronicle.border_subtitle == "1 consequence for the GM to describe"
        assert "ctrl+f describe a consequence" in text_of(screen, "#cast-result")
