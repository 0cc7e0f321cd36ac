"""The espionage package's shape: no import circle among its modules, the effect documents other
areas read named once (`effects.py`) and never spelled out by them, and one field table from which
the order's parameters, the form's fields and an order's description all come."""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

import yak_tui
from yak_tui.areas import espionage
from yak_tui.areas.espionage import KINDS, MISSION_FIELDS, catalogue, fields
from yak_tui.areas.espionage.effects import EFFECT_DOCUMENTS
from yak_tui.areas.espionage.fields import ORDER_FIELDS, OrderField, mission_params, order_extras
from yak_tui.areas.espionage.state import Plan, Sponsor
from yak_tui.kernel.play.commands import COMMANDS, Param
from yak_tui.kernel.world.model import World

PACKAGE = "yak_tui.areas.espionage"
AREAS = Path(yak_tui.__file__).parent / "areas"


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Each group of modules that import one another, directly or not (Tarjan's components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for imported in sorted(edges[module]):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1 or module in edges[module]:
                found.append(sorted(group))

    for module in sorted(edges):
        if module not in index:
            visit(module)
    return found


def test_no_module_of_the_package_imports_one_that_imports_it_back() -> None:
    """Imports inside functions count too (a lazy import hides a circle, it does not remove it);
    the package's `__init__` is left out: it loads its modules, none of them imports it."""
    graph = grimp.build_graph("yak_tui", exclude_type_checking_imports=True, cache_dir=None)
    modules = {m for m in graph.find_descendants(PACKAGE)}
    edges = {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}
    assert not any(PACKAGE in imported for imported in edges.values())  # no module imports the package
    assert _circles(edges) == []


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []


def test_every_effect_document_named_is_written_by_a_kind_and_every_written_one_is_named() -> None:
    written = {kind.document for kind in KINDS.values() if kind.document}
    assert written == set(EFFECT_DOCUMENTS)


def _strings(source: str) -> list[str]:
    """The string values a module's code holds (its docstrings, bare strings, are prose)."""
    tree = ast.parse(source)
    prose = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in prose
    ]


def test_no_other_area_spells_out_an_espionage_effect_document() -> None:
    """Warfare and economy read the names the package exports (`espionage.MORALE_PENALTY`)."""
    assert espionage.MORALE_PENALTY == "morale-penalty"  # the stored value itself is unchanged
    found = [
        f"{path.relative_to(AREAS)}: {value}"
        for path in sorted(AREAS.rglob("*.py"))
        if path.parent.name != "espionage"
        for value in _strings(path.read_text(encoding="utf-8"))
        if value in EFFECT_DOCUMENTS
    ]
    assert found == []
    assert _strings('"""doc"""\nKIND = "morale-penalty"\n') == ["morale-penalty"]


def test_the_commands_the_form_and_the_description_come_from_the_field_table() -> None:
    names = [f.name for f in ORDER_FIELDS]
    for command in ("spy-mission", "spy-order"):
        assert [n for n in COMMANDS[command].params if n in names] == names
    assert list(mission_params()) == names
    assert MISSION_FIELDS == tuple(n for n in names if n not in ("mission", "target", "sponsor"))
    listed = {f.name for f in ORDER_FIELDS if f.shown == "listed"}
    assert {"commodity", "bandits", "poison"} <= listed
    assert order_extras({"commodity": "Grain", "bandits": 2, "poison": True}) == "bandits 2, poison, commodity Grain"


def test_each_field_a_mission_may_ask_is_asked_by_some_mission_of_the_catalogue() -> None:
    """A field no mission asks is a field left behind when its mission went."""
    entries = list(catalogue().values())
    for field in ORDER_FIELDS:
        if field.for_missions:
            assert any(field.asked_for(entry) for entry in entries), field.name


def test_a_new_field_is_one_row_of_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """A row without a check is taken as typed into `plan.values`, asked by the form and listed
    in an order's description: nothing else names it."""
    new = OrderField("bribe", Param(int, required=False, default=0, help="ducats"), ("embezzlement",), shown="listed")
    monkeypatch.setattr(fields, "ORDER_FIELDS", (*ORDER_FIELDS, new))
    entry = catalogue()["embezzlement"]
    plan = Plan(entry, Sponsor("varos", ("kingdoms", "varos"), "kingdom:varos", None), "elbreth")
    fields.plan_fields(World({}), plan, KINDS[entry.effect], {"bribe": 7})
    assert plan.values == {"bribe": 7}
    assert fields.mission_needs(entry) == ("bribe",)
    assert "bribe" in fields.mission_params()
    assert fields.order_extras({"bribe": 7}) == "bribe 7"
