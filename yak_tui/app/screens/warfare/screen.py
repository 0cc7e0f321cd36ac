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
from pathlib import Path
from typing import Any, ClassVar, NamedTuple

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable

from yak_tui.app.kit import NARROW, YakScreen
from yak_tui.app.kit.common import YakTable, num, num_of
from yak_tui.app.kit.screens import SHARED_VIEWS
from yak_tui.app.messages import PaletteEntry
from yak_tui.app.screens.warfare.dialogs import SiegeBeginScreen, SiegeDecisionScreen
from yak_tui.app.screens.warfare.panels import (
    AttemptsPanel,
    CardPanel,
    FortsTable,
    PlaceAction,
    RaidsPanel,
    SiegesPanel,
    WalledPanel,
)
from yak_tui.areas import warfare as monitor
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World

CSS = Path(__file__).with_name("sieges.tcss")


class SiegesBuilt(NamedTuple):
    """The siege monitor and the verdicts of the place the raids table will highlight, weighed with
    it in the worker: the first paint shows them at once (no second worker, frame and layout)."""

    monitor: monitor.SiegeMonitor
    place_id: str
    verdicts: monitor.PlaceVerdicts | None


class SiegesScreen(YakScreen):
    SCREEN_NAME = "sieges"
    EDIT_ROWS = (("siege-list", "sieges"), ("forts-table", "pcs"), ("places-table", "pcs"))  # the GM's editor (E)
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

    ACTS = frozenset({"begin", "decide", "siege"})  # never an observer's

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
        self._weighed: tuple[str, monitor.PlaceVerdicts | None] | None = None  # from the paint's build
        self._had_sieges = False
        self._prompted: set[tuple[str, str]] = set()  # (siege, season) whose prompt was shown already

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(id="siege-body", can_focus=False):
            yield SiegesPanel()
            with Horizontal(id="siege-columns"):
                with Vertical(id="siege-left", classes="siege-column"):
                    yield CardPanel()
                    yield AttemptsPanel()
                with Vertical(id="siege-right", classes="siege-column"):
                    yield WalledPanel()
                    yield RaidsPanel()

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
        self.loader.start(partial(self._build_sieges, world, self.identity, self.place_id))

    def _build_sieges(self, world: World, identity: Identity, place_id: str) -> tuple[Identity, SiegesBuilt]:
        # The monitor is a pure function of the world and the seat: the process's apps share it.
        view = SHARED_VIEWS.get(world, (type(self), identity, ()), partial(monitor.siege_monitor, world, identity))
        # The raids table keeps its highlighted place, else highlights the first.
        ids = [place.id for place in view.places]
        place_id = place_id if place_id in ids else (ids[0] if ids else "")
        return identity, SiegesBuilt(view, place_id, _weigh_place(world, identity, place_id) if place_id else None)

    def paint_view(self, built: SiegesBuilt) -> None:
        view = built.monitor
        self.monitor = view
        self._weighed = (built.place_id, built.verdicts)
        self._wide = self.size.width >= NARROW
        self.query_one(SiegesPanel).show(view, self._wide)
        self._card()
        self.query_one(WalledPanel).show(view)
        self.query_one(RaidsPanel).show(view)
        self._place()
        self._weighed = None  # later highlights weigh in a worker
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

    def on_resize(self, event: events.Resize) -> None:
        super().on_resize(event)
        if self.monitor is not None and (event.size.width >= NARROW) != self._wide:
            self._wide = event.size.width >= NARROW
            self.query_one(SiegesPanel).fill(self.monitor.sieges, self._wide)

    def _card(self) -> None:
        if self.monitor is None:
            return
        card = self.card
        self.query_one(CardPanel).show(self.monitor, card)
        self.query_one(AttemptsPanel).show(self.monitor, card)

    def _place(self) -> None:
        key = self.query_one(RaidsPanel).highlighted()
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
        weighed = self._weighed
        if pc_id and weighed is not None and weighed[0] == pc_id:  # weighed with the board being painted
            self.query_one(RaidsPanel).show_verdicts(self._place_view(pc_id), weighed[1])
            return
        self.query_one(RaidsPanel).show_verdicts(self._place_view(pc_id), None)
        if pc_id:
            self._verdicts(pc_id, self.yak.world_version)

    @work(thread=True, exclusive=True, group="verdicts", exit_on_error=False)
    def _verdicts(self, pc_id: str, version: int) -> None:
        self.post_message(self.Verdicts(pc_id, version, _weigh_place(self.yak.world, self.yak.identity, pc_id)))

    @on(Verdicts)
    def _verdicts_ready(self, event: Verdicts) -> None:
        if event.pc_id != self.place_id:
            return
        self.query_one(RaidsPanel).show_verdicts(self._place_view(event.pc_id), event.verdicts)

    @on(DataTable.RowHighlighted, "#siege-list")
    def _siege_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.siege_id = str(event.row_key.value or "")

    @on(DataTable.RowHighlighted, "#places-table")
    def _place_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.place_id = str(event.row_key.value or "")

    # -- the defenders' choice ------------------------------------------------------------------------
    def on_screen_resume(self, event: events.ScreenResume | None = None) -> None:
        super().on_screen_resume(event)
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
        if self.identity.is_observer:  # every line below acts: an observer only reads the monitor
            return []
        entries = [
            PaletteEntry(
                "Sieges: begin a siege", "pick a walled fort and the units camped by it (n)", self.action_begin
            )
        ]
        card = self.active_card
        if card is not None:
            fort = card.fort
            entries += [
                PaletteEntry(
                    f"Sieges: messenger out of {fort}",
                    "odds first, then the dice (g)",
                    partial(self.action_siege, "messenger"),
                ),
                PaletteEntry(
                    f"Sieges: smuggle provisions into {fort}",
                    "a merchant, shipments, a bribe (p)",
                    partial(self.action_siege, "smuggle"),
                ),
                PaletteEntry(
                    f"Sieges: blockade of {fort}",
                    "a unit joins or leaves the land or sea blockade (k)",
                    partial(self.action_siege, "blockade"),
                ),
                PaletteEntry(
                    f"Sieges: lift the siege of {fort}",
                    "the besiegers leave (l)",
                    partial(self.action_siege, "siege-lift"),
                ),
            ]
        if self.monitor and self.monitor.decisions:
            entries.append(
                PaletteEntry(
                    "Sieges: surrender or sally", "the starving defenders' choice (y)", self.action_decide, True
                )
            )
        place = self._place_view(self.place_id)
        if place is not None:
            for action, label, key in (
                ("raid", "raid", "w"),
                ("slave-raid", "raid for slaves", "v"),
                ("capture", "capture", "t"),
                ("loot", "loot", "x"),
            ):
                entries.append(
                    PaletteEntry(
                        f"Sieges: {label} {place.name}",
                        f"the refusal reasons shown first ({key})",
                        partial(self.post_message, PlaceAction(action, place.id)),
                    )
                )
        return entries

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not super().check_action(action, parameters):
            return False
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
            self.notify(
                f"The choice at {card.fort} is {card.defender}'s (or the GM's) to make.",
                title="Not yours to choose",
                severity="warning",
            )
            return
        self.app.push_screen(SiegeDecisionScreen(card, self.monitor.date if self.monitor else ""))

    def action_siege(self, command: str) -> None:
        card = self.active_card
        if card is None:
            self.notify("No siege is under way.", severity="warning")
            return
        titles = {
            "messenger": (
                f"Send a messenger out of {card.fort}",
                f"Besieged by {card.besieger}. Scouts in reach: {card.defender}'s "
                f"{', '.join(card.friendly_scouts) or 'none'}; {card.besieger}'s "
                f"{', '.join(card.enemy_scouts) or 'none'} (they oppose by default).",
            ),
            "smuggle": (
                f"Smuggle provisions into {card.fort}",
                f"{num(card.provisions)} provisions left for {num_of(card.regiments, 'regiment')}. A merchant "
                f"adventurer runs staples past {card.besieger}'s lines; a bribe helps (+1 a ducat, at most +2).",
            ),
            "blockade": (
                f"Blockade of {card.fort}",
                f"{card.besieger}'s units join (or leave) the land or sea blockade. "
                + (
                    f"Still missing: {' and '.join(card.missing)}."
                    if card.missing
                    else "Every blockade needed is in place."
                ),
            ),
            "siege-lift": (
                f"Lift the siege of {card.fort}",
                f"{card.besieger} leaves; {num(card.provisions)} provisions stay and carry over to a "
                "siege within 4 seasons.",
            ),
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
            fit = [
                f
                for f in forces
                if f.owner_id == card.besieger_id and f.sea == (side == "sea") and f.busy in ("", card.fort)
            ]
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
        titles = {
            "raid": f"Raid {name}",
            "slave-raid": f"Raid {name} for slaves",
            "capture": f"Capture {name}",
            "loot": f"Loot {name}",
        }
        intro = place.state if place and place.state else ""
        self._open(event.action, preset, ("pc",), titles[event.action], intro, ("pcs", event.pc_id))

    def _open(
        self,
        command: str,
        preset: dict[str, Any],
        hidden: tuple[str, ...],
        title: str,
        intro: str,
        holding: tuple[str, str],
    ) -> None:
        """The command dialog (odds, dice, result) for the GM and Kings; an order for a player."""
        if self.identity.is_player:
            from yak_tui.app.kit.order import OrderScreen

            self.app.push_screen(OrderScreen(command=command, holding=holding))
            return
        self.yak.open_command(command, preset, hidden=hidden, title=title, intro=intro)


def _weigh_place(world: World, identity: Identity, pc_id: str) -> monitor.PlaceVerdicts | None:
    """What each force in reach may do at the place (None when it cannot be weighed)."""
    try:
        return monitor.place_verdicts(world, identity, pc_id)
    except Exception:
        return None
