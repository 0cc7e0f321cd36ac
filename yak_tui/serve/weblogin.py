"""Browser logins for `yak serve --web`: one-time links, signed cookies, failed-login limits.

Stdlib only (the CLI imports it to make links). A link is `…/login?token=ID.SECRET`: the roster
keeps the link's id and the scrypt hash of its secret (`user-web-login`), never the secret. The
server takes a link once: it records the id as used (`<save>.web-used`) and gives the browser a
cookie signed with HMAC-SHA256 under the server's secret (`<save>.web-secret`, mode 0600). The
cookie names the login and the link it came from; it counts only while the roster still holds
that link for that login with the same identity, so `yak user revoke` (the links dropped) or
`user remove` ends it, and the sessions opened with it.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import os
import secrets
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any

WEB_PORT = 8022
COOKIE_NAME = "yak_seat"
# scrypt: 16 MiB and some 50 ms per check (N=2^14, r=8, p=1), OWASP's minimum for scrypt.
SCRYPT_N, SCRYPT_R, SCRYPT_P = 2**14, 8, 1
MAX_ADDRESSES = 4096  # addresses with failed logins kept before the stale ones are dropped
COOKIE_LIFETIME = 30 * 24 * 3600.0  # seconds a browser stays logged in without a new link


def new_login() -> tuple[str, dict[str, Any]]:
    """(the link's token `ID.SECRET`, what the roster keeps of it: id, salt, hash, n, r, p)."""
    login_id, secret = secrets.token_hex(8), secrets.token_urlsafe(24)
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(secret.encode(), salt=salt, n=SCRYPT_N, r=SCRYPT_R, p=SCRYPT_P, dklen=32)
    kept = {"id": login_id, "salt": salt.hex(), "hash": digest.hex(), "n": SCRYPT_N, "r": SCRYPT_R, "p": SCRYPT_P}
    return f"{login_id}.{secret}", kept


def split_token(token: str) -> tuple[str, str] | None:
    login_id, dot, secret = token.strip().partition(".")
    if not dot or not login_id or not secret or len(token) > 200:
        return None
    return login_id, secret


def secret_matches(secret: str, kept: dict[str, Any]) -> bool:
    """The link's secret against the roster's scrypt hash of it (constant-time compare)."""
    try:
        n, r, p = int(kept["n"]), int(kept["r"]), int(kept["p"])
        if not (2 <= n <= 2**20 and 1 <= r <= 32 and 1 <= p <= 16):
            return False
        digest = hashlib.scrypt(
            secret.encode(), salt=bytes.fromhex(kept["salt"]), n=n, r=r, p=p, dklen=32, maxmem=256 * 1024 * 1024
        )
        return hmac.compare_digest(digest.hex(), str(kept["hash"]))
    except (KeyError, ValueError, TypeError):
        return False


def web_secret_path(save: Path) -> Path:
    return save.with_name(save.name + ".web-secret")


def web_used_path(save: Path) -> Path:
    return save.with_name(save.name + ".web-used")


def load_secret(path: Path) -> bytes:
    """The server's cookie key: read, or made (32 random bytes, mode 0600) on first start."""
    if path.exists():
        return bytes.fromhex(path.read_text().strip())
    key = secrets.token_bytes(32)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as handle:
        handle.write(key.hex() + "\n")
    return key


class UsedLinks:
    """The ids of the links already taken, kept in a file so a restart does not make them new."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.ids: set[str] = set()
        with contextlib.suppress(FileNotFoundError):
            self.ids = {line.strip() for line in path.read_text().splitlines() if line.strip()}

    def __contains__(self, login_id: str) -> bool:
        return login_id in self.ids

    def take(self, login_id: str) -> None:
        self.ids.add(login_id)
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        with os.fdopen(fd, "a") as handle:
            handle.write(login_id + "\n")
            handle.flush()
            os.fsync(handle.fileno())


@dataclass(frozen=True)
class Seat:
    """What a valid cookie says: the login, the identity it played when it logged in, the link."""

    name: str
    identity: str
    login_id: str
    issued: float


def sign_cookie(key: bytes, seat: Seat) -> str:
    body = (
        base64.urlsafe_b64encode(
            json.dumps({"u": seat.name, "i": seat.identity, "t": seat.login_id, "at": seat.issued}).encode()
        )
        .decode()
        .rstrip("=")
    )  # no padding: a cookie value that needs no quotes
    mac = hmac.new(key, body.encode(), hashlib.sha256).hexdigest()
    return f"{body}.{mac}"


def read_cookie(key: bytes, value: str | None, now: float | None = None) -> Seat | None:
    """The seat a cookie names, if its signature holds and it has not expired; else None."""
    if not value or len(value) > 1024:
        return None
    body, dot, mac = value.rpartition(".")
    if not dot or not hmac.compare_digest(hmac.new(key, body.encode(), hashlib.sha256).hexdigest(), mac):
        return None
    try:
        data = json.loads(base64.urlsafe_b64decode(body.encode() + b"=" * (-len(body) % 4)))
        seat = Seat(str(data["u"]), str(data["i"]), str(data["t"]), float(data["at"]))
    except (ValueError, KeyError, TypeError):
        return None
    if (now if now is not None else time.time()) - seat.issued > COOKIE_LIFETIME:
        return None
    return seat


class FailedLogins:
    """Failed logins per address in a sliding window: past `limit` in `window` seconds, refuse (429)."""

    def __init__(self, limit: int = 5, window: float = 60.0) -> None:
        self.limit, self.window = limit, window
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, address: str, now: float) -> deque[float]:
        times = self._failures.setdefault(address, deque())
        while times and now - times[0] > self.window:
            times.popleft()
        return times

    def blocked(self, address: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        blocked = len(self._recent(address, now)) >= self.limit
        if not self._failures.get(address):
            self._failures.pop(address, None)
        return blocked

    def failed(self, address: str, now: float | None = None) -> None:
        now = time.monotonic() if now is None else now
        if len(self._failures) > MAX_ADDRESSES:  # many addresses: forget the ones past their window
            for old in [a for a, times in self._failures.items() if not times or now - times[-1] > self.window]:
                del self._failures[old]
        self._recent(address, now).append(now)
