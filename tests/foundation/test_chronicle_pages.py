"""The chronicle screen's read model draws only the page it shows (issue 13: 100,000 entries built
100,000 views before the first paint), and what it shows is what every entry drawn would show."""

from __future__ import annotations

import pytest

from yak_tui.areas import court
from yak_tui.areas.court import chronicle_view, entry_view
from yak_tui.kernel.play.audience import visible_entries
from yak_tui.kernel.play.chronicle import ChronicleFilter, append_entry, filter_entries
from yak_tui.kernel.play.dice import RollRecord
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import World

AUDIENCES = ("public", "kingdom:varos", "kingdom:elbreth", "character:nyx", "adjudicators")
VIEWERS = ("gm", "king:varos", "king:elbreth", "player:nyx", "observer")


@pytest.fixture
def long_chronicle(world: World) -> World:
    """A thousand entries over four seasons for several audiences, some with a blind roll and a secret."""
    for number in range(1000):
        if number % 250 == 0:
            world.meta["date"] = GameDate(312 + number // 500, (number // 250) % 4).to_dict()
        audience = AUDIENCES[number % len(AUDIENCES)]
        rolls = (
            [
                RollRecord(
                    purpose="scouting",
                    naturals=[3],
                    total=3,
                    band="fail",
                    source="scripted",
                    roller="gm",
                    audience=audience,
                    blind=True,
                    outcome="nothing seen",
                )
            ]
            if number % 7 == 0
            else None
        )
        append_entry(
            world,
            f"Entry {number}",
            kind=("note", "roll", "war")[number % 3],
            audience=audience,
            rolls=rolls,
            secret="only the GM knows" if number % 11 == 0 else "",
            refs={"kingdom": "varos"} if number % 2 else None,
        )
    return world


def every_view(world: World, viewer: Identity) -> list[court.EntryView]:
    return [entry_view(e) for e in visible_entries(world, viewer)]


def test_first_page_draws_a_page_not_the_chronicle(long_chronicle: World, monkeypatch: pytest.MonkeyPatch) -> None:
    from yak_tui.areas.court import read_chronicle as read

    drawn: list[str] = []
    original = read.entry_view

    def counting(entry: dict, viewer: Identity | None = None) -> court.EntryView:
        drawn.append(str(entry.get("id")))
        return original(entry, viewer)

    monkeypatch.setattr(read, "entry_view", counting)
    view = chronicle_view(long_chronicle, Identity.parse("gm"))
    assert len(view.entries) == view.total == 1000
    assert len(drawn) == read.NEWEST_DRAWN
    newest = [view.entries[position] for position in range(999, 799, -1)]
    assert len(drawn) == read.NEWEST_DRAWN  # the first page was drawn in the build, once
    assert newest[0].text == "Entry 999" and newest[-1].text == "Entry 800"


@pytest.mark.parametrize("viewer", VIEWERS)
def test_pages_show_what_every_entry_drawn_shows(long_chronicle: World, viewer: str) -> None:
    identity = Identity.parse(viewer)
    expected = every_view(long_chronicle, identity)
    view = chronicle_view(long_chronicle, identity)
    assert list(view.entries) == expected
    assert view.entries.ids == tuple(e.id for e in expected)
    assert view.total == len(expected)
    assert [view.entries.by_id(e.id) for e in expected[:3]] == expected[:3]
    assert [c.value for c in view.seasons] == sorted({e.date for e in expected}, key=GameDate.parse, reverse=True)
    assert [c.value for c in view.kinds] == sorted({e.kind for e in expected})
    assert list(view.entries[-2:]) == expected[-2:]
    if not identity.is_gm:
        assert all(e.note == "" for e in view.entries)  # no secret reaches a page
    filtered = chronicle_view(long_chronicle, identity, season="Summer 312", kingdom="varos", kind="war")
    chosen = ChronicleFilter.from_args(long_chronicle, "Summer 312", "varos", None, "war")
    assert list(filtered.entries) == [entry_view(e) for e in filter_entries(long_chronicle, identity, chosen)]
    assert filtered.total == len(expected)
    for limit in (1, 8, 2000):  # the dashboard's newest lines, judged from the newest back
        assert court.latest_entries(long_chronicle, identity, limit) == tuple(expected[-limit:][::-1])
