"""`yak post`: the season's public post to every public channel (the GM's Discord channels) and
each private report to its own reader only (his Discord channel, else his e-mail), each with the map
as its reader may see it.

Idempotent: what was posted is kept beside the save in `<save>.posted` (mode 0600): the Discord
message ids of each report in each channel, the Message-ID of each e-mail. A rerun edits the
messages already posted (PATCH), posts only those a longer report needs and deletes those a shorter
one no longer does; an e-mail already sent is not sent again.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import orjson

from yak_tui.deliver.channels import discord_channels, read_channels, redact, seat_address, smtp_channel, write_private
from yak_tui.deliver.discord import Attachment, DeliveryError, Webhook
from yak_tui.kernel.errors import StoreError
from yak_tui.kernel.play.identity import OBSERVER, Identity
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.season.markup import render_discord
from yak_tui.kernel.season.reports import PUBLIC_RECIPIENT, Recipient, reports_for, season_slug
from yak_tui.kernel.world.model import World

POSTED_SUFFIX = ".posted"
GM = Identity.parse("gm")


def posted_path(save: Path) -> Path:
    return save.with_name(save.name + POSTED_SUFFIX)


SEASON_ORDER = ("spring", "summer", "autumn", "winter")


def campaign_tag(world: World) -> str:
    """What tells this campaign from another made at the same path (`yak new --force`): its first
    season's public dice commitment, drawn at random when it began ("" for a save without fair dice)."""
    fair = world.meta.get("fair_dice") or {}

    def order(key: str) -> tuple[int, int]:
        year, _, season = key.partition("-")
        return (int(year) if year.isdigit() else 0, SEASON_ORDER.index(season) if season in SEASON_ORDER else 0)

    if not isinstance(fair, dict) or not fair:
        return ""
    first = fair[min(fair, key=order)]
    return str(first.get("public", "")) if isinstance(first, dict) else ""


def read_posted(save: Path, campaign: str = "") -> dict[str, Any]:
    """What was posted for this campaign; what another campaign at this path posted is forgotten, so
    a new campaign never edits the old one's messages."""
    try:
        data = orjson.loads(posted_path(save).read_bytes())
    except FileNotFoundError:
        return {"campaign": campaign}
    except (OSError, orjson.JSONDecodeError):
        raise StoreError(f"cannot read what was posted ({posted_path(save)}); nothing was sent") from None
    if not isinstance(data, dict) or data.get("campaign", "") != campaign:
        return {"campaign": campaign}
    return data


@dataclass
class Delivery:
    """One report (or nudge) to one place."""

    recipient: str  # "public", "gm", "king:<id>", "player:<id>"
    kind: str  # "discord" or "email"
    target: str  # as shown: the channel's name and its redacted URL, or the e-mail address
    key: str  # its entry in `<save>.posted`
    messages: list[str] = field(default_factory=list)  # Discord messages, or [subject, text] of a nudge
    report: dict[str, Any] | None = None
    attachments: tuple[Attachment, ...] = ()
    channel: dict[str, Any] = field(default_factory=dict)
    address: str = ""  # the webhook URL or the e-mail address (never shown)
    action: str = ""  # what was done: posted, edited, sent, already sent, would post, ...
    once: bool = False  # a nudge: never edited or sent again once delivered

    def to_dict(self) -> dict[str, Any]:
        return {
            "recipient": self.recipient,
            "kind": self.kind,
            "target": self.target,
            "messages": len(self.messages) if self.kind == "discord" else 1,
            "characters": [len(m) for m in self.messages] if self.kind == "discord" else [],
            "attachments": [a.filename for a in self.attachments],
            "action": self.action,
        }


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def map_attachment(world: World, viewer: Identity, stem: str) -> Attachment:
    """The reader's map: a PNG when a converter is at hand, else the SVG itself."""
    from yak_tui.deliver.mapsvg import converter, map_svg, svg_to_png

    svg = map_svg(world, viewer)
    if converter():
        return Attachment(f"map-{stem}.png", "image/png", svg_to_png(svg))
    return Attachment(f"map-{stem}.svg", "image/svg+xml", svg.encode("utf-8"))


def plan_post(save: Path, world: World, season: str | None = None, maps: bool = True) -> list[Delivery]:
    """Where each report of the season goes: the public post to every Discord channel of the GM, each
    private report to its reader's own Discord channel, else his e-mail (through the GM's SMTP
    channel). A report whose reader has no address is listed with nowhere to go."""
    data = read_channels(save)
    found = reports_for(world, GM, season)
    if not found:
        raise DeliveryError(
            f"no report for {season}" if season else "no season report yet: reports are written when a season closes"
        )
    smtp = smtp_channel(data)
    out: list[Delivery] = []
    for report in found:
        recipient = str(report["recipient"])
        slug = season_slug(GameDate.from_dict(report["season"]))
        stem = Recipient(recipient).file_stem
        viewer = OBSERVER if recipient == PUBLIC_RECIPIENT else Identity.parse(recipient)
        seat = seat_address(data, world, recipient) if recipient != PUBLIC_RECIPIENT else {}
        wanted = discord_channels(data) if recipient == PUBLIC_RECIPIENT else seat
        # Drawn only for a reader something goes to (a PNG is a converter's run each).
        pictures = (map_attachment(world, viewer, stem),) if maps and wanted else ()
        if recipient == PUBLIC_RECIPIENT:
            for name, channel in discord_channels(data):
                out.append(
                    Delivery(
                        recipient,
                        "discord",
                        f"{name} ({redact(channel['webhook'])})",
                        f"{slug}/{recipient}/discord:{name}:{_hash(channel['webhook'])}",
                        render_discord(report),
                        report,
                        pictures,
                        channel,
                        str(channel["webhook"]),
                    )
                )
            continue
        if seat.get("discord"):
            url = str(seat["discord"])
            out.append(
                Delivery(
                    recipient,
                    "discord",
                    f"his own channel ({redact(url)})",
                    f"{slug}/{recipient}/discord:{_hash(url)}",
                    render_discord(report),
                    report,
                    pictures,
                    {"kind": "discord", "webhook": url},
                    url,
                )
            )
        if seat.get("email"):
            address = str(seat["email"])
            where = f"{address} (through {smtp[0]})" if smtp else f"{address} (no SMTP channel: yak channel add)"
            out.append(
                Delivery(
                    recipient,
                    "email",
                    where,
                    f"{slug}/{recipient}/email:{_hash(address)}",
                    [],
                    report,
                    pictures,
                    smtp[1] if smtp else {},
                    address,
                )
            )
        if not seat.get("discord") and not seat.get("email"):
            out.append(
                Delivery(recipient, "none", "no address (yak user set NAME --email/--discord)", "", action="not sent")
            )
    return out


def deliver(
    save: Path,
    deliveries: list[Delivery],
    dry_run: bool = False,
    sleep: Callable[[float], None] | None = None,
    campaign: str = "",
) -> list[Delivery]:
    """Send what `plan_post` (or `plan_nudges`) planned; each success is recorded at once, so a
    failure half way leaves a rerun to finish the rest without posting twice."""
    from yak_tui.deliver.mail import report_message, send_mail, text_message

    posted = read_posted(save, campaign)
    mails: list[tuple[Delivery, Any]] = []
    for item in deliveries:
        if item.kind == "none":
            continue
        before = posted.get(item.key)
        if item.kind == "email":
            if before:
                item.action = "already sent"
            elif dry_run:
                item.action = "would send"
            elif not item.channel:
                item.action = "not sent: no SMTP channel"
            else:
                sender = str(item.channel.get("from", ""))
                if item.report is not None:
                    message = report_message(item.report, sender, item.address, item.attachments)
                else:
                    message = text_message(item.messages[0], item.messages[1], sender, item.address)
                mails.append((item, message))
            continue
        if before and item.once:
            item.action = "already sent"
            continue
        if dry_run:
            item.action = "would edit" if before else "would post"
            continue
        item.action, posted[item.key] = _post_discord(item, before, sleep)
        write_private(posted_path(save), posted)
    if mails:
        by_channel: dict[str, list[tuple[Delivery, Any]]] = {}
        for item, message in mails:
            by_channel.setdefault(orjson.dumps(item.channel, option=orjson.OPT_SORT_KEYS).decode(), []).append(
                (item, message)
            )
        for group in by_channel.values():
            send_mail(group[0][0].channel, [message for _, message in group])
            for item, message in group:
                item.action = "sent"
                posted[item.key] = {"message_id": str(message["Message-ID"])}
            write_private(posted_path(save), posted)
    return deliveries


def deliveries_text(done: list[Delivery]) -> str:
    """What went (or would go) where, a line each, as `yak post` and the app's preview print it."""
    lines = []
    for d in done:
        what = f"{len(d.messages)} message{'s' if len(d.messages) != 1 else ''}" if d.kind == "discord" else d.kind
        pictures = f", with {', '.join(a.filename for a in d.attachments)}" if d.attachments else ""
        lines.append(f"{d.recipient} -> {d.target}: {d.action} ({what}{pictures})")
    return "\n".join(lines) or "nothing to send"


def post_season(save: Path, season: str | None = None, dry_run: bool = False, maps: bool = True) -> list[Delivery]:
    """`yak post` as one call (the app's "Post the season"): plan from the save as it is, then send."""
    from yak_tui.kernel.play.commands import load_command_modules
    from yak_tui.store.storage import WorldFile

    load_command_modules()
    world = World.load(WorldFile(save))
    return deliver(save, plan_post(save, world, season, maps=maps), dry_run=dry_run, campaign=campaign_tag(world))


def _post_discord(
    item: Delivery, before: dict[str, Any] | None, sleep: Callable[[float], None] | None
) -> tuple[str, dict[str, Any]]:
    hook = Webhook(item.address, sleep=sleep)
    old_ids: list[str] = list((before or {}).get("messages", []))
    thread = str((before or {}).get("thread_id", ""))
    ids: list[str] = []
    for n, content in enumerate(item.messages):
        if n < len(old_ids):
            hook.edit(old_ids[n], content, thread_id=thread)
            ids.append(old_ids[n])
            continue
        first = n == 0
        sent = hook.send(
            content,
            thread_name=str(item.channel.get("thread_name", "")) if first and not thread else "",
            thread_id=thread,
            attachments=item.attachments if first else (),
        )
        if first and item.channel.get("thread_name") and not thread:
            thread = sent.channel_id  # the forum thread the first message opened: the rest go there
        ids.append(sent.message_id)
    for surplus in old_ids[len(item.messages) :]:
        hook.delete(surplus, thread_id=thread)
    return ("edited" if old_ids else "posted"), {"messages": ids, "thread_id": thread}


__all__ = [
    "Delivery",
    "campaign_tag",
    "deliver",
    "deliveries_text",
    "map_attachment",
    "plan_post",
    "post_season",
    "posted_path",
    "read_posted",
]
