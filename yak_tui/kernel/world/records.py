"""The tables of what play records: effects in force, sieges, the schedule, orders, the roster's
users, the ledger of debts, the dice ledger, the chronicle and the reports.

Written in the schema language of `fields`; `documents.SCHEMAS` gathers them with the world's things.
"""

from __future__ import annotations

from yak_tui.kernel.world.fields import (
    LEDGER_STATUSES,
    MODIFIERS,
    ORDER_STATUSES,
    ROLL,
    SIEGE_STATUSES,
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
        "units": ids_of("units", "besieging units"),
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
                    "scouts": ids_of("units", "friendly scouts", history=True),
                    "enemy_scouts": ids_of("units", "enemy scouts", history=True),
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
        "filed_at": text("the moment it was filed, UTC: YYYY-MM-DDTHH:MMZ"),
        "late": flag("filed after the season's deadline"),
        "late_accepted": flag("a late order the GM accepted"),
        "standing": flag("repeated each season the seat sends nothing, until withdrawn (NMR policy standing)"),
        "standing_of": text("the id of the standing order this one repeats"),
        "entries": ids_of("chronicle", "chronicle entries of its resolution", history=True),
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
        "zone": text("the IANA time zone he reads deadlines in, e.g. Asia/Tokyo"),
        "since": date("the season this login began to play its present identity"),
        "tenure": list_of(
            record(
                {
                    "identity": text("the identity he played", required=True),
                    "since": date("from this season (when known)"),
                    "until": date("until this season: the character's death", required=True),
                },
                "one identity this login played",
            ),
            "the seats this login played before, oldest first (a character dead, the seat passed to his heir)",
        ),
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
        "roll": record(ROLL.fields or {}, "the roll as recorded (every record but a restore's)"),
        "restore": record(
            {
                "backup": text("the backup restored", required=True),
                "seasons": list_of(text("a season key"), "the seasons rolled back", required=True),
                "rolls": whole("how many rolls were abandoned", required=True, minimum=0),
                "abandoned": list_of(any_json("a ledger record"), "the abandoned records, as they were", required=True),
            },
            "a restore or rollback: what it abandoned (kept here, so re-rolls show)",
        ),
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
        "gm_text": text("what its adjudicators read in place of `text` when `text` is a cover story (RULINGS §7)"),
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
