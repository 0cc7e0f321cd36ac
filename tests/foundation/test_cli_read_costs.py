"""Issue 30, fourth pass: the CLI's reads (`show`, `log`, `report`, `orders`, `due`) do per world,
per command or per kind what they did per document, entry or line, and print what they printed."""

from __future__ import annotations

import pytest

from yak_tui.kernel.play import audience
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.world.model import TABLES, World


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
