"""House rules that stick (issue 14 item 3): `yak rules set DIR` keeps the overrides in the save,
every process that reads the save plays by them, `yak rules show` says where each value comes
from, `yak rules clear` drops them; `--rules` on a save that keeps its own is ignored, with a
warning. README: "only the keys you change are overridden"."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import orjson
import pytest
from yak_plugin import Table

from yak_tui.cli import main
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.tables import set_override_dir, use_saved_rules
from yak_tui.kernel.world.tables import table as rules_table
from yak_tui.store.storage import WorldFile


@pytest.fixture(autouse=True)
def _stock_rules_after() -> Iterator[None]:
    yield
    set_override_dir(None)
    use_saved_rules(None)


def yak(capsys: pytest.CaptureFixture[str], argv: Sequence[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _house(tmp_path: Path, name: str, **files: str) -> Path:
    directory = tmp_path / name
    directory.mkdir()
    for stem, text in files.items():
        (directory / f"{stem}.toml").write_text(text)
    return directory


def _upkeep_paid(capsys: pytest.CaptureFixture[str], table_: Table, *extra: str) -> float:
    """Elbreth's treasury change over the Winter-into-Spring advance (upkeep is due then)."""
    table_.set_date("Winter 312")
    before = float(table_.world.get("kingdoms", "elbreth")["treasury"])
    code, _, err = yak(capsys, ["--save", str(table_.path), *extra, "advance", "--json"])
    assert code == 0, err
    return before - float(table_.world.get("kingdoms", "elbreth")["treasury"])


def test_saved_rules_apply_to_an_advance_without_rules(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, table: Table
) -> None:
    """The issue: "one `advance` without `--rules` silently used the stock upkeep". Once kept in
    the save, the house upkeep applies to every later process, with or without `--rules`."""
    stock = Table(WorldFile(tmp_path / "stock.json"))
    stock.path.write_bytes(table.path.read_bytes())
    stock_paid = _upkeep_paid(capsys, stock)
    house = _house(tmp_path, "house", core="[upkeep]\nregiment = 3.0\n")
    code, _, err = yak(capsys, ["--save", str(table.path), "rules", "set", str(house)])
    assert code == 0, err
    use_saved_rules(None)  # a new process: nothing in memory but the save
    assert _upkeep_paid(capsys, table) > stock_paid
    meta = orjson.loads(table.path.read_bytes())["meta"]["world"]
    assert meta["rules_overrides"] == {"core": {"upkeep": {"regiment": 3.0}}}


def test_every_reader_of_the_save_plays_by_its_rules(table: Table, tmp_path: Path) -> None:
    """The app and each SSH session read the save through the store: the read applies its rules."""
    table.edit(lambda data: data["meta"]["world"].update(rules_overrides={"core": {"upkeep": {"ship": 7.0}}}))
    assert rules_table("core")["upkeep"]["ship"] == 1.0
    table.world  # noqa: B018  (the read is the point)
    assert rules_table("core")["upkeep"]["ship"] == 7.0
    other = Table(create_world(tmp_path / "other.json"))
    other.world  # noqa: B018  a save that keeps none: the stock value again
    assert rules_table("core")["upkeep"]["ship"] == 1.0


def test_rules_show_names_where_each_value_comes_from(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, table: Table
) -> None:
    save = ["--save", str(table.path)]
    house = _house(tmp_path, "house", espionage='[[missions]]\nslug = "limit-trade"\nduration_seasons = 4\n')
    code, out, err = yak(capsys, [*save, "--rules", str(house), "rules", "show", "--json"])
    assert code == 0, err
    rows = {(r["table"], r["key"]): r for r in orjson.loads(out)["values"]}
    assert rows[("espionage", "missions[limit-trade].duration_seasons")]["source"] == "house file"
    assert rows[("espionage", "missions[limit-trade].cost")] == {
        "table": "espionage",
        "key": "missions[limit-trade].cost",
        "value": 3,
        "source": "stock",
    }
    assert rows[("core", "upkeep.regiment")]["source"] == "stock"
    assert yak(capsys, [*save, "rules", "set", str(house)])[0] == 0
    code, out, err = yak(capsys, [*save, "rules", "show", "--changed", "--json"])
    payload = orjson.loads(out)
    assert (payload["rules"], payload["saved_from"]) == ("saved override", str(house))
    assert [(r["key"], r["value"], r["source"]) for r in payload["values"]] == [
        ("missions[limit-trade].duration_seasons", 4, "saved override")
    ]
    code, out, err = yak(capsys, [*save, "rules", "show", "core"])
    assert code == 0 and out.startswith("rules in use: saved override") and "core.upkeep.ship = 1.0  [stock]" in out


def test_rules_given_for_a_save_with_its_own_are_ignored_with_a_warning(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, table: Table
) -> None:
    save = ["--save", str(table.path)]
    kept = _house(tmp_path, "kept", core="[upkeep]\nship = 2.0\n")
    other = _house(tmp_path, "other", core="[upkeep]\nship = 9.0\n")
    assert yak(capsys, [*save, "rules", "set", str(kept)])[0] == 0
    code, out, err = yak(capsys, [*save, "--rules", str(other), "rules", "show", "core", "--json"])
    assert code == 0
    assert f"--rules {other} is ignored: this save keeps its own house rules" in err
    assert "`yak rules set" in err and err.count("\n") == 1
    values = {r["key"]: r["value"] for r in orjson.loads(out)["values"]}
    assert values["upkeep.ship"] == 2.0
    # `rules set` is how they are replaced; `rules clear` drops them and the stock applies.
    assert yak(capsys, [*save, "--rules", str(other), "rules", "set", str(other)])[0] == 0
    table.world  # noqa: B018
    assert rules_table("core")["upkeep"]["ship"] == 9.0
    assert yak(capsys, [*save, "rules", "clear"])[0] == 0
    set_override_dir(None)
    table.world  # noqa: B018
    assert rules_table("core")["upkeep"]["ship"] == 1.0
    assert orjson.loads(table.path.read_bytes())["meta"]["world"]["rules_overrides"] == {}


@pytest.mark.parametrize(
    ("who", "files", "names"),
    [
        ("gm", {"core": "[upkeep]\nshipp = 2.0\n"}, ("core.toml", "shipp")),
        ("gm", {"espionage": '[[missions]]\nslug = "limit-trade"\neffect = "no-such-effect"\n'}, ("no-such-effect",)),
        ("king:elbreth", {"core": "[upkeep]\nship = 2.0\n"}, ("only the GM",)),
    ],
)
def test_bad_or_unauthorised_rules_set_changes_nothing(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    table: Table,
    who: str,
    files: dict[str, str],
    names: tuple[str, ...],
) -> None:
    house = _house(tmp_path, "house", **files)
    before = table.path.read_bytes()
    code, out, err = yak(capsys, ["--save", str(table.path), "--as", who, "rules", "set", str(house)])
    assert code == 2 and out == "" and err.count("\n") == 1
    assert all(name in err for name in names), err
    assert table.path.read_bytes() == before
    code, _, err = yak(capsys, ["--save", str(table.path), "rules", "set", str(tmp_path / "missing")])
    assert code == 2 and "no such directory" in err and table.path.read_bytes() == before
