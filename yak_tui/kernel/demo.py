"""Builds a world from a readable data file (the demo world "Elbreth" by default)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from yak_tui.kernel.calendar import GameDate
from yak_tui.kernel.dicechain import start_chain
from yak_tui.kernel.model import World
from yak_tui.kernel.validation import validate_document
from yak_tui.store.storage import SCHEMA_VERSION, WorldFile

DEMO_FILE = Path(__file__).with_name("demo_world.toml")
SEEDED_TABLES = ("kingdoms", "provinces", "pcs", "characters", "units", "businesses", "specialists", "academies",
                 "effects")


def build_world(source: Path = DEMO_FILE) -> dict[str, dict[str, Any]]:
    """The TinyDB-format state for a world file, validated document by document."""
    with source.open("rb") as handle:
        spec = tomllib.load(handle)
    head = spec.get("world", {})
    date = GameDate.of(int(head.get("year", 312)), str(head.get("season", "Spring")))
    world = World({})
    world.meta.update({"name": head.get("name", source.stem), "date": date.to_dict(),
                       "schema_version": SCHEMA_VERSION, "rules_overrides": {}, "undo": [], "history": []})
    for table_name in SEEDED_TABLES:
        for row in spec.get(table_name, []):
            doc = dict(row)
            doc_id = str(doc.pop("id"))
            validate_document(table_name, doc_id, doc)
            world.data[table_name][doc_id] = doc
    for _, kingdom in world.all("kingdoms"):
        kingdom.setdefault("year_counters", {})
    world.meta["history"] = [{"date": date.to_dict(),
                              "kingdoms": {kid: {"treasury": k["treasury"], "manpower": k["manpower"]}
                                           for kid, k in world.all("kingdoms")}}]
    start_chain(world.meta)
    world.originals.clear()
    return world.data


def empty_world(name: str) -> dict[str, dict[str, Any]]:
    world = World({})
    world.meta.update({"name": name, "date": GameDate.of(312, "Spring").to_dict(),
                       "schema_version": SCHEMA_VERSION, "rules_overrides": {}, "undo": [], "history": []})
    start_chain(world.meta)
    return world.data


def create_world(path: str | Path, demo: bool = True, overwrite: bool = False) -> WorldFile:
    save = WorldFile(path)
    data = build_world() if demo else empty_world(Path(path).stem)
    save.create(data, overwrite=overwrite)
    return save
