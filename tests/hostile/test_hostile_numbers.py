"""NaN, infinities, 1e308 and integers beyond 64 bits through every numeric parameter of every
command (generated from the registry), through order parameters as JSON, through orders already
on file, and through `yak resolve` options: each is refused at parsing, on one line, and the save
is left byte-for-byte as it was."""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from hostile_helpers import assert_refused, sha256, yak

from yak_tui.cli.parser import build_parser
from yak_tui.kernel.play import commands as commands_module
from yak_tui.kernel.play.checks import number_option, whole_option
from yak_tui.kernel.play.commands import COMMANDS, CommandSpec, Param, load_command_modules
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

load_command_modules()

# What a person might type for a number, as `key=value` text.
HOSTILE_TEXT = ("nan", "NaN", "inf", "-inf", "Infinity", "1e308", "-1e308", str(2**64), str(-(2**63) - 1))
# The same as JSON order parameters: JSON has no NaN or infinity, so those arrive as strings.
HOSTILE_JSON: tuple[Any, ...] = ("nan", "inf", "-inf", 1e308, -1e308, 2**64 - 1, -(2**63))


def numeric_params() -> Iterator[tuple[str, str]]:
    for name, spec in sorted(COMMANDS.items()):
        for param_name, param in spec.params.items():
            if param.kind in (int, float):
                yield name, param_name


NUMERIC = list(numeric_params())


def test_the_registry_has_numeric_parameters_to_try() -> None:
    assert len(NUMERIC) >= 40
    assert ("credit-repay", "amount") in NUMERIC and ("usurp", "modifier") in NUMERIC


@pytest.mark.parametrize(("command", "param"), NUMERIC, ids=[f"{c}.{p}" for c, p in NUMERIC])
def test_every_numeric_parameter_refuses_hostile_numbers(
    capsys: pytest.CaptureFixture[str], save_path: Path, command: str, param: str
) -> None:
    for value in HOSTILE_TEXT:
        for json_flag in ((), ("--json",)):
            line = assert_refused(
                capsys, ["--save", str(save_path), *json_flag, "do", command, f"{param}={value}"], save_path, param
            )
            if json_flag:
                assert orjson.loads(line)["field"] == param


# Numbers a seat may put in an order: those of commands it may file that are not the adjudicator's.
FILED_NUMERIC = [(c, p) for c, p in NUMERIC if COMMANDS[c].filed_by and not COMMANDS[c].params[p].by_adjudicator]
# Numbers only the adjudicator sets, when he carries an order out (`order-resolve adjust=...`).
ADJUDICATOR_NUMERIC = [(c, p) for c, p in NUMERIC if COMMANDS[c].filed_by and COMMANDS[c].params[p].by_adjudicator]


def _filer(command: str) -> str:
    return "player:corvin" if "player" in COMMANDS[command].filed_by else "king:elbreth"


@pytest.mark.parametrize(("command", "param"), FILED_NUMERIC, ids=[f"{c}.{p}" for c, p in FILED_NUMERIC])
def test_order_parameters_as_json_refuse_hostile_numbers(
    capsys: pytest.CaptureFixture[str], save_path: Path, command: str, param: str
) -> None:
    for value in HOSTILE_JSON:
        params = orjson.dumps({param: value}).decode()
        assert_refused(
            capsys,
            [
                "--save",
                str(save_path),
                "--as",
                _filer(command),
                "do",
                "order-file",
                f"command={command}",
                f"params={params}",
            ],
            save_path,
            f"order.{param}",
        )


@pytest.mark.parametrize(("command", "param"), ADJUDICATOR_NUMERIC, ids=[f"{c}.{p}" for c, p in ADJUDICATOR_NUMERIC])
def test_adjudicator_values_refuse_hostile_numbers(
    capsys: pytest.CaptureFixture[str], save_path: Path, command: str, param: str
) -> None:
    order_id = _file_raw_order(save_path, command, {}, _filer(command).replace("corvin", "edmund"))
    for value in HOSTILE_JSON:
        adjust = orjson.dumps({param: value}).decode()
        assert_refused(
            capsys,
            ["--save", str(save_path), "do", "order-resolve", f"order={order_id}", f"adjust={adjust}"],
            save_path,
            f"order.{param}",
        )


def test_the_lists_cover_what_seats_and_adjudicators_type() -> None:
    assert ("smuggle", "bribe") in FILED_NUMERIC and ("smuggle", "modifier") in ADJUDICATOR_NUMERIC
    assert not any(c.startswith(("gm-", "spy-resolve", "loot-share", "ship-sink")) for c, _ in FILED_NUMERIC)


def _file_raw_order(save: Path, command: str, params: dict[str, Any], filer: str = "player:edmund") -> str:
    """An order as an older yak_tui may have stored it, its parameters never checked."""
    with WorldFile(save).transaction() as data:
        world = World(data)
        order_id = world.new_id("orders", "o")
        character = filer.partition(":")[2] if filer.startswith("player:") else None
        data["orders"][order_id] = {
            "command": command,
            "params": params,
            "filed_by": filer,
            "character": character,
            "kingdom": "elbreth",
            "adjudicator": "gm",
            "private": False,
            "status": "waiting",
            "filed": world.meta["date"],
            "note": "",
            "outcome": "",
            "reason": "",
        }
    return order_id


@pytest.mark.parametrize("command", ["credit-repay", "loan-repay"])
def test_a_stored_order_with_hostile_numbers_is_refused_when_resolved(
    capsys: pytest.CaptureFixture[str], save_path: Path, command: str
) -> None:
    code, out, _ = yak(
        capsys,
        ["--save", str(save_path), "--json", "do", "credit-extend", "lender=hale-bank", "debtor=edmund", "amount=10"],
    )
    assert code == 0
    debt = orjson.loads(out)["ledger"]
    for value in HOSTILE_JSON:
        order_id = _file_raw_order(save_path, command, {"debt": debt, "amount": value})
        assert_refused(
            capsys, ["--save", str(save_path), "do", "order-resolve", f"order={order_id}"], save_path, "order.amount"
        )


def test_nan_repayment_cannot_poison_the_treasuries(capsys: pytest.CaptureFixture[str], save_path: Path) -> None:
    """The reported case: `credit-repay amount=nan` exited 0 and wrote null treasuries, after which
    every money command and the year start failed."""
    code, out, _ = yak(
        capsys,
        ["--save", str(save_path), "--json", "do", "credit-extend", "lender=hale-bank", "debtor=edmund", "amount=10"],
    )
    assert code == 0
    debt = orjson.loads(out)["ledger"]
    for value in ("nan", "inf", "-inf", "1e308"):
        assert_refused(
            capsys,
            [
                "--save",
                str(save_path),
                "--as",
                "player:edmund",
                "do",
                "credit-repay",
                f"debt={debt}",
                f"amount={value}",
            ],
            save_path,
            "amount",
        )
    code, _, err = yak(
        capsys, ["--save", str(save_path), "--as", "player:edmund", "do", "credit-repay", f"debt={debt}", "amount=4"]
    )
    assert code == 0, err
    world = World(WorldFile(save_path).read())
    assert world.get("characters", "edmund")["treasury"] == 18 - 4
    assert world.get("ledger", debt)["outstanding"] == 6


def test_a_seed_beyond_64_bits_is_refused(capsys: pytest.CaptureFixture[str], save_path: Path) -> None:
    for seed in (str(2**64), str(-(2**63) - 1), "nan"):
        assert_refused(
            capsys, ["--save", str(save_path), "do", "roll", "reason=x", "--seed", seed], save_path, "--seed"
        )


def test_a_reply_that_json_cannot_hold_commits_nothing(
    capsys: pytest.CaptureFixture[str], save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A command whose reply cannot be serialised is refused before the write: a script that
    retries a failed command must never apply it twice."""

    def overflowing(ctx: commands_module.CommandContext, p: dict[str, Any]) -> dict[str, Any]:
        ctx.log("A note that must not be written.", kind="note")
        return {"huge": 2**70, "infinite": float("inf")}

    monkeypatch.setitem(
        COMMANDS, "test-overflow", CommandSpec("test-overflow", "", {"x": Param(int, required=False)}, overflowing)
    )
    for json_flag in ((), ("--json",)):
        before = sha256(save_path)
        assert_refused(capsys, ["--save", str(save_path), *json_flag, "do", "test-overflow"], save_path, "reply")
        assert sha256(save_path) == before


def resolve_numeric_options() -> Iterator[tuple[str, str, dict[str, str]]]:
    """(check, option, the other required options) for every numeric `yak resolve` option."""
    parser = build_parser()
    resolve = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices["resolve"]
    checks = next(a for a in resolve._actions if isinstance(a, argparse._SubParsersAction)).choices
    for check, sub in sorted(checks.items()):
        required = {
            a.option_strings[0]: ("1" if a.type in (whole_option, number_option) else "x")
            for a in sub._actions
            if a.required and a.option_strings
        }
        for action in sub._actions:
            if action.type in (whole_option, number_option):
                yield check, action.option_strings[0], required


RESOLVE = list(resolve_numeric_options())


def test_resolve_has_numeric_options_to_try() -> None:
    assert ("usurp", "--power", {"--power": "1", "--resistance": "1"}) in RESOLVE
    assert len(RESOLVE) >= 15


@pytest.mark.parametrize(("check", "option", "required"), RESOLVE, ids=[f"{c}{o}" for c, o, _ in RESOLVE])
def test_every_resolve_option_refuses_hostile_numbers(
    capsys: pytest.CaptureFixture[str], check: str, option: str, required: dict[str, str]
) -> None:
    for value in HOSTILE_TEXT:
        others = [item for key, default in required.items() if key != option for item in (key, default)]
        for json_flag in ((), ("--json",)):
            assert_refused(capsys, ["resolve", check, *others, f"{option}={value}", *json_flag], None, option)


def test_numbers_inside_text_parameters_are_bounded_too(capsys: pytest.CaptureFixture[str], save_path: Path) -> None:
    """A hex is typed as text (`q,r`); dice by hand as `4,2`: their numbers obey the same bounds."""
    from yak_tui.kernel.play.views import parse_naturals

    for hex_text in ("9" * 5000 + ",1", "99999999999,1", f"1,{-(2**64)}"):
        assert_refused(
            capsys,
            ["--save", str(save_path), "do", "relocate", "character=edmund", f"hex={hex_text}"],
            save_path,
            "hex",
        )
    for typed in ("²", "9" * 5000, "4,nan", "inf"):
        naturals, problem = parse_naturals(typed)
        assert naturals == [] and problem and "whole number" in problem
