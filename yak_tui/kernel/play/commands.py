"""Commands: every state change is a named command with validated parameters, applied in
one store transaction (lock, reload, validate, apply, chronicle, write once).

A command that fails leaves the save byte-for-byte unchanged, and says which field is wrong.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import orjson

from yak_tui.kernel.errors import CommandError as CommandError  # what an area's command raises, beside its spec
from yak_tui.kernel.errors import RuleInputError, YakError
from yak_tui.kernel.play.areas import AREA_PACKAGES, COMMAND_AREAS
from yak_tui.kernel.play.audience import PUBLIC, filter_entry, validate_audience, visible_to
from yak_tui.kernel.play.authority import Stakes, Verdict, may_adjudicate
from yak_tui.kernel.play.chronicle import append_entry
from yak_tui.kernel.play.dice import Dice, RecordingDice, RollRecord, ScriptedDice, SeededDice
from yak_tui.kernel.play.fairdice import fair_dice_for, flush_keys, stream_of
from yak_tui.kernel.play.helptext import HelpText, help_text
from yak_tui.kernel.play.identity import Identity, identity_name
from yak_tui.kernel.play.journal import record_changed, table_sizes, written_documents
from yak_tui.kernel.play.params import coerce_params
from yak_tui.kernel.play.treasury import move_ducats
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.model import ValidationError, World
from yak_tui.kernel.world.problems import json_problem
from yak_tui.kernel.world.validation import validate_world
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
    # A closed list worked out from the world for the reader, (value, label) pairs: the form's
    # choices where they depend on what the world holds (a trap's fight). The handler checks the value.
    options: Callable[[World, Identity], tuple[tuple[str, str], ...]] | None = None

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
    # Optional: an order's odds as its adjudicator will roll it, (world, filer, adjudicator, params):
    # every modifier the roll will count, where `odds` (for the filer) shows only what he knows.
    adjudicated_odds: Callable[[World, Identity, Identity, dict[str, Any]], dict[str, Any]] | None = None

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
    adjudicated_odds: Callable[[World, Identity, Identity, dict[str, Any]], dict[str, Any]] | None = None,
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
            name,
            help,
            params or {},
            fn,
            category,
            odds,
            stakes,
            undoable,
            rolls,
            gm_only,
            tuple(filed_by),
            adjudicated_odds,
        )
        return fn

    return wrap


def spec_for(name: str) -> CommandSpec:
    """The command `name`, its area imported if it is not yet (`COMMAND_AREAS`; every area for a
    name that is in none, so a refusal can name the commands there are)."""
    spec = COMMANDS.get(name)
    if spec is None:
        load_command_modules(name)
        spec = COMMANDS.get(name)
    if spec is None:
        load_command_modules()
        spec = COMMANDS.get(name)
    if spec is None:
        import difflib

        close = difflib.get_close_matches(name, list(COMMANDS), n=3)
        hint = f" (did you mean {', '.join(close)}?)" if close else "; `yak do --list` lists the commands"
        raise CommandError("command", f"no command named {name!r}{hint}")
    return spec


def load_command_modules(command: str | None = None) -> None:
    """Import every area package (and the kernel's own order commands): importing an area's
    package registers its commands and year-start steps. Kept in one list, in one place.
    `command`: only the area that registers it (`COMMAND_AREAS`), or every one if none does.

    Done once per process: `spec_for` and `describe_order` ask for it on every call (an order queue
    of 400 orders asked 400 times, issue 30), and a module imported stays imported."""
    global _MODULES_LOADED
    if _MODULES_LOADED:
        return
    import importlib

    if command is not None and command in COMMAND_AREAS:
        importlib.import_module(COMMAND_AREAS[command])
        return
    for module in COMMAND_MODULES:
        try:
            importlib.import_module(module)
        except ModuleNotFoundError as error:
            if error.name != module:
                raise
    _MODULES_LOADED = True


_MODULES_LOADED = False


# The area packages (each registers its commands when imported), then the kernel's own order and readiness commands.
COMMAND_MODULES = (*AREA_PACKAGES, "yak_tui.kernel.play.orders", "yak_tui.kernel.season.readiness")


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
        bind = getattr(dice, "bind", None)
        if bind is not None:  # derived dice read the season and their counters from this world
            bind(world)
        self.dice = RecordingDice(dice, command)
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
    def dice_for(self, audience: str = PUBLIC, blind: bool = False) -> RecordingDice:
        """The dice for a roll told to `audience`: derived dice draw a blind roll, or one told to
        fewer than everyone, from the season's private secret, so revealing the public one (when
        the season closes) never reveals it. Call it before the roll; `record_roll` checks."""
        self.dice.stream = stream_of(audience, blind)
        return self.dice

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
        draws = self.dice.take_draws(naturals, stream_of(audience, blind))
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
            draws=draws,
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
        gm_text: str = "",
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
            gm_text=gm_text,
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
            world.keep_originals = spec.undoable  # none is kept for one that keeps no undo record
        world.in_command = True
        try:
            data = spec.handler(ctx, params) or {}
            if not nested:
                record_changed(world)
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
            if not nested:
                world.keep_originals = True
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
        rolling = dice or fair_dice_for(save.path)
        result = apply_command(world, identity, name, raw_params, rolling)
        if exact_dice and isinstance(dice, ScriptedDice):
            dice.require_all_read()  # a die typed and never read is refused with the command, nothing written
        readable = (filter_entry(world, identity, entry) for entry in result.entries)
        result.shown = [entry for entry in readable if entry is not None]
        result.encoded = encode_reply(result.payload())
        snapshot.changed = written_documents(world, sizes, rolls_before)
        flush_keys(rolling)
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
            dice = fair_dice_for(save.path)
            originals: dict[tuple[str, str], dict[str, Any] | None] = {}
            applied = 0
            for name, raw_params in planned:
                if stop is not None and stop():
                    raise Stopped("stopped before it was done: nothing was written")
                trial = world.trial()
                try:
                    spec_for(name)
                    result = apply_command(trial, identity, name, raw_params, dice)
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
            record_changed(world)
            world.meta["revision"] = revision + 1  # one write, one revision; `changed` names every command's
            snapshot.data = world.data
            snapshot.changed = written_documents(world, sizes, rolls_before)
            flush_keys(dice)
    except _NothingApplied:
        pass  # every one refused: the save is not written at all
    return answers


class _NothingApplied(Exception):
    """Leaves a batch's transaction without writing: nothing of it was applied."""


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
