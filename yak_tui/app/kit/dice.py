"""The dice tray: d6 faces tumble, then land on the naturals the rule core already recorded.

The result is fixed before the first frame: the widget is handed `RollView`s (from
`yak_tui.kernel.play.views.roll_views`) and the tumbling faces are decoration drawn from a private
`random.Random`, never from the game's dice. Any key or click skips to the result; with
`TEXTUAL_ANIMATIONS=none` or the app's animation setting off it shows the result at once.
Frames come at most ~12 a second, and only this widget repaints, so it stays smooth over SSH.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from textual import events
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from yak_tui.kernel.play.views import RollView

# Pip positions (row, col) on a 3×3 grid for each face.
PIPS: dict[int, frozenset[tuple[int, int]]] = {
    1: frozenset({(1, 1)}),
    2: frozenset({(0, 2), (2, 0)}),
    3: frozenset({(0, 2), (1, 1), (2, 0)}),
    4: frozenset({(0, 0), (0, 2), (2, 0), (2, 2)}),
    5: frozenset({(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)}),
    6: frozenset({(0, 0), (1, 0), (2, 0), (0, 2), (1, 2), (2, 2)}),
}
DIE_WIDTH = 9
DIE_HEIGHT = 5
# Frame delays in seconds: quick tumbling that slows down before the dice settle (~1.1 s, ≤ 12 fps).
FRAME_DELAYS = (0.08, 0.08, 0.08, 0.08, 0.08, 0.09, 0.09, 0.1, 0.11, 0.13, 0.15)


def face_lines(value: int | None) -> list[str]:
    """The five text lines of one die; None draws a '?' (a blind roll's hidden natural), and a
    natural no d6 shows (a d31 swing, a d100 discovery) is written as its number."""
    rows = []
    for r in range(3):
        cells = [" "] * 7
        if value is None or value not in PIPS:
            if r == 1:
                text = "?" if value is None else str(value)[:7]
                start = (7 - len(text) + 1) // 2
                cells[start : start + len(text)] = list(text)
        else:
            for c in range(3):
                if (r, c) in PIPS[value]:
                    cells[1 + 2 * c] = "●"
        rows.append("│" + "".join(cells) + "│")
    return ["╭───────╮", *rows, "╰───────╯"]


def band_style(roll: RollView) -> str:
    """Colour of a landed roll: failures in the error colour, successes in the success colour."""
    words = f"{roll.band} {roll.outcome}".lower()
    if "fail" in words or "captured" in words:
        return "bold $error"
    if "succe" in words or "escape" in words:
        return "bold $success"
    return "bold $primary"


class DiceTray(Widget, can_focus=True):
    """Shows rolls; `show(rolls, animate)` starts a tumble that always lands on the recorded naturals."""

    DEFAULT_CSS = """
    DiceTray {
        height: auto;
        min-height: 1;
        padding: 0 1;
    }
    DiceTray:focus {
        background-tint: $foreground 4%;
    }
    """

    class Landed(Message):
        """The dice have settled on the result (at once when animations are off)."""

        def __init__(self, tray: DiceTray) -> None:
            super().__init__()
            self.tray = tray

    frame: reactive[int] = reactive(0, layout=False)
    animating: reactive[bool] = reactive(False)

    def __init__(self, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(id=id, classes=classes)
        self.rolls: tuple[RollView, ...] = ()
        self._faces: list[list[int]] = []  # per frame, the decorative faces of every die
        self._timer: object | None = None

    # -- driving ------------------------------------------------------------------------------------
    def show(self, rolls: Sequence[RollView], animate: bool = True) -> None:
        """Display these rolls; tumble first if `animate`. The landed faces are the rolls' naturals."""
        self.rolls = tuple(rolls)
        dice = sum(len(r.naturals) if r.naturals is not None else 1 for r in self.rolls)
        # Decoration only: a private generator seeded from the result, so a replay looks the same.
        seed = sum((i + 1) * n for i, r in enumerate(self.rolls) for n in (r.naturals or (0,)))
        rng = random.Random(seed)
        self._faces = [[rng.randint(1, 6) for _ in range(dice)] for _ in FRAME_DELAYS]
        self.frame = 0
        self.animating = bool(animate and self.rolls)
        self.refresh(layout=True)
        if self.animating:
            self.focus()
            self._schedule()
        else:
            self._land()

    def _schedule(self) -> None:
        if self.frame < len(FRAME_DELAYS):
            self._timer = self.set_timer(FRAME_DELAYS[self.frame], self._next_frame, name="dice-frame")
        else:
            self._land()

    def _next_frame(self) -> None:
        if not self.animating:
            return
        self.frame += 1
        self._schedule()

    def skip(self) -> None:
        """Jump straight to the result (any key does this while the dice tumble)."""
        if self.animating:
            self._land()

    def _land(self) -> None:
        self.animating = False
        self.frame = len(FRAME_DELAYS)
        self.refresh(layout=True)
        self.post_message(self.Landed(self))

    def on_key(self, event: events.Key) -> None:
        if self.animating:
            event.stop()
            event.prevent_default()
            self.skip()

    def on_click(self, event: events.Click) -> None:
        self.skip()

    # -- drawing ------------------------------------------------------------------------------------
    def render(self) -> Content:
        if not self.rolls:
            return Content.styled("No dice rolled yet.", "dim italic")
        lines: list[Content] = []
        die_index = 0
        tumbling = self.animating and self.frame < len(FRAME_DELAYS)
        for roll in self.rolls:
            lines.append(Content.styled(roll.purpose or "roll", "bold"))
            values: list[int | None]
            if roll.naturals is None:
                values = [None] * max(1, roll.ghosts)  # ghost dice: it rolled, the faces stay hidden
            else:
                values = list(roll.naturals)
            shown: list[int | None] = []
            for value in values:
                if tumbling and value is not None:
                    shown.append(self._faces[self.frame][die_index])
                else:
                    shown.append(value)
                die_index += 1
            style = "$foreground-muted" if tumbling else band_style(roll) if roll.naturals is not None else "$secondary"
            bounce = 1 if tumbling and self.frame % 2 else 0
            faces = [face_lines(v) for v in shown]
            summary = self._summary(roll, tumbling)
            for row in range(DIE_HEIGHT + 1):
                parts: list[str | tuple[str, str] | Content] = []
                for index, face in enumerate(faces):
                    sway = 1 if tumbling and (self.frame + index) % 3 == 1 else 0
                    line_index = row - bounce
                    text = face[line_index] if 0 <= line_index < DIE_HEIGHT else " " * DIE_WIDTH
                    text = (" " * sway + text)[: DIE_WIDTH + 1].ljust(DIE_WIDTH + 1)
                    parts.append((text, style))
                parts.append(" ")
                if row < len(summary):
                    parts.append(summary[row])
                lines.append(Content.assemble(*parts))
        return Content("\n").join(lines)

    def _summary(self, roll: RollView, tumbling: bool) -> list[Content]:
        """Lines beside the dice: naturals, modifiers with reasons, total and band (not while tumbling)."""
        if tumbling:
            return [Content(""), Content(""), Content.styled("rolling…", "italic $foreground-muted")]
        if roll.naturals is None:
            return [
                Content(""),
                Content.styled("blind roll", "italic $secondary"),
                Content.assemble(("→ ", "dim"), (roll.outcome or "done", "bold $secondary")),
            ]
        naturals = " + ".join(str(n) for n in roll.naturals)
        head = [Content.assemble(("rolled ", "dim"), (naturals, "bold"))]
        if roll.reading and not roll.modifiers:
            # Not a sum (a d100 under a chance, a swing, a price table): the rule's own reading.
            # What the rule says happened ("took 4 ducats", "he is caught"), else the band it fell in.
            tail = [Content.assemble(("→ ", "dim"), (roll.outcome or roll.band, band_style(roll)))]
            if roll.manual:
                tail.append(Content.styled("dice by hand", "italic dim"))
            room = DIE_HEIGHT + 1 - len(head) - len(tail)
            parts = roll.reading.split("; ")
            parts = [*parts[: room - 1], "; ".join(parts[room - 1 :])] if len(parts) > room else parts
            return [*head, *(Content.styled(part, "dim") for part in parts), *tail]
        total = "" if roll.total is None else f"= {roll.total} "
        tail = [Content.assemble((total, "bold"), ("→ ", "dim"), (roll.band or roll.outcome, band_style(roll)))]
        if roll.manual:
            tail.append(Content.styled("dice by hand", "italic dim"))
        mods = [Content.assemble((f"{value:+d} ", "bold"), (f"({reason})", "dim")) for value, reason in roll.modifiers]
        room = DIE_HEIGHT + 1 - len(head) - len(tail)
        if len(mods) > room:
            mods = [*mods[: room - 1], Content.styled(f"… {len(mods) - room + 1} more modifiers", "dim")]
        return [*head, *mods, *tail]

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        if not self.rolls:
            return 1
        return sum(1 + DIE_HEIGHT + 1 for _ in self.rolls)
