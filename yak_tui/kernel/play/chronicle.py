"""The chronicle: its entries written (`append_entry`, dated, in the order things happened), and read:
filters for screens and `yak log`, and forum export (BBCode, Markdown).

Everything passes through the audience filter first; export adds nothing the viewer may not see.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from yak_tui.kernel.play.audience import PUBLIC, visible_entries
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import ValidationError, World
from yak_tui.kernel.world.money import money

if TYPE_CHECKING:
    from yak_tui.kernel.play.dice import RollRecord


@dataclass(frozen=True)
class ChronicleFilter:
    season: GameDate | None = None
    kingdom: str | None = None
    character: str | None = None
    kind: str | None = None

    @classmethod
    def from_args(
        cls, world: World, season: str | None, kingdom: str | None, character: str | None, kind: str | None
    ) -> ChronicleFilter:
        try:
            date = GameDate.parse(season) if season else None
        except ValueError as error:
            raise ValidationError("season", str(error)) from None
        return cls(
            date,
            world.resolve_ref("kingdoms", kingdom) if kingdom else None,
            world.resolve_ref("characters", character) if character else None,
            kind or None,
        )

    def matches(self, world: World, entry: dict[str, Any]) -> bool:
        if self.season is not None and GameDate.from_dict(entry["date"]) != self.season:
            return False
        if self.kind is not None and entry.get("kind") != self.kind:
            return False
        if self.kingdom is not None and not _mentions_kingdom(world, entry, self.kingdom):
            return False
        if self.character is not None and not _mentions_character(entry, self.character):
            return False
        return True


_EVERY_ENTRY = ChronicleFilter()


def _mentions_kingdom(world: World, entry: dict[str, Any], kingdom: str) -> bool:
    if entry.get("audience") == f"kingdom:{kingdom}" or entry.get("actor") == f"king:{kingdom}":
        return True
    refs = entry.get("refs") or {}
    if kingdom in (refs.get("kingdom"), refs.get("target_kingdom"), refs.get("sponsor_kingdom")):
        return True
    if any(key.endswith(f":{kingdom}") and key.startswith("kingdoms") for key in entry.get("amounts", {})):
        return True
    name = world.display_name("kingdoms", kingdom)
    return name in entry.get("text", "")


def _mentions_character(entry: dict[str, Any], character: str) -> bool:
    refs = entry.get("refs") or {}
    return (
        entry.get("audience") == f"character:{character}"
        or entry.get("actor") == f"player:{character}"
        or character in (refs.get("character"), refs.get("target_character"))
        or f"characters:{character}" in entry.get("amounts", {})
    )


def filter_entries(world: World, viewer: Identity, chosen: ChronicleFilter) -> list[dict[str, Any]]:
    entries = visible_entries(world, viewer)
    if chosen == _EVERY_ENTRY:  # `yak log` as it is most often asked: no entry to judge (100,000 at 1000x)
        return entries
    return [e for e in entries if chosen.matches(world, e)]


def roll_line(roll: dict[str, Any]) -> str:
    """One roll as a forum reader checks it by hand.

    A roll that adds modifiers to its dice reads "rolled 4 +1 (reason) = 5 → band"; any other kind
    (a d100 under a chance, a d31 swing, a price table) carries its own `reading`, written by the
    rule that rolled it. A blind roll shows its outcome only.
    """
    purpose = roll.get("purpose", "roll")
    if "naturals" not in roll:
        return f"{purpose}: {roll.get('outcome', '')} (blind roll)"
    hand = " [dice by hand]" if roll.get("source") == "manual" else ""
    if roll.get("reading"):
        return f"{purpose}: {roll['reading']}{hand}"
    naturals = " + ".join(str(n) for n in roll.get("naturals", []))
    mods = "".join(f" {m['value']:+d} ({m['reason']})" for m in roll.get("modifiers", []))
    from yak_tui.kernel.play.outcomes import outcome_words

    raw_band = str(roll.get("band", ""))
    band = outcome_words(raw_band) if raw_band else ""
    outcome = str(roll.get("outcome", ""))
    said = f"{band} ({outcome})" if outcome and outcome not in (raw_band, band) else band
    return f"{purpose}: rolled {naturals}{mods} = {roll.get('total')} → {said}{hand}"


def export_entries(
    world: World, entries: list[dict[str, Any]], fmt: str, viewer: Identity, heading: str | None = None
) -> str:
    """Forum text of already-filtered entries, grouped by season; `heading` is a first line that says
    who may read a private export."""
    if fmt not in ("bbcode", "markdown"):
        raise ValidationError("format", f"must be bbcode or markdown, not {fmt!r}")
    lines: list[str] = []
    current: str | None = None
    for entry in entries:
        label = GameDate.from_dict(entry["date"]).label()
        if label != current:
            current = label
            if lines:
                lines.append("")
            lines.append(f"[b]{label}[/b]" if fmt == "bbcode" else f"## {label}")
        text = entry["text"]
        lines.append(f"[*] {text}" if fmt == "bbcode" else f"- {text}")
        for roll in entry.get("rolls", []):
            line = roll_line(roll)
            lines.append(f"[i]{line}[/i]" if fmt == "bbcode" else f"  - *{line}*")
        if entry.get("secret"):
            lines.append(f"[i]GM: {entry['secret']}[/i]" if fmt == "bbcode" else f"  - *GM: {entry['secret']}*")
    warning = ""
    if heading:
        warning = f"[b]{heading}[/b]\n" if fmt == "bbcode" else f"**{heading}**\n\n"
    if fmt == "bbcode" and lines:
        body = "\n".join(lines)
        return f"{warning}[u]{world.name} chronicle[/u]\n[list]\n{body}\n[/list]"
    header = f"# {world.name} chronicle" if fmt == "markdown" else ""
    return (warning + "\n".join([header, *lines]).strip()).strip()


def append_entry(
    world: World,
    text: str,
    *,
    kind: str = "event",
    audience: str = PUBLIC,
    actor: str = "gm",
    command: str = "",
    rolls: list[RollRecord] | None = None,
    amounts: dict[str, float] | None = None,
    secret: str = "",
    refs: dict[str, Any] | None = None,
    adjudicator: str | None = None,
    sink: list[dict[str, Any]] | None = None,
    gm_text: str = "",
) -> dict[str, Any]:
    """Append one chronicle entry, dated to the current season, in the order things happened."""
    seq = world.next_seq("chronicle_seq")
    entry_id = f"e{seq:06d}"
    entry: dict[str, Any] = {
        "id": entry_id,
        "seq": seq,
        "date": world.meta["date"],
        "kind": kind,
        "text": text,
        "audience": audience,
        "actor": actor,
        "command": command,
        "rolls": [r.to_dict() for r in (rolls or [])],
    }
    if amounts:  # as the treasuries moved: rounded and within range by the one rule (10, not 10.0)
        entry["amounts"] = {party: money(amount) for party, amount in amounts.items()}
    if secret:
        entry["secret"] = secret
    if gm_text:  # the truth where `text` is what its audience is told (a failed purge reads "cleared")
        entry["gm_text"] = gm_text
    if refs:
        entry["refs"] = refs
    if adjudicator:
        entry["adjudicator"] = adjudicator
    if entry["rolls"]:
        # Imported here: reading the chronicle (`yak log`) never loads the dice ledger.
        from yak_tui.kernel.play.dicechain import chain_rolls

        chain_rolls(world.data, entry_id, entry["rolls"])
    world.put("chronicle", entry_id, entry)
    if sink is not None:
        sink.append(entry)
    return entry
