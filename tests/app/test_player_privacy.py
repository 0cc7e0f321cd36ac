"""A player walks every screen, dialog, map hex, palette line and export: no kingdom's treasury
(not even his own kingdom's: that is his King's), no natural or modifier of a blind roll, no
adjudicator note and no other audience's entry ever appears. His own blind roll's outcome does."""

from __future__ import annotations

from pathlib import Path

import pytest
from app_helpers import (
    ADJUDICATORS_NOTE,
    BLIND_BAND,
    BLIND_MODIFIER,
    GM_NOTE,
    VAROS_PRIVATE,
    click,
    make_app,
    mounted,
    on_top,
    query_ready,
    screen_text,
    settle,
    wait_for,
    widget_text,
)
from textual.command import CommandPalette
from textual.widgets import DataTable, Select

from yak_tui.app.kit.order import OrderScreen
from yak_tui.app.navigation import SCREENS
from yak_tui.app.screens.court.chronicle import ChronicleScreen
from yak_tui.app.screens.nobles.hexmap import HexMap
from yak_tui.app.shell.export import ExportScreen
from yak_tui.app.shell.help import HelpScreen
from yak_tui.store.storage import WorldFile

TREASURIES = {"elbreth": 5555.5, "varos": 7777.25, "kesh": 6666.75}
FORBIDDEN = (
    *(f"{v:g}" for v in TREASURIES.values()),
    BLIND_MODIFIER,
    BLIND_BAND,
    GM_NOTE,
    ADJUDICATORS_NOTE,
    VAROS_PRIVATE,
    "Nyx scouts Varosgate: rolled",
)


@pytest.fixture
def secret_save(busy_save: Path) -> Path:
    with WorldFile(busy_save).transaction() as data:
        for kingdom, value in TREASURIES.items():
            data["kingdoms"][kingdom]["treasury"] = value
        for point in data["meta"]["world"]["history"]:
            for kingdom, value in TREASURIES.items():
                point["kingdoms"][kingdom]["treasury"] = value
    return busy_save


def leaks(text: str) -> list[str]:
    flat = " ".join(text.split())
    return [s for s in FORBIDDEN if s in text or s in flat]


async def walk(app, pilot) -> list[str]:  # type: ignore[no-untyped-def]
    """Every screen, map hex, market province, chronicle export, dialog and palette line."""
    seen: list[str] = []

    def look() -> None:
        seen.append(screen_text(app))
        seen.append(widget_text(app))

    await wait_for(pilot, lambda: "Due this season" in screen_text(app))
    look()
    keys = {key: mode for mode, (_, _, key, _) in SCREENS.items()}
    for key in "ebsmcd":
        await pilot.press(key)
        await wait_for(
            pilot, lambda key=key: app.current_mode == keys[key] and mounted(app.screen), what=f"the {keys[key]} screen"
        )
        await settle(pilot)
        look()
    await pilot.press("m")
    await wait_for(pilot, lambda: app.current_mode == "map" and mounted(app.screen), what="the map")
    hexmap = app.screen.query_one(HexMap)
    await wait_for(pilot, lambda: hexmap.view is not None)
    for cell in list(hexmap.view.cells):
        hexmap.focus_hex(cell)
        await settle(pilot)
        seen.append(widget_text(app))
    await pilot.press("b")
    await wait_for(pilot, lambda: app.current_mode == "market" and mounted(app.screen), what="the market")
    table = app.screen.query_one("#sectors-table", DataTable)
    await wait_for(pilot, lambda: table.row_count > 0)
    for row in range(0, table.row_count, 3):
        table.move_cursor(row=row)
        await settle(pilot)
        seen.append(widget_text(app))
    await pilot.press("c")
    await wait_for(pilot, lambda: on_top(app, ChronicleScreen))
    await settle(pilot)
    look()
    await pilot.press("x")
    await wait_for(pilot, lambda: on_top(app, ExportScreen))
    await settle(pilot)
    dialog = app.screen
    audiences = dialog.query_one("#export-audience", Select)
    choices = [value for _, value in audiences._options if isinstance(value, str)]
    for fmt in ("bbcode", "markdown"):
        for audience in [c for c in choices if c in ("public", "gm", "player:nyx", "king:varos")]:
            dialog.query_one("#export-format", Select).value = fmt
            audiences.value = audience
            await settle(pilot)
            seen.append(dialog.text)
            look()
            await click(pilot, "#copy")
            seen.append(app.clipboard)
    seen.append("EXPORT-AUDIENCES " + " ".join(choices))
    await pilot.press("escape")
    await pilot.press("question_mark")
    await wait_for(pilot, lambda: on_top(app, HelpScreen))
    look()
    await pilot.press("escape")
    await pilot.press("d")
    if app.check_action("file_order", ()):
        await pilot.press("o")
        await wait_for(pilot, lambda: on_top(app, OrderScreen))
        (await query_ready(pilot, app.screen, "#order-command", Select)).value = "roll"
        await wait_for(pilot, lambda: app.screen.query("#param-reason"), what="the roll's fields")
        await settle(pilot)
        look()
        await pilot.press("escape")
    seen.extend(f"{e.title} {e.help}" for e in app.palette_entries(app.screen))
    await pilot.press("ctrl+p")
    await wait_for(pilot, lambda: on_top(app, CommandPalette), what="the palette")
    await pilot.press(*"Varos")
    await settle(pilot)
    look()
    return seen


async def test_a_player_never_sees_what_is_not_his(secret_save: Path) -> None:
    app = make_app(secret_save, "player:nyx")
    async with app.run_test(size=(200, 70)) as pilot:
        seen = await walk(app, pilot)
    found = sorted({leak for text in seen for leak in leaks(text)})
    assert not found, f"the player saw: {found}"
    assert "◆ Player · Nyx" in seen[0]
    everything = "\n".join(seen)
    assert "Nyx scouts Varosgate: Nyx returns unseen (blind roll)" in everything  # his own blind roll's outcome
    assert "EXPORT-AUDIENCES public player:nyx" in everything


async def test_the_same_walk_as_gm_does_see_them(secret_save: Path) -> None:
    """The walk is able to find a leak: the GM, who may see everything, trips every sentinel."""
    app = make_app(secret_save, "gm")
    async with app.run_test(size=(200, 70)) as pilot:
        seen = await walk(app, pilot)
    found = {leak for text in seen for leak in leaks(text)}
    assert found == set(FORBIDDEN)


async def test_a_king_sees_his_kingdom_but_no_other(secret_save: Path) -> None:
    app = make_app(secret_save, "king:varos")
    async with app.run_test(size=(200, 70)) as pilot:
        await wait_for(pilot, lambda: "7777.25" in widget_text(app), what="his own treasury")
        text = widget_text(app) + screen_text(app)
        assert "5555.5" not in text and "6666.75" not in text
        await pilot.press("c")
        await wait_for(pilot, lambda: VAROS_PRIVATE in widget_text(app), what="his kingdom's entry")
        text = widget_text(app)
        assert ADJUDICATORS_NOTE not in text and GM_NOTE not in text and BLIND_MODIFIER not in text
