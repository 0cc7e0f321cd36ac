"""The command palette at scale: its actions are listed at once, the world's names are gathered in a
thread once per world and seat, a query is matched off the event loop and lists its best lines
(exactly Textual's fuzzy order), and a player never finds a line he may not see."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, on_top, settle, wait_for, world_of
from textual.command import CommandList, CommandPalette
from textual.fuzzy import Matcher

from yak_tui.app import providers
from yak_tui.app.providers import Catalogue, PaletteName, name_lines, palette_names
from yak_tui.kernel.play.identity import GM, Identity


def listed(app: Any) -> list[str]:
    """The title of every line the palette lists now (not only those the screen has room for)."""
    if not isinstance(app.screen, CommandPalette):
        return []
    commands = app.screen.query_one(CommandList)
    return [str(commands.get_option_at_index(index).prompt).split("\n")[0] for index in range(commands.option_count)]


def brute_force(lines: list[PaletteName], query: str, limit: int) -> list[tuple[float, PaletteName]]:
    """Textual's own palette order: every line scored, the best first, the earlier among equals."""
    matcher = Matcher(query)
    scored = [(max(matcher.match(line.title), matcher.match(line.help) * 0.5), line) for line in lines]
    return sorted((hit for hit in scored if hit[0] > 0), key=lambda hit: hit[0], reverse=True)[:limit]


@pytest.mark.parametrize("query", ["e", "k", "kesh", "jump to k", "act as king", "Keshar", "hl", "zzq", "·"])
def test_a_query_lists_the_lines_textual_would_list_first(save_path: Path, query: str) -> None:
    lines = list(name_lines(world_of(save_path), GM, True))
    for limit in (3, 100):
        assert Catalogue(lines).best(query, limit, lambda: False) == brute_force(lines, query, limit)


def test_a_search_stops_when_a_newer_letter_came(save_path: Path) -> None:
    assert Catalogue(name_lines(world_of(save_path), GM, True)).best("e", 100, lambda: True) is None


def test_the_names_are_gathered_once_per_world_and_seat(save_path: Path) -> None:
    world = world_of(save_path)
    names = palette_names(world, GM, True)
    assert palette_names(world, GM, True) is names
    assert palette_names(world, Identity.parse("king:varos"), False) is not names
    assert palette_names(world_of(save_path), GM, True) is not names


async def test_the_palette_lists_its_actions_before_the_names_then_finds_a_name(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    gathered = threading.Event()
    release = threading.Event()
    real = providers.name_lines

    def slow_names(*args: Any) -> tuple[PaletteName, ...]:
        gathered.set()
        release.wait(60)
        return real(*args)

    monkeypatch.setattr(providers, "name_lines", slow_names)
    app = make_app(save_path)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.press("ctrl+p")
            await wait_for(pilot, lambda: "Go to Market" in listed(app), what="the palette's actions")
            await wait_for(pilot, gathered.is_set, what="the names being gathered")
            assert not any(line.startswith("Jump to") for line in listed(app))
            release.set()
            await pilot.press(*"Keshar")
            await wait_for(pilot, lambda: "Jump to Keshar" in listed(app), what="the name found")
            await pilot.press("enter")
            await wait_for(pilot, lambda: app.current_mode == "map", what="the map")
    finally:
        release.set()


async def test_a_player_never_finds_a_seat_or_a_gm_line(save_path: Path) -> None:
    app = make_app(save_path, "player:nyx")
    async with app.run_test(size=(120, 40)) as pilot:
        for query in ("Varos", "Act as", "Run command"):
            await pilot.press("ctrl+p")
            await wait_for(pilot, lambda: on_top(app, CommandPalette), what="the palette")
            await pilot.press(*query)
            if query == "Varos":
                await wait_for(pilot, lambda: "Jump to Varosgate" in listed(app), what="a name he may see")
            await settle(pilot)
            assert not [line for line in listed(app) if line.startswith(("Act as", "Run command"))]
            await pilot.press("escape")
            await wait_for(pilot, lambda: not isinstance(app.screen, CommandPalette), what="the palette closed")
