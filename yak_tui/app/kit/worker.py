"""`CommandWorker`: store work for one purpose of a screen (validating a form, previewing a plan)
run off the event loop, where only the newest result is ever shown.

Each keystroke starts a new job; jobs finish out of order. Textual's own cancellation says which
results are stale: starting a job cancels the one before it (`Worker.cancel`, so even a job that
already returned counts as stale), the thread checks `get_current_worker().is_cancelled` before
posting its result, and the result is checked again on the event loop before it is delivered
(a newer job may have started while it was in the message queue).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Generic, TypeVar

from textual.dom import DOMNode
from textual.worker import Worker, get_current_worker

ResultT = TypeVar("ResultT")


class CommandWorker(Generic[ResultT]):
    """Runs `job()` in a thread worker of `group` on `node`; `deliver(result)` runs on the event
    loop for the newest job only. `pending` is True while the newest job has not been delivered."""

    def __init__(self, node: DOMNode, group: str, deliver: Callable[[ResultT], object]) -> None:
        self.node = node
        self.group = group
        self._deliver = deliver
        self._newest: Worker[None] | None = None

    @property
    def pending(self) -> bool:
        """A job was started and its result has not been delivered yet."""
        return self._newest is not None

    def start(self, job: Callable[[], ResultT]) -> Worker[None]:
        """Run `job` in a thread; any earlier job of this helper is cancelled (its result dropped)."""
        self.cancel()
        # The job reaches the thread in a list it is taken from: a finished Worker (Textual keeps it
        # in reference cycles, which a frozen collector never breaks) then holds no world.
        worker: Worker[None] = self.node.run_worker(
            partial(self._run, [job]),
            name=self.group,
            group=self.group,
            thread=True,
            exclusive=True,
            exit_on_error=False,
        )
        self._newest = worker
        return worker

    def cancel(self) -> None:
        """Drop the result of the job in flight (the thread still finishes: threads cannot be stopped)."""
        if self._newest is not None:
            self._newest.cancel()
            self._newest = None

    def _run(self, jobs: list[Callable[[], ResultT]]) -> None:
        worker = get_current_worker()
        job = jobs.pop()
        try:
            result = job()
        except BaseException:
            # Nothing to show, but the job is over: a caller waiting on `pending` must not wait forever.
            self.node.call_later(self._forget, worker)  # call_later posts a message: safe from a thread
            raise
        if not worker.is_cancelled:
            self.node.call_later(self._arrive, worker, result)

    def _forget(self, worker: Worker[None]) -> None:
        if worker is self._newest:
            self._newest = None

    def _arrive(self, worker: Worker[None], result: ResultT) -> None:
        if worker.is_cancelled or worker is not self._newest:
            return
        self._newest = None
        self._deliver(result)
