"""Issue 11: an idle app in a tiny terminal must go quiet.

At 10×5 the dashboard's latest chronicle got a 1-column scroll view: with its scrollbar the text
had 0 columns and measured short, the scrollbar went, the text got its column back and measured
tall, the scrollbar came back, on every frame: `Screen._refresh_layout` ran ~57 times a second
and an idle app burnt a fifth of a core. Each screen, at each small size, must settle: a run of
frames without a single layout, reached after a bounded number of layouts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, wait_for
from textual.pilot import Pilot
from textual.screen import Screen

from yak_tui.app.navigation import SCREENS

QUIET_FRAMES = 10  # consecutive pauses without a layout: the screen has settled
MOST_LAYOUTS = 60  # a screen lays itself out a few times as it fills; a loop passes this at once
MOST_PAUSES = 1200  # a loaded machine may take long to fill a screen, but not for ever


class LayoutCounter:
    """Counts `Screen._refresh_layout` calls (every full layout of a screen)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = Screen._refresh_layout

        def counting(screen: Screen[Any], *args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return original(screen, *args, **kwargs)

        monkeypatch.setattr(Screen, "_refresh_layout", counting)


async def settle(pilot: Pilot[Any], layouts: LayoutCounter, what: str) -> None:
    start, quiet = layouts.count, 0
    for _ in range(MOST_PAUSES):
        before = layouts.count
        await pilot.pause(0.02)
        quiet = quiet + 1 if layouts.count == before else 0
        assert layouts.count - start <= MOST_LAYOUTS, f"{what}: still laying out after {layouts.count - start} layouts"
        if quiet >= QUIET_FRAMES:
            return
    raise AssertionError(f"{what}: never went quiet ({layouts.count - start} layouts)")


@pytest.mark.parametrize("size", [(10, 5), (20, 8), (40, 12), (5, 3)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("who", ["gm", "player:corvin", "king:elbreth"])
async def test_every_screen_goes_quiet_in_a_small_terminal(
    save_path: Path, monkeypatch: pytest.MonkeyPatch, who: str, size: tuple[int, int]
) -> None:
    layouts = LayoutCounter(monkeypatch)
    app = make_app(save_path, who)
    async with app.run_test(size=size) as pilot:
        for mode in SCREENS:
            app.switch_mode(mode)
            await wait_for(
                pilot, lambda mode=mode: app.current_mode == mode and app.screen.is_mounted, what=f"the {mode} screen"
            )
            await settle(pilot, layouts, f"{who} {mode} at {size[0]}x{size[1]}")
