"""A scripted campaign whose every byte is pinned: the demo world played through five seasons (a year
start included) with orders from every area, filed by Kings and players, carried out, rejected and
withdrawn by their adjudicators with seeded dice; then each seat's report of each season.

The save and the reports must stay byte for byte what they were when this file was written: a move
of code (a new room for a module, a declared step order) may change nothing a campaign writes. When
a rule is changed on purpose, regenerate with `YAK_GOLDEN_WRITE=1 pytest tests/foundation/test_golden_campaign.py`
and say why in the commit."""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from yak_tui.kernel.play.commands import CommandError, run_command
from yak_tui.kernel.play.dice import SeededDice
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.clock import frozen_clock
from yak_tui.kernel.season.reports import render_report, reports_for
from yak_tui.kernel.season.session import advance_season
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

GOLDEN = Path(__file__).parent / "golden" / "campaign.json"
GM = Identity.parse("gm")
READERS = ("gm", "king:elbreth", "king:varos", "player:corvin", "player:lysa", "player:silas", "observer")

# Each season: (filer, command, params) filed as orders; the GM or the filer's King adjudicates them.
ORDERS: tuple[tuple[tuple[str, str, dict[str, Any]], ...], ...] = (
    (
        ("player:corvin", "business-expand", {"business": "hale-bank", "sizes": 1}),
        ("player:corvin", "spy-mission", {"mission": "infiltrate-treasury", "target": "kesh"}),
        ("player:lysa", "cast", {"caster": "lysa", "source": "ley-line", "spell": "a fog over Greywatch"}),
        ("king:elbreth", "hire", {"kingdom": "elbreth", "type": "spy", "count": 1}),
        ("king:varos", "roll", {"reason": "watch the pass", "kingdom": "varos"}),
    ),
    (
        ("player:edmund", "relocate", {"character": "edmund", "pc": "millbrook"}),
        ("player:silas", "spy-mission", {"mission": "fund-bandits", "target": "elbreth", "province": "greywood"}),
        ("king:varos", "hire", {"kingdom": "varos", "type": "spy", "count": 1}),
        ("player:lysa", "business-expand", {"business": "amber-vintners", "sizes": 1}),
    ),
    (
        ("king:elbreth", "cast", {"caster": "maelis", "source": "ley-line", "spell": "rain over Thornfield"}),
        ("player:corvin", "spy-mission", {"mission": "infiltrate-admiralty", "target": "varos"}),
        ("king:varos", "spy-mission", {"mission": "create-security-breach", "target": "elbreth"}),
        ("player:corvin", "business-expand", {"business": "salt-works", "sizes": 1}),
    ),
    (
        ("player:edmund", "spy-mission", {"mission": "infiltrate-government", "target": "varos"}),
        (
            "player:lysa",
            "spy-mission",
            {
                "mission": "inspire-commercial-animosity",
                "target": "elbreth",
                "province": "saltmarsh",
                "against": "the salt traders",
            },
        ),
        ("king:elbreth", "roll", {"reason": "mend the walls"}),
    ),
    (
        ("player:silas", "spy-mission", {"mission": "infiltrate-treasury", "target": "kesh"}),
        ("king:elbreth", "hire", {"kingdom": "elbreth", "type": "spy", "count": 1}),
    ),
)


def _do(save: WorldFile, who: str | Identity, name: str, params: dict[str, Any], seed: int) -> str:
    """Run a command; its result or its refusal, as text, is part of what is pinned."""
    identity = who if isinstance(who, Identity) else Identity.parse(who)
    try:
        result = run_command(save, identity, name, params, SeededDice(seed))
    except CommandError as error:
        return f"refused {error.field}: {error.reason}"
    return json.dumps(result.data, sort_keys=True, default=str)


def _play(directory: Path) -> dict[str, Any]:
    save = create_world(directory / "world.json")
    outcomes: list[str] = []
    reports: dict[str, str] = {}
    seed = 1000
    for orders in ORDERS:
        filed: list[str] = []
        for who, command, params in orders:
            seed += 1
            text = _do(save, who, "order-file", {"command": command, "params": json.dumps(params)}, seed)
            outcomes.append(text)
            world = World(save.read())
            waiting = [key for key, o in world.table("orders").items() if o.get("status") == "waiting"]
            filed.extend(order for order in waiting if order not in filed)
        world = World(save.read())
        for index, order_id in enumerate(filed):
            seed += 1
            order = world.get("orders", order_id)
            if index % 5 == 3:
                outcomes.append(_do(save, GM, "order-reject", {"order": order_id, "reason": "not this season"}, seed))
            elif index % 7 == 6:
                outcomes.append(_do(save, order["filer"], "order-withdraw", {"order": order_id}, seed))
            else:
                outcomes.append(_do(save, GM, "order-resolve", {"order": order_id}, seed))
        seed += 1
        closing = World(save.read()).date.label()
        advance_season(save, GM, SeededDice(seed))
        world = World(save.read())
        for reader in READERS:
            for index, report in enumerate(reports_for(world, Identity.parse(reader))):
                reports[f"{closing} {reader} {index}"] = render_report(report, "markdown")
    raw = save.path.read_bytes()
    return {
        "save_sha256": hashlib.sha256(raw).hexdigest(),
        "save_bytes": len(raw),
        "outcomes": outcomes,
        "reports": reports,
    }


# The rules' clock for the whole campaign: each order keeps the moment it was filed (`filed_at`).
FROZEN_AT = "2026-12-01T12:00Z"


def test_a_scripted_campaign_writes_exactly_what_it_wrote(tmp_path: Path) -> None:
    with frozen_clock(FROZEN_AT):
        played = _play(tmp_path)
    if os.environ.get("YAK_GOLDEN_WRITE"):
        GOLDEN.write_text(json.dumps(played, indent=1, sort_keys=True) + "\n")
    golden = json.loads(GOLDEN.read_text())
    assert played["outcomes"] == golden["outcomes"]
    assert played["reports"] == golden["reports"]
    assert (played["save_sha256"], played["save_bytes"]) == (golden["save_sha256"], golden["save_bytes"])
