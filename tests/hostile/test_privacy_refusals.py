"""What refusals and replies may tell: an order's filer learns only the entry ids he may read
(not whether the target detected his spy), a refusal names no id of a table the identity may not
see, a GM-only command refuses before it looks anything up, and a reply lists only entries its
reader may see."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hostile_helpers import assert_refused, yak

from yak_tui.kernel.play.audience import visible_entries
from yak_tui.kernel.play.commands import COMMANDS, CommandContext, CommandSpec
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

EFFECT_IDS = ("varos-spy-ring-in-elbreth", "elbreth-smuggling-varos-march")


def ok(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    code, out, err = yak(capsys, ["--json", *argv])
    assert code == 0, err
    return json.loads(out)


def _spy_order_resolved(capsys: pytest.CaptureFixture[str], save: Path, detection: int) -> str:
    with WorldFile(save).transaction() as data:
        World(data).edit("specialists", "elbreth")["counter_spies"] = {"provinces": [], "nation": 0}
    filed = ok(
        capsys,
        "--save",
        str(save),
        "--as",
        "player:silas",
        "do",
        "spy-order",
        "mission=create-security-breach",
        "target=elbreth",
    )
    ok(capsys, "--save", str(save), "do", "spy-resolve", f"order={filed['order']}", "--dice", f"4,{detection}")
    return str(filed["order"])


@pytest.mark.parametrize("detection", [6, 3, 1])
def test_the_filer_cannot_tell_whether_the_target_detected_his_spy(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, demo_bytes: bytes, detection: int
) -> None:
    save = tmp_path / "w.json"
    save.write_bytes(demo_bytes)
    order_id = _spy_order_resolved(capsys, save, detection)
    world = World(WorldFile(save).read())
    readable = {e["id"] for e in visible_entries(world, Identity.parse("player:silas"))}
    all_ids = world.get("orders", order_id)["entries"]
    shown = ok(capsys, "--save", str(save), "--as", "player:silas", "show", "orders", order_id)["document"]
    table = ok(capsys, "--save", str(save), "--as", "player:silas", "show", "orders")["documents"][order_id]
    for view in (shown, table):
        assert set(view["entries"]) <= readable
        assert view["entries"] == [e for e in all_ids if e in readable]
        # The same number whether or not the target detected it (only the target's entry differs).
        assert len(view["entries"]) == len([e for e in all_ids if e in readable])
    if detection <= 3:
        assert len(all_ids) > len(shown["entries"])  # the target's "enemy operation detected" entry
    # The GM still sees every entry of the resolution.
    assert ok(capsys, "--save", str(save), "show", "orders", order_id)["document"]["entries"] == all_ids


def test_the_filer_sees_the_same_order_whatever_the_detection(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, demo_bytes: bytes
) -> None:
    views = []
    for detection in (6, 3):
        save = tmp_path / f"w{detection}.json"
        save.write_bytes(demo_bytes)
        order_id = _spy_order_resolved(capsys, save, detection)
        views.append(ok(capsys, "--save", str(save), "--as", "player:silas", "show", "orders", order_id)["document"])
    assert views[0]["entries"] == views[1]["entries"]


@pytest.mark.parametrize("who", ["player:corvin", "king:elbreth", "king:varos"])
def test_gm_only_commands_refuse_before_looking_anything_up(
    capsys: pytest.CaptureFixture[str], save_path: Path, who: str
) -> None:
    for argv in (
        ["assassination-resolve", "attempt=zz", "result=x"],
        ["assassination-resolve", "attempt=fx", "result=x"],
        ["schedule", "text=x", "due=nonsense"],
        ["user-remove", "name=nobody"],
    ):
        line = assert_refused(
            capsys, ["--save", str(save_path), "--as", who, "do", *argv], save_path, "only the GM may"
        )
        assert not any(effect in line for effect in EFFECT_IDS), line


# Which of the demo's effects each identity may know of.
MAY_SEE = {
    "player:corvin": (),
    "king:elbreth": ("elbreth-smuggling-varos-march",),
    "king:varos": ("varos-spy-ring-in-elbreth",),
}


@pytest.mark.parametrize("who", sorted(MAY_SEE))
def test_refusals_name_only_ids_the_identity_may_see(
    capsys: pytest.CaptureFixture[str], save_path: Path, who: str
) -> None:
    hidden = [effect for effect in EFFECT_IDS if effect not in MAY_SEE[who]]
    attempts = (
        ["do", "trap-resolve", "trap=zz", "friendly_escaped=true"],
        ["do", "trap-resolve", "trap=varos-spy-ring", "friendly_escaped=true"],
        ["do", "trap-resolve", "trap=elbreth-smuggling", "friendly_escaped=true"],
        ["do", "order-file", "command=trap-resolve", 'params={"trap": "zz", "friendly_escaped": true}'],
        ["do", "order-file", "command=trap-resolve", 'params={"trap": "varos-spy", "friendly_escaped": true}'],
        ["do", "consequence-fill", "entry=e0000", "text=x"],
        ["do", "credit-repay", "debt=cr-000"],
        ["do", "order-withdraw", "order=o-000"],
    )
    for argv in attempts:
        line = assert_refused(capsys, ["--save", str(save_path), "--as", who, *argv], save_path)
        for effect in hidden:
            assert effect not in line, (who, argv, line)


def test_suggestions_still_help_with_what_one_may_see(capsys: pytest.CaptureFixture[str], save_path: Path) -> None:
    line = assert_refused(
        capsys,
        [
            "--save",
            str(save_path),
            "--as",
            "king:varos",
            "do",
            "trap-resolve",
            "trap=varos-spy-ring",
            "friendly_escaped=true",
        ],
        save_path,
    )
    assert "did you mean varos-spy-ring-in-elbreth" in line
    line = assert_refused(
        capsys, ["--save", str(save_path), "do", "trap-resolve", "trap=zz", "friendly_escaped=true"], save_path
    )
    assert all(effect in line for effect in EFFECT_IDS)  # the GM may see them all


def test_a_reply_lists_only_the_entries_its_reader_may_see(
    capsys: pytest.CaptureFixture[str], save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def mixed(ctx: CommandContext, p: dict[str, Any]) -> dict[str, Any]:
        ctx.log("Corvin does something in public.", kind="note")
        ctx.log("The adjudicators note what Corvin cannot know.", kind="note", audience="adjudicators")
        ctx.log("Varos hears of it privately.", kind="note", audience="kingdom:varos")
        return {}

    monkeypatch.setitem(COMMANDS, "test-mixed", CommandSpec("test-mixed", "", {}, mixed))
    code, out, err = yak(capsys, ["--save", str(save_path), "--as", "player:corvin", "do", "test-mixed"])
    assert code == 0, err
    assert out.splitlines() == ["Corvin does something in public."]
    reply = ok(capsys, "--save", str(save_path), "--as", "player:corvin", "do", "test-mixed")
    world = World(WorldFile(save_path).read())
    assert [world.get("chronicle", e)["text"] for e in reply["entries"]] == ["Corvin does something in public."]
    gm = ok(capsys, "--save", str(save_path), "do", "test-mixed")
    assert len(gm["entries"]) == 3
