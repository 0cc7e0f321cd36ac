"""The espionage board's panels: each a widget with its own keys that draws itself from the
board's read model (`BoardView`) in `show(view)`; the screen composes them and routes the state.

Inbox and my missions (with the highlighted order's line under the table), specialist pools,
the missions against the target, the highlighted mission's detail, infiltrations, and effects in
force. Keys on a table post messages (`OrderAction`, `EffectsTable.PlayOut`) the screen acts on.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.content import Content
from textual.message import Message
from textual.widgets import DataTable, Static

from yak_tui.app.kit.common import FULL, NEARLY, ROOMY, Panel, YakTable, num
from yak_tui.app.kit.running_app import ActingKeys, yak_of
from yak_tui.app.messages import OrderAction
from yak_tui.areas.espionage import FAMILY_LABELS, BoardView, EffectLine, MissionLine, OrderLine
from yak_tui.kernel.play.identity import Identity, identity_name
from yak_tui.kernel.world.money import ducats
from yak_tui.kernel.world.numbers import counted

STATUS_STYLE = {"waiting": NEARLY, "resolved": ROOMY, "rejected": FULL, "withdrawn": "dim"}
KING_ONLY_POOLS = "Only your King sees the kingdom's spies."


def pct(value: float | None, none: str = "n/a") -> Text:
    """An exact probability as a whole percent ("<1%" rather than a misleading 0%)."""
    if value is None:
        return Text(none, style="dim", justify="right")
    if 0 < value < 0.005:
        return Text("<1%", justify="right")
    return Text(f"{value * 100:.0f}%", justify="right", style="dim" if value == 0 else "")


class OrderTable(ActingKeys, YakTable):
    """A table of orders whose keys post `OrderAction`s to the screen (never an observer's)."""

    ACTS = frozenset({"order"})

    def action_order(self, action: str) -> None:
        key = self.cursor_row_key()
        if key:
            self.post_message(OrderAction(action, key))


class InboxTable(OrderTable):
    """Private orders waiting for this adjudicator: x (or enter) resolves blind, j rejects."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("x", "order('resolve')", "Resolve"),
        Binding("j", "order('reject')", "Reject"),
    ]


class MyOrdersTable(OrderTable):
    """The viewer's own espionage orders; w withdraws a waiting one."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("w", "order('withdraw')", "Withdraw")]


class EffectsTable(ActingKeys, YakTable):
    """Effects in force; p plays out a pending assassination attempt (the GM)."""

    ACTS = frozenset({"play_out"})

    BINDINGS: ClassVar[list[BindingType]] = [Binding("p", "play_out", "Play out attempt")]

    class PlayOut(Message):
        def __init__(self, effect_id: str) -> None:
            super().__init__()
            self.effect_id = effect_id

    def action_play_out(self) -> None:
        key = self.cursor_row_key()
        if key:
            self.post_message(self.PlayOut(key))


class BoardPanel(Panel):
    """A panel of the board: `show(view)` draws it for the acting identity."""

    def show(self, view: BoardView) -> None:
        """Draw this panel from the board's read model."""

    @property
    def gm(self) -> bool:
        return yak_of(self).identity.is_gm


def _highlighted(lines: Iterable[OrderLine], table: YakTable) -> OrderLine | None:
    key = table.cursor_row_key()
    return next((o for o in lines if o.id == key), None)


class InboxPanel(BoardPanel):
    """Private orders waiting for this adjudicator, and the highlighted one in full (not for players
    nor an observer)."""

    def __init__(self) -> None:
        super().__init__(
            "Private orders inbox",
            InboxTable(id="inbox-table"),
            Static(id="inbox-detail", classes="detail"),
            id="inbox",
        )
        self.lines: tuple[OrderLine, ...] = ()

    def show(self, view: BoardView) -> None:
        self.lines = tuple(view.inbox)
        identity = yak_of(self).identity
        self.display = not identity.is_player and not identity.is_observer  # an adjudicator's inbox
        self.border_title = f"Private orders inbox ({len(view.inbox)})" if view.inbox else "Private orders inbox"
        self.border_subtitle = "x resolve (blind) · j reject" if view.inbox else ""
        self.query_one(InboxTable).fill(
            ["From", "Mission", "Target", "Filed"],
            [(o.id, [o.filer, Text(o.mission, style="bold"), _target_text(o), o.filed]) for o in view.inbox],
            empty="No private orders wait for you.",
        )
        self._detail()

    @on(DataTable.RowHighlighted, "#inbox-table")
    def _detail(self) -> None:
        detail = self.query_one("#inbox-detail", Static)
        order = _highlighted(self.lines, self.query_one(InboxTable))
        detail.display = order is not None
        if order is None:
            detail.update("")
            return
        parts: list[str | tuple[str, str]] = [
            (f"{order.filer} ({order.sponsor})", "bold"),
            " → ",
            (order.target, "bold"),
            f" · {order.mission}",
        ]
        if order.where:
            parts.append(f" · {order.where}")
        if order.extras:
            parts.append(f" · {order.extras}")
        if order.adjudicator != "gm" and self.gm:
            parts.append((f" · waits for {_adjudicator(self, order)}", "$warning"))
        if order.note:
            parts.append((f"\n“{order.note}”", "italic"))
        detail.update(Content.assemble(*parts))


class MyOrdersPanel(BoardPanel):
    """The viewer's own espionage orders and what he was told (not for the GM nor an observer)."""

    def __init__(self) -> None:
        super().__init__(
            "My missions",
            MyOrdersTable(id="my-orders-table"),
            Static(id="my-order-detail", classes="detail"),
            id="my-orders",
        )
        self.lines: tuple[OrderLine, ...] = ()

    def show(self, view: BoardView) -> None:
        self.lines = tuple(view.my_orders)
        self.display = not self.gm and not yak_of(self).identity.is_observer  # an observer files nothing
        waiting = sum(1 for o in view.my_orders if o.status == "waiting")
        self.border_title = f"My missions ({waiting} waiting)" if waiting else "My missions"
        self.border_subtitle = "w withdraw" if waiting else ""
        self.query_one(MyOrdersTable).fill(
            ["Mission", "Target", "State", "Outcome"],
            [
                (
                    o.id,
                    [
                        Text(o.mission, style="bold"),
                        _target_text(o),
                        Text(o.status, style=STATUS_STYLE.get(o.status, "")),
                        _outcome_text(o, _adjudicator(self, o)),
                    ],
                )
                for o in view.my_orders
            ],
            empty="No missions submitted. Pick one below and press n.",
        )
        self._detail()

    @on(DataTable.RowHighlighted, "#my-orders-table")
    def _detail(self) -> None:
        detail = self.query_one("#my-order-detail", Static)
        order = _highlighted(self.lines, self.query_one(MyOrdersTable))
        detail.display = order is not None
        if order is None:
            detail.update("")
            return
        if order.status == "waiting":
            who = _adjudicator(self, order)
            text = Content.assemble(
                (f"{order.mission} waits for {who}", "$warning"), f" · filed {order.filed}" if order.filed else ""
            )
        elif order.status == "resolved":
            text = Content.assemble((f"{order.mission}: ", "bold"), order.outcome)
        else:
            text = Content.assemble(
                (f"{order.mission} {order.status}", "bold"), f": {order.outcome}" if order.outcome else ""
            )
        detail.update(text)


class PoolsPanel(BoardPanel):
    """Spies active and cold, and counter-spies, of every kingdom the viewer may see."""

    def __init__(self) -> None:
        super().__init__("Specialist pools", YakTable(id="pools-table"), id="pools")

    def show(self, view: BoardView) -> None:
        self.border_subtitle = "k station a counter-spy" if view.may_station else ""
        # A player who is not his kingdom's King knows nothing of its spies (RULINGS §1): say who does.
        empty = KING_ONLY_POOLS if yak_of(self).identity.is_player else "No spies you may see."
        self.query_one("#pools-table", YakTable).fill(
            ["Kingdom", "Spies", "Cold", "Counter-spies"],
            [
                (
                    p.kingdom,
                    [
                        Text(p.name, style="bold"),
                        Text(num(p.spies), justify="right"),
                        Text(num(p.cold), justify="right"),
                        p.counter_text,
                    ],
                )
                for p in view.pools
            ],
            empty=empty,
        )

    def highlighted(self) -> str | None:
        """The kingdom of the highlighted row."""
        return self.query_one("#pools-table", YakTable).cursor_row_key()


class MissionsPanel(BoardPanel):
    """The missions against the target, with what they need and the sponsor's side's odds."""

    def __init__(self) -> None:
        super().__init__("Missions", YakTable(id="missions-table"), id="missions", classes="grow")
        self.lines: tuple[MissionLine, ...] = ()

    def show(self, view: BoardView) -> None:
        self.lines = tuple(view.missions)
        rows = []
        for m in view.missions:
            name = Text(m.name, style="dim" if m.prerequisite_met is False else "bold")
            if m.held:
                name.append(" ● held", style=ROOMY)
            rows.append(
                (
                    m.slug,
                    [
                        name,
                        _needs_text(m),
                        Text(num(m.cost), justify="right"),
                        Text("GM", style="dim", justify="right") if m.attempt else pct(m.success),
                        pct(m.captured),
                        pct(m.detected),
                    ],
                )
            )
        self.query_one("#missions-table", YakTable).fill(
            ["Mission", "Needs", "Cost", "Succ.", "Capt.", "Det."], rows, empty="Choose a sponsor and a target kingdom."
        )
        target = next((c.label for c in view.targets if c.value == view.target), "")
        sponsor = next((c.label for c in view.sponsors if c.value == view.sponsor), "")
        self.border_title = f"Missions against {target}" if target else "Missions"
        self.border_subtitle = (
            f"{sponsor}'s odds · n {'run' if view.may_run else 'submit'} · t target" if sponsor else ""
        )

    def highlighted(self) -> MissionLine | None:
        key = self.query_one("#missions-table", YakTable).cursor_row_key()
        return next((m for m in self.lines if m.slug == key), None)


class MissionPanel(BoardPanel):
    """The highlighted mission in full: cost, prerequisite, what it does, the odds, what was counted."""

    def __init__(self) -> None:
        super().__init__("Mission", Static(id="mission-detail"), id="mission")

    def show(self, view: BoardView, line: MissionLine | None = None) -> None:
        widget = self.query_one("#mission-detail", Static)
        if line is None:
            self.border_title = "Mission"
            widget.update(Content.styled("Highlight a mission to see what it does.", "italic $foreground-muted"))
            return
        self.border_title = line.name
        self.border_subtitle = FAMILY_LABELS.get(line.family, line.family)
        detail = mission_detail(view, line)
        if widget.content != detail:  # the board's paint and the row's highlight both show it: lay out once
            widget.update(detail)


def mission_detail(view: BoardView, line: MissionLine) -> Content:
    target = next((c.label for c in view.targets if c.value == view.target), "the target")
    sponsor = next((c.label for c in view.sponsors if c.value == view.sponsor), "")
    facts = [f"{ducats(line.cost)} + 1 spy"]
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
        if line.prerequisite_met is None:  # a player: his King knows, he does not (RULINGS §1)
            lines.append(
                Content.styled(
                    f"? Needs the {line.prerequisite_label} infiltration in {target}: only your "
                    "King knows whether your kingdom holds it. If it does not, the mission "
                    "fails when resolved, and only you are told.",
                    "$warning",
                )
            )
        elif line.prerequisite_met:
            lines.append(
                Content.styled(f"✓ {sponsor} holds the {line.prerequisite_label} infiltration in {target}.", "$success")
            )
        else:
            lines.append(
                Content.styled(
                    f"✗ Needs the {line.prerequisite_label} infiltration in {target}: run it first.", "bold $error"
                )
            )
    if line.held:
        lines.append(
            Content.styled(f"● Held: {sponsor} already has this man in place (it cannot be doubled).", "$success")
        )
    lines.append(Content(line.text))
    if line.extras:
        lines.append(Content.assemble(("Extras: ", "bold"), "; ".join(line.extras)))
    lines.append(Content.assemble(("Odds", "bold $primary"), (f" for {sponsor}'s side", "$foreground-muted")))
    if line.attempt:
        lines.append(Content("  success: no roll, an attempt for the GM to play out"))
    else:
        lines.append(
            Content.assemble("  success ", _pct_content(line.success), "  failure ", _pct_content(line.failure))
        )
    lines.append(
        Content.assemble(
            "  spy captured ",
            _pct_content(line.captured),
            "  escapes ",
            _pct_content(line.escaped),
            "  lost ",
            _pct_content(line.spy_lost),
        )
    )
    if line.detected is None:
        lines.append(Content.styled("  no detection roll", "dim"))
    else:
        lines.append(
            Content.assemble(
                "  identified ",
                _pct_content(line.identified),
                "  detected ",
                _pct_content(line.detected),
                "  undetected ",
                _pct_content(line.undetected),
            )
        )
    mods = ", ".join(f"{reason} {value:+d}" for value, reason in view.modifiers)
    if view.all_modifiers:
        lines.append(Content.styled(f"Counted (all, at the capital): {mods or 'no modifier'}", "italic dim"))
    else:
        lines.append(
            Content.styled(
                f"Counted: {mods or 'nothing your side knows of'}; the target's counter-measures stay hidden.",
                "italic dim",
            )
        )
    return Content("\n").join(lines)


class InfiltrationsPanel(BoardPanel):
    """Infiltrations the viewer knows of (the GM: every one, and what the target knows)."""

    def __init__(self) -> None:
        super().__init__("Infiltrations", YakTable(id="infiltrations-table"), id="infiltrations")

    def show(self, view: BoardView) -> None:
        gm = self.gm
        known = [("Seen", "known")] if gm else []
        self.query_one("#infiltrations-table", YakTable).fill(
            ["Who", "Infiltration", "Since", *known],
            [(e.id, [_who(e, gm), Text(e.label, style="bold"), e.start, *_known(e, gm)]) for e in view.infiltrations],
            empty="No infiltration you know of.",
        )
        self.border_title = f"Infiltrations ({len(view.infiltrations)})" if view.infiltrations else "Infiltrations"


class EffectsPanel(BoardPanel):
    """Effects in force the viewer knows of; the GM plays out pending assassination attempts (p)."""

    def __init__(self) -> None:
        super().__init__("Effects in force", EffectsTable(id="effects-table"), id="effects")

    def show(self, view: BoardView) -> None:
        gm = self.gm
        known = [("Seen", "known")] if gm else []
        self.query_one("#effects-table", YakTable).fill(
            ["Who", "Effect", "Ends", *known, "Where"],
            [
                (e.id, [_who(e, gm), Text(e.label, style="bold"), e.end, *_known(e, gm), e.where or "—"])
                for e in view.effects
            ],
            empty="No effects in force you know of.",
        )
        self.border_title = f"Effects in force ({len(view.effects)})" if view.effects else "Effects in force"
        pending = sum(1 for e in view.effects if e.pending)
        self.border_subtitle = f"{counted(pending, 'attempt')} to play out · p" if pending and gm else ""


# -- cells -----------------------------------------------------------------------------------------


def _needs_text(line: MissionLine) -> Text:
    if line.own_administration:
        return Text("own admin.", style="dim")
    if not line.prerequisite:
        return Text("—", style="dim")
    if line.prerequisite_met is None:  # only the viewer's King knows
        return Text(f"? {line.prerequisite_label}", style=NEARLY)
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


def _adjudicator(panel: BoardPanel, order: OrderLine) -> str:
    """Who the order waits for, as a sentence names him ("the GM", "King Aldric"), never his key."""
    return identity_name(yak_of(panel).world, Identity.parse(order.adjudicator))


def _outcome_text(order: OrderLine, adjudicator: str) -> Text:
    """The word the sponsor was told; the whole text is in the line under the table."""
    if order.status == "waiting":
        return Text(f"waits for {adjudicator}", style="italic dim")
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
