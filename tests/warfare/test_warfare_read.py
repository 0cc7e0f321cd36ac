"""The siege monitor's read model (`yak_tui.areas.warfare.read`) shows the commands' own refusals
and lets a bug raise instead of dressing it up as a refusal."""

from __future__ import annotations

from typing import Any

import pytest
from warfare_helpers import Table

from yak_tui.areas.warfare import read, read_forces
from yak_tui.kernel.errors import RuleInputError
from yak_tui.kernel.play import commands
from yak_tui.kernel.play.identity import GM


def test_a_refusal_is_shown_with_the_commands_own_reason(t: Table) -> None:
    t.set("units", "kesh-riders", hex=list(t.get("pcs", "millbrook")["hex"]))
    t.table.run("gm", "raid", {"unit": "kesh-riders", "pc": "millbrook"}, dice=[4])
    verdicts = read_forces.place_verdicts(t.world, GM, "millbrook")
    raid = next(v for f in verdicts.forces if f.force.id == "kesh-riders" for v in f.verdicts if v.action == "raid")
    assert not raid.ok
    assert raid.reason.startswith("Millbrook was already raided in Spring 312")


def test_a_rules_refusal_is_shown_as_its_message_alone(t: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise RuleInputError("no such structure kind 'hovel'")

    monkeypatch.setattr(commands, "validate_only", refuse)
    verdict = read_forces.place_verdicts(t.world, GM, "millbrook").loot
    assert verdict == read_forces.Verdict("loot", False, "no such structure kind 'hovel'")


def test_a_bug_in_a_trial_run_raises_instead_of_reading_as_a_refusal(t: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise KeyError("hex")

    monkeypatch.setattr(commands, "validate_only", broken)
    with pytest.raises(KeyError):
        read_forces.place_verdicts(t.world, GM, "millbrook")


def test_garbage_provisions_raise_instead_of_reading_as_none(t: Table) -> None:
    t.table.run("gm", "siege-begin", {"fort": "brinehaven", "units": "varos-siege-host,varos-blockade-squadron"})
    world = t.world
    world.data["sieges"]["siege-0001"]["provisions"] = "plenty"  # past the schema: a bug, not a fact
    with pytest.raises(ValueError):
        read.siege_monitor(world, GM)


def test_the_monitor_works_the_odds_out_once_for_every_card(t: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30: every siege card walked every die sequence of the messenger's and the smuggler's
    checks again (1,000 sieges at 1000x: 4,000 walks, half the Sieges screen's read model) for odds
    that depend only on the tables and the Scouts counted. The monitor works each out once."""
    from yak_tui.areas.warfare import siege_rules

    t.table.run("gm", "siege-begin", {"fort": "brinehaven", "units": "varos-siege-host,varos-blockade-squadron"})
    world = t.world
    for n in range(2, 6):  # five sieges alike, as a grown world has a thousand
        world.data["sieges"][f"siege-{n:04d}"] = dict(world.data["sieges"]["siege-0001"])
    alone = read.siege_card(world, GM, "siege-0001", world.data["sieges"]["siege-0001"])
    walks: list[str] = []
    for name in ("smuggle_odds", "messenger_odds"):
        original = getattr(siege_rules, name)

        def counted(*args: Any, _original: Any = original, _name: str = name) -> Any:
            walks.append(_name)
            return _original(*args)

        monkeypatch.setattr(siege_rules, name, counted)
    cards = read.siege_monitor(world, GM).sieges
    assert len(cards) == 5 and all(c.active for c in cards)
    cap = int(read.setting("smuggle", "bribe_cap"))
    assert walks.count("smuggle_odds") == cap + 1 and walks.count("messenger_odds") == 1
    assert all(c.smuggle_odds == alone.smuggle_odds and c.messenger_odds == alone.messenger_odds for c in cards)
    assert alone.messenger_odds is not None and len(alone.smuggle_odds) == cap + 1
