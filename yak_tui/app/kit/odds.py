"""Odds drawn one way on every screen: a chance is a bar of `█` on a dotted track and its percentage.

`odds_bar` is the bar alone (the market's competition preview lines it up with names),
`odds_row` a labelled line (`Success  ██████····  62.5%`, the label dimmed when the chance is
nil), `odds_content` a command's whole outcome table (the command and spy dialogs). The casting
screen's stage bands and the map's Incite/Usurp odds are `odds_row`s with their own colours.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from textual.content import Content

if TYPE_CHECKING:
    from yak_tui.kernel.play import views


def percent(p: float) -> str:
    """A chance as a right-aligned percentage with one decimal: ` 62.5%`, `100.0%`."""
    return f"{p * 100:5.1f}%"


def odds_bar(p: float, width: int, style: str = "$primary") -> Content:
    """`p` (0..1) as `width` cells: filled in `style`, the rest a dim dotted track."""
    filled = round(p * width)
    return Content.assemble(("█" * filled, style), ("·" * (width - filled), "dim"))


def odds_row(
    label: str,
    p: float,
    *,
    label_width: int,
    width: int,
    style: str = "$primary",
    shown: str | None = None,
    shown_style: str = "",
    gap: str = " ",
) -> Content:
    """`label` padded to `label_width`, the bar, and the chance (`shown`, or `percent(p)`)."""
    return Content.assemble(
        (label.ljust(label_width), "" if p else "dim"),
        gap,
        odds_bar(p, width, style),
        (f" {percent(p) if shown is None else shown}", shown_style),
    )


def outcome_style(label: str) -> str:
    """Red for failure or capture, green for success, the primary colour for anything between."""
    return "$error" if "fail" in label or "captured" in label else "$success" if "succe" in label else "$primary"


def odds_content(
    odds: views.OddsView | None, width: int = 76, command: str = "", params: Mapping[str, Any] | None = None
) -> Content:
    """Each outcome with a bar and its exact probability, labelled in words (`kernel.play.outcomes`,
    as `command` words them for `params`); two columns when there is room."""
    if odds is not None and not odds.rows and odds.notes:
        return Content("\n").join(Content(line) for line in odds.notes)
    if odds is None or not odds.rows:
        return Content.styled("No odds for these values yet.", "italic dim")
    from yak_tui.kernel.play.outcomes import odds_label

    extras = [odds_label(label, p, command, params) for label, p in odds.extra]
    said = [label for label, with_chance in extras if not with_chance]  # a certainty, told as a sentence
    odds = odds._replace(
        rows=tuple((odds_label(label, p, command, params)[0], p) for label, p in odds.rows),
        extra=tuple((label, p) for (label, with_chance), (_, p) in zip(extras, odds.extra, strict=True) if with_chance),
    )
    label_width = max(len(label) for label, _ in odds.rows)
    columns = 2 if width >= 2 * (label_width + 18) + 3 and len(odds.rows) > 3 else 1
    bar_width = 10 if columns == 2 else 24
    cells = [
        odds_row(label, p, label_width=label_width, width=bar_width, style=outcome_style(label))
        for label, p in odds.rows
    ]
    rows = (len(cells) + columns - 1) // columns
    lines = []
    for index in range(rows):
        parts = [cells[index + column * rows] for column in range(columns) if index + column * rows < len(cells)]
        lines.append(Content("   ").join(parts))
    for label, p in odds.extra:
        lines.append(Content.assemble((f"{label}: ", "bold"), (f"{p * 100:.1f}%", "bold $primary")))
    lines.extend(Content.styled(f"{sentence[0].upper()}{sentence[1:]}.", "bold") for sentence in said)
    lines.extend(Content(line) for line in odds.notes)
    return Content("\n").join(lines)
