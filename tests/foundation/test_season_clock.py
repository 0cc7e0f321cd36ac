"""The season clock (issue 28): deadlines given in any zone, kept in UTC, read by each seat in his own
zone; orders keep the moment they were filed and a late one is flagged; the GM extends, pauses and
resumes; seats that send nothing are counted and the campaign's NMR policy applies. Every moment
comes from one frozen clock (`kernel.season.clock`), never the machine's."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import asyncssh
import orjson
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from yak_tui.cli import main
from yak_tui.kernel.errors import CommandError
from yak_tui.kernel.play.commands import apply_command, run_command
from yak_tui.kernel.play.dice import SeededDice
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.season import clock
from yak_tui.kernel.season.readiness import season_status
from yak_tui.kernel.season.reports import render_report, reports_for
from yak_tui.kernel.season.session import advance_season, due_for
from yak_tui.kernel.world.demo import build_world, create_world
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import set_override_dir
from yak_tui.serve.execs import list_orders
from yak_tui.store.storage import WorldFile

NOW = "2026-12-01T12:00Z"
CORVIN = Identity.parse("player:corvin")
LYSA = Identity.parse("player:lysa")


def _user(save: WorldFile, name: str, identity: str) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode()
    run_command(save, GM, "user-add", {"name": name, "identity": identity, "key": key})


def yak(capsys: pytest.CaptureFixture[str], save: WorldFile, *argv: str, who: str = "gm") -> tuple[int, Any]:
    code = main(["--save", str(save.path), "--as", who, "--json", *argv])
    captured = capsys.readouterr()
    return code, orjson.loads(captured.out or captured.err)


@pytest.fixture
def zoned(tmp_path: Path) -> Iterator[tuple[WorldFile, Callable[[timedelta], None]]]:
    """The demo world with Corvin's player in New York and Lysa's in Tokyo; the clock frozen at NOW."""
    save = create_world(tmp_path / "world.json")
    _user(save, "corvin", "player:corvin")
    _user(save, "lysa", "player:lysa")
    run_command(save, CORVIN, "user-zone", {"zone": "America/New_York"})
    run_command(save, LYSA, "user-zone", {"zone": "Asia/Tokyo"})
    with clock.frozen_clock(NOW) as move:
        yield save, move


# -- moments -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "utc"),
    [
        ("2026-12-07 20:00 Europe/Berlin", "2026-12-07T19:00Z"),  # CET, +1
        ("2026-07-07 20:00 Europe/Berlin", "2026-07-07T18:00Z"),  # CEST, +2
        ("2026-12-07T20:00Z", "2026-12-07T20:00Z"),
        ("2026-12-07 20:00+09:00", "2026-12-07T11:00Z"),
        ("2026-12-07  20:00", "2026-12-07T20:00Z"),  # no zone: read in the default, UTC
        ("2026-12-07", "2026-12-07T00:00Z"),
        ("2026-11-01 01:30 America/New_York", "2026-11-01T05:30Z"),  # passed twice: the first (EDT)
    ],
)
def test_a_moment_is_read_in_its_zone_and_kept_in_utc(text: str, utc: str) -> None:
    assert clock.stored(clock.parse_moment(text)) == utc


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("2027-03-14 02:30 America/New_York", "does not exist in America/New_York"),  # spring forward
        ("2026-12-07 20:00 Mars/Olympus", "is no time zone"),
        ("2026-12-07T20:00Z Europe/Berlin", "both an offset and a zone"),
        ("next tuesday", "must be a date and time"),
    ],
)
def test_a_moment_that_cannot_be_meant_is_refused(text: str, words: str) -> None:
    with pytest.raises(CommandError, match=words):
        clock.parse_moment(text)


def test_a_moment_reads_in_the_readers_zone_across_daylight_saving() -> None:
    new_york = clock.zone("America/New_York")
    assert (
        clock.shown_in(clock.parse_moment("2027-03-13T19:00Z"), new_york) == "2027-03-13 14:00 EST (America/New_York)"
    )
    assert (
        clock.shown_in(clock.parse_moment("2027-03-15T19:00Z"), new_york) == "2027-03-15 15:00 EDT (America/New_York)"
    )
    assert clock.shown_in(clock.parse_moment("2027-03-15T19:00Z"), None) == "2027-03-15 19:00 UTC"


def test_how_far_off_a_moment_is() -> None:
    at = clock.parse_moment(NOW)
    assert clock.relative(at + timedelta(days=2, hours=3, minutes=5), at) == "in 2 days 3 h"
    assert clock.relative(at - timedelta(hours=5), at) == "passed 5 h ago"
    assert clock.relative(at + timedelta(minutes=12), at) == "in 12 min"
    assert clock.relative(at - timedelta(days=1), at) == "passed 1 day ago"
    assert clock.parse_duration("1d12h") == timedelta(hours=36)
    for bad in ("24", "0h", "soon", "-1h"):
        with pytest.raises(CommandError):
            clock.parse_duration(bad)


# -- the scripted season: New York and Tokyo -----------------------------------------------------


def test_two_players_in_two_zones_read_one_deadline_and_a_late_order_is_flagged(
    zoned: tuple[WorldFile, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    save, move = zoned
    assert yak(capsys, save, "season", "deadline", "2026-12-07 20:00 Europe/Berlin")[0] == 0
    assert World(save.read()).meta["deadline"] == "2026-12-07T19:00Z"
    _, corvin = yak(capsys, save, "season", "status", who="player:corvin")
    _, lysa = yak(capsys, save, "season", "status", who="player:lysa")
    assert corvin["deadline_shown"] == "2026-12-07 14:00 EST (America/New_York), in 6 days 7 h"
    assert lysa["deadline_shown"] == "2026-12-08 04:00 JST (Asia/Tokyo), in 6 days 7 h"
    # `yak due` too, in each reader's zone; the GM (no zone set) reads UTC.
    world = World(save.read())
    due = {who: next(i["text"] for i in due_for(world, who) if i["kind"] == "deadline") for who in (CORVIN, LYSA, GM)}
    assert due[CORVIN].startswith("Orders due by 2026-12-07 14:00 EST (America/New_York), in 6 days 7 h;")
    assert due[LYSA].startswith("Orders due by 2026-12-08 04:00 JST (Asia/Tokyo)")
    assert due[GM].startswith("Orders due by 2026-12-07 19:00 UTC")

    # Corvin files in time; Lysa two hours after the deadline.
    on_time = run_command(save, CORVIN, "order-file", {"command": "roll", "params": "reason=scout"})
    assert "late" not in on_time.data and on_time.data["warnings"] == []
    move(timedelta(days=6, hours=9))
    late = run_command(save, LYSA, "order-file", {"command": "roll", "params": "reason=pray"})
    assert late.data["late"] is True and "filed after the deadline" in late.data["warnings"][0]
    orders = World(save.read()).table("orders")
    assert orders[on_time.data["order"]]["filed_at"] == NOW
    assert orders[late.data["order"]]["filed_at"] == "2026-12-07T21:00Z" and orders[late.data["order"]]["late"]
    assert "late" not in orders[on_time.data["order"]]
    _, lysa = yak(capsys, save, "season", "status", who="player:lysa")
    assert lysa["deadline_shown"] == "2026-12-08 04:00 JST (Asia/Tokyo), passed 2 h ago"
    # Over SSH the same: the deadline in his zone, his order marked late.
    code, text = list_orders(save.path, LYSA)
    assert code == 0 and "Orders for Spring 312 due by 2026-12-08 04:00 JST (Asia/Tokyo), passed 2 h ago" in text
    assert "(filed after the deadline)" in text

    # Only the GM decides on late orders, all at once.
    before = save.path.read_bytes()
    with pytest.raises(CommandError, match="only the GM"):
        run_command(save, Identity.parse("king:elbreth"), "order-late", {"decision": "reject"})
    assert save.path.read_bytes() == before
    result = run_command(save, GM, "order-late", {"decision": "reject"})
    assert result.data["orders"] == [late.data["order"]]
    rejected = World(save.read()).get("orders", late.data["order"])
    assert rejected["status"] == "rejected" and rejected["reason"] == "filed after the deadline"
    with pytest.raises(CommandError, match="no order filed after the deadline"):
        run_command(save, GM, "order-late", {"decision": "accept"})


def test_a_deadline_already_past_is_refused_unless_forced(zoned: tuple[WorldFile, Any]) -> None:
    save, _ = zoned
    before = save.path.read_bytes()
    with pytest.raises(CommandError, match=r"has already passed .*force"):
        run_command(save, GM, "season-deadline", {"at": "2026-11-30 20:00 Europe/Berlin"})
    assert save.path.read_bytes() == before
    run_command(save, GM, "season-deadline", {"at": "2026-11-30 20:00 Europe/Berlin", "force": True})
    assert World(save.read()).meta["deadline"] == "2026-11-30T19:00Z"


def test_a_seat_sets_only_his_own_zone(zoned: tuple[WorldFile, Any]) -> None:
    save, _ = zoned
    before = save.path.read_bytes()
    for who, params, words in (
        (CORVIN, {"zone": "Asia/Tokyo", "name": "lysa"}, "no user named 'lysa' you may set"),
        (CORVIN, {"zone": "Moon/Base"}, "is no time zone"),
        (GM, {"zone": "UTC"}, "name the login"),
        (Identity.parse("king:varos"), {"zone": "UTC"}, "has no login on the roster"),
    ):
        with pytest.raises(CommandError, match=words):
            run_command(save, who, "user-zone", params)
    assert save.path.read_bytes() == before
    run_command(save, GM, "user-zone", {"zone": "Europe/Berlin", "name": "lysa"})
    assert World(save.read()).get("users", "lysa")["zone"] == "Europe/Berlin"


def test_extend_pause_and_resume_are_told_in_public(zoned: tuple[WorldFile, Any]) -> None:
    save, move = zoned
    run_command(save, GM, "season-deadline", {"at": "2026-12-03T12:00Z"})
    run_command(save, GM, "season-extend", {"by": "24h", "reason": "the holidays"})
    assert World(save.read()).meta["deadline"] == "2026-12-04T12:00Z"
    run_command(save, GM, "season-pause", {"reason": "the GM is ill"})
    move(timedelta(days=5))  # the deadline would have passed: paused, nothing filed is late
    filed = run_command(save, CORVIN, "order-file", {"command": "roll", "params": "reason=x"})
    assert "late" not in filed.data
    status = season_status(World(save.read()), CORVIN)
    assert status["paused"] and status["deadline_shown"].endswith("paused, 3 days left")
    run_command(save, GM, "season-resume", {})
    assert World(save.read()).meta["deadline"] == "2026-12-09T12:00Z"  # moved on by the five days paused
    texts = [e["text"] for _, e in sorted(World(save.read()).all("chronicle")) if e["kind"] == "deadline"]
    assert texts[-3:] == [
        "The orders deadline for Spring 312 is extended by 1 day to 2026-12-04 12:00 UTC: the holidays",
        "The season Spring 312 is paused: the GM is ill",
        "The season Spring 312 resumes; orders are now due by 2026-12-09 12:00 UTC.",
    ]
    public = [e for _, e in World(save.read()).all("chronicle") if e["kind"] in ("season", "deadline")]
    assert all(e["audience"] == "public" for e in public)
    # The season post every seat reads tells them.
    advance_season(save, GM, SeededDice(5))
    post = render_report(reports_for(World(save.read()), Identity.parse("observer"))[0], "markdown")
    for said in texts[-3:]:
        assert said in post


# -- no moves received ---------------------------------------------------------------------------


def _house(tmp_path: Path, nmr: str) -> Iterator[None]:
    rules = tmp_path / "house"
    rules.mkdir()
    (rules / "core.toml").write_text(f"[nmr]\n{nmr}\n")
    set_override_dir(str(rules))
    try:
        yield
    finally:
        set_override_dir(None)


def _season_with_deadline(save: WorldFile, *filers: Identity, standing: bool = False) -> None:
    run_command(save, GM, "season-deadline", {"at": "2026-12-07T20:00Z"})
    for who in filers:
        params = "reason=watch" if who.is_player else "reason=watch;kingdom=" + who.subject
        run_command(save, who, "order-file", {"command": "roll", "params": params, "standing": standing})
    advance_season(save, GM, SeededDice(7))


def test_missed_seasons_are_counted_and_shown(zoned: tuple[WorldFile, Any], capsys: pytest.CaptureFixture[str]) -> None:
    save, _ = zoned
    varos = Identity.parse("king:varos")
    _season_with_deadline(save, CORVIN, LYSA, Identity.parse("king:elbreth"))
    _season_with_deadline(save, CORVIN, LYSA)
    missed = World(save.read()).meta["missed"]
    assert missed == {"king:varos": 2, "king:elbreth": 1}
    _, status = yak(capsys, save, "season", "status")
    rows = {row["identity"]: row["missed"] for row in status["seats"]}
    assert rows["king:varos"] == 2 and rows["player:corvin"] == 0 and status["nmr_policy"] == "hold"
    _season_with_deadline(save, varos)
    assert "king:varos" not in World(save.read()).meta["missed"]  # he filed again: the count starts over


def test_standing_orders_are_filed_again_for_a_silent_seat(zoned: tuple[WorldFile, Any], tmp_path: Path) -> None:
    save, _ = zoned
    for _ in _house(tmp_path, 'policy = "standing"'):
        _season_with_deadline(save, CORVIN, standing=True)
        _season_with_deadline(save)  # Corvin sends nothing: his standing order is filed again for him
        world = World(save.read())
        repeats = [o for _, o in world.all("orders") if o.get("standing_of")]
        assert len(repeats) == 1 and repeats[0]["status"] == "waiting" and repeats[0]["filed_by"] == "player:corvin"
        assert repeats[0]["filed"] == world.meta["date"]


def test_civil_disorder_is_told_to_the_gm(zoned: tuple[WorldFile, Any], tmp_path: Path) -> None:
    save, _ = zoned
    for _ in _house(tmp_path, 'policy = "civil-disorder"\ncivil_disorder_after = 1'):
        _season_with_deadline(save, CORVIN, LYSA, Identity.parse("king:elbreth"))
    lines = [e for _, e in World(save.read()).all("chronicle") if e["kind"] == "nmr"]
    assert [e["audience"] for e in lines] == ["adjudicators"]
    assert "civil disorder" in lines[0]["text"] and "Varos" in lines[0]["text"]


def test_a_campaign_without_deadlines_counts_nothing(zoned: tuple[WorldFile, Any]) -> None:
    save, _ = zoned
    advance_season(save, GM, SeededDice(1))
    assert "missed" not in World(save.read()).meta


# -- the clock as a state machine ----------------------------------------------------------------


class SeasonClock(RuleBasedStateMachine):
    """Deadline, extend, pause, resume, time passing, filing and advancing in any order: the save's
    deadline is always the model's, an order is late exactly when the model says, a refused command
    changes nothing."""

    def __init__(self) -> None:
        super().__init__()
        self.world = World(build_world())
        self.now = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
        self.previous = clock.set_clock(lambda: self.now)
        self.deadline: datetime | None = None
        self.paused: datetime | None = None

    def teardown(self) -> None:
        clock.set_clock(self.previous)

    def _gm(self, name: str, params: dict[str, Any]) -> bool:
        trial = self.world.trial()
        try:
            apply_command(trial, GM, name, params, SeededDice(3))
        except CommandError:
            return False
        self.world = trial
        return True

    @rule(hours=st.integers(1, 300))
    def set_deadline(self, hours: int) -> None:
        at = self.now + timedelta(hours=hours)
        assert self._gm("season-deadline", {"at": clock.stored(at)})
        self.deadline, self.paused = at, None

    @rule(hours=st.integers(1, 100))
    def extend(self, hours: int) -> None:
        done = self._gm("season-extend", {"by": f"{hours}h", "reason": "why not"})
        assert done == (self.deadline is not None)
        if self.deadline is not None:
            self.deadline += timedelta(hours=hours)

    @rule()
    def pause(self) -> None:
        done = self._gm("season-pause", {})
        assert done == (self.deadline is not None and self.paused is None)
        if done:
            self.paused = self.now

    @rule()
    def resume(self) -> None:
        done = self._gm("season-resume", {})
        assert done == (self.paused is not None)
        if done and self.deadline is not None and self.paused is not None:
            self.deadline += self.now - self.paused
            self.paused = None

    @rule(minutes=st.integers(1, 5000))
    def time_passes(self, minutes: int) -> None:
        self.now += timedelta(minutes=minutes)

    @rule()
    def file(self) -> None:
        result = apply_command(self.world, CORVIN, "order-file", {"command": "roll", "params": "reason=x"})
        late = self.deadline is not None and self.paused is None and self.now > self.deadline
        assert bool(result.data.get("late")) == late
        assert self.world.get("orders", result.data["order"])["filed_at"] == clock.stored(self.now)

    @precondition(lambda self: len(self.world.table("orders")) < 6)
    @rule()
    def advance(self) -> None:
        assert self._gm("advance", {})
        self.deadline = self.paused = None

    @invariant()
    def the_save_keeps_the_models_clock(self) -> None:
        meta = self.world.meta
        assert meta.get("deadline") == (clock.stored(self.deadline) if self.deadline else None)
        assert meta.get("deadline_paused") == (clock.stored(self.paused) if self.paused else None)


SeasonClock.TestCase.settings = settings(
    max_examples=25, stateful_step_count=20, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
test_the_season_clock_as_a_state_machine = SeasonClock.TestCase


# -- death and succession ------------------------------------------------------------------------


def test_a_dead_players_seat_follows_his_heir_and_keeps_its_tenure(zoned: tuple[WorldFile, Any]) -> None:
    save, _ = zoned
    run_command(save, GM, "season-deadline", {"at": "2026-12-07T20:00Z"})
    run_command(save, CORVIN, "order-file", {"command": "roll", "params": "reason=x"})
    before = save.path.read_bytes()
    with pytest.raises(CommandError, match="only the GM"):
        run_command(save, LYSA, "gm-death", {"character": "corvin", "heir": "edmund"})
    with pytest.raises(CommandError, match="cannot succeed"):
        run_command(save, GM, "gm-death", {"character": "corvin", "heir": "corvin"})
    assert save.path.read_bytes() == before
    result = run_command(save, GM, "gm-death", {"character": "corvin", "heir": "edmund", "cause": "a fall at the hunt"})
    world = World(save.read())
    assert not world.get("characters", "corvin")["alive"]
    public = [e["text"] for e in result.entries if e["audience"] == "public"]
    assert public[0] == "Corvin Hale has died: a fall at the hunt."
    assert any(e["kind"] == "estate" for e in result.entries)  # the estate follows gm-estate
    login = world.get("users", "corvin")
    assert login["identity"] == "player:edmund" and login["zone"] == "America/New_York"
    season = dict(world.meta["date"])
    assert login["tenure"] == [{"identity": "player:corvin", "since": season, "until": season}]
    status = season_status(world)
    assert "player:corvin" not in {row["identity"] for row in status["seats"]}  # never a seat with "no orders"
    assert "player:edmund" in {row["identity"] for row in status["seats"]}
    with pytest.raises(CommandError, match="already dead"):
        run_command(save, GM, "gm-death", {"character": "corvin", "heir": "edmund"})
    advance_season(save, GM, SeededDice(5))  # the public post tells the death in words
    post = render_report(reports_for(World(save.read()), Identity.parse("observer"))[0], "markdown")
    assert "Corvin Hale has died: a fall at the hunt." in post


def test_a_dead_rulers_kingdom_passes_to_his_heir_or_a_regent(zoned: tuple[WorldFile, Any]) -> None:
    save, _ = zoned
    before = save.path.read_bytes()
    with pytest.raises(CommandError, match="name his heir, or a regent"):
        run_command(save, GM, "gm-death", {"character": "aldric"})
    with pytest.raises(CommandError, match="name a regent only when there is no heir"):
        run_command(save, GM, "gm-death", {"character": "aldric", "heir": "edmund", "regent": "rowena"})
    assert save.path.read_bytes() == before
    result = run_command(save, GM, "gm-death", {"character": "aldric", "regent": "rowena"})
    world = World(save.read())
    elbreth = world.get("kingdoms", "elbreth")
    assert elbreth["ruler"] == "rowena" and elbreth["regent"] == "aldric"
    first = result.entries[0]
    assert first["audience"] == "public" and first["kind"] == "death"
    assert first["text"].endswith("holds Kingdom of Elbreth as regent.")
    assert world.get("characters", "aldric")["estate"]["to"] == "kingdoms:elbreth"  # escheats to the crown
