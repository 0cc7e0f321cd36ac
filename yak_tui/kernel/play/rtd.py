"""RtD, the game's standard check (RULINGS §0)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

from yak_tui.kernel.play.dice import Dice, Modifier, exact_odds, total_of
from yak_tui.kernel.world.tables import table

BANDS = (
    "critical-failure",
    "failure",
    "minor-success",
    "success",
    "great-success",
    "grand-success",
    "overshoot",
)


@dataclass(frozen=True)
class RtdOutcome:
    natural: int
    modifiers: list[Modifier] = field(default_factory=list)
    total: int = 0
    band: str = ""
    success: bool = False

    @property
    def modifier(self) -> int:
        return total_of(self.modifiers)


def rtd_band(natural: int, total: int) -> str:
    """Naturals win over totals; otherwise the total decides."""
    rules = table("core")["rtd"]
    if natural == 1:
        return str(rules["natural_one"])
    if natural == 6:
        return str(rules["natural_six"])
    if total <= 1:
        return "failure"
    for row in rules["bands"]:
        if total <= row["max_total"]:
            return str(row["band"])
    return str(rules["top_band"])


def rtd_success(natural: int, total: int) -> bool:
    """Success means total >= the table's threshold; a natural 1 always fails, a 6 always succeeds."""
    if natural == 1:
        return False
    if natural == 6:
        return True
    return total >= int(table("core")["rtd"]["rtd_success"])


def roll_rtd(dice: Dice, modifiers: Sequence[Modifier] = (), purpose: str = "RtD") -> RtdOutcome:
    natural = dice.roll(6, purpose)
    total = natural + total_of(modifiers)
    return RtdOutcome(
        natural=natural,
        modifiers=list(modifiers),
        total=total,
        band=rtd_band(natural, total),
        success=rtd_success(natural, total),
    )


def rtd_odds(modifiers: Sequence[Modifier] = ()) -> tuple[dict[str, float], float]:
    """Probability of every band (all seven keys, zeros included) and of success.

    The dice read only the modifiers' total, so each total is enumerated once under the rules in use
    (issue 30: `yak orders` asked it for every waiting roll). Each caller gets its own dict."""
    global _ODDS_RULES
    rules = table("core")["rtd"]
    if rules is not _ODDS_RULES:  # other rules (house rules loaded): what was worked out no longer holds
        _ODDS_CACHE.clear()
        _ODDS_RULES = rules
    total = total_of(modifiers)
    known = _ODDS_CACHE.get(total)
    if known is None:
        known = _ODDS_CACHE[total] = _enumerate_rtd_odds(modifiers)
    return dict(known[0]), known[1]


_ODDS_CACHE: dict[int, tuple[dict[str, float], float]] = {}
_ODDS_RULES: object = None


def _enumerate_rtd_odds(modifiers: Sequence[Modifier]) -> tuple[dict[str, float], float]:
    odds = exact_odds(lambda d: roll_rtd(d, modifiers), lambda o: (o.band, o.success))
    bands = {band: 0.0 for band in BANDS}
    success = 0.0
    for label, p in odds.items():
        band, ok = cast(tuple[str, bool], label)
        bands[band] += float(p)
        if ok:
            success += float(p)
    return {b: round(v, 6) for b, v in bands.items()}, round(success, 6)
