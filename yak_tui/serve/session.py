"""One SSH session channel: one app in one pty, or one allowed exec command answered."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import threading
import time
from typing import TYPE_CHECKING, Any

import asyncssh

from yak_tui.serve.execs import MAX_ORDERS_BYTES, USAGE, exec_verb, run_exec
from yak_tui.serve.ptyproc import TERMINAL_RESTORE, PtyProcess, clamp_size

if TYPE_CHECKING:
    from yak_tui.serve.connection import YakConnection

log = logging.getLogger("yak.serve")

DEFAULT_TERM = "xterm-256color"
# Variables of the server's environment that describe the server's own terminal or SSH
# connection, or a size: the child gets the client's terminal instead.
DROPPED_ENV = (
    "TERM",
    "COLORTERM",
    "COLUMNS",
    "LINES",
    "TERM_PROGRAM",
    "TERM_PROGRAM_VERSION",
    "TMUX",
    "TMUX_PANE",
    "STY",
    "SSH_AUTH_SOCK",
    "SSH_CONNECTION",
    "SSH_CLIENT",
    "SSH_TTY",
    "YAK_SAVE",
    "YAK_AS",
    "WINDOWID",
    "VTE_VERSION",
    "KITTY_WINDOW_ID",
)


REFUSE_NO_PTY = (
    "yak serve runs the campaign app in a terminal, and this session asked for none.\r\n"
    "Connect with a terminal: ssh -t -p PORT NAME@HOST\r\n"
)


REFUSE_EXEC = "yak serve runs the campaign app; other commands are refused ({what}); " + USAGE + ".\r\n"
REFUSE_SUBSYSTEM = "yak serve offers no subsystems; {what} is refused.\r\n"


class AppSession(asyncssh.SSHServerSession):  # type: ignore[type-arg]
    """One SSH session channel running one app process."""

    def __init__(self, owner: YakConnection) -> None:
        self.owner = owner
        self.server = owner.server
        self.chan: Any = None
        self.term: str | None = None
        self.size = (80, 24, 0, 0)
        self.kind = ""
        self.what = ""
        self.proc: PtyProcess | None = None
        self.channel_open = True
        self.started = time.monotonic()
        self.last_input = time.monotonic()
        self.end_note = ""  # said to the client after a forced end (idle, shutdown, seat gone)
        self.pending_notes: list[str] = []
        self.clamped_logged = False
        self.exec_verb: str | None = None  # an allowed exec command (yak_tui.serve.execs)
        self.exec_input = bytearray()
        self.exec_answered = False
        # Set when the client goes while its exec is answered off the loop: `orders submit` stops
        # and files nothing (its one transaction is never written).
        self.exec_gone = threading.Event()

    # -- requests
    def connection_made(self, chan: Any) -> None:
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int], term_modes: Any) -> bool:
        self.term = term_type or DEFAULT_TERM
        self._set_size(*term_size)
        return True

    def _set_size(self, columns: int, rows: int, xpixels: int, ypixels: int) -> None:
        """The client's window size, clamped (a huge one would make the app's buffers grow without end)."""
        clamped = clamp_size(columns, rows)
        if clamped != (columns or 80, rows or 24):
            xpixels = ypixels = 0
            if not self.clamped_logged:
                self.clamped_logged = True
                log.info("clamped terminal size %dx%d to %dx%d for user=%s", columns, rows, *clamped, self.user_name)
        self.size = (*clamped, xpixels, ypixels)

    def shell_requested(self) -> bool:
        self.kind = "shell"
        return True

    def exec_requested(self, command: str) -> bool:
        self.kind, self.what = "exec", command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        self.kind, self.what = "subsystem", subsystem
        return True

    def refuse_forwarding(self, what: str) -> bool:
        self.owner.refuse(what, "not offered")
        if not self.kind:  # told on stderr when the session starts, before the app paints
            self.pending_notes.append(f"yak serve: {what} is refused.\r\n")
        return False

    def break_received(self, msec: int) -> bool:
        return False

    def signal_received(self, signal: str) -> None:
        log.info("ignored signal %s from user=%s", signal, self.user_name)

    def eof_received(self) -> bool:
        if self.exec_verb == "orders submit" and not self.exec_answered:
            self._answer_exec(bytes(self.exec_input))
        return True  # the app (or the exec answer) decides when the session ends

    @property
    def user_name(self) -> str:
        return str(self.owner.user.name) if self.owner.user is not None else "-"

    def session_started(self) -> None:
        try:
            self._start()
        except Exception as error:
            log.exception("session of user=%s failed to start", self.user_name)
            self._refuse_session("error", f"yak serve could not start the app: {error}\r\n")

    def _start(self) -> None:
        for note in self.pending_notes:
            self.chan.write_stderr(note.encode())
        self.pending_notes.clear()
        if self.kind == "exec":
            self.exec_verb = exec_verb(self.what)
            if self.exec_verb is None:
                self._refuse_session(f"exec {self.what!r}", REFUSE_EXEC.format(what=self.what or "empty command"))
            elif self.exec_verb != "orders submit":
                self._answer_exec(b"")  # orders submit is answered at the end of its stdin
            return
        if self.kind == "subsystem":
            self._refuse_session(f"subsystem {self.what!r}", REFUSE_SUBSYSTEM.format(what=self.what))
            return
        if self.term is None:
            self._refuse_session("session without a pty", REFUSE_NO_PTY)
            return
        user = self.owner.user
        argv = self.server.config.app_argv(self.server.config.save, str(user.identity))
        columns, rows, xpixels, ypixels = self.size
        memory = self.server.config.session_memory
        self.proc = PtyProcess(
            argv,
            self._child_env(),
            columns,
            rows,
            self._output,
            self._app_exited,
            memory_limit=memory * 1024 * 1024 if memory else None,
        )
        self.proc.resize(columns, rows, xpixels, ypixels)
        log.info(
            "session start user=%s identity=%s pid=%d term=%s size=%dx%d memory=%s from=%s",
            user.name,
            user.identity,
            self.proc.pid,
            self.term,
            columns,
            rows,
            f"{memory}MiB" if memory else "unlimited",
            self.owner.address,
        )

    def _child_env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in DROPPED_ENV}
        env["TERM"] = self.term or DEFAULT_TERM
        # The client's environment is ignored, except a colour capability that changes nothing else.
        client_env = self.chan.get_environment() if self.chan is not None else {}
        if client_env.get("COLORTERM") in ("truecolor", "24bit"):
            env["COLORTERM"] = client_env["COLORTERM"]
        env["YAK_SERVED"] = "1"
        env["YAK_USER"] = str(self.owner.user.name)
        return env

    def _refuse_session(self, what: str, message: str) -> None:
        self.owner.refuse(what, message.strip())
        if self.channel_open:
            self.chan.write_stderr(message.encode())
            self.chan.exit(1)

    def _answer_exec(self, stdin: bytes) -> None:
        """Answer an allowed exec verb off the event loop, as the key's identity, then exit with its status."""
        from yak_tui.kernel.play.identity import Identity

        verb = str(self.exec_verb)
        self.exec_answered = True
        identity = Identity.parse(str(self.owner.user.identity))
        log.info("exec %r user=%s identity=%s", verb, self.user_name, identity)
        future = asyncio.get_running_loop().run_in_executor(
            None, run_exec, self.server.config.save, identity, verb, stdin, self.exec_gone.is_set
        )

        def done(finished: asyncio.Future[tuple[int, str]]) -> None:
            try:
                code, text = finished.result()
            except Exception as error:  # a bug: said once, the session ends
                log.exception("exec %r of user=%s failed", verb, self.user_name)
                code, text = 2, f"yak serve: {verb} failed: {error}\n"
            if self.exec_gone.is_set():
                log.info(
                    "exec %r of user=%s: the client went away before its answer: %s",
                    verb,
                    self.user_name,
                    text.strip().splitlines()[-1] if text.strip() else f"status {code}",
                )
            if self.channel_open:
                with contextlib.suppress(OSError, asyncssh.Error):
                    self.chan.write((text.replace("\n", "\r\n") if self.term else text).encode())
                    self.chan.exit(code)

        future.add_done_callback(done)

    # -- data
    def data_received(self, data: bytes, datatype: Any) -> None:
        self.last_input = time.monotonic()
        if self.exec_verb == "orders submit" and not self.exec_answered:
            self.exec_input.extend(data)
            if len(self.exec_input) > MAX_ORDERS_BYTES:
                self.exec_answered = True
                self._refuse_session(
                    "orders submit over the size limit",
                    f"yak serve: orders over {MAX_ORDERS_BYTES} bytes are refused; nothing was filed.\r\n",
                )
            return
        if self.proc is not None:
            self.proc.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int, pixheight: int) -> None:
        self.last_input = time.monotonic()
        self._set_size(width or self.size[0], height or self.size[1], pixwidth, pixheight)
        if self.proc is not None and self.proc.alive:
            self.proc.resize(*self.size)

    def pause_writing(self) -> None:
        if self.proc is not None:
            self.proc.pause_output()

    def resume_writing(self) -> None:
        if self.proc is not None:
            self.proc.resume_output()

    def _output(self, data: bytes) -> None:
        if self.channel_open:
            try:
                self.chan.write(data)
            except (OSError, asyncssh.Error):
                self.channel_open = False

    # -- ending
    def _app_exited(self, code: int) -> None:
        duration = time.monotonic() - self.started
        assert self.proc is not None
        log.info("session end user=%s pid=%d status=%d after=%.1fs", self.user_name, self.proc.pid, code, duration)
        if self.channel_open:
            try:
                if code < 0 or self.end_note:
                    self.chan.write(TERMINAL_RESTORE)
                if self.end_note:
                    self.chan.write_stderr(self.end_note.encode())
                if code >= 0:
                    self.chan.exit(code)
                else:
                    name = signal.Signals(-code).name.removeprefix("SIG")
                    self.chan.exit_with_signal(name, False, f"the app ended on signal {name}")
            except (OSError, asyncssh.Error):
                pass
        self._maybe_forget()

    def end(self, note: str) -> None:
        """Close this session from the server side (idle, shutdown, seat gone): the app is hung up first."""
        self.end_note = note
        if self.proc is not None and self.proc.alive:
            self.proc.terminate(self.server.config.kill_grace)
        elif self.channel_open:
            with contextlib.suppress(OSError, asyncssh.Error):
                self.chan.write_stderr(note.encode())
                self.chan.exit(1)

    def connection_lost(self, exc: Exception | None) -> None:
        self.channel_open = False
        self.exec_gone.set()
        if self.proc is not None and self.proc.alive:
            log.info("client gone: hanging up pid=%d of user=%s", self.proc.pid, self.user_name)
            self.proc.terminate(self.server.config.kill_grace)
        self._maybe_forget()

    def _maybe_forget(self) -> None:
        if not self.channel_open and (self.proc is None or not self.proc.alive):
            self.server.sessions.discard(self)
            self.server.notify()
            self.owner.close_if_revoked()
