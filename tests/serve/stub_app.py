"""A stand-in for `yak tui` in the server's mechanics tests: deterministic and instant.

It reports what the server gave it (identity, TERM, YAK_SERVED, pid, whether the pty is its
controlling terminal, window size), reports every SIGWINCH with the new size, echoes keys, and
ends on `q` (status 3), crashes on `c` (SIGSEGV-like abort) or hangs on `h` ignoring SIGHUP,
and on `m` tries to map 4 GiB of address space (untouched, so it costs no real memory either way).
"""

import fcntl
import mmap
import os
import signal
import struct
import sys
import termios
import tty


def size() -> str:
    rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(0, termios.TIOCGWINSZ, b"\0" * 8))
    return f"{cols}x{rows}"


def say(text: str) -> None:
    os.write(1, (text + "\r\n").encode())


def main() -> None:
    argv = sys.argv[1:]
    identity = argv[argv.index("--as") + 1] if "--as" in argv else "?"
    save = argv[argv.index("--save") + 1] if "--save" in argv else "?"
    tty.setraw(0)
    ctty = os.getsid(0) == os.getpid() and os.tcgetpgrp(0) == os.getpgrp()
    signal.signal(signal.SIGWINCH, lambda *_: say(f"WINCH size={size()}"))
    say(
        f"STUB identity={identity} term={os.environ.get('TERM')} served={os.environ.get('YAK_SERVED')} "
        f"user={os.environ.get('YAK_USER')} save={save} pid={os.getpid()} ctty={ctty} size={size()}"
    )
    while True:
        try:
            data = os.read(0, 1024)
        except InterruptedError:
            continue
        if not data:
            return
        if b"q" in data:
            say("BYE")
            sys.exit(3)
        if b"c" in data:
            os.abort()
        if b"m" in data:
            try:
                mmap.mmap(-1, 4 << 30).close()
                say("MMAP ok")
            except OSError as error:
                say(f"MMAP refused errno={error.errno}")
        if b"h" in data:
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
            say("HANGING")
        say(f"KEY {data!r}")


if __name__ == "__main__":
    main()
