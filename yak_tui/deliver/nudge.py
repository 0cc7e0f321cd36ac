"""Deadline nudges: once the season's deadline is within the lead time, every seat that has filed no
orders and has not said it is ready gets one short reminder, the deadline in his own zone, through
his own Discord channel or e-mail. Each seat is nudged once per deadline (kept in `<save>.posted`),
so `yak serve` may run this every minute."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

from yak_tui.deliver.channels import read_channels, redact, seat_address, smtp_channel
from yak_tui.deliver.post import Delivery, _hash
from yak_tui.kernel.play.identity import Identity, identity_name
from yak_tui.kernel.season import clock
from yak_tui.kernel.season.readiness import NMR, deadline_line, deadline_of, paused_at, readiness
from yak_tui.kernel.world.model import World

DEFAULT_BEFORE = "12h"


def nudge_text(world: World, identity: Identity) -> tuple[str, str]:
    season = world.date.label()
    subject = f"{world.name}: your orders for {season} are due {deadline_line(world, identity)}"
    text = (
        f"{identity_name(world, identity)}, your orders for {season} are due {deadline_line(world, identity)}.\n"
        "You have filed none yet and have not said you are ready. "
        "File your orders, or say you are ready (`yak ready`) if you send none this season."
    )
    return subject, text


def plan_nudges(save: Path, world: World, before: timedelta, at: datetime | None = None) -> list[Delivery]:
    """The reminders due now: none when no deadline is set, the clock is paused, the deadline has
    passed or is further away than `before`."""
    deadline = deadline_of(world)
    moment = at or clock.now()
    if deadline is None or paused_at(world) is not None or not moment <= deadline <= moment + before:
        return []
    data = read_channels(save)
    smtp = smtp_channel(data)
    stamp = clock.stored(deadline)
    out: list[Delivery] = []
    for row in readiness(world):
        if row.status != NMR:
            continue
        identity = Identity.parse(row.identity)
        seat = seat_address(data, world, row.identity)
        subject, text = nudge_text(world, identity)
        key = f"nudge/{world.date.key()}/{stamp}/{row.identity}"
        if seat.get("discord"):
            url = str(seat["discord"])
            out.append(
                Delivery(
                    row.identity,
                    "discord",
                    f"his own channel ({redact(url)})",
                    f"{key}/discord:{_hash(url)}",
                    [text],
                    channel={"kind": "discord", "webhook": url},
                    address=url,
                    once=True,
                )
            )
        elif seat.get("email"):
            address = str(seat["email"])
            out.append(
                Delivery(
                    row.identity,
                    "email",
                    address,
                    f"{key}/email:{_hash(address)}",
                    [subject, text],
                    channel=smtp[1] if smtp else {},
                    address=address,
                    once=True,
                )
            )
        else:
            out.append(Delivery(row.identity, "none", "no address", "", action="not sent"))
    return out


def nudge_now(save: Path, before: timedelta) -> list[Delivery]:
    """Send the nudges due now (what `yak serve --nudge-before` runs every minute)."""
    from yak_tui.deliver.post import campaign_tag, deliver
    from yak_tui.kernel.play.commands import load_command_modules
    from yak_tui.store.storage import WorldFile

    load_command_modules()
    world = World.load(WorldFile(save))
    return deliver(save, plan_nudges(save, world, before), campaign=campaign_tag(world))


__all__ = ["DEFAULT_BEFORE", "nudge_now", "nudge_text", "plan_nudges"]
