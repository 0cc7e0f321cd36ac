"""Issue 29: a raid's odds and its die read in words, short enough to sit beside the die."""

from __future__ import annotations

from yak_plugin import Table

from yak_tui.app.kit.dice import DiceTray
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.play.views import command_odds, odds_words, roll_views
from yak_tui.kernel.world.model import World


def _raiders_at_brinehaven(table: Table) -> None:
    world = World(table.save.read())
    table.edit(
        lambda data: World(data).edit("units", "varos-raiders").update(hex=world.get("pcs", "brinehaven")["hex"])
    )


def test_a_raid_has_odds_in_words(table: Table) -> None:
    _raiders_at_brinehaven(table)
    world = World(table.save.read())
    params = {"unit": "varos-raiders", "pc": "brinehaven"}
    odds = command_odds(world, GM, "raid", params)
    assert odds is not None and len(odds.rows) == 6
    said = odds_words(dict(odds.rows), "raid", params)
    assert said.startswith("takes 1 ducat 17%, takes 2 ducats 17%")


def test_a_raid_die_says_what_it_took_in_short_lines(table: Table) -> None:
    _raiders_at_brinehaven(table)
    result = table.run("gm", "raid", {"unit": "varos-raiders", "pc": "brinehaven"}, dice=[4])
    (roll,) = roll_views(World(table.save.read()), GM, result.entries)
    lines = [line.plain for line in DiceTray()._summary(roll, tumbling=False)]
    assert lines[-1] == "→ took 4 ducats"
    assert "→ raid" not in lines
    assert all(len(line) <= 28 for line in lines), lines


def test_one_ducat_is_one_ducat() -> None:
    """Issue 29: "1 ducats" nowhere: every count of ducats a person reads goes through `ducats`."""
    import re
    from pathlib import Path

    import yak_tui

    root = Path(yak_tui.__file__).parent
    bare = re.compile(r"\{[^{}]+\} ducats\b|ducat\(s\)|\(s\)\"")
    allowed = (
        '"regiment(s)");',
        'never "regiment(s)"',
        "1d{",
        "{each} ducats",
        "× {per_increment} ducats",
        "{doc.get('amount', '?')} ducats",
    )
    found = [
        f"{path.relative_to(root)}:{number}"
        for path in root.rglob("*.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if bare.search(line) and not any(a in line for a in allowed)
    ]
    assert not found, found
