"""Warfare rules: raids, slave raids, looting, dismantling and treasuries (RULINGS §2); the siege
rules are `siege_rules`.

Every function is pure: plain values in, a number, a refusal reason (`None` = allowed) or a frozen
outcome out. All numbers come from the `warfare` rules table so a GM can house-rule them.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from yak_tui.kernel.errors import RuleInputError
from yak_tui.kernel.play.dice import Dice, exact_odds
from yak_tui.kernel.world.tables import table


def rules_section(section: str) -> dict[str, Any]:
    """One section of the warfare rules table, read afresh (a house rule may have changed it)."""
    return dict(table("warfare")[section])


def normalise_kind(kind: str) -> str:
    """ "Sea Raider", "sea_raider" and "sea-raider" are one kind."""
    return "-".join(kind.strip().lower().replace("_", " ").split())


def _kinds(section: str, key: str) -> set[str]:
    return {normalise_kind(k) for k in rules_section(section)[key]}


def not_negative(name: str, value: float) -> None:
    if value < 0:
        raise RuleInputError(f"{name} must be 0 or more, not {value}")


# --- Raids -------------------------------------------------------------------------------------


def raidable(structure_kind: str) -> bool:
    """Towns, markets, ports, temples and other significant structures; never land or villages."""
    return normalise_kind(structure_kind) in _kinds("raid", "raidable_kinds")


def _structure_refusal(structure_kind: str, verb: str) -> str | None:
    kind = normalise_kind(structure_kind)
    if kind in _kinds("raid", "never_raidable_kinds"):
        return (
            f"{kind.replace('-', ' ')} cannot be {verb}: only towns, markets, ports, temples and "
            f"other significant structures can (RULINGS §2)"
        )
    if kind not in _kinds("raid", "raidable_kinds"):
        return f"a {kind or 'structure of no kind'} is not a significant structure and cannot be {verb} (RULINGS §2)"
    return None


def raid_refusal(
    structure_kind: str,
    unit_kind: str,
    coastal: bool,
    garrisoned: bool,
    walled: bool,
    raided_this_season: bool,
) -> str | None:
    """Why this unit may not raid this structure now, or None when the raid (ducats or slaves)
    may be rolled."""
    refusal = _structure_refusal(structure_kind, "raided or looted")
    if refusal:
        return refusal
    if raided_this_season:
        return (
            "this structure was already raided this season; a structure can be raided once "
            "per season, by anyone (RULINGS §2)"
        )
    unit = normalise_kind(unit_kind)
    if unit in _kinds("raid", "raider_units"):
        return None
    sea_raider = unit in _kinds("raid", "coastal_raider_units")
    if sea_raider and coastal:
        return None
    # A Sea Raider against an inland structure is "any other unit" (RULINGS §2 read literally).
    if garrisoned or walled:
        defences = " and ".join(name for name, present in (("a garrison", garrisoned), ("walls", walled)) if present)
        who = (
            "a Sea Raider raids an inland structure like any other unit"
            if sea_raider
            else "only a Raider unit (or a Sea Raider against a coastal structure) can raid it"
        )
        return f"the structure has {defences}: {who}; any other unit can raid only a defenceless structure (RULINGS §2)"
    return None


def raid_ducats(dice: Dice) -> int:
    """The natural of the ducat raid: the raider takes that many ducats, as far as they exist."""
    return dice.roll(int(rules_section("raid")["die"]), "ducat raid")


@dataclass(frozen=True)
class RaidSplit:
    """Where raided ducats come from; `taken` may fall short of the roll when both are empty."""

    from_treasury: float
    from_tax: float
    taken: float


def split_raid(amount: float, owner_treasury: float, structure_tax_remaining: float) -> RaidSplit:
    """The owner's treasury pays first (only what it holds), the rest comes out of the
    structure's coming tax, and the raid takes only what exists."""
    not_negative("raided amount", amount)
    from_treasury = min(amount, max(owner_treasury, 0))
    from_tax = min(amount - from_treasury, max(structure_tax_remaining, 0))
    return RaidSplit(from_treasury=from_treasury, from_tax=from_tax, taken=from_treasury + from_tax)


@dataclass(frozen=True)
class RaidOutcome:
    """A rolled ducat raid: the natural and where the ducats came from."""

    natural: int
    split: RaidSplit


def ducat_raid(dice: Dice, owner_treasury: float, structure_tax_remaining: float) -> RaidOutcome:
    """Roll a ducat raid and take the ducats (check `raid_refusal` first)."""
    natural = raid_ducats(dice)
    return RaidOutcome(natural, split_raid(natural, owner_treasury, structure_tax_remaining))


def ducat_raid_odds(owner_treasury: float, structure_tax_remaining: float) -> dict[float, float]:
    """Probability of each amount a ducat raid takes (the die capped by what exists)."""
    odds = exact_odds(lambda d: ducat_raid(d, owner_treasury, structure_tax_remaining), lambda o: o.split.taken)
    return {float(taken): round(float(p), 6) for taken, p in sorted(odds.items(), key=lambda kv: float(kv[0]))}  # type: ignore[arg-type]


@dataclass(frozen=True)
class SlaveOutcome:
    """A slave raid: ceil(natural / 2) manpower wanted, capped by the province's surplus."""

    natural: int
    manpower: int


def slaves_wanted(natural: int) -> int:
    """ceil(natural / divisor): "1d6/2 (round up)"."""
    return -(-natural // int(rules_section("slaves")["divisor"]))


def slave_raid(dice: Dice, surplus: int) -> SlaveOutcome:
    """Roll a slave raid. The slaver then takes the manpower as manpower or as Slaves shipments;
    slaves never turn back into manpower."""
    natural = dice.roll(int(rules_section("slaves")["die"]), "slave raid")
    return SlaveOutcome(natural, min(slaves_wanted(natural), max(surplus, 0)))


def slave_raid_odds(surplus: int) -> dict[int, float]:
    """Probability of each manpower taken, from 0 up to the most the raid can take."""
    odds = exact_odds(lambda d: slave_raid(d, surplus), lambda o: o.manpower)
    top = min(slaves_wanted(int(rules_section("slaves")["die"])), max(surplus, 0))
    return {n: round(float(odds.get(n, 0)), 6) for n in range(top + 1)}


# --- Looting and dismantling -------------------------------------------------------------------


def loot_refusal(structure_kind: str, captured_by_hostile_force: bool) -> str | None:
    """Looting needs a significant structure captured by a hostile force."""
    refusal = _structure_refusal(structure_kind, "raided or looted")
    if refusal:
        return refusal
    if not captured_by_hostile_force:
        return "looting needs the structure to be captured by a hostile force (RULINGS §2)"
    return None


@dataclass(frozen=True)
class LootOutcome:
    """What a looter takes: the tax left after this year's raids, and half a treasury held here."""

    tax_taken: float
    treasury_taken: int


def loot(
    structure_tax: float,
    raided_already: float,
    holds_owner_treasury: bool,
    owner_treasury: float,
) -> LootOutcome:
    """The following year's tax minus what raids already took; floor(treasury / 2) if the
    structure holds its owner's treasury (the rest is assumed spread elsewhere)."""
    tax_taken = max(0, structure_tax - max(raided_already, 0))
    treasury_taken = 0
    if holds_owner_treasury and owner_treasury > 0:
        treasury_taken = math.floor(owner_treasury / int(rules_section("loot")["treasury_divisor"]))
    return LootOutcome(tax_taken=tax_taken, treasury_taken=treasury_taken)


def business_loot(income: float) -> float:
    """A business in a captured town or market loses its next year's income to the looter."""
    return max(0, income)


def dismantle_refusal(by_owner: bool, captured_by_actor: bool) -> str | None:
    """Only the owner, or an enemy who captured the town, may dismantle a business."""
    if by_owner or captured_by_actor:
        return None
    return "only the owner, or an enemy who captured the town, can dismantle a business (RULINGS §2)"


def dismantle_value(invested: float) -> int:
    """floor(invested / 2): the ducats put in to reach the present Size, halved. Wasteful on
    purpose: most owners sell instead."""
    not_negative("invested", invested)
    return int(invested // int(rules_section("dismantle")["divisor"]))


# --- Where a treasury lives --------------------------------------------------------------------


@dataclass(frozen=True)
class OwnedStructure:
    """A town, market, business or other structure a citizen owns, as the treasury rule sees it."""

    id: str
    kind: str
    is_capital: bool = False
    size: float = 0
    fort_level: int = 0


@dataclass(frozen=True)
class CitizenHoldings:
    """What a citizen owns, in the order the world lists it (the last tie-break)."""

    structures: tuple[OwnedStructure, ...] = ()

    @property
    def owns_capital(self) -> bool:
        return any(s.is_capital for s in self.structures)


@dataclass(frozen=True)
class TreasuryPlace:
    """Where a treasury lives: a structure, a vault or a town id, or None when carried."""

    where: str | None
    reason: str


def _structure(item: OwnedStructure | Mapping[str, Any] | Sequence[Any]) -> OwnedStructure:
    if isinstance(item, OwnedStructure):
        return item
    if isinstance(item, Mapping):
        return OwnedStructure(
            id=str(item["id"]),
            kind=str(item["kind"]),
            is_capital=bool(item.get("is_capital", False)),
            size=item.get("size", 0) or 0,
            fort_level=int(item.get("fort_level", 0) or 0),
        )
    values = list(item)
    if not 2 <= len(values) <= 5:
        raise RuleInputError(f"an owned structure is (id, kind, is_capital, size, fort_level), not {item!r}")
    values += [False, 0, 0][len(values) - 2 :]
    return OwnedStructure(str(values[0]), str(values[1]), bool(values[2]), values[3] or 0, int(values[4] or 0))


def holdings(
    citizen: CitizenHoldings | Mapping[str, Any] | Iterable[OwnedStructure | Mapping[str, Any] | Sequence[Any]],
) -> CitizenHoldings:
    """Accept the holdings as a CitizenHoldings, a mapping with "structures", or a plain list."""
    if isinstance(citizen, CitizenHoldings):
        return citizen
    items = citizen.get("structures", ()) if isinstance(citizen, Mapping) else citizen
    return CitizenHoldings(tuple(_structure(item) for item in items))


TREASURY_CRITERIA = ("capital", "largest", "best-defended")


def treasury_order() -> tuple[str, ...]:
    """`treasury.order` of the tables: the criteria in the order they choose, each once."""
    order = tuple(str(c) for c in table("warfare")["treasury"].get("order", TREASURY_CRITERIA))
    unknown = [c for c in order if c not in TREASURY_CRITERIA]
    if unknown or len(set(order)) != len(order) or not order:
        raise RuleInputError(
            f"warfare treasury.order must list some of {', '.join(TREASURY_CRITERIA)} once each, not {list(order)}"
        )
    return order


def _criterion(structure: OwnedStructure, name: str) -> float:
    return {
        "capital": float(structure.is_capital),
        "largest": structure.size,
        "best-defended": float(structure.fort_level),
    }[name]


_DECIDED_BY = {
    "capital": "in the capital he owns",
    "largest": "in his largest town, market or business",
    "best-defended": "in his best defended town, market or business",
    "listed": "in the first listed of his towns, markets or businesses",
}
_THEN = {
    "largest": "in the largest of his best defended towns, markets or businesses",
    "best-defended": "in the best defended of his largest towns, markets or businesses",
}


def treasury_placement(
    citizen: CitizenHoldings | Mapping[str, Any] | Iterable[OwnedStructure | Mapping[str, Any] | Sequence[Any]],
    residence: str | None = None,
    vault: str | None = None,
) -> TreasuryPlace:
    """RULINGS §2: a chosen vault; else for an owner of towns, markets or businesses the one the
    criteria of `treasury.order` pick (default: the capital, else the largest, else the best
    defended; then the first listed); else the town of residence, else carried."""
    if vault:
        return TreasuryPlace(vault, "kept in a vault by choice")
    order = treasury_order()
    kinds = _kinds("treasury", "holder_kinds")
    owned = holdings(citizen).structures
    # The capital is a candidate whatever its kind while "capital" is a criterion.
    candidates = [s for s in owned if normalise_kind(s.kind) in kinds or (s.is_capital and "capital" in order)]
    if candidates:
        pool, consulted = candidates, []
        for name in order:
            if len(pool) == 1:
                break
            consulted.append(name)
            best = max(_criterion(s, name) for s in pool)
            pool = [s for s in pool if _criterion(s, name) == best]
        chosen = pool[0]  # then the first listed
        named = [n for n in consulted if n != "capital" or chosen.is_capital]
        if chosen.is_capital and "capital" in order and (not named or named[0] == "capital"):
            return TreasuryPlace(chosen.id, _DECIDED_BY["capital"])
        named = [n for n in named if n != "capital"]
        if len(named) >= 2:
            return TreasuryPlace(chosen.id, _THEN[named[-1]])
        first = named[0] if named else next((n for n in order if n != "capital"), "listed")
        return TreasuryPlace(chosen.id, _DECIDED_BY[first])
    if residence:
        return TreasuryPlace(residence, "in his town of residence")
    return TreasuryPlace(None, "carried with him")


def treasury_location(
    citizen: CitizenHoldings | Mapping[str, Any] | Iterable[OwnedStructure | Mapping[str, Any] | Sequence[Any]],
    residence: str | None = None,
    vault: str | None = None,
) -> str | None:
    """The id of the place holding the treasury (None = carried). Capturing it exposes it."""
    return treasury_placement(citizen, residence, vault).where
