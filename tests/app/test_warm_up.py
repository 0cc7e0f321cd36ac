"""Issue 13, first visits: once the first screen is painted, the app imports the other main screens'
modules (off the event loop), parses their CSS once and freezes what is alive (`gc.freeze`), so a
first visit afterwards imports nothing and parses no stylesheet; the start itself still imports the
dashboard's modules only.

Run in a fresh interpreter: this test process has imported every screen already."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

OTHER_SCREENS = {
    f"yak_tui.app.screens.{name}" for name in ("espionage.screen", "economy.screen", "warfare.screen", "nobles.screen")
}
SCREEN_NAMES = ("dashboard", "espionage", "market", "sieges", "map", "chronicle")
PROBE = """
import asyncio, gc, json, sys
sys.path.insert(0, sys.argv[2])
from app_helpers import make_app, settle, wait_for
from textual.app import App
from textual.css.stylesheet import Stylesheet
from yak_tui.app.kit import screens as kit
from yak_tui.app.navigation import SCREENS

def screen_modules():
    return sorted(m for m in sys.modules if m.startswith("yak_tui.app.screens.") and m.endswith(("screen", "chronicle")))

parses = []
reparse, refresh_css = Stylesheet.reparse, App.refresh_css
Stylesheet.reparse = lambda self: (parses.append("reparse"), reparse(self))[1]
App.refresh_css = lambda self, animate=True: (parses.append("refresh_css"), refresh_css(self, animate))[1]

async def main():
    gc.disable()  # as `yak tui` starts (cli.commands.verb_tui)
    app = make_app(sys.argv[1], poll_interval=0)
    out = {}
    async with app.run_test(size=(120, 40)) as pilot:
        out["at_start"] = screen_modules()
        out["start_parses"] = [p for p in parses if p == "reparse"]  # the warm-up parses in place
        out["frozen_at_start"] = gc.get_freeze_count()  # the world, frozen as it was read
        await wait_for(pilot, lambda: app in kit._WARMED and all(kit.stylesheet_holds(app, s) for s in kit.screen_classes()),
                       what="the warm-up")
        await settle(pilot)
        out["warmed"] = screen_modules()
        out["collector_on"] = gc.isenabled()
        out["frozen"] = gc.get_freeze_count()
        before, parses[:] = set(sys.modules), []
        for name, (_, _, key, _) in SCREENS.items():
            await pilot.press(key)
            await wait_for(pilot, lambda n=name: app.current_mode == n and app.screen._seen_version >= 0, what=name)
            await settle(pilot)
        out["new_modules"] = sorted(m for m in set(sys.modules) - before if m.startswith("yak_tui"))
        out["frozen_after"] = sorted(screen.SCREEN_NAME for screen in kit._FROZEN_AFTER)
        out["frozen_visited"] = gc.get_freeze_count()
        # Back to the dashboard (built before the warm-up), then the side screens over it (R, H).
        await pilot.press("d")
        await wait_for(pilot, lambda: app.current_mode == "dashboard", what="the dashboard again")
        await settle(pilot)
        for key, name in (("R", "reports"), ("H", "history")):
            await pilot.press(key)
            await wait_for(pilot, lambda n=name: getattr(app.screen, "SCREEN_NAME", "") == n, what=name)
            await settle(pilot)
            await pilot.press("escape")
            await wait_for(pilot, lambda: app.current_mode == "dashboard" and len(app.screen_stack) == 1, what="back")
            await settle(pilot)
        out["parses"] = list(parses)
    print(json.dumps(out))

asyncio.run(main())
"""


@pytest.mark.app
def test_after_the_warm_up_a_first_visit_imports_nothing_and_parses_no_css(save_path: Path) -> None:
    env = {**os.environ, "TEXTUAL_ANIMATIONS": "none"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(save_path), str(Path(__file__).parent)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.strip().splitlines()[-1])
    # The start imports the dashboard, not the screens a session may never open...
    assert not OTHER_SCREENS & set(out["at_start"])
    # ...and parses the app's sheets once: Textual refreshes the CSS for a mode's first screen, and
    # that refresh set the same variables anew and parsed every sheet afresh, twice in all.
    assert out["start_parses"] == []
    # ...the warm-up imports every main screen...
    assert OTHER_SCREENS <= set(out["warmed"])
    assert out["frozen"] > out["frozen_at_start"]  # what was alive then is out of the collector's sight
    assert out["collector_on"]  # paused for the start, it runs again once the start is frozen
    # ...and then visiting all of them imports nothing; nor does it, the dashboard again and the side
    # screens (Reports, History) parse the stylesheet again (a reparse also restyled every widget).
    assert out["new_modules"] == []
    # Each screen's first visit was frozen a moment after its paint (the dashboard's with the warm-up),
    # so the next visits' collections no longer walk its objects again.
    assert out["frozen_after"] == sorted(set(SCREEN_NAMES) - {"dashboard"})
    assert out["frozen_visited"] > out["frozen"]
    assert out["parses"] == []


def test_a_visit_is_frozen_once_and_never_while_a_side_screen_or_dialog_is_open(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A side screen or dialog is dropped when closed: frozen, its reference cycles would never be
    collected. The freeze waits for the next first visit instead."""
    import gc

    from yak_tui.app.kit import screens as kit

    class OneApp:
        def __init__(self) -> None:
            self.is_running = True
            self.screen_stack = [object(), object()]  # a side screen over the main one

    class Visited:
        pass

    freezes: list[str] = []
    monkeypatch.setattr(kit, "_FROZEN_AFTER", set())
    monkeypatch.setattr(kit, "_FROZEN", [True])
    app = OneApp()
    monkeypatch.setattr(kit, "_WARMED", [app])
    monkeypatch.setattr(gc, "collect", lambda *args: freezes.append("collect") or 0)
    monkeypatch.setattr(gc, "freeze", lambda: freezes.append("freeze"))
    kit.freeze_visited(Visited)  # type: ignore[arg-type]
    assert freezes == [] and Visited not in kit._FROZEN_AFTER
    app.screen_stack = [object()]
    kit.freeze_visited(Visited)  # type: ignore[arg-type]
    kit.freeze_visited(Visited)  # type: ignore[arg-type]
    assert freezes == ["collect", "freeze"]


def test_yak_tui_starts_with_the_collector_paused(monkeypatch: pytest.MonkeyPatch, save_path: Path) -> None:
    """Issue 30: a start makes ~half a million objects that live as long as the app; the young
    collections on the way to the first frame walked them for nothing (~30 ms at 100x). The warm-up's
    freeze turns the collector on again (the probe above)."""
    import gc

    from yak_tui.app import main as app_main
    from yak_tui.cli import main as cli_main

    seen: list[bool] = []
    monkeypatch.setattr(app_main, "run_app", lambda *args, **kwargs: seen.append(gc.isenabled()) or 0)
    try:
        assert cli_main(["--save", str(save_path), "tui"]) == 0
        ended_on = gc.isenabled()  # an app that quit before its warm-up leaves it on all the same
    finally:
        gc.enable()
    assert seen == [False] and ended_on
