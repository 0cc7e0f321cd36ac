"""The one filing rule (RULINGS §1): who may file which command as an order, whether that order is
private, and which of its values only its adjudicator sets.

Every way an order comes in asks here: `yak do order-file`, `spy-order`, SSH `orders submit`, the
app's order forms and the palette (through `kernel.play.views`), and the adjudicator's queue when he
carries an order out. The registry says it per command (`command(filed_by=...)`,
`Param(by_adjudicator=True)`), so a new command is never fileable until its author says who files it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from yak_tui.kernel.play.commands import CommandError, CommandSpec
from yak_tui.kernel.play.identity import Identity, identity_name
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import table

# The only orders a seat files privately: NPC espionage missions, whatever way they come in.
PRIVATE_CATEGORIES = ("espionage",)
# What a seat that wants something the rules give it no command for does instead.
ASK_HINT = 'to ask the GM for it, send a request: ask text="..."'
# What a seat runs as itself rather than files: a request, a private mission, withdrawing his own
# order, saying he is ready (SSH `orders submit` takes them as lines too).
SEAT_RUNS = ("ask", "spy-order", "order-withdraw", "ready")


def _role_words(roles: tuple[str, ...]) -> str:
    return "a King or a player" if set(roles) == {"king", "player"} else "a King"


def filing_refusal(filer: Identity, spec: CommandSpec) -> CommandError | None:
    """Why `filer` may not file `spec` as an order, or None. Asked before any parameter is read,
    so a refusal says nothing about the world."""
    if filer.is_gm:
        return CommandError("command", f"the GM carries {spec.name} out himself: he files no orders")
    if filer.is_observer:
        return CommandError("identity", "an observer reads the public record and files no orders")
    if filer.role in spec.filed_by:
        return None
    if spec.gm_only:
        return CommandError(
            "command",
            f"{spec.name} is the GM's act (only the GM may {spec.gm_only}): it is never filed as an order; {ASK_HINT}",
            ("gm",),
        )
    if spec.name in SEAT_RUNS or spec.name == "order-file":
        return CommandError("command", f"{spec.name} is not filed as an order: run it yourself")
    if not spec.filed_by:
        return CommandError(
            "command",
            f"{spec.name} is never filed as an order: it is what an adjudicator "
            f"or the GM does, not an act of a seat's own; {ASK_HINT}",
            ("gm",),
        )
    return CommandError(
        "command",
        f"only {_role_words(spec.filed_by)} files {spec.name} as an order (it acts for a kingdom); {ASK_HINT}",
    )


def may_file(filer: Identity, spec: CommandSpec) -> bool:
    """May this identity file the command as an order at all (its own holdings are checked when the
    order is validated, as its adjudicator would carry it out)?"""
    return filing_refusal(filer, spec) is None


def may_use(identity: Identity, spec: CommandSpec) -> bool:
    """May this identity run the command or file it as an order at all: the GM every command, a King
    all but the GM's acts (he adjudicates), a player what he runs himself or files, an observer none."""
    if identity.is_gm:
        return True
    if identity.is_observer or spec.gm_only:
        return False
    return identity.is_king or spec.name in SEAT_RUNS or spec.name == "order-file" or may_file(identity, spec)


def unknown_command(name: str, identity: Identity) -> CommandError:
    """The reply to a command name the registry lacks: the close ones this identity may use, else
    the names of those he may (a player is never shown the GM's acts)."""
    import difflib

    from yak_tui.kernel.play.commands import COMMANDS, load_command_modules

    load_command_modules()
    usable = sorted(n for n, spec in COMMANDS.items() if may_use(identity, spec))
    close = difflib.get_close_matches(name, usable, n=3)
    if close:
        hint = f" (did you mean {', '.join(close)}?)"
    elif identity.is_gm:
        hint = "; `yak do --list` lists every command"
    elif not usable:
        hint = "; an observer reads the record and runs none"
    else:
        hint = f"; yours are {', '.join(usable)}"
    return CommandError("command", f"no command named {name!r}{hint}")


def is_private(spec: CommandSpec) -> bool:
    """An order of this command is private to its filer, his adjudicator and the GM (RULINGS §1)."""
    return spec.category in PRIVATE_CATEGORIES


def _differs_from_default(spec: CommandSpec, name: str, value: Any) -> bool:
    """A value typed that is not the parameter's default (`modifier=0`, `audience=public` change nothing)."""
    if value is None or value == "" or value == []:
        return False
    default = spec.params[name].default
    words = {str(default).strip().lower(), ""} | ({"0", "0.0", "false", "no", "off"} if not default else set())
    return str(value).strip().lower() not in words


def adjudicator_values(spec: CommandSpec, params: Mapping[str, Any]) -> list[str]:
    """The parameters given that only the adjudicator sets (a modifier, its reason, who hears)."""
    return [
        name
        for name, value in params.items()
        if name in spec.params and spec.params[name].by_adjudicator and _differs_from_default(spec, name, value)
    ]


def check_filing(filer: Identity, spec: CommandSpec, params: Mapping[str, Any]) -> None:
    """Refuse an order its filer may not file, or one that sets what its adjudicator sets."""
    refusal = filing_refusal(filer, spec)
    if refusal is not None:
        raise refusal
    taken = adjudicator_values(spec, params)
    if taken:
        raise CommandError(
            f"order.{taken[0]}",
            f"{', '.join(taken)} {'is' if len(taken) == 1 else 'are'} set by "
            "the adjudicator when he carries the order out, not by its filer",
        )


def adjudicator_params(spec: CommandSpec) -> tuple[str, ...]:
    """The parameters of `spec` its adjudicator may set when he carries an order of it out."""
    return tuple(name for name, param in spec.params.items() if param.by_adjudicator)


def orders_cap(key: str) -> int:
    """A cap of the `[orders]` rules table (`core.toml`): `orders_per_seat_per_season` or
    `orders_per_submit`; 0 (or less) is no cap."""
    return int(table("core")["orders"][key])


def filed_this_season(world: World, filer: Identity) -> int:
    """The orders `filer` filed in the current season, whatever became of them since (withdrawn,
    rejected or resolved: each stays in the save), requests to the GM included."""
    date = world.meta["date"]
    return sum(1 for _, order in world.where("orders", filed_by=str(filer)) if order.get("filed") == date)


def check_season_cap(world: World, filer: Identity) -> None:
    """Refuse an order past the seat's cap for the season (`orders_per_seat_per_season`): asked by
    every way an order is filed (`order-file`, and so `spy-order` and SSH; `ask`)."""
    cap = orders_cap("orders_per_seat_per_season")
    if cap > 0 and filed_this_season(world, filer) >= cap:
        raise CommandError(
            "order",
            f"{identity_name(world, filer)} has filed {cap} orders this season, the most a seat may "
            f"(orders_per_seat_per_season = {cap}, core.toml [orders]); "
            "withdrawn ones count too; the next season opens the count again",
        )
