"""Names a package exports from a module it loads only when one of them is first used.

An area's read models (what the screens and `yak show` draw) cost every process that imports the
area about 10 ms together; a command that only changes the world (`yak advance`, `yak do ...`,
every order a session files) never uses them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable, Sequence
from typing import Any


def lazy_exports(package: str, module: str | Sequence[str], names: Iterable[str]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package`: each of `names` the package does not define itself (its
    `__all__` will do) is taken from `module` (or the first of several modules that defines it)
    when first asked for, and kept in the package."""
    wanted = frozenset(names)
    modules = (module,) if isinstance(module, str) else tuple(module)

    def exported(name: str) -> Any:
        if name not in wanted:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        for source in modules:
            loaded = importlib.import_module(source)
            if hasattr(loaded, name):
                value = getattr(loaded, name)
                setattr(importlib.import_module(package), name, value)
                return value
        raise AttributeError(f"module {package!r} has no attribute {name!r} (none of {', '.join(modules)} defines it)")

    return exported
