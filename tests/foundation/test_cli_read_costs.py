"""Issue 30, fourth pass: the CLI's reads (`show`, `log`, `report`, `orders`, `due`) do per world,
per command or per kind what they did per document, entry or line, and print what they printed."""

from __future__ import annotations

import pytest

from yak_tui.kernel.play import audience
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.world.model import TABLES, World
from yak_tui.store.storage import WorldFile


def test_the_gm_counts_the_chronicle_without_judging_each_entry(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """`yak show` counts every table for the GM: the chronicle's entries were each asked `may_see`
    (100,000 at 1000x, ~50 ms), though the GM may see every one."""
    for n in range(30):
        world.data["chronicle"][f"c-x{n}"] = {"id": f"c-x{n}", "text": "x", "audience": "kingdom:varos", "seq": n}
    asked: list[str] = []
    real = audience.may_see

    def counted(*args: object, **kwargs: object) -> bool:
        asked.append("x")
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(audience, "may_see", counted)
    counts = {name: audience.visible_count(world, GM, name) for name in TABLES}
    assert asked == []
    assert counts["chronicle"] == len(world.data["chronicle"])
    assert counts == {name: len(world.data[name]) if name != "meta" else 1 for name in TABLES}
    king = Identity.parse("king:elbreth")  # anyone else is still judged entry by entry
    assert audience.visible_count(world, king, "chronicle") < len(world.data["chronicle"])
    assert asked


def test_an_identity_parsed_again_is_the_one_kept() -> None:
    """`yak orders` parsed four identities per order line (20,000 at 1000x): a seat's text now
    parses once; a refused text is refused every time."""
    from yak_tui.kernel.play.identity import IdentityError

    assert Identity.parse("king:varos") is Identity.parse("king:varos")
    assert Identity.parse(" gm:Alice ") == Identity("gm", "alice")
    for _ in range(2):
        with pytest.raises(IdentityError):
            Identity.parse("kingdom:varos")


def test_an_order_lines_odds_look_up_the_words_table_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """An RtD's seven odds rows looked the `words` table up seven times (a copy of it each, and the
    environment read for house rules); now once per line, with the same words."""
    from yak_tui.kernel.play import outcomes, views
    from yak_tui.kernel.world import tables

    odds = {"critical-failure": 0.17, "failure": 0.17, "minor-success": 0.17, "success": 0.17, "overshoot": 0.17}
    expected = ", ".join(outcomes.odds_row_words(key, value) for key, value in odds.items())
    looked: list[str] = []
    real = tables.table

    def counted(name: str) -> dict[str, object]:
        looked.append(name)
        return real(name)

    monkeypatch.setattr(outcomes, "table", counted)
    monkeypatch.setattr(views, "rules_table", counted)
    assert views.odds_words(odds, "roll", {}) == expected
    assert looked == ["words"]


def test_yak_log_without_a_filter_judges_no_entry(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """`yak log` with no --season, --kingdom, --character or --kind asked `matches` of every entry
    (100,000 at 1000x, ~25 ms); a filter still judges each one."""
    from yak_tui.kernel.play import chronicle

    asked: list[str] = []
    real = chronicle.ChronicleFilter.matches

    def counted(self: chronicle.ChronicleFilter, world: World, entry: dict[str, object]) -> bool:
        asked.append(str(entry.get("id")))
        return real(self, world, entry)

    monkeypatch.setattr(chronicle.ChronicleFilter, "matches", counted)
    every = chronicle.filter_entries(world, GM, chronicle.ChronicleFilter.from_args(world, None, None, None, None))
    assert asked == [] and every == audience.visible_entries(world, GM)
    notes = chronicle.filter_entries(world, GM, chronicle.ChronicleFilter(kind="note"))
    assert len(asked) == len(every) and all(entry.get("kind") == "note" for entry in notes)


def test_a_json_reply_is_written_as_orjson_made_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--json` wrote `orjson.dumps(...).decode()` through the text layer (decoded, then encoded
    again: 30 MB for `yak log --json` at 1000x); its bytes now go out as they are, the same bytes."""
    import io
    import sys

    import orjson

    from yak_tui.cli.session import GlobalOptions, emit

    payload = {"text": "Kæsh — “quoted” ✓", "n": [1, 2.5, None]}
    out = io.TextIOWrapper(io.BytesIO(), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", out)
    emit(GlobalOptions(json=True), {"before": 1}, encoded=orjson.dumps({"before": 1}))
    decoded: list[bytes] = []
    real = bytes.decode

    class Spy(bytes):
        def decode(self, *args: object, **kwargs: object) -> str:  # type: ignore[override]
            decoded.append(self)
            return real(self, *args, **kwargs)  # type: ignore[arg-type]

    emit(GlobalOptions(json=True), payload, encoded=Spy(orjson.dumps(payload)))
    out.flush()
    assert out.buffer.getvalue() == b'{"before":1}\n' + orjson.dumps(payload) + b"\n"  # type: ignore[attr-defined]
    assert decoded == []
    text = io.StringIO()  # no bytes layer underneath: written as text
    monkeypatch.setattr(sys, "stdout", text)
    emit(GlobalOptions(json=True), payload)
    assert text.getvalue() == orjson.dumps(payload).decode() + "\n"


def test_a_sieges_due_line_looks_its_fort_up_once(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """`yak due` asked each siege's whole monitor summary (its defenders listed and named, the
    regiments inside counted twice): three lookups of the fort's units per siege, 1,000 sieges at
    1000x; now one, with the same line."""
    from yak_tui.kernel.play.commands import load_command_modules
    from yak_tui.kernel.season.session import due_for

    load_command_modules()
    siege = {"fort": "brinehaven", "besieger": "varos", "defender": "elbreth", "status": "active"}
    siege |= {"provisions": 4, "effective": True, "land_blockade": True, "sea_blockade": True, "decisions": []}
    world.data["sieges"]["siege-0001"] = siege
    before = [item for item in due_for(world, GM) if str(item.get("kind", "")).startswith("siege")]
    looked: list[object] = []
    real = World.where

    def counted(self: World, table: str, **match: object) -> list[tuple[str, dict[str, object]]]:
        if table == "units":
            looked.append(match)
        return real(self, table, **match)

    monkeypatch.setattr(World, "where", counted)
    after = [item for item in due_for(world, GM) if str(item.get("kind", "")).startswith("siege")]
    assert after == before and "Siege of Brinehaven by" in str(after[0]["text"])
    assert looked == [{"inside": "brinehaven"}]


def test_the_order_queue_groups_its_lines_in_one_pass_and_names_each_seat_once(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`queue_text` gathered each adjudicator's lines by a pass over every line (lines x
    adjudicators: 5,000 x 3,000 at 1000x if each King rules on his own); `order_lines` named the
    filer and adjudicator of every line (10,000 names at 1000x for a few seats)."""
    from yak_tui.kernel.play import queue

    class Seat(str):  # counts how often a line's adjudicator is compared
        compared = 0

        def __eq__(self, other: object) -> bool:
            Seat.compared += 1
            return str.__eq__(self, other)

        __hash__ = str.__hash__

    lines = [
        queue.OrderLine(
            f"o-{n:04d}",
            "gm",
            "the GM",
            Seat(f"king:k{n % 40}"),
            f"K{n % 40}",
            "roll",
            "",
            False,
            "waiting",
            {},
            "",
            "",
        )
        for n in range(400)
    ]
    text = queue.queue_text(world, GM, lines, "(none)")
    assert text.count("Waiting for") == 40 and text.count("\n  o-") == 400
    assert Seat.compared < 2 * len(lines)
    for n in range(30):
        world.data["orders"][f"o-9{n:03d}"] = {
            "command": "note",
            "params": {"text": "x"},
            "filed_by": "king:varos",
            "adjudicator": "gm",
            "status": "waiting",
            "filed": {"year": 312, "season": "Spring"},
        }
    named: list[str] = []
    real = queue.identity_name

    def counted(world: World, identity: Identity) -> str:
        named.append(str(identity))
        return real(world, identity)

    monkeypatch.setattr(queue, "identity_name", counted)
    shown = queue.order_lines(world, GM, odds=False)
    assert len(shown) >= 30 and len(named) == len(set(named))
    assert {line.filer for line in shown if line.filed_by == "king:varos"} == {
        real(world, Identity.parse("king:varos"))
    }


def test_the_same_odds_are_worded_once_per_queue(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30, fifth pass: `yak due` and `yak orders` worded every line's odds (200 RtD orders with
    the same seven rows at 100x); rows that read the same are worded once, while a command whose words
    depend on its parameters (a spy mission's) is still worded for each order."""
    from yak_tui.kernel.play import queue

    for n in range(30):
        world.data["orders"][f"o-9{n:03d}"] = {
            "command": "roll",
            "params": {"reason": f"reason {n}", "modifier": n % 2},
            "filed_by": "king:varos",
            "adjudicator": "gm",
            "status": "waiting",
            "filed": {"year": 312, "season": "Spring"},
        }
    expected = [line.line() for line in queue.order_lines(world, GM)]
    worded: list[str] = []
    real = queue.odds_words

    def counted(odds: dict[str, float], command: str = "", params: object = None) -> str:
        worded.append(command)
        return real(odds, command, params)  # type: ignore[arg-type]

    monkeypatch.setattr(queue, "odds_words", counted)
    shown = queue.order_lines(world, GM)
    assert [line.line() for line in shown] == expected
    rolls = [line for line in shown if line.id.startswith("o-9")]
    assert len(rolls) == 30 and all("odds fails badly" in line.line() for line in rolls)
    assert worded.count("roll") == 2  # one for each modifier's rows


def test_a_command_runs_with_the_collector_paused_and_a_lasting_one_does_not(
    monkeypatch: pytest.MonkeyPatch, save: WorldFile
) -> None:
    """Issue 30, eighth pass: a command done in a moment (it leaves by `os._exit`) runs with the
    collector paused, on again after it for a caller that goes on; `serve` runs as long as its
    server does, with it on (`tui` pauses it for its start only: tests/app/test_warm_up.py)."""
    import gc

    from yak_tui.cli import commands
    from yak_tui.cli import main as cli_main

    seen: dict[str, bool] = {}
    for verb in ("due", "serve"):
        monkeypatch.setitem(
            commands.VERBS, verb, lambda opts, args, verb=verb: seen.__setitem__(verb, gc.isenabled()) or 0
        )
    assert gc.isenabled()
    assert cli_main(["--save", str(save.path), "due"]) == 0
    assert gc.isenabled()
    assert cli_main(["--save", str(save.path), "serve"]) == 0
    assert seen == {"due": False, "serve": True}
