"""CI runs exactly the README's test command, and the README opens with the two commands."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _readme_commands() -> list[str]:
    text = (ROOT / "README.md").read_text()
    return re.findall(r"```sh\n(.+?)\n```", text)


def test_readme_opens_with_install_and_launch_then_the_tests() -> None:
    first, second = _readme_commands()[:2]
    assert "pip install -e ." in first and first.rstrip().endswith("&& yak")
    assert "pip install -e '.[dev]'" in second and "pytest" in second


def test_ci_runs_the_readme_test_command_from_a_fresh_venv() -> None:
    test_command = _readme_commands()[1]
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test_command in ci
    assert ci.index(test_command) > ci.index("rm -rf .venv")
