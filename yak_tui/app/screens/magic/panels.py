"""The casting screen's panels: the setup form with what carries into the Power roll, the odds of
the whole casting, one panel per stage (its odds, its die by hand, its dice tray) and the chronicle
the casting wrote. Each draws what it is given (`show(...)`); the screen runs the casting and
says which panel shows what when.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Button, Label, Static

from yak_tui.app.kit.common import Panel, YakInput
from yak_tui.app.kit.dice import DiceTray
from yak_tui.app.kit.odds import odds_row
from yak_tui.app.kit.paramform import ParamForm
from yak_tui.app.kit.toggle import Toggle
from yak_tui.areas import magic as casting_views
from yak_tui.areas.magic import STAGES
from yak_tui.kernel.play import views
from yak_tui.kernel.world.numbers import counted

TONE_STYLE = {"good": "$success", "ok": "$primary", "warn": "$warning", "bad": "$error"}
NUMBERS = "①②③"


def band_rows(stage: str, rows: tuple[tuple[str, float], ...], width: int = 8, dim: bool = False) -> Content:
    """A stage's bands (or "effect" / "carry" values) with a bar each, coloured by how good it is."""
    if not rows:
        return Content.styled("No odds for these values yet.", "italic dim")
    label_width = max(len(label) for label, _ in rows)
    lines = []
    for band, p in rows:
        if stage == "effect":
            tone = casting_views.effect_tone(band)
        elif stage == "carry":
            tone = casting_views.carry_tone(band)
        else:
            tone = casting_views.band_tone(stage, band)
        lines.append(
            odds_row(
                band,
                p,
                label_width=label_width,
                width=width,
                style="$foreground-muted" if dim else TONE_STYLE[tone],
                shown_style="bold" if p and not dim else "dim",
            )
        )
    return Content("\n").join(lines)


class SetupPanel(Panel):
    """The casting's form (mage, power source, the GM's modifiers), what carries into Power, dice by
    hand, why it cannot be cast yet, and the Cast / New casting buttons."""

    def __init__(
        self, fields: Sequence[views.ParamField], preset: dict[str, Any], hidden: tuple[str, ...], by_hand: bool
    ) -> None:
        super().__init__("Cast a spell", id="cast-setup")
        self._form = (tuple(fields), preset, hidden)
        self._by_hand = by_hand

    def compose(self) -> ComposeResult:
        fields, preset, hidden = self._form
        yield ParamForm(fields, preset, hidden, id="cast-form")
        yield Static(id="cast-carry")
        with Horizontal(id="cast-hand-row"):
            yield Label("Dice by hand (type each stage's die)", id="cast-by-hand-label")
            yield Toggle(value=self._by_hand, id="cast-by-hand")
        yield Static("", id="cast-problem", markup=False)
        with Horizontal(id="cast-buttons"):
            yield Button("Cast", id="cast-run", variant="primary", compact=True, disabled=True)
            yield Button("New casting", id="cast-again", compact=True)

    def show(self, setup: casting_views.CastSetup) -> None:
        """The mage's ranks and what his power source carries into the Power roll."""
        carry = self.query_one("#cast-carry", Static)
        if not setup.caster:
            carry.update(Content.styled("Choose the mage and name his power source.", "italic dim"))
            return
        ranks = "  ".join(f"{casting_views.STAGE_TITLES[s]} {r}" for s, r in setup.ranks)
        carry_style = "bold $success" if setup.carry > 0 else "bold $warning" if setup.carry < 0 else "dim"
        carry.update(
            Content.assemble(
                ("Ranks  ", "dim"), (ranks, "bold"), "\n", ("Carry  ", "dim"), (setup.carry_text, carry_style)
            )
        )

    def show_problem(self, text: str) -> None:
        """Why it cannot be cast (or filed) yet; nothing hides the line."""
        widget = self.query_one("#cast-problem", Static)
        widget.update(text)
        widget.set_class(bool(text), "-shown")


class OddsPanel(Panel):
    """The odds of the whole casting: its effect, and the next Power roll's carry from this source."""

    def __init__(self) -> None:
        super().__init__("Odds of this casting", Static(id="cast-overall"), id="cast-odds")

    def show(self, setup: casting_views.CastSetup) -> None:
        overall = self.query_one("#cast-overall", Static)
        if not setup.caster:
            overall.update(Content.styled("The odds show once the mage and the source are chosen.", "italic dim"))
            return
        overall.update(
            Content("\n").join(
                [
                    Content.styled("Effect", "bold $primary"),
                    band_rows("effect", setup.effect_odds, width=10),
                    Content(""),
                    Content.styled(f"Next Power with {setup.source}", "bold $primary"),
                    band_rows("carry", setup.next_carry_odds, width=10),
                ]
            )
        )


class StagePanel(Panel):
    """One stage (Power, Control, Resolution): its odds given the dice before it, its die typed by
    hand, and the tray its die lands in."""

    def __init__(self, index: int) -> None:
        self.stage = STAGES[index]
        super().__init__(
            f"{NUMBERS[index]} {casting_views.STAGE_TITLES[self.stage]}", id=f"stage-{self.stage}", classes="stage"
        )

    def compose(self) -> ComposeResult:
        stage = self.stage
        with Horizontal(classes="stage-row"):
            with Vertical(classes="stage-odds"):
                yield Static(id=f"odds-{stage}")
                with Horizontal(classes="die-row", id=f"die-row-{stage}"):
                    yield Label(f"{casting_views.STAGE_TITLES[stage]} die", classes="die-label")
                    yield YakInput(
                        placeholder="1-6, enter", id=f"die-{stage}", type="integer", max_length=1, compact=True
                    )
            yield DiceTray(id=f"tray-{stage}", classes="stage-tray")

    @property
    def tray(self) -> DiceTray:
        return self.query_one(f"#tray-{self.stage}", DiceTray)

    @property
    def die_row(self) -> Horizontal:
        return self.query_one(f"#die-row-{self.stage}", Horizontal)

    def show(self, rows: tuple[tuple[str, float], ...], given: str = "") -> None:
        """The stage's odds, given the naturals of the stages before it ("" before any roll)."""
        self.query_one(f"#odds-{self.stage}", Static).update(band_rows(self.stage, rows))
        self.border_subtitle = f"odds given {given}" if given else "odds before the roll"

    def note(self, text: str, subtitle: str | None = None) -> None:
        """A line instead of the odds (not yet known, not rolled); the subtitle too when given."""
        self.query_one(f"#odds-{self.stage}", Static).update(Content.styled(text, "italic dim"))
        if subtitle is not None:
            self.border_subtitle = subtitle

    def clear(self) -> None:
        """Back to a new casting: no die asked for, no tray, neither active nor skipped."""
        self.die_row.display = False
        self.tray.display = False
        self.remove_class("-active", "-skipped")


class ChroniclePanel(Panel):
    """The chronicle lines the casting wrote; consequences still to describe stand out."""

    def __init__(self) -> None:
        super().__init__("Chronicle", Static(id="cast-result"), id="cast-chronicle")

    def show(self, result_lines: Sequence[str], pending: Sequence[tuple[str, str]], gm: bool) -> None:
        lines: list[Content] = []
        waiting = {text for _, text in pending}
        for text in result_lines:
            shown_pending = text in waiting
            lines.append(
                Content.assemble(
                    ("• ", "$warning" if shown_pending else "$primary"), (text, "italic" if shown_pending else "")
                )
            )
        if pending and gm:
            lines.append(Content.assemble(("ctrl+f", "bold $accent"), (" describe a consequence", "dim")))
        count = len(pending)
        self.border_subtitle = f"{counted(count, 'consequence')} for the GM to describe" if count else ""
        self.query_one("#cast-result", Static).update(Content("\n").join(lines))
