"""Issue 13, many apps: a player's holdings are found through the world's indexes (not by filtering
every document of four tables) and give exactly what filtering everything gave; a World shared by
the apps of one process never hands out an index half built."""

from __future__ import annotations

from typing import Any

import pytest

from yak_tui.areas.court import holdings
from yak_tui.kernel.play.audience import visible_table
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.demo import build_world
from yak_tui.kernel.world.model import World


def _every_visible_holding(world: World, viewer: Identity) -> list[tuple[str, str]]:
    """The holdings as the dashboard found them before: every visible document, then the test."""
    kingdom = viewer.subject if viewer.is_king else None
    character = viewer.subject if viewer.is_player else None
    rows = [("kingdoms", kingdom)] if kingdom else []
    rows += [
        ("characters", cid)
        for cid, doc in sorted(visible_table(world, viewer, "characters").items())
        if cid == character or (kingdom and doc.get("kingdom") == kingdom)
    ]
    rows += [
        ("pcs", pid)
        for pid, doc in sorted(visible_table(world, viewer, "pcs").items())
        if (character and doc.get("owner_character") == character) or (kingdom and doc.get("controller") == kingdom)
    ]
    rows += [
        ("units", uid)
        for uid, doc in sorted(visible_table(world, viewer, "units").items())
        if (kingdom and doc.get("owner") == kingdom) or (character and doc.get("commander") == character)
    ]
    mine = {cid for cid, c in world.all("characters") if kingdom and c.get("kingdom") == kingdom}
    rows += [
        ("businesses", bid)
        for bid, doc in sorted(visible_table(world, viewer, "businesses").items())
        if doc.get("owner") == character or doc.get("owner") in mine
    ]
    return rows


def _seats(world: World) -> list[Identity]:
    return (
        [Identity.parse("gm"), Identity.parse("observer")]
        + [Identity("king", k) for k, _ in world.all("kingdoms")]
        + [Identity("player", c) for c, _ in world.all("characters")]
    )


def test_holdings_are_what_filtering_every_document_gives_for_every_seat() -> None:
    world = World(build_world())
    # A write after the indexes are built: the index must see the moved unit and the new business.
    for seat in _seats(world):
        holdings(world, seat)
    unit_id, _ = next(iter(world.all("units")))
    world.edit("units", unit_id)["owner"] = "kesh"
    character_id = next(c for c, doc in world.all("characters") if doc.get("kingdom") == "kesh")
    business = dict(next(iter(world.table("businesses").values())), owner=character_id, name="Kesh Saltworks")
    world.put("businesses", "kesh-saltworks", business)
    seats = _seats(world)
    assert len(seats) > 8
    shown_somewhere = 0
    for seat in seats:
        rows = [(row.table, row.id) for row in holdings(world, seat)]
        assert rows == _every_visible_holding(world, seat), seat
        shown_somewhere += len(rows)
    assert shown_somewhere > len(seats)  # kings and players do hold things in the demo


class _Reentrant(dict[str, Any]):
    """A table whose iteration asks the index again midway, as another thread sharing the World would."""

    def __init__(self, docs: dict[str, Any], ask: Any) -> None:
        super().__init__(docs)
        self.ask = ask
        self.answers: list[list[str]] = []

    def items(self) -> Any:
        for number, item in enumerate(list(super().items())):
            if number == 1 and not self.answers:  # once: the question itself iterates the table too
                self.answers.append([])
                self.answers[0] = list(self.ask())
            yield item


@pytest.mark.parametrize("field,value", [("owner", "elbreth")])
def test_an_index_is_never_seen_half_built(field: str, value: str) -> None:
    world = World(build_world())
    expected = [doc_id for doc_id, doc in world.all("units") if doc.get(field) == value]
    assert len(expected) >= 2
    table = _Reentrant(world.table("units"), lambda: [i for i, _ in world.where("units", **{field: value})])
    world.data["units"] = table
    assert [i for i, _ in world.where("units", **{field: value})] == expected
    assert table.answers == [expected]  # the question asked midway got the whole answer too
