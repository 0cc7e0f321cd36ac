"""The SSH roster: who may log in to `yak serve`, with which public key, as which identity.

A user is a document of the `users` table keyed by his login name. The key decides the
identity: `yak serve` looks the offered key up by its SHA256 fingerprint, so nothing the SSH
client sends (user name, environment, command) can change who he plays. Only the GM edits
the roster; the entries go to the adjudicators only, never to the forum.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from yak_tui.kernel.play.audience import ADJUDICATORS, character_audience, kingdom_audience
from yak_tui.kernel.play.commands import CommandContext, CommandError, Param, command
from yak_tui.kernel.play.identity import Identity, IdentityError, identity_name
from yak_tui.kernel.season import clock
from yak_tui.kernel.world.model import World

NAME_PATTERN = re.compile(r"^[a-z0-9_-]{1,32}$")
USERS = "users"


@dataclass(frozen=True)
class RosterUser:
    """One login: the name, the identity the key plays, and the key's fingerprint."""

    name: str
    identity: Identity
    fingerprint: str
    key: str


def parse_public_key(text: str) -> tuple[str, str]:
    """(normalised OpenSSH key line, SHA256 fingerprint) of one public key, or CommandError('key')."""
    import asyncssh

    if "PRIVATE KEY" in text:
        raise CommandError("key", "is a private key; give the public key (the .pub file)")
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not lines:
        raise CommandError("key", "is empty; give an OpenSSH public key such as ~/.ssh/id_ed25519.pub")
    if len(lines) > 1 and not lines[0].startswith("----"):
        raise CommandError("key", f"holds {len(lines)} keys; give exactly one key per user")
    try:
        key = asyncssh.import_public_key(text if lines[0].startswith("----") else lines[0])
    except (asyncssh.KeyImportError, ValueError) as error:
        raise CommandError("key", f"is not an OpenSSH public key ({error})") from None
    return key.export_public_key("openssh").decode().strip(), key.get_fingerprint("sha256")


def user_identity(world: World, text: str, field: str = "identity") -> Identity:
    """A roster identity must parse and name a real kingdom or character of this world."""
    from yak_tui.kernel.season.session import check_identity

    try:
        identity = Identity.parse(text)
        check_identity(world, identity)
    except IdentityError as error:
        raise CommandError(field, str(error)) from None
    return identity


def roster(world: World) -> list[RosterUser]:
    """Every user of the roster whose document is well formed, by name."""
    out = []
    for name, doc in sorted(world.all(USERS)):
        try:
            identity = Identity.parse(str(doc.get("identity", "")))
        except IdentityError:
            continue
        out.append(RosterUser(name, identity, str(doc.get("fingerprint", "")), str(doc.get("key", ""))))
    return out


def user_for_fingerprint(world: World, fingerprint: str) -> RosterUser | None:
    """The roster user whose key has this SHA256 fingerprint (`SHA256:...`), if any."""
    for user in roster(world):
        if user.fingerprint and user.fingerprint == fingerprint:
            return user
    return None


@command(
    "user-add",
    "Add a login to the SSH roster: a name, the identity it plays, and its public key (GM).",
    {
        "name": Param(str, help="login name: lowercase letters, digits, _ and -"),
        "identity": Param(
            str, help="gm, gm:<name> (a co-GM), king:<kingdom>, player:<character> or observer (public only)"
        ),
        "key": Param(
            str,
            required=False,
            default="",
            help="the OpenSSH public key text (the .pub file); none: the seat plays in a browser only (`user token`)",
        ),
    },
    category="roster",
    undoable=False,
    gm_only="change the SSH roster",
)
def user_add(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    name = p["name"].strip()
    if not NAME_PATTERN.match(name):
        raise CommandError("name", f"{name!r} must be 1-32 of lowercase letters, digits, _ and -")
    if ctx.world.find(USERS, name) is not None:
        raise CommandError("name", f"a user named {name!r} already exists; remove it first")
    identity = user_identity(ctx.world, p["identity"])
    line, fingerprint = parse_public_key(p["key"]) if (p.get("key") or "").strip() else ("", "")
    holder = user_for_fingerprint(ctx.world, fingerprint) if fingerprint else None
    if holder is not None:
        raise CommandError("key", f"key {fingerprint} already belongs to user {holder.name!r}; one key, one identity")
    added = clock.now().strftime("%Y-%m-%dT%H:%M:%SZ")
    ctx.world.put(
        USERS,
        name,
        {
            "identity": str(identity),
            "key": line,
            "fingerprint": fingerprint,
            "added": added,
            "since": dict(ctx.world.meta["date"]),
        },
    )
    how = f"key {fingerprint}" if fingerprint else "browser only"
    seat = identity_name(ctx.world, identity)
    ctx.log(f"The GM added the login {name} for {seat} ({how}).", kind="roster", audience=ADJUDICATORS)
    return {"name": name, "identity": str(identity), "fingerprint": fingerprint}


@command(
    "user-remove",
    "Remove a login from the SSH roster (GM).",
    {"name": Param(str, help="login name")},
    category="roster",
    undoable=False,
    gm_only="change the SSH roster",
)
def user_remove(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    name = p["name"].strip()
    doc = _seat(ctx, name)
    ctx.world.delete(USERS, name)
    try:
        seat = identity_name(ctx.world, Identity.parse(str(doc.get("identity"))))
    except IdentityError:
        seat = str(doc.get("identity"))
    how = f"key {doc['fingerprint']}" if doc.get("fingerprint") else "browser only"
    ctx.log(
        f"The GM removed the login {name} ({seat}, {how}).",
        kind="roster",
        audience=ADJUDICATORS,
    )
    return {"name": name, "identity": doc.get("identity"), "fingerprint": doc.get("fingerprint")}


# A browser login (`yak user token`): the link's secret is never stored, only its scrypt hash.
WEB_LOGINS = "web"
MAX_WEB_LOGINS = 8  # links (and the browsers logged in with them) a seat keeps; the oldest goes first
WEB_LOGIN_FIELDS = ("id", "salt", "hash", "n", "r", "p")


def web_login(world: World, login_id: str) -> tuple[str, str, dict[str, Any]] | None:
    """(login name, identity, the kept hash) of the roster's browser link with this id, if any."""
    for name, doc in world.all(USERS):
        for login in doc.get(WEB_LOGINS, []):
            if login.get("id") == login_id:
                return name, str(doc.get("identity", "")), dict(login)
    return None


def web_seat_gone(world: World, name: str, identity: str, login_id: str) -> str:
    """Why a browser logged in as `name` (playing `identity`, with link `login_id`) may no longer
    play: removed, another identity, the link revoked, or the identity gone; "" while it may."""
    from yak_tui.kernel.season.session import check_identity

    doc = world.find(USERS, name)
    if doc is None:
        return f"{name} is no longer on the roster."
    if str(doc.get("identity")) != identity:
        return f"{name} now plays {doc.get('identity')}; log in again with a new link."
    if not any(login.get("id") == login_id for login in doc.get(WEB_LOGINS, [])):
        return f"{name}'s browser login was revoked; ask the GM for a new link."
    try:
        check_identity(world, Identity.parse(identity))
    except IdentityError as error:
        return f"{identity} is not in this campaign: {error}"
    return ""


def _seat(ctx: CommandContext, name: str) -> dict[str, Any]:
    """The roster's login `name`, or a refusal that lists the logins there are."""
    doc = ctx.world.find(USERS, name)
    if doc is None:
        known = ", ".join(sorted(ctx.world.table(USERS))) or "none"
        raise CommandError("name", f"no user named {name!r} (users: {known})")
    return doc


@command(
    "user-web-login",
    "Give a roster login a one-time browser login link; only the link's scrypt hash is stored (GM).",
    {
        "name": Param(str, help="login name"),
        "login": Param(str, help="the link's id and scrypt hash as JSON: id, salt, hash, n, r, p"),
    },
    category="roster",
    undoable=False,
    gm_only="change the SSH roster",
)
def user_web_login(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    import json

    name = p["name"].strip()
    _seat(ctx, name)
    try:
        login = json.loads(p["login"])
    except ValueError:
        raise CommandError("login", "is not JSON") from None
    if not isinstance(login, dict) or set(login) != set(WEB_LOGIN_FIELDS):
        raise CommandError("login", f"must hold exactly {', '.join(WEB_LOGIN_FIELDS)}")
    login["issued"] = clock.now().strftime("%Y-%m-%dT%H:%M:%SZ")
    doc = ctx.world.edit(USERS, name)
    doc[WEB_LOGINS] = [*doc.get(WEB_LOGINS, []), login][-MAX_WEB_LOGINS:]
    ctx.log(f"The GM gave {name} a browser login link.", kind="roster", audience=ADJUDICATORS)
    return {"name": name, "id": login["id"]}


@command(
    "user-revoke",
    "End a roster login's browser logins: his links stop working and his browser sessions end (GM).",
    {"name": Param(str, help="login name")},
    category="roster",
    undoable=False,
    gm_only="change the SSH roster",
)
def user_revoke(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    name = p["name"].strip()
    _seat(ctx, name)
    doc = ctx.world.edit(USERS, name)
    dropped = len(doc.pop(WEB_LOGINS, []))
    ctx.log(f"The GM revoked {name}'s browser logins.", kind="roster", audience=ADJUDICATORS)
    return {"name": name, "revoked": dropped}


@command(
    "user-zone",
    "Set the time zone a roster login reads deadlines in (the GM for anyone; a seat for his own logins).",
    {
        "zone": Param(str, help="an IANA zone: Europe/Berlin, America/New_York, Asia/Tokyo, UTC"),
        "name": Param(str, required=False, default="", help="login name (default: every login of your own seat)"),
    },
    category="roster",
    undoable=False,
)
def user_zone(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    tz = clock.zone(p["zone"])
    who = ctx.identity
    name = p["name"].strip()
    if name:
        doc = ctx.world.find(USERS, name)
        mine = doc is not None and doc.get("identity") == str(who)
        if doc is None or not (who.is_gm or mine):
            # A seat learns nothing of logins not his own: the same answer for one that does not exist.
            known = ", ".join(sorted(ctx.world.table(USERS))) if who.is_gm else "only your own"
            raise CommandError("name", f"no user named {name!r} you may set (users: {known or 'none'})")
        names = [name]
    elif who.is_gm:
        raise CommandError("name", "is required for the GM: name the login whose zone you set")
    else:
        names = [user.name for user in roster(ctx.world) if user.identity == who]
        if not names:
            raise CommandError("identity", f"{who} has no login on the roster; the GM adds one (user-add)")
    for each in names:
        ctx.world.edit(USERS, each)["zone"] = tz.key
    audience = (
        ADJUDICATORS if who.is_gm else kingdom_audience(who.subject) if who.is_king else character_audience(who.subject)
    )
    ctx.log(f"{', '.join(names)} now read deadlines in {tz.key}.", kind="roster", audience=audience)
    return {"names": names, "zone": tz.key}


def pass_seat(ctx: CommandContext, dead: Identity, heir: Identity) -> list[str]:
    """Every roster login that played `dead` now plays `heir`; what it played, and in which seasons,
    stays in its tenure. The logins moved, by name."""
    moved = []
    for user in roster(ctx.world):
        if user.identity != dead:
            continue
        doc = ctx.world.edit(USERS, user.name)
        held = {"identity": str(dead), "until": dict(ctx.world.meta["date"])}
        if doc.get("since"):
            held["since"] = doc["since"]
        doc["tenure"] = [*doc.get("tenure", []), held]
        doc["identity"] = str(heir)
        doc["since"] = dict(ctx.world.meta["date"])
        moved.append(user.name)
    return moved
