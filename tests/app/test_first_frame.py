"""A screen opened for the first time is drawn once, whole, with its data (issue 30).

Textual held a new screen's frames for 50 ms, but still laid it out and drew it (its panels empty,
waiting for the read model), only to drop that frame unshown; a build longer than 50 ms then showed
the empty panels, and a moment later every line of the screen was drawn again. At 100x that cost a
first visit about 50 ms. Now no frame of a screen being opened is drawn until it has painted its
read model (or a slow build has taken `FIRST_PAINT_HOLD`), and the whole screen is drawn then."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from app_helpers import make_app, settle, wait_for
from textual._compositor import Compositor

from yak_tui.app.kit.screens import YakScreen


async def test_a_first_visit_draws_no_frame_before_the_screen_has_its_data(
    save_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(save_path, poll_interval=0)
    painted: set[int] = set()
    frames: list[tuple[str, bool]] = []  # (the screen drawn, whether it had painted its data)
    loaded, render_update = YakScreen._loaded, Compositor.render_update

    def loaded_noted(self: YakScreen, built: Any) -> None:
        loaded(self, built)
        painted.add(id(self))

    def render_noted(self: Compositor, *args: Any, **kwargs: Any) -> Any:
        screen = app.screen
        if self is screen._compositor:
            frames.append((getattr(screen, "SCREEN_NAME", ""), id(screen) in painted))
        return render_update(self, *args, **kwargs)

    monkeypatch.setattr(YakScreen, "_loaded", loaded_noted)
    monkeypatch.setattr(Compositor, "render_update", render_noted)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        for key, name in (("e", "espionage"), ("b", "market"), ("s", "sieges"), ("m", "map"), ("d", "dashboard")):
            frames.clear()
            await pilot.press(key)
            await wait_for(pilot, lambda n=name: app.current_mode == n and not app.screen.loader.pending, what=name)
            await settle(pilot)
            assert frames and frames[0] == (name, True), (name, frames[:3])
        for key, name in (("R", "reports"), ("H", "history")):
            frames.clear()
            await pilot.press(key)
            await wait_for(pilot, lambda n=name: getattr(app.screen, "SCREEN_NAME", "") == n, what=name)
            await wait_for(pilot, lambda: not app.screen.loader.pending, what=f"{name} painted")
            await settle(pilot)
            assert frames and frames[0] == (name, True), (name, frames[:3])
            await pilot.press("escape")
            await settle(pilot)
        assert app._batch_count == 0 and not app.holds_frames
