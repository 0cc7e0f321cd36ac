"""Names a package exports from a module it loads only when one of them is first used.

An area's read models (what the screens and `yak show` draw) cost every process that imports the
area about 10 ms together; a command that only changes the world (`yak advance`, `yak do ...`,
every order a session files) never uses them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any


def lazy_exports(package: str, modules: str | Sequence[str], names: Iterable[str]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package`: each of `names` the package does not define itself (its
    `__all__` will do) is taken from the first of `modules` that has it when first asked for, and
    kept in the package."""
    wanted = frozenset(names)
    sources = (modules,) if isinstance(modules, str) else tuple(modules)

    def exported(name: str) -> Any:
        if name not in wanted:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        for source in sources:
            module = importlib.import_module(source)
            if hasattr(module, name):
                value = getattr(module, name)
                setattr(importlib.import_module(package), name, value)
                return value
        raise AttributeError(f"module {package!r} has no attribute {name!r} (not in {', '.join(sources)})")

    return exported
