"""The siege monitor (issue 6 item 4): begin a siege from the walled places, the countdown of
provisions falling season by season, the surrender-or-sally prompt (and the advance refused until
it is answered), messengers and smuggling with odds and dice, blockade and lift, raids, captures
and looting with the refusal reasons shown; what a King and a player see; and the headless data
of `yak_tui.areas.warfare.read` through the audience filter."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import click, make_app, on_top, query_ready, screen_text, settle, wait_for, widget_text, world_of
from textual.pilot import Pilot
from textual.widgets import Button, Input, Select, SelectionList, Switch

from yak_tui.app.kit.command import CommandScreen
from yak_tui.app.kit.order import OrderScreen
from yak_tui.app.screens.warfare.dialogs import SiegeBeginScreen, SiegeDecisionScreen
from yak_tui.app.screens.warfare.panels import FortsTable, PlacesTable
from yak_tui.app.screens.warfare.screen import SiegesScreen
from yak_tui.app.shell.advance import AdvanceScreen
from yak_tui.areas import warfare as monitor
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.season.session import advance_season
from yak_tui.store.storage import WorldFile

VAROS = Identity.parse("king:varos")
ELBRETH = Identity.parse("king:elbreth")
CORVIN = Identity.parse("player:corvin")
BOTH = {"fort": "brinehaven", "units": "varos-siege-host,varos-blockade-squadron"}


def besiege(path: Path) -> None:
    run_command(WorldFile(path), VAROS, "siege-begin", BOTH)


def move(path: Path, unit: str, hex_: list[int]) -> None:
    with WorldFile(path).transaction() as data:
        data["units"][unit]["hex"] = hex_


def siege_doc(path: Path) -> dict[str, Any]:
    return world_of(path).get("sieges", "siege-0001")


async def open_sieges(pilot: Pilot[Any]) -> SiegesScreen:
    await pilot.press("s")
    # The surrender-or-sally prompt may open over it at once.
    await wait_for(
        pilot, lambda: any(isinstance(s, SiegesScreen) for s in pilot.app.screen_stack), what="the siege monitor"
    )
    screen = next(s for s in pilot.app.screen_stack if isinstance(s, SiegesScreen))
    await wait_for(pilot, lambda: screen.monitor is not None, what="the monitor's data")
    await settle(pilot)  # the data painted, not only there
    return screen


async def dialog_of(pilot: Pilot[Any], kind: type) -> Any:
    await wait_for(pilot, lambda: on_top(pilot.app, kind), what=kind.__name__)
    return pilot.app.screen


async def by_hand(pilot: Pilot[Any], dialog: CommandScreen, naturals: str) -> None:
    """Dice by hand, so the test knows the roll; the Run button comes on when the naturals fit."""
    dialog.query_one("#by-hand", Switch).value = True
    await wait_for(pilot, lambda: dialog.query_one("#naturals").display, what="the naturals field")
    dialog.query_one("#naturals", Input).value = naturals
    await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled, what="the Run button")


# --- beginning a siege ------------------------------------------------------------------------------


async def test_gm_begins_the_siege_of_the_demo_port_fort_from_the_walled_places(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_sieges(pilot)
        assert "No fort is under siege." in screen_text(app)
        forts = screen.query_one("#forts-table", FortsTable)
        await wait_for(pilot, lambda: forts.has_focus, what="the walled places focused")
        forts.move_cursor(row=forts.get_row_index("brinehaven"))
        await pilot.press("enter")
        picker: SiegeBeginScreen = await dialog_of(pilot, SiegeBeginScreen)
        assert picker.query_one("#begin-fort", Select).value == "brinehaven"
        units = picker.query_one("#begin-units", SelectionList)
        # Both Varos units camp in the fort's hex: one side, so both are ticked already.
        assert sorted(units.selected) == ["varos-blockade-squadron", "varos-siege-host"]
        await wait_for(pilot, lambda: not picker.query_one("#begin", Button).disabled, what="a valid plan")
        await wait_for(pilot, lambda: "land ✓  sea ✓" in screen_text(app), what="the plan's verdict drawn")
        text = screen_text(app)
        assert "takes effect at once" in text
        assert "2 for 2 regiments inside: 1 season before they run short" in text
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: "The siege of Brinehaven takes effect." in screen_text(app), what="the result")
        doc = siege_doc(save_path)
        assert (doc["besieger"], doc["status"], doc["provisions"], doc["effective"]) == ("varos", "active", 2, True)
        assert sorted(doc["units"]) == ["varos-blockade-squadron", "varos-siege-host"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        await wait_for(pilot, lambda: "Siege of Brinehaven" in screen_text(app), what="the siege's card")
        text = screen_text(app)
        assert "▰ 1 season left" in text and "in effect" in text and "Brinehaven Watch (2 reg.)" in text
        assert screen.query_one("#siege-list").has_focus  # the new siege takes the focus


async def test_the_begin_dialog_shows_why_a_siege_would_be_refused(save_path: Path) -> None:
    move(save_path, "kesh-riders", [2, 5])  # a Kesh unit camps at Brinehaven too
    app = make_app(save_path)
    async with app.run_test(size=(100, 40)) as pilot:
        await open_sieges(pilot)
        await pilot.press("n")
        picker: SiegeBeginScreen = await dialog_of(pilot, SiegeBeginScreen)
        picker.query_one("#begin-fort", Select).value = "brinehaven"
        units = picker.query_one("#begin-units", SelectionList)
        await wait_for(pilot, lambda: units.option_count == 3, what="the units in reach")
        assert units.selected == []  # two kingdoms camp there: the GM picks a side
        units.select("kesh-riders")
        units.select("varos-siege-host")
        await wait_for(pilot, lambda: "several kingdoms" in screen_text(app), what="the refusal")
        assert picker.query_one("#begin", Button).disabled
        units.deselect("kesh-riders")
        await wait_for(pilot, lambda: not picker.query_one("#begin", Button).disabled, what="a valid plan")
        # Land only, at a fort with open port access: the siege would not take effect yet.
        assert "not yet in effect" in screen_text(app) and "missing: sea" in screen_text(app)
        picker.query_one("#begin-fort", Select).value = "ravenrock"
        await wait_for(pilot, lambda: "None of your units is camped at or next to this fort." in screen_text(app))
        await pilot.press("escape")
        await wait_for(pilot, lambda: on_top(app, SiegesScreen))
    assert world_of(save_path).table("sieges") == {}


# --- the countdown, the prompt and the advance --------------------------------------------------------


async def test_the_countdown_falls_and_the_defenders_must_choose_before_the_season_closes(save_path: Path) -> None:
    besiege(save_path)
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_sieges(pilot)
        assert "▰ 1 season left" in screen_text(app)
        await pilot.press("a")
        advance: AdvanceScreen = await dialog_of(pilot, AdvanceScreen)
        confirm = advance.query_one("#confirm", Button)
        await wait_for(pilot, lambda: not confirm.disabled, what="the preview")
        # Drawn a frame after the button is enabled: wait for the frame, not for the button.
        await wait_for(pilot, lambda: "Brinehaven: 2 regiments eat 2; 0 left" in screen_text(app), what="the upkeep")
        await pilot.press("enter")
        await wait_for(pilot, lambda: "Summer 312 begins" in screen_text(app), what="the advance")
        assert not any(isinstance(s, SiegeDecisionScreen) for s in app.screen_stack)  # not over the result
        await pilot.press("escape")
        prompt: SiegeDecisionScreen = await dialog_of(pilot, SiegeDecisionScreen)
        await wait_for(pilot, lambda: "Brinehaven: surrender or sally?" in screen_text(app), what="the prompt")
        assert "will end Summer 312 short of provisions" in widget_text(app)
        await pilot.press("escape")  # later
        await wait_for(pilot, lambda: app.screen is screen)
        text = screen_text(app)
        assert "0 seasons left" in text and "surrender or sally?" in text and "SHORT OF PROVISIONS" in text
        assert "you must choose (y)" in text
        # The advance is refused until the choice is recorded.
        await pilot.press("a")
        advance = await dialog_of(pilot, AdvanceScreen)
        await wait_for(pilot, lambda: "The season cannot close yet" in screen_text(app), what="the blocked preview")
        assert advance.query_one("#confirm", Button).disabled
        assert "press y on Sieges" in screen_text(app) and "siege-decide" not in screen_text(app)
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen)
        assert not any(isinstance(s, SiegeDecisionScreen) for s in app.screen_stack)  # asked once a season
        await pilot.press("y")
        prompt = await dialog_of(pilot, SiegeDecisionScreen)
        await click(pilot, "#sally")
        await wait_for(pilot, lambda: prompt.recorded, what="the choice recorded")
        await wait_for(
            pilot, lambda: "sally against the besiegers" in screen_text(app), what="the recorded choice shown"
        )
        doc = siege_doc(save_path)
        assert (doc["decision"], doc["decided"]) == ("sally", {"year": 312, "season": "Summer"})
        await pilot.press("escape")
        await wait_for(pilot, lambda: "sallied: battle" in screen_text(app), what="the new state")
        await pilot.press("a")
        advance = await dialog_of(pilot, AdvanceScreen)
        await wait_for(pilot, lambda: not advance.query_one("#confirm", Button).disabled, what="an open season")


async def test_surrender_hands_the_fort_and_its_garrison_to_the_besieger(save_path: Path) -> None:
    besiege(save_path)
    advance_season(WorldFile(save_path), GM, ScriptedDice([]))
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await open_sieges(pilot)
        prompt: SiegeDecisionScreen = await dialog_of(pilot, SiegeDecisionScreen)
        await click(pilot, "#surrender")
        await wait_for(pilot, lambda: prompt.recorded, what="the surrender")
        await pilot.press("escape")
        await wait_for(pilot, lambda: "surrendered" in screen_text(app), what="the ended siege")
        assert "Sieges (1 active)" not in screen_text(app)
    world = world_of(save_path)
    assert world.get("pcs", "brinehaven")["controller"] == "varos"
    assert world.find("units", "brinehaven-watch") is None
    assert world.get("sieges", "siege-0001")["status"] == "surrendered"


async def test_the_dashboard_lists_the_siege_that_needs_a_decision(save_path: Path) -> None:
    besiege(save_path)
    advance_season(WorldFile(save_path), GM, ScriptedDice([]))
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=(140, 45)) as pilot:
        await wait_for(pilot, lambda: "must choose surrender or sally" in screen_text(app), what="the due item")
        line = next(x for x in screen_text(app).splitlines() if "Brinehaven (besieged by" in x)
        assert "! Brinehaven" in line  # urgent


# --- messengers and smuggling ---------------------------------------------------------------------------


async def test_a_messenger_shows_odds_before_the_roll_and_his_fate_after(save_path: Path) -> None:
    besiege(save_path)
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await open_sieges(pilot)
        assert "Next messenger 67% to get out" in screen_text(app)
        await pilot.press("g")
        dialog: CommandScreen = await dialog_of(pilot, CommandScreen)
        assert dialog.preset["fort"] == "brinehaven" and "fort" in dialog.hidden
        await wait_for(pilot, lambda: "66.7%" in screen_text(app), what="the odds")
        dialog.query_one("#param-ducats", Input).value = "3"
        await by_hand(pilot, dialog, "2")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: "he is caught" in screen_text(app), what="the roll")
        await pilot.press("escape")
        await wait_for(pilot, lambda: "caught, 3 ducats lost" in screen_text(app), what="the attempt listed")
        assert "⚁ 2 = 2 vs 3" in screen_text(app)
    doc = siege_doc(save_path)
    assert [(m["natural"], m["success"], m["captured_ducats"]) for m in doc["messengers"]] == [(2, False, 3)]
    world = world_of(save_path)
    assert (world.get("kingdoms", "elbreth")["treasury"], world.get("kingdoms", "varos")["treasury"]) == (39, 33)


async def test_smuggling_provisions_in_moves_the_countdown(save_path: Path) -> None:
    besiege(save_path)
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await open_sieges(pilot)
        await pilot.press("p")
        dialog: CommandScreen = await dialog_of(pilot, CommandScreen)
        dialog.query_one("#param-merchant", Select).value = "corvin"
        dialog.query_one("#param-shipments", Input).value = "2"
        dialog.query_one("#param-bribe", Input).value = "1"
        await wait_for(pilot, lambda: "66.7%" in screen_text(app), what="the odds with a bribe")
        await by_hand(pilot, dialog, "5")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: "total 6 against 4" in screen_text(app), what="the roll")
        await pilot.press("escape")
        await wait_for(pilot, lambda: "got in, +2 provisions" in screen_text(app), what="the attempt listed")
        text = screen_text(app)
        assert "▰▰ 2 seasons left" in text and "⚄ 5 +1 = 6 vs 4" in text
    assert siege_doc(save_path)["provisions"] == 4


async def test_lifting_the_siege_ends_it_and_keeps_the_provisions(save_path: Path) -> None:
    besiege(save_path)
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await open_sieges(pilot)
        await pilot.press("l")
        dialog: CommandScreen = await dialog_of(pilot, CommandScreen)
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: "is lifted" in screen_text(app), what="the result")
        await pilot.press("escape")
        await wait_for(pilot, lambda: "Ended      lifted in Spring 312" in screen_text(app), what="the ended siege")
    assert siege_doc(save_path)["status"] == "lifted"
    assert world_of(save_path).get("pcs", "brinehaven")["provisions"] == 2


async def test_a_sea_blockade_missing_is_named_and_the_blockade_key_completes_it(save_path: Path) -> None:
    run_command(WorldFile(save_path), VAROS, "siege-begin", {"fort": "brinehaven", "units": "varos-siege-host"})
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await open_sieges(pilot)
        text = screen_text(app)
        assert "land ✓  sea ✗" in text and "→ not in effect (missing: sea)" in text
        assert "messengers and provisions pass freely" in text
        await pilot.press("k")
        dialog: CommandScreen = await dialog_of(pilot, CommandScreen)
        # The half still missing and the Varos ship camped by the fort are filled in.
        assert dialog.query_one("#param-kind", Select).value == "sea"
        assert dialog.query_one("#param-unit", Select).value == "varos-blockade-squadron"
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled, what="a valid blockade")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: "takes effect" in screen_text(app), what="the result")
        await pilot.press("escape")
        await wait_for(pilot, lambda: "→ in effect" in screen_text(app), what="the siege in effect")
    assert siege_doc(save_path)["sea_blockade"] is True


# --- raids, captures, looting ---------------------------------------------------------------------------------


async def focus_place(pilot: Pilot[Any], screen: SiegesScreen, pc_id: str) -> PlacesTable:
    table = screen.query_one("#places-table", PlacesTable)
    table.focus()
    table.move_cursor(row=table.get_row_index(pc_id))
    await wait_for(pilot, lambda: screen.place_id == pc_id)
    await wait_for(pilot, lambda: "Weighing" not in widget_text(pilot.app), what="the verdicts")
    return table


async def test_refusals_are_shown_beside_the_place_and_in_the_dialog(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_sieges(pilot)
        await focus_place(pilot, screen, "brinehaven")
        text = widget_text(app)
        assert "Host of the Amber March" in text
        assert "✗ raid, slave raid: Host of the Amber March (infantry): the structure has a garrison and walls" in text
        assert "✓ capture: after the battle, say whether the garrison was destroyed or fled" in text
        assert "✗ loot: looting needs the structure to be captured by a hostile force" in text
        await pilot.press("w")
        dialog: CommandScreen = await dialog_of(pilot, CommandScreen)
        assert dialog.preset == {"pc": "brinehaven", "unit": "varos-blockade-squadron"}
        await wait_for(pilot, lambda: "the structure has a garrison and walls" in widget_text(app), what="the refusal")
        assert dialog.query_one("#run", Button).disabled
        await pilot.press("escape")
        await focus_place(pilot, screen, "millbrook")
        assert "None of your forces stands in its hex" in widget_text(app)


async def test_a_raider_raids_once_a_season_and_the_second_raid_is_refused(save_path: Path) -> None:
    move(save_path, "kesh-riders", [5, 2])  # Hill Riders (Kesh raiders) at Millbrook
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_sieges(pilot)
        await focus_place(pilot, screen, "millbrook")
        assert "✓ raid, slave raid, capture" in widget_text(app)
        await pilot.press("w")
        dialog: CommandScreen = await dialog_of(pilot, CommandScreen)
        assert dialog.preset["unit"] == "kesh-riders"
        await by_hand(pilot, dialog, "4")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: "raid Millbrook: 1d6 = 4" in screen_text(app), what="the raid")
        await pilot.press("escape")
        await wait_for(pilot, lambda: "raided by Kesh this season" in widget_text(app), what="the raid noted")
        assert "✗ raid, slave raid: Millbrook was already raided in Spring 312" in widget_text(app)
        await pilot.press("v")
        await dialog_of(pilot, CommandScreen)
        await wait_for(pilot, lambda: "already raided" in screen_text(app), what="the refusal in the dialog")
    world = world_of(save_path)
    assert world.get("kingdoms", "kesh")["treasury"] == 29 and world.get("kingdoms", "elbreth")["treasury"] == 38


async def test_capture_then_loot_from_the_raids_panel(save_path: Path) -> None:
    move(save_path, "kesh-riders", [5, 2])
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_sieges(pilot)
        await focus_place(pilot, screen, "millbrook")
        await pilot.press("t")
        dialog: CommandScreen = await dialog_of(pilot, CommandScreen)
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: "capture Millbrook" in screen_text(app), what="the capture")
        await pilot.press("escape")
        await wait_for(pilot, lambda: "captured by Kesh" in widget_text(app), what="the capture noted")
        await wait_for(pilot, lambda: "✓ loot" in widget_text(app), what="loot allowed now")
        await pilot.press("x")
        dialog = await dialog_of(pilot, CommandScreen)
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: "loots Millbrook" in screen_text(app), what="the looting")
        await pilot.press("escape")
        await wait_for(pilot, lambda: "looted" in widget_text(app))
    world = world_of(save_path)
    assert world.get("pcs", "millbrook")["controller"] == "kesh"
    assert world.get("pcs", "millbrook")["looted"]["by"] == "kesh"


# --- who sees what ---------------------------------------------------------------------------------------------


async def test_a_player_sees_the_siege_but_not_the_garrison_and_files_orders(save_path: Path) -> None:
    besiege(save_path)
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=(140, 45)) as pilot:
        await open_sieges(pilot)
        text = screen_text(app)
        assert "Siege of Brinehaven" in text and "▰ 1 season left" in text
        assert "2 regiments inside" in text and "Brinehaven Watch" not in text  # whose units: not public
        assert "as orders:" in text
        await pilot.press("p")
        order: OrderScreen = await dialog_of(pilot, OrderScreen)
        fort = await query_ready(pilot, order, "#param-fort", Select)
        assert order.query_one("#order-command", Select).value == "smuggle"
        assert fort.value == "brinehaven"


@pytest.mark.parametrize(
    ("identity", "prompted"), [("gm", True), ("king:elbreth", True), ("king:varos", False), ("player:corvin", False)]
)
async def test_only_the_defender_or_the_gm_is_asked_to_choose(save_path: Path, identity: str, prompted: bool) -> None:
    besiege(save_path)
    advance_season(WorldFile(save_path), GM, ScriptedDice([]))
    app = make_app(save_path, identity)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_sieges(pilot)
        await settle(pilot)
        assert any(isinstance(s, SiegeDecisionScreen) for s in app.screen_stack) is prompted
        if not prompted:
            assert "Elbreth must choose" in screen_text(app)
            await pilot.press("y")
            await settle(pilot)
            assert app.screen is screen


# --- the headless data --------------------------------------------------------------------------------------------


def test_monitor_data_through_the_audience_filter(save_path: Path) -> None:
    besiege(save_path)
    run_command(WorldFile(save_path), GM, "messenger", {"fort": "brinehaven", "ducats": "2"}, ScriptedDice([6]))
    world = world_of(save_path)
    for who, defenders in ((GM, ("Brinehaven Watch",)), (ELBRETH, ("Brinehaven Watch",)), (VAROS, ()), (CORVIN, ())):
        view = monitor.siege_monitor(world, who)
        (card,) = view.sieges
        assert tuple(d.name for d in card.defenders) == defenders
        assert (card.regiments, card.provisions, card.seasons_left, card.state) == (2, 2, 1, "in effect")
        assert [(a.kind, a.natural, a.success, a.result) for a in card.attempts] == [
            ("messenger", 6, True, "got through")
        ]
        assert card.smuggle_odds == ((0, 0.5), (1, 0.666667), (2, 0.833333))
        assert [f.id for f in view.forts][:3] == ["varosgate", "highmoor", "keshar"]
        assert next(p for p in view.places if p.id == "brinehaven").besieged
    assert [f.id for f in monitor.siege_forces(world, VAROS, "brinehaven")] == [
        "varos-blockade-squadron",
        "varos-siege-host",
    ]
    assert monitor.siege_forces(world, CORVIN, "brinehaven") == ()


def test_siege_plan_names_the_missing_blockade(save_path: Path) -> None:
    world = world_of(save_path)
    plan = monitor.siege_plan(world, GM, "brinehaven", ["varos-siege-host"])
    assert plan is not None and (plan.land, plan.sea, plan.effective) == (True, False, False)
    assert plan.missing is not None and "missing: sea" in plan.missing
    assert (plan.provisions, plan.regiments, plan.seasons_left) == (2, 2, 1)
    assert monitor.siege_plan(world, GM, "brinehaven", []) is None


async def test_the_palette_offers_the_siege_actions(save_path: Path) -> None:
    besiege(save_path)
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_sieges(pilot)
        await wait_for(pilot, lambda: screen.place_id != "")
        titles = [entry.title for entry in app.palette_entries(screen)]
        for title in (
            "Sieges: begin a siege",
            "Sieges: messenger out of Brinehaven",
            "Sieges: smuggle provisions into Brinehaven",
            "Sieges: lift the siege of Brinehaven",
            "Sieges: raid Amberport",
            "Sieges: loot Amberport",
        ):
            assert title in titles
        entry = next(e for e in app.palette_entries(screen) if e.title == "Sieges: messenger out of Brinehaven")
        entry.callback()
        dialog: CommandScreen = await dialog_of(pilot, CommandScreen)
        assert dialog.command == "messenger" and dialog.preset["fort"] == "brinehaven"
