"""The order template at the end of a report: every order its reader may file next season, one a line,
in the very form SSH `orders submit` reads (`command key=value ...`, shell quoting, `#` comments), with
his own holdings' ids filled in, so he copies the lines he wants, changes the values and sends them.
"""

from __future__ import annotations

import shlex
from typing import Any

from yak_tui.kernel.play.identity import Identity, identity_name
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import World

PLACEHOLDER = "…"  # a value only the reader can choose (a name, a reason): he writes it in


def own_ids(world: World, identity: Identity) -> dict[str, list[str]]:
    """The ids of what the reader holds, by table: what a template line names for him."""
    if identity.is_king:
        kingdom = identity.subject
        people = [cid for cid, _ in sorted(world.where("characters", kingdom=kingdom))]
        ruler = (world.find("kingdoms", kingdom) or {}).get("ruler")
        if ruler in people:
            people.remove(str(ruler))
            people.insert(0, str(ruler))
        capital = (world.find("kingdoms", kingdom) or {}).get("capital")
        places = [pid for pid, _ in sorted(world.where("pcs", controller=kingdom))]
        if capital in places:
            places.remove(str(capital))
            places.insert(0, str(capital))
        return {
            "kingdoms": [kingdom],
            "characters": people,
            "businesses": [bid for cid in people for bid, _ in sorted(world.where("businesses", owner=cid))],
            "units": [uid for uid, _ in sorted(world.where("units", owner=kingdom))],
            "pcs": places,
            "provinces": [pid for pid, _ in sorted(world.where("provinces", kingdom=kingdom))],
            "academies": [aid for aid, _ in sorted(world.where("academies", kingdom=kingdom))],
            "ledger": [],
        }
    character_id = identity.subject
    character = world.find("characters", character_id) or {}
    businesses = sorted(world.where("businesses", owner=character_id))
    units = sorted(world.where("units", commander=character_id)) + sorted(world.where("units", guard_of=character_id))
    location = str(character.get("location") or "")
    places = ([location] if world.find("pcs", location) else []) + [
        str(b["pc"]) for _, b in businesses if b.get("pc") and str(b["pc"]) != location
    ]
    provinces = list(dict.fromkeys(str(b["province"]) for _, b in businesses if b.get("province")))
    return {
        "kingdoms": [str(character["kingdom"])] if character.get("kingdom") else [],
        "characters": [character_id],
        "businesses": [bid for bid, _ in businesses],
        "units": list(dict.fromkeys(uid for uid, _ in units)),
        "pcs": places,
        "provinces": provinces,
        "academies": [],
        "ledger": [
            did
            for did, debt in sorted(world.all("ledger"))
            if f"character:{character_id}" in debt.get("parties", []) and debt.get("status") in ("open", "overdue")
        ],
    }


def _value(param: Any, mine: dict[str, list[str]]) -> str | None:
    """A required parameter's value on the template: his own id, the first choice, the default, a
    number, or the placeholder; None when it must name something he does not hold (no line then)."""
    if isinstance(param.ref, str):
        held = mine.get(param.ref, [])
        return held[0] if held else None
    if param.choices:
        return str(param.choices[0])
    if param.default not in (None, ""):
        return str(param.default).lower() if isinstance(param.default, bool) else str(param.default)
    if param.kind in (int, float):
        return "1"
    if param.kind is bool:
        return "false"
    return PLACEHOLDER


# Per seat role and set of commands: each command he may file, as a line to fill in (`str.format`,
# a `{table}` field where it names the first of his holdings in that table, every fixed value
# already quoted) and the tables it names. Worked out once: a season's reports ask it for every King
# and player (issue 30); the lines a reader gets depend only on which tables he holds anything in,
# so they are picked once per such set, kept joined, and his lines cost one `format_map` in all.
Line = tuple[str, frozenset[str]]
_PLANS: dict[tuple[str, tuple[str, ...]], list[Line]] = {}
_PICKED: dict[tuple[tuple[str, tuple[str, ...]], frozenset[str]], tuple[list[str], str]] = {}  # lines, joined


def _plan_key(identity: Identity) -> tuple[str, tuple[str, ...]]:
    from yak_tui.kernel.play.commands import COMMANDS

    return (identity.role, tuple(COMMANDS))


def _plan(identity: Identity) -> list[Line]:
    from yak_tui.kernel.play.commands import COMMANDS
    from yak_tui.kernel.play.filing import may_file

    key = _plan_key(identity)
    plan = _PLANS.get(key)
    if plan is not None:
        return plan
    plan = []
    for name, spec in sorted(COMMANDS.items()):
        if not may_file(identity, spec):
            continue
        words = [_literal(name)]
        tables: set[str] = set()
        for param_key, param in spec.params.items():
            if param.by_adjudicator:
                continue
            if param.required:
                if isinstance(param.ref, str):
                    words.append(f"{_literal(param_key)}={{{param.ref}}}")
                    tables.add(param.ref)
                else:
                    words.append(_literal(f"{param_key}={shlex.quote(str(_value(param, {})))}"))
            elif isinstance(param.default, int | float) and not isinstance(param.default, bool) and param.default:
                # a number he may change (sizes=1, levels=1)
                words.append(_literal(f"{param_key}={shlex.quote(str(param.default))}"))
        plan.append((" ".join(words), frozenset(tables)))
    _PLANS[key] = plan
    return plan


def _literal(text: str) -> str:
    """Text as it stands in a `str.format` line."""
    return text.replace("{", "{{").replace("}", "}}")


def template_lines(world: World, identity: Identity, season: GameDate) -> list[str]:
    """The template's lines: a comment that says how to use it, then one line per order he may file
    (a command needing a holding he does not have is left out)."""
    if identity.is_gm or identity.is_observer:
        return []
    mine = own_ids(world, identity)
    first = {table: shlex.quote(ids[0]) for table, ids in mine.items() if ids}  # what each `{table}` says
    held = frozenset(first)
    picked_key = (_plan_key(identity), held)
    picked = _PICKED.get(picked_key)
    if picked is None:
        chosen = [line for line, tables in _plan(identity) if tables <= held]
        one_line_each = not any("\n" in line for line in chosen)
        picked = _PICKED[picked_key] = (chosen, "\n".join(chosen) if one_line_each else "")
    lines = [
        f"# Orders of {identity_name(world, identity)} for {season.label()}: keep the lines you mean,",
        f"# change the values (write in each {PLACEHOLDER}), and send them back; # lines are not read.",
    ]
    chosen, joined = picked
    if not chosen:
        return lines
    if not joined or any("\n" in value for value in first.values()):  # a line on two: as it was made
        lines.extend(line.format_map(first) for line in chosen)
    else:
        lines.extend(joined.format_map(first).split("\n"))  # each line is one line of the plan
    return lines


__all__ = ["PLACEHOLDER", "own_ids", "template_lines"]
