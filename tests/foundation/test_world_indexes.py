"""Issue 13: `World.where` answers from indexes, a dry run works on a trial of the world, `yak show`
counts without copying. The indexes must give exactly what a plain scan gives, after any writes."""

from __future__ import annotations

import copy
from typing import Any

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

import yak_tui.areas.court  # noqa: F401  (registers the year-start steps and upkeep surcharges)
from yak_tui.areas.court import upkeep_due
from yak_tui.kernel.play.audience import visible_count, visible_table
from yak_tui.kernel.play.commands import load_command_modules, validate_only
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.season.session import preview_advance
from yak_tui.kernel.world.demo import build_world
from yak_tui.kernel.world.model import World


def _unit(owner: str, regiments: int) -> dict[str, Any]:
    return {
        "name": "Levy",
        "owner": owner,
        "kind": "infantry",
        "size": "company",
        "regiments": regiments,
        "hex": [1, 1],
    }


def test_upkeep_sees_every_write_of_one_transaction() -> None:
    world = World(build_world())
    before_elbreth, _ = upkeep_due(world, "elbreth")  # builds the unit index
    before_varos, _ = upkeep_due(world, "varos")
    rate = upkeep_due(World({**build_world(), "units": {"u": _unit("elbreth", 1)}}), "elbreth")[1]["regiments"]

    world.put("units", "levy", _unit("elbreth", 3))
    assert upkeep_due(world, "elbreth")[0] == before_elbreth + 3 * rate

    world.edit("units", "levy")["owner"] = "varos"  # changed in place after the edit
    assert upkeep_due(world, "elbreth")[0] == before_elbreth
    assert upkeep_due(world, "varos")[0] == before_varos + 3 * rate

    world.delete("units", "levy")
    assert upkeep_due(world, "varos")[0] == before_varos
    world.put("units", "levy", _unit("varos", 1))
    assert upkeep_due(world, "varos")[0] == before_varos + rate


def test_where_keeps_table_order_after_a_delete_and_a_reinsert() -> None:
    world = World(build_world())
    first = [doc_id for doc_id, _ in world.where("units", owner="elbreth")]
    moved = first[0]
    doc = world.get("units", moved)
    world.delete("units", moved)
    world.put("units", moved, copy.deepcopy(doc))  # a dict puts a re-inserted key last
    scan = [i for i, d in world.table("units").items() if d.get("owner") == "elbreth"]
    assert [doc_id for doc_id, _ in world.where("units", owner="elbreth")] == scan == [*first[1:], moved]


OWNERS = ["a", "b", "c"]
HEXES = [[0, 0], [0, 1], [1, 0]]
ops = st.lists(
    st.one_of(
        st.tuples(st.just("put"), st.integers(0, 9), st.sampled_from(OWNERS), st.sampled_from(HEXES)),
        st.tuples(st.just("edit"), st.integers(0, 9), st.sampled_from(OWNERS), st.sampled_from(HEXES)),
        st.tuples(st.just("delete"), st.integers(0, 9)),
        st.tuples(
            st.just("undo"),
        ),
        st.tuples(st.just("query"), st.sampled_from(OWNERS), st.sampled_from(HEXES)),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None)
@given(start=st.dictionaries(st.integers(0, 9), st.tuples(st.sampled_from(OWNERS), st.sampled_from(HEXES))), steps=ops)
def test_indexed_where_equals_a_plain_scan(
    start: dict[int, tuple[str, list[int]]], steps: list[tuple[Any, ...]]
) -> None:
    units = {f"u{n}": {**_unit(owner, n), "hex": list(hex_)} for n, (owner, hex_) in start.items()}
    world = World({"units": units})

    def check(**match: Any) -> None:
        scan = [(i, d) for i, d in world.table("units").items() if all(d.get(k) == v for k, v in match.items())]
        assert world.where("units", **match) == scan

    for step in steps:
        kind, *args = step
        if kind == "put":
            world.put("units", f"u{args[0]}", {**_unit(args[1], 1), "hex": list(args[2])})
        elif kind == "edit" and f"u{args[0]}" in world.data["units"]:
            doc = world.edit("units", f"u{args[0]}")
            doc["owner"], doc["hex"] = args[1], list(args[2])
        elif kind == "delete" and f"u{args[0]}" in world.data["units"]:
            world.delete("units", f"u{args[0]}")
        elif kind == "undo":
            world.restore(world.changes())
        elif kind == "query":
            check(owner=args[0])
            check(hex=list(args[1]))
            check(owner=args[0], hex=list(args[1]))
    check(owner="a")
    check(hex=[0, 1], owner="b")
    check()


def test_a_dry_run_leaves_the_world_as_it_was_and_sees_its_own_writes() -> None:
    load_command_modules()
    world = World(build_world())
    before = orjson.dumps(world.data)
    result = validate_only(world, GM, "note", {"text": "a dry run"})
    assert result.entries and result.entries[0]["text"] == "a dry run"
    preview = preview_advance(world)
    assert preview["steps"]
    assert orjson.dumps(world.data) == before

    trial = world.trial()
    trial.edit("kingdoms", "elbreth")["treasury"] = -1
    trial.delete("units", next(iter(world.table("units"))))
    trial.meta["undo"].append({"marker": True})
    trial.next_seq()
    assert trial.get("kingdoms", "elbreth")["treasury"] == -1
    assert orjson.dumps(world.data) == before


def test_show_counts_equal_the_documents_each_viewer_sees() -> None:
    world = World(build_world())
    for viewer in (GM, Identity.parse("king:elbreth"), Identity.parse("player:aldric")):
        for table in world.data:
            assert visible_count(world, viewer, table) == len(visible_table(world, viewer, table)), (viewer, table)
