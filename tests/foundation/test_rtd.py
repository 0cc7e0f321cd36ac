"""RtD (RULINGS §0): every band and edge with scripted dice, exact odds, and the `yak resolve rtd` JSON."""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import orjson
import pytest

from yak_tui.cli import main
from yak_tui.kernel.play.dice import Modifier, ScriptedDice
from yak_tui.kernel.play.rtd import BANDS, roll_rtd, rtd_band, rtd_odds, rtd_success

YAK = Path(sys.executable).parent / "yak"


def expected_band(natural: int, total: int) -> str:
    """RULINGS §0 written out independently of the rules table."""
    if natural == 1:
        return "critical-failure"
    if natural == 6:
        return "overshoot"
    if total <= 2:
        return "failure"
    return {3: "minor-success", 4: "success", 5: "great-success"}.get(total, "grand-success")


def expected_success(natural: int, total: int) -> bool:
    if natural == 1:
        return False
    if natural == 6:
        return True
    return total >= 3


# --- every band and edge -----------------------------------------------------------------------

GRID = [(n, m) for n in range(1, 7) for m in range(-3, 4)]


@pytest.mark.parametrize(("natural", "modifier"), GRID)
def test_every_natural_and_modifier(natural: int, modifier: int) -> None:
    mods = [Modifier(modifier, "test")] if modifier else []
    dice = ScriptedDice([natural])
    outcome = roll_rtd(dice, mods)
    assert dice.remaining == 0, "RtD rolls exactly one die"
    assert outcome.natural == natural
    assert outcome.total == natural + modifier
    assert outcome.modifier == modifier
    assert outcome.band == expected_band(natural, natural + modifier)
    assert outcome.success is expected_success(natural, natural + modifier)


@pytest.mark.parametrize(
    ("natural", "modifier", "band", "success"),
    [
        # Naturals win over totals.
        (1, 0, "critical-failure", False),
        (1, 3, "critical-failure", False),  # total 4, still a critical failure
        (1, 10, "critical-failure", False),
        (6, 0, "overshoot", True),
        (6, -3, "overshoot", True),  # total 3
        (6, -10, "overshoot", True),  # total -4: an overshoot is still a success
        # Totals at every edge.
        (2, -3, "failure", False),  # total -1
        (2, -1, "failure", False),  # total 1
        (3, -2, "failure", False),  # total 1
        (2, 0, "failure", False),  # total 2
        (4, -2, "failure", False),  # total 2
        (3, 0, "minor-success", True),  # total 3: the success threshold
        (2, 1, "minor-success", True),
        (5, -2, "minor-success", True),
        (4, 0, "success", True),
        (2, 2, "success", True),
        (5, 0, "great-success", True),
        (3, 2, "great-success", True),
        (5, 1, "grand-success", True),  # total 6, natural not 6
        (2, 4, "grand-success", True),
        (5, 3, "grand-success", True),  # total 8
    ],
)
def test_band_edges(natural: int, modifier: int, band: str, success: bool) -> None:
    outcome = roll_rtd(ScriptedDice([natural]), [Modifier(modifier, "edge")])
    assert (outcome.band, outcome.success) == (band, success)
    assert rtd_band(natural, natural + modifier) == band
    assert rtd_success(natural, natural + modifier) is success


def test_modifiers_keep_reasons_and_sum() -> None:
    mods = [Modifier(2, "scouts help"), Modifier(-1, "besiegers oppose")]
    outcome = roll_rtd(ScriptedDice([3]), mods)
    assert outcome.total == 4
    assert outcome.modifier == 1
    assert [(m.value, m.reason) for m in outcome.modifiers] == [(2, "scouts help"), (-1, "besiegers oppose")]


def test_band_names_are_exactly_the_rulings() -> None:
    assert BANDS == (
        "critical-failure",
        "failure",
        "minor-success",
        "success",
        "great-success",
        "grand-success",
        "overshoot",
    )


# --- odds ------------------------------------------------------------------------------------


def brute_odds(modifier: int) -> tuple[dict[str, Fraction], Fraction]:
    bands = {b: Fraction(0) for b in BANDS}
    success = Fraction(0)
    for natural in range(1, 7):
        band = expected_band(natural, natural + modifier)
        bands[band] += Fraction(1, 6)
        if expected_success(natural, natural + modifier):
            success += Fraction(1, 6)
    return bands, success


@pytest.mark.parametrize("modifier", range(-8, 9))
def test_odds_sum_to_one_and_match_brute_force(modifier: int) -> None:
    bands, success = rtd_odds([Modifier(modifier, "m")] if modifier else [])
    assert list(bands) == list(BANDS), "all seven bands, zeros included, in order"
    assert sum(bands.values()) == pytest.approx(1.0, abs=1e-5)
    want_bands, want_success = brute_odds(modifier)
    for band in BANDS:
        assert bands[band] == pytest.approx(float(want_bands[band]), abs=1e-6), band
    assert success == pytest.approx(float(want_success), abs=1e-6)
    # Success is exactly the sum of the successful bands.
    ok = sum(bands[b] for b in ("minor-success", "success", "great-success", "grand-success", "overshoot"))
    assert success == pytest.approx(ok, abs=1e-5)


def test_odds_with_several_modifiers_use_their_sum() -> None:
    assert rtd_odds([Modifier(2, "a"), Modifier(-3, "b")]) == rtd_odds([Modifier(-1, "c")])


def test_odds_extremes() -> None:
    bands, success = rtd_odds([Modifier(-20, "hopeless")])
    assert success == pytest.approx(1 / 6, abs=1e-6)  # only the natural 6
    assert bands["failure"] == pytest.approx(4 / 6, abs=1e-6)
    bands, success = rtd_odds([Modifier(20, "certain")])
    assert success == pytest.approx(5 / 6, abs=1e-6)  # the natural 1 still fails
    assert bands["grand-success"] == pytest.approx(4 / 6, abs=1e-6)


# --- CLI, in process -------------------------------------------------------------------------


def run_cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def one_json(out: str) -> dict:
    lines = [line for line in out.splitlines() if line.strip()]
    assert len(lines) == 1, f"stdout must be exactly one JSON object, got {out!r}"
    value = orjson.loads(lines[0])
    assert isinstance(value, dict)
    return value


@pytest.mark.parametrize(("natural", "modifier"), GRID)
def test_cli_json_exact_shape(capsys: pytest.CaptureFixture[str], natural: int, modifier: int) -> None:
    code, out, err = run_cli(capsys, "resolve", "rtd", "--modifier", str(modifier), "--dice", str(natural), "--json")
    assert code == 0, err
    assert err == ""
    total = natural + modifier
    assert one_json(out) == {
        "check": "rtd",
        "natural": natural,
        "modifier": modifier,
        "total": total,
        "band": expected_band(natural, total),
        "success": expected_success(natural, total),
    }


@pytest.mark.parametrize(
    "argv",
    [
        ["--json", "resolve", "rtd", "--dice", "4"],
        ["resolve", "rtd", "--dice", "4", "--json"],
        ["resolve", "--json", "rtd", "--dice", "4"],
        ["resolve", "rtd", "--json", "--dice", "4"],
    ],
)
def test_cli_json_anywhere(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 0, err
    assert one_json(out) == {
        "check": "rtd",
        "natural": 4,
        "modifier": 0,
        "total": 4,
        "band": "success",
        "success": True,
    }


@pytest.mark.parametrize("modifier", [-3, -1, 0, 2, 5])
def test_cli_odds_exact_shape(capsys: pytest.CaptureFixture[str], modifier: int) -> None:
    code, out, err = run_cli(capsys, "resolve", "rtd", "--odds", "--modifier", str(modifier), "--json")
    assert code == 0, err
    payload = one_json(out)
    assert set(payload) == {"check", "odds", "success"}
    assert payload["check"] == "rtd"
    assert list(payload["odds"]) == list(BANDS)
    assert sum(payload["odds"].values()) == pytest.approx(1.0, abs=1e-5)
    want_bands, want_success = brute_odds(modifier)
    for band in BANDS:
        assert payload["odds"][band] == round(float(want_bands[band]), 6)
    assert payload["success"] == round(float(want_success), 6)


def test_cli_seed_replays(capsys: pytest.CaptureFixture[str]) -> None:
    results = set()
    for _ in range(3):
        code, out, _ = run_cli(capsys, "resolve", "rtd", "--seed", "1234", "--json")
        assert code == 0
        results.add(orjson.dumps(one_json(out)))
    assert len(results) == 1
    naturals = set()
    for seed in range(40):
        _, out, _ = run_cli(capsys, "resolve", "rtd", "--seed", str(seed), "--json")
        naturals.add(one_json(out)["natural"])
    assert naturals == {1, 2, 3, 4, 5, 6}


def test_cli_text_output_without_json(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "resolve", "rtd", "--dice", "5", "--modifier", "1")
    assert code == 0, err
    assert "grand-success" in out
    with pytest.raises(orjson.JSONDecodeError):
        orjson.loads(out)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["resolve", "rtd", "--dice", "7", "--json"], "7"),
        (["resolve", "rtd", "--dice", "0", "--json"], "0"),
        (["resolve", "rtd", "--dice", "x", "--json"], "x"),
        (["resolve", "rtd", "--dice", "4,,2"], "empty"),
        (["resolve", "rtd", "--modifier", "abc", "--json"], "modifier"),
        (["resolve", "no-such-check", "--json"], "no-such-check"),
        (["resolve", "rtd", "--bogus", "--json"], "--bogus"),
        (["--json", "resolve"], "rtd"),
    ],
)
def test_cli_errors_go_to_stderr_with_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], needle: str) -> None:
    code, out, err = run_cli(capsys, *argv)
    assert code == 2
    assert out == ""
    assert needle in err


def test_cli_json_error_is_json_on_stderr(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run_cli(capsys, "resolve", "rtd", "--dice", "9", "--json")
    assert (code, out) == (2, "")
    assert "d6" in orjson.loads(err)["error"]


# --- CLI, the installed binary -----------------------------------------------------------------


def yak(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(YAK), *argv], capture_output=True, text=True, timeout=60)


def test_installed_yak_json_both_positions() -> None:
    for argv in (["--json", "resolve", "rtd", "--dice", "4"], ["resolve", "rtd", "--dice", "4", "--json"]):
        done = yak(*argv)
        assert done.returncode == 0, done.stderr
        assert orjson.loads(done.stdout) == {
            "check": "rtd",
            "natural": 4,
            "modifier": 0,
            "total": 4,
            "band": "success",
            "success": True,
        }
        assert done.stdout.count("\n") == 1


def test_installed_yak_odds() -> None:
    done = yak("resolve", "rtd", "--modifier", "-1", "--odds", "--json")
    assert done.returncode == 0, done.stderr
    payload = orjson.loads(done.stdout)
    assert payload["check"] == "rtd"
    assert set(payload["odds"]) == set(BANDS)
    assert payload["success"] == 0.5  # naturals 4 and 5 (totals 3 and 4) and the natural 6


@pytest.mark.parametrize(
    "argv",
    [
        ["resolve", "rtd", "--dice", "7", "--json"],
        ["resolve", "rtd", "--dice", "x"],
        ["resolve", "no-such-check", "--json"],
    ],
)
def test_installed_yak_errors(argv: list[str]) -> None:
    done = yak(*argv)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip()


def test_rtd_odds_are_enumerated_once_per_modifier_total(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30: `yak orders` asked the odds of every waiting roll; the dice read only the total."""
    from yak_tui.kernel.play import rtd

    calls: list[int] = []
    enumerate_ = rtd.exact_odds

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(1)
        return enumerate_(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(rtd, "exact_odds", counted)
    monkeypatch.setattr(rtd, "_ODDS_CACHE", {})
    first = rtd_odds([Modifier(1, "a")])
    for _ in range(20):
        assert rtd_odds([Modifier(2, "b"), Modifier(-1, "c")]) == first
    assert len(calls) == 1
    first[0]["success"] = 0  # a caller's own dict: changing it changes no one else's odds
    assert rtd_odds([Modifier(1, "a")])[0]["success"] != 0
    assert rtd_odds([Modifier(3, "d")]) != first
    assert len(calls) == 2
