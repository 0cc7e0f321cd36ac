"""The browser seat's refusals and limits, with a plain aiohttp client (no browser needed):
no cookie, a wrong or reused link, a forged cookie, a wrong Origin, a huge size (clamped), too
many sessions, the idle timeout, the memory limit, failed logins past the rate limit (429), and
`yak user revoke` / `user remove` ending a live session with a message."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from serve_helpers import TIMEOUT
from web_helpers import WebServerThread, issue_token, make_web_world, web_config

from yak_tui.serve.weblogin import COOKIE_NAME, FailedLogins, read_cookie, sign_cookie
from yak_tui.store.storage import WorldFile

SEATS = {"corvin": "player:corvin", "elbreth": "king:elbreth", "nyx": "player:nyx"}


@pytest.fixture(scope="module")
def save(tmp_path_factory: pytest.TempPathFactory) -> WorldFile:
    return make_web_world(tmp_path_factory.mktemp("web") / "campaign", SEATS)


@pytest.fixture(scope="module")
def server(save: WorldFile) -> Iterator[WebServerThread]:
    config = web_config(save, max_sessions_per_user=2, idle_timeout=0, web_login_failures=5)
    with WebServerThread(config) as running:
        yield running


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, TIMEOUT * 3))


async def login(client: aiohttp.ClientSession, url: str, token: str) -> aiohttp.ClientResponse:
    return await client.get(f"{url}/login", params={"token": token}, allow_redirects=False)


async def logged_in(url: str, save: WorldFile, name: str) -> aiohttp.ClientSession:
    client = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
    response = await login(client, url, issue_token(save, name))
    assert response.status == 303, await response.text()
    return client


async def open_app(client: aiohttp.ClientSession, url: str, query: str = "width=100&height=30") -> Any:
    return await client.ws_connect(f"{url.replace('http', 'ws')}/ws?{query}", origin=url)


async def first_bytes(socket: Any) -> bytes:
    """Wait for the app's first screen bytes (the app is up)."""
    while True:
        message = await socket.receive()
        if message.type == aiohttp.WSMsgType.BINARY:
            return bytes(message.data)
        assert message.type == aiohttp.WSMsgType.TEXT, message


async def until_closed(socket: Any) -> bytes:
    """Everything the app and the server send until the socket closes."""
    seen = bytearray()
    while True:
        message = await socket.receive()
        if message.type == aiohttp.WSMsgType.BINARY:
            seen += message.data
        elif message.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
            return bytes(seen)


def gm(save: WorldFile, *args: str) -> None:
    subprocess.run(
        [sys.executable, "-m", "yak_tui", "--save", str(save.path), "--as", "gm", *args],
        check=True,
        capture_output=True,
        timeout=60,
    )


def test_the_cookie_is_httponly_samesite_strict_and_signed(server: WebServerThread, save: WorldFile) -> None:
    async def body() -> str:
        async with aiohttp.ClientSession() as client:
            response = await login(client, server.url, issue_token(save, "corvin"))
            assert response.status == 303 and response.headers["Location"] == "/"
            return response.headers["Set-Cookie"]

    header = run(body())
    assert "HttpOnly" in header and "SameSite=Strict" in header and "Secure" not in header  # plain HTTP here
    assert server.server is not None
    value = re.search(rf"{COOKIE_NAME}=([^;]+)", header)
    assert value is not None
    seat = read_cookie(server.server.secret, value.group(1))
    assert seat is not None and (seat.name, seat.identity) == ("corvin", "player:corvin")
    # Forged: the same seat signed with another key, or the identity changed in the body.
    assert read_cookie(server.server.secret, sign_cookie(b"x" * 32, seat)) is None
    body_part, mac = value.group(1).rsplit(".", 1)
    assert read_cookie(server.server.secret, body_part.replace("c", "d") + "." + mac) is None


def test_no_cookie_wrong_token_and_reused_token_are_refused(server: WebServerThread, save: WorldFile) -> None:
    async def body() -> list[int]:
        statuses = []
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as client:
            statuses.append((await client.get(f"{server.url}/")).status)  # no cookie: no page
            socket_answer = await client.get(f"{server.url}/ws", headers={"Origin": server.url})
            statuses.append(socket_answer.status)  # no cookie: no app
            token = issue_token(save, "nyx")
            login_id, secret = token.split(".")
            statuses.append((await login(client, server.url, f"{login_id}.{secret}x")).status)  # wrong secret
            statuses.append((await login(client, server.url, f"{login_id}")).status)  # no secret
            statuses.append((await login(client, server.url, token)).status)  # right: 303
            statuses.append((await login(client, server.url, token)).status)  # the same link again
        return statuses

    assert run(body()) == [403, 403, 403, 403, 303, 403]


def test_a_wrong_origin_is_refused(server: WebServerThread, save: WorldFile) -> None:
    async def body() -> list[int]:
        client = await logged_in(server.url, save, "corvin")
        async with client:
            statuses = []
            for origin in ("http://evil.example", "null", server.url.replace("127.0.0.1", "localhost")):
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                    await client.ws_connect(f"{server.url.replace('http', 'ws')}/ws", origin=origin)
                statuses.append(refused.value.status)
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:  # none at all
                await client.ws_connect(f"{server.url.replace('http', 'ws')}/ws")
            statuses.append(refused.value.status)
            return statuses

    assert run(body()) == [403, 403, 403, 403]
    assert "web session refused" in server.log.text() and "Origin 'http://evil.example'" in server.log.text()


def test_a_huge_size_is_clamped_and_the_memory_limit_holds(server: WebServerThread, save: WorldFile) -> None:
    async def body() -> str:
        client = await logged_in(server.url, save, "elbreth")
        async with client:
            socket = await open_app(client, server.url, "width=65535&height=65535")
            await first_bytes(socket)
            line = server.log.wait_for("web session start user=elbreth")
            pid = int(re.search(r"pid=(\d+)", line).group(1))  # type: ignore[union-attr]
            limits = Path(f"/proc/{pid}/limits").read_text()
            await socket.send_str(json.dumps(["resize", {"width": 99999, "height": 99999}]))
            await socket.close()
            return line + "\n" + limits

    text = run(body())
    assert "size=500x200" in text
    assert "--as king:elbreth tui" in text  # the identity from the roster, the command built with shlex.join
    address_space = next(line for line in text.splitlines() if line.startswith("Max address space"))
    assert str(1024 * 1024 * 1024) in address_space


def test_sessions_per_seat_are_limited(server: WebServerThread, save: WorldFile) -> None:
    async def body() -> int:
        client = await logged_in(server.url, save, "nyx")
        async with client:
            sockets = [await open_app(client, server.url) for _ in range(2)]
            for socket in sockets:
                await first_bytes(socket)
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await open_app(client, server.url)
            for socket in sockets:
                await socket.close()
            return refused.value.status

    assert run(body()) == 429
    assert "web session refused user=nyx" in server.log.text()


def test_revoke_ends_the_session_with_a_message_and_the_cookie_with_it(
    server: WebServerThread, save: WorldFile
) -> None:
    async def body() -> tuple[bytes, int, int]:
        client = await logged_in(server.url, save, "corvin")
        async with client:
            socket = await open_app(client, server.url)
            await first_bytes(socket)
            line = server.log.wait_for("web session start user=corvin")
            pid = int(re.search(r"pid=(\d+)", line).group(1))  # type: ignore[union-attr]
            await asyncio.get_running_loop().run_in_executor(None, gm, save, "user", "revoke", "corvin")
            said = await until_closed(socket)
            ended = await (await client.get(f"{server.url}/ended")).text()
            page = await client.get(f"{server.url}/")
            try:
                os.kill(pid, 0)
                alive = 1
            except ProcessLookupError:
                alive = 0
            assert "revoked" in ended
            return said, page.status, alive

    said, page_status, alive = run(body())
    assert b"corvin's browser login was revoked" in said
    assert page_status == 403 and alive == 0
    assert server.session_count("corvin") == 0


def test_a_removed_seat_is_ended_too(server: WebServerThread, save: WorldFile) -> None:
    async def body() -> bytes:
        client = await logged_in(server.url, save, "elbreth")
        async with client:
            socket = await open_app(client, server.url)
            await first_bytes(socket)
            await asyncio.get_running_loop().run_in_executor(None, gm, save, "user", "remove", "elbreth")
            return await until_closed(socket)

    assert b"elbreth is no longer on the roster" in run(body())


def test_failed_logins_past_the_limit_get_429(save: WorldFile) -> None:
    with WebServerThread(web_config(save, web_login_failures=3)) as server:

        async def body() -> list[int]:
            async with aiohttp.ClientSession() as client:
                statuses = [(await login(client, server.url, f"nope.{n}")).status for n in range(3)]
                # Past the limit even a right link waits: a guesser cannot tell it from a wrong one.
                statuses.append((await login(client, server.url, issue_token(save, "nyx"))).status)
                return statuses

        assert run(body()) == [403, 403, 403, 429]
    limiter = FailedLogins(limit=2, window=60)
    limiter.failed("a", now=0)
    limiter.failed("a", now=1)
    assert limiter.blocked("a", now=2) and not limiter.blocked("b", now=2) and not limiter.blocked("a", now=62)


def test_an_idle_session_is_closed_with_a_message(save: WorldFile) -> None:
    with WebServerThread(web_config(save, idle_timeout=1.0)) as server:

        async def body() -> bytes:
            client = await logged_in(server.url, save, "nyx")
            async with client:
                socket = await open_app(client, server.url)
                await first_bytes(socket)
                return await until_closed(socket)

        assert b"session closed after 1 s without input" in run(body())


def test_ssh_and_browser_sessions_share_one_limit_per_seat(tmp_path: Path) -> None:
    """One login may hold `max_sessions_per_user` sessions in all, however he connects."""
    from serve_helpers import connect, make_world, open_terminal, stub_argv

    save, users = make_world(tmp_path / "both", {"edmund": "player:edmund"})
    config = web_config(save, ssh=True, port=0, max_sessions_per_user=1, app_argv=stub_argv)
    with WebServerThread(config) as server:

        async def body() -> tuple[int, str]:
            async with await connect(server.ssh.port, users["edmund"]) as conn:
                terminal = await open_terminal(conn)
                await terminal.wait_line("STUB")
                client = await logged_in(server.url, save, "edmund")
                async with client:
                    with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                        await open_app(client, server.url)
                    answer = await client.get(f"{server.url}/ws", headers={"Origin": server.url})
                    assert server.call(lambda: server.ssh.sessions_of("edmund")) == 1
                    return refused.value.status, await answer.text()

        status, text = run(body())
        assert status == 429 and "edmund already has 1 sessions open" in text


def self_signed(directory: Path) -> tuple[Path, Path]:
    """A throwaway certificate for 127.0.0.1 and its key (PEM)."""
    import datetime
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), False)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = directory / "cert.pem", directory / "key.pem"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
    )
    return cert_file, key_file


def test_under_tls_the_cookie_is_secure_and_the_socket_wss(save: WorldFile, tmp_path: Path) -> None:
    cert, key = self_signed(tmp_path)
    with WebServerThread(web_config(save, tls_cert=cert, tls_key=key)) as server:
        url = server.url.replace("http:", "https:")

        async def body() -> tuple[str, str, int]:
            async with aiohttp.ClientSession(
                connector=aiohttp.TCPConnector(ssl=False), cookie_jar=aiohttp.CookieJar(unsafe=True)
            ) as client:
                response = await login(client, url, issue_token(save, "nyx"))
                cookie = response.headers["Set-Cookie"]
                index = await client.get(f"{url}/")
                assert index.headers["X-Frame-Options"] == "DENY" and index.headers["Cache-Control"] == "no-store"
                page = await index.text()
                assert "googleapis" not in page  # the page asks nothing of another site
                plain = await client.ws_connect(f"{url.replace('https', 'wss')}/ws", origin=url)
                await first_bytes(plain)
                await plain.close()
                with pytest.raises(aiohttp.WSServerHandshakeError) as refused:  # http:// is another origin
                    await client.ws_connect(f"{url.replace('https', 'wss')}/ws", origin=server.url)
                return cookie, page, refused.value.status

        cookie, page, status = run(body())
    assert "Secure" in cookie and "HttpOnly" in cookie and "SameSite=Strict" in cookie
    assert f'data-session-websocket-url="{url.replace("https", "wss")}/ws"' in page
    assert status == 403


def test_a_download_goes_only_to_the_login_whose_app_made_it(server: WebServerThread, save: WorldFile) -> None:
    async def body() -> list[int]:
        statuses = []
        async with aiohttp.ClientSession() as anonymous:
            statuses.append((await anonymous.get(f"{server.url}/download/abc")).status)
        client = await logged_in(server.url, save, "nyx")
        async with client:
            statuses.append((await client.get(f"{server.url}/download/abc")).status)
        return statuses

    assert run(body()) == [404, 404]


def test_yak_serve_web_no_ssh_from_the_command_line(tmp_path: Path) -> None:
    """The verb: `yak serve --web --no-ssh` says where browsers go, logs a link in, stops on SIGTERM."""
    import signal

    save = make_web_world(tmp_path / "cli", {"nyx": "player:nyx"})
    process = subprocess.Popen(
        [sys.executable, "-m", "yak_tui", "--save", str(save.path), "serve", "--web", "--no-ssh", "--web-port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        line = ""
        for line in process.stdout:
            if "browsers on" in line:
                break
        match = re.search(r"browsers on (http://127\.0\.0\.1:\d+)", line)
        assert match is not None, line
        assert "host key" not in line

        async def body() -> int:
            async with aiohttp.ClientSession() as client:
                return (await login(client, match.group(1), issue_token(save, "nyx"))).status

        assert run(body()) == 303
    finally:
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert "web login user=nyx" in err and "shutting down" in out
