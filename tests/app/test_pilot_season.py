"""Advancing the season from the app: a preview of exactly what year start will do (the same
sums as `session.preview`), a confirmation, a progress bar, and the world moved on; only the GM."""

from __future__ import annotations

from pathlib import Path

from app_helpers import make_app, on_top, screen_text, settle, wait_for, world_of
from textual.widgets import Button, ProgressBar

from yak_tui.app.shell.advance import AdvanceScreen
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.session import preview
from yak_tui.store.storage import WorldFile


def set_date(path: Path, season: str, year: int = 312) -> None:
    with WorldFile(path).transaction() as data:
        data["meta"]["world"]["date"] = {"year": year, "season": season}


async def test_advance_previews_confirms_and_moves_the_world(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.press("a")
        await wait_for(pilot, lambda: on_top(app, AdvanceScreen))
        dialog = app.screen
        confirm = dialog.query_one("#confirm", Button)
        await wait_for(pilot, lambda: not confirm.disabled, what="the preview")
        await wait_for(pilot, lambda: "Spring 312 → Summer 312" in screen_text(app), what="the preview drawn")
        assert str(confirm.label) == "Advance to Summer 312"
        assert world_of(save_path).date.label() == "Spring 312"  # the preview changed nothing
        await pilot.press("enter")  # the confirm button has the focus
        await wait_for(pilot, lambda: "Summer 312 begins" in screen_text(app), what="the advance")
        progress = dialog.query_one("#progress", ProgressBar)
        await wait_for(pilot, lambda: progress.percentage == 1, what="a full progress bar")
        assert world_of(save_path).date.label() == "Summer 312"
        assert list((save_path.parent / "backups").glob("*.json"))  # backed up first
        await pilot.press("escape")
        await wait_for(pilot, lambda: "Summer 312 · 3 seasons to year start" in screen_text(app), what="the header")


async def test_the_year_start_preview_shows_the_pipeline_sums(save_path: Path) -> None:
    set_date(save_path, "Winter")
    expected = preview(WorldFile(save_path))
    assert expected["year_start"]
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await pilot.press("a")
        await wait_for(pilot, lambda: on_top(app, AdvanceScreen))
        await wait_for(pilot, lambda: not app.screen.query_one("#confirm", Button).disabled, what="the preview")
        tax = next(s for s in expected["steps"] if s["step"] == "tax")
        wanted = [
            "Winter 312 → Spring 313",
            "The year turns",
            tax["title"],
            *(f"{key} {value:g}" for key, value in tax["sums"].items()),
        ]
        # The button is enabled with the preview's data: its lines are drawn on a later frame.
        await wait_for(pilot, lambda: all(part in screen_text(app) for part in wanted), what=f"the preview's {wanted}")
        await pilot.press("enter")
        await wait_for(pilot, lambda: world_of(save_path).date.label() == "Spring 313", what="the new year")
        for step in expected["steps"]:
            if step["step"] == "tax":
                await wait_for(pilot, lambda s=step: f"✓ {s['title']}" in screen_text(app), what="ticked steps")


async def test_a_king_has_no_advance_key(save_path: Path) -> None:
    app = make_app(save_path, "king:elbreth")
    async with app.run_test(size=(110, 40)) as pilot:
        await pilot.press("a")
        await settle(pilot)
        assert not isinstance(app.screen, AdvanceScreen)
        assert " a Advance" not in screen_text(app)
        app.push_screen(AdvanceScreen())  # reached some other way, it refuses and shows no sums
        await wait_for(pilot, lambda: "Only the GM may close the season" in screen_text(app))
        await settle(pilot)
        assert app.screen.query_one("#confirm", Button).disabled
        assert "→" not in screen_text(app)


async def test_waiting_orders_are_shown_and_carried_only_when_the_gm_says_so(save_path: Path) -> None:
    """Issue 27: the preview lists the orders still waiting; the first press asks before carrying them
    into the next season (nothing changes), the second closes the season carrying them."""
    filed = run_command(
        WorldFile(save_path),
        Identity.parse("player:corvin"),
        "order-file",
        {"command": "roll", "params": "reason=scout the ford"},
    )
    order = filed.data["order"]
    app = make_app(save_path)
    async with app.run_test(size=(120, 45)) as pilot:
        await pilot.press("a")
        await wait_for(pilot, lambda: on_top(app, AdvanceScreen))
        confirm = app.screen.query_one("#confirm", Button)
        await wait_for(pilot, lambda: not confirm.disabled, what="the preview")
        assert str(confirm.label) == "Carry 1 order over…"
        await wait_for(pilot, lambda: "1 order still waits and carries over" in screen_text(app), what="the orders")
        assert "scout the ford" in screen_text(app)
        await pilot.press("enter")  # asks: nothing is closed yet
        await wait_for(pilot, lambda: "They will wait on into Summer 312" in screen_text(app), what="the question")
        assert str(confirm.label) == "Advance to Summer 312, carrying 1 order"
        assert world_of(save_path).date.label() == "Spring 312"
        # A button ignores a press while it still shows the last one (Textual's 0.2 s "-active" effect,
        # late on a loaded machine): the GM's second press comes after it, and so does this one.
        await wait_for(pilot, lambda: not confirm.has_class("-active"), what="the first press to end")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Summer 312 begins" in screen_text(app), what="the advance")
        world = world_of(save_path)
        assert world.date.label() == "Summer 312" and world.get("orders", order)["status"] == "waiting"


async def test_cancelling_the_question_carries_nothing(save_path: Path) -> None:
    run_command(
        WorldFile(save_path),
        Identity.parse("player:corvin"),
        "order-file",
        {"command": "roll", "params": "reason=scout the ford"},
    )
    app = make_app(save_path)
    async with app.run_test(size=(120, 45)) as pilot:
        await pilot.press("a")
        await wait_for(pilot, lambda: on_top(app, AdvanceScreen))
        confirm = app.screen.query_one("#confirm", Button)
        await wait_for(pilot, lambda: not confirm.disabled, what="the preview")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "They will wait on into Summer 312" in screen_text(app), what="the question")
        await pilot.press("escape")
        await wait_for(pilot, lambda: not on_top(app, AdvanceScreen), what="the dialog to close")
        assert world_of(save_path).date.label() == "Spring 312"
