"""The roster's browser logins: a login without a key (browser only), `yak user token` (a one-time
link whose secret is stored only as its scrypt hash), `yak user revoke`, the GM alone, and the
`yak serve --web` options checked."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import orjson
import pytest
from yak_plugin import Table

from yak_tui.areas.court import web_login, web_seat_gone
from yak_tui.areas.court.seats import user_for_fingerprint
from yak_tui.cli import main
from yak_tui.kernel.errors import UsageError
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import World
from yak_tui.serve.config import config_from_args
from yak_tui.serve.weblogin import new_login, secret_matches, split_token
from yak_tui.store.storage import WorldFile

GM = Identity.parse("gm")


@pytest.fixture()
def save(tmp_path: Path) -> WorldFile:
    return create_world(tmp_path / "w.json")


def test_a_login_without_a_key_plays_in_a_browser_only(save: WorldFile) -> None:
    for name in ("corvin", "nyx"):  # two keyless logins: no fingerprint to collide on
        run_command(save, GM, "user-add", {"name": name, "identity": f"player:{name}", "key": ""})
    world = World(save.read())
    assert world.get("users", "corvin")["fingerprint"] == "" and user_for_fingerprint(world, "") is None
    assert "(browser only)" in world.get("chronicle", next(iter(world.table("chronicle"))))["text"]


def test_yak_user_token_prints_a_one_time_link_and_stores_only_a_hash(
    save: WorldFile, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["--save", str(save.path)]
    assert main([*base, "user", "add", "corvin", "--identity", "player:corvin"]) == 0
    capsys.readouterr()
    assert main([*base, "user", "token", "corvin", "--url", "https://yak.example.org/"]) == 0
    link = capsys.readouterr().out.strip()
    assert link.startswith("https://yak.example.org/login?token=")
    parts = split_token(link.split("token=", 1)[1])
    assert parts is not None
    login_id, secret = parts
    raw = save.path.read_text()
    assert secret not in raw  # the secret is nowhere in the save, only its hash
    found = web_login(World(save.read()), login_id)
    assert found is not None and found[:2] == ("corvin", "player:corvin")
    assert secret_matches(secret, found[2]) and not secret_matches(secret + "x", found[2])
    assert found[2]["n"] == 2**14 and len(bytes.fromhex(found[2]["salt"])) == 16
    assert web_seat_gone(World(save.read()), "corvin", "player:corvin", login_id) == ""
    # --json for scripts; a seat may not make links.
    assert main([*base, "--json", "user", "token", "corvin"]) == 0
    assert orjson.loads(capsys.readouterr().out)["link"].startswith("http://127.0.0.1:8022/login?token=")
    assert main([*base, "--as", "player:corvin", "user", "token", "corvin"]) == 2
    # Revoke: every link of his goes, and with them the browsers logged in with them.
    assert main([*base, "user", "revoke", "corvin"]) == 0
    assert web_login(World(save.read()), login_id) is None
    assert "revoked" in web_seat_gone(World(save.read()), "corvin", "player:corvin", login_id)
    assert main([*base, "user", "remove", "corvin"]) == 0
    assert "no longer on the roster" in web_seat_gone(World(save.read()), "corvin", "player:corvin", login_id)


def test_web_login_refusals(save: WorldFile) -> None:
    run_command(save, GM, "user-add", {"name": "corvin", "identity": "player:corvin"})
    _, kept = new_login()
    table = Table(save)
    table.refused("gm", "user-web-login", name="nobody", login=json.dumps(kept), field="name", text="no user named")
    table.refused("gm", "user-web-login", name="corvin", login="{", field="login", text="is not JSON")
    table.refused("gm", "user-web-login", name="corvin", login='{"id": "x"}', field="login", text="must hold")
    table.refused(
        "player:corvin", "user-web-login", name="corvin", login=json.dumps(kept), field="identity", text="only the GM"
    )
    table.refused("king:elbreth", "user-revoke", name="corvin", field="identity", text="only the GM")


def serve_args(**options: object) -> argparse.Namespace:
    defaults: dict[str, object] = {
        "host": "127.0.0.1",
        "port": 2222,
        "max_sessions": 32,
        "max_sessions_per_user": 4,
        "idle_timeout": 3600.0,
        "request_timeout": 10.0,
        "session_memory": 1024,
        "max_auth_tries": 6,
        "max_unauthenticated": 10,
        "max_unauthenticated_per_address": 3,
        "banner_timeout": 10.0,
        "login_timeout": 30.0,
        "web": True,
        "web_port": 8022,
        "no_ssh": False,
    }
    defaults.update(options)
    return argparse.Namespace(**defaults)


def test_serve_web_options_are_checked(save: WorldFile, tmp_path: Path) -> None:
    config = config_from_args(save.path, serve_args(no_ssh=True, web_origin="https://yak.example.org/"))
    assert config.web and not config.ssh and config.web_origin == "https://yak.example.org"
    cert = tmp_path / "cert.pem"
    cert.write_text("x")
    for options, text in (
        ({"web": False, "no_ssh": True}, "--no-ssh: give --web too"),
        ({"web_port": 70000}, "--web-port: 70000 is not a TCP port"),
        ({"tls_cert": str(cert)}, "--tls-cert and --tls-key go together"),
        ({"tls_cert": str(cert), "tls_key": str(tmp_path / "none.pem")}, "--tls-key: no file"),
        ({"web": False, "tls_cert": str(cert), "tls_key": str(cert)}, "only with --web"),
        ({"web_origin": "yak.example.org"}, "must start with http"),
    ):
        with pytest.raises(UsageError, match=text):
            config_from_args(save.path, serve_args(**options))
