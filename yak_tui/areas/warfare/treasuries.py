"""Where treasuries live (RULINGS §2): in a kingdom's or a character's vault at a place
(`vault-set`), which treasuries a captured place exposes to looting, and who is owed a looted
business's income.

State it owns: `pcs.<id>.holds_treasury_of` (["kingdoms:<id>", "characters:<id>"]: explicit
treasury places). It reads `businesses.<id>`: `income_looted_by` (a bare kingdom id) and
`income_looted_for` (the year whose year-start income is looted), set by `loot`: the economy's
business-income step pays that income to the looter and sets `income_looted_by` to None;
`looted_income_recipient` answers the same question, and the warfare `expiries` step
(year_start.py) drops spent marks.
"""

from __future__ import annotations

from typing import Any

from yak_tui.areas.warfare import rules
from yak_tui.areas.warfare.shared import (
    Party,
    party_key,
)
from yak_tui.kernel.play.audience import character_audience, kingdom_audience
from yak_tui.kernel.play.commands import SEATS, CommandContext, CommandError, Param, command
from yak_tui.kernel.world.model import World


def treasury_place(world: World, party: Party) -> str | None:
    """The pc id holding this kingdom's or citizen's treasury, or None when it is carried.

    Kingdoms: the structure naming it in `holds_treasury_of`, else the capital. Citizens: a vault
    (`characters.<id>.vault` or an explicit `holds_treasury_of`), else the rules' choice among the
    towns, markets and businesses he owns (a structure captured from him counts until it is
    looted: his treasury is still inside), else his town of residence, else carried."""
    table_name, doc_id = party
    key = party_key(party)
    explicit = [pid for pid, pc in sorted(world.all("pcs")) if key in (pc.get("holds_treasury_of") or [])]
    if table_name == "kingdoms":
        if explicit:
            return explicit[0]
        capital = (world.find("kingdoms", doc_id) or {}).get("capital")
        return capital if capital and world.find("pcs", capital) else None
    char = world.find("characters", doc_id) or {}
    vault = char.get("vault") or (explicit[0] if explicit else None)
    owned: list[rules.OwnedStructure] = []
    for pid, pc in sorted(world.all("pcs")):
        if (pc.get("owner_character") == doc_id or _unlooted_capture_of(pc, doc_id)) and not pc.get("destroyed"):
            owned.append(
                rules.OwnedStructure(
                    f"pcs:{pid}",
                    str(pc["kind"]),
                    bool(pc.get("capital")),
                    float(pc.get("size", pc.get("tax", 0)) or 0),
                    int(pc.get("fort_level", 0) or 0),
                )
            )
    for bid, biz in sorted(world.all("businesses")):
        if biz.get("owner") == doc_id:
            home = world.find("pcs", biz.get("pc"))
            owned.append(
                rules.OwnedStructure(
                    f"businesses:{bid}",
                    "business",
                    False,
                    float(biz.get("size", 0)),
                    int((home or {}).get("fort_level", 0) or 0),
                )
            )
    where = rules.treasury_location(owned, char.get("residence"), vault)
    if where is None:
        return None
    kind, _, ident = where.partition(":")
    if kind == "businesses":
        return (world.find("businesses", ident) or {}).get("pc")
    if kind == "pcs":
        return ident
    return where


@command(
    "vault-set",
    "Choose where a treasury is kept: a King his kingdom's, in a place it controls; "
    "a citizen his own, in a place of his kingdom or one he owns. No place: the rules' choice.",
    {
        "pc": Param(str, required=False, ref="pcs", help="the vault (empty: the capital, or the rules' choice)"),
        "kingdom": Param(str, required=False, ref="kingdoms", help="the kingdom whose treasury moves (a King's own)"),
        "character": Param(
            str, required=False, ref="characters", help="the citizen whose treasury moves (a player's own)"
        ),
    },
    category="warfare",
    filed_by=SEATS,
)
def vault_set(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    """What a King or a citizen asked the GM to `gm-set` before: his own vault, told to him alone
    (where a treasury lies is what a raider wants to know)."""
    world = ctx.world
    principal = ctx.principal
    kingdom, character = p["kingdom"], p["character"]
    if kingdom and character:
        raise CommandError("character", "name the kingdom or the citizen whose treasury moves, not both")
    if not kingdom and not character:
        if principal.is_king:
            kingdom = principal.subject
        elif principal.is_player:
            character = principal.subject
        else:
            raise CommandError("kingdom", "name the kingdom or the citizen whose treasury moves")
    ctx.require_acts_for(kingdom=kingdom, character=character)
    party: Party = ("kingdoms", kingdom) if kingdom else ("characters", character)
    own_kingdom = kingdom or world.kingdom_of_character(character)
    place = p["pc"]
    if place:
        pc = world.get("pcs", place)
        if pc.get("destroyed"):
            raise CommandError("pc", f"{pc['name']} is destroyed: no vault there")
        if pc.get("controller") != own_kingdom and not (character and pc.get("owner_character") == character):
            raise CommandError(
                "pc",
                f"{pc['name']} is not held by {world.display_name('kingdoms', own_kingdom)}"
                + ("" if kingdom else " nor owned by " + world.display_name("characters", character)),
            )
    key = party_key(party)
    for pc_id, pc in sorted(world.all("pcs")):
        if key in (pc.get("holds_treasury_of") or []) and pc_id != place:
            edited = world.edit("pcs", pc_id)
            edited["holds_treasury_of"] = [holder for holder in edited["holds_treasury_of"] if holder != key]
    if kingdom and place:
        edited = world.edit("pcs", place)
        if key not in (edited.get("holds_treasury_of") or []):
            edited["holds_treasury_of"] = [*(edited.get("holds_treasury_of") or []), key]
    if character:
        world.edit("characters", character)["vault"] = place or None
    now = treasury_place(world, party)
    where = world.display_name("pcs", now) if now else "carried"
    owner = world.display_name(*party)
    chosen = "kept in a vault at" if place else "back where the rules keep it:"
    audience = kingdom_audience(kingdom) if kingdom else character_audience(str(character))
    ctx.log(
        f"The treasury of {owner} is now {chosen} {where}.",
        kind="treasury",
        audience=audience,
        refs={"party": key, "pc": now},
    )
    return {"party": key, "vault": place or None, "kept_at": now}


def _unlooted_capture_of(pc: dict[str, Any], character_id: str) -> bool:
    """A structure taken from this citizen still holds his treasury until it has been looted."""
    looted = pc.get("looted") or {}
    return pc.get("captured_owner") == character_id and looted.get("capture") != pc.get("captured")


def exposed_treasuries(world: World, pc_id: str) -> list[Party]:
    """Every treasury living in this structure: capturing it exposes them to looting."""
    parties: list[Party] = []
    for kid, _ in sorted(world.all("kingdoms")):
        if treasury_place(world, ("kingdoms", kid)) == pc_id:
            parties.append(("kingdoms", kid))
    for cid, char in sorted(world.all("characters")):
        if char.get("alive", True) and treasury_place(world, ("characters", cid)) == pc_id:
            parties.append(("characters", cid))
    return parties


def looted_income_recipient(world: World, business_id: str) -> str | None:
    """The kingdom that takes this business's income at the year start now running, or None.

    Contract for the business-income step: `businesses.<id>.income_looted_by` (kingdom id) and
    `income_looted_for` (year) are set by `loot`; when `income_looted_for` equals the year that
    just opened, pay the income to this kingdom instead of the owner. The warfare `expiries` step
    clears the marks afterwards."""
    biz = world.find("businesses", business_id)
    if not biz or not biz.get("income_looted_by"):
        return None
    if int(biz.get("income_looted_for", -1)) != world.date.year:
        return None
    return str(biz["income_looted_by"])
