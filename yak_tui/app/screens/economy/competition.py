"""The competition tray: the expander's die and every rival's, side by side, tumbling together
and landing on the naturals the rule core recorded; the loser is marked.

It is a `DiceTray` (same `show`, same skip on any key, same `Landed` message), so the command
dialog drives it like any other; only the drawing differs. Rolls that are not competition rolls
(recognised by the purposes `yak_tui.areas.economy.commands` writes: "competition: X expands" and
"competition: Y defends") fall back to the plain tray.
"""

from __future__ import annotations

from typing import NamedTuple

from textual.content import Content

from yak_tui.app.kit.dice import DIE_HEIGHT, DIE_WIDTH, FRAME_DELAYS, DiceTray, face_lines
from yak_tui.kernel.play.views import RollView

PREFIX = "competition: "
EXPANDS = " expands"
DEFENDS = " defends"
CELL = DIE_WIDTH + 3  # the narrowest column: a die and the gap after it
WIDEST = 24  # columns grow to fit names up to this width
LABEL_LINES = 3  # name, total, band


class Contender(NamedTuple):
    name: str
    roll: RollView
    die_index: int  # position among all dice shown (for the tumbling faces)
    expander: bool


def competition_groups(rolls: tuple[RollView, ...]) -> list[list[Contender]]:
    """Split rolls into competitions: each starts with the expander's roll, then its rivals'."""
    groups: list[list[Contender]] = []
    index = 0
    for roll in rolls:
        purpose = roll.purpose
        count = len(roll.naturals) if roll.naturals is not None else 1
        if not purpose.startswith(PREFIX):
            return []
        name = purpose[len(PREFIX) :]
        if name.endswith(EXPANDS):
            groups.append([Contender(name[: -len(EXPANDS)], roll, index, True)])
        elif name.endswith(DEFENDS) and groups:
            groups[-1].append(Contender(name[: -len(DEFENDS)], roll, index, False))
        else:
            return []
        index += count
    return groups


def _fit(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


class CompetitionTray(DiceTray):
    """Every contender's die in one row (wrapping when there are many), name and result below."""

    DEFAULT_CSS = """
    CompetitionTray {
        height: auto;
        min-height: 1;
        padding: 0 1;
    }
    """

    def _groups(self) -> list[list[Contender]]:
        return competition_groups(self.rolls)

    def _cell(self, groups: list[list[Contender]], width: int) -> int:
        """Column width: room for the longest name, narrower when the contenders would not fit."""
        longest = max((len(c.name) + 5 for group in groups for c in group), default=CELL)
        count = max((len(group) for group in groups), default=1)
        cell = max(CELL, min(WIDEST, longest))
        while cell > CELL and cell * count > width:
            cell -= 1
        return cell

    def _per_row(self, width: int, cell: int = CELL) -> int:
        return max(1, max(width, cell) // cell)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        groups = self._groups()
        if not groups:
            return super().get_content_height(container, viewport, width)
        per_row = self._per_row(width, self._cell(groups, width))
        height = 0
        for group in groups:
            rows = (len(group) + per_row - 1) // per_row
            height += 1 + rows * (DIE_HEIGHT + LABEL_LINES + 1)
        return height

    def render(self) -> Content:
        groups = self._groups()
        if not groups:
            return super().render()
        tumbling = self.animating and self.frame < len(FRAME_DELAYS)
        width = self.size.width or 80
        cell = self._cell(groups, width)
        per_row = self._per_row(width, cell)
        lines: list[Content] = []
        for number, group in enumerate(groups, start=1):
            expander = group[0]
            title = f"Competition {number} of {len(groups)}" if len(groups) > 1 else "Competition"
            verdict = Content("")
            if not tumbling:
                loser = next((c for c in group[1:] if c.roll.band == "loses"), None)
                if loser is not None:
                    verdict = Content.assemble(
                        ("  → ", "dim"),
                        (f"{loser.name} loses 1 Size, ", "bold $error"),
                        (f"{expander.name} gains 1", "bold $success"),
                    )
                elif expander.roll.band:
                    verdict = Content.assemble(
                        ("  → ", "dim"), ("nobody rolls lower: the ducats are spent", "bold $warning")
                    )
            lines.append(Content.assemble((title, "bold"), verdict))
            for start in range(0, len(group), per_row):
                lines.extend(self._row(group[start : start + per_row], tumbling, cell))
        return Content("\n").join(lines)

    def _face(self, contender: Contender, tumbling: bool) -> list[str]:
        naturals = contender.roll.naturals
        if naturals is None:
            return face_lines(None)
        if tumbling and self._faces:
            return face_lines(self._faces[self.frame][contender.die_index])
        return face_lines(naturals[0] if naturals else None)

    def _style(self, contender: Contender, tumbling: bool) -> str:
        if tumbling:
            return "$foreground-muted"
        band = contender.roll.band
        if contender.expander:
            return "bold $success" if band == "gains" else "bold $error"
        return "bold $error" if band == "loses" else "$secondary"

    def _row(self, row: list[Contender], tumbling: bool, cell: int) -> list[Content]:
        faces = [self._face(c, tumbling) for c in row]
        styles = [self._style(c, tumbling) for c in row]
        bounce = 1 if tumbling and self.frame % 2 else 0
        out: list[Content] = []
        for line in range(DIE_HEIGHT):
            parts: list[tuple[str, str] | str] = []
            for index, (face, style) in enumerate(zip(faces, styles, strict=True)):
                source = line - (bounce if index % 2 else 0)
                text = face[source] if 0 <= source < DIE_HEIGHT else " " * DIE_WIDTH
                parts.append((text, style))
                room = cell - DIE_WIDTH
                vs = row[index].expander and len(row) > 1 and line == DIE_HEIGHT // 2
                parts.append((" vs".center(room), "bold $primary") if vs else " " * room)
            out.append(Content.assemble(*parts))
        names, totals, bands = [], [], []
        for contender, style in zip(row, styles, strict=True):
            role = "▲ " if contender.expander else ""
            names.append((_fit(role + contender.name, cell - 1).ljust(cell), "bold" if contender.expander else ""))
            roll = contender.roll
            if tumbling or roll.total is None:
                totals.append(("…".ljust(cell), "dim"))
                bands.append((" " * cell, ""))
                continue
            bonus = sum(value for value, _ in roll.modifiers)
            natural = roll.naturals[0] if roll.naturals else roll.total
            total = f"{natural}{bonus:+d} = {roll.total}" if bonus else f"= {roll.total}"
            totals.append((_fit(total, cell - 1).ljust(cell), "bold"))
            bands.append((_fit(roll.band or roll.outcome, cell - 1).ljust(cell), style))
        out.append(Content.assemble(*names))
        out.append(Content.assemble(*totals))
        out.append(Content.assemble(*bands))
        out.append(Content(""))
        return out
