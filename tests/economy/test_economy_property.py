"""Property: every ducat the economy commands and the year start move is accounted for in the
chronicle (per treasury, the change equals the sum of the entries' `amounts`), and sector caps,
Sizes and pools stay sane whatever sequence of commands is tried."""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yak_tui.areas import economy as eco
from yak_tui.kernel.play.commands import CommandError, apply_command
from yak_tui.kernel.play.dice import SeededDice
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.demo import build_world
from yak_tui.kernel.world.model import SECTORS, World

ACTIONS = (
    "business-open",
    "business-expand",
    "produce",
    "goods-store",
    "goods-ship",
    "goods-release",
    "business-sell",
    "business-dismantle",
    "monopoly-grant",
    "monopoly-revoke",
    "credit-extend",
    "credit-repay",
    "loan-extend",
    "loan-repay",
    "hire",
    "sponsor-training",
    "academy-found",
    "engineer-assign",
    "trap",
    "trap-resolve",
    "convert",
    "convert-counter",
    "advance",
)


@cache
def _base() -> dict[str, dict[str, Any]]:
    return build_world()


def _pick(items: list[Any], i: int) -> Any:
    return items[i % len(items)] if items else None


# Which businesses an action mostly picks from (refusals on the others are still tried).
ELIGIBLE = {
    "goods-store": lambda b: bool(b.get("stock")),
    "goods-ship": lambda b: bool(b.get("stock") or b.get("warehouse")),
    "goods-release": lambda b: bool(b.get("warehouse")),
    "monopoly-revoke": lambda b: bool(b.get("monopoly")),
    "produce": lambda b: b["sector"] == "industrial",
    "sponsor-training": lambda b: b["sector"] == "service",
    "credit-extend": lambda b: b["sector"] == "commercial",
    "loan-extend": lambda b: b["sector"] == "commercial",
}


def _params(world: World, action: str, i: int, k: int) -> dict[str, Any] | None:
    chars = sorted(world.table("characters"))
    kingdoms = sorted(world.table("kingdoms"))
    provinces = sorted(world.table("provinces"))
    businesses = sorted(world.table("businesses"))
    ledger = sorted(world.table("ledger"))
    wanted = ELIGIBLE.get(action)
    if wanted is not None and k % 5:
        businesses = [bid for bid in businesses if wanted(world.get("businesses", bid))] or businesses
    if action == "business-open":
        province = _pick(provinces, i)
        pcs = sorted(pid for pid, pc in world.all("pcs") if pc["province"] == province)
        return {
            "owner": _pick(chars, k),
            "province": province,
            "pc": _pick(pcs, k),
            "sector": _pick(list(SECTORS), i),
            "name": f"P{i}",
        }
    if action in ("business-expand", "business-dismantle", "monopoly-grant", "monopoly-revoke"):
        bid = _pick(businesses, i)
        if bid is None:
            return None
        return {"business": bid, **({"sizes": 1 + k % 3} if action == "business-expand" else {})}
    if action == "produce":
        bid = _pick(businesses, i)
        if bid is None:
            return None
        resources = world.get("provinces", world.get("businesses", bid)["province"])["resources"]
        return {"business": bid, "good": _pick(resources, k), "quantity": 1 + k % 4}
    if action in ("goods-store", "goods-ship", "goods-release"):
        bid = _pick(businesses, i)
        if bid is None:
            return None
        biz = world.get("businesses", bid)
        source = (
            "warehouse" if action == "goods-release" or (action == "goods-ship" and not biz.get("stock")) else "stock"
        )
        held = biz.get(source) or {"Salt": 1}
        params: dict[str, Any] = {"business": bid, "good": _pick(sorted(held), k), "quantity": 1 + k % 2}
        if action == "goods-ship":
            params |= {"destination": _pick(provinces, k), "source": source}
        if action == "goods-store" and k % 2:
            params["warehouse"] = _pick(businesses, k)
        return params
    if action == "business-sell":
        bid = _pick(businesses, i)
        return None if bid is None else {"business": bid, "buyer": _pick(chars, k), "price": k % 12}
    if action in ("credit-extend", "loan-extend"):
        bid = _pick(businesses, i)
        if bid is None:
            return None
        params = {"lender": bid, "debtor": _pick(chars, k)}
        if action == "credit-extend":
            return params | {"amount": 1 + k % 25}
        return params | {"principal": 1 + k * 3 % 100, "term": 1 + k % 5}
    if action in ("credit-repay", "loan-repay"):
        debt = _pick(ledger, i)
        return None if debt is None else {"debt": debt, **({"amount": 1 + k % 7} if k % 2 else {})}
    if action == "hire":
        return {
            "kingdom": _pick(kingdoms, i),
            "type": _pick(list(eco.HIRED_TYPES), k),
            "immediate": bool(k % 2),
            "count": 1 + k % 3,
        }
    if action == "sponsor-training":
        bid = _pick(businesses, i)
        return None if bid is None else {"business": bid, "type": "spy", "count": 1 + k % 3}
    if action == "academy-found":
        kingdom = _pick(kingdoms, i)
        pcs = sorted(pid for pid, pc in world.all("pcs") if pc.get("controller") == kingdom) or ["highmoor"]
        return {"kingdom": kingdom, "pc": _pick(pcs, k), "type": _pick(list(eco.HIRED_TYPES), k)}
    if action == "engineer-assign":
        return {"kingdom": _pick(kingdoms, i), "task": _pick(list(eco.ENGINEER_TASKS), k), "engine": f"ram{k % 3}"}
    if action == "trap":
        return {"kingdom": _pick(kingdoms, i), "fight": f"fight {k}"}
    if action == "trap-resolve":
        traps = sorted(eid for eid, e in world.all("effects") if e.get("kind") == "trap")
        trap = _pick(traps, i)
        return None if trap is None else {"trap": trap, "friendly_escaped": bool(k % 2), "winner": _pick(kingdoms, k)}
    if action == "convert":
        params = {"province": _pick(provinces, i), "sponsor": _pick(kingdoms, k), "ducats": k % 3}
        if k % 4 == 0:
            params |= {"counter_kingdom": _pick(kingdoms, k + 1), "counter_ducats": k % 2}
        return params
    if action == "convert-counter":
        return {"kingdom": _pick(kingdoms, i), "province": _pick(provinces, k), "ducats": k % 3}
    return {}


def _treasuries(data: dict[str, dict[str, Any]]) -> dict[str, float]:
    return {
        f"{table}:{doc_id}": float(doc.get("treasury", 0))
        for table in ("kingdoms", "characters")
        for doc_id, doc in data[table].items()
    }


@pytest.mark.slow
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    season=st.integers(0, 3),
    wealth=st.integers(0, 60),
    seed=st.integers(0, 2**16),
    actions=st.lists(
        st.tuples(st.sampled_from(ACTIONS), st.integers(0, 1000), st.integers(0, 1000)), min_size=1, max_size=20
    ),
)
def test_every_ducat_is_accounted_for(season: int, wealth: int, seed: int, actions: list[tuple[str, int, int]]) -> None:
    data = copy.deepcopy(_base())
    data["meta"]["world"]["date"] = GameDate(312, season).to_dict()
    for table in ("kingdoms", "characters"):
        for doc in data[table].values():
            doc["treasury"] += wealth
    before = _treasuries(data)
    applied = 0
    for action, i, k in actions:
        params = _params(World(data), action, i, k)
        if params is None:
            continue
        snapshot = copy.deepcopy(data)
        try:
            apply_command(World(data), GM, action, params, SeededDice(seed + i))
            applied += 1
        except CommandError:
            data = snapshot  # a refused command changes nothing
    after = _treasuries(data)
    logged: dict[str, float] = {}
    for entry in data["chronicle"].values():
        for party, amount in entry.get("amounts", {}).items():
            assert party.split(":")[0] in ("kingdoms", "characters"), party
            logged[party] = logged.get(party, 0) + amount
    for party in after:
        assert after[party] - before[party] == pytest.approx(logged.get(party, 0), abs=1e-6), party
    world = World(data)
    for province_id in world.table("provinces"):
        for sector, usage in eco.sector_usage(world, province_id).items():
            assert usage["used"] <= usage["potential"], (province_id, sector)
    for biz in world.table("businesses").values():
        assert biz["size"] >= 1 and biz["invested"] >= 0
    for pool in world.table("specialists").values():
        assert all(pool.get(t, 0) >= 0 for t in ("engineer", "spy", "missionary", "sailor"))
