"""Authoring a world as TOML (issue 15 §1): `yak new --from`, `yak new --template`, `yak export --format toml`.

Every problem of a bad file is reported at once with its file, line, table, id and field; nothing
is written. An export loads back as an equal world, also after a played campaign."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest
from yak_plugin import Table

from yak_tui.cli import main
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.season.session import advance_season
from yak_tui.kernel.world.authoring import (
    AuthoringError,
    export_world,
    load_world_file,
    load_world_text,
    template_text,
    worlds_equal,
)
from yak_tui.kernel.world.demo import DEMO_FILE, build_world
from yak_tui.store.storage import WorldFile


def _problems(text: str) -> list[str]:
    with pytest.raises(AuthoringError) as caught:
        load_world_text(text, "w.toml")
    return [str(p) for p in caught.value.problems]


def test_the_template_builds_a_world_with_two_kingdoms() -> None:
    data = load_world_text(template_text(), "template.toml")
    assert len(data["kingdoms"]) == 2
    assert data["units"] and data["pcs"] and data["characters"] and data["provinces"]
    assert data["provinces"]["borderland"]["kingdom"] is None  # a `nulls` entry
    assert data["meta"]["world"]["map"] == {"columns": 12, "rows": 10}


def test_the_demo_is_read_by_the_same_loader() -> None:
    assert worlds_equal(build_world(), load_world_file(DEMO_FILE))


def test_every_problem_is_named_at_once_with_its_line() -> None:
    text = template_text()
    text = text.replace('ruler = "duke-harl"', 'ruler = "duke-harlx"')
    text = text.replace("hex = [8, 5]", "hex = [30, 5]")
    text = text.replace('province = "borderland"', 'province = "borderland"\ncolour = "red"')
    text = text.replace("resistance = 9", 'resistance = "high"')
    text = text.replace('id = "vessa"', 'id = "vessa"\nlegion = "nowhere"')
    problems = _problems(text)
    lines = text.splitlines()

    def line_of(fragment: str) -> int:
        return next(i for i, line in enumerate(lines, 1) if fragment in line)

    assert (
        f"w.toml:{line_of('duke-harlx')}: kingdoms 'morvain', field ruler: names characters 'duke-harlx'"
        in " ".join(problems)
    )
    assert any(
        p.startswith(f"w.toml:{line_of('[30, 5]')}: units 'morvain-fleet', field hex: [30, 5] is off the map")
        for p in problems
    )
    assert any(
        p.startswith(f"w.toml:{line_of('colour =')}: pcs 'stonebridge', field colour: is not a field of pcs")
        for p in problems
    )
    assert any("pcs 'stonebridge', field resistance: must be a number" in p for p in problems)
    assert any("characters 'vessa', field legion: names units 'nowhere'" in p for p in problems)
    assert len(problems) == 5


def test_a_province_of_an_unknown_kingdom_and_a_missing_id_are_errors() -> None:
    text = template_text().replace('kingdom = "morvain"\nsurplus', 'kingdom = "atlantis"\nsurplus')
    text = text.replace('id = "lord-bram"\n', "")
    problems = _problems(text)
    assert any("provinces 'morvain-heights', field kingdom: names kingdoms 'atlantis'" in p for p in problems)
    assert any("[characters], field id: row 2 needs an id" in p for p in problems)


def test_a_toml_syntax_error_names_its_line() -> None:
    problems = _problems('[world]\nname = "x"\n\n[[kingdoms]]\nid = \n')
    assert problems[0].startswith("w.toml:5: [file]: is not valid TOML")


def test_cli_new_from_bad_file_writes_nothing_and_exits_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "world.toml"
    source.write_text(template_text().replace('status = "fresh"', 'status = "sleepy"', 1))
    assert main(["new", str(tmp_path / "c.json"), "--from", str(source)]) == 2
    err = capsys.readouterr().err
    assert "characters 'queen-ilse', field status: must be one of fresh, weary, exhausted" in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "c.json").exists()


def test_cli_template_then_new_from_then_export_round_trip(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", "--template"]) == 0
    (tmp_path / "world.toml").write_text(capsys.readouterr().out)
    assert main(["new", str(tmp_path / "c.json"), "--from", str(tmp_path / "world.toml")]) == 0
    capsys.readouterr()
    assert main(["--save", str(tmp_path / "c.json"), "export", "--format", "toml"]) == 0
    (tmp_path / "back.toml").write_text(capsys.readouterr().out)
    assert main(["new", str(tmp_path / "d.json"), "--from", str(tmp_path / "back.toml")]) == 0
    first = orjson.loads((tmp_path / "c.json").read_bytes())
    second = orjson.loads((tmp_path / "d.json").read_bytes())
    assert worlds_equal(first, second)


def test_only_the_gm_exports_the_whole_world(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["new", str(tmp_path / "c.json"), "--demo"]) == 0
    assert main(["--save", str(tmp_path / "c.json"), "--as", "king:elbreth", "export", "--format", "toml"]) == 2
    assert "only the GM may export the whole world" in capsys.readouterr().err


def test_a_played_world_round_trips(tmp_path: Path) -> None:
    """Nulls nested in records and lists, chronicle entries, counters and history all come back."""
    save = WorldFile(tmp_path / "w.json")
    save.create(build_world())

    table = Table(save)

    table.run("king:varos", "siege-begin", {"fort": "brinehaven", "units": "varos-siege-host,varos-blockade-squadron"})
    table.run("gm", "note", {"text": 'a "quoted"\tline\x7f', "audience": "kingdom:elbreth"})
    table.run("gm", "messenger", {"fort": "brinehaven", "ducats": 5, "purpose": "recruit at Highmoor"}, dice=[6])
    advance_season(save, Identity.parse("gm"))
    data = save.read()
    again = load_world_text(export_world(data), "played.toml")
    assert worlds_equal(data, again)
    assert again["chronicle"] == data["chronicle"]
    assert data["reports"] and again["reports"] == data["reports"]  # the season reports the advance wrote


def test_the_format_page_documents_every_field_of_the_schema() -> None:
    from yak_tui.kernel.world.authoring import format_reference

    page = (Path(__file__).parents[2] / "docs" / "world-format.md").read_text(encoding="utf-8")
    assert format_reference() in page, "regenerate the reference part of docs/world-format.md"
