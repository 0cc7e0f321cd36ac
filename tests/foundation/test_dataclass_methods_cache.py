"""Issue 30, fourth pass: the methods `dataclasses` writes for yak's classes are kept between
processes, as Python keeps bytecode (`yak_tui.codecache`). Compiling them was 30-40 ms of CPU in
every process that imports the areas (`yak orders`, `yak due`, `yak advance`, each app's start): a
second process compiles none, and the classes behave as before; other packages' classes are made as
they always were."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from yak_plugin import fresh_process_probe

PROBE = """
import dataclasses, sys
import orjson
from yak_tui import codecache
from yak_tui.kernel.play.commands import load_command_modules, spec_for
from yak_tui.kernel.play.identity import Identity

load_command_modules()
yak_compiled = codecache.DATACLASS_METHODS.compiled

@dataclasses.dataclass(frozen=True)
class Elsewhere:  # not yak's: made as dataclasses always makes it
    x: int = 1

gm = Identity.parse("gm")
try:
    gm.role = "king"
    frozen = False
except dataclasses.FrozenInstanceError:
    frozen = True
print(orjson.dumps({
    "compiled": yak_compiled,
    "after_elsewhere": codecache.DATACLASS_METHODS.compiled,
    "path": str(codecache.DATACLASS_METHODS.path),
    "frozen": frozen,
    "equal": Identity.parse("king:varos") == Identity.parse("king:varos"),
    "hash": hash(Identity.parse("gm")) == hash(gm),
    "repr": repr(Elsewhere()) + " " + repr(spec_for("hire").params["type"])[:40],
}).decode())
"""


def probe(prefix: Path, write_bytecode: bool = True) -> dict[str, object]:
    return fresh_process_probe(PROBE, prefix, write_bytecode)


def test_a_second_process_compiles_no_dataclass_method(tmp_path: Path) -> None:
    first = probe(tmp_path / "pycache")
    assert isinstance(first["compiled"], int) and first["compiled"] > 100
    assert first["after_elsewhere"] == first["compiled"]  # another package's class: not kept
    assert Path(str(first["path"])).is_relative_to(tmp_path) and Path(str(first["path"])).exists()
    second = probe(tmp_path / "pycache")
    assert second["compiled"] == second["after_elsewhere"] == 0
    same = ("path", "frozen", "equal", "hash", "repr")
    assert {k: second[k] for k in same} == {k: first[k] for k in same}
    assert second["frozen"] and second["equal"] and second["hash"]
    assert str(second["repr"]).startswith("Elsewhere(x=1) Param(kind=")


def test_no_method_is_stored_where_python_writes_no_bytecode(tmp_path: Path) -> None:
    result = probe(tmp_path / "pycache", write_bytecode=False)
    assert isinstance(result["compiled"], int) and result["compiled"] > 100
    assert not Path(str(result["path"])).exists()


def test_a_damaged_store_is_compiled_again(tmp_path: Path) -> None:
    first = probe(tmp_path / "pycache")
    path = Path(str(first["path"]))
    from importlib.util import MAGIC_NUMBER

    for damaged in (b"", b"garbage", MAGIC_NUMBER + b"\xff" * 40, MAGIC_NUMBER + b"i\x01\x00\x00\x00"):
        path.write_bytes(damaged)
        again = probe(tmp_path / "pycache")
        assert again["compiled"] == first["compiled"] and again["frozen"]


def test_the_yak_command_stores_them_though_it_leaves_by_os_exit(tmp_path: Path) -> None:
    """`yak` leaves by `os._exit` (no `atexit` handler runs): it stores the methods itself."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(tmp_path / "pycache")
    done = subprocess.run(
        [sys.executable, "-m", "yak_tui", "resolve", "--help"], capture_output=True, text=True, timeout=300, env=env
    )
    assert done.returncode == 0, done.stderr
    assert list((tmp_path / "pycache").rglob("dataclass_methods.*.marshal"))
