"""The World screen (GM, `w`): every table the GM authors with its count, the selected table's
documents with a search box, and the GM's acts on them: `a` adds one (the editor, empty: `gm-add`),
`e` (or `E`, as on every screen) edits the highlighted one (`gm-set`), `d` removes it
(`gm-remove`, confirmed in the command dialog, which says first what still names it). Every
change is a command: chronicled, undoable.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, NamedTuple

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Input

from yak_tui.app.kit import YakScreen
from yak_tui.app.kit.common import Panel, YakInput, YakTable
from yak_tui.app.kit.docform import field_text
from yak_tui.areas.court import EDITABLE_TABLES
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.documents import SCHEMAS
from yak_tui.kernel.world.fields import BOOL, INT, NUMBER, TEXT
from yak_tui.kernel.world.model import World

TABLES = EDITABLE_TABLES  # the tables `gm-set`, `gm-add` and `gm-remove` take
DETAIL_FIELDS = 4  # scalar fields shown beside a document's name
SCALARS = (TEXT, INT, NUMBER, BOOL)


class DocumentRow(NamedTuple):
    id: str
    name: str
    details: str


class WorldView(NamedTuple):
    tables: tuple[tuple[str, int], ...]
    table: str
    rows: tuple[DocumentRow, ...]
    total: int  # documents in the table, before the search


def _details(table: str, doc: dict[str, Any]) -> str:
    parts: list[str] = []
    for name, spec in SCHEMAS[table].fields.items():
        if name == "name" or spec.kind not in SCALARS or doc.get(name) in (None, ""):
            continue
        parts.append(f"{name.replace('_', ' ')} {field_text(spec, doc[name])}")
        if len(parts) == DETAIL_FIELDS:
            break
    return " · ".join(parts)


def world_view(world: World, table: str, search: str) -> WorldView:
    """Every table's count, and `table`'s documents whose id, name or shown values hold `search`."""
    needle = search.strip().lower()
    rows = []
    documents = world.table(table)
    for doc_id in sorted(documents):
        doc = documents[doc_id]
        row = DocumentRow(doc_id, str(doc.get("name") or ""), _details(table, doc))
        if not needle or needle in f"{row.id}\n{row.name}\n{row.details}".lower():
            rows.append(row)
    return WorldView(tuple((name, len(world.table(name))) for name in TABLES), table, tuple(rows), len(documents))


class WorldScreen(YakScreen):
    """A pushed screen (key w, or the palette): escape goes back to where you were."""

    SCREEN_NAME = "world"
    CSS_PATH = Path(__file__).with_name("world.tcss")
    ACTS = frozenset({"add", "edit", "remove"})  # the GM's screen: never an observer's
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Back"),
        Binding("a", "add", "Add"),
        Binding("e,E", "edit", "Edit", key_display="e"),
        Binding("d,delete", "remove", "Remove", key_display="d"),
        Binding("slash", "search", "Search", key_display="/"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.table = TABLES[0]
        self.search = ""

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="world-columns"):
            yield Panel("Tables", YakTable(id="world-tables", zebra=False), id="world-tables-panel")
            with Vertical(id="world-main"):
                yield YakInput(placeholder="search: id, name or any value shown (/)", id="world-search", compact=True)
                yield Panel("Documents", YakTable(id="world-docs"), id="world-docs-panel")

    def on_mount(self) -> None:
        super().on_mount()
        self.query_one("#world-docs").focus()

    def build_view(self, world: World, identity: Identity) -> WorldView | None:
        return world_view(world, self.table, self.search) if identity.is_gm else None

    def paint_view(self, view: WorldView | None) -> None:
        if view is None:
            self.notify("Only the GM sees the World screen.", severity="warning")
            self.dismiss()
            return
        self.query_one("#world-tables", YakTable).fill(
            ["Table", ("Count", "count")],
            [
                (name, [Text(name, style="bold" if name == view.table else ""), Text(str(count), justify="right")])
                for name, count in view.tables
            ],
        )
        panel = self.query_one("#world-docs-panel", Panel)
        shown = f"{len(view.rows)} of {view.total}" if self.search.strip() else str(view.total)
        panel.border_title = f"{view.table} ({shown})"
        panel.border_subtitle = "a add · e edit · d remove"
        self.query_one("#world-docs", YakTable).fill(
            ["Id", "Name", "Details"],
            [
                (
                    f"{view.table}:{row.id}",
                    [Text(row.id, style="bold"), row.name or "—", Text(row.details, style="dim")],
                )
                for row in view.rows
            ],
            empty=f"No document in {view.table} holds {self.search.strip()!r}."
            if self.search.strip()
            else f"{view.table} is empty: a adds one.",
        )

    # -- choosing ------------------------------------------------------------------------------------
    @on(DataTable.RowHighlighted, "#world-tables")
    def _table_chosen(self, event: DataTable.RowHighlighted) -> None:
        table = str(event.row_key.value)
        if table in TABLES and table != self.table:
            self.table = table
            self.refresh_view(self.yak.world)

    @on(DataTable.RowSelected, "#world-tables")
    def _table_entered(self) -> None:
        self.query_one("#world-docs").focus()

    @on(Input.Changed, "#world-search")
    def _searched(self, event: Input.Changed) -> None:
        self.search = event.value
        self.refresh_view(self.yak.world)

    @on(Input.Submitted, "#world-search")
    def _search_done(self) -> None:
        self.query_one("#world-docs").focus()

    def action_search(self) -> None:
        self.query_one("#world-search").focus()

    # -- acting --------------------------------------------------------------------------------------------
    def edit_target(self) -> tuple[str, str] | None:
        key = self.query_one("#world-docs", YakTable).cursor_row_key()
        if not key or isinstance(self.focused, Input):
            return None
        table, _, doc_id = key.partition(":")
        return (table, doc_id) if self.yak.world.find(table, doc_id) is not None else None

    def action_edit(self) -> None:
        """Here `e` always edits (or says there is nothing to): it never leaves for the espionage screen."""
        self.yak.action_edit_row()

    def action_add(self) -> None:
        self.yak.open_editor(self.table)

    def action_remove(self) -> None:
        target = self.edit_target()
        if target is None:
            self.notify(f"No document of {self.table} is highlighted.", severity="warning")
            return
        table, doc_id = target
        name = self.yak.world.display_name(table, doc_id)
        self.yak.open_command(
            "gm-remove",
            {"table": table, "id": doc_id},
            hidden=("table", "id"),
            title=f"Remove {name} from {table}",
            intro="Only a document nothing else names can go; the chronicle records it, u undoes it.",
        )

    def action_close(self) -> None:
        self.dismiss()
