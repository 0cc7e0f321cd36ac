"""Every mission effect has its `MissionKind`; a house rule cannot add an effect no code handles;
help that quotes the tables' numbers follows a house rule."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from yak_tui.areas.espionage import KINDS, catalogue, mission_needs
from yak_tui.areas.espionage.fields import ORDER_FIELDS, mission_params
from yak_tui.areas.espionage.registry import kind_of_document
from yak_tui.cli import main
from yak_tui.kernel.world.tables import TABLES_DIR, RulesTableError, set_override_dir

DEFAULT = (TABLES_DIR / "espionage.toml").read_text(encoding="utf-8")

TELEPORT = """
[[missions]]
slug = "teleport-treasury"
name = "Teleport Treasury"
family = "commercial"
cost = 3
success_target = 4
detection_target = 4
detection_special = false
spy_used_up = false
is_infiltration = false
extras = []
text = "Moves the enemy treasury to the moon."
effect = "teleport"
[missions.params]
"""


@pytest.fixture
def house(tmp_path: Path) -> Iterator[Path]:
    """A house-rules directory, switched off again after the test."""
    yield tmp_path
    set_override_dir(None)


def test_every_catalogue_effect_has_a_mission_kind() -> None:
    effects = {entry.effect for entry in catalogue().values()}
    assert effects <= set(KINDS)
    assert set(KINDS) == effects  # and no kind is left without a mission


def test_every_field_a_mission_asks_is_planned_or_bought() -> None:
    for entry in catalogue().values():
        planned = {f.name for f in ORDER_FIELDS if f.checked_for(entry)}
        bought = {f.name for f in ORDER_FIELDS if f.extra and any(x.kind == f.extra for x in entry.extras)}
        assert set(mission_needs(entry)) <= planned | bought, entry.slug


def test_the_form_asks_what_the_field_table_names_for_the_mission_in_form_order() -> None:
    missions = catalogue()
    assert mission_needs(missions["crash-commodity-market"]) == ("province", "commodity", "direction")
    assert mission_needs(missions["assassinate-ruler"]) == ("poison",)
    assert mission_needs(missions["assassinate-private-citizen"]) == ("character", "poison")
    assert mission_needs(missions["purge-administration"]) == ("province", "infiltration")
    assert mission_needs(missions["fund-bandits"]) == ("province", "bandits")


def test_each_effect_document_kind_has_one_writer_label_and_end() -> None:
    assert kind_of_document("crash-market") is KINDS["crash-market"]
    assert kind_of_document("sailor-recruitment-cut") is KINDS["shipbuilding"]
    assert kind_of_document("morale-penalty") is not None
    assert kind_of_document("no-such-effect") is None
    assert (
        KINDS["crash-market"].label_for({"commodity": "Grain", "data": {"increments": -3}}, None) == "Grain market -3"
    )
    assert KINDS["counterfeit"].expires_at_its_step and KINDS["infiltration"].until == "until purged"


def test_a_house_rule_mission_with_an_unknown_effect_is_refused(house: Path) -> None:
    (house / "espionage.toml").write_text(DEFAULT + TELEPORT, encoding="utf-8")
    set_override_dir(str(house))  # the shape is right: only the effect is unknown
    with pytest.raises(RulesTableError) as refused:
        catalogue()
    message = str(refused.value)
    assert "'teleport-treasury'" in message and "'teleport'" in message and "no code handles" in message


def test_the_cli_refuses_an_unknown_effect_in_one_line(house: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (house / "espionage.toml").write_text(DEFAULT + TELEPORT, encoding="utf-8")
    assert main(["--rules", str(house), "resolve", "spy", "--list"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert "teleport-treasury" in err and "'teleport'" in err and "no code handles" in err


def _priced(text: str) -> str:
    """The default table with the bandit regiment at 5d, poison at 7d and the counter-spy at 1d."""
    text = text.replace('kind = "bandit-regiment", ducats_each = 2', 'kind = "bandit-regiment", ducats_each = 5')
    text = text.replace('kind = "poison", ducats_each = 3', 'kind = "poison", ducats_each = 7')
    start = text.index('slug = "counter-spy"')
    cost = text.index("cost = 0", start)
    return text[:cost] + "cost = 1" + text[cost + len("cost = 0") :]


def test_order_help_quotes_the_loaded_prices(house: Path) -> None:
    assert mission_params()["bandits"].help_text == "extra bandit regiments (2d each)"
    assert mission_params()["poison"].help_text == "assassinations: +3d for poison"
    priced = _priced(DEFAULT)
    assert priced != DEFAULT
    (house / "espionage.toml").write_text(priced, encoding="utf-8")
    set_override_dir(str(house))
    params = mission_params()
    assert params["bandits"].help_text == "extra bandit regiments (5d each)"
    assert params["poison"].help_text == "assassinations: +7d for poison"
    assert params["privateers"].help_text == "extra privateer ships (4d each)"  # unchanged price, unchanged help
    assert {f.extra for f in ORDER_FIELDS if f.extra} <= {x.kind for m in catalogue().values() for x in m.extras}


def test_a_house_rule_changes_the_command_list(house: Path) -> None:
    """`yak --rules DIR do --list`: the counter-spy's price comes from the house rule."""
    (house / "espionage.toml").write_text(_priced(DEFAULT), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "YAK_RULES"}

    def listing(*rules: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "yak_tui", *rules, "do", "--list"],
            capture_output=True,
            text=True,
            env=env,
            cwd=house,
            timeout=120,
            check=True,
        )
        return next(line for line in done.stdout.splitlines() if line.startswith("counter-spy"))

    assert "(costs 0d and one spy)" in listing()
    assert "(costs 1d and one spy)" in listing("--rules", str(house))


def test_mission_text_quotes_the_missions_own_numbers(house: Path) -> None:
    """The descriptions' numbers are placeholders filled from the mission's values at load: the
    default reads as the seed; a house rule that changes a number changes the text."""
    texts = {slug: entry.text for slug, entry in catalogue().items()}
    assert "1 ducat/province will be stolen" in texts["infiltrate-treasury"]
    assert "Every additional 2d spent" in texts["fund-bandits"]
    assert "provides a +2 bonus to the success" in texts["create-security-breach"]
    assert "will last for 1 year" in texts["establish-smuggling-ring"]
    assert not any("{" in text or "}" in text for text in texts.values())
    (house / "espionage.toml").write_text(
        """
[modifiers]
security_breach = 3

[[missions]]
slug = "infiltrate-treasury"
[missions.params]
ducats_per_province = 2

[[missions]]
slug = "fund-bandits"
extras = [{ kind = "bandit-regiment", ducats_each = 5 }]

[[missions]]
slug = "establish-smuggling-ring"
duration_seasons = 8
""",
        encoding="utf-8",
    )
    set_override_dir(str(house))
    texts = {slug: entry.text for slug, entry in catalogue().items()}
    assert "2 ducat/province will be stolen" in texts["infiltrate-treasury"]
    assert "Every additional 5d spent" in texts["fund-bandits"]
    assert "provides a +3 bonus to the success" in texts["create-security-breach"]
    assert "will last for 2 year" in texts["establish-smuggling-ring"]


def test_a_mission_text_naming_no_value_is_refused(house: Path) -> None:
    (house / "espionage.toml").write_text(
        '[[missions]]\nslug = "limit-trade"\ntext = "Cuts the allowance by {allowance} ducats."\n', encoding="utf-8"
    )
    set_override_dir(str(house))
    with pytest.raises(RulesTableError, match=r"limit-trade.*allowance"):
        catalogue()
