"""The rooms and who may import whom (docs/architecture.md), checked by import-linter from the
contracts in pyproject.toml."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONTRACTS = (
    "kernel",
    "store",
    "areas",
    "kernel-rooms",
    "store-layers",
    "cli-layers",
    "deliver",
    "front-ends",
    "court-internals",
    "economy-internals",
    "espionage-internals",
    "magic-internals",
    "nobles-internals",
    "warfare-internals",
)


def lint_imports(*args: str) -> subprocess.CompletedProcess[str]:
    command = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or "lint-imports"
    return subprocess.run([command, "--no-cache", *args], cwd=ROOT, capture_output=True, text=True, timeout=300)


def contract_args(ids: tuple[str, ...]) -> list[str]:
    return [arg for contract in ids for arg in ("--contract", contract)]


def test_the_layer_contracts_hold() -> None:
    done = lint_imports(*contract_args(CONTRACTS))
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"{len(CONTRACTS)} kept, 0 broken" in done.stdout


def test_every_contract_is_run_by_a_test() -> None:
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    assert sorted(c["id"] for c in config["contracts"]) == sorted(CONTRACTS)


def test_the_checker_can_fail(tmp_path: Path) -> None:
    """The same checker, given a contract the code breaks (the court imports the kernel), says so."""
    config = tmp_path / "broken.toml"
    config.write_text(
        '[tool.importlinter]\nroot_packages = ["yak_tui"]\n\n[[tool.importlinter.contracts]]\n'
        'name = "court never imports the kernel"\ntype = "forbidden"\n'
        'source_modules = ["yak_tui.areas.court"]\nforbidden_modules = ["yak_tui.kernel"]\n'
    )
    done = lint_imports("--config", str(config))
    assert done.returncode == 1, done.stdout + done.stderr
    assert "BROKEN" in done.stdout and "yak_tui.areas.court" in done.stdout
