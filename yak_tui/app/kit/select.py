"""`YakSelect`: a form's dropdown that takes the letters typed into it.

Textual's Select drops a letter typed while its list is closed, and when the list is open it
searches the blank line too: "Corvin" typed into a list whose blank line reads "(choose)" went to
that line on `c`, and enter then emptied the field ("is required"). Here a letter typed on a closed
list opens it and searches, and a search never lands on the blank line: a keystroke goes to the
field the focus shows, and choosing with it never clears a value.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Select
from textual.widgets._select import SelectCurrent, SelectOverlay

LIST_ROWS = 12  # Textual's most rows for an open list


class _Overlay(SelectOverlay):
    def __init__(self, blank: bool, type_to_search: bool = True) -> None:
        super().__init__(type_to_search=type_to_search)
        self._has_blank = blank

    def _find_search_match(self, query: str) -> int | None:
        found = super()._find_search_match(query)
        if found != 0 or not self._has_blank:
            return found
        query = query.lower()  # the blank line matched: the best match among the real options
        best: tuple[int, int] | None = None
        for index, option in enumerate(self._options):
            prompt = option.prompt
            at = (prompt.plain if isinstance(prompt, Text) else str(prompt)).lower().find(query)
            if index and at != -1 and (best is None or at < best[0]):
                best = (at, index)
        return best[1] if best else None


class YakSelect(Select[Any]):
    """A Select that opens and searches on the first letter typed into it (see the module); in a
    dialog its open list stays inside the dialog's border (it scrolls instead)."""

    def watch_expanded(self, expanded: bool) -> None:
        box = next((node for node in self.ancestors if isinstance(node, Widget) and node.has_class("dialog")), None)
        if not expanded or box is None:
            return
        # Rows between this field and the dialog's bottom border (the list opens below the field).
        room = box.region.bottom - 1 - self.region.bottom
        self.query_one(_Overlay).styles.max_height = max(3, min(LIST_ROWS, room))

    def compose(self) -> ComposeResult:
        yield SelectCurrent(self.prompt)
        yield _Overlay(self._allow_blank, type_to_search=self._type_to_search).data_bind(compact=Select.compact)

    def check_consume_key(self, key: str, character: str | None = None) -> bool:
        return character is not None and character.isprintable() and not character.isspace()

    async def _on_key(self, event: events.Key) -> None:
        character = event.character
        if self.expanded and event.key == "enter":  # typed before the open list took the focus
            event.stop()
            event.prevent_default()
            self.query_one(_Overlay).action_select()
            return
        if character is None or not event.is_printable or character.isspace():
            return
        event.stop()
        event.prevent_default()
        overlay = self.query_one(_Overlay)
        if not self.expanded:
            self.action_show_overlay()
            overlay._search_query = ""
        # Until the list has the focus (it takes it on the next turn), the letters come here.
        overlay._search_query += character
        found = overlay._find_search_match(overlay._search_query)
        if found is not None:
            overlay.select(found)
