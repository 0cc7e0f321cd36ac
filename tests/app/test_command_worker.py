"""`CommandWorker` shows only the newest result: a job overtaken by a newer one, or cancelled, is
dropped even when it finishes last; a job that raises leaves nothing pending.

Each test waits on events: the slow job blocks on a `threading.Event` the test sets, and the test
learns that a job's thread is over (result posted or dropped) from `finished`. A job posted after
that is delivered after anything the finished one could have posted (one message queue, in order),
so "it never arrived" is checked by a later job that did."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from app_helpers import wait_for
from textual.app import App, ComposeResult
from textual.widgets import Static

from yak_tui.app.kit.worker import CommandWorker

BOUND = 60.0  # seconds: generous, only hit when something is broken


class Observed(CommandWorker[str]):
    """A CommandWorker that says when each job's thread is over (a test seam, nothing more)."""

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.finished: list[threading.Event] = []

    def start(self, job: Callable[[], str]) -> Any:
        done = threading.Event()
        self.finished.append(done)

        def observed() -> str:
            try:
                return job()
            finally:
                done.set()

        return super().start(observed)


class Board(App[None]):
    def compose(self) -> ComposeResult:
        yield Static(id="shown")

    def on_mount(self) -> None:
        self.delivered: list[str] = []
        self.worker = Observed(self.query_one("#shown"), "check", self.delivered.append)


class Blocked:
    """A job that runs until the test releases it."""

    def __init__(self, value: str) -> None:
        self.value = value
        self.started = threading.Event()
        self.release = threading.Event()

    def __call__(self) -> str:
        self.started.set()
        assert self.release.wait(BOUND), "the test never released the job"
        return self.value

    async def running(self, pilot: Any) -> None:
        """Until the job's thread is in it (a job cancelled before its thread starts never runs)."""
        await wait_for(pilot, self.started.is_set, what=f"{self.value} running")


async def _fence(pilot: Any, app: Board, value: str) -> None:
    """Start a quick job and wait for it: whatever an earlier, finished job posted came before it."""
    app.worker.start(lambda: value)
    await wait_for(pilot, lambda: value in app.delivered, what=f"{value} delivered")


async def test_a_stale_result_is_dropped_when_it_finishes_after_the_newest() -> None:
    app = Board()
    async with app.run_test() as pilot:
        job = Blocked("stale")
        stale = app.worker.start(job)
        await job.running(pilot)
        app.worker.start(lambda: "newest")
        await wait_for(pilot, lambda: app.delivered == ["newest"], what="the newest result")
        assert stale.is_cancelled and not app.worker.pending
        job.release.set()
        assert app.worker.finished[0].wait(BOUND)
        await _fence(pilot, app, "later")
        assert app.delivered == ["newest", "later"]


async def test_pending_holds_until_the_newest_result_is_delivered() -> None:
    app = Board()
    async with app.run_test() as pilot:
        job = Blocked("first")
        app.worker.start(job)
        await job.running(pilot)
        assert app.worker.pending
        job.release.set()
        await wait_for(pilot, lambda: not app.worker.pending, what="the result delivered")
        assert app.delivered == ["first"]


async def test_a_cancelled_job_delivers_nothing() -> None:
    app = Board()
    async with app.run_test() as pilot:
        job = Blocked("cancelled")
        cancelled = app.worker.start(job)
        await job.running(pilot)
        app.worker.cancel()
        assert cancelled.is_cancelled and not app.worker.pending
        job.release.set()
        assert app.worker.finished[0].wait(BOUND)
        await _fence(pilot, app, "after")
        assert app.delivered == ["after"]


async def test_a_job_that_raises_leaves_nothing_pending() -> None:
    app = Board()
    async with app.run_test() as pilot:

        def broken() -> str:
            raise ValueError("a bug in the job")

        app.worker.start(broken)
        await wait_for(pilot, lambda: not app.worker.pending, what="the failed job forgotten")
        assert app.delivered == []
