"""Fair dice: commit and reveal, so players can check every public roll the GM's yak made.

When a season opens, yak draws two secrets (32 random bytes each): one for public rolls, one for
private ones (blind, or told to fewer than everyone). Their sha256 (the commitments) and the dice
ledger's head go into the save's meta, and into the season post. Every die yak rolls is then
derived, never drawn: HMAC-SHA256(secret, the die's context as canonical JSON + "/" + attempt),
whose first 8 bytes (big-endian) are taken if below the largest multiple of the die's sides under
2**64 (rejection sampling: no modulo bias), else the next attempt. The context names the season,
the stream, the command, the order, the purpose, the sides and the stream's counter, so the same
roll in the same state gives the same die: a client cannot shop for a seed, and a restore cannot
re-roll the same order. When the season closes its public secret is revealed in the post; the
private ones when the GM closes the campaign. The secrets are kept in `<save>.secrets`
(`store.dicesecrets`), which only the GM's tools read.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any, Protocol

from yak_tui.kernel.errors import DiceError
from yak_tui.kernel.play.dicechain import GENESIS, TABLE, record_hash, start_chain
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.numbers import counted

PUBLIC_STREAM = "public"
PRIVATE_STREAM = "private"
STREAMS = (PUBLIC_STREAM, PRIVATE_STREAM)
SOURCE = "derived"
HAND_SOURCES = ("manual", "scripted")  # dice typed in by a person: not derived, marked so in the post
SECRET_BYTES = 32
POST_MARK = "fair-dice"  # a post line `fair-dice {json}` is one item `yak-verify` reads
_SPAN = 2**64


# -- the derivation -------------------------------------------------------------------------------


def context_bytes(context: Mapping[str, Any]) -> bytes:
    """The canonical form a die's context is hashed in: JSON, sorted keys, no spaces, ASCII."""
    return json.dumps(context, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def derive_natural(secret: bytes, context: Mapping[str, Any]) -> int:
    """The die `context` names (its `sides` among the rest), derived from `secret`: 1..sides, each
    face exactly as likely (draws at or above the largest multiple of sides below 2**64 are
    rejected and the attempt number goes up)."""
    sides = int(context["sides"])
    if sides < 1:
        raise DiceError(f"a die has at least one side, not {sides}")
    limit = _SPAN - _SPAN % sides
    message = context_bytes(context)
    for attempt in count():
        digest = hmac.new(secret, message + b"/" + str(attempt).encode(), hashlib.sha256).digest()
        value = int.from_bytes(digest[:8], "big")
        if value < limit:
            return value % sides + 1
    raise AssertionError("unreachable")  # pragma: no cover


def commitment(secret: bytes) -> str:
    return hashlib.sha256(secret).hexdigest()


def stream_of(audience: str, blind: bool) -> str:
    """A roll everyone may read is public; a blind roll or one told to fewer is private."""
    return PUBLIC_STREAM if audience == "public" and not blind else PRIVATE_STREAM


# -- the secrets ----------------------------------------------------------------------------------


class SeasonKeys(Protocol):
    """Where a campaign's season secrets live (drawn on first ask, never changed after)."""

    def secrets_of(self, season: str) -> dict[str, bytes]: ...


class SidecarKeys:
    """The secrets in `<save>.secrets` (mode 0600), beside the save and never inside it.

    Secrets drawn in a transaction wait in memory until `flush`, which the transaction calls just
    before it writes the save: a command refused leaves no file behind, and a save never commits
    to a secret that is not already on disk."""

    def __init__(self, save_path: Path) -> None:
        self.save_path = save_path
        self._stored: dict[str, dict[str, str]] | None = None
        self._drawn: set[str] = set()

    def _all(self) -> dict[str, dict[str, str]]:
        from yak_tui.store.dicesecrets import read_secrets

        if self._stored is None:
            self._stored = read_secrets(self.save_path)
        return self._stored

    def secrets_of(self, season: str) -> dict[str, bytes]:
        stored = self._all()
        if season not in stored:
            import secrets  # its randomness only where a season's secrets are drawn, not on a read

            stored[season] = {stream: secrets.token_hex(SECRET_BYTES) for stream in STREAMS}
            self._drawn.add(season)
        return {stream: bytes.fromhex(stored[season][stream]) for stream in STREAMS}

    def flush(self) -> None:
        """Write the secrets drawn since the last flush (before the save that commits to them)."""
        from yak_tui.store.dicesecrets import write_secrets

        if self._drawn and self._stored is not None:
            write_secrets(self.save_path, self._stored)
            self._drawn.clear()


def flush_keys(dice: object) -> None:
    """Before a transaction writes the save: the secrets its derived dice drew go to disk first."""
    keys = getattr(dice, "keys", None)
    if isinstance(keys, SidecarKeys):
        keys.flush()


def open_season(world: World, keys: SeasonKeys) -> dict[str, Any]:
    """Commit to the current season's secrets (drawn now if the season has none): their hashes and
    the ledger's head go into meta, where the season post and `yak verify` read them."""
    season = world.date.key()
    fair = dict(world.meta.get("fair_dice") or {})
    if season not in fair:
        drawn = keys.secrets_of(season)
        start_chain(world.meta)
        fair[season] = {
            "public": commitment(drawn[PUBLIC_STREAM]),
            "private": commitment(drawn[PRIVATE_STREAM]),
            "head": world.meta["dice_head"],
            "count": int(world.meta["dice_count"]),
        }
        world.meta["fair_dice"] = fair
    if (world.meta.get("fair_draws") or {}).get("season") != season:
        world.meta["fair_draws"] = {"season": season, PUBLIC_STREAM: 0, PRIVATE_STREAM: 0}
    return dict(fair[season])


def reveal(world: World, keys: SeasonKeys, season: str, stream: str) -> None:
    """Publish a season's secret in the save (after its rolls are all made)."""
    fair = dict(world.meta.get("fair_dice") or {})
    if season not in fair:
        return
    fair[season] = {**fair[season], f"revealed_{stream}": keys.secrets_of(season)[stream].hex()}
    world.meta["fair_dice"] = fair


def turn_season(world: World, dice: object) -> None:
    """At the close of a season rolled with derived dice (the world's date already moved on):
    reveal the public secret of every earlier committed season, and commit to the new one."""
    if not isinstance(dice, FairDice):
        return
    current = world.date.key()
    for season, found in sorted((world.meta.get("fair_dice") or {}).items()):
        if season != current and "revealed_public" not in found:
            reveal(world, dice.keys, season, PUBLIC_STREAM)
    open_season(world, dice.keys)


def close_campaign(world: World, keys: SeasonKeys) -> int:
    """Reveal every committed season's secrets, private ones too (`yak campaign close`); how many
    seasons."""
    fair = world.meta.get("fair_dice") or {}
    for season in sorted(fair):
        for stream in STREAMS:
            reveal(world, keys, season, stream)
    world.meta["campaign_closed"] = dict(world.meta["date"])
    return len(fair)


def season_commitments(world: World, season: str) -> dict[str, Any] | None:
    """What the season post publishes of a season: its commitments, the ledger head it opened
    on, and each secret revealed so far (None: the season's dice were not derived)."""
    found = (world.meta.get("fair_dice") or {}).get(season)
    return dict(found) if found else None


class FairDice:
    """The dice of every real roll: each die derived from the season's secret and its context.

    A `RecordingDice` sets `command` and `stream` before each roll and reads `last_draw` after it;
    an order being carried out sets `order`."""

    source = SOURCE

    def __init__(self, keys: SeasonKeys) -> None:
        self.keys = keys
        self.world: World | None = None
        self.command = ""
        self.order = ""
        self.stream = PUBLIC_STREAM
        self.last_draw: dict[str, Any] | None = None

    def bind(self, world: World) -> None:
        self.world = world

    def roll(self, sides: int = 6, purpose: str = "") -> int:
        if self.world is None:
            raise DiceError("derived dice roll only inside a command (they read the season from its world)")
        world = self.world
        open_season(world, self.keys)
        season = world.date.key()
        draws = dict(world.meta["fair_draws"])
        number = int(draws[self.stream])
        context = {
            "season": season,
            "stream": self.stream,
            "command": self.command,
            "order": self.order,
            "purpose": purpose,
            "sides": sides,
            "n": number,
        }
        draws[self.stream] = number + 1
        world.meta["fair_draws"] = draws
        self.last_draw = context
        return derive_natural(self.keys.secrets_of(season)[self.stream], context)


def fair_dice_for(save_path: Path) -> FairDice:
    return FairDice(SidecarKeys(save_path))


@contextmanager
def for_order(dice: object, order: str) -> Iterator[None]:
    """While an order is carried out, each derived die names it in its context."""
    if not isinstance(dice, FairDice):
        yield
        return
    dice.order = order
    try:
        yield
    finally:
        dice.order = ""


# -- the season post ------------------------------------------------------------------------------


def _post_line(item: Mapping[str, Any]) -> str:
    return f"{POST_MARK} " + json.dumps(item, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def _records(data: Mapping[str, Any]) -> list[dict[str, Any]]:
    table = data.get(TABLE, {})
    return [table[key] for key in sorted(table, key=lambda k: (int(table[k].get("seq", 0)), k))]


def _season_of(record: Mapping[str, Any]) -> str:
    moment = record.get("date") or {}
    return f"{moment.get('year')}-{str(moment.get('season', '')).lower()}"


def _is_public_record(record: Mapping[str, Any]) -> bool:
    if "restore" in record:
        return True
    roll = record.get("roll") or {}
    return roll.get("audience") == "public" and not roll.get("blind")


def post_lines(world: World, closing: str, opening: str) -> list[str]:
    """The "Fair dice" section of the post that closes `closing`: its commitments and revealed
    public secret, every ledger record of the season (public ones whole, private ones only as
    links of the chain) and the commitments of `opening`. Empty when the season's dice were not
    derived (a campaign played with seeded or hand dice only)."""
    fair = world.meta.get("fair_dice") or {}
    if closing not in fair and opening not in fair:
        return []
    lines: list[str] = []
    records = [r for r in _records(world.data) if _season_of(r) == closing]
    public = [r for r in records if _is_public_record(r) and "restore" not in r]
    derived = sum(1 for r in public if (r.get("roll") or {}).get("source") == SOURCE)
    by_hand = sum(1 for r in public if (r.get("roll") or {}).get("source") in HAND_SOURCES)
    restores = [r for r in records if "restore" in r]
    summary = f"{counted(len(public), 'public roll')} this season ({derived} derived from the committed secret"
    summary += f", {by_hand} by hand)" if by_hand else ")"
    if restores:
        abandoned = sum(int(r["restore"].get("rolls", 0)) for r in restores)
        summary += f"; RE-ROLLED: {counted(len(restores), 'restore')} abandoned {counted(abandoned, 'roll')}"
    lines.append(summary + ". Check them with `yak-verify` and the posts.")
    if closing in fair:
        lines.append(_post_line({"kind": "commit", "season": closing, **_commit_fields(fair[closing])}))
        if "revealed_public" in fair[closing]:
            lines.append(
                _post_line(
                    {
                        "kind": "reveal",
                        "season": closing,
                        "stream": PUBLIC_STREAM,
                        "secret": fair[closing]["revealed_public"],
                    }
                )
            )
    for record in records:
        if _is_public_record(record):
            lines.append(_post_line({"kind": "record", "record": record}))
        else:
            lines.append(
                _post_line(
                    {"kind": "link", "seq": record.get("seq"), "prev": record.get("prev"), "hash": record.get("hash")}
                )
            )
    if opening in fair:
        lines.append(_post_line({"kind": "commit", "season": opening, **_commit_fields(fair[opening])}))
    return lines


def _commit_fields(found: Mapping[str, Any]) -> dict[str, Any]:
    return {key: found[key] for key in ("public", "private", "head", "count") if key in found}


# -- checking: a save (`yak verify --reveal`) or posted texts (`yak-verify`) -----------------------


@dataclass
class FairReport:
    """What re-deriving the rolls found: how many were checked, what fails, what was re-rolled."""

    checked: int = 0
    by_hand: int = 0
    unrevealed: int = 0
    before: int = 0  # rolls of seasons with no commitment (before the campaign had fair dice)
    seasons: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)
    rerolls: list[str] = field(default_factory=list)  # restores that abandoned rolls: the season was re-rolled
    restores: list[str] = field(default_factory=list)  # restores that abandoned none

    @property
    def ok(self) -> bool:
        return not self.failures and not self.rerolls

    def to_dict(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "checked": self.checked,
            "by_hand": self.by_hand,
            "unrevealed": self.unrevealed,
            "before": self.before,
            "seasons": self.seasons,
            "failures": self.failures,
            "rerolls": self.rerolls,
            "restores": self.restores,
        }

    def lines(self) -> list[str]:
        out = [
            f"fair dice: {self.checked} derived rolls re-derived and matching"
            f" (seasons revealed: {', '.join(self.seasons) or 'none'})",
        ]
        if self.by_hand:
            out.append(f"{self.by_hand} rolls were dice entered by hand (not derived)")
        if self.before:
            out.append(f"{self.before} rolls are from seasons before the campaign had fair dice (not checked)")
        if self.unrevealed:
            out.append(f"{self.unrevealed} derived rolls wait for their secret (the season's, or the campaign's close)")
        out += [f"restored (no roll abandoned): {line}" for line in self.restores]
        out += [f"RE-ROLLED: {line}" for line in self.rerolls]
        out += [f"FAILS: {line}" for line in self.failures]
        return out


def _check_secrets(fair: Mapping[str, Mapping[str, Any]], report: FairReport) -> dict[tuple[str, str], bytes]:
    """Every revealed secret whose hash is its commitment; a swapped one is a failure."""
    known: dict[tuple[str, str], bytes] = {}
    for season, found in sorted(fair.items()):
        for stream in STREAMS:
            secret_hex = found.get(f"revealed_{stream}")
            if not secret_hex:
                continue
            try:
                secret = bytes.fromhex(str(secret_hex))
            except ValueError:
                report.failures.append(f"{season}: the revealed {stream} secret is not hex")
                continue
            if commitment(secret) != found.get(stream):
                report.failures.append(
                    f"{season}: the revealed {stream} secret does not hash to its commitment "
                    f"{str(found.get(stream))[:12]} (a swapped secret)"
                )
                continue
            known[(season, stream)] = secret
            if stream == PUBLIC_STREAM:
                report.seasons.append(season)
    return known


def _check_roll(
    where: str, roll: Mapping[str, Any], known: Mapping[tuple[str, str], bytes], counters: dict[tuple[str, str], int]
) -> tuple[str, str]:
    """'ok', 'hand', 'unrevealed', or a failure's reason, for one recorded roll."""
    source = roll.get("source")
    if source in HAND_SOURCES:
        return ("hand", "")
    if source != SOURCE:
        return ("fail", f"{where}: its dice are {source!r}, not derived from the season's secret")
    draws = roll.get("draws") or []
    naturals = list(roll.get("naturals") or [])
    if len(draws) != len(naturals):
        return ("fail", f"{where}: {len(naturals)} dice but {len(draws)} derivations")
    if stream_of(str(roll.get("audience", "")), bool(roll.get("blind"))) == PUBLIC_STREAM and any(
        d.get("stream") != PUBLIC_STREAM for d in draws
    ):
        return ("fail", f"{where}: a public roll drawn from the private stream")
    waiting = False
    for index, (draw, natural) in enumerate(zip(draws, naturals, strict=True), start=1):
        key = (str(draw.get("season")), str(draw.get("stream")))
        number = draw.get("n")
        if not isinstance(number, int) or number <= counters.get(key, -1):
            return (
                "fail",
                f"{where}: die {index} is number {number} of {key[0]} {key[1]}, out of order (a reordered roll)",
            )
        counters[key] = number
        secret = known.get(key)
        if secret is None:
            waiting = True
            continue
        try:
            expected = derive_natural(secret, draw)
        except (KeyError, ValueError, TypeError, DiceError):
            return ("fail", f"{where}: die {index} has no derivation context")
        if expected != natural:
            return ("fail", f"{where}: die {index} shows {natural}, the secret gives {expected}")
    return ("unrevealed", "") if waiting else ("ok", "")


def _tally(report: FairReport, verdict: tuple[str, str]) -> None:
    kind, reason = verdict
    if kind == "ok":
        report.checked += 1
    elif kind == "hand":
        report.by_hand += 1
    elif kind == "unrevealed":
        report.unrevealed += 1
    else:
        report.failures.append(reason)


def _restore_line(record: Mapping[str, Any]) -> str:
    restore = record.get("restore") or {}
    seasons = ", ".join(restore.get("seasons") or []) or "the season"
    return (
        f"dice record r{int(record.get('seq', 0)):06d}: backup {restore.get('backup')} restored, "
        f"back to {seasons}, {counted(restore.get('rolls', 0), 'roll')} abandoned"
    )


def _check_records(
    records: Iterable[Mapping[str, Any]],
    known: Mapping[tuple[str, str], bytes],
    report: FairReport,
    committed: set[str],
) -> None:
    """Each roll of a season with commitments re-derived; rolls of a season without (made before
    the campaign had fair dice) are counted apart."""
    counters: dict[tuple[str, str], int] = {}
    for record in records:
        where = f"dice record r{int(record.get('seq', 0)):06d}"
        if "restore" in record:
            rolled_back = int(record["restore"].get("rolls", 0))
            (report.rerolls if rolled_back else report.restores).append(_restore_line(record))
            abandoned = [r for r in (record["restore"].get("abandoned") or []) if isinstance(r, dict)]
            kept = FairReport()  # abandoned rolls are checked (a forged one fails) but not counted
            _check_records(abandoned, known, kept, committed)
            report.failures += [f"abandoned by {_restore_line(record)}: {line}" for line in kept.failures]
            counters.clear()  # the re-played season draws its counters again
            continue
        if not isinstance(record.get("roll"), Mapping):
            continue
        if _season_of(record) not in committed:
            report.before += 1
            continue
        _tally(report, _check_roll(where, record["roll"], known, counters))


def verify_reveal(data: Mapping[str, Any]) -> FairReport:
    """`yak verify --reveal` on a save: every revealed secret against its commitment, every
    derived roll of the ledger (abandoned ones too) re-derived, each season's opening head
    against the chain, and every restore named."""
    meta = (data.get("meta") or {}).get("world") or {}
    fair = meta.get("fair_dice") or {}
    report = FairReport()
    known = _check_secrets(fair, report)
    records = _records(data)
    hashes = {int(r.get("seq", 0)): r.get("hash") for r in records}
    for season, found in sorted(fair.items()):
        at = int(found.get("count", 0))
        head = hashes.get(at) if at else GENESIS
        if found.get("head") != head:
            report.failures.append(
                f"{season}: opened on ledger head {str(found.get('head'))[:12]}, but the ledger's record {at} "
                f"is {str(head)[:12]} (a rebuilt chain)"
            )
    _check_records(records, known, report, set(fair))
    return report


# -- the posted texts ------------------------------------------------------------------------------

_POSTED = re.compile(re.escape(POST_MARK) + r" (\{.*\})")


def posted_items(text: str) -> list[dict[str, Any]]:
    """Every `fair-dice {...}` item of a post (BBCode or Markdown), in order."""
    items = []
    for line in text.splitlines():
        found = _POSTED.search(line)
        if found is None:
            continue
        try:
            item = json.loads(found.group(1))
        except json.JSONDecodeError:
            continue
        if isinstance(item, dict):
            items.append(item)
    return items


def verify_posts(texts: Iterable[str]) -> FairReport:
    """`yak-verify`: from the posted texts alone, check every revealed secret against the commitment
    posted for its season, every posted record's hash and its link to the one before (from the
    head committed when its season opened), and re-derive every public roll."""
    report = FairReport()
    commits: dict[str, dict[str, Any]] = {}
    reveals: dict[str, dict[str, Any]] = {}
    links: dict[int, dict[str, Any]] = {}
    for text in texts:
        for item in posted_items(text):
            kind = item.get("kind")
            if kind == "commit":
                season = str(item.get("season"))
                earlier = commits.get(season)
                if earlier is not None and earlier != item:
                    report.failures.append(f"{season}: two posts commit to different secrets or heads")
                commits[season] = item
            elif kind == "reveal":
                reveals.setdefault(str(item.get("season")), {})[f"revealed_{item.get('stream')}"] = item.get("secret")
            elif kind == "record" and isinstance(item.get("record"), dict):
                record = item["record"]
                if record_hash(record) != record.get("hash"):
                    report.failures.append(
                        f"dice record r{int(record.get('seq', 0)):06d}: its contents do not match its hash"
                    )
                links[int(record.get("seq", 0))] = record
            elif kind == "link":
                links[int(item.get("seq", 0))] = {
                    "seq": item.get("seq"),
                    "prev": item.get("prev"),
                    "hash": item.get("hash"),
                }
    fair = {season: {**commits.get(season, {}), **found} for season, found in reveals.items()}
    for season in fair:
        if season not in commits:
            report.failures.append(f"{season}: its secret is revealed, but no post holds its commitment")
    known = _check_secrets(fair, report)
    heads = {int(c.get("count", 0)): c.get("head") for c in commits.values()}
    for seq in sorted(links):
        record = links[seq]
        before = links.get(seq - 1, {}).get("hash") if seq - 1 in links else heads.get(seq - 1)
        if seq == 1:
            before = before or GENESIS
        if before is not None and record.get("prev") != before:
            report.failures.append(
                f"dice record r{seq:06d}: does not follow the record before it (a rebuilt or reordered chain)"
            )
        if seq in heads and heads[seq] != record.get("hash"):
            report.failures.append(f"dice record r{seq:06d}: differs from the head a season was committed on")
    posted = [links[seq] for seq in sorted(links) if "roll" in links[seq] or "restore" in links[seq]]
    _check_records(posted, known, report, set(commits))
    return report
