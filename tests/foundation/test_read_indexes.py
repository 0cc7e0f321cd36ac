"""Read models answered from `World.where`'s indexes (issue 13) see every write made after the
index was built: a business moved, grown, added or closed changes the market's sector usage, and a
kingdom that stops or starts being a player's changes who may adjudicate."""

from __future__ import annotations

import copy

from yak_tui.areas.economy import sector_businesses, sector_usage
from yak_tui.kernel.play.authority import Stakes, who_may
from yak_tui.kernel.world.model import World


def scanned_usage(world: World, province: str) -> dict[str, int]:
    used: dict[str, int] = {}
    for _, biz in world.all("businesses"):
        if biz["province"] == province:
            used[biz["sector"]] = used.get(biz["sector"], 0) + int(biz["size"])
    return used


def used_of(world: World, province: str) -> dict[str, int]:
    return {sector: int(row["used"]) for sector, row in sector_usage(world, province).items() if row["used"]}


def test_sector_usage_follows_writes_after_the_index_is_built(world: World) -> None:
    assert used_of(world, "highmoor-vale") == {"industrial": 6, "service": 3}  # builds the index
    world.edit("businesses", "millbrook-mill")["province"] = "saltmarsh"  # moved
    world.edit("businesses", "scribes-guild")["size"] = 5  # grown
    added = copy.deepcopy(world.get("businesses", "hale-bank"))
    added.update(name="New Bank", province="highmoor-vale")
    world.put("businesses", "new-bank", added)  # opened
    world.delete("businesses", "salt-works")  # closed
    for province in ("highmoor-vale", "saltmarsh"):
        assert used_of(world, province) == scanned_usage(world, province)
    assert used_of(world, "highmoor-vale") == {"industrial": 3, "service": 5, "commercial": 8}
    assert [bid for bid, _ in sector_businesses(world, "saltmarsh", "industrial")] == ["millbrook-mill"]


def test_who_may_follows_the_player_flag(world: World) -> None:
    stakes = Stakes.of("kesh", kingdoms=["kesh"])
    assert who_may(world, stakes) == ("gm", "king:elbreth", "king:varos")
    world.edit("kingdoms", "varos")["player"] = False
    world.edit("kingdoms", "kesh")["player"] = True
    assert who_may(world, stakes) == ("gm", "king:elbreth")


def test_controlled_provinces_follow_a_conquest(world: World) -> None:
    from yak_tui.areas.economy import controlled_provinces

    before = {kid: controlled_provinces(world, kid) for kid in world.table("kingdoms")}  # builds the index
    province = next(pid for pid, doc in world.all("provinces") if doc.get("kingdom") == "varos")
    world.edit("provinces", province)["kingdom"] = "elbreth"
    assert controlled_provinces(world, "elbreth") == before["elbreth"] + 1
    assert controlled_provinces(world, "varos") == before["varos"] - 1
    for kid in world.table("kingdoms"):
        assert controlled_provinces(world, kid) == sum(1 for _, p in world.all("provinces") if p.get("kingdom") == kid)
