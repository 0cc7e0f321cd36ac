"""Issue 29: a player fills the smuggle order form with the keyboard alone, in a real terminal
(tmux, 80×24, the real `yak`), and every key lands where the focus shows.

"Corvin" typed into the form used to go to the fort list and empty it ("is required"). The form
now opens on its first empty field (the merchant); letters typed into a list open it on the match,
enter chooses, tab moves on, and digits land in the inputs. The order is then read back from the
save with `yak --json show`."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from tmux_helpers import YAK, Tmux, yak_command

from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.demo import create_world
from yak_tui.store.storage import WorldFile

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed"),
]


@pytest.fixture
def save(tmp_path: Path) -> Path:
    path = tmp_path / "world.json"
    create_world(path)
    siege = {"fort": "brinehaven", "units": "varos-siege-host,varos-blockade-squadron"}
    run_command(WorldFile(path), Identity.parse("king:varos"), "siege-begin", siege)
    return path


@pytest.fixture
def term(tmp_path: Path, save: Path) -> Iterator[Tmux]:
    terminal = Tmux(yak_command(tmp_path, save, "player:corvin"), width=80, height=24)
    try:
        yield terminal
    finally:
        terminal.kill()


def field(text: str, label: str) -> str:
    """What the form shows right of `label` (the first line that starts with it)."""
    for line in text.splitlines():
        body = line.strip("│ ")
        if body == label or body.startswith(label + " "):
            return body[len(label) :].strip().rstrip("▼").strip()
    raise AssertionError(f"no field {label!r} on screen:\n{text}")


def test_the_smuggle_form_filled_with_the_keyboard_alone(term: Tmux, save: Path) -> None:
    term.wait_for("Spring 312")
    term.keys("s")
    term.wait_for(lambda t: "Siege of Brinehaven" in t and "p Smuggle" in t)  # the key is offered
    term.keys("p")
    text = term.wait_for(lambda t: "File an order" in t and "merchant" in t and "shipments" in t)
    assert field(text, "fort") == "Brinehaven"
    # The focus is on the merchant: his name typed there opens the list on him; enter chooses him.
    term.type("Corvin")
    term.wait_for(lambda t: "Corvin Hale" in t.split("merchant", 1)[-1])
    term.keys("Enter")
    text = term.wait_for(lambda t: field(t, "merchant") == "Corvin Hale")
    assert field(text, "fort") == "Brinehaven"  # the letters went nowhere else
    # Tab to the shipments, type; tab to the bribe (its 0 is selected on focus), type.
    term.keys("Tab")
    term.type("3")
    term.wait_for(lambda t: field(t, "shipments") == "3")
    term.keys("Tab")
    term.type("1")
    term.wait_for(lambda t: field(t, "bribe") == "1")
    term.keys("Tab", "Tab")  # past the good (Grain stays) to the note
    term.type("by the north gate")
    text = term.wait_for(lambda t: field(t, "note") == "by the north gate")
    assert field(text, "fort") == "Brinehaven" and field(text, "merchant") == "Corvin Hale"
    assert field(text, "good") == "Grain"
    assert "is required" not in text
    term.keys("C-s")
    term.wait_for(lambda t: "File an order" not in t)
    term.quit()

    listed = subprocess.run(
        [str(YAK), "--save", str(save), "--as", "player:corvin", "--json", "orders"],
        capture_output=True,
        text=True,
        check=True,
    )
    [order] = json.loads(listed.stdout)["orders"]
    shown = subprocess.run(
        [str(YAK), "--save", str(save), "--json", "show", "orders", order["order"]],
        capture_output=True,
        text=True,
        check=True,
    )
    document = json.loads(shown.stdout)["document"]
    assert document["command"] == "smuggle"
    params = {name: str(value) for name, value in document["params"].items()}  # the form files the text typed
    assert params == {"fort": "brinehaven", "merchant": "corvin", "shipments": "3", "bribe": "1", "good": "Grain"}
    assert document["note"] == "by the north gate"
    assert document["filed_by"] == "player:corvin"
