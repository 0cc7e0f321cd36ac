"""Espionage at year start and over time (RULINGS §7, DESIGN §9): counterfeit debt before upkeep,
treasury theft split with the sponsor, upkeep surcharges, the government manpower cut, cold spies,
and effects that run out after exactly 4 seasons."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from spy_helpers import (
    KING_ELBRETH,
    KING_VAROS,
    do,
    infiltrate,
    mutate,
    no_counter_spies,
    put_effect,
    read,
    run_step,
    texts,
)

from yak_tui.areas.court.commands import upkeep_due
from yak_tui.areas.espionage import board, year_start
from yak_tui.kernel.play.audience import visible_entries
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.world.demo import build_world, create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile


@pytest.fixture
def world() -> World:
    w = World(build_world())
    w.originals.clear()
    return w


def _secret_sums(world: World, step: str) -> dict[str, Any]:
    found = [e for _, e in world.all("chronicle") if e["kind"] == "espionage-year-start" and e["refs"]["step"] == step]
    assert len(found) == 1
    assert found[0]["audience"] == "adjudicators"
    sums: dict[str, Any] = found[0]["refs"]["sums"]
    return sums


# ---------------------------------------------------------------- counterfeit


def test_counterfeit_debt_may_go_below_zero(world: World) -> None:
    world.edit("kingdoms", "elbreth")["treasury"] = 2
    put_effect(
        world,
        "fx-c1",
        "counterfeit",
        "counterfeit-currency",
        "varos",
        "elbreth",
        data={"debt": 5},
        due={"year": 312, "season": "Spring"},
        end={"year": 312, "season": "Spring"},
    )
    put_effect(
        world,
        "fx-c2",
        "counterfeit",
        "counterfeit-currency",
        "kesh",
        "elbreth",
        data={"debt": 5},
        due={"year": 312, "season": "Spring"},
        end={"year": 312, "season": "Spring"},
        known=True,
    )
    # Not due yet: a counterfeit done this year falls due next year.
    put_effect(
        world,
        "fx-c3",
        "counterfeit",
        "counterfeit-currency",
        "kesh",
        "varos",
        data={"debt": 5},
        due={"year": 313, "season": "Spring"},
        end={"year": 313, "season": "Spring"},
    )
    run_step(world, year_start._counterfeit_debts, "counterfeit")
    assert world.get("kingdoms", "elbreth")["treasury"] == 2 - 10
    assert world.get("kingdoms", "varos")["treasury"] == 30
    assert world.get("effects", "fx-c1")["active"] is False
    assert world.get("effects", "fx-c3")["active"] is True
    assert _secret_sums(world, "counterfeit") == {"counterfeit debt elbreth": 10}
    # Elbreth reads both debts (its ledger reconciles, issue 14 leak 7); only the counterfeit it
    # detected is named, the other is an unexplained loss.
    seen = texts(world, KING_ELBRETH)
    assert sorted(seen) == [
        "Kingdom of Elbreth pays 5 ducats: debt from counterfeit coin",
        "Kingdom of Elbreth pays 5 ducats: unexplained loss",
    ]


def test_counterfeit_is_taken_before_tax_and_upkeep(save: WorldFile) -> None:
    mutate(save, lambda w: infiltrate(w, "varos", "elbreth", "infiltrate-government"))
    mutate(save, lambda w: w.edit("kingdoms", "elbreth").update(treasury=1))
    mutate(save, lambda w: no_counter_spies(w, "elbreth"))
    do(save, "spy-mission", {"mission": "counterfeit-currency", "sponsor": "varos", "target": "elbreth"}, [4, 6])
    for _ in range(4):
        do(save, "advance", {})
    world = read(save)
    spring = sorted(
        (e for _, e in world.all("chronicle") if e["date"] == {"year": 313, "season": "Spring"}), key=lambda e: e["seq"]
    )
    debt = [e for e in spring if "counterfeit" in e.get("secret", "")]
    assert len(debt) == 1 and debt[0]["amounts"] == {"kingdoms:elbreth": -5}
    first_tax = min(e["seq"] for e in spring if "tax for the year" in e["text"])
    first_upkeep = min(e["seq"] for e in spring if "upkeep of its regiments" in e["text"])
    assert debt[0]["seq"] < first_tax < first_upkeep


# ---------------------------------------------------------------- treasury theft


@pytest.mark.parametrize(
    ("provinces", "treasury", "stolen", "share"),
    [
        (4, 42, 4, 2),  # the demo: Elbreth holds 4 provinces
        (3, 42, 3, 1),  # odd: the sponsor's half is rounded down
        (4, 3, 3, 1),  # never more than the treasury holds
        (4, 0, 0, 0),
    ],
)
def test_treasury_theft_half_to_the_sponsor(
    world: World, provinces: int, treasury: float, stolen: int, share: int
) -> None:
    for prov in ("highmoor-vale", "saltmarsh", "greywood", "stonereach")[provinces:]:
        world.edit("provinces", prov)["kingdom"] = "kesh"
    world.edit("kingdoms", "elbreth")["treasury"] = treasury
    infiltrate(world, "varos", "elbreth", "infiltrate-treasury")
    run_step(world, year_start._treasury_theft, "tax")
    assert world.get("kingdoms", "elbreth")["treasury"] == treasury - stolen
    assert world.get("kingdoms", "varos")["treasury"] == 30 + share
    if stolen:
        # The GM's preview names kingdoms (issue 29), and a share of nothing is not a sum.
        to_sponsor = {"to Kingdom of Varos": share} if share else {}
        assert _secret_sums(world, "tax") == {"stolen from Kingdom of Elbreth": stolen, **to_sponsor}
        # Varos sees its share; Elbreth, unaware, sees all it lost as an unexplained loss (issue 14:
        # its ledger reconciles, the cause stays secret).
        assert any("skimmed from the tax" in t for t in texts(world, KING_VAROS))
        seen = [e for e in visible_entries(world, KING_ELBRETH)]
        assert [e["text"] for e in seen] == [
            f"Kingdom of Elbreth pays {stolen} ducats: unexplained loss from the tax collection"
        ]
        assert sum(v for e in seen for v in e["amounts"].values()) == -stolen


def test_treasury_theft_in_a_full_year_start(save: WorldFile) -> None:
    mutate(save, lambda w: infiltrate(w, "varos", "elbreth", "infiltrate-treasury"))
    plain = create_world(save.path.with_name("plain.json"))
    for _ in range(4):
        do(save, "advance", {})
        do(plain, "advance", {})
    spied, clean = read(save), read(plain)
    assert spied.get("kingdoms", "elbreth")["treasury"] == clean.get("kingdoms", "elbreth")["treasury"] - 4
    assert spied.get("kingdoms", "varos")["treasury"] == clean.get("kingdoms", "varos")["treasury"] + 2


# ---------------------------------------------------------------- upkeep surcharges


def test_upkeep_surcharges_per_ship_and_regiment(world: World) -> None:
    base, _ = upkeep_due(world, "elbreth")
    infiltrate(world, "varos", "elbreth", "infiltrate-admiralty")
    with_navy, parts = upkeep_due(world, "elbreth")
    assert with_navy - base == pytest.approx(0.5 * 2)  # two ships
    assert parts["naval waste"] == 1.0  # the label does not name what Elbreth does not know
    infiltrate(world, "varos", "elbreth", "infiltrate-general-staff", known=True)
    both, parts = upkeep_due(world, "elbreth")
    assert both - base == pytest.approx(0.5 * 2 + 0.5 * 7)  # 4 + 2 + 1 regiments
    assert parts["infiltrate general staff"] == 3.5
    # A second sponsor's man counts too; an inactive (purged) infiltration does not.
    infiltrate(world, "kesh", "elbreth", "infiltrate-admiralty")
    assert upkeep_due(world, "elbreth")[0] - base == pytest.approx(1 + 3.5 + 1)
    world.edit("effects", "fx-kesh-elbreth-infiltrate-admiralty")["active"] = False
    assert upkeep_due(world, "elbreth")[0] - base == pytest.approx(1 + 3.5)
    assert upkeep_due(world, "varos")[0] == upkeep_due(World(build_world()), "varos")[0]


# ---------------------------------------------------------------- government, cold spies


def test_government_infiltration_cuts_a_quarter_of_manpower(world: World) -> None:
    infiltrate(world, "varos", "elbreth", "infiltrate-government")
    infiltrate(world, "kesh", "elbreth", "infiltrate-government", known=True)
    run_step(world, year_start._government, "government")
    # 18 - 18//4 = 14 (Kesh's, known to Elbreth), then 14 - 14//4 = 11 (Varos's, unknown).
    assert world.get("kingdoms", "elbreth")["manpower"] == 11
    assert _secret_sums(world, "government") == {"manpower cut elbreth": 7}
    assert texts(world, KING_ELBRETH) == [
        "Kingdom of Elbreth loses 4 manpower to a corrupt bureaucracy (14 left).",
        "Kingdom of Elbreth loses 3 manpower in an unexplained loss (11 left).",
    ]


def test_cold_spies_become_active(world: World) -> None:
    world.edit("specialists", "elbreth")["cold_spy"] = 2
    run_step(world, year_start._cold_spies, "cold-spies")
    assert (world.get("specialists", "elbreth")["spy"], world.get("specialists", "elbreth")["cold_spy"]) == (5, 0)
    assert (world.get("specialists", "varos")["spy"], world.get("specialists", "varos")["cold_spy"]) == (5, 0)
    assert _secret_sums(world, "cold-spies") == {"returned elbreth": 2, "returned varos": 1}
    assert texts(world, KING_ELBRETH) == ["2 cold spies are active again in Kingdom of Elbreth (5 active)."]


def test_public_step_lines_show_no_espionage_sums(save: WorldFile) -> None:
    mutate(save, lambda w: infiltrate(w, "varos", "elbreth", "infiltrate-treasury", "infiltrate-government"))
    for _ in range(4):
        do(save, "advance", {})
    world = read(save)
    public = [e for e in visible_entries(world, KING_ELBRETH) if e["kind"] == "year-start"]
    assert public
    for entry in public:
        assert "stolen" not in entry["text"] and "manpower cut" not in entry["text"]
        assert "cold" not in entry["text"]
    assert _secret_sums(world, "government") == {"manpower cut elbreth": 18 // 4}


# ---------------------------------------------------------------- expiries


def test_one_year_effect_expires_after_exactly_four_seasons(save: WorldFile) -> None:
    do(save, "advance", {})  # Summer 312
    mutate(save, lambda w: infiltrate(w, "varos", "elbreth", "infiltrate-treasury"))
    result = do(
        save,
        "spy-mission",
        {
            "mission": "crash-commodity-market",
            "sponsor": "varos",
            "target": "elbreth",
            "province": "saltmarsh",
            "commodity": "Salt",
        },
        [4, 6],
    )
    effect_id = result.data["effect"]
    assert read(save).get("effects", effect_id)["end"] == {"year": 313, "season": "Summer"}
    for label in ("Autumn 312", "Winter 312", "Spring 313"):
        do(save, "advance", {})
        world = read(save)
        assert world.date.label() == label
        assert world.get("effects", effect_id)["active"] is True, label
        assert world.get("provinces", "saltmarsh")["price_modifiers"] == {"Salt": -3}
    do(save, "advance", {})
    world = read(save)
    assert world.date.label() == "Summer 313"
    assert world.get("effects", effect_id)["active"] is False
    assert world.get("effects", effect_id)["ended_by"] == "expired"
    assert world.get("provinces", "saltmarsh")["price_modifiers"] == {}
    assert any("crash market in Saltmarsh" in t and "run its course" in t for t in texts(world, KING_VAROS))
    # Elbreth never knew of it, so hears nothing of its end either.
    assert not any("crash market" in t for t in texts(world, KING_ELBRETH))


def test_limit_trade_stacks_and_persists(save: WorldFile) -> None:
    """Seed 002, Limit Trade: "Reduces the Market Allowance of a province by 10 ducats." No duration
    is given and only Crash Commodity Market "Cannot be conducted twice successfully": a second
    success takes another 10 and the cut outlives the year."""
    mutate(save, lambda w: infiltrate(w, "varos", "elbreth", "infiltrate-treasury"))
    mutate(save, lambda w: no_counter_spies(w, "elbreth", "varos"))
    mutate(save, lambda w: w.edit("provinces", "greywood").update(market_allowance=26))
    for _ in range(2):
        result = do(
            save,
            "spy-mission",
            {"mission": "limit-trade", "sponsor": "varos", "target": "elbreth", "province": "greywood"},
            [4, 6],
        )
        assert result.data["outcome"] == "success"
        assert "changes nothing" not in str(result.data)
    assert read(save).get("provinces", "greywood")["market_allowance"] == 6
    for _ in range(8):
        do(save, "advance", {})
    world = read(save)
    assert world.get("provinces", "greywood")["market_allowance"] == 6
    assert len([e for _, e in world.where("effects", kind="limit-trade") if e["active"]]) == 2


def test_limit_trade_duration_is_a_table_value(save: WorldFile, tmp_path: Path) -> None:
    """A house rule that gives Limit Trade a duration makes the cut wear off (the allowance comes
    back, never having gone below 0)."""
    from yak_tui.kernel.world.tables import set_override_dir

    house = tmp_path / "house"
    house.mkdir()
    (house / "espionage.toml").write_text('[[missions]]\nslug = "limit-trade"\nduration_seasons = 4\n')
    set_override_dir(str(house))
    try:
        mutate(save, lambda w: infiltrate(w, "varos", "elbreth", "infiltrate-treasury"))
        mutate(save, lambda w: w.edit("provinces", "greywood").update(market_allowance=6))
        do(
            save,
            "spy-mission",
            {"mission": "limit-trade", "sponsor": "varos", "target": "elbreth", "province": "greywood"},
            [4, 6],
        )
        assert read(save).get("provinces", "greywood")["market_allowance"] == 0  # never below 0
        for _ in range(4):
            do(save, "advance", {})
        assert read(save).get("provinces", "greywood")["market_allowance"] == 6
    finally:
        set_override_dir(None)


def test_demo_smuggling_ring_runs_out_in_winter(save: WorldFile) -> None:
    ring = "elbreth-smuggling-varos-march"
    do(save, "advance", {})
    do(save, "advance", {})
    assert read(save).get("effects", ring)["active"] is True  # Autumn 312
    do(save, "advance", {})
    world = read(save)
    assert world.date.label() == "Winter 312"
    assert world.get("effects", ring)["active"] is False


def test_next_year_effects_last_through_the_production_step(save: WorldFile) -> None:
    mutate(save, lambda w: infiltrate(w, "varos", "elbreth", "infiltrate-spy-ring"))
    mutate(save, lambda w: no_counter_spies(w, "elbreth"))
    result = do(
        save,
        "spy-mission",
        {"mission": "interfere-with-academies", "sponsor": "varos", "target": "elbreth", "specialist": "engineer"},
        [4, 6],
    )
    effect_id = result.data["effect"]
    seen_in_production: list[bool] = []

    from yak_tui.kernel.season import seasons

    production = seasons.YEAR_START.by_name["economy-production"]

    def spy_on_production(ctx: Any, report: Any) -> None:
        production.fn(ctx, report)
        seen_in_production.append(bool(ctx.world.get("effects", effect_id)["active"]))

    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(
            seasons.YEAR_START.by_name, "economy-production", seasons.Handler(spy_on_production, "production")
        )
        for _ in range(4):
            do(save, "advance", {})
    assert seen_in_production == [True]
    assert read(save).get("effects", effect_id)["active"] is False


def test_gm_sees_every_effect(save: WorldFile) -> None:
    view = board.effects_view(read(save), GM)
    assert {e["id"] for e in view["held"]} == {"varos-spy-ring-in-elbreth", "elbreth-smuggling-varos-march"}
