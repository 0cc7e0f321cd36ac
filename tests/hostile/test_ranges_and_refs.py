"""Issue 25, items 3, 4 and 7 (part): numbers out of their field's range, references that name
nothing, and text that hides or reorders itself, whichever way they come in (a world file, a hand
edit of the save, with or without a vouch beside it, a command's write); and a world at the edge of
every range that still gets through a year start."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from hostile_helpers import assert_refused, sha256, yak
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from yak_tui.kernel.play.commands import COMMANDS, CommandContext, CommandError, CommandSpec, run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.world.authoring import template_text
from yak_tui.kernel.world.demo import build_world
from yak_tui.kernel.world.documents import SCHEMAS
from yak_tui.kernel.world.fields import INT, MAP, NUMBER
from yak_tui.kernel.world.numbers import AMOUNT_LIMIT
from yak_tui.kernel.world.problems import DocumentError
from yak_tui.kernel.world.references import dangling_references
from yak_tui.kernel.world.validation import validate_changed, validate_world
from yak_tui.store.storage import WorldFile

Data = dict[str, Any]
RLO = "\u202e"  # RIGHT-TO-LEFT OVERRIDE
ISOLATE = "\u2067"  # RIGHT-TO-LEFT ISOLATE
VERBS = (["do", "note", "text=hello"], ["show", "kingdoms"], ["log"], ["--json", "show"])


# -- yak new --from ---------------------------------------------------------------------------------


def _new_from(tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, *names: str) -> str:
    source = tmp_path / "world.toml"
    source.write_text(text, encoding="utf-8")
    target = tmp_path / "campaign.json"
    line = assert_refused(capsys, ["new", str(target), "--from", str(source)], None, *names)
    assert not target.exists()
    return line


@pytest.mark.parametrize(
    ("written", "shown"),
    [("1e308", "1e+308"), (str(2**70), str(2**70)), ("100000000001", "100000000001"), ("-1e12", "-1000000000000")],
    ids=["1e308", "2**70", "limit+1", "-1e12"],
)
def test_new_from_refuses_a_treasury_beyond_its_range(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str, shown: str
) -> None:
    text = template_text().replace("treasury = 40 ", f"treasury = {written} ", 1)
    line = _new_from(tmp_path, capsys, text, "kingdoms 'aurel'", "field treasury", "100000000000", shown)
    assert line.count("problem") == 1 and "1 problem:" in line  # the kingdom's, not its history point's too


@pytest.mark.parametrize("written", ["12.5", "12.0", "1e1"])
def test_new_from_refuses_a_float_in_a_whole_number_field(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], written: str
) -> None:
    """A kingdom's business tax is a whole percent (`business-tax-set rate=12`): 12.5 was taken and
    cut to 12 by every reader."""
    text = template_text().replace("business_tax = 10 ", f"business_tax = {written} ", 1)
    _new_from(tmp_path, capsys, text, "kingdoms 'aurel'", "field business_tax", "must be a whole number")


def test_new_from_takes_the_edge_of_the_range_and_shows_whole_amounts_as_integers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source, target = tmp_path / "world.toml", tmp_path / "campaign.json"
    source.write_text(
        template_text()
        .replace("treasury = 40 ", "treasury = 40.0 ", 1)
        .replace("treasury = 30", f"treasury = {AMOUNT_LIMIT}", 1),
        encoding="utf-8",
    )
    assert yak(capsys, ["new", str(target), "--from", str(source)])[0] == 0
    code, out, _ = yak(capsys, ["--save", str(target), "--json", "show", "kingdoms"])
    assert code == 0
    assert '"treasury":40,' in out and f'"treasury":{AMOUNT_LIMIT},' in out and ".0," not in out


@pytest.mark.parametrize("char", [RLO, ISOLATE, "\u200f", "\u2066", "\u202a", "\u200b", "\U000e0041"])
def test_new_from_refuses_a_name_that_reorders_or_hides_text(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], char: str
) -> None:
    text = template_text().replace('name = "Queen Ilse"', f'name = "Queen {char}Ilse"', 1)
    _new_from(tmp_path, capsys, text, "characters 'queen-ilse'", "field name", f"U+{ord(char):04X}")


def test_new_from_refuses_an_id_that_reorders_or_hides_text(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = template_text().replace('id = "aurel-horse"', f'id = "aurel-{RLO}horse"', 1)
    _new_from(tmp_path, capsys, text, "units", "field id", "U+202E")


# -- a hand-edited save ----------------------------------------------------------------------------


def _set(table: str, doc_id: str, **values: Any) -> Callable[[Data], None]:
    return lambda data: data[table][doc_id].update(values)


# (case, change to the demo save, what the one-line refusal names)
BAD_SAVES: list[tuple[str, Callable[[Data], None], tuple[str, ...]]] = [
    ("treasury-1e308", _set("kingdoms", "elbreth", treasury=1e308), ("kingdoms 'elbreth'", "field treasury")),
    (
        "treasury-limit+1",
        _set("kingdoms", "elbreth", treasury=AMOUNT_LIMIT + 1),
        ("kingdoms 'elbreth'", "field treasury", "at most 100000000000"),
    ),
    ("float-percent", _set("kingdoms", "varos", business_tax=12.5), ("kingdoms 'varos'", "field business_tax")),
    (
        "percent-above-range",
        _set("kingdoms", "varos", business_tax=101),
        ("kingdoms 'varos'", "field business_tax", "at most 100"),
    ),
    (
        "nested-count",
        lambda d: d["characters"]["aldric"].update(goods={"Salt": 2**62}),
        ("characters 'aldric'", "field goods.Salt"),
    ),
    ("date-year", lambda d: d["meta"]["world"]["date"].update(year=2**62), ("meta 'world'", "field date.year")),
    (
        "unit-owner",
        _set("units", "brinehaven-watch", owner="str"),
        ("units 'brinehaven-watch'", "field owner", "names kingdoms 'str', which the world does not hold"),
    ),
    (
        "character-location",
        _set("characters", "aldric", location="nowhere"),
        ("characters 'aldric'", "field location", "'nowhere'"),
    ),
    (
        "province-kingdom",
        _set("provinces", "saltmarsh", kingdom="atlantis"),
        ("provinces 'saltmarsh'", "field kingdom", "atlantis"),
    ),
    (
        "treasury-holder",
        _set("pcs", "highmoor", holds_treasury_of=["kingdoms:atlantis"]),
        ("pcs 'highmoor'", "field holds_treasury_of[0]", "kingdoms:atlantis"),
    ),
    (
        "name-override",
        _set("characters", "corvin", name=f"Corvin {RLO}nivroC"),
        ("characters 'corvin'", "field name", "U+202E"),
    ),
    (
        "id-override",
        lambda d: d["kingdoms"].update({f"elbreth{RLO}": dict(d["kingdoms"]["elbreth"])}),
        ("kingdoms 'elbreth", "its id holds U+202E"),
    ),
]


def _raw_2_70(path: Path) -> None:
    """2**70 written into the save by hand: orjson reads an integer beyond 64 bits as a float."""
    data = orjson.loads(path.read_bytes())
    data["kingdoms"]["elbreth"]["treasury"] = 123456789
    raw = orjson.dumps(data)
    assert raw.count(b'"treasury":123456789') == 1
    path.write_bytes(raw.replace(b'"treasury":123456789', b'"treasury":' + str(2**70).encode()))
    assert orjson.loads(path.read_bytes())["kingdoms"]["elbreth"]["treasury"] == float(2**70)


def _mutated(path: Path, mutate: Callable[[Data], None]) -> None:
    data = orjson.loads(path.read_bytes())
    mutate(data)
    path.write_bytes(orjson.dumps(data))


@pytest.mark.parametrize(("mutate", "names"), [(m, n) for _, m, n in BAD_SAVES], ids=[c for c, _, _ in BAD_SAVES])
def test_a_hand_edited_save_is_refused_by_every_verb_and_left_as_it_was(
    capsys: pytest.CaptureFixture[str], save_path: Path, mutate: Callable[[Data], None], names: tuple[str, ...]
) -> None:
    _mutated(save_path, mutate)
    for verb in VERBS:
        line = assert_refused(capsys, ["--save", str(save_path), *verb], save_path, *names)
        assert "left untouched" in line


def test_2_to_the_70_written_by_hand_is_refused(capsys: pytest.CaptureFixture[str], save_path: Path) -> None:
    _raw_2_70(save_path)
    for verb in VERBS:
        assert_refused(
            capsys,
            ["--save", str(save_path), *verb],
            save_path,
            "kingdoms 'elbreth'",
            "field treasury",
            "at most 100000000000",
        )


def _vouched(capsys: pytest.CaptureFixture[str], save_path: Path) -> Path:
    assert yak(capsys, ["--save", str(save_path), "do", "note", "text=vouched"])[0] == 0
    vouch = save_path.with_name(save_path.name + ".vouch")
    assert vouch.is_file()
    return vouch


@pytest.mark.parametrize(("mutate", "names"), [(m, n) for _, m, n in BAD_SAVES], ids=[c for c, _, _ in BAD_SAVES])
def test_a_stale_vouch_never_lets_a_bad_save_through(
    capsys: pytest.CaptureFixture[str], save_path: Path, mutate: Callable[[Data], None], names: tuple[str, ...]
) -> None:
    """A vouch for the save before the hand edit, then a vouch for the bad bytes themselves made under
    other rules (as a yak from before these checks wrote one, over a save it could not fault)."""
    import hashlib

    vouch = _vouched(capsys, save_path)
    _mutated(save_path, mutate)
    for verb in VERBS:
        assert_refused(capsys, ["--save", str(save_path), *verb], save_path, *names)
    stale = orjson.loads(vouch.read_bytes())
    stale.update(sha256=hashlib.sha256(save_path.read_bytes()).hexdigest(), rules="a yak from before issue 25")
    vouch.write_bytes(orjson.dumps(stale))
    for verb in VERBS:
        assert_refused(capsys, ["--save", str(save_path), *verb], save_path, *names)
    assert orjson.loads(vouch.read_bytes()) == stale  # a refusal writes nothing beside the save either


# -- a command's write -----------------------------------------------------------------------------


def _command_that(change: Callable[[CommandContext], None], monkeypatch: pytest.MonkeyPatch) -> str:
    def handler(ctx: CommandContext, p: dict[str, Any]) -> None:
        change(ctx)

    monkeypatch.setitem(COMMANDS, "test-break", CommandSpec("test-break", "", {}, handler))
    return "test-break"


def _ride_with_the_fleet_then_sink_it(ctx: CommandContext) -> None:
    ctx.world.edit("characters", "aldric")["location"] = "elbreth-fleet"
    ctx.world.delete("units", "elbreth-fleet")


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (
            lambda ctx: ctx.world.edit("units", "brinehaven-watch").update(owner="str"),
            "units.brinehaven-watch.owner",
            "names kingdoms 'str', which the world does not hold",
        ),
        (
            lambda ctx: ctx.world.edit("characters", "aldric").update(location="nowhere"),
            "characters.aldric.location",
            "names 'nowhere', which is neither a pcs nor a units id of the world",
        ),
        (_ride_with_the_fleet_then_sink_it, "characters.aldric.location", "'elbreth-fleet'"),
        (
            lambda ctx: ctx.world.delete("kingdoms", "varos"),
            "",
            "names kingdoms 'varos', which the world does not hold",
        ),
        (
            lambda ctx: ctx.world.edit("kingdoms", "elbreth").update(treasury=AMOUNT_LIMIT * 2),
            "kingdoms.elbreth.treasury",
            "must be at most 100000000000",
        ),
        (
            lambda ctx: ctx.world.edit("kingdoms", "elbreth").update(business_tax=12.5),
            "kingdoms.elbreth.business_tax",
            "must be a whole number",
        ),
        (
            lambda ctx: ctx.world.edit("kingdoms", "elbreth").update(name=f"Elbreth{ISOLATE}"),
            "kingdoms.elbreth.name",
            "U+2067",
        ),
    ],
    ids=["owner", "location", "removed-while-named", "removed-kingdom", "range", "float-for-whole", "isolate"],
)
def test_a_command_may_not_write_a_number_out_of_range_or_a_reference_to_nothing(
    save_path: Path, monkeypatch: pytest.MonkeyPatch, change: Callable[[CommandContext], None], field: str, words: str
) -> None:
    name = _command_that(change, monkeypatch)
    before = sha256(save_path)
    with pytest.raises(CommandError) as refused:
        run_command(WorldFile(save_path), GM, name, {})
    assert refused.value.field.startswith(field) and words in refused.value.reason, refused.value
    assert sha256(save_path) == before


def test_a_unit_an_agent_rides_with_is_emptied_not_removed_when_a_mission_destroys_it() -> None:
    """The game keeps its own references whole: a unit a spy mission sinks or poisons to nothing
    stays, empty, while an agent still rides with it (as a battle leaves one), so the write holds."""
    from yak_tui.areas.espionage.kinds import _take_from_unit
    from yak_tui.kernel.world.model import World

    world = World(build_world())
    regiments = world.get("units", "elbreth-royal-guard")["regiments"]
    world.originals = {}
    world.edit("characters", "aldric").update(location="elbreth-royal-guard", legion="elbreth-royal-guard")
    assert _take_from_unit(world, "elbreth-royal-guard", "regiments", regiments + 5) == regiments
    assert world.get("units", "elbreth-royal-guard")["regiments"] == 0
    world.revalidate_touched()
    world.edit("characters", "aldric").update(location="highmoor", legion=None)
    assert _take_from_unit(world, "elbreth-royal-guard", "regiments", 1) == 0
    assert world.find("units", "elbreth-royal-guard") is None  # nobody names it now: removed
    world.revalidate_touched()


def test_gm_set_and_the_load_refuse_a_bad_reference_in_the_same_words(
    capsys: pytest.CaptureFixture[str], save_path: Path
) -> None:
    by_gm_set = assert_refused(
        capsys,
        ["--save", str(save_path), "do", "gm-set", "table=units", "id=brinehaven-watch", "field=owner", "value=str"],
        save_path,
        "owner",
    )
    _mutated(save_path, _set("units", "brinehaven-watch", owner="str"))
    by_load = assert_refused(capsys, ["--save", str(save_path), "show"], save_path, "units 'brinehaven-watch'")
    words = "names kingdoms 'str', which the world does not hold"
    assert words in by_gm_set and words in by_load


def test_the_change_journal_and_the_vouch_check_what_a_write_changed_and_removed() -> None:
    """`validate_changed` (a reader applying the journal, a writer deciding to vouch): the
    references of the documents written, and that nothing names a document removed."""
    data = build_world()
    validate_world(data)
    bad = copy.deepcopy(data)
    bad["units"]["brinehaven-watch"]["owner"] = "str"
    with pytest.raises(DocumentError, match="names kingdoms 'str'"):
        validate_changed(bad, {"units": ["brinehaven-watch"]})
    gone = copy.deepcopy(data)
    del gone["kingdoms"]["varos"]
    with pytest.raises(DocumentError, match="names kingdoms 'varos'"):
        validate_changed(gone, {"kingdoms": ["varos"]})
    validate_changed(data, {"units": ["brinehaven-watch"], "kingdoms": ["elbreth"]})


NESTED: list[tuple[str, str, str, Any, str | None]] = [  # (table, id, field, value, the path refused or None)
    ("provinces", "saltmarsh", "ports", ["brinehaven", "atlantis-port"], "ports[1]"),
    (
        "specialists",
        "elbreth",
        "counter_spies",
        {"provinces": ["highmoor-vale", "atlantis"], "nation": 0},
        "counter_spies.provinces[1]",
    ),
    ("pcs", "highmoor", "holds_treasury_of", ["kingdoms:elbreth", "characters:nobody"], "holds_treasury_of[1]"),
    ("pcs", "highmoor", "holds_treasury_of", ["elbreth"], "holds_treasury_of[0]"),
    (
        "characters",
        "aldric",
        "estate",
        {"date": {"year": 312, "season": "Spring"}, "to": "kingdoms:atlantis"},
        "estate.to",
    ),
    ("units", "brinehaven-watch", "owner", "rebels", None),  # irregulars: no kingdom owns them
    ("units", "brinehaven-watch", "suborned_from", "atlantis", None),  # history: names what once was
    ("ledger", "cr-1", "lender", "closed-bank", None),
]


def test_references_inside_lists_and_tables_are_checked_on_load_and_history_is_not() -> None:
    for table, doc_id, field, value, path in NESTED:
        data = build_world()
        if table == "ledger":
            data["ledger"][doc_id] = {
                "kind": "credit",
                "lender": value,
                "debtor": "corvin",
                "amount": 5,
                "outstanding": 5,
                "status": "open",
                "parties": ["character:corvin"],
            }
        else:
            data[table][doc_id][field] = value
        if path is None:
            validate_world(data)
            continue
        with pytest.raises(DocumentError) as refused:
            validate_world(data)
        assert (refused.value.table, refused.value.doc_id, refused.value.path) == (table, doc_id, path)


# -- text given to a command -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ["do", "note", f"text=the {RLO}gnik{ISOLATE} is dead"],
        ["do", "gm-set", "table=characters", "id=corvin", "field=name", f"value=Corvin {RLO}nivroC"],
        ["do", "roll", f"reason=Storm the {RLO}etag"],
        [
            "--as",
            "player:corvin",
            "do",
            "order-file",
            "command=business-expand",
            "params=business=hale-bank",
            f"note=for {ISOLATE}the crown",
        ],
    ],
    ids=["note-text", "gm-set-name", "roll-reason", "order-note"],
)
def test_text_that_reorders_or_hides_itself_is_refused_in_a_command(
    capsys: pytest.CaptureFixture[str], save_path: Path, argv: list[str]
) -> None:
    parameter = argv[-1].split("=", 1)[0]
    line = assert_refused(capsys, ["--save", str(save_path), *argv], save_path, parameter, "U+")
    assert "reorders or hides text" in line


def test_an_order_rejected_for_a_reason_that_reorders_itself_is_refused(
    capsys: pytest.CaptureFixture[str], save_path: Path
) -> None:
    code, out, err = yak(
        capsys,
        [
            "--save",
            str(save_path),
            "--json",
            "--as",
            "player:corvin",
            "do",
            "order-file",
            "command=business-expand",
            "params=business=hale-bank",
        ],
    )
    assert code == 0, err
    order = orjson.loads(out)["order"]
    assert_refused(
        capsys,
        ["--save", str(save_path), "do", "order-reject", f"order={order}", f"reason=too {RLO}evisnepxe"],
        save_path,
        "reason",
        "U+202E",
    )


# -- a year start at the edge of every range ----------------------------------------------------------


def _at_the_edge(path: Path, sign: int) -> None:
    """Every number of every document of the demo (but counters of ids and the chronicle) at the
    end of its field's range; `sign` -1 puts the treasuries at the bottom (debt) instead."""
    data = orjson.loads(path.read_bytes())
    for table, docs in data.items():
        if table in ("meta", "chronicle", "dice"):
            continue
        fields = SCHEMAS[table].fields
        for doc in docs.values():
            for name, spec in fields.items():
                value = doc.get(name)
                if spec.kind in (INT, NUMBER) and value is not None:
                    doc[name] = spec.high
                elif (
                    spec.kind == MAP
                    and spec.values is not None
                    and spec.values.kind in (INT, NUMBER)
                    and isinstance(value, dict)
                ):
                    doc[name] = {key: spec.values.high for key in value}
            if sign < 0 and "treasury" in doc:
                doc["treasury"] = -AMOUNT_LIMIT
    path.write_bytes(orjson.dumps(data))


@pytest.mark.parametrize("sign", [1, -1], ids=["top", "bottom"])
def test_four_advances_at_the_edge_of_every_range_never_jam(
    capsys: pytest.CaptureFixture[str], save_path: Path, sign: int
) -> None:
    _at_the_edge(save_path, sign)
    seasons = []
    for _ in range(5):
        code, out, err = yak(capsys, ["--save", str(save_path), "advance"])
        assert code == 0 and "64 bits" not in err, err
        seasons.append(out.strip().splitlines()[0])  # "Winter 312 -> Spring 313", then what it did
    assert any("Winter" in line and "-> Spring" in line for line in seasons), seasons
    data = WorldFile(save_path).read()  # still a world every check accepts
    validate_world(data)
    assert all(-AMOUNT_LIMIT <= kingdom["treasury"] <= AMOUNT_LIMIT for kingdom in data["kingdoms"].values())
    code, out, _ = yak(capsys, ["--save", str(save_path), "--json", "show", "kingdoms"])
    assert code == 0 and "e+" not in out


# -- the load's quick reference check agrees with the explaining one -----------------------------------

DEMO = build_world()
REFERENCING = [
    (table, doc_id, name)
    for table, docs in sorted(DEMO.items())
    if table in SCHEMAS
    for doc_id, doc in sorted(docs.items())
    for name, spec in SCHEMAS[table].fields.items()
    if spec.kind == "text" and spec.ref and not spec.history and name in doc
]
NAMES = st.sampled_from(
    sorted(
        {doc_id for table in ("kingdoms", "pcs", "units", "characters", "provinces") for doc_id in DEMO[table]}
        | {"nowhere", "str", "bandits", "kingdoms:elbreth"}
    )
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.sampled_from(REFERENCING), NAMES), min_size=1, max_size=3))
def test_the_quick_reference_check_refuses_exactly_what_the_explaining_one_finds(
    changes: list[tuple[tuple[str, str, str], str]],
) -> None:
    data = copy.deepcopy(DEMO)
    for (table, doc_id, name), value in changes:
        data[table][doc_id][name] = value
    found = [
        (table, doc_id, problem)
        for table, docs in data.items()
        if table in SCHEMAS
        for doc_id, doc in docs.items()
        for problem in dangling_references(data, table, doc, history=False)
    ]
    try:
        validate_world(data)
    except DocumentError as error:
        assert found, error
        assert (error.table, error.doc_id, (error.path, error.reason)) in found
    else:
        assert not found, found
