"""The court's read models of the chronicle: its entries as one viewer may read them, page by page,
and its export for a forum post.

Every entry reaches them through `yak_tui.kernel.play.audience` (`visible_entries`,
`redact_entry`), so a screen cannot show what its viewer may not see. No Textual here.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, overload

from yak_tui.kernel.errors import ValidationError
from yak_tui.kernel.play.audience import (
    ADJUDICATORS,
    PUBLIC,
    newest_seen,
    redact_entry,
    seen_entries,
    visible_entries,
    visible_table,
)
from yak_tui.kernel.play.identity import GM, Identity, identity_label
from yak_tui.kernel.play.views import Choice
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import World

if TYPE_CHECKING:
    pass


# A viewer who sees exactly the public record: the audience of a public forum post.
PUBLIC_VIEWER = Identity("player", "")


class EntryView(NamedTuple):
    id: str
    seq: int
    date: str
    season_key: str
    kind: str
    text: str
    audience: str
    actor: str
    rolls: tuple[str, ...] = ()
    blind: bool = False
    note: str = ""  # the adjudicator's note: present only when the viewer may read it
    signed_by: str = ""  # the co-GM who acted ("alice" for `gm:alice`): shown to the GM only


def signer(actor: str, viewer: Identity | None) -> str:
    """Who of several GMs did it, for a GM's eyes ("" for the plain GM or another viewer)."""
    if viewer is None or not viewer.is_gm:
        return ""
    role, _, name = actor.partition(":")
    return name if role == "gm" else ""


def _entry_id(entry: Mapping[str, Any]) -> str:
    return str(entry.get("id", entry.get("seq", "")))


def entry_view(entry: Mapping[str, Any], viewer: Identity | None = None) -> EntryView:
    """An entry that has already been through the audience filter, ready to draw; `viewer` a GM:
    with the co-GM who acted."""
    from yak_tui.kernel.play.chronicle import roll_line

    date = GameDate.from_dict(entry["date"])
    rolls = tuple(roll_line(r) for r in entry.get("rolls", []))
    return EntryView(
        id=_entry_id(entry),
        seq=int(entry.get("seq", 0)),
        date=date.label(),
        season_key=date.key(),
        kind=str(entry.get("kind", "event")),
        text=str(entry.get("text", "")),
        audience=str(entry.get("audience", PUBLIC)),
        actor=str(entry.get("actor", "")),
        rolls=rolls,
        blind=any(r.get("blind") for r in entry.get("rolls", [])),
        note=str(entry.get("secret") or entry.get("adjudicator_note") or ""),
        signed_by=signer(str(entry.get("actor", "")), viewer),
    )


class EntryViews(Sequence[EntryView]):
    """Chronicle entries, oldest first, each redacted and drawn the first time it is asked for: a
    screen shows a page of them, so a chronicle of 100,000 entries costs a page, not 100,000 views.

    Built from entries as stored that `viewer` may see (`seen_entries`); without a viewer, from
    entries already filtered for their reader."""

    def __init__(
        self, entries: Sequence[dict[str, Any]] = (), viewer: Identity | None = None, ids: tuple[str, ...] | None = None
    ) -> None:
        self._entries = entries
        self._viewer = viewer
        self._drawn: dict[int, EntryView] = {}
        self._ids: tuple[str, ...] | None = ids  # every entry's id, when the caller has them already
        self._positions: dict[str, int] | None = None

    def __len__(self) -> int:
        return len(self._entries)

    @overload
    def __getitem__(self, index: int) -> EntryView: ...

    @overload
    def __getitem__(self, index: slice) -> EntryViews: ...

    def __getitem__(self, index: int | slice) -> EntryView | EntryViews:
        if isinstance(index, slice):
            return EntryViews(self._entries[index], self._viewer)
        return self._draw(range(len(self._entries))[index])  # a negative index counts from the newest

    def _draw(self, position: int) -> EntryView:
        drawn = self._drawn.get(position)
        if drawn is None:
            entry = self._entries[position]
            drawn = entry_view(entry if self._viewer is None else redact_entry(self._viewer, entry), self._viewer)
            self._drawn[position] = drawn
        return drawn

    def draw_newest(self, count: int) -> None:
        """Draw the newest `count` entries, and list every id, now (in the screen's worker, not
        on the event loop)."""
        for position in range(max(0, len(self._entries) - count), len(self._entries)):
            self._draw(position)
        self._ids = self.ids

    @property
    def ids(self) -> tuple[str, ...]:
        """Every entry's id, without drawing any."""
        if self._ids is None:
            self._ids = tuple(_entry_id(entry) for entry in self._entries)
        return self._ids

    def by_id(self, entry_id: str) -> EntryView:
        if self._positions is None:
            self._positions = {entry_id: position for position, entry_id in enumerate(self.ids)}
        return self[self._positions[entry_id]]


NEWEST_DRAWN = 200


class ChronicleView(NamedTuple):
    entries: EntryViews
    seasons: tuple[Choice, ...]
    kingdoms: tuple[Choice, ...]
    characters: tuple[Choice, ...]
    kinds: tuple[Choice, ...]
    total: int  # entries the viewer may see before the filter

    def readers(self, audience: str) -> str:
        """Who reads an entry of `audience`, in words: "Kingdom of Elbreth", "Corvin Hale", "the
        adjudicators" (never `kingdom:elbreth`)."""
        if audience == ADJUDICATORS:
            return "the adjudicators"
        kind, _, subject = audience.partition(":")
        names = {"kingdom": self.kingdoms, "character": self.characters}.get(kind, ())
        return next((choice.label for choice in names if choice.value == subject), subject or audience)


class _WholeChronicle(NamedTuple):
    """The GM's whole chronicle on one world, and what the filter bar offers for it: kept for the
    last two worlds (`_GM_CHRONICLES`, by `World.serial`), so that the world a note later
    (`World.follows`) extends it by the entries the note added instead of sorting and walking
    100,000 entries again."""

    table: dict[str, dict[str, Any]]  # that world's chronicle table
    seen: list[dict[str, Any]]  # every entry as stored, by seq
    ids: tuple[str, ...]
    dates: frozenset[tuple[Any, Any]]
    kinds: frozenset[str]
    kingdoms: tuple[Choice, ...]
    characters: tuple[Choice, ...]


_GM_CHRONICLES: dict[int, _WholeChronicle] = {}
_GM_CHRONICLES_KEPT = 2  # worlds: the one shown, and the one before it (the next reload follows the first)
_GM_CHRONICLES_GUARD = threading.Lock()  # the apps of one process build read models in threads


def _choices(world: World, viewer: Identity) -> tuple[tuple[Choice, ...], tuple[Choice, ...]]:
    """The kingdoms and characters the filter bar offers the viewer."""
    kingdoms = tuple(Choice(k, d.get("name", k)) for k, d in sorted(visible_table(world, viewer, "kingdoms").items()))
    characters = tuple(
        Choice(c, d.get("name", c))
        for c, d in sorted(visible_table(world, viewer, "characters").items(), key=lambda i: i[1].get("name", i[0]))
    )
    return kingdoms, characters


def _whole(
    world: World,
    viewer: Identity,
    seen: list[dict[str, Any]],
    ids: tuple[str, ...] = (),
    dates: frozenset[tuple[Any, Any]] = frozenset(),
    kinds: frozenset[str] = frozenset(),
    choices: tuple[tuple[Choice, ...], tuple[Choice, ...]] | None = None,
    walked: int = 0,
) -> _WholeChronicle:
    """The chronicle's parts from `seen` (the viewer's entries by seq): the entries past the first
    `walked` are walked, the `ids`, `dates` and `kinds` of those are given."""
    more_dates: set[tuple[Any, Any]] = set()
    more_kinds: set[str] = set()
    for entry in seen[walked:]:
        date = entry["date"]
        more_dates.add((date["year"], date["season"]))
        more_kinds.add(str(entry.get("kind", "event")))
    kingdoms, characters = choices or _choices(world, viewer)
    return _WholeChronicle(
        table=world.table("chronicle"),
        seen=seen,
        ids=ids + tuple(_entry_id(entry) for entry in seen[walked:]),
        dates=dates | more_dates,
        kinds=kinds | more_kinds,
        kingdoms=kingdoms,
        characters=characters,
    )


def _gm_chronicle(world: World) -> _WholeChronicle:
    """The GM's whole chronicle on `world`: extended from the one built on the world it follows
    when the writes since only added entries (a note, a roll), else built whole."""
    with _GM_CHRONICLES_GUARD:
        held = _GM_CHRONICLES.get(world.serial)
    if held is not None and held.table is world.table("chronicle"):
        return held
    built = _gm_chronicle_extended(world) or _whole(world, GM, seen_entries(world, GM))
    with _GM_CHRONICLES_GUARD:
        _GM_CHRONICLES[world.serial] = built
        while len(_GM_CHRONICLES) > _GM_CHRONICLES_KEPT:
            del _GM_CHRONICLES[next(iter(_GM_CHRONICLES))]
    return built


def _gm_chronicle_extended(world: World) -> _WholeChronicle | None:
    follows = world.follows()
    if follows is None:
        return None
    serial, written = follows
    with _GM_CHRONICLES_GUARD:
        before = _GM_CHRONICLES.get(serial)
    if before is None:
        return None
    table, earlier = world.table("chronicle"), before.table
    written_ids = written.get("chronicle", frozenset())
    if len(table) != len(earlier) + len(written_ids) or any(entry_id in earlier for entry_id in written_ids):
        return None  # an entry edited or removed: the order and the filters' choices may change
    added = sorted((table[entry_id] for entry_id in written_ids), key=lambda entry: entry.get("seq", 0))
    if added and before.seen and added[0].get("seq", 0) <= before.seen[-1].get("seq", 0):
        return None  # not after the last one: its place is somewhere in the middle
    choices = None if {"kingdoms", "characters"} & written.keys() else (before.kingdoms, before.characters)
    return _whole(
        world, GM, before.seen + added, before.ids, before.dates, before.kinds, choices, walked=len(before.seen)
    )


def chronicle_view(
    world: World,
    viewer: Identity,
    season: str | None = None,
    kingdom: str | None = None,
    character: str | None = None,
    kind: str | None = None,
) -> ChronicleView:
    """The chronicle as the viewer may see it, narrowed by the filter bar's choices. The GM's, who
    sees every entry whole, is extended from the last world's when a note only added entries."""
    from yak_tui.kernel.play.chronicle import ChronicleFilter

    whole = _gm_chronicle(world) if viewer.is_gm else _whole(world, viewer, seen_entries(world, viewer))
    seen = whole.seen
    chosen = ChronicleFilter.from_args(world, season, kingdom, character, kind)
    if chosen == ChronicleFilter():
        shown = EntryViews(seen, viewer, whole.ids)
    else:
        shown = EntryViews([e for e in seen if chosen.matches(world, redact_entry(viewer, e))], viewer)
    shown.draw_newest(NEWEST_DRAWN)
    labels = {GameDate.of(int(year), str(season_name)).label() for year, season_name in whole.dates}
    season_list = sorted(labels, key=lambda label: GameDate.parse(label), reverse=True)
    return ChronicleView(
        entries=shown,
        seasons=tuple(Choice(s, s) for s in season_list),
        kingdoms=whole.kingdoms,
        characters=whole.characters,
        kinds=tuple(Choice(k, k) for k in sorted(whole.kinds)),
        total=len(seen),
    )


def latest_entries(world: World, viewer: Identity, limit: int = 8) -> tuple[EntryView, ...]:
    """The newest `limit` entries the viewer may see, newest first."""
    return tuple(entry_view(redact_entry(viewer, e), viewer) for e in newest_seen(world, viewer, limit))


def export_audiences(world: World, viewer: Identity) -> tuple[Choice, ...]:
    """Whom the viewer may export for: never anyone who sees more than the viewer does."""
    out = [Choice("public", "Public (forum thread)")]
    if viewer.is_gm:
        out.append(Choice("gm", "GM (everything)"))
        for kid, kingdom in sorted(world.all("kingdoms")):
            out.append(Choice(f"king:{kid}", f"King · {kingdom.get('name', kid)}"))
        for cid, char in sorted(world.all("characters")):
            out.append(Choice(f"player:{cid}", f"Player · {char.get('name', cid)}"))
    elif viewer.subject:
        out.append(Choice(str(viewer), identity_label(world, viewer)))
    return tuple(out)


def _audience_identity(audience: str) -> Identity:
    return PUBLIC_VIEWER if audience == "public" else Identity.parse(audience)


def export_audience(text: str) -> str:
    """An export's audience as `export_audiences` names it: `kingdom:<id>` is the King's record,
    `character:<id>` the player's (the words of an entry's audience work too)."""
    text = text.strip()
    kind, sep, subject = text.partition(":")
    if sep and kind.lower() == "kingdom":
        return f"king:{subject.strip()}"
    if sep and kind.lower() == "character":
        return f"player:{subject.strip()}"
    return text.lower() if text.lower() in ("public", "gm") else text


def private_export_line(world: World, audience: str) -> str:
    """The first line of an export that is not the public record: who may read it (RULINGS §1)."""
    reader = _audience_identity(audience)
    who = "the GM" if reader.is_gm else f"{identity_label(world, reader)} ({reader})"
    return f"Private: for {who} only. Not for the forum thread."


def export_text(
    world: World,
    viewer: Identity,
    audience: str,
    fmt: str,
    season: str | None = None,
    entry_ids: Iterable[str] | None = None,
    kingdom: str | None = None,
    character: str | None = None,
    kind: str | None = None,
) -> tuple[str, int]:
    """Forum text of the chosen season or entries, filtered for `audience` (which the viewer may export for).

    Returns the text and how many entries it holds.
    """
    from yak_tui.kernel.play.chronicle import ChronicleFilter, export_entries, filter_entries

    audience = export_audience(audience)
    allowed = {c.value for c in export_audiences(world, viewer)}
    if audience not in allowed:
        raise ValidationError(
            "audience", f"{viewer} may not export for {audience}; choose {', '.join(sorted(allowed))}"
        )
    reader = _audience_identity(audience)
    chosen = ChronicleFilter.from_args(world, season, kingdom, character, kind)
    entries = filter_entries(world, reader, chosen)
    # Only what the viewer may see too (the audience never sees more, but be strict).
    mine = {e.get("id") for e in visible_entries(world, viewer)}
    entries = [e for e in entries if e.get("id") in mine]
    if entry_ids is not None:
        wanted = set(entry_ids)
        entries = [e for e in entries if e.get("id") in wanted]
    heading = None if audience == "public" else private_export_line(world, audience)
    return export_entries(world, entries, fmt, reader, heading=heading), len(entries)
