"""The one authority check: may this identity adjudicate this roll? (RULINGS §1)

When the answer is no, the verdict names who may.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from yak_tui.kernel.play.identity import Identity, who_may_words
from yak_tui.kernel.world.model import World


@dataclass(frozen=True)
class Verdict:
    allowed: bool
    reason: str
    who_may: tuple[str, ...] = field(default_factory=tuple)

    def message(self) -> str:
        if self.allowed:
            return self.reason
        who = who_may_words(self.who_may) if self.who_may else "the GM"
        return f"{self.reason}; who may: {who}"


@dataclass(frozen=True)
class Stakes:
    """Where an event happens and who takes part in it."""

    location_kingdom: str | None  # kingdom whose territory it happens in (None: no kingdom)
    kingdoms: frozenset[str] = frozenset()  # kingdoms whose forces or interests are a party
    characters: frozenset[str] = frozenset()  # characters who are a party

    @classmethod
    def of(
        cls, location_kingdom: str | None, kingdoms: Iterable[str | None] = (), characters: Iterable[str | None] = ()
    ) -> Stakes:
        return cls(location_kingdom, frozenset(k for k in kingdoms if k), frozenset(c for c in characters if c))


def _player_kingdoms(world: World) -> list[str]:
    return [kid for kid, k in world.where("kingdoms", player=True)]


def _king_involved(world: World, kingdom_id: str, stakes: Stakes) -> bool:
    kingdom = world.find("kingdoms", kingdom_id) or {}
    return kingdom_id in stakes.kingdoms or (kingdom.get("ruler") in stakes.characters)


class _PlayerKingdoms:
    """`kid in` it: is that kingdom a player kingdom, asked of its document (one King's verdict must
    not list every kingdom of the world: an order queue asks it once per order, issue 30)."""

    def __init__(self, world: World) -> None:
        self.world = world

    def __contains__(self, kingdom_id: object) -> bool:
        return isinstance(kingdom_id, str) and (self.world.find("kingdoms", kingdom_id) or {}).get("player") is True


def _king_may(
    world: World, kingdom_id: str, stakes: Stakes, player_kingdoms: frozenset[str] | _PlayerKingdoms | None = None
) -> tuple[bool, str]:
    """May this King roll? `player_kingdoms` saves `who_may` a lookup of the kingdom per King."""
    if player_kingdoms is None:
        player_kingdoms = _PlayerKingdoms(world)
    if kingdom_id not in player_kingdoms:
        return False, f"{world.display_name('kingdoms', kingdom_id)} is not a player kingdom"
    if _king_involved(world, kingdom_id, stakes):
        return False, "a King cannot roll where his own forces or his own person are a party"
    if stakes.location_kingdom == kingdom_id:
        return True, "the King adjudicates inside his own kingdom"
    if stakes.location_kingdom is None or stakes.location_kingdom not in player_kingdoms:
        return True, "a King without a stake may adjudicate outside every player kingdom"
    if _king_involved(world, stakes.location_kingdom, stakes):
        # RULINGS §1: where the local King is a party, "the GM or another King who is not involved".
        return True, "the local King is a party, so a King who is not involved may adjudicate"
    return False, "the event is inside another King's kingdom"


def who_may(world: World, stakes: Stakes) -> tuple[str, ...]:
    ordered = _player_kingdoms(world)
    player_kingdoms = frozenset(ordered)
    kings = [f"king:{kid}" for kid in ordered if _king_may(world, kid, stakes, player_kingdoms)[0]]
    return ("gm", *kings)


def _may(world: World, identity: Identity, stakes: Stakes) -> tuple[bool, str]:
    if identity.is_gm:
        return True, "the main GM may roll anything"
    if identity.is_observer:
        return False, "an observer reads the public record and never rolls"
    if identity.is_player:
        return False, "players never roll for adjudicated checks; they submit orders"
    return _king_may(world, identity.subject, stakes)


def may_adjudicate(world: World, identity: Identity, stakes: Stakes) -> Verdict:
    """The verdict, and when it is no, who may (every King who may: a look at every kingdom)."""
    allowed, reason = _may(world, identity, stakes)
    return Verdict(allowed, reason, () if allowed else who_may(world, stakes))


def adjudicates(world: World, identity: Identity, stakes: Stakes) -> bool:
    """`may_adjudicate(...).allowed` without working out who else may: what a read model asks of
    every line it draws."""
    return _may(world, identity, stakes)[0]


def adjudicator_for(world: World, stakes: Stakes) -> str:
    """Whose queue an order waits in: the King of the place if he may, else the GM."""
    if stakes.location_kingdom is not None:
        king = Identity("king", stakes.location_kingdom)
        if adjudicates(world, king, stakes):
            return str(king)
    return "gm"
