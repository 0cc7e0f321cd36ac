"""Small shared widgets: a titled panel, number formatting and fill bars, and (imported on first
use, so the dashboard does not pay for DataTable and Input at startup) `YakTable`, a DataTable
that refills in place, and `YakInput`, an Input that obeys the app's cursor-blink setting."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.containers import Vertical

from yak_tui.kernel.world.numbers import counted

# Colours that read on dark and light backgrounds alike (for Rich cells, which cannot use $variables).
ROOMY = "#4C9A52"
NEARLY = "#C9962B"
FULL = "#D0524A"


class Panel(Vertical):
    """A bordered block with a title: the unit every screen is made of.

    `Panel("Kingdoms", DataTable(...), id="kingdoms")`; CSS class `panel`.
    """

    def __init__(self, title: str, *children: Any, id: str | None = None, classes: str = "") -> None:
        super().__init__(*children, id=id, classes=f"panel {classes}".strip())
        self.border_title = title


def num_of(value: Any, noun: str) -> str:
    """A count with its noun in the right number ("1 regiment", "3 regiments"; "— regiments" for
    what you may not see): never "regiment(s)"."""
    return f"— {counted(2, noun).split(' ', 1)[1]}" if value is None else counted(value, noun)


def num(value: Any) -> str:
    """Ducats and counts as a GM writes them: 42, 12.5, and a dash for what you may not see."""
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:g}" if not value.is_integer() else str(int(value))
    return str(value)


def bar(fraction: float, width: int = 10) -> Text:
    """A fill bar drawn with eighth blocks, e.g. for a sector's potential in use."""
    fraction = max(0.0, min(1.0, fraction))
    eighths = round(fraction * width * 8)
    full, part = divmod(eighths, 8)
    text = "█" * full + (" ▏▎▍▌▋▊▉"[part] if part else "")
    style = FULL if fraction >= 1 else NEARLY if fraction >= 0.75 else ROOMY
    return Text(text.ljust(width, "·"), style=style)


def sync_select(select: Any, options: list[tuple[str, Any]], value: Any = None) -> None:
    """Give a filter Select these (label, value) choices and `value` (kept only if offered), quietly:
    no `Changed` is posted, and unchanged choices are left alone (rebuilding a Select's overlay
    costs a frame)."""
    from textual.widgets import Select

    with select.prevent(Select.Changed):
        if getattr(select, "_yak_options", None) != options:
            select._yak_options = options
            select.set_options(options)
        if value is not None and value is not Select.NULL and any(v == value for _, v in options):
            select.value = value


def __getattr__(name: str) -> Any:
    """`YakTable` and `YakInput` load with their Textual widgets only when a screen asks for them."""
    if name == "YakTable":
        from yak_tui.app.kit.table import YakTable

        return YakTable
    if name == "YakInput":
        from yak_tui.app.kit.table import YakInput

        return YakInput
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
