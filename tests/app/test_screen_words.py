"""Issue 29, what a person reads on screens, in forms and in the CLI's human lines: words, not
records. Each test pins one line the issue saw read as a developer's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from app_helpers import make_app, screen_text, settle, wait_for, world_of
from test_readable_screens import orders_save  # noqa: F401 - the fixture
from test_words_sweep import offences

from yak_tui.app.kit.plot import TreasuryPlot
from yak_tui.app.screens.court.panels import entry_prompt
from yak_tui.areas.court.read_chronicle import chronicle_view
from yak_tui.areas.nobles.read import describe
from yak_tui.cli import main
from yak_tui.kernel.errors import CommandError
from yak_tui.kernel.play import views
from yak_tui.kernel.play.commands import COMMANDS, load_command_modules, run_command
from yak_tui.kernel.play.identity import GM, Identity
from yak_tui.kernel.season.history import DocumentChange, diff_worlds
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

CORVIN = Identity.parse("player:corvin")
KING = Identity.parse("king:elbreth")
SEATS = [GM, KING, CORVIN]
MISSION_SLUG = re.compile(r"[a-z]+(-[a-z]+)+: ")  # "crash-commodity-market: the trade good"


# -- forms: labels, help, options and refusals ---------------------------------------------------------


@pytest.mark.parametrize("who", SEATS, ids=str)
def test_every_form_field_reads_as_words(orders_save: Path, who: Identity) -> None:  # noqa: F811
    """Every field a form draws for every command the seat may file (the GM: every command): its
    label, its help and its options read as words, over a world with orders and effects."""
    world = world_of(orders_save)
    load_command_modules()
    names = sorted(COMMANDS) if who.is_gm else [c.name for c in views.order_commands(world, who)]
    found = []
    for name in names:
        for field in views.param_fields(world, who, name, order=not who.is_gm):
            text = "\n".join([field.help, *(choice.label for choice in field.options)])
            text = text.replace("America/New_York", "")  # a time zone's own name, typed as it is
            found += [f"{name}.{field.name}: {line}" for line in offences(text)]
            if MISSION_SLUG.match(field.help):
                found.append(f"{name}.{field.name}: help starts with a slug: {field.help}")
    assert not found, found[:10]


def test_mission_field_help_is_a_plain_request() -> None:
    from yak_tui.areas.espionage.fields import ORDER_FIELDS

    helps = {f.name: f.param.help_text for f in ORDER_FIELDS}
    assert helps["commodity"] == "Pick a trade good"
    assert helps["infiltration"] == "Choose the infiltration to purge"


def test_a_refusal_names_its_field_and_who_may_in_words() -> None:
    problem = views.problem_of(
        CommandError("order.mission", "needs Infiltrate Government", ("gm", "gm", "king:elbreth"))
    )
    assert problem.message() == "Mission: needs Infiltrate Government — who may: the GM, the King of Elbreth"


def test_a_missing_value_never_names_its_python_type(save_path: Path) -> None:
    with pytest.raises(CommandError) as refused:
        run_command(WorldFile(save_path), GM, "smuggle", {})
    assert "(str)" not in refused.value.reason and "(int)" not in refused.value.reason


def test_a_missing_infiltration_names_the_mission_to_run(save_path: Path) -> None:
    """ "run Infiltrate Spy Ring first", never the slug."""
    with pytest.raises(CommandError) as refused:
        run_command(
            WorldFile(save_path),
            GM,
            "spy-mission",
            {"mission": "create-security-breach", "sponsor": "elbreth", "target": "varos"},
        )
    assert "(run Infiltrate Spy Ring first)" in refused.value.reason, refused.value.reason


@pytest.mark.parametrize("who", [CORVIN, GM], ids=str)
def test_the_order_form_offers_the_filers_own_businesses(save_path: Path, who: Identity) -> None:
    world = world_of(save_path)
    field = views.param_fields(world, who, "business-expand", order=not who.is_gm)[0]
    offered = {choice.value for choice in field.options}
    if who.is_gm:
        assert offered == set(world.table("businesses"))
    else:
        assert offered == {b for b, doc in world.table("businesses").items() if doc.get("owner") == "corvin"}
        assert offered == {"hale-bank", "salt-works"}


# -- the unknown command ------------------------------------------------------------------------------


def test_an_unknown_command_lists_only_what_a_player_may_use(
    save_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["--save", str(save_path), "--as", "player:corvin", "do", "zzzz"])
    err = capsys.readouterr().err
    assert code == 2
    assert "no command named 'zzzz'" in err
    assert "spy-order" in err and "gm-" not in err and "advance" not in err, err
    assert len(err) < 600, err


def test_an_unknown_command_for_the_gm_points_to_the_list(save_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["--save", str(save_path), "do", "zzzz"])
    err = capsys.readouterr().err
    assert "yak do --list" in err and "gm-set" not in err, err


# -- records: history, the map's details, the chronicle's readers ----------------------------------------


def test_a_field_change_reads_as_words() -> None:
    change = DocumentChange(
        "pcs",
        "ironhold",
        "Ironhold",
        "changed",
        {"tax_taken": (1, 0), "produced": (None, {"goods": 3, "ducats": 2})},
    )
    assert change.line() == "pcs · Ironhold: Tax taken: 1 → 0; Produced: — → goods 3, ducats 2"


def test_diff_names_documents_and_seasons(save_path: Path) -> None:
    before = world_of(save_path)
    after = World(before.trial().data) if hasattr(before, "trial") else before
    after.edit("pcs", "ironhold")["captured_by"] = "varos"
    after.edit("pcs", "ironhold")["captured"] = {"year": 312, "season": "Winter"}
    lines = "\n".join(diff_worlds(world_of(save_path), after, GM).lines())
    assert "Captured by: — → Kingdom of Varos" in lines, lines
    assert "Captured: — → Winter 312" in lines, lines


def test_the_maps_details_name_what_a_field_names(save_path: Path) -> None:
    world = world_of(save_path)
    world.edit("pcs", "ironhold")["captured_by"] = "varos"
    world.edit("pcs", "ironhold")["captured"] = {"year": 420, "season": "Winter"}
    pairs = dict(describe(world, GM, "pcs", "ironhold"))
    assert pairs["Captured by"] == "Kingdom of Varos"
    assert pairs["Captured"] == "Winter 420"
    assert all(value not in ("", "—") for value in pairs.values()), pairs
    assert not any("_" in label for label in pairs), pairs


def test_a_private_entry_names_its_readers(busy_save: Path) -> None:
    world = world_of(busy_save)
    view = chronicle_view(world, GM)
    private = next(e for e in view.entries if e.audience == "kingdom:varos")
    line = entry_prompt(private, False, view.readers(private.audience)).plain
    assert line.endswith("(for Kingdom of Varos)"), line


# -- 80x24 --------------------------------------------------------------------------------------------


async def test_holdings_read_whole_names_and_figures_at_80x24(busy_save: Path) -> None:
    app = make_app(busy_save, "king:elbreth", poll_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: all(p.ready for p in app.screen.query(TreasuryPlot)), what="the plot")
        await settle(pilot)
        text = screen_text(app)
        for whole in ("King Aldric", "Corvin Hale", "treasury 51", "Maelis the Grey"):
            assert whole in text, f"{whole} is cut:\n{text}"
        assert "treasury …" not in text


async def test_no_orders_line_is_whole_at_80x24(save_path: Path) -> None:
    app = make_app(save_path, "player:corvin", poll_interval=0)
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for(pilot, lambda: all(p.ready for p in app.screen.query(TreasuryPlot)), what="the plot")
        await settle(pilot)
        assert "None yet: o files an order." in screen_text(app)


# -- the CLI's human lines ----------------------------------------------------------------------------


@pytest.mark.parametrize("who", ["gm", "king:elbreth", "player:corvin", "observer"])
def test_the_clis_human_reports_read_as_words(
    orders_save: Path,  # noqa: F811
    who: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`yak report`, `yak diff` and `yak log` print words (`yak orders` names each order by its id on
    purpose: the id is what `order-resolve order=…` takes)."""
    for argv in (["report"], ["report", "--season", "Spring 312"], ["diff", "Spring 312", "Autumn 312"], ["log"]):
        capsys.readouterr()
        assert main(["--save", str(orders_save), "--as", who, *argv]) == 0
        found = offences(capsys.readouterr().out)
        assert not found, f"{who} {' '.join(argv)}: {found[:5]}"
