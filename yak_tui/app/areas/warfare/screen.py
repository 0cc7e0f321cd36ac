"""Siege monitor: every siege with its fort, defenders, provisions and a countdown of the seasons
they last, the blockade (and which half is missing), messengers and smuggling runs with their
odds and dice, and the surrender-or-sally prompt when the defenders run short; every walled place;
and raids, slave raids, captures and looting on any structure, with the refusal reasons shown.

The data comes from `yak_tui.areas.warfare.read` (headless, audience-filtered). Actions open the
app's command dialog (odds before the roll, dice by hand, the dice animation) with the fort or
place filled in; a player files them as orders instead. Beginning a siege and the defenders'
choice have dialogs of their own (`SiegeBeginScreen`, `SiegeDecisionScreen`).
"""

from __future__ import annotations

from functools import partial
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Button, DataTable, Label, Select, SelectionList, Static

from yak_tui.app.kit import NARROW, YakModal, YakScreen
from yak_tui.app.kit.common import FULL, NEARLY, ROOMY, Panel, YakTable, num
from yak_tui.app.kit.styles import DIALOGS_TCSS
from yak_tui.app.kit.worker import CommandWorker
from yak_tui.app.messages import PaletteEntry
from yak_tui.areas import warfare as monitor
from yak_tui.kernel.model import World

if TYPE_CHECKING:
    from yak_tui.kernel.identity import Identity

CSS = Path(__file__).with_name("sieges.tcss")
DIALOG_CSS: list[str | PurePath] = [DIALOGS_TCSS, CSS]
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
    return Text.assemble(("▰" * shown + more, f"bold {_left_style(left)}"), ("▱" * spent, "dim"),
                         " " if shown or spent else "", (f"{left} {word} left", _left_style(left)))


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
        return Content("\n").join([
            Content.styled("No fort is under siege.", "italic $foreground-muted"),
            Content(""),
            Content.assemble(("n", "bold $accent"), " on a walled place begins one: pick the fort and the units camped "
                             "at or next to it."),
            Content.styled("A fort with open access to a port holds out until a land and a sea blockade are both in "
                           "place; then every regiment inside eats one provision each season end.", "$foreground-muted"),
        ])
    lines = [_row("Walls", (f"{card.level_name} (level {card.level})", "bold"), f" · {card.province}",
                  " · held by ", (card.defender, "bold"))]
    lines.append(_row("Besiegers", (card.besieger, "bold")))
    for name, side in card.besiegers:
        lines.append(_row("", "♞ ", name, (f" ({side})", "$foreground-muted")))
    if card.defenders:
        inside = ", ".join(f"{d.name}" + (f" ({d.regiments} reg.)" if d.regiments is not None else "")
                           for d in card.defenders)
        lines.append(_row("Defenders", inside))
    elif card.active:
        lines.append(_row("Defenders", f"{num(card.regiments)} regiment(s) inside"))
    elif card.surrendered:
        lines.append(_row("Defenders", f"surrendered: {', '.join(card.surrendered)}"))
    carried = " carried over" if card.carried_over else ""
    eats = f" · {card.regiments} regiment(s) eat {card.eats} a season" if card.active and card.eats else ""
    lines.append(_row("Provisions", (num(card.provisions), "bold"), f" ({num(card.starting_provisions)}{carried} at the "
                      f"start){eats}"))
    if card.active:
        lines.append(_row("Countdown", Content.from_rich_text(countdown_text(card)),
                          " at this rate" if card.effective and card.seasons_left is not None else ""))
        if card.effective:
            lines.append(_row("Blockade", Content.from_rich_text(_blockade_text(card)),
                              ("  (open port)" if card.port_access else "", "$foreground-muted"),
                              ("  → in effect", "$success")))
        else:
            lines.append(_row("Blockade", Content.from_rich_text(_blockade_text(card)),
                              ("  (open port: both needed)" if card.port_access else "", "$foreground-muted")))
            lines.append(_row("", (f"→ not in effect (missing: {' and '.join(card.missing)})", "$warning")))
        lines.append(_row("Since", f"{card.started} · {card.seasons} season end(s) under siege"))
    else:
        lines.append(_row("Ended", f"{card.state} in {card.ended or '?'} (begun {card.started})"))
    if card.decision_needed:
        who = "You must" if card.may_decide else f"{card.defender} must"
        key = " — press y" if card.may_decide else ""
        lines.append(Content(""))
        lines.append(Content.assemble(("⚠ SHORT OF PROVISIONS ", "bold $error"),
                                      (f"{num(card.provisions)} for {num(card.regiments)} regiment(s). {who} choose "
                                       f"surrender or sally before {date or 'this season'} closes{key}.", "$error")))
    elif card.decision == "sally" and card.active:
        lines.append(Content(""))
        lines.append(Content.styled(f"The defenders sallied ({card.decided}): the GM plays out the battle, then "
                                    "records capture or siege-lift.", "$warning"))
    return Content("\n").join(lines)


def odds_line(card: monitor.SiegeCard) -> Content:
    """The odds of the next messenger and the next smuggling run, before anyone rolls."""
    if not card.active:
        return Content.styled("The siege is over: no more messengers or smuggling.", "italic $foreground-muted")
    if not card.effective:
        return Content.styled("The siege is not in effect: messengers and provisions pass freely.",
                              "italic $foreground-muted")
    scouts = f"{len(card.friendly_scouts)} scout(s) helping, {len(card.enemy_scouts)} opposing"
    bribes = ", ".join(f"bribe {b}: {_pct(p)}" if b else _pct(p) for b, p in card.smuggle_odds)
    return Content("\n").join([
        Content.assemble(("Next messenger ", "bold"), (_pct(card.messenger_odds), "bold $primary"),
                         (f" to get out ({scouts})", "$foreground-muted"), ("  g", "bold $accent")),
        Content.assemble(("Smuggling in    ", "bold"), (bribes, "$primary"), ("  p", "bold $accent")),
    ])


def attempts_content(card: monitor.SiegeCard) -> Content:
    """Each attempt in two lines: what was tried, then the odds, the dice and the result."""
    lines = [odds_line(card)]
    if not card.attempts:
        lines += [Content(""), Content.styled("No messenger has been sent and no provisions smuggled.",
                                              "italic $foreground-muted")]
    for attempt in reversed(card.attempts):
        title = "Messenger" if attempt.kind == "messenger" else "Smuggling"
        lines.append(Content(""))
        lines.append(Content.assemble((f"{attempt.date} ", "$foreground-muted"), (title, "bold"), f" · {attempt.detail}"))
        mods = "".join(f" {value:+d}" for value, _ in attempt.modifiers)
        dice = (f"{FACES[attempt.natural - 1] if 1 <= attempt.natural <= 6 else ''} {attempt.natural}{mods} = "
                f"{attempt.total} vs {attempt.target}" if attempt.natural is not None else "—")
        lines.append(Content.assemble(("   odds ", "$foreground-muted"), (_pct(attempt.odds), "$primary"),
                                      ("  dice ", "$foreground-muted"), (dice, "bold"), "  → ",
                                      (attempt.result, "bold $success" if attempt.success else "bold $error")))
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
        lines.append(Content.styled(f"None of your forces stands {where}: raids and captures need one there.",
                                    "$foreground-muted"))
    for item in verdicts.forces:
        force = item.force
        strength = f", {force.regiments} reg." if force.regiments is not None else ""
        lines.append(Content.assemble(("♞ ", "$accent"), (force.name, "bold"),
                                      (f" ({force.owner} {force.kind}{strength})", "$foreground-muted")))
        groups: dict[tuple[bool, str], list[str]] = {}
        for verdict in item.verdicts:
            groups.setdefault((verdict.ok, verdict.reason), []).append(verdict.action)
        for (ok, reason), actions in groups.items():
            mark = ("  ✓ ", "bold $success") if ok else ("  ✗ ", "bold $error")
            lines.append(Content.assemble(mark, (", ".join(actions), "bold"),
                                          (f": {reason}" if reason else "", "" if ok else "$error")))
    loot = verdicts.loot
    lines.append(Content.assemble(("✓ " if loot.ok else "✗ ", "bold $success" if loot.ok else "bold $error"),
                                  ("loot", "bold"), (f": {loot.reason}" if loot.reason else "", "" if loot.ok else
                                                     "$error")))
    return Content("\n").join(lines)


def place_flags(place: monitor.PlaceView) -> Text:
    flags = [("destroyed", FULL) if place.destroyed else None, ("besieged", FULL) if place.besieged else None,
             ("captured", NEARLY) if place.captured else None, ("looted", NEARLY) if place.looted else None,
             ("raided", NEARLY) if place.raided else None]
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


class FortsTable(YakTable):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "act('siege-begin')", "Begin siege here", show=False)]

    def action_act(self, action: str) -> None:
        key = self.cursor_row_key()
        if key:
            self.post_message(PlaceAction(action, key))


class PlacesTable(YakTable):
    """Structures: w raids, v raids for slaves, t captures, x loots the highlighted one."""

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


# --- the screen ---------------------------------------------------------------------------------------

class SiegesScreen(YakScreen):
    SCREEN_NAME = "sieges"
    CSS_PATH = CSS
    AUTO_FOCUS = ""  # see _keep_focus
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "begin", "Begin siege"),
        Binding("y", "decide", "Surrender/sally"),
        Binding("g", "siege('messenger')", "Messenger"),
        Binding("p", "siege('smuggle')", "Smuggle"),
        Binding("k", "siege('blockade')", "Blockade"),
        Binding("l", "siege('siege-lift')", "Lift"),
    ]

    siege_id: reactive[str] = reactive("", init=False)
    place_id: reactive[str] = reactive("", init=False)

    class Verdicts(Message):
        def __init__(self, pc_id: str, version: int, verdicts: monitor.PlaceVerdicts | None) -> None:
            super().__init__()
            self.pc_id = pc_id
            self.version = version
            self.verdicts = verdicts

    def __init__(self) -> None:
        super().__init__()
        self.monitor: monitor.SiegeMonitor | None = None
        self._wide = True
        self._had_sieges = False
        self._prompted: set[tuple[str, str]] = set()  # (siege, season) whose prompt was shown already

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="siege-body", can_focus=False):
            yield Panel("Sieges", YakTable(id="siege-list"), Static(id="decision-banner"), id="sieges")
            with Horizontal(id="siege-columns"):
                with Vertical(id="siege-left", classes="siege-column"):
                    yield Panel("Siege", Static(id="siege-card"), id="card")
                    yield Panel("Messengers & smuggling", VerticalScroll(Static(id="attempts-text"), can_focus=False),
                                id="attempts", classes="grow")
                with Vertical(id="siege-right", classes="siege-column"):
                    yield Panel("Walled places", FortsTable(id="forts-table"), id="walled")
                    yield Panel("Raids & looting", PlacesTable(id="places-table"),
                                VerticalScroll(Static(id="place-verdicts"), id="verdicts-scroll", can_focus=False),
                                id="raids", classes="grow")

    # -- data ---------------------------------------------------------------------------------------
    @property
    def card(self) -> monitor.SiegeCard | None:
        """The highlighted siege (the first one when none is highlighted)."""
        if self.monitor is None or not self.monitor.sieges:
            return None
        return next((s for s in self.monitor.sieges if s.id == self.siege_id), self.monitor.sieges[0])

    @property
    def active_card(self) -> monitor.SiegeCard | None:
        card = self.card
        if card is not None and card.active:
            return card
        return next(iter(self.monitor.active), None) if self.monitor else None

    def refresh_view(self, world: World) -> None:
        self.monitor = view = monitor.siege_monitor(world, self.identity)
        active = view.active
        panel = self.query_one("#sieges")
        panel.border_title = f"Sieges ({len(active)} active)" if active else "Sieges"
        decide = "y decide · " if view.decisions else ""
        keys = f"n begin · {decide}g messenger · p smuggle · k blockade · l lift" if active else "n begin a siege"
        panel.border_subtitle = f"as orders: {keys}" if self.identity.is_player else keys
        self._fill_sieges()
        self._banner(view)
        self._card()
        walled = self.query_one("#walled")
        walled.border_title = f"Walled places ({len(view.forts)})"
        walled.border_subtitle = "enter/n begin a siege"
        self.query_one("#forts-table", FortsTable).fill(
            ["Place", "Held by", "Port", "Fortification", "Provisions", "State"],
            [(f.id, [Text(f.name, style="bold" if f.mine else ""), f.controller,
                     Text("open", style=NEARLY) if f.port_access else Text("—", style="dim"),
                     Text.assemble((str(f.level), "bold"), " ", f.level_name),
                     Text(num(f.provisions), justify="right"),
                     Text("besieged", style=f"bold {FULL}") if f.siege else Text("at peace", style="dim")])
             for f in view.forts],
            empty="No walled place you may see.")
        raids = self.query_one("#raids")
        raids.border_subtitle = "w raid · v slaves · t capture · x loot"
        self.query_one("#places-table", PlacesTable).fill(
            ["Place", "Kind", "Held by", "Lately"],
            [(p.id, [Text(p.name, style="bold" if p.mine else ""), p.kind, p.controller, place_flags(p)])
             for p in view.places],
            empty="No structure you may see.")
        self._place()
        self._keep_focus()
        self.refresh_bindings()
        self.call_after_refresh(self._maybe_prompt)

    def _keep_focus(self) -> None:
        """The sieges when there are any, else the walled places (a hidden table cannot hold focus);
        a siege just begun takes the focus (and the view) from the walled places."""
        sieges = self.query_one("#siege-list", YakTable)
        begun, self._had_sieges = sieges.row_count > 0 and not self._had_sieges, sieges.row_count > 0
        focused = self.focused
        if begun and isinstance(focused, FortsTable):
            sieges.focus()
            self.query_one("#siege-body").scroll_home(animate=False)
        if self.app.screen is not self or (focused is not None and focused.display):
            return
        (sieges if sieges.row_count else self.query_one("#forts-table", FortsTable)).focus()

    def _fill_sieges(self) -> None:
        """All the columns when there is room; below 110 columns the card tells the rest."""
        sieges = self.monitor.sieges if self.monitor else ()
        wide = self.size.width >= NARROW
        self._wide = wide
        columns = ["Fort", "Fortification", "Besieger", "Inside", "Provisions", "Countdown", "Blockade", "State"]
        rows = []
        for s in sieges:
            cells = [Text(s.fort, style="bold"), f"{s.level} {s.level_name}", s.besieger,
                     Text(f"{num(s.regiments)} reg." if s.regiments is not None else "—", justify="right"),
                     Text(num(s.provisions), justify="right"), countdown_text(s), _blockade_text(s), _state_text(s)]
            rows.append((s.id, cells if wide else [cells[0], cells[4], *cells[5:]]))
        if not wide:
            columns = ["Fort", "Prov.", "Countdown", "Blockade", "State"]
        self.query_one("#siege-list", YakTable).fill(columns, rows, empty="No fort is under siege.")

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        if self.monitor is not None and (event.size.width >= NARROW) != self._wide:
            self._fill_sieges()

    def _banner(self, view: monitor.SiegeMonitor) -> None:
        banner = self.query_one("#decision-banner", Static)
        due = view.decisions
        banner.display = bool(due)
        lines = []
        for card in due:
            who = "you must choose (y)" if card.may_decide else f"{card.defender} must choose"
            lines.append(Content.assemble(("⚠ ", "bold"), (card.fort, "bold"),
                                          f": {num(card.provisions)} provisions for {num(card.regiments)} regiment(s)."
                                          f" Surrender or sally? {who}; the season cannot close until then."))
        banner.update(Content("\n").join(lines))

    def _card(self) -> None:
        card = self.card
        panel = self.query_one("#card")
        panel.border_title = f"Siege of {card.fort}" if card else "Siege"
        panel.border_subtitle = card.id if card else ""
        self.query_one("#siege-card", Static).update(card_content(card, self.monitor.date if self.monitor else ""))
        attempts = self.query_one("#attempts")
        attempts.display = card is not None
        panel.set_class(card is None, "grow")
        if card is not None:
            count = len(card.attempts)
            attempts.border_title = f"Messengers & smuggling ({count})" if count else "Messengers & smuggling"
            self.query_one("#attempts-text", Static).update(attempts_content(card))

    def _place(self) -> None:
        key = self.query_one("#places-table", PlacesTable).cursor_row_key() or ""
        if key != self.place_id:
            self.place_id = key  # the watcher weighs the verdicts
        else:
            self._weigh(key)

    def _place_view(self, pc_id: str) -> monitor.PlaceView | None:
        if self.monitor is None:
            return None
        return next((p for p in self.monitor.places if p.id == pc_id), None)

    def watch_siege_id(self) -> None:
        self._card()
        self.refresh_bindings()

    def watch_place_id(self, pc_id: str) -> None:
        self._weigh(pc_id)

    def _weigh(self, pc_id: str) -> None:
        self.query_one("#raids").border_title = "Raids & looting"
        self.query_one("#place-verdicts", Static).update(verdicts_content(self._place_view(pc_id), None))
        if pc_id:
            self._verdicts(pc_id, self.yak.world_version)

    @work(thread=True, exclusive=True, group="verdicts", exit_on_error=False)
    def _verdicts(self, pc_id: str, version: int) -> None:
        try:
            verdicts: monitor.PlaceVerdicts | None = monitor.place_verdicts(self.yak.world, self.yak.identity, pc_id)
        except Exception:
            verdicts = None
        self.post_message(self.Verdicts(pc_id, version, verdicts))

    @on(Verdicts)
    def _verdicts_ready(self, event: Verdicts) -> None:
        if event.pc_id != self.place_id:
            return
        self.query_one("#place-verdicts", Static).update(verdicts_content(self._place_view(event.pc_id),
                                                                          event.verdicts))

    @on(DataTable.RowHighlighted, "#siege-list")
    def _siege_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.siege_id = str(event.row_key.value or "")

    @on(DataTable.RowHighlighted, "#places-table")
    def _place_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.place_id = str(event.row_key.value or "")

    # -- the defenders' choice ------------------------------------------------------------------------
    def on_screen_resume(self) -> None:
        super().on_screen_resume()
        self.call_after_refresh(self._maybe_prompt)

    def _maybe_prompt(self) -> None:
        """Put the surrender-or-sally question to whoever may answer it, once a season per siege."""
        if self.monitor is None or self.app.screen is not self:
            return
        for card in self.monitor.decisions:
            key = (card.id, self.monitor.date)
            if card.may_decide and key not in self._prompted:
                self._prompted.add(key)
                self.app.push_screen(SiegeDecisionScreen(card, self.monitor.date))
                return

    # -- actions -------------------------------------------------------------------------------------------
    def palette_entries(self) -> list[PaletteEntry]:
        entries = [PaletteEntry("Sieges: begin a siege", "pick a walled fort and the units camped by it (n)",
                                self.action_begin)]
        card = self.active_card
        if card is not None:
            fort = card.fort
            entries += [
                PaletteEntry(f"Sieges: messenger out of {fort}", "odds first, then the dice (g)",
                             partial(self.action_siege, "messenger")),
                PaletteEntry(f"Sieges: smuggle provisions into {fort}", "a merchant, shipments, a bribe (p)",
                             partial(self.action_siege, "smuggle")),
                PaletteEntry(f"Sieges: blockade of {fort}", "a unit joins or leaves the land or sea blockade (k)",
                             partial(self.action_siege, "blockade")),
                PaletteEntry(f"Sieges: lift the siege of {fort}", "the besiegers leave (l)",
                             partial(self.action_siege, "siege-lift")),
            ]
        if self.monitor and self.monitor.decisions:
            entries.append(PaletteEntry("Sieges: surrender or sally", "the starving defenders' choice (y)",
                                        self.action_decide, True))
        place = self._place_view(self.place_id)
        if place is not None:
            for action, label, key in (("raid", "raid", "w"), ("slave-raid", "raid for slaves", "v"),
                                       ("capture", "capture", "t"), ("loot", "loot", "x")):
                entries.append(PaletteEntry(f"Sieges: {label} {place.name}", f"the refusal reasons shown first ({key})",
                                            partial(self.post_message, PlaceAction(action, place.id))))
        return entries

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "siege":
            return self.active_card is not None
        if action == "decide":
            return bool(self.monitor and self.monitor.decisions)
        return True

    def action_decide(self) -> None:
        due = self.monitor.decisions if self.monitor else ()
        card = next((c for c in due if c.id == self.siege_id), due[0] if due else None)
        if card is None:
            self.notify("No defenders are short of provisions this season.", severity="warning")
            return
        if not card.may_decide:
            self.notify(f"The choice at {card.fort} is {card.defender}'s (or the GM's) to make.",
                        title="Not yours to choose", severity="warning")
            return
        self.app.push_screen(SiegeDecisionScreen(card, self.monitor.date if self.monitor else ""))

    def action_siege(self, command: str) -> None:
        card = self.active_card
        if card is None:
            self.notify("No siege is under way.", severity="warning")
            return
        titles = {
            "messenger": (f"Send a messenger out of {card.fort}",
                          f"Besieged by {card.besieger}. Scouts in reach: {card.defender}'s "
                          f"{', '.join(card.friendly_scouts) or 'none'}; {card.besieger}'s "
                          f"{', '.join(card.enemy_scouts) or 'none'} (they oppose by default)."),
            "smuggle": (f"Smuggle provisions into {card.fort}",
                        f"{num(card.provisions)} provisions left for {num(card.regiments)} regiment(s). A merchant "
                        f"adventurer runs staples past {card.besieger}'s lines; a bribe helps (+1 a ducat, at most +2)."),
            "blockade": (f"Blockade of {card.fort}",
                         f"{card.besieger}'s units join (or leave) the land or sea blockade. "
                         + (f"Still missing: {' and '.join(card.missing)}." if card.missing else
                            "Every blockade needed is in place.")),
            "siege-lift": (f"Lift the siege of {card.fort}",
                           f"{card.besieger} leaves; {num(card.provisions)} provisions stay and carry over to a "
                           "siege within 4 seasons."),
        }
        title, intro = titles[command]
        preset: dict[str, Any] = {"fort": card.fort_id}
        if command == "messenger":
            # Every friendly Scout in reach helps unless struck off; the besieger's oppose by default.
            preset.update(scouts=",".join(card.friendly_scout_ids), enemy_scouts="")
        elif command == "blockade" and card.missing:
            # The half still missing, and a free unit of the besieger's in reach that can close it.
            side = card.missing[0]
            preset["kind"] = side
            forces = monitor.siege_forces(self.yak.world, self.identity, card.fort_id)
            fit = [f for f in forces if f.owner_id == card.besieger_id and f.sea == (side == "sea")
                   and f.busy in ("", card.fort)]
            if fit:
                preset["unit"] = fit[0].id
        self._open(command, preset, ("fort",), title, intro, ("pcs", card.fort_id))

    def action_begin(self) -> None:
        fort = ""
        table = self.query_one("#forts-table", FortsTable)
        if table.has_focus:
            fort = table.cursor_row_key() or ""
        self._begin(fort)

    def _begin(self, fort: str) -> None:
        if self.identity.is_player:
            from yak_tui.app.kit.order import OrderScreen

            self.app.push_screen(OrderScreen(command="siege-begin", holding=("pcs", fort) if fort else None))
            return
        self.app.push_screen(SiegeBeginScreen(fort))

    @on(PlaceAction)
    def _place_action(self, event: PlaceAction) -> None:
        if event.action == "siege-begin":
            self._begin(event.pc_id)
            return
        place = self._place_view(event.pc_id)
        name = place.name if place else event.pc_id
        preset: dict[str, Any] = {"pc": event.pc_id}
        verdicts = monitor.place_verdicts(self.yak.world, self.identity, event.pc_id)
        label = {"raid": "raid", "slave-raid": "slave raid", "capture": "capture"}.get(event.action)
        if label:
            ready = [f.force.id for f in verdicts.forces if any(v.ok for v in f.verdicts if v.action == label)]
            near = [f.force.id for f in verdicts.forces]
            if ready or near:
                preset["unit"] = (ready or near)[0]
        titles = {"raid": f"Raid {name}", "slave-raid": f"Raid {name} for slaves", "capture": f"Capture {name}",
                  "loot": f"Loot {name}"}
        intro = place.state if place and place.state else ""
        self._open(event.action, preset, ("pc",), titles[event.action], intro, ("pcs", event.pc_id))

    def _open(self, command: str, preset: dict[str, Any], hidden: tuple[str, ...], title: str, intro: str,
              holding: tuple[str, str]) -> None:
        """The command dialog (odds, dice, result) for the GM and Kings; an order for a player."""
        if self.identity.is_player:
            from yak_tui.app.kit.order import OrderScreen

            self.app.push_screen(OrderScreen(command=command, holding=holding))
            return
        self.yak.open_command(command, preset, hidden=hidden, title=title, intro=intro)


# --- beginning a siege ------------------------------------------------------------------------------------

class SiegeBeginScreen(YakModal[None]):
    """Pick a walled fort and the units camped at or next to it; see the blockade and provisions the
    siege would start with, and why it would be refused, before beginning it."""

    CSS_PATH = DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close"),
                                             Binding("ctrl+r", "begin", "Begin siege", show=False)]

    class Done(Message):
        def __init__(self, lines: tuple[str, ...], problem: Any) -> None:
            super().__init__()
            self.lines = lines
            self.problem = problem

    def __init__(self, fort: str = "") -> None:
        super().__init__()
        self.fort = fort
        self.problem: Any = None
        self.running = False
        self._checker: CommandWorker[tuple[monitor.SiegePlan | None, Any]] = CommandWorker(
            self, "validate", self._checked)
        self._units_for: str | None = None  # the fort the unit list was filled for

    def compose(self) -> ComposeResult:
        view = monitor.siege_monitor(self.yak.world, self.yak.identity)
        forts = [f for f in view.forts if not f.siege]
        known = {f.id for f in forts}
        options = [(f"{f.name} — {f.level} {f.level_name}, {f.controller}" + (", open port" if f.port_access else ""), f.id)
                   for f in forts]
        with Vertical(id="dialog", classes="dialog"):
            yield Static(Content.styled("Begin a siege", "bold"), id="dialog-title")
            yield Static("Pick a walled fort and the units camped at or next to it: ships blockade by sea, every "
                         "other unit by land.", id="dialog-help")
            with VerticalScroll(id="dialog-body"):
                with Horizontal(classes="field"):
                    yield Label("fort", classes="field-label -required")
                    yield Select(options, id="begin-fort", prompt="(choose a walled fort)", compact=True,
                                 value=self.fort if self.fort in known else Select.NULL)
                yield Label("Units in reach", classes="section")
                yield SelectionList[str](id="begin-units", compact=True)
                yield Static("", id="begin-plan")
                yield Static("", id="problem", markup=False)
                yield Static("", id="result-lines", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button("Begin siege", id="begin", variant="primary", disabled=True, compact=True)
                yield Button("Close", id="close", compact=True)

    def on_mount(self) -> None:
        self.query_one("#result-lines").display = False
        self._fill_units()
        select = self.query_one("#begin-fort", Select)
        if select.value is Select.NULL:
            select.focus()
        else:
            self.query_one("#begin-units", SelectionList).focus()

    def _fort(self) -> str:
        value = self.query_one("#begin-fort", Select).value
        return "" if value is Select.NULL else str(value)

    def _units(self) -> list[str]:
        return [str(v) for v in self.query_one("#begin-units", SelectionList).selected]

    def _fill_units(self) -> None:
        units = self.query_one("#begin-units", SelectionList)
        units.clear_options()
        fort = self._fort()
        self._units_for = fort
        forces = monitor.siege_forces(self.yak.world, self.yak.identity, fort) if fort else ()
        # Tick every free unit when they are all one kingdom's; a GM picks the side himself otherwise.
        one_side = len({f.owner_id for f in forces}) == 1
        for force in forces:
            strength = f", {force.regiments} reg." if force.regiments is not None else ""
            where = "in the hex" if force.distance == 0 else f"{force.distance} hex away"
            busy = f" — besieging {force.busy}" if force.busy else ""
            label = Content.assemble((force.name, "bold"), f" · {force.owner} {force.kind}{strength} · ",
                                     ("sea" if force.sea else "land", "$accent"), f" · {where}{busy}")
            units.add_option((label, force.id, one_side and not force.busy))
        units.display = bool(forces)
        if fort and not forces:
            self.query_one("#begin-plan", Static).update(Content.styled(
                "None of your units is camped at or next to this fort.", "italic $warning"))
        self._check()

    @on(Select.Changed, "#begin-fort")
    def _fort_changed(self, event: Select.Changed) -> None:
        """Refill only for another fort: the Select also reports its first value as it mounts, and a
        refill then would untick the units already chosen."""
        event.stop()
        if self._fort() != self._units_for:
            self._fill_units()

    @on(SelectionList.SelectedChanged, "#begin-units")
    def _units_changed(self, event: SelectionList.SelectedChanged[str]) -> None:
        event.stop()
        self._check()

    def _check(self) -> None:
        self.query_one("#begin", Button).disabled = True
        fort, units = self._fort(), self._units()
        if not fort:
            self._checker.cancel()
            self._show(None, None)
            return
        self._checker.start(partial(self._validate, self.yak.world, self.yak.identity, fort, units))

    @staticmethod
    def _validate(world: World, identity: Identity, fort: str, units: list[str]) -> tuple[monitor.SiegePlan | None, Any]:
        """(In the validation worker.) The plan the siege would start with, and why it would be refused."""
        from yak_tui.kernel import forms as views

        problem = views.check_command(world, identity, "siege-begin", {"fort": fort, "units": ",".join(units)})
        return monitor.siege_plan(world, identity, fort, units), problem

    def _checked(self, checked: tuple[monitor.SiegePlan | None, Any]) -> None:
        if not self.running:
            self._show(*checked)

    def _show(self, plan: monitor.SiegePlan | None, problem: Any) -> None:
        self.problem = problem
        if plan is not None:
            mark = ("✓", "$success")
            lines = [Content.assemble(("Besieger   ", "$foreground-muted"), (plan.besieger, "bold")),
                     Content.assemble(("Blockade   ", "$foreground-muted"), "land ",
                                      ("✓", "$success") if plan.land else ("✗", "$error"), "  sea ",
                                      ("✓", "$success") if plan.sea else ("✗", "$error"),
                                      "  (open port: both needed)" if plan.port_access else "  (no open port: land "
                                                                                            "suffices)"),
                     Content.assemble(("           ", ""), (mark[0] + " takes effect at once", mark[1])
                                      if plan.effective else (f"✗ not yet in effect: {plan.missing}", "$warning")),
                     Content.assemble(("Provisions ", "$foreground-muted"), (num(plan.provisions), "bold"),
                                      f" for {plan.regiments} regiment(s) inside: ",
                                      ("nobody eats" if plan.seasons_left is None else
                                       f"{plan.seasons_left} season(s) before they run short", "bold"))]
            self.query_one("#begin-plan", Static).update(Content("\n").join(lines))
        elif self._fort() and self.query_one("#begin-units", SelectionList).option_count:
            self.query_one("#begin-plan", Static).update(Content.styled("Tick the besieging units (space).",
                                                                        "italic $foreground-muted"))
        widget = self.query_one("#problem", Static)
        text = problem.message() if problem is not None and self._units() else ""
        widget.update(text)
        widget.set_class(bool(text), "-shown")
        self.query_one("#begin", Button).disabled = problem is not None or not self._units()

    @on(Button.Pressed, "#begin")
    def action_begin(self) -> None:
        if self.running or self.query_one("#begin", Button).disabled:
            return
        self.running = True
        self.query_one("#begin", Button).disabled = True
        self._run(self._fort(), self._units())

    @work(thread=True, exclusive=True, group="run", exit_on_error=False)
    def _run(self, fort: str, units: list[str]) -> None:
        from yak_tui.kernel import forms as views

        try:
            outcome = self.yak.execute("siege-begin", {"fort": fort, "units": ",".join(units)})
        except Exception as error:
            self.post_message(self.Done((), views.problem_of(error)))
            return
        self.post_message(self.Done(views.result_lines(outcome.world, self.yak.identity, outcome.result.entries), None))

    @on(Done)
    def _done(self, event: Done) -> None:
        self.running = False
        if event.problem is not None:
            self._show(None, event.problem)
            self.notify(event.problem.message(), title="Refused", severity="error")
            return
        self.query_one("#begin").display = False
        for widget in ("#begin-fort", "#begin-units", "#begin-plan"):
            self.query_one(widget).disabled = True
        lines = self.query_one("#result-lines", Static)
        lines.update("\n".join(event.lines))
        lines.display = True
        self.query_one("#close", Button).focus()

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        if not self.running:
            self.dismiss(None)


# --- the defenders' choice ----------------------------------------------------------------------------------

class SiegeDecisionScreen(YakModal[None]):
    """Short of provisions, the defenders surrender or sally: the season cannot close until they do."""

    CSS_PATH = DIALOG_CSS
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Later")]

    class Done(Message):
        def __init__(self, lines: tuple[str, ...], problem: Any) -> None:
            super().__init__()
            self.lines = lines
            self.problem = problem

    def __init__(self, card: monitor.SiegeCard, date: str) -> None:
        super().__init__()
        self.card = card
        self.date = date
        self.running = False
        self.recorded = False

    def compose(self) -> ComposeResult:
        card = self.card
        garrison = ", ".join(d.name for d in card.defenders) or f"{num(card.regiments)} regiment(s)"
        text = Content("\n").join([
            Content.assemble("The defenders of ", (card.fort, "bold"), " will end ", (self.date or "this season", "bold"),
                             " short of provisions: ", (f"{num(card.provisions)} left", "bold $error"),
                             f" for {num(card.regiments)} regiment(s), who need {num(card.eats)}."),
            Content.assemble(("The season cannot close until ", "$foreground-muted"), (card.defender, "bold"),
                             (" chooses.", "$foreground-muted")),
            Content(""),
            Content.assemble(("Surrender  ", "bold $error"), f"{card.fort} and its garrison ({garrison}) go to ",
                             (card.besieger, "bold"), "."),
            Content.assemble(("Sally      ", "bold $warning"), "the garrison attacks the besiegers; the GM plays out "
                             "the battle, then records capture or siege-lift."),
        ])
        with Vertical(id="dialog", classes="dialog decision"):
            yield Static(Content.styled(f"⚠ {card.fort}: surrender or sally?", "bold $error"), id="dialog-title")
            with VerticalScroll(id="dialog-body"):
                yield Static(text, id="decision-text")
                yield Static("", id="problem", markup=False)
                yield Static("", id="result-lines", markup=False)
            with Horizontal(id="dialog-buttons"):
                yield Button("Surrender", id="surrender", variant="error", compact=True)
                yield Button("Sally", id="sally", variant="warning", compact=True)
                yield Button("Later", id="close", compact=True)

    def on_mount(self) -> None:
        self.query_one("#result-lines").display = False
        self.query_one("#sally", Button).focus()

    @on(Button.Pressed, "#surrender, #sally")
    def _choose(self, event: Button.Pressed) -> None:
        if self.running or self.recorded:
            return
        self.running = True
        for button in ("#surrender", "#sally"):
            self.query_one(button, Button).disabled = True
        self._record(str(event.button.id))

    @work(thread=True, exclusive=True, group="decide", exit_on_error=False)
    def _record(self, choice: str) -> None:
        from yak_tui.kernel import forms as views

        try:
            outcome = self.yak.execute("siege-decide", {"fort": self.card.fort_id, "choice": choice})
        except Exception as error:
            self.post_message(self.Done((), views.problem_of(error)))
            return
        self.post_message(self.Done(views.result_lines(outcome.world, self.yak.identity, outcome.result.entries), None))

    @on(Done)
    def _done(self, event: Done) -> None:
        self.running = False
        problem = self.query_one("#problem", Static)
        if event.problem is not None:
            for button in ("#surrender", "#sally"):
                self.query_one(button, Button).disabled = False
            problem.update(event.problem.message())
            problem.set_class(True, "-shown")
            self.notify(event.problem.message(), title="Refused", severity="error")
            return
        self.recorded = True
        problem.set_class(False, "-shown")
        self.query_one("#dialog-title", Static).update(Content.styled(f"✓ {self.card.fort}: the choice is recorded",
                                                                      "bold $success"))
        for button in ("#surrender", "#sally"):
            self.query_one(button).display = False
        lines = self.query_one("#result-lines", Static)
        lines.update("\n".join(event.lines) or "Recorded.")
        lines.display = True
        close = self.query_one("#close", Button)
        close.label = "Close"
        close.focus()
        self.notify("The defenders' choice is recorded: the season may close.", title="Recorded")

    @on(Button.Pressed, "#close")
    def action_close(self) -> None:
        if not self.running:
            self.dismiss(None)
