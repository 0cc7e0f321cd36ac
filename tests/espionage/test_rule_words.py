"""What a person reads of the espionage rules (issue 29): odds, results and bands in words,
the same modifiers for the odds shown and the roll made, and the GM's truth about a purge."""

from __future__ import annotations

from spy_helpers import KING_ELBRETH, KING_VAROS, do, infiltrate, mutate, no_counter_spies, read

from yak_tui.kernel.play.views import odds_text, order_filed_text
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile


def _varos_ready(world: World) -> None:
    world.edit("kingdoms", "varos")["treasury"] = 200
    world.edit("specialists", "varos").update(spy=20, cold_spy=0)
    no_counter_spies(world, "elbreth", "varos")
    for effect_id, effect in list(world.all("effects")):
        if effect["kind"] == "infiltration":
            world.delete("effects", effect_id)


def test_a_filed_infiltration_reads_its_odds_in_words(save: WorldFile) -> None:
    mutate(save, _varos_ready)
    filed = do(save, "spy-order", {"mission": "infiltrate-treasury", "target": "elbreth"}, who=KING_VAROS)
    text = order_filed_text(read(save), filed.data)
    assert "Odds: succeeds unseen " in text
    assert "the spy stays in place as your infiltrator, or is lost if it fails." in text
    assert "success_and_undetected" not in text and "spy_lost" not in text
    assert set(filed.data["odds"]) == {"success_and_undetected", "spy_lost"}  # --json keeps its keys


def test_yak_odds_in_words(save: WorldFile) -> None:
    mutate(save, _varos_ready)
    mutate(save, lambda w: infiltrate(w, "varos", "elbreth", "infiltrate-spy-ring"))
    world = read(save)
    from yak_tui.kernel.play.commands import spec_for
    from yak_tui.kernel.play.params import coerce_params

    spec = spec_for("spy-mission")
    params = coerce_params(spec, {"mission": "create-security-breach", "sponsor": "varos", "target": "elbreth"}, world)
    from yak_tui.kernel.play.identity import GM

    text = odds_text("spy-mission", params, spec.odds(world, GM, params))  # type: ignore[misc]
    assert "  outcome:\n    succeeds " in text
    assert "  succeeds unseen " in text
    assert "  the spy is lost " in text
    assert "_" not in text.replace("spy-mission", "")


def test_an_infiltration_result_says_where_the_spy_stays(save: WorldFile) -> None:
    mutate(save, _varos_ready)
    done = do(
        save, "spy-mission", {"mission": "infiltrate-general-staff", "sponsor": "varos", "target": "elbreth"}, [6, 6]
    )
    text = done.data["outcome_text"]
    assert text.endswith(
        "Your man is in place in Kingdom of Elbreth's general staff until purged. "
        "The spy stays in place as your infiltrator."
    )
    assert "used up" not in text and "general-staff" not in text


def test_spy_roll_bands_read_in_words(save: WorldFile) -> None:
    mutate(save, _varos_ready)
    params = {"mission": "infiltrate-treasury", "sponsor": "varos", "target": "elbreth"}
    done = do(save, "spy-mission", {**params, "gm_modifier": -2, "gm_reason": "bad luck"}, [1, 1])
    entry = read(save).get("chronicle", done.data["sponsor_entry"])
    readings = [roll["reading"] for roll in entry["rolls"]]
    assert readings[0].endswith("→ fails, and the spy is captured")
    assert readings[1].endswith("→ spy captured and talks: sponsor identified")
    assert "fails-spy-captured" not in entry["secret"] and "captured-identified" not in entry["secret"]
    assert entry["rolls"][0]["band"] == "fails-spy-captured"  # the stored band keeps its key


def test_who_may_in_words_each_once() -> None:
    from yak_tui.kernel.play.identity import who_may_words

    assert who_may_words(("gm", "gm")) == "the GM"
    assert who_may_words(("gm", "king:elbreth")) == "the GM, the King of Elbreth"


def test_counts_take_their_plural() -> None:
    from yak_tui.areas.warfare.siege_rules import messenger_modifiers, smuggle_modifiers

    assert [m.reason for m in smuggle_modifiers(1)] == ["bribe of 1 ducat to a besieging NPC officer"]
    reasons = [m.reason for m in messenger_modifiers(1, 2)]
    assert "1 friendly Scout unit helping" in reasons and "2 besieging Scout units opposing" in reasons


def test_a_failed_purge_reads_cleared_to_its_sponsor_and_failed_to_the_gm(save: WorldFile) -> None:
    from yak_tui.kernel.play.audience import visible_entries
    from yak_tui.kernel.play.identity import GM

    mutate(save, lambda w: infiltrate(w, "varos", "elbreth", "infiltrate-treasury"))
    order = do(
        save, "spy-order", {"mission": "purge-administration", "infiltration": "infiltrate-treasury"}, who=KING_ELBRETH
    )
    result = do(save, "spy-resolve", {"order": order.data["order"]}, [1])
    entry_id = result.data["result"]["sponsor_entry"]
    world = read(save)
    told = next(e for e in visible_entries(world, KING_ELBRETH) if e["id"] == entry_id)
    assert told["text"] == "Espionage: Purge Administration: cleared. Infiltrate Treasury: cleared."
    assert "gm_text" not in told
    truth = next(e for e in visible_entries(world, GM) if e["id"] == entry_id)
    assert truth["text"] == (
        "Espionage: Purge Administration: failure. "
        "Infiltrate Treasury: not cleared, the purge failed (its sponsor is told it was cleared)."
    )


def test_the_fund_bandits_form_costs_what_is_typed(save: WorldFile) -> None:
    from yak_tui.areas.espionage.read import mission_dialog_odds

    mutate(save, _varos_ready)
    typed = {"mission": "fund-bandits", "target": "elbreth", "bandits": "5"}  # no province yet
    odds = mission_dialog_odds(read(save), KING_VAROS, typed)
    assert odds is not None and odds.cost == 2 + 5 * 2


def test_the_gm_reads_a_filed_mission_at_the_odds_its_roll_will_use(save: WorldFile) -> None:
    """Issue 29: the GM's queue showed the filer's odds (no counter-spy), then the roll took -2."""
    from yak_tui.areas.espionage.rules import mission_odds
    from yak_tui.kernel.play.dice import Modifier
    from yak_tui.kernel.play.identity import GM
    from yak_tui.kernel.play.queue import order_lines

    mutate(save, _varos_ready)
    mutate(save, lambda w: w.edit("specialists", "elbreth").update(counter_spies={"provinces": [], "nation": 1}))
    filed = do(save, "spy-order", {"mission": "infiltrate-treasury", "target": "elbreth"}, who=KING_VAROS)
    order_id = filed.data["order"]
    world = read(save)
    (gm_line,) = [line for line in order_lines(world, GM) if line.id == order_id]
    (king_line,) = [line for line in order_lines(world, KING_VAROS) if line.id == order_id]
    result = do(save, "spy-resolve", {"order": order_id}, [3, 3]).data["result"]
    rolled = [Modifier(m["value"], m["reason"]) for m in result["modifiers"]["success"]]
    assert rolled == [Modifier(-1, "nation-wide counter-spy")]
    expected = mission_odds("infiltrate-treasury", rolled, rolled).to_dict()
    assert gm_line.odds["success_and_undetected"] == expected["success_and_undetected"]
    assert king_line.odds["success_and_undetected"] > gm_line.odds["success_and_undetected"]  # he knows less


def test_the_order_form_says_the_infiltrator_stays_not_spy_lost_100(save: WorldFile) -> None:
    from yak_tui.app.kit.odds import odds_content
    from yak_tui.areas.espionage.read import mission_dialog_odds
    from yak_tui.kernel.play.views import OddsView

    mutate(save, _varos_ready)
    typed = {"mission": "infiltrate-treasury", "target": "elbreth"}
    odds = mission_dialog_odds(read(save), KING_VAROS, typed)
    assert odds is not None
    text = odds_content(OddsView(odds.rows, odds.extra), 76, "spy-order", typed).plain
    assert "The spy stays in place as your infiltrator, or is lost if it fails." in text
    assert "succeeds unseen: " in text
    assert "spy lost" not in text and "100.0%" not in text
