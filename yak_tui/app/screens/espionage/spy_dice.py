"""The command dialog for rolled espionage: resolving a private order (`spy-resolve`) or the
GM's own mission (`spy-mission`), with the exact odds of the adjudicator's full view.

It is the app's command dialog (fields, odds before rolling, dice by hand, the dice animation,
the chronicle lines); only the odds differ: the generic dialog cannot read a mission's
nested odds, so they come from `yak_tui.areas.espionage.read`, modifiers named in the intro.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from yak_tui.app.kit.command import CommandScreen
from yak_tui.areas.espionage import DialogOdds
from yak_tui.kernel.play import views
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World

OddsFn = Callable[[World, Identity, Mapping[str, Any]], DialogOdds | None]


def modifiers_text(odds: DialogOdds | None) -> str:
    """ "Modifiers: nation-wide counter-spy -1, ..." as the adjudicator reads them before rolling."""
    if odds is None:
        return ""
    mods = ", ".join(f"{reason} {value:+d}" for value, reason in odds.modifiers) or "none"
    scope = "" if odds.all_modifiers else " (what the sponsor knows)"
    cost = "" if odds.cost is None else f" · costs {odds.cost}d + 1 spy"
    return f"Modifiers{scope}: {mods}{cost}"


class SpyDiceScreen(CommandScreen):
    """`CommandScreen` whose odds are a spy mission's: success, spy's fate, evidence."""

    def __init__(
        self,
        command: str,
        odds: OddsFn,
        preset: dict[str, Any] | None = None,
        hidden: Iterable[str] = (),
        title: str | None = None,
        intro: str = "",
        mission: str = "",
    ) -> None:
        super().__init__(command, preset=preset, hidden=hidden, title=title, intro=intro)
        self.odds_fn = odds
        self.mission = mission  # an order's mission, for the words of its odds (the form has none)

    def odds_words_for(self) -> tuple[str, dict[str, Any]]:
        """A mission's odds read as the mission's (an infiltration's spy stays in place)."""
        _command, values = super().odds_words_for()
        return "spy-mission", {**values, "mission": values.get("mission") or self.mission}

    def _odds(self, world: World, identity: Identity, values: dict[str, Any]) -> views.OddsView | None:
        found = self.odds_fn(world, identity, values)
        return None if found is None else views.OddsView(found.rows, found.extra)
