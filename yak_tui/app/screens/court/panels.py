"""The court screens' panels: each a widget with its own table (and keys) that draws itself from
its screen's read model in `show(view)`; the screens compose them and act on the keys.

The season dashboard (`DashboardView`): what is due this season, kingdoms, treasury by season, the
adjudicator's order queue (x resolve, j reject: `OrderAction`), the viewer's holdings (o files an
order for one), his orders (w withdraws) and the latest chronicle. The chronicle
(`ChronicleView`): its entries, newest first, with the ones selected for export marked.
"""

from __future__ import annotations

from functools import partial
from typing import Any, ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from yak_tui.app.kit.common import Panel, num
from yak_tui.app.kit.plot import TreasuryPlot
from yak_tui.app.kit.rowtable import RowTable, Shortened
from yak_tui.app.kit.running_app import ActingKeys, yak_of
from yak_tui.app.messages import OrderAction
from yak_tui.areas import court as views
from yak_tui.kernel.play.identity import Identity, identity_name

STATUS_STYLE = {"waiting": "#C9962B", "resolved": "#4C9A52", "rejected": "#D0524A", "withdrawn": "dim"}


def filer_name(order: views.OrderRow) -> str:
    """Who filed the order, as a player reads it: "Nyx", "Elbreth" (never his key)."""
    return order.filer.split(" · ", 1)[-1]


def command_words(order: views.OrderRow) -> str:
    """What the order does, in the command's own words: "business expand"."""
    return order.summary.partition(": ")[0]


def order_what(order: views.OrderRow) -> str:
    """What the order does and with what: "Business expand — business Hale & Sons Bank, sizes 1"."""
    words, _, details = order.summary.partition(": ")
    words = words[:1].upper() + words[1:]
    late = " (filed after the deadline)" if order.late else ""
    return (f"{words} — {details}" if details else words) + late


def order_sentence(order: views.OrderRow) -> str:
    """An order as players name it: "Corvin Hale: Business expand — business Hale & Sons Bank, sizes 1"."""
    return f"{filer_name(order)}: {order_what(order)}"


class QueueTable(ActingKeys, RowTable):
    """Orders waiting for the acting adjudicator: x resolves (dice), j rejects with a reason."""

    ACTS = frozenset({"order"})  # never an observer's

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x,enter", "order('resolve')", "Resolve"),
        Binding("j", "order('reject')", "Reject"),
    ]

    def action_order(self, action: str) -> None:
        key = self.cursor_row_key()
        if key:
            self.post_message(OrderAction(action, key))


class MyOrdersTable(ActingKeys, RowTable):
    ACTS = frozenset({"order"})  # never an observer's
    BINDINGS: ClassVar[list[BindingType]] = [Binding("w", "order('withdraw')", "Withdraw")]

    def action_order(self, action: str) -> None:
        key = self.cursor_row_key()
        if key:
            self.post_message(OrderAction(action, key))


class HoldingsTable(ActingKeys, RowTable):
    """The viewer's holdings; o files an order from the highlighted one."""

    ACTS = frozenset({"order_here"})  # never an observer's

    BINDINGS: ClassVar[list[BindingType]] = [Binding("o", "order_here", "Order for this")]

    def action_order_here(self) -> None:
        key = self.cursor_row_key()
        if key:
            table, _, doc_id = key.partition(":")
            yak_of(self).action_file_order(table, doc_id)


class DashboardPanel(Panel):
    """A panel of the dashboard: `show(view)` draws it for the acting identity."""

    # The view's fields `show` draws from (with the identity); None: it draws from more, redraw always.
    SHOWS: ClassVar[tuple[str, ...] | None] = None
    _shown: tuple[Any, ...] | None = None

    def show(self, view: views.DashboardView) -> None:
        """Draw this panel from the dashboard's read model."""

    def paint(self, view: views.DashboardView) -> None:
        """`show(view)` unless this panel already shows the same fields for the same identity: after
        a write, only the panels whose part changed are redrawn and laid out again (a note touches
        the latest chronicle, not the kingdoms' table)."""
        inputs = self.inputs(view)
        if inputs is not None and inputs == self._shown:
            return
        self.show(view)
        self._shown = inputs

    def inputs(self, view: views.DashboardView) -> tuple[Any, ...] | None:
        """What `show(view)` draws from: the identity and the view's fields in SHOWS (None: redraw always)."""
        return None if self.SHOWS is None else (self.identity, *(getattr(view, name) for name in self.SHOWS))

    def forget(self) -> None:
        """Drawn from elsewhere than `paint`: the next `paint` draws whatever it is given."""
        self._shown = None

    @property
    def identity(self) -> Identity:
        return yak_of(self).identity


class SeasonPanel(DashboardPanel):
    """The date and what is due this season (worked out after the first paint: `show_due`)."""

    def __init__(self) -> None:
        super().__init__("Due this season", Static(id="season-summary"), id="season")

    SHOWS = ("date", "due", "due_pending")

    def show(self, view: views.DashboardView) -> None:
        self.border_title = "Due this season"
        self.border_subtitle = view.date
        self.show_due(view.due, view.due_pending)

    def show_due(self, due: tuple[views.DueItem, ...], pending: bool) -> None:
        """What is due, urgent items marked; "checking" while it is still being worked out."""
        lines = []
        if pending:
            lines.append(Content.styled("Checking what is due…", "italic $foreground-muted"))
        elif not due:
            lines.append(Content.styled("Nothing is due this season.", "italic $foreground-muted"))
        # The first DUE_ROWS (urgent first): at 100x the GM has 100 sieges due, and a longer list pushed
        # the kingdoms under it off the screen (issue 30).
        for item in due[:DUE_ROWS]:
            mark, style = ("! ", "bold $warning") if item.urgent else ("• ", "$secondary")
            lines.append(Content.assemble((mark, style), (item.text, "bold" if item.urgent else "")))
        if len(due) > DUE_ROWS:
            more = len(due) - DUE_ROWS
            lines.append(Content.styled(f"… {more:,} more: `yak due` lists every one", "italic $foreground-muted"))
        self.query_one("#season-summary", Static).update(Content("\n").join(lines))


READINESS_STYLE = {"ready": "#4C9A52", "filed": "#C9962B", "no orders": "#D0524A"}


class ReadinessPanel(DashboardPanel):
    """The orders deadline and each seat's state: filed, ready, or no orders (NMR). Shown once the
    season uses them (a deadline is set or someone said he is ready); every seat for the GM and
    the Kings, his own for a player."""

    def __init__(self) -> None:
        super().__init__("Orders this season", RowTable(id="readiness-table", focusable=False), id="readiness")

    SHOWS = ("readiness",)

    def show(self, view: views.DashboardView) -> None:
        readiness = view.readiness
        self.display = readiness.in_use and bool(readiness.seats)
        self.border_title = f"Orders due by {readiness.deadline}" if readiness.deadline else "Orders (no deadline)"
        identity = self.identity
        self.border_subtitle = (
            "t deadline"
            if identity.is_gm
            else "y not ready yet"
            if readiness.ready
            else "y ready"
            if not identity.is_observer
            else ""
        )
        # A seat's cells are made when its row is drawn (a window of them: 3,000 Kings at 1000x).
        self.query_one("#readiness-table", RowTable).fill(
            ["Seat", "Filed", "State", "Missed"],
            [(seat.identity, partial(seat_cells, seat, str(identity))) for seat in readiness.seats],
        )


def seat_cells(seat: views.SeatRow, acting: str) -> list[Any]:
    return [
        Text(seat.label, style="bold" if seat.identity == acting else ""),
        Text(str(seat.filed), justify="right"),
        Text(seat.status, style=READINESS_STYLE.get(seat.status, "")),
        Text(str(seat.missed) if seat.missed else "", justify="right"),
    ]


KINGDOM_ROWS = 50
DUE_ROWS = 8
QUEUE_ROWS = 12


class KingdomsPanel(DashboardPanel):
    """Every kingdom's treasury, manpower, influence and ruler."""

    def __init__(self) -> None:
        # At 1000x there are 3,000 kingdoms: the dashboard lists the first KINGDOM_ROWS (and says so).
        super().__init__("Kingdoms", RowTable(id="kingdoms-table", focusable=False, window=KINGDOM_ROWS), id="kingdoms")

    SHOWS = ("kingdoms",)

    def show(self, view: views.DashboardView) -> None:
        # Each row's cells are made when it is drawn: only the first KINGDOM_ROWS are.
        self.query_one("#kingdoms-table", RowTable).fill(
            ["Kingdom", "Ducats", "Men", "Infl.", "Ruler"], [(k.id, partial(kingdom_cells, k)) for k in view.kingdoms]
        )


def kingdom_cells(k: views.KingdomRow) -> list[Any]:
    name = Text.assemble(("■ ", k.colour or ""), (k.short, "bold" if k.mine else ""))
    return [
        name,
        Text(num(k.treasury), justify="right"),
        Text(num(k.manpower), justify="right"),
        Text(num(k.influence), justify="right"),
        Shortened(k.ruler, untitled(k.ruler)),
    ]


TITLES = frozenset(
    {
        "King",
        "Queen",
        "Prince",
        "Princess",
        "Emperor",
        "Empress",
        "Duke",
        "Duchess",
        "Lord",
        "Lady",
        "Count",
        "Countess",
        "Baron",
        "Baroness",
        "Sultan",
        "Khan",
        "Tsar",
        "Regent",
    }
)


def untitled(name: str) -> str:
    """ "Aldric" for "King Aldric": the Ruler column's short form, when the whole name does not fit."""
    title, _, rest = name.partition(" ")
    return rest if title in TITLES and rest else name


class TreasuryPanel(DashboardPanel):
    """Each kingdom's treasury over the seasons (hidden while there is no history)."""

    def __init__(self) -> None:
        super().__init__("Treasury by season", TreasuryPlot(id="treasury-plot"), id="treasury", classes="grow")

    SHOWS = ("history",)

    def show(self, view: views.DashboardView) -> None:
        self.query_one(TreasuryPlot).set_series(view.history)
        self.display = bool(view.history)


class QueuePanel(DashboardPanel):
    """Orders waiting for this adjudicator (not for players): x resolves, j rejects."""

    def __init__(self) -> None:
        # A window of QUEUE_ROWS that follows the cursor: at 100x the GM's queue holds 500 orders, and
        # a taller table pushed the latest chronicle under it off the screen (issue 30).
        super().__init__("Order queue", QueueTable(id="queue-table", window=QUEUE_ROWS), id="queue")

    SHOWS = ("queue",)

    def show(self, view: views.DashboardView) -> None:
        self.display = not self.identity.is_player
        self.border_title = f"Order queue ({len(view.queue)})" if view.queue else "Order queue"
        self.border_subtitle = "x resolve · j reject" if view.queue else ""
        # A row's cells are made when it is drawn: a window of QUEUE_ROWS (5,000 orders at 1000x).
        self.query_one("#queue-table", QueueTable).fill(
            ["Filed by", "Order", "Filed"],
            [(o.id, partial(queue_cells, o)) for o in view.queue],
            empty="No orders wait for you.",
        )


def queue_cells(order: views.OrderRow) -> list[Any]:
    return [
        Text(filer_name(order), style="bold"),
        Text(order_what(order) + (" · private" if order.private else "")),
        order.filed,
    ]


class HoldingsPanel(DashboardPanel):
    """What the viewer holds (not for the GM nor an observer); o files an order for the highlighted holding."""

    def __init__(self) -> None:
        super().__init__("My holdings", HoldingsTable(id="holdings-table"), id="holdings")

    SHOWS = ("holdings",)

    def show(self, view: views.DashboardView) -> None:
        self.display = not self.identity.is_gm and not self.identity.is_observer  # an observer holds nothing
        self.border_subtitle = "o order for this"
        self.query_one("#holdings-table", HoldingsTable).fill(
            ["Holding", "Kind", "Details"],
            [
                (
                    f"{h.table}:{h.id}",
                    [
                        Shortened(Text(h.name, style="bold"), Text(views.short_name(h.name), style="bold")),
                        Shortened(h.kind, h.kind.split()[0] if h.kind.endswith(" business") else h.kind),
                        Shortened(h.detail, h.detail.split(" · ")[0]),
                    ],
                )
                for h in view.holdings
            ],
            empty="You hold nothing you may see.",
            spare=(1,),  # at 80 columns the kind goes, not a cut name or figure
        )


class MyOrdersPanel(DashboardPanel):
    """The viewer's own orders and their outcome (not for the GM nor an observer); w withdraws a waiting one."""

    def __init__(self) -> None:
        super().__init__("My orders", MyOrdersTable(id="my-orders-table"), id="my-orders")

    SHOWS = ("my_orders",)

    def inputs(self, view: views.DashboardView) -> tuple[Any, ...] | None:
        # It also names the adjudicators from the world (a rename redraws it), nothing else of it.
        world = yak_of(self).world
        names = tuple(identity_name(world, Identity.parse(o.adjudicator)) for o in view.my_orders)
        return (*(super().inputs(view) or ()), names)

    def show(self, view: views.DashboardView) -> None:
        self.display = not self.identity.is_gm and not self.identity.is_observer  # an observer files nothing
        world = yak_of(self).world
        self.query_one("#my-orders-table", MyOrdersTable).fill(
            ["Order", "State", "Outcome"],
            [
                (
                    o.id,
                    [
                        Text(order_what(o), style="bold"),
                        Text(o.status, style=STATUS_STYLE.get(o.status, "")),
                        o.outcome or o.reason or f"waits for {identity_name(world, Identity.parse(o.adjudicator))}",
                    ],
                )
                for o in view.my_orders
            ],
            empty="None yet: o files an order.",
        )


class LatestPanel(DashboardPanel):
    """The latest chronicle entries with their rolls."""

    def __init__(self) -> None:
        super().__init__(
            "Latest chronicle", VerticalScroll(Static(id="latest-text"), can_focus=False), id="latest", classes="grow"
        )

    SHOWS = ("chronicle", "chronicle_pending")

    def show(self, view: views.DashboardView) -> None:
        if view.chronicle_pending:  # the logs are read just after the first frame (`World.logs_deferred`)
            self.query_one("#latest-text", Static).update(Content.styled("Reading the chronicle…", "italic dim"))
            return
        lines: list[Content] = []
        for entry in view.chronicle:
            lines.append(
                Content.assemble(
                    (f"{entry.date} ", "dim"),
                    (f"[{entry.kind}] ", "$secondary"),
                    entry.text,
                    (f"  by {entry.signed_by}" if entry.signed_by else "", "italic dim"),
                )
            )
            for roll in entry.rolls:
                lines.append(Content.styled(f"   ↳ {roll}", "dim italic"))
        if not lines:
            # Only the adjudicators see the whole chronicle: to anyone else an empty list says only
            # that nothing they may read is there yet (and they cannot advance the season).
            empty = (
                "The chronicle is empty. Roll, note or advance to fill it."
                if self.identity.is_gm
                else "Nothing in the chronicle you may read yet."
            )
            lines.append(Content.styled(empty, "italic dim"))
        self.query_one("#latest-text", Static).update(Content("\n").join(lines))


# -- the chronicle --------------------------------------------------------------------------------------


def entry_prompt(entry: views.EntryView, selected: bool, readers: str = "") -> Content:
    """An entry's lines; `readers` who reads it in words when it is not public."""
    mark = ("● ", "bold $accent") if selected else ("  ", "")
    head = Content.assemble(
        mark,
        (entry.date, "dim"),
        " ",
        (f"[{entry.kind}]", "$secondary"),
        " ",
        entry.text,
        (f"  by {entry.signed_by}" if entry.signed_by else "", "italic $foreground-muted"),
    )
    if entry.audience != "public":
        head = Content.assemble(head, (f"  (for {readers or entry.audience})", "italic $warning"))
    lines = [head]
    for roll in entry.rolls:
        lines.append(Content.styled(f"      ↳ {roll}", "italic $foreground-muted"))
    if entry.note:
        lines.append(Content.assemble(("      ✎ GM note: ", "bold $warning"), (entry.note, "italic")))
    return Content("\n").join(lines)


PAGE_SIZE = 200  # entries drawn at once: the first paint costs the same for 100 entries or 100,000


class EntriesPanel(Panel):
    """The chronicle's entries the filters let through, newest first, a page at a time (`[` and `]`
    turn it); the selected ones marked."""

    def __init__(self) -> None:
        super().__init__("Chronicle", OptionList(id="entries"), Static(id="chronicle-status"), id="chronicle")
        self.entries = views.EntryViews()
        self.view: views.ChronicleView | None = None
        self.page = 0
        self.pages = 1
        self.visible_total = 0  # entries the viewer may read before the filters
        # The options of the page shown, by entry id, with the entry and mark they were made for: a
        # reload that adds one entry redraws the page with the others' options (their prompt, and
        # the height the list measured for it) as they were, and builds and measures the new one only.
        self._options: dict[str, tuple[views.EntryView, bool, Option]] = {}

    def _option(self, entry: views.EntryView, selected: bool) -> Option:
        made = self._options.get(entry.id)
        if made is not None and made[0] == entry and made[1] == selected:
            return made[2]
        return Option(entry_prompt(entry, selected, self._readers(entry)), id=entry.id)

    def _readers(self, entry: views.EntryView) -> str:
        return self.view.readers(entry.audience) if self.view is not None else ""

    def show(
        self, view: views.ChronicleView, selected: set[str] | frozenset[str] = frozenset(), page: int | None = None
    ) -> None:
        """The entries of `page` (the current one by default), keeping the highlighted one when it
        is still shown."""
        listing = self.query_one("#entries", OptionList)
        highlighted = listing.highlighted_option.id if listing.highlighted_option else None
        self.view = view
        self.entries = view.entries
        self.visible_total = view.total
        count = len(view.entries)
        self.pages = max(1, -(-count // PAGE_SIZE))
        self.page = min(max(0, self.page if page is None else page), self.pages - 1)
        newest = count - 1 - self.page * PAGE_SIZE  # only this page's entries are drawn
        shown = [view.entries[position] for position in range(newest, max(-1, newest - PAGE_SIZE), -1)]
        options = [self._option(e, e.id in selected) for e in shown]
        self._options = {e.id: (e, e.id in selected, option) for e, option in zip(shown, options, strict=True)}
        listing.clear_options()
        listing.add_options(options)
        if highlighted is not None and any(e.id == highlighted for e in shown):
            listing.highlighted = listing.get_option_index(highlighted)
        elif shown:
            listing.highlighted = 0
        self.border_title = f"Chronicle · {len(view.entries)} of {view.total} entries"
        self.status(len(set(selected) & set(view.entries.ids)) if selected else 0)

    def highlighted(self) -> str | None:
        """The highlighted entry's id."""
        option = self.query_one("#entries", OptionList).highlighted_option
        return option.id if option is not None else None

    def mark(self, entry_id: str, selected: bool) -> None:
        """Mark (or unmark) an entry as selected, and move on to the next one."""
        listing = self.query_one("#entries", OptionList)
        entry = self.entries.by_id(entry_id)
        listing.replace_option_prompt(entry_id, entry_prompt(entry, selected, self._readers(entry)))
        self._options[entry_id] = (entry, selected, listing.get_option(entry_id))
        if listing.highlighted is not None and listing.highlighted < listing.option_count - 1:
            listing.highlighted += 1

    def status(self, selected: int) -> None:
        """The line under the entries: how many are selected and the keys, or why none shows."""
        chosen = f"{selected} selected · " if selected else ""
        paging = ""
        if self.pages > 1:
            first = self.page * PAGE_SIZE + 1
            last = min(len(self.entries), first + PAGE_SIZE - 1)
            paging = f"page {self.page + 1} of {self.pages} · {first}-{last} of {len(self.entries)} · [ ] page · "
        text = f"{chosen}{paging}space select · x export · newest first"
        if not self.visible_total:
            text = "The chronicle is empty: nothing has been rolled, noted or advanced that you may read."
        elif not self.entries:
            text = "No entries match. Clear the filters with escape."
        self.query_one("#chronicle-status", Static).update(Content.styled(text, "dim"))
