"""Season reports: one advance writes, from the same state, the public season post and a private
report for every kingdom, every player and the GM (holdings and their changes this season, the
private chronicle, what is due next). They are stored in the save's `reports` table, so the app,
`yak report` and `ssh host report` all read the same words, and export as BBCode or Markdown.

Everything a report says passes the audience filter for its recipient first; it names things by
their names, never by ids or command syntax, and leaves out year-start steps that did nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from yak_tui.kernel.play.audience import PUBLIC, audiences_seen, chronicle_order, filter_entry, may_see
from yak_tui.kernel.play.chronicle import roll_line
from yak_tui.kernel.play.fairdice import post_lines
from yak_tui.kernel.play.identity import OBSERVER, Identity, IdentityError, identity_name
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import ValidationError, World
from yak_tui.kernel.world.money import shown_money

PUBLIC_RECIPIENT = "public"
FORMATS = {"bbcode": "bbcode", "markdown": "md"}
Holdings = dict[str, float | str]


@dataclass(frozen=True)
class Recipient:
    """Who a report is for: the public (`identity` None), the GM, a King or a player."""

    key: str  # "public", "gm", "king:<kingdom>", "player:<character>" (the report's `recipient`)

    @property
    def identity(self) -> Identity | None:
        return None if self.key == PUBLIC_RECIPIENT else Identity.parse(self.key)

    @property
    def file_stem(self) -> str:
        """The export's file name: `public`, `gm`, `king-elbreth`, `player-corvin`."""
        return self.key.replace(":", "-")


def season_slug(date: GameDate) -> str:
    """`Spring 313` as a folder name: `spring-313`."""
    return date.label().lower().replace(" ", "-")


def report_id(date: GameDate, recipient: str) -> str:
    return f"{season_slug(date)}/{recipient}"


# -- who gets a report ---------------------------------------------------------------------------


def recipients(world: World) -> list[Recipient]:
    """The public, the GM, the King of every kingdom, and every player: a character on the SSH
    roster or one who filed an order or said he was ready this season (call before the advance)."""
    from yak_tui.kernel.season.readiness import seats

    keys = [PUBLIC_RECIPIENT, "gm"] + [f"king:{kid}" for kid, _ in sorted(world.all("kingdoms"))]
    players = sorted({str(seat) for seat in seats(world) if seat.is_player and world.find("characters", seat.subject)})
    return [Recipient(key) for key in keys + players]


# -- holdings --------------------------------------------------------------------------------------


def holdings(world: World, recipient: Recipient) -> Holdings:
    """What the recipient holds, as label → amount or words (a label is a name a reader knows)."""
    identity = recipient.identity
    if identity is None:
        return {}
    if identity.is_gm:
        out: Holdings = {}
        for kid, kingdom in sorted(world.all("kingdoms")):
            name = str(kingdom.get("name", kid))
            out[f"{name}: treasury (ducats)"] = float(kingdom.get("treasury", 0))
            out[f"{name}: manpower"] = float(kingdom.get("manpower", 0))
        return out
    if identity.is_king:
        return _kingdom_holdings(world, identity.subject)
    return _character_holdings(world, identity.subject)


def _kingdom_holdings(world: World, kingdom_id: str) -> Holdings:
    kingdom = world.find("kingdoms", kingdom_id) or {}
    out: Holdings = {
        "Treasury (ducats)": float(kingdom.get("treasury", 0)),
        "Manpower": float(kingdom.get("manpower", 0)),
        "Influence": float(kingdom.get("influence", 0)),
    }
    # Through the world's indexes: a report per kingdom must not scan every province, place and unit.
    provinces = sorted(str(p.get("name", pid)) for pid, p in world.where("provinces", kingdom=kingdom_id))
    out["Provinces"] = ", ".join(provinces) or "none"
    places = sorted(str(p.get("name", pid)) for pid, p in world.where("pcs", controller=kingdom_id))
    out["Places held"] = ", ".join(places) or "none"
    for uid, unit in sorted(world.where("units", owner=kingdom_id), key=_doc_id):
        out[f"Unit {unit.get('name', uid)}"] = " ".join(str(unit[k]) for k in ("size", "kind", "status") if unit.get(k))
    return out


def _doc_id(item: tuple[str, dict[str, Any]]) -> str:
    return item[0]


def _character_holdings(world: World, character_id: str) -> Holdings:
    character = world.find("characters", character_id) or {}
    out: Holdings = {
        "Purse (ducats)": float(character.get("treasury", 0)),
        "Condition": "alive, " + str(character.get("status", "")) if character.get("alive", True) else "dead",
    }
    for good, count in sorted((character.get("goods") or {}).items()):
        out[f"Goods: {good}"] = float(count)
    for bid, business in sorted(world.where("businesses", owner=character_id), key=_doc_id):
        out[f"Business {business.get('name', bid)}"] = f"size {business.get('size', '?')}"
    for uid, unit in sorted(world.where("units", commander=character_id), key=_doc_id):
        out[f"Command of {unit.get('name', uid)}"] = str(unit.get("size", ""))
    for _, debt in sorted(world.all("ledger")):
        if f"character:{character_id}" in debt.get("parties", []) and debt.get("status") in ("open", "overdue"):
            lender = world.display_name("businesses", str(debt.get("lender", "")))
            side = "owed by you" if debt.get("debtor") == character_id else "owed to you"
            out[f"{str(debt.get('kind', 'debt')).capitalize()} with {lender} ({side}, ducats)"] = float(
                debt.get("outstanding", 0)
            )
    return out


def _amount(value: float | str) -> str:
    return shown_money(value) if isinstance(value, float | int) else str(value)


def holding_lines(now: Holdings) -> list[str]:
    return [f"{label}: {_amount(value)}" for label, value in now.items()]


def change_lines(before: Holdings, after: Holdings) -> list[str]:
    """What changed between two snapshots, in words ("Treasury (ducats): 1200 → 1350 (+150)")."""
    lines: list[str] = []
    for label, value in after.items():
        old = before.get(label)
        if old is None:
            lines.append(f"{label}: new, {_amount(value)}")
        elif old != value:
            delta = ""
            if isinstance(old, float | int) and isinstance(value, float | int):
                delta = f" ({'+' if value >= old else '-'}{shown_money(abs(value - old))})"
            lines.append(f"{label}: {_amount(old)} → {_amount(value)}{delta}")
    lines += [f"{label}: gone (was {_amount(old)})" for label, old in before.items() if label not in after]
    return lines


# -- the chronicle of the closing season -----------------------------------------------------------


def _did_nothing(entry: dict[str, Any]) -> bool:
    """A year-start step line with no sum to tell ("Year start, Upkeep and wages: done"): its words are
    the same whether or not a secret operation ran in it, so a report leaves it out."""
    return str(entry.get("kind", "")) == "year-start" and not (entry.get("refs") or {}).get("sums")


def season_entries(world: World, dates: Iterable[GameDate]) -> list[dict[str, Any]]:
    """The entries of these seasons, oldest first (one pass: a 1000x chronicle holds 100,000)."""
    wanted = {(d.year, d.season) for d in dates}
    return [
        entry
        for entry in chronicle_order(world)
        if (entry["date"]["year"], entry["date"]["season"]) in wanted and not _did_nothing(entry)
    ]


def _entry_items(entry: dict[str, Any], viewer: Identity) -> dict[str, Any]:
    details = [roll_line(roll) for roll in entry.get("rolls", [])]
    if viewer.is_gm and entry.get("secret"):
        details.append(f"GM: {entry['secret']}")
    return {"text": str(entry["text"]), "details": details}


class SeasonEntries:
    """The closing season's entries, sorted once into what each report reads: the public ones, and
    the others by audience and by adjudicator. A report then looks only at the entries its reader
    might see (`audiences_seen`), and `filter_entry` still decides each one: a year start writes
    hundreds of reports over thousands of entries."""

    def __init__(self, entries: list[dict[str, Any]]) -> None:
        self.public: list[tuple[int, dict[str, Any]]] = []
        self.private: list[tuple[int, dict[str, Any]]] = []
        self.by_audience: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        self.by_adjudicator: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        for position, entry in enumerate(entries):
            audience = entry.get("audience", PUBLIC)
            if audience == PUBLIC:
                self.public.append((position, entry))
                continue
            self.private.append((position, entry))
            self.by_audience.setdefault(str(audience), []).append((position, entry))
            if entry.get("adjudicator") is not None:
                self.by_adjudicator.setdefault(str(entry["adjudicator"]), []).append((position, entry))

    def candidates(self, world: World, viewer: Identity | None) -> list[dict[str, Any]]:
        """In order: the public entries for the season post (no reader), else the private entries
        this reader might see."""
        if viewer is None:
            return [entry for _, entry in self.public]
        seen = audiences_seen(world, viewer)
        if seen is None:
            return [entry for _, entry in self.private]
        found = {position: entry for audience in seen for position, entry in self.by_audience.get(audience, ())}
        found.update(self.by_adjudicator.get(str(viewer), ()))
        return [found[position] for position in sorted(found)]


def _chronicle_section(world: World, recipient: Recipient, entries: SeasonEntries) -> list[dict[str, Any]]:
    """The public post tells what everyone may read; a private report what only its reader (and those
    he shares a secret with) may, so nothing is told twice."""
    viewer = recipient.identity or OBSERVER
    items = []
    for entry in entries.candidates(world, recipient.identity):
        shown = filter_entry(world, viewer, entry)
        if shown is not None:
            items.append(_entry_items(shown, viewer))
    return items


def _due_section(
    world: World, recipient: Recipient, due: list[dict[str, Any]], waiting: list[dict[str, Any]]
) -> list[dict[str, Any]]:
    """`due`: the due items (`seasons.due_items`); `waiting`: the orders still waiting, by id. Both
    gathered once for every report."""
    from yak_tui.kernel.play.orders import describe_order

    identity = recipient.identity
    items = []
    for item in due:
        audience = str(item.get("audience", PUBLIC))
        visible = audience == PUBLIC if identity is None else may_see(world, identity, audience)
        if visible:
            items.append({"text": str(item.get("text", "")), "details": []})
    if identity is not None:
        for order in waiting:
            if identity.is_gm or order.get("filed_by") == str(identity) or order.get("adjudicator") == str(identity):
                waits = _name(world, str(order.get("adjudicator", "gm")))
                who = _name(world, str(order.get("filed_by", "")))
                items.append(
                    {"text": f"Order still waiting ({who}, for {waits}): {describe_order(world, order)}", "details": []}
                )
    return items


def _name(world: World, identity: str) -> str:
    try:
        return identity_name(world, Identity.parse(identity))
    except IdentityError:
        return identity


# -- writing them ----------------------------------------------------------------------------------


@dataclass
class SeasonOpening:
    """Taken as the advance begins: who gets a report and what each held before it."""

    closing: GameDate
    recipients: list[Recipient]
    before: dict[str, Holdings]


def begin_reports(world: World) -> SeasonOpening:
    """What each recipient held when the season opened: as his last report left it, or (his first
    report) as the advance begins."""
    chosen = recipients(world)
    last: dict[str, Holdings] = {}
    for _, report in sorted(world.all("reports"), key=lambda item: GameDate.from_dict(item[1]["season"])):
        last[str(report["recipient"])] = dict(report.get("holdings") or {})
    return SeasonOpening(
        world.date, chosen, {r.key: last[r.key] if r.key in last else holdings(world, r) for r in chosen}
    )


def _heading(world: World, recipient: Recipient, closing: GameDate) -> str:
    identity = recipient.identity
    if identity is None:
        return f"{world.name}: {closing.label()}, the season post"
    if identity.is_gm:
        return f"{world.name}: {closing.label()}, the GM's report"
    if identity.is_king:
        return f"{world.name}: {closing.label()}, report for {world.display_name('kingdoms', identity.subject)}"
    return f"{world.name}: {closing.label()}, report for {identity_name(world, identity)}"


def write_reports(world: World, opening: SeasonOpening) -> list[str]:
    """Write every recipient's report of the season that just closed; returns their ids."""
    from yak_tui.kernel.play.orders import WAITING
    from yak_tui.kernel.season.seasons import due_items

    entries = SeasonEntries(season_entries(world, (opening.closing, world.date)))
    due = due_items(world)
    waiting = [order for _, order in sorted(world.all("orders")) if order.get("status") == WAITING]
    written = []
    for recipient in opening.recipients:
        after = holdings(world, recipient)
        sections: list[dict[str, Any]] = []
        if recipient.identity is not None:
            sections.append({"title": "Holdings", "items": _plain(holding_lines(after))})
            sections.append(
                {
                    "title": "Changes this season",
                    "items": _plain(change_lines(opening.before.get(recipient.key, {}), after) or ["Nothing changed."]),
                }
            )
        chronicle_title = "What happened" if recipient.identity is None else "Your private chronicle"
        sections.append({"title": chronicle_title, "items": _chronicle_section(world, recipient, entries)})
        sections.append(
            {"title": f"Due in {world.date.label()}", "items": _due_section(world, recipient, due, waiting)}
        )
        fair_lines = post_lines(world, opening.closing.key(), world.date.key()) if recipient.identity is None else []
        if fair_lines:  # commit and reveal (docs/fair-dice.md): what `yak-verify` reads
            sections.append({"title": "Fair dice", "items": _plain(fair_lines)})
        doc_id = report_id(opening.closing, recipient.key)
        world.put(
            "reports",
            doc_id,
            {
                "season": opening.closing.to_dict(),
                "recipient": recipient.key,
                "heading": _heading(world, recipient, opening.closing),
                "sections": sections,
                "holdings": after,
            },
        )
        written.append(doc_id)
    return written


def _plain(lines: list[str]) -> list[dict[str, Any]]:
    return [{"text": line, "details": []} for line in lines]


# -- reading and exporting them -------------------------------------------------------------------


def may_read_report(viewer: Identity, report: dict[str, Any]) -> bool:
    """The GM reads every report; anyone else the public post and his own."""
    return viewer.is_gm or report.get("recipient") in (PUBLIC_RECIPIENT, str(viewer))


def reported_seasons(world: World) -> list[GameDate]:
    return sorted({GameDate.from_dict(r["season"]) for _, r in world.all("reports")})


def reports_for(world: World, viewer: Identity, season: str | None = None) -> list[dict[str, Any]]:
    """The reports of a season (the last one reported by default) that the viewer may read, his own
    (or the GM's) first, then the public post, then the rest by recipient."""
    if season:
        try:
            date = GameDate.parse(season)
        except ValueError as error:
            raise ValidationError("season", str(error)) from None
    else:
        seasons = reported_seasons(world)
        if not seasons:
            return []
        date = seasons[-1]
    found = [
        r for _, r in world.all("reports") if GameDate.from_dict(r["season"]) == date and may_read_report(viewer, r)
    ]
    own = "gm" if viewer.is_gm else str(viewer)  # a co-GM's own report is the GM's
    return sorted(found, key=lambda r: (r["recipient"] != own, r["recipient"] != PUBLIC_RECIPIENT, r["recipient"]))


def render_report(report: dict[str, Any], fmt: str) -> str:
    """A stored report as a forum post: BBCode or Markdown."""
    if fmt not in FORMATS:
        raise ValidationError("format", f"must be bbcode or markdown, not {fmt!r}")
    bb = fmt == "bbcode"
    lines = [f"[size=150][b]{report['heading']}[/b][/size]" if bb else f"# {report['heading']}"]
    for section in report.get("sections", []):
        items = section.get("items", [])
        if not items:
            continue
        lines += ["", f"[b]{section['title']}[/b]" if bb else f"## {section['title']}"]
        if bb:
            lines.append("[list]")
        for item in items:
            lines.append(f"[*] {item['text']}" if bb else f"- {item['text']}")
            lines += [f"[i]{d}[/i]" if bb else f"  - *{d}*" for d in item.get("details", [])]
        if bb:
            lines.append("[/list]")
    return "\n".join(lines) + "\n"


def export_reports(found: list[dict[str, Any]], out: Path, formats: Iterable[str]) -> list[Path]:
    """Write each report as `out/<season>/<recipient>.bbcode` and `.md`; returns the files written."""
    written = []
    for report in found:
        folder = out / season_slug(GameDate.from_dict(report["season"]))
        folder.mkdir(parents=True, exist_ok=True)
        for fmt in formats:
            path = folder / f"{Recipient(report['recipient']).file_stem}.{FORMATS[fmt]}"
            path.write_text(render_report(report, fmt), encoding="utf-8")
            written.append(path)
    return written


__all__ = [
    "FORMATS",
    "PUBLIC_RECIPIENT",
    "Recipient",
    "SeasonOpening",
    "begin_reports",
    "change_lines",
    "export_reports",
    "holdings",
    "may_read_report",
    "render_report",
    "report_id",
    "reported_seasons",
    "reports_for",
    "season_slug",
    "write_reports",
]
