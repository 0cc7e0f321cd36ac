"""A child process in its own pseudo-terminal, driven from an asyncio loop.

The child is spawned with `posix_spawn` (no fork of the threaded server): `setsid` first, then
the pty slave is opened as fd 0, so the child is a session leader whose controlling terminal is
the pty and gets SIGWINCH when the window size changes. Output is pumped with `add_reader` on the
master; exits are seen through a pidfd (or a short poll where pidfds do not exist) and reaped, so
no zombie and no orphan is left behind.

Two limits keep one session from taking the host down: the window size is clamped
(`clamp_size`: a client may ask for 65535x65535, and a screen that large makes the app's
buffers grow without end), and the child's address space is capped with `prlimit` right after
the spawn (posix_spawn runs no code in the child, and the app only starts allocating once the
interpreter is up, well after the limit is in place).
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import fcntl
import logging
import os
import resource
import signal
import struct
import termios
from collections.abc import Callable, Mapping, Sequence

log = logging.getLogger("yak.serve")

READ_CHUNK = 65536
# Sequences that put a client's terminal back in order after an app was killed mid-screen:
# leave the alternate screen, show the cursor, stop mouse, focus and paste reporting, pop the
# kitty keyboard mode, reset colours.
TERMINAL_RESTORE = (
    b"\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?1004l\x1b[?2004l"
    b"\x1b[<u\x1b[0m\x1b[?25h\x1b[?1049l\r\n"
)


MAX_COLUMNS = 500
MAX_ROWS = 200


def clamp_size(columns: int, rows: int) -> tuple[int, int]:
    """The window size a pty may have: 1..MAX_COLUMNS x 1..MAX_ROWS (0 means unknown: 80x24)."""
    return max(1, min(int(columns or 80), MAX_COLUMNS)), max(1, min(int(rows or 24), MAX_ROWS))


def set_winsize(fd: int, columns: int, rows: int, xpixels: int = 0, ypixels: int = 0) -> None:
    """TIOCSWINSZ, clamped: the kernel sends SIGWINCH to the pty's foreground process group on a change."""
    clamped = clamp_size(columns, rows)
    if clamped != (columns, rows):  # the pixel size belonged to the size asked for
        xpixels = ypixels = 0
    columns, rows = clamped
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, columns, xpixels & 0xFFFF, ypixels & 0xFFFF))


def get_winsize(fd: int) -> tuple[int, int]:
    """(columns, rows) of a terminal."""
    rows, columns, _, _ = struct.unpack("HHHH", fcntl.ioctl(fd, termios.TIOCGWINSZ, b"\0" * 8))
    return columns, rows


def exit_code(status: int) -> int:
    """waitpid status → shell-style code: the exit status, or -signal for a killed child."""
    return os.waitstatus_to_exitcode(status)


def limit_address_space(pid: int, limit_bytes: int) -> None:
    """RLIMIT_AS of a running child (its own children inherit it). OSError if it cannot be set."""
    if not hasattr(resource, "prlimit"):
        raise OSError(errno.ENOSYS, "this system cannot limit another process's memory (no prlimit)")
    resource.prlimit(pid, resource.RLIMIT_AS, (limit_bytes, limit_bytes))


class PtyProcess:
    """One child in one pty. Callbacks run on the loop: `on_output(bytes)`, `on_exit(code)`.

    `memory_limit`: the child's address-space limit in bytes (None: no limit); if it cannot be
    set, the child is killed and reaped and OSError is raised."""

    def __init__(
        self,
        argv: Sequence[str],
        env: Mapping[str, str],
        columns: int,
        rows: int,
        on_output: Callable[[bytes], None],
        on_exit: Callable[[int], None],
        loop: asyncio.AbstractEventLoop | None = None,
        memory_limit: int | None = None,
    ) -> None:
        self.argv = list(argv)
        self.loop = loop or asyncio.get_running_loop()
        self.on_output = on_output
        self.on_exit = on_exit
        self.returncode: int | None = None
        self._pending_input = bytearray()
        self._reading = False
        self._writing = False
        self._paused = False
        self._exited = asyncio.Event()
        self._kill_handle: asyncio.TimerHandle | None = None
        self.master, slave = os.openpty()
        try:
            set_winsize(self.master, columns, rows)
            slave_name = os.ttyname(slave)
            actions = [
                (os.POSIX_SPAWN_OPEN, 0, slave_name, os.O_RDWR, 0),
                (os.POSIX_SPAWN_DUP2, 0, 1),
                (os.POSIX_SPAWN_DUP2, 0, 2),
            ]
            self.pid = os.posix_spawn(self.argv[0], self.argv, dict(env), file_actions=actions, setsid=True)
        except BaseException:
            os.close(self.master)
            raise
        finally:
            os.close(slave)
        self.pgid = self.pid  # setsid: the child leads its own session and process group
        if memory_limit is not None:
            try:
                limit_address_space(self.pid, memory_limit)
            except OSError:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.killpg(self.pgid, signal.SIGKILL)
                with contextlib.suppress(ChildProcessError):
                    os.waitpid(self.pid, 0)
                os.close(self.master)
                raise
        os.set_blocking(self.master, False)
        self._start_reading()
        self._pidfd: int | None = None
        self._poll_task: asyncio.Task[None] | None = None
        try:
            self._pidfd = os.pidfd_open(self.pid)
            self.loop.add_reader(self._pidfd, self._child_done)
        except (AttributeError, OSError):
            self._poll_task = self.loop.create_task(self._poll_exit())

    # -- size ----------------------------------------------------------------------------------
    def resize(self, columns: int, rows: int, xpixels: int = 0, ypixels: int = 0) -> None:
        if self.master >= 0:
            set_winsize(self.master, columns, rows, xpixels, ypixels)

    def winsize(self) -> tuple[int, int]:
        return get_winsize(self.master)

    # -- output: master → callback ---------------------------------------------------------------
    def _start_reading(self) -> None:
        if not self._reading and not self._paused and self.master >= 0:
            self.loop.add_reader(self.master, self._readable)
            self._reading = True

    def _stop_reading(self) -> None:
        if self._reading:
            self.loop.remove_reader(self.master)
            self._reading = False

    def pause_output(self) -> None:
        """Back-pressure: a slow client stops the reads, the pty fills, and the app waits."""
        self._paused = True
        self._stop_reading()

    def resume_output(self) -> None:
        self._paused = False
        self._start_reading()

    def _readable(self) -> None:
        try:
            data = os.read(self.master, READ_CHUNK)
        except BlockingIOError:
            return
        except OSError as error:  # EIO: every slave fd is closed, the child is gone or going
            if error.errno != errno.EIO:
                log.debug("pty read failed: %s", error)
            self._stop_reading()
            return
        if not data:
            self._stop_reading()
            return
        self.on_output(data)

    def drain(self) -> None:
        """Read what the child left in the pty before it exited."""
        if self.master < 0:
            return
        for _ in range(1024):
            try:
                data = os.read(self.master, READ_CHUNK)
            except OSError:
                return
            if not data:
                return
            self.on_output(data)

    # -- input: callback → master ---------------------------------------------------------------
    def write(self, data: bytes) -> None:
        if self.master < 0 or self.returncode is not None:
            return
        self._pending_input += data
        self._flush_input()

    def _flush_input(self) -> None:
        while self._pending_input and self.master >= 0:
            try:
                written = os.write(self.master, self._pending_input)
            except BlockingIOError:
                break
            except OSError:
                self._pending_input.clear()
                break
            del self._pending_input[:written]
        if self._pending_input and not self._writing and self.master >= 0:
            self.loop.add_writer(self.master, self._flush_input)
            self._writing = True
        elif not self._pending_input and self._writing:
            self.loop.remove_writer(self.master)
            self._writing = False

    # -- ending -----------------------------------------------------------------------------------
    @property
    def alive(self) -> bool:
        return self.returncode is None

    def signal_group(self, signum: int) -> None:
        """Signal the child's whole process group (it is still unreaped, so the group is ours)."""
        if self.returncode is not None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pgid, signum)

    def terminate(self, grace: float = 2.0) -> None:
        """SIGHUP the group (as a hung-up terminal would), SIGKILL it if still alive after `grace`."""
        if self.returncode is not None:
            return
        self.signal_group(signal.SIGHUP)
        self.signal_group(signal.SIGCONT)
        if self._kill_handle is None:
            self._kill_handle = self.loop.call_later(grace, self.signal_group, signal.SIGKILL)

    async def wait(self) -> int:
        await self._exited.wait()
        assert self.returncode is not None
        return self.returncode

    def _child_done(self) -> None:
        try:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            pid, status = self.pid, 0
        if pid == 0:
            return
        self._finish(status)

    async def _poll_exit(self) -> None:
        while self.returncode is None:
            await asyncio.sleep(0.1)
            self._child_done()

    def _finish(self, status: int) -> None:
        if self.returncode is not None:
            return
        # The leader is a zombie until reaped below, so its group id cannot be reused yet:
        # kill whatever it left behind in its group before reaping.
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pgid, signal.SIGKILL)
        self.returncode = exit_code(status)
        if self._pidfd is not None:
            self.loop.remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None
        if self._kill_handle is not None:
            self._kill_handle.cancel()
        self.drain()
        self.close()
        self._exited.set()
        self.on_exit(self.returncode)

    def close(self) -> None:
        """Close the master; the child (if any is left) sees a hang-up."""
        if self.master < 0:
            return
        self._stop_reading()
        if self._writing:
            self.loop.remove_writer(self.master)
            self._writing = False
        os.close(self.master)
        self.master = -1
