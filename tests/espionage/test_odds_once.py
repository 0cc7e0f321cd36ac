"""Issue 30: a mission's exact odds are enumerated once per mission and pair of modifier totals."""

from __future__ import annotations

from typing import Any

import pytest

from yak_tui.areas.espionage import rules
from yak_tui.kernel.play.dice import Modifier


def test_the_same_mission_and_modifiers_are_enumerated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    enumerate_ = rules.exact_odds

    def counted(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return enumerate_(*args, **kwargs)

    monkeypatch.setattr(rules, "exact_odds", counted)
    monkeypatch.setattr(rules, "_ODDS_CACHE", {})
    first = rules.mission_odds("infiltrate-treasury", 1, 0)
    for _ in range(20):
        assert rules.mission_odds("infiltrate-treasury", [Modifier(1, "a fine spy")], 0) == first
    assert len(calls) == 1
    first.outcome["success"] = 0  # a caller's own dicts: changing them changes no one else's odds
    assert rules.mission_odds("infiltrate-treasury", 1, 0).outcome["success"] != 0
    rules.mission_odds("infiltrate-treasury", 2, 0)
    assert len(calls) == 2
