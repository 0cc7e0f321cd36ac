"""Commands as forms: the inputs a form draws, checking what is typed, the odds before rolling,
dice typed by hand, the rolls and lines a command just wrote, and the one rule deciding whether
a viewer runs a command now or files it as an order for its adjudicator.

Every screen that offers a command (the command dialog, the order dialog, the casting and map
screens, the market's dialogs) asks here, so the answer is the same everywhere. Refusals are
`YakError`s turned into a `Problem`; anything else is a bug and is left to raise.
No Textual in this module.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, NamedTuple

from yak_tui.kernel.errors import CommandError, DiceError, ShortfallError, StoreError, ValidationError, YakError
from yak_tui.kernel.play.audience import ADJUDICATORS, PUBLIC, filter_entry, owner_of, visible_table
from yak_tui.kernel.play.identity import GM, Identity, identity_name, who_may_words
from yak_tui.kernel.world.fields import field_words
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.numbers import shown
from yak_tui.kernel.world.tables import table as rules_table


class Choice(NamedTuple):
    """One entry of a closed list: the value a command reads and the label a person reads."""

    value: str
    label: str


class ParamField(NamedTuple):
    name: str
    kind: str  # "str", "int", "float", "bool", "list"
    required: bool
    default: str
    help: str
    options: tuple[Choice, ...] = ()  # a closed list (choices, a referenced table, audiences)


class CommandChoice(NamedTuple):
    name: str
    help: str
    category: str
    fields: tuple[ParamField, ...]
    rolls: bool
    has_odds: bool


def audience_choices(world: World, viewer: Identity) -> tuple[Choice, ...]:
    out = [Choice(PUBLIC, "public"), Choice(ADJUDICATORS, "adjudicators")]
    for kid, doc in sorted(visible_table(world, viewer, "kingdoms").items()):
        if viewer.is_gm or (viewer.is_king and viewer.subject == kid):
            out.append(Choice(f"kingdom:{kid}", f"kingdom · {doc.get('name', kid)}"))
    for cid, doc in sorted(visible_table(world, viewer, "characters").items()):
        if viewer.is_gm or (viewer.is_player and viewer.subject == cid):
            out.append(Choice(f"character:{cid}", f"character · {doc.get('name', cid)}"))
    return tuple(out)


def _mission_name(slug: str) -> str:
    """A mission as the loaded espionage table names it ("Infiltrate Treasury"); an unknown slug in words."""
    from yak_tui.kernel.world.tables import table

    for row in table("espionage").get("missions", []):
        if row.get("slug") == slug:
            return str(row["name"])
    return slug.replace("-", " ").capitalize()


def _seat_name(world: World, seat: str) -> str:
    from yak_tui.kernel.play.identity import IdentityError

    try:
        return identity_name(world, Identity.parse(seat))
    except IdentityError:
        return seat


def document_words(world: World, table: str, doc_id: str, doc: Mapping[str, Any]) -> str:
    """What a person calls a document: its name, or for the nameless ones (orders, effects, sieges,
    debts) a few words from its fields ("Corvin Hale: spy mission, Fund Bandits", "Infiltrate
    Treasury on Kingdom of Varos"); the id only when nothing better is there."""
    if doc.get("name"):
        return str(doc["name"])
    if table == "orders" and doc.get("command"):
        mission = (doc.get("params") or {}).get("mission")
        what = str(doc["command"]).replace("-", " ") + (f", {_mission_name(str(mission))}" if mission else "")
        return f"{_seat_name(world, str(doc.get('filed_by', '')))}: {what}"
    if table == "effects" and (doc.get("mission") or doc.get("kind")):
        target = doc.get("target_kingdom") or doc.get("holder_kingdom")
        on = f" on {world.display_name('kingdoms', str(target))}" if target else ""
        what = _mission_name(str(doc["mission"])) if doc.get("mission") else str(doc["kind"]).replace("-", " ")
        return f"{what}{on}"
    if table == "sieges" and doc.get("fort"):
        return f"siege of {world.display_name('pcs', str(doc['fort']))}"
    if table == "ledger" and doc.get("kind"):
        return f"{doc['kind']} of {doc.get('amount', '?')} ducats"
    if table in ("specialists", "academies") and doc.get("kingdom"):
        return f"{world.display_name('kingdoms', str(doc['kingdom']))}'s {table[:-1]}"
    return doc_id


def own_documents(
    world: World, viewer: Identity, table: str, docs: Mapping[str, dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """Of `docs`, those the viewer holds (`audience.owner_of`): a player's own, a King's kingdom's;
    the GM holds every one. An order acts on the filer's own holdings: its form offers no others
    (a captor's dismantling names a business he does not own, and keeps the whole list)."""
    if viewer.is_gm:
        return dict(docs)
    out = {}
    for doc_id, doc in docs.items():
        kingdom, character = owner_of(world, table, doc_id, doc)
        if (viewer.is_player and character == viewer.subject) or (viewer.is_king and kingdom == viewer.subject):
            out[doc_id] = doc
    return out


def default_text(param: Any) -> str:
    """A parameter's default as a form shows it: lists comma-separated, booleans lower-case."""
    default = param.default
    if default is None:
        return ""
    if isinstance(default, list):
        return ",".join(str(item) for item in default)
    if param.kind is bool:
        return str(default).lower()
    return str(default)


def param_fields(world: World, viewer: Identity, name: str, *, order: bool = False) -> tuple[ParamField, ...]:
    """The inputs a form draws for a command, with closed lists already filtered for the viewer; an
    order's form leaves out what its adjudicator sets (`Param.by_adjudicator`)."""
    from yak_tui.kernel.play.commands import spec_for

    spec = spec_for(name)
    fields = []
    for pname, param in spec.params.items():
        if order and param.by_adjudicator:
            continue
        options: tuple[Choice, ...] = ()
        if param.choices:
            options = tuple(Choice(str(c), str(c)) for c in param.choices)
        elif param.ref:
            docs = visible_table(world, viewer, param.ref)
            if order and param.ref == "businesses" and "captor" not in spec.params:
                docs = own_documents(world, viewer, param.ref, docs)
            options = tuple(
                Choice(i, document_words(world, param.ref, i, d))
                for i, d in sorted(docs.items(), key=lambda item: str(item[1].get("name", item[0])))
            )
        elif param.options is not None:
            options = tuple(Choice(value, label) for value, label in param.options(world, viewer))
        elif pname == "audience":
            options = audience_choices(world, viewer)
        fields.append(
            ParamField(pname, param.kind.__name__, param.required, default_text(param), param.help_text, options)
        )
    return tuple(fields)


def command_choice(world: World, viewer: Identity, name: str, *, order: bool = False) -> CommandChoice:
    from yak_tui.kernel.play.commands import spec_for

    spec = spec_for(name)
    return CommandChoice(
        spec.name,
        spec.help_text,
        spec.category,
        param_fields(world, viewer, name, order=order),
        spec.rolls,
        spec.odds is not None,
    )


def order_commands(world: World, viewer: Identity) -> tuple[CommandChoice, ...]:
    """The commands this identity may file as an order (`kernel.play.filing`), each as an order's form."""
    from yak_tui.kernel.play.commands import COMMANDS, load_command_modules
    from yak_tui.kernel.play.filing import may_file

    load_command_modules()
    return tuple(
        command_choice(world, viewer, name, order=True)
        for name, spec in sorted(COMMANDS.items())
        if may_file(viewer, spec)
    )


def all_commands() -> tuple[tuple[str, str, str], ...]:
    """(name, help, category) of every registered command, for the command palette."""
    from yak_tui.kernel.play.commands import COMMANDS, load_command_modules

    load_command_modules()
    return tuple((n, s.help_text, s.category) for n, s in sorted(COMMANDS.items()))


class Problem(NamedTuple):
    """A refused command or form: which field, why, and who may do it instead."""

    field: str
    reason: str
    who_may: tuple[str, ...] = ()

    def message(self) -> str:
        """The refusal as a person reads it: "Mission: … — who may: the GM" (never `order.mission`)."""
        who = f" — who may: {self.who_may_words()}" if self.who_may else ""
        return f"{self.what()}{who}"

    def what(self) -> str:
        """The field in words and why: "Mission: Infiltrate Treasury needs …"."""
        return f"{field_words(self.field.rsplit('.', 1)[-1])}: {self.reason}"

    def who_may_words(self) -> str:
        """Who may, in words and each once: "the GM, the King of Elbreth" (never `king:elbreth`)."""
        return who_may_words(self.who_may)


def problem_of(error: BaseException) -> Problem:
    """A refusal as a form shows it: the field at fault, why, and who may.

    Anything that is not a `YakError` is a bug; it is still shown (a worker has no one else to
    tell) but named as such, with its type.
    """
    if isinstance(error, CommandError):
        return Problem(error.field, error.reason, tuple(error.who_may))
    if isinstance(error, ValidationError):
        return Problem(error.field, error.reason)
    if isinstance(error, DiceError):
        return Problem("dice", str(error))
    if isinstance(error, StoreError):
        return Problem("save", str(error))
    if isinstance(error, YakError):
        return Problem("error", str(error))
    return Problem("error", f"internal error ({type(error).__name__}): {error}")


def clean_params(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Form values as the command layer reads them (empty text means 'not given')."""
    return {k: v for k, v in raw.items() if v not in (None, "")}


def check_command(
    world: World, viewer: Identity, name: str, raw: Mapping[str, Any], principal: Identity | None = None
) -> Problem | None:
    """Validate a command as typed, on a throwaway copy (nothing is written)."""
    from yak_tui.kernel.play.commands import validate_only

    try:
        validate_only(world, viewer, name, clean_params(raw), principal)
    except YakError as error:
        return problem_of(error)
    return None


def check_order(
    world: World, filer: Identity, name: str, raw: Mapping[str, Any], private: bool = False
) -> Problem | None:
    """Would `order-file` accept this order right now? (the filing rule, then checked as the
    adjudicator would carry it out)."""
    from yak_tui.kernel.play.commands import spec_for, validate_only
    from yak_tui.kernel.play.filing import check_filing, is_private

    try:
        spec = spec_for(name)
        check_filing(filer, spec, clean_params(raw))
    except CommandError as error:
        return problem_of(error)
    if private and not is_private(spec):
        return Problem("private", "only NPC espionage missions may be submitted privately (RULINGS §1)")
    try:
        validate_only(world, GM, name, clean_params(raw), principal=filer, viewer=filer)
        problem = None
    except ShortfallError:  # today's numbers fall short: received with a warning, not refused
        problem = None
    except YakError as error:
        problem = problem_of(error)
    if problem is not None:
        return Problem(
            f"order.{problem.field}" if not problem.field.startswith("order") else problem.field,
            problem.reason,
            problem.who_may,
        )
    return None


def odds_words(odds: Mapping[str, float], command: str = "", params: Mapping[str, Any] | None = None) -> str:
    """Odds as a filer reads them: "succeeds 58%, fails 42%" (the keys in words, `outcomes`)."""
    from yak_tui.kernel.play.outcomes import odds_row_words

    outcomes = rules_table("words").get("outcomes", {})  # once for the line's rows (7 for an RtD), not per row
    return ", ".join(odds_row_words(str(key), float(value), command, params, outcomes) for key, value in odds.items())


def odds_text(command: str, params: Mapping[str, Any], data: Mapping[str, Any]) -> str:
    """A command's odds (`CommandSpec.odds`) as `yak do NAME --odds` prints them: each chance a line
    in words ("  succeeds unseen: 22%"), grouped under its heading, then the other values."""
    from yak_tui.kernel.play.outcomes import odds_row_words, outcome_words

    lines = [f"Odds of {command}:"]

    def chances(values: Mapping[str, Any], pad: str) -> None:
        for key, value in values.items():
            if isinstance(value, Mapping):
                lines.append(f"{pad}{outcome_words(str(key))}:")
                chances(value, pad + "  ")
            elif isinstance(value, int | float) and not isinstance(value, bool):
                lines.append(pad + odds_row_words(str(key), float(value), command, params))

    odds = data.get("odds")
    if isinstance(odds, Mapping):
        chances(odds, "  ")
    for key, value in data.items():
        if key == "odds" or isinstance(value, Mapping | list) or value is None:
            continue
        if isinstance(value, float) and 0.0 <= value <= 1.0:
            lines.append("  " + odds_row_words(str(key), value, command, params))
        else:
            lines.append(f"  {str(key).replace('_', ' ')}: {value}")
    return "\n".join(lines)


def order_filed_text(world: World, data: Mapping[str, Any]) -> str:
    """The notice after filing an order: received (or received with a warning), who it waits for,
    by name, and the odds where there are dice (the order's id stays in --json)."""
    adjudicator = Identity.parse(str(data.get("adjudicator") or "gm"))
    warnings = [str(w) for w in data.get("warnings") or []]
    head = "Order received with a warning" if warnings else "Order received"
    text = f"{head}; it waits for {identity_name(world, adjudicator)}."
    text += "".join(f" Warning: {w}." for w in warnings)
    if data.get("odds"):
        order = world.find("orders", str(data.get("order") or "")) if data.get("order") else None
        command = str(order.get("command", "")) if order else ""
        text += f" Odds: {odds_words(data['odds'], command, (order or {}).get('params'))}."
    return text


def order_file_params(name: str, raw: Mapping[str, Any], private: bool = False, note: str = "") -> dict[str, Any]:
    """The `order-file` parameters for an order written in a form."""
    import orjson

    return {"command": name, "params": orjson.dumps(clean_params(raw)).decode(), "private": private, "note": note}


class Route(NamedTuple):
    """How a viewer carries out a command: now (`as_order` false) or filed as an order for its
    adjudicator (`as_order` true); `problem` is what stands in the way of that, if anything;
    `refusal`, for an order, is why the viewer may not run it himself."""

    as_order: bool
    problem: Problem | None
    refusal: Problem | None = None


def command_route(world: World, viewer: Identity, name: str, raw: Mapping[str, Any]) -> Route:
    """The one rule deciding "run it now or file it as an order".

    The command is tried as typed (nothing is written). A refusal about who may act turns, for
    anyone but the GM, into an order checked as its adjudicator would carry it out; any other
    refusal, or the GM's, stands as it is.
    """
    problem = check_command(world, viewer, name, raw)
    if problem is not None and problem.field == "identity" and not viewer.is_gm and not viewer.is_observer:
        return Route(True, check_order(world, viewer, name, raw), problem)
    return Route(False, problem)


class OddsView(NamedTuple):
    rows: tuple[tuple[str, float], ...]
    extra: tuple[tuple[str, float], ...] = ()
    notes: tuple[str, ...] = ()  # lines in words beside (or instead of) the chances: a battle's modifiers


def _lenient(spec: Any) -> Any:
    """The spec with every parameter optional, made once per spec (`yak orders` asks per order line)."""
    known = _LENIENT.get(spec.name)
    if known is None or known[0] is not spec:
        lenient = replace(spec, params={k: replace(p, required=False) for k, p in spec.params.items()})
        known = _LENIENT[spec.name] = (spec, lenient)
    return known[1]


_LENIENT: dict[str, tuple[Any, Any]] = {}


def command_odds(
    world: World, viewer: Identity, name: str, raw: Mapping[str, Any], adjudicator: Identity | None = None
) -> OddsView | None:
    """Exact odds of each outcome before rolling (CommandSpec.odds), or None if it rolls none or input is bad.

    For `order-resolve` the odds are those of the order being carried out: as its adjudicator (the
    viewer) will roll it, with every modifier, where the command says how (`adjudicated_odds`).
    `adjudicator`: `viewer` is an order's filer, and these are the odds its adjudicator reads.
    """
    from yak_tui.kernel.play.commands import spec_for
    from yak_tui.kernel.play.params import coerce_params

    try:
        spec = spec_for(name)
        # Odds depend on the modifiers, not on the text still to be typed: missing required
        # parameters are left at their defaults rather than refusing to show any odds.
        params = coerce_params(_lenient(spec), clean_params(raw), world)
        actor = viewer
        if name == "order-resolve":
            if params.get("order") is None:
                return None
            order = world.get("orders", params["order"])
            spec = spec_for(order["command"])
            actor = Identity.parse(order["filed_by"])
            params = coerce_params(spec, order.get("params", {}), world)
            adjudicator = viewer
        if spec.odds is None:
            return None
        if adjudicator is not None and spec.adjudicated_odds is not None:
            data = spec.adjudicated_odds(world, actor, adjudicator, params)
        else:
            data = spec.odds(world, actor, params)
    except YakError:  # input still being typed: no odds yet; a bug raises
        return None
    odds = data.get("odds", data)
    rows = tuple((str(k), float(v)) for k, v in odds.items() if isinstance(v, int | float))
    # Extras are probabilities (the odds JSON convention); counts, costs and percents beside them are not.
    extra = tuple(
        (str(k), float(v)) for k, v in data.items() if k != "odds" and isinstance(v, float) and 0.0 <= v <= 1.0
    )
    notes = tuple(str(line) for line in data.get("notes") or ())
    return OddsView(rows, extra, notes)


def parse_naturals(text: str) -> tuple[list[int], str | None]:
    """Naturals typed off physical dice (`4` or `4, 2`): each a whole number 1..6."""
    naturals: list[int] = []
    items = [item.strip() for item in text.replace(" ", ",").split(",") if item.strip()]
    if not items:
        return [], "type the dice as rolled, e.g. 4 or 4,2"
    for index, item in enumerate(items, start=1):
        if not (item.isascii() and item.isdecimal()) or len(item) > 3:  # "٣" or "²": only the digits 0-9
            return [], f"die {index} is {shown(item)}, not a whole number from 1 to 6"
        value = int(item)
        if not 1 <= value <= 6:
            return [], f"die {index} is {value}, but a d6 shows 1 to 6"
        naturals.append(value)
    return naturals, None


def check_hand_dice(
    world: World, viewer: Identity, name: str, raw: Mapping[str, Any], naturals: list[int]
) -> str | None:
    """Are these hand-rolled naturals exactly what the command will read? (trial run, nothing written)"""
    from yak_tui.kernel.play.commands import apply_command
    from yak_tui.kernel.play.dice import HandDice

    dice = HandDice(naturals)
    try:
        apply_command(world.trial(), viewer, name, clean_params(raw), dice)
    except YakError as error:
        return problem_of(error).message()
    if dice.remaining:
        return f"{len(naturals)} dice typed, but the roll reads only {dice.used}"
    return None


# -- rolls just made --------------------------------------------------------------------------------


class RollView(NamedTuple):
    """One roll as the viewer may see it: naturals are None for someone else's blind roll."""

    purpose: str
    naturals: tuple[int, ...] | None
    modifiers: tuple[tuple[int, str], ...]
    total: int | None
    band: str
    outcome: str
    blind: bool
    manual: bool
    line: str
    # How many dice a hidden blind roll threw: drawn as that many ghost dice, never a face.
    ghosts: int = 0
    reading: str = ""  # a roll that is not naturals plus modifiers, as a reader checks it


def roll_views(world: World, viewer: Identity, entries: Iterable[Mapping[str, Any]]) -> tuple[RollView, ...]:
    """The rolls of the entries a command just wrote, through the audience filter."""
    from yak_tui.kernel.play.chronicle import roll_line
    from yak_tui.kernel.play.outcomes import outcome_words

    out = []
    for entry in entries:
        shown = filter_entry(world, viewer, dict(entry))
        if shown is None:
            continue
        for roll in shown.get("rolls", []):
            hidden = "naturals" not in roll
            out.append(
                RollView(
                    purpose=str(roll.get("purpose", "roll")),
                    naturals=None if hidden else tuple(int(n) for n in roll.get("naturals", [])),
                    modifiers=()
                    if hidden
                    else tuple((int(m["value"]), str(m["reason"])) for m in roll.get("modifiers", [])),
                    total=None if hidden else roll.get("total"),
                    band="" if hidden else outcome_words(str(roll.get("band", ""))) if roll.get("band") else "",
                    outcome=str(roll.get("outcome", "")),
                    blind=bool(roll.get("blind")),
                    manual=roll.get("source") == "manual",
                    line=roll_line(roll),
                    ghosts=int(roll.get("ghosts", 1)) if hidden else 0,
                    reading="" if hidden else str(roll.get("reading", "")),
                )
            )
    return tuple(out)


def result_lines(world: World, viewer: Identity, entries: Iterable[Mapping[str, Any]]) -> tuple[str, ...]:
    """The chronicle lines a command wrote, as far as the viewer may see them."""
    out = []
    for entry in entries:
        shown = filter_entry(world, viewer, dict(entry))
        if shown is not None:
            out.append(str(shown.get("text", "")))
    return tuple(out)
