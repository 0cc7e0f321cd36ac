"""Use cases the front ends share: check an identity, advance with a backup, preview, what is due."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from yak_tui.kernel.errors import YakError
from yak_tui.kernel.play.audience import may_see
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
from yak_tui.kernel.world.tables import table
from yak_tui.store.storage import WorldFile


def advance_season(
    save: WorldFile, identity: Identity, dice: Dice | None = None, *, expected: str | None = None
) -> CommandResult:
    """Close the season in one locked transaction: read the save once, refuse unless it is still
    the `expected` season (if given), apply, back up exactly the bytes read, write.

    Reading and backing up inside the lock is what makes two advances at once safe: the second
    one sees the season the first one opened, and backs that up. `expected` lets a front end
    close only the season it showed (the app's preview, `yak advance --from`).
    """
    load_command_modules()
    since = _expected_season(expected)
    with save.transaction_with_bytes() as snapshot:
        world = World(snapshot.data)
        closing = world.date
        if since is not None and closing != since:
            raise CommandError(
                "from",
                f"the season is {closing.label()}, not {since.label()}: it changed since you "
                f"looked; nothing was changed",
            )
        sizes, rolls_before = table_sizes(world)
        # Without dice typed in, the season's dice are derived from its committed secret (fairdice).
        rolling = dice or fair_dice_for(save.path)
        result = apply_command(world, identity, "advance", {}, rolling)  # refuses anyone but the GM
        save.backup(closing.key(), keep=int(table("core")["backups"]["keep"]), raw=snapshot.raw)
        flush_keys(rolling)  # the new season's secrets on disk before the save that commits to them
        # What the season's close wrote, as a command's write says it: the apps apply it from the
        # change journal instead of reading the save again, and the vouch checks only those documents.
        snapshot.changed = written_documents(world, sizes, rolls_before)
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
            + f", {rolls} roll(s) abandoned (kept in the dice ledger; `yak verify` names them).",
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
            f"The GM closed the campaign: the dice secrets of {revealed} season(s), private ones too, are "
            f"revealed; every roll can be checked with `yak verify --reveal`.",
            kind="season",
            audience="public",
            actor=str(identity),
            command="campaign-close",
        )
    return revealed


def _expected_season(text: str | None) -> GameDate | None:
    if text is None:
        return None
    try:
        return GameDate.parse(text)
    except ValueError as error:
        raise CommandError("from", str(error)) from None


def preview(save: WorldFile) -> dict[str, Any]:
    load_command_modules()
    return preview_advance(World(save.read()))


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


def due_for(world: World, identity: Identity) -> list[dict[str, Any]]:
    """What is due this season, as far as this identity may know."""
    from yak_tui.kernel.season.readiness import DUE_KIND, due_line

    load_command_modules()
    seen: set[tuple[str, str]] = set()
    out = []
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
