"""Commit and reveal (issue 28): derived dice, their commitments and reveals, and the tampering
`yak verify --reveal` and `yak-verify` must catch (a rebuilt chain, a reordered roll, a swapped
secret, a restore and re-roll)."""

from __future__ import annotations

import hashlib
import hmac
import stat
from collections import Counter
from pathlib import Path
from typing import Any

import orjson
import pytest

from yak_tui.cli import main
from yak_tui.cli.fairverify import main as yak_verify
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import DiceError, RecordingDice, ScriptedDice
from yak_tui.kernel.play.dicechain import GENESIS, TABLE, record_hash, verify_data
from yak_tui.kernel.play.fairdice import (
    FairDice,
    commitment,
    context_bytes,
    derive_natural,
    season_commitments,
    verify_posts,
    verify_reveal,
)
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.season.reports import render_report, reports_for
from yak_tui.kernel.season.session import advance_season, close_fair_campaign, open_fair_dice, restore_backup
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.dicesecrets import read_secrets, secrets_path, write_secrets
from yak_tui.store.storage import WorldFile

SECRET = bytes(range(32))


def _context(sides: int, n: int) -> dict[str, Any]:
    return {
        "season": "312-spring",
        "stream": "public",
        "command": "roll",
        "order": "",
        "purpose": "watch the pass",
        "sides": sides,
        "n": n,
    }


# --- the derivation ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("sides", "naturals"),
    [
        (6, [2, 3, 2, 5, 1, 3, 4, 2, 6, 2]),
        (10, [5, 7, 4, 1, 5, 1, 10, 4, 3, 6]),
        (20, [18, 5, 12, 7, 5, 13, 5, 7, 20, 10]),
        (100, [42, 30, 72, 60, 84, 7, 81, 44, 24, 83]),
    ],
)
def test_known_answer_vectors(sides: int, naturals: list[int]) -> None:
    assert [derive_natural(SECRET, _context(sides, n)) for n in range(10)] == naturals


def test_a_private_vector_and_the_scheme_by_hand() -> None:
    """The derivation as docs/fair-dice.md states it, written out with nothing but hmac and hashlib."""
    context = {
        "season": "313-winter",
        "stream": "private",
        "command": "spy-mission",
        "order": "o000004",
        "purpose": "",
        "sides": 6,
        "n": 0,
    }
    assert [derive_natural(b"\xff" * 32, {**context, "n": n}) for n in range(10)] == [6, 3, 1, 6, 6, 4, 6, 1, 2, 1]
    message = (
        b'{"command":"spy-mission","n":0,"order":"o000004","purpose":"","season":"313-winter","sides":6,'
        b'"stream":"private"}'
    )
    assert context_bytes(context) == message
    digest = hmac.new(b"\xff" * 32, message + b"/0", hashlib.sha256).digest()
    assert int.from_bytes(digest[:8], "big") % 6 + 1 == 6


def test_each_context_field_changes_the_die() -> None:
    base = _context(1_000_000, 0)
    first = derive_natural(SECRET, base)
    for key, other in (("season", "312-summer"), ("stream", "private"), ("command", "cast"), ("order", "o1"),
                       ("purpose", "watch"), ("n", 1)):  # fmt: skip
        assert derive_natural(SECRET, {**base, key: other}) != first, key
    assert derive_natural(bytes(32), base) != first


def test_rejection_sampling_rejects_the_biased_tail() -> None:
    """With 2**63 + 1 sides nearly half of all 64-bit draws fall in the biased tail: they are rejected
    and the next attempt decides, never folded back by a modulo."""
    sides = 2**63 + 1
    limit = 2**64 - 2**64 % sides
    retried = 0
    for n in range(64):
        context = _context(sides, n)
        first = int.from_bytes(hmac.new(SECRET, context_bytes(context) + b"/0", hashlib.sha256).digest()[:8], "big")
        value = derive_natural(SECRET, context)
        assert 1 <= value <= sides
        if first >= limit:
            retried += 1
            assert value != first % sides + 1
        else:
            assert value == first % sides + 1
    assert 10 < retried < 54


@pytest.mark.parametrize(("sides", "draws", "critical"), [(6, 6000, 20.515), (10, 10000, 27.877), (20, 20000, 43.820)])
def test_derived_dice_are_uniform(sides: int, draws: int, critical: float) -> None:
    """Chi-square over many derived dice (fixed secret and contexts, so the same every run) stays
    under the 0.1 % critical value of its degrees of freedom."""
    counts = Counter(derive_natural(SECRET, _context(sides, n)) for n in range(draws))
    assert set(counts) == set(range(1, sides + 1))
    expected = draws / sides
    chi_square = sum((counts[face] - expected) ** 2 / expected for face in range(1, sides + 1))
    assert chi_square < critical, (chi_square, counts)


def test_a_roll_recorded_for_fewer_than_everyone_must_be_drawn_privately() -> None:
    recording = RecordingDice(ScriptedDice([3]))
    assert recording.take_draws([3], "private") is None  # dice typed in are not derived: nothing to check

    class Keys:
        def secrets_of(self, season: str) -> dict[str, bytes]:
            return {"public": SECRET, "private": bytes(32)}

    world = World({"meta": {"world": {"date": {"year": 312, "season": "Spring"}}}})
    dice = FairDice(Keys())
    dice.bind(world)
    recording = RecordingDice(dice, "roll")
    value = recording.roll(6, "a public die")
    with pytest.raises(DiceError, match="drawn from the public dice"):
        recording.take_draws([value], "private")


# --- a campaign --------------------------------------------------------------------------------


@pytest.fixture
def save(tmp_path: Path) -> WorldFile:
    made = create_world(tmp_path / "w.json")
    open_fair_dice(made)
    return made


def _roll(save: WorldFile, reason: str, audience: str = "public") -> dict[str, Any]:
    result = run_command(save, GM, "roll", {"reason": reason, "audience": audience})
    return result.rolls[0].to_dict()


def _public_post(save: WorldFile, season: str) -> str:
    world = World(save.read())
    [post] = [r for r in reports_for(world, GM, season) if r["recipient"] == "public"]
    return render_report(post, "markdown")


def _rehash(data: dict[str, Any]) -> None:
    """What a GM with the save in hand can do: recompute every hash, link and the head."""
    previous = GENESIS
    for key in sorted(data[TABLE]):
        record = data[TABLE][key]
        record["prev"] = previous
        record["hash"] = record_hash(record)
        previous = record["hash"]
        for entry in data["chronicle"].values():
            for roll in entry.get("rolls", []):
                if roll.get("link") and roll["purpose"] == record["roll"]["purpose"]:
                    roll.update(record["roll"], link=record["hash"])
    data["meta"]["world"]["dice_head"] = previous


def test_every_real_roll_is_derived_and_checks_once_revealed(save: WorldFile) -> None:
    spring = season_commitments(World(save.read()), "312-spring")
    assert spring is not None and spring["head"] == GENESIS
    public = [_roll(save, f"public {n}") for n in range(5)]
    private = _roll(save, "the GM's own", audience="adjudicators")
    assert {r["source"] for r in [*public, private]} == {"derived"}
    assert [r["draws"][0]["n"] for r in public] == [0, 1, 2, 3, 4]
    assert private["draws"][0]["stream"] == "private"
    # Before the season closes nothing can be re-derived; the secrets are in no file a player reads.
    report = verify_reveal(save.read())
    assert (report.ok, report.checked, report.unrevealed) == (True, 0, 6)
    stored = read_secrets(save.path)["312-spring"]
    assert commitment(bytes.fromhex(stored["public"])) == spring["public"]
    assert stored["public"].encode() not in save.path.read_bytes()
    assert stat.S_IMODE(secrets_path(save.path).stat().st_mode) == 0o600
    advance_season(save, GM)
    world = World(save.read())
    assert world.meta["fair_dice"]["312-spring"]["revealed_public"] == stored["public"]
    assert "revealed_private" not in world.meta["fair_dice"]["312-spring"]
    summer = season_commitments(world, "312-summer")
    assert summer is not None and summer["head"] == world.meta["dice_head"]
    report = verify_reveal(save.read())
    assert (report.ok, report.checked, report.unrevealed, report.seasons) == (True, 5, 1, ["312-spring"])
    # The GM closes the campaign: the blind roll checks too.
    assert close_fair_campaign(save, GM) == 2
    report = verify_reveal(save.read())
    assert (report.ok, report.checked, report.unrevealed) == (True, 6, 0)


def test_dice_typed_by_hand_are_marked_and_not_derived(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--save", str(save.path), "do", "roll", "reason=at the table", "--dice", "5"]) == 0
    capsys.readouterr()
    advance_season(save, GM)
    report = verify_reveal(save.read())
    assert (report.ok, report.checked, report.by_hand) == (True, 0, 1)
    assert "(0 derived from the committed secret, 1 by hand)" in _public_post(save, "312-spring")


def test_a_rebuilt_chain_is_caught(save: WorldFile) -> None:
    for n in range(3):
        _roll(save, f"roll {n}")
    advance_season(save, GM)
    data = save.read()
    record = data[TABLE]["r000002"]
    record["roll"]["naturals"] = [record["roll"]["naturals"][0] % 6 + 1]  # a die the GM liked better
    _rehash(data)
    assert verify_data(data).ok  # the chain alone holds: it was rebuilt
    report = verify_reveal(data)
    assert not report.ok
    assert any("r000002" in line and "the secret gives" in line for line in report.failures)
    # Dropping a roll and rebuilding the chain moves the head the next season opened on.
    data = save.read()
    del data[TABLE]["r000003"]
    data["meta"]["world"]["dice_count"] = 2
    _rehash(data)
    assert any("a rebuilt chain" in line for line in verify_reveal(data).failures)


def test_a_reordered_roll_is_caught(save: WorldFile) -> None:
    for n in range(3):
        _roll(save, f"roll {n}")
    advance_season(save, GM)
    data = save.read()
    first, second = data[TABLE]["r000001"], data[TABLE]["r000002"]
    first["roll"], second["roll"] = second["roll"], first["roll"]
    first["entry"], second["entry"] = second["entry"], first["entry"]
    _rehash(data)
    report = verify_reveal(data)
    assert any("out of order (a reordered roll)" in line for line in report.failures)


def test_a_swapped_secret_is_caught(save: WorldFile) -> None:
    _roll(save, "before the swap")
    stored = read_secrets(save.path)
    stored["312-spring"]["public"] = "ab" * 32  # the GM replaces the committed secret mid-season
    write_secrets(save.path, stored)
    _roll(save, "after the swap")
    advance_season(save, GM)
    report = verify_reveal(save.read())
    assert any("does not hash to its commitment" in line for line in report.failures)
    # And a revealed secret edited in the save after the fact.
    data = save.read()
    data["meta"]["world"]["fair_dice"]["312-spring"]["revealed_public"] = "cd" * 32
    assert any("(a swapped secret)" in line for line in verify_reveal(data).failures)


def _restore_and_reroll(save: WorldFile) -> None:
    """A Spring roll, close; two Summer rolls, close; then the GM restores the backup taken as Spring
    closed (Summer's rolls are abandoned) and plays Summer again."""
    _roll(save, "spring harvest")
    advance_season(save, GM)
    _roll(save, "summer raid")
    _roll(save, "summer storm")
    advance_season(save, GM)
    spring_backup = next(p for p in save.backups() if "312-spring" in p.name)
    restore_backup(save, spring_backup.name, GM)
    advance_season(save, GM)
    _roll(save, "summer raid, again")
    advance_season(save, GM)


def test_a_restore_and_reroll_is_caught_by_verify(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    _restore_and_reroll(save)
    world = World(save.read())
    restore = [e for _, e in sorted(world.all("chronicle")) if e["kind"] == "restore"]
    assert len(restore) == 1 and restore[0]["audience"] == "public"
    assert "2 rolls abandoned" in restore[0]["text"]
    records = [r for r in world.data[TABLE].values() if "restore" in r]
    assert [r["restore"]["rolls"] for r in records] == [2]
    assert [a["roll"]["purpose"] for a in records[0]["restore"]["abandoned"] if "roll" in a] == [
        "summer raid",
        "summer storm",
    ]
    # The re-played Summer kept the secrets its commitment named (the secrets file only grows).
    assert world.meta["fair_dice"]["312-summer"]["public"] == commitment(
        bytes.fromhex(read_secrets(save.path)["312-summer"]["public"])
    )
    assert main(["--save", str(save.path), "verify"]) == 0  # the ledger holds: a restore is no broken link
    plain = capsys.readouterr().out
    assert "restore r" in plain and "2 rolls abandoned (a re-rolled season)" in plain
    assert main(["--save", str(save.path), "--json", "verify", "--reveal"]) == 1
    payload = orjson.loads(capsys.readouterr().out)
    assert payload["ok"] is True and payload["fair"]["ok"] is False
    assert len(payload["fair"]["rerolls"]) == 1 and payload["fair"]["failures"] == []
    assert (
        payload["fair"]["checked"] == 2
    )  # Spring's roll and Summer's re-roll; the abandoned two are checked, not counted


def test_a_player_with_two_posts_rederives_every_public_roll_and_finds_the_reroll(
    save: WorldFile, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _restore_and_reroll(save)
    posts = []
    for season in ("Spring 312", "Summer 312"):
        path = tmp_path / f"{season.replace(' ', '-')}.md"
        path.write_text(_public_post(save, season), encoding="utf-8")
        posts.append(path)
    spring_post = posts[0].read_text(encoding="utf-8")
    assert "## Fair dice" in spring_post and '"kind":"reveal"' in spring_post
    # The restore put the world back in Spring: Spring's post (written again as it closed again) names it.
    assert "RE-ROLLED: 1 restore abandoned 2 rolls" in spring_post
    # Spring's post alone: every public roll of Spring re-derives, and the re-roll is found.
    assert yak_verify([str(posts[0])]) == 1
    out = capsys.readouterr().out
    assert "fair dice: 1 derived rolls re-derived and matching (seasons revealed: 312-spring)" in out
    assert "RE-ROLLED" in out and "2 rolls abandoned" in out
    # Both posts: Summer's roll re-derives too, from the secret Summer's post reveals.
    assert yak_verify([str(p) for p in posts]) == 1
    out = capsys.readouterr().out
    assert "2 derived rolls re-derived" in out and "312-spring, 312-summer" in out
    # A die edited in a post is caught by its record's hash and by its derivation.
    edited = spring_post.replace('"naturals":[', '"naturals":[9,', 1)
    report = verify_posts([edited])
    assert any("do not match its hash" in line for line in report.failures)
    assert any("2 dice but 1 derivations" in line for line in report.failures)
    # A post that commits a season to other secrets than an earlier one did is caught.
    other = spring_post.replace('"kind":"commit","private":"', '"kind":"commit","private":"00', 1)
    assert any("two posts commit" in line for line in verify_posts([spring_post, other]).failures)


def test_yak_verify_refuses_files_with_no_fair_dice(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "post.md"
    path.write_text("# a post\n- nothing here\n", encoding="utf-8")
    assert yak_verify([str(path)]) == 2
    assert "no `fair-dice` lines" in capsys.readouterr().err


def test_rolls_from_before_the_campaign_had_fair_dice_are_counted_apart(tmp_path: Path) -> None:
    """A save from before fair dice: its old seeded rolls are not failures; the first derived roll
    commits its season, which then checks."""
    from yak_tui.kernel.play.dice import SeededDice

    old = create_world(tmp_path / "old.json")
    run_command(old, GM, "roll", {"reason": "an old roll"}, SeededDice(5))
    advance_season(old, GM, SeededDice(5))
    assert "fair_dice" not in World(old.read()).meta
    _roll(old, "the first derived roll")
    advance_season(old, GM)
    report = verify_reveal(old.read())
    assert (report.ok, report.before, report.checked, report.seasons) == (True, 1, 1, ["312-summer"])
