"""The command layer: validation, one transaction, seasons and year start, undo, authority,
audience, and orders (issue 2, RULINGS §1)."""

from __future__ import annotations

import copy
import math
import tomllib
from pathlib import Path
from typing import Any

import orjson
import pytest
from yak_plugin import Table

from yak_tui.areas.court import commands as core_commands
from yak_tui.cli import main
from yak_tui.kernel.play import commands as commands_module
from yak_tui.kernel.play.audience import filter_document, visible_entries, visible_table
from yak_tui.kernel.play.authority import Stakes, adjudicator_for, may_adjudicate, who_may
from yak_tui.kernel.play.chronicle import append_entry, export_entries
from yak_tui.kernel.play.commands import SEATS, CommandContext, CommandError, CommandSpec, Param, run_command
from yak_tui.kernel.play.dice import Modifier, RollRecord, ScriptedDice, SeededDice
from yak_tui.kernel.play.identity import GM, Identity, who_may_words
from yak_tui.kernel.play.orders import orders_of, queue_for
from yak_tui.kernel.season import seasons
from yak_tui.kernel.season.session import advance_season
from yak_tui.kernel.world.demo import DEMO_FILE, build_world
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import table
from yak_tui.store.storage import WorldFile

KING_E = Identity("king", "elbreth")
KING_V = Identity("king", "varos")
KING_K = Identity("king", "kesh")  # Kesh is an NPC kingdom
NYX = Identity("player", "nyx")  # an Agent of Elbreth
LYSA = Identity("player", "lysa")  # a merchant of Varos


def read(save: WorldFile) -> World:
    return World(save.read())


def entries(world: World) -> list[dict[str, Any]]:
    return [e for _, e in sorted(world.all("chronicle"), key=lambda item: item[1]["seq"])]


def cli(capsys: pytest.CaptureFixture[str], save: WorldFile, *argv: str) -> tuple[int, Any, str]:
    code = main(["--save", str(save.path), "--json", *argv])
    out, err = capsys.readouterr()
    return code, (orjson.loads(out) if out.strip() else None), err


# --- note ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("identity", "audience", "stored"),
    [
        (GM, None, "public"),
        (GM, "public", "public"),
        (GM, "adjudicators", "adjudicators"),
        (GM, "kingdom:varos", "kingdom:varos"),
        (GM, "kingdom:Kingdom of Varos", "kingdom:varos"),  # names work as well as ids
        (GM, "character:nyx", "character:nyx"),
        (KING_E, None, "public"),
        (KING_E, "kingdom:elbreth", "kingdom:elbreth"),
        (KING_E, "adjudicators", "adjudicators"),
        (KING_E, "character:aldric", "character:aldric"),
    ],
)
def test_note_with_audiences(save: WorldFile, identity: Identity, audience: str | None, stored: str) -> None:
    params = {"text": "  The harvest was good.  "}
    if audience is not None:
        params["audience"] = audience
    result = run_command(save, identity, "note", params)
    world = read(save)
    (entry,) = entries(world)
    assert result.data == {"entry": entry["id"], "audience": stored}
    assert entry["text"] == "The harvest was good."
    assert entry["audience"] == stored
    assert entry["kind"] == "note"
    assert entry["actor"] == str(identity)
    assert entry["date"] == {"year": 312, "season": "Spring"}
    assert [e["id"] for e in result.entries] == [entry["id"]]


def test_notes_keep_their_order(save: WorldFile) -> None:
    for i in range(5):
        run_command(save, GM, "note", {"text": f"note {i}"})
    got = entries(read(save))
    assert [e["text"] for e in got] == [f"note {i}" for i in range(5)]
    assert [e["seq"] for e in got] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize(
    ("identity", "params", "field"),
    [
        (NYX, {"text": "I am king now"}, "identity"),
        (GM, {"text": "   "}, "text"),
        (GM, {}, "text"),
        (GM, {"text": "x", "audience": "everyone"}, "audience"),
        (GM, {"text": "x", "audience": "kingdom:atlantis"}, "audience"),
        (GM, {"text": "x", "audience": "character:"}, "audience"),
        (KING_E, {"text": "x", "audience": "kingdom:varos"}, "audience"),
        (GM, {"text": "x", "colour": "red"}, "colour"),
    ],
)
def test_note_refusals_name_the_field(save: WorldFile, identity: Identity, params: dict[str, Any], field: str) -> None:
    error = Table(save).refused(identity, "note", params, field=field)
    if identity.is_player:
        assert error.who_may == ("gm",)


def test_unknown_command_suggests(save: WorldFile) -> None:
    error = Table(save).refused(GM, "note-x", field="command")
    assert "note" in error.reason
    error = Table(save).refused(GM, "zzzzzz", field="command")
    assert "yak do --list" in error.reason  # points to the list, never 80 names in one line (issue 29)


@pytest.mark.parametrize(
    ("name", "params", "field"),
    [
        ("roll", {"reason": "x", "modifier": "abc"}, "modifier"),
        ("roll", {"reason": "x", "modifier": "1.5"}, "modifier"),
        ("roll", {"reason": "x", "kingdom": "atlantis"}, "kingdom"),
        ("roll", {"reason": "   "}, "reason"),
        ("roll", {"modifier": "1"}, "reason"),
        ("roll", {"reason": "x", "bonus": "1"}, "bonus"),
        ("schedule", {"text": "x", "due": "sometime"}, "due"),
        ("schedule", {"text": "x", "due": "Monsoon 313"}, "due"),
        ("schedule", {"text": "x"}, "due"),
        ("order-reject", {"order": "o-9999", "reason": "no"}, "order"),
        ("order-file", {"command": "roll", "private": "maybe"}, "private"),
    ],
)
def test_bad_params_name_the_field_and_change_nothing(
    save: WorldFile, name: str, params: dict[str, Any], field: str
) -> None:
    Table(save).refused(GM, name, params, field=field, dice=[4])


def test_failed_command_after_partial_changes_writes_nothing(save: WorldFile, monkeypatch: pytest.MonkeyPatch) -> None:
    """A handler that changes money and the chronicle and then fails leaves the file as it was."""

    def half_done(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
        ctx.move_ducats(("kingdoms", "elbreth"), ("kingdoms", "varos"), 5, "tribute")
        ctx.log("something happened")
        raise CommandError("late", "failed after changing things")

    monkeypatch.setitem(commands_module.COMMANDS, "test-half", CommandSpec("test-half", "", {}, half_done))
    Table(save).refused(GM, "test-half", field="late")


def test_failed_validation_on_the_way_in(save: WorldFile, monkeypatch: pytest.MonkeyPatch) -> None:
    def corrupt(ctx: CommandContext, p: dict[str, Any]) -> None:
        ctx.world.edit("kingdoms", "elbreth")["manpower"] = "lots"

    monkeypatch.setitem(commands_module.COMMANDS, "test-corrupt", CommandSpec("test-corrupt", "", {}, corrupt))
    error = Table(save).refused(GM, "test-corrupt", field="kingdoms.elbreth.manpower")
    assert "whole number" in error.reason


def test_cli_refusal_is_stderr_exit_2_and_file_unchanged(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    before = save.path.read_bytes()
    for argv in (
        ["do", "note"],
        ["do", "note", "text=hi", "audience=nowhere"],
        ["--as", "player:nyx", "do", "note", "text=hi"],
        ["--as", "king:atlantis", "do", "note", "text=hi"],
        ["do", "roll", "reason=x", "modifier=z"],
        ["do", "note", "text"],
        ["do", "nope"],
    ):
        code, out, err = cli(capsys, save, *argv)
        assert code == 2, argv
        assert out is None, argv
        assert orjson.loads(err)["error"], argv
        assert save.path.read_bytes() == before
    code, out, err = cli(capsys, save, "do", "roll", "reason=x", "modifier=z")
    assert orjson.loads(err)["field"] == "modifier"


def test_cli_note_writes_once_and_reports(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(
        capsys, save, "do", "note", "text=Rain in Highmoor", "--as", "king:elbreth", "audience=kingdom:elbreth"
    )
    assert code == 0, err
    assert out == {
        "command": "note",
        "ok": True,
        "entry": "e000001",
        "audience": "kingdom:elbreth",
        "entries": ["e000001"],
    }


# --- seasons and the year-start pipeline ------------------------------------------------------


def demo_data() -> dict[str, Any]:
    with DEMO_FILE.open("rb") as handle:
        return tomllib.load(handle)


def expected_tax_and_upkeep() -> tuple[dict[tuple[str, str], float], dict[str, float]]:
    """Tax per recipient and upkeep per kingdom, computed straight from the demo data file."""
    data = demo_data()
    tax: dict[tuple[str, str], float] = {}
    for pc in data["pcs"]:
        if pc.get("owner_character"):
            recipient = ("characters", pc["owner_character"])
        elif pc.get("controller"):
            recipient = ("kingdoms", pc["controller"])
        else:
            continue
        tax[recipient] = tax.get(recipient, 0) + pc["tax"] - pc.get("tax_taken", 0)
    rates = table("core")["upkeep"]
    upkeep: dict[str, float] = {}
    for kingdom in data["kingdoms"]:
        units = [u for u in data["units"] if u["owner"] == kingdom["id"]]
        raw = (
            sum(u.get("regiments", 0) for u in units) * rates["regiment"]
            + sum(u.get("ships", 0) for u in units) * rates["ship"]
        )
        upkeep[kingdom["id"]] = math.ceil(raw * 2) / 2
    return tax, upkeep


def treasuries(world: World) -> dict[tuple[str, str], float]:
    out = {("kingdoms", k): d["treasury"] for k, d in world.all("kingdoms")}
    out.update({("characters", c): d["treasury"] for c, d in world.all("characters")})
    return out


def advance_to_next_year(save: WorldFile) -> list[dict[str, Any]]:
    results = []
    for want in ("Summer 312", "Autumn 312", "Winter 312", "Spring 313"):
        result = advance_season(save, GM, SeededDice(1))
        assert result.data["to"] == want
        results.append(result.data)
    return results


def test_demo_numbers_are_what_the_test_expects() -> None:
    tax, upkeep = expected_tax_and_upkeep()
    # Anchors, so a wrong independent computation cannot agree with a wrong pipeline.
    assert tax[("kingdoms", "elbreth")] == 6 + 3 + 4 + 2 + 2 + 3
    assert tax[("characters", "corvin")] == 3
    assert upkeep["elbreth"] == 4 + 2 + 1 + 2


def test_advance_through_the_year_with_only_the_foundation_steps(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Exact treasury changes when tax, upkeep and resets are the whole pipeline: every other
    season handler does nothing (under its own name, so the declared order still fits the code)."""
    seasons.season_order()  # every area registered
    for registry, nothing in (
        (seasons.SEASON_END, lambda ctx, report: None),
        (seasons.YEAR_START, lambda ctx, report: None),
        (seasons.SEASON_START, lambda ctx, report: None),
        (seasons.UPKEEP_SURCHARGES, lambda world, kingdom, regiments, ships: {}),
    ):
        for name, handler in list(registry.by_name.items()):
            if handler.fn.__module__ != core_commands.__name__:
                monkeypatch.setitem(registry.by_name, name, seasons.Handler(nothing, handler.label))
    start = treasuries(read(save))
    steps = advance_to_next_year(save)
    end = treasuries(read(save))
    tax, upkeep = expected_tax_and_upkeep()
    for party in start:
        want = start[party] + tax.get(party, 0) - (upkeep.get(party[1], 0) if party[0] == "kingdoms" else 0)
        assert end[party] == pytest.approx(want), party
    assert end[("kingdoms", "elbreth")] == 42 + 20 - 9
    assert [s["year_start"] for s in steps] == [False, False, False, True]
    sums = {s["step"]: s["sums"] for s in steps[-1]["steps"]}
    assert sums["tax"]["tax paid"] == sum(tax.values())
    assert sums["upkeep"]["upkeep paid"] == sum(upkeep.values())


def test_year_start_pipeline_runs_named_steps_with_sums(save: WorldFile) -> None:
    start = treasuries(read(save))
    steps = advance_to_next_year(save)
    year_start = dict(seasons.year_start_steps())
    for earlier in steps[:3]:
        assert not [s for s in earlier["steps"] if s["step"] in year_start]
    year_steps = [s["step"] for s in steps[-1]["steps"] if s["step"] in year_start]
    assert year_steps == list(year_start)
    world = read(save)
    assert world.date.label() == "Spring 313"
    spring = [e for e in entries(world) if e["date"] == {"year": 313, "season": "Spring"}]
    logged_steps = [e["refs"]["step"] for e in spring if e["kind"] == "year-start" and "step" in (e.get("refs") or {})]
    assert logged_steps == list(year_start)
    # Tax and upkeep lines carry exactly the sums of the demo data.
    tax, upkeep = expected_tax_and_upkeep()
    tax_lines = {k: v for e in spring if e["text"].endswith("tax for the year") for k, v in e["amounts"].items()}
    assert tax_lines == {f"{t}:{i}": v for (t, i), v in tax.items()}
    upkeep_lines = {k: v for e in spring if "upkeep of its regiments" in e["text"] for k, v in e["amounts"].items()}
    assert set(upkeep_lines) == {f"kingdoms:{k}" for k, v in upkeep.items() if v}
    for kingdom, base in upkeep.items():  # surcharges of later rule areas may only add to it
        assert upkeep_lines.get(f"kingdoms:{kingdom}", 0) <= -base, kingdom
    # Every treasury moved by exactly what the chronicle logged, whatever later steps add.
    end = treasuries(world)
    logged: dict[tuple[str, str], float] = {}
    for entry in entries(world):
        for key, amount in entry.get("amounts", {}).items():
            t, _, i = key.partition(":")
            logged[(t, i)] = logged.get((t, i), 0) + amount
    for party in start:
        assert end[party] == pytest.approx(start[party] + logged.get(party, 0)), party


def test_per_year_counters_reset_only_at_year_start(save: WorldFile) -> None:
    def set_counters(data: dict[str, Any]) -> None:
        data["kingdoms"]["elbreth"]["year_counters"] = {"hires": 2, "sponsorships": 1}
        data["characters"]["aldric"]["year_counters"] = {"personal_guard": 1}
        data["businesses"]["millbrook-mill"]["year_counters"] = {"expansions": 1}

    with save.transaction() as data:
        set_counters(data)
    for _ in range(3):
        advance_season(save, GM)
        world = read(save)
        assert world.get("kingdoms", "elbreth")["year_counters"] == {"hires": 2, "sponsorships": 1}
        assert world.get("characters", "aldric")["year_counters"] == {"personal_guard": 1}
    advance_season(save, GM)
    world = read(save)
    assert world.date.label() == "Spring 313"
    assert world.get("kingdoms", "elbreth")["year_counters"] == {}
    assert world.get("characters", "aldric")["year_counters"] == {}
    assert world.get("businesses", "millbrook-mill")["year_counters"] == {}


def test_backups_rotate_at_each_season_change(save: WorldFile) -> None:
    keep = int(table("core")["backups"]["keep"])
    backup_dir = save.path.parent / "backups"
    assert backup_dir == save.backup_dir
    assert not backup_dir.exists()
    states = []
    for _ in range(keep + 3):
        states.append(save.path.read_bytes())
        advance_season(save, GM)
    names = sorted(p.name for p in backup_dir.iterdir())
    assert len(names) == keep
    assert [p.name for p in save.backups()] == sorted(names, key=lambda n: n[-27:])
    # The newest backup is exactly the state before the last advance; the oldest ones went.
    assert save.backups()[-1].read_bytes() == states[-1]
    assert save.backups()[0].read_bytes() == states[3]
    assert "312-spring" not in " ".join(names)
    assert all(n.startswith("world-") for n in names)


def test_advance_refused_for_kings_and_players(save: WorldFile) -> None:
    for who in (KING_E, NYX):
        Table(save).refused(who, "advance", field="identity")
        before = save.path.read_bytes()
        with pytest.raises(CommandError):
            advance_season(save, who)
        assert save.path.read_bytes() == before
    assert not save.backup_dir.exists()


# --- undo and closed seasons ------------------------------------------------------------------


def without(data: dict[str, Any], *tables: str) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k not in tables}


def test_undo_restores_the_exact_state(save: WorldFile, monkeypatch: pytest.MonkeyPatch) -> None:
    def pay(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
        ctx.move_ducats(("kingdoms", "elbreth"), ("characters", "corvin"), 7.5, "a loan")
        ctx.world.edit("units", "elbreth-scouts")["hex"] = [9, 9]
        ctx.world.put("effects", "fx-1", {"kind": "plague"})
        ctx.world.delete("businesses", "millbrook-mill")
        return {}

    monkeypatch.setitem(commands_module.COMMANDS, "test-pay", CommandSpec("test-pay", "", {}, pay))
    run_command(save, GM, "note", {"text": "first"})
    before = save.read()
    run_command(save, GM, "test-pay", {})
    changed = save.read()
    assert changed["kingdoms"]["elbreth"]["treasury"] == 34.5
    assert "millbrook-mill" not in changed["businesses"]
    result = run_command(save, GM, "undo", {})
    assert result.data == {"undone": "test-pay", "by": "gm"}
    after = save.read()
    assert without(after, "meta", "chronicle") == without(before, "meta", "chronicle")
    new = [e for e in after["chronicle"].values() if e["id"] not in before["chronicle"]]
    assert [(e["kind"], e["audience"]) for e in new] == [("undo", "adjudicators")]
    assert {k: v for k, v in after["chronicle"].items() if k in before["chronicle"]} == before["chronicle"]
    assert after["meta"]["world"]["undo"] == before["meta"]["world"]["undo"]
    assert after["meta"]["world"]["date"] == before["meta"]["world"]["date"]
    # And once more: the note goes too; then there is nothing left.
    run_command(save, GM, "undo", {})
    assert [e["kind"] for e in save.read()["chronicle"].values()] == ["undo", "undo"]
    Table(save).refused(GM, "undo", field="undo")


def test_undo_is_gm_only(table: Table, capsys: pytest.CaptureFixture[str]) -> None:
    save = table.save
    table.run(KING_E, "note", text="mine")
    for who in (KING_E, NYX):
        error = table.refused(who, "undo", field="identity")
        assert error.who_may == ("gm",)
    code, out, err = cli(capsys, save, "undo", "--as", "king:elbreth")
    assert (code, out) == (2, None)
    assert "GM" in orjson.loads(err)["error"]
    code, out, err = cli(capsys, save, "undo")
    assert code == 0, err
    assert out["undone"] == "note"


def test_closed_seasons_are_read_only(table: Table) -> None:
    table.run("gm", "note", text="spring news")
    advance_season(table.save, GM)
    table.refused("gm", "undo", field="undo", text="read-only")
    assert any(e["text"] == "spring news" for e in entries(table.world))
    # A command of the new season can be undone, but not past the season boundary.
    table.run("gm", "note", text="summer news")
    table.run("gm", "undo")
    table.refused("gm", "undo", field="undo")


def test_undo_after_an_order_is_resolved_undoes_one_command_at_a_time(save: WorldFile) -> None:
    filed = run_command(save, NYX, "order-file", {"command": "roll", "params": "reason=scout the ford"})
    after_filing = save.read()
    run_command(save, GM, "order-resolve", {"order": filed.data["order"]}, ScriptedDice([5]))
    assert read(save).get("orders", filed.data["order"])["status"] == "resolved"
    assert [u["command"] for u in read(save).meta["undo"]] == ["order-file", "order-resolve"]
    assert run_command(save, GM, "undo", {}).data["undone"] == "order-resolve"
    state = save.read()
    # The dice ledger keeps the undone roll (yak verify counts it as undone).
    assert without(state, "meta", "chronicle", "dice") == without(after_filing, "meta", "chronicle", "dice")
    assert run_command(save, GM, "undo", {}).data["undone"] == "order-file"
    assert read(save).table("orders") == {}


def test_schedule_refuses_back_dating(save: WorldFile) -> None:
    for due in ("Spring 312", "Winter 311", "311 Autumn"):
        error = Table(save).refused(GM, "schedule", {"text": "x", "due": due}, field="due")
        assert "back-dated" in error.reason
    Table(save).refused(KING_E, "schedule", {"text": "x", "due": "Summer 312"}, field="identity")
    result = run_command(save, GM, "schedule", {"text": "Caravan arrives", "due": "Autumn 312"})
    assert result.data == {"due": "Autumn 312"}
    advance_season(save, GM)
    assert not [e for e in entries(read(save)) if e["kind"] == "due"]
    advance_season(save, GM)
    due = [e for e in entries(read(save)) if e["kind"] == "due"]
    assert [(e["text"], e["date"]["season"]) for e in due] == [("Due now: Caravan arrives", "Autumn")]
    advance_season(save, GM)
    assert len([e for e in entries(read(save)) if e["kind"] == "due"]) == 1  # it falls due once


# --- authority (RULINGS §1) ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("identity", "stakes", "allowed", "who"),
    [
        # The main GM may roll anything.
        (GM, Stakes.of("elbreth", ["elbreth", "varos"], ["aldric"]), True, ()),
        (GM, Stakes.of(None), True, ()),
        # A King inside his own kingdom.
        (KING_E, Stakes.of("elbreth"), True, ()),
        (KING_E, Stakes.of("elbreth", ["kesh"], ["orhan"]), True, ()),
        # ... unless his own forces or his person are a party: the GM or an uninvolved King.
        (KING_E, Stakes.of("elbreth", ["elbreth"]), False, ("gm", "king:varos")),
        (KING_E, Stakes.of("elbreth", [], ["aldric"]), False, ("gm", "king:varos")),
        (KING_E, Stakes.of("elbreth", ["elbreth", "varos"]), False, ("gm",)),
        (KING_V, Stakes.of("elbreth", ["elbreth"]), True, ()),
        (KING_V, Stakes.of("elbreth", [], ["aldric"]), True, ()),
        (KING_V, Stakes.of("elbreth", ["elbreth"], ["mirela"]), False, ("gm",)),
        # Inside another King's kingdom where that King is not a party: no.
        (KING_E, Stakes.of("varos"), False, ("gm", "king:varos")),
        (KING_E, Stakes.of("varos", ["kesh"]), False, ("gm", "king:varos")),
        # Outside every player kingdom, without a stake: yes; with one: no.
        (KING_E, Stakes.of("kesh"), True, ()),
        (KING_E, Stakes.of(None), True, ()),
        (KING_E, Stakes.of("kesh", ["elbreth"]), False, ("gm", "king:varos")),
        (KING_E, Stakes.of(None, [], ["aldric"]), False, ("gm", "king:varos")),
        (KING_E, Stakes.of("kesh", ["elbreth", "varos"]), False, ("gm",)),
        # The ruler of an NPC kingdom is no King at the table.
        (KING_K, Stakes.of("kesh"), False, ("gm", "king:elbreth", "king:varos")),
        # Players never roll for adjudicated checks.
        (NYX, Stakes.of("elbreth"), False, ("gm", "king:elbreth")),
        (NYX, Stakes.of("elbreth", ["elbreth"]), False, ("gm", "king:varos")),
        (LYSA, Stakes.of(None), False, ("gm", "king:elbreth", "king:varos")),
    ],
)
def test_authority(world: World, identity: Identity, stakes: Stakes, allowed: bool, who: tuple[str, ...]) -> None:
    verdict = may_adjudicate(world, identity, stakes)
    assert verdict.allowed is allowed, verdict.reason
    assert verdict.who_may == who
    if not allowed:
        assert verdict.who_may[0] == "gm"
        assert "who may: " + who_may_words(who) in verdict.message()
        assert who == who_may(world, stakes)
        assert str(identity) not in who


@pytest.mark.parametrize(
    ("stakes", "queue"),
    [
        (Stakes.of("elbreth"), "king:elbreth"),
        (Stakes.of("elbreth", ["elbreth"]), "gm"),
        (Stakes.of("varos", ["elbreth"]), "king:varos"),
        (Stakes.of("kesh"), "gm"),
        (Stakes.of(None), "gm"),
    ],
)
def test_adjudicator_for(world: World, stakes: Stakes, queue: str) -> None:
    assert adjudicator_for(world, stakes) == queue


def test_roll_command_uses_the_authority(save: WorldFile) -> None:
    run_command(save, KING_E, "roll", {"reason": "bridge holds", "kingdom": "elbreth"}, ScriptedDice([4]))
    run_command(save, KING_E, "roll", {"reason": "storm at sea"}, ScriptedDice([2]))
    error = Table(save).refused(
        KING_E, "roll", {"reason": "x", "kingdom": "Kingdom of Varos"}, field="identity", dice=[4]
    )
    assert error.who_may == ("gm", "king:varos")
    error = Table(save).refused(NYX, "roll", {"reason": "x"}, field="identity", dice=[4])
    assert "orders" in error.reason


# --- audience ---------------------------------------------------------------------------------


def chronicle_fixture(world: World) -> dict[str, str]:
    blind = RollRecord(
        "Is the spy seen?",
        [3],
        [Modifier(1, "cover")],
        total=4,
        band="success",
        audience="public",
        blind=True,
        outcome="unseen",
    )
    open_roll = RollRecord("Harvest", [5], [], total=5, band="great-success")
    made = {
        "public": append_entry(world, "A public event.", rolls=[open_roll]),
        "secret": append_entry(world, "The bridge fell.", secret="the GM cut the ropes"),
        "blind": append_entry(world, "A spy slips through.", rolls=[blind]),
        "elbreth": append_entry(world, "Elbreth's council met.", audience="kingdom:elbreth"),
        "varos": append_entry(world, "Varos plots.", audience="kingdom:varos"),
        "nyx": append_entry(world, "Nyx gets a letter.", audience="character:nyx"),
        "lysa": append_entry(world, "Lysa counts coins.", audience="character:lysa"),
        "aldric": append_entry(world, "The King dreams.", audience="character:aldric"),
        "adj": append_entry(world, "GM eyes only.", audience="adjudicators"),
        "adj-varos": append_entry(world, "For Varos to rule on.", audience="adjudicators", adjudicator="king:varos"),
    }
    return {k: e["id"] for k, e in made.items()}


@pytest.mark.parametrize(
    ("viewer", "sees"),
    [
        (GM, {"public", "secret", "blind", "elbreth", "varos", "nyx", "lysa", "aldric", "adj", "adj-varos"}),
        (NYX, {"public", "secret", "blind", "nyx"}),
        (LYSA, {"public", "secret", "blind", "lysa"}),
        (KING_E, {"public", "secret", "blind", "elbreth", "aldric"}),
        (KING_V, {"public", "secret", "blind", "varos", "adj-varos"}),
    ],
)
def test_audience_filter(world: World, viewer: Identity, sees: set[str]) -> None:
    ids = chronicle_fixture(world)
    by_id = {v: k for k, v in ids.items()}
    shown = visible_entries(world, viewer)
    assert {by_id[e["id"]] for e in shown} == sees
    assert [e["seq"] for e in shown] == sorted(e["seq"] for e in shown)
    shown_by = {by_id[e["id"]]: e for e in shown}
    if viewer.is_gm:
        assert shown_by["secret"]["secret"] == "the GM cut the ropes"
        assert shown_by["blind"]["rolls"][0]["naturals"] == [3]
    else:
        assert "secret" not in shown_by["secret"]
        (roll,) = shown_by["blind"]["rolls"]
        assert roll == {"purpose": "Is the spy seen?", "outcome": "unseen", "blind": True, "ghosts": 1}
        assert shown_by["public"]["rolls"][0]["naturals"] == [5]  # open rolls stay open
        text = orjson.dumps(shown).decode()
        assert "cut the ropes" not in text
        assert "cover" not in text
    # Nothing the filter hides leaks into the forum export.
    for fmt in ("bbcode", "markdown"):
        exported = export_entries(world, shown, fmt, viewer)
        assert ("cut the ropes" in exported) is viewer.is_gm
        assert ("GM eyes only" in exported) is viewer.is_gm


def test_filter_does_not_mutate_the_world(world: World) -> None:
    chronicle_fixture(world)
    before = copy.deepcopy(world.data)
    visible_entries(world, NYX)
    visible_table(world, NYX, "kingdoms")
    assert world.data == before


def test_documents_hide_other_kingdoms_treasuries(world: World) -> None:
    for viewer in (NYX, LYSA):
        kingdoms = visible_table(world, viewer, "kingdoms")
        assert set(kingdoms) == {"elbreth", "varos", "kesh"}
        assert all("treasury" not in k for k in kingdoms.values())
        assert kingdoms["varos"]["name"] == "Kingdom of Varos"
    mine = visible_table(world, KING_E, "kingdoms")
    assert mine["elbreth"]["treasury"] == 42
    assert "treasury" not in mine["varos"] and "treasury" not in mine["kesh"]
    # A player sees his own character in full, others only in public.
    chars = visible_table(world, NYX, "characters")
    assert chars["nyx"]["treasury"] == 3
    assert "treasury" not in chars["lysa"] and "treasury" not in chars["aldric"]
    assert filter_document(world, KING_E, "characters", "nyx", world.get("characters", "nyx"))["treasury"] == 3
    assert "treasury" not in filter_document(world, KING_E, "characters", "lysa", world.get("characters", "lysa"))


def test_show_as_a_player_hides_other_treasuries(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    run_command(save, GM, "note", {"text": "secret council", "audience": "adjudicators"})
    code, out, err = cli(capsys, save, "show", "kingdoms", "--as", "player:nyx")
    assert code == 0, err
    assert all("treasury" not in doc for doc in out["documents"].values())
    code, out, err = cli(capsys, save, "--as", "king:elbreth", "show", "kingdoms")
    assert out["documents"]["elbreth"]["treasury"] == 42
    assert "treasury" not in out["documents"]["varos"]
    code, out, err = cli(capsys, save, "--as", "king:elbreth", "show", "kingdoms", "Kingdom of Varos")
    assert code == 0, err
    assert out["id"] == "varos" and "treasury" not in out["document"]
    code, out, err = cli(capsys, save, "show", "kingdoms", "varos")
    assert out["document"]["treasury"] == 30
    code, out, err = cli(capsys, save, "show", "chronicle", "--as", "player:nyx")
    assert out["documents"] == {}
    code, out, err = cli(capsys, save, "show", "--as", "player:nyx")
    assert out["tables"]["chronicle"] == 0
    code, out, err = cli(capsys, save, "show")
    assert out["tables"]["chronicle"] == 1
    code, out, err = cli(capsys, save, "show", "orders", "--as", "player:nyx")
    assert code == 0 and out["documents"] == {}


# --- orders -----------------------------------------------------------------------------------


@pytest.fixture
def mission(monkeypatch: pytest.MonkeyPatch) -> str:
    """A stand-in espionage command: costs the agent 1 ducat, rolls a blind d6, targets a kingdom."""

    def handler(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
        agent = ctx.principal.subject if ctx.principal.is_player else "nyx"
        ctx.require_acts_for(character=agent)
        ctx.move_ducats(("characters", agent), None, 1, "mission costs")
        natural = ctx.dice.roll(6, "mission")
        record = ctx.record_roll("mission", [natural], natural, "done", blind=True, audience="adjudicators")
        ctx.log(f"A mission against {p['target']}", audience="adjudicators", rolls=[record])
        return {"outcome": "succeeded" if natural >= 4 else "failed"}

    def stakes(world: World, identity: Identity, p: dict[str, Any]) -> Stakes:
        return Stakes.of(p["target"], [world.kingdom_of_character(identity.subject) if identity.is_player else None])

    spec = CommandSpec(
        "test-mission",
        "",
        {"target": Param(str, ref="kingdoms")},
        handler,
        category="espionage",
        stakes=stakes,
        filed_by=SEATS,
    )
    monkeypatch.setitem(commands_module.COMMANDS, "test-mission", spec)
    return "test-mission"


def test_order_file_is_validated_as_written(save: WorldFile, mission: str) -> None:
    Table(save).refused(
        NYX, "order-file", {"command": "roll", "params": "reason=x;modifier=many"}, field="order.modifier"
    )
    Table(save).refused(NYX, "order-file", {"command": "roll", "params": "modifier=1"}, field="order.modifier")
    Table(save).refused(NYX, "order-file", {"command": "roll", "params": "kingdom=elbreth"}, field="order.reason")
    Table(save).refused(NYX, "order-file", {"command": "roll", "params": "reason"}, field="params")
    Table(save).refused(NYX, "order-file", {"command": "roll", "params": "[1]"}, field="params")
    Table(save).refused(NYX, "order-file", {"command": "teleport"}, field="command")
    for forbidden in ("advance", "undo", "order-reject"):
        Table(save).refused(NYX, "order-file", {"command": forbidden}, field="command")
    Table(save).refused(
        NYX, "order-file", {"command": mission, "params": '{"target": "atlantis"}'}, field="order.target"
    )
    # Nyx has 3 ducats: a mission she cannot pay for today is received with a warning (issue 16),
    # since her purse may fill before it is carried out.
    with save.transaction() as data:
        data["characters"]["nyx"]["treasury"] = 0
    filed = run_command(save, NYX, "order-file", {"command": mission, "params": "target=varos"})
    assert filed.data["status"] == "received with warnings" and "ducats" in filed.data["warnings"][0]


def test_private_orders_only_for_espionage(save: WorldFile, mission: str) -> None:
    error = Table(save).refused(
        NYX, "order-file", {"command": "roll", "params": "reason=x", "private": "yes"}, field="private"
    )
    assert "espionage" in error.reason
    result = run_command(save, NYX, "order-file", {"command": mission, "params": "target=varos", "private": "yes"})
    world = read(save)
    order = world.get("orders", result.data["order"])
    assert order["private"] is True
    (entry,) = [e for e in entries(world) if e["kind"] == "order"]
    assert entry["audience"] == "character:nyx"
    assert entry not in visible_entries(world, LYSA)
    public = run_command(save, NYX, "order-file", {"command": "roll", "params": "reason=scouting"})
    assert read(save).get("orders", public.data["order"])["private"] is False
    assert [e["audience"] for e in entries(read(save)) if e["kind"] == "order"] == ["character:nyx", "public"]


def test_order_queue_resolve_reject_withdraw(save: WorldFile, mission: str) -> None:
    a = run_command(save, NYX, "order-file", {"command": mission, "params": "target=varos", "private": "true"})
    b = run_command(save, NYX, "order-file", {"command": mission, "params": '{"target": "kesh"}'})
    c = run_command(save, NYX, "order-file", {"command": "roll", "params": "reason=scout"})
    d = run_command(save, LYSA, "order-file", {"command": "roll", "params": "reason=trade winds"})
    ids = [r.data["order"] for r in (a, b, c, d)]
    assert [r.data["adjudicator"] for r in (a, b, c, d)] == ["king:varos", "gm", "gm", "gm"]
    world = read(save)
    assert [oid for oid, _ in queue_for(world, KING_V)] == [ids[0]]
    assert queue_for(world, KING_E) == []
    assert [oid for oid, _ in queue_for(world, GM)] == ids
    assert [oid for oid, _ in orders_of(world, NYX)] == ids[:3]
    assert [oid for oid, _ in orders_of(world, LYSA)] == [ids[3]]
    # Only its adjudicator (or the GM) resolves an order.
    # A private order does not exist for anyone but its filer and adjudicator (no oracle).
    error = Table(save).refused(KING_E, "order-resolve", {"order": ids[0]}, field="order", dice=[5])
    assert "Nyx" not in error.reason and "varos" not in error.reason
    error = Table(save).refused(KING_E, "order-resolve", {"order": ids[2]}, field="identity", dice=[5])
    assert error.who_may == ("gm",)  # named once, not "gm, gm"
    Table(save).refused(NYX, "order-resolve", {"order": ids[0]}, field="identity", dice=[5])
    before_nyx = read(save).get("characters", "nyx")["treasury"]
    resolved = run_command(save, KING_V, "order-resolve", {"order": ids[0]}, ScriptedDice([5]))
    assert resolved.data["status"] == "resolved"
    assert resolved.data["result"] == {"outcome": "succeeded"}
    world = read(save)
    order = world.get("orders", ids[0])
    assert (order["status"], order["outcome"], order["resolved"]) == (
        "resolved",
        "succeeded",
        {"year": 312, "season": "Spring"},
    )
    assert world.get("characters", "nyx")["treasury"] == before_nyx - 1  # the filer paid, not the King
    assert all(world.get("chronicle", e)["command"] == mission for e in order["entries"])
    assert queue_for(world, KING_V) == []
    Table(save).refused(GM, "order-resolve", {"order": ids[0]}, field="order", dice=[5])
    # Reject with a reason.
    Table(save).refused(GM, "order-reject", {"order": ids[1], "reason": "  "}, field="reason")
    Table(save).refused(KING_V, "order-reject", {"order": ids[1], "reason": "no"}, field="order")
    run_command(save, GM, "order-reject", {"order": ids[1], "reason": "Kesh is at peace"})
    order = read(save).get("orders", ids[1])
    assert (order["status"], order["reason"]) == ("rejected", "Kesh is at peace")
    Table(save).refused(NYX, "order-withdraw", {"order": ids[1]}, field="order")
    # Withdraw: only the filer (or the GM), only while waiting.
    # Lysa may not see Nyx's order: its id gets the reply an unknown id gets (no oracle).
    hidden = Table(save).refused(LYSA, "order-withdraw", {"order": ids[2]}, field="order")
    assert "Nyx" not in hidden.reason and "scout" not in hidden.reason
    run_command(save, NYX, "order-withdraw", {"order": ids[2]})
    assert read(save).get("orders", ids[2])["status"] == "withdrawn"
    Table(save).refused(GM, "order-resolve", {"order": ids[2]}, field="order", dice=[5])
    assert [oid for oid, _ in queue_for(read(save), GM)] == [ids[3]]


def test_a_resolved_order_that_fails_changes_nothing(save: WorldFile, mission: str) -> None:
    filed = run_command(save, NYX, "order-file", {"command": mission, "params": "target=varos"})
    with save.transaction() as data:
        data["characters"]["nyx"]["treasury"] = 0  # she spent her money meanwhile
    error = Table(save).refused(
        KING_V, "order-resolve", {"order": filed.data["order"]}, field="order.treasury", dice=[5]
    )
    assert "Nyx" in error.reason
    assert read(save).get("orders", filed.data["order"])["status"] == "waiting"


def test_orders_through_the_cli(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = cli(
        capsys, save, "--as", "player:nyx", "do", "order-file", "command=roll", "params=reason=scout;modifier=1"
    )
    assert code == 2 and "set by the adjudicator" in err  # the modifier is the adjudicator's
    code, out, err = cli(capsys, save, "--as", "player:nyx", "do", "order-file", "command=roll", "params=reason=scout")
    assert code == 0, err
    order = out["order"]
    code, out, err = cli(capsys, save, "do", "order-resolve", f"order={order}", "adjust=modifier=1", "--dice", "6")
    assert code == 0, err
    assert out["result"]["band"] == "overshoot" and out["result"]["total"] == 7
    assert read(save).get("orders", order)["adjusted"] == {"modifier": "1"}
    world = read(save)
    assert world.get("orders", order)["status"] == "resolved"
    (roll,) = [e for e in entries(world) if e["kind"] == "roll"]
    assert roll["rolls"][0]["source"] == "scripted"


def test_documents_of_orders_are_private(save: WorldFile) -> None:
    run_command(save, NYX, "order-file", {"command": "roll", "params": "reason=scout"})
    world = read(save)
    assert len(visible_table(world, NYX, "orders")) == 1
    assert len(visible_table(world, KING_E, "orders")) == 1  # his subject's public order
    assert visible_table(world, LYSA, "orders") == {}
    assert visible_table(world, KING_V, "orders") == {}


def test_world_json_round_trips(tmp_path: Path) -> None:
    data = build_world()
    assert orjson.loads(orjson.dumps(data)) == data
