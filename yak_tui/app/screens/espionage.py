"""Espionage board: specialist pools (spies active and cold, counter-spies), effects in force,
the inbox of private orders (NPC missions), and the mission catalogue with its targets.

Extend it by adding a Panel in `compose_body` and filling it in `refresh_view` from a
`yak_tui.world.views` function; actions open `app.open_command(...)` with a preset.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll

from yak_tui.app.messages import OrderAction
from yak_tui.app.screens.base import YakScreen
from yak_tui.app.widgets.common import Panel, YakTable, num
from yak_tui.world import views
from yak_tui.world.model import World


class InboxTable(YakTable):
    """Private orders: the adjudicator resolves (x) or rejects (j) them here."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("x", "order('resolve')", "Resolve"), Binding("j", "order('reject')", "Reject")]

    def action_order(self, action: str) -> None:
        key = self.cursor_row_key()
        if key:
            self.post_message(OrderAction(action, key))


class EspionageScreen(YakScreen):
    SCREEN_NAME = "espionage"
    CSS_PATH = Path(__file__).with_name("rules.tcss")

    def compose_body(self) -> ComposeResult:
        # `.columns` side by side, each scrolling on its own; stacked in one scroll when narrow.
        with VerticalScroll(classes="columns", can_focus=False):
            with Vertical(classes="column"):
                yield Panel("Specialist pools", YakTable(id="pools-table"), id="pools")
                yield Panel("Effects in force", YakTable(id="effects-table"), id="effects")
                yield Panel("Private orders inbox", InboxTable(id="inbox-table"), id="inbox")
            with Vertical(classes="column"):
                yield Panel("Mission catalogue", YakTable(id="missions-table"), id="missions")

    def refresh_view(self, world: World) -> None:
        view = views.espionage_view(world, self.identity)
        self.query_one("#pools-table", YakTable).fill(
            ["Kingdom", "Spies", "Cold", "Counter-spies", "Eng.", "Miss.", "Sail."],
            [(p.kingdom_id, [Text(p.kingdom, style="bold"), _n(p.spies), _n(p.cold_spies), p.counter_spies,
                             _n(p.engineers), _n(p.missionaries), _n(p.sailors)]) for p in view.pools],
            empty="No specialist pool you may see.")
        self.query_one("#effects-table", YakTable).fill(
            ["Effect", "Holder", "Target", "Expires", "What"],
            [(e.id, [Text(e.kind, style="bold"), e.holder, e.target, e.expires, e.text]) for e in view.effects],
            empty="No effects in force.")
        self.query_one("#inbox-table", InboxTable).fill(
            ["Order", "Filed by", "Mission", "State", "Outcome"],
            [(o.id, [Text(o.id, style="bold"), o.filer, o.summary, o.status, o.outcome or o.reason])
             for o in view.inbox],
            empty="No private orders.")
        self.query_one("#missions-table", YakTable).fill(
            ["Mission", "Family", "Cost", "Succ.", "Det.", "Needs"],
            [(m.slug, [Text(m.name, style="bold"), m.family, _n(m.cost), _target(m.success_target),
                       _target(m.detection_target), m.prerequisite]) for m in view.missions],
            empty="The mission catalogue is empty.")
        self.query_one("#missions").border_title = f"Mission catalogue ({len(view.missions)})"

    @on(OrderAction)
    def _order_action(self, event: OrderAction) -> None:
        command = {"resolve": "order-resolve", "reject": "order-reject"}.get(event.action)
        if command:
            self.yak.open_command(command, {"order": event.order_id}, hidden=("order",),
                                  title=f"{event.action.capitalize()} order {event.order_id}")


def _n(value: int) -> Text:
    return Text(num(value), justify="right")


def _target(value: int | None) -> Text:
    return Text("n/a" if value is None else f"{value}+", justify="right", style="dim" if value is None else "")
