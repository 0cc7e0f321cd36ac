"""Issue 13: the GM's chronicle view on a world brought up to date from the change journal extends
the view built on the world before (a note adds an entry: 100,000 entries are not sorted and walked
again), and is exactly the view a full read gives, whatever the write: an entry added, an entry
edited or undone (built whole), a kingdom renamed (the filter's names again). Players' views are
built whole, as before."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import pytest

from yak_tui.areas.court import chronicle_view
from yak_tui.areas.court import read_chronicle as court_read
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.world.model import World, follow_save
from yak_tui.store.storage import WorldFile


def _counting_walks(monkeypatch: pytest.MonkeyPatch) -> list[Identity]:
    """Each time a chronicle view sorts and filters the whole chronicle for a viewer."""
    walks: list[Identity] = []
    real = court_read.seen_entries

    def counting(world: World, viewer: Identity) -> Any:
        walks.append(viewer)
        return real(world, viewer)

    monkeypatch.setattr(court_read, "seen_entries", counting)
    return walks


def _shown(world: World, viewer: Identity) -> tuple[Any, ...]:
    view = chronicle_view(world, viewer)
    return (view.total, view.entries.ids, list(view.entries), view.seasons, view.kinds, view.kingdoms, view.characters)


def _note(save: WorldFile) -> None:
    run_command(save, GM, "note", {"text": "FOLLOW-CHRONICLE a public note"})


def _rename(save: WorldFile) -> None:
    run_command(save, GM, "gm-set", {"table": "kingdoms", "id": "elbreth", "field": "name", "value": "Elbreth Reborn"})


def _undo(save: WorldFile) -> None:
    _note(save)
    run_command(save, GM, "undo", {})


@pytest.mark.parametrize(("write", "extended"), [(_note, True), (_rename, True), (_undo, False)])
def test_the_gms_view_after_a_journal_write_is_the_full_reads(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch, write: Callable[[WorldFile], None], extended: bool
) -> None:
    run_command(save, GM, "note", {"text": "FOLLOW-CHRONICLE the first entry"})
    held = follow_save(save, None)
    chronicle_view(held[1], GM)  # the view the app showed before the write
    write(save)
    walks = _counting_walks(monkeypatch)
    _, followed = follow_save(save, held)
    assert followed.follows() is not None  # brought up to date from the journal, not read whole
    shown = _shown(followed, GM)
    assert walks == ([] if extended else [GM])
    assert shown == _shown(World(save.read()), GM)


def test_a_note_after_a_note_is_extended_again_and_a_players_view_is_built_whole(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = follow_save(save, None)
    chronicle_view(held[1], GM)
    walks = _counting_walks(monkeypatch)
    for number in range(3):  # the app shows each world in turn: each view extends the one before
        run_command(save, GM, "note", {"text": f"FOLLOW-CHRONICLE note {number}"})
        held = follow_save(save, held)
        view = chronicle_view(held[1], GM)
    assert walks == []
    assert view.entries[-1].text == "FOLLOW-CHRONICLE note 2"
    assert _shown(held[1], GM) == _shown(World(save.read()), GM)
    walks.clear()
    nyx = Identity.parse("player:nyx")
    assert _shown(held[1], nyx) == _shown(World(save.read()), nyx)
    assert walks == [nyx, nyx]


def test_an_entry_edited_since_is_built_whole_with_its_new_text(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A write that edits an entry already there (a spell's pending consequence is marked so): the
    view is not extended but built whole, and shows the entry as it now is."""
    for number in range(2):
        run_command(save, GM, "note", {"text": f"FOLLOW-CHRONICLE entry {number}"})
    _, before = follow_save(save, None)
    chronicle_view(before, GM)
    oldest = min(before.table("chronicle").values(), key=lambda entry: entry["seq"])
    edited = {**oldest, "text": "FOLLOW-CHRONICLE the oldest entry, rewritten"}
    walks = _counting_walks(monkeypatch)
    after = before.with_changes([{"meta": before.data["meta"], "chronicle": {oldest["id"]: edited}}])
    shown = _shown(after, GM)
    assert walks == [GM]
    assert shown == _shown(World(orjson.loads(orjson.dumps(after.data))), GM)
    assert shown[2][0].text == "FOLLOW-CHRONICLE the oldest entry, rewritten"
