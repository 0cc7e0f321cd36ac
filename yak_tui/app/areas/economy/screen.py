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
The data comes from `yak_tui.areas.economy.read`; commands run through the command dialog.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path, PurePath
from typing import ClassVar

from rich.text import Text
from textual import events, on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import DataTable, Static

from yak_tui.app.kit import YakScreen
from yak_tui.app.kit.common import FULL, NEARLY, ROOMY, Panel, YakTable, bar, num
from yak_tui.app.kit.styles import RULES_TCSS
from yak_tui.app.messages import PaletteEntry
from yak_tui.areas import economy as board
from yak_tui.areas.court import short_name
from yak_tui.kernel.identity import Identity
from yak_tui.kernel.model import World

SECTOR_COLUMNS = ["Province", "Sector", "Pot.", "Used", "Room", "Fill", "Businesses (size)"]
SPECIALIST_SHORT = {"engineer": "Eng.", "spy": "Spies", "missionary": "Miss.", "sailor": "Sail."}


class MarketAction(Message):
    """A table asks the market for an action (`expand`, `produce`, `repay`, `hire`, ...) on a row."""

    def __init__(self, action: str, key: str | None) -> None:
        super().__init__()
        self.action = action
        self.key = key


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


class LedgerTable(YakTable):
    """Credit and loans the viewer is party to; y repays the highlighted debt (its debtor)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("y", "act('repay')", "Repay")]

    def action_act(self, action: str) -> None:
        self.post_message(MarketAction(action, self.cursor_row_key()))


class MarketScreen(YakScreen):
    SCREEN_NAME = "market"
    # rules.tcss too, so its market rules apply whether or not another rule screen loaded it first.
    CSS_PATH: ClassVar[list[str | PurePath]] = [RULES_TCSS,
                                                 Path(__file__).with_name("market.tcss")]
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

    # Businesses panel: the viewer's own (players and Kings start here) or the highlighted province's.
    mine_only: reactive[bool] = reactive(False, init=False)
    business: reactive[str] = reactive("", init=False)

    def __init__(self) -> None:
        super().__init__()
        self.board: board.MarketBoard | None = None
        self._detail_version = 0
        self._seen_identity: Identity | None = None

    def compose_body(self) -> ComposeResult:
        with VerticalScroll(classes="columns", can_focus=False):
            with Vertical(classes="column", id="market-left"):
                yield Panel("Sectors by province", YakTable(id="sectors-table"), id="sectors", classes="grow")
                yield Panel("Businesses", YakTable(id="businesses-table"), id="businesses")
                yield Panel("Credit & loans", LedgerTable(id="ledger-table"), id="ledger")
            with Vertical(classes="column", id="market-right"):
                yield Panel("Business", Static(id="detail-text"), id="detail")
                yield Panel("Specialists & hiring", YakTable(id="specialists-table"),
                            Static(id="hire-note", classes="note"), id="specialists")
                yield Panel("Academies", YakTable(id="academies-table"), id="academies")

    # -- rendering -------------------------------------------------------------------------------------
    def refresh_view(self, world: World) -> None:
        first = self._seen_identity != self.identity
        if first:
            # A new viewer: players and Kings start on their own businesses, the GM on the market.
            self._seen_identity = self.identity
            self.set_reactive(MarketScreen.mine_only, not self.identity.is_gm)
        self.board = board.market_board(world, self.identity)
        self._sectors()
        if first:
            own = next((b for b in self.board.businesses if b.mine), None)
            table = self.query_one("#sectors-table", YakTable)
            key = f"{own.province_id}:{own.sector}" if own else None
            if key is not None and key in table.rows:
                table.move_cursor(row=table.get_row_index(key), animate=False)
        self._businesses()
        self._ledger()
        self._specialists()
        self._academies()
        self._load_detail()

    def _sectors(self) -> None:
        assert self.board is not None
        rows = []
        for s in self.board.sectors:
            names = ", ".join(f"{b.name} ({b.size}{'★' if b.monopoly else ''})" for b in s.businesses) or "—"
            fill = fill_cell(s)
            potential = Text(num(s.potential), justify="right")
            if s.potential != s.base_potential:
                potential = Text.assemble((num(s.potential), "bold"), (f"/{s.base_potential}", "dim"),
                                          justify="right")
            mine = any(b.mine for b in s.businesses)
            rows.append((s.key, [Text(s.province, style="bold" if mine else ""), s.sector, potential,
                                 Text(num(s.used), justify="right"),
                                 Text(num(s.room), justify="right", style=f"bold {FULL}" if s.full else ""),
                                 fill, Text(names, style="" if s.businesses else "dim")]))
        self.query_one("#sectors-table", YakTable).fill(SECTOR_COLUMNS, rows, empty="No province you may see.")
        full = sum(1 for s in self.board.sectors if s.full)
        self.query_one("#sectors").border_subtitle = f"{full} full: expanding there means competition"

    def _highlighted_sector(self) -> tuple[str, str]:
        key = self.query_one("#sectors-table", YakTable).cursor_row_key() or ""
        province, _, sector = key.partition(":")
        return province, sector

    def _businesses(self) -> None:
        if self.board is None:
            return
        province, sector = self._highlighted_sector()
        table = self.query_one("#businesses-table", YakTable)
        panel = self.query_one("#businesses")
        if self.mine_only:
            shown = [b for b in self.board.businesses if b.mine]
            panel.border_title = "Your businesses" if self.identity.is_player else "Your kingdom's businesses"
            empty = "You own no business. n opens one."
        else:
            shown = [b for b in self.board.businesses if b.province_id == province or not province]
            # The highlighted sector's businesses first, so the cursor lands on one of them.
            shown.sort(key=lambda b: b.sector != sector)
            name = self.yak.world.display_name("provinces", province) if province else ""
            panel.border_title = f"Businesses in {name}" if name else "Businesses"
            empty = f"No businesses in {name}. n opens one." if name else "No businesses."
        panel.border_subtitle = "v all" if self.mine_only else ("v yours" if not self.identity.is_gm else "")
        keep = table.cursor_row_key()
        rows = []
        for b in shown:
            income = (Text("—", style="dim", justify="right") if b.income is None
                      else Text.assemble((num(b.income), "bold"), (f" ({b.size}−{b.tax})" if b.tax else "", "dim"),
                                         justify="right"))
            cells: list[object] = [Text(b.name, style="bold" if b.mine else "")]
            if not self.mine_only:
                cells.append(short_name(b.owner))
            cells += [Text(b.sector, style="" if (self.mine_only or b.sector == sector) else "dim"),
                      Text(str(b.size), justify="right"), income,
                      Text(b.monopoly or "—", style=f"bold {NEARLY}" if b.monopoly else "dim")]
            if self.mine_only:
                cells.append(b.province)
            rows.append((b.id, cells))
        columns = ["Business", *([] if self.mine_only else ["Owner"]), "Sector", "Size", "Income", "Monopoly",
                   *(["Province"] if self.mine_only else [])]
        table.fill(columns, rows, empty=empty)
        if not self.mine_only and keep not in {b.id for b in shown if b.sector == sector}:
            first = next((i for i, b in enumerate(shown) if b.sector == sector), None)
            if first is not None:
                table.move_cursor(row=first, animate=False)
        self.business = table.cursor_row_key() or ""

    def _ledger(self) -> None:
        assert self.board is not None
        rows = []
        for d in self.board.ledger:
            status = Text(d.status, style=f"bold {FULL}" if d.urgent or d.status == "overdue" else
                          ROOMY if d.status == "repaid" else "")
            rows.append((d.id, [Text(d.id, style="bold"), d.kind,
                                Text(num(d.outstanding), justify="right", style="bold" if d.outstanding else "dim"),
                                Text(num(d.amount), justify="right"),
                                Text(d.due, style=f"bold {FULL}" if d.urgent else ""), status, d.lender,
                                short_name(d.debtor)]))
        empty = ("No credit or loans on the books." if self.identity.is_gm
                 else "No credit or loans of yours. Only the parties see a debt.")
        self.query_one("#ledger-table", LedgerTable).fill(
            ["Debt", "Kind", "Owed", "Amount", "Due", "Status", "Lender", "Debtor"], rows, empty=empty)
        panel = self.query_one("#ledger")
        panel.border_title = f"Credit & loans ({len(rows)})" if rows else "Credit & loans"
        panel.border_subtitle = "y repay" if rows else ""

    def _specialists(self) -> None:
        assert self.board is not None
        types = self.board.specialist_types
        rows = []
        for line in self.board.specialists:
            pool = dict(line.pool)
            hired = {t: (h, limit) for t, h, limit in line.hired}
            cells: list[object] = [Text(short_name(line.kingdom), style="bold")]
            for kind in types:
                count = Text(str(pool.get(kind, 0)), style="bold")
                if kind in hired:
                    h, limit = hired[kind]
                    count.append(" · ", style="dim")
                    count.append(f"{h}/{limit}", style=f"bold {FULL}" if h >= limit else "dim")
                cells.append(count)
            rows.append((line.kingdom_id, cells))
        empty = "Only a kingdom's King and the GM see its specialists." if self.identity.is_player else ""
        self.query_one("#specialists-table", YakTable).fill(
            ["Kingdom", *(SPECIALIST_SHORT.get(t, t.capitalize()) for t in types)], rows, empty=empty or "None.")
        note = self.query_one("#hire-note", Static)
        note.display = bool(rows)
        note.update(Content.assemble(("pool · hired/allowed   ", "dim"), ("h", "bold $accent"),
                                     (f" hire: {self.board.hire_cost_next_season} next season,"
                                      f" {self.board.hire_cost_now} now", "")))

    def _academies(self) -> None:
        assert self.board is not None
        rows = [(a.id, [Text(short_name(a.kingdom), style="bold"), a.town, a.type,
                        Text(str(a.level), justify="right"), Text(f"+{a.output}", justify="right")])
                for a in self.board.academies]
        self.query_one("#academies-table", YakTable).fill(
            ["Kingdom", "Town", "Trains", "Level", "A year"], rows, empty="No academies.")
        panel = self.query_one("#academies")
        panel.border_title = f"Academies ({len(rows)})" if rows else "Academies"
        panel.border_subtitle = "" if self.identity.is_player else "f found"

    # -- the detail panel ----------------------------------------------------------------------------------
    def watch_business(self) -> None:
        self._load_detail()

    def _load_detail(self) -> None:
        self._detail_version += 1
        if not self.business:
            self._show_detail(None)
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
        panel = self.query_one("#detail")
        text = self.query_one("#detail-text", Static)
        if detail is None:
            province, _ = self._highlighted_sector()
            info = board.province_info(self.yak.world, self.identity, province) if province else None
            panel.border_title = info.name if info else "Business"
            panel.border_subtitle = "n open a business"
            lines = [] if info is None else [province_content(info)]
            lines.append(Content.styled("No business highlighted: its books and odds show here.",
                                        "italic $foreground-muted"))
            text.update(Content("\n").join(lines))
            return
        b = detail.business
        panel.border_title = b.name
        keys = ["x expand"]
        if b.sector == "industrial":
            keys.append("p produce")
        if detail.credit is not None and detail.credit.qualifies:
            keys.append("l credit")
        if detail.loan is not None and detail.loan.qualifies:
            keys.append("t loan")
        panel.border_subtitle = " · ".join(keys) if (b.mine or self.identity.is_gm) else ""
        text.update(detail_content(detail, self.identity))

    # -- actions -------------------------------------------------------------------------------------------
    def watch_mine_only(self) -> None:
        self._businesses()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Players neither hire nor found academies: the kingdom's King does (keys hidden)."""
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
        self.action_act("expand")

    def action_act(self, action: str) -> None:
        self.post_message(MarketAction(action, None))

    @on(MarketAction)
    def _market_action(self, event: MarketAction) -> None:
        world = self.yak.world
        key, trial = self._target(event.action, event.key)
        if trial is None:
            return
        self._route(event.action, key, trial[0], trial[1], world)

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
                    self.notify(f"{doc['name']} is {doc.get('sector')}: only industrial businesses produce goods.",
                                severity="warning")
                    return bid, None
                resources = (world.find("provinces", doc.get("province")) or {}).get("resources", [])
                return bid, ("produce", {"business": bid, "good": resources[0] if resources else "", "quantity": 1})
            debtors = board.debtor_choices(world, self.identity, bid)
            if action == "credit":
                return bid, ("credit-extend", {"lender": bid, "debtor": debtors[0] if debtors else "", "amount": 1})
            return bid, ("loan-extend", {"lender": bid, "debtor": debtors[0] if debtors else "", "principal": 1,
                                         "term": 1})
        if action == "repay":
            debt = key or self.query_one("#ledger-table", LedgerTable).cursor_row_key()
            doc = world.find("ledger", debt) if debt else None
            if doc is None or doc.get("kind") not in ("credit", "loan"):
                self.notify("Highlight a credit or a loan in the ledger.", severity="warning")
                return debt or "", None
            return str(debt), (f"{doc['kind']}-repay", {"debt": debt})
        if action in ("hire", "academy"):
            kingdom = self._kingdom()
            if kingdom is None:
                self.notify("Only a King (for his kingdom) or the GM hires specialists and founds academies.",
                            severity="warning")
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
            owner = self.identity.subject if self.identity.is_player else next(
                (cid for cid, _ in world.all("characters")), "")
            return f"{province}:{sector}", ("business-open", {"owner": owner, "province": province, "pc": pc,
                                                              "sector": sector, "name": "A new business"})
        return "", None

    def _kingdom(self) -> str | None:
        ident = self.identity
        if ident.is_king:
            return ident.subject
        if ident.is_gm:
            return self.query_one("#specialists-table", YakTable).cursor_row_key() or next(
                (kid for kid, _ in self.yak.world.all("kingdoms")), None)
        return None

    @work(thread=True, exclusive=True, group="market-route", exit_on_error=False)
    def _route(self, action: str, key: str, command: str, trial: dict[str, object], world: World) -> None:
        # A King or the GM founds academies for a kingdom already checked; the dialog says the rest.
        direct = command == "academy-found"
        route = board.Route("direct") if direct else board.action_route(world, self.identity, command, trial)
        self.post_message(Routed(action, key, route))

    @on(Routed)
    def _routed(self, event: Routed) -> None:
        route = event.route
        if route.kind == "refused":
            who = f" Who may: {', '.join(route.who_may)}." if route.who_may else ""
            self.notify(f"{route.reason}.{who}", title="Not yours to do", severity="warning")
            return
        if route.kind == "order":
            self._file_order(event.action, event.key, route)
            return
        self._open_dialog(event.action, event.key)

    def _file_order(self, action: str, key: str, route: board.Route) -> None:
        from yak_tui.app.kit.order import OrderScreen

        command = {"expand": "business-expand", "produce": "produce", "credit": "credit-extend",
                   "loan": "loan-extend", "open": "business-open"}.get(action)
        if command is None:
            self.notify(route.reason, severity="warning")
            return
        holding = ("businesses", key) if action in ("expand", "produce", "credit", "loan") else None
        self.notify(route.reason, title="File it as an order for its adjudicator")
        self.app.push_screen(OrderScreen(command=command, holding=holding))

    def _open_dialog(self, action: str, key: str) -> None:
        from yak_tui.app.areas.economy import dialogs

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
            self.yak.open_command(f"{doc.get('kind', 'credit')}-repay", {"debt": key}, hidden=("debt",),
                                  title=f"Repay {key} to {doc.get('lender_name', '')}",
                                  intro=f"{num(doc.get('outstanding'))} outstanding; leave the amount empty to repay "
                                        "it all.")
        elif action == "academy":
            self.yak.open_command("academy-found", {"kingdom": key}, title=f"Found an academy for "
                                  f"{world.display_name('kingdoms', key)}")
        elif action == "open":
            province, _, sector = key.partition(":")
            preset = {"province": province, "sector": sector}
            if self.identity.is_player:
                preset["owner"] = self.identity.subject
            self.yak.open_command("business-open", preset, title=f"Open a business in "
                                  f"{world.display_name('provinces', province)}")

    def palette_entries(self) -> list[PaletteEntry]:
        name = self.yak.world.display_name("businesses", self.business) if self.business else "the business"
        entries = [
            PaletteEntry(f"Market: expand {name}", "odds first, then the dice (x)", partial(self.action_act, "expand")),
            PaletteEntry(f"Market: production order for {name}", "goods of its province, cost shown (p)",
                         partial(self.action_act, "produce")),
            PaletteEntry("Market: open a business", "in the highlighted province and sector (n)",
                         partial(self.action_act, "open")),
            PaletteEntry(f"Market: extend credit from {name}", "commercial Size 4+ (l)", partial(self.action_act, "credit")),
            PaletteEntry(f"Market: lend from {name}", "commercial Size 8+ (t)", partial(self.action_act, "loan")),
            PaletteEntry("Market: repay the highlighted debt", "credit or loan (y)", partial(self.action_act, "repay")),
            PaletteEntry("Market: your businesses / the province's", "toggle (v)", self.action_toggle_mine),
        ]
        if not self.identity.is_player:
            entries += [PaletteEntry("Market: hire specialists", "limits and cost shown (h)",
                                     partial(self.action_act, "hire")),
                        PaletteEntry("Market: found an academy", "3 specialists a level (f)",
                                     partial(self.action_act, "academy"))]
        return entries


def fill_cell(sector: board.SectorLine, width: int = 11) -> Text:
    """A bar of the Potential in use; a full sector's bar reads "competition"."""
    if sector.full:
        return Text("competition".center(width), style=f"bold #1c1c1c on {FULL}")
    return bar(sector.fill, width)


def province_content(info: board.ProvinceInfo) -> Content:
    """A province's Potentials (after monopolies) and resources with what one good costs to make."""
    potentials = Content(" · ").join(
        Content.assemble(f"{name} ", (str(value), "bold"), (f"/{base}", "dim") if value != base else "")
        for name, value, base in info.potentials)
    goods = ", ".join(f"{r.good} {r.cost_each}" for r in info.resources) or "none"
    return Content("\n").join([
        Content.assemble(("Potentials ", "$foreground-muted"), potentials),
        Content.assemble(("Resources  ", "$foreground-muted"), goods, (" ducats each to make", "dim"))])


def _goods(goods: tuple[board.Goods, ...]) -> str:
    return ", ".join(f"{g.quantity} {g.good}" for g in goods) or "—"


def detail_content(detail: board.BusinessDetail, viewer: Identity) -> Content:
    """The highlighted business: who and where, books, its sector, expansion odds, production,
    credit and loan capacity (the books only for its owner and the GM)."""
    b = detail.business
    rows: list[tuple[str, Content]] = []
    gm = viewer.is_gm
    mark = "  yours" if viewer.is_player else "  your kingdom's"
    owner = Content.assemble(b.owner, (mark, f"bold {ROOMY}") if b.mine else "")
    rows.append(("Owner", owner))
    rows.append(("Where", Content(f"{b.place}, {b.province} ({short_name(b.state)})")))
    if detail.province is not None:
        others = [(n, v, base) for n, v, base in detail.province.potentials if n not in ("industrial", "commercial",
                                                                                          "service")]
        if others:
            rows.append(("Province", Content(" · ").join(
                Content.assemble(f"{n} ", (str(v), "bold"), (f"/{base}", "dim") if v != base else "")
                for n, v, base in others)))
    size = Content.styled(f"{b.size}", "bold")
    if b.invested is not None:
        size += Content.styled(f" · invested {num(b.invested)}", "dim")
        if detail.dismantle is not None:
            size += Content.styled(f" · dismantles for {detail.dismantle}", "dim")
    rows.append(("Size", size))
    if b.income is not None:
        rows.append(("Income", Content.assemble((f"{b.income} a year", "bold"),
                                                (f"  Size {b.size} − tax {b.tax} ({b.tax_rate}% to "
                                                 f"{short_name(b.state)})", "dim"))))
    rows.append(("Monopoly", Content.styled(b.monopoly, f"bold {NEARLY}") if b.monopoly
                 else Content.styled("none", "dim")))
    if detail.sector is not None:
        s = detail.sector
        rows.append(("Sector", Content.assemble(f"{s.sector} {s.usage} ",
                                                ("full: competition", f"bold {FULL}") if s.full
                                                else (f"room for {s.room}", ROOMY))))
    p = detail.expand
    if p is not None and (b.mine or gm):
        if p.competitions and not p.rivals:
            rows.append(("Expand +1", Content.assemble(f"{p.cost} ducats · ", ("no rival to lose: it fails",
                                                                              f"bold {FULL}"))))
        elif p.competitions:
            rows.append(("Expand +1", Content.assemble(f"{p.cost} ducats · ", ("gains ", "dim"),
                                                      (f"{p.gains * 100:.1f}%", f"bold {ROOMY}"), ("  fails ", "dim"),
                                                      (f"{p.fails * 100:.1f}%", f"bold {NEARLY}"))))
            for rival in p.rivals:
                rows.append(("  may lose", Content.assemble((rival.name, "bold"), f" (Size {rival.size}"
                                                            f"{', monopoly' if rival.monopoly else ''}) ",
                                                            (f"{rival.lose * 100:.1f}%", f"bold {FULL}"))))
        else:
            rows.append(("Expand +1", Content.assemble(f"{p.cost} ducats · ", ("no competition", ROOMY))))
    if detail.production is not None:
        prod = detail.production
        goods = ", ".join(f"{r.good} {r.cost_each}" for r in prod.resources) or "none"
        rows.append(("Produce", Content.assemble((f"{prod.made} of {prod.limit}", "bold"), " this season · ",
                                                 ("each: ", "dim"), goods)))
    if b.detailed and (b.stock or b.warehouse):
        rows.append(("Goods", Content.assemble(_goods(b.stock), (" for sale · warehouse ", "dim"),
                                               _goods(b.warehouse))))
    for lending in (detail.credit, detail.loan):
        if lending is None:
            continue
        label = "Credit" if lending.kind == "credit" else "Loans"
        if not lending.qualifies:
            rows.append((label, Content.styled(f"from Size {lending.min_size}", "dim")))
        else:
            rows.append((label, Content.assemble((f"{num(lending.left)} left", "bold"),
                                                 (f" of {lending.limit} · {num(lending.out)} out · {lending.term}",
                                                  "dim"))))
    if detail.training is not None:
        done, limit = detail.training
        rows.append(("Training", Content.assemble((f"{done} of {limit}", "bold"), " sponsored this year")))
    if not b.detailed:
        rows.append(("Books", Content.styled("its owner's: you see the public record", "italic dim")))
    width = max(len(label) for label, _ in rows)
    return Content("\n").join(Content.assemble((label.ljust(width + 1), "$foreground-muted"), value)
                              for label, value in rows)
