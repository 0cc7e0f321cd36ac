"""Small shared widgets: a titled panel, number formatting and fill bars, and (imported on first
use, so the dashboard does not pay for DataTable and Input at startup) `YakTable`, a DataTable
that refills in place, and `YakInput`, an Input that obeys the app's cursor-blink setting."""

from __future__ import annotations

from collections.abc import Sequence
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


# A picker of more choices than this offers one page of them and a way to the pages before and after
# (issue 30: the GM's Reports at 1000x built a Select of 4,002 recipients, every option a widget).
PICKER_PAGE = 200
PAGE_MARK = "\x00page:"  # the value of a "the next/previous page" option: the index of its first choice


def paged_options(choices: Sequence[tuple[str, Any]], value: Any, noun: str) -> list[tuple[str, Any]]:
    """The options a picker of `choices` shows with `value` chosen: all of them, or, past
    `PICKER_PAGE`, the page that holds `value` with an option for the page before and the page after
    (their value is `PAGE_MARK` and the index of that page's first choice: `page_choice` reads it)."""
    if len(choices) <= PICKER_PAGE:
        return list(choices)
    at = next((n for n, (_, v) in enumerate(choices) if v == value), 0)
    start = at - at % PICKER_PAGE
    end = min(start + PICKER_PAGE, len(choices))
    options = list(choices[start:end])
    if start:
        before = start - PICKER_PAGE
        options.insert(0, (f"◂ {noun} {before + 1:,}-{start:,} of {len(choices):,}", f"{PAGE_MARK}{before}"))
    if end < len(choices):
        last = min(end + PICKER_PAGE, len(choices))
        options.append((f"▸ {noun} {end + 1:,}-{last:,} of {len(choices):,}", f"{PAGE_MARK}{end}"))
    return options


def page_choice(choices: Sequence[tuple[str, Any]], value: Any) -> Any:
    """The choice a picked option stands for: a page option is the first choice of its page."""
    if isinstance(value, str) and value.startswith(PAGE_MARK):
        index = int(value.removeprefix(PAGE_MARK))
        return choices[index][1] if 0 <= index < len(choices) else None
    return value


def __getattr__(name: str) -> Any:
    """`YakTable` and `YakInput` load with their Textual widgets only when a screen asks for them."""
    if name == "YakTable":
        from yak_tui.app.kit.table import YakTable

        return YakTable
    if name == "YakInput":
        from yak_tui.app.kit.table import YakInput

        return YakInput
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
