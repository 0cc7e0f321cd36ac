"""The market's command dialogs: the app's command dialog with a live preview under the form.

Each is a `CommandScreen` (odds before rolling, dice by hand, the dice animation, refusals with
who may), plus a note recomputed in a worker as the values change: what an expansion costs and,
in a full sector, the exact odds of each competition with who may lose (its dice land side by
side in a `CompetitionTray`); what a production order costs against the season's allowance;
hiring against the year's limit; credit and loan capacity. The numbers come from
the economy's read models (`yak_tui.areas.economy`); these dialogs only word them.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from typing import Any

from textual import on
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Static

from yak_tui.app.kit.command import CommandScreen
from yak_tui.app.kit.common import FULL, NEARLY, ROOMY
from yak_tui.app.kit.dice import DiceTray
from yak_tui.app.kit.odds import odds_bar, percent
from yak_tui.app.kit.paramform import ParamForm
from yak_tui.app.kit.worker import CommandWorker
from yak_tui.app.screens.economy.competition import CompetitionTray
from yak_tui.areas import economy as board
from yak_tui.kernel.play.identity import Identity
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import ducats


def _int(value: Any, default: int = 1) -> int:
    try:
        return int(str(value).strip())
    except ValueError:
        return default


def _num(value: float) -> str:
    return f"{value:g}"


def _plural(kind: str) -> str:
    return kind[:-1] + "ies" if kind.endswith("y") else kind + "s"


class PreviewCommandScreen(CommandScreen):
    """A command dialog with a note under its form (or its odds), kept up to date as you type."""

    DEFAULT_CSS = """
    #market-preview {
        height: auto;
        margin-top: 1;
        padding-left: 2;
    }
    """

    def __init__(
        self,
        command: str,
        preset: dict[str, Any] | None = None,
        hidden: tuple[str, ...] = (),
        title: str | None = None,
        intro: str = "",
    ) -> None:
        super().__init__(command, preset=preset, hidden=hidden, title=title, intro=intro)
        self._previewer: CommandWorker[Content] = CommandWorker(self, "market-preview", self._previewed)

    def compose(self) -> Iterator[Widget]:  # type: ignore[override]
        """The command dialog's own widgets, with the competition tray and the preview slipped in."""
        anchor_odds = False
        for widget in super().compose():
            if type(widget) is DiceTray:
                widget = CompetitionTray(id="tray")
            yield widget
            if isinstance(widget, ParamForm):
                anchor_odds = self._rolls
                if not anchor_odds:
                    yield Static(id="market-preview")
            elif anchor_odds and widget.id == "odds":
                yield Static(id="market-preview")

    def on_mount(self) -> None:
        self._refresh_preview()

    @on(ParamForm.Changed)
    def _preview_changed(self) -> None:
        self._refresh_preview()

    def _refresh_preview(self) -> None:
        if self.choice is None or not self.query("#market-preview"):
            return
        self._previewer.start(partial(self._compute_preview, self.yak.world, self.yak.identity, self._values()))

    def _compute_preview(self, world: World, identity: Identity, values: dict[str, Any]) -> Content:
        """(In the preview worker.)"""
        try:
            return self.preview(world, identity, values)
        except Exception as error:  # a half-typed value: say nothing rather than fail
            return Content.styled(f"({error})", "dim italic")

    def _previewed(self, content: Content) -> None:
        if self.query("#market-preview"):
            self.query_one("#market-preview", Static).update(content)

    def preview(self, world: World, identity: Identity, values: dict[str, Any]) -> Content:
        """The note for these form values (runs in a worker thread)."""
        return Content("")


class ExpandScreen(PreviewCommandScreen):
    """Expand a business: the cost, and in a full sector each competition's odds and who may lose."""

    def __init__(self, business_id: str, name: str) -> None:
        super().__init__(
            "business-expand",
            preset={"business": business_id, "sizes": "1"},
            hidden=("business",),
            title=f"Expand {name}",
            intro="Each Size beyond the sector's Potential is won in competition: the expander and "
            "every rival roll a d6 (monopolies +3); the lowest rival below the expander loses 1 "
            "Size.",
        )
        self.business_id = business_id

    def preview(self, world: World, identity: Identity, values: dict[str, Any]) -> Content:
        return expand_note(board.expand_preview(world, identity, self.business_id, _int(values.get("sizes"), 1)))


def expand_note(p: board.ExpandPreview | None) -> Content:
    """Words for an expansion preview (also used by the market's detail panel)."""
    if p is None:
        return Content.styled("This business is gone.", "italic")
    where = f"{p.province} {p.sector}"
    lines = []
    cost = Content.assemble(
        ("Cost ", "bold"),
        (f"{ducats(p.cost)}", "bold"),
        (f" ({p.unit_cost} per Size), paid whatever the dice say.", "dim"),
    )
    if p.competitions == 0:
        lines.append(
            Content.assemble(
                (f"{where}: {p.used}/{p.potential} in use, room for {p.room}. ", ""),
                ("No competition.", f"bold {ROOMY}"),
            )
        )
        lines.append(cost)
        return Content("\n").join(lines)
    fits = f"{p.sizes - p.competitions} fit{'s' if p.sizes - p.competitions == 1 else ''}, " if p.room else ""
    lines.append(
        Content.assemble(
            (f"{where}: {p.used}/{p.potential} in use — ", ""),
            ("full" if not p.room else f"room for {p.room}", f"bold {FULL}"),
            (f". {fits}{p.competitions} competition{'s' if p.competitions > 1 else ''}.", ""),
        )
    )
    if not p.rivals:
        lines.append(
            Content.assemble(
                ("No rival to lose a Size: ", f"bold {FULL}"), "the competition cannot be won and the ducats are spent."
            )
        )
        lines.append(cost)
        return Content("\n").join(lines)
    per = " (each)" if p.competitions > 1 else ""
    lines.append(Content.assemble(("Who may lose 1 Size", "bold $primary"), (per, "dim")))
    width = max([len(r.name) for r in p.rivals] + [len("nobody: ducats spent")])
    for rival in p.rivals:
        tag = f"Size {rival.size}" + (" · monopoly +3" if rival.monopoly else "")
        lines.append(
            Content.assemble(
                f"  {rival.name.ljust(width)} ",
                odds_bar(rival.lose, 16, f"bold {FULL}"),
                f" {percent(rival.lose)}  ",
                (f"{tag} · {rival.owner}", "dim"),
            )
        )
    lines.append(
        Content.assemble(
            f"  {'nobody: ducats spent'.ljust(width)} ", odds_bar(p.fails, 16, NEARLY), f" {percent(p.fails)}"
        )
    )
    lines.append(cost)
    order = ", ".join(r.name for r in p.rivals)
    lines.append(
        Content.styled(f"Dice by hand: {p.dice_per_competition} per competition — {p.name} first, then {order}.", "dim")
    )
    return Content("\n").join(lines)


class ProduceScreen(PreviewCommandScreen):
    """A production order: N goods of one of the province's resources, the cost shown as typed."""

    def __init__(self, business_id: str, name: str, good: str = "") -> None:
        super().__init__(
            "produce",
            preset={"business": business_id, "good": good, "quantity": "1"},
            hidden=("business",),
            title=f"Production order: {name}",
            intro="Goods cost max(1, base price − 4) ducats each; a business makes up to its Size "
            "a season. Unless stored or shipped they sell at season end.",
        )
        self.business_id = business_id

    def preview(self, world: World, identity: Identity, values: dict[str, Any]) -> Content:
        p = board.produce_preview(
            world, identity, self.business_id, str(values.get("good", "")), _int(values.get("quantity"), 0)
        )
        if p is None:
            return Content.styled("This business is gone.", "italic")
        goods = (
            Content(" · ").join(
                Content.assemble((r.good, "bold"), f" {ducats(r.cost_each)} each (base {r.base})") for r in p.resources
            )
            if p.resources
            else Content("none")
        )
        lines = [
            Content.assemble(("Resources ", "dim"), goods),
            Content.assemble(("This season ", "dim"), (f"{p.made} of {p.limit}", "bold"), f" made · {p.left} left"),
        ]
        if p.good is not None and p.cost is not None:
            over = p.quantity > p.left
            lines.append(
                Content.assemble(
                    ("Order ", "dim"),
                    (f"{p.quantity} {p.good}", "bold"),
                    " cost ",
                    (ducats(p.cost), f"bold {FULL}" if over else "bold $primary"),
                    (f" ({ducats(p.cost_each or 0)} each)", "dim"),
                    (f" — only {p.left} more this season" if over else "", f"bold {FULL}"),
                )
            )
        else:
            lines.append(Content.styled("Type one of the resources above.", "italic"))
        return Content("\n").join(lines)


class HireScreen(PreviewCommandScreen):
    """Hire specialists: this year's count against the limit, and the cost now or next season."""

    def __init__(self, kingdom_id: str, name: str, kind: str = "") -> None:
        preset = {"kingdom": kingdom_id, "count": "1"}
        if kind:
            preset["type"] = kind
        super().__init__(
            "hire",
            preset=preset,
            title=f"Hire specialists for {name}",
            intro="One hire per controlled province per type a year; 2 ducats each arriving next season, or 3 at once.",
        )

    def preview(self, world: World, identity: Identity, values: dict[str, Any]) -> Content:
        kingdom = str(values.get("kingdom", ""))
        kind = str(values.get("type", ""))
        if not kind:
            return Content.styled("Choose the type to hire.", "italic")
        immediate = str(values.get("immediate", "")).lower() in ("true", "1", "yes")
        p = board.hire_preview(world, identity, kingdom, kind, _int(values.get("count"), 0), immediate)
        if p is None:
            return Content.styled("You may not see this kingdom's specialists.", "italic")
        over = p.quantity > p.left
        when = "at once" if p.immediate else "next season"
        return Content("\n").join(
            [
                Content.assemble(
                    ("Hired this year ", "dim"),
                    (f"{p.hired} of {p.limit}", "bold"),
                    f" {_plural(p.type)} (one per province) · {p.left} left · {p.pool} in the pool",
                ),
                Content.assemble(
                    ("Cost ", "dim"),
                    (f"{ducats(p.cost)}", f"bold {FULL}" if over else "bold $primary"),
                    f" for {p.quantity}, arriving {when}",
                    (f" ({p.cost_next_season} each next season, {p.cost_now} at once)", "dim"),
                    (f" — only {p.left} more this year" if over else "", f"bold {FULL}"),
                ),
            ]
        )


class LendScreen(PreviewCommandScreen):
    """Credit (commercial Size 4+) or a loan (Size 8+) from a business: capacity and due date."""

    def __init__(self, kind: str, lender_id: str, name: str) -> None:
        command = "credit-extend" if kind == "credit" else "loan-extend"
        title = f"{'Extend credit' if kind == 'credit' else 'Lend'} from {name}"
        super().__init__(command, preset={"lender": lender_id}, hidden=("lender",), title=title)
        self.kind = kind
        self.lender_id = lender_id

    def preview(self, world: World, identity: Identity, values: dict[str, Any]) -> Content:
        p = board.lending_preview(world, identity, self.lender_id, self.kind, _int(values.get("term"), 1))
        if p is None:
            return Content.styled("Only the owner and the GM see this business's books.", "italic")
        if not p.qualifies:
            return Content.styled(
                f"A {self.kind} takes a commercial business of Size {p.min_size} or more.", f"bold {FULL}"
            )
        return Content("\n").join(
            [
                Content.assemble(
                    ("Limit ", "dim"),
                    (f"{p.limit}", "bold"),
                    f" · {_num(p.out)} outstanding · ",
                    (f"{_num(p.left)} left", "bold $primary"),
                ),
                Content.assemble(
                    ("Due ", "dim"), (p.due, "bold"), (f" ({p.term}); unpaid, the business pays it.", "dim")
                ),
            ]
        )
