"""What `yak serve` is told: its settings (from the command line, checked) and its host key."""

from __future__ import annotations

import argparse
import contextlib
import logging
import math
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

import asyncssh

from yak_tui.serve.weblogin import WEB_PORT

log = logging.getLogger("yak.serve")

HOST_KEY_NAME = "host_key_ed25519"


def default_app_argv(save: Path, identity: str) -> list[str]:
    """The command line of one session's app: the TUI, as the key's identity, on the shared save."""
    return [sys.executable, "-m", "yak_tui", "--save", str(save), "--as", identity, "tui"]


@dataclass
class ServeConfig:
    """Everything `yak serve` needs; tests and the benchmark build one directly."""

    save: Path
    host: str = "127.0.0.1"
    port: int = 2222
    host_key: Path | None = None
    max_sessions: int = 32
    max_sessions_per_user: int = 4
    idle_timeout: float = 3600.0  # seconds without client input before a session is closed; 0: never
    request_timeout: float = 10.0  # seconds a session channel may stay open without a shell request
    session_memory: int = 1024  # MiB of address space for each app process; 0: no limit
    max_auth_tries: int = 6  # failed authentication requests on one connection before it is dropped
    max_unauthenticated: int = 10  # connections logging in at once; those past it are dropped
    # connections logging in at once from one address (PerSourceMaxStartups): a flood from one
    # address cannot fill the slots above and lock every other address out
    max_unauthenticated_per_address: int = 3
    banner_timeout: float = 10.0  # seconds a connection has to send its SSH version line
    login_timeout: float = 30.0  # seconds a connection has to authenticate
    kill_grace: float = 2.0  # seconds between SIGHUP and SIGKILL of a disconnected client's app
    roster_poll: float = 1.0  # seconds between looks at the save's stamp for roster changes
    # `--nudge-before 12h`: remind the seats with no orders this long before the deadline (None: never)
    nudge_before: timedelta | None = None
    nudge_poll: float = 60.0  # seconds between looks at the deadline for nudges due
    refusal_lines_per_second: int = 10  # refusal log lines past it are counted in one summary line
    ssh: bool = True  # serve SSH (`--no-ssh`: browsers only)
    web: bool = False  # `--web`: serve browsers too (`yak_tui.serve.web`)
    web_port: int = WEB_PORT
    tls_cert: Path | None = None  # `--tls-cert`/`--tls-key`: HTTPS (else plain HTTP, e.g. behind a TLS proxy)
    tls_key: Path | None = None
    web_origin: str = ""  # behind a reverse proxy: the public origin (scheme://host[:port]) browsers use
    web_login_failures: int = 5  # failed browser logins per address and minute; past it, 429
    app_argv: Callable[[Path, str], list[str]] = field(default=default_app_argv)

    @property
    def host_key_path(self) -> Path:
        return self.host_key or self.save.parent / HOST_KEY_NAME


def ensure_host_key(path: Path) -> tuple[asyncssh.SSHKey, bool]:
    """Load the server's key, or create it (ed25519, mode 0600) on first start. (key, created)."""
    if path.exists():
        mode = path.stat().st_mode & 0o777
        if mode & 0o077:
            log.warning("host key %s is readable by others (mode %o); chmod 600 it", path, mode)
        return asyncssh.read_private_key(str(path)), False
    key = asyncssh.generate_private_key("ssh-ed25519", comment="yak serve host key")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key.export_private_key())
    os.chmod(path, 0o600)
    pub = path.with_name(path.name + ".pub")
    with contextlib.suppress(OSError):
        pub.write_bytes(key.export_public_key())
    return key, True


# MiB: a floor with room to spare (the app starts in about 64 MiB of address space when limited,
# and reserves about 400 MiB when it is not).
MIN_SESSION_MEMORY = 256


def config_from_args(save_path: Path, args: argparse.Namespace) -> ServeConfig:
    from yak_tui.kernel.errors import UsageError
    from yak_tui.kernel.season.clock import parse_duration
    from yak_tui.store.storage import StoreError, WorldFile

    def count(option: str, value: int, minimum: int) -> int:
        if value < minimum:
            raise UsageError(f"{option}: must be at least {minimum}, not {value}")
        return value

    def seconds(option: str, value: float, *, zero_is_never: bool) -> float:
        if not math.isfinite(value) or value < 0 or (value == 0 and not zero_is_never):
            allowed = "0 (never) or more seconds" if zero_is_never else "more than 0 seconds"
            raise UsageError(f"{option}: must be {allowed}, not {value:g}")
        return value

    save = Path(save_path).expanduser().resolve()
    if not save.exists():
        raise StoreError(f"no save at {save}; create one with `yak new {save} --demo`")
    WorldFile(save).read()  # a corrupt save is refused now, with its restore hint
    port = int(args.port)
    if not 0 <= port <= 65535:
        raise UsageError(f"--port: {port} is not a TCP port (0-65535)")
    memory = int(args.session_memory)
    if memory != 0 and memory < MIN_SESSION_MEMORY:
        raise UsageError(f"--session-memory: must be 0 (no limit) or at least {MIN_SESSION_MEMORY} MiB, not {memory}")
    host_key = Path(args.host_key).expanduser().resolve() if getattr(args, "host_key", None) else None
    web = bool(getattr(args, "web", False))
    web_port = int(getattr(args, "web_port", WEB_PORT))
    if not 0 <= web_port <= 65535:
        raise UsageError(f"--web-port: {web_port} is not a TCP port (0-65535)")
    if getattr(args, "no_ssh", False) and not web:
        raise UsageError("--no-ssh: give --web too, or there is nothing to serve")
    cert, key = getattr(args, "tls_cert", None), getattr(args, "tls_key", None)
    if (cert or key) and not (cert and key):
        raise UsageError("--tls-cert and --tls-key go together")
    if cert and not web:
        raise UsageError("--tls-cert: only with --web (SSH has its own encryption)")
    for option, value in (("--tls-cert", cert), ("--tls-key", key)):
        if value and not Path(value).expanduser().is_file():
            raise UsageError(f"{option}: no file {value}")
    origin = str(getattr(args, "web_origin", None) or "").rstrip("/")
    if origin and not origin.startswith(("http://", "https://")):
        raise UsageError(f"--web-origin: {origin} must start with http:// or https://")
    return ServeConfig(
        save=save,
        host=args.host,
        port=port,
        host_key=host_key,
        max_sessions=count("--max-sessions", int(args.max_sessions), 1),
        max_sessions_per_user=count("--max-sessions-per-user", int(args.max_sessions_per_user), 1),
        idle_timeout=seconds("--idle-timeout", float(args.idle_timeout), zero_is_never=True),
        request_timeout=seconds("--request-timeout", float(args.request_timeout), zero_is_never=False),
        session_memory=memory,
        max_auth_tries=count("--max-auth-tries", int(args.max_auth_tries), 1),
        max_unauthenticated=count("--max-unauthenticated", int(args.max_unauthenticated), 1),
        max_unauthenticated_per_address=count(
            "--max-unauthenticated-per-address", int(args.max_unauthenticated_per_address), 1
        ),
        banner_timeout=seconds("--banner-timeout", float(args.banner_timeout), zero_is_never=False),
        login_timeout=seconds("--login-timeout", float(args.login_timeout), zero_is_never=False),
        ssh=not getattr(args, "no_ssh", False),
        web=web,
        web_port=web_port,
        tls_cert=Path(cert).expanduser().resolve() if cert else None,
        tls_key=Path(key).expanduser().resolve() if key else None,
        web_origin=origin,
        nudge_before=parse_duration(args.nudge_before, "--nudge-before")
        if getattr(args, "nudge_before", None)
        else None,
    )
