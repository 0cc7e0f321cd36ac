"""The shape of every document of the world file, as declarative data.

One `TableSchema` per table: field name → `Field` (kind, required, choices, minimum, the table a
value names, the shape of list items and nested records, a short description). The loader
validates a whole save against it, a command validates what it touched before it writes, and
front ends can build edit forms from it. The validators live in `yak_tui.kernel.world.validation`.

Every number a document holds lies within its field's one range (`Field.low`, `Field.high`): by
default ±`AMOUNT_LIMIT` (see `yak_tui.kernel.world.numbers`), so that every sum a season or a year start
makes of them stays exact and far inside 64 bits. Every field that names another document says
which table(s) it names (`ref`): the loader and every write check that it does (`history` fields
excepted: they name what once was, and may outlive it).

Fields are derived from what the code writes (every `world.put` / `world.edit`, the demo world
`demo_world.toml` and `demo.py`). Tables are open: a field not listed here is allowed (later
features add their own) as long as it is plain JSON, but a listed field must have its shape.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from yak_tui.kernel.season.calendar import SEASONS
from yak_tui.kernel.world.numbers import AMOUNT_LIMIT
from yak_tui.kernel.world.pronouns import PRONOUN_CHOICES

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

# The meta table holds one document, `world`.
META = "meta"
META_ID = "world"

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


# -- builders: short names keep the tables below readable ------------------------------------------


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


def _ids(table: str, description: str, *, history: bool = False) -> Field:
    return list_of(text("an id", ref=table, history=history), description)


# -- shared shapes ---------------------------------------------------------------------------------

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

# -- the tables --------------------------------------------------------------------------------------

META_WORLD = TableSchema(
    META,
    "The world's own settings: name, date, counters, undo and history.",
    "always `world`",
    {
        "name": text("the world's name"),
        "date": date("the current season", required=True),
        "schema_version": whole("the save's schema version (migrations lift older saves)", minimum=0),
        "rules_overrides": mapping(any_json("an override"), "house-rule values recorded in the save"),
        "rules_source": text("where the saved house rules came from (`yak rules set DIR`)"),
        "undo": list_of(UNDO_RECORD, "undo records of the current season, newest last"),
        "history": list_of(HISTORY_POINT, "treasury history for the dashboard plot"),
        "map": record(
            {
                "columns": whole("offset columns", required=True, minimum=1),
                "rows": whole("offset rows", required=True, minimum=1),
            },
            "the map's extent, when the GM gave one (hexes off it are errors in a world file)",
        ),
        "seq": whole("a general counter", minimum=0),
        "chronicle_seq": whole("the last chronicle entry number", minimum=0),
        "revision": whole(
            "raised by one by every write of commands (one command, or the commands of one "
            "transaction): a reader that holds the one before need re-read only `changed`",
            minimum=0,
        ),
        "changed": mapping(
            list_of(text("a document id"), "ids"),
            "the documents the last write's commands wrote, by table (deleted ones included)",
            keys=TABLE_NAMES,
        ),
        "deadline": text("the orders deadline of the current season, YYYY-MM-DD HH:MM"),
        "narrative": text("the GM's narrative of the current season, at the top of its season post"),
        "ready": list_of(text("an identity"), "who said he is ready this season"),
        "dice_head": text("the hash of the newest dice-ledger record"),
        "dice_count": whole("how many records the dice ledger holds", minimum=0),
        "dice_since": date("the season the dice ledger started in (older rolls are not chained)"),
        "dice_since_seq": whole("the last chronicle entry written before the dice ledger started", minimum=0),
        **{
            f"next_{name}": whole(f"the last number given to a new {name} id", minimum=0)
            for name in TABLE_NAMES
            if name != META
        },
    },
)

KINGDOMS = TableSchema(
    "kingdoms",
    "Kingdoms: treasury, manpower, influence, ruler and capital.",
    "a slug",
    {
        "name": text("what players read", required=True),
        "ruler": text("the ruling character", required=True, nullable=True, ref="characters"),
        "capital": text("the capital PC", required=True, nullable=True, ref="pcs"),
        "treasury": number("ducats (below zero: in debt)", required=True),
        "manpower": whole("manpower to raise regiments", required=True, minimum=0),
        "influence": number("Influence (Fall of Rome noble commands)", required=True, minimum=0),
        "business_tax": whole("business tax rate, a whole percent", required=True, minimum=0, maximum=100),
        "player": flag("a player kingdom (its King adjudicates)", required=True),
        "color": text("map colour"),
        "faith": text("state faith"),
        "goods": COUNTS,
        "year_counters": mapping(
            whole("count this year"), "per-year counters (hires, sponsorships), reset at year start"
        ),
    },
)

PROVINCES = TableSchema(
    "provinces",
    "Provinces: potentials, resources, faith and market.",
    "a slug",
    {
        "name": text("what players read", required=True),
        "kingdom": text("the kingdom that rules it (absent or null: none)", nullable=True, ref="kingdoms"),
        "surplus_manpower": whole("manpower for slave raids", required=True, minimum=0),
        "surplus_raided": whole("surplus manpower carried off by slave raids, not yet regrown", minimum=0),
        "potentials": mapping(whole("potential"), "potential by sector and trade/urban", required=True),
        "resources": list_of(text("a commodity"), "commodities produced here", required=True),
        "faith": text("the province's faith", required=True),
        "market_allowance": number("the market allowance", required=True),
        "ports": _ids("pcs", "port PCs"),
        "terrain": text("terrain"),
        "potential_penalties": mapping(number("penalty"), "monopoly penalties by potential"),
        "price_modifiers": mapping(number("increments"), "price modifiers by commodity (espionage)"),
        "unrest": list_of(
            record(
                {"date": date("when", required=True), "cause": text("why"), "amount": number("manpower turned")},
                "one unrest event",
            ),
            "unrest to adjudicate",
        ),
    },
)

PCS = TableSchema(
    "pcs",
    "Population centres and significant structures.",
    "a slug",
    {
        "name": text("what players read", required=True),
        "kind": text("town, castle, port, ...", required=True, choices=PC_KINDS),
        "province": text("the province it stands in", required=True, ref="provinces"),
        "hex": HEX,
        "controller": text("the kingdom that holds it", nullable=True, ref="kingdoms"),
        "owner_character": text(
            "a character who owns it (his treasury takes its tax)", nullable=True, ref="characters"
        ),
        "tax": number("ducats of tax a year", required=True, minimum=0),
        "resistance": number("Resistance to Fall of Rome commands", required=True, minimum=0),
        "fort_level": whole("fortification level", required=True, minimum=0),
        "walled": flag("has walls"),
        "capital": flag("a capital"),
        "coastal": flag("on the coast"),
        "port_access": flag("ships can supply it"),
        "holds_treasury_of": list_of(
            text("kingdoms:<id> or characters:<id>", ref=("kingdoms", "characters"), tagged=True),
            "treasuries kept here",
        ),
        "raided_in": date("the last raid", nullable=True),
        "raided_by": text("the last raider", nullable=True, ref="kingdoms", history=True),
        "last_raid": record(
            {
                "date": date("when"),
                "by": text("raider", nullable=True),
                "kind": text("what was taken"),
                "amount": number("how much"),
            },
            "the last raid",
            nullable=True,
        ),
        "tax_taken": number("tax already taken by raids and looting this year", minimum=0),
        "captured_by": text("the captor kingdom", nullable=True, ref="kingdoms"),
        "captured": date("when it was captured", nullable=True),
        "captured_from": text("the kingdom it was taken from", nullable=True, ref="kingdoms", history=True),
        "captured_owner": text("the owner it was taken from", nullable=True, ref="characters", history=True),
        "looted": record(
            {
                "by": text("looter"),
                "date": date("when"),
                "capture": date("the capture looted", nullable=True),
                "tax": number("tax taken"),
                "treasuries": mapping(number("ducats"), "treasuries taken"),
                "businesses": list_of(text("a business id", ref="businesses", history=True), "businesses looted"),
            },
            "the last looting",
            nullable=True,
        ),
        "destroyed": date("when it was dismantled", nullable=True),
        "destroyed_from": record({}, "what it was before it was dismantled", nullable=True),
        "siege": text("the active siege", nullable=True, ref="sieges"),
        "last_besieged": date("the last besieged season end", nullable=True),
        "provisions": number("provisions left by the last siege", nullable=True),
    },
)

CHARACTERS = TableSchema(
    "characters",
    "Characters: kings, nobles, agents, merchants, mages.",
    "a slug",
    {
        "name": text("what players read", required=True),
        "title": text("title", required=True),
        "pronouns": text("he/him, she/her or they/them (left out: they/them)", choices=PRONOUN_CHOICES),
        "kind": text("king, noble, agent, merchant, mage, ..."),
        "kingdom": text("his kingdom", required=True, nullable=True, ref="kingdoms"),
        "location": text(
            "the PC (or a legion's unit) he is in; null once executed",
            required=True,
            nullable=True,
            ref=("pcs", "units"),
        ),
        "legion": text("the friendly legion an Agent rides with", nullable=True, ref="units"),
        "residence": text("where he lives", nullable=True, ref="pcs"),
        "vault": text("where his treasury is kept", nullable=True, ref="pcs"),
        "faith": text("his own faith, where it is not his kingdom's"),
        "treasury": number("ducats", required=True),
        "status": text("fresh, weary or exhausted", required=True, choices=STATUSES),
        "alive": flag("alive", required=True),
        "ranks": mapping(whole("rank", minimum=0), "trained spell ranks (power, control, resolution)"),
        "power_carry": mapping(whole("±1"), "modifier carried to the next Power roll, by power source"),
        "goods": COUNTS,
        "year_counters": mapping(whole("count this year"), "per-year counters, reset at year start"),
        "captive_of": text("the kingdom holding him captive", nullable=True, ref="kingdoms"),
        "estate": record(
            {
                "date": date("when it was settled"),
                "to": text(
                    "characters:<id> (an heir) or kingdoms:<id> (escheat to the crown)",
                    ref=("characters", "kingdoms"),
                    tagged=True,
                ),
            },
            "where a dead character's estate went",
            nullable=True,
        ),
    },
)

UNITS = TableSchema(
    "units",
    "Military units: regiments and ships.",
    "a slug",
    {
        "name": text("what players read", required=True),
        "owner": text(
            "the kingdom that owns it (or bandits, privateers, rebels: irregulars no kingdom owns)",
            required=True,
            ref="kingdoms",
            besides=IRREGULAR_OWNERS,
        ),
        "kind": text("infantry, cavalry, scout, ship, ...", required=True),
        "size": text("patrol ... army", required=True, choices=SIZES),
        "hex": list_of(whole("axial coordinate"), "axial hex (q, r)", required=True),
        "regiments": whole("regiments", minimum=0),
        "ships": whole("ships", minimum=0),
        "sailors": whole("sailors aboard (back to the pool when the ships are disbanded)", minimum=0),
        "guard_of": text("the character whose personal guard it is", nullable=True, ref="characters"),
        "paid_out": date("the season a sponsored band last paid its sponsor", nullable=True),
        "inside": text("the walled PC it garrisons", nullable=True, ref="pcs"),
        "commander": text("the commanding character", nullable=True, ref="characters"),
        "friendly_to": text("a kingdom it fights for", nullable=True, ref="kingdoms"),
        "raised": date("when it was raised"),
        "raised_by": text("the mission that raised it"),
        "suborned_from": text("the kingdom it was suborned from", ref="kingdoms", history=True),
        "upgrades": list_of(
            record({"date": date("when"), "note": text("what"), "cost": number("ducats")}, "one upgrade"), "upgrades"
        ),
    },
)

BUSINESSES = TableSchema(
    "businesses",
    "Businesses: sector, size, owner and goods.",
    "a slug",
    {
        "name": text("what players read", required=True),
        "owner": text("the owning character", required=True, ref="characters"),
        "province": text("where it stands", required=True, ref="provinces"),
        "pc": text("the PC it stands in", nullable=True, ref="pcs"),
        "sector": text("industrial, commercial or service", required=True, choices=SECTORS),
        "size": whole("Size", required=True, minimum=0),
        "invested": number("ducats invested", required=True, minimum=0),
        "monopoly": text("the monopoly it holds", nullable=True, choices=MONOPOLIES),
        "opened": date("when it opened"),
        "stock": COUNTS,
        "warehouse": COUNTS,
        "produced": record(
            {"season": text("the season key"), "goods": whole("goods produced")}, "the last production", nullable=True
        ),
        "trained": record(
            {"year": whole("year"), "count": whole("specialists trained")},
            "training sponsored this year",
            nullable=True,
        ),
        # Read leniently (`economy.year_start._looter`: a kingdom's or a character's id, bare or as
        # `kingdoms:<id>`; one it cannot find takes nothing), so a load does not hold it to one form.
        "income_looted_by": text("the kingdom that looted its income", nullable=True, ref="kingdoms", history=True),
        "income_looted_for": whole("the year whose income was looted", nullable=True),
        "year_counters": mapping(whole("count this year"), "per-year counters, reset at year start"),
    },
)

SPECIALISTS = TableSchema(
    "specialists",
    "Each kingdom's pool of specialists.",
    "the kingdom's id",
    {
        "kingdom": text("the kingdom", required=True, ref="kingdoms"),
        "engineer": whole("engineers", minimum=0),
        "spy": whole("active spies", minimum=0),
        "missionary": whole("missionaries", minimum=0),
        "sailor": whole("sailors", minimum=0),
        "cold_spy": whole("cold spies", minimum=0),
        "counter_spies": record(
            {
                "provinces": _ids("provinces", "provinces with a counter-spy"),
                "nation": whole("nation-wide counter-spies", minimum=0),
            },
            "counter-spies placed",
        ),
        "engineers_assigned": record(
            {
                "siege": mapping(whole("engineers", minimum=0), "engineers by siege engine"),
                "gunpowder": whole("engineers making gunpowder", minimum=0),
            },
            "engineers at work",
        ),
    },
)

ACADEMIES = TableSchema(
    "academies",
    "Academies training specialists.",
    "an id like ac-0001",
    {
        "kingdom": text("the kingdom", required=True, ref="kingdoms"),
        "pc": text("the town it stands in", required=True, ref="pcs"),
        "type": text("the specialist it trains", required=True),
        "level": whole("level", required=True, minimum=0),
        "founded": date("when it was founded"),
    },
)

EFFECTS = TableSchema(
    "effects",
    "Lasting effects: infiltrations, spy missions, traps, counter-missionaries.",
    "an id like fx-0001",
    {
        "kind": text("infiltration, smuggling-ring, trap, counter-missionary, ...", required=True),
        "mission": text("the spy mission that made it"),
        "effect": text("the machine kind, where it differs from kind"),
        "sponsor_kingdom": text("the sponsor", nullable=True, ref="kingdoms"),
        "target_kingdom": text("the target", nullable=True, ref="kingdoms"),
        "holder_kingdom": text("the kingdom that holds it (for the audience filter)", nullable=True, ref="kingdoms"),
        "holder_character": text("the player who filed it", nullable=True, ref="characters"),
        "province": text("the province it acts in", nullable=True, ref="provinces"),
        "commodity": text("the commodity it acts on", nullable=True),
        "character": text("the character it acts on", nullable=True, ref="characters"),
        "unit": text("the unit it acts on", nullable=True, ref="units"),
        "data": mapping(any_json("a value"), "the mission's numbers"),
        "start": date("when it began", nullable=True),
        "end": date("when it ends (null: until removed)", nullable=True),
        "due": date("when it acts", nullable=True),
        "created": date("when it was made", nullable=True),
        "consumed": date("when it was used", nullable=True),
        "ended": date("when it ended", nullable=True),
        "ended_by": text("why it ended"),
        "known_to_target": flag("the target detected the operation"),
        "known_sponsor": flag("the target identified the sponsor"),
        "evidence": text("what the detection roll left"),
        "active": flag("in force"),
        "status": text("assassination attempts: pending or resolved", choices=("pending", "resolved")),
        "result": text("what happened (assassination attempts)"),
        "fight": text("the fight a trap is set for"),
        "bonus": number("a trap's bonus"),
        "engineers": whole("engineers in a trap", minimum=0),
        "ducats": number("a counter-missionary's ducats", minimum=0),
    },
)

SIEGES = TableSchema(
    "sieges",
    "Sieges and their provisions, blockades, messengers and smuggling.",
    "an id like siege-0001",
    {
        "fort": text("the besieged PC", required=True, ref="pcs"),
        "besieger": text("the besieging kingdom", required=True, ref="kingdoms"),
        "defender": text("the defending kingdom", nullable=True, ref="kingdoms"),
        "units": _ids("units", "besieging units"),
        "started": date("when it began"),
        "status": text("active, lifted, surrendered or captured", required=True, choices=SIEGE_STATUSES),
        "ended": date("when it ended", nullable=True),
        "lifted": date("when it was lifted", nullable=True),
        "port_access": flag("the fort can be supplied by sea"),
        "land_blockade": flag("a land blockade is in place"),
        "sea_blockade": flag("a sea blockade is in place"),
        "effective": flag("the siege is in effect"),
        "effective_from": date("since when", nullable=True),
        "provisions": number("provisions in stock", required=True),
        "starting_provisions": number("provisions at the start"),
        "carried_over_from": whole("seasons since the last siege", nullable=True),
        "seasons": whole("besieged season ends", minimum=0),
        "consumption": list_of(
            record(
                {
                    "date": date("when"),
                    "regiments": whole("regiments inside"),
                    "eaten": number("eaten"),
                    "provisions": number("left"),
                    "short": flag("short"),
                },
                "one season end",
            ),
            "what was eaten",
        ),
        "decision_needed": flag("the defenders must choose"),
        "decision": text("surrender or sally", nullable=True, choices=("surrender", "sally")),
        "decided": date("when they chose", nullable=True),
        "decisions": list_of(
            record({"date": date("when"), "choice": text("surrender or sally")}, "one choice"), "choices made"
        ),
        "messengers": list_of(
            record(
                {
                    "date": date("when"),
                    "ducats": number("ducats carried"),
                    "purpose": text("why"),
                    "scouts": _ids("units", "friendly scouts", history=True),
                    "enemy_scouts": _ids("units", "enemy scouts", history=True),
                    "natural": whole("the die"),
                    "modifiers": MODIFIERS,
                    "total": whole("total"),
                    "success": flag("got through"),
                    "odds": number("chance"),
                    "captured_ducats": number("ducats captured"),
                    "carried_left": number("ducats he got out, not yet spent recruiting"),
                },
                "one messenger",
            ),
            "messengers sent",
        ),
        "smuggling": list_of(
            record(
                {
                    "date": date("when"),
                    "merchant": text("merchant", ref="characters", history=True),
                    "good": text("the staple"),
                    "shipments": whole("shipments"),
                    "bribe": number("bribe"),
                    "modifier": whole("modifier"),
                    "natural": whole("the die"),
                    "modifiers": MODIFIERS,
                    "total": whole("total"),
                    "success": flag("got through"),
                    "odds": number("chance"),
                    "provisions_added": number("provisions added"),
                    "paid": number("ducats paid"),
                },
                "one smuggling run",
            ),
            "smuggling runs",
        ),
        "surrendered_units": list_of(
            record(
                {
                    "id": text("unit id"),
                    "name": text("name"),
                    "owner": text("owner", nullable=True),
                    "regiments": whole("regiments"),
                },
                "a unit that surrendered",
            ),
            "units that surrendered",
        ),
    },
)

SCHEDULE = TableSchema(
    "schedule",
    "Events scheduled for the start of a later season.",
    "an id like ev-0001",
    {
        "due": date("the season it falls due", required=True),
        "kind": text("what handles it (reminder, specialists-arrive, ...)", required=True),
        "data": mapping(any_json("a value"), "what the handler needs", required=True),
        "audience": text("who hears of it"),
        "done": flag("already handled"),
    },
)

ORDERS = TableSchema(
    "orders",
    "Orders filed by players and Kings, waiting for their adjudicator.",
    "an id like o-0001",
    {
        "command": text("the command to carry out", required=True),
        "params": mapping(any_json("a parameter as filed"), "its parameters as filed", required=True),
        "filed_by": text("the filer's identity", required=True),
        "character": text("the filing character", nullable=True, ref="characters"),
        "kingdom": text("the filer's kingdom", nullable=True, ref="kingdoms"),
        "adjudicator": text("whose queue it waits in", required=True),
        "private": flag("a private NPC espionage order"),
        "status": text("waiting, resolved, rejected or withdrawn", required=True, choices=ORDER_STATUSES),
        "filed": date("when it was filed"),
        "resolved": date("when it was resolved or rejected"),
        "resolved_by": text("who resolved or rejected it: gm, gm:<name> (a co-GM) or king:<kingdom>"),
        "note": text("the filer's note"),
        "outcome": text("what came of it"),
        "reason": text("why it was rejected"),
        "warning": text("why it would fail on the numbers of the day it was filed (received with a warning)"),
        "entries": _ids("chronicle", "chronicle entries of its resolution", history=True),
    },
)

USERS = TableSchema(
    "users",
    "The SSH roster: who may log in, with which key, as whom.",
    "the login name",
    {
        "identity": text("gm, king:<kingdom> or player:<character>", required=True),
        "key": text("the OpenSSH public key line", required=True),
        "fingerprint": text("the key's SHA256 fingerprint", required=True),
        "added": text("when (UTC, ISO 8601)"),
    },
)

LEDGER = TableSchema(
    "ledger",
    "Credit, loans and bad debts.",
    "an id like cr-0001",
    {
        "kind": text("credit, loan or bad-debt", required=True, choices=("credit", "loan", "bad-debt")),
        "lender": text("the lending business", required=True, ref="businesses", history=True),
        "lender_name": text("its name when the debt was drawn"),
        "lender_owner": text("its owner", ref="characters", history=True),
        "debtor": text("the debtor", required=True, ref="characters"),
        "amount": number("ducats drawn", required=True, minimum=0),
        "outstanding": number("ducats still owed", required=True),
        "owed_to_lender": number("ducats owed to the lender's owner", minimum=0),
        "lender_paid": number("ducats the lender's owner paid for the debtor", minimum=0),
        "bad_debt": number("ducats nobody paid", minimum=0),
        "drawn": date("when it was drawn"),
        "due": date("when it falls due"),
        "date": date("when a bad debt arose"),
        "status": text("open, overdue, repaid, covered or defaulted", required=True, choices=LEDGER_STATUSES),
        "parties": list_of(text("character:<id>"), "who may see it", required=True),
        "history": list_of(
            record(
                {"date": date("when"), "event": text("what"), "amount": number("ducats"), "by": text("who")},
                "one event",
            ),
            "what happened to it",
        ),
        "source": text("the debt a bad debt came from", ref="ledger", history=True),
        "fee": number("the fee paid", minimum=0),
        "terms": text("terms agreed"),
        "collateral": text("collateral"),
        "term_years": whole("a loan's term in years", minimum=0),
        "instalment": number("a loan's yearly instalment", minimum=0),
    },
)

DICE = TableSchema(
    "dice",
    "The dice ledger: every roll, chained by hash; undo never removes a record.",
    "an id like r000001",
    {
        "seq": whole("its place in the chain, from 1", required=True, minimum=1),
        "date": date("the season it was rolled in", required=True),
        "entry": text("the chronicle entry that holds the roll", required=True, ref="chronicle", history=True),
        "roll": record(ROLL.fields or {}, "the roll as recorded", required=True),
        "prev": text("the hash of the record before it", required=True),
        "hash": text("sha256 of this record's canonical JSON without this field", required=True),
    },
)

CHRONICLE = TableSchema(
    "chronicle",
    "The chronicle: everything that happened, with its audience.",
    "an id like e000001",
    {
        "id": text("the entry's own id", required=True),
        "seq": whole("the order things happened in", required=True, minimum=0),
        "date": date("the season it happened in", required=True),
        "kind": text("note, roll, order, season, ...", required=True),
        "text": text("what happened", required=True),
        "audience": text("public, adjudicators, kingdom:<id> or character:<id>", required=True),
        "actor": text("who acted"),
        "command": text("the command that wrote it"),
        "rolls": list_of(ROLL, "the rolls"),
        "amounts": mapping(number("ducats (+ received, - paid)"), "money moved, by table:id"),
        "secret": text("the truth, for adjudicators only"),
        "refs": mapping(any_json("a value"), "what the entry is about"),
        "adjudicator": text("who adjudicated", nullable=True),
        "pending": flag("a spell consequence waiting for its description"),
        "detail": text("the consequence as described"),
        "filled_by": text("the entry that described it", ref="chronicle", history=True),
    },
)

REPORT_ITEM = record(
    {
        "text": text("one line of the report", required=True),
        "details": list_of(text("a roll or a GM note"), "lines under it"),
    },
    "one line",
)
REPORTS = TableSchema(
    "reports",
    "Season reports written by the advance: the public post and each recipient's own.",
    "the season and the recipient, like spring-313/king:elbreth",
    {
        "season": date("the season the report closes", required=True),
        "recipient": text("public, gm, king:<kingdom> or player:<character>", required=True),
        "heading": text("the report's title", required=True),
        "narrative": text("the GM's narrative, at the top of the season post"),
        "footer": list_of(text("a closing line"), "lines at the bottom (the dice ledger's head)"),
        "sections": list_of(
            record(
                {
                    "title": text("the section's title", required=True),
                    "items": list_of(REPORT_ITEM, "its lines"),
                    "kind": text("list (the default) or code: lines to copy as they are", choices=("list", "code")),
                },
                "one section",
            ),
            "holdings, changes, the private chronicle, what is due next",
            required=True,
        ),
        "holdings": mapping(
            any_json("an amount or words"),
            "what the recipient held as the season closed (the next report's changes start here)",
        ),
    },
)

SCHEMAS: dict[str, TableSchema] = {
    schema.name: schema
    for schema in (
        META_WORLD,
        KINGDOMS,
        PROVINCES,
        PCS,
        CHARACTERS,
        UNITS,
        BUSINESSES,
        SPECIALISTS,
        ACADEMIES,
        EFFECTS,
        SIEGES,
        SCHEDULE,
        ORDERS,
        USERS,
        LEDGER,
        DICE,
        CHRONICLE,
        REPORTS,
    )
}

SEASON_CHOICES: tuple[str, ...] = SEASONS
