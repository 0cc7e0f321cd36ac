"""Engineers: siege work, gunpowder, and traps (RULINGS §6)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from yak_tui.areas.economy import specialist_rules
from yak_tui.areas.economy.shared import ENGINEER_TASKS, _active, _effect_kind, _name
from yak_tui.areas.economy.specialists import (
    _kingdom_stakes,
    _pool_for_edit,
    add_specialists,
    specialist_pool,
    take_specialists,
)
from yak_tui.kernel.play.audience import can_see_document, kingdom_audience
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import KING, CommandContext, CommandError, Param, command
from yak_tui.kernel.play.helptext import ducats, signed
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.numbers import counted
from yak_tui.kernel.world.tables import table as rules_table


def assign_engineers(ctx: CommandContext, kingdom_id: str, count: int, task: str, engine: str | None = None) -> None:
    """Take engineers from the pool for siege engines (`engine` names them) or gunpowder."""
    if task not in ENGINEER_TASKS:
        raise CommandError("task", f"engineers work on {', '.join(ENGINEER_TASKS)}, not {task!r}")
    if task == "siege" and not (engine or "").strip():
        raise CommandError("engine", "name the siege engine (or unit) the engineers build")
    take_specialists(ctx, kingdom_id, "engineer", count, f"{task} work", log=False)
    pool = _pool_for_edit(ctx.world, kingdom_id)
    assigned = pool.setdefault("engineers_assigned", {"siege": {}, "gunpowder": 0})
    assigned.setdefault("siege", {})
    if task == "gunpowder":
        assigned["gunpowder"] = int(assigned.get("gunpowder", 0)) + count
    else:
        key = str(engine).strip()
        assigned["siege"][key] = int(assigned["siege"].get(key, 0)) + count


def release_engineers(ctx: CommandContext, kingdom_id: str, engine: str, count: int | None = None) -> int:
    """Siege engines disbanded: their engineers return to the pool. Returns how many returned."""
    pool = specialist_pool(ctx.world, kingdom_id)
    siege = (pool.get("engineers_assigned") or {}).get("siege") or {}
    have = int(siege.get(engine, 0))
    if have <= 0:
        known = ", ".join(siege) or "none"
        raise CommandError(
            "engine",
            f"no engineers of {_name(ctx.world, 'kingdoms', kingdom_id)} work on {engine!r} (siege work: {known})",
        )
    back = have if count is None else count
    if back > have:
        raise CommandError("count", f"only {counted(have, 'engineer')} work on {engine}")
    edit = _pool_for_edit(ctx.world, kingdom_id)
    if back == have:
        del edit["engineers_assigned"]["siege"][engine]
    else:
        edit["engineers_assigned"]["siege"][engine] = have - back
    edit["engineer"] = int(edit.get("engineer", 0)) + back
    return back


@command(
    "engineer-assign",
    "Assign engineers to siege engines or to gunpowder (away until year start).",
    {
        "kingdom": Param(str, ref="kingdoms"),
        "task": Param(str, choices=ENGINEER_TASKS),
        "count": Param(int, required=False, default=1, minimum=1),
        "engine": Param(str, required=False, help="siege engine or unit (siege work)"),
    },
    category="economy",
    stakes=_kingdom_stakes,
    filed_by=KING,
)
def engineer_assign(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    ctx.require_acts_for(kingdom=p["kingdom"])
    assign_engineers(ctx, p["kingdom"], p["count"], p["task"], p["engine"])
    what = "gunpowder (1 barrel each at year start)" if p["task"] == "gunpowder" else f"siege engine {p['engine']}"
    ctx.log(
        f"{_name(ctx.world, 'kingdoms', p['kingdom'])} assigns {counted(p['count'], 'engineer')} to {what}.",
        kind="specialists",
        audience=kingdom_audience(p["kingdom"]),
        refs={"kingdom": p["kingdom"], "task": p["task"], "engine": p["engine"], "count": p["count"]},
    )
    return {
        "kingdom": p["kingdom"],
        "task": p["task"],
        "count": p["count"],
        "pool": int(specialist_pool(ctx.world, p["kingdom"]).get("engineer", 0)),
    }


@command(
    "engineer-release",
    "Siege engines disbanded: their engineers return to the pool.",
    {
        "kingdom": Param(str, ref="kingdoms"),
        "engine": Param(str),
        "count": Param(int, required=False, minimum=1, help="default: all of them"),
    },
    category="economy",
    stakes=_kingdom_stakes,
    filed_by=KING,
)
def engineer_release(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    ctx.require_acts_for(kingdom=p["kingdom"])
    back = release_engineers(ctx, p["kingdom"], p["engine"], p["count"])
    ctx.log(
        f"{counted(back, 'engineer')} of {_name(ctx.world, 'kingdoms', p['kingdom'])} return from {p['engine']}.",
        kind="specialists",
        audience=kingdom_audience(p["kingdom"]),
        refs={"kingdom": p["kingdom"], "engine": p["engine"], "count": back},
    )
    return {
        "kingdom": p["kingdom"],
        "returned": back,
        "pool": int(specialist_pool(ctx.world, p["kingdom"]).get("engineer", 0)),
    }


def fight_key(text: str) -> str:
    """One fight however it is written: `The Greywood Ford`, `the greywood ford` and
    `the-greywood-ford` are one fight (case, spaces and punctuation aside)."""
    return "-".join(re.findall(r"[0-9a-z]+", text.casefold()))


def active_traps(world: World) -> list[tuple[str, dict[str, Any]]]:
    """(id, effect) of every trap still waiting for its fight."""
    return [(eid, e) for eid, e in sorted(world.all("effects")) if _effect_kind(e) == "trap" and _active(e)]


def trap_fights(world: World, viewer: Identity, kingdoms: Iterable[str] | None = None) -> tuple[tuple[str, str], ...]:
    """The fights the traps the viewer may see are set for (of `kingdoms`, if named), one per fight:
    (the fight as first written, the same with the holders' names) for a form's list."""
    wanted = None if kingdoms is None else set(kingdoms)
    holders: dict[str, tuple[str, list[str]]] = {}
    for eid, effect in active_traps(world):
        if wanted is not None and effect.get("holder_kingdom") not in wanted:
            continue
        if can_see_document(world, viewer, "effects", eid, effect) == "none":
            continue
        fight = str(effect.get("fight", "")).strip()
        _, names = holders.setdefault(fight_key(fight), (fight, []))
        name = _name(world, "kingdoms", effect.get("holder_kingdom"))
        if name not in names:
            names.append(name)
    return tuple((fight, f"{fight} (trap of {', '.join(names)})") for fight, names in holders.values())


def _trap_help() -> str:
    engineers = rules_table("economy")["engineers"]
    return (
        f"Spend {ducats(engineers['trap_cost'])} and an engineer for {signed(engineers['trap_bonus'])} "
        "in one fight (attacking or defending)."
    )


@command(
    "trap",
    _trap_help,
    {
        "kingdom": Param(str, ref="kingdoms"),
        "fight": Param(
            str,
            help="which fight, e.g. the hex or battle; `battle fight=` names it the same way (case and spacing aside)",
        ),
        "unit": Param(str, required=False, ref="units", help="the unit it helps"),
    },
    category="economy",
    stakes=_kingdom_stakes,
    filed_by=KING,
)
def trap(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    ctx.require_acts_for(kingdom=p["kingdom"])
    if not p["fight"].strip():
        raise CommandError("fight", "is empty: say which fight the trap is for")
    take_specialists(ctx, p["kingdom"], "engineer", 1, "a trap", "kingdom", log=False)
    cost = specialist_rules.trap_cost()
    ctx.move_ducats(
        ("kingdoms", p["kingdom"]), None, cost, f"a trap for {p['fight']}", audience=kingdom_audience(p["kingdom"])
    )
    effect_id = world.new_id("effects", "trap")
    world.put(
        "effects",
        effect_id,
        {
            "kind": "trap",
            "holder_kingdom": p["kingdom"],
            "fight": p["fight"].strip(),
            "unit": p["unit"],
            "bonus": specialist_rules.trap_bonus(),
            "engineers": 1,
            "created": world.meta["date"],
            "active": True,
        },
    )
    ctx.log(
        f"{_name(world, 'kingdoms', p['kingdom'])} sets a trap (+{specialist_rules.trap_bonus()}) for {p['fight']} with "
        f"one engineer.",
        kind="specialists",
        audience=kingdom_audience(p["kingdom"]),
        refs={"effect": effect_id, "fight": p["fight"]},
    )
    return {"trap": effect_id, "bonus": specialist_rules.trap_bonus(), "cost": cost}


@command(
    "trap-resolve",
    "After the fight: the trap's engineer returns, or defects to the winner if no friendly unit escaped.",
    {
        "trap": Param(str, ref="effects"),
        "friendly_escaped": Param(bool, help="did any friendly unit escape (or hold) the field?"),
        "winner": Param(str, required=False, ref="kingdoms", help="the victorious kingdom"),
    },
    category="economy",
)
def trap_resolve(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    effect = world.get("effects", p["trap"])
    if _effect_kind(effect) != "trap" or not _active(effect):
        raise CommandError("trap", f"{p['trap']} is not an active trap")
    holder = effect["holder_kingdom"]
    if not ctx.identity.is_gm:
        ctx.require_adjudicator(Stakes.of(None, kingdoms=[holder, p["winner"]]))
    engineers = int(effect.get("engineers", 1))
    if p["friendly_escaped"] or p["winner"] in (None, holder):
        destination = holder if p["friendly_escaped"] or p["winner"] == holder else None
    else:
        destination = p["winner"]
    if destination is not None:
        add_specialists(ctx, destination, "engineer", engineers, "", log=False)
    world.delete("effects", p["trap"])
    if destination == holder:
        text = f"The trap engineer of {_name(world, 'kingdoms', holder)} returns from {effect['fight']}."
        fate = "returned"
    elif destination is None:
        text = f"The trap engineer of {_name(world, 'kingdoms', holder)} is lost at {effect['fight']}."
        fate = "lost"
    else:
        text = (
            f"No unit of {_name(world, 'kingdoms', holder)} escaped {effect['fight']}: its trap engineer "
            f"defects to {_name(world, 'kingdoms', destination)}."
        )
        fate = "defected"
    ctx.log(text, kind="specialists", refs={"trap": p["trap"], "fate": fate, "to": destination})
    return {"trap": p["trap"], "fate": fate, "to": destination}
