"""Season reports: one advance writes, from the same state, the public season post and a private
report for every kingdom, every player and the GM. They are stored in the save's `reports` table, so
the app, `yak report` and `ssh host report` all read the same words, and export as BBCode, Markdown or
Discord messages (`markup`).

The season post is what the GM posts as it is: a title, his narrative, the season's public events by
section, each order once with its outcome (`post`), and the dice ledger's head. A private report
tells every change of what its reader holds since the season opened (purse, lands, each unit's
regiments and ships, businesses, specialists, captives, his condition, his operations; "Nothing
changed" only when nothing did), then his holdings, his private chronicle, what is due, and the
orders he may file next as lines to send back (`template`).

Everything a report says passes the audience filter for its recipient first; it names things by
their names, never by ids or command syntax, and leaves out year-start steps that did nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from yak_tui.kernel.play.audience import PUBLIC, audiences_seen, chronicle_order, filter_entry
from yak_tui.kernel.play.fairdice import post_lines
from yak_tui.kernel.play.identity import OBSERVER, Identity, IdentityError, identity_name
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.season.markup import render_bbcode, render_discord, render_markdown
from yak_tui.kernel.season.post import Event, season_events, sections_of
from yak_tui.kernel.world.model import ValidationError, World
from yak_tui.kernel.world.money import shown_money
from yak_tui.kernel.world.numbers import AMOUNT_LIMIT, counted

PUBLIC_RECIPIENT = "public"
FORMATS = {"bbcode": "bbcode", "markdown": "md", "discord": "discord.md"}
# Between two Discord messages in one text: the GM pastes each part as its own message.
DISCORD_BREAK = "----- (next Discord message) -----"
# What `yak report --out` and the app's export write unless a format is named.
EXPORT_FORMATS = ("bbcode", "markdown")
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
    """Everything of a kingdom its King reads a change of: coffers, lands, every unit's regiments
    and ships, specialists, academies, captives held and the operations it runs."""
    kingdom = world.find("kingdoms", kingdom_id) or {}
    out: Holdings = {
        "Treasury (ducats)": float(kingdom.get("treasury", 0)),
        "Manpower": float(kingdom.get("manpower", 0)),
        "Influence": float(kingdom.get("influence", 0)),
    }
    # Through the world's indexes: a report per kingdom must not scan every province, place and unit.
    for pid, province in sorted(world.where("provinces", kingdom=kingdom_id), key=_doc_id):
        out[f"Province {province.get('name', pid)}"] = "held"
    for pid, place in sorted(world.where("pcs", controller=kingdom_id), key=_doc_id):
        out[f"Place {place.get('name', pid)}"] = _place_words(world, place)
    for uid, unit in sorted(world.where("units", owner=kingdom_id), key=_doc_id):
        out[f"Unit {unit.get('name', uid)}"] = _unit_words(unit)
    pool = world.find("specialists", kingdom_id) or {}
    for key, plural in SPECIALISTS:
        if pool.get(key):
            out[f"Specialists: {plural}"] = float(pool[key])
    counter = pool.get("counter_spies") or {}
    if counter.get("nation") or counter.get("provinces"):
        where = [world.display_name("provinces", str(p)) for p in counter.get("provinces", [])]
        out["Counter-spies"] = ", ".join(
            [*([counted(counter["nation"], "nation-wide counter-spy")] if counter.get("nation") else []), *where]
        )
    for _, academy in sorted(world.where("academies", kingdom=kingdom_id), key=_doc_id):
        town = world.display_name("pcs", str(academy.get("pc", "")))
        out[f"Academy at {town} ({academy.get('type', '?')})"] = f"level {academy.get('level', 0)}"
    for cid, captive in sorted(world.where("characters", captive_of=kingdom_id), key=_doc_id):
        out[f"Captive {captive.get('name', cid)}"] = "held by you"
    _operations(world, out, holder_kingdom=kingdom_id)
    return out


SPECIALISTS = (
    ("spy", "spies"),
    ("cold_spy", "cold spies"),
    ("engineer", "engineers"),
    ("missionary", "missionaries"),
    ("sailor", "sailors"),
)


def _place_words(world: World, place: dict[str, Any]) -> str:
    words = "held"
    if place.get("siege"):
        words += ", under siege"
    if place.get("captured_by"):
        words += f", captured by {world.display_name('kingdoms', str(place['captured_by']))}"
    return words


def _unit_words(unit: dict[str, Any]) -> str:
    """A unit as its owner counts it: "4 regiments of infantry (brigade)", "2 ships"."""
    kind = str(unit.get("kind", ""))
    if unit.get("ships") or kind == "ship":
        strength = counted(int(unit.get("ships", 0)), "ship")
    else:
        strength = f"{counted(int(unit.get('regiments', 0)), 'regiment')} of {kind}"
    return f"{strength} ({unit.get('size', '?')})"


def _operations(world: World, out: Holdings, **holder: str) -> None:
    """The lasting operations (missions, infiltrations, traps) the reader holds, and their state."""
    for _, effect in sorted(world.where("effects", **holder), key=_doc_id):
        what = str(effect.get("mission") or effect.get("kind") or "operation").replace("-", " ")
        target = effect.get("target_kingdom")
        label = f"Operation: {what}" + (f" on {world.display_name('kingdoms', str(target))}" if target else "")
        while label in out:
            label += " (another)"
        out[label] = "ended" if effect.get("ended") or effect.get("consumed") else "in force"


def _doc_id(item: tuple[str, dict[str, Any]]) -> str:
    return item[0]


def _condition(world: World, character: dict[str, Any]) -> str:
    """A character's condition in words: alive or dead, free or a captive, and how rested."""
    if not character.get("alive", True):
        return "dead"
    words = f"alive, {character.get('status', 'fresh')}"
    if character.get("captive_of"):
        words += f", a captive of {world.display_name('kingdoms', str(character['captive_of']))}"
    return words


def _character_holdings(world: World, character_id: str) -> Holdings:
    """Everything of a character his player reads a change of: purse, condition and whereabouts,
    goods, businesses and their sizes, units he commands, debts, and his own operations."""
    character = world.find("characters", character_id) or {}
    location = str(character.get("location") or "")
    out: Holdings = {
        "Purse (ducats)": float(character.get("treasury", 0)),
        "Condition": _condition(world, character),
        "Whereabouts": world.display_name("pcs", location)
        if world.find("pcs", location)
        else world.display_name("units", location)
        if location
        else "unknown",
    }
    for good, count in sorted((character.get("goods") or {}).items()):
        out[f"Goods: {good}"] = float(count)
    for bid, business in sorted(world.where("businesses", owner=character_id), key=_doc_id):
        out[f"Business {business.get('name', bid)}"] = f"size {business.get('size', '?')}"
    for uid, unit in sorted(world.where("units", commander=character_id), key=_doc_id):
        out[f"Command of {unit.get('name', uid)}"] = _unit_words(unit)
    for uid, unit in sorted(world.where("units", guard_of=character_id), key=_doc_id):
        out[f"Personal guard {unit.get('name', uid)}"] = _unit_words(unit)
    for _, debt in sorted(world.all("ledger")):
        if f"character:{character_id}" in debt.get("parties", []) and debt.get("status") in ("open", "overdue"):
            lender = world.display_name("businesses", str(debt.get("lender", "")))
            side = "owed by you" if debt.get("debtor") == character_id else "owed to you"
            out[f"{str(debt.get('kind', 'debt')).capitalize()} with {lender} ({side}, ducats)"] = float(
                debt.get("outstanding", 0)
            )
    _operations(world, out, holder_character=character_id)
    return out


def _amount(value: float | str) -> str:
    # A whole amount, as most of a season's 8,000 holding lines at 100x are: what `shown_money` prints
    # for it, without its rounding.
    if type(value) is float and value.is_integer() and -AMOUNT_LIMIT <= value <= AMOUNT_LIMIT:
        return str(int(value))
    return shown_money(value) if isinstance(value, float | int) else str(value)


def holding_lines(now: Holdings) -> list[str]:
    return [f"{label}: {_amount(value)}" for label, value in now.items()]


def change_lines(before: Holdings, after: Holdings) -> list[str]:
    """What changed between two snapshots, in words ("Treasury (ducats): 1200 → 1350 (+150)"): every
    label whose value moved, came or went."""
    lines: list[str] = []
    for label, value in after.items():
        old = before.get(label)
        if old is None:
            lines.append(f"{label}: {_amount(value)} (new)")
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
    """The entries of these seasons, oldest first (one pass: a 1000x chronicle holds 100,000): the
    closing season (the first date) and what its advance wrote into the next. What the advance that
    OPENED the closing season wrote into it (its year start, its arrivals) was told in the report
    before, so it is left out: each event is told once."""
    chosen = list(dates)
    wanted = {(d.year, d.season) for d in chosen}
    seasons = {d.season for d in chosen}  # most entries are of another season: no tuple made for them
    closing = (chosen[0].year, chosen[0].season) if chosen else None
    found = [
        entry
        for entry in chronicle_order(world)
        if (date := entry["date"])["season"] in seasons
        and (date["year"], date["season"]) in wanted
        and not _did_nothing(entry)
    ]

    def by_advance_in_closing(entry: dict[str, Any]) -> bool:
        return entry.get("command") == "advance" and (entry["date"]["year"], entry["date"]["season"]) == closing

    # The closing advance's own first line ("<season> closes.") is the last season line of the
    # closing season that an advance wrote; the advance's lines before it are the opening one's.
    marks = [n for n, entry in enumerate(found) if by_advance_in_closing(entry) and entry.get("kind") == "season"]
    if not marks:
        return found
    cut = marks[-1]
    return [entry for n, entry in enumerate(found) if n >= cut or not by_advance_in_closing(entry)]


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


def _chronicle_events(world: World, recipient: Recipient, entries: SeasonEntries) -> list[Event]:
    """The public post tells what everyone may read; a private report what only its reader (and those
    he shares a secret with) may, so nothing is told twice. Each order is one line with its outcome
    (`post.season_events`); the GM reads each line's note under it."""
    viewer = recipient.identity or OBSERVER
    shown = [
        seen
        for entry in entries.candidates(world, recipient.identity)
        if (seen := filter_entry(world, viewer, entry)) is not None
    ]
    notes = (lambda entry: [f"GM: {entry['secret']}"] if entry.get("secret") else []) if viewer.is_gm else None
    return season_events(world, shown, notes=notes)


class WaitingOrders:
    """The orders still waiting as the season closes, each told once (who filed it, who it waits for,
    what it is) and indexed by the identities that read it in their report: its filer and its
    adjudicator (the GM reads them all). Built once per advance, so the due sections of all the reports
    cost the orders plus the lines they print, not recipients × orders."""

    def __init__(self, world: World, orders: list[dict[str, Any]]) -> None:
        from yak_tui.kernel.play.orders import describe_order

        self.lines: list[str] = []
        self.by_reader: dict[str, list[int]] = {}
        for position, order in enumerate(orders):
            waits = _name(world, str(order.get("adjudicator", "gm")))
            who = _name(world, str(order.get("filed_by", "")))
            self.lines.append(f"Order still waiting ({who}, for {waits}): {describe_order(world, order)}")
            readers = {str(order.get("filed_by")), str(order.get("adjudicator"))}
            for reader in readers:
                self.by_reader.setdefault(reader, []).append(position)

    def lines_for(self, identity: Identity) -> list[str]:
        """In the orders' own order: every line for the GM, else those he filed or adjudicates."""
        if identity.is_gm:
            return list(self.lines)
        return [self.lines[position] for position in self.by_reader.get(str(identity), ())]


class DueItems:
    """The season's due items (`seasons.due_items`), gathered once and indexed by audience: a reader's
    are looked up among the audiences he sees (`audiences_seen`), not asked of every item in turn."""

    def __init__(self, items: list[dict[str, Any]]) -> None:
        self.texts = [str(item.get("text", "")) for item in items]
        self.kinds = [str(item.get("kind", "")) for item in items]
        self.by_audience: dict[str, list[int]] = {}
        for position, item in enumerate(items):
            self.by_audience.setdefault(str(item.get("audience", PUBLIC)), []).append(position)

    def texts_for(self, world: World, identity: Identity | None) -> list[str]:
        """In the items' own order: the public ones for the season post, else those he may see."""
        if identity is None:
            return [self.texts[position] for position in self.by_audience.get(PUBLIC, ())]
        seen = audiences_seen(world, identity)
        if seen is None:
            positions: list[int] | range = range(len(self.texts))
        else:
            positions = sorted(p for audience in (PUBLIC, *seen) for p in self.by_audience.get(audience, ()))
        # One line per fact, as `session.due_for` lists it: a siege told to both its sides is listed
        # once to whoever sees both.
        shown: dict[tuple[str, str], str] = {}
        for position in positions:
            shown.setdefault((self.kinds[position], self.texts[position]), self.texts[position])
        return list(shown.values())


def _due_section(world: World, recipient: Recipient, due: DueItems, waiting: WaitingOrders) -> list[dict[str, Any]]:
    """`due`: the due items; `waiting`: the orders still waiting. Both gathered once for every report."""
    identity = recipient.identity
    lines = due.texts_for(world, identity)
    if identity is not None:
        lines += waiting.lines_for(identity)
    return _plain(lines)


def _name(world: World, identity: str) -> str:
    try:
        return identity_name(world, Identity.parse(identity))
    except IdentityError:
        return identity


# -- writing them ----------------------------------------------------------------------------------


@dataclass
class SeasonOpening:
    """Taken as the advance begins: who gets a report, what each held when the season opened, and the
    GM's narrative of the closing season."""

    closing: GameDate
    recipients: list[Recipient]
    before: dict[str, Holdings]
    narrative: str = ""


def season_start(world: World) -> World | None:
    """The world as the current season opened: this one with every command of the season undone on
    a trial copy (its undo records, newest first); None when the record is cut short (a season of
    more commands than the undo stack keeps) or a command of it kept none."""
    from yak_tui.kernel.play.commands import UNDO_KEEP

    stack = world.meta.get("undo") or []
    if len(stack) >= UNDO_KEEP or any(record.get("date") != world.meta.get("date") for record in stack):
        return None
    start = world.trial()
    for record in reversed(stack):
        start.restore(record["changes"])
    return start


def begin_reports(world: World) -> SeasonOpening:
    """What each recipient held when the season opened: as his last report left it (the advance that
    opened this season wrote it), else the season's start rebuilt from its undo records, else (no
    record of it) as the advance begins."""
    chosen = recipients(world)
    last: dict[str, Holdings] = {}
    for _, report in sorted(world.all("reports"), key=lambda item: GameDate.from_dict(item[1]["season"])):
        last[str(report["recipient"])] = dict(report.get("holdings") or {})
    missing = [r for r in chosen if r.key not in last]
    start = (season_start(world) or world) if missing else world
    before = {r.key: last[r.key] if r.key in last else holdings(start, r) for r in chosen}
    return SeasonOpening(world.date, chosen, before, str(world.meta.get("narrative") or ""))


def _heading(world: World, recipient: Recipient, closing: GameDate) -> str:
    identity = recipient.identity
    if identity is None:
        return f"{world.name}: {closing.label()}"
    if identity.is_gm:
        return f"{world.name}: {closing.label()}, the GM's report"
    if identity.is_king:
        return f"{world.name}: {closing.label()}, report for {world.display_name('kingdoms', identity.subject)}"
    return f"{world.name}: {closing.label()}, report for {identity_name(world, identity)}"


def _ledger_footer(world: World) -> list[str]:
    """The dice ledger's head as the season closed: a reader who keeps it can check later that no roll
    of this season was changed."""
    head = str(world.meta.get("dice_head") or "")
    rolls = int(world.meta.get("dice_count", 0))
    if not head or not rolls:  # no roll yet: nothing to check
        return []
    return [f"Dice ledger: {counted(rolls, 'roll')} recorded; its head is {head}."]


def write_reports(world: World, opening: SeasonOpening) -> list[str]:
    """Write every recipient's report of the season that just closed; returns their ids."""
    from yak_tui.kernel.play.orders import WAITING
    from yak_tui.kernel.season.seasons import due_items
    from yak_tui.kernel.season.template import template_lines

    entries = SeasonEntries(season_entries(world, (opening.closing, world.date)))
    due = DueItems(due_items(world))
    waiting = WaitingOrders(
        world, [order for _, order in sorted(world.all("orders")) if order.get("status") == WAITING]
    )
    written = []
    for recipient in opening.recipients:
        events = _chronicle_events(world, recipient, entries)
        report: dict[str, Any] = {
            "season": opening.closing.to_dict(),
            "recipient": recipient.key,
            "heading": _heading(world, recipient, opening.closing),
        }
        identity = recipient.identity
        if identity is None:
            if opening.narrative:
                report["narrative"] = opening.narrative
            report["sections"] = sections_of(events) or [
                {"title": "What happened", "items": _plain(["A quiet season: nothing was done in public."])}
            ]
            fair_lines = post_lines(world, opening.closing.key(), world.date.key())
            if fair_lines:  # commit and reveal (docs/fair-dice.md): what `yak-verify` reads, kept verbatim
                report["sections"].append({"title": "Fair dice", "kind": "code", "items": _plain(fair_lines)})
            report["footer"] = _ledger_footer(world)
            report["holdings"] = {}
        else:
            after = holdings(world, recipient)
            changes = change_lines(opening.before.get(recipient.key, {}), after)
            sections: list[dict[str, Any]] = [
                {"title": "Changes this season", "items": _plain(changes or ["Nothing changed."])},
                {"title": "Holdings", "items": _plain(holding_lines(after))},
                {"title": "Your private chronicle", "items": [event.item() for event in events]},
                {
                    "title": f"Due in {world.date.label()}",
                    "items": _due_section(world, recipient, due, waiting),
                },
            ]
            template = template_lines(world, identity, world.date)
            if template:
                sections.append(
                    {"title": f"Orders for {world.date.label()}", "kind": "code", "items": _plain(template)}
                )
            report["sections"] = sections
            report["holdings"] = after
        doc_id = report_id(opening.closing, recipient.key)
        world.put("reports", doc_id, report, final=True)  # checked once, with the close's writes
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
    """A stored report as a forum post: BBCode, Markdown, or Discord's Markdown (its messages one after
    another, each under a line that says where one ends)."""
    if fmt not in FORMATS:
        raise ValidationError("format", f"must be {', '.join(FORMATS)}, not {fmt!r}")
    if fmt == "bbcode":
        return render_bbcode(report)
    if fmt == "discord":
        return "\n".join(
            f"{message}\n{DISCORD_BREAK}\n" if n < len(messages) - 1 else f"{message}\n"
            for messages in [render_discord(report)]
            for n, message in enumerate(messages)
        )
    return render_markdown(report)


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
    "EXPORT_FORMATS",
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
