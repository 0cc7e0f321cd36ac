"""The GM's channels and the seats' addresses, kept beside the save in `<save>.channels` (mode 0600).

A Discord webhook URL is a credential (whoever holds it may post in the channel) and an e-mail
address is a player's own: neither goes in the save, a backup, an export or a report, and no seat
but the GM ever reads this file (every verb that touches it refuses any other identity with the
GM refusal of `kernel.play.commands`). The file holds:

- `channels`: name -> {"kind": "discord", "webhook": URL, "thread_name": str} or
  {"kind": "smtp", "host", "port", "from", "starttls", "user", "password"}; every Discord channel
  receives the public season post, the first SMTP channel (by name) carries the e-mail.
- `logins`: a roster login's name -> {"email": addr, "discord": webhook URL}: where the report of the
  seat that login plays goes (`seat_address`). It follows the roster: a login removed, or a seat
  passed to an heir, takes its address along, and a new campaign at the same path (a new roster)
  reaches no one until the GM names the addresses again.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import orjson

from yak_tui.kernel.errors import StoreError, UsageError
from yak_tui.store.files import write_private_bytes

CHANNELS_SUFFIX = ".channels"
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$")
_EMAIL = re.compile(r"^[^@\s<>,;]+@[^@\s<>,;]+\.[^@\s<>,;]+$")
PASSWORD_ENV = "YAK_SMTP_PASSWORD"


def channels_path(save: Path) -> Path:
    return save.with_name(save.name + CHANNELS_SUFFIX)


def read_channels(save: Path) -> dict[str, Any]:
    """The file's tables ({"channels": {}, "logins": {}} when there is none yet)."""
    path = channels_path(save)
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {"channels": {}, "logins": {}}
    except OSError as error:
        raise StoreError(f"cannot read the channels {path}: {error.strerror}") from None
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise StoreError(f"the channels {path} are not JSON; nothing was changed") from None
    if not isinstance(data, dict):
        raise StoreError(f"the channels {path} hold no table; nothing was changed")
    data.setdefault("channels", {})
    data.setdefault("logins", {})
    return data


def write_channels(save: Path, data: dict[str, Any]) -> None:
    write_private(channels_path(save), data)


def write_private(target: Path, data: dict[str, Any]) -> None:
    """Replace a GM-only file beside the save in one step, created with mode 0600 (mkstemp) before a
    byte is written."""
    try:
        write_private_bytes(target, orjson.dumps(data, option=orjson.OPT_SORT_KEYS | orjson.OPT_INDENT_2))
    except OSError as error:
        raise StoreError(f"cannot write {target}: {error.strerror}; nothing was changed") from None


def check_name(name: str) -> str:
    if not _NAME.match(name):
        raise UsageError(
            f"channel name {name!r}: letters, digits, - and _ (at most 40), starting with a letter or digit"
        )
    return name


def check_webhook(url: str, field: str = "--discord-webhook") -> str:
    """A Discord webhook URL: https (http only to this machine, for a test server), with a path."""
    parts = urlsplit(url)
    local = parts.hostname in ("127.0.0.1", "localhost", "::1")
    if parts.scheme != "https" and not (parts.scheme == "http" and local):
        raise UsageError(f"{field}: a webhook URL starts with https:// (got {redact(url)})")
    if not parts.hostname or not parts.path.strip("/"):
        raise UsageError(f"{field}: {redact(url)} is not a webhook URL (https://discord.com/api/webhooks/ID/TOKEN)")
    return url


def check_email(address: str) -> str:
    if not _EMAIL.match(address):
        raise UsageError(f"--email: {address!r} is not an e-mail address")
    return address


def parse_host_port(text: str) -> tuple[str, int]:
    host, sep, port = text.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--smtp: give HOST:PORT, e.g. smtp.example.org:587 (got {text!r})")
    return host.strip("[]"), int(port)


def redact(url: str) -> str:
    """A webhook URL as it may be printed: its host and the webhook's id, never its token."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/").split("/")
    shown = "/".join(path[:-1]) + "/…" if len(path) > 1 else ""
    return f"{parts.scheme}://{parts.netloc}{shown}"


def shown_channel(name: str, channel: dict[str, Any]) -> dict[str, Any]:
    """A channel as `yak channel list` shows it to the GM: no token, no password."""
    if channel.get("kind") == "discord":
        return {
            "name": name,
            "kind": "discord",
            "webhook": redact(str(channel.get("webhook", ""))),
            "thread_name": channel.get("thread_name", ""),
        }
    return {
        "name": name,
        "kind": "smtp",
        "host": channel.get("host", ""),
        "port": channel.get("port", 0),
        "from": channel.get("from", ""),
        "starttls": bool(channel.get("starttls")),
        "user": channel.get("user", ""),
        "password": "set" if channel.get("password") else "",
    }


def seat_address(data: dict[str, Any], world: Any, identity: str) -> dict[str, str]:
    """The e-mail address and Discord webhook of a seat: those of the roster logins that play it now
    (the first login by name that has each)."""
    found: dict[str, str] = {}
    for name, user in sorted(world.all("users")):
        if str(user.get("identity", "")) != identity:
            continue
        for key, value in (data["logins"].get(name) or {}).items():
            if value and key not in found:
                found[key] = str(value)
    return found


def discord_channels(data: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(n, c) for n, c in sorted(data["channels"].items()) if c.get("kind") == "discord"]


def smtp_channel(data: dict[str, Any]) -> tuple[str, dict[str, Any]] | None:
    found = [(n, c) for n, c in sorted(data["channels"].items()) if c.get("kind") == "smtp"]
    return found[0] if found else None


__all__ = [
    "PASSWORD_ENV",
    "channels_path",
    "check_email",
    "check_name",
    "check_webhook",
    "discord_channels",
    "parse_host_port",
    "read_channels",
    "redact",
    "seat_address",
    "shown_channel",
    "smtp_channel",
    "write_channels",
    "write_private",
]
