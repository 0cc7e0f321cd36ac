"""Hidden information at year start (issue 14, leaks 5 and 6): what the target and the public may
read of upkeep surcharges, gunpowder and academy figures, scanned as `yak log --as ...` shows it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from spy_helpers import infiltrate, mutate

from yak_tui.cli import main
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile


@pytest.fixture
def save(tmp_path: Path) -> WorldFile:
    return create_world(tmp_path / "w.json")


def log_as(capsys: pytest.CaptureFixture[str], save: WorldFile, who: str) -> list[dict[str, Any]]:
    code = main(["--save", str(save.path), "--as", who, "--json", "log"])
    out, err = capsys.readouterr()
    assert code == 0, err
    entries: list[dict[str, Any]] = json.loads(out)["entries"]
    return entries


def _to_year_start(save: WorldFile) -> None:
    def winter(world: World) -> None:
        world.meta["date"] = GameDate.parse("Winter 312").to_dict()
        world.meta["undo"] = []

    mutate(save, winter)
    assert main(["--save", str(save.path), "advance"]) == 0


def test_upkeep_surcharges_of_undetected_infiltrations_stay_hidden(
    save: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 002, Infiltrate General Staff: "The upkeep cost of every regiment under the nation's
    command increases by 0.5d/year", and "All spy rolls are conducted blind". The target's own line
    shows one upkeep figure without causes; the public year-start line shows no upkeep total."""
    mutate(save, lambda w: infiltrate(w, "varos", "elbreth", "infiltrate-general-staff", "infiltrate-admiralty"))
    _to_year_start(save)
    capsys.readouterr()
    target = json.dumps(log_as(capsys, save, "king:elbreth"))
    public = json.dumps(log_as(capsys, save, "player:corvin")) + json.dumps(log_as(capsys, save, "king:kesh"))
    for hidden in ("waste", "infiltrate general staff", "infiltrate admiralty", "upkeep paid"):
        assert hidden not in target.lower() or hidden == "upkeep paid", hidden
        assert hidden not in public.lower(), hidden
    assert "upkeep of its regiments and ships" in target
    gm = json.dumps(log_as(capsys, save, "gm"))
    assert "military waste" in gm and "upkeep paid" in gm  # the adjudicators keep the breakdown


def test_public_year_start_sums_carry_no_secret_figures(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 002, Gunpowder: "each assigned engineer will produce 1 barrel of gunpowder at year's
    end" is the kingdom's own business, and Interfere with Academies "Reduces the number of
    specialists ... produced in the following year": public year-start lines carry neither the
    barrels nor the academy and sailor totals from which interference could be read."""

    def gunpowder(world: World) -> None:
        world.edit("specialists", "elbreth").setdefault("engineers_assigned", {"siege": {}, "gunpowder": 0})[
            "gunpowder"
        ] = 1

    mutate(save, gunpowder)
    _to_year_start(save)
    capsys.readouterr()
    public = [e["text"] for e in log_as(capsys, save, "king:kesh") if e["kind"] == "year-start"]
    assert public, "the public year-start lines are still written"
    for hidden in ("gunpowder barrels", "academy graduates", "sailors 1", "upkeep paid"):
        assert not any(hidden in text for text in public), (hidden, public)
    gm = [e["text"] for e in log_as(capsys, save, "gm") if e["kind"] == "year-start-secret"]
    assert any("gunpowder barrels 1" in text for text in gm)


def test_a_counter_spy_spent_by_an_undetected_operation_shows_as_an_unexplained_loss(
    save: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 002, Counter-Spy: "Provides a -2 malus to success & detection for one enemy operation,
    but the spy is destroyed therafter." The owner sees his counter-spy go; an operation he did not
    detect stays unnamed ("unexplained loss")."""
    from spy_helpers import do

    mutate(save, lambda w: w.edit("specialists", "elbreth").update(counter_spies={"provinces": [], "nation": 1}))
    result = do(
        save, "spy-mission", {"mission": "infiltrate-treasury", "sponsor": "varos", "target": "elbreth"}, [6, 6]
    )
    assert result.data["outcome"] == "success"
    capsys.readouterr()
    seen = [e["text"] for e in log_as(capsys, save, "king:elbreth")]
    assert seen == ["Your counter-spy guarding the nation is gone (lost: unexplained loss)."]


# ---------------------------------------------------------------- issue 14, leak 8: a player's mission


def _silas_order(save: WorldFile, mission: str, dice: list[int], **params: Any) -> dict[str, Any]:
    """Silas (a Varos player) files a private order against Elbreth; the GM resolves it."""
    from spy_helpers import SILAS, do, no_counter_spies

    mutate(save, lambda w: no_counter_spies(w, "elbreth", "varos"))
    order = do(save, "spy-order", {"mission": mission, "target": "elbreth", **params}, who=SILAS)
    return do(save, "spy-resolve", {"order": order.data["order"]}, dice).data["result"]


def test_a_players_mission_tells_his_king_of_the_kingdom_spy_used(
    save: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 002, Espionage: "Any mission will expend 1 Spy in its use in addition to any other
    costs." The spy comes from the kingdom's pool, so its King sees the pool change and who used
    it, but not the mission, its target or its outcome."""
    before = World(save.read()).get("specialists", "varos")
    result = _silas_order(save, "create-security-breach", [4, 6])
    assert result["outcome"] == "success"
    capsys.readouterr()
    king = [e["text"] for e in log_as(capsys, save, "king:varos")]
    assert king == [
        f"Silas Crow used one of the kingdom's spies on a private mission; he went to ground and is "
        f"active again at the next year start ({before['spy'] - 1} active, {before['cold_spy'] + 1} cold)."
    ]


def test_theft_income_of_a_players_mission_is_told_to_his_king(
    save: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 002, Embezzlement: "1/5th of the treasury or 10 ducats (whichever sum is larger) will be
    stolen on a success; half will be diverted to the sponsor country." The half reaches the
    kingdom's treasury, so its King gets the line with the sum, and the ledger of Varos reconciles."""
    mutate(save, lambda w: infiltrate(w, "varos", "elbreth", "infiltrate-treasury"))
    mutate(save, lambda w: w.edit("effects", "fx-varos-elbreth-infiltrate-treasury").update(holder_character="silas"))
    before = World(save.read()).get("kingdoms", "varos")["treasury"]
    _silas_order(save, "embezzlement", [4, 6])
    after = World(save.read()).get("kingdoms", "varos")["treasury"]
    assert after - before == 5
    capsys.readouterr()
    king = log_as(capsys, save, "king:varos")
    income = [e for e in king if e.get("amounts", {}).get("kingdoms:varos")]
    assert [e["text"] for e in income] == [
        "Kingdom of Varos receives 5 ducats: embezzled from Kingdom of Elbreth (the mission of Silas Crow)"
    ]
    assert (
        sum(e["amounts"]["kingdoms:varos"] for e in king if "kingdoms:varos" in e.get("amounts", {})) == after - before
    )
    # And the year-start skim of a player's treasury infiltration reaches the King too.
    _to_year_start(save)
    capsys.readouterr()
    skim = [e["text"] for e in log_as(capsys, save, "king:varos") if "skimmed" in e["text"]]
    assert skim and "the infiltration of Silas Crow" in skim[0]
    assert any("skimmed" in e["text"] for e in log_as(capsys, save, "player:silas"))


def test_an_identified_players_mission_names_the_player(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 002, Espionage: "Target -2: Spy captured, either talks or sufficient evidence to
    identify the perpetrator." When a player ordered the mission, the perpetrator is the player:
    the target is told his name (and his kingdom), and its effects list names him."""
    result = _silas_order(save, "create-security-breach", [4, 1])
    assert result["evidence"] == "identified"
    capsys.readouterr()
    target = [e["text"] for e in log_as(capsys, save, "king:elbreth")]
    assert any("ordered by Silas Crow of Kingdom of Varos" in text for text in target), target


# ---------------------------------------------------------------- issue 14, leak 7: the owner's ledger


def test_the_targets_chronicle_reconciles_his_treasury(save: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    """Seed 002, Embezzlement: "1/5th of the treasury or 10 ducats (whichever sum is larger) will be
    stolen"; Counterfeit Currency: "Incurs a debt of 5 ducats to the target country at year's end";
    Infiltrate Treasury: "1 ducat/province will be stolen out of the annual tax collection". With
    every operation undetected, the sum of the amounts the target can read equals the change of
    his treasury, and no line names the operations ("unexplained loss")."""
    from spy_helpers import do, no_counter_spies

    mutate(save, lambda w: no_counter_spies(w, "elbreth"))
    mutate(save, lambda w: infiltrate(w, "varos", "elbreth", "infiltrate-treasury", "infiltrate-government"))
    before = float(World(save.read()).get("kingdoms", "elbreth")["treasury"])
    capsys.readouterr()
    seen_before = {e["id"] for e in log_as(capsys, save, "king:elbreth")}
    for slug in ("embezzlement", "counterfeit-currency"):
        result = do(save, "spy-mission", {"mission": slug, "sponsor": "varos", "target": "elbreth"}, [4, 6])
        assert result.data["outcome"] == "success" and result.data["evidence"] == "undetected"
    _to_year_start(save)
    after = float(World(save.read()).get("kingdoms", "elbreth")["treasury"])
    capsys.readouterr()
    new = [e for e in log_as(capsys, save, "king:elbreth") if e["id"] not in seen_before]
    visible = sum(e.get("amounts", {}).get("kingdoms:elbreth", 0) for e in new)
    assert visible == pytest.approx(after - before)
    losses = [e["text"] for e in new if "unexplained loss" in e["text"] and e.get("amounts")]
    assert len(losses) == 3, losses  # embezzlement, counterfeit debt, the treasury's skim
    text = json.dumps([e for e in new if e["audience"] == "kingdom:elbreth"]).lower()
    for hidden in ("embezzl", "counterfeit", "infiltrat"):
        assert hidden not in text, hidden


def test_hidden_cuts_to_manpower_and_specialists_are_told_as_unexplained(
    save: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 002, Infiltrate Government: "Reduces the available manpower of the country by one
    quarter (rounded down)"; Interfere with Academies: "Reduces the number of specialists of a
    given type produced in the following year by 2". The owner sees both changes to his own
    numbers; the cause stays secret while the operation is undetected."""
    from spy_helpers import put_effect

    def setup(world: World) -> None:
        infiltrate(world, "varos", "elbreth", "infiltrate-government")
        world.edit("academies", "highmoor-engineers")["level"] = 3
        put_effect(
            world,
            "fx-acad",
            "academy-interference",
            "interfere-with-academies",
            "varos",
            "elbreth",
            data={"specialist": "engineer", "reduction": 2},
            due={"year": 313, "season": "Spring"},
            end={"year": 313, "season": "Spring"},
        )

    mutate(save, setup)
    manpower = int(World(save.read()).get("kingdoms", "elbreth")["manpower"])
    _to_year_start(save)
    capsys.readouterr()
    seen = [e["text"] for e in log_as(capsys, save, "king:elbreth")]
    assert (
        f"Kingdom of Elbreth loses {manpower // 4} manpower in an unexplained loss "
        f"({manpower - manpower // 4} left)." in seen
    ), seen
    academy = [text for text in seen if "engineer academies graduate" in text]
    assert academy and "fewer than due: unexplained loss" in academy[0], academy
    assert "interference" not in json.dumps(seen).lower()


def test_a_secret_limit_trade_is_told_to_the_owner_as_an_unexplained_loss(
    save: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    """Seed 002, Limit Trade: "Reduces the Market Allowance of a province by 10 ducats". The owner
    sees his province's allowance fall; an undetected operation stays unnamed."""
    from spy_helpers import do, no_counter_spies

    mutate(save, lambda w: no_counter_spies(w, "elbreth"))
    mutate(save, lambda w: infiltrate(w, "varos", "elbreth", "infiltrate-treasury"))
    result = do(
        save,
        "spy-mission",
        {"mission": "limit-trade", "sponsor": "varos", "target": "elbreth", "province": "saltmarsh"},
        [4, 6],
    )
    assert result.data["evidence"] == "undetected"
    capsys.readouterr()
    seen = [e["text"] for e in log_as(capsys, save, "king:elbreth")]
    assert seen == ["The market allowance of Saltmarsh falls by 10 (unexplained loss)."], seen
