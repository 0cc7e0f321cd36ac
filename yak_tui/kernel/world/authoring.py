"""A world as a readable TOML file: the GM authors his campaign in it (`yak new --from`), and the
current world is written back in the same format (`yak export --format toml`, in `export`; the
format's field-by-field reference is `format_reference`). This module loads it.

One schema (`yak_tui.kernel.world.documents`) drives the loader: every field is checked against it,
fields the schema does not know are errors (a typo must not vanish silently), and every
reference must name a document of the file. All the problems are collected and reported at
once, each with the file, the line, the table, the id and the field. docs/world-format.md
describes the format field by field.

TOML has no null: a value that is null is listed by its path in the document's `nulls` key
(`nulls = ["ruler"]`, `nulls = [["last_raid", "by"]]`); inside a list, a null is written `{}`
and listed by its index. The writer does this itself, so an export loads back as an equal world.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from yak_tui.kernel.errors import YakError
from yak_tui.kernel.play.dicechain import start_chain
from yak_tui.kernel.season.calendar import SEASONS, GameDate
from yak_tui.kernel.world.documents import DICE_STATE_KEYS, META, META_ID, SCHEMAS
from yak_tui.kernel.world.fields import LIST, MAP, NUMBER, RECORD, TABLE_NAMES, UNIT_KINDS, Field
from yak_tui.kernel.world.hexgrid import axial_to_offset
from yak_tui.kernel.world.numbers import counted
from yak_tui.kernel.world.problems import fields_problem, hidden_character, problem
from yak_tui.kernel.world.references import dangling_references, referrers
from yak_tui.kernel.world.tables import table as rules_table
from yak_tui.kernel.world.tables import toml_text
from yak_tui.kernel.world.validation import validate_world
from yak_tui.store.files import SCHEMA_VERSION

__all__ = [
    "AUTHORED_TABLES",
    "TEMPLATE_FILE",
    "AuthoringError",
    "Problem",
    "court_title_problem",
    "document_problems",
    "load_world_file",
    "load_world_text",
    "reference_problems",
    "referrers",
    "template_text",
    "unit_kind_problem",
]

TEMPLATE_FILE = Path(__file__).with_name("world_template.toml")
AUTHORED_TABLES = tuple(name for name in TABLE_NAMES if name != META)
NULLS = "nulls"
# The campaign's running state (saved house rules, the season's deadline and readiness, the dice
# ledger's head, the last write's revision): exported as it is so a round trip keeps it.
STATE_KEYS = (
    "rules_source",
    "deadline",
    "deadline_paused",
    "missed",
    "ready",
    *DICE_STATE_KEYS,
    "campaign_closed",
    "revision",
    "changed",
)
WORLD_KEYS = ("name", "year", "season", "map", "rules_overrides", "counters", "history", *STATE_KEYS)
COUNTER_KEYS = ("seq", "chronicle_seq", *(f"next_{name}" for name in AUTHORED_TABLES))
MAX_SHOWN = 40  # problems named in the one-line message (all of them are kept on the error)


@dataclass(frozen=True)
class Problem:
    """One fault in a world file, located as closely as the file allows."""

    source: str
    line: int | None
    table: str
    doc_id: str | None
    field: str
    reason: str

    def __str__(self) -> str:
        where = f"{self.source}:{self.line}" if self.line else self.source
        doc = f"{self.table} {self.doc_id!r}" if self.doc_id is not None else f"[{self.table}]"
        at = f", field {self.field}" if self.field else ""
        return f"{where}: {doc}{at}: {self.reason}"


class AuthoringError(YakError):
    """A world file with problems; `problems` holds every one of them."""

    def __init__(self, source: str, problems: list[Problem]) -> None:
        self.source = source
        self.problems = problems
        shown = "; ".join(str(p) for p in problems[:MAX_SHOWN])
        more = f"; and {len(problems) - MAX_SHOWN} more" if len(problems) > MAX_SHOWN else ""
        count = counted(len(problems), "problem")
        super().__init__(f"{source}: {count}: {shown}{more}")


# -- where things are in the text ------------------------------------------------------------------

_HEADER = re.compile(r"^\s*\[\[\s*([A-Za-z0-9_-]+)\s*\]\]")
_TABLE = re.compile(r"^\s*\[\s*([A-Za-z0-9_-]+)\s*\]")
_POSITION = re.compile(r"at line (\d+)")


class _Lines:
    """Line numbers of each `[[table]]` row and of the fields inside it (tomllib keeps none)."""

    def __init__(self, text: str) -> None:
        self.lines = text.splitlines()
        self.rows: dict[str, list[int]] = {}
        self.tables: dict[str, int] = {}
        for number, line in enumerate(self.lines, 1):
            header = _HEADER.match(line)
            if header:
                self.rows.setdefault(header[1], []).append(number)
                continue
            table = _TABLE.match(line)
            if table:
                self.tables.setdefault(table[1], number)

    def row(self, table: str, index: int) -> int | None:
        found = self.rows.get(table, [])
        return found[index] if index < len(found) else None

    def field(self, start: int | None, name: str) -> int | None:
        """The line of `name = ...` in the block that begins at line `start`."""
        if start is None:
            return None
        key = re.compile(rf"^\s*(\"{re.escape(name)}\"|{re.escape(name)})\s*=")
        for number in range(start + 1, len(self.lines) + 1):
            line = self.lines[number - 1]
            if line.lstrip().startswith("["):
                break
            if key.match(line):
                return number
        return start


# -- loading --------------------------------------------------------------------------------------


class _Loader:
    def __init__(self, text: str, source: str) -> None:
        self.source = source
        self.text = text
        self.where = _Lines(text)
        self.problems: list[Problem] = []
        # (table, doc_id) -> the line its row starts on
        self.row_lines: dict[tuple[str, str], int | None] = {}

    def add(self, line: int | None, table: str, doc_id: str | None, field: str, reason: str) -> None:
        self.problems.append(Problem(self.source, line, table, doc_id, field, reason))

    def field_line(self, table: str, doc_id: str | None, path: str) -> int | None:
        start = self.row_lines.get((table, doc_id or ""))
        top = re.split(r"[.\[]", path, maxsplit=1)[0] if path else ""
        return self.where.field(start, top) if top else start

    def load(self) -> dict[str, dict[str, Any]]:
        import tomllib  # not on import: the CLI's plays import this module, only authoring parses

        try:
            spec = toml_text(self.text)
        except tomllib.TOMLDecodeError as error:
            position = _POSITION.search(str(error))
            self.add(int(position[1]) if position else None, "file", None, "", f"is not valid TOML: {error}")
            raise AuthoringError(self.source, self.problems) from None
        data: dict[str, dict[str, Any]] = {name: {} for name in TABLE_NAMES}
        for key in spec:
            if key != "world" and key not in AUTHORED_TABLES:
                line = self.where.tables.get(key) or self.where.row(key, 0)
                self.add(
                    line, key, None, "", f"is not a table of a world (tables: world, {', '.join(AUTHORED_TABLES)})"
                )
        for table in AUTHORED_TABLES:
            self.load_table(spec.get(table, []), table, data)
        for table in AUTHORED_TABLES:
            for doc_id, doc in data[table].items():
                self.check_references(data, table, doc_id, doc)
        self.load_world(spec.get("world", {}), data)
        if self.problems:
            self.problems.sort(key=lambda p: (p.line is None, p.line or 0))
            raise AuthoringError(self.source, self.problems)
        validate_world(data, self.source)  # the store's own check, as a last guard
        return data

    # -- tables ----------------------------------------------------------------------------------
    def load_table(self, rows: Any, table: str, data: dict[str, dict[str, Any]]) -> None:
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            self.add(self.where.tables.get(table), table, None, "", f"must be written as [[{table}]] rows")
            return
        schema = SCHEMAS[table]
        keeps_id = "id" in schema.fields
        for index, row in enumerate(rows):
            line = self.where.row(table, index)
            doc = dict(row)
            raw_id = doc.get("id") if keeps_id else doc.pop("id", None)
            if not isinstance(raw_id, str) or not raw_id:
                self.add(line, table, None, "id", f"row {index + 1} needs an id: text, {schema.id_description}")
                continue
            doc_id = raw_id
            hidden = hidden_character(doc_id)
            if hidden is not None:
                self.add(line, table, doc_id, "id", hidden)
                continue
            if doc_id in data[table]:
                self.add(line, table, doc_id, "id", f"is used twice (first at line {self.row_lines[(table, doc_id)]})")
                continue
            self.row_lines[(table, doc_id)] = line
            nulls = doc.pop(NULLS, [])
            self.apply_nulls(table, doc_id, doc, nulls)
            _whole_amounts(schema.fields, doc)
            self.check_document(table, doc_id, doc)
            data[table][doc_id] = doc

    def apply_nulls(self, table: str, doc_id: str, doc: dict[str, Any], nulls: Any) -> None:
        if not isinstance(nulls, list):
            self.add(self.field_line(table, doc_id, NULLS), table, doc_id, NULLS, "must be a list of field names")
            return
        for path in nulls:
            steps = [path] if isinstance(path, str) else path
            if not isinstance(steps, list) or not steps or not all(isinstance(s, str | int) for s in steps):
                self.add(
                    self.field_line(table, doc_id, NULLS),
                    table,
                    doc_id,
                    NULLS,
                    f'{path!r} is not a field name or a path like ["field", "key", 0]',
                )
                continue
            holder: Any = doc
            for step in steps[:-1]:
                holder = _step(holder, step)
            last = steps[-1]
            if isinstance(holder, dict) and isinstance(last, str):
                holder[last] = None
            elif isinstance(holder, list) and isinstance(last, int) and 0 <= last < len(holder):
                holder[last] = None
            else:
                self.add(
                    self.field_line(table, doc_id, NULLS),
                    table,
                    doc_id,
                    NULLS,
                    f"{path!r} names no value of the document",
                )

    def check_document(self, table: str, doc_id: str, doc: dict[str, Any]) -> None:
        for path, reason in document_problems(table, doc):
            line = (
                self.row_lines.get((table, doc_id))
                if reason.startswith("is required")
                else self.field_line(table, doc_id, path)
            )
            self.add(line, table, doc_id, path, reason)

    def check_references(self, data: dict[str, dict[str, Any]], table: str, doc_id: str, doc: dict[str, Any]) -> None:
        for path, reason in reference_problems(data, table, doc):
            self.add(self.field_line(table, doc_id, path), table, doc_id, path, reason)

    def check_map(self, data: dict[str, dict[str, Any]], size: Any) -> None:
        if not (
            isinstance(size, dict)
            and set(size) == {"columns", "rows"}
            and all(type(v) is int and v > 0 for v in size.values())
        ):
            self.add(
                self.where.field(self.where.tables.get("world"), "map"),
                "world",
                None,
                "map",
                "must be { columns = N, rows = N } with whole numbers above 0",
            )
            return
        for table in ("pcs", "units"):
            for doc_id, doc in data[table].items():
                at = doc.get("hex")
                if not (isinstance(at, list) and len(at) == 2 and all(type(v) is int for v in at)):
                    continue
                col, row = axial_to_offset((at[0], at[1]))
                if not (0 <= col < size["columns"] and 0 <= row < size["rows"]):
                    self.add(
                        self.field_line(table, doc_id, "hex"),
                        table,
                        doc_id,
                        "hex",
                        f"{at} is off the map ({size['columns']} columns by {size['rows']} rows)",
                    )

    # -- the world's own settings -------------------------------------------------------------------
    def load_world(self, head: Any, data: dict[str, dict[str, Any]]) -> None:
        start = self.where.tables.get("world")
        if not isinstance(head, dict):
            self.add(start, "world", None, "", "must be a [world] table")
            return
        for key in head:
            if key not in WORLD_KEYS:
                self.add(
                    self.where.field(start, key),
                    "world",
                    None,
                    key,
                    f"is not a setting of [world] (settings: {', '.join(WORLD_KEYS)})",
                )
        year, season = head.get("year", 312), head.get("season", "Spring")
        if type(year) is not int:
            self.add(self.where.field(start, "year"), "world", None, "year", f"must be a whole number, not {year!r}")
            year = 312
        if season not in SEASONS:
            self.add(
                self.where.field(start, "season"),
                "world",
                None,
                "season",
                f"must be one of {', '.join(SEASONS)}, not {season!r}",
            )
            season = "Spring"
        date = GameDate.of(year, season)
        meta: dict[str, Any] = {
            "name": head.get("name", Path(self.source).stem),
            "date": date.to_dict(),
            "schema_version": SCHEMA_VERSION,
            "rules_overrides": head.get("rules_overrides", {}),
            "undo": [],
        }
        if "map" in head:
            self.check_map(data, head["map"])
            meta["map"] = head["map"]
        if "history" in head:
            meta["history"] = head["history"]
            _whole_amounts(SCHEMAS[META].fields, meta)
        else:
            meta["history"] = [
                {
                    "date": date.to_dict(),
                    "kingdoms": {
                        kid: {"treasury": k.get("treasury", 0), "manpower": k.get("manpower", 0)}
                        for kid, k in data["kingdoms"].items()
                    },
                }
            ]
        counters = head.get("counters", {})
        if not isinstance(counters, dict) or any(k not in COUNTER_KEYS for k in counters):
            self.add(
                self.where.field(start, "counters"),
                "world",
                None,
                "counters",
                f"must be a table of {', '.join(COUNTER_KEYS)}",
            )
            counters = {}
        meta.update(counters)
        meta.update({key: head[key] for key in STATE_KEYS if key in head})
        start_chain(meta)  # a new world's dice ledger starts with it
        entries = [doc.get("seq") for doc in data["chronicle"].values() if type(doc.get("seq")) is int]
        if entries and "chronicle_seq" not in counters:
            meta["chronicle_seq"] = max(entries)
        # A history taken from the kingdoms holds their figures: a bad one is the kingdom's problem, said there.
        checked = meta if "history" in head else {**meta, "history": []}
        found = fields_problem(SCHEMAS[META].fields, checked)
        if found:
            self.add(self.where.field(start, found[0].split(".")[0]), "world", None, found[0], found[1])
        elif "name" in head and type(head["name"]) is not str:
            self.add(self.where.field(start, "name"), "world", None, "name", "must be text")
        for _, kingdom in data["kingdoms"].items():
            kingdom.setdefault("year_counters", {})
        data[META] = {META_ID: meta}


def document_problems(table: str, doc: dict[str, Any]) -> list[tuple[str, str]]:
    """Every way one document breaks its table's schema: shapes, required fields, and fields the
    schema does not know (a world file and the GM's edits are strict where saves are open)."""
    out: list[tuple[str, str]] = []
    fields = SCHEMAS[table].fields
    for name, spec in fields.items():
        if name not in doc:
            if spec.required:
                hint = f" (or list it in {NULLS} for none)" if spec.nullable else ""
                out.append((name, f"is required{hint}"))
            continue
        found = problem(spec, doc[name], name)
        if found:
            out.append(found)
    for name, value in doc.items():
        if name not in fields:
            import difflib  # on a misspelt field only

            close = difflib.get_close_matches(name, list(fields), n=3)
            hint = f"did you mean {', '.join(close)}?" if close else f"fields: {', '.join(fields)}"
            out.append((name, f"is not a field of {table} ({hint})"))
        else:
            out.extend((path, "is not a known field here") for path in _unknown_fields(fields[name], value, name))
    return out


def reference_problems(data: Mapping[str, Mapping[str, Any]], table: str, doc: dict[str, Any]) -> list[tuple[str, str]]:
    """Every id the document names that `data` does not hold (`references.dangling_references`, the
    check every load and write makes, here with the `history` fields too: a person writing a world
    file or `gm-set` names what is), and a garrison off its place's hex."""
    out = dangling_references(data, table, doc)
    if table == "units" and isinstance(doc.get("kind"), str):
        found = unit_kind_problem(doc["kind"])
        if found:
            out.append(("kind", found))
    if table == "characters":
        found = court_title_problem(doc)
        if found:
            out.append(("title", found))
    if table == "units":
        inside = doc.get("inside")
        pc = data["pcs"].get(inside) if isinstance(inside, str) else None
        if pc is not None and isinstance(pc.get("hex"), list) and pc.get("hex") != doc.get("hex"):
            out.append(("hex", f"is {doc.get('hex')}, but the unit garrisons {inside!r} at {pc['hex']}"))
    return out


def unit_kind_problem(kind: str) -> str | None:
    """Why `kind` is no unit kind (`UNIT_KINDS`), naming the kinds, or None."""
    if kind in UNIT_KINDS:
        return None
    import difflib  # on a misspelt kind only

    close = difflib.get_close_matches(kind.strip().lower(), UNIT_KINDS, n=1)
    hint = f" (did you mean {close[0]}?)" if close else ""
    return f"{kind!r} is not a unit kind{hint}; the kinds: {', '.join(UNIT_KINDS)}"


def _title_key(name: str) -> str:
    return "_".join(name.strip().lower().replace("-", " ").replace("_", " ").split())


def court_title_problem(doc: Mapping[str, Any]) -> str | None:
    """A noble, Agent or High Priestess (the kinds the nobles table lets give Fall of Rome commands)
    must hold one of its court titles; why not, naming them, or None. Other characters' titles are
    free text (King, Merchant, Spymaster)."""
    nobles = rules_table("nobles")
    kinds = {_title_key(str(k)) for k in nobles["relocate"]["character_kinds"]}
    if _title_key(str(doc.get("kind") or "noble")) not in kinds:
        return None
    titles = {key: str(entry["name"]) for key, entry in nobles["titles"].items()}
    title = doc.get("title")
    if isinstance(title, str) and _title_key(title) in titles:
        return None
    return (
        f"{title!r} is not a court title, and a {doc.get('kind') or 'noble'} gives Fall of Rome commands by his "
        f"title; the court titles: {', '.join(titles.values())}"
    )


def _whole_amounts(fields: Mapping[str, Field], doc: dict[str, Any]) -> None:
    """A number written with a zero fraction (`treasury = 40.0`) is the whole number, as `money`
    keeps every amount (40, not 40.0): so `yak show --json` prints what the GM meant."""
    for name, value in doc.items():
        spec = fields.get(name)
        if spec is not None:
            doc[name] = _whole(spec, value)


def _whole(spec: Field, value: Any) -> Any:
    if spec.kind == NUMBER and type(value) is float and value.is_integer() and abs(value) <= 2**53:
        return int(value)
    if spec.kind == LIST and spec.items is not None and type(value) is list:
        return [_whole(spec.items, item) for item in value]
    if spec.kind == MAP and spec.values is not None and type(value) is dict:
        return {key: _whole(spec.values, item) for key, item in value.items()}
    if spec.kind == RECORD and spec.fields and type(value) is dict:
        _whole_amounts(spec.fields, value)
    return value


def _step(holder: Any, step: str | int) -> Any:
    if isinstance(holder, dict) and isinstance(step, str):
        return holder.get(step)
    if isinstance(holder, list) and isinstance(step, int) and 0 <= step < len(holder):
        return holder[step]
    return None


def _unknown_fields(spec: Field, value: Any, path: str) -> Iterator[str]:
    """Paths of keys a record does not know (records with no listed fields are open)."""
    if spec.kind == RECORD and isinstance(value, dict) and spec.fields:
        for key, item in value.items():
            inner = spec.fields.get(key)
            if inner is None:
                yield f"{path}.{key}"
            else:
                yield from _unknown_fields(inner, item, f"{path}.{key}")
    elif spec.kind == LIST and isinstance(value, list) and spec.items is not None:
        for index, item in enumerate(value):
            yield from _unknown_fields(spec.items, item, f"{path}[{index}]")
    elif spec.kind == MAP and isinstance(value, dict) and spec.values is not None:
        for key, item in value.items():
            yield from _unknown_fields(spec.values, item, f"{path}.{key}")


def load_world_text(text: str, source: str = "world.toml") -> dict[str, dict[str, Any]]:
    """The TinyDB-format state of a world file's text; AuthoringError lists every problem."""
    return _Loader(text, source).load()


def load_world_file(path: str | Path) -> dict[str, dict[str, Any]]:
    source = Path(path)
    try:
        text = source.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise AuthoringError(str(source), [Problem(str(source), None, "file", None, "", "is not UTF-8 text")]) from None
    return load_world_text(text, str(source))


def template_text() -> str:
    """The commented starting file of `yak new --template`."""
    return TEMPLATE_FILE.read_text(encoding="utf-8")
