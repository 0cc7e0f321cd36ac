"""The dice ledger: every roll the chronicle keeps is also a record in the `dice` table, chained by
hash, so a roll edited, removed or slipped in by hand shows up in `yak verify`.

Each record holds the sha256 of the record before it (`prev`) and its own (`hash`, over the
canonical orjson of the record without `hash`). The roll's copy in its chronicle entry carries
`link`, the hash of its record. Undo removes the chronicle entry but never the record: a roll
made and undone stays in the ledger, so re-rolling until the dice please cannot go unseen.
The meta document keeps the head and the count (meta is never undone), so a cut tail shows too;
the backups keep earlier heads, so a chain recomputed after an edit disagrees with them.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from yak_tui.kernel.world.numbers import counted
from yak_tui.kernel.world.validation import validate_document

TABLE = "dice"
GENESIS = "0" * 64  # the `prev` of the first record
CHAINED_SINCE_SCHEMA = 2  # saves of this schema version and later always hold a ledger


def record_id(seq: int) -> str:
    """The ledger record of roll number `seq` (1, 2, ...)."""
    return f"r{seq:06d}"


def record_hash(record: dict[str, Any]) -> str:
    """sha256 over the canonical JSON (sorted keys) of the record without its own `hash`."""
    body = {key: value for key, value in record.items() if key != "hash"}
    return hashlib.sha256(orjson.dumps(body, option=orjson.OPT_SORT_KEYS)).hexdigest()


def _bare(roll: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in roll.items() if key != "link"}


def start_chain(meta: dict[str, Any]) -> None:
    """Open the ledger in a world that has none yet (a new world, or a save from before it)."""
    meta.setdefault("dice_head", GENESIS)
    meta.setdefault("dice_count", 0)
    meta.setdefault("dice_since", meta.get("date"))
    meta.setdefault("dice_since_seq", int(meta.get("chronicle_seq", 0)))


def chain_rolls(data: dict[str, dict[str, Any]], entry_id: str, rolls: Iterable[dict[str, Any]]) -> None:
    """Append one record per roll of a new chronicle entry and link each roll to it.

    Written straight into the table, not through `World.put`: the undo record never holds a
    ledger record, so undo cannot take a roll back out of the ledger.
    """
    meta = data["meta"]["world"]
    start_chain(meta)
    table = data.setdefault(TABLE, {})
    for roll in rolls:
        seq = int(meta["dice_count"]) + 1
        record: dict[str, Any] = {
            "seq": seq,
            "date": meta["date"],
            "entry": entry_id,
            "roll": _bare(roll),
            "prev": meta["dice_head"],
        }
        record["hash"] = record_hash(record)
        validate_document(TABLE, record_id(seq), record)
        table[record_id(seq)] = record
        roll["link"] = record["hash"]
        meta["dice_head"] = record["hash"]
        meta["dice_count"] = seq


def _ordered(data: dict[str, Any]) -> list[dict[str, Any]]:
    table = data.get(TABLE) or {}
    return [table[key] for key in sorted(table, key=lambda k: (_seq(table[k]), k))]


def abandoned_records(restored: dict[str, Any], replaced: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The ledger records a restore drops: those of the replaced save from the first one the
    restored save does not hold (normally every record past the backup's head)."""
    if replaced is None:
        return []
    ours = [record.get("hash") for record in _ordered(restored)]
    theirs = _ordered(replaced)
    for position, record in enumerate(theirs):
        if position >= len(ours) or record.get("hash") != ours[position]:
            return theirs[position:]
    return []


def chain_restore(
    data: dict[str, dict[str, Any]], entry_id: str, abandoned: list[dict[str, Any]], backup: str, seasons: list[str]
) -> dict[str, Any]:
    """Append the record of a restore: the backup, the seasons rolled back, and the abandoned
    records as they were (their rolls stay in the ledger, so a re-rolled season shows)."""
    meta = data["meta"]["world"]
    start_chain(meta)
    seq = int(meta["dice_count"]) + 1
    record: dict[str, Any] = {
        "seq": seq,
        "date": meta["date"],
        "entry": entry_id,
        "restore": {
            "backup": backup,
            "seasons": seasons,
            "rolls": sum(1 for r in abandoned if "roll" in r),
            "abandoned": abandoned,
        },
        "prev": meta["dice_head"],
    }
    record["hash"] = record_hash(record)
    validate_document(TABLE, record_id(seq), record)
    data.setdefault(TABLE, {})[record_id(seq)] = record
    meta["dice_head"] = record["hash"]
    meta["dice_count"] = seq
    return record


@dataclass
class Broken:
    """One link that does not hold: where (a ledger record or a chronicle entry) and why."""

    where: str
    reason: str

    def to_dict(self) -> dict[str, str]:
        return {"where": self.where, "reason": self.reason}

    def line(self) -> str:
        return f"{self.where}: {self.reason}"


@dataclass
class ChainReport:
    """What `verify_data` found in one save."""

    name: str
    records: int = 0
    undone: int = 0  # records whose chronicle entry was undone (the roll stays in the ledger)
    before_chain: int = 0  # rolls written before the ledger started (a migrated save)
    restores: list[str] = field(default_factory=list)  # each restore: what it rolled back and abandoned
    since: dict[str, Any] | None = None
    broken: list[Broken] = field(default_factory=list)
    hashes: list[str] = field(default_factory=list)
    abandoned_hashes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.broken

    def to_dict(self) -> dict[str, Any]:
        return {
            "save": self.name,
            "ok": self.ok,
            "records": self.records,
            "undone": self.undone,
            "before_chain": self.before_chain,
            "restores": self.restores,
            "since": self.since,
            "first_broken": self.broken[0].to_dict() if self.broken else None,
            "broken": [b.to_dict() for b in self.broken],
        }


def verify_data(data: dict[str, dict[str, Any]], name: str = "save") -> ChainReport:
    """Check the chain record by record, then every chronicle roll against its record."""
    meta = data.get("meta", {}).get("world", {})
    report = ChainReport(name, since=meta.get("dice_since"))
    if "dice_head" not in meta:
        if isinstance(meta.get("schema_version"), int) and meta["schema_version"] >= CHAINED_SINCE_SCHEMA:
            report.broken.append(Broken("meta dice_head", "is missing: the ledger's head was removed"))
        report.before_chain = sum(len(e.get("rolls", [])) for e in data.get("chronicle", {}).values())
        return report
    table = data.get(TABLE, {})
    ordered = sorted(table.items(), key=lambda item: (_seq(item[1]), item[0]))
    by_hash: dict[str, tuple[str, dict[str, Any]]] = {}
    previous = GENESIS
    for position, (record_id, record) in enumerate(ordered, start=1):
        where = f"dice record {record_id}"
        purpose = (
            (record.get("roll") or {}).get("purpose", "a roll") if isinstance(record.get("roll"), dict) else "a roll"
        )
        if _seq(record) != position or record_id != f"r{position:06d}":
            report.broken.append(
                Broken(
                    where,
                    f"is number {_seq(record)} but stands at place {position} of the "
                    f"chain (a record was removed or slipped in)",
                )
            )
        elif record.get("prev") != previous:
            report.broken.append(
                Broken(
                    where,
                    f"({purpose}) does not follow the record before it "
                    f"(its prev is {_short(record.get('prev'))}, expected {_short(previous)})",
                )
            )
        elif record.get("hash") != record_hash(record):
            report.broken.append(
                Broken(
                    where,
                    f"({purpose}) was changed after it was written "
                    f"(its contents no longer match its hash {_short(record.get('hash'))})",
                )
            )
        previous = str(record.get("hash", ""))
        by_hash[previous] = (record_id, record)
        report.hashes.append(previous)
        restore = record.get("restore")
        if isinstance(restore, dict):
            report.restores.append(
                f"{record_id}: backup {restore.get('backup')} restored, "
                f"back to {', '.join(str(s) for s in restore.get('seasons') or [])}, "
                f"{counted(restore.get('rolls', 0), 'roll')} abandoned"
            )
            kept = [r for r in restore.get("abandoned") or [] if isinstance(r, dict)]
            report.abandoned_hashes.extend(str(r.get("hash")) for r in kept)
            link = record.get("prev")
            for kept_record in kept:
                if kept_record.get("prev") != link or kept_record.get("hash") != record_hash(kept_record):
                    report.broken.append(
                        Broken(where, f"keeps abandoned record {kept_record.get('seq')}, changed or out of its chain")
                    )
                    break
                link = kept_record.get("hash")
    report.records = len(ordered)
    count = meta.get("dice_count", 0)
    if count != len(ordered):
        report.broken.append(Broken("meta dice_count", f"says {count} records, the ledger holds {len(ordered)}"))
    elif meta.get("dice_head") != previous:
        report.broken.append(
            Broken(
                "meta dice_head",
                f"is {_short(meta.get('dice_head'))}, but the newest record's hash is {_short(previous)}",
            )
        )
    chronicle = data.get("chronicle", {})
    since_seq = int(meta.get("dice_since_seq", 0))
    linked: set[str] = set()
    for entry_id, entry in sorted(chronicle.items(), key=lambda item: (_seq(item[1]), item[0])):
        for index, roll in enumerate(entry.get("rolls", []), start=1):
            purpose = roll.get("purpose", "a roll")
            where = f"chronicle entry {entry_id}, roll {index} ({purpose})"
            link = roll.get("link")
            if link is None:
                if _seq(entry) > since_seq:
                    report.broken.append(Broken(where, "is in no dice record (added by hand?)"))
                else:
                    report.before_chain += 1
                continue
            found = by_hash.get(str(link))
            if found is None:
                report.broken.append(Broken(where, f"names dice record {_short(link)}, which the ledger does not hold"))
                continue
            record_id, record = found
            linked.add(record_id)
            if record.get("entry") != entry_id:
                report.broken.append(Broken(where, f"is recorded for entry {record.get('entry')} in {record_id}"))
            elif record.get("roll") != _bare(roll):
                report.broken.append(
                    Broken(
                        where,
                        f"differs from dice record {record_id}: {_difference(record.get('roll') or {}, _bare(roll))}",
                    )
                )
    for record_id, record in ordered:
        if record_id not in linked and "roll" in record and record.get("entry") not in chronicle:
            report.undone += 1
    return report


def _seq(doc: dict[str, Any]) -> int:
    value = doc.get("seq", 0)
    return value if isinstance(value, int) else 0


def _short(value: Any) -> str:
    return str(value)[:12] if value else "none"


def _difference(recorded: dict[str, Any], shown: dict[str, Any]) -> str:
    keys = sorted(set(recorded) | set(shown))
    changed = [key for key in keys if recorded.get(key) != shown.get(key)]
    return ", ".join(f"{key} recorded {recorded.get(key)!r}, now {shown.get(key)!r}" for key in changed[:3])


@dataclass
class Verification:
    """The save and each backup, and where a backup's chain parts from the save's."""

    reports: list[ChainReport]
    forks: list[Broken]

    @property
    def ok(self) -> bool:
        return all(r.ok for r in self.reports) and not self.forks

    @property
    def first_broken(self) -> Broken | None:
        for report in self.reports:
            if report.broken:
                return Broken(f"{report.name}: {report.broken[0].where}", report.broken[0].reason)
        return self.forks[0] if self.forks else None

    def to_dict(self) -> dict[str, Any]:
        first = self.first_broken
        return {
            "ok": self.ok,
            "first_broken": first.to_dict() if first else None,
            "saves": [r.to_dict() for r in self.reports],
            "forks": [f.to_dict() for f in self.forks],
        }


def verify_files(
    save: dict[str, dict[str, Any]], save_name: str, backups: Iterable[tuple[Path, dict[str, dict[str, Any]] | None]]
) -> Verification:
    """The save's chain, each backup's, and that every backup's chain is a beginning of the save's
    (a backup that disagrees means a record was rewritten after it, or a restore dropped rolls)."""
    main = verify_data(save, save_name)
    reports = [main]
    forks: list[Broken] = []
    for path, data in backups:
        if data is None:
            reports.append(ChainReport(path.name, broken=[Broken(path.name, "cannot be read as a save")]))
            continue
        report = verify_data(data, path.name)
        reports.append(report)
        abandoned = set(main.abandoned_hashes)
        for position, (theirs, ours) in enumerate(zip(report.hashes, main.hashes, strict=False), start=1):
            if theirs != ours and theirs in abandoned:
                break  # dropped by a restore the ledger records (named in `restores`)
            if theirs != ours:
                forks.append(
                    Broken(
                        f"backup {path.name}",
                        f"disagrees with the save from dice record r{position:06d} "
                        f"(rewritten after the backup, or dropped by a restore)",
                    )
                )
                break
        else:
            if len(report.hashes) > len(main.hashes) and not set(report.hashes[len(main.hashes) :]) <= abandoned:
                forks.append(
                    Broken(
                        f"backup {path.name}",
                        f"holds {len(report.hashes)} dice records, the save only "
                        f"{len(main.hashes)} (records were cut, or dropped by a restore)",
                    )
                )
    return Verification(reports, forks)
