"""What the economy's command modules share: the rulings the world layer made, constants, small
lookups and the readers of espionage effects."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from yak_tui.areas import espionage
from yak_tui.kernel.play.audience import character_audience, kingdom_audience
from yak_tui.kernel.play.authority import Stakes, who_may
from yak_tui.kernel.play.commands import CommandContext, CommandError
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import World

# Where RULINGS §5–§6 are silent, this is how the world layer settles it (shown by help screens).
RULINGS_MADE = (
    "A business that loses its last Size in competition (or liquidation) is removed; its stock and "
    "warehoused goods go to its owner's goods, and its monopoly lapses.",
    "The loser of a competition also loses one Size's worth of `invested` (the sector cost); money "
    "spent on a failed competition is not invested.",
    "Opening a business into a full sector is a competition by a Size-0 expander; if it fails, no "
    "business opens and the cost is spent.",
    "A monopoly's kind defaults by sector (industrial goods, commercial trade, service service); "
    "one monopoly per sector and province; penalties of several monopolies add up (Potential never "
    "below 0).",
    "Deals that bind a second character (sale, credit, loan) are run by the GM or confirmed by an "
    "uninvolved King through an order; the seller/lender files it.",
    "Credit and loans are drawn from the lender's creditors (outside the game), not from its owner's "
    "treasury; repayments go back to them. When credit falls due unpaid (or a loan is past its term), "
    "the lender pays from its owner's treasury, then liquidates Size; what it pays, the debtor then "
    "owes the owner (repayments reimburse him first); what nobody pays is a bad debt against the "
    "debtor. The same procedure covers loan instalments.",
    "The credit (loan) limit counts what the lender still answers for on its open credit (loans).",
    "An optional `fee` is paid by the debtor to the lender's owner when credit or a loan is extended.",
    "Business tax goes to the kingdom of the province the business stands in; a looted business's "
    "income (after tax) goes to the looter, the tax still to the state.",
    "Production costs use the table base price; sales use the province price (base + espionage "
    "modifier, at least 1). One market-sale roll per business and good at season end.",
    "Warehoused goods (on site or in a commercial business of the same owner) are never sold "
    "automatically; goods-release puts them back on that business's market.",
    "Training may sponsor any specialist type, sailors included (the seed: 'of any kind').",
    "Academies stand in towns, cities, castles and ports the kingdom controls.",
    "Academy interference cuts a kingdom's graduates of that type by its reduction in total (not per "
    "academy), never below 0; the target learns of it only if the mission was detected.",
    "Gunpowder engineers return to the pool when they deliver at year start.",
    "A trap's engineer returns if a friendly unit escaped or his side won; otherwise he defects to "
    "the named winner, or is lost if none is named.",
    "A counter-missionary is entered by the GM, or staked beforehand by the defender "
    "(convert-counter); its ducats are paid, as far as the treasury holds, when it is used.",
)

MONOPOLY_KINDS = ("trade", "service", "goods")
# The monopoly a sector takes when none is named.
DEFAULT_MONOPOLY = {"industrial": "goods", "commercial": "trade", "service": "service"}
# Ruling: "Academies must be constructed in a town": the settlements that hold a town.
ACADEMY_PC_KINDS = ("town", "city", "castle", "port")
HIRED_TYPES = ("engineer", "spy", "missionary")
ENGINEER_TASKS = ("siege", "gunpowder")
GUNPOWDER = "Gunpowder"
# Effects written by the espionage layer that this module reads (field `kind` or `effect`).
ACADEMY_INTERFERENCE = (espionage.ACADEMY_INTERFERENCE,)
SAILOR_RECRUITMENT = (espionage.SAILOR_RECRUITMENT_CUT, "sailor-recruitment")
OPEN_DEBT = ("open", "overdue")


def _char(cid: str) -> tuple[str, str]:
    return ("characters", cid)


def _name(world: World, table: str, doc_id: str | None) -> str:
    return world.display_name(table, doc_id)


def _today(ctx: CommandContext) -> GameDate:
    return ctx.world.date


def _business(world: World, business_id: str) -> dict[str, Any]:
    return world.get("businesses", business_id)


def _province_kingdom(world: World, province_id: str) -> str | None:
    return world.kingdom_of_province(province_id)


def _owner_kingdom(world: World, character_id: str) -> str | None:
    return world.kingdom_of_character(character_id)


def _character_parties(world: World, *characters: str | None) -> list[str]:
    """Ledger audience: each character, plus his kingdom when he is its ruler (so the King sees)."""
    parties: list[str] = []
    for cid in characters:
        if not cid:
            continue
        tag = character_audience(cid)
        if tag not in parties:
            parties.append(tag)
        for kid, kingdom in world.all("kingdoms"):
            if kingdom.get("ruler") == cid and kingdom_audience(kid) not in parties:
                parties.append(kingdom_audience(kid))
    return parties


def _require_witness(ctx: CommandContext, stakes: Stakes, what: str) -> None:
    """Deals that bind a second character need the GM or an uninvolved King (orders for players)."""
    if ctx.identity.is_gm:
        return
    if ctx.identity.is_player:
        raise CommandError(
            "identity",
            f"{what} binds another character: file it as an order (order-file) for the GM or a King to confirm",
            who_may(ctx.world, stakes),
        )
    ctx.require_adjudicator(stakes)


def _add_goods(holder: dict[str, Any], field: str, good: str, quantity: int) -> None:
    goods = holder.setdefault(field, {})
    goods[good] = int(goods.get(good, 0)) + quantity
    if goods[good] == 0:
        del goods[good]


def _match_good(name: str, choices: Iterable[str]) -> str | None:
    for known in choices:
        if known.lower() == name.strip().lower():
            return known
    return None


def _party_audience(party: tuple[str, str]) -> str:
    table_name, doc_id = party
    return kingdom_audience(doc_id) if table_name == "kingdoms" else character_audience(doc_id)


def _effect_kind(doc: dict[str, Any]) -> str:
    return str(doc.get("kind") or doc.get("effect") or "")


def _effect_target(doc: dict[str, Any]) -> str | None:
    for key in ("target_kingdom", "target", "kingdom"):
        if doc.get(key):
            return str(doc[key])
    return None


def _effect_param(doc: dict[str, Any], *keys: str) -> Any:
    nested = [doc, doc.get("data") or {}, doc.get("params") or {}]
    for key in keys:
        for place in nested:
            if place.get(key) is not None:
                return place[key]
    return None


def _active(doc: dict[str, Any]) -> bool:
    return doc.get("active", True) is not False and not doc.get("consumed")
