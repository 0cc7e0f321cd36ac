"""The one shared `table` fixture: a fresh demo world file and a way to run commands on it.

    def test_a_note(table: Table) -> None:
        result = table.run("gm", "note", text="the bridge is out")
        error = table.refused("player:nyx", "undo", field="identity")
        table.refused("gm", "consequence-fill", {"entry": "e999999", "text": "x"}, field="entry", text="no chronicle entry")

Dice are scripted (`dice=[4, 2]`); with none given, any die the command rolls fails the test. These
two are the suite's one way to run a command and to check a refusal: a test holding another save
wraps it (`Table(save).refused(...)`).
Registered for the whole suite from tests/conftest.py (`pytest_plugins`).
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import orjson
import pytest

from yak_tui.kernel.errors import CommandError
from yak_tui.kernel.play.commands import CommandResult, run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.store import files, sidecars
from yak_tui.store.storage import WorldFile


class Table:
    """A world on disk (`save`, `path`; the fixture's is the demo) and the commands a test runs on it."""

    def __init__(self, save: WorldFile) -> None:
        self.save = save
        self.path = save.path

    @property
    def world(self) -> World:
        """The world as saved right now."""
        return World(self.save.read())

    def run(
        self,
        identity: str | Identity,
        command: str,
        params: Mapping[str, Any] | None = None,
        /,
        *,
        dice: Sequence[int] = (),
        **more: Any,
    ) -> CommandResult:
        """Run `command` as `identity` ("gm", "king:elbreth", "player:nyx") with `params` and `more`
        (a mapping holds a parameter whose name is one of these keywords: `text`, `field`, `dice`)."""
        who = identity if isinstance(identity, Identity) else Identity.parse(identity)
        return run_command(self.save, who, command, {**(params or {}), **more}, ScriptedDice(list(dice)))

    def refused(
        self,
        identity: str | Identity,
        command: str,
        params: Mapping[str, Any] | None = None,
        /,
        *,
        field: str,
        text: str = "",
        dice: Sequence[int] = (),
        **more: Any,
    ) -> CommandError:
        """The command is refused on `field` (its reason holding `text`); the file is unchanged and was
        not rewritten either."""
        before = self.path.read_bytes()
        inode = os.stat(self.path).st_ino
        with pytest.raises(CommandError) as caught:
            self.run(identity, command, params, dice=dice, **more)
        assert caught.value.field == field, caught.value
        assert text in caught.value.reason, caught.value.reason
        assert self.path.read_bytes() == before, "a refused command changed the world file"
        assert os.stat(self.path).st_ino == inode, "a refused command rewrote the world file"
        return caught.value

    def edit(self, change: Callable[[dict[str, Any]], None]) -> None:
        """Change the saved world directly (test set-up only)."""
        with self.save.transaction() as data:
            change(data)

    def set_date(self, label: str) -> None:
        def change(data: dict[str, Any]) -> None:
            data["meta"]["world"]["date"] = GameDate.parse(label).to_dict()
            data["meta"]["world"]["undo"] = []

        self.edit(change)


@pytest.fixture
def table(tmp_path: Path) -> Table:
    """A fresh copy of the demo world Elbreth in `saves/world.json` under the test's own directory."""
    return Table(create_world(tmp_path / "saves" / "world.json"))


def counting_full_reads(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """From now on, the path of every full read of a save (`WorldFile.read`, or
    `read_deferring_logs`, which reads every byte too), in order: a reader that follows the change
    journal makes none."""
    reads: list[Path] = []
    real, deferring = WorldFile.read, WorldFile.read_deferring_logs

    def counting(self: WorldFile) -> Any:
        reads.append(self.path)
        return real(self)

    def counting_deferring(self: WorldFile) -> Any:
        reads.append(self.path)
        return deferring(self)

    monkeypatch.setattr(WorldFile, "read", counting)
    monkeypatch.setattr(WorldFile, "read_deferring_logs", counting_deferring)
    return reads


def journal_entries(save: WorldFile) -> list[dict[str, Any]]:
    """The entries of the save's change journal as written, oldest first (each line of the journal
    is `<HMAC> <entry JSON>`)."""
    return [orjson.loads(line.partition(b" ")[2]) for line in save.journal.read_bytes().splitlines()]


def write_journal(save: WorldFile, entries: list[dict[str, Any]], *, key: bytes | None = None) -> None:
    """Replace the save's change journal with `entries`, each signed with `key`: by default the
    campaign's own key, as a yak writer signs them (a test that edits an entry and signs it again
    reaches the checks past the signature); any other key makes a forgery."""
    if key is None:
        key = sidecars.read_campaign_key(save.path)
        assert key is not None, "the save has no campaign key"
    save.journal.write_bytes(b"".join(sidecars._journal_line(key, orjson.dumps(entry)) for entry in entries))


def signed_vouch(
    save: WorldFile,
    digest: str,
    *,
    key: bytes | None = None,
    altered: Mapping[str, Any] | None = None,
    logs_at: Any = None,
) -> bytes:
    """A vouch for bytes of this sha256 `digest` in the current format, signed with `key`: by
    default the campaign's own key, as a yak writer signs it; then its `altered` fields changed.
    `logs_at`: where it says each log begins (signed too; any shape, to make one that lies)."""
    if key is None:
        key = sidecars.read_campaign_key(save.path)
        assert key is not None, "the save has no campaign key"
    rules = sidecars._vouched_rules()
    vouch: dict[str, Any] = {
        "sha256": digest,
        "schema_version": files.SCHEMA_VERSION,
        "rules": rules,
        "hmac": sidecars._vouch_mac(key, digest, files.SCHEMA_VERSION, rules, logs_at),
    }
    if logs_at is not None:
        vouch["logs_at"] = logs_at
    return orjson.dumps({**vouch, **(altered or {})})


def fresh_process_probe(code: str, prefix: Path, write_bytecode: bool = True) -> dict[str, Any]:
    """Run `code` in a fresh interpreter whose bytecode (and so yak's kept caches) live under
    `prefix`, with no house rules; what it prints is one JSON object, returned parsed."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("YAK_RULES", None)
    env["PYTHONPYCACHEPREFIX"] = str(prefix)  # the caches live where the bytecode does
    if not write_bytecode:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, env=env)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = orjson.loads(done.stdout)
    return result
