"""Property tests (DESIGN "Testing" 2): money is conserved, counts never go negative, and a failed
command leaves the save byte-for-byte unchanged."""

from __future__ import annotations

import copy
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yak_tui.kernel.play import commands as commands_module
from yak_tui.kernel.play.commands import CommandContext, CommandError, CommandSpec, Param, apply_command, run_command
from yak_tui.kernel.play.dice import DiceError, ScriptedDice
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.world.demo import build_world, create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

BASE = build_world()
KINGDOMS = sorted(BASE["kingdoms"])
CHARACTERS = sorted(BASE["characters"])
PARTIES = [("kingdoms", k) for k in KINGDOMS] + [("characters", c) for c in CHARACTERS]
SETTINGS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _transfer(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    source = tuple(p["source"].split(":")) if p["source"] else None
    target = tuple(p["target"].split(":")) if p["target"] else None
    ctx.move_ducats(source, target, p["amount"], "test transfer", allow_negative=p["debt"])  # type: ignore[arg-type]
    return {}


def _adjust(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    doc = ctx.world.edit(p["table"], p["id"])
    doc[p["field"]] = doc[p["field"]] + p["delta"]
    return {}


TEST_COMMANDS = {
    "test-transfer": CommandSpec(
        "test-transfer",
        "",
        {
            "source": Param(str, required=False, default=""),
            "target": Param(str, required=False, default=""),
            "amount": Param(float),
            "debt": Param(bool, required=False, default=False),
        },
        _transfer,
    ),
    "test-adjust": CommandSpec(
        "test-adjust", "", {"table": Param(str), "id": Param(str), "field": Param(str), "delta": Param(int)}, _adjust
    ),
}


@pytest.fixture(autouse=True)
def _test_commands(monkeypatch: pytest.MonkeyPatch) -> None:
    for name, spec in TEST_COMMANDS.items():
        monkeypatch.setitem(commands_module.COMMANDS, name, spec)


def treasury_total(world: World) -> float:
    return sum(float(world.get(t, i)["treasury"]) for t, i in PARTIES)


party_keys = st.sampled_from([f"{t}:{i}" for t, i in PARTIES])
amounts = st.integers(min_value=0, max_value=400).map(lambda halves: halves / 2)
transfers = st.lists(
    st.fixed_dictionaries(
        {
            "source": st.one_of(st.just(""), party_keys),
            "target": st.one_of(st.just(""), party_keys),
            "amount": amounts,
            "debt": st.booleans(),
        }
    ),
    min_size=1,
    max_size=25,
)


@SETTINGS
@given(transfers)
def test_move_ducats_conserves_money(moves: list[dict[str, Any]]) -> None:
    world = World(copy.deepcopy(BASE))
    start = {key: float(world.get(*key)["treasury"]) for key in PARTIES}
    created = spent = 0.0
    for move in moves:
        try:
            apply_command(world, GM, "test-transfer", move)
        except CommandError as error:
            # Refused: nobody to pay or be paid, or not enough money without debt.
            assert error.field in ("amount", "treasury")
            if error.field == "treasury":
                assert not move["debt"]
                assert float(world.get(*move["source"].split(":"))["treasury"]) < move["amount"]
            continue
        if not move["source"]:
            created += move["amount"]
        if not move["target"]:
            spent += move["amount"]
    entries = [e for _, e in world.all("chronicle") if e.get("amounts")]
    logged: dict[tuple[str, str], float] = {}
    for entry in entries:
        assert sum(1 for v in entry["amounts"].values() if v) <= 2
        for key, value in entry["amounts"].items():
            table, _, doc_id = key.partition(":")
            logged[(table, doc_id)] = logged.get((table, doc_id), 0.0) + value
    for key in PARTIES:
        assert float(world.get(*key)["treasury"]) == pytest.approx(start[key] + logged.get(key, 0.0)), key
    assert treasury_total(world) == pytest.approx(sum(start.values()) + created - spent)
    assert sum(logged.values()) == pytest.approx(created - spent)


COUNT_FIELDS = (
    [("kingdoms", k, f) for k in KINGDOMS for f in ("manpower", "influence", "business_tax")]
    + [("provinces", p, "surplus_manpower") for p in sorted(BASE["provinces"])]
    + [("pcs", p, f) for p in sorted(BASE["pcs"]) for f in ("tax", "resistance", "fort_level")]
    + [("businesses", b, f) for b in sorted(BASE["businesses"]) for f in ("size", "invested")]
)


def all_counts(world: World) -> dict[tuple[str, str, str], Any]:
    return {(t, i, f): world.get(t, i)[f] for t, i, f in COUNT_FIELDS}


operations = st.lists(
    st.one_of(
        st.tuples(st.just("adjust"), st.sampled_from(COUNT_FIELDS), st.integers(-30, 30)),
        st.tuples(st.just("pay"), party_keys, amounts),
    ),
    min_size=1,
    max_size=30,
)


@SETTINGS
@given(operations)
def test_counts_never_go_negative(ops: list[tuple[Any, ...]]) -> None:
    world = World(copy.deepcopy(BASE))
    for op in ops:
        before = copy.deepcopy(world.data)
        if op[0] == "adjust":
            (table, doc_id, field), delta = op[1], op[2]
            params = {"table": table, "id": doc_id, "field": field, "delta": str(delta)}
            would_be = world.get(table, doc_id)[field] + delta
            try:
                apply_command(world, GM, "test-adjust", params)
            except CommandError as error:
                assert would_be < 0, error
                assert error.field == f"{table}.{doc_id}.{field}"
                # In memory the refused change stays until the transaction is dropped; undo it here
                # as the store would by never writing.
                world = World(before)
                continue
            assert would_be >= 0
        else:
            _, party, amount = op
            try:
                apply_command(world, GM, "test-transfer", {"source": party, "amount": amount})
            except CommandError as error:
                assert error.field == "treasury"
                assert world.data == before
                continue
        for key, value in all_counts(world).items():
            assert value >= 0, key
        for key in PARTIES:
            assert world.get(*key)["treasury"] >= 0, key


IDENTITIES = [GM, Identity("king", "elbreth"), Identity("king", "varos"), Identity("player", "nyx")]
FOUNDATION = {
    "note": ("text", "audience"),
    "roll": ("reason", "modifier", "kingdom", "audience"),
    "schedule": ("text", "due", "audience"),
    "undo": (),
    "advance": (),
    "order-file": ("command", "params", "private", "note"),
    "order-reject": ("order", "reason"),
    "order-withdraw": ("order",),
    "order-resolve": ("order",),
}
junk_text = st.one_of(
    st.sampled_from(
        [
            "",
            " ",
            "abc",
            "-1",
            "1.5",
            "yes",
            "maybe",
            "kingdom:atlantis",
            "character:",
            "elbreth",
            "kingdom:elbreth",
            "Spring 312",
            "Winter 311",
            "Summer 312",
            "o-0001",
            "o-9999",
            "roll",
            "advance",
            "reason=x;modifier=q",
            "{",
            "[1]",
            "public",
            "adjudicators",
        ]
    ),
    st.text(max_size=12),
)


@st.composite
def bad_calls(draw: st.DrawFn) -> tuple[Identity, str, dict[str, str], list[int]]:
    name = draw(st.sampled_from(sorted(FOUNDATION)))
    known = FOUNDATION[name]
    keys = draw(st.lists(st.sampled_from(known), unique=True)) if known else []
    params = {k: draw(junk_text) for k in keys}
    if draw(st.booleans()) or not known:
        params[draw(st.sampled_from(["colour", "amount", "x", "text2"]))] = draw(junk_text)
    identity = draw(st.sampled_from(IDENTITIES))
    dice = draw(st.lists(st.integers(0, 7), max_size=3))
    return identity, name, params, dice


@pytest.fixture(scope="module")
def base_save() -> Any:
    with tempfile.TemporaryDirectory() as directory:
        save = create_world(Path(directory) / "world.json")
        # One waiting order so the order commands have something real to refuse or touch.
        run_command(save, Identity("player", "nyx"), "order-file", {"command": "roll", "params": "reason=scout"})
        yield save, save.path.read_bytes()


@SETTINGS
@given(bad_calls())
def test_failed_command_leaves_the_save_unchanged(
    base_save: tuple[WorldFile, bytes], call: tuple[Identity, str, dict[str, str], list[int]]
) -> None:
    save, base = base_save
    save.path.write_bytes(base)
    identity, name, params, dice = call
    try:
        run_command(save, identity, name, params, ScriptedDice(dice))
    except (CommandError, DiceError) as error:
        assert save.path.read_bytes() == base, f"{name} {params} as {identity} failed ({error}) but wrote"
        if isinstance(error, CommandError):
            assert error.field and error.reason
        return
    # It was valid after all: then it wrote a loadable world.
    World(save.read())
