"""The siege monitor's read model (`yak_tui.areas.warfare.read`) shows the commands' own refusals
and lets a bug raise instead of dressing it up as a refusal."""

from __future__ import annotations

from typing import Any

import pytest
from warfare_helpers import Table

from yak_tui.areas.warfare import read
from yak_tui.kernel.errors import RuleInputError
from yak_tui.kernel.play import commands
from yak_tui.kernel.play.identity import GM


def test_a_refusal_is_shown_with_the_commands_own_reason(t: Table) -> None:
    t.set("units", "kesh-riders", hex=list(t.get("pcs", "millbrook")["hex"]))
    t.table.run("gm", "raid", {"unit": "kesh-riders", "pc": "millbrook"}, dice=[4])
    verdicts = read.place_verdicts(t.world, GM, "millbrook")
    raid = next(v for f in verdicts.forces if f.force.id == "kesh-riders" for v in f.verdicts if v.action == "raid")
    assert not raid.ok
    assert raid.reason.startswith("Millbrook was already raided in Spring 312")


def test_a_rules_refusal_is_shown_as_its_message_alone(t: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise RuleInputError("no such structure kind 'hovel'")

    monkeypatch.setattr(commands, "validate_only", refuse)
    verdict = read.place_verdicts(t.world, GM, "millbrook").loot
    assert verdict == read.Verdict("loot", False, "no such structure kind 'hovel'")


def test_a_bug_in_a_trial_run_raises_instead_of_reading_as_a_refusal(t: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise KeyError("hex")

    monkeypatch.setattr(commands, "validate_only", broken)
    with pytest.raises(KeyError):
        read.place_verdicts(t.world, GM, "millbrook")


def test_garbage_provisions_raise_instead_of_reading_as_none(t: Table) -> None:
    t.table.run("gm", "siege-begin", {"fort": "brinehaven", "units": "varos-siege-host,varos-blockade-squadron"})
    world = t.world
    world.data["sieges"]["siege-0001"]["provisions"] = "plenty"  # past the schema: a bug, not a fact
    with pytest.raises(ValueError):
        read.siege_monitor(world, GM)
