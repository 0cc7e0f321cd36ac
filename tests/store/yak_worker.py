"""A warm `yak` for race tests: runs one command line per request, so two workers told at the
same moment really do race (no interpreter start-up between them).

Usage: python yak_worker.py

Prints `ready`, then for every line on stdin (a JSON list of `yak` arguments) runs the CLI in
this process and answers one JSON line: {"code": exit code, "out": stdout, "err": stderr}.
"""

from __future__ import annotations

import contextlib
import io
import sys

import orjson

from yak_tui.cli import main


def serve() -> None:
    answer = sys.stdout
    answer.write("ready\n")
    answer.flush()
    for line in sys.stdin:
        argv = orjson.loads(line)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
        answer.write(orjson.dumps({"code": code, "out": out.getvalue(), "err": err.getvalue()}).decode() + "\n")
        answer.flush()


if __name__ == "__main__":
    serve()
