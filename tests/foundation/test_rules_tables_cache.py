"""Issue 30, fifth pass: the stock rules tables are kept parsed between processes, as Python keeps
bytecode (`kernel.world.tables.PARSED_TABLES`, a `yak_tui.codecache.CodeCache`). Parsing the seven
tables with tomllib was ~10 ms of CPU and importing tomllib 2-3 ms in every `yak due`, `yak orders`
and `yak advance`: a second process parses none and imports no tomllib, and reads the same tables."""

from __future__ import annotations

from pathlib import Path

from yak_plugin import fresh_process_probe

from yak_tui.codecache import CodeCache

PROBE = """
import sys
import orjson
from yak_tui.kernel.world import tables

data = {name: tables.table(name) for name in tables.table_names()}
print(orjson.dumps({"tomllib": "tomllib" in sys.modules, "tables": data}, option=orjson.OPT_SORT_KEYS).decode())
"""


def probe(prefix: Path, write_bytecode: bool = True) -> dict[str, object]:
    return fresh_process_probe(PROBE, prefix, write_bytecode)


def test_a_second_process_parses_no_table_and_reads_the_same(tmp_path: Path) -> None:
    first = probe(tmp_path / "pycache")
    assert first["tomllib"] is True  # parsed, and stored as the process ended
    second = probe(tmp_path / "pycache")
    assert second["tomllib"] is False
    assert second["tables"] == first["tables"]


def test_nothing_is_stored_where_python_writes_no_bytecode(tmp_path: Path) -> None:
    probe(tmp_path / "pycache", write_bytecode=False)
    again = probe(tmp_path / "pycache", write_bytecode=False)
    assert again["tomllib"] is True


def test_a_kept_value_is_a_fresh_copy_and_other_text_is_built_again(tmp_path: Path) -> None:
    path = tmp_path / "kept.marshal"
    built: list[str] = []

    def make(text: str) -> dict[str, object]:
        built.append(text)
        return {"text": text, "rows": [1, 2.5, True]}

    cache = CodeCache(path)
    one = cache.value("a = 1", lambda: make("a = 1"))
    cache.save(asked=True)  # as `fill_cache` stores it (this process may write no bytecode)
    fresh = CodeCache(path)
    again = fresh.value("a = 1", lambda: make("a = 1"))
    assert again == one and built == ["a = 1"]
    again["rows"].append(3)  # type: ignore[attr-defined]  # a caller's change stays its own
    assert fresh.value("a = 1", lambda: make("a = 1")) == one
    assert fresh.value("a = 2", lambda: make("a = 2"))["text"] == "a = 2" and built == ["a = 1", "a = 2"]
    path.write_bytes(b"not marshal")
    assert CodeCache(path).value("a = 1", lambda: make("a = 1")) == one and built[-1] == "a = 1"
