"""What every `yak` verb shares: the global options, the save they name, the identity acting, the
dice asked for, and the one way to print a reply."""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from yak_tui.kernel.errors import UsageError
from yak_tui.kernel.play.identity import Identity, check_identity
from yak_tui.store.storage import StoreError, WorldFile

DEFAULT_SAVE = Path("saves") / "world.json"


@dataclass
class GlobalOptions:
    json: bool = False
    identity: str = "gm"
    save: str | None = None
    rules: str | None = None


def save_path(opts: GlobalOptions) -> Path:
    return Path(opts.save or os.environ.get("YAK_SAVE") or DEFAULT_SAVE)


def open_save(opts: GlobalOptions, create_demo: bool = False) -> WorldFile:
    """The save the options name; refused when there is none (`create_demo`: the demo world is made there)."""
    path = save_path(opts)
    save = WorldFile(path)
    if not save.exists():
        if create_demo:
            from yak_tui.kernel.season.session import open_fair_dice
            from yak_tui.kernel.world.demo import create_world

            created = create_world(path)
            open_fair_dice(created)
            return created
        raise StoreError(f"no save at {path}; create one with `yak new {path} --demo`")
    return save


def identity_of(opts: GlobalOptions, world: Any = None) -> Identity:
    """The identity `--as` names, checked against `world` when one is given."""
    identity = Identity.parse(opts.identity)
    if world is not None:
        check_identity(world, identity)
    return identity


def dice_from(args: argparse.Namespace, real: bool = False) -> Any:
    """The dice a verb rolls: `--dice` typed by hand, else seeded (a `resolve` check, which changes
    nothing) or, for a `real` roll, None: the season's derived dice (docs/fair-dice.md), which no
    seed a client sends can steer."""
    from yak_tui.kernel.play.dice import ScriptedDice, SeededDice, parse_dice

    if getattr(args, "dice", None):
        return ScriptedDice(parse_dice(args.dice))
    if real:
        if getattr(args, "seed", None) is not None:
            raise UsageError(
                "--seed steers only `resolve` checks: a real roll is derived from the season's committed "
                "secret (docs/fair-dice.md); give --dice for dice rolled by hand"
            )
        return None
    return SeededDice(getattr(args, "seed", None))


def emit(opts: GlobalOptions, payload: dict[str, Any], text: str | None = None, encoded: bytes = b"") -> None:
    """Print a reply: exactly one JSON object with --json (`encoded` if it is already serialised)."""
    if opts.json:
        data = (encoded or orjson.dumps(payload)) + b"\n"
        out = getattr(sys.stdout, "buffer", None)
        if out is not None and str(getattr(sys.stdout, "encoding", "")).lower().replace("-", "") == "utf8":
            sys.stdout.flush()  # orjson writes UTF-8: its bytes as they are, not decoded and encoded again
            out.write(data)
        else:
            sys.stdout.write(data.decode())
    else:
        sys.stdout.write((text if text is not None else human(payload)) + "\n")


def human(payload: dict[str, Any], indent: int = 0) -> str:
    lines = []
    pad = "  " * indent
    for key, value in payload.items():
        if isinstance(value, dict):
            lines.append(f"{pad}{key}:")
            lines.append(human(value, indent + 1))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(f"{pad}{key}:")
            for item in value:
                lines.append(human(item, indent + 1))
                lines.append("")
        else:
            lines.append(f"{pad}{key}: {value}")
    return "\n".join(line for line in lines if line is not None)
