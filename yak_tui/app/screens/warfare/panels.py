"""The siege monitor's panels: each a widget with its own table (and keys) that draws itself from
the monitor's read model (`SiegeMonitor`) in `show(view)`; the screen composes them, keeps the
highlighted siege and place, and acts on the keys.

The sieges (with the surrender-or-sally banner), the highlighted siege's card, its messengers and
smuggling runs, the walled places (enter begins a siege: `PlaceAction`), and raids and looting with
the highlighted place's verdicts (w, v, t, x: `PlaceAction`). The drawing helpers are pure.
"""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from yak_tui.app.kit.common import FULL, NEARLY, ROOMY, Panel, YakTable, num, num_of
from yak_tui.app.kit.running_app import ActingKeys, yak_of
from yak_tui.areas import warfare as monitor
from yak_tui.kernel.play.identity import Identity

BAR_CELLS = 8  # seasons drawn in a countdown bar before it says "+N"
LABEL = 11  # width of the labels of a siege's card
FACES = "⚀⚁⚂⚃⚄⚅"


# --- drawing (pure: cards and tables from the monitor's data) ---------------------------------------


def _pct(p: float | None) -> str:
    return "—" if p is None else f"{p * 100:.0f}%"


def _left_style(left: int | None) -> str:
    return FULL if left is not None and left <= 0 else NEARLY if left == 1 else ROOMY


def countdown_text(card: monitor.SiegeCard) -> Text:
    """▰ for each season the provisions still cover, ▱ for each season already eaten; the number."""
    if not card.active:
        return Text("—", style="dim")
    if not card.effective:
        return Text("not in effect", style=NEARLY)
    left = card.seasons_left
    if left is None:
        return Text("nobody eats", style="dim")
    shown = min(left, BAR_CELLS)
    spent = min(card.seasons, BAR_CELLS - shown)
    more = f"+{left - shown}" if left > shown else ""
    word = "season" if left == 1 else "seasons"
    return Text.assemble(
        ("▰" * shown + more, f"bold {_left_style(left)}"),
        ("▱" * spent, "dim"),
        " " if shown or spent else "",
        (f"{left} {word} left", _left_style(left)),
    )


def _state_text(card: monitor.SiegeCard) -> Text:
    if card.decision_needed:
        return Text(card.state, style=f"bold {FULL}")
    if not card.active:
        return Text(card.state, style="dim")
    return Text(card.state, style=ROOMY if card.effective else NEARLY)


def _blockade_text(card: monitor.SiegeCard) -> Text:
    out = Text()
    out.append("land ", style="")
    out.append("✓" if card.land_blockade else "✗", style=ROOMY if card.land_blockade else FULL)
    if card.port_access or card.sea_blockade:
        out.append("  sea ")
        out.append("✓" if card.sea_blockade else "✗", style=ROOMY if card.sea_blockade else FULL)
    return out


def _row(label: str, *value: str | tuple[str, str] | Content) -> Content:
    return Content.assemble((label.ljust(LABEL), "$foreground-muted"), *value)


def card_content(card: monitor.SiegeCard | None, date: str = "") -> Content:
    """A siege at a glance: fort, both sides, provisions, the countdown, the blockade, the choice."""
    if card is None:
        return Content("\n").join(
            [
                Content.styled("No fort is under siege.", "italic $foreground-muted"),
                Content(""),
                Content.assemble(
                    ("n", "bold $accent"),
                    " on a walled place begins one: pick the fort and the units camped at or next to it.",
                ),
                Content.styled(
                    "A fort with open access to a port holds out until a land and a sea blockade are both in "
                    "place; then every regiment inside eats one provision each season end.",
                    "$foreground-muted",
                ),
            ]
        )
    lines = [
        _row(
            "Walls",
            (f"{card.level_name} (level {card.level})", "bold"),
            f" · {card.province}",
            " · held by ",
            (card.defender, "bold"),
        )
    ]
    lines.append(_row("Besiegers", (card.besieger, "bold")))
    for name, side in card.besiegers:
        lines.append(_row("", "♞ ", name, (f" ({side})", "$foreground-muted")))
    if card.defenders:
        inside = ", ".join(
            f"{d.name}" + (f" ({d.regiments} reg.)" if d.regiments is not None else "") for d in card.defenders
        )
        lines.append(_row("Defenders", inside))
    elif card.active:
        lines.append(_row("Defenders", f"{num_of(card.regiments, 'regiment')} inside"))
    elif card.surrendered:
        lines.append(_row("Defenders", f"surrendered: {', '.join(card.surrendered)}"))
    carried = " carried over" if card.carried_over else ""
    eats = (
        f" · {num_of(card.regiments, 'regiment')} {'eats' if card.regiments == 1 else 'eat'} {card.eats} a season"
        if card.active and card.eats
        else ""
    )
    lines.append(
        _row(
            "Provisions",
            (num(card.provisions), "bold"),
            f" ({num(card.starting_provisions)}{carried} at the start){eats}",
        )
    )
    if card.active:
        lines.append(
            _row(
                "Countdown",
                Content.from_rich_text(countdown_text(card)),
                " at this rate" if card.effective and card.seasons_left is not None else "",
            )
        )
        if card.effective:
            lines.append(
                _row(
                    "Blockade",
                    Content.from_rich_text(_blockade_text(card)),
                    ("  (open port)" if card.port_access else "", "$foreground-muted"),
                    ("  → in effect", "$success"),
                )
            )
        else:
            lines.append(
                _row(
                    "Blockade",
                    Content.from_rich_text(_blockade_text(card)),
                    ("  (open port: both needed)" if card.port_access else "", "$foreground-muted"),
                )
            )
            lines.append(_row("", (f"→ not in effect (missing: {' and '.join(card.missing)})", "$warning")))
        lines.append(_row("Since", f"{card.started} · {num_of(card.seasons, 'season end')} under siege"))
    else:
        lines.append(_row("Ended", f"{card.state} in {card.ended or '?'} (begun {card.started})"))
    if card.decision_needed:
        who = "You must" if card.may_decide else f"{card.defender} must"
        key = " — press y" if card.may_decide else ""
        lines.append(Content(""))
        lines.append(
            Content.assemble(
                ("⚠ SHORT OF PROVISIONS ", "bold $error"),
                (
                    f"{num(card.provisions)} for {num_of(card.regiments, 'regiment')}. {who} choose "
                    f"surrender or sally before {date or 'this season'} closes{key}.",
                    "$error",
                ),
            )
        )
    elif card.decision == "sally" and card.active:
        lines.append(Content(""))
        lines.append(
            Content.styled(
                f"The defenders sallied ({card.decided}): the GM plays out the battle, then "
                "records capture or siege-lift.",
                "$warning",
            )
        )
    return Content("\n").join(lines)


def odds_line(card: monitor.SiegeCard) -> Content:
    """The odds of the next messenger and the next smuggling run, before anyone rolls."""
    if not card.active:
        return Content.styled("The siege is over: no more messengers or smuggling.", "italic $foreground-muted")
    if not card.effective:
        return Content.styled(
            "The siege is not in effect: messengers and provisions pass freely.", "italic $foreground-muted"
        )
    scouts = f"{num_of(len(card.friendly_scouts), 'scout')} helping, {len(card.enemy_scouts)} opposing"
    bribes = ", ".join(f"bribe {b}: {_pct(p)}" if b else _pct(p) for b, p in card.smuggle_odds)
    return Content("\n").join(
        [
            Content.assemble(
                ("Next messenger ", "bold"),
                (_pct(card.messenger_odds), "bold $primary"),
                (f" to get out ({scouts})", "$foreground-muted"),
                ("  g", "bold $accent"),
            ),
            Content.assemble(("Smuggling in    ", "bold"), (bribes, "$primary"), ("  p", "bold $accent")),
        ]
    )


def attempts_content(card: monitor.SiegeCard) -> Content:
    """Each attempt in two lines: what was tried, then the odds, the dice and the result."""
    lines = [odds_line(card)]
    if not card.attempts:
        lines += [
            Content(""),
            Content.styled("No messenger has been sent and no provisions smuggled.", "italic $foreground-muted"),
        ]
    for attempt in reversed(card.attempts):
        title = "Messenger" if attempt.kind == "messenger" else "Smuggling"
        lines.append(Content(""))
        lines.append(
            Content.assemble((f"{attempt.date} ", "$foreground-muted"), (title, "bold"), f" · {attempt.detail}")
        )
        mods = "".join(f" {value:+d}" for value, _ in attempt.modifiers)
        dice = (
            f"{FACES[attempt.natural - 1] if 1 <= attempt.natural <= 6 else ''} {attempt.natural}{mods} = "
            f"{attempt.total} vs {attempt.target}"
            if attempt.natural is not None
            else "—"
        )
        lines.append(
            Content.assemble(
                ("   odds ", "$foreground-muted"),
                (_pct(attempt.odds), "$primary"),
                ("  dice ", "$foreground-muted"),
                (dice, "bold"),
                "  → ",
                (attempt.result, "bold $success" if attempt.success else "bold $error"),
            )
        )
    return Content("\n").join(lines)


def verdicts_content(place: monitor.PlaceView | None, verdicts: monitor.PlaceVerdicts | None) -> Content:
    """What the viewer's forces may do to the highlighted place, and why not."""
    if place is None:
        return Content.styled("No structure you may see.", "italic $foreground-muted")
    head = Content.assemble((place.name, "bold"), f" · {place.kind} · {place.province} · ", (place.controller, "bold"))
    lines = [head]
    if place.state:
        lines.append(Content.styled(place.state, "$warning"))
    if verdicts is None:
        lines.append(Content.styled("Weighing what your forces may do here…", "italic $foreground-muted"))
        return Content("\n").join(lines)
    where = "in its hex" if verdicts.reach == 0 else f"within {verdicts.reach} hex(es)"
    if not verdicts.forces:
        lines.append(
            Content.styled(
                f"None of your forces stands {where}: raids and captures need one there.", "$foreground-muted"
            )
        )
    for item in verdicts.forces:
        force = item.force
        strength = f", {force.regiments} reg." if force.regiments is not None else ""
        lines.append(
            Content.assemble(
                ("♞ ", "$accent"),
                (force.name, "bold"),
                (f" ({force.owner} {force.kind}{strength})", "$foreground-muted"),
            )
        )
        groups: dict[tuple[bool, str], list[str]] = {}
        for verdict in item.verdicts:
            groups.setdefault((verdict.ok, verdict.reason), []).append(verdict.action)
        for (ok, reason), actions in groups.items():
            mark = ("  ✓ ", "bold $success") if ok else ("  ✗ ", "bold $error")
            lines.append(
                Content.assemble(
                    mark, (", ".join(actions), "bold"), (f": {reason}" if reason else "", "" if ok else "$error")
                )
            )
    loot = verdicts.loot
    lines.append(
        Content.assemble(
            ("✓ " if loot.ok else "✗ ", "bold $success" if loot.ok else "bold $error"),
            ("loot", "bold"),
            (f": {loot.reason}" if loot.reason else "", "" if loot.ok else "$error"),
        )
    )
    return Content("\n").join(lines)


def place_flags(place: monitor.PlaceView) -> Text:
    flags = [
        ("destroyed", FULL) if place.destroyed else None,
        ("besieged", FULL) if place.besieged else None,
        ("captured", NEARLY) if place.captured else None,
        ("looted", NEARLY) if place.looted else None,
        ("raided", NEARLY) if place.raided else None,
    ]
    shown = [f for f in flags if f]
    if not shown:
        return Text("—", style="dim")
    out = Text()
    for index, (word, style) in enumerate(shown):
        out.append((" · " if index else "") + word, style=style)
    return out


# --- tables with their own keys -------------------------------------------------------------------


class PlaceAction(Message):
    """A table asks for an action (`raid`, `slave-raid`, `capture`, `loot`, `siege-begin`) on a place."""

    def __init__(self, action: str, pc_id: str) -> None:
        super().__init__()
        self.action = action
        self.pc_id = pc_id


class FortsTable(ActingKeys, YakTable):
    ACTS = frozenset({"act"})  # never an observer's
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "act('siege-begin')", "Begin siege here", show=False)]

    def action_act(self, action: str) -> None:
        key = self.cursor_row_key()
        if key:
            self.post_message(PlaceAction(action, key))


class PlacesTable(ActingKeys, YakTable):
    """Structures: w raids, v raids for slaves, t captures, x loots the highlighted one."""

    ACTS = frozenset({"act"})  # never an observer's

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("w", "act('raid')", "Raid"),
        Binding("v", "act('slave-raid')", "Slave raid"),
        Binding("t", "act('capture')", "Capture"),
        Binding("x", "act('loot')", "Loot"),
    ]

    def action_act(self, action: str) -> None:
        key = self.cursor_row_key()
        if key:
            self.post_message(PlaceAction(action, key))


# --- the panels -------------------------------------------------------------------------------------------


class SiegePanel(Panel):
    """A panel of the monitor: `show(view)` draws it for the acting identity."""

    def show(self, view: monitor.SiegeMonitor) -> None:
        """Draw this panel from the monitor's read model."""

    @property
    def identity(self) -> Identity:
        return yak_of(self).identity


class SiegesPanel(SiegePanel):
    """Every siege the viewer may see, and the banner of defenders who must surrender or sally."""

    def __init__(self) -> None:
        super().__init__("Sieges", YakTable(id="siege-list"), Static(id="decision-banner"), id="sieges")

    def show(self, view: monitor.SiegeMonitor, wide: bool = True) -> None:
        active = view.active
        self.border_title = f"Sieges ({len(active)} active)" if active else "Sieges"
        decide = "y decide · " if view.decisions else ""
        keys = f"n begin · {decide}g messenger · p smuggle · k blockade · l lift" if active else "n begin a siege"
        self.border_subtitle = (
            "" if self.identity.is_observer else f"as orders: {keys}" if self.identity.is_player else keys
        )
        self.fill(view.sieges, wide)
        self._banner(view)

    def fill(self, sieges: tuple[monitor.SiegeCard, ...], wide: bool) -> None:
        """All the columns when there is room (`wide`); otherwise the card tells the rest."""
        columns = ["Fort", "Fortification", "Besieger", "Inside", "Provisions", "Countdown", "Blockade", "State"]
        rows = [(s.id, partial(_siege_cells, s, wide)) for s in sieges]
        if not wide:
            columns = ["Fort", "Prov.", "Countdown", "Blockade", "State"]
        self.query_one("#siege-list", YakTable).fill(columns, rows, empty="No fort is under siege.")

    def _banner(self, view: monitor.SiegeMonitor) -> None:
        banner = self.query_one("#decision-banner", Static)
        due = view.decisions
        banner.display = bool(due)
        lines = []
        for card in due:
            who = "you must choose (y)" if card.may_decide else f"{card.defender} must choose"
            lines.append(
                Content.assemble(
                    ("⚠ ", "bold"),
                    (card.fort, "bold"),
                    f": {num(card.provisions)} provisions for {num_of(card.regiments, 'regiment')}."
                    f" Surrender or sally? {who}; the season cannot close until then.",
                )
            )
        banner.update(Content("\n").join(lines))


def _siege_cells(s: monitor.SiegeCard, wide: bool) -> list[object]:
    """A siege's row (made only when the table draws it: 1,000 sieges at 1000x)."""
    cells: list[object] = [
        Text(s.fort, style="bold"),
        f"{s.level} {s.level_name}",
        s.besieger,
        Text(f"{num(s.regiments)} reg." if s.regiments is not None else "—", justify="right"),
        Text(num(s.provisions), justify="right"),
        countdown_text(s),
        _blockade_text(s),
        _state_text(s),
    ]
    return cells if wide else [cells[0], cells[4], *cells[5:]]


class CardPanel(SiegePanel):
    """The highlighted siege in full (it grows to fill the column when there is none)."""

    def __init__(self) -> None:
        super().__init__("Siege", Static(id="siege-card"), id="card")

    def show(self, view: monitor.SiegeMonitor, card: monitor.SiegeCard | None = None) -> None:
        self.border_title = f"Siege of {card.fort}" if card else "Siege"
        self.border_subtitle = card.id if card else ""
        self.query_one("#siege-card", Static).update(card_content(card, view.date))
        self.set_class(card is None, "grow")


class AttemptsPanel(SiegePanel):
    """The highlighted siege's messengers and smuggling runs, with their odds and dice."""

    def __init__(self) -> None:
        super().__init__(
            "Messengers & smuggling",
            VerticalScroll(Static(id="attempts-text"), can_focus=False),
            id="attempts",
            classes="grow",
        )

    def show(self, view: monitor.SiegeMonitor, card: monitor.SiegeCard | None = None) -> None:
        self.display = card is not None
        if card is not None:
            count = len(card.attempts)
            self.border_title = f"Messengers & smuggling ({count})" if count else "Messengers & smuggling"
            self.query_one("#attempts-text", Static).update(attempts_content(card))


class WalledPanel(SiegePanel):
    """Every walled place: who holds it, port, fortification, provisions; enter (or n) begins a siege."""

    def __init__(self) -> None:
        super().__init__("Walled places", FortsTable(id="forts-table"), id="walled")

    def show(self, view: monitor.SiegeMonitor) -> None:
        self.border_title = f"Walled places ({len(view.forts)})"
        self.border_subtitle = "" if self.identity.is_observer else "enter/n begin a siege"
        self.query_one("#forts-table", FortsTable).fill(
            ["Place", "Held by", "Port", "Fortification", "Provisions", "State"],
            [(f.id, partial(_fort_cells, f)) for f in view.forts],
            empty="No walled place you may see.",
        )


def _fort_cells(f: monitor.FortView) -> list[object]:
    """A walled place's row (made only when the table draws it)."""
    return [
        Text(f.name, style="bold" if f.mine else ""),
        f.controller,
        Text("open", style=NEARLY) if f.port_access else Text("—", style="dim"),
        Text.assemble((str(f.level), "bold"), " ", f.level_name),
        Text(num(f.provisions), justify="right"),
        Text("besieged", style=f"bold {FULL}") if f.siege else Text("at peace", style="dim"),
    ]


def _place_cells(p: monitor.PlaceView) -> list[object]:
    """A structure's row (made only when the table draws it)."""
    return [Text(p.name, style="bold" if p.mine else ""), p.kind, p.controller, place_flags(p)]


class RaidsPanel(SiegePanel):
    """Structures to raid, raid for slaves, capture or loot, and the highlighted one's verdicts."""

    def __init__(self) -> None:
        super().__init__(
            "Raids & looting",
            PlacesTable(id="places-table"),
            VerticalScroll(Static(id="place-verdicts"), id="verdicts-scroll", can_focus=False),
            id="raids",
            classes="grow",
        )

    def show(self, view: monitor.SiegeMonitor) -> None:
        self.border_subtitle = "" if self.identity.is_observer else "w raid · v slaves · t capture · x loot"
        self.query_one("#places-table", PlacesTable).fill(
            ["Place", "Kind", "Held by", "Lately"],
            [(p.id, partial(_place_cells, p)) for p in view.places],
            empty="No structure you may see.",
        )

    def show_verdicts(self, place: monitor.PlaceView | None, verdicts: monitor.PlaceVerdicts | None) -> None:
        """The place's flags and, once weighed, what each force in reach may do there and why not."""
        self.border_title = "Raids & looting"
        self.query_one("#place-verdicts", Static).update(verdicts_content(place, verdicts))

    def highlighted(self) -> str:
        """The highlighted place's id ("" when none)."""
        return self.query_one("#places-table", PlacesTable).cursor_row_key() or ""
