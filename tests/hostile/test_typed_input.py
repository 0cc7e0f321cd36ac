"""Issue 25 item 7: what a person types is read as he typed it or refused with words. Dice typed and
never read are refused (out of range or not), digits of other scripts are not numbers, a deadline
keeps its year's four digits, and TOML nested thousands deep is refused, never a RecursionError."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostile_helpers import assert_refused, yak


@pytest.mark.parametrize("dice", ["1,9", "4,2", "3,3,3"])
def test_dice_typed_and_never_read_are_refused_and_nothing_is_written(
    capsys: pytest.CaptureFixture[str], save_path: Path, dice: str
) -> None:
    left = dice.split(",", 1)[1].replace(",", ", ")
    assert_refused(
        capsys,
        ["--save", str(save_path), "do", "roll", "reason=scout", "--dice", dice],
        save_path,
        "dice given",
        "reads only 1",
        f"{left} would be left unread",
    )
    code, out, err = yak(capsys, ["--save", str(save_path), "--json", "do", "roll", "reason=scout", "--dice", "4"])
    assert code == 0 and json.loads(out)["natural"] == 4, err


def test_a_rule_check_names_a_die_it_did_not_read_and_refuses_one_no_die_shows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = yak(capsys, ["--json", "resolve", "rtd", "--dice", "4,2"])
    assert code == 0 and json.loads(out)["natural"] == 4 and "not read: 2" in err
    assert_refused(capsys, ["resolve", "rtd", "--dice", "1,9"], None, "9 would be left unread")


@pytest.mark.parametrize("typed", ["١٢", "１２", "1_2", "١.٥"])
def test_digits_of_other_scripts_are_not_numbers(
    capsys: pytest.CaptureFixture[str], save_path: Path, typed: str
) -> None:
    assert_refused(
        capsys,
        ["--save", str(save_path), "do", "roll", "reason=scout", f"modifier={typed}"],
        save_path,
        "modifier",
        "digits 0-9",
    )
    assert_refused(capsys, ["resolve", "rtd", "--dice", typed], None, "not a die's face")


def test_hand_dice_in_the_app_take_the_digits_0_to_9_only() -> None:
    from yak_tui.kernel.play.views import parse_naturals

    assert parse_naturals("4, 2") == ([4, 2], None)
    for typed in ("٣", "３", "²"):
        naturals, problem = parse_naturals(typed)
        assert naturals == [] and problem is not None and "whole number from 1 to 6" in problem


def test_a_deadline_keeps_its_years_four_digits(capsys: pytest.CaptureFixture[str], save_path: Path) -> None:
    code, out, err = yak(capsys, ["--save", str(save_path), "--json", "season", "deadline", "0001-01-01", "--force"])
    assert code == 0, err
    assert json.loads(out)["deadline"] == "0001-01-01T00:00Z"
    code, out, err = yak(capsys, ["--save", str(save_path), "--json", "season", "deadline", "0001-01-01 00:00+01:00"])
    assert code == 2 and "outside the calendar" in err


@pytest.mark.parametrize("depth", [40, 5000])
def test_toml_nested_too_deep_is_refused_with_words(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, save_path: Path, depth: int
) -> None:
    deep = "a = " + "[" * depth + "]" * depth + "\n"
    world = tmp_path / "deep.toml"
    world.write_text(deep, encoding="utf-8")
    assert_refused(capsys, ["new", str(tmp_path / "new.json"), "--from", str(world)], None, "nests", "32 deep")
    rules = tmp_path / "rules"
    rules.mkdir()
    (rules / "core.toml").write_text(deep, encoding="utf-8")
    assert_refused(capsys, ["--rules", str(rules), "resolve", "rtd", "--dice", "3"], None, "nests", "32 deep")
    assert_refused(capsys, ["--save", str(save_path), "rules", "set", str(rules)], save_path, "nests", "32 deep")
