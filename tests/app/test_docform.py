"""The document form (`app/kit/docform.py`): what a schema field shows, which `gm-set` calls a
changed form makes, the JSON fields of a new document, and a refusal mapped onto the form's field."""

from __future__ import annotations

from pathlib import Path

import orjson
from app_helpers import world_of

from yak_tui.app.kit.docform import document_fields, document_texts, field_problem, new_document, set_params
from yak_tui.kernel.play.commands import run_command
from yak_tui.kernel.play.identity import GM
from yak_tui.kernel.play.views import Problem, check_command
from yak_tui.store.storage import WorldFile


def test_the_fields_follow_the_schema_with_the_referenced_documents_to_choose(save_path: Path) -> None:
    world = world_of(save_path)
    fields = {f.name: f for f in document_fields(world, "units", world.get("units", "elbreth-royal-guard"))}
    assert fields["owner"].required and {c.value for c in fields["owner"].options} == set(world.table("kingdoms"))
    assert [c.value for c in fields["size"].options][:2] == ["patrol", "company"]
    assert fields["regiments"].kind == "int" and fields["hex"].help.endswith("(JSON)")


def test_a_stored_value_that_is_not_among_the_choices_is_kept(save_path: Path) -> None:
    world = world_of(save_path)
    fields = {f.name: f for f in document_fields(world, "kingdoms", {"ruler": "nobody-known"})}
    assert fields["ruler"].options[0].value == "nobody-known"  # saving must not clear it


def test_only_changed_fields_are_set_and_an_emptied_one_is_cleared(save_path: Path) -> None:
    world = world_of(save_path)
    before = document_texts("kingdoms", world.get("kingdoms", "elbreth"))
    after = {**before, "treasury": "50", "faith": ""}
    params = set_params("kingdoms", "elbreth", before, after)
    assert params == [
        {"table": "kingdoms", "id": "elbreth", "field": "treasury", "value": "50"},
        {"table": "kingdoms", "id": "elbreth", "field": "faith", "clear": "true"},
    ]
    for one in params:
        assert check_command(world, GM, "gm-set", one) is None
        run_command(WorldFile(save_path), GM, "gm-set", one)
    kingdom = world_of(save_path).get("kingdoms", "elbreth")
    assert kingdom["treasury"] == 50 and "faith" not in kingdom


def test_a_new_document_from_the_form_and_its_problems(save_path: Path) -> None:
    texts = {
        "name": "Kingdom of Norland",
        "treasury": "40",
        "manpower": "3",
        "influence": "0",
        "business_tax": "10",
        "player": "false",
        "goods": '{"Grain": 2}',
    }
    doc, problem = new_document("kingdoms", texts)
    assert problem is None
    assert doc == {
        "name": "Kingdom of Norland",
        "ruler": None,
        "capital": None,
        "treasury": 40,
        "manpower": 3,
        "influence": 0,
        "business_tax": 10,
        "player": False,
        "goods": {"Grain": 2},
    }
    run_command(
        WorldFile(save_path), GM, "gm-add", {"table": "kingdoms", "id": "norland", "fields": orjson.dumps(doc).decode()}
    )
    assert world_of(save_path).get("kingdoms", "norland")["goods"] == {"Grain": 2}
    _, problem = new_document("kingdoms", {**texts, "goods": "Grain: 2"})
    assert problem is not None and problem.field == "goods"


def test_a_refusal_names_the_field_of_the_form() -> None:
    assert field_problem("kingdoms", Problem("value", "must be at least 0"), "manpower").field == "manpower"
    assert field_problem("provinces", Problem("potentials.trade", "must be whole")).field == "potentials"
    assert field_problem("kingdoms", Problem("id", "already there")).field == "id"
