"""Players read names and sentences; ids and command syntax belong to --json (issue 17, item 4).

A campaign season is played (orders filed and resolved, a refusal, a year-start advance), then the
chronicle each identity may read, its dice lines and its forum exports are scanned for a document id
(`e000032`, `o0001`, `cr-0001`, `siege-0001`), an identity key (`king:elbreth`) or `name(key=value)`.
"""

from __future__ import annotations

import re

import pytest

from yak_tui.kernel.play.audience import visible_entries
from yak_tui.kernel.play.chronicle import export_entries, roll_line
from yak_tui.kernel.play.commands import CommandError, run_command
from yak_tui.kernel.play.dice import ScriptedDice, SeededDice
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

ID_PATTERN = re.compile(r"\b(?:[eo]\d{4,}|cr-\d{3,}|siege-\d{3,}|(?:king|player):[a-z])")
CALL_SYNTAX = re.compile(r"\b[a-z][\w-]*\([a-z_]+=")


def leaks(text: str) -> list[str]:
    return [m.group(0) for m in ID_PATTERN.finditer(text)] + [m.group(0) for m in CALL_SYNTAX.finditer(text)]


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> WorldFile:
    save = create_world(tmp_path_factory.mktemp("words") / "w.json")
    corvin = Identity.parse("player:corvin")
    run_command(
        save,
        corvin,
        "order-file",
        {"command": "business-expand", "params": "business=salt-works;sizes=1"},
        ScriptedDice([]),
    )
    run_command(
        save,
        Identity.parse("king:elbreth"),
        "order-file",
        {"command": "roll", "params": "reason=Ford the river"},
        ScriptedDice([]),
    )
    with pytest.raises(CommandError) as refused:
        run_command(save, Identity.parse("king:elbreth"), "raze", {"pc": "amberport"}, ScriptedDice([]))
    assert not leaks(refused.value.reason), refused.value.reason
    for order_id, order in sorted(World(save.read()).all("orders")):
        if order["command"] == "roll":
            run_command(save, Identity.parse("gm"), "order-resolve", {"order": order_id}, ScriptedDice([4]))
    for _ in range(4):  # a whole year: every season-end and year-start step writes its lines
        try:
            run_command(save, Identity.parse("gm"), "advance", {}, SeededDice(17))
        except CommandError:
            break
    return save


def viewers(world: World) -> list[Identity]:
    out = [Identity.parse("gm")]
    out += [Identity.parse(f"king:{k}") for k, _ in world.all("kingdoms")]
    out += [Identity.parse(f"player:{c}") for c, _ in world.all("characters")]
    return out


def test_no_ids_or_syntax_in_what_anyone_reads(played: WorldFile) -> None:
    world = World(played.read())
    found: dict[str, list[str]] = {}
    for viewer in viewers(world):
        entries = visible_entries(world, viewer)
        texts = [e["text"] for e in entries] + [roll_line(r) for e in entries for r in e.get("rolls", [])]
        texts += [export_entries(world, entries, fmt, viewer) for fmt in ("bbcode", "markdown")]
        for text in texts:
            for leak in leaks(text):
                found.setdefault(str(viewer), []).append(f"{leak!r} in {text[:120]!r}")
    assert not found, "\n".join(f"{who}: {line}" for who, lines in found.items() for line in lines[:5])


def test_no_ids_or_syntax_in_season_reports(played: WorldFile) -> None:
    """Every report of every closed season, as each recipient reads it in BBCode and Markdown."""
    from yak_tui.kernel.season.reports import render_report, reported_seasons, reports_for

    world = World(played.read())
    seasons = reported_seasons(world)
    assert len(seasons) >= 4
    found: list[str] = []
    for season in seasons:
        for report in reports_for(world, Identity.parse("gm"), season.label()):
            for fmt in ("bbcode", "markdown"):
                text = render_report(report, fmt)
                found += [f"{report['recipient']} {season.label()}: {leak!r}" for leak in leaks(text)]
                assert "failure (failure)" not in text and "nothing to do" not in text
    assert not found, "\n".join(found[:10])


def test_an_order_reads_as_words(played: WorldFile) -> None:
    world = World(played.read())
    corvin = Identity.parse("player:corvin")
    lines = [e["text"] for e in visible_entries(world, corvin) if e["kind"] == "order"]
    assert any(
        line.startswith("Corvin Hale files an order: business expand: business Saltcross Salt Works") for line in lines
    ), lines


def test_a_step_that_did_something_never_says_nothing_to_do(tmp_path_factory: pytest.TempPathFactory) -> None:
    save = create_world(tmp_path_factory.mktemp("cold") / "w.json")
    with save.transaction() as data:
        World(data).edit("specialists", "varos").update(cold_spy=1)
    for _ in range(4):
        run_command(save, Identity.parse("gm"), "advance", {}, SeededDice(5))
    world = World(save.read())
    lines = [e["text"] for e in visible_entries(world, Identity.parse("gm")) if e["kind"] == "year-start"]
    (cold,) = [line for line in lines if "Cold spies" in line and line.startswith("Year start")]
    assert cold.endswith(": done"), cold
    assert any(
        "cold spy" in e["text"] and e["kind"] != "year-start" for e in visible_entries(world, Identity.parse("gm"))
    )
