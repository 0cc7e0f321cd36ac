"""Headless data for the map screen's noble commands: whom the viewer may command, the Incite/Usurp
odds of the noble's PC and of every PC in reach, and where Relocate reaches.

The rules live in `commands` and `relocate` (which read `rules.nobles`); this module only shapes
their answers for one viewer, as `read` does for the map itself: a player commands only his own
character, a King his kingdom's, the GM anyone; the counter-spies that raise a discovery chance are
the target kingdom's secret, so only the GM sees the exact chance and everyone else a lower bound."""

from __future__ import annotations

from typing import Any, NamedTuple

from yak_tui.areas.nobles import commands as nobles
from yak_tui.areas.nobles.read import HexKey, _as_hex, kingdom_colours
from yak_tui.areas.nobles.relocate import relocate_targets
from yak_tui.areas.nobles.rules import OUTCOMES, command_odds, discovery_chance, relocate_range
from yak_tui.kernel.play.audience import visible_table
from yak_tui.kernel.play.commands import CommandError
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.hexgrid import Hex, hex_distance
from yak_tui.kernel.world.model import World

# What the map makes of each Relocate reason of `relocate_targets`.
STATES = ("reachable", "blocked", "empty", "here", "refused")


class Commander(NamedTuple):
    """A noble, Agent or High Priestess the viewer may give Noble Commands to (or order to)."""

    id: str
    name: str
    title: str
    kind: str  # noble | agent | high_priestess
    kingdom: str
    kingdom_name: str
    colour: str
    hex: HexKey
    where: str  # the PC (or legion) he stands in
    status: str


def commanders(world: World, viewer: Identity) -> tuple[Commander, ...]:
    """The living commanders whose whereabouts the viewer knows: the GM's all, a King's his
    kingdom's, a player's himself (a character's `location` is private to its kingdom)."""
    kinds = nobles.commander_kinds()
    kingdoms = visible_table(world, viewer, "kingdoms")
    colours = kingdom_colours(kingdoms)
    out: list[Commander] = []
    for cid, doc in sorted(visible_table(world, viewer, "characters").items()):
        if "location" not in doc or not doc.get("alive", True) or not doc.get("kingdom"):
            continue
        kind = nobles.commander_kind(doc)
        if kind not in kinds:
            continue
        h = nobles.character_hex(world, doc)
        if h is None:
            continue
        kingdom = str(doc["kingdom"])
        location = doc.get("legion") or doc.get("location")
        where = (
            world.display_name("pcs", location)
            if world.find("pcs", location)
            else f"with {world.display_name('units', location)}"
        )
        out.append(
            Commander(
                cid,
                str(doc.get("name", cid)),
                str(doc.get("title", "")),
                kind,
                kingdom,
                str(kingdoms.get(kingdom, {}).get("name", kingdom)),
                colours.get(kingdom, ""),
                (h.q, h.r),
                where,
                str(doc.get("status") or "fresh"),
            )
        )
    return tuple(sorted(out, key=lambda c: (c.kingdom_name, c.name)))


def commander_of(world: World, viewer: Identity, character_id: str) -> Commander:
    """One of `commanders`; CommandError when the viewer may not move him (or he is no commander)."""
    for item in commanders(world, viewer):
        if item.id == character_id:
            return item
    raise CommandError(
        "character",
        f"{world.display_name('characters', character_id)} is not a noble, "
        "Agent or High Priestess whose whereabouts you know",
    )


class CommandOdds(NamedTuple):
    """Incite or Usurp on one PC: the odds of every outcome, or why it cannot be given."""

    command: str  # incite | usurp
    ok: bool
    reason: str  # why not, when not ok
    rows: tuple[tuple[str, float], ...] = ()  # (outcome, probability) in the rules' order
    success: float = 0.0
    power: float = 0.0
    resistance: float = 0.0  # as used: doubled for Usurp on a controlled PC
    controlled: bool = False
    cost: int = 0


def _odds(command: str, data: dict[str, Any]) -> CommandOdds:
    if not data.get("ok"):
        return CommandOdds(command, False, str(data.get("reason", "")))
    odds = data.get("odds", {})
    rows = tuple((o, float(odds.get(o, 0.0))) for o in OUTCOMES)
    resistance = float(data.get("resistance", 0)) * (2 if data.get("controlled") else 1)
    return CommandOdds(
        command,
        True,
        "",
        rows,
        float(data.get("success", 0.0)),
        float(data.get("power", 0)),
        resistance,
        bool(data.get("controlled")),
        int(data.get("cost", 0)),
    )


class TargetsView(NamedTuple):
    """The PC the noble stands in and what Incite and Usurp would do there."""

    character: str
    pc: str | None
    pc_name: str
    hex: HexKey | None
    incite: CommandOdds
    usurp: CommandOdds


def targets_view(world: World, viewer: Identity, character_id: str) -> TargetsView:
    """`nobles.command_targets` for a commander the viewer may move."""
    who = commander_of(world, viewer, character_id)
    data = nobles.command_targets(world, character_id)
    pc = data.get("pc")
    doc = world.find("pcs", pc) if pc else None
    h = _as_hex(doc.get("hex")) if doc else None
    return TargetsView(
        who.id,
        pc,
        world.display_name("pcs", pc) if pc else who.where,
        h,
        _odds("incite", data["incite"]),
        _odds("usurp", data["usurp"]),
    )


def _odds_there(world: World, char: dict[str, Any], pc: dict[str, Any]) -> tuple[CommandOdds, ...]:
    """Incite and Usurp as they would stand if he relocated into this PC (same Power, its
    Resistance; Usurp doubled when another kingdom controls it). Empty for his own kingdom's PC."""
    own = char.get("kingdom")
    controller = pc.get("controller")
    if controller == own:
        return ()
    power = nobles.base_power(world, char)
    resistance = float(pc.get("resistance", 0))
    out = []
    for cmd in ("incite", "usurp"):
        if cmd == "incite" and controller is None:
            continue
        controlled = cmd == "usurp" and controller is not None
        probs = command_odds(cmd, power, resistance, controlled=controlled)
        rows = tuple((o, round(float(probs[o]), 6)) for o in OUTCOMES)
        out.append(
            CommandOdds(
                cmd,
                True,
                "",
                rows,
                round(float(probs["success"]), 6),
                power,
                resistance * (2 if controlled else 1),
                controlled,
                nobles.command_cost(cmd),
            )
        )
    return tuple(out)


class RelocateCell(NamedTuple):
    """One hex within Relocate range, as the map highlights it for the chosen character."""

    hex: HexKey
    distance: int
    state: str  # one of STATES
    pc: str | None
    pc_name: str
    controller: str | None
    controller_name: str
    message: str  # the rules' words: why it fails or what happens
    cost_spent: bool  # the order costs its ducats even though it fails
    legions: tuple[tuple[str, str], ...]  # (id, name) of friendly legions an Agent may join
    via_legion: bool  # reachable only by joining one of those legions
    discovery: int | None  # percent chance the PC's owner learns of it; None: no roll
    discovery_exact: bool  # False: counter-spies unknown to the viewer may raise it
    targets: tuple[CommandOdds, ...]  # Incite/Usurp odds if he relocates here


class RelocateView(NamedTuple):
    character: Commander
    range: int
    cost: int
    cells: dict[HexKey, RelocateCell]

    def count(self, state: str) -> int:
        return sum(1 for c in self.cells.values() if c.state == state)


def _state(item: dict[str, Any]) -> tuple[str, bool]:
    """(state, via a friendly legion)."""
    reason = str(item["reason"])
    if item["ok"]:
        return "reachable", False
    if reason == "here":
        return "here", False
    if reason in ("no-pc", "blocked"):
        if item["legions"]:
            return "reachable", True
        return ("empty" if reason == "no-pc" else "blocked"), False
    return "refused", False


def relocate_view(world: World, viewer: Identity, character_id: str) -> RelocateView:
    """Every hex within range of the chosen commander: reachable (a PC, or a friendly legion for
    an Agent), blocked (another kingdom's brigade or larger), empty (no PC: fails, cost spent),
    here, or refused (e.g. the High Priestess exhausted), with the discovery chance per PC."""
    who = commander_of(world, viewer, character_id)
    char = world.get("characters", character_id)
    own = str(char["kingdom"])
    units = {uid: str(u.get("name", uid)) for uid, u in world.all("units")}
    cells: dict[HexKey, RelocateCell] = {}
    for item in relocate_targets(world, character_id):
        h: HexKey = (int(item["hex"][0]), int(item["hex"][1]))
        pc_id = item.get("pc")
        controller = item.get("controller")
        chance = item.get("discovery_chance")
        exact = True
        if chance is not None and not viewer.is_gm and controller not in (None, own):
            # The owner's counter-spies are his secret: show what the title alone gives.
            title = "High Priestess" if who.kind == nobles.HIGH_PRIESTESS else who.title
            chance, exact = discovery_chance(title, None), False
        state, via_legion = _state(item)
        pc_doc = world.find("pcs", pc_id) if pc_id else None
        targets = _odds_there(world, char, pc_doc) if pc_doc is not None and state in ("reachable", "here") else ()
        cells[h] = RelocateCell(
            h,
            int(item["distance"]),
            state,
            pc_id,
            world.display_name("pcs", pc_id) if pc_id else "",
            controller,
            world.display_name("kingdoms", controller) if controller else "unclaimed",
            str(item["message"]),
            bool(item["cost_spent"]),
            tuple((uid, units.get(uid, uid)) for uid in item.get("legions", [])),
            via_legion,
            chance,
            exact,
            targets,
        )
    return RelocateView(who, relocate_range(), nobles.command_cost("relocate"), cells)


def relocate_params(cell: RelocateCell, character_id: str) -> dict[str, str]:
    """The `relocate` parameters that move him into this hex: a friendly legion when that is the
    only way in (Agents), else the hex (its PC; none: an order that fails with its cost spent)."""
    if cell.via_legion:
        return {"character": character_id, "legion": cell.legions[0][0]}
    return {"character": character_id, "hex": f"{cell.hex[0]},{cell.hex[1]}"}


def distance(a: HexKey, b: HexKey) -> int:
    """Hex steps between two map cells (for the details panel beyond the range)."""
    return hex_distance(Hex(*a), Hex(*b))
