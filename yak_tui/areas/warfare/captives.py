"""Capturing a character and robbing him of his treasury (issue 15). The seed (002, "Private Citizen
Treasuries"): citizens keep their treasuries in what they own or a vault, "other citizens are presumed
to either carry their Treasuries with them"; so the captors rob him only of a treasury he has on him
(`treasury_place` is none, or the place where he is taken). A treasury kept elsewhere is taken by
looting that place.
"""

from __future__ import annotations

from typing import Any

from yak_tui.areas.warfare.raids import treasury_place
from yak_tui.kernel.play.audience import PUBLIC
from yak_tui.kernel.play.commands import CommandContext, CommandError, Param, audience_param, command
from yak_tui.kernel.world.money import ducats, shown_money
from yak_tui.kernel.world.pronouns import pronouns_of


@command(
    "gm-capture",
    "A kingdom captures a character (and may rob him of the treasury he carries), or sets him free (GM).",
    {
        "character": Param(str, ref="characters"),
        "captor": Param(str, required=False, ref="kingdoms", help="the kingdom that takes him"),
        "rob": Param(bool, required=False, default=False, help="the captor takes the treasury he carries"),
        "release": Param(bool, required=False, default=False, help="set him free instead"),
        "audience": Param(str, required=False, default=PUBLIC, help="who reads of it (default public)"),
    },
    category="gm",
    gm_only="capture characters",
)
def gm_capture(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    char_id = p["character"]
    char = world.get("characters", char_id)
    audience = audience_param(world, p["audience"])
    if p["release"]:
        if p["captor"] or p["rob"]:
            raise CommandError("release", "a release names no captor and robs nobody")
        held_by = char.get("captive_of")
        if not held_by:
            raise CommandError("character", f"{char['name']} is nobody's captive")
        world.edit("characters", char_id)["captive_of"] = None
        ctx.log(
            f"{world.display_name('kingdoms', held_by)} sets {char['name']} free.",
            kind="capture",
            audience=audience,
            refs={"character": char_id, "captor": held_by},
        )
        return {"character": char_id, "released_by": held_by}
    captor = p["captor"]
    if not captor:
        raise CommandError("captor", "name the kingdom that captures him (or release=true)")
    if not char.get("alive", True):
        raise CommandError("character", f"{char['name']} is dead")
    if char.get("captive_of") and not p["rob"]:
        raise CommandError(
            "character", f"{char['name']} is already a captive of {world.display_name('kingdoms', char['captive_of'])}"
        )
    if char.get("captive_of") and char["captive_of"] != captor:
        raise CommandError("captor", f"{char['name']} is held by {world.display_name('kingdoms', char['captive_of'])}")
    if char.get("kingdom") == captor:
        raise CommandError("captor", f"{char['name']} serves {world.display_name('kingdoms', captor)}")
    robbed = 0.0
    if p["rob"]:
        kept, here = treasury_place(world, ("characters", char_id)), char.get("location")
        if kept and kept != here:
            raise CommandError(
                "rob",
                f"{char['name']} keeps {pronouns_of(char).possessive} treasury at {world.display_name('pcs', kept)}, "
                f"not on {pronouns_of(char).object}: loot that place instead",
            )
        robbed = max(float(char.get("treasury", 0)), 0.0)
    world.edit("characters", char_id)["captive_of"] = captor
    ctx.log(
        f"{world.display_name('kingdoms', captor)} captures {char['name']}"
        + (f" and robs {pronouns_of(char).object} of {ducats(robbed)}." if p["rob"] else "."),
        kind="capture",
        audience=audience,
        refs={"character": char_id, "captor": captor, "robbed": robbed},
    )
    if robbed:
        ctx.move_ducats(
            ("characters", char_id),
            ("kingdoms", captor),
            robbed,
            f"the treasury of {char['name']}, robbed by {pronouns_of(char).possessive} captors",
            audience=audience,
        )
    return {"character": char_id, "captor": captor, "robbed": shown_money(robbed)}
