"""Ships and sailors (RULINGS §6, seed 002 "Specialists"): "Sailors are required to construct ships
of any kind. When a ship is voluntarily disbanded, the Sailors are returned to the recruiting pool.
Sailors can also be captured by sea raider units during the destruction of a ship; these may be
employed as normal or sold as slaves for 1 ducat."

A ship unit carries the sailors it was built with (`sailors`), so disbanding or losing it knows
how many go back to the pool or into a Sea Raider's hands. The number per ship and the slave
price are the economy table's (`[sailors] per_ship`, `slave_price`).
"""

from __future__ import annotations

from typing import Any

from yak_tui.areas.economy import add_specialists, sailor_slave_price, sailors_per_ship, take_specialists
from yak_tui.areas.warfare import rules
from yak_tui.areas.warfare.shared import name_of, standing_pc, today_dict
from yak_tui.areas.warfare.sponsored import is_irregular, pay_sponsor
from yak_tui.kernel.play.audience import kingdom_audience, visible_table
from yak_tui.kernel.play.authority import Stakes
from yak_tui.kernel.play.commands import KING, CommandContext, CommandError, Param, command
from yak_tui.kernel.world.authoring import referrers
from yak_tui.kernel.world.fields import SIZES
from yak_tui.kernel.world.money import ducats, money
from yak_tui.kernel.world.numbers import counted
from yak_tui.kernel.world.tables import table

SEA_RAIDERS = ("sea-raider",)
FATES = ("sell", "employ", "free")


def _size_for(ships: int) -> str:
    settings = dict(table("warfare")["recruit"])
    for row in settings["sizes"]:
        if ships <= int(row["max_regiments"]):
            return str(row["size"])
    return str(settings["top_size"])


def _aboard(unit: dict[str, Any]) -> int:
    """Sailors aboard: recorded when the ship was built; an authored fleet without the field
    carries the table's number per ship."""
    if "sailors" in unit:
        return int(unit["sailors"] or 0)
    return int(unit.get("ships", 0) or 0) * sailors_per_ship()


def _ships_of(world: Any, unit_id: str) -> dict[str, Any]:
    unit = world.get("units", unit_id)
    if int(unit.get("ships", 0) or 0) <= 0:
        raise CommandError("unit", f"{unit['name']} has no ships")
    return dict(unit)


def _sailors_for(unit: dict[str, Any], ships: int) -> int:
    """The sailors of `ships` of this unit's ships (all that are aboard when it is the last)."""
    have = int(unit.get("ships", 0) or 0)
    aboard = _aboard(unit)
    return aboard if ships >= have else min(aboard, ships * sailors_per_ship())


def _take_ships(world: Any, unit_id: str, ships: int, sailors: int) -> bool:
    """Remove ships and their sailors from a unit; True when the unit is gone with them."""
    unit = world.edit("units", unit_id)
    unit["sailors"] = max(_aboard(unit) - sailors, 0)
    unit["ships"] = int(unit.get("ships", 0) or 0) - ships
    if unit["ships"] <= 0 and not int(unit.get("regiments", 0) or 0) and not referrers(world.data, "units", unit_id):
        world.delete("units", unit_id)
        return True
    return False


def _fleets_in(world: Any, kingdom_id: str, port: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The kingdom's fleets lying in the port (on its hex, with ships)."""
    return [
        (uid, u)
        for uid, u in sorted(world.all("units"))
        if u.get("owner") == kingdom_id
        and int(u.get("ships", 0) or 0) > 0
        and list(u.get("hex", [])) == list(port["hex"])
    ]


def _fleet_options(world: Any, viewer: Any) -> tuple[tuple[str, str], ...]:
    """Every fleet the viewer may see, for the form's list."""
    return tuple(
        (uid, str(u.get("name", uid)))
        for uid, u in sorted(visible_table(world, viewer, "units").items())
        if int(u.get("ships", 0) or 0) > 0
    )


def _grown_size(size: str, ships: int) -> str:
    """A fleet's size after reinforcement: the size its ships call for, never smaller than it was."""
    wanted = _size_for(ships)
    return wanted if size not in SIZES or SIZES.index(wanted) > SIZES.index(size) else size


@command(
    "ship-build",
    lambda: (
        f"Build ships at a port the kingdom holds: each takes {counted(sailors_per_ship(), 'sailor')} "
        "from its pool (sailors cannot be hired: they come 1 a year per port). They reinforce the "
        "kingdom's fleet lying in the port (or the one `fleet` names); `name` founds a new fleet."
    ),
    {
        "kingdom": Param(str, ref="kingdoms"),
        "port": Param(str, ref="pcs", help="where the ships are built"),
        "ships": Param(int, required=False, default=1, minimum=1),
        "fleet": Param(
            str,
            required=False,
            ref="units",
            help="the kingdom's fleet in the port they reinforce (default: the one lying there, if one)",
            options=_fleet_options,
        ),
        "name": Param(str, required=False, default="", help="a new fleet's name (founds a new fleet)"),
        "cost": Param(int, required=False, default=0, minimum=0, help="ducats the kingdom pays (the GM's price)"),
    },
    category="warfare",
    filed_by=KING,
)
def ship_build(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    kingdom_id = p["kingdom"]
    ctx.require_acts_for(kingdom=kingdom_id)
    port = standing_pc(world, p["port"])
    if port.get("controller") != kingdom_id:
        raise CommandError("port", f"{port['name']} is not held by {name_of(world, 'kingdoms', kingdom_id)}")
    if not (port.get("coastal") or port.get("kind") == "port" or port.get("port_access")):
        raise CommandError("port", f"{port['name']} is not on the coast: ships are built in a port")
    sailors = p["ships"] * sailors_per_ship()
    take_specialists(
        ctx, kingdom_id, "sailor", sailors, f"building {counted(p['ships'], 'ship')}", field="ships", log=False
    )
    kingdom_name = name_of(world, "kingdoms", kingdom_id)
    lying = _fleets_in(world, kingdom_id, port)
    fleet_id: str | None = p["fleet"]
    if fleet_id and p["name"].strip():
        raise CommandError("name", "names a new fleet; the ships reinforce the fleet given, so leave one out")
    if fleet_id:
        fleet = world.get("units", fleet_id)
        if fleet.get("owner") != kingdom_id or int(fleet.get("ships", 0) or 0) <= 0:
            raise CommandError("fleet", f"{fleet['name']} is not a fleet of {kingdom_name}")
        if fleet_id not in dict(lying):
            raise CommandError(
                "fleet",
                f"{fleet['name']} is at {tuple(fleet['hex'])}, not in {port['name']} {tuple(port['hex'])}: "
                "ships built there join a fleet lying there",
            )
    elif not p["name"].strip():
        # Ruling (issue 29): ships built in a port join the kingdom's fleet lying there, as a GM would
        # read the order; with several there, the order must say which.
        if len(lying) > 1:
            names = ", ".join(f"{u['name']} ({uid})" for uid, u in lying)
            raise CommandError(
                "fleet",
                f"{kingdom_name} has several fleets in {port['name']} ({names}): name the one to reinforce, "
                "or give a name for a new fleet",
            )
        fleet_id = lying[0][0] if lying else None
    if fleet_id:
        unit_id = fleet_id
        unit = world.edit("units", unit_id)
        aboard = _aboard(unit)
        unit["ships"] = int(unit.get("ships", 0) or 0) + p["ships"]
        unit["sailors"] = aboard + sailors
        unit["size"] = _grown_size(str(unit.get("size", "")), unit["ships"])
    else:
        unit_id = world.new_id("units", "fleet")
        unit = {
            "name": p["name"].strip() or f"{port['name']} squadron",
            "owner": kingdom_id,
            "kind": "ship",
            "size": _size_for(p["ships"]),
            "ships": p["ships"],
            "sailors": sailors,
            "regiments": 0,
            "hex": list(port["hex"]),
            "raised": today_dict(world),
        }
        world.put("units", unit_id, unit)
    joins = f"to reinforce {unit['name']}" if fleet_id else f"for a new fleet, {unit['name']}"
    ctx.log(
        f"{kingdom_name} builds {counted(p['ships'], 'ship')} at {port['name']} {joins}, crewed by "
        f"{counted(sailors, 'sailor')} from its pool.",
        kind="ships",
        audience=kingdom_audience(kingdom_id),
        refs={"unit": unit_id, "kingdom": kingdom_id, "sailors": sailors},
    )
    if p["cost"]:
        ctx.move_ducats(
            ("kingdoms", kingdom_id), None, p["cost"], f"building {unit['name']}", audience=kingdom_audience(kingdom_id)
        )
    return {"unit": unit_id, "ships": p["ships"], "sailors": sailors, "reinforced": bool(fleet_id)}


@command(
    "ship-disband",
    "Disband ships of a fleet: their sailors go back to the kingdom's pool.",
    {
        "unit": Param(str, ref="units"),
        "ships": Param(int, required=False, default=0, minimum=0, help="how many (default: all)"),
    },
    category="warfare",
    filed_by=KING,
)
def ship_disband(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    unit = _ships_of(world, p["unit"])
    owner = str(unit["owner"])
    ctx.require_acts_for(kingdom=owner)
    have = int(unit["ships"])
    ships = p["ships"] or have
    if ships > have:
        raise CommandError("ships", f"{unit['name']} has {counted(have, 'ship')}, not {ships}")
    sailors = _sailors_for(unit, ships)
    gone = _take_ships(world, p["unit"], ships, sailors)
    add_specialists(ctx, owner, "sailor", sailors, "", log=False)
    ctx.log(
        f"{name_of(world, 'kingdoms', owner)} disbands {counted(ships, 'ship')} of {unit['name']}: {counted(sailors, 'sailor')} "
        f"return to its pool." + (" The fleet is no more." if gone else ""),
        kind="ships",
        audience=kingdom_audience(owner),
        refs={"unit": p["unit"], "kingdom": owner, "sailors": sailors},
    )
    return {"unit": p["unit"], "ships": ships, "sailors": sailors, "removed": gone}


@command(
    "ship-sink",
    lambda: (
        "A Sea Raider destroys ships and captures their sailors: it employs them (its owner's "
        f"pool) or sells them as slaves for {ducats(sailor_slave_price())} each."
    ),
    {
        "unit": Param(str, ref="units", help="the fleet that loses the ships"),
        "raider": Param(str, ref="units", help="the Sea Raider unit that destroys them"),
        "ships": Param(int, required=False, default=1, minimum=1),
        "sailors": Param(
            str,
            required=False,
            default="sell",
            choices=FATES,
            help="the captured sailors: sell (as slaves), employ, or free (none taken)",
        ),
    },
    category="battle",
)
def ship_sink(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    world = ctx.world
    unit = _ships_of(world, p["unit"])
    raider = world.get("units", p["raider"])
    if rules.normalise_kind(str(raider.get("kind", ""))) not in SEA_RAIDERS:
        raise CommandError(
            "raider", f"{raider['name']} is a {raider.get('kind')}, not a Sea Raider: only sea raiders capture sailors"
        )
    victim, captor = str(unit["owner"]), str(raider["owner"])
    if victim == captor:
        raise CommandError("raider", f"{raider['name']} sails for the same kingdom as {unit['name']}")
    ctx.require_adjudicator(Stakes.of(None, kingdoms=[victim, captor, raider.get("friendly_to")]))
    have = int(unit["ships"])
    if p["ships"] > have:
        raise CommandError("ships", f"{unit['name']} has {counted(have, 'ship')}, not {p['ships']}")
    sailors = _sailors_for(unit, p["ships"])
    band = is_irregular(captor)  # privateers: no pool to employ sailors, no treasury for the price
    if band and p["sailors"] == "employ" and sailors:
        raise CommandError(
            "sailors", f"{raider['name']} belong to no kingdom whose pool could take the sailors: sell or free them"
        )
    gone = _take_ships(world, p["unit"], p["ships"], sailors)
    fate = p["sailors"] if sailors else "free"
    text = f"{raider['name']} sends {counted(p['ships'], 'ship')} of {unit['name']} to the bottom" + (
        " (the fleet is no more)" if gone else ""
    )
    price = 0.0
    if fate == "employ":
        add_specialists(ctx, captor, "sailor", sailors, "", log=False)
        text += f" and takes {counted(sailors, 'sailor')} into the service of {name_of(world, 'kingdoms', captor)}."
    elif fate == "sell":
        price = float(sailors * sailor_slave_price())
        text += f" and sells {counted(sailors, 'captured sailor')} as slaves for {ducats(price)}."
    else:
        text += "; no sailors are taken."
    ctx.log(text, kind="ships", refs={"unit": p["unit"], "raider": p["raider"], "sailors": sailors, "fate": fate})
    if price and band:  # the price is the privateers' take: their sponsor's cut of it
        pay_sponsor(ctx, p["raider"], price, "selling captured sailors")
    elif price:
        ctx.move_ducats(None, ("kingdoms", captor), price, f"{counted(sailors, 'captured sailor')} sold as slaves")
    return {
        "unit": p["unit"],
        "ships": p["ships"],
        "sailors": sailors,
        "fate": fate,
        "ducats": money(price),
        "removed": gone,
    }
