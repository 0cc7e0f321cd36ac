"""The dice core: seeded replays, scripted and hand-entered dice, RollRecords and exact odds."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import orjson
import pytest

from yak_tui.cli import main
from yak_tui.kernel.play.commands import apply_command, run_command
from yak_tui.kernel.play.dice import (
    Dice,
    DiceError,
    ManualDice,
    Modifier,
    RecordingDice,
    RollRecord,
    ScriptedDice,
    SeededDice,
    as_floats,
    d6_ceil_half,
    exact_odds,
    parse_dice,
)
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.world.demo import build_world, create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

# --- sources -----------------------------------------------------------------------------------


def test_sources_satisfy_the_protocol() -> None:
    for dice in (SeededDice(1), ScriptedDice([1]), ManualDice(lambda s, p: 1)):
        assert isinstance(dice, Dice)
    assert (SeededDice.source, ScriptedDice.source, ManualDice.source) == ("seeded", "scripted", "manual")


@pytest.mark.parametrize("seed", [0, 1, 42, 2**31 + 7])
def test_same_seed_same_naturals(seed: int) -> None:
    first = [SeededDice(seed).roll(6)]
    a, b = SeededDice(seed), SeededDice(seed)
    run_a = [a.roll(6, "x") for _ in range(200)]
    run_b = [b.roll(6, "y") for _ in range(200)]
    assert run_a == run_b
    assert run_a[:1] == first
    assert set(run_a) == {1, 2, 3, 4, 5, 6}


def test_different_seeds_differ_and_unseeded_records_its_seed() -> None:
    runs = set()
    for seed in range(5):
        dice = SeededDice(seed)
        runs.add(tuple(dice.roll() for _ in range(30)))
    assert len(runs) == 5
    fresh = SeededDice()
    assert isinstance(fresh.seed, int)
    rolled = [fresh.roll() for _ in range(50)]
    replay = SeededDice(fresh.seed)
    assert [replay.roll() for _ in range(50)] == rolled


def test_seeded_dice_respects_sides() -> None:
    dice = SeededDice(3)
    faces = {dice.roll(20) for _ in range(2000)}
    assert faces == set(range(1, 21))


def test_scripted_dice_in_order_then_exhausted() -> None:
    dice = ScriptedDice([4, 2, 6])
    assert [dice.roll(), dice.roll(), dice.roll()] == [4, 2, 6]
    assert dice.remaining == 0
    with pytest.raises(DiceError, match="not enough dice given: spy check needs die number 4"):
        dice.roll(6, "spy check")


def test_scripted_dice_out_of_range() -> None:
    with pytest.raises(DiceError, match="die 1 is 7"):
        ScriptedDice([7]).roll(6)
    with pytest.raises(DiceError, match="die 2 is 0"):
        dice = ScriptedDice([3, 0])
        dice.roll()
        dice.roll()
    assert ScriptedDice([12]).roll(12) == 12  # not only d6


def test_manual_dice_validation() -> None:
    asked: list[tuple[int, str]] = []

    def ask(sides: int, purpose: str) -> int:
        asked.append((sides, purpose))
        return 5

    assert ManualDice(ask).roll(6, "smuggling") == 5
    assert asked == [(6, "smuggling")]
    for bad in (0, 7, -1, 2.5, "4", None, 9):
        with pytest.raises(DiceError, match="d6 shows 1 to 6"):
            ManualDice(lambda s, p, v=bad: v).roll(6)  # type: ignore[misc]
    assert ManualDice(lambda s, p: 8).roll(8) == 8


def test_parse_dice() -> None:
    assert parse_dice("4") == [4]
    assert parse_dice(" 4, 2 ,6") == [4, 2, 6]
    with pytest.raises(DiceError, match="item 2 is 'x'"):
        parse_dice("4,x")
    with pytest.raises(DiceError, match="item 2 is empty"):
        parse_dice("4,,2")


def test_recording_dice_remembers() -> None:
    rec = RecordingDice(ScriptedDice([3, 5]))
    assert rec.source == "scripted"
    rec.roll()
    rec.roll()
    assert rec.naturals == [3, 5]


def test_roll_record_round_trip() -> None:
    record = RollRecord(
        "storm the gate",
        [4, 2],
        [Modifier(1, "ladders"), Modifier(-2, "walls")],
        total=5,
        band="great-success",
        source="manual",
        roller="gm",
        audience="kingdom:elbreth",
        blind=True,
        seed=None,
        outcome="breach",
    )
    data = record.to_dict()
    assert data["modifiers"] == [{"value": 1, "reason": "ladders"}, {"value": -2, "reason": "walls"}]
    assert orjson.loads(orjson.dumps(data)) == data
    assert RollRecord.from_dict(data) == record


def test_d6_ceil_half() -> None:
    assert [d6_ceil_half(n) for n in range(1, 7)] == [1, 1, 2, 2, 3, 3]


# --- the seed reaches the chronicle ---------------------------------------------------------------


def _roll_entry(world: World) -> dict:
    rolls = [e for _, e in sorted(world.all("chronicle")) if e["kind"] == "roll"]
    assert len(rolls) == 1
    return rolls[-1]


def test_roll_command_records_seed_and_replays() -> None:
    world = World(build_world())
    result = apply_command(world, GM, "roll", {"reason": "river crossing", "modifier": "1"}, SeededDice(4242))
    entry = _roll_entry(world)
    (record,) = entry["rolls"]
    assert record["seed"] == 4242
    assert record["source"] == "seeded"
    assert record["roller"] == "gm"
    assert record["purpose"] == "river crossing"
    assert record["modifiers"] == [{"value": 1, "reason": "river crossing"}]
    replay = SeededDice(record["seed"]).roll(6)
    assert record["naturals"] == [replay]
    assert record["total"] == replay + 1
    assert result.data["natural"] == replay
    assert [r.seed for r in result.rolls] == [4242]
    # The same seed on a fresh world gives the same chronicle roll.
    again = World(build_world())
    apply_command(again, GM, "roll", {"reason": "river crossing", "modifier": "1"}, SeededDice(4242))
    assert _roll_entry(again)["rolls"] == entry["rolls"]


def test_roll_command_records_scripted_and_manual_sources() -> None:
    world = World(build_world())
    apply_command(world, GM, "roll", {"reason": "a"}, ScriptedDice([6]))
    world2 = World(build_world())
    apply_command(world2, GM, "roll", {"reason": "b"}, ManualDice(lambda s, p: 1))
    scripted = _roll_entry(world)["rolls"][0]
    manual = _roll_entry(world2)["rolls"][0]
    assert (scripted["source"], scripted["seed"], scripted["naturals"], scripted["band"]) == (
        "scripted",
        None,
        [6],
        "overshoot",
    )
    assert (manual["source"], manual["naturals"], manual["band"]) == ("manual", [1], "critical-failure")


def test_seed_recorded_through_the_api_but_refused_for_a_real_cli_roll(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """An in-process caller may still pass seeded dice (replays, tests); a client's `--seed` for a real
    roll is refused, since it would let a modified client shop for seeds (issue 28)."""
    save = create_world(tmp_path / "w.json")
    run_command(save, GM, "roll", {"reason": "by api"}, SeededDice(77))
    before = save.path.read_bytes()
    code = main(["--save", str(save.path), "do", "roll", "reason=by cli", "--seed", "77", "--json"])
    _, err = capsys.readouterr()
    assert code == 2 and "--seed steers only `resolve`" in err
    assert save.path.read_bytes() == before
    world = World(WorldFile(save.path).read())
    rolls = [e["rolls"][0] for _, e in sorted(world.all("chronicle")) if e["kind"] == "roll"]
    assert [r["seed"] for r in rolls] == [77]
    assert rolls[0]["naturals"] == [SeededDice(77).roll()]


def test_a_cli_roll_without_dice_is_derived(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    save = create_world(tmp_path / "w.json")
    code = main(["--save", str(save.path), "do", "roll", "reason=by cli", "--json"])
    out, err = capsys.readouterr()
    assert code == 0, err
    world = World(WorldFile(save.path).read())
    [roll] = [e["rolls"][0] for _, e in sorted(world.all("chronicle")) if e["kind"] == "roll"]
    assert roll["source"] == "derived" and roll["seed"] is None
    assert roll["draws"][0]["stream"] == "public" and roll["draws"][0]["n"] == 0
    assert orjson.loads(out)["natural"] == roll["naturals"][0]


def test_scripted_exhaustion_in_a_command_changes_nothing(tmp_path: Path) -> None:
    from yak_tui.kernel.play.dice import DiceError as Err

    save = create_world(tmp_path / "w.json")
    before = save.path.read_bytes()
    with pytest.raises(Err):
        run_command(save, GM, "roll", {"reason": "no dice left"}, ScriptedDice([]))
    assert save.path.read_bytes() == before


# --- exact odds --------------------------------------------------------------------------------


def test_exact_odds_single_die() -> None:
    odds = exact_odds(lambda d: d.roll(6), lambda n: n)
    assert odds == {n: Fraction(1, 6) for n in range(1, 7)}


def test_exact_odds_two_dice_sum() -> None:
    odds = exact_odds(lambda d: d.roll() + d.roll(), lambda s: s)
    assert sum(odds.values()) == 1
    assert odds[7] == Fraction(6, 36)
    assert odds[2] == odds[12] == Fraction(1, 36)


def _chained(dice: Dice) -> str:
    """Like a spell: stop after a failed first stage, else roll a second (a d4) and maybe a third."""
    first = dice.roll(6, "power")
    if first <= 2:
        return "fizzle"
    second = dice.roll(4, "control")
    if second == 4:
        third = dice.roll(6, "resolution")
        return "sealed" if third >= 4 else "open"
    return "works"


def test_exact_odds_variable_length_and_mixed_sides() -> None:
    odds = exact_odds(_chained, lambda o: o)
    assert odds == {
        "fizzle": Fraction(2, 6),
        "works": Fraction(4, 6) * Fraction(3, 4),
        "sealed": Fraction(4, 6) * Fraction(1, 4) * Fraction(3, 6),
        "open": Fraction(4, 6) * Fraction(1, 4) * Fraction(3, 6),
    }
    assert sum(odds.values()) == 1


def test_exact_odds_matches_scripted_enumeration() -> None:
    """Every path the enumerator weighs is one a ScriptedDice replays to the same outcome."""
    counted: dict[str, Fraction] = {}
    for a in range(1, 7):
        if a <= 2:
            outcome = _chained(ScriptedDice([a]))
            counted[outcome] = counted.get(outcome, Fraction(0)) + Fraction(1, 6)
            continue
        for b in range(1, 5):
            if b != 4:
                outcome = _chained(ScriptedDice([a, b]))
                counted[outcome] = counted.get(outcome, Fraction(0)) + Fraction(1, 24)
                continue
            for c in range(1, 7):
                outcome = _chained(ScriptedDice([a, b, c]))
                counted[outcome] = counted.get(outcome, Fraction(0)) + Fraction(1, 144)
    assert exact_odds(_chained, lambda o: o) == counted


def test_exact_odds_no_dice_and_as_floats() -> None:
    assert exact_odds(lambda d: "fixed", lambda o: o) == {"fixed": Fraction(1)}
    floats = as_floats(exact_odds(lambda d: d.roll(3), lambda n: n))
    assert floats == {"1": 0.333333, "2": 0.333333, "3": 0.333333}
