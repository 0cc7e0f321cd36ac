"""Issue 30: whether one seat may adjudicate is asked of that seat's kingdom, not of every kingdom of
the world (the order queue and the espionage board ask it once per line: orders × kingdoms)."""

from __future__ import annotations

import pytest

from yak_tui.kernel.play import authority
from yak_tui.kernel.play.authority import Stakes, adjudicates, adjudicator_for, may_adjudicate
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile


def test_a_verdict_reads_no_list_of_kingdoms_unless_it_says_who_else_may(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    world = World(save.read())
    scans: list[int] = []
    listing = authority._player_kingdoms

    def counted(w: World) -> list[str]:
        scans.append(1)
        return listing(w)

    monkeypatch.setattr(authority, "_player_kingdoms", counted)
    inside = Stakes.of("elbreth", kingdoms=["varos"])
    for who in ("king:elbreth", "king:varos", "king:kesh", "player:corvin", "observer", "gm"):
        assert (
            adjudicates(world, Identity.parse(who), inside)
            == may_adjudicate(world, Identity.parse(who), inside).allowed
        )
    scans.clear()
    for who in ("king:elbreth", "king:varos", "king:kesh", "player:corvin", "observer", "gm"):
        adjudicates(world, Identity.parse(who), inside)
    assert adjudicator_for(world, inside) == "king:elbreth"
    assert scans == []
    assert may_adjudicate(world, Identity.parse("king:varos"), inside).who_may  # a refusal still says who may
