"""Espionage board: the missions against a chosen target with their prerequisites (met or
missing) and the odds the viewer's side may know; the inbox of private orders waiting for this
adjudicator (resolved blind with the dice animation, or rejected); the viewer's own orders and
the outcome he was told; spies active and cold; infiltrations and effects in force.

What each identity sees comes from `yak_tui.areas.espionage.read` (audience-filtered):
the GM every kingdom and every modifier; a King or a player his own kingdom's spies, his side's
effects, what the target knows of effects against it, and never a natural or a hidden modifier.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable, Label, Select, Static

from yak_tui.app.areas.espionage.spy_dice import SpyDiceScreen, modifiers_text
from yak_tui.app.kit import YakScreen
from yak_tui.app.kit.common import FULL, NEARLY, ROOMY, Panel, YakTable, num
from yak_tui.app.messages import OrderAction, PaletteEntry
from yak_tui.areas.espionage.read import (
    FAMILY_LABELS,
    BoardView,
    Choice,
    DialogOdds,
    EffectLine,
    MissionLine,
    OrderLine,
    board_view,
    mission_dialog_odds,
    order_odds,
)
from yak_tui.kernel.identity import Identity
from yak_tui.kernel.model import World

STATUS_STYLE = {"waiting": NEARLY, "resolved": ROOMY, "rejected": FULL, "withdrawn": "dim"}
MISSION_FIELDS = ("province", "character", "unit", "commodity", "direction", "choice", "specialist",
                  "infiltration", "against", "bandits", "privateers", "rebels", "poison")


def pct(value: float | None, none: str = "n/a") -> Text:
    """An exact probability as a whole percent ("<1%" rather than a misleading 0%)."""
    if value is None:
        return Text(none, style="dim", justify="right")
    if 0 < value < 0.005:
        return Text("<1%", justify="right")
    return Text(f"{value * 100:.0f}%", justify="right", style="dim" if value == 0 else "")


class OrderTable(YakTable):
    """A table of orders whose keys post `OrderAction`s to the screen."""

    def action_order(self, action: str) -> None:
        key = self.cursor_row_key()
        if key:
            self.post_message(OrderAction(action, key))


class InboxTable(OrderTable):
    """Private orders waiting for this adjudicator: x (or enter) resolves blind, j rejects."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "order('resolve')", "Resolve"),
                                             Binding("j", "order('reject')", "Reject")]


class MyOrdersTable(OrderTable):
    """The viewer's own espionage orders; w withdraws a waiting one."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("w", "order('withdraw')", "Withdraw")]


class EffectsTable(YakTable):
    """Effects in force; p plays out a pending assassination attempt (the GM)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("p", "play_out", "Play out attempt")]

    class PlayOut(Message):
        def __init__(self, effect_id: str) -> None:
            super().__init__()
            self.effect_id = effect_id

    def action_play_out(self) -> None:
        key = self.cursor_row_key()
        if key:
            self.post_message(self.PlayOut(key))


class EspionageScreen(YakScreen):
    SCREEN_NAME = "espionage"
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
                yield Panel("Private orders inbox", InboxTable(id="inbox-table"), Static(id="inbox-detail",
                            classes="detail"), id="inbox")
                yield Panel("My missions", MyOrdersTable(id="my-orders-table"), Static(id="my-order-detail",
                            classes="detail"), id="my-orders")
                yield Panel("Specialist pools", YakTable(id="pools-table"), id="pools")
                yield Panel("Missions", YakTable(id="missions-table"), id="missions", classes="grow")
            with Vertical(classes="column", id="esp-right"):
                yield Panel("Mission", Static(id="mission-detail"), id="mission")
                yield Panel("Infiltrations", YakTable(id="infiltrations-table"), id="infiltrations")
                yield Panel("Effects in force", EffectsTable(id="effects-table"), id="effects")

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
        view = board_view(world, identity, self.sponsor, self.target)
        self.view = view
        self.set_reactive(EspionageScreen.sponsor, view.sponsor)
        self.set_reactive(EspionageScreen.target, view.target)
        self._bar(view)
        self._orders(view)
        self._missions(view)
        self._pools(view)
        self._effects(view)
        self._focus(view)
        self.refresh_bindings()

    def _focus(self, view: BoardView) -> None:
        """Orders waiting for this adjudicator come first; otherwise the missions. A table that
        the identity may not use (a player's inbox) never keeps the focus."""
        focused = self.focused
        if focused is not None and focused.display and all(a.display for a in focused.ancestors
                                                           if isinstance(a, Panel)):
            return
        wanted = "#inbox-table" if view.inbox and not self.identity.is_player else "#missions-table"
        self.query_one(wanted, YakTable).focus()

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
            summary = Content.assemble((f"{pool.name}: ", "bold"), (f"{pool.spies} spies", "$success" if
                                       pool.spies else "$error"), (f", {pool.cold} cold", "$foreground-muted"))
        elif not view.sponsors:
            summary = Content.styled("You serve no kingdom: no spies to send.", "italic $foreground-muted")
        self.query_one("#esp-summary", Static).update(summary)

    # -- orders -------------------------------------------------------------------------------------
    def _orders(self, view: BoardView) -> None:
        ident = self.identity
        inbox = self.query_one("#inbox")
        inbox.display = not ident.is_player
        inbox.border_title = f"Private orders inbox ({len(view.inbox)})" if view.inbox else "Private orders inbox"
        inbox.border_subtitle = "x resolve (blind) · j reject" if view.inbox else ""
        self.query_one("#inbox-table", InboxTable).fill(
            ["Order", "From", "Mission", "Target", "Filed"],
            [(o.id, [Text(o.id, style="bold"), o.filer, Text(o.mission, style="bold"), _target_text(o), o.filed])
             for o in view.inbox],
            empty="No private orders wait for you.")
        mine = self.query_one("#my-orders")
        mine.display = not ident.is_gm
        waiting = sum(1 for o in view.my_orders if o.status == "waiting")
        mine.border_title = f"My missions ({waiting} waiting)" if waiting else "My missions"
        mine.border_subtitle = "w withdraw" if waiting else ""
        self.query_one("#my-orders-table", MyOrdersTable).fill(
            ["Order", "Mission", "Target", "State", "Outcome"],
            [(o.id, [Text(o.id, style="bold"), o.mission, _target_text(o),
                     Text(o.status, style=STATUS_STYLE.get(o.status, "")), _outcome_text(o)]) for o in view.my_orders],
            empty="No missions submitted. Pick one below and press n.")
        self._inbox_detail()
        self._my_order_detail()

    def _inbox_detail(self) -> None:
        detail = self.query_one("#inbox-detail", Static)
        order = self._line(self.view.inbox if self.view else (), "#inbox-table")
        detail.display = order is not None
        if order is None:
            detail.update("")
            return
        parts: list[str | tuple[str, str]] = [(f"{order.filer} ({order.sponsor})", "bold"), " → ",
                                              (order.target, "bold"), f" · {order.mission}"]
        if order.where:
            parts.append(f" · {order.where}")
        if order.extras:
            parts.append(f" · {order.extras}")
        if order.adjudicator != "gm" and self.identity.is_gm:
            parts.append((f" · waits for {order.adjudicator}", "$warning"))
        if order.note:
            parts.append((f"\n“{order.note}”", "italic"))
        detail.update(Content.assemble(*parts))

    def _my_order_detail(self) -> None:
        detail = self.query_one("#my-order-detail", Static)
        order = self._line(self.view.my_orders if self.view else (), "#my-orders-table")
        detail.display = order is not None
        if order is None:
            detail.update("")
            return
        if order.status == "waiting":
            who = "the GM" if order.adjudicator == "gm" else order.adjudicator
            text = Content.assemble((f"{order.id} waits for {who}", "$warning"),
                                    f" · filed {order.filed}" if order.filed else "")
        elif order.status == "resolved":
            text = Content.assemble((f"{order.id}: ", "bold"), order.outcome)
        else:
            text = Content.assemble((f"{order.id} {order.status}", "bold"), f": {order.outcome}" if order.outcome else "")
        detail.update(text)

    def _line(self, lines: Iterable[OrderLine], table_id: str) -> OrderLine | None:
        key = self.query_one(table_id, YakTable).cursor_row_key()
        return next((o for o in lines if o.id == key), None)

    @on(DataTable.RowHighlighted, "#inbox-table")
    def _inbox_moved(self) -> None:
        self._inbox_detail()

    @on(DataTable.RowHighlighted, "#my-orders-table")
    def _mine_moved(self) -> None:
        self._my_order_detail()

    # -- missions -------------------------------------------------------------------------------------
    def _missions(self, view: BoardView) -> None:
        rows = []
        for m in view.missions:
            name = Text(m.name, style="bold" if m.prerequisite_met else "dim")
            if m.held:
                name.append(" ● held", style=ROOMY)
            rows.append((m.slug, [name, _needs_text(m), Text(num(m.cost), justify="right"),
                                  Text("GM", style="dim", justify="right") if m.attempt else pct(m.success),
                                  pct(m.captured), pct(m.detected)]))
        table = self.query_one("#missions-table", YakTable)
        table.fill(["Mission", "Needs", "Cost", "Succ.", "Capt.", "Det."], rows,
                   empty="Choose a sponsor and a target kingdom.")
        panel = self.query_one("#missions")
        target = next((c.label for c in view.targets if c.value == view.target), "")
        sponsor = next((c.label for c in view.sponsors if c.value == view.sponsor), "")
        panel.border_title = f"Missions against {target}" if target else "Missions"
        panel.border_subtitle = f"{sponsor}'s odds · n {'run' if view.may_run else 'submit'} · t target" \
            if sponsor else ""
        self._mission_detail()

    def _mission_line(self) -> MissionLine | None:
        if self.view is None:
            return None
        key = self.query_one("#missions-table", YakTable).cursor_row_key()
        return next((m for m in self.view.missions if m.slug == key), None)

    @on(DataTable.RowHighlighted, "#missions-table")
    def _mission_moved(self) -> None:
        self._mission_detail()

    def _mission_detail(self) -> None:
        view = self.view
        line = self._mission_line()
        panel = self.query_one("#mission")
        widget = self.query_one("#mission-detail", Static)
        if view is None or line is None:
            panel.border_title = "Mission"
            widget.update(Content.styled("Highlight a mission to see what it does.", "italic $foreground-muted"))
            return
        panel.border_title = line.name
        panel.border_subtitle = FAMILY_LABELS.get(line.family, line.family)
        target = next((c.label for c in view.targets if c.value == view.target), "the target")
        sponsor = next((c.label for c in view.sponsors if c.value == view.sponsor), "")
        facts = [f"{line.cost} ducat{'s' if line.cost != 1 else ''} + 1 spy"]
        if line.spy_used_up:
            facts.append("spy used up")
        if line.duration_seasons:
            facts.append(f"lasts {line.duration_seasons} seasons")
        if line.attempt:
            facts.append("the GM plays the attack out")
        lines: list[Content] = [Content.styled(" · ".join(facts), "$secondary")]
        if line.own_administration:
            lines.append(Content.styled(f"Against {sponsor}'s own administration.", "$secondary"))
        elif line.prerequisite:
            if line.prerequisite_met:
                lines.append(Content.styled(f"✓ {sponsor} holds the {line.prerequisite_label} infiltration in "
                                            f"{target}.", "$success"))
            else:
                lines.append(Content.styled(f"✗ Needs the {line.prerequisite_label} infiltration in {target}: "
                                            "run it first.", "bold $error"))
        if line.held:
            lines.append(Content.styled(f"● Held: {sponsor} already has this man in place (it cannot be doubled).",
                                        "$success"))
        lines.append(Content(line.text))
        if line.extras:
            lines.append(Content.assemble(("Extras: ", "bold"), "; ".join(line.extras)))
        lines.append(Content.assemble(("Odds", "bold $primary"), (f" for {sponsor}'s side", "$foreground-muted")))
        if line.attempt:
            lines.append(Content("  success: no roll, an attempt for the GM to play out"))
        else:
            lines.append(Content.assemble("  success ", _pct_content(line.success), "  failure ",
                                          _pct_content(line.failure)))
        lines.append(Content.assemble("  spy captured ", _pct_content(line.captured), "  escapes ",
                                      _pct_content(line.escaped), "  lost ", _pct_content(line.spy_lost)))
        if line.detected is None:
            lines.append(Content.styled("  no detection roll", "dim"))
        else:
            lines.append(Content.assemble("  identified ", _pct_content(line.identified), "  detected ",
                                          _pct_content(line.detected), "  undetected ", _pct_content(line.undetected)))
        mods = ", ".join(f"{reason} {value:+d}" for value, reason in view.modifiers)
        if view.all_modifiers:
            lines.append(Content.styled(f"Counted (all, at the capital): {mods or 'no modifier'}", "italic dim"))
        else:
            lines.append(Content.styled(f"Counted: {mods or 'nothing your side knows of'}; the target's "
                                        "counter-measures stay hidden.", "italic dim"))
        widget.update(Content("\n").join(lines))

    # -- spies and effects ------------------------------------------------------------------------------
    def _pools(self, view: BoardView) -> None:
        self.query_one("#pools").border_subtitle = "k station a counter-spy" if view.may_station else ""
        self.query_one("#pools-table", YakTable).fill(
            ["Kingdom", "Spies", "Cold", "Counter-spies"],
            [(p.kingdom, [Text(p.name, style="bold"), Text(num(p.spies), justify="right"),
                          Text(num(p.cold), justify="right"), p.counter_text]) for p in view.pools],
            empty="No spies you may see.")

    def _effects(self, view: BoardView) -> None:
        gm = self.identity.is_gm
        known = [("Seen", "known")] if gm else []
        self.query_one("#infiltrations-table", YakTable).fill(
            ["Who", "Infiltration", "Since", *known],
            [(e.id, [_who(e, gm), Text(e.label, style="bold"), e.start, *_known(e, gm)]) for e in view.infiltrations],
            empty="No infiltration you know of.")
        self.query_one("#infiltrations").border_title = f"Infiltrations ({len(view.infiltrations)})" \
            if view.infiltrations else "Infiltrations"
        self.query_one("#effects-table", YakTable).fill(
            ["Who", "Effect", "Ends", *known, "Where"],
            [(e.id, [_who(e, gm), Text(e.label, style="bold"), e.end, *_known(e, gm), e.where or "—"])
             for e in view.effects],
            empty="No effects in force you know of.")
        panel = self.query_one("#effects")
        panel.border_title = f"Effects in force ({len(view.effects)})" if view.effects else "Effects in force"
        pending = sum(1 for e in view.effects if e.pending)
        panel.border_subtitle = f"{pending} attempt{'s' if pending != 1 else ''} to play out · p" \
            if pending and gm else ""

    # -- actions -------------------------------------------------------------------------------------
    def palette_entries(self) -> list[Any]:
        """The board's own palette lines: each target kingdom, and the mission action of this seat."""
        from functools import partial

        view = self.view
        if view is None:
            return []
        entries = [PaletteEntry(f"Espionage: missions against {c.label}", "the board's target (t)",
                                partial(setattr, self, "target", c.value)) for c in view.targets]
        if view.may_run:
            entries.append(PaletteEntry("Espionage: run the highlighted mission", "blind rolls, the dice (n)",
                                        self.action_run_mission, True))
        if view.may_submit:
            entries.append(PaletteEntry("Espionage: submit a private mission", "to your adjudicator (n)",
                                        self.action_submit_mission, True))
        return entries

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
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
        inbox = self.query_one("#inbox-table", InboxTable)
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
        else:
            self.action_submit_mission()

    @on(DataTable.RowSelected, "#inbox-table")
    def _inbox_selected(self, event: DataTable.RowSelected) -> None:
        if event.row_key.value:
            self.post_message(OrderAction("resolve", str(event.row_key.value)))

    def action_submit_mission(self) -> None:
        from yak_tui.app.areas.espionage.spy_order import SpyOrderScreen

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
        where = "its own administration" if line.own_administration else next(
            (c.label for c in view.targets if c.value == view.target), "")
        odds = mission_dialog_odds(self.yak.world, self.identity, preset)
        intro = f"{sponsor} against {where}. Both rolls are blind: the sponsor learns only the outcome."
        if odds is not None:
            intro += f"\n{modifiers_text(odds)}"
        self.app.push_screen(SpyDiceScreen("spy-mission", _mission_odds, preset=preset, hidden=hidden,
                                           title=f"Run {line.name}", intro=intro))

    def action_counter_spy(self) -> None:
        view = self.view
        if view is None or not view.may_station:
            return
        if self.identity.is_king:
            kingdom: str | None = self.identity.subject
        else:
            kingdom = self.query_one("#pools-table", YakTable).cursor_row_key() or view.sponsor
        name = next((p.name for p in view.pools if p.kingdom == kingdom), kingdom or "")
        self.yak.open_command("counter-spy", {"kingdom": kingdom}, hidden=("kingdom",),
                              title=f"Station a counter-spy of {name}",
                              intro="One active spy becomes a counter-spy for good: -2 to the next enemy operation "
                                    "in its province, or -1 anywhere in the nation (leave province empty).")

    @on(EffectsTable.PlayOut)
    def _play_out(self, event: EffectsTable.PlayOut) -> None:
        view = self.view
        effect = next((e for e in view.effects if e.id == event.effect_id), None) if view else None
        if effect is None or not effect.pending or not self.identity.is_gm:
            self.notify("Highlight an assassination attempt that waits for the GM.", severity="warning")
            return
        self.yak.open_command("assassination-resolve", {"attempt": effect.id}, hidden=("attempt",),
                              title=f"Play out the attempt on {effect.where}",
                              intro=f"{effect.sponsor}'s assassins against {effect.where} ({effect.target}), hired "
                                    f"{effect.start}. Say what happened; the victim's side hears of the attack.")

    @on(OrderAction)
    def _order_action(self, event: OrderAction) -> None:
        event.stop()
        view = self.view
        lines = (view.inbox + view.my_orders) if view else ()
        order = next((o for o in lines if o.id == event.order_id), None)
        if order is None:
            return
        summary = f"{order.id} · {order.filer} ({order.sponsor}) → {order.target}"
        for part in (order.where, order.extras):
            if part:
                summary += f" · {part}"
        if event.action == "resolve":
            odds = order_odds(self.yak.world, self.identity, order.id)
            intro = summary + (f" · “{order.note}”" if order.note else "")
            if odds is not None:
                intro += f"\n{modifiers_text(odds)}"
            self.app.push_screen(SpyDiceScreen("spy-resolve", _order_odds_for(order.id), preset={"order": order.id},
                                               hidden=("order",), title=f"Resolve {order.mission} (blind)",
                                               intro=intro))
        elif event.action == "reject":
            self.yak.open_command("order-reject", {"order": order.id}, hidden=("order",),
                                  title=f"Reject {order.mission} ({order.id})", intro=summary)
        elif event.action == "withdraw":
            self.yak.open_command("order-withdraw", {"order": order.id}, hidden=("order",),
                                  title=f"Withdraw {order.mission} ({order.id})", intro=summary)


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


# -- cells -----------------------------------------------------------------------------------------

def _needs_text(line: MissionLine) -> Text:
    if line.own_administration:
        return Text("own admin.", style="dim")
    if not line.prerequisite:
        return Text("—", style="dim")
    if line.prerequisite_met:
        return Text(f"✓ {line.prerequisite_label}", style=ROOMY)
    return Text(f"✗ {line.prerequisite_label}", style=FULL)


def _pct_content(value: float | None) -> Content:
    if value is None:
        return Content.styled("n/a", "dim")
    text = "<1%" if 0 < value < 0.005 else f"{value * 100:.0f}%"
    return Content.styled(text, "bold")


def _target_text(order: OrderLine) -> Text:
    text = Text(order.target)
    if order.where:
        text.append(f" · {order.where}", style="dim")
    return text


def _outcome_text(order: OrderLine) -> Text:
    """The word the sponsor was told; the whole text is in the line under the table."""
    if order.status == "waiting":
        return Text("waits for the GM" if order.adjudicator == "gm" else f"waits for {order.adjudicator}",
                    style="italic dim")
    if order.status == "resolved":
        style = FULL if order.reported == "failure" else ROOMY if order.reported == "success" else ""
        return Text(order.reported, style=style)
    return Text(order.status, style="dim")


def _who(effect: EffectLine, gm: bool) -> Text:
    """GM: "Varos→Elbreth". Anyone else knows his own side: "→ Varos" (held), "← Varos" (suffered)."""
    if gm:
        return Text.assemble((effect.sponsor, "bold"), "→", effect.target)
    if effect.side == "suffered":
        return Text.assemble(("← ", FULL), (effect.sponsor if effect.sponsor != "?" else "unknown", FULL))
    return Text.assemble(("→ ", ROOMY), (effect.target, "bold"))


def _known(effect: EffectLine, gm: bool) -> list[Text]:
    """GM only: what the target knows ("no", "det." detected, "id." sponsor identified)."""
    if not gm:
        return []
    text, style = {"identified": ("id.", FULL), "detected": ("det.", NEARLY)}.get(effect.known, ("no", "dim"))
    return [Text(text, style=style)]
