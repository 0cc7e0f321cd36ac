"""The business market screen: sectors and how full they are, businesses with income after tax,
expanding into a full sector (odds and who may lose first, then every contender's die landing),
production orders with their cost, the ledger for its parties only, specialists with the year's
hiring limits, academies; a player sees and acts on his own businesses only (orders for the rest).
Every test checks the screen and the world file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app_helpers import click, make_app, on_top, screen_text, settle, wait_for, widget_text, world_of
from textual.widgets import Button, DataTable, Input, Select, Static, Switch

from yak_tui.app.kit.order import OrderScreen
from yak_tui.app.screens.economy.competition import CompetitionTray, competition_groups
from yak_tui.app.screens.economy.dialogs import ExpandScreen, HireScreen, LendScreen, ProduceScreen, expand_note
from yak_tui.app.screens.economy.screen import MarketScreen
from yak_tui.areas.economy import read as board
from yak_tui.areas.economy import rules
from yak_tui.kernel.play import views
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.store.storage import WorldFile

CORVIN = Identity.parse("player:corvin")


def credit(path: Path, lender: str, debtor: str, amount: int) -> str:
    result = run_command(
        WorldFile(path), GM, "credit-extend", {"lender": lender, "debtor": debtor, "amount": amount}, ScriptedDice([])
    )
    return str(result.data["ledger"])


async def open_market(app: Any, pilot: Any) -> MarketScreen:
    await pilot.press("b")
    await wait_for(pilot, lambda: on_top(app, MarketScreen), what="the market")
    screen: MarketScreen = app.screen
    await wait_for(pilot, lambda: screen.query_one("#sectors-table", DataTable).row_count > 0, what="sectors")
    return screen


async def select_sector(pilot: Any, screen: MarketScreen, key: str) -> None:
    table = screen.query_one("#sectors-table", DataTable)
    table.focus()
    table.move_cursor(row=table.get_row_index(key))
    await settle(pilot)


async def select_business(pilot: Any, screen: MarketScreen, business_id: str) -> None:
    table = screen.query_one("#businesses-table", DataTable)
    await wait_for(pilot, lambda: business_id in table.rows, what=business_id)
    table.focus()
    table.move_cursor(row=table.get_row_index(business_id))
    await wait_for(
        pilot,
        lambda: screen.query_one("#detail").border_title == screen.yak.world.display_name("businesses", business_id),
        what="the detail panel",
    )


async def run_enabled(pilot: Any, dialog: Any) -> None:
    """Wait for the dialog's validation of the latest values, then for its Run button."""
    await settle(pilot)
    await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled, what="run enabled")


def detail_text(screen: MarketScreen) -> str:
    return str(screen.query_one("#detail-text", Static).render())


# -- headless ---------------------------------------------------------------------------------------


def test_board_sectors_income_and_fill_follow_the_rules(save_path: Path) -> None:
    world = world_of(save_path)
    view = board.market_board(world, GM)
    salt = next(s for s in view.sectors if s.key == "saltmarsh:commercial")
    assert (salt.potential, salt.used, salt.room, salt.full, salt.usage) == (9, 9, 0, True, "9/9")
    assert [b.id for b in salt.businesses] == ["hale-bank", "brine-traders"]  # largest first
    free = next(s for s in view.sectors if s.key == "highmoor-vale:commercial")
    assert (free.room, free.full, free.fill) == (5, False, 0.0)
    # Income after the state's tax: Varos taxes 20%, so a Size-4 business keeps 4 - floor(0.8) = 4.
    counting = next(b for b in view.businesses if b.id == "amber-counting-house")
    rate = int(world.get("kingdoms", "varos")["business_tax"])
    assert counting.income == rules.business_income(4, rate) and counting.tax == rules.business_tax(4, rate)


def test_a_player_sees_his_own_books_only(save_path: Path) -> None:
    world = world_of(save_path)
    view = board.market_board(world, CORVIN)
    own = {b.id: b for b in view.businesses if b.mine}
    assert set(own) == {"hale-bank", "salt-works"}
    assert all(b.detailed and b.income is not None and b.invested is not None for b in own.values())
    others = [b for b in view.businesses if not b.mine]
    assert others and all(b.income is None and b.invested is None and not b.detailed for b in others)
    assert view.specialists == ()  # the kingdom's pools are the King's
    assert [a.town for a in view.academies] == ["Highmoor"]  # academies are public
    varos = board.market_board(world, Identity.parse("king:varos"))
    assert [s.kingdom_id for s in varos.specialists] == ["varos"]


def test_expand_preview_matches_the_commands_own_odds(save_path: Path) -> None:
    world = world_of(save_path)
    preview = board.expand_preview(world, GM, "hale-bank", 1)
    assert preview is not None and preview.competitions == 1 and preview.cost == rules.expansion_cost("commercial", 1)
    odds = views.command_odds(world, GM, "business-expand", {"business": "hale-bank", "sizes": "1"})
    assert odds is not None and dict(odds.rows)["gains"] == preview.gains
    assert [(r.name, r.lose) for r in preview.rivals] == [("Brine Traders", preview.gains)]
    assert abs(preview.gains + preview.fails - 1) < 1e-6
    note = str(expand_note(preview))
    assert "Brine Traders" in note and f"{preview.gains * 100:5.1f}%" in note and "Cost 3 ducats" in note
    # Room left: no competition at all.
    roomy = board.expand_preview(world, GM, "scribes-guild", 1)
    assert roomy is not None and roomy.competitions == 0 and "No competition." in str(expand_note(roomy))


def test_who_acts_directly_and_who_files_an_order(save_path: Path) -> None:
    world = world_of(save_path)
    expand = {"business": "hale-bank", "sizes": 1}
    assert board.action_route(world, GM, "business-expand", expand).kind == "direct"
    assert board.action_route(world, CORVIN, "business-expand", expand).kind == "order"  # competition
    assert (
        board.action_route(world, CORVIN, "produce", {"business": "salt-works", "good": "Salt", "quantity": 1}).kind
        == "direct"
    )
    assert board.action_route(world, Identity.parse("player:lysa"), "business-expand", expand).kind == "refused"
    assert board.action_route(world, CORVIN, "hire", {"kingdom": "elbreth", "type": "spy"}).kind == "refused"


def test_competition_groups_read_the_recorded_rolls() -> None:
    def roll(purpose: str, natural: int, band: str) -> views.RollView:
        return views.RollView(purpose, (natural,), (), natural, band, band, False, False, "")

    rolls = (
        roll("competition: Hale & Sons Bank expands", 5, "gains"),
        roll("competition: Brine Traders defends", 2, "loses"),
        roll("competition: Hale & Sons Bank expands", 1, "fails"),
        roll("competition: Brine Traders defends", 6, "holds"),
    )
    groups = competition_groups(rolls)
    assert [[(c.name, c.expander, c.die_index) for c in g] for g in groups] == [
        [("Hale & Sons Bank", True, 0), ("Brine Traders", False, 1)],
        [("Hale & Sons Bank", True, 2), ("Brine Traders", False, 3)],
    ]
    assert competition_groups((roll("RtD for a bridge", 4, "success"),)) == []


# -- the screen ---------------------------------------------------------------------------------------


async def test_gm_sees_sectors_fill_and_the_business_in_detail(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_market(app, pilot)
        sectors = screen.query_one("#sectors-table", DataTable)
        row = sectors.get_row("saltmarsh:commercial")
        assert [str(c) for c in row[2:6]] == ["9", "9", "0", "competition".center(11)]
        assert "Hale & Sons Bank (8)" in str(row[6]) and "Brine Traders (1)" in str(row[6])
        assert str(sectors.get_row("highmoor-vale:commercial")[5]).startswith("·")  # empty bar
        await select_sector(pilot, screen, "saltmarsh:commercial")
        assert screen.query_one("#businesses").border_title == "Businesses in Saltmarsh"
        businesses = screen.query_one("#businesses-table", DataTable)
        assert businesses.get_row_index("hale-bank") == 0  # the highlighted sector first
        await select_business(pilot, screen, "hale-bank")
        text = detail_text(screen)
        assert "full: competition" in text and "may lose" in text and "Brine Traders" in text
        assert "41.7%" in text and "Credit" in text and "24 left of 24" in text and "96 left of 96" in text
        assert "x expand" in str(screen.query_one("#detail").border_subtitle)
        assert "Hale & Sons Bank" in screen_text(app)


async def test_gm_expands_into_a_full_sector_and_sees_every_die_land(save_path: Path) -> None:
    app = make_app(save_path)
    before = world_of(save_path)
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await open_market(app, pilot)
        await select_sector(pilot, screen, "saltmarsh:commercial")
        await select_business(pilot, screen, "hale-bank")
        await pilot.press("x")
        await wait_for(pilot, lambda: on_top(app, ExpandScreen), what="the expand dialog")
        dialog: ExpandScreen = app.screen  # type: ignore[assignment]
        # Odds and who may lose come first, before any die.
        await wait_for(pilot, lambda: "Who may lose 1 Size" in screen_text(app), what="the preview")
        await wait_for(pilot, lambda: "41.7%" in str(dialog.query_one("#odds", Static).render()), what="the odds")
        text = screen_text(app)
        assert "Brine Traders" in text and "58.3%" in text and "Dice by hand: 2 per competition" in text
        dialog.query_one("#by-hand", Switch).value = True
        await wait_for(pilot, lambda: dialog.query_one("#naturals").display, what="the naturals field")
        dialog.query_one("#naturals", Input).value = "5,2"
        await run_enabled(pilot, dialog)
        await pilot.press("ctrl+r")
        tray = dialog.query_one("#tray", CompetitionTray)
        await wait_for(pilot, lambda: tray.display and tray.rolls, what="the dice")
        await wait_for(pilot, lambda: "Brine Traders loses 1 Size, Hale & Sons Bank gains 1" in screen_text(app))
        shown = screen_text(app)
        assert "= 5" in shown and "= 2" in shown and "gains" in shown and "loses" in shown
        assert "Competition in the commercial sector of Saltmarsh" in widget_text(app)
        world = world_of(save_path)
        assert world.get("businesses", "hale-bank")["size"] == 9
        assert world.find("businesses", "brine-traders") is None
        assert world.get("characters", "corvin")["treasury"] == before.get("characters", "corvin")["treasury"] - 3
        await pilot.press("escape")
        await wait_for(pilot, lambda: on_top(app, MarketScreen))
        sectors = screen.query_one("#sectors-table", DataTable)
        await wait_for(
            pilot, lambda: "Brine" not in str(sectors.get_row("saltmarsh:commercial")[6]), what="the market catching up"
        )
        assert "Hale & Sons Bank (9)" in str(sectors.get_row("saltmarsh:commercial")[6])


async def test_a_failed_competition_spends_the_ducats(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await open_market(app, pilot)
        await select_sector(pilot, screen, "saltmarsh:commercial")
        await select_business(pilot, screen, "hale-bank")
        await pilot.press("enter")  # enter on a business expands it too
        await wait_for(pilot, lambda: on_top(app, ExpandScreen))
        dialog = app.screen
        dialog.query_one("#by-hand", Switch).value = True
        await wait_for(pilot, lambda: dialog.query_one("#naturals").display, what="the naturals field")
        dialog.query_one("#naturals", Input).value = "3,3"
        await run_enabled(pilot, dialog)
        await click(pilot, "#run")
        await wait_for(pilot, lambda: "nobody rolls lower: the ducats are spent" in screen_text(app))
        world = world_of(save_path)
        assert (
            world.get("businesses", "hale-bank")["size"] == 8 and world.get("businesses", "brine-traders")["size"] == 1
        )
        assert world.get("characters", "corvin")["treasury"] == 12


async def test_production_order_shows_the_cost_and_fills_the_stock(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await open_market(app, pilot)
        await select_sector(pilot, screen, "saltmarsh:industrial")
        await select_business(pilot, screen, "salt-works")
        assert "0 of 3 this season" in detail_text(screen)
        await pilot.press("p")
        await wait_for(pilot, lambda: on_top(app, ProduceScreen), what="the production dialog")
        dialog = app.screen
        dialog.query_one("#param-quantity", Input).value = "3"
        cost = rules.production_cost(rules.commodity_price("Salt"), 3)
        await wait_for(pilot, lambda: f"3 Salt cost {cost} ducats" in screen_text(app), what="the cost")
        dialog.query_one("#param-quantity", Input).value = "4"
        await wait_for(pilot, lambda: "only 3 more this season" in screen_text(app), what="the limit")
        await wait_for(pilot, lambda: dialog.query_one("#run", Button).disabled, what="run refused")
        dialog.query_one("#param-quantity", Input).value = "2"
        await run_enabled(pilot, dialog)
        await click(pilot, "#run")
        await wait_for(pilot, lambda: "produces 2 Salt" in screen_text(app), what="the result")
        world = world_of(save_path)
        assert world.get("businesses", "salt-works")["stock"] == {"Salt": 2}
        assert world.get("characters", "corvin")["treasury"] == 15 - rules.production_cost(4, 2)
        await pilot.press("escape")
        await wait_for(pilot, lambda: "2 of 3 this season" in detail_text(screen), what="the detail catching up")
        assert "2 Salt for sale" in detail_text(screen)


async def test_the_ledger_is_for_its_parties_and_the_debtor_repays(save_path: Path) -> None:
    debt = credit(save_path, "amber-counting-house", "corvin", 5)
    other = credit(save_path, "hale-bank", "nyx", 6)
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_market(app, pilot)
        ledger = screen.query_one("#ledger-table", DataTable)
        await wait_for(pilot, lambda: ledger.row_count == 2, what="the ledger")
        row = [str(c) for c in ledger.get_row(debt)]
        assert row[1:] == ["credit", "5", "5", "Spring 313", "open", "Amber Counting House", "Corvin Hale"]
        ledger.focus()
        ledger.move_cursor(row=ledger.get_row_index(debt))
        await pilot.press("y")
        await wait_for(pilot, lambda: not isinstance(app.screen, MarketScreen), what="the repay dialog")
        await run_enabled(pilot, app.screen)
        await click(pilot, "#run")
        await wait_for(pilot, lambda: f"pays 5 ducats: repays credit {debt}" in screen_text(app), what="the result")
        world = world_of(save_path)
        assert world.get("ledger", debt)["status"] == "repaid" and world.get("characters", "corvin")["treasury"] == 15
        await pilot.press("escape")
        await wait_for(pilot, lambda: str(ledger.get_row(debt)[5]) == "repaid", what="the ledger catching up")
    # Nyx sees only his own debt; a King who is no party sees none.
    for who, expected in (("player:nyx", {other}), ("king:varos", set())):
        app = make_app(save_path, who)
        async with app.run_test(size=(140, 45)) as pilot:
            screen = await open_market(app, pilot)
            ledger = screen.query_one("#ledger-table", DataTable)
            await settle(pilot)
            assert {str(k.value) for k in ledger.rows} == expected
            if not expected:
                assert "Only the parties see a debt." in screen_text(app)


async def test_a_player_acts_on_his_own_businesses_and_files_orders_for_the_rest(save_path: Path) -> None:
    app = make_app(save_path, "player:corvin")
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_market(app, pilot)
        businesses = screen.query_one("#businesses-table", DataTable)
        await wait_for(pilot, lambda: businesses.row_count == 2, what="his businesses")
        assert screen.query_one("#businesses").border_title == "Your businesses"
        assert {str(k.value) for k in businesses.rows} == {"hale-bank", "salt-works"}
        assert "x Expand" in screen_text(app)
        assert not screen.check_action("act", ("hire",))  # players do not hire: the key does nothing
        await pilot.press("h")
        await settle(pilot)
        assert isinstance(app.screen, MarketScreen)
        # Someone else's business: the public record, no books, no action.
        await pilot.press("v")
        await select_sector(pilot, screen, "saltmarsh:commercial")
        await select_business(pilot, screen, "brine-traders")
        assert "you see the public record" in detail_text(screen) and "Income" not in detail_text(screen)
        assert str(businesses.get_row("brine-traders")[4]) == "—"
        await pilot.press("x")
        await wait_for(
            pilot,
            lambda: any("does not act for Duchess Rowena" in n.message for n in app._notifications),
            what="the refusal",
        )
        assert isinstance(app.screen, MarketScreen)
        # His own bank in a full sector: an order for the adjudicator, not a roll.
        await select_business(pilot, screen, "hale-bank")
        await pilot.press("x")
        await wait_for(pilot, lambda: on_top(app, OrderScreen), what="the order dialog")
        order = app.screen
        assert order.query_one("#order-command", Select).value == "business-expand"
        await wait_for(pilot, lambda: not order.query_one("#file", Button).disabled, what="file enabled")
        await click(pilot, "#file")
        await wait_for(pilot, lambda: on_top(app, MarketScreen), what="filed")
        orders = [o for _, o in world_of(save_path).all("orders")]
        assert [(o["command"], o["params"]["business"], o["filed_by"]) for o in orders] == [
            ("business-expand", "hale-bank", "player:corvin")
        ]
        assert world_of(save_path).get("businesses", "hale-bank")["size"] == 8  # nothing rolled yet


async def test_hiring_shows_the_limits_and_counts_the_hire(save_path: Path) -> None:
    app = make_app(save_path, "king:elbreth")
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_market(app, pilot)
        table = screen.query_one("#specialists-table", DataTable)
        await wait_for(pilot, lambda: table.row_count == 1, what="the King's own pool")
        assert [str(c) for c in table.get_row("elbreth")[1:]] == ["2 · 0/4", "3 · 0/4", "1 · 0/4", "2"]
        await pilot.press("h")
        await wait_for(pilot, lambda: on_top(app, HireScreen), what="the hire dialog")
        dialog = app.screen
        dialog.query_one("#param-type", Select).value = "spy"
        dialog.query_one("#param-immediate", Switch).value = True
        await wait_for(pilot, lambda: "0 of 4 spies (one per province) · 4 left" in screen_text(app), what="the limit")
        await wait_for(pilot, lambda: "3 ducats for 1, arriving at once" in screen_text(app), what="the cost")
        await run_enabled(pilot, dialog)
        await click(pilot, "#run")
        await wait_for(pilot, lambda: "hiring 1 spy" in screen_text(app), what="the result")
        world = world_of(save_path)
        assert world.get("kingdoms", "elbreth")["year_counters"]["hired_spy"] == 1
        assert world.get("specialists", "elbreth")["spy"] == 4 and world.get("kingdoms", "elbreth")["treasury"] == 39
        await pilot.press("escape")
        await wait_for(pilot, lambda: str(table.get_row("elbreth")[2]) == "4 · 1/4", what="the pool catching up")


async def test_credit_dialog_shows_the_capacity(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(110, 40)) as pilot:
        screen = await open_market(app, pilot)
        await select_sector(pilot, screen, "saltmarsh:commercial")
        await select_business(pilot, screen, "hale-bank")
        await pilot.press("l")
        await wait_for(pilot, lambda: on_top(app, LendScreen), what="the credit dialog")
        await wait_for(pilot, lambda: "24 left" in screen_text(app) and "Spring 313" in screen_text(app))


async def test_every_rivals_die_tumbles_then_lands_on_the_recorded_naturals(save_path: Path) -> None:
    """Three rivals (one a monopoly, +3): four dice tumble together and land on what was recorded."""
    with WorldFile(save_path).transaction() as data:
        data["provinces"]["saltmarsh"]["potentials"]["commercial"] = 11
        for bid, name, monopoly in (("salt-exchange", "Salt Exchange", None), ("fish-hall", "Fish Hall", "trade")):
            data["businesses"][bid] = {
                "name": name,
                "owner": "rowena",
                "province": "saltmarsh",
                "pc": "brinehaven",
                "sector": "commercial",
                "size": 1,
                "invested": 3,
                "monopoly": monopoly,
            }
    app = make_app(save_path, animations=True)
    app.animation_level = "full"
    async with app.run_test(size=(120, 44)) as pilot:
        screen = await open_market(app, pilot)
        await select_sector(pilot, screen, "saltmarsh:commercial")
        await select_business(pilot, screen, "hale-bank")
        await pilot.press("x")
        await wait_for(pilot, lambda: on_top(app, ExpandScreen), what="the expand dialog")
        dialog = app.screen
        await wait_for(pilot, lambda: "Dice by hand: 4 per competition" in screen_text(app), what="the preview")
        text = screen_text(app)
        assert "Fish Hall" in text and "monopoly +3" in text and "Salt Exchange" in text
        dialog.query_one("#by-hand", Switch).value = True
        await wait_for(pilot, lambda: dialog.query_one("#naturals").display, what="the naturals field")
        dialog.query_one("#naturals", Input).value = "5,2,4,6"
        await run_enabled(pilot, dialog)
        await pilot.press("ctrl+r")
        tray = dialog.query_one("#tray", CompetitionTray)
        await wait_for(pilot, lambda: tray.animating, what="the tumble")
        assert [r.naturals for r in tray.rolls] == [(5,), (2,), (4,), (6,)]  # fixed before the first frame
        assert "loses 1 Size" not in screen_text(app)
        # What is on screen is painted a frame after the state changes: wait for it, do not race it.
        tumbled: list[bool] = []
        await wait_for(
            pilot,
            lambda: tumbled.append("…" in screen_text(app)) or any(tumbled) or not tray.animating,
            what="the tumble on screen",
        )
        assert any(tumbled)  # the dice were seen tumbling before they landed
        await wait_for(pilot, lambda: not tray.animating, what="landing")
        await wait_for(
            pilot,
            lambda: "Brine Traders loses 1 Size, Hale & Sons Bank gains 1" in screen_text(app),
            what="the result on screen",
        )
        shown = screen_text(app)
        assert "Brine Traders loses 1 Size, Hale & Sons Bank gains 1" in shown
        assert "6+3 = 9" in shown and "holds" in shown and "= 4" in shown
        world = world_of(save_path)
        assert world.get("businesses", "hale-bank")["size"] == 9 and world.find("businesses", "brine-traders") is None
        assert (
            world.get("businesses", "fish-hall")["size"] == 1 and world.get("businesses", "salt-exchange")["size"] == 1
        )
