"""A Discord webhook, over `urllib.request` (no HTTP library of our own): send a message, edit it,
delete it. Discord's real limits are honoured: at most `DISCORD_LIMIT` characters a message (the
caller splits on line boundaries, `kernel.season.markup.split_messages`), `allowed_mentions` empty
so nothing a report says pings anyone, `thread_name` on the first message into a forum channel (the
rest go into that thread), and a 429 answered by waiting out its `Retry-After` and trying again.
"""

from __future__ import annotations

import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import orjson

from yak_tui.deliver.channels import redact
from yak_tui.kernel.errors import YakError
from yak_tui.kernel.season.markup import DISCORD_LIMIT

NO_MENTIONS: dict[str, list[str]] = {"parse": []}
MAX_TRIES = 5  # a 429 is waited out this many times before the post gives up
TIMEOUT = 30.0  # seconds for one request


def wait(seconds: float) -> None:
    """Wait out a 429: the protocol says how long (a test replaces this to count the waits)."""
    time.sleep(seconds)


class DeliveryError(YakError):
    """Something could not be delivered; what was delivered before stays recorded."""


@dataclass(frozen=True)
class Attachment:
    filename: str
    content_type: str
    data: bytes


@dataclass(frozen=True)
class Sent:
    message_id: str
    channel_id: str  # the thread's id when the message opened a forum thread


class Webhook:
    """One webhook URL. `sleep` waits out a 429 (a test gives its own, to count the waits)."""

    def __init__(self, url: str, sleep: Callable[[float], None] | None = None) -> None:
        self.url = url.rstrip("/")
        self.sleep = sleep

    def send(
        self,
        content: str,
        *,
        thread_name: str = "",
        thread_id: str = "",
        attachments: tuple[Attachment, ...] = (),
    ) -> Sent:
        if len(content) > DISCORD_LIMIT:
            raise DeliveryError(f"a Discord message holds at most {DISCORD_LIMIT} characters, not {len(content)}")
        payload: dict[str, Any] = {"content": content, "allowed_mentions": NO_MENTIONS}
        if thread_name:
            payload["thread_name"] = thread_name[:100]
        query = {"wait": "true", **({"thread_id": thread_id} if thread_id else {})}
        reply = self._request("POST", f"{self.url}?{urlencode(query)}", payload, attachments)
        return Sent(str(reply.get("id", "")), str(reply.get("channel_id", "")))

    def edit(self, message_id: str, content: str, *, thread_id: str = "") -> None:
        query = f"?{urlencode({'thread_id': thread_id})}" if thread_id else ""
        payload = {"content": content, "allowed_mentions": NO_MENTIONS}
        self._request("PATCH", f"{self.url}/messages/{message_id}{query}", payload, ())

    def delete(self, message_id: str, *, thread_id: str = "") -> None:
        query = f"?{urlencode({'thread_id': thread_id})}" if thread_id else ""
        self._request("DELETE", f"{self.url}/messages/{message_id}{query}", None, ())

    def _request(
        self, method: str, url: str, payload: dict[str, Any] | None, attachments: tuple[Attachment, ...]
    ) -> dict[str, Any]:
        body, content_type = _body(payload, attachments)
        for _ in range(MAX_TRIES):
            request = urllib.request.Request(url, data=body, method=method)
            if content_type:
                request.add_header("Content-Type", content_type)
            request.add_header("User-Agent", "yak_tui (https://github.com/, 0.1)")
            try:
                with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
                    raw = response.read()
                    return _json(raw) if raw else {}
            except urllib.error.HTTPError as error:
                raw = error.read()
                if error.code == 429:  # rate limited: Discord says how long to wait, in seconds
                    (self.sleep or wait)(_retry_after(error.headers.get("Retry-After"), _json(raw)))
                    continue
                raise DeliveryError(
                    f"Discord refused {method} to {redact(self.url)}: {_reason(error.code, raw)}"
                ) from None
            except urllib.error.URLError as error:
                raise DeliveryError(f"cannot reach {redact(self.url)}: {error.reason}") from None
        raise DeliveryError(f"Discord kept answering 429 (rate limited) to {redact(self.url)}; try again later")


def _body(payload: dict[str, Any] | None, attachments: tuple[Attachment, ...]) -> tuple[bytes | None, str]:
    if payload is None:
        return None, ""
    if not attachments:
        return orjson.dumps(payload), "application/json"
    # multipart/form-data: the message as `payload_json`, each file as `files[n]`
    boundary = f"yak-{uuid.uuid4().hex}"
    described = {
        **payload,
        "attachments": [{"id": n, "filename": a.filename} for n, a in enumerate(attachments)],
    }
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="payload_json"\r\n'
        "Content-Type: application/json\r\n\r\n".encode()
        + orjson.dumps(described)
        + b"\r\n"
    ]
    for n, item in enumerate(attachments):
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="files[{n}]"; filename="{item.filename}"\r\n'
            f"Content-Type: {item.content_type}\r\n\r\n".encode()
            + item.data
            + b"\r\n"
        )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def _json(raw: bytes) -> dict[str, Any]:
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _retry_after(header: str | None, body: dict[str, Any]) -> float:
    for value in (header, body.get("retry_after")):
        try:
            seconds = float(value) if value is not None else -1.0
        except (TypeError, ValueError):
            continue
        if seconds >= 0:
            return min(seconds, 60.0)
    return 1.0


def _reason(code: int, raw: bytes) -> str:
    body = _json(raw)
    if body.get("code") or body.get("message"):
        return f"HTTP {code}, error {body.get('code', '?')}: {body.get('message', '')}"
    return f"HTTP {code}"


__all__ = ["Attachment", "DeliveryError", "Sent", "Webhook"]
