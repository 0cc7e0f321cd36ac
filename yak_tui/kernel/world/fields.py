"""The language the world's schemas are written in: the kinds of value, `Field` and `TableSchema`,
short builders that keep the tables readable, and the shapes and words several tables share.

The tables themselves are in `documents` (the world's things) and `records` (what play records).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from yak_tui.kernel.world.numbers import AMOUNT_LIMIT

# Kinds of value a field holds.
TEXT = "text"  # a str
INT = "int"  # a whole number (an int) within the field's range
NUMBER = "number"  # an int, or a float with a fraction, within the field's range
BOOL = "bool"  # true/false
DATE = "date"  # a game date {year: int, season: Spring|Summer|Autumn|Winter}
LIST = "list"  # a list of `items`
RECORD = "record"  # a table with the known `fields` (others allowed)
MAP = "map"  # a table from free text keys to `values`
JSON = "json"  # any plain JSON value (finite numbers, 64-bit integers, text keys)
KINDS = (TEXT, INT, NUMBER, BOOL, DATE, LIST, RECORD, MAP, JSON)
INT64_MIN = -(2**63)
INT64_MAX = 2**63 - 1


@dataclass(frozen=True)
class Field:
    """One value in a document: what it holds, whether it must be there, and why it exists."""

    kind: str
    description: str
    required: bool = False
    nullable: bool = False
    choices: tuple[str, ...] = ()  # TEXT: the values allowed; MAP: the keys allowed
    minimum: float | None = None  # INT, NUMBER: the lowest value (None: -AMOUNT_LIMIT)
    ref: str | tuple[str, ...] | None = None  # the table (or tables) whose document id this names
    items: Field | None = None  # LIST: each item
    fields: Mapping[str, Field] | None = None  # RECORD: the known fields
    values: Field | None = None  # MAP: each value
    maximum: float | None = None  # INT, NUMBER: the highest value (None: AMOUNT_LIMIT)
    tagged: bool = False  # a reference written `<table>:<id>` (`kingdoms:elbreth`), not a bare id
    # A reference to what once was (the kingdom a unit was suborned from, the business a debt was
    # drawn on): checked when a person writes it (a world file, gm-set), not on load or when the
    # game writes it, since the game keeps it after what it names is gone.
    history: bool = False
    besides: tuple[str, ...] = ()  # TEXT with a ref: words it may hold instead of an id ("bandits")

    @property
    def low(self) -> float:
        """The lowest value an INT or NUMBER field holds."""
        return -AMOUNT_LIMIT if self.minimum is None else self.minimum

    @property
    def high(self) -> float:
        """The highest value an INT or NUMBER field holds."""
        return AMOUNT_LIMIT if self.maximum is None else self.maximum

    @property
    def ref_tables(self) -> tuple[str, ...]:
        """The tables this field names documents of (none: it names none)."""
        if self.ref is None:
            return ()
        return (self.ref,) if isinstance(self.ref, str) else self.ref


@dataclass(frozen=True)
class TableSchema:
    name: str
    description: str
    id_description: str
    fields: Mapping[str, Field] = field(default_factory=dict)


def text(
    description: str,
    *,
    required: bool = False,
    nullable: bool = False,
    choices: tuple[str, ...] = (),
    ref: str | tuple[str, ...] | None = None,
    tagged: bool = False,
    history: bool = False,
    besides: tuple[str, ...] = (),
) -> Field:
    return Field(
        TEXT, description, required, nullable, choices, ref=ref, tagged=tagged, history=history, besides=besides
    )


def whole(
    description: str,
    *,
    required: bool = False,
    nullable: bool = False,
    minimum: float | None = None,
    maximum: float | None = None,
) -> Field:
    return Field(INT, description, required, nullable, minimum=minimum, maximum=maximum)


def number(
    description: str,
    *,
    required: bool = False,
    nullable: bool = False,
    minimum: float | None = None,
    maximum: float | None = None,
) -> Field:
    return Field(NUMBER, description, required, nullable, minimum=minimum, maximum=maximum)


def flag(description: str, *, required: bool = False) -> Field:
    return Field(BOOL, description, required)


def date(description: str, *, required: bool = False, nullable: bool = False) -> Field:
    return Field(DATE, description, required, nullable)


def list_of(item: Field, description: str, *, required: bool = False, nullable: bool = False) -> Field:
    return Field(LIST, description, required, nullable, items=item)


def record(fields: Mapping[str, Field], description: str, *, required: bool = False, nullable: bool = False) -> Field:
    return Field(RECORD, description, required, nullable, fields=fields)


def mapping(
    values: Field, description: str, *, required: bool = False, nullable: bool = False, keys: tuple[str, ...] = ()
) -> Field:
    return Field(MAP, description, required, nullable, choices=keys, values=values)


def any_json(description: str, *, required: bool = False) -> Field:
    return Field(JSON, description, required, nullable=True)


def ids_of(table: str, description: str, *, history: bool = False) -> Field:
    return list_of(text("an id", ref=table, history=history), description)


TABLE_NAMES = (
    "meta",
    "kingdoms",
    "provinces",
    "pcs",
    "characters",
    "units",
    "businesses",
    "specialists",
    "academies",
    "effects",
    "sieges",
    "schedule",
    "orders",
    "users",
    "ledger",
    "dice",
    "chronicle",
    "reports",
)


# Who owns a unit that no kingdom owns: the irregulars an espionage mission raises (`fund-bandits`,
# `fund-privateers`, `support-rebels`), friendly to their sponsor.
IRREGULAR_OWNERS = ("bandits", "privateers", "rebels")
SIZES = ("patrol", "company", "battalion", "brigade", "division", "army")
# The kinds of unit (issue 29: free text let "Raiders" be silently no Raider). The warfare table's
# lists (raider_units, sea_units, scout_units, the guard's kind, ...) name kinds from here (a table
# check holds them to it). A person's world file, `gm-add`/`gm-set` and `recruit` must give one; a
# save is not refused on load for an older free-text kind.
UNIT_KINDS = ("infantry", "cavalry", "scout", "raider", "sea-raider", "ship", "galley", "fleet", "guard")
STATUSES = ("fresh", "weary", "exhausted")
SECTORS = ("industrial", "commercial", "service")
PC_KINDS = ("town", "market", "port", "temple", "castle", "fort", "city", "village", "monastery", "mine")
MONOPOLIES = ("trade", "service", "goods")
ORDER_STATUSES = ("waiting", "resolved", "rejected", "withdrawn")
LEDGER_STATUSES = ("open", "overdue", "repaid", "covered", "defaulted")
SIEGE_STATUSES = ("active", "lifted", "surrendered", "captured")
HEX = list_of(whole("axial coordinate"), "axial hex (q, r)")
COUNTS = mapping(whole("how many"), "counts by name")
MODIFIER = record(
    {"value": whole("the modifier", required=True), "reason": text("why", required=True)}, "one modifier to a roll"
)


MODIFIERS = list_of(MODIFIER, "modifiers to the roll")
ROLL = record(
    {
        "purpose": text("what the roll decides", required=True),
        "naturals": list_of(whole("a die as rolled"), "the dice as rolled"),
        "modifiers": MODIFIERS,
        "total": whole("naturals plus modifiers"),
        "band": text("the result band"),
        "source": text("where the dice came from (seeded, scripted, manual)"),
        "roller": text("the identity who rolled"),
        "audience": text("who may read the roll"),
        "blind": flag("only the outcome is shown to the sponsor"),
        "seed": whole(
            "seed of seeded dice, for replay (a name for a sequence, never summed: any 64-bit integer)",
            nullable=True,
            minimum=INT64_MIN,
            maximum=INT64_MAX,
        ),
        "outcome": text("the outcome in words"),
        "link": text("the hash of its record in the dice ledger (yak verify)"),
        "reading": text("the roll as a forum reader checks it by hand, when it is not naturals plus modifiers"),
        "draws": list_of(
            record(
                {
                    "season": text("the season key", required=True),
                    "stream": text("public or private", required=True, choices=("public", "private")),
                    "command": text("the command that rolled", required=True),
                    "order": text("the order carried out, if any", required=True),
                    "purpose": text("what the die decides", required=True),
                    "sides": whole("the die's sides", required=True, minimum=1),
                    "n": whole("its number in the season's stream", required=True, minimum=0),
                },
                "one die's derivation context",
            ),
            "derived dice: each die's context (docs/fair-dice.md)",
        ),
    },
    "one recorded roll",
)


UNDO_RECORD = record(
    {
        "command": text("the command undone by this record", required=True),
        "identity": text("who ran it", required=True),
        "date": date("the season it ran in", required=True),
        "changes": mapping(
            mapping(
                record({}, "a document as it was", nullable=True), "documents by id (null: the document did not exist)"
            ),
            "originals by table",
            required=True,
            keys=TABLE_NAMES,
        ),
    },
    "the originals of one command, to undo it",
)


HISTORY_POINT = record(
    {
        "date": date("the season", required=True),
        "kingdoms": mapping(
            record({"treasury": number("ducats"), "manpower": number("manpower")}, "one kingdom's figures"),
            "figures by kingdom",
            required=True,
        ),
    },
    "each kingdom's treasury and manpower at the close of a season",
)


def field_words(name: str) -> str:
    """A document's or a command's field as a reader names it: "tax_taken" is "Tax taken"."""
    words = name.replace("_", " ").strip()
    return words[:1].upper() + words[1:]
