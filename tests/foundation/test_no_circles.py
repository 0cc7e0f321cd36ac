"""No import circles: none among the modules of the kernel, the store, the CLI, the app, the SSH
server or one area, and none between two area packages. An import that runs counts, a function's own (lazy)
import included; one under `if TYPE_CHECKING:` does not (it never runs). The graph is grimp's, the
library import-linter checks the contracts in pyproject.toml with."""

from __future__ import annotations

from collections.abc import Callable, Iterable

import grimp
import pytest

AREAS = ("court", "economy", "espionage", "magic", "nobles", "warfare")
PACKAGES = (
    "yak_tui.kernel",
    "yak_tui.store",
    "yak_tui.cli",
    "yak_tui.app",
    "yak_tui.serve",
    *(f"yak_tui.areas.{area}" for area in AREAS),
)


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("yak_tui", exclude_type_checking_imports=True, cache_dir=None)


def circles(nodes: Iterable[str], imports: Callable[[str], Iterable[str]]) -> list[list[str]]:
    """The import circles among `nodes` (`imports(node)`: the nodes it imports), each as its sorted
    members: the strongly connected components of more than one node, or of one importing itself."""
    nodes = sorted(nodes)
    known = set(nodes)
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def edges(node: str) -> list[str]:
        return sorted(other for other in imports(node) if other in known)

    for root in nodes:  # Tarjan's algorithm, iterative: a deep chain of imports needs no recursion limit
        if root in index:
            continue
        work = [(root, iter(edges(root)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, pending = work[-1]
            step = next(pending, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(edges(step))))
                elif step in on_stack:
                    low[node] = min(low[node], index[step])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                if len(members) > 1 or node in edges(node):
                    found.append(sorted(members))
    return found


def described(graph: grimp.ImportGraph, found: list[list[str]]) -> str:
    """Each circle with the lines that close it, for the failure message."""
    lines = []
    for members in found:
        lines.append(" <-> ".join(members))
        for importer in members:
            for imported in sorted(graph.find_modules_directly_imported_by(importer) & set(members)):
                for detail in graph.get_import_details(importer=importer, imported=imported):
                    lines.append(f"    {importer}:{detail['line_number']}: {detail['line_contents']}")
    return "\n".join(lines)


@pytest.mark.parametrize("package", PACKAGES)
def test_no_circle_among_the_modules_of(graph: grimp.ImportGraph, package: str) -> None:
    modules = {package, *graph.find_descendants(package)}
    found = circles(modules, graph.find_modules_directly_imported_by)
    assert not found, described(graph, found)


def test_no_circle_between_two_area_packages(graph: grimp.ImportGraph) -> None:
    """An area may use another's public names, never both ways round (however indirectly)."""

    def area_of(module: str) -> str | None:
        parts = module.split(".")
        return parts[2] if len(parts) > 2 and parts[:2] == ["yak_tui", "areas"] and parts[2] in AREAS else None

    uses: dict[str, set[str]] = {area: set() for area in AREAS}
    proof: dict[tuple[str, str], str] = {}
    for area in AREAS:
        package = f"yak_tui.areas.{area}"
        for module in {package, *graph.find_descendants(package)}:
            for imported in graph.find_modules_directly_imported_by(module):
                other = area_of(imported)
                if other is not None and other != area:
                    uses[area].add(other)
                    proof.setdefault((area, other), f"{module} -> {imported}")
    found = circles(AREAS, uses.__getitem__)
    where = [proof[(a, b)] for members in found for a in members for b in members if (a, b) in proof]
    assert not found, f"{found}: " + "; ".join(where)


def test_the_finder_finds_a_circle() -> None:
    """The same finder, given a circle (and a lone module importing itself), names it."""
    imports = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert circles(imports, imports.__getitem__) == [["a", "b", "c"], ["e"]]
