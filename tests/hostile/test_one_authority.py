"""Issue 24: every way in obeys one authority and one audience. Each test here failed on main before
the filing rule (`kernel.play.filing`): a player made himself GM through an order, a spy mission sent as
an order was public, refusals quoted other players' private orders, a player triggered another's
mission, the board showed a player his kingdom's secret spy state, a rejection's reason was public,
`export` printed every secret, year-start lines told secret operations, and a filer set his own
modifiers and a bribe past its cap."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hostile_helpers import assert_refused, sha256, yak

from yak_tui.areas.espionage import board_view
from yak_tui.kernel.play.audience import visible_entries, visible_table
from yak_tui.kernel.play.commands import COMMANDS, load_command_modules
from yak_tui.kernel.play.filing import filing_refusal, may_file
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.play.views import check_order, order_commands
from yak_tui.kernel.world.model import World
from yak_tui.serve.execs import run_exec
from yak_tui.store.storage import WorldFile

load_command_modules()

PLAYER, KING, OBSERVER, CO_GM = (
    Identity.parse(text) for text in ("player:edmund", "king:elbreth", "observer", "gm:alice")
)
KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"
# Commands no seat may ever file: the GM's acts, the adjudicator's, the queue's and the season's.
GM_ACTS = sorted(name for name, spec in COMMANDS.items() if spec.gm_only or spec.category in ("roster", "season", "gm"))


def ok(capsys: pytest.CaptureFixture[str], save: Path, *argv: str) -> Any:
    code, out, err = yak(capsys, ["--save", str(save), "--json", *argv])
    assert code == 0, err
    return json.loads(out)


def world(save: Path) -> World:
    return World(WorldFile(save).read())


def seen_text(save: Path, who: str) -> str:
    """Everything of the chronicle and the orders table this seat may read."""
    w, ident = world(save), Identity.parse(who)
    return json.dumps([visible_entries(w, ident), visible_table(w, ident, "orders")])


# -- 1. a player can no longer make himself GM ------------------------------------------------------


def test_the_registry_says_who_files_each_command_and_no_gm_act_is_fileable() -> None:
    assert {
        "user-add",
        "user-remove",
        "rules-set",
        "rules-clear",
        "gm-set",
        "gm-remove",
        "gm-conquer",
        "gm-transfer",
        "schedule",
        "season-deadline",
        "advance",
        "undo",
    } <= set(GM_ACTS)
    for name, spec in sorted(COMMANDS.items()):
        for who in (PLAYER, KING, OBSERVER, CO_GM, Identity.parse("gm")):
            allowed = may_file(who, spec)
            assert allowed == (who.role in spec.filed_by and not who.is_gm and not who.is_observer), (name, who)
            if name in GM_ACTS or name.startswith(("order-", "spy-resolve", "spy-order")) or name == "ask":
                assert not allowed, (name, who)
        if spec.gm_only:
            assert spec.filed_by == (), name


@pytest.mark.parametrize("command", GM_ACTS)
def test_no_seat_files_a_gm_act_through_order_file(
    capsys: pytest.CaptureFixture[str], save_path: Path, command: str
) -> None:
    for who in ("player:edmund", "king:elbreth", "observer", "gm:alice"):
        line = assert_refused(
            capsys,
            [
                "--save",
                str(save_path),
                "--as",
                who,
                "--json",
                "do",
                "order-file",
                f"command={command}",
                'params={"name": "evil", "identity": "gm"}',
            ],
            save_path,
        )
        # Refused by the filing rule itself, before any parameter is read.
        assert json.loads(line)["field"] == ("identity" if who == "observer" else "command"), (who, line)
        assert "evil" not in line


def test_user_add_as_an_order_is_refused_on_every_way_in(capsys: pytest.CaptureFixture[str], save_path: Path) -> None:
    params = json.dumps({"name": "evil", "identity": "gm", "key": KEY})
    before = sha256(save_path)
    line = assert_refused(
        capsys,
        ["--save", str(save_path), "--as", "player:edmund", "do", "order-file", "command=user-add", f"params={params}"],
        save_path,
        "user-add",
        "GM",
    )
    assert "ask" in line  # what he may do instead: ask the GM
    code, out = run_exec(
        save_path, PLAYER, "orders submit", f'user-add name=evil identity=gm key="{KEY}"\nrules-clear\n'.encode()
    )
    assert code == 1 and "0 received, 2 refused" in out
    assert check_order(world(save_path), PLAYER, "user-add", {"name": "evil", "identity": "gm", "key": KEY})
    assert "user-add" not in {c.name for c in order_commands(world(save_path), PLAYER)}
    assert sha256(save_path) == before


def test_an_old_order_of_a_gm_act_is_never_carried_out(capsys: pytest.CaptureFixture[str], save_path: Path) -> None:
    """An order a save of an older yak kept from before the filing rule: the queue refuses to run it."""
    with WorldFile(save_path).transaction() as data:
        w = World(data)
        order_id = w.new_id("orders", "o")
        data["orders"][order_id] = {
            "command": "user-add",
            "params": {"name": "evil", "identity": "gm", "key": KEY},
            "filed_by": "player:edmund",
            "character": "edmund",
            "kingdom": "elbreth",
            "adjudicator": "gm",
            "private": False,
            "status": "waiting",
            "filed": w.meta["date"],
            "note": "",
            "outcome": "",
            "reason": "",
        }
    assert_refused(
        capsys,
        ["--save", str(save_path), "do", "order-resolve", f"order={order_id}"],
        save_path,
        "cannot be carried out",
    )
    ok(capsys, save_path, "do", "order-reject", f"order={order_id}", "reason=not yours to ask")
    assert "evil" not in {name for name, _ in world(save_path).all("users")}


def test_what_players_asked_gm_set_for_has_its_own_command(capsys: pytest.CaptureFixture[str], save_path: Path) -> None:
    assert filing_refusal(KING, COMMANDS["business-tax-set"]) is None
    ok(capsys, save_path, "--as", "king:elbreth", "do", "business-tax-set", "rate=15")
    assert world(save_path).get("kingdoms", "elbreth")["business_tax"] == 15
    assert_refused(
        capsys,
        ["--save", str(save_path), "--as", "king:elbreth", "do", "business-tax-set", "rate=15", "kingdom=varos"],
        save_path,
        "does not act for",
    )
    assert_refused(
        capsys,
        ["--save", str(save_path), "--as", "king:elbreth", "do", "business-tax-set", "rate=101"],
        save_path,
        "0..100",
    )
    moved = ok(capsys, save_path, "--as", "king:elbreth", "do", "vault-set", "pc=ironhold")
    assert moved["kept_at"] == "ironhold"
    assert "kingdoms:elbreth" in world(save_path).get("pcs", "ironhold")["holds_treasury_of"]
    assert "Ironhold" not in seen_text(save_path, "king:varos")  # where a treasury lies is its owner's
    assert_refused(
        capsys,
        ["--save", str(save_path), "--as", "king:elbreth", "do", "vault-set", "pc=varosgate"],
        save_path,
        "not held by",
    )
    asked = ok(capsys, save_path, "--as", "player:edmund", "do", "ask", "text=make me Duke of the March")
    assert "make me Duke" in seen_text(save_path, "player:edmund") and "make me Duke" in seen_text(save_path, "gm")
    for other in ("king:elbreth", "player:corvin", "king:varos", "observer"):
        assert "make me Duke" not in seen_text(save_path, other), other
    ok(capsys, save_path, "do", "order-resolve", f"order={asked['order']}")
    assert world(save_path).get("characters", "edmund")["title"] != "Duke"  # granting changes nothing by itself


# -- 2. a spy mission is private whatever way it comes in ----------------------------------------


def test_a_spy_mission_filed_any_way_is_private(capsys: pytest.CaptureFixture[str], save_path: Path) -> None:
    ok(
        capsys,
        save_path,
        "--as",
        "player:corvin",
        "do",
        "order-file",
        "command=spy-mission",
        "params=mission=infiltrate-treasury;target=varos",
    )
    code, out = run_exec(
        save_path,
        Identity.parse("player:corvin"),
        "orders submit",
        b"spy-mission mission=infiltrate-admiralty target=varos\n",
    )
    assert code == 0, out
    w = world(save_path)
    orders = dict(w.all("orders"))
    assert len(orders) == 2 and all(o["private"] for o in orders.values())
    for other in ("king:varos", "player:lysa", "player:edmund", "king:elbreth", "observer"):
        text = seen_text(save_path, other)
        assert "Infiltrate" not in text and "infiltrate" not in text, other
    export = yak(capsys, ["--save", str(save_path), "export"])[1]
    assert "Infiltrate" not in export


# -- 3, 4. no oracle: another's order does not exist for a seat ----------------------------------


def _reply(capsys: pytest.CaptureFixture[str], save: Path, who: str, *argv: str) -> str:
    code, out, err = yak(capsys, ["--save", str(save), "--as", who, "do", *argv])
    assert code == 2, out
    return err


@pytest.mark.parametrize("verb", ["order-withdraw", "order-resolve", "order-reject reason=x", "spy-resolve"])
def test_a_refusal_never_names_anothers_order(capsys: pytest.CaptureFixture[str], save_path: Path, verb: str) -> None:
    secret = ok(
        capsys,
        save_path,
        "--as",
        "king:varos",
        "do",
        "spy-order",
        "mission=infiltrate-treasury",
        "target=elbreth",
        "note=Mirela's own plan",
    )["order"]
    for who in ("player:edmund", "king:elbreth", "player:lysa", "observer", "player:corvin"):
        said = _reply(capsys, save_path, who, *verb.split(), f"order={secret}")
        for word in ("Treasury", "Mirela", "Varos", "spy", "plan"):
            assert word not in said, (who, said)
        # Exactly the reply it gets for that id once the order is gone.
        copy = save_path.with_name("without.json")
        copy.write_bytes(save_path.read_bytes())
        with WorldFile(copy).transaction() as data:
            del data["orders"][secret]
        assert _reply(capsys, copy, who, *verb.split(), f"order={secret}") == said


def test_a_player_cannot_trigger_anothers_mission(capsys: pytest.CaptureFixture[str], save_path: Path) -> None:
    secret = ok(
        capsys, save_path, "--as", "player:silas", "do", "spy-order", "mission=infiltrate-treasury", "target=elbreth"
    )["order"]
    spies = world(save_path).get("specialists", "varos")["spy"]
    assert_refused(
        capsys,
        [
            "--save",
            str(save_path),
            "--as",
            "player:lysa",
            "do",
            "order-file",
            "command=spy-resolve",
            f"params=order={secret}",
        ],
        save_path,
        "never filed",
    )
    assert world(save_path).get("specialists", "varos")["spy"] == spies


# -- 5. one answer to "what may this viewer know" ----------------------------------------------


def test_the_board_and_show_agree_a_player_sees_none_of_his_kingdoms_spy_state(
    capsys: pytest.CaptureFixture[str], save_path: Path
) -> None:
    w = world(save_path)
    corvin = Identity.parse("player:corvin")
    view = board_view(w, corvin, "elbreth", "varos")
    assert view.pools == () and view.sponsor_pool is None and view.infiltrations == ()
    assert all(not effect.side == "held" for effect in view.effects)
    shown = ok(capsys, save_path, "--as", "player:corvin", "show")["tables"]
    assert shown["specialists"] == 0 and shown["effects"] == 0
    king = board_view(w, KING, "elbreth", "varos")
    assert king.sponsor_pool is not None and king.pools
    assert ok(capsys, save_path, "--as", "king:elbreth", "show")["tables"]["specialists"] >= 1


# -- 6. a rejection's reason goes to the filer and the adjudicator only -------------------------


def test_a_rejection_reason_is_told_to_the_filer_alone(capsys: pytest.CaptureFixture[str], save_path: Path) -> None:
    filed = ok(
        capsys, save_path, "--as", "player:corvin", "do", "order-file", "command=roll", "params=reason=scout the ford"
    )["order"]
    ok(capsys, save_path, "do", "order-reject", f"order={filed}", "reason=Not enough ducats: 8 of 12")
    assert "8 of 12" in seen_text(save_path, "player:corvin")
    for other in ("king:elbreth", "king:varos", "player:edmund", "observer"):
        text = seen_text(save_path, other)
        assert "8 of 12" not in text, other
    assert "rejected" in seen_text(save_path, "observer")  # the table learns that it was rejected
    assert "8 of 12" not in yak(capsys, ["--save", str(save_path), "export"])[1]


# -- 7. export is for posting -------------------------------------------------------------------


def test_export_is_the_public_record_unless_another_audience_is_named(
    capsys: pytest.CaptureFixture[str], save_path: Path
) -> None:
    order = ok(
        capsys, save_path, "--as", "player:silas", "do", "spy-order", "mission=infiltrate-treasury", "target=elbreth"
    )["order"]
    ok(capsys, save_path, "do", "spy-resolve", f"order={order}", "--dice", "6,6")
    ok(capsys, save_path, "do", "note", "text=the GM's own aside", "audience=adjudicators")
    public = yak(capsys, ["--save", str(save_path), "export"])[1]
    assert "GM:" not in public and "true outcome" not in public and "aside" not in public
    assert not public.startswith("[b]Private")
    for fmt in ("bbcode", "markdown"):
        gm = yak(capsys, ["--save", str(save_path), "export", "--format", fmt, "--audience", "gm"])[1]
        assert gm.splitlines()[0].strip("[b]*/").startswith("Private: for the GM only")
        assert "true outcome" in gm and "aside" in gm
    silas = yak(capsys, ["--save", str(save_path), "--as", "player:silas", "export", "--audience", "player:silas"])[1]
    assert "Private: for Player · Silas Crow (player:silas) only" in silas.splitlines()[0]
    assert_refused(
        capsys,
        ["--save", str(save_path), "--as", "player:silas", "export", "--audience", "gm"],
        save_path,
        "may not export for gm",
    )
    assert_refused(
        capsys,
        ["--save", str(save_path), "--as", "player:silas", "export", "--audience", "king:varos"],
        save_path,
        "may not export",
    )


# -- 8. year-start lines do not depend on secret operations --------------------------------------


def _public_year_start(capsys: pytest.CaptureFixture[str], save: Path) -> list[str]:
    for _ in range(4):
        ok(capsys, save, "advance")
    return sorted(
        e["text"] for e in visible_entries(world(save), Identity.parse("observer")) if e["kind"] == "year-start"
    )


def test_year_start_lines_read_the_same_with_or_without_a_secret_operation(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, demo_bytes: bytes
) -> None:
    quiet, busy = tmp_path / "quiet.json", tmp_path / "busy.json"
    quiet.write_bytes(demo_bytes)
    busy.write_bytes(demo_bytes)
    ok(
        capsys,
        busy,
        "do",
        "gm-set",
        "table=specialists",
        "id=varos",
        "field=counter_spies",
        'value={"provinces": [], "nation": 0}',
    )
    for mission in ("infiltrate-treasury", "infiltrate-government", "counterfeit-currency"):
        order = ok(capsys, busy, "--as", "king:elbreth", "do", "spy-order", f"mission={mission}", "target=varos")
        ok(capsys, busy, "do", "spy-resolve", f"order={order['order']}", "--dice", "6,6")
    assert _public_year_start(capsys, quiet) == _public_year_start(capsys, busy)


# -- 9. modifiers are the adjudicator's, caps are the seed's ------------------------------------


@pytest.mark.parametrize(
    ("command", "params", "field"),
    [
        ("smuggle", "fort=brinehaven;merchant=corvin;shipments=1;modifier=3", "modifier"),
        ("roll", "reason=scout;modifier=2", "modifier"),
        ("roll", "reason=scout;audience=character:edmund", "audience"),
        ("incite", "noble=edmund;pc=varosgate;modifier=5", "modifier"),
        ("cast", "caster=maelis;source=ley;spell=light;power_modifier=2", "power_modifier"),
        ("spy-mission", "mission=infiltrate-treasury;target=varos;gm_modifier=3;gm_reason=x", "gm_modifier"),
    ],
)
def test_a_filer_never_sets_a_modifier(
    capsys: pytest.CaptureFixture[str], save_path: Path, command: str, params: str, field: str
) -> None:
    who = "player:maelis" if command == "cast" else "player:edmund" if command == "incite" else "player:corvin"
    assert_refused(
        capsys,
        ["--save", str(save_path), "--as", who, "do", "order-file", f"command={command}", f"params={params}"],
        save_path,
        f"order.{field}",
        "set by the adjudicator",
    )


def test_the_adjudicator_sets_them_when_he_carries_the_order_out(
    capsys: pytest.CaptureFixture[str], save_path: Path
) -> None:
    order = ok(
        capsys, save_path, "--as", "player:corvin", "do", "order-file", "command=roll", "params=reason=scout the ford"
    )["order"]
    assert_refused(
        capsys,
        ["--save", str(save_path), "do", "order-resolve", f"order={order}", "adjust=reason=other"],
        save_path,
        "adjust",
        "the filer's choice",
    )
    done = ok(capsys, save_path, "do", "order-resolve", f"order={order}", "adjust=modifier=-1", "--dice", "4")
    assert done["result"]["total"] == 3


def test_a_bribe_past_the_seeds_cap_is_refused_naming_it(capsys: pytest.CaptureFixture[str], save_path: Path) -> None:
    assert_refused(
        capsys,
        [
            "--save",
            str(save_path),
            "--as",
            "player:corvin",
            "do",
            "order-file",
            "command=smuggle",
            "params=fort=brinehaven;merchant=corvin;shipments=1;bribe=9",
        ],
        save_path,
        "order.bribe",
        "at most 2",
        "up to +2",
    )


def test_a_king_writes_notes_only_for_his_own_people(capsys: pytest.CaptureFixture[str], save_path: Path) -> None:
    ok(capsys, save_path, "--as", "king:elbreth", "do", "note", "text=to my merchant", "audience=character:corvin")
    assert "to my merchant" in seen_text(save_path, "player:corvin")
    assert_refused(
        capsys,
        ["--save", str(save_path), "--as", "king:elbreth", "do", "note", "text=psst", "audience=character:lysa"],
        save_path,
        "audience",
        "its people",
    )


def test_a_citizen_chooses_his_own_vault_and_no_one_elses(capsys: pytest.CaptureFixture[str], save_path: Path) -> None:
    moved = ok(capsys, save_path, "--as", "player:corvin", "do", "vault-set", "pc=millbrook")
    assert moved["vault"] == "millbrook" and world(save_path).get("characters", "corvin")["vault"] == "millbrook"
    assert "Millbrook" not in seen_text(save_path, "player:edmund")
    assert_refused(
        capsys,
        ["--save", str(save_path), "--as", "player:corvin", "do", "vault-set", "pc=millbrook", "character=edmund"],
        save_path,
        "does not act for",
    )
    assert_refused(
        capsys,
        ["--save", str(save_path), "--as", "player:corvin", "do", "vault-set", "pc=varosgate"],
        save_path,
        "not held by",
    )
    cleared = ok(capsys, save_path, "--as", "player:corvin", "do", "vault-set")
    assert cleared["vault"] is None and world(save_path).get("characters", "corvin")["vault"] is None


def test_over_ssh_a_seat_withdraws_his_own_order_and_no_one_elses(save_path: Path) -> None:
    corvin, lysa = Identity.parse("player:corvin"), Identity.parse("player:lysa")
    code, out = run_exec(save_path, corvin, "orders submit", b"spy-mission mission=infiltrate-treasury target=varos\n")
    assert code == 0 and "received as o-0001" in out
    code, out = run_exec(save_path, lysa, "orders submit", b"order-withdraw order=o-0001\n")
    assert code == 1 and "no order with id 'o-0001'" in out and "Treasury" not in out
    code, out = run_exec(save_path, corvin, "orders submit", b"order-withdraw order=o-0001\nready\n")
    assert code == 0 and "withdrawn" in out and "is ready" in out
    assert world(save_path).get("orders", "o-0001")["status"] == "withdrawn"


def test_season_status_counts_a_private_order_only_for_those_who_may_know(
    capsys: pytest.CaptureFixture[str], save_path: Path
) -> None:
    ok(capsys, save_path, "--as", "player:corvin", "do", "spy-order", "mission=infiltrate-treasury", "target=varos")

    def filed(who: str) -> dict[str, int]:
        return {
            row["identity"]: row["filed"] for row in ok(capsys, save_path, "--as", who, "season", "status")["seats"]
        }

    assert filed("gm")["player:corvin"] == 1 and filed("player:corvin")["player:corvin"] == 1
    for other in ("king:varos", "king:elbreth", "player:lysa", "observer"):
        assert filed(other).get("player:corvin", 0) == 0, other


def test_the_queue_and_due_list_never_show_a_private_order_to_anyone_else(
    capsys: pytest.CaptureFixture[str], save_path: Path
) -> None:
    """Issue 27: `yak orders`, `yak due`, `show orders` and their SSH twins read through the one audience
    rule: a private mission is there for its filer and the GM alone, not even as a count."""
    filed = ok(
        capsys, save_path, "--as", "player:corvin", "do", "spy-order", "mission=infiltrate-treasury", "target=varos"
    )
    order = filed["order"]
    gm = ok(capsys, save_path, "orders")["orders"]
    assert [row["order"] for row in gm] == [order] and gm[0]["private"] is True
    assert order in json.dumps(ok(capsys, save_path, "--as", "player:corvin", "due"))
    for seat in ("player:lysa", "player:edmund", "king:varos", "king:elbreth", "observer"):
        for argv in (["orders"], ["due"], ["show", "orders"]):
            code, out, err = yak(capsys, ["--save", str(save_path), "--as", seat, *argv])
            assert code == 0, err
            assert order not in out and "Infiltrate" not in out and "Corvin" not in out, (seat, argv, out)
            answer = json.dumps(ok(capsys, save_path, "--as", seat, *argv))
            assert order not in answer and "Infiltrate" not in answer, (seat, argv)
        if seat != "observer":
            for verb in ("orders", "due"):
                code, out = run_exec(save_path, Identity.parse(seat), verb, b"")
                assert code == 0 and order not in out and "Infiltrate" not in out, (seat, verb, out)
