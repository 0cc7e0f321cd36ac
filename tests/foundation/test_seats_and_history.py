"""Seats and season history (issue 16, item 6): an observer seat sees only public information and
may do nothing; `yak diff S1 S2` tells what changed between two seasons, from the backups each
advance takes, as far as the identity may see."""

from __future__ import annotations

from typing import Any

import orjson
import pytest
from yak_plugin import Table

from yak_tui.cli import main
from yak_tui.kernel.play.audience import visible_entries, visible_table
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import Identity, identity_label
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

OBSERVER = Identity.parse("observer")
GM = Identity.parse("gm")


def yak(capsys: pytest.CaptureFixture[str], save: WorldFile, *argv: str, who: str = "gm") -> tuple[int, Any]:
    code = main(["--save", str(save.path), "--as", who, "--json", *argv])
    captured = capsys.readouterr()
    return code, orjson.loads(captured.out or captured.err)


def test_an_observer_reads_the_public_record_only(save: WorldFile) -> None:
    run_command(save, GM, "note", {"text": "The harvest fails in Greywood", "audience": "public"})
    run_command(save, GM, "note", {"text": "Elbreth's vaults are nearly empty", "audience": "kingdom:elbreth"})
    run_command(save, GM, "note", {"text": "The GM's own plan", "audience": "adjudicators"})
    world = World(save.read())
    texts = [e["text"] for e in visible_entries(world, OBSERVER)]
    assert "The harvest fails in Greywood" in texts
    assert "Elbreth's vaults are nearly empty" not in texts and "The GM's own plan" not in texts
    assert all(e["audience"] == "public" for e in visible_entries(world, OBSERVER))
    kingdoms = visible_table(world, OBSERVER, "kingdoms")
    assert kingdoms and all("treasury" not in k for k in kingdoms.values())  # public fields only
    for private in ("orders", "effects", "specialists", "ledger", "users", "dice"):
        assert visible_table(world, OBSERVER, private) == {}, private
    assert identity_label(world, OBSERVER) == "Observer" and str(OBSERVER) == "observer"


def test_an_observer_may_do_nothing(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    before = save.path.read_bytes()
    for name, params in (
        ("note", {"text": "hi"}),
        ("roll", {"reason": "x"}),
        ("ready", {}),
        ("order-file", {"command": "roll", "params": "reason=x"}),
    ):
        Table(save).refused(OBSERVER, name, params, field="identity")
    code, reply = yak(capsys, save, "do", "note", "text=hi", who="observer")
    assert code == 2 and reply["field"] == "identity"
    assert save.path.read_bytes() == before


def test_diff_tells_what_changed_between_two_seasons(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    run_command(save, GM, "gm-set", {"table": "kingdoms", "id": "elbreth", "field": "treasury", "value": "99"})
    assert yak(capsys, save, "advance")[0] == 0  # Spring 312 is backed up as it closes
    run_command(save, GM, "gm-set", {"table": "kingdoms", "id": "elbreth", "field": "treasury", "value": "120"})
    run_command(save, GM, "gm-set", {"table": "kingdoms", "id": "varos", "field": "manpower", "value": "3"})
    assert yak(capsys, save, "advance")[0] == 0
    code, diff = yak(capsys, save, "diff", "Spring 312", "Summer 312")
    assert code == 0 and diff["from"] == "Spring 312" and diff["to"] == "Summer 312"
    by_name = {(c["table"], c["id"]): c for c in diff["changes"]}
    assert by_name[("kingdoms", "elbreth")]["fields"]["treasury"] == {"before": 99, "after": 120}
    assert by_name[("kingdoms", "varos")]["fields"]["manpower"]["after"] == 3
    assert diff["new_chronicle_entries"] > 0
    # An observer sees that something changed in public, never a treasury.
    code, public = yak(capsys, save, "diff", "Spring 312", "Summer 312", who="observer")
    assert code == 0 and not any("treasury" in c["fields"] or "manpower" in c["fields"] for c in public["changes"])
    # The current season is the save itself; a season never backed up is named as missing.
    assert yak(capsys, save, "diff", "Summer 312", "Autumn 312")[0] == 0
    before = save.path.read_bytes()
    code, missing = yak(capsys, save, "diff", "Winter 300", "Summer 312")
    assert code == 2 and "no backup of Winter 300" in missing["error"] and "Spring 312" in missing["error"]
    assert save.path.read_bytes() == before
    main(["--save", str(save.path), "diff", "Spring 312", "Summer 312"])
    text = capsys.readouterr().out
    assert text.startswith("Spring 312 → Summer 312:") and "kingdoms · Kingdom of Elbreth: " in text


def test_diff_reads_the_save_once_and_only_the_backup_it_needs(
    save: WorldFile, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: `yak diff` (and History) read the save once per side and every backup on each ask;
    now the save once, and of the backups only the one whose name says the season asked for."""
    from yak_tui.kernel.season import history

    for _ in range(3):  # Spring, Summer and Autumn 312 backed up; Winter 312 is the save
        assert yak(capsys, save, "advance")[0] == 0
    reads: list[str] = []
    read_save, read_state = WorldFile.read, history.read_state

    def counted_read(self: WorldFile, *args: Any, **kwargs: Any) -> Any:
        reads.append("save")
        return read_save(self, *args, **kwargs)

    def counted_state(path: Any, *current: Any) -> Any:
        reads.append(path.name.split("--")[1])
        return read_state(path, *current)

    monkeypatch.setattr(WorldFile, "read", counted_read)
    monkeypatch.setattr(history, "read_state", counted_state)
    code, diff = yak(capsys, save, "diff", "Summer 312", "Winter 312")
    assert code == 0 and diff["from"] == "Summer 312"
    assert sorted(reads) == ["312-summer", "save"]
    reads.clear()  # a season no backup holds: every backup is read, to name the seasons there are
    code, missing = yak(capsys, save, "diff", "Winter 300", "Winter 312")
    assert code == 2 and "Spring 312, Summer 312, Autumn 312" in missing["error"]
    assert sorted(reads) == ["312-autumn", "312-spring", "312-summer", "save"]


def test_the_gms_diff_judges_no_document_and_redacts_no_entry(
    save: WorldFile, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: the GM sees every document whole and every entry, so his diff (`yak diff`, History)
    takes the tables as they are and counts new entries by id: at 1000x it judged 148,000 documents and
    redacted 200,000 entries one call each. What it says is what the judged diff said."""
    from yak_tui.kernel.play import audience
    from yak_tui.kernel.season import history

    run_command(save, GM, "gm-set", {"table": "kingdoms", "id": "elbreth", "field": "treasury", "value": "99"})
    assert yak(capsys, save, "advance")[0] == 0
    run_command(save, GM, "gm-set", {"table": "kingdoms", "id": "elbreth", "field": "treasury", "value": "120"})
    run_command(save, GM, "note", {"text": "a new entry"})
    before, after = World(history.season_state(save, "Spring 312")), World(save.read())
    judged: list[str] = []
    for name in ("filter_document", "redact_entry"):
        original = getattr(audience, name)
        monkeypatch.setattr(audience, name, lambda *a, _f=original, _n=name: judged.append(_n) or _f(*a))
    diff = history.diff_worlds(before, after, GM)
    assert judged == []
    old_view = {t: {i: d for i, d in before.all(t)} for t in ("kingdoms", "units")}
    assert visible_table(before, GM, "kingdoms") == old_view["kingdoms"]
    assert diff.new_entries == len(visible_entries(after, GM)) - len(visible_entries(before, GM)) > 0
    assert any(c.doc_id == "elbreth" and c.fields["treasury"] == (99, 120) for c in diff.changes)


def test_a_backup_is_read_beside_the_save(save: WorldFile, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30: History at 1000x parsed the season's whole 54 MB backup (0.6 s), 39 MB of it the
    chronicle the save holds too. A table the backup holds as the save does, whole or as its first
    documents (the chronicle a season added to), is now the save's own; what is read is what parsing
    the whole backup gives, and anything the save does not hold as the backup does is parsed."""
    from yak_tui.kernel.season import history

    monkeypatch.setattr(history, "_WORTH_KEEPING", 0)  # the demo world's tables are small
    run_command(save, GM, "note", {"text": "before the close"})
    assert main(["--save", str(save.path), "advance"]) == 0
    run_command(save, GM, "note", {"text": "after the close"})
    backup = save.backups()[-1]
    current = save.read()
    whole = history.read_state(backup)
    beside = history.read_state(backup, current)
    assert whole is not None and beside == whole and list(beside) == list(whole)
    first = next(iter(whole["chronicle"]))
    assert beside["chronicle"][first] is current["chronicle"][first]  # taken from the save, not parsed
    assert len(beside["chronicle"]) < len(current["chronicle"])
    province = next(iter(whole["provinces"]))
    assert beside["provinces"][province] is current["provinces"][province]
    assert beside["meta"] == whole["meta"] != current["meta"]  # the date differs: parsed
    # The save holds no longer what the backup holds (an entry gone, a document edited): parsed.
    changed = orjson.loads(orjson.dumps(current))
    del changed["chronicle"][first]
    changed["provinces"][province]["name"] = "Elsewhere"
    again = history.read_state(backup, changed)
    assert again == whole and again is not None
    assert again["chronicle"][first] is not changed["chronicle"].get(first)
    assert again["provinces"][province]["name"] != "Elsewhere"
    # The diff the app and `yak diff` show is the same either way.
    world = World(current)
    assert history.diff_worlds(World(beside), world, GM).lines() == history.diff_worlds(World(whole), world, GM).lines()
