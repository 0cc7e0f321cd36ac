"""Issue 15 §3: the GM's editor and the World screen. An edit goes through `gm-set` (the file
changes, the chronicle says so, undo puts it back); a refused edit writes nothing and marks the
field; a player can open neither; `e` on a row of a rule screen opens that row's document."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app_helpers import make_app, on_top, query_ready, settle, wait_for, world_of
from textual.pilot import Pilot
from textual.widgets import Input

from yak_tui.app.kit.command import CommandScreen
from yak_tui.app.kit.editor import DocumentEditor
from yak_tui.app.kit.paramform import ParamForm
from yak_tui.app.shell.world import WorldScreen


async def open_world(pilot: Pilot[Any], search: str = "") -> WorldScreen:
    await settle(pilot)
    await pilot.press("w")
    await wait_for(pilot, lambda: on_top(pilot.app, WorldScreen), what="the World screen")
    screen = pilot.app.screen
    assert isinstance(screen, WorldScreen)
    if search:
        await pilot.press("slash", *search, "enter")
    await settle(pilot)
    return screen


async def open_editor(pilot: Pilot[Any], key: str = "e") -> DocumentEditor:
    await pilot.press(key)
    await wait_for(pilot, lambda: on_top(pilot.app, DocumentEditor), what="the editor")
    await settle(pilot)
    editor = pilot.app.screen
    assert isinstance(editor, DocumentEditor)
    return editor


async def type_into(pilot: Pilot[Any], editor: DocumentEditor, field: str, text: str) -> None:
    control = await query_ready(pilot, editor, f"#param-{field}", Input)
    control.focus()
    control.value = ""
    await pilot.press(*text)
    await settle(pilot)


async def test_the_gm_edits_a_kingdoms_ducats_from_the_world_screen_and_undoes_it(save_path: Path) -> None:
    before = world_of(save_path).get("kingdoms", "elbreth")["treasury"]
    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_world(pilot, "elbreth")
        titles = {entry.title for entry in app.palette_entries(app.screen)}
        assert {"World: every table", "Edit the highlighted row"} <= titles
        editor = await open_editor(pilot)
        assert editor.table == "kingdoms" and editor.doc_id == "elbreth"
        assert editor.query_one("#param-treasury", Input).value == str(before).removesuffix(".0")
        await type_into(pilot, editor, "treasury", "1234")
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not on_top(app, DocumentEditor), what="the editor to close")
        world = world_of(save_path)
        assert world.get("kingdoms", "elbreth")["treasury"] == 1234
        entry = max(world.table("chronicle").values(), key=lambda e: e["seq"])
        assert entry["command"] == "gm-set" and "treasury" in entry["text"] and "1234" in entry["text"]
        await settle(pilot)
        await pilot.press("u")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the undo dialog")
        await settle(pilot)
        await pilot.press("ctrl+r")
        await wait_for(
            pilot,
            lambda: world_of(save_path).get("kingdoms", "elbreth")["treasury"] == before,
            what="undo to restore the treasury",
        )


async def test_a_refused_edit_names_the_field_and_writes_nothing(save_path: Path) -> None:
    before = save_path.read_bytes()
    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_world(pilot, "elbreth")
        editor = await open_editor(pilot)
        await type_into(pilot, editor, "manpower", "-5")
        await pilot.press("ctrl+s")
        row = editor.query_one("#field-manpower")
        await wait_for(pilot, lambda: row.has_class("-invalid"), what="the manpower field marked")
        assert "0" in str(editor.query_one("#error-manpower").render())  # the least it may be
        await settle(pilot)
        assert on_top(app, DocumentEditor)
    assert save_path.read_bytes() == before


async def test_the_gm_adds_a_kingdom_then_removes_it(save_path: Path) -> None:
    app = make_app(save_path, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_world(pilot)
        await pilot.press("a")
        await wait_for(pilot, lambda: on_top(app, DocumentEditor), what="the empty editor")
        editor = app.screen
        assert isinstance(editor, DocumentEditor) and editor.adding
        for field, text in (
            ("id", "norland"),
            ("name", "Kingdom of Norland"),
            ("treasury", "40"),
            ("manpower", "3"),
            ("influence", "0"),
            ("business_tax", "10"),
        ):
            await type_into(pilot, editor, field, text)
        await pilot.press("ctrl+s")
        await wait_for(pilot, lambda: not on_top(app, DocumentEditor), what="the editor to close")
        added = world_of(save_path).get("kingdoms", "norland")
        assert added["treasury"] == 40 and added["ruler"] is None and added["player"] is False
        await open_world(pilot, "norland")  # already shown: the search narrows it to the new one
        await pilot.press("d")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the remove dialog")
        await settle(pilot)
        await pilot.press("ctrl+r")
        await wait_for(
            pilot, lambda: world_of(save_path).find("kingdoms", "norland") is None, what="the kingdom to be removed"
        )


async def test_shift_e_on_a_row_of_a_rule_screen_opens_its_document(busy_save: Path) -> None:
    app = make_app(busy_save, poll_interval=0)
    async with app.run_test(size=(140, 45)) as pilot:
        await settle(pilot)
        await pilot.press("e")  # still the espionage screen's key, even with a row under the cursor
        await wait_for(pilot, lambda: app.current_mode == "espionage", what="the espionage screen")
        await pilot.press("d")
        await wait_for(pilot, lambda: app.current_mode == "dashboard", what="the dashboard")
        await settle(pilot)
        editor = await open_editor(pilot, "E")  # the dashboard's order queue: E, as e is the espionage key
        assert editor.table == "orders"
        await pilot.press("escape")
        await pilot.press("b")
        await wait_for(pilot, lambda: app.current_mode == "market" and app.screen.is_mounted, what="the market")
        await settle(pilot)
        app.screen.query_one("#businesses-table").focus()
        await settle(pilot)
        editor = await open_editor(pilot, "E")
        assert editor.table == "businesses" and editor.query(ParamForm)
        await pilot.press("escape")
        await pilot.press("m")
        await wait_for(pilot, lambda: app.current_mode == "map" and app.screen.is_mounted, what="the map")
        await settle(pilot)
        editor = await open_editor(pilot, "E")  # the cursor starts on the GM's home hex: a place
        assert editor.table in ("pcs", "units", "characters")


async def test_a_player_can_open_neither_the_editor_nor_the_world_screen(busy_save: Path) -> None:
    app = make_app(busy_save, "player:nyx", poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert not isinstance(app.screen, WorldScreen)
        assert any("only the GM may open the World screen" in str(n.message) for n in app._notifications)
        await pilot.press("E")  # hidden from a player: nothing opens
        await settle(pilot)
        assert not isinstance(app.screen, DocumentEditor)
        app.open_editor("kingdoms", "elbreth")
        app.action_edit_row()
        await settle(pilot)
        assert not isinstance(app.screen, DocumentEditor)
        assert any("only the GM may edit documents" in str(n.message) for n in app._notifications)
        titles = {entry.title for entry in app.palette_entries(app.screen)}
        assert "World: every table" not in titles and "Edit the highlighted row" not in titles


async def test_the_world_screen_closes_when_the_keyboard_passes_to_a_player(busy_save: Path) -> None:
    app = make_app(busy_save, poll_interval=0)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_world(pilot)
        app.switch_identity("player:nyx")
        await wait_for(
            pilot,
            lambda: not any(isinstance(s, WorldScreen) for s in app.screen_stack),
            what="the World screen to close",
        )
