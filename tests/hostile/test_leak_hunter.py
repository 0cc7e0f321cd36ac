"""The leak hunter (issue 24): random seasons, random orders by random seats through every way in (the
CLI's `order-file`, `spy-order` and `ask`, SSH `orders submit`, and in one test the app's forms), with a
unique canary in every secret the play creates; then, for every seat that may not see a canary, every
output that seat can get is scanned for it.

Who may see what is RULINGS §1 (`allowed()` says it per canary):
- an order's `note`, an `ask`'s text: its filer and its adjudicator (and the GM), nobody else, not even
  the filer's King;
- a rejection's reason: the filer and the adjudicator (the one who rejected, and the order's own);
- the GM's modifier reason on a blind espionage roll: the adjudicators only (never the filer);
- a note, roll or scheduled event for an audience: that audience's seat (and its author, and the GM);
  for `adjudicators`, the GM alone, and Kings are not checked (one who adjudicates the entry may read it);
- the `against` of Inspire Commercial Animosity: the filer and the adjudicator. The target's King may
  learn of a detected operation, and once the mission is carried out the effect is held by the filer's
  kingdom, so those two Kings are left out of that canary's check (neither allowed nor checked);
- the observer sees only the public record: no canary, ever.

The outputs scanned for each seat other than the GM: `show` (counts), `show <table>` for every table,
`log` (and filtered), `export` (bbcode and markdown, public and his own audience, a refused one, one
season and kingdom), `due`, `season status`, `report` (each closed season), `diff` (each pair of seasons
played), `advance --preview`, `verify`, SSH `orders list` and `report`, everything the seat's own
commands printed (`do`, `ready`, SSH `orders submit`), and refusals: for orders of the world,
`order-withdraw`, `order-resolve`, `order-reject`, `spy-resolve` and `show orders <id>` as that seat, on a
copy of the save. Existence is checked too (RULINGS §1: an order a seat may not see does not exist for
it): the reply to an order he may not see must be byte for byte the reply on a copy where that order
does not exist, and what he reads of the season (`due`, `season status`, `show`, `show orders`, the
preview, SSH `orders list` and `report`) must be what he reads on a copy without the private orders he
may not know of. The app test also reads every screen each seat can reach (tests/hostile/leak_screens.py).

`YAK_LEAK_EXAMPLES` (default 2) and `YAK_LEAK_PILOT_EXAMPLES` (default 1) set the number of examples;
`YAK_LEAK_PROBES` how many orders each seat probes per example (default 3); `YAK_LEAK_REPORT`, if set,
names a JSON file where the run writes what it did (examples, seasons, ways in, canaries, checks, known
leaks met) and how long it took.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import itertools
import os
import re
import shlex
import shutil
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from unittest import mock

import orjson
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from yak_tui.cli import main
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.calendar import GameDate
from yak_tui.kernel.world.demo import create_world
from yak_tui.kernel.world.model import TABLES
from yak_tui.serve.execs import run_exec
from yak_tui.store.storage import WorldFile

EXAMPLES = int(os.environ.get("YAK_LEAK_EXAMPLES", "2"))
PILOT_EXAMPLES = int(os.environ.get("YAK_LEAK_PILOT_EXAMPLES", "1"))
PROBES = int(os.environ.get("YAK_LEAK_PROBES", "3"))
REPORT = os.environ.get("YAK_LEAK_REPORT")

GM = "gm"
OBSERVER = "observer"
KINGS = ("king:elbreth", "king:varos")
PLAYERS = ("player:corvin", "player:edmund", "player:lysa", "player:silas")
FILERS = (*KINGS, *PLAYERS)
SEATS = (GM, *FILERS, OBSERVER)
WATCHED = (*FILERS, OBSERVER)  # the GM may see everything: every other seat is watched
RULER_SEAT = {"aldric": "king:elbreth", "mirela": "king:varos"}  # a King reads his ruler's own lines
KINGDOM_CHARACTERS = {"elbreth": ("corvin", "edmund", "aldric"), "varos": ("lysa", "silas", "mirela")}
GM_AUDIENCES = (
    "character:corvin",
    "character:edmund",
    "character:lysa",
    "character:silas",
    "character:aldric",
    "character:mirela",
    "kingdom:elbreth",
    "kingdom:varos",
    "kingdom:kesh",
    "adjudicators",
)
START_SEASONS = ("Spring 312", "Summer 312", "Autumn 312", "Winter 312")
CANARY = re.compile(r"CANARY\d{5}x")
ORDER_KINDS = ("order-note", "ask-text", "against", "reject-reason", "gm-reason")
PUBLIC_WORDS = ("scout the ford", "watch the pass", "count the sheep", "bless the harvest", "mend the walls")


# Outputs known to leak, each with its own strict xfail test (remove the entry when it is fixed, and the
# mark of its test: it then passes). The hunter found two, both fixed: `advance --preview` (the GM's
# alone now) and `due`'s deadline line (it counts what the public may know).
PREVIEW = "yak advance --preview"
DUE_LINE = "yak due (its deadline line)"
KNOWN_LEAKS: dict[str, str] = {}  # none left: the two the hunter found are fixed (see the tests below)


# --------------------------------------------------------------------------------------- canaries


@dataclass
class Canary:
    text: str
    kind: str  # ORDER_KINDS, or "note", "roll", "schedule" (for an audience)
    author: str  # the seat that typed it
    origin: str  # the action that planted it, in words
    audience: str = ""
    order: str | None = None  # the order it belongs to, once filed
    resolver: str | None = None


def audience_readers(audience: str) -> tuple[set[str], set[str]]:
    """(seats that may read an entry for `audience`, seats left out of the check)."""
    kind, _, subject = audience.partition(":")
    if kind == "character":
        readers = {f"player:{subject}"}
        if subject in RULER_SEAT:
            readers.add(RULER_SEAT[subject])
        return readers, set()
    if kind == "kingdom":
        return {f"king:{subject}"}, set()
    # `adjudicators`: the GM; a King who adjudicates the entry may too, so Kings are not checked.
    return set(), set(KINGS)


def allowed(canary: Canary, orders: dict[str, dict[str, Any]]) -> tuple[set[str], set[str]]:
    """(seats that may see the canary, seats left out of the check because they may legitimately)."""
    seats = {GM, canary.author}
    if canary.kind not in ORDER_KINDS:
        readers, unchecked = audience_readers(canary.audience)
        return seats | readers, unchecked
    order = orders.get(canary.order) if canary.order else None
    if order is None:  # a refused filing: only its filer read the refusal
        return seats, set()
    skipped: set[str] = set()
    if canary.kind == "gm-reason":  # a blind roll's modifiers go to the adjudicators only
        seats.add(order["adjudicator"])
        return seats, skipped
    seats |= {order["filed_by"], order["adjudicator"]}
    if canary.kind == "reject-reason":
        seats.add(order.get("resolved_by") or canary.resolver or GM)
    if canary.kind == "against":
        skipped.add(f"king:{order['params'].get('target')}")  # may learn of a detected operation
        if order["status"] == "resolved" and order.get("kingdom"):
            skipped.add(f"king:{order['kingdom']}")  # the effect is his kingdom's holding
    return seats, skipped


@dataclass
class Leak:
    seat: str
    where: str
    canary: str
    origin: str

    def __str__(self) -> str:
        return f"{self.seat} sees {self.canary} ({self.origin}) in: {self.where}"


# --------------------------------------------------------------------------------------- the world


def _cli(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def _copy_save(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    for sidecar in (".vouch", ".secrets"):  # a copy rolls the dice its original would (fair dice)
        beside = source.with_name(source.name + sidecar)
        if beside.exists():
            shutil.copyfile(beside, target.with_name(target.name + sidecar))


def build_base(directory: Path, start: str) -> bytes:
    """The demo world, made so that every kind of order can go somewhere: each player kingdom holds a
    treasury infiltration against the other (commercial missions can succeed), Maelis stands in a
    Varos town (King Aldric's casting waits for Queen Mirela) and Lysa is a mage in an Elbreth town
    (her casting waits for King Aldric); then the date is moved to `start`."""
    path = directory / "world.json"
    create_world(path)
    setup = (
        ["do", "spy-mission", "sponsor=varos", "target=elbreth", "mission=infiltrate-treasury", "--dice", "6,6"],
        ["do", "spy-mission", "sponsor=elbreth", "target=varos", "mission=infiltrate-treasury", "--dice", "6,6"],
        ["do", "gm-move", "character=maelis", "to=thornfield"],
        [
            "do",
            "gm-set",
            "table=characters",
            "id=lysa",
            "field=ranks",
            'value={"power": 1, "control": 1, "resolution": 1}',
        ],
        ["do", "gm-move", "character=lysa", "to=greywatch"],
    )
    for argv in setup:
        code, _, err = _cli(["--save", str(path), "--json", *argv])
        assert code == 0, (argv, err)
    with WorldFile(path).transaction() as data:
        data["meta"]["world"]["date"] = GameDate.parse(start).to_dict()
        data["meta"]["world"]["undo"] = []
    return path.read_bytes()


@pytest.fixture(scope="session")
def bases(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    return {start: build_base(tmp_path_factory.mktemp("leak-base"), start) for start in START_SEASONS}


# --------------------------------------------------------------------------------------- orders


@dataclass
class OrderSpec:
    command: str  # the command to be carried out, or "ask"
    params: dict[str, Any]
    kind: str  # "order" (public), "spy" (private), "ask"


Draw = Callable[[st.SearchStrategy[Any]], Any]


def _spy(mission: str, target: str, **extra: Any) -> Callable[[Hunter, Draw, str], OrderSpec]:
    def make(hunter: Hunter, draw: Draw, seat: str) -> OrderSpec:
        params = {"mission": mission, "target": target, **extra}
        if mission == "inspire-commercial-animosity":
            params["against"] = hunter.canary("against", seat, f"`against` of {seat}'s {mission} against {target}")
        return OrderSpec("spy-mission", params, "spy")

    return make


def _roll(hunter: Hunter, draw: Draw, seat: str) -> OrderSpec:
    params: dict[str, Any] = {"reason": draw(st.sampled_from(PUBLIC_WORDS))}
    where = draw(st.sampled_from(("", "elbreth", "varos", "kesh")))
    if where:
        params["kingdom"] = where
    return OrderSpec("roll", params, "order")


def _ask(hunter: Hunter, draw: Draw, seat: str) -> OrderSpec:
    text = f"may I have a ship {hunter.canary('ask-text', seat, f'the text of an ask by {seat}')}"
    return OrderSpec("ask", {"text": text}, "ask")


def _plain(command: str, **params: Any) -> Callable[[Hunter, Draw, str], OrderSpec]:
    def make(hunter: Hunter, draw: Draw, seat: str) -> OrderSpec:
        return OrderSpec(command, dict(params), "order")

    return make


TEMPLATES: dict[str, tuple[Callable[[Hunter, Draw, str], OrderSpec], ...]] = {
    "player:corvin": (
        _roll,
        _ask,
        _plain("business-expand", business="hale-bank", sizes=1),
        _plain("business-expand", business="salt-works", sizes=1),
        _spy("infiltrate-admiralty", "varos"),
        _spy("infiltrate-treasury", "kesh"),
        _spy("inspire-commercial-animosity", "varos", province="varos-march"),
        _spy("fund-bandits", "varos", province="amber-coast"),
    ),
    "player:edmund": (
        _roll,
        _ask,
        _plain("business-expand", business="scribes-guild", sizes=1),
        _plain("relocate", character="edmund", pc="millbrook"),
        _spy("infiltrate-government", "varos"),
        _spy("inspire-commercial-animosity", "varos", province="amber-coast"),
    ),
    "player:lysa": (
        _roll,
        _ask,
        _plain("business-expand", business="amber-vintners", sizes=1),
        _plain("cast", caster="lysa", source="ley-line", spell="a fog over Greywatch"),
        _plain("cast", caster="lysa", source="ley-line", spell="a wind over Greywatch"),
        _spy("infiltrate-admiralty", "elbreth"),
        _spy("inspire-commercial-animosity", "elbreth", province="saltmarsh"),
    ),
    "player:silas": (
        _roll,
        _ask,
        _spy("create-security-breach", "elbreth"),
        _spy("infiltrate-treasury", "kesh"),
        _spy("fund-bandits", "elbreth", province="greywood"),
        _spy("inspire-commercial-animosity", "elbreth", province="greywood"),
    ),
    "king:elbreth": (
        _roll,
        _ask,
        _plain("cast", caster="maelis", source="ley-line", spell="a fog over the march"),
        _plain("cast", caster="maelis", source="ley-line", spell="rain over Thornfield"),
        _plain("hire", kingdom="elbreth", type="spy", count=1),
        _spy("infiltrate-admiralty", "varos"),
        _spy("inspire-commercial-animosity", "varos", province="amber-coast"),
    ),
    "king:varos": (
        _roll,
        _ask,
        _spy("create-security-breach", "elbreth"),
        _spy("infiltrate-government", "elbreth"),
        _spy("inspire-commercial-animosity", "elbreth", province="greywood"),
        _plain("hire", kingdom="varos", type="spy", count=1),
    ),
}
WAYS = {
    "order": ("cli-order-file", "exec"),
    "spy": ("cli-order-file", "cli-spy-order", "exec", "exec-spy-order"),
    "ask": ("cli-ask", "exec-ask"),
}


def _word(key: str, value: Any) -> str:
    return f"{key}={value}"


# --------------------------------------------------------------------------------------- the hunter

STATS: Counter[str] = Counter()
STARTED = time.monotonic()


def write_report() -> None:
    if REPORT:
        Path(REPORT).write_text(
            orjson.dumps(
                {**STATS, "wall_seconds": round(time.monotonic() - STARTED, 1)},
                option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS,
            ).decode()
        )


@dataclass
class Hunter:
    root: Path
    draw: Draw
    canaries: dict[str, Canary] = field(default_factory=dict, repr=False)
    pending: list[str] = field(default_factory=list)  # canaries not yet found on a filed order
    leaks: list[Leak] = field(default_factory=list)
    known: list[Leak] = field(default_factory=list, repr=False)  # leaks in KNOWN_LEAKS' outputs
    steps: list[str] = field(default_factory=list, repr=False)  # what was done, to reproduce a leak
    closed: list[str] = field(default_factory=list)  # seasons closed, in order
    orders: dict[str, dict[str, Any]] = field(default_factory=dict, repr=False)

    @property
    def path(self) -> Path:
        return self.root / "world.json"

    # -- plumbing ---------------------------------------------------------------------------------
    def canary(self, kind: str, author: str, origin: str, **more: Any) -> str:
        text = f"CANARY{len(self.canaries) + 1:05d}x"
        self.canaries[text] = Canary(text, kind, author, origin, **more)
        if kind in ("order-note", "ask-text", "against"):
            self.pending.append(text)
        STATS[f"canary {kind}"] += 1
        return text

    def refresh(self) -> dict[str, Any]:
        """The world as the GM sees it; canaries typed into a filing are tied to the order they went into."""
        data = WorldFile(self.path).read()
        self.orders = data.get("orders", {})
        for text in self.pending:
            for oid, order in self.orders.items():
                if text in orjson.dumps(order).decode():
                    self.canaries[text].order = oid
        self.pending.clear()
        return data

    def cli(self, seat: str, *argv: str, save: Path | None = None, scan: bool = True) -> tuple[int, str, str]:
        line = ["--save", str(save or self.path), "--as", seat, "--json", *argv]
        if save is None:
            self.steps.append("yak " + shlex.join(line).replace(str(self.root), "$W"))
        result = _cli(line)
        STATS["cli calls"] += 1
        if scan:
            self.scan(seat, result[1] + result[2], f"yak {' '.join(argv)}")
        return result

    def exec(
        self, seat: str, verb: str, stdin: str = "", scan: bool = True, save: Path | None = None
    ) -> tuple[int, str]:
        if verb == "orders submit":
            self.steps.append(f"run_exec($W, {seat}, 'orders submit', {stdin!r})")
        code, text = run_exec(save or self.path, Identity.parse(seat), verb, stdin.encode())
        STATS["ssh execs"] += 1
        if scan:
            self.scan(seat, text, f"ssh exec {verb!r}")
        return code, text

    def scan(self, seat: str, text: str, where: str) -> None:
        """Record every canary in `text` that `seat` may not see."""
        found_here = sorted(set(CANARY.findall(text)))
        if found_here:
            STATS[f"canaries seen in {where.split(' ')[0]} outputs"] += len(found_here)
        if seat == GM:
            return
        for found in found_here:
            canary = self.canaries.get(found)
            if canary is None:  # not planted by this hunter (each example has its own world)
                continue
            seats, skipped = allowed(canary, self.orders)
            if seat not in seats and seat not in skipped:
                self.record(Leak(seat, where, found, canary.origin))

    def record(self, leak: Leak, where: str | None = None) -> None:
        where = where or leak.where
        if where in KNOWN_LEAKS:
            self.known.append(leak)
            STATS[f"known leak: {where}"] += 1
        else:
            self.leaks.append(leak)

    def date(self) -> str:
        return GameDate.from_dict(WorldFile(self.path).read()["meta"]["world"]["date"]).label()

    # -- actions ----------------------------------------------------------------------------------
    def act(self) -> None:
        kind = self.draw(
            st.sampled_from(
                (
                    "file",
                    "file",
                    "file",
                    "file",
                    "adjudicate",
                    "adjudicate",
                    "adjudicate",
                    "note",
                    "roll",
                    "schedule",
                    "withdraw",
                    "ready",
                )
            )
        )
        getattr(self, f"act_{kind}")()
        self.refresh()
        STATS[f"action {kind}"] += 1

    def act_file(self) -> None:
        seat = self.draw(st.sampled_from(FILERS))
        spec = self.draw(st.sampled_from(TEMPLATES[seat]))(self, self.draw, seat)
        way = self.draw(st.sampled_from(WAYS[spec.kind]))
        if way.startswith("exec"):
            lines = [self.exec_line(seat, spec, way)]
            for _ in range(self.draw(st.integers(0, 2))):  # one submission may carry several orders
                more = self.draw(st.sampled_from(TEMPLATES[seat]))(self, self.draw, seat)
                lines.append(
                    self.exec_line(
                        seat, more, self.draw(st.sampled_from([w for w in WAYS[more.kind] if w.startswith("exec")]))
                    )
                )
            self.exec(seat, "orders submit", "# orders\n\n" + "\n".join(lines) + "\n")
            return
        note = self.note_for(seat, spec)
        if way == "cli-ask":
            self.cli(seat, "do", "ask", _word("text", spec.params["text"]), *([_word("note", note)] if note else []))
        elif way == "cli-spy-order":
            self.cli(
                seat,
                "do",
                "spy-order",
                *(_word(k, v) for k, v in spec.params.items()),
                *([_word("note", note)] if note else []),
            )
        else:
            private = spec.kind == "spy" and self.draw(st.booleans())
            self.cli(
                seat,
                "do",
                "order-file",
                _word("command", spec.command),
                _word("params", orjson.dumps(spec.params).decode()),
                *(["private=true"] if private else []),
                *([_word("note", note)] if note else []),
            )
        STATS[f"way {way}"] += 1

    def note_for(self, seat: str, spec: OrderSpec) -> str:
        if not self.draw(st.sampled_from((True, True, True, False))):
            return ""
        origin = f"the note of {seat}'s {spec.command} order"
        return f"a word for you {self.canary('order-note', seat, origin)}"

    def exec_line(self, seat: str, spec: OrderSpec, way: str) -> str:
        STATS[f"way {way}"] += 1
        words = [_word(k, v) for k, v in spec.params.items()]
        if way == "exec-ask":
            note = self.note_for(seat, spec)
            return shlex.join(["ask", *words, *([_word("note", note)] if note else [])])
        if way == "exec-spy-order":
            note = self.note_for(seat, spec)
            return shlex.join(["spy-order", *words, *([_word("note", note)] if note else [])])
        return shlex.join([spec.command, *words])  # filed through `order-file`: no note on this line

    def act_adjudicate(self) -> None:
        def queue(actor: str) -> list[str]:
            return [
                oid
                for oid, o in sorted(self.orders.items())
                if o["status"] == "waiting" and (actor == GM or o["adjudicator"] == actor)
            ]

        kings = [king for king in KINGS if queue(king)]  # a King with orders waiting for him rules half the time
        actor = kings[self.draw(st.integers(0, 9)) % len(kings)] if kings and self.draw(st.booleans()) else GM
        waiting = queue(actor)
        if not waiting:
            return
        oid = waiting[self.draw(st.integers(0, 999)) % len(waiting)]
        order = self.orders[oid]
        verb = self.draw(st.sampled_from(("resolve", "resolve", "reject")))
        if verb == "reject":
            reason = self.canary(
                "reject-reason",
                actor,
                f"{actor}'s reason for rejecting {order['filed_by']}'s {order['command']} order",
                order=oid,
                resolver=actor,
            )
            self.cli(actor, "do", "order-reject", f"order={oid}", f"reason=the roads are closed {reason}")
        elif order["command"] == "spy-mission":
            extra: list[str] = []
            if self.draw(st.booleans()):
                reason = self.canary(
                    "gm-reason",
                    actor,
                    f"{actor}'s modifier reason on {order['filed_by']}'s {order['params'].get('mission')}",
                    order=oid,
                    resolver=actor,
                )
                extra = ["gm_modifier=1", f"gm_reason=a moonless night {reason}"]
            self.cli(actor, "do", "spy-resolve", f"order={oid}", *extra)
        else:
            self.cli(actor, "do", "order-resolve", f"order={oid}")
        STATS[f"adjudicate {verb} by {actor.split(':')[0]}"] += 1

    def _audience(self, actor: str) -> str:
        if actor == GM:
            return str(self.draw(st.sampled_from(GM_AUDIENCES)))
        kingdom = actor.split(":")[1]
        return str(
            self.draw(st.sampled_from((f"kingdom:{kingdom}", *(f"character:{c}" for c in KINGDOM_CHARACTERS[kingdom]))))
        )

    def act_note(self) -> None:
        actor = self.draw(st.sampled_from((GM, GM, *KINGS)))
        audience = self._audience(actor)
        text = self.canary("note", actor, f"{actor}'s note for {audience}", audience=audience)
        self.cli(actor, "do", "note", f"text=word from the court {text}", f"audience={audience}")

    def act_roll(self) -> None:
        actor = self.draw(st.sampled_from((GM, *KINGS)))
        audience = self._audience(actor)
        if audience == "adjudicators" or (actor != GM and audience.startswith("character:")):
            audience = "kingdom:elbreth" if actor == GM else f"kingdom:{actor.split(':')[1]}"
        text = self.canary("roll", actor, f"{actor}'s roll for {audience}", audience=audience)
        where = [] if actor == GM else [f"kingdom={actor.split(':')[1]}"]
        self.cli(
            actor,
            "do",
            "roll",
            f"reason=a secret ride {text}",
            f"audience={audience}",
            *where,
        )

    def act_schedule(self) -> None:
        audience = self._audience(GM)
        if audience == "adjudicators":
            audience = "kingdom:varos"
        due = GameDate.parse(self.date())
        for _ in range(self.draw(st.integers(1, 2))):
            due = due.next()
        text = self.canary("schedule", GM, f"the GM's event for {audience}", audience=audience)
        self.cli(GM, "do", "schedule", f"text=a rider arrives {text}", f"due={due.label()}", f"audience={audience}")

    def act_withdraw(self) -> None:
        seat = self.draw(st.sampled_from(FILERS))
        mine = [oid for oid, o in sorted(self.orders.items()) if o["filed_by"] == seat and o["status"] == "waiting"]
        if mine:
            self.cli(seat, "do", "order-withdraw", f"order={mine[self.draw(st.integers(0, 999)) % len(mine)]}")

    def act_ready(self) -> None:
        seat = self.draw(st.sampled_from(FILERS))
        self.cli(seat, "ready", *(["--not"] if self.draw(st.booleans()) else []))

    # -- seasons ----------------------------------------------------------------------------------
    def play_actions(self) -> None:
        for _ in range(self.draw(st.integers(2, 7))):
            self.act()
        for seat in WATCHED:  # what lasts only this season: what is due, who has filed, the order lists
            self.season_views(seat)

    def play_season(self) -> None:
        self.play_actions()
        closing = self.date()
        code, _, err = self.cli(GM, "advance", "--carry")  # the orders left waiting carry over
        assert code == 0, f"the GM could not close {closing}: {err}"
        self.closed.append(closing)
        self.refresh()
        STATS["seasons"] += 1
        if closing.startswith("Winter"):
            STATS["year starts"] += 1

    # -- the scan ---------------------------------------------------------------------------------
    def scan_everything(self) -> None:
        self.refresh()
        current = self.date()
        for seat in WATCHED:
            for table in TABLES:  # `show` (counts) and `show orders` again in `season_views`
                self.cli(seat, "show", table)
            self.cli(seat, "log")
            self.cli(seat, "log", "--kind", str(self.draw(st.sampled_from(("order", "note", "roll", "schedule")))))
            self.cli(seat, "log", "--kingdom", str(self.draw(st.sampled_from(("elbreth", "varos", "kesh")))))
            self.cli(
                seat,
                "log",
                "--character",
                str(self.draw(st.sampled_from(("corvin", "silas", "lysa", "edmund", "aldric")))),
            )
            self.cli(
                seat,
                "export",
                "--kingdom",
                str(self.draw(st.sampled_from(("elbreth", "varos", "kesh")))),
                "--season",
                str(self.draw(st.sampled_from(self.closed or [current]))),
            )
            for fmt in ("bbcode", "markdown"):
                self.cli(seat, "export", "--format", fmt)
                if seat != OBSERVER:
                    self.cli(seat, "export", "--format", fmt, "--audience", seat)
            self.cli(seat, "export", "--audience", "gm")  # refused: its words are scanned too
            self.season_views(seat)
            self.cli(seat, "report")
            for season in self.closed:
                self.cli(seat, "report", "--season", season, "--format", "bbcode")
            seasons = [*self.closed, current]
            for before, after in itertools.pairwise(seasons):
                self.cli(seat, "diff", before, after)
            self.cli(seat, "verify")
            self.probe(seat)

    def twin(self, seat: str, hidden: list[str], name: str) -> Path:
        """A copy of the save without the orders `hidden`: the world as it is for a seat they do not exist for."""
        path = self.root / "twin" / seat.replace(":", "-") / name / "world.json"
        _copy_save(self.path, path)
        with WorldFile(path).transaction() as data:
            for oid in hidden:
                del data["orders"][oid]
        return path

    def season_views(self, seat: str) -> None:
        """What the seat reads of this season (what is due, who has filed, his orders, the preview of the
        close) is scanned, and must be what he would read if the private orders he may not know of had
        never been filed (the public ones are public: the table knows they were filed)."""
        hidden = [
            oid
            for oid, o in sorted(self.orders.items())
            if o.get("private") and seat not in (o["filed_by"], o["adjudicator"])
        ]
        twin = self.twin(seat, hidden, "private") if hidden else None
        for argv in (["due"], ["orders"], ["season", "status"], ["show"], ["show", "orders"], ["advance", "--preview"]):
            a = self.cli(seat, *argv)
            if twin is not None:
                self.same(seat, f"yak {' '.join(argv)}", a, self.cli(seat, *argv, save=twin, scan=False), twin, hidden)
        for verb in ("orders list", "orders", "due", "report"):
            code, text = self.exec(seat, verb)
            if twin is not None:
                self.same(
                    seat,
                    f"ssh exec {verb!r}",
                    (code, text, ""),
                    (*self.exec(seat, verb, scan=False, save=twin), ""),
                    twin,
                    hidden,
                )

    def same(
        self,
        seat: str,
        where: str,
        a: tuple[int, str, str],
        b: tuple[int, str, str],
        twin: Path,
        hidden: list[str],
        save: Path | None = None,
    ) -> None:
        """`a` (read on `save`, by default the save itself) is `b` (read on `twin`), paths aside."""
        STATS["existence checks"] += 1
        a, b = _normal(a, save or self.path), _normal(b, twin)
        if a != b:
            known = where
            if where == "yak due" and _without_deadline(a) == _without_deadline(b):
                known = DUE_LINE
            self.record(
                Leak(
                    seat,
                    f"{where}: {a!r}, but without them: {b!r}",
                    "(existence)",
                    f"the private orders {', '.join(hidden)}, which {seat} may not know of",
                ),
                known,
            )

    def probe(self, seat: str) -> None:
        """Act on orders as `seat` on a copy of the save: scan the replies; for an order he may not see,
        the reply is the one for an order that does not exist (a copy where it was deleted)."""
        code, out, _ = self.cli(seat, "show", "orders", scan=False)
        assert code == 0
        visible = set(orjson.loads(out)["documents"])
        hidden = [oid for oid in sorted(self.orders) if oid not in visible]
        own = [oid for oid in sorted(self.orders) if oid in visible]
        picked = [*self.draw(st.permutations(hidden))[:PROBES], *self.draw(st.permutations(own))[:1]]
        if not picked:
            return
        with_orders = self.root / "probe" / seat.replace(":", "-") / "a" / "world.json"
        without = self.root / "probe" / seat.replace(":", "-") / "b" / "world.json"
        _copy_save(self.path, with_orders)
        _copy_save(self.path, without)
        with WorldFile(without).transaction() as data:
            for oid in hidden:
                del data["orders"][oid]
        for oid in picked:
            for argv in (
                ["do", "order-withdraw", f"order={oid}"],
                ["do", "order-resolve", f"order={oid}"],
                ["do", "order-reject", f"order={oid}", "reason=no"],
                ["do", "spy-resolve", f"order={oid}"],
                ["show", "orders", oid],
            ):
                STATS["probes"] += 1
                a = self.cli(seat, *argv, save=with_orders, scan=False)
                self.scan(seat, a[1] + a[2], f"yak {' '.join(argv)} (a refusal probe)")
                if oid in hidden:
                    self.same(
                        seat,
                        f"yak {' '.join(argv)} (order {oid})",
                        a,
                        self.cli(seat, *argv, save=without, scan=False),
                        without,
                        hidden,
                        with_orders,
                    )
                if a[0] == 0:  # it was his to act on: start again from the save as it is
                    _copy_save(self.path, with_orders)


def _normal(result: tuple[int, str, str], save: Path) -> tuple[int, str, str]:
    code, out, err = result
    return code, out.replace(str(save.parent), "<dir>"), err.replace(str(save.parent), "<dir>")


def _without_deadline(result: tuple[int, str, str]) -> tuple[int, str, str]:
    """`yak due`'s reply without its `deadline` line (DUE_LINE)."""
    code, out, err = result
    try:
        reply = orjson.loads(out)
    except orjson.JSONDecodeError:
        return result
    reply["due"] = [item for item in reply.get("due", []) if item.get("kind") != "deadline"]
    return code, orjson.dumps(reply).decode(), err


@contextlib.contextmanager
def hunting(bases: dict[str, bytes], draw: Draw) -> Iterator[Hunter]:
    with tempfile.TemporaryDirectory(prefix="leak-") as directory:
        root = Path(directory)
        start = draw(st.sampled_from(START_SEASONS))
        (root / "world.json").write_bytes(bases[start])
        hunter = Hunter(root, draw)
        hunter.refresh()
        # The season secrets the derived dice use are fixed, so an example replays with the same dice.
        # (`fairdice` imports `secrets` only where it draws them, so the draw itself is fixed.)
        with mock.patch("secrets.token_hex", lambda size: "5a" * size):
            yield hunter
        STATS["examples"] += 1
        write_report()


def assert_no_leak(hunter: Hunter) -> None:
    if hunter.leaks:
        lines = "\n".join(f"  - {leak}" for leak in hunter.leaks[:30])
        steps = "\n".join(f"    {step}" for step in hunter.steps)
        raise AssertionError(
            f"{len(hunter.leaks)} leaks:\n{lines}\n  reproduce on a copy of the demo world "
            f"(see build_base) with:\n{steps}"
        )


# --------------------------------------------------------------------------------------- the tests

# An example takes seconds: shrinking one would take many minutes, and a failure already prints the
# commands that reproduce it.
HUNT = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture],
)


@HUNT
@given(data=st.data())
def test_no_seat_ever_sees_a_secret_it_may_not(bases: dict[str, bytes], data: st.DataObject) -> None:
    with hunting(bases, data.draw) as hunter:
        for _ in range(data.draw(st.integers(2, 6), label="seasons")):
            hunter.play_season()
        hunter.play_actions()  # the scan reads a season under way: orders wait, seats have filed
        hunter.scan_everything()
        assert_no_leak(hunter)


def _no_draws(strategy: st.SearchStrategy[Any]) -> Any:
    raise AssertionError("the sanity test draws nothing")


def test_the_scanner_finds_a_planted_canary(bases: dict[str, bytes]) -> None:
    """The hunter can fail: a canary written in a public note, but recorded as for the GM alone, is
    found in what a player, a King and the observer read."""
    with tempfile.TemporaryDirectory(prefix="leak-") as directory:
        root = Path(directory)
        (root / "world.json").write_bytes(bases["Spring 312"])
        hunter = Hunter(root, _no_draws)
        text = hunter.canary("note", GM, "a public note recorded as for Kesh", audience="kingdom:kesh")
        hunter.cli(GM, "do", "note", f"text=everyone reads this {text}")
        for seat in ("player:corvin", "king:varos", OBSERVER):
            hunter.cli(seat, "log")
            hunter.exec(seat, "report")
        assert {(leak.seat, leak.canary) for leak in hunter.leaks} >= {
            ("player:corvin", text),
            ("king:varos", text),
            (OBSERVER, text),
        }
        assert all(leak.canary == text for leak in hunter.leaks)


@contextlib.contextmanager
def quick_pilot() -> Iterator[None]:
    """Pilot's wait after each key in steps of 5 ms, not 20 (as tests/app/conftest.py sets it)."""
    import textual._wait

    before = textual._wait.SLEEP_GRANULARITY, textual._wait.SLEEP_IDLE
    textual._wait.SLEEP_GRANULARITY, textual._wait.SLEEP_IDLE = 0.005, 0.005 / 20
    try:
        yield
    finally:
        textual._wait.SLEEP_GRANULARITY, textual._wait.SLEEP_IDLE = before


@pytest.mark.app  # a Pilot test: left out of the quick headless loop (-m "not app"), run by CI
@settings(HUNT, max_examples=PILOT_EXAMPLES)
@given(data=st.data())
def test_no_seat_sees_a_secret_on_any_screen(bases: dict[str, bytes], data: st.DataObject) -> None:
    """The same hunt, where some seats file through the app's forms, and the final scan also reads
    every screen each seat can reach in the app."""
    import leak_screens  # Textual is loaded for this test only

    with hunting(bases, data.draw) as hunter, quick_pilot():
        # A control: the walk must find what a seat may see (Corvin reads the GM's note to him).
        control = hunter.canary("note", GM, "the GM's note to Corvin (the walk's control)", audience="character:corvin")
        hunter.cli(GM, "do", "note", f"text=for Corvin only {control}", "audience=character:corvin")
        walked: dict[str, set[str]] = {}

        def scan(seat: str) -> Callable[[str, str], None]:
            def read(text: str, where: str) -> None:
                walked.setdefault(seat, set()).update(CANARY.findall(text))
                hunter.scan(seat, text, where)

            return read

        for _ in range(data.draw(st.integers(1, 2), label="seasons")):
            for seat in data.draw(st.lists(st.sampled_from(FILERS), min_size=1, max_size=2, unique=True)):
                kingdom = {"king:elbreth": "elbreth", "player:corvin": "elbreth", "player:edmund": "elbreth"}.get(
                    seat, "varos"
                )
                target, mission = data.draw(st.sampled_from(leak_screens.FORM_MISSIONS[kingdom]))
                note = hunter.canary("order-note", seat, f"the note of {seat}'s roll order (app form)")
                spy_note = hunter.canary("order-note", seat, f"the note of {seat}'s {mission} (app form)")
                orders = [("roll", {"reason": data.draw(st.sampled_from(PUBLIC_WORDS))}, f"a word {note}")]
                missions = [(target, mission, f"a word {spy_note}")]
                hunter.steps.append(f"app as {seat}: order form {orders}; mission form {missions}")
                asyncio.run(leak_screens.file_through_forms(hunter.path, seat, orders, missions))
                hunter.refresh()
                assert hunter.canaries[note].order and hunter.canaries[spy_note].order, "a form filed nothing"
                STATS["way app-order-form"] += 1
                STATS["way app-mission-form"] += 1
            hunter.play_season()
        hunter.play_actions()
        hunter.scan_everything()
        for seat in SEATS:
            asyncio.run(leak_screens.every_screen(hunter.path, seat, scan(seat)))
            STATS["app walks"] += 1
        assert_no_leak(hunter)
        assert control in walked["player:corvin"] and control in walked[GM], "the walk read nothing"
        assert control not in walked[OBSERVER]


def test_advance_preview_shows_no_seat_a_secret_it_may_not(bases: dict[str, bytes]) -> None:
    """Found by the hunter: the preview of the season's close lists the waiting orders for anyone."""
    with tempfile.TemporaryDirectory(prefix="leak-") as directory:
        root = Path(directory)
        (root / "world.json").write_bytes(bases["Spring 312"])
        hunter = Hunter(root, _no_draws)
        against = hunter.canary("against", "player:silas", "`against` of Silas's mission")
        hunter.cli(
            "player:silas",
            "do",
            "spy-order",
            "mission=inspire-commercial-animosity",
            "target=elbreth",
            "province=greywood",
            f"against={against}",
        )
        ask = hunter.canary("ask-text", "player:corvin", "Corvin's request to the GM")
        hunter.cli("player:corvin", "do", "ask", f"text=a ship {ask}")
        hunter.refresh()
        for seat in WATCHED:
            hunter.cli(seat, "advance", "--preview")
        assert not hunter.known and not hunter.leaks, "\n".join(str(leak) for leak in hunter.known + hunter.leaks)


def test_due_tells_no_seat_of_a_private_order(bases: dict[str, bytes]) -> None:
    """Found by the hunter: Silas files only a private mission, Edmund says he is ready (the cycle is in
    use); what every other seat reads in `yak due` must be what it reads had Silas filed nothing."""
    with tempfile.TemporaryDirectory(prefix="leak-") as directory:
        root = Path(directory)
        (root / "world.json").write_bytes(bases["Spring 312"])
        hunter = Hunter(root, _no_draws)
        hunter.cli("player:silas", "do", "spy-order", "mission=create-security-breach", "target=elbreth")
        hunter.cli("player:edmund", "ready")
        hunter.refresh()
        for seat in ("king:elbreth", "king:varos", "player:corvin", "player:edmund", "player:lysa", OBSERVER):
            silas = [oid for oid, o in hunter.orders.items() if o["filed_by"] == "player:silas"]
            twin = hunter.twin(seat, silas, "silent")
            hunter.same(seat, "yak due", hunter.cli(seat, "due"), hunter.cli(seat, "due", save=twin), twin, silas)
        assert not hunter.known and not hunter.leaks, "\n".join(str(leak) for leak in hunter.known + hunter.leaks)
