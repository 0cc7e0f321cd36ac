"""Use cases the front ends share: check an identity, advance with a backup, preview, what is due."""

from __future__ import annotations

from typing import Any

from yak_tui.rules.dice import Dice
from yak_tui.rules.tables_loader import table
from yak_tui.store.storage import WorldFile
from yak_tui.world.audience import may_see
from yak_tui.world.commands import CommandResult, load_command_modules, run_command
from yak_tui.world.identity import Identity, IdentityError
from yak_tui.world.model import World
from yak_tui.world.seasons import due_items


def check_identity(world: World, identity: Identity) -> None:
    """An identity must name a real kingdom or a living character of this world."""
    if identity.is_king and identity.subject not in world.table("kingdoms"):
        known = ", ".join(world.table("kingdoms"))
        raise IdentityError(f"no kingdom {identity.subject!r} for --as king:...; kingdoms: {known}")
    if identity.is_player and identity.subject not in world.table("characters"):
        raise IdentityError(f"no character {identity.subject!r} for --as player:...")


def advance_season(save: WorldFile, identity: Identity, dice: Dice | None = None) -> CommandResult:
    """Back up the closing season, then close it in one transaction."""
    load_command_modules()
    if not identity.is_gm:
        return run_command(save, identity, "advance", {}, dice)  # refused with a clear reason
    world = World(save.read())
    save.backup(world.date.key(), keep=int(table("core")["backups"]["keep"]))
    return run_command(save, identity, "advance", {}, dice)


def preview(save: WorldFile) -> dict[str, Any]:
    from yak_tui.world.core_commands import preview_advance

    load_command_modules()
    return preview_advance(World(save.read()))


def due_for(world: World, identity: Identity) -> list[dict[str, Any]]:
    """What is due this season, as far as this identity may know."""
    load_command_modules()
    return [item for item in due_items(world) if may_see(world, identity, item.get("audience", "public"))]
