"""Order floods in the kernel (issue 25, items 6 and 7): several commands in one transaction
(`run_commands`: one write, a refused one leaves the rest applied and the save untouched by it, a
stop writes nothing); the seat's `orders_per_seat_per_season` holds for every way an order is filed;
a value left out or null never reads "None"."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hostile_helpers import assert_refused, sha256, yak

from yak_tui.kernel.play.commands import COMMANDS, CommandContext, CommandError, CommandResult, CommandSpec, run_command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.orders import describe_order
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import set_override_dir
from yak_tui.store.storage import WorldFile

GM = Identity.parse("gm")
CORVIN = Identity.parse("player:corvin")
ROLL = ("order-file", {"command": "roll", "params": "reason=scout"})


@pytest.fixture
def writes(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    written: list[Path] = []
    write = WorldFile._write

    def counted(self: WorldFile, snapshot: Any) -> None:
        written.append(self.path)
        write(self, snapshot)

    monkeypatch.setattr(WorldFile, "_write", counted)
    return written


def half_done(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
    """Changes a treasury and writes a chronicle line, then is refused: a command that fails late."""
    ctx.world.edit("kingdoms", "elbreth")["treasury"] = 999_999
    ctx.log("half done")
    raise CommandError("test", "refused after it changed the world")


def test_several_commands_are_one_write_and_a_refused_one_leaves_no_trace(
    save_path: Path, writes: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from yak_tui.kernel.play.commands import run_commands

    monkeypatch.setitem(COMMANDS, "test-half-done", CommandSpec("test-half-done", "", {}, half_done))
    save = WorldFile(save_path)
    before = World(save.read())
    treasury = before.get("kingdoms", "elbreth")["treasury"]
    answers = run_commands(
        save,
        GM,
        [("note", {"text": "first"}), ("test-half-done", {}), ("no-such-command", {}), ("note", {"text": "last"})],
    )
    assert [type(answer).__name__ for answer in answers] == [
        "CommandResult",
        "CommandError",
        "CommandError",
        "CommandResult",
    ]
    assert "refused after it changed the world" in str(answers[1])
    assert writes == [save.path]
    after = World(save.read())
    assert after.get("kingdoms", "elbreth")["treasury"] == treasury
    texts = [entry["text"] for _, entry in after.all("chronicle")][-2:]
    assert [text.split(": ")[-1] for text in texts] == ["first", "last"] and "half done" not in str(after.data)
    assert after.meta["revision"] == before.meta.get("revision", 0) + 1
    assert [record["command"] for record in after.meta["undo"][-2:]] == ["note", "note"]
    # Every one refused: nothing is written at all.
    assert all(isinstance(a, CommandError) for a in run_commands(save, GM, [("test-half-done", {})]))
    assert writes == [save.path]


def test_a_stop_writes_nothing(save_path: Path, writes: list[Path]) -> None:
    from yak_tui.kernel.play.commands import Stopped, run_commands

    save = WorldFile(save_path)
    before = sha256(save_path)
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 2  # the client goes while the third order is being read

    with pytest.raises(Stopped, match="nothing was written"):
        run_commands(save, CORVIN, [ROLL] * 5, stop=stop)
    assert len(asked) == 3 and writes == [] and sha256(save_path) == before


def test_the_season_cap_holds_for_every_way_an_order_is_filed(
    save_path: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from yak_tui.kernel.play.commands import run_commands

    save = WorldFile(save_path)
    filed = run_commands(save, CORVIN, [ROLL] * 49 + [("ask", {"text": "a ship"})])
    assert all(isinstance(answer, CommandResult) for answer in filed)
    withdrawn = str(filed[0].data["order"])  # type: ignore[union-attr]
    run_command(save, CORVIN, "order-withdraw", {"order": withdrawn})  # a withdrawn order still counts
    as_corvin = ["--save", str(save_path), "--as", "player:corvin", "do"]
    cap = ("Corvin Hale has filed 50 orders this season", "orders_per_seat_per_season = 50")
    for argv in (
        ["order-file", "command=roll", "params=reason=x"],
        ["order-file", "command=business-expand", 'params={"business": "salt-works", "sizes": 1}'],
        ["spy-order", "mission=fund-bandits", "target=varos"],
        ["ask", "text=one more"],
    ):
        assert_refused(capsys, [*as_corvin, *argv], save_path, *cap)
    # Another seat is not held back by Corvin's orders.
    code, _, err = yak(
        capsys, ["--save", str(save_path), "--as", "player:lysa", "do", "order-file", "command=roll", "params=reason=x"]
    )
    assert code == 0, err
    # The cap is a rule of the table: a house rule changes it (and 0 lifts it).
    rules = tmp_path / "house"
    rules.mkdir()
    (rules / "core.toml").write_text("[orders]\norders_per_seat_per_season = 2\n")
    try:
        code, _, err = yak(
            capsys, ["--save", str(save_path), "--rules", str(rules), "--as", "player:lysa", "do", "ask", "text=x"]
        )
        assert code == 0, err  # Lysa's second order of the season
        before = sha256(save_path)
        code, _, err = yak(
            capsys, ["--save", str(save_path), "--rules", str(rules), "--as", "player:lysa", "do", "ask", "text=y"]
        )
        assert code == 2 and "orders_per_seat_per_season = 2" in err and sha256(save_path) == before
        (rules / "core.toml").write_text("[orders]\norders_per_seat_per_season = 0\n")
        code, _, err = yak(capsys, [*as_corvin[:2], "--rules", str(rules), *as_corvin[2:], "ask", "text=z"])
        assert code == 0, err
    finally:
        set_override_dir(None)


def test_a_null_or_missing_value_never_reads_none(save_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    world = World(WorldFile(save_path).read())
    stored = {"command": "credit-repay", "params": {"debt": "l-0001", "amount": None}}
    assert describe_order(world, stored) == "credit repay: debt l-0001"
    assert (
        describe_order(world, {"command": "roll", "params": {"reason": "scout", "kingdom": None, "audience": ""}})
        == "roll: reason scout"
    )
    # Given as JSON null: filed, and read back, without a "None".
    code, out, err = yak(
        capsys,
        [
            "--save",
            str(save_path),
            "--as",
            "player:corvin",
            "do",
            "order-file",
            "command=roll",
            'params={"reason": "scout", "kingdom": null}',
        ],
    )
    assert code == 0, err
    code, listed, err = yak(capsys, ["--save", str(save_path), "--as", "player:corvin", "log"])
    assert code == 0, err
    world = World(WorldFile(save_path).read())
    (order,) = [order for _, order in world.all("orders")]
    texts = [entry["text"] for _, entry in world.all("chronicle") if (entry.get("refs") or {}).get("order")]
    assert describe_order(world, order) == "roll: reason scout"
    assert texts and all("None" not in text for text in texts) and "None" not in out + listed
