"""Two real `yak` processes on one save, in tmux (100×30): a player submits a private espionage
mission from the board; the GM's yak receives it in its inbox, resolves it blind with the dice;
the player's screen then shows the outcome and nothing of the dice or the modifiers."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from tmux_helpers import Tmux, yak_command

from yak_tui.areas.espionage import mission_lines
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]

CORVIN = "player:corvin"


@pytest.fixture
def save(tmp_path: Path) -> Path:
    path = tmp_path / "world.json"
    create_world(path)
    return path


@pytest.fixture
def terminals(tmp_path: Path, save: Path) -> Iterator[tuple[Tmux, Tmux]]:
    player = Tmux(yak_command(tmp_path, save, CORVIN))
    gm = Tmux(yak_command(tmp_path, save, "gm"))
    try:
        yield player, gm
    finally:
        player.kill()
        gm.kill()


def test_submits_a_private_order_as_a_player_and_resolves_it_as_the_gm(
    save: Path, terminals: tuple[Tmux, Tmux]
) -> None:
    player, gm = terminals
    player.wait_for("Player · Corvin Hale")
    gm.wait_for("Due this season")

    # The player: the board, target Varos, the Infiltrate Treasury row, n, a note, enter.
    player.keys("e")
    player.wait_for("Missions against Kesh")
    player.keys("t")
    player.wait_for("Missions against Varos")
    world = World(WorldFile(save).read())
    rows = [m.slug for m in mission_lines(world, Identity.parse(CORVIN), "elbreth", "varos")]
    player.keys(*["Down"] * rows.index("infiltrate-treasury"))
    player.keys("n")
    player.wait_for(lambda t: "Submit a private mission" in t and "Infiltrate Treasury" in t and "Costs 1 ducat" in t)
    player.type("before the feast")
    player.keys("Enter")
    player.wait_for(lambda t: "Submit a private mission" not in t and "waits for the GM" in t)
    [(order_id, order)] = list(World(WorldFile(save).read()).all("orders"))
    assert order["private"] and order["status"] == "waiting" and order["note"] == "before the feast"

    # The GM's yak sees it arrive in its inbox, resolves it blind: the dice and every modifier.
    gm.keys("e")
    gm.wait_for(lambda t: "Private orders inbox (1)" in t and "Corvin Hale  Infiltrate Treasury  Varos" in t)
    assert "before the feast" in gm.screen()
    gm.keys("x")  # the board's key: it resolves the waiting order wherever the focus is
    gm.wait_for(lambda t: "Resolve Infiltrate Treasury (blind)" in t and "Odds before rolling" in t)
    assert "nation-wide counter-spy -1" in gm.screen()
    gm.keys("Enter")
    landed = gm.wait_for(lambda t: "detection roll" in t and t.count("rolled ") == 2 and "rolling…" not in t)
    order = World(WorldFile(save).read()).get("orders", order_id)
    assert order["status"] == "resolved"
    chronicle = [e for _, e in World(WorldFile(save).read()).all("chronicle") if e.get("rolls")]
    naturals = [r["naturals"][0] for e in chronicle for r in e["rolls"]]
    assert f"rolled {naturals[0]}" in landed and f"rolled {naturals[1]}" in landed
    assert "(nation-wide counter-spy)" in landed
    gm.keys("Escape")
    gm.wait_for(lambda t: "Resolve Infiltrate Treasury" not in t and "Missions against" in t)

    # The player's yak shows the outcome it was told, and nothing of the dice.
    reported = order["outcome"].split(". ", 1)[0].rsplit(": ", 1)[-1]  # "success" or "failure"
    text = player.wait_for(lambda t: "resolved" in t and reported in t)
    assert order["outcome"][:40] in text  # the whole text the sponsor was told, under his orders
    for secret in ("rolled", "counter-spy -1", "spy ring infiltrated", "succeeds", "captured-", "escaped-"):
        assert secret not in text, secret

    player.quit()
    gm.quit()
