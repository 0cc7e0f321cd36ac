"""The chronicle screen: filters by season, kingdom, character and kind; rolls as far as the
viewer may see; forum export as BBCode or Markdown for a chosen audience, copied with OSC 52."""

from __future__ import annotations

from pathlib import Path

from app_helpers import (
    ADJUDICATORS_NOTE,
    BLIND_MODIFIER,
    GM_NOTE,
    VAROS_PRIVATE,
    click,
    make_app,
    on_top,
    screen_text,
    settle,
    wait_for,
    widget_text,
    world_of,
)
from textual.widgets import Button, OptionList, Select

from yak_tui.app.screens.court.chronicle import ChronicleScreen
from yak_tui.app.shell.export import ExportScreen
from yak_tui.areas.court import export_text
from yak_tui.kernel.play.chronicle import ChronicleFilter, filter_entries
from yak_tui.kernel.play.identity import GM


async def open_chronicle(app, pilot) -> ChronicleScreen:  # type: ignore[no-untyped-def]
    await pilot.press("c")
    await wait_for(pilot, lambda: on_top(app, ChronicleScreen))
    await wait_for(pilot, lambda: app.screen.query_one("#entries", OptionList).option_count > 0)
    return app.screen  # type: ignore[no-any-return]


async def test_filters_narrow_the_chronicle_like_the_world_layer(busy_save: Path) -> None:
    app = make_app(busy_save)
    world = world_of(busy_save)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_chronicle(app, pilot)
        entries = screen.query_one("#entries", OptionList)
        assert entries.option_count == len(filter_entries(world, GM, ChronicleFilter()))
        for name, value, chosen in (
            ("season", "Summer 312", ChronicleFilter.from_args(world, "Summer 312", None, None, None)),
            ("kind", "note", ChronicleFilter(kind="note")),
            ("kingdom", "varos", ChronicleFilter(kingdom="varos")),
            ("character", "nyx", ChronicleFilter(character="nyx")),
        ):
            screen.action_clear()
            await settle(pilot)
            screen.query_one(f"#filter-{name}", Select).value = value
            count = len(filter_entries(world, GM, chosen))
            await wait_for(pilot, lambda c=count: entries.option_count == c, what=f"{name}={value}")
        screen.action_clear()
        await wait_for(pilot, lambda: entries.option_count == len(world.table("chronicle")))


async def test_the_gm_sees_rolls_and_notes_in_full(busy_save: Path) -> None:
    app = make_app(busy_save)
    async with app.run_test(size=(140, 45)) as pilot:
        await open_chronicle(app, pilot)
        text = widget_text(app)
        assert "Storm the gate of Ravenrock: rolled 4 +1 (Storm the gate of Ravenrock) = 5" in text
        assert BLIND_MODIFIER in text and GM_NOTE in text and ADJUDICATORS_NOTE in text


async def test_export_previews_and_copies_for_the_chosen_audience(busy_save: Path) -> None:
    app = make_app(busy_save)
    world = world_of(busy_save)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_chronicle(app, pilot)
        screen.query_one("#filter-season", Select).value = "Autumn 312"
        await settle(pilot)
        await pilot.press("x")
        await wait_for(pilot, lambda: on_top(app, ExportScreen))
        dialog = app.screen
        expected, _ = export_text(world, GM, "public", "bbcode", "Autumn 312")
        await wait_for(pilot, lambda: dialog.text == expected, what="the BBCode preview")
        assert "[b]Autumn 312[/b]" in screen_text(app)
        for secret in (VAROS_PRIVATE, ADJUDICATORS_NOTE, GM_NOTE, BLIND_MODIFIER):
            assert secret not in dialog.text
        dialog.query_one("#export-format", Select).value = "markdown"
        dialog.query_one("#export-audience", Select).value = "king:varos"
        expected, _ = export_text(world, GM, "king:varos", "markdown", "Autumn 312")
        await wait_for(pilot, lambda: dialog.text == expected, what="the Markdown preview")
        assert VAROS_PRIVATE in dialog.text and "## Autumn 312" in dialog.text
        await click(pilot, "#copy")
        assert app.clipboard == expected
        assert any(n.title == "Copied" for n in app._notifications)


async def test_selected_entries_export_alone(busy_save: Path) -> None:
    app = make_app(busy_save)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_chronicle(app, pilot)
        entries = screen.query_one("#entries", OptionList)
        entries.focus()
        entries.highlighted = 0
        await pilot.press("space")
        assert len(screen.selected) == 1
        chosen = next(iter(screen.selected))
        assert "1 selected" in screen_text(app)
        await pilot.press("x")
        await wait_for(pilot, lambda: on_top(app, ExportScreen))
        dialog = app.screen
        assert dialog.query_one("#export-scope", Select).value == "selected"
        text = world_of(busy_save).get("chronicle", chosen)["text"]
        await wait_for(pilot, lambda: text in dialog.text)
        assert dialog.text.count("[*]") == 1
        await click(pilot, "#close")
        await wait_for(pilot, lambda: on_top(app, ChronicleScreen))
        assert not app.screen.query("#copy") or not isinstance(app.screen.query_one("#copy"), Button)
