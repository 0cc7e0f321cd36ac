"""Deadlines and readiness: the GM sets the orders deadline, seats say they are ready, the dashboard's
due list and the advance preview name who filed, who is ready and who sent nothing (NMR)."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from yak_tui.cli import main
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.session import due_for, preview
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile


def yak(capsys: pytest.CaptureFixture[str], save: WorldFile, *argv: str, who: str = "gm") -> tuple[int, Any]:
    code = main(["--save", str(save.path), "--as", who, "--json", *argv])
    captured = capsys.readouterr()
    return code, orjson.loads(captured.out or captured.err)


def test_a_season_with_a_deadline_names_ready_filed_and_silent_seats(
    save: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    assert yak(capsys, save, "season", "deadline", "2026-12-07  20:00")[0] == 0
    assert yak(capsys, save, "do", "order-file", "command=roll", "params=reason=scout", who="player:corvin")[0] == 0
    assert yak(capsys, save, "ready", who="king:elbreth")[0] == 0
    code, status = yak(capsys, save, "season", "status")
    assert code == 0
    assert status["deadline"] == "2026-12-07T20:00Z"  # no zone given, none set for the GM: UTC
    assert status["deadline_shown"] == "2026-12-07 20:00 UTC, in 6 days 8 h"
    by_seat = {row["identity"]: row["status"] for row in status["seats"]}
    assert by_seat == {"king:elbreth": "ready", "king:varos": "no orders", "player:corvin": "filed"}
    world = World(save.read())
    (line,) = [i["text"] for i in due_for(world, Identity.parse("player:corvin")) if i["kind"] == "deadline"]
    assert line.startswith("Orders due by 2026-12-07 20:00 UTC") and "no orders: King · Kingdom of Varos" in line
    outlook = preview(save)
    assert [o["filed_by"] for o in outlook["waiting_orders"]] == ["player:corvin"]
    assert outlook["no_orders"] == ["King · Kingdom of Varos"]
    # Taking readiness back, then a new season: deadline and readiness are cleared.
    assert yak(capsys, save, "ready", "--not", who="king:elbreth")[0] == 0
    assert yak(capsys, save, "season", "status")[1]["ready"] == []
    before = save.path.read_bytes()
    assert yak(capsys, save, "advance")[0] == 2  # Corvin's order still waits: closing needs --carry
    assert save.path.read_bytes() == before
    assert yak(capsys, save, "advance", "--carry")[0] == 0
    after = World(save.read())
    assert after.meta.get("deadline") is None and after.meta["ready"] == []


@pytest.mark.parametrize(
    ("argv", "who", "field"),
    [
        (("season", "deadline", "next tuesday"), "gm", "at"),
        (("season", "deadline", "2026-12-07"), "king:varos", "identity"),
        (("ready",), "gm", "identity"),
    ],
)
def test_bad_deadline_or_seat_is_refused_and_changes_nothing(
    save: WorldFile, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], who: str, field: str
) -> None:
    before = save.path.read_bytes()
    code, reply = yak(capsys, save, *argv, who=who)
    assert code == 2 and reply["field"] == field
    assert save.path.read_bytes() == before


def test_a_campaign_without_deadlines_hears_nothing_of_nmr(save: WorldFile) -> None:
    world = World(save.read())
    assert [i for i in due_for(world, Identity("gm")) if i["kind"] == "deadline"] == []
    assert preview(save)["no_orders"] == []
