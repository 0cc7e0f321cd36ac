"""Hex geometry (axial, odd-r terminal layout) and the Relocate check (RULINGS §8)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from yak_tui.areas.nobles.rules import in_relocate_range, relocate_check, relocate_check_between
from yak_tui.kernel.world.hexgrid import (
    DIRECTIONS,
    Hex,
    axial_to_offset,
    cell_to_hex,
    hex_distance,
    hex_ring,
    hex_to_cell,
    hexes_within,
    neighbours,
    offset_to_axial,
)
from yak_tui.kernel.world.tables import set_override_dir

# --- geometry ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "b", "distance"),
    [
        ((0, 0), (0, 0), 0),
        ((0, 0), (1, 0), 1),
        ((0, 0), (1, -1), 1),
        ((0, 0), (2, -1), 2),
        ((0, 0), (3, 3), 6),
        ((0, 0), (7, -7), 7),
        ((0, 0), (-4, -4), 8),
        ((2, -3), (-1, 4), 7),
    ],
)
def test_hex_distance(a: tuple[int, int], b: tuple[int, int], distance: int) -> None:
    assert hex_distance(a, b) == distance
    assert hex_distance(b, a) == distance


def test_neighbours() -> None:
    around = neighbours(Hex(2, -1))
    assert len(set(around)) == 6
    assert all(hex_distance(Hex(2, -1), h) == 1 for h in around)
    assert around[0] == Hex(3, -1)
    assert len(DIRECTIONS) == 6


@pytest.mark.parametrize("radius", [0, 1, 2, 7])
def test_hexes_within(radius: int) -> None:
    center = Hex(3, -2)
    hexes = hexes_within(center, radius)
    assert len(hexes) == len(set(hexes)) == 3 * radius * radius + 3 * radius + 1
    assert all(hex_distance(center, h) <= radius for h in hexes)
    box = [
        Hex(center.q + dq, center.r + dr)
        for dq in range(-radius - 1, radius + 2)
        for dr in range(-radius - 1, radius + 2)
    ]
    assert {h for h in box if hex_distance(center, h) <= radius} == set(hexes)


@pytest.mark.parametrize("radius", [1, 2, 5])
def test_hex_ring(radius: int) -> None:
    ring = hex_ring(Hex(0, 0), radius)
    assert len(ring) == len(set(ring)) == 6 * radius
    assert all(hex_distance(Hex(0, 0), h) == radius for h in ring)
    # consecutive hexes touch, so the ring can be drawn as a path
    assert all(hex_distance(a, b) == 1 for a, b in zip(ring, ring[1:] + ring[:1], strict=True))
    assert hex_ring(Hex(4, 4), 0) == (Hex(4, 4),)


def test_negative_radius() -> None:
    with pytest.raises(ValueError, match="radius"):
        hexes_within(Hex(0, 0), -1)
    with pytest.raises(ValueError, match="radius"):
        hex_ring(Hex(0, 0), -1)


def test_offset_round_trip() -> None:
    for h in hexes_within(Hex(0, 0), 6):
        assert offset_to_axial(*axial_to_offset(h)) == h
    # odd-r: moving down-right from an even row keeps the column, from an odd row adds one
    assert axial_to_offset(Hex(0, 1)) == (0, 1)
    assert axial_to_offset(Hex(0, 2)) == (1, 2)
    assert axial_to_offset(Hex(-1, 1)) == (-1, 1)


def test_hex_to_cell_shifts_odd_rows() -> None:
    assert hex_to_cell(offset_to_axial(0, 0)) == (0, 0)
    assert hex_to_cell(offset_to_axial(1, 0)) == (4, 0)
    assert hex_to_cell(offset_to_axial(0, 1)) == (2, 2)
    assert hex_to_cell(offset_to_axial(2, 3), cell_width=6, cell_height=3) == (15, 9)
    assert hex_to_cell(offset_to_axial(0, -1)) == (2, -2)


@pytest.mark.parametrize(("width", "height"), [(4, 2), (6, 3), (2, 1)])
def test_cell_to_hex_inverts_every_character_of_a_cell(width: int, height: int) -> None:
    for h in hexes_within(Hex(1, 1), 3):
        x0, y0 = hex_to_cell(h, width, height)
        for dx in range(width):
            for dy in range(height):
                assert cell_to_hex(x0 + dx, y0 + dy, width, height) == h


def test_bad_cell_size() -> None:
    with pytest.raises(ValueError, match="cell"):
        hex_to_cell(Hex(0, 0), 1, 1)
    with pytest.raises(ValueError, match="cell"):
        cell_to_hex(0, 0, 4, 0)


# --- Relocate ------------------------------------------------------------------------------


@pytest.mark.parametrize(("distance", "reason"), [(0, "ok"), (7, "ok"), (8, "out-of-range")])
def test_relocate_range(distance: int, reason: str) -> None:
    check = relocate_check(distance, has_pc=True)
    assert check.reason == reason
    assert check.ok is (reason == "ok")
    assert check.cost_spent is (reason == "ok")


def test_out_of_range_is_refused_before_spending() -> None:
    check = relocate_check(8, has_pc=True)
    assert check.refused and not check.cost_spent
    assert "8" in check.message and "7" in check.message


def test_relocate_between_hexes() -> None:
    origin = Hex(0, 0)
    assert relocate_check_between(origin, Hex(7, -7), True).ok
    assert relocate_check_between(origin, (-4, -3), True).ok  # distance 7
    assert relocate_check_between(origin, Hex(-4, -4), True).reason == "out-of-range"
    assert in_relocate_range(origin, Hex(0, 7))
    assert not in_relocate_range(origin, Hex(0, 8))


@pytest.mark.parametrize(
    ("sizes", "reason"),
    [
        ((), "ok"),
        (("patrol",), "ok"),
        (("company",), "ok"),
        (("battalion", "patrol"), "ok"),
        (("brigade",), "blocked"),
        (("patrol", "Division"), "blocked"),
        (("army",), "blocked"),
    ],
)
def test_relocate_blocking_legions(sizes: tuple[str, ...], reason: str) -> None:
    check = relocate_check(3, has_pc=True, blocking_legion_sizes=sizes)
    assert check.reason == reason
    assert check.cost_spent  # a blocked relocation is a failed command: cost spent


def test_unknown_legion_size() -> None:
    with pytest.raises(ValueError, match="legion size"):
        relocate_check(3, has_pc=True, blocking_legion_sizes=["horde"])


def test_empty_hex_fails_with_cost_spent() -> None:
    check = relocate_check(5, has_pc=False)
    assert (check.reason, check.ok, check.cost_spent, check.refused) == (
        "no-pc",
        False,
        True,
        False,
    )
    # an empty hex with a brigade still reads as no PC
    assert relocate_check(5, has_pc=False, blocking_legion_sizes=["army"]).reason == "no-pc"


@pytest.mark.parametrize(
    ("kind", "status", "reason"),
    [
        ("high_priestess", None, "ok"),
        ("High Priestess", "fresh", "ok"),
        ("high-priestess", "Weary", "ok"),
        ("high_priestess", "exhausted", "exhausted"),
        ("noble", "exhausted", "ok"),  # only the HP is limited by the seed
        ("agent", "weary", "ok"),
    ],
)
def test_relocate_status(kind: str, status: str | None, reason: str) -> None:
    check = relocate_check(2, has_pc=True, character_kind=kind, status=status)
    assert check.reason == reason
    if reason != "ok":
        assert check.refused and not check.cost_spent


def test_exhausted_hp_refused_before_range() -> None:
    assert relocate_check(9, True, character_kind="high_priestess", status="exhausted").reason == ("exhausted")


def test_agent_onto_friendly_legion() -> None:
    check = relocate_check(7, has_pc=False, is_agent_onto_friendly_legion=True, character_kind="agent")
    assert check.ok and check.cost_spent
    # range still applies
    far = relocate_check(8, has_pc=False, is_agent_onto_friendly_legion=True, character_kind="agent")
    assert far.reason == "out-of-range"


@pytest.mark.parametrize("kind", ["noble", "high_priestess"])
def test_only_agents_onto_legions(kind: str) -> None:
    check = relocate_check(1, has_pc=False, is_agent_onto_friendly_legion=True, character_kind=kind)
    assert check.reason == "agent-only"
    assert check.refused


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"character_kind": "king"}, "character kind"),
        ({"status": "asleep"}, "status"),
        ({"distance": -1}, "distance"),
    ],
)
def test_relocate_bad_input(kwargs: dict[str, object], match: str) -> None:
    values: dict[str, object] = {"distance": 1, "has_pc": True, **kwargs}
    with pytest.raises(ValueError, match=match):
        relocate_check(**values)  # type: ignore[arg-type]


@pytest.fixture
def house_rules(tmp_path: Path) -> Iterator[Path]:
    set_override_dir(str(tmp_path))
    try:
        yield tmp_path
    finally:
        set_override_dir(None)


def test_house_rule_range_and_blocking(house_rules: Path) -> None:
    (house_rules / "nobles.toml").write_text('[relocate]\nrange = 8\nblock_from = "battalion"\n')
    assert relocate_check(8, has_pc=True).ok
    assert relocate_check(1, True, ["battalion"]).reason == "blocked"
    assert relocate_check(1, True, ["company"]).ok
