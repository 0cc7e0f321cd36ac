"""Read models of credit and loans for the market screen: a business's lending capacity, the
ledger of debts a viewer is a party to, and who may borrow. Filtered for one viewer like `read`;
nothing here writes."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

from yak_tui.areas.economy import rules
from yak_tui.areas.economy._shared import OPEN_DEBT
from yak_tui.areas.economy.credit import _open_liability
from yak_tui.kernel.play.audience import can_see_document, visible_table
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import table


class Lending(NamedTuple):
    """A commercial business's credit or loan capacity."""

    kind: str  # credit | loan
    qualifies: bool
    min_size: int
    limit: int
    out: float  # what it still answers for
    left: float
    term: str  # "due in 4 seasons" / "1 to 5 years"
    due: str = ""  # when a line drawn now falls due (lending_preview)


class LedgerLine(NamedTuple):
    id: str
    kind: str  # credit | loan | bad-debt
    lender_id: str
    lender: str
    lender_owner: str
    debtor_id: str
    debtor: str
    amount: float
    outstanding: float
    due: str
    status: str
    urgent: bool  # falls due at the start of next season (or is past it)
    collateral: str
    role: str  # the viewer's side: debtor, lender, or "" (the GM)


def lending_capacity(world: World, business_id: str, doc: Mapping[str, Any], kind: str) -> Lending:
    section = table("economy")[kind]
    size, sector = int(doc.get("size", 0)), str(doc.get("sector", ""))
    limit = (rules.credit_limit if kind == "credit" else rules.loan_limit)(size, sector)
    out = _open_liability(world, business_id, kind)
    term = (
        f"due in {rules.credit_due_seasons()} seasons"
        if kind == "credit"
        else f"1 to {rules.loan_max_term_years()} years"
    )
    return Lending(
        kind, limit > 0, int(section["min_size"]), limit, round(out, 4), round(max(0.0, limit - out), 4), term
    )


def lending_preview(world: World, viewer: Identity, lender_id: str, kind: str, term_years: int = 1) -> Lending | None:
    """A business's credit (kind "credit") or loan capacity, for its owner and the GM; `due`
    is when a line drawn today falls due (credit: 4 seasons; a loan: `term_years`)."""
    doc = world.find("businesses", lender_id)
    if doc is None or can_see_document(world, viewer, "businesses", lender_id, doc) != "all":
        return None
    line = lending_capacity(world, lender_id, doc, kind)
    seasons = rules.credit_due_seasons() if kind == "credit" else 4 * max(1, int(term_years))
    return line._replace(due=world.date.plus(seasons).label())


def ledger_lines(world: World, viewer: Identity) -> tuple[LedgerLine, ...]:
    """Credit, loans and bad debts the viewer is a party to (the GM: all), open ones first."""
    today = world.date
    lines = []
    for lid, doc in visible_table(world, viewer, "ledger").items():
        kind = str(doc.get("kind", ""))
        if kind not in ("credit", "loan", "bad-debt"):
            continue
        due = GameDate.from_dict(doc["due"]) if doc.get("due") is not None else None
        status = str(doc.get("status", ""))
        open_ = status in OPEN_DEBT
        debtor = str(doc.get("debtor", ""))
        owner = str(doc.get("lender_owner", ""))
        role = ""
        if viewer.is_player:
            role = "debtor" if debtor == viewer.subject else "lender" if owner == viewer.subject else ""
        elif viewer.is_king:
            ruler = (world.find("kingdoms", viewer.subject) or {}).get("ruler")
            role = "debtor" if debtor == ruler else "lender" if owner == ruler else ""
        lines.append(
            LedgerLine(
                lid,
                kind,
                str(doc.get("lender", "")),
                str(doc.get("lender_name") or world.display_name("businesses", doc.get("lender"))),
                world.display_name("characters", owner) if owner else "",
                debtor,
                world.display_name("characters", debtor) if debtor else "",
                float(doc["amount"]),
                float(doc["outstanding"]),
                due.label() if due else "—",
                status,
                bool(open_ and due is not None and due <= today.next()),
                str(doc.get("collateral", "")),
                role,
            )
        )
    lines.sort(key=lambda row: (row.status not in OPEN_DEBT, row.id))
    return tuple(lines)


def lending_requirement(kind: str) -> str:
    """Who may extend credit (kind "credit") or lend ("loan"): e.g. "commercial Size 4+"."""
    section = table("economy")[kind]
    return f"{section['sector']} Size {int(section['min_size'])}+"


def debtor_choices(world: World, viewer: Identity, lender_id: str) -> list[str]:
    """Characters who could borrow from a business (alive, not its owner), by name."""
    doc = world.find("businesses", lender_id) or {}
    owner = doc.get("owner")
    people = [
        (cid, c)
        for cid, c in visible_table(world, viewer, "characters").items()
        if cid != owner and c.get("alive", True)
    ]
    return [cid for cid, _ in sorted(people, key=lambda item: str(item[1].get("name", item[0])))]
