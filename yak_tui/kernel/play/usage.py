"""`yak do COMMAND --help`: a command's parameters, their types and defaults, who may run or file
it, and an example line, all read from the command registry (`Param`s, `gm_only`, `filed_by`), so
a new command has its help the day it is registered and no help text is written twice."""

from __future__ import annotations

import shlex
from typing import Any

from yak_tui.kernel.play.commands import CommandSpec, Param, spec_for
from yak_tui.kernel.play.filing import SEAT_RUNS
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.views import default_text, param_fields
from yak_tui.kernel.world.model import World

TYPE_WORDS = {"str": "text", "int": "whole number", "float": "number", "bool": "true or false", "list": "list"}


def who_may_run(spec: CommandSpec) -> str:
    """Who runs the command, and who files it as an order, in a sentence."""
    if spec.gm_only:
        return f"only the GM (to {spec.gm_only}); never filed as an order"
    if spec.name in SEAT_RUNS:
        return "a King or a player runs it himself (it is never filed as an order)"
    if spec.filed_by:
        filers = "a King or a player" if set(spec.filed_by) == {"king", "player"} else "a King"
        return f"the GM runs it; {filers} files it as an order for his own holdings (`order-file`)"
    return "the GM, or the adjudicator it names; never filed as an order"


def _kind_words(param: Param) -> str:
    words = TYPE_WORDS.get(param.kind.__name__, param.kind.__name__)
    if param.kind is list:
        words += " (comma-separated)"
    if param.minimum is not None and param.maximum is not None:
        words += f", {param.minimum:g} to {param.maximum:g}"
    elif param.minimum is not None:
        words += f", at least {param.minimum:g}"
    elif param.maximum is not None:
        words += f", at most {param.maximum:g}"
    return words


def _example_value(name: str, param: Param, options: tuple[str, ...]) -> str:
    """A value that reads right in an example: one the viewer may name, else a placeholder."""
    if param.choices:
        return str(param.choices[0])
    if options:
        return options[0]
    if param.kind is bool:
        return "true"
    if param.kind in (int, float):
        return f"{param.minimum:g}" if param.minimum is not None and param.minimum > 0 else "1"
    return name.upper()


def command_usage(name: str, world: World | None = None, viewer: Identity | None = None) -> dict[str, Any]:
    """The command's help as data; with a world, the example names what `viewer` may see in it."""
    spec = spec_for(name)
    fields = {f.name: f for f in param_fields(world, viewer, name)} if world is not None and viewer else {}
    params = []
    example: dict[str, str] = {}
    for pname, param in spec.params.items():
        options = tuple(choice.value for choice in fields[pname].options) if pname in fields else ()
        params.append(
            {
                "name": pname,
                "type": param.kind.__name__,
                "required": param.required,
                "default": None if param.required else default_text(param),
                "choices": list(param.choices),
                "names": param.ref,
                "minimum": param.minimum,
                "maximum": param.maximum,
                "set_by_adjudicator": param.by_adjudicator,
                "help": param.help_text,
                "words": _kind_words(param),
            }
        )
        if param.required:
            example[pname] = _example_value(pname, param, options)
    words = [f"{key}={value}" for key, value in example.items()]
    lines = [shlex.join(["yak", "do", spec.name, *words])]
    if spec.filed_by and (viewer is None or viewer.role in spec.filed_by):
        lines.append(shlex.join(["yak", "do", "order-file", f"command={spec.name}", f"params={';'.join(words)}"]))
    return {
        "command": spec.name,
        "help": spec.help_text,
        "category": spec.category,
        "rolls": spec.rolls,
        "odds": spec.odds is not None,
        "who_may": who_may_run(spec),
        "params": params,
        "example": lines,
    }


def usage_text(usage: dict[str, Any]) -> str:
    """`command_usage` as `yak do COMMAND --help` prints it."""
    out = [f"{usage['command']}: {usage['help']}"]
    dice = "; rolls dice (--dice to type them, --seed to replay)" if usage["rolls"] else ""
    odds = "; --odds prints the exact odds first" if usage["odds"] else ""
    out.append(f"  category {usage['category']}{dice}{odds}")
    out.append(f"Who may: {usage['who_may']}.")
    out.append("Parameters (key=value):" if usage["params"] else "Parameters: none.")
    width = max((len(p["name"]) for p in usage["params"]), default=0)
    for param in usage["params"]:
        said = [param["words"], "required" if param["required"] else f"default {param['default'] or '(none)'}"]
        if param["choices"]:
            said.append(f"one of {', '.join(param['choices'])}")
        if param["names"]:
            said.append(f"names one of {param['names']} by id or name")
        if param["set_by_adjudicator"]:
            said.append("set by the adjudicator, not the filer")
        help_words = f" — {param['help']}" if param["help"] else ""
        out.append(f"  {param['name']:<{width}}  {'; '.join(said)}{help_words}")
    out.append("Example:")
    out.extend(f"  {line}" for line in usage["example"])
    return "\n".join(out)
