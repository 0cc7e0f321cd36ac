"""Death and succession (issue 28): the GM records a death in words for the table; a dead ruler's
kingdom passes to the heir, or to a regent the GM names; the estate follows `gm-estate`; the roster
logins that played the dead character follow the heir, keeping what they played and when. A dead
character is no seat (`kernel.season.readiness.seats`), so he never shows as sending no orders.
"""

from __future__ import annotations

from typing import Any

from yak_tui.areas.court.seats import pass_seat
from yak_tui.kernel.play.audience import ADJUDICATORS, PUBLIC
from yak_tui.kernel.play.commands import CommandContext, CommandError, Param, apply_command, command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.pronouns import pronouns_of


def _living(ctx: CommandContext, field: str, character_id: str | None, dead_id: str) -> dict[str, Any] | None:
    if character_id is None:
        return None
    other = ctx.world.get("characters", character_id)
    if character_id == dead_id or not other.get("alive", True):
        raise CommandError(field, f"{other['name']} cannot succeed: name another, living character")
    return other


@command(
    "gm-death",
    "Record a character's death (GM): the table reads it in words; the kingdom the dead ruled, if "
    "any, passes to the heir or to the regent named; the estate follows gm-estate (to the heir, or "
    "escheats to the crown); the logins that played the dead play the heir.",
    {
        "character": Param(str, ref="characters", help="who died"),
        "heir": Param(str, required=False, ref="characters", help="the heir: succeeds, inherits, takes the seat"),
        "regent": Param(
            str, required=False, ref="characters", help="for a ruler without an heir: who holds the kingdom"
        ),
        "cause": Param(str, required=False, default="", help="how he died, in words for the public post"),
    },
    category="gm",
    undoable=False,
    gm_only="record deaths and successions",
)
def gm_death(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    dead_id = p["character"]
    dead = world.get("characters", dead_id)
    if not dead.get("alive", True) and dead.get("estate"):
        raise CommandError(
            "character", f"{dead['name']} is already dead and {pronouns_of(dead).possessive} estate settled"
        )
    heir = _living(ctx, "heir", p["heir"], dead_id)
    regent = _living(ctx, "regent", p["regent"], dead_id)
    if heir is not None and regent is not None:
        raise CommandError("regent", "an heir succeeds himself: name a regent only when there is no heir")
    ruled = sorted(kid for kid, kingdom in world.all("kingdoms") if kingdom.get("ruler") == dead_id)
    if ruled and heir is None and regent is None:
        names = ", ".join(world.display_name("kingdoms", kid) for kid in ruled)
        raise CommandError(
            "heir", f"{dead['name']} rules {names}: name {pronouns_of(dead).possessive} heir, or a regent to hold it"
        )
    was_alive = dead.get("alive", True)
    if was_alive:
        world.edit("characters", dead_id).update({"alive": False, "location": None})
        world.edit("characters", dead_id).pop("legion", None)
    cause = p["cause"].strip().rstrip(".")
    words = [
        f"{dead['name']} has died" + (f": {cause}." if cause else ".") if was_alive else f"{dead['name']} is dead."
    ]
    their = pronouns_of(dead)
    successor = p["heir"] or p["regent"]
    successor_name = (heir or regent or {}).get("name", "")
    for kid in ruled:
        kingdom = world.edit("kingdoms", kid)
        kingdom["ruler"] = successor
        realm = world.display_name("kingdoms", kid)
        if regent is not None:
            kingdom["regent"] = dead_id
            words.append(f"{successor_name} holds {realm} as regent.")
        else:
            kingdom.pop("regent", None)
            words.append(f"{successor_name} succeeds {their.object} as ruler of {realm}.")
    ctx.log(" ".join(words), kind="death", audience=PUBLIC, refs={"character": dead_id, "kingdoms": ruled})
    estate = apply_command(world, ctx.identity, "gm-estate", {"character": dead_id, "heir": p["heir"] or ""})
    ctx.entries.extend(estate.entries)
    moved: list[str] = []
    if heir is not None:
        moved = pass_seat(ctx, Identity("player", dead_id), Identity("player", str(p["heir"])))
        if moved:
            ctx.log(
                f"The seat of {dead['name']} passes to {their.possessive} heir {heir['name']}: "
                f"{', '.join(moved)} now play {pronouns_of(heir).object}.",
                kind="roster",
                audience=ADJUDICATORS,
            )
    missed = world.meta.get("missed")  # a dead character is no seat: the count of missed seasons goes too
    if missed and f"player:{dead_id}" in missed:
        world.meta["missed"] = {k: v for k, v in missed.items() if k != f"player:{dead_id}"}
    world.meta["ready"] = [i for i in world.meta.get("ready", []) if i != f"player:{dead_id}"]
    return {
        "character": dead_id,
        "heir": p["heir"],
        "regent": p["regent"],
        "kingdoms": ruled,
        "estate": estate.data,
        "logins": moved,
    }
