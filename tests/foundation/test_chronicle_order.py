"""The chronicle's order without sorting it when it is stored in order (issue 13): `newest_seen`
and `seen_entries` give exactly what sorting every entry by seq (stably) gave, in order or not,
with ties, entries without a seq, and any viewer."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from yak_tui.kernel.play.audience import PUBLIC, may_see, newest_seen, seen_entries
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World

AUDIENCES = (PUBLIC, "adjudicators", "kingdom:elbreth", "kingdom:varos", "character:nyx", "character:lysa")
VIEWERS = tuple(Identity.parse(text) for text in ("gm", "king:elbreth", "king:varos", "player:nyx", "observer"))


def sorted_newest_seen(world: World, viewer: Identity, limit: int) -> list[dict[str, Any]]:
    """`newest_seen` as it was: every entry sorted."""
    ordered = sorted(world.table("chronicle").values(), key=lambda entry: entry.get("seq", 0))
    out: list[dict[str, Any]] = []
    for entry in reversed(ordered):
        if len(out) >= limit:
            break
        if may_see(world, viewer, str(entry.get("audience", PUBLIC)), entry):
            out.append(entry)
    return out


def sorted_seen_entries(world: World, viewer: Identity) -> list[dict[str, Any]]:
    ordered = sorted(world.table("chronicle").values(), key=lambda entry: entry.get("seq", 0))
    return [
        entry for entry in ordered if viewer.is_gm or may_see(world, viewer, str(entry.get("audience", PUBLIC)), entry)
    ]


entry_strategy = st.fixed_dictionaries(
    {"audience": st.sampled_from(AUDIENCES)}, optional={"seq": st.integers(min_value=0, max_value=12)}
)


def world_of(entries: list[dict[str, Any]]) -> World:
    chronicle = {f"e{index:03d}": {**entry, "id": f"e{index:03d}"} for index, entry in enumerate(entries)}
    return World(
        {
            "meta": {"world": {"name": "t", "date": {"year": 312, "season": "Spring"}}},
            "chronicle": chronicle,
            "kingdoms": {"elbreth": {"name": "Elbreth", "ruler": "nyx"}, "varos": {"name": "Varos", "ruler": "lysa"}},
        }
    )


@settings(max_examples=300, deadline=None)
@given(entries=st.lists(entry_strategy, max_size=30), in_order=st.booleans(), limit=st.integers(0, 10))
def test_the_same_entries_as_sorting_every_one(entries: list[dict[str, Any]], in_order: bool, limit: int) -> None:
    if in_order:  # the usual save: stored by seq (ties kept in the order drawn)
        entries = sorted(entries, key=lambda entry: entry.get("seq", 0))
    world = world_of(entries)
    for viewer in VIEWERS:
        got = newest_seen(world, viewer, limit)
        assert [id(e) for e in got] == [id(e) for e in sorted_newest_seen(world, viewer, limit)]
        assert [id(e) for e in seen_entries(world, viewer)] == [id(e) for e in sorted_seen_entries(world, viewer)]
