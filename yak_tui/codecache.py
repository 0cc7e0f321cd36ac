"""Code that every process would compile again, kept between processes as Python keeps a module's
bytecode: the schemas' predicates (`kernel.world.compiled_checks`) and the methods `dataclasses`
writes for each of yak's classes (`keep_dataclass_methods`); and data as costly to build, the
parsed stock rules tables (`kernel.world.tables.PARSED_TABLES`, through `CodeCache.value`).

Imported by `yak_tui/__init__.py`, before any class of yak is made: it imports only what the
interpreter has loaded at start.
"""

from __future__ import annotations

import atexit
import dataclasses
import marshal
import os
import sys
import threading
from collections.abc import Callable
from importlib.util import MAGIC_NUMBER
from pathlib import Path
from types import CodeType
from typing import Any


class CodeCache:
    """Compiled code by source, kept in a file like a `.pyc`: under the interpreter's bytecode
    version (`MAGIC_NUMBER`), not written when Python writes no bytecode, and anything unreadable
    there compiled again. `key` names a source in the file (the source itself by default)."""

    def __init__(self, path: Path | None, key: Callable[[str], str] | None = None, filename: str = "<string>") -> None:
        self.path = path
        self.compiled = 0  # sources this process compiled (a test counts them)
        self._key = key
        self._filename = filename
        self._codes: dict[str, Any] | None = None  # a stored entry stays marshalled until it is asked for
        self._new = False
        self._lock = threading.RLock()

    def code(self, source: str) -> CodeType:
        with self._lock:
            codes = self._loaded()
            key = source if self._key is None else self._key(source)
            code = codes.get(key)
            if type(code) is bytes:
                try:
                    code = codes[key] = marshal.loads(code)
                except (ValueError, EOFError, TypeError):
                    code = None
            if type(code) is not CodeType:
                code = codes[key] = compile(source, self._filename, "exec")
                self.compiled += 1
                self._new = True
            return code

    def value(self, key: str, make: Callable[[], Any]) -> Any:
        """A value `marshal` can store (dicts, lists, text, numbers) kept by `key`: a fresh copy of
        the stored one (as `make` would have built it), or `make()`, stored when the process ends.
        For data that is as costly to build as code to compile: the parsed rules tables."""
        with self._lock:
            stored = self._loaded().get(key)
            if type(stored) is bytes:
                try:
                    return marshal.loads(stored)
                except (ValueError, EOFError, TypeError):
                    pass
            built = make()
            try:
                self._loaded()[key] = marshal.dumps(built)
            except ValueError:  # something marshal cannot store (a TOML date): built again each time
                return built
            self._new = True
            return built

    def _read(self) -> dict[str, Any]:
        if self.path is None:
            return {}
        try:
            raw = self.path.read_bytes()
            if not raw.startswith(MAGIC_NUMBER):
                return {}
            stored = marshal.loads(raw[len(MAGIC_NUMBER) :])
        except (OSError, ValueError, EOFError, TypeError):
            return {}
        if type(stored) is not dict:
            return {}
        return {key: code for key, code in stored.items() if type(key) is str and type(code) in (bytes, CodeType)}

    def _loaded(self) -> dict[str, Any]:
        if self._codes is None:
            self._codes = self._read()
        return self._codes

    def save(self, *, asked: bool = False) -> None:
        """Store what this process compiled (with what others stored meanwhile); best effort.
        `asked`: also when Python writes no bytecode (`fill_cache`, as `compileall` writes `.pyc`s)."""
        with self._lock:
            if not self._new or self.path is None or (sys.dont_write_bytecode and not asked):
                return
            self._new = False
            merged = {**self._read(), **self._loaded()}
            codes = {key: code if type(code) is bytes else marshal.dumps(code) for key, code in merged.items()}
            temp = self.path.with_name(f"{self.path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                temp.write_bytes(MAGIC_NUMBER + marshal.dumps(codes))
                os.replace(temp, self.path)
            except OSError:
                try:
                    temp.unlink(missing_ok=True)
                except OSError:
                    pass


# The caches stored when the process ends (`save_kept`: by `atexit`, and by `yak` before its
# `os._exit`), each with what fills it all (`fill_dataclass_methods` calls it), or None.
KEPT: list[tuple[CodeCache, Callable[[], object] | None]] = []


def keep(cache: CodeCache, fill: Callable[[], object] | None = None) -> CodeCache:
    """Store `cache` when the process ends; `fill` builds every entry it can hold (for `fill_cache`)."""
    KEPT.append((cache, fill))
    return cache


def save_kept() -> None:
    """Store what every kept cache learnt in this process (best effort, as each `save`)."""
    for kept, _ in KEPT:
        kept.save()


def cache_path(name: str) -> Path | None:
    """Where a cache named `name` lives: beside yak_tui's own bytecode (`__pycache__`, or under
    PYTHONPYCACHEPREFIX when one is set), None where Python keeps no bytecode."""
    tag = sys.implementation.cache_tag
    if tag is None:
        return None
    from importlib.util import cache_from_source

    return Path(cache_from_source(__file__)).with_name(f"{name}.{tag}.marshal")


# The methods `dataclasses` writes for a class (__init__, __repr__, __eq__, a frozen class's
# __setattr__ ...) are source it compiles with `exec`, ~0.1 ms a method: importing every area made 72
# classes, 30-40 ms of CPU in every `yak orders`, `yak due`, `yak advance` and app start (issue 30).
DATACLASS_METHODS = CodeCache(cache_path("dataclass_methods"))


def _exec_kept(source: Any, globals: Any = None, locals: Any = None, /) -> None:
    """`exec` as `dataclasses` calls it, with the code of a method of yak's own classes compiled once
    (the source says all the code does: what it refers to is in `globals` and `locals`)."""
    if type(source) is str and type(globals) is dict and str(globals.get("__name__", "")).startswith("yak_tui"):
        source = DATACLASS_METHODS.code(source)
    exec(source, globals, locals)


def keep_dataclass_methods() -> None:
    """Make `dataclasses` compile the methods of yak's classes through `DATACLASS_METHODS`, stored
    when the process ends. Other packages' classes are made as before."""
    if getattr(dataclasses, "exec", None) is not _exec_kept:
        dataclasses.exec = _exec_kept  # type: ignore[attr-defined]  # found before the builtin
        keep(DATACLASS_METHODS)
        atexit.register(save_kept)


def fill_dataclass_methods() -> Path | None:
    """Make every class of yak (each of its modules imported) and store their methods even where
    Python writes no bytecode, as `compileall` writes `.pyc` files: for an install or a bench that
    runs with PYTHONDONTWRITEBYTECODE (`kernel.world.compiled_checks.fill_cache` calls it); the other
    kept caches (the parsed rules tables) are filled and stored with them. The path written, or None
    when there is nowhere to write."""
    import importlib
    import pkgutil

    import yak_tui

    for module in pkgutil.walk_packages(yak_tui.__path__, "yak_tui.", onerror=lambda name: None):
        try:
            importlib.import_module(module.name)
        except ImportError:  # a front end's optional dependency: its classes are made when it is used
            continue
    DATACLASS_METHODS._new = True
    DATACLASS_METHODS.save(asked=True)
    for kept, fill in KEPT:  # the other kept caches (the parsed rules tables), filled and stored
        if fill is not None and kept is not DATACLASS_METHODS:
            fill()
            kept._new = True
            kept.save(asked=True)
    path = DATACLASS_METHODS.path
    return path if path is not None and path.exists() else None
