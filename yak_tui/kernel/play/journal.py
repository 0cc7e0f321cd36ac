"""What a write changed, told to readers: `meta.revision` and `meta.changed` (another app re-reads
only that) and the documents for the store's change journal (other apps apply it instead of reading
the whole save)."""

from __future__ import annotations

from collections.abc import Mapping

from yak_tui.kernel.play.dicechain import TABLE as LEDGER
from yak_tui.kernel.play.dicechain import record_id
from yak_tui.kernel.world.model import META, World


def record_changed(world: World) -> None:
    """Say in meta what this command wrote, so a reader (another app) can re-read only that."""
    changed: dict[str, list[str]] = {}
    for table_name, doc_id in world.originals:
        if table_name != META:
            changed.setdefault(table_name, []).append(doc_id)
    world.meta["revision"] = int(world.meta.get("revision", 0)) + 1
    world.meta["changed"] = {table_name: sorted(ids) for table_name, ids in sorted(changed.items())}


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
