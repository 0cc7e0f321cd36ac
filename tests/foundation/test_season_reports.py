"""One advance, every recipient's post (issue 16, item 3): closing a season writes, from the same state,
the public season post and a private report for each kingdom, each player and the GM, stored in the save
and exported as BBCode and Markdown under reports/<season>/.

The scripted season has three players, with a deadline: Corvin files an order that is carried out and one
received with a warning (it waits), Lysa files one that is refused, Maelis (on the roster) sends nothing (NMR); the GM writes each a private line. Every report is then
scanned for every other player's private strings.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import asyncssh
import orjson
import pytest

from yak_tui.cli import main
from yak_tui.kernel.play.commands import CommandError, run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.reports import render_report, reports_for
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

GM = Identity.parse("gm")
PLAYERS = ("corvin", "lysa", "maelis")
# What only that player may learn this season: the GM's private line and a holding of his own.
PRIVATE = {
    "corvin": ("the salt price in Amberport will double", "Saltcross Salt Works"),
    "lysa": ("a Varos customs officer takes bribes", "Lysa's private ledger"),
    "maelis": ("the tower library hides a second grimoire", "Maelis keeps a hidden study"),
}


def yak(capsys: pytest.CaptureFixture[str], save: WorldFile, *argv: str, who: str = "gm") -> tuple[int, Any]:
    code = main(["--save", str(save.path), "--as", who, "--json", *argv])
    captured = capsys.readouterr()
    return code, orjson.loads(captured.out or captured.err)


@pytest.fixture
def season(save: WorldFile) -> WorldFile:
    for name in PLAYERS:  # all three are seats: on the roster
        key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode()
        run_command(save, GM, "user-add", {"name": name, "identity": f"player:{name}", "key": key})
    run_command(save, GM, "advance", {}, ScriptedDice([3] * 40))  # Spring: the reports' starting point
    run_command(save, GM, "season-deadline", {"at": "2026-12-07 20:00"})
    corvin, lysa = Identity.parse("player:corvin"), Identity.parse("player:lysa")
    filed = run_command(
        save, corvin, "order-file", {"command": "business-expand", "params": "business=salt-works;sizes=1"}
    )
    warned = run_command(
        save, corvin, "order-file", {"command": "business-expand", "params": "business=salt-works;sizes=40"}
    )
    assert warned.data["status"] == "received with warnings"  # 40 sizes: more than his purse holds today
    with pytest.raises(CommandError):  # refused: Lysa owns no salt works
        run_command(save, lysa, "order-file", {"command": "business-expand", "params": "business=salt-works;sizes=1"})
    run_command(save, GM, "order-resolve", {"order": filed.data["order"]}, ScriptedDice([6, 6, 6, 6]))
    for name, (secret, _) in PRIVATE.items():
        run_command(save, GM, "note", {"text": f"The GM tells you: {secret}.", "audience": f"character:{name}"})
    run_command(save, GM, "note", {"text": "Lysa's private ledger shows 3 ducats", "audience": "character:lysa"})
    run_command(save, GM, "note", {"text": "Maelis keeps a hidden study", "audience": "character:maelis"})
    run_command(save, GM, "advance", {}, ScriptedDice([3] * 40))
    return save


def test_each_player_reads_his_own_private_results_and_nothing_of_another(season: WorldFile) -> None:
    world = World(season.read())
    for name in PLAYERS:
        viewer = Identity.parse(f"player:{name}")
        own = [r for r in reports_for(world, viewer) if r["recipient"] == str(viewer)]
        assert len(own) == 1, f"{name} has no report of his own"
        text = "\n".join(render_report(own[0], fmt) for fmt in ("bbcode", "markdown"))
        for secret in PRIVATE[name]:
            assert secret in text, f"{name}'s report lacks {secret!r}"
        for other, secrets in PRIVATE.items():
            if other != name:
                for secret in secrets:
                    assert secret not in text, f"{name}'s report shows {other}'s {secret!r}"
    public = [r for r in reports_for(world, Identity.parse("observer")) if r["recipient"] == "public"]
    public_text = render_report(public[0], "markdown")
    for secret, _ in PRIVATE.values():  # (a business and an order are public knowledge; a GM's word is not)
        assert secret not in public_text
    # The season post tells events, not bookkeeping: the order and its outcome in one line, no season
    # closing, no deadline, no ids.
    assert "Corvin Hale failed to expand Saltcross Salt Works: it lost the competition" in public_text
    assert "closes" not in public_text and "due by" not in public_text and "o-0001" not in public_text
    # The GM's report carries every kingdom; a player reads only the public post and his own.
    assert {r["recipient"] for r in reports_for(world, GM)} >= {
        "public",
        "gm",
        "king:elbreth",
        "king:varos",
        "player:corvin",
        "player:lysa",
        "player:maelis",
    }
    assert {r["recipient"] for r in reports_for(world, Identity.parse("player:lysa"))} == {"public", "player:lysa"}


def test_a_report_shows_holdings_their_changes_and_what_is_due(season: WorldFile) -> None:
    world = World(season.read())
    (corvin,) = [r for r in reports_for(world, Identity.parse("player:corvin")) if r["recipient"] == "player:corvin"]
    sections = {s["title"]: [i["text"] for i in s["items"]] for s in corvin["sections"]}
    assert any(line.startswith("Business Saltcross Salt Works: size") for line in sections["Holdings"])
    assert sections["Changes this season"] == ["Purse (ducats): 15 → 12 (-3)"]  # he paid for the expansion
    assert "Due in Autumn 312" in sections
    assert any(
        line.startswith("Order still waiting (Corvin Hale, for the GM): business expand") and "sizes 40" in line
        for line in sections["Due in Autumn 312"]
    )


def test_year_start_steps_that_did_nothing_are_left_out(save: WorldFile) -> None:
    for _ in range(4):
        run_command(save, GM, "advance", {}, ScriptedDice([3] * 400))
    world = World(save.read())
    report = next(r for r in reports_for(world, GM, "Winter 312") if r["recipient"] == "public")
    text = render_report(report, "markdown")
    assert "Year start" in text and "nothing to do" not in text


def test_yak_report_prints_and_exports_bbcode_and_markdown(
    season: WorldFile, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["--save", str(season.path), "--as", "player:lysa", "report", "--format", "bbcode"])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("[size=150][b]") and PRIVATE["lysa"][0] in out
    code, reply = yak(capsys, season, "report", "--out", str(tmp_path / "reports"), who="player:lysa")
    assert code == 0
    files = sorted(p.relative_to(tmp_path).as_posix() for p in (tmp_path / "reports").rglob("*.*"))
    assert files == [
        "reports/summer-312/player-lysa.bbcode",
        "reports/summer-312/player-lysa.md",
        "reports/summer-312/public.bbcode",
        "reports/summer-312/public.md",
    ]
    code, reply = yak(capsys, season, "report", "--season", "Autumn 320")
    assert code == 2 and "Autumn 320" in reply["error"]


# -- gathered once: a year start writes hundreds of reports over thousands of entries (issue 13) -----


def _every_audience(world: World) -> list[str]:
    return (
        ["adjudicators"]
        + [f"kingdom:{kid}" for kid, _ in world.all("kingdoms")]
        + [f"character:{cid}" for cid, _ in world.all("characters")]
    )


def _every_viewer(world: World) -> list[Identity]:
    from yak_tui.kernel.play.identity import OBSERVER

    return (
        [GM, OBSERVER]
        + [Identity.parse(f"king:{kid}") for kid, _ in world.all("kingdoms")]
        + [Identity.parse(f"player:{cid}") for cid, _ in world.all("characters")]
    )


def test_the_audiences_a_viewer_sees_are_those_may_see_lets_him(season: WorldFile) -> None:
    from yak_tui.kernel.play.audience import audiences_seen, may_see

    world = World(season.read())
    for viewer in _every_viewer(world):
        seen = audiences_seen(world, viewer)
        for audience in _every_audience(world):
            assert may_see(world, viewer, audience) == (seen is None or audience in seen), (viewer, audience)


def test_each_report_tells_what_filtering_every_entry_for_its_reader_would(season: WorldFile) -> None:
    """The reports read entries gathered by audience and adjudicator; the same items as asking the
    audience filter of every entry of the season, for every reader, in the same order."""
    from yak_tui.kernel.play.audience import PUBLIC, filter_entry
    from yak_tui.kernel.play.identity import OBSERVER
    from yak_tui.kernel.season.post import season_events
    from yak_tui.kernel.season.reports import begin_reports, season_entries, write_reports

    world = World(season.read())
    audiences = [PUBLIC, *_every_audience(world)]
    adjudicators = [None, "gm", "player:lysa", "player:corvin", "king:varos"]
    for n in range(60):  # entries of this season for every audience, some adjudicated by a player or a King
        seq = world.next_seq()
        entry = {
            "id": f"e-test-{n}",
            "seq": seq,
            "date": world.date.to_dict(),
            "kind": "note",
            "text": f"entry {n}",
            "audience": audiences[n % len(audiences)],
            "secret": f"secret {n}",
        }
        if adjudicators[n % len(adjudicators)] is not None:
            entry["adjudicator"] = adjudicators[n % len(adjudicators)]
        world.put("chronicle", f"e-test-{n}", entry)
    opening = begin_reports(world)
    closing = opening.closing
    entries = season_entries(world, (closing, world.date))
    written = write_reports(world, opening)
    assert len(written) == len(opening.recipients) > 5
    for recipient in opening.recipients:
        viewer = recipient.identity or OBSERVER
        shown = [
            seen
            for entry in entries
            if (seen := filter_entry(world, viewer, entry)) is not None
            and (recipient.identity is None) == (entry.get("audience", PUBLIC) == PUBLIC)
        ]
        notes = (lambda entry: [f"GM: {entry['secret']}"] if entry.get("secret") else []) if viewer.is_gm else None
        expected = [event.item() for event in season_events(world, shown, notes=notes)]
        report = next(
            r for _, r in world.all("reports") if r["recipient"] == recipient.key and r["season"] == closing.to_dict()
        )
        told = (
            [item for s in report["sections"] for item in s["items"]]
            if recipient.identity is None
            else next(s["items"] for s in report["sections"] if s["title"] == "Your private chronicle")
        )
        assert told == expected, recipient.key
        assert any("entry" in item["text"] for item in told) or recipient.key.startswith("player:")


def test_the_due_sections_tell_each_waiting_order_once_not_once_per_recipient(
    save: WorldFile, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 30: the due sections cost recipients + waiting orders, not recipients × orders (at 1000×,
    3,002 recipients × 2,000 orders was 12 M identity comparisons). Counted in operations, not time:
    each waiting order is described once for all the reports (it was once per reader who saw it)."""
    from yak_tui.kernel.play import orders as orders_module

    for who, params in (
        ("king:elbreth", "reason=mend the walls;kingdom=elbreth"),
        ("king:varos", "reason=watch the pass;kingdom=varos"),
        ("king:kesh", "reason=count the herds;kingdom=kesh"),
    ):
        run_command(save, Identity.parse(who), "order-file", {"command": "roll", "params": params})
    described: list[str] = []
    describe = orders_module.describe_order

    def counted_describe(world: World, order: dict[str, Any]) -> str:
        described.append(str(order.get("filed_by")))
        return describe(world, order)

    monkeypatch.setattr(orders_module, "describe_order", counted_describe)
    run_command(save, GM, "advance", {}, ScriptedDice([3] * 40))
    assert sorted(described) == ["king:elbreth", "king:kesh", "king:varos"]  # once each, for 5 reports
    world = World(save.read())
    reports = {r["recipient"]: r for _, r in world.all("reports")}
    assert len(reports) == 5  # the public, the GM and three Kings

    def waiting(recipient: str) -> list[str]:
        (due,) = [s for s in reports[recipient]["sections"] if s["title"].startswith("Due in")]
        return [i["text"] for i in due["items"] if i["text"].startswith("Order still waiting")]

    assert len(waiting("gm")) == 3
    assert waiting("king:varos") == [
        "Order still waiting (Queen Mirela, for the GM): roll: reason watch the pass, Kingdom of Varos"
    ]
    assert [line for line in waiting("gm") if "watch the pass" in line] == waiting("king:varos")
