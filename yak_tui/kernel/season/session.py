"""Use cases the front ends share: check an identity, advance with a backup, preview, what is due."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from yak_tui.kernel.errors import YakError
from yak_tui.kernel.play.audience import ADJUDICATORS, character_audience, kingdom_audience, may_see
from yak_tui.kernel.play.commands import CommandError, CommandResult, apply_command, load_command_modules
from yak_tui.kernel.play.dice import Dice, SeededDice
from yak_tui.kernel.play.dicechain import abandoned_records, chain_restore
from yak_tui.kernel.play.fairdice import SidecarKeys, close_campaign, fair_dice_for, flush_keys, open_season
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.identity import check_identity as check_identity  # a use case the front ends share
from yak_tui.kernel.play.journal import table_sizes, written_documents
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.season.seasons import blockers, due_items
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.numbers import counted
from yak_tui.kernel.world.tables import table
from yak_tui.store.files import collector_paused
from yak_tui.store.storage import WorldFile


def advance_season(
    save: WorldFile,
    identity: Identity,
    dice: Dice | None = None,
    *,
    expected: str | None = None,
    carry: bool = True,
    keep: list[World] | None = None,
) -> CommandResult:
    """Close the season in one locked transaction: read the save once, refuse unless it is still
    the `expected` season (if given), apply, back up exactly the bytes read, write.

    Reading and backing up inside the lock is what makes two advances at once safe: the second
    one sees the season the first one opened, and backs that up. `expected` lets a front end
    close only the season it showed (the app's preview, `yak advance --from`). A front end passes
    the GM's answer as `carry`: without it, a season with orders still waiting is not closed
    (`check_carry`); a script that means to carry them over leaves it at its default.

    `keep`: a caller about to leave the process (the CLI, which exits at once) passes a list and
    gets the closed world in it, frozen with all the close made (`gc.freeze`, as a read freezes what
    it parsed): it is then neither freed here object by object (~0.25 CPU-s at 1000x) nor walked by
    a collection; whoever holds the list drops it, or the process's exit does.
    """
    load_command_modules()
    since = _expected_season(expected)
    # The collector paused from the read until the world is dropped: the close writes a document per
    # report and step (full collections walking them were ~15 % of the close at 300x), and the one
    # collection due when it came back on walked every document the close made (~0.13 CPU-s at
    # 1000x, issue 30). Dropped first, they are no longer there to walk; nothing is frozen, so what
    # the close left behind stays collectable.
    with collector_paused(freeze=keep is not None):
        return _advance_locked(save, identity, dice, since, carry, keep)


def _advance_locked(
    save: WorldFile,
    identity: Identity,
    dice: Dice | None,
    since: GameDate | None,
    carry: bool,
    keep: list[World] | None,
) -> CommandResult:
    """`advance_season`'s transaction; the world it reads is dropped when this returns."""
    with save.transaction_with_bytes() as snapshot:
        world = World(snapshot.data)
        closing = world.date
        if since is not None and closing != since:
            raise CommandError(
                "from",
                f"the season is {closing.label()}, not {since.label()}: it changed since you "
                f"looked; nothing was changed",
            )
        if identity.is_gm:  # anyone else is refused by the command, telling nothing of the orders
            check_carry(world, carry)
        sizes, rolls_before = table_sizes(world)
        # Without dice typed in, the season's dice are derived from its committed secret (fairdice).
        rolling = dice or fair_dice_for(save.path)
        result = apply_command(world, identity, "advance", {}, rolling)  # refuses anyone but the GM
        save.backup(closing.key(), keep=int(table("core")["backups"]["keep"]), raw=snapshot.raw, held=snapshot.stamp)
        flush_keys(rolling)  # the new season's secrets on disk before the save that commits to them
        # What the season's close wrote, as a command's write says it: the apps apply it from the
        # change journal instead of reading the save again, and the vouch checks only those documents.
        snapshot.changed = written_documents(world, sizes, rolls_before)
        # The command checked the documents it wrote through the World just before it returned
        # (`revalidate_touched`), and nothing here writes to the world after it: the vouch's check
        # leaves those out and checks the rest (the dice ledger's records, the meta table).
        snapshot.prechecked = world.checked
    if keep is not None:
        keep.append(world)
    return result


def open_fair_dice(save: WorldFile) -> dict[str, Any]:
    """Commit to the current season's dice secrets (a new world's first season): the commitments,
    which the GM may post before anyone files an order."""
    keys = SidecarKeys(save.path)
    with save.transaction() as data:
        committed = open_season(World(data), keys)
        keys.flush()
    return committed


def restore_backup(save: WorldFile, name: str, identity: Identity) -> tuple[Path, dict[str, Any]]:
    """Replace the save with a backup, as an event every player sees: a public chronicle entry and
    a dice-ledger record naming the seasons rolled back and the rolls abandoned (kept in that
    record, so `yak verify` and the next season post name a re-rolled season)."""
    from yak_tui.kernel.play.chronicle import append_entry

    try:
        replaced: dict[str, Any] | None = save.read()
    except YakError:
        replaced = None  # a corrupt save: nothing of it can be kept
    source = save.restore(name)
    with save.transaction() as data:
        world = World(data)
        replaced_date = ((replaced or {}).get("meta") or {}).get("world", {}).get("date") or world.meta["date"]
        seasons = _seasons_between(world.date, GameDate.from_dict(replaced_date))
        abandoned = abandoned_records(world.data, replaced)
        rolls = sum(1 for record in abandoned if "roll" in record)
        labels = ", ".join(s.label() for s in seasons[1:])
        entry = append_entry(
            world,
            f"The GM restored the backup {source.name}: the world is back in {seasons[0].label()}"
            + (f" (rolled back: {labels})" if len(seasons) > 1 else "")
            + f", {counted(rolls, 'roll')} abandoned (kept in the dice ledger; `yak verify` names them).",
            kind="restore",
            audience="public",
            actor=str(identity),
            command="restore",
        )
        chain_restore(world.data, entry["id"], abandoned, source.name, [s.key() for s in seasons])
    summary = {"abandoned_rolls": rolls, "seasons": [s.label() for s in seasons]}
    return source, summary


def _seasons_between(first: GameDate, last: GameDate) -> list[GameDate]:
    """The seasons from the restored one to the replaced one, both included."""
    out = [first]
    while out[-1] < last:
        out.append(out[-1].next())
    return out


def close_fair_campaign(save: WorldFile, identity: Identity) -> int:
    """`yak campaign close`: reveal every season's dice secrets, private ones too, with a public
    chronicle entry; how many seasons were revealed."""
    from yak_tui.kernel.play.chronicle import append_entry

    if not identity.is_gm:
        raise CommandError("identity", "only the GM closes the campaign")
    with save.transaction() as data:
        world = World(data)
        revealed = close_campaign(world, SidecarKeys(save.path))  # a lost secret is revealed as a mismatch
        append_entry(
            world,
            f"The GM closed the campaign: the dice secrets of {counted(revealed, 'season')}, private ones too, are "
            f"revealed; every roll can be checked with `yak verify --reveal`.",
            kind="season",
            audience="public",
            actor=str(identity),
            command="campaign-close",
        )
    return revealed


def waiting_count(world: World) -> int:
    """How many orders still wait for their adjudicator (all of them: the GM's count)."""
    from yak_tui.kernel.play.orders import WAITING

    return sum(1 for _, order in world.all("orders") if order.get("status") == WAITING)


def check_carry(world: World, carry: bool) -> None:
    """The one rule every front end applies before closing a season: orders still waiting are
    carried into the next season only when the GM says so (`yak advance --carry`, the app's
    confirmation); otherwise the close is refused, naming how many wait."""
    from yak_tui.kernel.play.queue import orders_counted

    count = waiting_count(world)
    if count and not carry:
        waits, whose = ("still waits", "its adjudicator") if count == 1 else ("still wait", "their adjudicators")
        raise CommandError(
            "carry",
            f"{orders_counted(count)} {waits} for {whose} in {world.date.label()}: resolve or "
            f"reject them (`yak orders` lists them), or carry them into the next season with --carry; "
            f"nothing was changed",
        )


def _expected_season(text: str | None) -> GameDate | None:
    if text is None:
        return None
    try:
        return GameDate.parse(text)
    except ValueError as error:
        raise CommandError("from", str(error)) from None


def preview(save: WorldFile) -> dict[str, Any]:
    load_command_modules()
    return preview_advance(World.load(save))


def preview_advance(world: World) -> dict[str, Any]:
    """Exactly what advancing would do, computed on a trial of the world (left as it was)."""
    outlook = orders_outlook(world)
    trial = world.trial()
    reasons = blockers(trial)
    if reasons:
        return {"blocked": reasons, "steps": [], **outlook}
    result = apply_command(trial, Identity("gm"), "advance", {}, SeededDice(0))
    return {"blocked": [], **result.data, **outlook}


def orders_outlook(world: World) -> dict[str, Any]:
    """Before closing: the orders still waiting for their adjudicator, and the seats that sent none."""
    from yak_tui.kernel.play.orders import WAITING, describe_order
    from yak_tui.kernel.season.readiness import in_use, season_status

    waiting = [
        {"order": oid, "filed_by": o["filed_by"], "adjudicator": o["adjudicator"], "text": describe_order(world, o)}
        for oid, o in sorted(world.all("orders"))
        if o.get("status") == WAITING
    ]
    status = season_status(world)
    return {
        "deadline": status["deadline"],
        "waiting_orders": waiting,
        "no_orders": status["no_orders"] if in_use(status) else [],
    }


def due_for(world: World, identity: Identity, *, odds: bool = True) -> list[dict[str, Any]]:
    """What is due this season, as far as this identity may know: the orders waiting for him to
    rule on (every queue, for the GM), his own orders and whether he has said he is ready, then
    what every rule area reports (a siege to decide, a debt falling due). `odds=False`: the order
    lines say no odds (see `orders_due`)."""
    load_command_modules()
    return orders_due(world, identity, odds=odds) + reported_due(world, identity)


def reported_due(world: World, identity: Identity) -> list[dict[str, Any]]:
    """The part of `due_for` every rule area reports (a siege to decide, a debt falling due, the
    orders deadline), as this identity may know it; the orders part is `orders_due`. The caller has
    loaded the command modules (their due reporters)."""
    from yak_tui.kernel.season.readiness import DUE_KIND, due_line

    seen: set[tuple[str, str]] = set()
    out: list[dict[str, Any]] = []
    for item in due_items(world):
        if not may_see(world, identity, item.get("audience", "public")):
            continue
        if item.get("kind") == DUE_KIND:  # the deadline in the reader's own zone
            item = {**item, "text": due_line(world, identity)}
        # One line per fact: a debt told to both its parties is listed once to whoever sees both.
        key = (str(item.get("kind", "")), str(item.get("text", "")))
        if key not in seen:
            seen.add(key)
            out.append(item)
    return out


def due_text(items: list[dict[str, Any]]) -> str:
    """`due_for` as `yak due` and `ssh … due` print it: the urgent lines marked with "!"."""
    return "\n".join(("! " if item.get("urgent") else "  ") + str(item["text"]) for item in items) or "nothing due"


QUEUE, FILED, FILING = "queue", "filed", "filing"  # the kinds of `orders_due`'s items


def orders_due(world: World, identity: Identity, *, odds: bool = True) -> list[dict[str, Any]]:
    """The orders part of what is due: each order waiting for this identity to rule on (urgent),
    each of his own still waiting, and a seat's filing state this season. `odds=False`: the lines
    say no odds, for a reader that uses only their count and what they ask (`order_lines`)."""
    from yak_tui.kernel.play.queue import order_lines, orders_counted
    from yak_tui.kernel.season.readiness import readiness

    audience = _own_audience(identity)
    items: list[dict[str, Any]] = []
    mine: list[dict[str, Any]] = []
    for line in order_lines(world, identity, odds=odds):
        if identity.is_gm or line.adjudicator == str(identity):
            mine_to_rule = line.adjudicator in ("gm", str(identity))
            text = f"{'To rule on' if mine_to_rule else f'Waits for {line.adjudicator_name}'}: {line.line()}"
            items.append({"kind": QUEUE, "text": text, "audience": audience, "urgent": True, "order": line.id})
        elif line.filed_by == str(identity):
            text = f"Your order {line.line(filer=False)} waits for {line.adjudicator_name}"
            mine.append(
                {
                    "kind": FILED,
                    "text": text,
                    "audience": audience,
                    "urgent": False,
                    "order": line.id,
                    "what": line.text,
                    "waits_for": line.adjudicator_name,
                }
            )
    if identity.is_king or identity.is_player:
        row = next((seat for seat in readiness(world, identity) if seat.identity == str(identity)), None)
        filed, ready = (row.filed, row.ready) if row is not None else (0, False)
        season = world.date.label()
        if ready:
            text = f"You have filed {orders_counted(filed)} for {season} and said you are ready"
        elif filed:
            text = (
                f"You have filed {orders_counted(filed)} for {season}; say you are ready when all are in (`yak ready`)"
            )
        else:
            text = f"You have filed no orders for {season} yet"
        mine.append({"kind": FILING, "text": text, "audience": audience, "urgent": False})
    return items + mine


def _own_audience(identity: Identity) -> str:
    """The audience of what is for this identity alone: his character, his kingdom, the adjudicators."""
    if identity.is_player:
        return character_audience(identity.subject)
    if identity.is_king:
        return kingdom_audience(identity.subject)
    return ADJUDICATORS
