"""The CLI's reads pay only for what they use (issue 13): `yak show` and `yak log` run in a fresh
interpreter without importing the area packages, the dice or the file lock, and print what they
printed before; `yak resolve` still lists every check."""

from __future__ import annotations

import subprocess
import sys

import orjson
import pytest

from yak_tui.store.storage import WorldFile

# Runs the CLI in this interpreter, then prints (on stderr) the yak_tui and filelock modules it loaded.
PROBE = """
import sys
from yak_tui.cli import main
code = main(sys.argv[1:])
loaded = sorted(m for m in sys.modules if m.startswith(("yak_tui", "filelock", "textual", "tomllib", "secrets", "getpass", "shutil", "difflib", "zoneinfo", "random")))
sys.stderr.write("\\n" + " ".join(loaded) + "\\n")
sys.exit(code)
"""

HEAVY = (
    "yak_tui.areas",
    "yak_tui.kernel.play.dice",
    "yak_tui.kernel.play.checks",
    "yak_tui.kernel.play.commands",
    "yak_tui.kernel.season.session",
    "filelock",
    "textual",
    "yak_tui.app",
    # Issue 30: what only writes, house rules or the browser seat use (tomllib, a new key's randomness).
    "tomllib",
    "secrets",
    "yak_tui.serve",
    # Issue 30, fourth pass: the terminal's password prompt (termios); shutil (bz2, lzma, zlib), which
    # argparse imports to ask the terminal's width for every argument's help formatter.
    "getpass",
    "shutil",
)


def run_probe(*argv: str) -> tuple[str, set[str]]:
    done = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout, set(done.stderr.strip().splitlines()[-1].split())


def test_show_and_log_import_no_area_no_dice_no_lock(save: WorldFile) -> None:
    for argv in (("show",), ("show", "kingdoms"), ("log",), ("--as", "king:elbreth", "show", "units")):
        out, loaded = run_probe("--save", str(save.path), "--json", *argv)
        assert orjson.loads(out), argv
        heavy = sorted(m for m in loaded if m.startswith(HEAVY))
        assert heavy == [], (argv, heavy)


def test_show_reads_without_touching_the_lock_file(save: WorldFile) -> None:
    lock = save.path.with_name(save.path.name + ".lock")
    lock.unlink(missing_ok=True)
    out, _ = run_probe("--save", str(save.path), "--json", "show")
    assert orjson.loads(out)["tables"]["kingdoms"] >= 1
    assert not lock.exists()


def test_resolve_still_lists_and_runs_every_check(save: WorldFile) -> None:
    out, loaded = run_probe("resolve", "--help")
    assert "usurp" in out
    assert any(m.startswith("yak_tui.areas") for m in loaded)
    out, _ = run_probe("--json", "resolve", "usurp", "--power", "3", "--resistance", "1", "--dice", "4,2")
    reply = orjson.loads(out)
    assert reply["check"] == "usurp" and reply["outcome"] in ("success", "failure")


def test_a_write_still_takes_the_lock(save: WorldFile) -> None:
    out, loaded = run_probe("--save", str(save.path), "--json", "do", "note", "text=the harvest is in")
    assert orjson.loads(out)
    assert "filelock" in loaded


def test_report_and_diff_import_no_area(save: WorldFile) -> None:
    """Stored reports are printed as written and a diff compares two worlds in words: neither needs
    the area packages (issue 30: they imported every area, more than the read of a 100x save)."""
    out, _ = run_probe("--save", str(save.path), "--json", "advance")  # Spring -> Summer, a backup of Spring
    season = orjson.loads(out)
    areas = ("yak_tui.areas", "yak_tui.kernel.play.commands", "filelock", "textual")
    out, loaded = run_probe("--save", str(save.path), "--json", "report")
    assert "secrets" not in loaded  # issue 30, fourth pass: drawn only where a season's secrets are
    assert orjson.loads(out)["reports"]
    assert sorted(m for m in loaded if m.startswith(areas)) == []
    out, loaded = run_probe("--save", str(save.path), "--json", "diff", "Spring 312", "Summer 312")
    assert orjson.loads(out), season
    assert sorted(m for m in loaded if m.startswith(areas)) == []


def test_a_verb_parses_and_helps_alike_with_its_own_parser_alone() -> None:
    """Issue 30: `yak VERB` builds VERB's sub-parser alone (argparse built all ~40, about 8 ms of a
    read); what it parses and the help it prints are those of the whole line, for every verb."""
    import argparse

    from yak_tui.cli.parser import build_parser

    whole = build_parser(with_checks=False)
    verbs = sorted(whole.verbs)  # type: ignore[attr-defined]
    assert {"show", "log", "do", "advance", "report", "diff", "verify", "tui"} <= set(verbs)
    choices = next(a for a in whole._actions if isinstance(a, argparse._SubParsersAction)).choices
    for verb in verbs:
        alone = build_parser(with_checks=False, only=verb)
        built = next(a for a in alone._actions if isinstance(a, argparse._SubParsersAction)).choices
        assert list(built) == [verb]
        assert built[verb].format_help() == choices[verb].format_help(), verb
    assert vars(build_parser(False, only="log").parse_args(["log", "--kind", "note"])) == vars(
        whole.parse_args(["log", "--kind", "note"])
    )
    unknown = build_parser(False, only="shwo")  # no such verb: the whole line, to refuse it naming them all
    assert set(unknown.verbs) == set(verbs)  # type: ignore[attr-defined]


def test_the_help_is_as_wide_as_argparse_makes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """`terminal_columns` is `shutil.get_terminal_size().columns` without importing shutil."""
    import shutil

    from yak_tui.cli.parser import terminal_columns

    for columns, lines in ((None, None), ("60", None), ("200", "50"), ("0", "10"), ("x", None), (None, "30")):
        for name, value in (("COLUMNS", columns), ("LINES", lines)):
            if value is None:
                monkeypatch.delenv(name, raising=False)
            else:
                monkeypatch.setenv(name, value)
        assert terminal_columns() == shutil.get_terminal_size().columns, (columns, lines)


def test_due_and_orders_import_no_difflib_zoneinfo_or_random(save: WorldFile) -> None:
    """Issue 30, fifth pass: what a read of the orders never uses (a misspelt name's suggestions, a
    seat's time zone, seeded dice) is imported where it is used, not by every area on import."""
    for argv in (("due",), ("orders",), ("--as", "king:elbreth", "due")):
        out, loaded = run_probe("--save", str(save.path), *argv)
        assert out.strip(), argv
        assert sorted(m for m in loaded if m.startswith(("difflib", "zoneinfo", "random"))) == [], argv
        if argv[-1] == "due":  # every area's due reporter is there, all the same
            assert any(m.startswith("yak_tui.areas") for m in loaded)
