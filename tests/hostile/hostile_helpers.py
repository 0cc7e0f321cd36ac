"""Run `yak` in process and check a refusal: exit code 2, exactly one clear line on stderr, no
internal error or traceback, and the save byte-for-byte as it was."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from pathlib import Path

import pytest

from yak_tui.cli import main


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def yak(capsys: pytest.CaptureFixture[str], argv: Sequence[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def assert_refused(capsys: pytest.CaptureFixture[str], argv: Sequence[str], save: Path | None, *names: str) -> str:
    """The command is refused cleanly; the error line mentions every one of `names`."""
    before = sha256(save) if save is not None and save.exists() else None
    code, out, err = yak(capsys, argv)
    assert code == 2, (argv, out, err)
    assert out == "", (argv, out)
    assert err.endswith("\n") and err.count("\n") == 1, (argv, err)
    line = err.strip()
    assert line, argv
    assert "internal error" not in line and "Traceback" not in line, (argv, line)
    for name in names:
        assert name in line, (argv, name, line)
    if before is not None:
        assert save is not None and sha256(save) == before, (argv, "the save changed")
    return line
