"""Orders validated at filing (issue 16, item 2): the filer hears at once "received", "received with
warnings" (it would fail on today's numbers, checked on a trial of the world) or "refused" with the reason,
and the odds where there are dice; the order form lists only the commands that identity may order."""

from __future__ import annotations

import pytest

from yak_tui.cli import main
from yak_tui.kernel.play.commands import CommandError, run_command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.views import check_order, order_commands, order_filed_text
from yak_tui.kernel.world.model import World
from yak_tui.serve.execs import submit_orders
from yak_tui.store.storage import WorldFile

CORVIN = Identity.parse("player:corvin")


def file(save: WorldFile, who: Identity, command: str, params: str) -> dict[str, object]:
    return run_command(save, who, "order-file", {"command": command, "params": params}).data


def test_received_received_with_warnings_refused(save: WorldFile) -> None:
    plain = file(save, CORVIN, "business-expand", "business=salt-works;sizes=1")
    assert plain["status"] == "received" and plain["warnings"] == []
    # Corvin's purse holds 15 ducats: forty sizes would fail today, but the order is taken.
    short = file(save, CORVIN, "business-expand", "business=salt-works;sizes=40")
    assert short["status"] == "received with warnings"
    (warning,) = short["warnings"]
    assert warning.startswith("on today's numbers it would fail:") and "ducats" in str(warning)
    world = World(save.read())
    assert world.get("orders", str(short["order"]))["warning"] == warning
    public = [e["text"] for _, e in world.all("chronicle") if e["audience"] == "public"]
    assert not any("would fail" in line for line in public)  # his numbers are his own
    text = order_filed_text(world, short)
    assert text.startswith("Order received with a warning; it waits for the GM. Warning: on today's numbers")
    before = save.path.read_bytes()
    with pytest.raises(CommandError) as refused:  # Lysa owns no salt works: refused, nothing written
        file(save, Identity.parse("player:lysa"), "business-expand", "business=salt-works;sizes=1")
    assert "Lysa" in refused.value.reason or "does not act" in refused.value.reason
    assert save.path.read_bytes() == before


def test_odds_come_with_an_order_that_rolls(save: WorldFile) -> None:
    data = file(save, CORVIN, "roll", "reason=Ford the river")
    assert data["odds"] and abs(sum(data["odds"].values()) - 1) < 1e-4
    assert " Odds: " in order_filed_text(World(save.read()), data)


def test_the_form_lists_only_what_that_identity_may_order(save: WorldFile) -> None:
    world = World(save.read())
    player = {c.name for c in order_commands(world, CORVIN)}
    king = {c.name for c in order_commands(world, Identity.parse("king:varos"))}
    never = {
        "gm-set",
        "gm-add",
        "rules-set",
        "schedule",
        "user-add",
        "advance",
        "note",
        "prices",
        "consequence-fill",
        "trap-resolve",
        "spy-resolve",
        "order-resolve",
        "season-deadline",
    }
    assert not (player | king) & never
    assert {"business-expand", "roll", "spy-mission"} <= player and "recruit" not in player
    assert {"recruit", "siege-begin", "roll"} <= king
    assert order_commands(world, Identity.parse("observer")) == ()
    assert check_order(world, CORVIN, "business-expand", {"business": "salt-works", "sizes": "40"}) is None


def test_over_ssh_and_the_cli_the_filer_reads_the_same_verdicts(
    save: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = submit_orders(
        save.path,
        CORVIN,
        "business-expand business=salt-works sizes=40\nroll reason=scout\nbusiness-expand business=nowhere\n",
    )
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith("line 1: received with warnings as o-") and "; warning: on today's numbers" in lines[0]
    assert lines[1].startswith("line 2: received as o-") and "; odds: " in lines[1]
    assert lines[2].startswith("line 3: refused: order.business: no business with id 'nowhere'")
    assert (
        main(
            [
                "--save",
                str(save.path),
                "--as",
                "player:corvin",
                "do",
                "order-file",
                "command=business-expand",
                "params=business=salt-works;sizes=40",
            ]
        )
        == 0
    )
    assert "Order received with a warning; it waits for the GM." in capsys.readouterr().out


def test_a_spy_order_reads_as_mission_names_not_slugs(save: WorldFile) -> None:
    """Issue 17 item 4: players read names and sentences; slugs and ids belong to --json."""
    from yak_tui.kernel.play.orders import describe_order

    order = {
        "command": "spy-order",
        "params": {"mission": "fund-bandits", "target": "varos", "infiltration": "infiltrate-treasury"},
    }
    text = describe_order(World(save.read()), order)
    assert "Fund Bandits" in text and "Kingdom of Varos" in text and "Infiltrate Treasury" in text
    assert "fund-bandits" not in text and "infiltrate-treasury" not in text
