"""`ssh host orders submit < orders.txt`, `orders list`, `report`: the exec allow-list of `yak serve`.
Allowed verbs are answered as the key's identity, with the validation of `order-file`; any other
command, an option such as `--as`, or the client's environment changes nothing and is refused."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import asyncssh
import pytest
from serve_helpers import ServerThread, User, connect, make_world, stub_argv

from yak_tui.kernel.world.model import World
from yak_tui.serve.config import ServeConfig
from yak_tui.serve.execs import exec_verb
from yak_tui.store.storage import WorldFile

T = TypeVar("T")
USERS = {"gm": "gm", "corvin": "player:corvin", "mirela": "king:varos"}


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, User]]:
    save, users = make_world(tmp_path_factory.mktemp("serve-exec"), USERS)
    return save.path, users


@pytest.fixture(scope="module")
def server(world: tuple[Path, dict[str, User]]) -> Iterator[ServerThread]:
    save, _ = world
    config = ServeConfig(
        save=save,
        port=0,
        app_argv=stub_argv,
        kill_grace=0.5,
        max_sessions=16,
        # Many tests share this server: a burst of refused logins from one test must not
        # hold back the refusal line the next one waits for (the limit has its own test).
        refusal_lines_per_second=1000,
    )
    with ServerThread(config) as thread:
        yield thread


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(asyncio.wait_for(coro, 60))


def ssh(
    server: ServerThread, user: User, command: str, stdin: str | None = None, **kwargs: Any
) -> asyncssh.SSHCompletedProcess:
    async def body() -> asyncssh.SSHCompletedProcess:
        async with await connect(server.port, user) as conn:
            return await conn.run(command, input=stdin, **kwargs)

    return run(body())


def test_orders_submitted_over_ssh_are_filed_as_the_keys_identity(
    server: ServerThread, world: tuple[Path, dict[str, User]]
) -> None:
    save, users = world
    orders = (
        '# Corvin, Spring\nroll reason="scout the ford"\n'
        'business-open name="Corvin Cloth" province=nowhere sector=commercial\n'
    )
    result = ssh(server, users["corvin"], "orders submit", orders, env={"YAK_AS": "gm"})
    assert result.exit_status == 1  # one refused
    out = str(result.stdout)
    assert "line 2: received as o-" in out and "(roll, waits for gm)" in out
    assert "line 3: refused: order.owner: is required" in out
    assert "1 received, 1 refused" in out
    world_now = World(WorldFile(save).read())
    filed = [o for _, o in world_now.all("orders")]
    assert [(o["filed_by"], o["command"], o["params"]) for o in filed] == [
        ("player:corvin", "roll", {"reason": "scout the ford"})
    ]
    listed = ssh(server, users["corvin"], "orders list")
    assert (
        listed.exit_status == 0
        and "waiting" in str(listed.stdout)
        and "roll: reason scout the ford" in str(listed.stdout)
    )
    # Another seat's list does not show Corvin's order.
    other = ssh(server, users["mirela"], "orders list")
    assert other.exit_status == 0 and "scout the ford" not in str(other.stdout)


def test_report_is_what_the_key_may_read(server: ServerThread, world: tuple[Path, dict[str, User]]) -> None:
    _, users = world
    result = ssh(server, users["mirela"], "report")
    assert result.exit_status == 0
    assert str(result.stdout).startswith("# Elbreth chronicle")


def test_map_is_the_keys_own_picture(server: ServerThread, world: tuple[Path, dict[str, User]]) -> None:
    """`ssh host map > map.svg`: the same picture `yak map --as` draws for that seat, no other."""
    from yak_tui.deliver.mapsvg import map_svg
    from yak_tui.kernel.play.identity import Identity

    save, users = world
    result = ssh(server, users["mirela"], "map")
    assert result.exit_status == 0
    drawn = World(WorldFile(save).read())
    assert str(result.stdout) == map_svg(drawn, Identity.parse("king:varos"))
    assert str(result.stdout) != map_svg(drawn, Identity.parse("player:corvin"))


@pytest.mark.parametrize(
    "command",
    [
        "orders submit --as gm",
        "yak --as gm do note text=hacked",
        "orders --as gm",
        "due --as gm",
        "report; rm -rf /",
        "orders  list extra",
        "ORDERS LIST",
        "sh -c 'orders list'",
    ],
)
def test_everything_else_is_refused(server: ServerThread, world: tuple[Path, dict[str, User]], command: str) -> None:
    save, users = world
    before = Path(save).read_bytes()
    result = ssh(server, users["corvin"], command)
    assert result.exit_status == 1
    assert "other commands are refused" in str(result.stderr)
    assert Path(save).read_bytes() == before


def test_the_allow_list_is_exact() -> None:
    assert exec_verb("orders submit") == "orders submit"
    assert exec_verb("  orders   list ") == "orders list"
    assert exec_verb("'orders' 'list'") == "orders list"  # shell quoting changes no word
    for refused in ("orders list --json", "report --as gm", "orders submit\nrm x", "env YAK_AS=gm report", "'"):
        assert exec_verb(refused) is None, refused


def test_after_an_advance_report_is_the_keys_own_stored_report(
    server: ServerThread, world: tuple[Path, dict[str, User]]
) -> None:
    from yak_tui.kernel.play.commands import run_command
    from yak_tui.kernel.play.dice import ScriptedDice
    from yak_tui.kernel.play.identity import Identity

    save, users = world
    run_command(
        WorldFile(save),
        Identity.parse("gm"),
        "note",
        {"text": "Only Corvin hears the bells", "audience": "character:corvin"},
    )
    run_command(WorldFile(save), Identity.parse("gm"), "advance", {}, ScriptedDice([3] * 40))
    corvin = ssh(server, users["corvin"], "report")
    assert corvin.exit_status == 0
    assert str(corvin.stdout).startswith("# Elbreth: Spring 312, report for Corvin Hale")
    assert "Only Corvin hears the bells" in str(corvin.stdout)
    mirela = ssh(server, users["mirela"], "report")
    assert str(mirela.stdout).startswith("# Elbreth: Spring 312, report for Kingdom of Varos")
    assert "Only Corvin hears the bells" not in str(mirela.stdout)
