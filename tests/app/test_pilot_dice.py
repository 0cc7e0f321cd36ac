"""The roll flow: exact odds before rolling, the result the rule core recorded (the animation
never changes it, any key skips it), dice by hand, and refusals with the reason and who may."""

from __future__ import annotations

from pathlib import Path

from app_helpers import click, make_app, on_top, screen_text, settle, wait_for, widget_text, world_of
from textual.widgets import Button, Input, Switch

from yak_tui.app.kit.command import CommandScreen
from yak_tui.app.kit.dice import FRAME_DELAYS, DiceTray, face_lines
from yak_tui.kernel.play import views
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.play.outcomes import outcome_words


def last_entry(path: Path) -> dict:
    world = world_of(path)
    return max((e for _, e in world.all("chronicle")), key=lambda e: e["seq"])


async def open_roll(app, pilot) -> CommandScreen:  # type: ignore[no-untyped-def]
    await pilot.press("r")
    await wait_for(pilot, lambda: on_top(app, CommandScreen), what="the roll dialog")
    return app.screen  # type: ignore[no-any-return]


async def test_gm_sees_exact_odds_then_rolls_and_the_chronicle_has_it(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(100, 40)) as pilot:
        dialog = await open_roll(app, pilot)
        await pilot.press(*"Hold the bridge")
        dialog.query_one("#param-modifier", Input).value = "2"
        expected = views.command_odds(world_of(save_path), GM, "roll", {"reason": "Hold the bridge", "modifier": "2"})
        assert expected is not None
        await wait_for(pilot, lambda: f"{expected.extra[0][1] * 100:.1f}%" in screen_text(app), what="odds")
        text = screen_text(app)
        for band, p in expected.rows:
            assert outcome_words(band) in text and f"{p * 100:5.1f}%" in text
        await pilot.press("ctrl+r")
        await wait_for(pilot, lambda: dialog.query_one("#tray").display, what="the result")
        entry = last_entry(save_path)
        roll = entry["rolls"][0]
        assert entry["text"].startswith("RtD for Hold the bridge")
        assert roll["modifiers"] == [{"value": 2, "reason": "Hold the bridge"}]
        tray = dialog.query_one(DiceTray)
        assert tray.rolls[0].naturals == tuple(roll["naturals"])
        await settle(pilot)  # the result painted, not only there
        shown = screen_text(app)
        assert (
            f"rolled {roll['naturals'][0]}" in shown
            and f"= {roll['total']}" in shown
            and outcome_words(roll["band"]) in shown
        )
        assert face_lines(roll["naturals"][0])[2] in shown  # the die face drawn is the recorded natural
        assert entry["text"] in shown
        await click(pilot, "#copy")
        assert entry["text"] in app.clipboard
        await pilot.press("escape")
        await wait_for(pilot, lambda: not isinstance(app.screen, CommandScreen))
        await wait_for(pilot, lambda: "Hold the bridge" in screen_text(app), what="dashboard refresh")


async def test_dice_by_hand_validates_and_records_manual_naturals(save_path: Path) -> None:
    app = make_app(save_path)
    async with app.run_test(size=(100, 40)) as pilot:
        dialog = await open_roll(app, pilot)
        await pilot.press(*"Cross the river")
        dialog.query_one("#by-hand", Switch).value = True
        naturals = dialog.query_one("#naturals", Input)
        await wait_for(pilot, lambda: naturals.display, what="the naturals field")
        naturals.value = "7"
        await wait_for(pilot, lambda: "a d6 shows 1 to 6" in screen_text(app), what="the 1-6 check")
        await wait_for(pilot, lambda: dialog.query_one("#run", Button).disabled, what="run refused for 7")
        naturals.value = "4,2"
        await wait_for(pilot, lambda: "2 dice typed, but the roll reads only 1" in screen_text(app))
        await wait_for(pilot, lambda: dialog.query_one("#run", Button).disabled, what="run refused for 4,2")
        naturals.value = "5"
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled, what="run enabled")
        await click(pilot, "#run")
        await wait_for(pilot, lambda: dialog.query_one("#tray").display, what="the result")
        roll = last_entry(save_path)["rolls"][0]
        assert roll["naturals"] == [5] and roll["source"] == "manual"
        # The tray shows at once and paints its lines on the next refresh: wait for them (a loaded machine is slow).
        await wait_for(pilot, lambda: "dice by hand" in screen_text(app), what="the tray's 'dice by hand' line")


async def test_the_animation_tumbles_then_lands_on_the_recorded_result_and_any_key_skips(save_path: Path) -> None:
    app = make_app(save_path, animations=True)
    app.animation_level = "full"
    async with app.run_test(size=(100, 40)) as pilot:
        dialog = await open_roll(app, pilot)
        await pilot.press(*"Ford the Redfen")
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled)
        await pilot.press("ctrl+r")
        tray = dialog.query_one(DiceTray)
        await wait_for(pilot, lambda: tray.animating, what="the tumble")
        recorded = last_entry(save_path)["rolls"][0]["naturals"]
        assert tray.rolls[0].naturals == tuple(recorded)  # fixed before the first frame
        await wait_for(pilot, lambda: "rolling…" in screen_text(app), what="the tumble drawn")
        await pilot.press("x")  # any key skips
        await wait_for(pilot, lambda: not tray.animating, what="landing")
        assert tray.frame == len(FRAME_DELAYS)
        await wait_for(pilot, lambda: f"rolled {recorded[0]}" in screen_text(app), what="the landed die drawn")
        assert last_entry(save_path)["rolls"][0]["naturals"] == recorded  # the animation changed nothing


async def test_the_tumble_runs_to_the_end_on_its_own(save_path: Path) -> None:
    app = make_app(save_path, animations=True)
    app.animation_level = "full"
    async with app.run_test(size=(100, 40)) as pilot:
        dialog = await open_roll(app, pilot)
        await pilot.press(*"Wait it out")
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled)
        await pilot.press("ctrl+r")
        tray = dialog.query_one(DiceTray)
        await wait_for(pilot, lambda: tray.animating)
        faces_seen = set()

        def landed() -> bool:
            faces_seen.add(tray.frame)
            return not tray.animating

        await wait_for(pilot, landed, what="the dice landed")
        assert len(faces_seen) > 3
        assert tray.rolls[0].naturals == tuple(last_entry(save_path)["rolls"][0]["naturals"])


async def test_animations_off_show_the_result_at_once(save_path: Path) -> None:
    app = make_app(save_path, animations=True)  # TEXTUAL_ANIMATIONS=none wins over the app setting
    assert app.animation_level == "none" and not app.animate_dice
    async with app.run_test(size=(100, 40)) as pilot:
        dialog = await open_roll(app, pilot)
        await pilot.press(*"Quick")
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled)
        await pilot.press("ctrl+r")
        tray = dialog.query_one(DiceTray)
        await wait_for(pilot, lambda: tray.display)
        assert not tray.animating and tray.frame == len(FRAME_DELAYS)


async def test_a_refused_roll_says_why_and_who_may(save_path: Path) -> None:
    app = make_app(save_path, "king:varos")
    async with app.run_test(size=(100, 40)) as pilot:
        dialog = await open_roll(app, pilot)
        await pilot.press(*"Raid the border")
        dialog.query_one("#param-kingdom").value = "varos"  # his own forces' kingdom: he may, so pick Elbreth's
        await settle(pilot)
        dialog.query_one("#param-kingdom").value = "elbreth"
        await wait_for(pilot, lambda: "Who may: the GM" in screen_text(app), what="who may")
        assert "inside another King's kingdom" in screen_text(app)
        assert dialog.query_one("#run", Button).disabled
        before = len(world_of(save_path).table("chronicle"))
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert len(world_of(save_path).table("chronicle")) == before


async def test_a_player_cannot_roll_and_is_told_to_file_an_order(save_path: Path) -> None:
    app = make_app(save_path, "player:nyx")
    async with app.run_test(size=(100, 40)) as pilot:
        await pilot.press("r")  # no roll key for a player
        await settle(pilot)
        assert not isinstance(app.screen, CommandScreen)
        app.open_command("roll")  # e.g. from the palette
        await wait_for(pilot, lambda: on_top(app, CommandScreen))
        await pilot.press(*"Sneak")
        await wait_for(pilot, lambda: "they submit orders" in screen_text(app), what="the refusal")
        assert "Who may: the GM" in screen_text(app)


def test_face_lines_draw_every_face() -> None:
    pips = {n: sum(line.count("●") for line in face_lines(n)) for n in range(1, 7)}
    assert pips == {1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}
    assert "?" in "".join(face_lines(None))


async def test_the_result_line_waits_for_the_dice_to_land(save_path: Path) -> None:
    app = make_app(save_path, animations=True)
    app.animation_level = "full"
    async with app.run_test(size=(100, 40)) as pilot:
        dialog = await open_roll(app, pilot)
        await pilot.press(*"Keep it secret")
        await wait_for(pilot, lambda: not dialog.query_one("#run", Button).disabled)
        await pilot.press("ctrl+r")
        tray = dialog.query_one(DiceTray)
        await wait_for(pilot, lambda: tray.animating)
        assert "RtD for Keep it secret" not in screen_text(app)
        await wait_for(pilot, lambda: not tray.animating)
        await wait_for(pilot, lambda: "RtD for Keep it secret" in screen_text(app))
        await wait_for(pilot, lambda: "RtD for Keep it secret" in widget_text(app), what="the dashboard behind")
