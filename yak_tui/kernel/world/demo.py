"""Builds a world from a readable data file (the demo world "Elbreth" by default)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from yak_tui.kernel.play.dicechain import start_chain
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.authoring import load_world_file
from yak_tui.kernel.world.model import World
from yak_tui.store.files import SCHEMA_VERSION
from yak_tui.store.storage import WorldFile

DEMO_FILE = Path(__file__).with_name("demo_world.toml")


def build_world(source: Path = DEMO_FILE) -> dict[str, dict[str, Any]]:
    """The TinyDB-format state for a world file, validated by the one world-file loader."""
    return load_world_file(source)


def empty_world(name: str) -> dict[str, dict[str, Any]]:
    world = World({})
    world.meta.update(
        {
            "name": name,
            "date": GameDate.of(312, "Spring").to_dict(),
            "schema_version": SCHEMA_VERSION,
            "rules_overrides": {},
            "undo": [],
            "history": [],
        }
    )
    start_chain(world.meta)
    return world.data


def create_world(
    path: str | Path, demo: bool = True, overwrite: bool = False, source: str | Path | None = None
) -> WorldFile:
    """A new world file: from `source` (a world file the GM wrote), the demo, or empty."""
    save = WorldFile(path)
    if source is not None:
        data = load_world_file(source)
    else:
        data = build_world() if demo else empty_world(Path(path).stem)
    save.create(data, overwrite=overwrite)
    return save
