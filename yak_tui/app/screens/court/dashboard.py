"""Season dashboard (home): the date, what is due, kingdoms and their treasury over the seasons,
the adjudicator's order queue, the viewer's holdings and orders, and the latest chronicle."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any, ClassVar

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message

from yak_tui.app.kit import YakScreen
from yak_tui.app.messages import OrderAction, PaletteEntry
from yak_tui.app.screens.court.panels import (
    DashboardPanel,
    HoldingsPanel,
    KingdomsPanel,
    LatestPanel,
    MyOrdersPanel,
    QueuePanel,
    ReadinessPanel,
    SeasonPanel,
    TreasuryPanel,
    command_words,
    filer_name,
    order_sentence,
)
from yak_tui.areas import court as views
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World

_BUILT_LOCK = threading.Lock()  # `DashboardScreen._built`: set by the loader's threads


class DashboardScreen(YakScreen):
    SCREEN_NAME = "dashboard"
    EDIT_ROWS = (
        ("queue-table", "orders"),
        ("holdings-table", ""),
        ("my-orders-table", "orders"),
    )  # the GM's editor (E)
    _due_loaded = False
    AUTO_FOCUS = None  # chosen in refresh_view: the adjudicator's queue, or a player's holdings
    CSS_PATH = Path(__file__).with_name("dashboard.tcss")
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t", "deadline", "Orders deadline", show=False),
        Binding("y", "ready", "Ready / not yet", show=False),
    ]

    ACTS = frozenset({"deadline", "ready"})  # never an observer's

    def compose_body(self) -> ComposeResult:
        with Horizontal(id="dash-columns"):
            with VerticalScroll(id="dash-left", can_focus=False):
                yield SeasonPanel()
                yield ReadinessPanel()
                yield KingdomsPanel()
                yield TreasuryPanel()
            with VerticalScroll(id="dash-right", can_focus=False):
                yield QueuePanel()
                yield HoldingsPanel()
                yield MyOrdersPanel()
                yield LatestPanel()

    # The last read model this screen built, and the world it was built on: after a note or a roll
    # the next one keeps its parts that read no log (`dashboard_view(before=...)`). Set in the loader's
    # threads as one pair (a view and the world it was built on), so any pair read is a true one; a
    # job overtaken by a newer one (it still finishes in its thread) does not put back the older world,
    # which would then stay alive until the next write.
    _built: tuple[World, views.DashboardView] | None = None

    def build_view(self, world: World, identity: Identity) -> views.DashboardView:
        # The first paint does not wait for every rule module to load: what is due follows.
        view = views.dashboard_view(world, identity, due=self._due_loaded, before=self._built)
        with _BUILT_LOCK:
            if self._built is None or world.serial >= self._built[0].serial:
                self._built = (world, view)
        return view

    def view_key(self) -> bool:
        return self._due_loaded  # shared by the process's dashboards on the same world and seat

    view: views.DashboardView | None = None

    def paint_view(self, view: views.DashboardView) -> None:
        self.view = view
        if not self._due_loaded and view.due_pending:  # after the first frame: the imports hold the GIL
            # The world goes in a list the job takes it from: the timer's callback and the finished
            # Worker (Textual keeps it in reference cycles, which a frozen collector never breaks)
            # then hold no world, as `CommandWorker` does for the read models.
            held, identity, chronicle = [self.yak.world], self.identity, view.chronicle_pending
            self.call_after_refresh(self.set_timer, 0.05, lambda: self._load_due(held, identity, chronicle))
        for panel in self.query(DashboardPanel):
            panel.paint(view)
        self._focus_for_identity()

    def _focus_for_identity(self) -> None:
        """Keys act on the focused table: it must be one this identity can see."""
        focused = self.focused
        if (
            focused is not None
            and focused.display
            and all(a.display for a in focused.ancestors_with_self if hasattr(a, "display"))
        ):
            return
        target = "#holdings-table" if self.identity.is_player else "#queue-table"
        self.query_one(target).focus()

    @work(thread=True, exclusive=True, group="due", exit_on_error=False)
    def _load_due(self, held: list[World], identity: Identity, chronicle: bool) -> None:
        """What is due for the world in `held` (taken out of it: see `paint_view`), and with
        `chronicle` the latest chronicle too (its logs parsed here, after the first frame)."""
        from yak_tui.kernel.play.commands import load_command_modules

        if not held:
            return
        world = held.pop()
        load_command_modules()
        orders = views.orders_due_lines(world, identity)
        due = views.due_list(world, identity, orders)
        latest = views.latest_entries(world, identity) if chronicle else None
        self.post_message(self.DueReady(due, identity, orders, world.serial, latest))

    class DueReady(Message):
        def __init__(
            self,
            due: tuple[views.DueItem, ...],
            identity: Identity,
            orders: views.OrdersDue,
            serial: int,
            chronicle: tuple[views.EntryView, ...] | None = None,
        ) -> None:
            super().__init__()
            self.due = due
            self.identity = identity
            self.orders = orders  # the lines made from the orders, kept for the next view's `before`
            self.serial = serial  # of the world they were worked out on (the message holds no world)
            self.chronicle = chronicle  # the latest entries, when the first view left them for later

    @on(DueReady)
    def _due_ready(self, event: DueReady) -> None:
        self._due_loaded = True
        if event.identity != self.identity:
            self.refresh_view(self.yak.world)  # the seat changed meanwhile: work it out again
            return
        whole = self._keep_due(event)
        if whole is not None:
            self.paint_view(whole)  # only the panels whose part changed are drawn again
            return
        # A newer view came meanwhile (a write): what is due on the world it was worked out on.
        season = self.query_one(SeasonPanel)
        season.show_due(event.due, pending=False)
        season.forget()
        if self.view is not None and self.view.chronicle_pending:
            self.refresh_view(self.yak.world)

    def _keep_due(self, event: DueReady) -> views.DashboardView | None:
        """The view built without what is due becomes the view with it, so the next write's view
        (`dashboard_view(before=...)`) keeps its parts instead of working the whole dashboard out
        again: without this, each app's first write after its start rebuilt everything (issue 30)."""
        with _BUILT_LOCK:
            built = self._built
            if built is None or built[0].serial != event.serial or built[1].identity != str(event.identity):
                return None
            world, view = built
            whole = view._replace(due=event.due, due_pending=False, due_orders=event.orders)
            if event.chronicle is not None and view.chronicle_pending:
                whole = whole._replace(chronicle=event.chronicle, chronicle_pending=False)
            self._built = (world, whole)
        if self.view is not view:
            return None
        self.view = whole
        return whole

    # -- orders ----------------------------------------------------------------------------------------
    @on(OrderAction)
    def _order_action(self, event: OrderAction) -> None:
        """Resolve, reject or withdraw: the dialog names the order by who filed it and what it does
        (its id stays in --json)."""
        rows = (self.view.queue + self.view.my_orders) if self.view is not None else ()
        row = next((r for r in rows if r.id == event.order_id), None)
        if row is None:
            return
        intro = (
            order_sentence(row)
            + (f" · filed {row.filed}" if row.filed else "")
            + (f"\n“{row.note}”" if row.note else "")
        )
        who = filer_name(row)
        verbs = {"resolve": "Resolve", "reject": "Reject", "withdraw": "Withdraw"}
        if event.action in verbs:
            whose = "your" if event.action == "withdraw" else f"{who}'s"
            self.yak.open_command(
                f"order-{event.action}",
                {"order": event.order_id},
                hidden=("order",),
                title=f"{verbs[event.action]} {whose} order: {command_words(row)}",
                intro=intro,
            )

    # -- the season's rhythm: deadline and readiness ---------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if not super().check_action(action, parameters):
            return False
        if action == "deadline":
            return self.identity.is_gm
        if action == "ready":
            return self.identity.is_king or self.identity.is_player
        return True

    def action_deadline(self) -> None:
        """The GM sets (or, left empty, lifts) the orders deadline: the `season-deadline` form."""
        current = self.yak.world.meta.get("deadline") or ""
        shown = views.readiness_view(self.yak.world, self.identity).deadline
        intro = (
            f"Orders are now due by {shown}. Give a zone or an offset (2026-12-07 20:00 Europe/Berlin)."
            if current
            else "No deadline is set yet. Give a zone or an offset (2026-12-07 20:00 Europe/Berlin)."
        )
        self.yak.open_command("season-deadline", {"at": current}, title="Set the orders deadline", intro=intro)

    def action_ready(self) -> None:
        """A player or King says he has sent all his orders (pressed again: not ready yet)."""
        ready = str(self.identity) not in self.yak.world.meta.get("ready", [])
        self._mark_ready(ready)

    @work(thread=True, exclusive=True, group="ready", exit_on_error=False)
    def _mark_ready(self, ready: bool) -> None:
        try:
            self.yak.execute("ready", {"ready": ready})
        except Exception as error:
            self.app.call_from_thread(self.notify, str(error), title="Not marked", severity="error")
            return
        text = "You are ready: the GM sees your orders are all in." if ready else "Marked not ready yet."
        self.app.call_from_thread(self.notify, text, title="Orders")

    def palette_entries(self) -> list[Any]:
        entries = []
        if self.identity.is_gm:
            entries.append(
                PaletteEntry(
                    "Set the orders deadline", "of this season; empty lifts it (t)", self.action_deadline, True
                )
            )
        if self.identity.is_king or self.identity.is_player:
            entries.append(PaletteEntry("Ready: all my orders are in", "or take it back (y)", self.action_ready, True))
        return entries
