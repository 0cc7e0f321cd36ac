"""Commands: every state change is a named command with validated parameters, applied in
one store transaction (lock, reload, validate, apply, chronicle, write once).

A command that fails leaves the save byte-for-byte unchanged, and says which field is wrong.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from yak_tui.kernel.errors import CommandError as CommandError  # what an area's command raises, beside its spec
from yak_tui.kernel.errors import RuleInputError, ShortfallError, YakError
from yak_tui.kernel.play.areas import AREA_PACKAGES
from yak_tui.kernel.play.audience import PUBLIC, can_see_document, filter_entry, validate_audience
from yak_tui.kernel.play.authority import Stakes, Verdict, may_adjudicate
from yak_tui.kernel.play.dice import Dice, RecordingDice, RollRecord, ScriptedDice, SeededDice
from yak_tui.kernel.play.dicechain import TABLE as LEDGER
from yak_tui.kernel.play.dicechain import chain_rolls, record_id
from yak_tui.kernel.play.helptext import HelpText, help_text
from yak_tui.kernel.play.identity import Identity, identity_name
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import META, ValidationError, World
from yak_tui.kernel.world.money import ducats, money, shown_money
from yak_tui.kernel.world.numbers import NumberError, parse_number, parse_whole, shown
from yak_tui.kernel.world.validation import hidden_character, json_problem, validate_world
from yak_tui.store.storage import WorldFile


def gm_refusal(what: str, identity: Identity) -> CommandError:
    return CommandError("identity", f"only the GM may {what} (you are {identity})", ("gm",))


@dataclass(frozen=True)
class Param:
    """One command parameter: its type and whether it must be given."""

    kind: type = str  # str, int, float, bool, list (comma-separated)
    required: bool = True
    default: Any = None
    choices: tuple[str, ...] = ()
    help: HelpText = ""  # read it as `help_text`: it may be formatted from the tables
    minimum: float | None = None
    ref: str | None = None  # table the value names (ids or names accepted)
    maximum: float | None = None  # numbers: within ±yak_tui.kernel.world.numbers.LIMIT by default
    label: Callable[[str], str] | None = None  # how a reader names a value that is no document (a mission by its name)
    # A value the adjudicator sets when he carries a command out (a modifier, its reason, who hears
    # of it), never its filer: an order that gives one is refused (`kernel.play.filing`).
    by_adjudicator: bool = False

    @property
    def help_text(self) -> str:
        """The help as every front end shows it, with the loaded tables' numbers."""
        return help_text(self.help)


@dataclass
class CommandSpec:
    name: str
    help: HelpText  # read it as `help_text`: it may be formatted from the tables
    params: dict[str, Param]
    handler: Callable[[CommandContext, dict[str, Any]], dict[str, Any] | None]
    category: str = "general"
    # Optional exact odds before rolling, for the GM's roll flow.
    odds: Callable[[World, Identity, dict[str, Any]], dict[str, Any]] | None = None
    # Optional: the stakes, for orders that wait in an adjudicator's queue.
    stakes: Callable[[World, Identity, dict[str, Any]], Stakes] | None = None
    undoable: bool = True
    rolls: bool = False
    # Non-empty for commands only the GM may run: what he does ("play out assassination
    # attempts"). Checked before any parameter is looked up, so a refusal tells nothing.
    gm_only: str = ""
    # Who may file it as an order for his own holdings (RULINGS §1, `kernel.play.filing`): the roles
    # named here ("king", "player"); nobody when empty (the GM's acts, the adjudicator's, the queue's).
    filed_by: tuple[str, ...] = ()

    @property
    def help_text(self) -> str:
        """The help as every front end shows it, with the loaded tables' numbers."""
        return help_text(self.help)


COMMANDS: dict[str, CommandSpec] = {}

# Who may file a command as an order (`command(filed_by=...)`): a King for his kingdom's acts, or any
# seat, King or player, for what is his own.
KING: tuple[str, ...] = ("king",)
SEATS: tuple[str, ...] = ("king", "player")


def command(
    name: str,
    help: HelpText,
    params: dict[str, Param] | None = None,
    *,
    category: str = "general",
    odds: Callable[[World, Identity, dict[str, Any]], dict[str, Any]] | None = None,
    stakes: Callable[[World, Identity, dict[str, Any]], Stakes] | None = None,
    undoable: bool = True,
    rolls: bool = False,
    gm_only: str = "",
    filed_by: tuple[str, ...] = (),
) -> Callable[
    [Callable[[CommandContext, dict[str, Any]], dict[str, Any] | None]],
    Callable[[CommandContext, dict[str, Any]], dict[str, Any] | None],
]:
    """Register a world command under `name` (the `yak do NAME` verb). A `help` that quotes a
    number from the rules is a function formatting it from the tables (`kernel.play.helptext`).

    `filed_by` names the seats that may file it as an order (`SEATS`, `KING`); a GM act never is."""
    if gm_only and filed_by:
        raise ValueError(f"{name}: a GM act ({gm_only}) is never filed as an order")
    unknown_roles = set(filed_by) - set(SEATS)
    if unknown_roles:
        raise ValueError(f"{name}: filed_by names no seat: {', '.join(sorted(unknown_roles))}")

    def wrap(
        fn: Callable[[CommandContext, dict[str, Any]], dict[str, Any] | None],
    ) -> Callable[[CommandContext, dict[str, Any]], dict[str, Any] | None]:
        COMMANDS[name] = CommandSpec(
            name, help, params or {}, fn, category, odds, stakes, undoable, rolls, gm_only, tuple(filed_by)
        )
        return fn

    return wrap


def spec_for(name: str) -> CommandSpec:
    load_command_modules()
    spec = COMMANDS.get(name)
    if spec is None:
        import difflib

        close = difflib.get_close_matches(name, list(COMMANDS), n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else f"; commands: {', '.join(sorted(COMMANDS))}"
        raise CommandError("command", f"no command named {name!r}{hint}")
    return spec


def load_command_modules() -> None:
    """Import every area package (and the kernel's own order commands): importing an area's
    package registers its commands and year-start steps. Kept in one list, in one place."""
    import importlib

    for module in COMMAND_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise


# The area packages (each registers its commands when imported), then the kernel's own order and readiness commands.
COMMAND_MODULES = (*AREA_PACKAGES, "yak_tui.kernel.play.orders", "yak_tui.kernel.season.readiness")


def coerce_params(
    spec: CommandSpec, raw: Mapping[str, Any], world: World | None = None, viewer: Identity | None = None
) -> dict[str, Any]:
    """Strings from the command line or a form become typed, validated values.

    References (`Param.ref`) are looked up as `viewer` may see them: a name matches only a
    document he may see, and a refusal suggests only ids he may see.
    """
    unknown = set(raw) - set(spec.params)
    if unknown:
        known = ", ".join(spec.params) or "none"
        first = sorted(unknown, key=str)[0]
        raise CommandError(str(first), f"{spec.name} takes no parameter {shown(first)} (it takes: {known})")
    # Types first, for every value given; then what is missing; references last, so a bad number
    # is named as such whatever else is wrong.
    given = {name: raw[name] for name in spec.params if name in raw and not _blank(raw[name])}
    values: dict[str, Any] = {}
    for name, value in given.items():
        param = spec.params[name]
        value = _coerce(name, param, value)
        if param.choices and value not in param.choices:
            raise CommandError(name, f"must be one of {', '.join(param.choices)}, not {shown(value)}")
        values[name] = value
    for name, param in spec.params.items():
        if name not in given:
            if param.required:
                raise CommandError(name, f"is required ({param.help_text or param.kind.__name__})")
            values[name] = copy.deepcopy(param.default)
    if world is not None:
        visible = visible_to(world, viewer)
        for name, param in spec.params.items():
            if param.ref and name in given and isinstance(values[name], str):
                try:
                    values[name] = world.resolve_ref(param.ref, values[name], visible)
                except ValidationError as error:
                    raise CommandError(name, error.reason) from None
    return {name: values[name] for name in spec.params}


def _blank(value: Any) -> bool:
    return value is None or (isinstance(value, str) and value == "")


def _coerce(name: str, param: Param, value: Any) -> Any:
    if param.kind is bool:
        if isinstance(value, bool):
            return value
        text = str(value).strip().lower()
        if text in ("1", "true", "yes", "y", "on"):
            return True
        if text in ("0", "false", "no", "n", "off"):
            return False
        raise CommandError(name, f"must be true or false, not {shown(value)}")
    if param.kind in (int, float):
        parse = parse_whole if param.kind is int else parse_number
        try:
            return parse(value, param.minimum, param.maximum)
        except NumberError as error:
            raise CommandError(name, str(error)) from None
    if param.kind is list:
        items = (
            [str(item) for item in value]
            if isinstance(value, list)
            else [item.strip() for item in str(value).split(",") if item.strip()]
        )
        for item in items:
            _plain_text(name, item)
        return items
    if isinstance(value, (dict, list)):
        raise CommandError(name, f"must be text, not {shown(value)}")
    return _plain_text(name, str(value))


def _plain_text(name: str, text: str) -> str:
    """Text a person gave a command, refused if it holds a character that reorders or hides text
    (the same rule as every text field of a document)."""
    hidden = hidden_character(text)
    if hidden is not None:
        raise CommandError(name, hidden)
    return text


def visible_to(world: World, viewer: Identity | None) -> Callable[[str, str, dict[str, Any]], bool] | None:
    """Which documents `viewer` may see (None: all of them, for the GM or no viewer)."""
    if viewer is None or viewer.is_gm:
        return None

    def visible(table: str, doc_id: str, doc: dict[str, Any]) -> bool:
        if table == "chronicle":
            return filter_entry(world, viewer, doc) is not None
        if table == "meta":
            return False
        return can_see_document(world, viewer, table, doc_id, doc) != "none"

    return visible


@dataclass
class CommandResult:
    command: str
    data: dict[str, Any]
    entries: list[dict[str, Any]] = field(default_factory=list)
    rolls: list[RollRecord] = field(default_factory=list)
    # The entries as the identity who ran the command may read them (run_command fills it in; an
    # order's resolution also writes entries meant for its target only).
    shown: list[dict[str, Any]] | None = None
    # The JSON reply, serialised inside the transaction before the write (see run_command).
    encoded: bytes = b""

    def payload(self) -> dict[str, Any]:
        """The reply to a front end: the command's data and the ids of the entries it may read."""
        entries = self.entries if self.shown is None else self.shown
        return {"command": self.command, "ok": True, **self.data, "entries": [e["id"] for e in entries]}


class CommandContext:
    """What a command handler gets: the world, who acts, the dice, and the chronicle."""

    def __init__(
        self, world: World, identity: Identity, dice: Dice, command: str, principal: Identity | None = None
    ) -> None:
        self.world = world
        self.identity = identity
        # Whose holdings the command acts on: the filer of an order the adjudicator resolves.
        self.principal = principal or identity
        self.dice = RecordingDice(dice)
        self.command = command
        self.entries: list[dict[str, Any]] = []
        self.rolls: list[RollRecord] = []
        self.adjudicator: str | None = None

    @property
    def date(self) -> GameDate:
        return self.world.date

    # -- authority ------------------------------------------------------------------------------
    def require_gm(self, what: str = "this command") -> None:
        if not self.identity.is_gm:
            raise gm_refusal(what, self.identity)

    def require_adjudicator(self, stakes: Stakes) -> Verdict:
        verdict = may_adjudicate(self.world, self.identity, stakes)
        if not verdict.allowed:
            raise CommandError("identity", verdict.reason, verdict.who_may)
        self.adjudicator = str(self.identity)
        return verdict

    def require_acts_for(self, kingdom: str | None = None, character: str | None = None) -> None:
        """The principal controls this kingdom or character (the GM acts for anyone)."""
        ident = self.principal
        if ident.is_gm:
            return
        if ident.is_king and kingdom is not None and ident.subject == kingdom:
            return
        if ident.is_king and character is not None:
            k = self.world.find("kingdoms", ident.subject) or {}
            if k.get("ruler") == character:
                return
        if ident.is_player and character is not None and ident.subject == character:
            return
        owner = (
            self.world.display_name("kingdoms", kingdom)
            if kingdom
            else self.world.display_name("characters", character)
        )
        raise CommandError("identity", f"{identity_name(self.world, ident)} does not act for {owner}", ("gm",))

    def fail(self, field: str, reason: str) -> None:
        raise CommandError(field, reason)

    # -- dice -----------------------------------------------------------------------------------
    def record_roll(
        self,
        purpose: str,
        naturals: list[int],
        total: int,
        band: str,
        modifiers: list[Any] | None = None,
        audience: str = PUBLIC,
        blind: bool = False,
        outcome: str = "",
        reading: str = "",
    ) -> RollRecord:
        """Record a roll for the chronicle; `reading` is the hand-checkable line of a roll that is
        not naturals plus modifiers (see `chronicle.roll_line`)."""
        seed = getattr(self.dice.inner, "seed", None)
        record = RollRecord(
            purpose=purpose,
            naturals=list(naturals),
            modifiers=list(modifiers or []),
            total=total,
            band=band,
            source=self.dice.source,
            roller=str(self.identity),
            audience=audience,
            blind=blind,
            seed=seed,
            outcome=outcome or band,
            reading=reading,
        )
        self.rolls.append(record)
        return record

    # -- chronicle ------------------------------------------------------------------------------
    def log(
        self,
        text: str,
        *,
        kind: str = "event",
        audience: str = PUBLIC,
        rolls: list[RollRecord] | None = None,
        amounts: dict[str, float] | None = None,
        secret: str = "",
        refs: dict[str, Any] | None = None,
        adjudicator: str | None = None,
    ) -> dict[str, Any]:
        return append_entry(
            self.world,
            text,
            kind=kind,
            audience=audience,
            actor=str(self.identity),
            command=self.command,
            rolls=rolls,
            amounts=amounts,
            secret=secret,
            refs=refs,
            adjudicator=adjudicator or self.adjudicator,
            sink=self.entries,
        )

    def move_ducats(
        self,
        source: tuple[str, str] | None,
        target: tuple[str, str] | None,
        amount: float,
        reason: str,
        *,
        audience: str = PUBLIC,
        allow_negative: bool = False,
        kind: str = "ducats",
        secret: str = "",
    ) -> dict[str, Any]:
        """The one transaction path for money: debit, credit, and a chronicle line with the sum."""
        return move_ducats(
            self,
            source,
            target,
            amount,
            reason,
            audience=audience,
            allow_negative=allow_negative,
            kind=kind,
            secret=secret,
        )


def treasury_holder(world: World, party: tuple[str, str]) -> dict[str, Any]:
    table, doc_id = party
    return world.edit(table, doc_id)


def move_ducats(
    ctx: CommandContext,
    source: tuple[str, str] | None,
    target: tuple[str, str] | None,
    amount: float,
    reason: str,
    *,
    audience: str = PUBLIC,
    allow_negative: bool = False,
    kind: str = "ducats",
    secret: str = "",
) -> dict[str, Any]:
    if amount < 0:
        raise CommandError("amount", f"cannot move a negative sum ({amount})")
    world = ctx.world
    if source is not None:
        payer = treasury_holder(world, source)
        balance = float(payer.get("treasury", 0))
        if balance - amount < -1e-9 and not allow_negative:
            name = world.display_name(source[0], source[1])
            raise ShortfallError(
                "treasury", f"{name} has {shown_money(balance)} ducats, {shown_money(amount)} are needed for {reason}"
            )
        payer["treasury"] = money(balance - amount)
    if target is not None:
        payee = treasury_holder(world, target)
        payee["treasury"] = money(float(payee.get("treasury", 0)) + amount)
    amounts: dict[str, float] = {}
    if source is not None:
        amounts[f"{source[0]}:{source[1]}"] = -amount
    if target is not None:
        key = f"{target[0]}:{target[1]}"
        amounts[key] = amounts.get(key, 0) + amount  # paying oneself nets to zero
    if source is None and target is not None:
        text = f"{world.display_name(*target)} receives {ducats(amount)}: {reason}"
    elif target is None and source is not None:
        text = f"{world.display_name(*source)} pays {ducats(amount)}: {reason}"
    elif source is not None and target is not None:
        text = f"{world.display_name(*source)} pays {ducats(amount)} to {world.display_name(*target)}: {reason}"
    else:
        raise CommandError("amount", "money must come from or go to someone")
    return ctx.log(text, kind=kind, audience=audience, amounts=amounts, secret=secret)


def append_entry(
    world: World,
    text: str,
    *,
    kind: str = "event",
    audience: str = PUBLIC,
    actor: str = "gm",
    command: str = "",
    rolls: list[RollRecord] | None = None,
    amounts: dict[str, float] | None = None,
    secret: str = "",
    refs: dict[str, Any] | None = None,
    adjudicator: str | None = None,
    sink: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """Append one chronicle entry, dated to the current season, in the order things happened."""
    seq = world.next_seq("chronicle_seq")
    entry_id = f"e{seq:06d}"
    entry: dict[str, Any] = {
        "id": entry_id,
        "seq": seq,
        "date": world.meta["date"],
        "kind": kind,
        "text": text,
        "audience": audience,
        "actor": actor,
        "command": command,
        "rolls": [r.to_dict() for r in (rolls or [])],
    }
    if amounts:  # as the treasuries moved: rounded and within range by the one rule (10, not 10.0)
        entry["amounts"] = {party: money(amount) for party, amount in amounts.items()}
    if secret:
        entry["secret"] = secret
    if refs:
        entry["refs"] = refs
    if adjudicator:
        entry["adjudicator"] = adjudicator
    if entry["rolls"]:
        chain_rolls(world.data, entry_id, entry["rolls"])
    world.put("chronicle", entry_id, entry)
    if sink is not None:
        sink.append(entry)
    return entry


UNDO_KEEP = 50


def apply_command(
    world: World,
    identity: Identity,
    name: str,
    raw_params: Mapping[str, Any],
    dice: Dice | None = None,
    principal: Identity | None = None,
    viewer: Identity | None = None,
) -> CommandResult:
    """Apply one command to an in-memory world (no I/O). Raises CommandError on refusal.

    `viewer` reads the refusals (default: `identity`); they name only what he may see.
    """
    spec = spec_for(name)
    if spec.gm_only and not identity.is_gm:
        raise gm_refusal(spec.gm_only, identity)
    if identity.is_observer:  # the spectator's seat reads the public record and does nothing else
        raise CommandError("identity", "an observer reads the public record and may not act")
    nested = world.in_command
    visible_before = world.visible
    world.visible = visible_to(world, viewer or identity)
    try:
        params = coerce_params(spec, raw_params, world, viewer or identity)
        ctx = CommandContext(world, identity, dice or SeededDice(), name, principal)
        date_before = world.meta.get("date")
        if not nested:
            world.originals = {}  # the undo record holds this command's changes only
        world.in_command = True
        try:
            data = spec.handler(ctx, params) or {}
            if not nested:
                _record_changed(world)
            world.revalidate_touched()
            if spec.undoable and not nested and world.meta.get("date") == date_before:
                # Built here from validated originals, so the meta it goes into stays valid.
                stack = world.meta.setdefault("undo", [])
                stack.append(
                    {"command": name, "identity": str(identity), "date": date_before, "changes": world.changes()}
                )
                del stack[:-UNDO_KEEP]
        except ValidationError as error:
            raise CommandError(error.field, error.reason) from None
        except RuleInputError as error:
            raise CommandError(name, str(error)) from None
        except Exception as error:
            if nested or isinstance(error, YakError):
                raise
            refusal = _invalid_world(world)
            if refusal is None:
                raise  # the world is sound: a bug, reported as one
            raise refusal from error
        finally:
            world.in_command = nested
    finally:
        world.visible = visible_before
    return CommandResult(name, data, ctx.entries, ctx.rolls)


def _invalid_world(world: World) -> CommandError | None:
    """When a command failed on something no rule refuses (a ValueError deep in the year start):
    the document and field at fault, if the world holds a value its schema refuses. Such a value
    gets past no read (a read validates, or trusts a vouch only a yak writer can sign), but if one
    ever does, the command is refused naming it, never an "internal error". None: the world is sound."""
    try:
        validate_world(world.data)
    except ValidationError as error:
        return CommandError(
            error.field,
            f"{error.reason} (the save holds a value its schema refuses; nothing was "
            f"changed: set it right with gm-set, or restore a backup)",
        )
    return None


def _record_changed(world: World) -> None:
    """Say in meta what this command wrote, so a reader (another app) can re-read only that."""
    changed: dict[str, list[str]] = {}
    for table_name, doc_id in world.originals:
        if table_name != META:
            changed.setdefault(table_name, []).append(doc_id)
    world.meta["revision"] = int(world.meta.get("revision", 0)) + 1
    world.meta["changed"] = {table_name: sorted(ids) for table_name, ids in sorted(changed.items())}


def run_command(
    save: WorldFile,
    identity: Identity,
    name: str,
    raw_params: Mapping[str, Any],
    dice: Dice | None = None,
    *,
    check: Callable[[World], None] | None = None,
    exact_dice: bool = False,
) -> CommandResult:
    """The one transaction path: lock, reload, validate, apply, chronicle, write once.

    `check` runs on the freshly loaded world first (e.g. that `--as` names a real kingdom), so a
    front end need not read the save a second time. With `exact_dice`, dice typed by a person
    (`--dice`) must all be read: one left over refuses the command. The reply is serialised before the save is
    written: a reply that cannot be written as JSON refuses the command, so a committed change
    always gets its reply (a script that retries on failure never applies a command twice).
    """
    spec_for(name)
    with save.transaction_with_bytes() as snapshot:
        world = World(snapshot.data)
        if check is not None:
            check(world)
        sizes, rolls_before = table_sizes(world)
        result = apply_command(world, identity, name, raw_params, dice)
        if exact_dice and isinstance(dice, ScriptedDice):
            dice.require_all_read()  # a die typed and never read is refused with the command, nothing written
        readable = (filter_entry(world, identity, entry) for entry in result.entries)
        result.shown = [entry for entry in readable if entry is not None]
        result.encoded = encode_reply(result.payload())
        snapshot.changed = written_documents(world, sizes, rolls_before)
        return result


class Stopped(YakError):
    """`run_commands` was told to stop (its client went away): nothing of it was written."""


# What `run_commands` carries out: (command, raw parameters) pairs, or a function that gives them
# from the freshly loaded world (so a cap read from the save's own rules applies).
Batch = Sequence[tuple[str, Mapping[str, Any]]] | Callable[[World], Sequence[tuple[str, Mapping[str, Any]]]]


def run_commands(
    save: WorldFile, identity: Identity, commands: Batch, *, stop: Callable[[], bool] | None = None
) -> list[CommandResult | YakError]:
    """Several commands in ONE transaction of the one path: lock, reload, apply each in turn, write
    once. Each is applied on a trial of the world as the ones before it left it, so a refused one
    (a YakError in its place in the answer) leaves the others applied and the save untouched by
    it; each keeps its own undo record. The write says it wrote everything the applied ones wrote
    (`meta.revision` goes up by one, `meta.changed` and the change journal name the lot).

    `commands` may be a function of the loaded world (it may refuse the whole batch by raising).
    `stop` is asked before each command and before the write: when it says so (the client that
    sent them is gone), `Stopped` is raised and nothing is written at all."""
    answers: list[CommandResult | YakError] = []
    try:
        with save.transaction_with_bytes() as snapshot:
            world = World(snapshot.data)
            planned = commands(world) if callable(commands) else commands
            sizes, rolls_before = table_sizes(world)
            revision = int(world.meta.get("revision", 0) or 0)
            originals: dict[tuple[str, str], dict[str, Any] | None] = {}
            applied = 0
            for name, raw_params in planned:
                if stop is not None and stop():
                    raise Stopped("stopped before it was done: nothing was written")
                trial = world.trial()
                try:
                    spec_for(name)
                    result = apply_command(trial, identity, name, raw_params)
                    readable = (filter_entry(trial, identity, entry) for entry in result.entries)
                    result.shown = [entry for entry in readable if entry is not None]
                    result.encoded = encode_reply(result.payload())
                except YakError as error:
                    answers.append(error)
                    continue
                for key, original in trial.originals.items():
                    originals.setdefault(key, original)  # each document as the batch found it
                world = trial
                applied += 1
                answers.append(result)
            if stop is not None and stop():
                raise Stopped("stopped before it was done: nothing was written")
            if not applied:
                raise _NothingApplied
            world.originals = originals
            _record_changed(world)
            world.meta["revision"] = revision + 1  # one write, one revision; `changed` names every command's
            snapshot.data = world.data
            snapshot.changed = written_documents(world, sizes, rolls_before)
    except _NothingApplied:
        pass  # every one refused: the save is not written at all
    return answers


class _NothingApplied(Exception):
    """Leaves a batch's transaction without writing: nothing of it was applied."""


def table_sizes(world: World) -> tuple[dict[str, int], int]:
    """Each table's size and the rolls made so far, before a command: what `written_documents` needs."""
    return {table_name: len(docs) for table_name, docs in world.data.items()}, int(world.meta.get("dice_count", 0) or 0)


def written_documents(world: World, sizes: Mapping[str, int], rolls_before: int) -> dict[str, list[str]] | None:
    """What a command wrote, for the store's change journal (other apps apply it instead of reading
    the whole save): the documents it touched through the World, the dice ledger's records for the
    rolls it made (`dicechain.chain_rolls` writes them straight into the table, by roll number), and
    any other document added straight into a table (the ids past the count it had). A table that
    shrank outside the World cannot be told: None, and readers read the save in full."""
    through_world: dict[str, set[str]] = {}
    growth: dict[str, int] = {}  # how much each table grew through the World
    for (table_name, doc_id), original in world.originals.items():
        through_world.setdefault(table_name, set()).add(doc_id)
        present = doc_id in world.data.get(table_name, {})
        growth[table_name] = (
            growth.get(table_name, 0) + (present and original is None) - (not present and original is not None)
        )
    written = {table_name: set(ids) for table_name, ids in through_world.items()}
    rolls = int(world.meta.get("dice_count", 0) or 0)
    if rolls > rolls_before:
        written.setdefault(LEDGER, set()).update(record_id(seq) for seq in range(rolls_before + 1, rolls + 1))
    for table_name, docs in world.data.items():
        before = sizes.get(table_name, 0)
        if table_name in through_world:
            if len(docs) != before + growth[table_name]:
                return None  # written both through the World and past it: cannot be told apart
        elif len(docs) < before:
            return None
        elif len(docs) > before:
            written.setdefault(table_name, set()).update(list(docs)[before:])
    return {table_name: sorted(ids) for table_name, ids in sorted(written.items())}


def encode_reply(payload: dict[str, Any]) -> bytes:
    """The JSON of a reply, or a refusal naming the value JSON cannot hold."""
    found = json_problem(payload, "reply")
    if found is None:
        try:
            return orjson.dumps(payload)
        except (TypeError, orjson.JSONEncodeError) as error:
            found = ("reply", str(error))
    raise CommandError(found[0], f"{found[1]}: the command was not applied")


def validate_only(
    world: World,
    identity: Identity,
    name: str,
    raw_params: Mapping[str, Any],
    principal: Identity | None = None,
    viewer: Identity | None = None,
) -> CommandResult:
    """Check a command as it is written (forms, orders) on a trial of the world: nothing copied
    but what the command touches, and the world itself left as it was."""
    trial = world.trial()
    return apply_command(trial, identity, name, raw_params, SeededDice(0), principal, viewer)


def audience_param(world: World, value: str) -> str:
    try:
        return validate_audience(world, value)
    except ValidationError as error:
        raise CommandError("audience", error.reason) from None
