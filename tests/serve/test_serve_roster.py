"""The SSH roster: `user-add` / `user-remove` (GM only, validated, nothing written on refusal)
and the `yak user add|list|remove` verbs."""

from __future__ import annotations

from pathlib import Path

import asyncssh
import orjson
import pytest
from yak_plugin import Table

from yak_tui.areas.court.seats import user_for_fingerprint
from yak_tui.cli import main
from yak_tui.kernel.play.audience import visible_entries
from yak_tui.kernel.play.commands import CommandError, run_command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

GM = Identity.parse("gm")


def public_key() -> tuple[str, str]:
    key = asyncssh.generate_private_key("ssh-ed25519", comment="someone@laptop")
    return key.export_public_key().decode(), key.get_fingerprint("sha256")


@pytest.fixture()
def save(tmp_path: Path) -> WorldFile:
    return create_world(tmp_path / "w.json")


def test_user_add_stores_identity_key_and_fingerprint(save: WorldFile) -> None:
    text, fingerprint = public_key()
    result = run_command(save, GM, "user-add", {"name": "edmund", "identity": "player:edmund", "key": text})
    assert result.data == {"name": "edmund", "identity": "player:edmund", "fingerprint": fingerprint}
    world = World(save.read())
    doc = world.get("users", "edmund")
    assert doc["identity"] == "player:edmund" and doc["fingerprint"] == fingerprint
    assert doc["key"] == text.strip()
    user = user_for_fingerprint(world, fingerprint)
    assert user is not None and user.name == "edmund" and user.identity == Identity("player", "edmund")
    assert user_for_fingerprint(world, "SHA256:nope") is None
    # The roster is GM business: the entry is for the adjudicators, not for players or the forum.
    assert result.entries[0]["audience"] == "adjudicators"
    assert not any("the login" in e["text"] for e in visible_entries(world, Identity.parse("player:edmund")))


@pytest.mark.parametrize(
    ("params", "field", "reason"),
    [
        ({"name": "Edmund"}, "name", "lowercase"),
        ({"name": "ed mund"}, "name", "lowercase"),
        ({"name": "x" * 33}, "name", "1-32"),
        ({"identity": "wizard"}, "identity", "is not one of"),
        ({"identity": "king:atlantis"}, "identity", "no kingdom 'atlantis'"),
        ({"identity": "player:nobody"}, "identity", "no character 'nobody'"),
        ({"key": "ssh-ed25519 AAAAnotbase64"}, "key", "not an OpenSSH public key"),
        ({"key": "# only a comment\n"}, "key", "is empty"),
    ],
)
def test_user_add_refusals_name_the_field(save: WorldFile, params: dict[str, str], field: str, reason: str) -> None:
    text, _ = public_key()
    full = {"name": "edmund", "identity": "player:edmund", "key": text, **params}
    Table(save).refused("gm", "user-add", full, field=field, text=reason)


def test_a_private_key_or_two_keys_are_refused(save: WorldFile) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    private = key.export_private_key().decode()
    Table(save).refused("gm", "user-add", name="a", identity="gm", key=private, field="key", text="private key")
    two = public_key()[0] + public_key()[0]
    Table(save).refused("gm", "user-add", name="a", identity="gm", key=two, field="key", text="holds 2 keys")


def test_duplicate_name_and_duplicate_key_are_refused(save: WorldFile) -> None:
    text, fingerprint = public_key()
    run_command(save, GM, "user-add", {"name": "gm", "identity": "gm", "key": text})
    table = Table(save)
    table.refused("gm", "user-add", name="gm", identity="gm", key=public_key()[0], field="name", text="already exists")
    table.refused(
        "gm",
        "user-add",
        name="other",
        identity="king:varos",
        key=text,
        field="key",
        text=f"{fingerprint} already belongs to user 'gm'",
    )


@pytest.mark.parametrize("who", ["king:elbreth", "player:edmund"])
def test_only_the_gm_may_change_the_roster(save: WorldFile, who: str) -> None:
    text, _ = public_key()
    run_command(save, GM, "user-add", {"name": "gm", "identity": "gm", "key": text})
    table = Table(save)
    add = table.refused(
        who, "user-add", name="me", identity="gm", key=public_key()[0], field="identity", text="only the GM"
    )
    assert add.who_may == ("gm",)
    table.refused(who, "user-remove", name="gm", field="identity", text="only the GM")


def test_user_remove(save: WorldFile) -> None:
    text, fingerprint = public_key()
    run_command(save, GM, "user-add", {"name": "edmund", "identity": "player:edmund", "key": text})
    result = run_command(save, GM, "user-remove", {"name": "edmund"})
    assert result.data["fingerprint"] == fingerprint
    assert World(save.read()).table("users") == {}
    with pytest.raises(CommandError, match="no user named 'edmund'"):
        run_command(save, GM, "user-remove", {"name": "edmund"})


def test_yak_user_verbs(save: WorldFile, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text, fingerprint = public_key()
    key_file = tmp_path / "id_ed25519.pub"
    key_file.write_text(text)
    base = ["--save", str(save.path)]
    assert main([*base, "user", "add", "mirela", "--identity", "king:varos", "--key", str(key_file)]) == 0
    assert "mirela" in capsys.readouterr().out
    assert main([*base, "--json", "user", "list"]) == 0
    listing = orjson.loads(capsys.readouterr().out)
    assert listing["users"] == {"mirela": {"identity": "king:varos", "fingerprint": fingerprint}}
    assert main([*base, "--as", "king:varos", "user", "add", "x", "--identity", "gm", "--key", str(key_file)]) == 2
    assert "only the GM" in capsys.readouterr().err
    assert main([*base, "user", "remove", "mirela"]) == 0
    capsys.readouterr()
    assert main([*base, "--json", "user", "list"]) == 0
    assert orjson.loads(capsys.readouterr().out) == {"users": {}}
