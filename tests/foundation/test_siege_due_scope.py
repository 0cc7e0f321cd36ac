"""Issue 30: a siege is due for its two sides and the GM, not for every King of the world (at 1000x
each of 3,000 Kings' reports listed all 1,000 sieges: 436 of the save's 491 MB)."""

from __future__ import annotations

from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.season.session import due_for
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

VAROS = Identity.parse("king:varos")


def _siege_lines(world: World, who: str) -> list[str]:
    return [str(i["text"]) for i in due_for(world, Identity.parse(who)) if str(i.get("kind", "")).startswith("siege")]


def test_a_siege_is_due_for_its_two_sides_and_the_gm_once_each(save: WorldFile) -> None:
    run_command(save, VAROS, "siege-begin", {"fort": "brinehaven", "units": "varos-siege-host,varos-blockade-squadron"})
    world = World(save.read())
    (line,) = _siege_lines(world, "gm")  # told to both sides, listed once to whoever sees both
    assert line.startswith("Siege of Brinehaven by Kingdom of Varos")
    assert _siege_lines(world, "king:varos") == [line]
    assert _siege_lines(world, "king:elbreth") == [line]
    assert _siege_lines(world, "king:kesh") == []  # not his siege


def test_the_reports_due_sections_tell_a_siege_to_its_sides_only(save: WorldFile) -> None:
    run_command(save, VAROS, "siege-begin", {"fort": "brinehaven", "units": "varos-siege-host,varos-blockade-squadron"})
    # Stocked for years: no choice for the defenders (that one is everyone's news, and rare).
    run_command(save, GM, "gm-set", {"table": "sieges", "id": "siege-0001", "field": "provisions", "value": "50"})
    run_command(save, GM, "advance", {}, ScriptedDice([3] * 60))
    world = World(save.read())

    def due(recipient: str) -> list[str]:
        report = next(r for _, r in world.all("reports") if r["recipient"] == recipient)
        (section,) = [s for s in report["sections"] if s["title"].startswith("Due in")]
        return [i["text"] for i in section["items"] if "Brinehaven" in i["text"]]

    assert len(due("gm")) == 1
    assert due("king:varos") == due("king:elbreth") == due("gm")
    assert due("king:kesh") == []


def test_the_siege_monitor_measures_only_the_two_sides_units(save: WorldFile, monkeypatch: object) -> None:
    """Issue 30: each siege card measured every unit of the world for scouts near the fort (at 100x,
    200 cards × 1,100 units: 0.5 s of the Sieges screen's first visit). It looks up the sides' own."""
    from yak_tui.areas.warfare import read

    run_command(save, VAROS, "siege-begin", {"fort": "brinehaven", "units": "varos-siege-host,varos-blockade-squadron"})
    world = World(save.read())
    measured: list[str] = []
    distance = read.distance_between

    def counted(a: dict[str, object], b: dict[str, object]) -> int | None:
        measured.append(str(a.get("owner")))
        return distance(a, b)  # type: ignore[arg-type]

    monkeypatch.setattr(read, "distance_between", counted)  # type: ignore[attr-defined]
    read.siege_monitor(world, GM)
    sides = {"varos", "elbreth"}
    assert measured and set(measured) <= sides
    assert len(measured) <= sum(1 for _, u in world.all("units") if u.get("owner") in sides)
