"""Season dashboard (home): the date, what is due, kingdoms and their treasury over the seasons,
the adjudicator's order queue, the viewer's holdings and orders, and the latest chronicle."""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from yak_tui.app.kit import YakScreen
from yak_tui.app.kit.common import Panel, num
from yak_tui.app.kit.plot import TreasuryPlot
from yak_tui.app.kit.rowtable import RowTable
from yak_tui.app.kit.yak import yak_of
from yak_tui.app.messages import OrderAction
from yak_tui.areas import court as views
from yak_tui.kernel.identity import Identity
from yak_tui.kernel.model import World

STATUS_STYLE = {"waiting": "#C9962B", "resolved": "#4C9A52", "rejected": "#D0524A", "withdrawn": "dim"}


class QueueTable(RowTable):
    """Orders waiting for the acting adjudicator: x resolves (dice), j rejects with a reason."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x,enter", "order('resolve')", "Resolve"),
        Binding("j", "order('reject')", "Reject"),
    ]

    def action_order(self, action: str) -> None:
        key = self.cursor_row_key()
        if key:
            self.post_message(OrderAction(action, key))


class MyOrdersTable(RowTable):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("w", "order('withdraw')", "Withdraw")]

    def action_order(self, action: str) -> None:
        key = self.cursor_row_key()
        if key:
            self.post_message(OrderAction(action, key))


class HoldingsTable(RowTable):
    """The viewer's holdings; o files an order from the highlighted one."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("o", "order_here", "Order for this")]

    def action_order_here(self) -> None:
        key = self.cursor_row_key()
        if key:
            table, _, doc_id = key.partition(":")
            yak_of(self).action_file_order(table, doc_id)


class DashboardScreen(YakScreen):
    SCREEN_NAME = "dashboard"
    _due_loaded = False
    AUTO_FOCUS = None  # chosen in refresh_view: the adjudicator's queue, or a player's holdings
    CSS_PATH = Path(__file__).with_name("dashboard.tcss")

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="dash-columns"):
            with VerticalScroll(id="dash-left", can_focus=False):
                yield Panel("Due this season", Static(id="season-summary"), id="season")
                yield Panel("Kingdoms", RowTable(id="kingdoms-table", focusable=False), id="kingdoms")
                yield Panel("Treasury by season", TreasuryPlot(id="treasury-plot"), id="treasury", classes="grow")
            with VerticalScroll(id="dash-right", can_focus=False):
                yield Panel("Order queue", QueueTable(id="queue-table"), id="queue")
                yield Panel("My holdings", HoldingsTable(id="holdings-table"), id="holdings")
                yield Panel("My orders", MyOrdersTable(id="my-orders-table"), id="my-orders")
                yield Panel("Latest chronicle", VerticalScroll(Static(id="latest-text"), can_focus=False), id="latest",
                            classes="grow")

    def refresh_view(self, world: World) -> None:
        # The first paint does not wait for every rule module to load: what is due follows.
        first = not self._due_loaded
        view = views.dashboard_view(world, self.identity, due=not first)
        if first:  # after the first frame: the imports hold the GIL for a while
            identity = self.identity
            self.call_after_refresh(self.set_timer, 0.05, lambda: self._load_due(world, identity))
        self._season(view)
        self._kingdoms(view)
        self.query_one(TreasuryPlot).set_series(view.history)
        self.query_one("#treasury").display = bool(view.history)
        self._orders(view)
        self._latest(view)
        self._focus_for_identity()

    def _focus_for_identity(self) -> None:
        """Keys act on the focused table: it must be one this identity can see."""
        focused = self.focused
        if focused is not None and focused.display and all(a.display for a in focused.ancestors_with_self
                                                            if hasattr(a, "display")):
            return
        target = "#holdings-table" if self.identity.is_player else "#queue-table"
        self.query_one(target).focus()

    @work(thread=True, exclusive=True, group="due", exit_on_error=False)
    def _load_due(self, world: World, identity: Identity) -> None:
        from yak_tui.kernel.commands import load_command_modules

        load_command_modules()
        self.post_message(self.DueReady(views.due_list(world, identity), identity))

    class DueReady(Message):
        def __init__(self, due: tuple[views.DueItem, ...], identity: Identity) -> None:
            super().__init__()
            self.due = due
            self.identity = identity

    @on(DueReady)
    def _due_ready(self, event: DueReady) -> None:
        self._due_loaded = True
        if event.identity == self.identity:
            self._show_due(event.due, pending=False)
        else:
            self.refresh_view(self.yak.world)  # the seat changed meanwhile: work it out again

    def _season(self, view: views.DashboardView) -> None:
        panel = self.query_one("#season")
        panel.border_title = "Due this season"
        panel.border_subtitle = view.date
        self._show_due(view.due, view.due_pending)

    def _show_due(self, due: tuple[views.DueItem, ...], pending: bool) -> None:
        lines = []
        if pending:
            lines.append(Content.styled("Checking what is due…", "italic $foreground-muted"))
        elif not due:
            lines.append(Content.styled("Nothing is due this season.", "italic $foreground-muted"))
        for item in due:
            mark, style = ("! ", "bold $warning") if item.urgent else ("• ", "$secondary")
            lines.append(Content.assemble((mark, style), (item.text, "bold" if item.urgent else "")))
        self.query_one("#season-summary", Static).update(Content("\n").join(lines))

    def _kingdoms(self, view: views.DashboardView) -> None:
        table = self.query_one("#kingdoms-table", RowTable)
        rows = []
        for k in view.kingdoms:
            name = Text.assemble(("■ ", k.colour or ""), (k.short, "bold" if k.mine else ""))
            rows.append((k.id, [name, Text(num(k.treasury), justify="right"), Text(num(k.manpower), justify="right"),
                                Text(num(k.influence), justify="right"), k.ruler]))
        table.fill(["Kingdom", "Ducats", "Men", "Infl.", "Ruler"], rows)

    def _orders(self, view: views.DashboardView) -> None:
        ident = self.identity
        queue = self.query_one("#queue")
        queue.display = not ident.is_player
        queue.border_title = f"Order queue ({len(view.queue)})" if view.queue else "Order queue"
        queue.border_subtitle = "x resolve · j reject" if view.queue else ""
        self.query_one("#queue-table", QueueTable).fill(
            ["Order", "Filed by", "Command", "Filed"],
            [(o.id, [Text(o.id, style="bold"), o.filer, Text(o.summary + (" · private" if o.private else "")), o.filed])
             for o in view.queue],
            empty="No orders wait for you.")
        holdings = self.query_one("#holdings")
        holdings.display = not ident.is_gm
        holdings.border_subtitle = "o order for this"
        self.query_one("#holdings-table", HoldingsTable).fill(
            ["Holding", "Kind", "Details"],
            [(f"{h.table}:{h.id}", [Text(h.name, style="bold"), h.kind, h.detail]) for h in view.holdings],
            empty="You hold nothing you may see.")
        mine = self.query_one("#my-orders")
        mine.display = not ident.is_gm
        self.query_one("#my-orders-table", MyOrdersTable).fill(
            ["Order", "Command", "State", "Outcome"],
            [(o.id, [Text(o.id, style="bold"), o.summary, Text(o.status, style=STATUS_STYLE.get(o.status, "")),
                     o.outcome or o.reason or f"waits for {o.adjudicator}"]) for o in view.my_orders],
            empty="No orders filed. Press o to file one.")

    def _latest(self, view: views.DashboardView) -> None:
        lines: list[Content] = []
        for entry in view.chronicle:
            lines.append(Content.assemble((f"{entry.date} ", "dim"), (f"[{entry.kind}] ", "$secondary"), entry.text))
            for roll in entry.rolls:
                lines.append(Content.styled(f"   ↳ {roll}", "dim italic"))
        if not lines:
            lines.append(Content.styled("The chronicle is empty. Roll, note or advance to fill it.", "italic dim"))
        self.query_one("#latest-text", Static).update(Content("\n").join(lines))

    # -- orders ----------------------------------------------------------------------------------------
    @on(OrderAction)
    def _order_action(self, event: OrderAction) -> None:
        order = self.yak.world.find("orders", event.order_id) or {}
        summary = f"{event.order_id}: {order.get('command', '')} filed by {order.get('filed_by', '?')}"
        if event.action == "resolve":
            self.yak.open_command("order-resolve", {"order": event.order_id}, hidden=("order",),
                                  title=f"Resolve order {event.order_id}", intro=summary)
        elif event.action == "reject":
            self.yak.open_command("order-reject", {"order": event.order_id}, hidden=("order",),
                                  title=f"Reject order {event.order_id}", intro=summary)
        elif event.action == "withdraw":
            self.yak.open_command("order-withdraw", {"order": event.order_id}, hidden=("order",),
                                  title=f"Withdraw order {event.order_id}", intro=summary)
