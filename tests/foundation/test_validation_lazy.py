"""Issue 13, first paint: each table's fast predicate is compiled when the table is first checked,
not at import (every process paid about 12 ms, also those that read no save), and a save's empty
tables compile none. What a save is refused for, and with which words, is as before."""

from __future__ import annotations

import subprocess
import sys

import orjson
import pytest

from yak_tui.kernel.world.documents import SCHEMAS
from yak_tui.kernel.world.problems import DocumentError
from yak_tui.store.files import CorruptSaveError
from yak_tui.store.storage import WorldFile

PROBE = """
import sys
import orjson
from yak_tui.kernel.world import compiled_checks, problems, validation
compiled_at_import = sorted(compiled_checks.FAST_CHECKS)
if len(sys.argv) > 1:
    data = orjson.loads(open(sys.argv[1], "rb").read())
    try:
        validation.validate_world(data)
        verdict = "valid"
    except problems.DocumentError as error:
        verdict = str(error)
else:
    verdict = ""
print(orjson.dumps({"import": compiled_at_import, "after": sorted(compiled_checks.FAST_CHECKS), "verdict": verdict}).decode())
"""


def probe(*argv: str) -> dict[str, object]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = orjson.loads(done.stdout)
    return result


def test_importing_validation_compiles_no_predicate() -> None:
    assert probe() == {"import": [], "after": [], "verdict": ""}


def test_a_save_compiles_the_predicates_of_its_tables_with_documents(save: WorldFile) -> None:
    data = orjson.loads(save.path.read_bytes())
    filled = sorted(table for table, docs in data.items() if docs and table in SCHEMAS)
    assert "kingdoms" in filled and any(not data.get(table) for table in SCHEMAS)  # the demo has empty tables
    assert probe(str(save.path)) == {"import": [], "after": filled, "verdict": "valid"}


def test_a_bad_document_is_named_when_its_table_is_first_checked(save: WorldFile, tmp_path: object) -> None:
    data = orjson.loads(save.path.read_bytes())
    kingdom = next(iter(data["kingdoms"]))
    data["kingdoms"][kingdom]["treasury"] = "lots"
    bad = save.path.with_name("bad.json")
    bad.write_bytes(orjson.dumps(data))
    result = probe(str(bad))
    assert result["verdict"] == f"kingdoms {kingdom!r}, field treasury: must be a number, not 'lots'"
    before = bad.read_bytes()
    with pytest.raises(CorruptSaveError, match=rf"kingdoms {kingdom!r}, field treasury: must be a number"):
        WorldFile(bad).read()
    assert bad.read_bytes() == before


def test_a_table_without_a_schema_has_no_predicate() -> None:
    from yak_tui.kernel.world.compiled_checks import FAST_CHECKS
    from yak_tui.kernel.world.validation import validate_table

    with pytest.raises(KeyError):
        FAST_CHECKS["no-such-table"]
    validate_table("no-such-table", {"a": {"anything": [1, "two"]}})  # documents of an unknown table: only dicts
    with pytest.raises(DocumentError, match="must be a document"):
        validate_table("no-such-table", {"a": [1]})
