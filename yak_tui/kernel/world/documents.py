"""The shape of every document of the world file, as declarative data.

One `TableSchema` per table: field name → `Field` (kind, required, choices, minimum, the table a
value names, the shape of list items and nested records, a short description). The loader
validates a whole save against it, a command validates what it touched before it writes, and
front ends can build edit forms from it. The validators live in `yak_tui.kernel.world.validation`.
This module holds the world's things (its meta document, kingdoms, provinces, places, people,
units, businesses) and gathers every table in `SCHEMAS`; the schema language and the shapes the
tables share are in `fields`, the tables of what play records in `records`.

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

from yak_tui.kernel.season.calendar import SEASONS
from yak_tui.kernel.world.fields import (
    COUNTS,
    HEX,
    HISTORY_POINT,
    IRREGULAR_OWNERS,
    MONOPOLIES,
    PC_KINDS,
    SECTORS,
    SIZES,
    STATUSES,
    TABLE_NAMES,
    UNDO_RECORD,
    UNIT_KINDS,
    TableSchema,
    any_json,
    date,
    flag,
    ids_of,
    list_of,
    mapping,
    number,
    record,
    text,
    whole,
)
from yak_tui.kernel.world.pronouns import PRONOUN_CHOICES
from yak_tui.kernel.world.records import CHRONICLE, DICE, EFFECTS, LEDGER, ORDERS, REPORTS, SCHEDULE, SIEGES, USERS

# The meta table holds one document, `world`.
META = "meta"
META_ID = "world"
# The meta document's keys the dice ledger and the fair dice keep (its head, count and start; the
# season commitments and draws): state a world carries (`authoring`), bookkeeping every roll changes.
DICE_STATE_KEYS = ("dice_head", "dice_count", "dice_since", "dice_since_seq", "fair_dice", "fair_draws")


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
        "deadline": text("the orders deadline of the current season, UTC: YYYY-MM-DDTHH:MMZ"),
        "deadline_paused": text("when the GM paused the deadline (UTC); resuming moves it on by the pause"),
        "missed": mapping(whole("seasons missed in a row", minimum=0), "seasons each seat sent no orders, by identity"),
        "narrative": text("the GM's narrative of the current season, at the top of its season post"),
        "ready": list_of(text("an identity"), "who said he is ready this season"),
        "dice_head": text("the hash of the newest dice-ledger record"),
        "dice_count": whole("how many records the dice ledger holds", minimum=0),
        "dice_since": date("the season the dice ledger started in (older rolls are not chained)"),
        "dice_since_seq": whole("the last chronicle entry written before the dice ledger started", minimum=0),
        "fair_dice": mapping(
            record(
                {
                    "public": text("sha256 of the public secret", required=True),
                    "private": text("sha256 of the private secret", required=True),
                    "head": text("the dice ledger's head when the season opened", required=True),
                    "count": whole("the ledger's records when the season opened", required=True, minimum=0),
                    "revealed_public": text("the public secret, revealed when the season closed"),
                    "revealed_private": text("the private secret, revealed when the campaign closed"),
                },
                "one season's commitments",
            ),
            "fair dice commitments by season key (docs/fair-dice.md)",
        ),
        "fair_draws": record(
            {
                "season": text("the season key", required=True),
                "public": whole("public dice derived this season", required=True, minimum=0),
                "private": whole("private dice derived this season", required=True, minimum=0),
            },
            "the counters of the season's derived dice",
        ),
        "campaign_closed": date("when the GM closed the campaign (the private dice secrets are revealed)"),
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
        "regent": text(
            "the late ruler whose kingdom the ruler holds as regent (`gm-death`)", ref="characters", history=True
        ),
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
        "ports": ids_of("pcs", "port PCs"),
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
        "title": text(
            "title; a noble's, an Agent's or the High Priestess's is one of the nobles table's court titles "
            "(Prince, Duke, Count, Baron, Governor, Ambassador, Agent, High Priestess), checked where a person writes it",
            required=True,
        ),
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
        "kind": text(f"one of {', '.join(UNIT_KINDS)} (checked where a person writes it)", required=True),
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
                "provinces": ids_of("provinces", "provinces with a counter-spy"),
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
