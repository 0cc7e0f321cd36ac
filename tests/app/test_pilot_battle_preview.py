"""Issue 29: the GM reads a battle's modifiers (and their net) in the dialog before he enters the
winner, picks the fight from the traps' fights, and is offered no hand dice (a battle rolls none)."""

from __future__ import annotations

from pathlib import Path

from app_helpers import make_app, on_top, screen_text, wait_for

from yak_tui.app.kit.command import CommandScreen
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.views import param_fields
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

GM = Identity.parse("gm")


def _prepare(path: Path) -> None:
    save = WorldFile(path)
    for mission in ("infiltrate-general-staff", "cripple-military-morale"):
        params = {"mission": mission, "sponsor": "varos", "target": "elbreth"}
        run_command(save, GM, "spy-mission", params, ScriptedDice([6, 6]))
    run_command(save, Identity.parse("king:elbreth"), "trap", {"kingdom": "elbreth", "fight": "The Greywood Ford"})


def test_the_fight_is_offered_from_the_traps_to_those_who_may_see_them(save_path: Path) -> None:
    _prepare(save_path)
    world = World(WorldFile(save_path).read())

    def fights(who: str) -> tuple[str, ...]:
        (field,) = [f for f in param_fields(world, Identity.parse(who), "battle") if f.name == "fight"]
        return tuple(c.label for c in field.options)

    assert fights("gm") == ("The Greywood Ford (trap of Kingdom of Elbreth)",)
    assert fights("king:kesh") == ()  # Elbreth's trap is Elbreth's secret


async def test_the_battle_dialog_shows_the_modifiers_before_the_winner(save_path: Path) -> None:
    _prepare(save_path)
    app = make_app(save_path)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_command("battle", preset={"attacker": "kesh", "defender": "elbreth", "fight": "The Greywood Ford"})
        await wait_for(pilot, lambda: on_top(app, CommandScreen))
        await wait_for(
            pilot,
            lambda: "Kingdom of Elbreth -2 (Cripple Military Morale), +1 (trap)" in screen_text(app),
            what="the modifiers",
        )
        text = screen_text(app)
        assert "Net: Principality of Kesh +1 over Kingdom of Elbreth." in text
        assert "Before you run" in text and "Dice by hand" not in text


async def test_the_recruit_form_picks_a_kind_from_the_list_and_ship_build_a_fleet(save_path: Path) -> None:
    from textual.widgets import Select

    app = make_app(save_path)
    async with app.run_test(size=(120, 40)) as pilot:
        app.open_command("recruit", preset={"kingdom": "elbreth", "pc": "highmoor", "regiments": "1"})
        await wait_for(pilot, lambda: on_top(app, CommandScreen))
        kind = app.screen.query_one("#param-kind", Select)
        assert [value for _, value in kind._options if value is not Select.NULL] == [
            "infantry", "cavalry", "scout", "raider", "sea-raider", "ship", "galley", "fleet", "guard",
        ]  # fmt: skip
        kind.value = "raider"
        await wait_for(pilot, lambda: not app.screen.query_one("#run").disabled, what="the form checks out")
        await pilot.press("escape")
        app.open_command("ship-build", preset={"kingdom": "elbreth", "port": "brinehaven"})
        await wait_for(pilot, lambda: on_top(app, CommandScreen) and bool(app.screen.query("#param-fleet")))
        fleet = app.screen.query_one("#param-fleet", Select)
        assert "elbreth-fleet" in [value for _, value in fleet._options]
