"""Issue 17 item 8: the hotseat offers only the seats at the table (no NPC kingdom such as Kesh),
and the GM can undo a wrong advance in the app: a confirm dialog, then the backup that advance
took is restored through the store's restore (the replaced file is kept aside)."""

from __future__ import annotations

from pathlib import Path

from app_helpers import make_app, on_top, settle, wait_for, world_of
from textual.widgets import Button, OptionList

from tests.store.restored import assert_restored
from yak_tui.app.shell.advance import UndoAdvanceScreen
from yak_tui.app.shell.identity import IdentityScreen
from yak_tui.kernel.play.dice import SeededDice
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.season.session import advance_season
from yak_tui.store.storage import WorldFile


async def test_the_identity_dialog_does_not_offer_an_npc_kingdom(save_path: Path) -> None:
    world = world_of(save_path)
    npc = [kid for kid, k in world.all("kingdoms") if not k.get("player")]
    assert "kesh" in npc
    app = make_app(save_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        await pilot.press("i")
        await wait_for(pilot, lambda: on_top(app, IdentityScreen), what="the identity dialog")
        options = app.screen.query_one(OptionList)
        offered = {options.get_option_at_index(i).id for i in range(options.option_count)}
        assert "king:elbreth" in offered and "gm" in offered
        assert not offered & {f"king:{kid}" for kid in npc}, offered
        palette = {entry.title for entry in app.palette_entries(app.screen)}
        assert not any("Kesh" in title and title.startswith("Act as King") for title in palette)


async def test_the_gm_undoes_a_wrong_advance_after_confirming(save_path: Path) -> None:
    save = WorldFile(save_path)
    before = save_path.read_bytes()
    start = world_of(save_path).date
    advance_season(save, GM, SeededDice(3))
    assert world_of(save_path).date == start.next()
    app = make_app(save_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        titles = {entry.title for entry in app.palette_entries(app.screen)}
        assert "Undo the last advance" in titles
        app.action_undo_advance()
        await wait_for(pilot, lambda: on_top(app, UndoAdvanceScreen), what="the confirm dialog")
        dialog = app.screen
        assert dialog.focused is dialog.query_one("#close", Button)  # the safe choice first
        text = str(dialog.query_one("#undo-advance-text").render())
        assert start.label() in text and "is lost" in text
        await pilot.click("#restore")
        await wait_for(pilot, lambda: not on_top(app, UndoAdvanceScreen), what="the dialog to close")
        await wait_for(pilot, lambda: app.world.date == start, what="the app to show the restored season")
    assert_restored(save_path.read_bytes(), before)  # the backup, and the restore's public event
    assert save_path.with_name(save_path.name + ".before-restore").exists()


async def test_a_king_is_not_offered_the_undo_of_an_advance(save_path: Path) -> None:
    app = make_app(save_path, "king:elbreth")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        assert "Undo the last advance" not in {entry.title for entry in app.palette_entries(app.screen)}
