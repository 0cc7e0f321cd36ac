"""The market's panels: each a widget with its own table (and keys) that draws itself from the
market's read model (`MarketBoard`, or a `BusinessDetail`) in `show(...)`; the screen composes
them, keeps the highlighted sector and business, and acts on the keys.

Sectors by province, the businesses (the viewer's own or the highlighted province's), the
credit and loans ledger (y repays: `MarketAction`), the highlighted business in detail,
specialists and hiring, academies.
"""

from __future__ import annotations

from functools import partial
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widgets import Static

from yak_tui.app.kit.common import FULL, NEARLY, ROOMY, Panel, YakTable, bar, num
from yak_tui.app.kit.running_app import ActingKeys, yak_of
from yak_tui.areas import economy as board
from yak_tui.areas.court import short_name
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.money import ducats

SECTOR_COLUMNS = ["Province", "Sector", "Pot.", "Used", "Room", "Fill", "Businesses (size)"]
SPECIALIST_SHORT = {"engineer": "Eng.", "spy": "Spies", "missionary": "Miss.", "sailor": "Sail."}


class MarketAction(Message):
    """A table asks the market for an action (`expand`, `produce`, `repay`, `hire`, ...) on a row."""

    def __init__(self, action: str, key: str | None) -> None:
        super().__init__()
        self.action = action
        self.key = key


class LedgerTable(ActingKeys, YakTable):
    """Credit and loans the viewer is party to; y repays the highlighted debt (its debtor)."""

    ACTS = frozenset({"act"})

    BINDINGS: ClassVar[list[BindingType]] = [Binding("y", "act('repay')", "Repay")]

    def action_act(self, action: str) -> None:
        self.post_message(MarketAction(action, self.cursor_row_key()))


class MarketPanel(Panel):
    """A panel of the market: `show(view)` draws it for the acting identity."""

    def show(self, view: board.MarketBoard) -> None:
        """Draw this panel from the market's read model."""

    @property
    def identity(self) -> Identity:
        return yak_of(self).identity


class SectorsPanel(MarketPanel):
    """Every province's sectors: Potential, how much is in use, and a full sector's "competition"."""

    def __init__(self) -> None:
        super().__init__("Sectors by province", YakTable(id="sectors-table"), id="sectors", classes="grow")

    def show(self, view: board.MarketBoard) -> None:
        rows = [(s.key, partial(_sector_cells, s)) for s in view.sectors]
        self.query_one("#sectors-table", YakTable).fill(SECTOR_COLUMNS, rows, empty="No province you may see.")
        full = sum(1 for s in view.sectors if s.full)
        self.border_subtitle = f"{full} full: expanding there means competition"

    def highlighted(self) -> tuple[str, str]:
        """The highlighted row's province and sector ("" and "" when none)."""
        key = self.query_one("#sectors-table", YakTable).cursor_row_key() or ""
        province, _, sector = key.partition(":")
        return province, sector

    def move_to(self, key: str) -> None:
        """Put the cursor on a sector (`province:sector`) if it is shown."""
        self.query_one("#sectors-table", YakTable).move_to_key(key)


def _sector_cells(s: board.SectorLine) -> list[object]:
    """A sector's row (made only when the table draws it)."""
    names = ", ".join(f"{b.name} ({b.size}{'★' if b.monopoly else ''})" for b in s.businesses) or "—"
    potential = Text(num(s.potential), justify="right")
    if s.potential != s.base_potential:
        potential = Text.assemble((num(s.potential), "bold"), (f"/{s.base_potential}", "dim"), justify="right")
    mine = any(b.mine for b in s.businesses)
    return [
        Text(s.province, style="bold" if mine else ""),
        s.sector,
        potential,
        Text(num(s.used), justify="right"),
        Text(num(s.room), justify="right", style=f"bold {FULL}" if s.full else ""),
        fill_cell(s),
        Text(names, style="" if s.businesses else "dim"),
    ]


class BusinessesPanel(MarketPanel):
    """The viewer's own businesses (`mine_only`), or a province's with the highlighted sector's first."""

    def __init__(self) -> None:
        super().__init__("Businesses", YakTable(id="businesses-table"), id="businesses")

    def show(self, view: board.MarketBoard, mine_only: bool = False, province: str = "", sector: str = "") -> None:
        table = self.query_one("#businesses-table", YakTable)
        identity = self.identity
        if mine_only:
            shown = [b for b in view.businesses if b.mine]
            self.border_title = "Your businesses" if identity.is_player else "Your kingdom's businesses"
            empty = "You own no business." if identity.is_observer else "You own no business. n opens one."
        else:
            shown = [b for b in view.businesses if b.province_id == province or not province]
            # The highlighted sector's businesses first, so the cursor lands on one of them.
            shown.sort(key=lambda b: b.sector != sector)
            name = yak_of(self).world.display_name("provinces", province) if province else ""
            self.border_title = f"Businesses in {name}" if name else "Businesses"
            empty = (
                (f"No businesses in {name}." + ("" if identity.is_observer else " n opens one."))
                if name
                else "No businesses."
            )
        self.border_subtitle = "v all" if mine_only else ("v yours" if not identity.is_gm else "")
        keep = table.cursor_row_key()
        rows = [(b.id, partial(_business_cells, b, mine_only, sector)) for b in shown]
        columns = [
            "Business",
            *([] if mine_only else ["Owner"]),
            "Sector",
            "Size",
            "Income",
            "Monopoly",
            *(["Province"] if mine_only else []),
        ]
        table.fill(columns, rows, empty=empty)
        if not mine_only and keep not in {b.id for b in shown if b.sector == sector}:
            first = next((b.id for b in shown if b.sector == sector), None)
            if first is not None:
                table.move_to_key(first)

    def highlighted(self) -> str:
        """The highlighted business's id ("" when none)."""
        return self.query_one("#businesses-table", YakTable).cursor_row_key() or ""


def _business_cells(b: board.BusinessLine, mine_only: bool, sector: str) -> list[object]:
    """A business's row (made only when the table draws it)."""
    income = (
        Text("—", style="dim", justify="right")
        if b.income is None
        else Text.assemble((num(b.income), "bold"), (f" ({b.size}−{b.tax})" if b.tax else "", "dim"), justify="right")
    )
    cells: list[object] = [Text(b.name, style="bold" if b.mine else "")]
    if not mine_only:
        cells.append(short_name(b.owner))
    cells += [
        Text(b.sector, style="" if (mine_only or b.sector == sector) else "dim"),
        Text(str(b.size), justify="right"),
        income,
        Text(b.monopoly or "—", style=f"bold {NEARLY}" if b.monopoly else "dim"),
    ]
    if mine_only:
        cells.append(b.province)
    return cells


class LedgerPanel(MarketPanel):
    """Credit and loans the viewer is party to (the GM: every debt); y repays."""

    def __init__(self) -> None:
        super().__init__("Credit & loans", LedgerTable(id="ledger-table"), id="ledger")

    def show(self, view: board.MarketBoard) -> None:
        rows = []
        for d in view.ledger:
            status = Text(
                d.status,
                style=f"bold {FULL}" if d.urgent or d.status == "overdue" else ROOMY if d.status == "repaid" else "",
            )
            rows.append(
                (
                    d.id,
                    [
                        Text(d.id, style="bold"),
                        d.kind,
                        Text(num(d.outstanding), justify="right", style="bold" if d.outstanding else "dim"),
                        Text(num(d.amount), justify="right"),
                        Text(d.due, style=f"bold {FULL}" if d.urgent else ""),
                        status,
                        d.lender,
                        short_name(d.debtor),
                    ],
                )
            )
        empty = (
            "No credit or loans on the books."
            if self.identity.is_gm
            else "No credit or loans of yours. Only the parties see a debt."
        )
        self.query_one("#ledger-table", LedgerTable).fill(
            ["Debt", "Kind", "Owed", "Amount", "Due", "Status", "Lender", "Debtor"], rows, empty=empty
        )
        self.border_title = f"Credit & loans ({len(rows)})" if rows else "Credit & loans"
        self.border_subtitle = "y repay" if rows else ""

    def highlighted(self) -> str | None:
        """The highlighted debt's id."""
        return self.query_one("#ledger-table", LedgerTable).cursor_row_key()


class DetailPanel(MarketPanel):
    """The highlighted business in full, or (none highlighted) the highlighted province's Potentials."""

    def __init__(self) -> None:
        super().__init__("Business", Static(id="detail-text"), id="detail")

    def show_detail(self, detail: board.BusinessDetail | None, province: board.ProvinceInfo | None = None) -> None:
        """Draw a business's detail; with none, the province's Potentials and resources."""
        text = self.query_one("#detail-text", Static)
        if detail is None:
            self.border_title = province.name if province else "Business"
            self.border_subtitle = "" if self.identity.is_observer else "n open a business"
            lines = [] if province is None else [province_content(province)]
            lines.append(
                Content.styled("No business highlighted: its books and odds show here.", "italic $foreground-muted")
            )
            text.update(Content("\n").join(lines))
            return
        b = detail.business
        self.border_title = b.name
        keys = ["x expand"]
        if b.sector == "industrial":
            keys.append("p produce")
        if detail.credit is not None and detail.credit.qualifies:
            keys.append("l credit")
        if detail.loan is not None and detail.loan.qualifies:
            keys.append("t loan")
        self.border_subtitle = " · ".join(keys) if (b.mine or self.identity.is_gm) else ""
        text.update(detail_content(detail, self.identity))


class SpecialistsPanel(MarketPanel):
    """Each kingdom's specialists: pool, and hired of the year's allowance; h hires (not players)."""

    def __init__(self) -> None:
        super().__init__(
            "Specialists & hiring",
            YakTable(id="specialists-table"),
            Static(id="hire-note", classes="note"),
            id="specialists",
        )

    def show(self, view: board.MarketBoard) -> None:
        types = view.specialist_types
        rows = [(line.kingdom_id, partial(_specialist_cells, line, types)) for line in view.specialists]
        empty = "Only a kingdom's King and the GM see its specialists." if self.identity.is_player else ""
        self.query_one("#specialists-table", YakTable).fill(
            ["Kingdom", *(SPECIALIST_SHORT.get(t, t.capitalize()) for t in types)], rows, empty=empty or "None."
        )
        note = self.query_one("#hire-note", Static)
        note.display = bool(rows)
        note.update(
            Content.assemble(
                ("pool · hired/allowed   ", "dim"),
                ("h", "bold $accent"),
                (f" hire: {view.hire_cost_next_season} next season, {view.hire_cost_now} now", ""),
            )
        )

    def highlighted(self) -> str | None:
        """The highlighted kingdom's id."""
        return self.query_one("#specialists-table", YakTable).cursor_row_key()


def _specialist_cells(line: board.SpecialistLine, types: tuple[str, ...]) -> list[object]:
    """A kingdom's row of specialists (made only when the table draws it: 3,000 kingdoms at 1000x)."""
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
    return cells


class AcademiesPanel(MarketPanel):
    """Academies: kingdom, town, what it trains, level and a year's output; f founds one."""

    def __init__(self) -> None:
        super().__init__("Academies", YakTable(id="academies-table"), id="academies")

    def show(self, view: board.MarketBoard) -> None:
        rows = [
            (
                a.id,
                [
                    Text(short_name(a.kingdom), style="bold"),
                    a.town,
                    a.type,
                    Text(str(a.level), justify="right"),
                    Text(f"+{a.output}", justify="right"),
                ],
            )
            for a in view.academies
        ]
        self.query_one("#academies-table", YakTable).fill(
            ["Kingdom", "Town", "Trains", "Level", "A year"], rows, empty="No academies."
        )
        self.border_title = f"Academies ({len(rows)})" if rows else "Academies"
        self.border_subtitle = "" if self.identity.is_player or self.identity.is_observer else "f found"


def fill_cell(sector: board.SectorLine, width: int = 11) -> Text:
    """A bar of the Potential in use; a full sector's bar reads "competition"."""
    if sector.full:
        return Text("competition".center(width), style=f"bold #1c1c1c on {FULL}")
    return bar(sector.fill, width)


def province_content(info: board.ProvinceInfo) -> Content:
    """A province's Potentials (after monopolies) and resources with what one good costs to make."""
    potentials = Content(" · ").join(
        Content.assemble(f"{name} ", (str(value), "bold"), (f"/{base}", "dim") if value != base else "")
        for name, value, base in info.potentials
    )
    goods = ", ".join(f"{r.good} {ducats(r.cost_each)}" for r in info.resources) or "none"
    return Content("\n").join(
        [
            Content.assemble(("Potentials ", "$foreground-muted"), potentials),
            Content.assemble(
                ("Resources  ", "$foreground-muted"), goods, (" each to make" if info.resources else "", "dim")
            ),
        ]
    )


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
        others = [
            (n, v, base)
            for n, v, base in detail.province.potentials
            if n not in ("industrial", "commercial", "service")
        ]
        if others:
            rows.append(
                (
                    "Province",
                    Content(" · ").join(
                        Content.assemble(f"{n} ", (str(v), "bold"), (f"/{base}", "dim") if v != base else "")
                        for n, v, base in others
                    ),
                )
            )
    size = Content.styled(f"{b.size}", "bold")
    if b.invested is not None:
        size += Content.styled(f" · invested {num(b.invested)}", "dim")
        if detail.dismantle is not None:
            size += Content.styled(f" · dismantles for {detail.dismantle}", "dim")
    rows.append(("Size", size))
    if b.income is not None:
        rows.append(
            (
                "Income",
                Content.assemble(
                    (f"{b.income} a year", "bold"),
                    (f"  Size {b.size} − tax {b.tax} ({b.tax_rate}% to {short_name(b.state)})", "dim"),
                ),
            )
        )
    rows.append(
        ("Monopoly", Content.styled(b.monopoly, f"bold {NEARLY}") if b.monopoly else Content.styled("none", "dim"))
    )
    if detail.sector is not None:
        s = detail.sector
        rows.append(
            (
                "Sector",
                Content.assemble(
                    f"{s.sector} {s.usage} ",
                    ("full: competition", f"bold {FULL}") if s.full else (f"room for {s.room}", ROOMY),
                ),
            )
        )
    p = detail.expand
    if p is not None and (b.mine or gm):
        if p.competitions and not p.rivals:
            rows.append(
                ("Expand +1", Content.assemble(f"{ducats(p.cost)} · ", ("no rival to lose: it fails", f"bold {FULL}")))
            )
        elif p.competitions:
            rows.append(
                (
                    "Expand +1",
                    Content.assemble(
                        f"{ducats(p.cost)} · ",
                        ("gains ", "dim"),
                        (f"{p.gains * 100:.1f}%", f"bold {ROOMY}"),
                        ("  fails ", "dim"),
                        (f"{p.fails * 100:.1f}%", f"bold {NEARLY}"),
                    ),
                )
            )
            for rival in p.rivals:
                rows.append(
                    (
                        "  may lose",
                        Content.assemble(
                            (rival.name, "bold"),
                            f" (Size {rival.size}{', monopoly' if rival.monopoly else ''}) ",
                            (f"{rival.lose * 100:.1f}%", f"bold {FULL}"),
                        ),
                    )
                )
        else:
            rows.append(("Expand +1", Content.assemble(f"{ducats(p.cost)} · ", ("no competition", ROOMY))))
    if detail.production is not None:
        prod = detail.production
        goods = ", ".join(f"{r.good} {r.cost_each}" for r in prod.resources) or "none"
        rows.append(
            (
                "Produce",
                Content.assemble((f"{prod.made} of {prod.limit}", "bold"), " this season · ", ("each: ", "dim"), goods),
            )
        )
    if b.detailed and (b.stock or b.warehouse):
        rows.append(
            ("Goods", Content.assemble(_goods(b.stock), (" for sale · warehouse ", "dim"), _goods(b.warehouse)))
        )
    for lending in (detail.credit, detail.loan):
        if lending is None:
            continue
        label = "Credit" if lending.kind == "credit" else "Loans"
        if not lending.qualifies:
            rows.append((label, Content.styled(f"from Size {lending.min_size}", "dim")))
        else:
            rows.append(
                (
                    label,
                    Content.assemble(
                        (f"{num(lending.left)} left", "bold"),
                        (f" of {lending.limit} · {num(lending.out)} out · {lending.term}", "dim"),
                    ),
                )
            )
    if detail.training is not None:
        done, limit = detail.training
        rows.append(("Training", Content.assemble((f"{done} of {limit}", "bold"), " sponsored this year")))
    if not b.detailed:
        rows.append(("Books", Content.styled("its owner's: you see the public record", "italic dim")))
    width = max(len(label) for label, _ in rows)
    return Content("\n").join(
        Content.assemble((label.ljust(width + 1), "$foreground-muted"), value) for label, value in rows
    )
