"""Shared setup for the Textual app tests: animations and cursor blink off, a fresh demo save each
(a copy of one built once per test process: building and populating it is not what is tested)."""

from __future__ import annotations

import os

# Before Textual reads its constants: no animations (dice land at once, no blinking cursor).
os.environ["TEXTUAL_ANIMATIONS"] = "none"
os.environ.setdefault("YAK_THEME", "dark")

import asyncio
import inspect
import shutil
import sys
from pathlib import Path

import pytest
import textual._wait
import textual.constants

# A plugin may have imported Textual before this file ran: make its reading of the variable agree.
textual.constants.TEXTUAL_ANIMATIONS = "none"  # type: ignore[misc]

# Pilot waits after every key for the process to go idle, sleeping in steps of Textual's
# `SLEEP_GRANULARITY` (20 ms) and checking each step for CPU use: at least 40 ms a key even when the
# key's work took 1 ms. The tests never rely on that guess (they wait for the outcome they check,
# `app_helpers.wait_for`), so finer steps only take out the dead time: a 200-key walk took 12 s.
IDLE_STEP = 0.005
textual._wait.SLEEP_GRANULARITY = IDLE_STEP
textual._wait.SLEEP_IDLE = IDLE_STEP / 20  # the same ratio: idle is under 5% of a step's CPU

sys.path.insert(0, str(Path(__file__).parent))

from app_helpers import make_app, populate  # noqa: E402

from yak_tui.kernel.world.demo import create_world  # noqa: E402


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem: pytest.Function) -> bool | None:
    """Run `async def` tests in a fresh event loop (no asyncio plugin needed for Pilot tests)."""
    if not inspect.iscoroutinefunction(pyfuncitem.obj):
        return None
    names = pyfuncitem._fixtureinfo.argnames
    asyncio.run(pyfuncitem.obj(**{name: pyfuncitem.funcargs[name] for name in names}))
    return True


def _copy_save(prebuilt: Path, into: Path) -> None:
    """The save and its backups as a fixture built them, fresh files (new mtimes) in `into`."""
    for source in prebuilt.rglob("*"):
        if source.is_file() and not source.name.endswith(".lock"):
            target = into / source.relative_to(prebuilt)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, target)


@pytest.fixture(scope="session")
def _demo_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo world, built once per test process (each test gets its own copy)."""
    directory = tmp_path_factory.mktemp("demo")
    create_world(directory / "world.json")
    return directory


@pytest.fixture(scope="session")
def _busy_dir(_demo_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The populated demo world (and the backups its advances made), built once per test process."""
    directory = tmp_path_factory.mktemp("busy")
    _copy_save(_demo_dir, directory)
    populate(directory / "world.json")
    return directory


@pytest.fixture
def save_path(tmp_path: Path, _demo_dir: Path) -> Path:
    """A fresh demo world in this test's own directory (a copy of one built once)."""
    _copy_save(_demo_dir, tmp_path)
    return tmp_path / "world.json"


@pytest.fixture
def busy_save(save_path: Path, _busy_dir: Path) -> Path:
    """The demo world with a few seasons' worth of chronicle: rolls, notes, orders, secrets."""
    _copy_save(_busy_dir, save_path.parent)
    return save_path


__all__ = ["make_app"]
