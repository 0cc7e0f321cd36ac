"""Property: the ducats raids and looting take are exactly what their victims lose, from their
treasuries and from the structures' coming tax (`tax_taken`); nothing is created or lost."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from yak_tui.kernel.play.commands import CommandError, apply_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.demo import build_world
from yak_tui.kernel.world.model import World

BASE = build_world()
GM = Identity("gm")
# The Hill Riders (a Raider unit of Kesh) at Highmoor, Elbreth's walled capital: it holds the
# kingdom's treasury and Edmund's and Rowena's (their largest, best defended businesses).
VICTIMS = (("kingdoms", "elbreth"), ("characters", "edmund"), ("characters", "rowena"))
CAPTOR = ("kingdoms", "kesh")


def _money(world: World) -> dict[tuple[str, str], float]:
    return {party: float(world.get(*party)["treasury"]) for party in (*VICTIMS, CAPTOR)}


@settings(max_examples=60, deadline=None)
@given(
    treasuries=st.tuples(*(st.integers(-5, 60) for _ in VICTIMS)),
    tax=st.integers(0, 9),
    taken_before=st.integers(0, 9),
    raids=st.lists(st.integers(1, 6), max_size=3),
    capture=st.booleans(),
    loot=st.booleans(),
)
def test_raids_and_looting_conserve_ducats(
    treasuries: tuple[int, ...], tax: int, taken_before: int, raids: list[int], capture: bool, loot: bool
) -> None:
    world = World(copy.deepcopy(BASE))
    for party, amount in zip(VICTIMS, treasuries, strict=True):
        world.data[party[0]][party[1]]["treasury"] = amount
    pc: dict[str, Any] = world.data["pcs"]["highmoor"]
    pc.update(tax=tax, tax_taken=min(taken_before, tax))
    world.data["units"]["kesh-riders"]["hex"] = list(pc["hex"])
    before = _money(world)
    tax_taken_before = float(pc["tax_taken"])

    for season, die in enumerate(raids):
        if season:
            world.data["pcs"]["highmoor"]["raided_in"] = None  # a later season: raid again
        apply_command(world, GM, "raid", {"unit": "kesh-riders", "pc": "highmoor"}, ScriptedDice([die]))
    if capture:
        apply_command(world, GM, "capture", {"pc": "highmoor", "unit": "kesh-riders", "garrison": "fled"})
    if loot:
        try:
            apply_command(world, GM, "loot", {"pc": "highmoor"})
        except CommandError as error:
            assert not capture and "captured by a hostile force" in error.reason
    after = _money(world)
    gained = after[CAPTOR] - before[CAPTOR]
    lost_treasuries = sum(before[party] - after[party] for party in VICTIMS)
    lost_tax = float(world.data["pcs"]["highmoor"].get("tax_taken", 0)) - tax_taken_before
    assert gained == lost_treasuries + lost_tax
    # Nobody is robbed into debt, and the coming tax is never over-drawn.
    for party in VICTIMS:
        assert after[party] >= min(before[party], 0)
    assert float(world.data["pcs"]["highmoor"].get("tax_taken", 0)) <= max(tax, tax_taken_before)
