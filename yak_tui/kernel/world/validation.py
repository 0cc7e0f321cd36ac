"""Validating documents against `yak_tui.kernel.world.documents`: a whole save when it is loaded, and a
document when a command writes it.

Loading runs on every process start over worlds of tens of megabytes, so each table's schema is
compiled once (when the table is first checked) into a plain Python predicate (type checks only,
no allocation) that accepts a valid document quickly; only a document it rejects is walked again
by the explaining checker, which names the table, the id and the field. Writes use the explaining
checker's verdict (a strict compiled predicate says yes, the explaining checker words a refusal)
and also refuse what JSON cannot hold faithfully: NaN and infinities (orjson would write them as
null), integers beyond 64 bits, and keys that are not text.

Both checkers hold every number to its field's range (`Field.low`/`high`: ±AMOUNT_LIMIT unless the
field says otherwise; a whole-number field to an int, 12.0 is no whole number) and every text field
free of the characters that reorder or hide text (`hidden_character`).

References: every field that names another document (`Field.ref`, not a `history` one) must name
one the world holds. The load checks them all, table by table, over the tables' own id dicts (no
copies, one lookup per value); a write checks the documents it wrote and, when it removed some,
that nothing still names them (`check_written_references`). The words are `gm-set`'s.

This module holds the entry points; the explaining checker is `problems`, the compiled predicates
`compiled_checks`, the reference checks `references`.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from yak_tui.kernel.world.compiled_checks import FAST_CHECKS, WRITE_CHECKS
from yak_tui.kernel.world.documents import META, META_ID, SCHEMAS
from yak_tui.kernel.world.numbers import shown
from yak_tui.kernel.world.problems import DocumentError, fields_problem, hidden_character
from yak_tui.kernel.world.references import check_references, check_written_references


def validate_document(table: str, doc_id: str | None, doc: Any, source: str | None = None) -> None:
    """Raise DocumentError unless `doc` is a valid, JSON-faithful document of `table`.

    The schema's strict compiled predicate (`WRITE_CHECKS`: the schema and `json_faithful` where the
    schema leaves values open) accepts what the explaining checker does (tests/hostile/
    test_documents.py), so it gives the quick yes; the explaining checker runs only to word a
    refusal. A year start writes tens of thousands of documents."""
    if table in SCHEMAS and (table != META or doc_id == META_ID) and WRITE_CHECKS[table](doc):
        return
    explain_document(table, doc_id, doc, source)


def explain_document(table: str, doc_id: str | None, doc: Any, source: str | None = None) -> None:
    """The explaining checker alone: raise DocumentError naming the first problem of `doc`."""
    if type(doc) is not dict:
        raise DocumentError(table, doc_id, "", f"must be a document (a table of fields), not {shown(doc)}", source)
    schema = SCHEMAS.get(table)
    if table == META and doc_id != META_ID:
        schema = None
    found = fields_problem(schema.fields if schema else {}, doc)
    if found:
        raise DocumentError(table, doc_id, found[0], found[1], source)


def validate_written(table: str, doc_id: str, doc: Any) -> None:
    """A document a command writes: as `validate_document`, and its table must have a schema
    (a table no schema describes would be written unchecked)."""
    if table not in SCHEMAS:
        raise DocumentError(
            table,
            doc_id,
            "",
            "no schema describes this table (kernel/world/documents.py SCHEMAS), so nothing may be written to it",
        )
    validate_document(table, doc_id, doc)


def _is_document(doc: Any) -> bool:
    return type(doc) is dict


def _ascii_ids(docs: Mapping[Any, Any] | list[Any]) -> bool:
    try:
        return all(map(str.isascii, docs))  # in C: about 10 ns an id
    except TypeError:
        return False


def _check_ids(table: str, ids: Mapping[Any, Any] | list[Any], source: str | None = None) -> None:
    """No id typed with a character that reorders or hides text (`ids`: a table or a list, read twice)."""
    if not _ascii_ids(ids):
        for doc_id in ids:
            hidden = hidden_character(doc_id) if type(doc_id) is str else None
            if hidden is not None:
                raise DocumentError(table, doc_id, "", f"its id {hidden}", source)


def validate_table(table: str, docs: Any, source: str | None = None) -> None:
    """Every document of one table; fast when they are all valid."""
    if type(docs) is not dict:
        raise DocumentError(table, None, "", f"must be a table of documents, not {shown(docs)}", source)
    if table == META:
        world = docs.get(META_ID)
        if not FAST_CHECKS[META](world):
            if world is None:
                raise DocumentError(META, META_ID, "", "is missing: this is not a yak_tui world", source)
            validate_document(META, META_ID, world, source)
        others = {doc_id: doc for doc_id, doc in docs.items() if doc_id != META_ID}
        if not all(map(_is_document, others.values())):
            for doc_id, doc in others.items():
                validate_document(META, doc_id, doc, source)
        return
    if not docs:
        return
    _check_ids(table, docs, source)
    check = FAST_CHECKS[table] if table in SCHEMAS else _is_document
    if all(map(check, docs.values())):
        return
    for doc_id, doc in docs.items():
        if not check(doc):
            validate_document(table, doc_id, doc, source)


def validate_world(data: Any, source: str | None = None) -> None:
    """The whole save: every table a table of documents, every document valid (once, at load)."""
    if type(data) is not dict:
        raise DocumentError("save", None, "", f"must be a table of tables, not {shown(data)}", source)
    if META not in data:
        raise DocumentError(META, None, "", "is missing: this is not a yak_tui world", source)
    for table, docs in data.items():
        validate_table(table, docs, source)
    check_references(data, source)


def validate_changed(
    data: Mapping[str, Any],
    changed: Mapping[str, Iterable[str]],
    checked: Mapping[str, Iterable[str]] | None = None,
) -> None:
    """What a write changed, as a full read would check it: the documents named ({table: [ids]}; an
    id no longer there was removed), the meta table whole, and every table a table of documents.
    The rest of `data` must already have passed `validate_world`.

    `checked` ({table: [ids]}): documents of `changed` the writer has already checked as they are
    in `data` now, with `World.revalidate_touched` (the write checks, which accept no document
    these refuse, and the same reference check): only their ids are looked at again (issue 30: a
    season's close checked its 3,417 documents twice)."""
    for table, docs in data.items():
        if type(docs) is not dict:
            raise DocumentError(table, None, "", f"must be a table of documents, not {shown(docs)}")
    if META not in data:
        raise DocumentError(META, None, "", "is missing: this is not a yak_tui world")
    validate_table(META, data[META])
    unchecked: dict[str, list[str]] = {}
    for table, named in changed.items():
        if table == META:
            continue
        ids = list(named)
        docs = data.get(table, {})
        done = set((checked or {}).get(table, ()))
        if done:
            _check_ids(table, [doc_id for doc_id in ids if doc_id in done and doc_id in docs])
            ids = [doc_id for doc_id in ids if doc_id not in done]
        unchecked[table] = ids
        if table in data:
            validate_table(table, {doc_id: docs[doc_id] for doc_id in ids if doc_id in docs})
    check_written_references(data, unchecked)


@functools.cache
def rules_fingerprint() -> str:
    """The version of the rules `validate_world` applies: this module's and the schemas' source, the
    schemas as built, and the JSON parser's version. A save vouched for under other rules (another
    yak) is validated again."""
    import orjson

    from yak_tui.kernel.world import compiled_checks, documents, fields, numbers, problems, records, references

    digest = hashlib.sha256(f"orjson {orjson.__version__}\n{sorted(SCHEMAS.items())!r}".encode())
    for module_file in (
        __file__,
        documents.__file__,
        fields.__file__,
        records.__file__,
        numbers.__file__,
        problems.__file__,
        references.__file__,
        compiled_checks.__file__,
    ):
        try:
            digest.update(Path(module_file).read_bytes())
        except (OSError, TypeError):
            digest.update(f"no source for {module_file}".encode())
    return digest.hexdigest()


def _register_load_check() -> None:
    """Every world the store reads is validated once, whoever reads it (CLI, app, server); a vouch
    for the exact bytes (written by a yak that knew them valid under these rules) stands for it."""
    from yak_tui.store import checks

    if validate_world not in checks.LOAD_CHECKS:
        checks.LOAD_CHECKS.append(validate_world)
        checks.VOUCHABLE.append(checks.Vouchable(validate_world, validate_changed, rules_fingerprint))


_register_load_check()
