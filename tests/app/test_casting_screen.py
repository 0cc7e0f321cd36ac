"""The casting screen (issue 7, item 1): the carried modifier, the odds before each stage given
the naturals before it, the stages landing one after another (the app's dice or dice by hand),
the chronicle with its pending consequences, and an order instead of a roll for a player."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app_helpers import make_app, on_top, screen_text, wait_for, widget_text, world_of
from textual.widgets import Input, Switch

from yak_tui.app.kit.dice import DiceTray
from yak_tui.app.screens.magic.screen import CastingScreen
from yak_tui.areas.magic import stage_odds
from yak_tui.store.storage import WorldFile

PARAMS = {"caster": "maelis", "source": "ley-line"}


def flat(text: str) -> str:
    return " ".join(text.split())


async def open_casting(app: Any, pilot: Any, by_hand: bool = False) -> CastingScreen:
    await pilot.press("g")
    await wait_for(pilot, lambda: on_top(app, CastingScreen), what="the casting screen")
    screen: CastingScreen = app.screen
    await pilot.press("tab", *"Ley Line", "tab", *"ward the bridge")  # the mage is preset: he is the only one
    screen.query_one("#cast-by-hand", Switch).value = by_hand
    await wait_for(
        pilot,
        lambda: screen.setup is not None and screen.setup.caster == "maelis" and screen.problem is None,
        what="a castable spell",
    )
    return screen


def odds_text(stage: str, known: list[int], save: Path) -> list[str]:
    """The exact odds the world layer gives before this stage, as the screen prints them."""
    odds = stage_odds(
        world_of(save),
        {**PARAMS, "power_modifier": 0, "control_modifier": 0, "resolution_modifier": 0, "reason": ""},
        known,
    )
    return [f"{band}" for band in odds] + [f"{p * 100:5.1f}%" for p in odds.values()]


async def test_dice_by_hand_stage_by_stage_with_odds_given_the_dice_before(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_casting(app, pilot, by_hand=True)
        text = flat(widget_text(app))
        assert "Ranks Power 1 Control 1 Resolution 0" in text and "nothing carried with ley-line" in text
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: app.focused is screen.query_one("#die-power", Input), what="the Power die")
        power = str(screen.query_one("#odds-power").render())
        assert all(part in power for part in odds_text("power", [], save_path))
        await pilot.press("6", "enter")
        await wait_for(pilot, lambda: app.focused is screen.query_one("#die-control", Input), what="the Control die")
        # The die's line is painted on the frame after the focus moved: wait for what is on screen.
        await wait_for(
            pilot,
            lambda: "rolled 6" in screen_text(app) and "overwhelming" in screen_text(app),
            what="the Power die's result on screen",
        )
        control = str(screen.query_one("#odds-control").render())
        assert all(part in control for part in odds_text("control", [6], save_path))
        assert (
            screen.query_one("#stage-control").border_subtitle == "odds given Power 7"
        )  # the total its tray shows (rank +1)
        assert not world_of(save_path).table("chronicle")  # nothing is written until the spell is complete
        await pilot.press("1", "enter")
        await wait_for(pilot, lambda: app.focused is screen.query_one("#die-resolution", Input), what="Resolution")
        resolution = str(screen.query_one("#odds-resolution").render())
        assert all(part in resolution for part in odds_text("resolution", [6, 1], save_path))
        assert screen.query_one("#stage-resolution").border_subtitle == "odds given Power 7, Control 1"
        await pilot.press("4", "enter")
        await wait_for(pilot, lambda: screen.phase == "done", what="the casting written")

        entries = sorted((e for _, e in world_of(save_path).all("chronicle")), key=lambda e: e["seq"])
        (spell,) = [e for e in entries if e["kind"] == "spell"]
        assert [r["naturals"] for r in spell["rolls"]] == [[6], [1], [4]]
        assert {r["source"] for r in spell["rolls"]} == {"manual"}
        assert [r["band"] for r in spell["rolls"]] == ["overwhelming", "backlash", "failed"]
        pending = [e for e in entries if e["kind"] == "consequence"]
        assert len(pending) == 2 and all(e["pending"] for e in pending)
        # The outcome is painted on a frame after the phase changed (on a loaded machine, later):
        # wait for what is on screen.
        await wait_for(
            pilot,
            lambda: "2 consequences for the GM to describe" in flat(screen_text(app)),
            what="the consequences line on screen",
        )
        assert flat(spell["text"]) in flat(widget_text(app))
        assert [tray.rolls[0].naturals for tray in screen.query(DiceTray)] == [(6,), (1,), (4,)]

        await pilot.press("ctrl+f")  # the GM describes the first consequence
        await wait_for(pilot, lambda: "Describe the consequence" in screen_text(app), what="the fill dialog")
        await pilot.press(*"The bridge groans", "enter")
        await wait_for(pilot, lambda: not world_of(save_path).get("chronicle", pending[0]["id"])["pending"])
        await pilot.press("escape")
        await wait_for(pilot, lambda: "1 consequence for the GM to describe" in flat(screen_text(app)), what="one left")


async def test_a_failed_power_ends_the_spell_after_one_die(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_casting(app, pilot, by_hand=True)
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: app.focused is screen.query_one("#die-power", Input))
        await pilot.press("1", "enter")
        await wait_for(pilot, lambda: screen.phase == "done", what="the spell ended at Power")
        (spell,) = [e for _, e in world_of(save_path).all("chronicle") if e["kind"] == "spell"]
        assert [r["naturals"] for r in spell["rolls"]] == [[1]] and "fails at Power" in spell["text"]
        assert "Not rolled: the spell ended at Power." in str(screen.query_one("#odds-control").render())
        assert not screen.query_one("#die-row-control").display


async def test_the_apps_dice_reveal_each_stage_and_the_carry_is_spent(save_path: Path) -> None:
    with WorldFile(save_path).transaction() as data:
        data["characters"]["maelis"]["power_carry"] = {"ley-line": 1}
    app = make_app(save_path)
    async with app.run_test(size=(140, 45)) as pilot:
        screen = await open_casting(app, pilot)
        assert "+1 carried into this Power roll (bonded last time with ley-line)" in flat(widget_text(app))
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: screen.phase == "done", what="the casting")
        (spell,) = [e for _, e in world_of(save_path).all("chronicle") if e["kind"] == "spell"]
        power = spell["rolls"][0]
        assert {"value": 1, "reason": "carried from the last casting with this source"} in power["modifiers"]
        trays = [t for t in screen.query(DiceTray) if t.display]
        assert [t.rolls[0].naturals for t in trays] == [tuple(r["naturals"]) for r in spell["rolls"]]
        assert all(r["source"] == "derived" for r in spell["rolls"])  # the season's derived dice (fair dice)
        carry = world_of(save_path).get("characters", "maelis")["power_carry"]
        assert carry.get("ley-line", 0) == {"bonded": 1, "oversealed": -1}.get(spell["rolls"][-1]["band"], 0)
        await pilot.press("ctrl+n")  # a new casting reads the new carry
        await wait_for(
            pilot,
            lambda: (
                screen.phase == "setup" and screen.setup is not None and screen.setup.carry == carry.get("ley-line", 0)
            ),
            what="the carry read again",
        )


async def test_a_player_files_his_casting_as_an_order(save_path: Path) -> None:
    app = make_app(save_path, "player:maelis")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_casting(app, pilot)
        assert str(screen.query_one("#cast-run").label) == "File order"
        assert not screen.query("#param-power_modifier")  # the GM's modifiers are not his to set
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: world_of(save_path).table("orders"), what="the order")
        (order,) = world_of(save_path).table("orders").values()
        assert order["command"] == "cast" and order["filed_by"] == "player:maelis"
        assert order["params"]["spell"] == "ward the bridge"
        assert not [e for _, e in world_of(save_path).all("chronicle") if e["kind"] == "spell"]


async def test_someone_without_a_mage_is_told_so(save_path: Path) -> None:
    app = make_app(save_path, "player:tobias")
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("g")
        await wait_for(pilot, lambda: on_top(app, CastingScreen))
        await wait_for(pilot, lambda: "No mage you may see" in screen_text(app))
        assert "Maelis" not in widget_text(app)  # another's ranks and whereabouts stay hidden
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, CastingScreen))


async def test_switching_identity_closes_the_screen(save_path: Path) -> None:
    """The mages listed were the GM's to see: a switch to a player must not leave them on screen."""
    app = make_app(save_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await open_casting(app, pilot)
        app.switch_identity("player:tobias")
        await wait_for(pilot, lambda: not isinstance(app.screen, CastingScreen), what="the screen closed")
        assert "Maelis" not in screen_text(app)
