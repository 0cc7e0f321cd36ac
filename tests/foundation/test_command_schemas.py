"""Every table a command can write has a schema, and every document a command writes is checked
against it: a table no schema describes is refused at the write, not written unchecked."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from yak_plugin import Table

from yak_tui.kernel.errors import CommandError, ValidationError
from yak_tui.kernel.play.commands import COMMANDS, load_command_modules
from yak_tui.kernel.world import model, validation
from yak_tui.kernel.world.demo import build_world
from yak_tui.kernel.world.documents import SCHEMAS
from yak_tui.kernel.world.fields import TABLE_NAMES

load_command_modules()

# A representative command per area: (identity, command, params, dice).
CAST = {"caster": "maelis", "source": "ley-line", "spell": "light"}
REPRESENTATIVES: list[tuple[str, str, dict[str, Any], list[int]]] = [
    ("gm", "note", {"text": "the bridge is out"}, []),
    ("gm", "hire", {"kingdom": "elbreth", "type": "spy"}, []),
    ("gm", "counter-spy", {"kingdom": "elbreth"}, []),
    ("gm", "cast", CAST, [3, 3, 3]),
    (
        "player:corvin",
        "order-file",
        {"command": "business-expand", "params": '{"business": "hale-bank", "sizes": 1}'},
        [],
    ),
    ("gm", "advance", {}, []),
]


def test_every_table_of_the_world_has_a_schema() -> None:
    assert set(TABLE_NAMES) <= set(SCHEMAS), sorted(set(TABLE_NAMES) - set(SCHEMAS))
    assert set(build_world()) <= set(SCHEMAS), sorted(set(build_world()) - set(SCHEMAS))


@pytest.fixture
def validated(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The tables of the documents a transaction checks before it writes them."""
    seen: list[str] = []
    real = validation.validate_written

    def recording(table: str, doc_id: str, doc: Any) -> None:
        seen.append(table)
        real(table, doc_id, doc)

    monkeypatch.setattr(model, "validate_written", recording)
    yield seen


def _touched(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The tables of every document a command touches (its undo record), as it writes them."""
    tables: list[str] = []
    real = model.World.revalidate_touched

    def recording(self: model.World) -> None:
        tables.extend(table for table, doc_id in self.originals if self.data[table].get(doc_id) is not None)
        real(self)

    monkeypatch.setattr(model.World, "revalidate_touched", recording)
    return tables


@pytest.mark.parametrize(
    ("who", "command", "params", "dice"), REPRESENTATIVES, ids=[command for _, command, _, _ in REPRESENTATIVES]
)
def test_a_command_writes_only_schema_checked_documents(
    table: Table,
    validated: list[str],
    monkeypatch: pytest.MonkeyPatch,
    who: str,
    command: str,
    params: dict[str, Any],
    dice: list[int],
) -> None:
    assert command in COMMANDS
    touched = _touched(monkeypatch)
    if command == "advance":
        table.set_date("Winter 312")  # the year start runs every area's steps
    table.run(who, command, dice=dice, **params)
    assert touched, f"{command} wrote nothing"
    assert set(touched) <= set(validated), sorted(set(touched) - set(validated))
    assert set(validated) <= set(SCHEMAS), sorted(set(validated) - set(SCHEMAS))


def test_a_write_to_a_table_without_a_schema_is_refused(table: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: with the chronicle's schema gone, a command that writes an entry is
    refused and the world file is unchanged."""
    monkeypatch.delitem(SCHEMAS, "chronicle")
    before = table.path.read_bytes()
    with pytest.raises((CommandError, ValidationError)) as caught:
        table.run("gm", "note", text="the bridge is out")
    assert "no schema describes this table" in str(caught.value)
    assert table.path.read_bytes() == before
