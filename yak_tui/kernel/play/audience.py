"""The one audience filter: what an identity may see of entries, rolls and documents.

Every view, export and JSON goes through here; secrets leak when this is done ad hoc.
Audiences: `public`, `kingdom:<id>`, `character:<id>`, `adjudicators`.
A blind roll shows its outcome only; naturals and modifiers go to adjudicators.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable, Iterator
from itertools import pairwise, starmap
from typing import Any

from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World

PUBLIC = "public"
ADJUDICATORS = "adjudicators"


def kingdom_audience(kingdom_id: str) -> str:
    return f"kingdom:{kingdom_id}"


def character_audience(character_id: str) -> str:
    return f"character:{character_id}"


def validate_audience(world: World, audience: str) -> str:
    """Check an audience names something real; returns it normalised."""
    from yak_tui.kernel.world.model import ValidationError

    audience = audience.strip()
    if audience in (PUBLIC, ADJUDICATORS):
        return audience
    kind, _, subject = audience.partition(":")
    table = {"kingdom": "kingdoms", "character": "characters"}.get(kind)
    if table is None or not subject:
        raise ValidationError("audience", f"{audience!r} is not public, adjudicators, kingdom:<id> or character:<id>")
    return f"{kind}:{world.resolve_ref(table, subject)}"


def viewer_kingdom(world: World, viewer: Identity) -> str | None:
    if viewer.is_king:
        return viewer.subject
    if viewer.is_player:
        return world.kingdom_of_character(viewer.subject)
    return None


def is_adjudicator_of(viewer: Identity, entry: dict[str, Any]) -> bool:
    return viewer.is_gm or (entry.get("adjudicator") is not None and entry.get("adjudicator") == str(viewer))


def may_see(world: World, viewer: Identity, audience: str, entry: dict[str, Any] | None = None) -> bool:
    if viewer.is_gm or audience == PUBLIC:
        return True
    if viewer.is_observer:  # a spectator's seat: the public only, whatever an entry says
        return False
    if entry is not None and is_adjudicator_of(viewer, entry):
        return True
    if audience == ADJUDICATORS:
        return False
    kind, _, subject = audience.partition(":")
    if viewer.is_king:
        if kind == "kingdom":
            return subject == viewer.subject
        if kind == "character":
            ruler = world.find("kingdoms", viewer.subject)
            return ruler is not None and ruler.get("ruler") == subject
        return False
    if viewer.is_player:
        return kind == "character" and subject == viewer.subject
    return False


def audiences_seen(world: World, viewer: Identity) -> frozenset[str] | None:
    """The audiences other than public whose entries `viewer` may see whoever adjudicates them (None:
    every audience, the GM's). With the entries he adjudicates, these are all `may_see` lets him
    read: a caller that gathers entries by audience looks only where they can be (and still asks
    `filter_entry` of each)."""
    if viewer.is_gm:
        return None
    if viewer.is_king:
        ruler = (world.find("kingdoms", viewer.subject) or {}).get("ruler")
        seen = {kingdom_audience(viewer.subject)}
        if ruler is not None:
            seen.add(character_audience(str(ruler)))
        return frozenset(seen)
    if viewer.is_player:
        return frozenset({character_audience(viewer.subject)})
    return frozenset()


def redact_roll(roll: dict[str, Any], viewer: Identity, entry: dict[str, Any]) -> dict[str, Any]:
    """A blind roll, for anyone but its adjudicators, is a "ghost": how many dice rolled and the
    outcome, never a face, a total, a band or its ledger hash (a hash over six faces is guessed)."""
    if not roll.get("blind") or is_adjudicator_of(viewer, entry):
        return roll
    return {
        "purpose": roll.get("purpose", ""),
        "outcome": roll.get("outcome", ""),
        "blind": True,
        "ghosts": len(roll.get("naturals") or []) or 1,
    }


def filter_entry(world: World, viewer: Identity, entry: dict[str, Any]) -> dict[str, Any] | None:
    """The entry as this viewer may see it, or None."""
    if not may_see(world, viewer, str(entry.get("audience", PUBLIC)), entry):
        return None
    return redact_entry(viewer, entry)


def redact_entry(viewer: Identity, entry: dict[str, Any]) -> dict[str, Any]:
    """An entry the viewer may see (`seen_entries`), without what only its adjudicators read."""
    if is_adjudicator_of(viewer, entry):
        # His own line says what really happened where its audience reads a cover story.
        return entry if "gm_text" not in entry else {**entry, "text": entry["gm_text"]}
    shown = {k: v for k, v in entry.items() if k not in ("secret", "adjudicator_note", "gm_text")}
    shown["rolls"] = [redact_roll(r, viewer, entry) for r in entry.get("rolls", [])]
    return shown


def _may_read(world: World, viewer: Identity, entry_id: Any) -> bool:
    entry = world.table("chronicle").get(entry_id) if isinstance(entry_id, str) else None
    return entry is not None and filter_entry(world, viewer, entry) is not None


_SEQ = operator.itemgetter("seq")


def _stored_in_order(entries: Iterable[dict[str, Any]]) -> bool:
    """Whether the entries are stored by seq: one pass in C over their seqs, holding no list (a
    list of 100,000 made here would be walked by every young collection while it lives)."""
    try:
        return all(starmap(operator.le, pairwise(map(_SEQ, entries))))
    except (KeyError, TypeError):  # an entry without a seq sorts as 0; seqs that do not compare raise in the sort
        return False


def _by_seq(entries: Iterable[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(entries, key=lambda entry: entry.get("seq", 0))


def chronicle_order(world: World) -> list[dict[str, Any]]:
    """The chronicle's entries oldest first: by `seq`, entries of one seq in the order stored (as
    a stable sort). Entries are stored in that order almost always (each command appends the next
    seq), so checking it spares sorting 100,000 entries."""
    entries = world.table("chronicle").values()
    return list(entries) if _stored_in_order(entries) else _by_seq(entries)


def newest_first(world: World) -> Iterator[dict[str, Any]]:
    """The chronicle's entries newest first (`chronicle_order` reversed), without a copy when they
    are stored in order."""
    entries = world.table("chronicle").values()
    return reversed(entries) if _stored_in_order(entries) else reversed(_by_seq(entries))


def seen_entries(world: World, viewer: Identity) -> list[dict[str, Any]]:
    """The entries the viewer may see, oldest first, as stored (read-only; `redact_entry` each
    before showing it): a screen that shows a page of 100,000 entries redacts only that page."""
    ordered = chronicle_order(world)
    if viewer.is_gm:
        return ordered
    return [entry for entry in ordered if may_see(world, viewer, str(entry.get("audience", PUBLIC)), entry)]


def newest_seen(world: World, viewer: Identity, limit: int) -> list[dict[str, Any]]:
    """The newest `limit` entries the viewer may see, newest first, as stored (read-only): judged
    from the newest back, so a few lines of a long chronicle do not judge every entry."""
    out: list[dict[str, Any]] = []
    for entry in newest_first(world):
        if len(out) >= limit:
            break
        if may_see(world, viewer, str(entry.get("audience", PUBLIC)), entry):
            out.append(entry)
    return out


def visible_entries(world: World, viewer: Identity) -> list[dict[str, Any]]:
    seen = seen_entries(world, viewer)
    if viewer.is_gm:  # `redact_entry` for the adjudicator of every entry, without asking 100,000 times
        return [entry if "gm_text" not in entry else {**entry, "text": entry["gm_text"]} for entry in seen]
    return [redact_entry(viewer, entry) for entry in seen]


# -- documents ---------------------------------------------------------------------------------
# Public fields of documents owned by someone else: what anyone at the table knows.
PUBLIC_FIELDS: dict[str, tuple[str, ...]] = {
    "kingdoms": ("name", "ruler", "capital", "player", "color", "faith"),
    "characters": ("name", "title", "kingdom", "alive", "kind"),
    "provinces": ("name", "kingdom", "faith", "potentials", "resources", "ports", "terrain"),
    "pcs": (
        "name",
        "kind",
        "province",
        "hex",
        "controller",
        "fort_level",
        "walled",
        "coastal",
        "port_access",
        "resistance",
    ),
    "units": ("name", "owner", "kind", "size", "hex"),
    "businesses": ("name", "province", "sector", "size", "owner", "monopoly", "pc"),
    "academies": ("pc", "type", "level", "kingdom"),
    # A siege is fought in the open: its state is public (written by yak_tui.areas.warfare.commands).
    "sieges": (
        "fort",
        "besieger",
        "defender",
        "units",
        "started",
        "status",
        "ended",
        "lifted",
        "port_access",
        "land_blockade",
        "sea_blockade",
        "effective",
        "effective_from",
        "provisions",
        "starting_provisions",
        "carried_over_from",
        "seasons",
        "consumption",
        "decision_needed",
        "decision",
        "decided",
        "decisions",
        "messengers",
        "smuggling",
        "surrendered_units",
    ),
}
# Fields even a document's owner may not see (only the GM): what the other side of a secret knows,
# e.g. whether the target of a spy mission detected it or identified its sponsor.
HIDDEN_FIELDS: dict[str, tuple[str, ...]] = {"effects": ("known_to_target", "known_sponsor", "evidence")}
# What the target of a secret operation knows of it once detected ("known"): the operation, never who
# ran it unless the spy talked (then `KNOWN_SPONSOR_FIELDS` too).
KNOWN_FIELDS: dict[str, tuple[str, ...]] = {
    "effects": ("kind", "mission", "target_kingdom", "province", "commodity", "start", "end", "active")
}
KNOWN_SPONSOR_FIELDS: dict[str, tuple[str, ...]] = {"effects": ("sponsor_kingdom", "holder_character")}
# Fields of an order only its filer and its adjudicator read: why it was rejected, the filer's
# warning about his own numbers, his word to the adjudicator (RULINGS §1).
FILER_FIELDS: dict[str, tuple[str, ...]] = {"orders": ("reason", "warning", "note")}
# Tables whose documents only their owners (and the GM) see at all.
PRIVATE_TABLES = ("specialists", "effects", "orders", "ledger", "users", "schedule", "dice")


def owner_of(world: World, table: str, doc_id: str, doc: dict[str, Any]) -> tuple[str | None, str | None]:
    """(kingdom, character) that own a document, for the visibility rule."""
    if table == "kingdoms":
        return doc_id, None
    if table == "characters":
        return doc.get("kingdom"), doc_id
    if table == "provinces":
        return doc.get("kingdom"), None
    if table == "pcs":
        return doc.get("controller"), doc.get("owner_character")
    if table == "units":
        return doc.get("owner"), None
    if table == "businesses":
        return world.kingdom_of_character(doc.get("owner", "")), doc.get("owner")
    if table in ("specialists", "academies"):
        return doc.get("kingdom", doc_id if table == "specialists" else None), None
    if table == "orders":
        return doc.get("kingdom"), doc.get("character")
    if table == "effects":
        return doc.get("holder_kingdom"), doc.get("holder_character")
    if table == "ledger":
        return None, None
    return None, None


def can_see_document(world: World, viewer: Identity, table: str, doc_id: str, doc: dict[str, Any]) -> str:
    """'all', 'public', 'known' or 'none': how much of a document the viewer may see ('known': what
    the target of a detected operation knows of it, `KNOWN_FIELDS`)."""
    if viewer.is_gm:
        return "all"
    if table == "reports":  # the public post for anyone, a private report for its recipient
        return "all" if doc.get("recipient") in ("public", str(viewer)) else "none"
    if viewer.is_observer:
        return "none" if table in PRIVATE_TABLES else _public_or_none(table)
    kingdom, character = owner_of(world, table, doc_id, doc)
    if table == "ledger":
        parties = set(doc.get("parties", []))
        me = {str(viewer), f"character:{viewer.subject}" if viewer.is_player else f"kingdom:{viewer.subject}"}
        return "all" if parties & me else "none"
    if table == "orders":
        if doc.get("filed_by") == str(viewer) or doc.get("adjudicator") == str(viewer):
            return "all"
        if viewer.is_king and doc.get("kingdom") == viewer.subject and not doc.get("private"):
            return "all"
        return "none"
    if viewer.is_player:
        if character is not None and character == viewer.subject:
            return "all"
        if table == "units" and doc.get("commander") == viewer.subject:
            return "all"
    if viewer.is_king:
        if table == "characters" and character is not None:
            return "all" if kingdom == viewer.subject else _public_or_none(table)
        if kingdom == viewer.subject:
            return "all"
        if table == "effects" and doc.get("target_kingdom") == viewer.subject and doc.get("known_to_target"):
            return "known"
    if table in PRIVATE_TABLES:
        return "none"
    return _public_or_none(table)


def _public_or_none(table: str) -> str:
    return "public" if PUBLIC_FIELDS.get(table) else "none"


def visible_count(world: World, viewer: Identity, table: str) -> int:
    """How many documents of a table the viewer may see: `visible_table` without copying any."""
    if table == "meta":
        return 1
    if viewer.is_gm:  # every document, every entry: counted, not judged (100,000 entries at 1000x)
        return len(world.table(table))
    if table == "chronicle":
        return sum(
            1
            for _, entry in world.all("chronicle")
            if may_see(world, viewer, str(entry.get("audience", PUBLIC)), entry)
        )
    return sum(1 for doc_id, doc in world.all(table) if can_see_document(world, viewer, table, doc_id, doc) != "none")


def filter_document(
    world: World, viewer: Identity, table: str, doc_id: str, doc: dict[str, Any]
) -> dict[str, Any] | None:
    """The document as the viewer may see it, or None: for reading only, like `World.get`.

    Nothing is copied that the viewer sees whole (a read model of a big world filters every
    document: deep copies were most of its time); a document with fields withheld is a new dict
    of the fields shown, whose values are still the world's own."""
    level = can_see_document(world, viewer, table, doc_id, doc)
    if level == "all":
        if viewer.is_gm:
            return doc
        hidden = HIDDEN_FIELDS.get(table, ())
        if table == "orders" and doc.get("filed_by") != str(viewer) and doc.get("adjudicator") != str(viewer):
            hidden = FILER_FIELDS["orders"]
        if table == "orders" and (isinstance(doc.get("entries"), list) or hidden):
            # An order lists every entry of its resolution, including the target's own (whether he
            # detected a spy): its filer learns only the ids of those he may read.
            shown = {k: v for k, v in doc.items() if k not in hidden}
            if isinstance(doc.get("entries"), list):
                shown["entries"] = [entry_id for entry_id in doc["entries"] if _may_read(world, viewer, entry_id)]
            return shown
        if any(field in doc for field in hidden):
            return {k: v for k, v in doc.items() if k not in hidden}
        return doc
    if level == "public":
        return {k: doc[k] for k in PUBLIC_FIELDS.get(table, ()) if k in doc}
    if level == "known":
        fields = KNOWN_FIELDS.get(table, ()) + (KNOWN_SPONSOR_FIELDS.get(table, ()) if doc.get("known_sponsor") else ())
        return {k: doc[k] for k in fields if k in doc}
    return None


def visible_table(world: World, viewer: Identity, table: str) -> dict[str, dict[str, Any]]:
    if table == "chronicle":
        return {str(e.get("id", e.get("seq"))): e for e in visible_entries(world, viewer)}
    if table == "meta":
        meta = world.meta
        return {"world": {k: meta[k] for k in ("name", "date", "schema_version") if k in meta}}
    if viewer.is_gm:  # every document whole (`filter_document`): not judged one by one (1000x: 148,000)
        return dict(world.table(table))
    out: dict[str, dict[str, Any]] = {}
    for doc_id, doc in world.all(table):
        shown = filter_document(world, viewer, table, doc_id, doc)
        if shown is not None:
            out[doc_id] = shown
    return out


def visible_to(world: World, viewer: Identity | None) -> Callable[[str, str, dict[str, Any]], bool] | None:
    """Which documents `viewer` may see (None: all of them, for the GM or no viewer)."""
    if viewer is None or viewer.is_gm:
        return None

    def visible(table: str, doc_id: str, doc: dict[str, Any]) -> bool:
        if table == "chronicle":
            return filter_entry(world, viewer, doc) is not None
        if table == "meta":
            return False
        return can_see_document(world, viewer, table, doc_id, doc) != "none"

    return visible
