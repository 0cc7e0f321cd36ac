"""Espionage board: the missions against a chosen target with their prerequisites (met or
missing) and the odds the viewer's side may know; the inbox of private orders waiting for this
adjudicator (resolved blind with the dice animation, or rejected); the viewer's own orders and
the outcome he was told; spies active and cold; infiltrations and effects in force.

What each identity sees comes from `yak_tui.areas.espionage.read` (audience-filtered):
the GM every kingdom and every modifier; a King his own kingdom's spies, his side's effects, what
the target knows of effects against it, and never a natural or a hidden modifier; a player who is
not his kingdom's King only his own missions (RULINGS §1): no pools, and a prerequisite he cannot
know shown as "?" rather than met or missing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import DataTable, Label, Select, Static

from yak_tui.app.kit import YakScreen
from yak_tui.app.kit.common import Panel, YakTable
from yak_tui.app.messages import OrderAction, PaletteEntry
from yak_tui.app.screens.espionage.panels import (
    BoardPanel,
    EffectsPanel,
    EffectsTable,
    InboxPanel,
    InboxTable,
    InfiltrationsPanel,
    MissionPanel,
    MissionsPanel,
    MyOrdersPanel,
    PoolsPanel,
)
from yak_tui.app.screens.espionage.spy_dice import SpyDiceScreen, modifiers_text
from yak_tui.areas.espionage import (
    MISSION_FIELDS,
    BoardView,
    Choice,
    DialogOdds,
    MissionLine,
    board_view,
    mission_dialog_odds,
    order_odds,
)
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World


class EspionageScreen(YakScreen):
    SCREEN_NAME = "espionage"
    EDIT_ROWS = (
        ("pools-table", "specialists"),
        ("inbox-table", "orders"),
        ("my-orders-table", "orders"),  # the GM's editor (E)
        ("infiltrations-table", "effects"),
        ("effects-table", "effects"),
    )
    CSS_PATH = Path(__file__).with_name("espionage.tcss")
    AUTO_FOCUS = ""  # chosen in `_focus`: the inbox when orders wait, else the missions
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "next_target", "Target"),
        Binding("n", "run_mission", "Run mission"),
        Binding("n", "submit_mission", "Submit mission"),
        Binding("k", "counter_spy", "Counter-spy"),
        # Wherever the focus is, x resolves the highlighted (or first) order waiting in the inbox.
        Binding("x", "resolve_inbox", "Resolve order"),
    ]

    ACTS = frozenset({"run_mission", "submit_mission", "counter_spy", "resolve_inbox"})  # never an observer's

    sponsor: reactive[str | None] = reactive(None, init=False)
    target: reactive[str | None] = reactive(None, init=False)

    def __init__(self) -> None:
        super().__init__()
        self.view: BoardView | None = None
        self._shown_for: Identity | None = None

    # -- layout -------------------------------------------------------------------------------------
    def compose_body(self) -> ComposeResult:
        with Horizontal(id="esp-bar"):
            yield Label("Sponsor", classes="bar-label")
            yield Select([], id="esp-sponsor", compact=True, allow_blank=True, prompt="(kingdom)")
            yield Static("", id="sponsor-fixed")
            yield Label("Target", classes="bar-label")
            yield Select([], id="esp-target", compact=True, allow_blank=True, prompt="(kingdom)")
            yield Static("", id="esp-summary")
        with VerticalScroll(classes="columns", can_focus=False):
            with Vertical(classes="column", id="esp-left"):
                yield InboxPanel()
                yield MyOrdersPanel()
                yield PoolsPanel()
                yield MissionsPanel()
            with Vertical(classes="column", id="esp-right"):
                yield MissionPanel()
                yield InfiltrationsPanel()
                yield EffectsPanel()

    # -- state ----------------------------------------------------------------------------------------
    def watch_sponsor(self) -> None:
        self._redraw()

    def watch_target(self) -> None:
        self._redraw()

    def _redraw(self) -> None:
        if self.is_mounted:
            self.refresh_view(self.yak.world)

    def refresh_view(self, world: World) -> None:
        identity = self.identity
        if self._shown_for != identity:  # another seat at the keyboard: start from its defaults
            self._shown_for = identity
            self.set_reactive(EspionageScreen.sponsor, None)
            self.set_reactive(EspionageScreen.target, None)
        self.loader.start(partial(self._build_board, world, identity, self.sponsor, self.target))

    def _build_board(
        self, world: World, identity: Identity, sponsor: str | None, target: str | None
    ) -> tuple[Identity, BoardView]:
        return identity, board_view(world, identity, sponsor, target)

    def paint_view(self, view: BoardView) -> None:
        self.view = view
        self.set_reactive(EspionageScreen.sponsor, view.sponsor)
        self.set_reactive(EspionageScreen.target, view.target)
        self._bar(view)
        for panel in self.query(BoardPanel):
            panel.show(view)
        self._mission_detail()
        self._focus(view)
        self.refresh_bindings()

    def _focus(self, view: BoardView) -> None:
        """Orders waiting for this adjudicator come first; otherwise the missions. A table that
        the identity may not use (a player's inbox) never keeps the focus."""
        focused = self.focused
        if (
            focused is not None
            and focused.display
            and all(a.display for a in focused.ancestors if isinstance(a, Panel))
        ):
            return
        wanted = "#inbox-table" if view.inbox and not self.identity.is_player else "#missions-table"
        # The board stays where it opened (at its top: the player's own missions first); a focus
        # that scrolled to the table would move it under him depending on when it landed.
        self.query_one(wanted, YakTable).focus(scroll_visible=False)

    def _sync_select(self, select: Select[str], choices: Iterable[Choice], value: str | None) -> None:
        options = [(c.label, c.value) for c in choices]
        if getattr(select, "_yak_options", None) != options:
            select.set_options(options)
            select._yak_options = options  # type: ignore[attr-defined]
        wanted = value if value is not None else Select.NULL
        if select.value != wanted:
            select.value = wanted

    def _bar(self, view: BoardView) -> None:
        gm = self.identity.is_gm
        sponsor_select = self.query_one("#esp-sponsor", Select)
        sponsor_select.display = gm
        fixed = self.query_one("#sponsor-fixed", Static)
        fixed.display = not gm
        self._sync_select(sponsor_select, view.sponsors, view.sponsor)
        self._sync_select(self.query_one("#esp-target", Select), view.targets, view.target)
        name = next((c.label for c in view.sponsors if c.value == view.sponsor), "")
        fixed.update(Content.styled(name or "no kingdom", "bold"))
        pool = view.sponsor_pool
        summary = Content("")
        if pool is not None:
            summary = Content.assemble(
                (f"{pool.name}: ", "bold"),
                (f"{pool.spies} spies", "$success" if pool.spies else "$error"),
                (f", {pool.cold} cold", "$foreground-muted"),
            )
        elif self.identity.is_observer:
            summary = Content.styled(
                "An observer reads the public record: no spies to send.", "italic $foreground-muted"
            )
        elif not view.sponsors:
            summary = Content.styled("You serve no kingdom: no spies to send.", "italic $foreground-muted")
        else:  # his kingdom's pool is his King's to know (RULINGS §1)
            summary = Content.styled(
                "Only you, your adjudicator and the GM see your missions.", "italic $foreground-muted"
            )
        self.query_one("#esp-summary", Static).update(summary)

    # -- the highlighted mission -----------------------------------------------------------------------
    def _mission_line(self) -> MissionLine | None:
        return self.query_one(MissionsPanel).highlighted() if self.view is not None else None

    @on(DataTable.RowHighlighted, "#missions-table")
    def _mission_detail(self) -> None:
        if self.view is not None:
            self.query_one(MissionPanel).show(self.view, self._mission_line())

    # -- actions -------------------------------------------------------------------------------------
    def palette_entries(self) -> list[Any]:
        """The board's own palette lines: each target kingdom, and the mission action of this seat."""
        from functools import partial

        view = self.view
        if view is None:
            return []
        entries = [
            PaletteEntry(
                f"Espionage: missions against {c.label}",
                "the board's target (t)",
                partial(setattr, self, "target", c.value),
            )
            for c in view.targets
        ]
        if view.may_run:
            entries.append(
                PaletteEntry(
                    "Espionage: run the highlighted mission", "blind rolls, the dice (n)", self.action_run_mission, True
                )
            )
        if view.may_submit:
            entries.append(
                PaletteEntry(
                    "Espionage: submit a private mission", "to your adjudicator (n)", self.action_submit_mission, True
                )
            )
        return entries

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not super().check_action(action, parameters):
            return False
        view = self.view
        if action == "run_mission":
            return self.identity.is_gm
        if action == "submit_mission":
            return not self.identity.is_gm and (view is None or view.may_submit)
        if action == "counter_spy":
            return view is not None and view.may_station
        if action == "resolve_inbox":
            return view is not None and bool(view.inbox) and not self.identity.is_player
        return True

    def action_resolve_inbox(self) -> None:
        inbox = self.query_one(InboxTable)
        key = inbox.cursor_row_key()
        if key:
            self.post_message(OrderAction("resolve", key))

    def action_next_target(self) -> None:
        view = self.view
        if view is None or not view.targets:
            return
        values = [c.value for c in view.targets]
        index = values.index(view.target) if view.target in values else -1
        self.target = values[(index + 1) % len(values)]

    @on(Select.Changed, "#esp-target")
    def _target_chosen(self, event: Select.Changed) -> None:
        if event.value is not Select.NULL and event.value != self.target:
            self.target = str(event.value)

    @on(Select.Changed, "#esp-sponsor")
    def _sponsor_chosen(self, event: Select.Changed) -> None:
        if event.value is not Select.NULL and event.value != self.sponsor:
            self.sponsor = str(event.value)

    @on(DataTable.RowSelected, "#missions-table")
    def _mission_selected(self) -> None:
        if self.identity.is_gm:
            self.action_run_mission()
        elif self.check_action("submit_mission", ()):
            self.action_submit_mission()

    @on(DataTable.RowSelected, "#inbox-table")
    def _inbox_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value and self.check_action("resolve_inbox", ()):
            self.post_message(OrderAction("resolve", str(event.row_key.value)))

    def action_submit_mission(self) -> None:
        from yak_tui.app.screens.espionage.spy_order import SpyOrderScreen

        view = self.view
        if view is None or not view.may_submit or view.sponsor is None:
            self.notify("You serve no kingdom, so you have no spies to send.", severity="warning")
            return
        line = self._mission_line()
        self.app.push_screen(SpyOrderScreen(view.sponsor, view.target, line.slug if line else None))

    def action_run_mission(self) -> None:
        view = self.view
        line = self._mission_line()
        if view is None or line is None or view.sponsor is None or not self.identity.is_gm:
            return
        target = view.sponsor if line.own_administration else view.target
        preset = {"sponsor": view.sponsor, "target": target, "mission": line.slug}
        needs = set(line.needs)
        hidden = ["sponsor", "target", "mission", *(f for f in MISSION_FIELDS if f not in needs)]
        sponsor = next((c.label for c in view.sponsors if c.value == view.sponsor), view.sponsor)
        where = (
            "its own administration"
            if line.own_administration
            else next((c.label for c in view.targets if c.value == view.target), "")
        )
        odds = mission_dialog_odds(self.yak.world, self.identity, preset)
        intro = f"{sponsor} against {where}. Both rolls are blind: the sponsor learns only the outcome."
        if odds is not None:
            intro += f"\n{modifiers_text(odds)}"
        self.app.push_screen(
            SpyDiceScreen(
                "spy-mission", _mission_odds, preset=preset, hidden=hidden, title=f"Run {line.name}", intro=intro
            )
        )

    def action_counter_spy(self) -> None:
        view = self.view
        if view is None or not view.may_station:
            return
        if self.identity.is_king:
            kingdom: str | None = self.identity.subject
        else:
            kingdom = self.query_one(PoolsPanel).highlighted() or view.sponsor
        name = next((p.name for p in view.pools if p.kingdom == kingdom), kingdom or "")
        self.yak.open_command(
            "counter-spy",
            {"kingdom": kingdom},
            hidden=("kingdom",),
            title=f"Station a counter-spy of {name}",
            intro="One active spy becomes a counter-spy for good: -2 to the next enemy operation "
            "in its province, or -1 anywhere in the nation (leave province empty).",
        )

    @on(EffectsTable.PlayOut)
    def _play_out(self, event: EffectsTable.PlayOut) -> None:
        view = self.view
        effect = next((e for e in view.effects if e.id == event.effect_id), None) if view else None
        if effect is None or not effect.pending or not self.identity.is_gm:
            self.notify("Highlight an assassination attempt that waits for the GM.", severity="warning")
            return
        self.yak.open_command(
            "assassination-resolve",
            {"attempt": effect.id},
            hidden=("attempt",),
            title=f"Play out the attempt on {effect.where}",
            intro=f"{effect.sponsor}'s assassins against {effect.where} ({effect.target}), hired "
            f"{effect.start}. Say what happened; the victim's side hears of the attack.",
        )

    @on(OrderAction)
    def _order_action(self, event: OrderAction) -> None:
        event.stop()
        view = self.view
        lines = (view.inbox + view.my_orders) if view else ()
        order = next((o for o in lines if o.id == event.order_id), None)
        if order is None:
            return
        summary = f"{order.filer} ({order.sponsor}): {order.mission} → {order.target}"
        for part in (order.where, order.extras):
            if part:
                summary += f" · {part}"
        if event.action == "resolve":
            odds = order_odds(self.yak.world, self.identity, order.id)
            intro = summary + (f" · “{order.note}”" if order.note else "")
            if odds is not None:
                intro += f"\n{modifiers_text(odds)}"
            self.app.push_screen(
                SpyDiceScreen(
                    "spy-resolve",
                    _order_odds_for(order.id),
                    preset={"order": order.id},
                    hidden=("order",),
                    title=f"Resolve {order.mission} (blind)",
                    intro=intro,
                    mission=str(
                        ((self.yak.world.find("orders", order.id) or {}).get("params") or {}).get("mission", "")
                    ),
                )
            )
        elif event.action == "reject":
            self.yak.open_command(
                "order-reject",
                {"order": order.id},
                hidden=("order",),
                title=f"Reject {order.filer}'s {order.mission}",
                intro=summary,
            )
        elif event.action == "withdraw":
            self.yak.open_command(
                "order-withdraw",
                {"order": order.id},
                hidden=("order",),
                title=f"Withdraw your {order.mission}",
                intro=summary,
            )


# -- odds for the dice dialogs (run in their validation workers) ---------------------------------------


def _mission_odds(world: World, identity: Identity, values: Mapping[str, Any]) -> DialogOdds | None:
    return mission_dialog_odds(world, identity, values)


def _order_odds_for(order_id: str) -> Any:
    def odds(world: World, identity: Identity, values: Mapping[str, Any]) -> DialogOdds | None:
        raw = str(values.get("gm_modifier") or "0").strip()
        try:
            modifier = int(raw)
        except ValueError:
            modifier = 0
        return order_odds(world, identity, order_id, modifier, str(values.get("gm_reason") or ""))

    return odds
