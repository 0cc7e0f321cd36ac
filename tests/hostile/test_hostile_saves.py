"""Corrupted saves: wrong types in meta, documents that are not documents, tables that are not
tables, nested fields of the wrong type, entries without dates. Every verb that reads the save
refuses on one line that names the file, the table, the id and the field; nothing is written.
And a command may not write a world that does not validate."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from hostile_helpers import assert_refused, sha256, yak

from yak_tui.kernel.play.commands import COMMANDS, CommandContext, CommandError, CommandSpec, run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.store.files import CorruptSaveError
from yak_tui.store.storage import WorldFile

Data = dict[str, Any]
DATE = {"year": 312, "season": "Spring"}
ENTRY = {
    "id": "e000001",
    "seq": 1,
    "date": DATE,
    "kind": "note",
    "text": "x",
    "audience": "public",
    "actor": "gm",
    "command": "note",
    "rolls": [],
}


def meta(data: Data) -> Data:
    world: Data = data["meta"]["world"]
    return world


def with_entry(**changes: Any) -> Callable[[Data], None]:
    def mutate(data: Data) -> None:
        entry = {**ENTRY, **changes}
        for key in [k for k, v in changes.items() if v is DROP]:
            del entry[key]
        data["chronicle"]["e000001"] = entry

    return mutate


DROP = object()


def first_unit(data: Data) -> str:
    return sorted(data["units"])[0]


# (case id, change to the demo save, what the error line must name)
CASES: list[tuple[str, Callable[[Data], None], tuple[str, ...]]] = [
    ("schema-version-text", lambda d: meta(d).update(schema_version="abc"), ("meta", "schema_version")),
    ("schema-version-null", lambda d: meta(d).update(schema_version=None), ("meta", "schema_version")),
    ("schema-version-list", lambda d: meta(d).update(schema_version=[1]), ("meta", "schema_version")),
    ("schema-version-negative", lambda d: meta(d).update(schema_version=-1), ("meta", "schema_version")),
    ("schema-version-bool", lambda d: meta(d).update(schema_version=True), ("meta", "schema_version")),
    ("undo-number", lambda d: meta(d).update(undo=5), ("meta", "'world'", "undo")),
    ("undo-table", lambda d: meta(d).update(undo={"a": 1}), ("meta", "undo")),
    ("undo-record-text", lambda d: meta(d).update(undo=["x"]), ("meta", "undo[0]")),
    (
        "undo-changes-list",
        lambda d: meta(d).update(undo=[{"command": "note", "identity": "gm", "date": DATE, "changes": []}]),
        ("meta", "undo[0].changes"),
    ),
    (
        "undo-table-list",
        lambda d: meta(d).update(
            undo=[{"command": "note", "identity": "gm", "date": DATE, "changes": {"kingdoms": []}}]
        ),
        ("meta", "undo[0].changes.kingdoms"),
    ),
    (
        "undo-document-text",
        lambda d: meta(d).update(
            undo=[{"command": "note", "identity": "gm", "date": DATE, "changes": {"kingdoms": {"elbreth": "x"}}}]
        ),
        ("meta", "undo[0].changes.kingdoms.elbreth"),
    ),
    (
        "undo-unknown-table",
        lambda d: meta(d).update(
            undo=[{"command": "note", "identity": "gm", "date": DATE, "changes": {"bogus": {"x": None}}}]
        ),
        ("meta", "undo[0].changes.bogus"),
    ),
    (
        "undo-without-date",
        lambda d: meta(d).update(undo=[{"command": "note", "identity": "gm", "changes": {}}]),
        ("meta", "undo[0].date", "required"),
    ),
    ("chronicle-seq-text", lambda d: meta(d).update(chronicle_seq="7"), ("meta", "chronicle_seq")),
    ("next-id-counter-float", lambda d: meta(d).update(next_orders=1.5), ("meta", "next_orders")),
    ("history-text", lambda d: meta(d).update(history="x"), ("meta", "history")),
    (
        "history-point-without-kingdoms",
        lambda d: meta(d).update(history=[{"date": DATE}]),
        ("meta", "history[0].kingdoms"),
    ),
    ("world-name-number", lambda d: meta(d).update(name=5), ("meta", "name")),
    ("meta-world-text", lambda d: d["meta"].update(world="x"), ("meta.world",)),
    ("meta-date-missing", lambda d: meta(d).pop("date"), ("date",)),
    ("meta-season-unknown", lambda d: meta(d).update(date={"year": 312, "season": "Monsoon"}), ("date",)),
    ("meta-other-document-text", lambda d: d["meta"].update(other="x"), ("meta", "'other'")),
    ("document-text", lambda d: d["kingdoms"].update(elbreth="x"), ("kingdoms", "'elbreth'", "document")),
    ("document-number", lambda d: d["pcs"].update(highmoor=5), ("pcs", "'highmoor'")),
    ("document-list", lambda d: d["characters"].update(corvin=[1, 2]), ("characters", "'corvin'")),
    ("document-null", lambda d: d["provinces"].update(greywood=None), ("provinces", "'greywood'")),
    ("table-list", lambda d: d.update(kingdoms=[]), ("kingdoms",)),
    ("table-text", lambda d: d.update(units="x"), ("units",)),
    ("unknown-table-of-numbers", lambda d: d.update(extra={"a": 1}), ("extra", "'a'")),
    (
        "field-wrong-type",
        lambda d: d["kingdoms"]["elbreth"].update(treasury="abc"),
        ("kingdoms", "'elbreth'", "treasury"),
    ),
    (
        "field-bool-for-number",
        lambda d: d["kingdoms"]["elbreth"].update(treasury=True),
        ("kingdoms", "'elbreth'", "treasury"),
    ),
    (
        "field-beyond-64-bits",
        lambda d: d["kingdoms"]["varos"].update(manpower=2**63),
        ("kingdoms", "'varos'", "manpower", "at most 100000000000"),
    ),
    ("field-below-minimum", lambda d: d["kingdoms"]["varos"].update(manpower=-1), ("kingdoms", "'varos'", "manpower")),
    ("field-required-missing", lambda d: d["kingdoms"]["kesh"].pop("name"), ("kingdoms", "'kesh'", "name", "required")),
    ("field-unknown-choice", lambda d: d["units"][first_unit(d)].update(size="huge"), ("units", "size")),
    ("nested-list-item", lambda d: d["pcs"]["highmoor"].update(hex=["a", 1]), ("pcs", "'highmoor'", "hex[0]")),
    (
        "nested-map-value",
        lambda d: d["characters"]["maelis"].update(ranks={"power": "x"}),
        ("characters", "'maelis'", "ranks.power"),
    ),
    (
        "nested-record-field",
        lambda d: d["specialists"]["elbreth"].update(counter_spies={"provinces": "all"}),
        ("specialists", "'elbreth'", "counter_spies.provinces"),
    ),
    (
        "nested-date",
        lambda d: d["effects"][sorted(d["effects"])[0]].update(start={"year": "311"}),
        ("effects", "start"),
    ),
    ("chronicle-without-date", with_entry(date=DROP), ("chronicle", "'e000001'", "date", "required")),
    ("chronicle-date-text", with_entry(date="Spring 312"), ("chronicle", "'e000001'", "date")),
    ("chronicle-roll-purpose", with_entry(rolls=[{"purpose": 1}]), ("chronicle", "rolls[0].purpose")),
    (
        "chronicle-roll-modifier",
        with_entry(rolls=[{"purpose": "x", "modifiers": [{"value": "1", "reason": "r"}]}]),
        ("chronicle", "rolls[0].modifiers[0].value"),
    ),
    (
        "chronicle-amount-text",
        with_entry(amounts={"kingdoms:elbreth": "ten"}),
        ("chronicle", "amounts.kingdoms:elbreth"),
    ),
    (
        "order-status-unknown",
        lambda d: d["orders"].update(
            {
                "o-0001": {
                    "command": "note",
                    "params": {},
                    "filed_by": "king:elbreth",
                    "adjudicator": "gm",
                    "status": "lost",
                }
            }
        ),
        ("orders", "'o-0001'", "status"),
    ),
    (
        "ledger-parties-text",
        lambda d: d["ledger"].update(
            {
                "cr-0001": {
                    "kind": "credit",
                    "lender": "hale-bank",
                    "debtor": "edmund",
                    "amount": 5,
                    "outstanding": 5,
                    "status": "open",
                    "parties": "everyone",
                }
            }
        ),
        ("ledger", "'cr-0001'", "parties"),
    ),
    (
        "user-key-number",
        lambda d: d["users"].update(bob={"identity": "gm", "key": 5, "fingerprint": "x"}),
        ("users", "'bob'", "key"),
    ),
]

VERBS = (
    ["do", "note", "text=hello"],
    ["show"],
    ["show", "kingdoms"],
    ["log"],
    ["due"],
    ["export"],
    ["undo"],
    ["advance", "--preview"],
    ["--as", "player:corvin", "show", "orders"],
    ["--json", "do", "note", "text=x"],
)


def write(path: Path, data: Any) -> None:
    path.write_bytes(orjson.dumps(data))


@pytest.mark.parametrize(("mutate", "names"), [(m, n) for _, m, n in CASES], ids=[c for c, _, _ in CASES])
def test_a_corrupted_save_is_refused_by_every_verb(
    capsys: pytest.CaptureFixture[str], save_path: Path, mutate: Callable[[Data], None], names: tuple[str, ...]
) -> None:
    data = orjson.loads(save_path.read_bytes())
    mutate(data)
    write(save_path, data)
    for verb in VERBS:
        line = assert_refused(capsys, ["--save", str(save_path), *verb], save_path, *names)
        assert str(save_path) in line, line


@pytest.mark.parametrize(
    "payload",
    [b"[]", b'"x"', b"5", b'{"meta": 1}', b"{}", b'{"kingdoms": {}}', b'{"meta": {"world": ', b"", b"\xff\xfe"],
)
def test_a_save_that_is_not_a_world_is_refused(
    capsys: pytest.CaptureFixture[str], save_path: Path, payload: bytes
) -> None:
    save_path.write_bytes(payload)
    for verb in VERBS:
        line = assert_refused(capsys, ["--save", str(save_path), *verb], save_path)
        assert str(save_path) in line, line


def test_every_reader_of_the_store_validates(save_path: Path) -> None:
    """The app and the server read through WorldFile.read too: they get the same refusal."""
    data = orjson.loads(save_path.read_bytes())
    data["kingdoms"]["elbreth"]["treasury"] = "abc"
    write(save_path, data)
    with pytest.raises(CorruptSaveError, match=r"kingdoms 'elbreth', field treasury"):
        WorldFile(save_path).read()


def _command_that(change: Callable[[CommandContext], None], monkeypatch: pytest.MonkeyPatch) -> str:
    def handler(ctx: CommandContext, p: dict[str, Any]) -> None:
        change(ctx)

    monkeypatch.setitem(COMMANDS, "test-corrupt", CommandSpec("test-corrupt", "", {}, handler))
    return "test-corrupt"


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda ctx: ctx.world.edit("kingdoms", "elbreth").update(treasury=float("nan")), "kingdoms.elbreth.treasury"),
        (lambda ctx: ctx.world.edit("kingdoms", "elbreth").update(treasury=float("-inf")), "kingdoms.elbreth.treasury"),
        (lambda ctx: ctx.world.edit("kingdoms", "elbreth").update(influence=2**64), "kingdoms.elbreth.influence"),
        (
            lambda ctx: ctx.world.edit("kingdoms", "elbreth").update(notes={"a": float("nan")}),
            "kingdoms.elbreth.notes.a",
        ),
        (lambda ctx: ctx.world.edit("kingdoms", "elbreth").update(ruler=7), "kingdoms.elbreth.ruler"),
        (lambda ctx: ctx.world.edit("pcs", "highmoor").update(hex=[1, "2"]), "pcs.highmoor.hex[1]"),
        (lambda ctx: ctx.world.meta.update(chronicle_seq="x"), "meta.world.chronicle_seq"),
        (lambda ctx: ctx.world.meta.update(undo={}), "meta.world.undo"),
        (lambda ctx: ctx.world.meta.update(history=[{"date": "now", "kingdoms": {}}]), "meta.world.history[0].date"),
    ],
    ids=[
        "nan",
        "minus-infinity",
        "beyond-64-bits",
        "nested-nan",
        "wrong-type",
        "nested-wrong-type",
        "meta-counter",
        "meta-undo",
        "meta-history",
    ],
)
def test_a_command_may_not_write_a_world_that_does_not_validate(
    save_path: Path, monkeypatch: pytest.MonkeyPatch, change: Callable[[CommandContext], None], field: str
) -> None:
    name = _command_that(change, monkeypatch)
    before = sha256(save_path)
    with pytest.raises(CommandError) as refused:
        run_command(WorldFile(save_path), GM, name, {})
    assert refused.value.field == field, refused.value
    assert sha256(save_path) == before


def _vouched(capsys: pytest.CaptureFixture[str], save_path: Path) -> Path:
    """The save after a command (which vouches for the bytes it wrote), and its vouch."""
    assert yak(capsys, ["--save", str(save_path), "do", "note", "text=vouched"])[0] == 0
    vouch = save_path.with_name(save_path.name + ".vouch")
    assert vouch.is_file()
    return vouch


@pytest.mark.parametrize(("mutate", "names"), [(m, n) for _, m, n in CASES], ids=[c for c, _, _ in CASES])
def test_a_hand_edit_of_a_vouched_save_is_refused_as_if_unvouched(
    capsys: pytest.CaptureFixture[str], save_path: Path, mutate: Callable[[Data], None], names: tuple[str, ...]
) -> None:
    vouch = _vouched(capsys, save_path)
    vouch_bytes = vouch.read_bytes()
    data = orjson.loads(save_path.read_bytes())
    mutate(data)
    write(save_path, data)
    lines = [assert_refused(capsys, ["--save", str(save_path), *verb], save_path, *names) for verb in VERBS[:3]]
    assert vouch.read_bytes() == vouch_bytes  # refusing wrote nothing beside the save either
    vouch.unlink()
    assert [assert_refused(capsys, ["--save", str(save_path), *verb], save_path, *names) for verb in VERBS[:3]] == lines


@pytest.mark.parametrize(
    "payload",
    [b"", b"[]", b"5", b'{"sha256": 5}', b'{"sha256": null, "rules": []}', b"\xff\xfe", b"{" * 10_000, b"directory"],
    ids=lambda p: repr(p[:20]),
)
def test_a_hostile_vouch_is_no_vouch(capsys: pytest.CaptureFixture[str], save_path: Path, payload: bytes) -> None:
    vouch = _vouched(capsys, save_path)
    vouch.unlink()
    if payload == b"directory":
        vouch.mkdir()
    else:
        vouch.write_bytes(payload)
    code, out, err = yak(capsys, ["--save", str(save_path), "show"])
    assert code == 0 and out, err
    data = orjson.loads(save_path.read_bytes())
    data["kingdoms"]["elbreth"]["treasury"] = "abc"
    write(save_path, data)
    assert_refused(capsys, ["--save", str(save_path), "show"], save_path, "kingdoms 'elbreth', field treasury")
