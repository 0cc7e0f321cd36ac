"""Issue 30: the schemas' compiled predicates are kept between processes, as Python keeps bytecode.
Compiling them was 50-65 ms of CPU in every process that checks documents (`yak advance` ~35 ms,
each app applying a change journal a few ms a table). A second process compiles none; a changed or
damaged cache compiles again; what a save is refused for is as before."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson

from yak_tui.store.storage import WorldFile

PROBE = """
import sys
from pathlib import Path
import orjson
from yak_tui.kernel.world import compiled_checks, problems, validation
compiled_checks.CODE_CACHE = compiled_checks._CodeCache(Path(sys.argv[1]))
data = orjson.loads(open(sys.argv[2], "rb").read())
if len(sys.argv) > 3:  # the tables checked in another order than the first process's
    data = dict(reversed(list(data.items())))
try:
    validation.validate_world(data)
    for table, docs in data.items():
        for doc_id, doc in docs.items():
            if table in validation.SCHEMAS and table != "meta":
                validation.validate_written(table, doc_id, doc)
    verdict = "valid"
except problems.DocumentError as error:
    verdict = str(error)
print(orjson.dumps({"compiled": compiled_checks.CODE_CACHE.compiled, "verdict": verdict}).decode())
"""


def probe(cache: Path, save: Path, write_bytecode: bool = True, reverse: bool = False) -> dict[str, object]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if not write_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(cache), str(save), *(["reverse"] if reverse else [])],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = orjson.loads(done.stdout)
    return result


def test_a_second_process_compiles_no_predicate(save: WorldFile, tmp_path: Path) -> None:
    cache = tmp_path / "pycache" / "checks.marshal"
    first = probe(cache, save.path)
    assert first["verdict"] == "valid" and isinstance(first["compiled"], int) and first["compiled"] > 10
    assert cache.exists()
    assert probe(cache, save.path) == {"compiled": 0, "verdict": "valid"}
    # A table's code does not depend on which tables a process checked before it.
    assert probe(cache, save.path, reverse=True) == {"compiled": 0, "verdict": "valid"}


def test_no_cache_is_written_where_python_writes_no_bytecode(save: WorldFile, tmp_path: Path) -> None:
    cache = tmp_path / "checks.marshal"
    assert probe(cache, save.path, write_bytecode=False)["verdict"] == "valid"
    assert not cache.exists()


def test_a_damaged_cache_is_compiled_again(save: WorldFile, tmp_path: Path) -> None:
    cache = tmp_path / "checks.marshal"
    from importlib.util import MAGIC_NUMBER

    for damaged in (b"", b"not marshal at all", MAGIC_NUMBER + b"\xff" * 40, MAGIC_NUMBER + b"i\x01\x00\x00\x00"):
        cache.write_bytes(damaged)
        result = probe(cache, save.path)
        assert result["verdict"] == "valid" and result["compiled"] != 0
        cache.unlink()


def test_a_bad_document_is_refused_as_before_with_the_cache(save: WorldFile, tmp_path: Path) -> None:
    cache = tmp_path / "checks.marshal"
    probe(cache, save.path)  # filled from a valid save
    data = orjson.loads(save.path.read_bytes())
    kingdom = next(iter(data["kingdoms"]))
    data["kingdoms"][kingdom]["treasury"] = "lots"
    bad = save.path.with_name("bad.json")
    bad.write_bytes(orjson.dumps(data))
    assert probe(cache, bad) == {
        "compiled": 0,
        "verdict": f"kingdoms {kingdom!r}, field treasury: must be a number, not 'lots'",
    }
