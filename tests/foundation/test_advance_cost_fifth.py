"""Issue 30, fifth pass: work a season's close repeated for every King, counted (times are the
benches'; the golden campaign holds the reports, the save and every reply byte for byte).

- A King's order template is filled in with one `format_map` for all its lines, not one a line.
- A kingdom's upkeep asks the world for its units once (regiments and ships from the one answer).
- The infiltrations' upkeep surcharge looks each mission up once, not once again for each effect.
- The season's entries for the reports are picked by season before a (year, season) pair is made.
"""

from __future__ import annotations

import shlex
from collections import Counter
from typing import Any

import pytest

import yak_tui.areas.court
import yak_tui.areas.espionage  # noqa: F401  (registers the upkeep surcharge)
from yak_tui.areas.court import commands as court_commands
from yak_tui.areas.espionage import year_start as espionage_year_start
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season import reports, template
from yak_tui.kernel.world import model
from yak_tui.kernel.world.demo import build_world
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import shown_money


class _CountedLine(str):
    """A template line that counts the `format_map` calls made on it."""

    calls = 0

    def format_map(self, mapping: Any) -> str:
        _CountedLine.calls += 1
        return str.format_map(self, mapping)


def test_a_template_is_filled_in_once_for_all_its_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    world = World(build_world())
    king = Identity.parse("king:elbreth")
    expected = template.template_lines(world, king, world.date)
    plan = template._plan(king)
    monkeypatch.setattr(template, "_PICKED", {})
    monkeypatch.setattr(template, "_plan", lambda identity: [(_CountedLine(line), tables) for line, tables in plan])
    _CountedLine.calls = 0
    assert template.template_lines(world, king, world.date) == expected
    assert _CountedLine.calls == 0 and len(expected) > 10  # one `format_map` of the joined lines


def test_a_template_value_on_two_lines_is_filled_in_line_by_line(monkeypatch: pytest.MonkeyPatch) -> None:
    """Never met (ids are one line), but then each line is filled in as it always was."""
    world = World(build_world())
    king = Identity.parse("king:elbreth")
    monkeypatch.setattr(template, "_PICKED", {})
    real_own = template.own_ids
    monkeypatch.setattr(template, "own_ids", lambda w, identity: {**real_own(w, identity), "kingdoms": ["two\nlines"]})
    lines = template.template_lines(world, king, world.date)
    chosen, _ = next(iter(template._PICKED.values()))
    first = {table: shlex.quote(ids[0]) for table, ids in template.own_ids(world, king).items() if ids}
    assert lines[2:] == [line.format_map(first) for line in chosen]
    assert any("two\nlines" in line for line in lines)


def test_upkeep_asks_for_a_kingdoms_units_once(monkeypatch: pytest.MonkeyPatch) -> None:
    world = World(build_world())
    before = court_commands.upkeep_due(world, "elbreth")
    asked: Counter[str] = Counter()
    real = model.World.where

    def counted(self: World, table: str, **match: Any) -> Any:
        asked[table] += 1
        return real(self, table, **match)

    monkeypatch.setattr(model.World, "where", counted)
    assert court_commands.upkeep_due(world, "elbreth") == before
    assert asked["units"] == 1


def test_the_infiltration_surcharge_looks_each_mission_up_once(monkeypatch: pytest.MonkeyPatch) -> None:
    world = World(build_world())
    for n in range(3):  # three sponsors' infiltrations of Varos's admiralty
        world.put(
            "effects",
            f"fx-{n}",
            {
                "kind": "infiltration",
                "mission": "infiltrate-admiralty",
                "target_kingdom": "varos",
                "sponsor_kingdom": "elbreth",
                "active": True,
                "known_to_target": True,  # named by its mission in Varos's upkeep
            },
        )
    looked: Counter[str] = Counter()
    real = espionage_year_start.mission

    def counted(slug: str) -> Any:
        looked[slug] += 1
        return real(slug)

    monkeypatch.setattr(espionage_year_start, "mission", counted)
    surcharge = espionage_year_start._upkeep_surcharge(world, "varos", 2, 4)
    assert sum(surcharge.values()) == 3 * 4 * float(real("infiltrate-admiralty").params["upkeep_per_ship"])
    assert looked == {"infiltrate-admiralty": 1, "infiltrate-general-staff": 1}


def test_the_season_entries_make_no_pair_for_another_seasons_entry() -> None:
    world = World(build_world())
    date = world.date
    paired: list[str] = []

    class Date(dict[str, Any]):
        def __getitem__(self, key: str) -> Any:
            if key == "year":
                paired.append(dict.__getitem__(self, "season"))
            return dict.__getitem__(self, key)

    other = {"year": date.year - 1, "season": "Winter" if date.season != "Winter" else "Autumn"}
    chronicle = world.table("chronicle")
    for n in range(30):  # every third this season's; the others of another, which must not be paired
        when = date.to_dict() if n % 3 == 0 else other
        chronicle[f"e{n:03d}"] = {"id": f"e{n:03d}", "seq": n, "date": Date(when), "kind": "note", "text": "x"}
    expected = [e for e in chronicle.values() if dict(e["date"]) == date.to_dict()]
    found = reports.season_entries(world, [date])
    assert [e["id"] for e in found] == [e["id"] for e in expected] and len(found) == 10
    assert paired and set(paired) == {date.season}


def test_whole_amounts_are_worded_without_the_rounding(monkeypatch: pytest.MonkeyPatch) -> None:
    """A report's holding and change lines (8,000 a close at 100x) print a whole amount as
    `shown_money` does, without calling it; any other amount still goes through it."""
    world = World(build_world())
    now = reports.holdings(world, reports.Recipient("king:elbreth"))
    expected = reports.holding_lines(now)
    rounded: list[Any] = []
    real = shown_money

    def counted(value: float) -> str:
        rounded.append(value)
        return real(value)

    monkeypatch.setattr(reports, "shown_money", counted)
    assert reports.holding_lines(now) == expected
    assert all(not (isinstance(v, float) and v.is_integer()) for v in rounded)
    assert reports.holding_lines({"a": 2.5, "b": 3.0, "c": 10**12 * 1.0, "d": "held"}) == [
        "a: 2.5",
        "b: 3",
        f"c: {real(10**12 * 1.0)}",
        "d: held",
    ]
    assert rounded[-2:] == [2.5, 10**12 * 1.0]
