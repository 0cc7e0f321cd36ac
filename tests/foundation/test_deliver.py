"""Delivering the season where the players are (issue 31), against real servers: a real SMTP server
(aiosmtpd) and a local HTTP server standing in for Discord's webhooks (pytest-httpserver) that enforces
Discord's limits and answers with its real error bodies (400 50035 over 2,000 characters, 429 with
Retry-After once). Each reader's mailbox and channel is scanned for every other reader's canaries."""

from __future__ import annotations

import email
import os
import re
import socket
import stat
from collections.abc import Iterator
from email import policy
from pathlib import Path
from typing import Any

import asyncssh
import orjson
import pytest
from aiosmtpd.controller import Controller
from pytest_httpserver import HTTPServer
from werkzeug import Request, Response

from yak_tui.cli import main
from yak_tui.deliver import discord as discord_module
from yak_tui.deliver.channels import channels_path
from yak_tui.deliver.discord import DeliveryError, Webhook
from yak_tui.deliver.mapsvg import map_svg
from yak_tui.deliver.post import posted_path
from yak_tui.kernel.play.audience import visible_table
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.dice import ScriptedDice
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World
from yak_tui.store.storage import WorldFile

GM = Identity.parse("gm")
PLAYERS = ("corvin", "lysa", "maelis")
CANARY = {name: f"canary-{name}-7f3a" for name in PLAYERS}
PUBLIC_TOKEN = "PUBLICTOKEN0123456789"
LYSA_TOKEN = "LYSATOKEN9876543210"
LIMIT = 2000
GOLDEN = Path(__file__).parent / "golden" / "maps"


def yak(capsys: pytest.CaptureFixture[str], save: WorldFile, *argv: str, who: str = "gm") -> tuple[int, Any]:
    code = main(["--save", str(save.path), "--as", who, "--json", *argv])
    captured = capsys.readouterr()
    return code, orjson.loads(captured.out or captured.err)


# -- the servers ----------------------------------------------------------------------------------


class Mailbox:
    def __init__(self) -> None:
        self.arrived: list[tuple[list[str], bytes]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd's name)
        self.arrived.append((list(envelope.rcpt_tos), bytes(envelope.original_content or envelope.content)))
        return "250 OK"

    def of(self, address: str) -> list[email.message.EmailMessage]:
        return [
            email.message_from_bytes(raw, policy=policy.default)  # type: ignore[misc]
            for rcpt, raw in self.arrived
            if address in rcpt
        ]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture
def smtp() -> Iterator[tuple[Mailbox, int]]:
    box = Mailbox()
    controller = Controller(box, hostname="127.0.0.1", port=_free_port())
    controller.start()
    try:
        yield box, controller.port
    finally:
        controller.stop()


class FakeDiscord:
    """Discord's webhook API as far as `yak post` uses it, with its limits and error bodies."""

    def __init__(self) -> None:
        self.requests: list[tuple[str, str, dict[str, Any]]] = []  # method, path, payload
        self.messages: dict[str, dict[str, Any]] = {}  # id -> {"content", "path", "thread"}
        self.throttled = False
        self.next_id = 1000

    def handle(self, request: Request) -> Response:
        payload: dict[str, Any] = {}
        if request.method in ("POST", "PATCH"):
            if request.content_type.startswith("multipart/form-data"):
                payload = orjson.loads(request.form["payload_json"])
                payload["_files"] = sorted(request.files)
            else:
                payload = orjson.loads(request.get_data())
        self.requests.append((request.method, request.full_path, payload))
        if request.method == "POST" and not self.throttled:  # one 429 first, as a busy Discord answers
            self.throttled = True
            body = {"message": "You are being rate limited.", "retry_after": 0.125, "global": False}
            return Response(orjson.dumps(body), 429, {"Retry-After": "0.125"}, content_type="application/json")
        if len(str(payload.get("content", ""))) > LIMIT:
            body = {
                "code": 50035,
                "message": "Invalid Form Body",
                "errors": {
                    "content": {
                        "_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": "Must be 2000 or fewer in length."}]
                    }
                },
            }
            return Response(orjson.dumps(body), 400, content_type="application/json")
        if request.method == "POST":
            self.next_id += 1
            message_id = str(self.next_id)
            thread = request.args.get("thread_id") or (str(self.next_id + 50000) if payload.get("thread_name") else "")
            self.messages[message_id] = {"content": payload["content"], "path": request.path, "thread": thread}
            return Response(
                orjson.dumps({"id": message_id, "channel_id": thread or "77"}), 200, content_type="application/json"
            )
        message_id = request.path.rsplit("/", 1)[1]
        if message_id not in self.messages:
            return Response(
                orjson.dumps({"code": 10008, "message": "Unknown Message"}), 404, content_type="application/json"
            )
        if request.method == "DELETE":
            del self.messages[message_id]
            return Response(b"", 204)
        self.messages[message_id]["content"] = payload["content"]
        return Response(orjson.dumps({"id": message_id}), 200, content_type="application/json")

    def in_channel(self, token: str) -> list[str]:
        return [m["content"] for _, m in sorted(self.messages.items()) if token in m["path"]]

    def count(self, method: str) -> int:
        return sum(1 for m, _, _ in self.requests if m == method)


@pytest.fixture
def discord(httpserver: HTTPServer, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[FakeDiscord, list[float]]]:
    fake = FakeDiscord()
    httpserver.expect_request(re.compile(r"^/api/webhooks/.*")).respond_with_handler(fake.handle)
    waits: list[float] = []
    monkeypatch.setattr(discord_module, "wait", waits.append)
    yield fake, waits


# -- the season -------------------------------------------------------------------------------------


@pytest.fixture
def season(save: WorldFile) -> WorldFile:
    for name in PLAYERS:
        key = asyncssh.generate_private_key("ssh-ed25519").export_public_key().decode()
        run_command(save, GM, "user-add", {"name": name, "identity": f"player:{name}", "key": key})
    run_command(save, GM, "advance", {}, ScriptedDice([3] * 40))
    # A long narrative: the public post runs over several Discord messages.
    story = "\n\n".join(f"Chapter {n}: the rains came to the valley and the rivers rose again. " * 4 for n in range(30))
    run_command(save, GM, "season-narrative", {"text": story})
    for name in PLAYERS:
        run_command(save, GM, "note", {"text": f"The GM tells you: {CANARY[name]}.", "audience": f"character:{name}"})
    run_command(save, GM, "advance", {}, ScriptedDice([3] * 40))
    return save


@pytest.fixture
def wired(
    season: WorldFile,
    smtp: tuple[Mailbox, int],
    discord: tuple[FakeDiscord, list[float]],
    httpserver: HTTPServer,
    capsys: pytest.CaptureFixture[str],
) -> WorldFile:
    base = httpserver.url_for("/api/webhooks")
    assert (
        yak(
            capsys,
            season,
            "channel",
            "add",
            "forum",
            "--discord-webhook",
            f"{base}/1/{PUBLIC_TOKEN}",
            "--thread-name",
            "Summer 312",
        )[0]
        == 0
    )
    assert (
        yak(capsys, season, "channel", "add", "mail", "--smtp", f"127.0.0.1:{smtp[1]}", "--from", "gm@example.org")[0]
        == 0
    )
    assert yak(capsys, season, "user", "set", "corvin", "--email", "corvin@example.org")[0] == 0
    assert yak(capsys, season, "user", "set", "maelis", "--email", "maelis@example.org")[0] == 0
    assert yak(capsys, season, "user", "set", "lysa", "--discord", f"{base}/2/{LYSA_TOKEN}")[0] == 0
    return season


def test_a_season_reaches_each_reader_and_no_other(
    wired: WorldFile,
    smtp: tuple[Mailbox, int],
    discord: tuple[FakeDiscord, list[float]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    box, _ = smtp
    fake, waits = discord
    code, out = yak(capsys, wired, "post")
    assert code == 0, out
    assert waits == [0.125]  # the one 429 was waited out, as long as Retry-After said
    for name in ("corvin", "maelis"):
        mails = box.of(f"{name}@example.org")
        assert len(mails) == 1, f"{name} has {len(mails)} mails"
        mail = mails[0]
        assert mail.get_content_type() == "multipart/mixed"
        text = mail.get_body(("plain",)).get_content()  # type: ignore[union-attr]
        html = mail.get_body(("html",)).get_content()  # type: ignore[union-attr]
        assert CANARY[name] in text and CANARY[name] in html
        whole = mail.as_string()
        for other in PLAYERS:
            if other != name:
                assert CANARY[other] not in whole, f"{name}'s mail tells {other}'s secret"
        assert next(p.get_filename() for p in mail.iter_attachments()).startswith(f"map-player-{name}.")
    assert len(box.arrived) == 2  # nobody else had an address: nothing else went out
    lysa = "\n".join(fake.in_channel(LYSA_TOKEN))
    assert CANARY["lysa"] in lysa and CANARY["corvin"] not in lysa and CANARY["maelis"] not in lysa
    public = fake.in_channel(PUBLIC_TOKEN)
    assert len(public) > 1 and all(len(m) <= LIMIT for m in public)  # split, each under Discord's limit
    joined = "\n".join(public)
    assert "Chapter 29" in joined
    for secret in (*CANARY.values(), LYSA_TOKEN, "corvin@example.org", "maelis@example.org"):
        assert secret not in joined
    posts = [(p, body) for m, p, body in fake.requests if m == "POST" and PUBLIC_TOKEN in p]
    opened = [body for _, body in posts if body.get("thread_name")]
    # The first message opens the forum thread (sent twice: the 429, then its retry); the rest go into it.
    assert [b["thread_name"] for b in opened] == ["Summer 312", "Summer 312"]
    assert all("thread_id=" in path for path, body in posts if not body.get("thread_name"))
    assert {m["thread"] for m in fake.messages.values() if PUBLIC_TOKEN in m["path"]} == {
        next(m["thread"] for m in fake.messages.values() if PUBLIC_TOKEN in m["path"])
    }
    assert all(body["allowed_mentions"] == {"parse": []} for m, _, body in fake.requests if m in ("POST", "PATCH"))
    assert opened[0]["_files"] == ["files[0]"]  # the public map on the first message
    # What was posted is kept beside the save, GM-only; the save itself holds none of it.
    assert stat.S_IMODE(os.stat(posted_path(wired.path)).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(channels_path(wired.path)).st_mode) == 0o600
    saved = wired.path.read_text()
    for secret in (PUBLIC_TOKEN, LYSA_TOKEN, "corvin@example.org"):
        assert secret not in saved


def test_a_rerun_edits_what_was_posted_and_sends_nothing_new(
    wired: WorldFile,
    smtp: tuple[Mailbox, int],
    discord: tuple[FakeDiscord, list[float]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    box, _ = smtp
    fake, _ = discord
    assert yak(capsys, wired, "post")[0] == 0
    posts, messages, mails = fake.count("POST"), len(fake.messages), len(box.arrived)
    code, out = yak(capsys, wired, "post")
    assert code == 0
    assert fake.count("POST") == posts  # nothing posted twice
    assert fake.count("PATCH") == messages  # each message edited in place
    assert len(fake.messages) == messages and len(box.arrived) == mails
    actions = {(d["recipient"], d["kind"]): d["action"] for d in out["deliveries"]}
    assert actions[("public", "discord")] == "edited" and actions[("player:corvin", "email")] == "already sent"


def test_dry_run_says_where_and_sends_nothing(
    wired: WorldFile,
    smtp: tuple[Mailbox, int],
    discord: tuple[FakeDiscord, list[float]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    code = main(["--save", str(wired.path), "post", "--dry-run", "--no-maps"])
    text = capsys.readouterr().out
    assert code == 0
    assert "public -> forum (http://localhost" in text or "public -> forum (http://127.0.0.1" in text
    assert "player:corvin -> corvin@example.org (through mail): would send" in text
    assert "player:lysa -> his own channel" in text and "would post" in text
    assert PUBLIC_TOKEN not in text and LYSA_TOKEN not in text
    assert discord[0].requests == [] and smtp[0].arrived == [] and not posted_path(wired.path).exists()


def test_discords_refusal_is_told_plainly(discord: tuple[FakeDiscord, list[float]], httpserver: HTTPServer) -> None:
    hook = Webhook(httpserver.url_for("/api/webhooks/3/tok"))
    hook.send("first")  # eats the one 429
    with pytest.raises(DeliveryError, match="error 50035: Invalid Form Body"):
        hook._request("POST", hook.url + "?wait=true", {"content": "x" * (LIMIT + 1)}, ())
    with pytest.raises(DeliveryError, match="at most 2000 characters"):
        hook.send("x" * (LIMIT + 1))


def test_channels_and_addresses_are_the_gms_alone(wired: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = yak(capsys, wired, "channel", "list")
    assert code == 0 and PUBLIC_TOKEN not in str(out) and out["channels"][0]["name"] == "forum"
    for argv in (("channel", "list"), ("post", "--dry-run"), ("user", "set", "lysa", "--email", "x@example.org")):
        code, out = yak(capsys, wired, *argv, who="player:lysa")
        assert code == 2 and out["who_may"] == ["gm"], argv
    code, out = yak(capsys, wired, "export", "--format", "toml")
    assert code == 0 and PUBLIC_TOKEN not in out["text"] and "corvin@example.org" not in out["text"]
    code, out = yak(capsys, wired, "report", "--season", "Summer 312")
    assert "corvin@example.org" not in str(out) and LYSA_TOKEN not in str(out)


def test_a_silent_seat_is_nudged_once_before_the_deadline(
    wired: WorldFile,
    smtp: tuple[Mailbox, int],
    discord: tuple[FakeDiscord, list[float]],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    box, _ = smtp
    run_command(wired, GM, "season-deadline", {"at": "2026-12-07 20:00Z", "force": True})
    run_command(wired, GM, "user-zone", {"name": "maelis", "zone": "Asia/Tokyo"})
    corvin = Identity.parse("player:corvin")
    run_command(wired, corvin, "order-file", {"command": "business-expand", "params": "business=salt-works;sizes=1"})
    monkeypatch.setenv("YAK_NOW", "2026-12-06T10:00Z")  # 34 h before: too early
    code, out = yak(capsys, wired, "season", "nudge", "--before", "12h")
    assert code == 0 and out["nudges"] == []
    monkeypatch.setenv("YAK_NOW", "2026-12-07T10:00Z")
    code, out = yak(capsys, wired, "season", "nudge", "--before", "12h")
    sent = {d["recipient"]: d["action"] for d in out["nudges"]}
    assert sent["player:maelis"] == "sent" and sent["player:lysa"] == "posted" and "player:corvin" not in sent, sent
    mails = box.of("maelis@example.org")
    assert len(mails) == 1 and "2026-12-08 05:00" in mails[0].get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert box.of("corvin@example.org") == []  # he filed: no nudge
    code, out = yak(capsys, wired, "season", "nudge", "--before", "12h")  # once per deadline
    assert {d["action"] for d in out["nudges"] if d["kind"] != "none"} == {"already sent"}
    assert len(box.of("maelis@example.org")) == 1


# -- the map pictures ---------------------------------------------------------------------------------


@pytest.mark.parametrize("reader", ["observer", "king:elbreth", "player:corvin"])
def test_each_readers_map_is_pinned(save: WorldFile, reader: str) -> None:
    svg = map_svg(World(save.read()), Identity.parse(reader))
    golden = GOLDEN / f"{reader.replace(':', '-')}.svg"
    if os.environ.get("YAK_GOLDEN_WRITE"):
        golden.write_text(svg, encoding="utf-8")
    assert svg == golden.read_text(encoding="utf-8")


@pytest.mark.parametrize("reader", ["observer", "king:elbreth", "king:varos", "player:corvin", "player:lysa"])
def test_a_readers_map_shows_nothing_he_may_not_see(save: WorldFile, reader: str) -> None:
    """Forces are public in their name, owner, kind, size and hex, never their strength; people are
    drawn only where the reader may know where they are."""
    world = World(save.read())
    viewer = Identity.parse(reader)
    svg = map_svg(world, viewer)
    units = visible_table(world, viewer, "units")
    assert set(re.findall(r'data-unit="([^"]+)"', svg)) <= set(units)
    assert "regiment" not in svg and "ships" not in svg
    people = visible_table(world, viewer, "characters")
    drawn = set(re.findall(r'data-character="([^"]+)"', svg))
    assert all(people[cid].get("location") for cid in drawn)
    for cid, doc in world.table("characters").items():
        if doc.get("location") and not people.get(cid, {}).get("location"):
            assert f'data-character="{cid}"' not in svg and f"<title>{doc.get('name', cid)}</title>" not in svg


def test_the_leak_test_bites(save: WorldFile) -> None:
    """In the demo world the public may not know where some people are, and no one but their owner
    knows a force's strength."""
    world = World(save.read())
    people = visible_table(world, Identity.parse("observer"), "characters")
    assert any(
        doc.get("location") and not people.get(cid, {}).get("location")
        for cid, doc in world.table("characters").items()
    )
    assert any(doc.get("regiments") for doc in world.table("units").values())


def test_the_png_is_a_real_picture(save: WorldFile, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("cairosvg")
    out = tmp_path / "m.png"
    code, reply = yak(capsys, save, "map", "--format", "png", "--out", str(out), who="king:elbreth")
    assert code == 0 and reply["as"] == "king:elbreth"
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_serve_sends_the_nudges_when_they_fall_due(wired: WorldFile, smtp: tuple[Mailbox, int]) -> None:
    """`yak serve --nudge-before 12h` runs the nudge on the rules' clock: nothing a day before, one
    reminder once the deadline is 12 h away, none again."""
    import asyncio
    from datetime import timedelta

    from yak_tui.kernel.season.clock import frozen_clock
    from yak_tui.serve.config import ServeConfig
    from yak_tui.serve.server import YakServer

    box, _ = smtp
    run_command(wired, GM, "season-deadline", {"at": "2026-12-07 20:00Z", "force": True})
    server = YakServer(ServeConfig(save=wired.path, nudge_before=timedelta(hours=12)))
    with frozen_clock("2026-12-06T20:00Z") as move:
        assert [d for d in asyncio.run(server.nudge_once()) if d.action == "sent"] == []
        move(timedelta(hours=13))
        sent = [d.recipient for d in asyncio.run(server.nudge_once()) if d.action == "sent"]
        assert sent == ["player:corvin", "player:maelis"]
        assert [d for d in asyncio.run(server.nudge_once()) if d.action == "sent"] == []
    assert len(box.of("maelis@example.org")) == 1


def test_a_new_campaign_at_the_same_path_edits_nothing_of_the_old(
    wired: WorldFile,
    smtp: tuple[Mailbox, int],
    discord: tuple[FakeDiscord, list[float]],
    capsys: pytest.CaptureFixture[str],
) -> None:
    from yak_tui.kernel.season.session import open_fair_dice
    from yak_tui.kernel.world.demo import create_world

    box, _ = smtp
    fake, _ = discord
    assert yak(capsys, wired, "post")[0] == 0
    old = set(fake.messages)
    posts, mails = fake.count("POST"), len(box.arrived)
    fresh = create_world(wired.path, demo=True, overwrite=True)  # `yak new --force`: a new roster, no logins
    open_fair_dice(fresh)
    run_command(fresh, GM, "advance", {}, ScriptedDice([3] * 40))
    code, out = yak(capsys, wired, "post")
    assert code == 0, out
    assert fake.count("PATCH") == 0 and fake.count("POST") > posts  # its own messages, none of the old edited
    assert old <= set(fake.messages) and len(box.arrived) == mails  # the old players' addresses went with their logins
    assert {d["action"] for d in out["deliveries"] if d["recipient"] != "public"} == {"not sent"}


def test_an_address_follows_the_login(wired: WorldFile, capsys: pytest.CaptureFixture[str]) -> None:
    assert yak(capsys, wired, "user", "remove", "maelis")[0] == 0
    code, out = yak(capsys, wired, "post", "--dry-run", "--no-maps")
    assert code == 0
    where = {d["recipient"]: d["action"] for d in out["deliveries"]}
    assert where["player:corvin"] == "would send" and where.get("player:maelis", "not sent") == "not sent"
