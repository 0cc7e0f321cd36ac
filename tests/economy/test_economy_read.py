"""The market board's read models: help worded from the loaded tables, and no swallowed garbage."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from yak_plugin import Table

from yak_tui.areas import economy
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.play.views import check_command, check_order
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.tables import set_override_dir
from yak_tui.store.storage import WorldFile


@pytest.fixture
def house_rules(tmp_path: Path) -> Iterator[Path]:
    """A house-rules directory, active for the test and cleared after it."""
    rules_dir = tmp_path / "house"
    rules_dir.mkdir()
    yield rules_dir
    set_override_dir(None)


def test_help_with_the_default_tables_reads_as_the_dialogs_always_did() -> None:
    assert economy.expand_help() == (
        "Each Size beyond the sector's Potential is won in competition: the expander and every rival roll a d6 "
        "(monopolies +3); the lowest rival below the expander loses 1 Size."
    )
    assert economy.production_help() == (
        "Goods cost max(1, base price − 4) ducats each; a business makes up to its Size a season. Unless "
        "stored or shipped they sell at season end."
    )
    assert economy.hire_help() == (
        "One hire per controlled province per type a year; 2 ducats each arriving next season, or 3 at once."
    )
    assert economy.lending_requirement("credit") == "commercial Size 4+"
    assert economy.lending_requirement("loan") == "commercial Size 8+"


def test_a_house_rule_changes_the_numbers_the_help_quotes(house_rules: Path) -> None:
    (house_rules / "economy.toml").write_text(
        "[competition]\nmonopoly_bonus = 2\n"
        "[production]\ndiscount = 3\ngoods_per_size = 2\n"
        "[hiring]\ncost_next_season = 4\ncost_immediate = 6\narrival_next_season = 2\nper_province_per_year = 2\n"
        "[credit]\nmin_size = 5\n",
        encoding="utf-8",
    )
    set_override_dir(str(house_rules))
    assert "(monopolies +2)" in economy.expand_help()
    assert economy.production_help().startswith(
        "Goods cost max(1, base price − 3) ducats each; a business makes up to 2 × its Size a season."
    )
    assert economy.hire_help() == (
        "2 hires per controlled province per type a year; 4 ducats each arriving in 2 seasons, or 6 at once."
    )
    assert economy.lending_requirement("credit") == "commercial Size 5+"


def test_a_ledger_line_with_a_garbage_amount_raises_instead_of_reading_as_zero(save: WorldFile) -> None:
    """Saves are validated on load, so garbage can only come from a bug in memory: the read model
    must raise on it, not show the debt as 0 (it used to read any bad number as 0.0)."""
    ledger_id = (
        Table(save).run("gm", "credit-extend", {"lender": "hale-bank", "debtor": "edmund", "amount": 10}).data["ledger"]
    )
    world = World(save.read())
    preview = economy.lending_preview(world, GM, "hale-bank", "credit")
    assert preview is not None and preview.out == 10
    world.table("ledger")[ledger_id]["outstanding"] = "ten"
    with pytest.raises(ValueError, match="ten"):
        economy.lending_preview(world, GM, "hale-bank", "credit")
    with pytest.raises(ValueError, match="ten"):
        economy.ledger_lines(world, GM)


def test_action_route_follows_the_one_run_or_order_rule(table: Table) -> None:
    """The market's route is `kernel.play.views.command_route` with the GM's "refused" label: run it,
    file it as an order (saying why it is not his to run), or refused with the reason."""
    world = table.world
    corvin, lysa = Identity.parse("player:corvin"), Identity.parse("player:lysa")
    expand = {"business": "hale-bank", "sizes": 1}
    assert economy.action_route(world, GM, "business-expand", expand) == economy.Route("direct")
    refusal = check_command(world, corvin, "business-expand", expand)
    assert refusal is not None and refusal.field == "identity"
    assert economy.action_route(world, corvin, "business-expand", expand) == economy.Route(
        "order", refusal.reason, refusal.who_may
    )
    filed = check_order(world, lysa, "business-expand", expand)
    assert filed is not None and filed.field == "order.identity"
    assert economy.action_route(world, lysa, "business-expand", expand) == economy.Route(
        "refused", filed.reason, filed.who_may
    )
    # Any other refusal is the dialog's to show: the action opens it.
    assert economy.action_route(
        world, corvin, "produce", {"business": "salt-works", "good": "Salt", "quantity": -1}
    ) == economy.Route("direct")
