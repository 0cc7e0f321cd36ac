"""Who is acting: the GM, the King of a kingdom, the player of a character, or an observer (a
spectator or forum reader who sees only what is public and may do nothing)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from yak_tui.kernel.errors import ValidationError, YakError

if TYPE_CHECKING:
    from yak_tui.kernel.world.model import World


class IdentityError(ValidationError):
    """An identity string (`gm`, `king:<id>`, `player:<id>`) that names no one who can be."""

    def __init__(self, message: str) -> None:
        YakError.__init__(self, message)
        self.field = "identity"
        self.reason = message


# A co-GM's name in `gm:<name>`: one word, so it reads as a signature ("by alice").
_CO_GM_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,31}")


@dataclass(frozen=True)
class Identity:
    """Who acts. A GM is `gm`, or a co-GM `gm:<name>` with all of the GM's authority (`is_gm`):
    the name only signs his acts (the chronicle's `actor`, an order's `resolved_by`)."""

    role: str  # "gm" | "king" | "player" | "observer"
    subject: str = ""  # kingdom id for a King, character id for a player, a co-GM's name

    @classmethod
    def parse(cls, text: str) -> Identity:
        """The identity `text` names (an identity is a value: the same text parses to the same one,
        kept for the next ask: `yak orders` parsed four per order line, 20,000 at 1000x)."""
        known = _PARSED.get(text) if cls is Identity else None
        if known is not None:
            return known
        parsed = cls._parse(text)
        if cls is Identity and len(_PARSED) < _PARSED_MOST:
            _PARSED[text] = parsed
        return parsed

    @classmethod
    def _parse(cls, text: str) -> Identity:
        text = text.strip()
        if text.lower() == "gm":
            return cls("gm")
        if text.lower() == "observer":
            return cls("observer")
        role, sep, subject = text.partition(":")
        role = role.lower()
        if sep and role == "gm" and _CO_GM_NAME.fullmatch(subject.strip()):
            return cls("gm", subject.strip().lower())
        if sep and role in ("king", "player") and subject.strip():
            return cls(role, subject.strip())
        raise IdentityError(
            f"identity {text!r} is not one of gm, gm:<name> (a co-GM: letters, digits, - or _), "
            "king:<kingdom>, player:<character>, observer"
        )

    @property
    def is_gm(self) -> bool:
        return self.role == "gm"

    @property
    def is_king(self) -> bool:
        return self.role == "king"

    @property
    def is_player(self) -> bool:
        return self.role == "player"

    @property
    def is_observer(self) -> bool:
        return self.role == "observer"

    @property
    def signature(self) -> str:
        """The co-GM's name his acts are signed with ("" for the plain GM and everyone else)."""
        return self.subject if self.is_gm else ""

    def __str__(self) -> str:
        if self.role == "observer" or (self.role == "gm" and not self.subject):
            return self.role
        return f"{self.role}:{self.subject}"


_PARSED: dict[str, Identity] = {}
_PARSED_MOST = 10_000  # the seats of a campaign; a server parsing strangers' text keeps no more

GM = Identity("gm")
OBSERVER = Identity("observer")


def identity_name(world: World, identity: Identity) -> str:
    """How a sentence names an identity ("the GM", "King Aldric", "Maelis the Grey"): never its key."""
    if identity.is_gm:
        return f"the GM ({identity.subject})" if identity.subject else "the GM"
    if identity.is_observer:
        return "an observer"
    if identity.is_king:
        kingdom = world.find("kingdoms", identity.subject) or {}
        if kingdom.get("ruler"):
            return world.display_name("characters", str(kingdom["ruler"]))
        return f"the ruler of {world.display_name('kingdoms', identity.subject)}"
    if not identity.subject:
        return "the public"
    return world.display_name("characters", identity.subject)


def who_may_words(seats: Iterable[str]) -> str:
    """Seats in words, each once: "the GM, the King of Elbreth"."""
    return ", ".join(dict.fromkeys(seat_words(seat) for seat in seats))


def seat_words(seat: str) -> str:
    """A seat's key (`gm`, `king:elbreth`, `player:corvin`) in words, where no world is at hand to
    name him: "the GM", "the King of Elbreth", "Corvin"."""
    role, _, subject = seat.partition(":")
    name = subject.replace("-", " ").title()
    if role == "gm":
        return f"the GM ({subject})" if subject else "the GM"
    if role == "king" and subject:
        return f"the King of {name}"
    if role == "player" and subject:
        return name
    return seat


def identity_label(world: World, identity: Identity) -> str:
    """How a header or a dialog names an identity ("King · Elbreth", "Player · Aldric")."""
    if identity.is_gm:
        return f"GM · {identity.subject}" if identity.subject else "GM"
    if identity.is_observer:
        return "Observer"
    if identity.is_king:
        return f"King · {world.display_name('kingdoms', identity.subject)}"
    if not identity.subject:
        return "Public"
    return f"Player · {world.display_name('characters', identity.subject)}"


def check_identity(world: World, identity: Identity) -> None:
    """An identity must name a real kingdom or a living character of this world."""
    if identity.is_king and identity.subject not in world.table("kingdoms"):
        known = ", ".join(world.table("kingdoms"))
        raise IdentityError(f"no kingdom {identity.subject!r} for --as king:...; kingdoms: {known}")
    if identity.is_player and identity.subject not in world.table("characters"):
        raise IdentityError(f"no character {identity.subject!r} for --as player:...")
