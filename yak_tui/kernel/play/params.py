"""A command's parameters as given (strings from the command line or a form) become typed, validated
values: numbers in range, booleans, lists, plain text, and references to documents the viewer may see."""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from yak_tui.kernel.errors import CommandError
from yak_tui.kernel.play.audience import visible_to
from yak_tui.kernel.world.model import ValidationError, World
from yak_tui.kernel.world.numbers import NumberError, parse_number, parse_whole, shown
from yak_tui.kernel.world.problems import hidden_character

if TYPE_CHECKING:
    from yak_tui.kernel.play.commands import CommandSpec, Param
    from yak_tui.kernel.play.identity import Identity


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
                raise CommandError(name, f"is required ({param.help_text})" if param.help_text else "is required")
            default = param.default
            values[name] = default if type(default) in _ATOMIC else copy.deepcopy(default)
    if world is not None:
        visible = visible_to(world, viewer)
        for name, param in spec.params.items():
            if param.ref and name in given and isinstance(values[name], str):
                try:
                    values[name] = world.resolve_ref(param.ref, values[name], visible)
                except ValidationError as error:
                    raise CommandError(name, error.reason) from None
    return {name: values[name] for name in spec.params}


_ATOMIC = (type(None), bool, int, float, str)  # a default no handler can change: not copied


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
