"""The season's work runs in one declared order (`core.toml [season]`), never in the order the
area packages happened to be imported; the order names exactly what the code registers; and no
area package imports another in a circle."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import grimp
import pytest
from yak_plugin import Table

from yak_tui.kernel.play.areas import AREA_PACKAGES
from yak_tui.kernel.season import seasons
from yak_tui.kernel.world.tables import RulesTableError, saved_rules, stock_table, use_saved_rules

FOUNDATION = Path(__file__).parent
GOLDEN = FOUNDATION / "golden" / "campaign.json"

# Imports the modules named in argv, in that order, before anything else registers; then plays the
# pinned campaign (test_golden_campaign) and prints what it wrote, with what each advance did and
# the due items the dashboard listed before it.
PLAY_AFTER_IMPORTS = """
import importlib, json, sys
for module in sys.argv[2:]:
    importlib.import_module(module)
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from tempfile import TemporaryDirectory
import test_golden_campaign as golden
from yak_tui.kernel.season.seasons import due_items
from yak_tui.kernel.world.model import World
advance, seen = golden.advance_season, []
def watched(save, identity, dice):
    seen.append(due_items(World(save.read())))
    result = advance(save, identity, dice)
    seen.append(result.data)
    return result
golden.advance_season = watched
with TemporaryDirectory() as directory:
    played = golden._play(Path(directory))
print(json.dumps({"played": played, "seasons": seen}, sort_keys=True))
"""


@pytest.fixture
def saved_rules_restored() -> Iterator[None]:
    """The house rules in use are put back after the test (a save read applies its own)."""
    before = saved_rules()
    yield
    use_saved_rules(before)


def test_the_order_names_every_registered_handler_and_only_those() -> None:
    order = seasons.season_order()
    for registry in seasons.REGISTRIES:
        if registry is seasons.YEAR_START:
            listed = [name for step in order.year_start for name in step.handlers]
        else:
            listed = list(order.lists[registry.key])
        assert sorted(listed) == sorted(registry.by_name), registry.key
    assert [name for name, _ in seasons.year_start_steps()] == [
        entry["name"] for entry in stock_table("core")["season"]["year_start"]
    ]


def test_a_handler_the_order_does_not_name_refuses_the_order(monkeypatch: pytest.MonkeyPatch) -> None:
    def bribe_the_tax_collectors(ctx: object, report: object) -> None:
        """A step some area registered but nobody put in the order."""

    monkeypatch.setattr(seasons.YEAR_START, "by_name", dict(seasons.YEAR_START.by_name))  # put back after
    seasons.year_start_step("tax", name="espionage-bribes")(bribe_the_tax_collectors)
    with pytest.raises(RulesTableError, match=r"year_start does not list 'espionage-bribes' \(registered by .*bribe"):
        seasons.season_order()


@pytest.mark.usefixtures("saved_rules_restored")
@pytest.mark.parametrize(
    ("season", "problem"),
    [
        ({"season_end": ["economy-market-sales"]}, "season_end does not list 'warfare-siege-provisions'"),
        (
            {"due_reporters": ["court-scheduled-events", "court-scheduled-events"]},
            "due_reporters lists 'court-scheduled-events' twice",
        ),
        ({"upkeep_surcharges": ["espionage-infiltrations", "magic-curses"]}, "'magic-curses', which no code registers"),
        (
            {"year_start": [{"name": "tax", "handlers": ["court-tax", "espionage-treasury-theft", "court-upkeep"]}]},
            "'court-upkeep' twice",
        ),
        (
            {"year_start": [{"name": "upkeep", "handlers": ["court-upkeep", "espionage-cold-spies"]}]},
            "lists 'espionage-cold-spies' under step 'upkeep', but it is registered for step 'cold-spies'",
        ),
    ],
)
def test_an_order_that_does_not_fit_the_code_is_refused(season: dict[str, object], problem: str) -> None:
    use_saved_rules({"core": {"season": season}})
    with pytest.raises(RulesTableError, match="rules table core, \\[season\\]") as refused:
        seasons.season_order()
    assert problem in str(refused.value)


@pytest.mark.usefixtures("saved_rules_restored")
def test_a_house_rule_may_not_drop_a_handler_and_the_advance_checks_the_order_first(table: Table) -> None:
    dropped = json.dumps({"core": {"season": {"year_start": [{"name": "tax", "handlers": ["court-tax"]}]}}})
    table.refused("gm", "rules-set", field="tables", text="does not list 'espionage-treasury-theft'", tables=dropped)
    table.set_date("Winter 312")
    table.edit(lambda data: data["meta"]["world"].update(rules_overrides=json.loads(dropped)))
    before = table.path.read_bytes()
    with pytest.raises(RulesTableError, match="year_start does not list 'espionage-treasury-theft'"):
        table.run("gm", "advance")
    assert table.path.read_bytes() == before


def test_importing_the_areas_in_another_order_plays_the_same_campaign() -> None:
    """The area packages (and the kernel's own registering module) imported in reverse order before
    anything else play the pinned campaign exactly as a fresh `yak`'s order does: the same bytes,
    the same steps in every advance, year start included, the same due items in the same order
    (the import order used to reorder the season-start steps and the due list)."""
    fresh = [*AREA_PACKAGES, "yak_tui.kernel.season.readiness"]
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", PLAY_AFTER_IMPORTS, str(FOUNDATION), *imports],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for imports in (fresh, fresh[::-1])
    ]
    outputs = []
    for run in runs:
        out, err = run.communicate(timeout=600)
        assert run.returncode == 0, err
        outputs.append(json.loads(out))
    in_order, reversed_order = outputs
    assert any(step["step"] == "tax" for result in in_order["seasons"][1::2] for step in result["steps"])
    assert reversed_order["seasons"] == in_order["seasons"]
    assert reversed_order["played"] == in_order["played"]
    golden = json.loads(GOLDEN.read_text())
    assert (in_order["played"]["save_sha256"], in_order["played"]["save_bytes"]) == (
        golden["save_sha256"],
        golden["save_bytes"],
    )


def test_no_area_package_imports_another_in_a_circle() -> None:
    """Area to area imports (any module of one area importing any module of another, a function's
    lazy import included) form no circle: court and espionage, say, do not import each other."""
    graph = grimp.build_graph("yak_tui")
    areas = {package.rsplit(".", 1)[1] for package in AREA_PACKAGES}
    imports: dict[str, set[str]] = {area: set() for area in areas}
    for module in graph.modules:
        parts = module.split(".")
        if len(parts) < 3 or parts[1] != "areas" or parts[2] not in areas:
            continue
        for imported in graph.find_modules_directly_imported_by(module):
            target = imported.split(".")
            if len(target) >= 3 and target[1] == "areas" and target[2] in areas and target[2] != parts[2]:
                imports[parts[2]].add(target[2])
    assert _circles(imports) == []


def _circles(imports: dict[str, set[str]]) -> list[list[str]]:
    """Each circle in the graph, as the path that closes it."""
    circles: list[list[str]] = []
    for start in sorted(imports):
        stack = [(start, [start])]
        while stack:
            node, path = stack.pop()
            for nxt in sorted(imports.get(node, ())):
                if nxt == start:
                    circles.append([*path, start])
                elif nxt not in path and nxt > start:
                    stack.append((nxt, [*path, nxt]))
    return circles


def test_the_circle_finder_finds_a_circle() -> None:
    assert _circles({"court": {"espionage"}, "espionage": {"court"}, "magic": set()}) == [
        ["court", "espionage", "court"]
    ]
