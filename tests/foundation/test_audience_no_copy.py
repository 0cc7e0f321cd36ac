"""The audience filter copies only what it withholds (issue 13): a document the viewer sees whole is
the world's own, read-only like `World.get`. So every read model must leave the world as it was,
and a withheld field must still be withheld."""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable
from typing import Any

import orjson
import pytest
from yak_plugin import Table

from yak_tui.kernel.play.audience import HIDDEN_FIELDS, filter_document, visible_table
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.world.model import World

AREAS = ("court", "economy", "espionage", "warfare", "magic", "nobles")
VIEWERS = ("gm", "king:elbreth", "king:varos", "player:nyx", "player:lysa", "observer")


def read_models() -> list[tuple[str, Callable[..., Any]]]:
    """Every function an area exports that takes just (world, viewer): the screens' read models."""
    found = []
    for area in AREAS:
        package = importlib.import_module(f"yak_tui.areas.{area}")
        for name in package.__all__:
            function = getattr(package, name)
            if not inspect.isfunction(function):
                continue
            required = [
                p.name
                for p in inspect.signature(function).parameters.values()
                if p.default is p.empty and p.kind is p.POSITIONAL_OR_KEYWORD
            ]
            if required in (["world", "viewer"], ["world", "identity"]):
                found.append((f"{area}.{name}", function))
    return found


@pytest.fixture
def busy(table: Table) -> World:
    """The demo world with entries for several audiences, a blind roll and an order waiting."""
    table.run("gm", "note", text="Envoys of Varos reach Highmoor.")
    table.run("gm", "note", text="Varos counts its silver.", audience="kingdom:varos")
    table.run("gm", "note", text="For the adjudicators only.", audience="adjudicators")
    table.run("gm", "roll", reason="Storm the gate of Ravenrock", modifier="1", dice=[4])
    table.run("player:nyx", "order-file", command="roll", params='{"reason": "Slip past the March Patrol"}')
    return table.world


def test_a_document_seen_whole_is_not_copied(world: World) -> None:
    kingdom = world.get("kingdoms", "elbreth")
    assert filter_document(world, GM, "kingdoms", "elbreth", kingdom) is kingdom
    assert filter_document(world, Identity.parse("king:elbreth"), "kingdoms", "elbreth", kingdom) is kingdom


def test_withheld_fields_stay_withheld_and_in_the_world(world: World) -> None:
    effect = world.get("effects", "varos-spy-ring-in-elbreth")
    hidden = [field for field in HIDDEN_FIELDS["effects"] if field in effect]
    assert hidden  # the demo's spy ring records whether Elbreth detected it
    shown = filter_document(world, Identity.parse("king:varos"), "effects", "varos-spy-ring-in-elbreth", effect)
    assert shown is not None and not set(hidden) & set(shown)
    assert all(field in effect for field in hidden)
    public = visible_table(world, Identity.parse("king:varos"), "kingdoms")["elbreth"]
    assert "treasury" not in public and "treasury" in world.get("kingdoms", "elbreth")


@pytest.mark.parametrize("viewer", VIEWERS)
def test_read_models_leave_the_world_as_it_was(busy: World, viewer: str) -> None:
    identity = Identity.parse(viewer)
    before = orjson.dumps(busy.data, option=orjson.OPT_SORT_KEYS)
    models = read_models()
    assert len(models) >= 15
    for name, model in models:
        model(busy, identity)
        model(busy, identity)  # a second build sees what the first left
        assert orjson.dumps(busy.data, option=orjson.OPT_SORT_KEYS) == before, name
