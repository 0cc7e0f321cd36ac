"""Shared setup for the Textual app tests: animations and cursor blink off, a fresh demo save each."""

from __future__ import annotations

import os

# Before Textual reads its constants: no animations (dice land at once, no blinking cursor).
os.environ["TEXTUAL_ANIMATIONS"] = "none"
os.environ.setdefault("YAK_THEME", "dark")

import asyncio
import inspect
import sys
from pathlib import Path

import pytest
import textual.constants

# A plugin may have imported Textual before this file ran: make its reading of the variable agree.
textual.constants.TEXTUAL_ANIMATIONS = "none"  # type: ignore[misc]

sys.path.insert(0, str(Path(__file__).parent))

from app_helpers import make_app, populate  # noqa: E402

from yak_tui.kernel.demo import create_world  # noqa: E402


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` tests in a fresh event loop (no asyncio plugin needed for Pilot tests)."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    names = pyfuncitem._fixtureinfo.argnames
    asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
    return True


@pytest.fixture
def save_path(tmp_path: Path) -> Path:
    """A fresh demo world, created by this test in its own directory."""
    path = tmp_path / "world.json"
    create_world(path)
    return path


@pytest.fixture
def busy_save(save_path: Path) -> Path:
    """The demo world with a few seasons' worth of chronicle: rolls, notes, orders, secrets."""
    populate(save_path)
    return save_path


__all__ = ["make_app"]
