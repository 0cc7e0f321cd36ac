"""The schemas compiled into fast predicates: one function per table that says whether a document
holds its shape, without building an explanation. A world that passes them needs no other check;
one that fails is checked again by the explaining checker, which says what is wrong.
"""

from __future__ import annotations

import hashlib
import sys
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from yak_tui.codecache import CodeCache, fill_dataclass_methods
from yak_tui.kernel.world.documents import SCHEMAS, SEASON_CHOICES
from yak_tui.kernel.world.fields import (
    BOOL,
    DATE,
    INT,
    INT64_MAX,
    INT64_MIN,
    JSON,
    LIST,
    MAP,
    NUMBER,
    RECORD,
    TEXT,
    Field,
)
from yak_tui.kernel.world.problems import TEXT_ONLY, json_faithful, plain_text


class _CodeCache(CodeCache):
    """The predicates' compiled code, kept between processes as Python keeps a module's bytecode.

    Compiling every table's predicates is ~200 KB of generated source, 50-65 ms of CPU: each process
    that checks documents paid it again for the tables it touched (`yak advance` ~35 ms, each app
    applying a change journal a few ms a table; issue 30). The code is keyed by the sha256 of its
    source, so a changed schema or compiler compiles afresh, and stored beside this module's bytecode
    (`yak_tui.codecache.CodeCache`)."""

    def __init__(self, path: Path | None) -> None:
        super().__init__(path, key=_digest, filename="<yak_tui schema>")


def _digest(source: str) -> str:
    return hashlib.sha256(source.encode()).hexdigest()


def _cache_path() -> Path | None:
    tag = sys.implementation.cache_tag
    return None if tag is None else Path(__file__).with_name("__pycache__") / f"compiled_checks.schemas.{tag}.marshal"


CODE_CACHE = _CodeCache(_cache_path())


class _Compiler:
    """Turns field specs into the source of small predicates; `env` holds what they refer to.

    `strict`: the predicate also refuses what JSON cannot hold faithfully (`json_faithful`), as
    the explaining checker does: for documents a command writes. A loaded save needs no such
    check (orjson reads only plain JSON), so its predicate skips the walk."""

    def __init__(self, strict: bool = False) -> None:
        self.env: dict[str, Any] = {
            "_LO": INT64_MIN,
            "_HI": INT64_MAX,
            "_SEASONS": tuple(SEASON_CHOICES),
            "_faithful": json_faithful,
            "TEXT_ONLY": TEXT_ONLY,
            "plain_text": plain_text,
        }
        self.count = 0
        self.strict = strict

    def name(self, prefix: str, value: Any) -> str:
        self.count += 1
        key = f"_{prefix}{self.count}"
        self.env[key] = value
        return key

    def expr(self, spec: Field, v: str) -> str:
        """A Python expression, true when the present value `v` matches `spec`."""
        kind = spec.kind
        if kind == JSON:
            return f"_faithful({v})" if self.strict else "True"
        if kind == TEXT:
            test = f"type({v}) is str"
            if spec.choices:
                test += f" and {v} in {self.name('c', frozenset(spec.choices))}"
            test += f" and ({v}.isascii() or plain_text({v}))"
        elif kind == BOOL:
            test = f"type({v}) is bool"
        elif kind in (INT, NUMBER):
            within = f"{spec.low!r} <= {v} <= {spec.high!r}"  # also false for NaN
            test = f"type({v}) is int and {within}"
            if kind == NUMBER:
                test = f"(({test}) or (type({v}) is float and {within}))"
        elif kind == DATE:
            test = (
                f"type({v}) is dict and type({v}['year']) is int and {spec.low!r} <= {v}['year'] <= {spec.high!r}"
                f" and {v}['season'] in _SEASONS"
            )
            if self.strict:
                test += f" and _faithful({v})"
        elif kind == LIST:
            assert spec.items is not None
            item = self.function(spec.items)
            test = f"type({v}) is list and (not {v} or all(map({item}, {v})))"
        elif kind == MAP:
            assert spec.values is not None
            if spec.values.kind == JSON:
                test = f"type({v}) is dict" + (f" and _faithful({v})" if self.strict else "")
            else:
                item = self.function(spec.values)
                keys = f"set(map(type, {v})) <= TEXT_ONLY and " if self.strict else ""
                test = f"type({v}) is dict and (not {v} or ({keys}all(map({item}, {v}.values()))))"
            if spec.choices:
                test += f" and {self.name('k', frozenset(spec.choices))}.issuperset({v})"
        elif kind == RECORD:
            test = f"{self.record(spec.fields or {})}({v})"
        else:
            raise AssertionError(f"unknown field kind {kind!r}")
        if spec.nullable:
            test = f"{v} is None or ({test})"
        return test

    def function(self, spec: Field) -> str:
        if spec.kind == RECORD and not spec.nullable:
            return self.record(spec.fields or {})  # no wrapper: one call per list item
        source = f"def check(x{self.LOCALS}):\n    return {self.expr(spec, 'x')}\n"
        return self.name("f", self.build(source))

    def record(self, fields: Mapping[str, Field]) -> str:
        return self.name("r", self.build(self.record_source(fields)))

    # Names the predicates use, bound as default arguments: local lookups are the cheapest.
    LOCALS = (
        ", type=type, str=str, int=int, float=float, bool=bool, dict=dict, list=list, all=all, map=map, "
        "_LO=_LO, _HI=_HI, _SEASONS=_SEASONS, plain_text=plain_text"
    )

    def record_source(self, fields: Mapping[str, Field]) -> str:
        """Fields by subscript (a missing required one raises KeyError), optional ones behind `in`:
        the cheapest lookups Python has, as this runs for every document of every save."""
        lines = [f"def check(d{self.LOCALS}):", "    if type(d) is not dict:", "        return False", "    try:"]
        for field_name, spec in sorted(fields.items(), key=lambda item: not item[1].required):
            test = f"        if not ({self.expr(spec, 'v')}):"
            if spec.required:
                lines += [f"        v = d[{field_name!r}]", test, "            return False"]
            else:
                lines += [
                    f"        if {field_name!r} in d:",
                    f"            v = d[{field_name!r}]",
                    "    " + test,
                    "                return False",
                ]
        if self.strict:  # the other fields: text keys and plain JSON, as `fields_problem` says
            known = self.name("n", frozenset(fields))
            lines += [
                "        for k in d:",
                f"            if k not in {known} and (type(k) is not str or not _faithful(d[k])):",
                "                return False",
            ]
        elif not fields:
            lines.append("        pass")
        lines += ["    except KeyError:", "        return False", "    return True"]
        return "\n".join(lines) + "\n"

    def build(self, source: str) -> Callable[[Any], bool]:
        namespace: dict[str, Any] = {}
        exec(CODE_CACHE.code(source), self.env, namespace)
        built: Callable[[Any], bool] = namespace["check"]
        return built


class _FastChecks(dict[str, Callable[[Any], bool]]):
    """Each table's predicate, compiled the first time one of its documents is checked: compiling
    them all cost every process about 12 ms at import, also those that read no save, and a save's
    empty tables need none. `FAST_CHECKS[table]` for a table no schema describes is a KeyError."""

    def __init__(self, strict: bool = False) -> None:
        super().__init__()
        self._strict = strict
        self._lock = threading.Lock()  # the app reads saves in worker threads

    def __missing__(self, table: str) -> Callable[[Any], bool]:
        schema = SCHEMAS[table]
        with self._lock:
            if table not in self:
                # A compiler per table: its source (the cache's key) is the same whichever tables a
                # process checked before, so the code cached by one serves every other.
                compiler = _Compiler(self._strict)
                self[table] = compiler.build(compiler.record_source(schema.fields))
                CODE_CACHE.save()
            return dict.__getitem__(self, table)


FAST_CHECKS = _FastChecks()
WRITE_CHECKS = _FastChecks(strict=True)  # a written document: the schema and what JSON holds faithfully


def fill_cache() -> Path | None:
    """Compile every table's predicates and store them (`CODE_CACHE`) even where Python writes no
    bytecode, as `compileall` writes `.pyc` files: for an install or a bench that runs with
    PYTHONDONTWRITEBYTECODE. The path written, or None when there is nowhere to write. The methods
    of yak's dataclasses, kept the same way, are stored with them (`yak_tui.codecache`)."""
    fill_dataclass_methods()
    for table in SCHEMAS:
        FAST_CHECKS[table]
        WRITE_CHECKS[table]
    CODE_CACHE._new = True
    CODE_CACHE.save(asked=True)
    path = CODE_CACHE.path
    return path if path is not None and path.exists() else None
