"""The real `yak tui` served over SSH, read through pyte: a player's dashboard, resize, a shared
live world between a GM and a player session, no process left behind, and no way for a player to
reach GM screens or other kingdoms' data with any key sequence."""

from __future__ import annotations

import asyncio
import importlib.util
import shutil
import subprocess
import time
from collections.abc import Coroutine, Iterator
from typing import Any, TypeVar

import pytest
from serve_helpers import ServerThread, Terminal, User, YakServe, connect, make_world, open_terminal, wait_gone

from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import Identity
from yak_tui.serve.config import ServeConfig
from yak_tui.store.storage import WorldFile

T = TypeVar("T")

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(
        importlib.util.find_spec("yak_tui.app.main") is None,
        reason="the Textual app (yak_tui.app.main) is not there yet",
    ),
]

USERS = {"gm": "gm", "edmund": "player:edmund", "mirela": "king:varos"}
# Sentinels only someone else may see: other kingdoms' treasuries and private notes.
FOREIGN_TREASURIES = {"varos": 987654, "kesh": 876543}
SECRETS = ("ADJ-SECRET-4471", "VAROS-PRIVATE-5521", "ALDRIC-PRIVATE-3319")
# The header names the acting identity: a player's session must never act as the GM or a King.
OTHER_SEATS = ("◆ GM", "◆ King")
STARTUP = 90.0  # a bound for a loaded machine (several sessions start at once), never the expected time


def forbidden_on(text: str) -> list[str]:
    flat = text.replace("\n", "")
    found = [s for s in SECRETS if s in text or s in flat] + [s for s in OTHER_SEATS if s in text]
    for value in FOREIGN_TREASURIES.values():
        for shown in (str(value), f"{value:,}", f"{value:_}".replace("_", " "), f"{value:,}".replace(",", ".")):
            if shown in text:
                found.append(shown)
    return found


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[WorldFile, dict[str, User]]:
    save, users = make_world(tmp_path_factory.mktemp("served"), USERS)
    with save.transaction() as data:
        for kingdom, treasury in FOREIGN_TREASURIES.items():
            data["kingdoms"][kingdom]["treasury"] = treasury
    gm = Identity.parse("gm")
    for text, audience in zip(SECRETS, ("adjudicators", "kingdom:varos", "character:aldric"), strict=True):
        run_command(save, gm, "note", {"text": f"{text} is not for Edmund", "audience": audience})
    return save, users


@pytest.fixture(scope="module")
def server(world: tuple[WorldFile, dict[str, User]]) -> Iterator[ServerThread]:
    save, _ = world
    # The key sweep runs SWEEP_SESSIONS sessions of one player at once.
    # The sweep logs in SWEEP_SESSIONS times at once from one address: more than a table of players does.
    config = ServeConfig(
        save=save.path,
        port=0,
        kill_grace=1.0,
        max_sessions_per_user=SWEEP_SESSIONS + 2,
        max_unauthenticated_per_address=SWEEP_SESSIONS,
    )
    with ServerThread(config) as thread:
        yield thread


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 600))  # a bound for a loaded machine, never the expected time


async def dashboard(term: Terminal) -> str:
    return await term.wait_for(lambda text: "Spring 312" in text and "edmund" in text.lower(), STARTUP)


def test_a_player_logs_in_and_sees_his_dashboard(
    server: ServerThread, world: tuple[WorldFile, dict[str, User]]
) -> None:
    _, users = world

    async def body() -> str:
        async with await connect(server.port, users["edmund"]) as conn:
            term = await open_terminal(conn, 100, 30)
            return await dashboard(term)

    text = run(body())
    assert "Spring 312" in text
    assert forbidden_on(text) == []


def test_a_resize_reaches_the_app(server: ServerThread, world: tuple[WorldFile, dict[str, User]]) -> None:
    _, users = world

    def relaid(text: str) -> bool:
        lines = text.split("\n")
        return len(lines) == 40 and lines[-1].strip() != "" and any(len(line) > 100 for line in lines)

    async def body() -> str:
        async with await connect(server.port, users["edmund"]) as conn:
            term = await open_terminal(conn, 100, 30)
            await dashboard(term)
            assert max(len(line) for line in term.text().split("\n")) <= 100
            term.resize(140, 40)
            # Painted at the new size: the bottom row (the footer) and content past column 100.
            return await term.wait_for(relaid, 10)

    assert "Spring 312" in run(body())


def test_the_gms_change_shows_on_the_players_screen(
    server: ServerThread, world: tuple[WorldFile, dict[str, User]]
) -> None:
    save, users = world
    news = f"Heralds-{int(time.time()) % 100000}-cry-the-tourney"

    async def body() -> tuple[float, str]:
        async with (
            await connect(server.port, users["gm"]) as gm_conn,
            await connect(server.port, users["edmund"]) as conn,
        ):
            gm = await open_terminal(gm_conn, 120, 40)
            player = await open_terminal(conn, 120, 40)
            await gm.wait_for("Spring 312", STARTUP)
            await dashboard(player)
            # The GM's change, made as the GM's session would make it: one locked transaction
            # on the shared save (here through the same command path as `yak do note`).
            loop = asyncio.get_running_loop()
            started = time.monotonic()
            await loop.run_in_executor(
                None, lambda: run_command(save, Identity.parse("gm"), "note", {"text": news, "audience": "public"})
            )
            text = await player.wait_for(news, 10)
            latency = time.monotonic() - started
            await gm.wait_for(news, 10)
            return latency, text

    latency, text = run(body())
    print(f"GM change on the player's screen after {latency:.2f}s")
    assert news in text


def test_closing_the_client_leaves_no_process(server: ServerThread, world: tuple[WorldFile, dict[str, User]]) -> None:
    _, users = world

    async def body() -> list[int]:
        conn = await connect(server.port, users["edmund"])
        term = await open_terminal(conn)
        await dashboard(term)
        pids = server.app_pids()
        conn.close()
        await conn.wait_closed()
        return pids

    pids = run(body())
    assert pids
    for pid in pids:
        assert wait_gone(pid, 10), f"yak {pid} left behind"


# Key sequences a curious player may try: every screen and what Tab/Enter/arrows open there, the
# command palette asked for GM screens, identities and other kingdoms, and every single key.
PALETTE_QUERIES = (
    "gm",
    "identity",
    "switch",
    "act as",
    "hotseat",
    "varos",
    "kesh",
    "treasury",
    "advance",
    "undo",
    "roster",
    "user",
    "export",
    "chronicle",
    "adjudicat",
    "mirela",
    "aldric",
    "secret",
    "run command",
    "orhan",
)
SINGLE_KEYS = (
    [chr(c) for c in range(ord("a"), ord("z") + 1) if chr(c) != "q"]
    + [chr(c) for c in range(ord("A"), ord("Z") + 1)]
    + [str(d) for d in range(10)]
    + list("?!/:;.,<>[]{}+-=*&^%$#@~`|\\\"'")
    + ["\x1bOP", "\x1bOQ", "\x1bOR", "\x1bOS"]
    + [f"\x1b[{n}~" for n in (15, 17, 18, 19, 20, 21, 23, 24)]
    + ["\t", "\x1b[Z", "\r", " ", "\x1b[A", "\x1b[B", "\x1b[C", "\x1b[D", "\x1b[5~", "\x1b[6~", "\x1b[H", "\x1b[F"]
    + [chr(c) for c in range(1, 27) if chr(c) not in "\x03\x11"]
    + ["q"]
)
# (keys, seconds to let the app paint) steps, spread over SWEEP_SESSIONS sessions run at once: the
# sweep mostly waits for paints, so more sessions side by side finish it sooner.
Step = tuple[str, float]
SWEEP_SESSIONS = 8


def key_lots(sessions: int = SWEEP_SESSIONS) -> list[list[Step]]:
    """The sweep cut into units that each go back to where they began, dealt longest first to the
    lot with the least time so far, so that the lots take about the same time."""
    screens = [
        [
            (key, 0.4),
            *(("\t", 0.1),) * 6,
            ("\r", 0.3),
            ("\x1b", 0.15),
            ("\x1b[B", 0.1),
            ("\x1b[B", 0.1),
            ("\r", 0.3),
            ("\x1b", 0.15),
            ("\x1b", 0.15),
        ]
        for key in "debsmc"
    ]
    palette = [[("\x10", 0.3), (query, 0.3), ("\r", 0.4), ("\x1b", 0.15), ("\x1b", 0.15)] for query in PALETTE_QUERIES]
    singles = [[(key, 0.2), ("\x1b", 0.1)] for key in SINGLE_KEYS]
    lots: list[list[Step]] = [[] for _ in range(sessions)]
    for unit in (*screens, *palette, *singles):
        min(lots, key=lambda lot: sum(settle for _, settle in lot)).extend(unit)
    return lots


def test_a_player_cannot_reach_gm_screens_or_other_kingdoms(
    server: ServerThread, world: tuple[WorldFile, dict[str, User]]
) -> None:
    _, users = world

    async def sweep(steps: list[Step]) -> tuple[list[str], int]:
        leaks: list[str] = []
        conn = await connect(server.port, users["edmund"])
        term = await open_terminal(conn, 120, 40)
        await dashboard(term)
        tried = 0
        for keys, settle in steps:
            if term.closed.is_set():  # a key quit the app: log in again and go on
                conn.close()
                conn = await connect(server.port, users["edmund"])
                term = await open_terminal(conn, 120, 40)
                await dashboard(term)
            term.send(keys)
            tried += 1
            await asyncio.sleep(settle)
            found = forbidden_on(term.text())
            if found:
                leaks.append(f"{keys!r} (step {tried}) showed {found}:\n{term.text()}")
        conn.close()
        return leaks, tried

    async def body() -> list[tuple[list[str], int]]:
        return await asyncio.gather(*(sweep(lot) for lot in key_lots()))

    results = run(body())
    leaks = [leak for found, _ in results for leak in found]
    assert sum(tried for _, tried in results) > 400
    assert leaks == [], "\n\n".join(leaks[:3])


@pytest.mark.skipif(not (shutil.which("ssh") and shutil.which("tmux")), reason="needs OpenSSH's ssh and tmux")
def test_openssh_in_tmux_shows_the_dashboard(world: tuple[WorldFile, dict[str, User]]) -> None:
    from test_serve_cli import Tmux, ssh_argv

    save, users = world
    server = YakServe(save.path)
    tmux = Tmux(f"yakserve-app-{server.port}", [*ssh_argv(server.port, users["edmund"], "-t")], 100, 30)
    try:
        text = tmux.wait_for("Spring 312", STARTUP)
        assert forbidden_on(text) == []
        line = server.wait_log("session start user=edmund")
        pid = int(line.split("pid=")[1].split()[0])
    finally:
        tmux.kill()
        assert server.stop() == 0
    assert wait_gone(pid, 10)
    assert "session end user=edmund" in server.stderr_text()
    subprocess.run(["tmux", "kill-session", "-t", tmux.name], capture_output=True)
