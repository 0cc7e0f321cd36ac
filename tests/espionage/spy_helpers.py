"""Shared helpers for the espionage world tests: a demo save, commands as anyone, quick setup."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from yak_plugin import Table

from yak_tui.kernel.play.audience import visible_entries
from yak_tui.kernel.play.commands import CommandContext, CommandResult, load_command_modules
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.season.seasons import StepReport
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

load_command_modules()

SILAS = Identity.parse("player:silas")  # Varos's spymaster, a player
CORVIN = Identity.parse("player:corvin")  # an Elbreth merchant, a player
KING_ELBRETH = Identity.parse("king:elbreth")
KING_VAROS = Identity.parse("king:varos")
KING_KESH = Identity.parse("king:kesh")


def do(
    save: WorldFile, name: str, params: dict[str, Any], dice: Iterable[int] = (), who: Identity = GM
) -> CommandResult:
    """`Table.run` on `save` (tests/yak_plugin.py), as `who`."""
    return Table(save).run(who, name, dice=list(dice), **params)


def read(save: WorldFile) -> World:
    return World(save.read())


def mutate(save: WorldFile, fn: Callable[[World], None]) -> None:
    Table(save).edit(lambda data: fn(World(data)))


def put_effect(world: World, effect_id: str, kind: str, mission: str, sponsor: str, target: str, **extra: Any) -> None:
    doc: dict[str, Any] = {
        "kind": kind,
        "mission": mission,
        "sponsor_kingdom": sponsor,
        "target_kingdom": target,
        "data": extra.pop("data", {}),
        "start": world.meta["date"],
        "end": extra.pop("end", None),
        "holder_kingdom": sponsor,
        "known_to_target": extra.pop("known", False),
        "known_sponsor": False,
        "active": True,
    }
    doc.update(extra)
    world.put("effects", effect_id, doc)


def infiltrate(world: World, sponsor: str, target: str, *slugs: str, known: bool = False) -> None:
    for slug in slugs:
        put_effect(world, f"fx-{sponsor}-{target}-{slug}", "infiltration", slug, sponsor, target, known=known)


def pool(world: World, kingdom: str) -> dict[str, Any]:
    return world.get("specialists", kingdom)


def no_counter_spies(world: World, *kingdoms: str) -> None:
    for kingdom in kingdoms:
        world.edit("specialists", kingdom)["counter_spies"] = {"provinces": [], "nation": 0}


def texts(world: World, viewer: Identity) -> list[str]:
    return [e["text"] for e in visible_entries(world, viewer)]


def run_step(world: World, fn: Callable[[CommandContext, StepReport], None], step: str) -> StepReport:
    """One year-start step on an in-memory world, as the advance command runs it."""
    ctx = CommandContext(world, GM, ScriptedDice([]), "advance")
    report = StepReport(step, step)
    fn(ctx, report)
    return report


def advance(save: WorldFile, times: int = 1) -> list[CommandResult]:
    return [do(save, "advance", {}) for _ in range(times)]
