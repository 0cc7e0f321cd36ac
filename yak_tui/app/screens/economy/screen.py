"""Business market: every province's sectors with their Potential and how full they are (a full
sector means expanding takes competition), the businesses there with Size, owner, income after
the state's tax and monopoly, the highlighted business in detail (the exact odds of expanding it,
production, credit and loan capacity), the credit and loans ledger, and each kingdom's
specialists, hiring limits and academies.

A player sees his own businesses' books and debts only (the rest of the market is public: names,
owners, Sizes, monopolies) and acts on his own businesses only: what he may not adjudicate himself
(an expansion into a full sector, credit to another character) is filed as an order through the
order dialog; the GM acts directly. Keys: x expand, p produce, n open a business, l credit,
t loan, y repay, h hire, f found an academy, v your businesses / the province's.
The data comes from the economy's read models (`yak_tui.areas.economy`); commands run through the command dialog.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path, PurePath
from typing import ClassVar

from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable

from yak_tui.app.kit import YakScreen
from yak_tui.app.kit.common import YakTable, num
from yak_tui.app.kit.styles import RULES_TCSS
from yak_tui.app.messages import PaletteEntry
from yak_tui.app.screens.economy.panels import (
    AcademiesPanel,
    BusinessesPanel,
    DetailPanel,
    LedgerPanel,
    MarketAction,
    SectorsPanel,
    SpecialistsPanel,
)
from yak_tui.areas import economy as board
from yak_tui.kernel.play.identity import Identity, who_may_words
from yak_tui.kernel.world.model import World


class Routed(Message):
    """A worker decided how the viewer carries out an action: run it, file an order, or not at all."""

    def __init__(self, action: str, key: str, route: board.Route) -> None:
        super().__init__()
        self.action = action
        self.key = key
        self.route = route


class DetailReady(Message):
    def __init__(self, business_id: str, version: int, detail: board.BusinessDetail | None) -> None:
        super().__init__()
        self.business_id = business_id
        self.version = version
        self.detail = detail


class MarketScreen(YakScreen):
    SCREEN_NAME = "market"
    EDIT_ROWS = (
        ("businesses-table", "businesses"),
        ("ledger-table", "ledger"),
        ("specialists-table", "specialists"),
        ("academies-table", "academies"),
    )  # the GM's editor (E)
    # rules.tcss too, so its market rules apply whether or not another rule screen loaded it first.
    CSS_PATH: ClassVar[list[str | PurePath]] = [RULES_TCSS, Path(__file__).with_name("market.tcss")]
    AUTO_FOCUS = "#sectors-table"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "act('expand')", "Expand"),
        Binding("p", "act('produce')", "Produce"),
        Binding("h", "act('hire')", "Hire", show=False),
        Binding("v", "toggle_mine", "Mine/all"),
        Binding("n", "act('open')", "Open business", show=False),
        Binding("l", "act('credit')", "Extend credit", show=False),
        Binding("t", "act('loan')", "Lend (loan)", show=False),
        Binding("f", "act('academy')", "Found academy", show=False),
    ]

    ACTS = frozenset({"act"})  # every market action runs or files a command: never an observer's

    # Businesses panel: the viewer's own (players and Kings start here) or the highlighted province's.
    mine_only: reactive[bool] = reactive(False, init=False)
    business: reactive[str] = reactive("", init=False)

    def __init__(self) -> None:
        super().__init__()
        self.board: board.MarketBoard | None = None
        self._detail_version = 0
        self._seen_identity: Identity | None = None
        self._painting = False
        # What the businesses panel shows: (board, mine only, province, sector); a highlight of the
        # sector it already shows (the paint moved the cursor there) does not fill it again.
        self._businesses_shown: tuple[int, bool, str, str] | None = None

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(classes="columns", can_focus=False):
            with Vertical(classes="column", id="market-left"):
                yield SectorsPanel()
                yield BusinessesPanel()
                yield LedgerPanel()
            with Vertical(classes="column", id="market-right"):
                yield DetailPanel()
                yield SpecialistsPanel()
                yield AcademiesPanel()

    # -- rendering -------------------------------------------------------------------------------------
    def build_view(self, world: World, identity: Identity) -> board.MarketBoard:
        return board.market_board(world, identity)

    def view_key(self) -> tuple[()]:
        return ()  # a pure function of the world and the seat: shared by the process's apps

    def paint_view(self, view: board.MarketBoard) -> None:
        first = self._seen_identity != self.identity
        if first:
            # A new viewer: players and Kings start on their own businesses, the GM on the market.
            self._seen_identity = self.identity
            self.set_reactive(MarketScreen.mine_only, not self.identity.is_gm)
        self.board = view
        self._painting = True  # the detail is drawn below, with the rest: no worker for it meanwhile
        try:
            self.query_one(SectorsPanel).show(self.board)
            if first:
                own = next((b for b in self.board.businesses if b.mine), None)
                if own is not None:
                    self.query_one(SectorsPanel).move_to(f"{own.province_id}:{own.sector}")
            self._businesses()
            for panel in (
                self.query_one(LedgerPanel),
                self.query_one(SpecialistsPanel),
                self.query_one(AcademiesPanel),
            ):
                panel.show(self.board)
        finally:
            self._painting = False
        # One business's detail is cheap (about 1 ms at 100x, 9 ms at 1000x): drawn in the same frame
        # as the board rather than by a worker landing a frame (and a layout) later.
        self._load_detail(now=True)

    def _highlighted_sector(self) -> tuple[str, str]:
        return self.query_one(SectorsPanel).highlighted()

    def _businesses(self) -> None:
        if self.board is None:
            return
        province, sector = self._highlighted_sector()
        shown = (id(self.board), self.mine_only, province, sector)
        if shown == self._businesses_shown:
            return
        self._businesses_shown = shown
        panel = self.query_one(BusinessesPanel)
        panel.show(self.board, self.mine_only, province, sector)
        self.business = panel.highlighted()

    # -- the detail panel ----------------------------------------------------------------------------------
    def watch_business(self) -> None:
        if not self._painting:
            self._load_detail()

    def _load_detail(self, now: bool = False) -> None:
        """Show the highlighted business's detail: `now`, or from a worker (a cursor moving fast at
        1000x keeps the keyboard)."""
        self._detail_version += 1
        if not self.business:
            self._show_detail(None)
            return
        if now:
            self._show_detail(board.business_detail(self.yak.world, self.identity, self.business))
            return
        self._compute_detail(self.business, self._detail_version)

    @work(thread=True, exclusive=True, group="market-detail", exit_on_error=False)
    def _compute_detail(self, business_id: str, version: int) -> None:
        detail = board.business_detail(self.yak.world, self.identity, business_id)
        self.post_message(DetailReady(business_id, version, detail))

    @on(DetailReady)
    def _detail_ready(self, event: DetailReady) -> None:
        if event.version == self._detail_version:
            self._show_detail(event.detail)

    def _show_detail(self, detail: board.BusinessDetail | None) -> None:
        info = None
        if detail is None:
            province, _ = self._highlighted_sector()
            info = board.province_info(self.yak.world, self.identity, province) if province else None
        self.query_one(DetailPanel).show_detail(detail, info)

    # -- actions -------------------------------------------------------------------------------------------
    def watch_mine_only(self) -> None:
        self._businesses()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Players neither hire nor found academies: the kingdom's King does (keys hidden)."""
        if not super().check_action(action, parameters):
            return False
        if action == "act" and parameters and parameters[0] in ("hire", "academy"):
            return not self.identity.is_player
        return True

    def action_toggle_mine(self) -> None:
        self.mine_only = not self.mine_only

    @on(DataTable.RowHighlighted, "#sectors-table")
    def _sector_highlighted(self) -> None:
        if not self.mine_only:
            self._businesses()
        self._reveal_cursors()

    def on_resize(self, event: events.Resize) -> None:
        self._reveal_cursors()

    def _reveal_cursors(self) -> None:
        """Scroll each table to its cursor once the layout has settled (tables resize as they fill)."""
        for table in self.query(YakTable):
            if table.row_count:
                table.call_after_refresh(lambda t=table: t.move_cursor(row=t.cursor_row, animate=False))

    @on(DataTable.RowHighlighted, "#businesses-table")
    def _business_highlighted(self, event: DataTable.RowHighlighted) -> None:
        self.business = str(event.row_key.value) if event.row_key is not None else ""

    @on(DataTable.RowSelected, "#sectors-table")
    def _sector_selected(self) -> None:
        self.query_one("#businesses-table").focus()

    @on(DataTable.RowSelected, "#businesses-table")
    def _business_selected(self) -> None:
        if self.check_action("act", ("expand",)):
            self.action_act("expand")

    def action_act(self, action: str) -> None:
        self.post_message(MarketAction(action, None))

    @on(MarketAction)
    def _market_action(self, event: MarketAction) -> None:
        world = self.yak.world
        key, trial = self._target(event.action, event.key)
        if trial is None:
            return
        self._route(event.action, key, trial[0], trial[1], [world])

    def _target(self, action: str, key: str | None) -> tuple[str, tuple[str, dict[str, object]] | None]:
        """The row an action is for, and the command with trial values to ask who may run it."""
        world = self.yak.world
        if action in ("expand", "produce", "credit", "loan"):
            bid = self.business
            doc = world.find("businesses", bid) if bid else None
            if doc is None:
                self.notify("Highlight a business first.", severity="warning")
                return bid, None
            if action == "expand":
                return bid, ("business-expand", {"business": bid, "sizes": 1})
            if action == "produce":
                if doc.get("sector") != "industrial":
                    self.notify(
                        f"{doc['name']} is {doc.get('sector')}: only industrial businesses produce goods.",
                        severity="warning",
                    )
                    return bid, None
                resources = (world.find("provinces", doc.get("province")) or {}).get("resources", [])
                return bid, ("produce", {"business": bid, "good": resources[0] if resources else "", "quantity": 1})
            debtors = board.debtor_choices(world, self.identity, bid)
            if action == "credit":
                return bid, ("credit-extend", {"lender": bid, "debtor": debtors[0] if debtors else "", "amount": 1})
            return bid, (
                "loan-extend",
                {"lender": bid, "debtor": debtors[0] if debtors else "", "principal": 1, "term": 1},
            )
        if action == "repay":
            debt = key or self.query_one(LedgerPanel).highlighted()
            doc = world.find("ledger", debt) if debt else None
            if doc is None or doc.get("kind") not in ("credit", "loan"):
                self.notify("Highlight a credit or a loan in the ledger.", severity="warning")
                return debt or "", None
            return str(debt), (f"{doc['kind']}-repay", {"debt": debt})
        if action in ("hire", "academy"):
            kingdom = self._kingdom()
            if kingdom is None:
                self.notify(
                    "Only a King (for his kingdom) or the GM hires specialists and founds academies.",
                    severity="warning",
                )
                return "", None
            if action == "hire":
                return kingdom, ("hire", {"kingdom": kingdom, "type": "engineer"})
            return kingdom, ("academy-found", {"kingdom": kingdom})
        if action == "open":
            province, sector = self._highlighted_sector()
            if not province:
                self.notify("Highlight a province's sector first.", severity="warning")
                return "", None
            pc = next((pid for pid, doc in world.all("pcs") if doc.get("province") == province), "")
            owner = (
                self.identity.subject
                if self.identity.is_player
                else next((cid for cid, _ in world.all("characters")), "")
            )
            return f"{province}:{sector}", (
                "business-open",
                {"owner": owner, "province": province, "pc": pc, "sector": sector, "name": "A new business"},
            )
        return "", None

    def _kingdom(self) -> str | None:
        ident = self.identity
        if ident.is_king:
            return ident.subject
        if ident.is_gm:
            return self.query_one(SpecialistsPanel).highlighted() or next(
                (kid for kid, _ in self.yak.world.all("kingdoms")), None
            )
        return None

    @work(thread=True, exclusive=True, group="market-route", exit_on_error=False)
    def _route(self, action: str, key: str, command: str, trial: dict[str, object], held: list[World]) -> None:
        """Where an action goes, decided on the world in `held`: taken out of it, so the finished
        Worker (kept in reference cycles) holds no world (see `DashboardScreen._load_due`)."""
        world = held.pop()
        # A King or the GM founds academies for a kingdom already checked; the dialog says the rest.
        direct = command == "academy-found"
        route = board.Route("direct") if direct else board.action_route(world, self.identity, command, trial)
        self.post_message(Routed(action, key, route))

    @on(Routed)
    def _routed(self, event: Routed) -> None:
        route = event.route
        if route.kind == "refused":
            who = f" Who may: {who_may_words(route.who_may)}." if route.who_may else ""
            self.notify(f"{route.reason}.{who}", title="Not yours to do", severity="warning")
            return
        if route.kind == "order":
            self._file_order(event.action, event.key, route)
            return
        self._open_dialog(event.action, event.key)

    def _file_order(self, action: str, key: str, route: board.Route) -> None:
        from yak_tui.app.kit.order import OrderScreen

        command = {
            "expand": "business-expand",
            "produce": "produce",
            "credit": "credit-extend",
            "loan": "loan-extend",
            "open": "business-open",
        }.get(action)
        if command is None:
            self.notify(route.reason, severity="warning")
            return
        holding = ("businesses", key) if action in ("expand", "produce", "credit", "loan") else None
        self.notify(route.reason, title="File it as an order for its adjudicator")
        self.app.push_screen(OrderScreen(command=command, holding=holding))

    def _open_dialog(self, action: str, key: str) -> None:
        from yak_tui.app.screens.economy import dialogs

        world = self.yak.world
        name = world.display_name("businesses", key) if action in ("expand", "produce", "credit", "loan") else ""
        if action == "expand":
            self.app.push_screen(dialogs.ExpandScreen(key, name))
        elif action == "produce":
            doc = world.find("businesses", key) or {}
            resources = (world.find("provinces", doc.get("province")) or {}).get("resources", [])
            self.app.push_screen(dialogs.ProduceScreen(key, name, resources[0] if resources else ""))
        elif action in ("credit", "loan"):
            self.app.push_screen(dialogs.LendScreen(action, key, name))
        elif action == "hire":
            self.app.push_screen(dialogs.HireScreen(key, world.display_name("kingdoms", key)))
        elif action == "repay":
            doc = world.find("ledger", key) or {}
            self.yak.open_command(
                f"{doc.get('kind', 'credit')}-repay",
                {"debt": key},
                hidden=("debt",),
                title=f"Repay {key} to {doc.get('lender_name', '')}",
                intro=f"{num(doc.get('outstanding'))} outstanding; leave the amount empty to repay it all.",
            )
        elif action == "academy":
            self.yak.open_command(
                "academy-found", {"kingdom": key}, title=f"Found an academy for {world.display_name('kingdoms', key)}"
            )
        elif action == "open":
            province, _, sector = key.partition(":")
            preset = {"province": province, "sector": sector}
            if self.identity.is_player:
                preset["owner"] = self.identity.subject
            self.yak.open_command(
                "business-open", preset, title=f"Open a business in {world.display_name('provinces', province)}"
            )

    def palette_entries(self) -> list[PaletteEntry]:
        name = self.yak.world.display_name("businesses", self.business) if self.business else "the business"
        entries = [
            PaletteEntry(f"Market: expand {name}", "odds first, then the dice (x)", partial(self.action_act, "expand")),
            PaletteEntry(
                f"Market: production order for {name}",
                "goods of its province, cost shown (p)",
                partial(self.action_act, "produce"),
            ),
            PaletteEntry(
                "Market: open a business",
                "in the highlighted province and sector (n)",
                partial(self.action_act, "open"),
            ),
            PaletteEntry(
                f"Market: extend credit from {name}", "commercial Size 4+ (l)", partial(self.action_act, "credit")
            ),
            PaletteEntry(f"Market: lend from {name}", "commercial Size 8+ (t)", partial(self.action_act, "loan")),
            PaletteEntry("Market: repay the highlighted debt", "credit or loan (y)", partial(self.action_act, "repay")),
            PaletteEntry("Market: your businesses / the province's", "toggle (v)", self.action_toggle_mine),
        ]
        if not self.identity.is_player:
            entries += [
                PaletteEntry("Market: hire specialists", "limits and cost shown (h)", partial(self.action_act, "hire")),
                PaletteEntry(
                    "Market: found an academy", "3 specialists a level (f)", partial(self.action_act, "academy")
                ),
            ]
        return entries
