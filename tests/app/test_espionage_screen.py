"""The espionage board (issue 4 item 5), driven with Pilot: missions by target with their
prerequisites and the viewer's odds, a private order submitted by a player, resolved blind by
the GM from the inbox with the dice, rejected, withdrawn; counter-spies stationed; and what each
identity may see (the sponsor never a natural or a modifier, another kingdom nothing at all)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app_helpers import click, make_app, on_top, query_ready, screen_text, settle, wait_for, widget_text, world_of
from textual.pilot import Pilot
from textual.widgets import Button, Input, Select, Switch

from yak_tui.app.kit.command import CommandScreen
from yak_tui.app.kit.common import YakTable
from yak_tui.app.kit.dice import DiceTray
from yak_tui.app.main import YakApp
from yak_tui.app.screens.espionage.screen import EspionageScreen
from yak_tui.app.screens.espionage.spy_dice import SpyDiceScreen
from yak_tui.app.screens.espionage.spy_order import SpyOrderScreen
from yak_tui.areas.espionage import mission_odds
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.store.storage import WorldFile

CORVIN = Identity.parse("player:corvin")  # an Elbreth merchant, a player
RAIN = "RAIN-4411 a storm over Varosgate"  # the GM's modifier reason: for adjudicators only
NOTE = "NOTE-8812 before the spring feast"


def file_order(path: Path, mission: str = "infiltrate-treasury", target: str = "varos", **more: Any) -> str:
    params = {"mission": mission, "target": target, "note": NOTE, **more}
    result = run_command(WorldFile(path), CORVIN, "spy-order", params, ScriptedDice([]))
    return str(result.data["order"])


async def open_board(app: YakApp, pilot: Pilot[Any]) -> EspionageScreen:
    await pilot.press("e")
    await wait_for(pilot, lambda: on_top(app, EspionageScreen), what="the board")
    screen: EspionageScreen = app.screen  # type: ignore[assignment]
    await wait_for(pilot, lambda: screen.view is not None, what="the board's data")
    await settle(pilot)  # the data is in: its panels are drawn on the frames that follow
    return screen


async def choose_target(pilot: Pilot[Any], screen: EspionageScreen, target: str) -> None:
    for _ in range(4):
        if screen.target == target:
            break
        before = screen.target
        await pilot.press("t")
        await wait_for(pilot, lambda before=before: screen.target != before, what="the next target")
    assert screen.target == target
    await wait_for(pilot, lambda: screen.query_one("#esp-target", Select).value == target, what="the target select")


async def highlight(pilot: Pilot[Any], screen: EspionageScreen, slug: str) -> None:
    table = screen.query_one("#missions-table", YakTable)
    table.focus()
    table.move_cursor(row=table.get_row_index(slug))
    await wait_for(
        pilot,
        lambda: screen._mission_line().slug == slug,  # type: ignore[union-attr]
        what=f"{slug} highlighted",
    )
    await settle(pilot)  # the mission's panel has followed the cursor


def cells(screen: EspionageScreen, table: str, key: str) -> list[str]:
    return [str(c) for c in screen.query_one(table, YakTable).get_row(key)]


def keys(screen: EspionageScreen, table: str) -> set[str]:
    return {str(k.value) for k in screen.query_one(table, YakTable).rows}


# ---------------------------------------------------------------- missions by target


async def test_gm_sees_missions_by_target_with_prerequisites_and_every_modifier(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_board(app, pilot)
        assert screen.sponsor == "elbreth"
        await choose_target(pilot, screen, "varos")
        assert app.screen.query_one("#missions").border_title == "Missions against Varos"
        # Prerequisites: Elbreth holds nothing against Varos, so every family's entry mission is open.
        assert cells(screen, "#missions-table", "infiltrate-treasury")[1] == "—"
        assert cells(screen, "#missions-table", "embezzlement")[1] == "✗ Treasury"
        assert cells(screen, "#missions-table", "create-security-breach")[1] == "✗ Spy Ring"
        # The GM's odds count Varos's nation-wide counter-spy (-1) and its man in Elbreth's spy ring (-1).
        exact = mission_odds("infiltrate-treasury", -2, -2)
        row = cells(screen, "#missions-table", "infiltrate-treasury")
        assert row[3] == f"{float(exact.outcome['success']) * 100:.0f}%" == "33%"
        assert row[4] == f"{float(exact.spy['captured']) * 100:.0f}%"
        found = exact.evidence["identified"] + exact.evidence["detected"]
        assert row[5] == f"{float(found) * 100:.0f}%"
        assert cells(screen, "#missions-table", "assassinate-ruler")[3] == "GM"  # an attempt, not a roll
        assert cells(screen, "#missions-table", "purge-administration")[5] == "n/a"  # no detection roll
        await highlight(pilot, screen, "embezzlement")
        text = widget_text(app)
        assert "✗ Needs the Treasury infiltration in Varos: run it first." in text
        assert "nation-wide counter-spy -1" in text and "spy ring infiltrated by target -1" in text
        # Pools of every kingdom, and effects with their end dates (the `end` field, not `expires`).
        assert screen.query_one("#pools-table", YakTable).row_count == 3
        assert cells(screen, "#pools-table", "varos")[1:3] == ["4", "1"]
        assert cells(screen, "#pools-table", "elbreth")[3] == "Highmoor Vale"
        effect = cells(screen, "#effects-table", "elbreth-smuggling-varos-march")
        assert effect[1] == "Smuggling ring" and effect[2] == "Winter 312" and effect[-1] == "Varos March"
        infiltration = cells(screen, "#infiltrations-table", "varos-spy-ring-in-elbreth")
        assert infiltration[:3] == ["Varos→Elbreth", "Spy Ring", "Autumn 311"] and infiltration[3] == "no"


async def test_a_player_sees_his_kingdom_only_and_odds_without_hidden_modifiers(save_path: Path) -> None:
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_board(app, pilot)
        assert not screen.query_one("#esp-sponsor").display and "Elbreth" in widget_text(app)
        assert not screen.query_one("#inbox").display and screen.query_one("#my-orders").display
        await choose_target(pilot, screen, "varos")
        assert cells(screen, "#missions-table", "infiltrate-treasury")[3] == "67%"  # no counter-spy known
        await highlight(pilot, screen, "infiltrate-treasury")
        text = widget_text(app)
        assert "nation-wide counter-spy" not in text and "spy ring infiltrated" not in text
        assert "the target's counter-measures stay hidden" in text
        # RULINGS §1: a player who is not his kingdom's King knows nothing of its spy pools.
        assert keys(screen, "#pools-table") == set() and "Only your King sees the kingdom's spies." in text
        assert "Only you, your adjudicator and the GM see your missions." in text
        # Neither Varos's man in Elbreth's spy ring (Elbreth does not know) nor the kingdom's own ring
        # (Corvin did not sponsor it) shows.
        assert screen.query_one("#infiltrations-table", YakTable).row_count == 0
        assert "No infiltration you know of." in text and "No effects in force you know of." in text
        assert "Run mission" not in screen_text(app) and "Submit mission" in screen_text(app)


# ---------------------------------------------------------------- submitting and resolving


async def test_player_submits_a_private_mission_from_the_board(save_path: Path) -> None:
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_board(app, pilot)
        await choose_target(pilot, screen, "varos")
        await highlight(pilot, screen, "infiltrate-treasury")
        await pilot.press("n")
        await wait_for(pilot, lambda: on_top(app, SpyOrderScreen), what="the order form")
        dialog: SpyOrderScreen = app.screen  # type: ignore[assignment]
        assert dialog.query_one("#spy-target", Select).value == "varos"
        assert dialog.query_one("#spy-mission", Select).value == "infiltrate-treasury"
        assert not dialog.query("#spy-form")  # the mission needs nothing but its target
        await wait_for(pilot, lambda: not dialog.query_one("#submit").disabled, what="a valid order")
        assert "succeeds" in screen_text(app) and "66.7%" in screen_text(app)  # the side's odds
        assert "Costs 1 ducat and 1 spy" in screen_text(app)
        note = dialog.query_one("#spy-note", Input)
        note.focus()
        await pilot.press(*"before the feast")
        await pilot.press("enter")
        await wait_for(pilot, lambda: app.screen is screen, what="the board again")
        world = world_of(save_path)
        [(order_id, order)] = list(world.all("orders"))
        assert order["command"] == "spy-mission" and order["private"] is True and order["status"] == "waiting"
        assert order["params"] == {"mission": "infiltrate-treasury", "target": "varos"}
        assert order["note"] == "before the feast" and order["adjudicator"] == "gm"
        await wait_for(pilot, lambda: order_id in keys(screen, "#my-orders-table"), what="my missions")
        assert cells(screen, "#my-orders-table", order_id)[0:3] == ["Infiltrate Treasury", "Varos", "waiting"]
        assert "Infiltrate Treasury waits for the GM" in widget_text(app)
        assert order_id not in widget_text(app)  # issue 17: players read names, ids stay in --json


async def test_the_form_asks_only_what_the_mission_needs_and_says_why_it_refuses(save_path: Path) -> None:
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=(120, 45)) as pilot:
        screen = await open_board(app, pilot)
        await choose_target(pilot, screen, "varos")
        await highlight(pilot, screen, "fund-bandits")
        await pilot.press("n")
        await wait_for(pilot, lambda: on_top(app, SpyOrderScreen), what="the order form")
        dialog: SpyOrderScreen = app.screen  # type: ignore[assignment]
        province = await query_ready(pilot, dialog, "#spy-form #param-province", Select)
        names = {w.id for w in dialog.query("#spy-form .field-row")}
        assert names == {"field-province", "field-bandits"}
        world = world_of(save_path)
        varos = {pid for pid, p in world.all("provinces") if p.get("kingdom") == "varos"}
        assert (
            {value for _, value in province._options if value is not Select.NULL}
            == varos
            == {"varos-march", "amber-coast"}
        )
        assert dialog.query_one("#submit").disabled  # no province yet
        province.value = "varos-march"
        dialog.query_one("#param-bandits", Input).value = "2"
        await wait_for(pilot, lambda: not dialog.query_one("#submit").disabled, what="a complete order")
        await wait_for(pilot, lambda: "Costs 6 ducats" in screen_text(app), what="the cost with extras")
        # A mission whose prerequisite only his King may know of (RULINGS §1) is not refused: the form
        # says who knows, and that it fails at resolution if the kingdom lacks it.
        dialog.query_one("#spy-mission", Select).value = "embezzlement"
        await wait_for(
            pilot,
            lambda: "against the target: only your King knows." in screen_text(app),
            what="the prerequisite he cannot know",
        )
        assert "✗ missing" not in screen_text(app) and "✓ held" not in screen_text(app)
        dialog.query_one("#spy-mission", Select).value = "fund-bandits"
        (await query_ready(pilot, dialog, "#param-province", Select)).value = "varos-march"
        await wait_for(pilot, lambda: not dialog.query_one("#submit").disabled, what="a complete order")
        await click(pilot, "#submit")
        await wait_for(pilot, lambda: app.screen is screen, what="the board again")
        [(_, order)] = list(world_of(save_path).all("orders"))
        assert order["params"] == {"mission": "fund-bandits", "target": "varos", "province": "varos-march"}


async def test_gm_resolves_an_order_blind_from_the_inbox_with_the_dice(save_path: Path) -> None:
    order_id = file_order(save_path)
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_board(app, pilot)
        inbox = screen.query_one("#inbox-table", YakTable)
        await wait_for(
            pilot,
            lambda: inbox.has_focus and keys(screen, "#inbox-table") == {order_id} and NOTE in widget_text(app),
            what="the inbox with Corvin's order, focused",
        )
        assert cells(screen, "#inbox-table", order_id)[0:3] == ["Corvin Hale", "Infiltrate Treasury", "Varos"]
        await pilot.press("x")
        await wait_for(pilot, lambda: on_top(app, SpyDiceScreen), what="the resolve dialog")
        dialog: SpyDiceScreen = app.screen  # type: ignore[assignment]
        # The adjudicator sees every modifier and the exact odds before rolling.
        await wait_for(
            pilot,
            lambda: (
                "33.3%" in screen_text(app)
                and "nation-wide counter-spy -1, spy ring infiltrated by target -1" in screen_text(app)
            ),
            what="the odds and every modifier",
        )
        dialog.query_one("#param-gm_modifier", Input).value = "1"
        dialog.query_one("#param-gm_reason", Input).value = RAIN
        await wait_for(pilot, lambda: "50.0%" in screen_text(app), what="odds with the GM's modifier")
        dialog.query_one("#by-hand", Switch).value = True
        dialog.query_one("#naturals", Input).value = "5,4"
        await wait_for(pilot, lambda: not dialog.query_one("#run").disabled, what="run enabled")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: dialog.query_one(DiceTray).display, what="the dice")
        await wait_for(pilot, lambda: dialog.query_one("#result-lines").display, what="the dice landed")
        tray = dialog.query_one(DiceTray)
        assert [r.naturals for r in tray.rolls] == [(5,), (4,)]
        await wait_for(
            pilot,
            lambda: all(part in screen_text(app) for part in ("rolled 5", "rolled 4", RAIN[:20])),
            what="the rolls and the GM's secret on screen",
        )  # the GM sees it all
        world = world_of(save_path)
        order = world.get("orders", order_id)
        assert order["status"] == "resolved" and "success" in order["outcome"]
        assert world.get("specialists", "elbreth")["spy"] == 2  # one spy spent
        [effect] = [e for _, e in world.where("effects", mission="infiltrate-treasury")]
        assert effect["holder_character"] == "corvin" and effect["active"]
        await pilot.press("escape")
        await wait_for(pilot, lambda: app.screen is screen, what="the board again")
        await wait_for(pilot, lambda: "No private orders wait for you." in widget_text(app), what="an empty inbox")
        assert any(k.startswith("fx") for k in keys(screen, "#infiltrations-table"))


async def test_gm_rejects_and_a_player_withdraws(save_path: Path) -> None:
    first = file_order(save_path)
    second = file_order(save_path, mission="infiltrate-admiralty")
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        await open_board(app, pilot)
        await pilot.press("j")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the reject dialog")
        dialog = app.screen
        (await query_ready(pilot, dialog, "#param-reason", Input)).value = "No spy can reach Varosgate in winter"
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled, what="run enabled")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: world_of(save_path).get("orders", first)["status"] == "rejected")
        await pilot.press("escape")
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_board(app, pilot)
        assert cells(screen, "#my-orders-table", first)[3] == "rejected"
        table = screen.query_one("#my-orders-table", YakTable)
        table.focus()
        table.move_cursor(row=table.get_row_index(first))
        await wait_for(pilot, lambda: "No spy can reach Varosgate in winter" in widget_text(app), what="the reason")
        table.move_cursor(row=table.get_row_index(second))
        await pilot.press("w")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the withdraw dialog")
        dialog = app.screen
        await wait_for(
            pilot, lambda: dialog.is_mounted and not dialog.query_one("#run", Button).disabled, what="run enabled"
        )
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: world_of(save_path).get("orders", second)["status"] == "withdrawn")


async def test_gm_runs_a_mission_directly_with_the_fields_it_needs(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_board(app, pilot)
        await choose_target(pilot, screen, "varos")
        await highlight(pilot, screen, "establish-smuggling-ring")
        await pilot.press("n")
        await wait_for(pilot, lambda: on_top(app, SpyDiceScreen), what="the mission dialog")
        dialog: SpyDiceScreen = app.screen  # type: ignore[assignment]
        shown = {w.id for w in dialog.query(".field-row")}
        assert shown == {"field-province", "field-gm_modifier", "field-gm_reason"}
        dialog.query_one("#param-province", Select).value = "amber-coast"  # Elbreth's ring works Varos March
        await wait_for(pilot, lambda: "33.3%" in screen_text(app), what="the GM's odds")
        dialog.query_one("#by-hand", Switch).value = True
        dialog.query_one("#naturals", Input).value = "1,1"
        await wait_for(pilot, lambda: not dialog.query_one("#run").disabled, what="run enabled")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: dialog.query_one("#result-lines").display, what="the dice landed")
        # The result is painted on the frame after it is shown: wait for what is on screen.
        await wait_for(pilot, lambda: "fails, and the spy is captured" in screen_text(app), what="the result on screen")
        world = world_of(save_path)
        assert world.get("specialists", "elbreth")["spy"] == 2 and world.get("kingdoms", "elbreth")["treasury"] == 41


async def test_a_king_stations_a_counter_spy(save_path: Path) -> None:
    app = make_app(save_path, "king:elbreth")
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_board(app, pilot)
        assert "Counter-spy" in screen_text(app)
        await pilot.press("k")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the counter-spy dialog")
        dialog = app.screen
        await wait_for(
            pilot, lambda: dialog.is_mounted and not dialog.query_one("#run", Button).disabled, what="run enabled"
        )
        assert not dialog.query("#param-kingdom")  # his own kingdom, not a choice
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: world_of(save_path).get("specialists", "elbreth")["counter_spies"]["nation"] == 1)
        await pilot.press("escape")
        await wait_for(pilot, lambda: cells(screen, "#pools-table", "elbreth")[1] == "2", what="the pool")
        assert cells(screen, "#pools-table", "elbreth")[3] == "Highmoor Vale, nation ×1"


async def test_the_board_follows_another_process_and_the_identity(save_path: Path) -> None:
    app = make_app(save_path, poll_interval=0.1)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_board(app, pilot)
        assert "No private orders wait for you." in widget_text(app)
        order_id = file_order(save_path)  # a player files from his own yak
        await wait_for(pilot, lambda: order_id in keys(screen, "#inbox-table"), what="the order arriving")
        app.switch_identity("player:silas")  # Varos's spymaster: Elbreth's order is none of his business
        await wait_for(pilot, lambda: screen.sponsor == "varos", what="Silas's board")
        assert order_id not in keys(screen, "#inbox-table") | keys(screen, "#my-orders-table")
        assert order_id not in widget_text(app) and NOTE not in widget_text(app)
        assert keys(screen, "#pools-table") == set()  # RULINGS §1: Varos's pool is its King's to know
        assert not screen.query_one("#inbox").display


# ---------------------------------------------------------------- who sees what


def resolve_blind(path: Path, order_id: str, dice: list[int]) -> None:
    run_command(
        WorldFile(path), GM, "spy-resolve", {"order": order_id, "gm_modifier": 1, "gm_reason": RAIN}, ScriptedDice(dice)
    )


# What only the adjudicator may see: the GM's reason, the modifiers, naturals ("rolled"), band names,
# and whether the target detected it (the GM's "Seen" column).
SECRETS = (
    RAIN,
    "nation-wide counter-spy -1",
    "spy ring infiltrated",
    "rolled",
    "captured-silent",
    "succeeds",
    "det.",
    "Seen",
)


async def test_the_sponsor_sees_only_the_outcome(save_path: Path) -> None:
    order_id = file_order(save_path)
    resolve_blind(save_path, order_id, [5, 4])  # -2 +1: success 4 (T..T+2); detection 3 = D-1, captured-silent
    outcome = world_of(save_path).get("orders", order_id)["outcome"]
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_board(app, pilot)
        table = screen.query_one("#my-orders-table", YakTable)
        table.focus()
        await wait_for(
            pilot,
            lambda: cells(screen, "#my-orders-table", order_id)[2:] == ["resolved", "success"],
            what="the resolved order",
        )
        text = widget_text(app) + screen_text(app)
        assert outcome in widget_text(app).replace("\n", " ")
        for secret in SECRETS:
            assert secret not in text, secret
        # He holds the infiltration now (his side's view: no word of what the target knows).
        assert [cells(screen, "#infiltrations-table", k) for k in keys(screen, "#infiltrations-table")] == [
            ["→ Varos", "Treasury", "Spring 312"]
        ]


async def test_another_kingdom_learns_only_what_detection_revealed(save_path: Path) -> None:
    order_id = file_order(save_path)
    resolve_blind(save_path, order_id, [5, 4])
    world = world_of(save_path)
    [effect] = [e for _, e in world.where("effects", mission="infiltrate-treasury")]
    assert effect["known_to_target"] and not effect["known_sponsor"]  # detected, sponsor unknown
    for who in ("player:silas", "king:kesh"):  # Varos's player and an uninvolved King: nothing at all
        app = make_app(save_path, who)
        async with app.run_test(size=(140, 45)) as pilot:
            screen = await open_board(app, pilot)
            text = widget_text(app)
            for secret in (order_id, NOTE, "Corvin", *SECRETS):
                assert secret not in text, (who, secret)
            assert not any(k.startswith("fx") for k in keys(screen, "#infiltrations-table"))
    app = make_app(save_path, "king:varos")  # the target's King: an infiltration by someone unknown
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_board(app, pilot)
        suffered = [
            cells(screen, "#infiltrations-table", k) for k in keys(screen, "#infiltrations-table") if k.startswith("fx")
        ]
        assert suffered == [["← unknown", "Treasury", "Spring 312"]]
        text = widget_text(app)
        for secret in (order_id, NOTE, "Corvin", RAIN, "rolled"):
            assert secret not in text, secret


async def test_gm_plays_out_a_pending_assassination_attempt(save_path: Path) -> None:
    run_command(
        WorldFile(save_path),
        GM,
        "spy-mission",
        {"sponsor": "elbreth", "target": "varos", "mission": "assassinate-private-citizen", "character": "lysa"},
        ScriptedDice([6]),
    )
    [(attempt_id, attempt)] = list(world_of(save_path).where("effects", kind="assassination-attempt"))
    assert attempt["status"] == "pending"
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_board(app, pilot)
        row = cells(screen, "#effects-table", attempt_id)
        assert row[:3] == ["Elbreth→Varos", "Assassination attempt", "awaits the GM"] and row[-1] == "Lysa Marr"
        assert "1 attempt to play out" in widget_text(app) or "1 attempt to play out" in screen_text(app)
        table = screen.query_one("#effects-table", YakTable)
        table.focus()
        table.move_cursor(row=table.get_row_index(attempt_id))
        await pilot.press("p")
        await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the play-out dialog")
        assert "Play out the attempt on Lysa Marr" in screen_text(app)
        dialog = app.screen
        (await query_ready(pilot, dialog, "#param-result", Input)).value = "She threw the lamp and fled into the night"
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled, what="run enabled")
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: world_of(save_path).get("effects", attempt_id)["status"] == "resolved")
        await pilot.press("escape")
        await wait_for(pilot, lambda: attempt_id not in keys(screen, "#effects-table"), what="the attempt gone")


async def test_the_palette_reaches_the_board_targets_and_the_private_mission(save_path: Path) -> None:
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_board(app, pilot)
        titles = {e.title: e for e in app.palette_entries(screen)}
        assert "Espionage: submit a private mission" in titles
        assert "Espionage: run the highlighted mission" not in titles  # a player never rolls
        titles["Espionage: missions against Varos"].callback()
        await wait_for(pilot, lambda: screen.query_one("#missions").border_title == "Missions against Varos")
