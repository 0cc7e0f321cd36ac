"""Issue 27, the GM's queue: `yak orders` and `yak show orders` list the waiting orders in words, by
adjudicator, as each seat may see them; `yak do COMMAND --help` prints the command's parameters from
the registry; `yak due` lists what each identity has to do; `advance` says what it did and refuses
to close a season with orders still waiting unless `--carry` says to carry them over."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from yak_tui.cli import main
from yak_tui.kernel.play.commands import COMMANDS, coerce_params, load_command_modules, spec_for
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.play.usage import command_usage, usage_text
from yak_tui.kernel.world.model import World
from yak_tui.serve.execs import run_exec
from yak_tui.store.storage import WorldFile

load_command_modules()

# Corvin's bank lends to Lysa in Elbreth: King Aldric rules on it (he is no party). Corvin's spy mission
# is private (the GM's); Lysa's roll is public (the GM's).
CREDIT = ("player:corvin", "order-file", "command=credit-extend", "params=lender=hale-bank;debtor=lysa;amount=5")
SPY = ("player:corvin", "spy-order", "mission=infiltrate-treasury", "target=varos")
ROLL = ("player:lysa", "order-file", "command=roll", "params=reason=trade winds")


def yak(capsys: pytest.CaptureFixture[str], save: WorldFile, *argv: str, who: str = "gm") -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["--save", str(save.path), "--as", who, *argv])
    out, err = capsys.readouterr()
    return code, out, err


def text(capsys: pytest.CaptureFixture[str], save: WorldFile, *argv: str, who: str = "gm") -> str:
    code, out, err = yak(capsys, save, *argv, who=who)
    assert code == 0, err
    return out


def data(capsys: pytest.CaptureFixture[str], save: WorldFile, *argv: str, who: str = "gm") -> Any:
    return orjson.loads(text(capsys, save, "--json", *argv, who=who))


@pytest.fixture
def filed(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> WorldFile:
    for who, *argv in (CREDIT, SPY, ROLL):
        text(capsys, save, "do", *argv, who=who)
    return save


def test_the_gm_reads_every_waiting_order_in_words_by_adjudicator(
    filed: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    out = text(capsys, filed, "orders")
    assert out.splitlines() == [
        "Waiting for you (2):",
        "  o-0002  Corvin Hale: spy mission: mission Infiltrate Treasury, target Kingdom of Varos "
        "(filed Spring 312; private; odds " + out.split("private; odds ")[1].split(")")[0] + ")",
        out.splitlines()[2],
        "Waiting for King Aldric (1):",
        "  o-0001  Corvin Hale: credit extend: lender Hale & Sons Bank, debtor Lysa Marr, amount 5 "
        "(filed Spring 312; public)",
    ]
    assert out.splitlines()[2].startswith(
        "  o-0003  Lysa Marr: roll: reason trade winds (filed Spring 312; public; odds "
    )
    assert "o-0001: \n" not in out and "hale-bank" not in out  # words, not ids of documents
    rows = data(capsys, filed, "orders")["orders"]
    assert [(r["order"], r["adjudicator"], r["private"]) for r in rows] == [
        ("o-0002", "gm", True),
        ("o-0003", "gm", False),
        ("o-0001", "king:elbreth", False),
    ]
    assert set(rows[0]) >= {"filer", "text", "filed", "status", "odds", "adjudicator_name"}
    assert rows[1]["odds"] and abs(sum(rows[1]["odds"].values()) - 1) < 1e-4
    # `show orders` reads the same lines (every order, decided ones with their outcome).
    text(capsys, filed, "do", "order-reject", "order=o-0003", "reason=not now")
    shown = text(capsys, filed, "show", "orders")
    assert "o-0003  Lysa Marr: roll: reason trade winds (filed Spring 312; public; rejected: not now)" in shown
    assert "credit extend: lender Hale & Sons Bank" in shown
    assert set(data(capsys, filed, "show", "orders")["documents"]) == {"o-0001", "o-0002", "o-0003"}


def test_a_king_reads_his_queue_and_a_player_his_own(filed: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    king = text(capsys, filed, "orders", who="king:elbreth")
    assert king.splitlines() == [
        "Waiting for you (1):",
        "  o-0001  Corvin Hale: credit extend: lender Hale & Sons Bank, debtor Lysa Marr, amount 5 "
        "(filed Spring 312; public)",
    ]
    lysa = text(capsys, filed, "orders", who="player:lysa")
    assert "o-0003" in lysa and "Waiting for the GM (1):" in lysa
    assert "o-0001" not in lysa and "o-0002" not in lysa
    corvin = [r["order"] for r in data(capsys, filed, "orders", who="player:corvin")["orders"]]
    assert corvin == ["o-0002", "o-0001"]  # his own, by adjudicator
    assert text(capsys, filed, "orders", who="observer").strip() == "no orders waiting in Spring 312"


def test_due_lists_what_each_identity_has_to_do(filed: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    gm = text(capsys, filed, "due").splitlines()
    assert [line.split("  ")[0] for line in gm if line.startswith("! ")] == [
        "! To rule on: o-0002",
        "! To rule on: o-0003",
        "! Waits for King Aldric: o-0001",
    ]
    king = text(capsys, filed, "due", who="king:elbreth").splitlines()
    assert king[0].startswith("! To rule on: o-0001  Corvin Hale: credit extend")
    assert "  You have filed no orders for Spring 312 yet" in king
    varos = text(capsys, filed, "due", who="king:varos")
    assert "o-0002" not in varos and "Infiltrate" not in varos and "To rule on" not in varos
    lysa = text(capsys, filed, "due", who="player:lysa").splitlines()
    assert lysa[0].startswith("  Your order o-0003  roll: reason trade winds") and lysa[0].endswith("waits for the GM")
    assert lysa[1] == "  You have filed 1 order for Spring 312; say you are ready when all are in (`yak ready`)"
    text(capsys, filed, "ready", who="player:lysa")
    assert "and said you are ready" in text(capsys, filed, "due", who="player:lysa")
    items = data(capsys, filed, "due", who="king:elbreth")["due"]
    assert items[0]["kind"] == "queue" and items[0]["order"] == "o-0001" and items[0]["urgent"] is True


def test_over_ssh_a_seat_reads_the_same_queue_and_due_list(
    filed: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    for who, verb, argv in (("king:elbreth", "orders", ["orders"]), ("player:lysa", "due", ["due"])):
        code, out = run_exec(filed.path, Identity.parse(who), verb, b"")
        assert code == 0 and out == text(capsys, filed, *argv, who=who)
    # Queen Mirela reads her subject's public order (not its odds: she neither filed nor rules on it),
    # and nothing of Corvin's private mission against her.
    code, out = run_exec(filed.path, Identity.parse("king:varos"), "orders", b"")
    assert code == 0
    assert out == "Waiting for the GM (1):\n  o-0003  Lysa Marr: roll: reason trade winds (filed Spring 312; public)\n"


def test_do_command_help_comes_from_the_registry(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    out = text(capsys, save, "do", "raid", "--help")
    lines = out.splitlines()
    assert lines[0] == f"raid: {spec_for('raid').help_text}"
    assert "Who may: the GM runs it; a King or a player files it as an order" in out
    assert any(
        line.startswith("  unit   text; required; names one of units by id or name — the raiding unit")
        for line in lines
    )
    assert any(line.startswith("  pc     text; required; names one of pcs") for line in lines)
    example = lines[lines.index("Example:") + 1].split()
    assert example[:3] == ["yak", "do", "raid"] and [w.split("=")[0] for w in example[3:]] == ["unit", "pc"]
    as_king = text(capsys, save, "do", "raid", "--help", who="king:varos")
    assert "yak do order-file command=raid 'params=unit=" in as_king
    listed = data(capsys, save, "do", "recruit", "--help")
    assert {p["name"]: p["required"] for p in listed["params"]}["regiments"] is True
    assert text(capsys, save, "do", "--help").startswith("usage: yak do")
    code, _, err = yak(capsys, save, "do", "raide", "--help")
    assert code == 2 and "did you mean raid" in err


def test_every_commands_help_names_each_parameter_and_its_example_reads(save: WorldFile) -> None:
    world = World(save.read())
    for name, spec in sorted(COMMANDS.items()):
        usage = command_usage(name, world, GM)
        shown = usage_text(usage)
        for pname, param in spec.params.items():
            assert f"  {pname} " in shown, (name, pname)
            if not param.required:
                assert "default" in next(line for line in shown.splitlines() if line.startswith(f"  {pname} "))
        words = usage["example"][0].split()[3:]
        given = dict(word.split("=", 1) for word in words)
        assert set(given) == {p for p, param in spec.params.items() if param.required}, name
        coerce_params(spec, given)  # every value is of its type, within its range, one of its choices


def test_who_may_is_named_once(filed: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = yak(capsys, filed, "do", "order-resolve", "order=o-0003", who="king:varos")
    assert code == 2 and err.rstrip().endswith("(who may: the GM)")


def test_advance_refuses_waiting_orders_unless_carried_and_says_what_it_did(
    filed: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    before = filed.path.read_bytes()
    code, out, err = yak(capsys, filed, "advance")
    assert code == 2 and out == ""
    assert "3 orders still wait for their adjudicators in Spring 312" in err and "--carry" in err
    assert filed.path.read_bytes() == before and not filed.backups()
    preview = text(capsys, filed, "advance", "--preview")
    assert "3 orders still waiting (closing needs --carry to carry them over):" in preview
    assert (
        "  o-0001  credit extend: lender Hale & Sons Bank, debtor Lysa Marr, amount 5 (waits for King Aldric)"
        in preview
    )
    out = text(capsys, filed, "advance", "--carry")
    lines = out.splitlines()
    assert lines[0] == "Spring 312 -> Summer 312"
    assert lines[1] == "carried over into Summer 312: 3 orders (o-0001, o-0002, o-0003)"
    world = World(filed.read())
    written = sorted(r for r in world.table("reports"))
    assert lines[2] == f"reports written: {len(written)} (`yak report --season 'Spring 312'`)"
    assert {o["status"] for _, o in world.all("orders")} == {"waiting"}
    # Nothing waiting: no flag needed. A year start prints its sums.
    for order in ("o-0001", "o-0002", "o-0003"):
        text(capsys, filed, "do", "order-withdraw", f"order={order}")
    text(capsys, filed, "advance")
    year = text(capsys, filed, "advance")
    assert year.startswith("Autumn 312 -> Winter 312")
    year = text(capsys, filed, "advance")
    assert year.startswith("Winter 312 -> Spring 313") and "carried over" not in year
    assert any(line.startswith("Tax and earnings: tax paid ") for line in year.splitlines())
    payload = data(capsys, filed, "advance")
    assert payload["carried"] == [] and payload["reports"] and payload["from"] == "Spring 313"


def test_a_seat_may_not_advance_and_hears_nothing_of_the_orders(
    filed: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = yak(capsys, filed, "advance", who="king:elbreth")
    assert code == 2 and "only the GM may advance the season" in err and "orders" not in err


def test_the_dashboards_due_list_works_out_no_odds(filed: WorldFile, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 30: the dashboard's due list keeps only the order lines' count and what they ask, yet it
    worked out every waiting order's odds (most of a GM's dashboard after each write at 100x). It now
    asks none, and says what it said with them; `yak due` still gives each line its odds."""
    from yak_tui.areas.court.read_season import DueItem, due_list
    from yak_tui.kernel.play import queue
    from yak_tui.kernel.season import session

    world = World(filed.read())
    asked: list[str] = []
    odds = queue.command_odds

    def counted(*args: Any, **kwargs: Any) -> Any:
        asked.append(str(args[2]))
        return odds(*args, **kwargs)

    monkeypatch.setattr(queue, "command_odds", counted)
    orders_due = session.orders_due
    for who in ("gm", "king:elbreth", "player:lysa", "player:corvin"):
        identity = Identity.parse(who)
        listed = due_list(world, identity)
        assert asked == []
        with monkeypatch.context() as old:  # as it was: the lines with their odds
            old.setattr(session, "orders_due", lambda world, identity, odds=True: orders_due(world, identity))
            assert due_list(world, identity) == listed
        assert asked or who in ("king:elbreth",)  # the King's one order rolls no dice
        asked.clear()
    assert due_list(world, GM)[0] == DueItem("orders", "3 orders waiting for adjudication", True)
    assert "Your order to roll: reason trade winds waits for the GM" in [
        i.text for i in due_list(world, Identity.parse("player:lysa"))
    ]
