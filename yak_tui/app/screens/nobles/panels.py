"""The map's panels: the hex map itself (with a chosen noble's Relocate range laid over it), the
hex under the cursor, the chosen noble with his odds, and the legend. Each draws what it is given
(`show(...)`); the screen keeps the cursor and the chosen noble, and acts on the keys.
"""

from __future__ import annotations

from textual.containers import ScrollableContainer
from textual.content import Content
from textual.widgets import Static

from yak_tui.app.kit.common import Panel
from yak_tui.app.kit.odds import odds_row
from yak_tui.app.kit.running_app import yak_of
from yak_tui.app.screens.nobles.hexmap import HexMap, MapLayout
from yak_tui.areas import nobles as map_views
from yak_tui.areas.court import short_name
from yak_tui.kernel.world.model import World
from yak_tui.kernel.world.money import ducats

TABLE_LABEL = {"pcs": "place", "units": "force", "characters": "person"}
# Relocate states (map_views.STATES): the background each paints and how the legend names it.
STATE_STYLE = {
    "reachable": "on $success 30%",
    "blocked": "on $error 40%",
    "empty": "on $foreground 7%",
    "here": "on $secondary 45%",
    "refused": "on $warning 30%",
}
STATE_LABEL = {
    "reachable": "reachable",
    "blocked": "blocked by a legion",
    "empty": "no PC: fails, ducat spent",
    "here": "where he stands",
    "refused": "refused",
}
# Move mode: where the mover stands and the hexes of his path (the cursor, reversed, ends it).
MOVE_STYLE = {"start": "on $secondary 45%", "path": "on $foreground 20%"}
MOVE_VERB = {"march": "marches", "voyage": "sails (a voyage)", "travel": "travels", "ride": "rides"}
OUTCOME_STYLE = {"success": "$success", "failure": "$foreground-muted", "evicted": "$warning", "executed": "$error"}


def pct(p: float) -> str:
    """A chance as the panels print it: 56%, 0.5%, 100%."""
    value = p * 100
    return f"{value:.0f}%" if value == round(value) or value >= 10 else f"{value:.1f}%"


def odds_lines(item: map_views.CommandOdds, width: int = 10) -> list[Content]:
    """Incite or Usurp: the outcome chances as small bars, with Power against Resistance."""
    title = "Incite" if item.command == "incite" else "Usurp"
    if not item.ok:
        return [Content.assemble((f"{title} ", "bold"), (item.reason, "dim italic"))]
    doubled = " (doubled)" if item.controlled else ""
    lines = [
        Content.assemble(
            (f"{title} ", "bold"),
            (f"Power {item.power:g} vs Resistance {item.resistance:g}{doubled} · {ducats(item.cost)}", "dim"),
        )
    ]
    for outcome, p in item.rows:
        lines.append(
            Content.assemble(
                "  ",
                odds_row(
                    outcome,
                    p,
                    label_width=9,
                    width=width,
                    gap="",
                    style=OUTCOME_STYLE.get(outcome, "$primary"),
                    shown=f"{pct(p):>5}",
                    shown_style="bold" if p else "dim",
                ),
            )
        )
    return lines


class MapPanel(Panel):
    """The hex map, scrolled; a chosen noble's Relocate range painted over it."""

    def __init__(self) -> None:
        super().__init__("Map", ScrollableContainer(HexMap(id="hexmap"), id="map-scroll"), id="map-panel")

    def show(self, view: map_views.MapView, layout: MapLayout | None = None) -> None:
        self.query_one(HexMap).set_view(view, layout=layout)

    def show_range(self, relocation: map_views.RelocateView | None) -> None:
        """Each hex in reach in its state's colour, with the best Incite/Usurp chance (or the distance)."""
        overlays: dict[tuple[int, int], str] = {}
        notes: dict[tuple[int, int], tuple[str, str]] = {}
        if relocation is not None:
            for h, cell in relocation.cells.items():
                overlays[h] = STATE_STYLE[cell.state]
                best = max((t.success for t in cell.targets), default=None)
                if best is not None:
                    notes[h] = (pct(best), "bold $success" if best >= 0.5 else "bold $warning" if best else "dim")
                elif cell.state == "reachable":
                    notes[h] = (f"→{cell.distance}", "$success")
        self.query_one(HexMap).set_overlays(overlays, notes)

    def show_path(self, mover: map_views.Place, preview: map_views.MovePreview | None) -> None:
        """Move mode: the mover's hex, the path to the cursor hex and its length there."""
        overlays: dict[tuple[int, int], str] = {}
        notes: dict[tuple[int, int], tuple[str, str]] = {}
        if preview is not None:
            for h in preview.path:
                overlays[h] = MOVE_STYLE["path"]
            overlays[preview.start] = MOVE_STYLE["start"]
            if preview.target != preview.start:
                # On the cursor: the length, with ✘ when gm-move would refuse (the panel says why).
                notes[preview.target] = (
                    (f"→{preview.hexes}", "bold $success") if preview.ok else (f"✘{preview.hexes}", "bold $error")
                )
        self.query_one(HexMap).set_overlays(overlays, notes)


class HexPanel(Panel):
    """The hex under the cursor: its places, forces and people, and whether the chosen noble may go there."""

    def __init__(self) -> None:
        super().__init__("Hex", Static(id="hex-details"), id="hex-panel")

    def show(
        self,
        cursor: tuple[int, int],
        cell: map_views.HexCell | None,
        relocation: map_views.RelocateView | None = None,
        mover: map_views.Place | None = None,
        preview: map_views.MovePreview | None = None,
    ) -> None:
        """What stands in the hex under the cursor, and (a noble chosen) whether he may relocate there."""
        panel = self
        panel.border_title = f"Hex {cursor[0]},{cursor[1]}"
        panel.border_subtitle = cell.province if cell is not None and cell.province else ""
        lines: list[Content] = []
        if cell is None or not cell.places:
            lines.append(Content.styled("Nothing you know of stands here.", "italic dim"))
        else:
            world = yak_of(self).world
            for place in cell.places:
                owner = short_name(world.display_name("kingdoms", place.kingdom)) if place.kingdom else "unclaimed"
                if place.table == "pcs":
                    kind = str(world.get("pcs", place.id).get("kind", "place"))
                    lines.append(
                        Content.assemble(("■ ", place.colour or ""), (place.name, "bold"), (f" · {kind}", "dim"))
                    )
                    lines.append(Content.assemble(("  ", ""), (owner, place.colour or "")))
                    facts = self._facts(world, place.id)
                    if facts:
                        lines.append(Content.assemble(("  ", ""), (facts, "dim")))
                else:
                    mark = ("♞ ", "bold $accent") if place.table == "units" else ("♟ ", "bold $secondary")
                    lines.append(Content.assemble(mark, (place.name, "bold")))
                    lines.append(Content.assemble(("  ", ""), (place.detail, ""), (f" · {owner}", "dim")))
        if mover is not None:
            lines[:0] = self._move_lines(cursor, mover, preview)
        else:
            lines.extend(self._relocate_lines(cursor, relocation))
        self.query_one("#hex-details", Static).update(Content("\n").join(lines))

    def _move_lines(
        self, cursor: tuple[int, int], mover: map_views.Place, preview: map_views.MovePreview | None
    ) -> list[Content]:
        """Move mode, above the hex's contents: who moves, and what gm-move would do here."""
        mark = ("♞ ", "bold $accent") if mover.table == "units" else ("♟ ", "bold $secondary")
        lines = [Content.assemble(("Move ", "bold $primary"), mark, (mover.name, "bold"))]
        if preview is None or preview.target != cursor:
            lines.append(Content.styled("  checking…", "dim italic"))
        elif not preview.ok:
            lines.append(Content.assemble(("  ✘ ", "bold $error"), (preview.problem, "$error")))
        else:
            plural = "" if preview.hexes == 1 else "es"
            lines.append(
                Content.assemble(
                    ("  ✔ ", "bold $success"),
                    (MOVE_VERB.get(preview.kind, preview.kind), "bold"),
                    (f" {preview.hexes} hex{plural}", "bold $success"),
                    (" to ", "dim"),
                    (preview.destination, "bold"),
                )
            )
        lines.append(
            Content.assemble(
                ("  enter", "bold $accent"),
                (" move · ", "dim"),
                ("m", "bold $accent"),
                (" next here · ", "dim"),
                ("esc", "bold $accent"),
                (" cancel", "dim"),
            )
        )
        lines.append(Content(""))
        return lines

    def _facts(self, world: World, pc_id: str) -> str:
        """A PC's public (or, for its owner, full) facts on one wrapped line: fort 2 · walled · tax 4."""
        skip = ("name", "hex", "kind", "province", "controller", "capital", "holds treasury of")
        facts = []
        for label, value in map_views.describe(world, yak_of(self).identity, "pcs", pc_id):
            key = label.lower()  # "Fort level" as a fact in a line: "fort 2"
            if key in skip or (value in ("no", "—", "0") and key != "resistance"):
                continue
            if key == "fort level":
                key = "fort"
            facts.append(key if value == "yes" else f"{key} {value}")
        return " · ".join(facts)

    def _relocate_lines(self, cursor: tuple[int, int], relocation: map_views.RelocateView | None) -> list[Content]:
        if relocation is None:
            return []
        who = relocation.character
        head = Content.styled("Relocate here", "bold $primary")
        cell = relocation.cells.get(cursor)
        if cell is None:
            far = map_views.distance(who.hex, cursor)
            return [
                Content(""),
                head,
                Content.styled(f"  out of range: {far} hexes, the range is {relocation.range}", "$error"),
            ]
        state, style = {
            "reachable": ("✔ reachable", "bold $success"),
            "blocked": ("✘ blocked", "bold $error"),
            "empty": ("∅ empty hex", "bold $warning"),
            "here": ("● he is here", "bold $secondary"),
            "refused": ("✘ refused", "bold $warning"),
        }[cell.state]
        lines = [Content(""), head]
        lines.append(
            Content.assemble(
                ("  ", ""),
                (state, style),
                (f" · {cell.distance} hex{'' if cell.distance == 1 else 'es'}", "dim")
                if cell.state != "here"
                else ("", ""),
            )
        )
        if cell.state == "here":
            return lines
        if cell.via_legion:
            lines.append(Content.assemble(("  onto ", "dim"), (cell.legions[0][1], "bold"), (" (Agent)", "dim")))
        elif cell.state != "reachable":
            lines.append(Content.styled(f"  {cell.message}", "italic"))
        if cell.cost_spent:
            lines.append(
                Content.styled(
                    f"  costs {relocation.cost} ducat"
                    + (", spent though it fails" if cell.state != "reachable" else ""),
                    "dim",
                )
            )
        if cell.discovery is not None:
            bound = "" if cell.discovery_exact else "≥"
            lines.append(
                Content.assemble(
                    ("  discovery ", "dim"),
                    (f"{bound}{cell.discovery}%", "bold $warning"),
                    (f" by {short_name(cell.controller_name)}", "dim"),
                )
            )
            if not cell.discovery_exact:
                lines.append(Content.styled("  (their counter-spies are unknown to you)", "dim italic"))
        for item in cell.targets:
            lines.append(
                Content.assemble(
                    ("  then ", "dim"),
                    (f"{item.command} ", ""),
                    (pct(item.success), "bold $success" if item.success else "dim"),
                    (" success", "dim"),
                )
            )
        verb = "roll it" if yak_of(self).identity.is_gm else "file the order"
        lines.append(Content.assemble(("  v", "bold $accent"), (f" {verb}", "dim")))
        return lines


class NoblePanel(Panel):
    """The chosen noble, Agent or High Priestess: where he stands, his range, his odds there and the
    best targets in reach."""

    def __init__(self) -> None:
        super().__init__("Noble", Static(id="noble-details"), id="noble-panel")

    def show(
        self,
        nobles: tuple[map_views.Commander, ...],
        chosen: str | None = None,
        relocation: map_views.RelocateView | None = None,
        targets: map_views.TargetsView | None = None,
    ) -> None:
        """The viewer's nobles; the `chosen` one's range (`relocation`) and odds where he stands (`targets`)."""
        panel = self
        static = self.query_one("#noble-details", Static)
        if not nobles:
            panel.border_title = "Noble"
            static.update(Content.styled("No noble, Agent or High Priestess of yours to move.", "italic dim"))
            return
        if chosen is None or relocation is None:
            panel.border_title = "Noble"
            static.update(
                Content.assemble(
                    ("n", "bold $accent"), (f" choose a noble, Agent or High Priestess ({len(nobles)})", "dim")
                )
            )
            return
        who = relocation.character
        index = next((i for i, n in enumerate(nobles) if n.id == chosen), -1)
        panel.border_title = f"Noble {index + 1}/{len(nobles)}"
        panel.border_subtitle = "n next · esc clear"
        reach = relocation
        lines = [
            Content.assemble(("♟ ", who.colour or "bold"), (who.name, "bold")),
            Content.assemble((f"  {who.title}", ""), (f" · {who.kingdom_name}", "dim")),
            Content.assemble(("  in ", "dim"), (who.where, "bold"), (f" · {who.status}", "dim")),
            Content.assemble(("  Relocate ", "dim"), (f"{reach.range} hexes · {reach.cost} ducat", "")),
            Content.assemble(
                ("  ", ""),
                (f"{reach.count('reachable')} reachable", "$success"),
                (" · ", "dim"),
                (f"{reach.count('blocked')} blocked", "$error"),
            ),
        ]
        if targets is not None:
            lines.append(Content(""))
            lines.append(Content.assemble(("Here: ", "bold $primary"), (targets.pc_name, "bold")))
            for item in (targets.incite, targets.usurp):
                lines.extend(odds_lines(item))
        best = sorted(
            (
                (max(t.success for t in c.targets), c)
                for c in reach.cells.values()
                if c.targets and c.state == "reachable"
            ),
            key=lambda item: (-item[0], item[1].distance),
        )
        if best:
            lines.append(Content(""))
            lines.append(Content.assemble(("Targets in reach".ljust(20), "bold $primary"), ("Incite Usurp", "dim")))
            for _, cell in best[:6]:
                chance = {t.command: t.success for t in cell.targets}
                parts: list[tuple[str, str]] = [(f"  {cell.pc_name[:17]}".ljust(20), "")]
                for cmd, width in (("incite", 6), ("usurp", 6)):
                    p = chance.get(cmd)
                    text = "—" if p is None else pct(p)
                    style = "dim" if not p else "bold $success" if p >= 0.5 else "bold $warning"
                    parts.append((f"{text:>{width}} ", style))
                lines.append(Content.assemble(*parts))
        static.update(Content("\n").join(lines))


LEGEND_KINGDOMS = 30  # kingdoms the legend lists by colour (at 1000x there are 3,000: a 3,000-line panel)


class LegendPanel(Panel):
    """The kingdoms' colours, the map's marks, the Relocate states (a noble chosen) and the keys."""

    def __init__(self) -> None:
        super().__init__("Legend", Static(id="legend"), id="legend-panel")

    def show(
        self,
        view: map_views.MapView,
        relocation: map_views.RelocateView | None = None,
        moving: bool = False,
        gm: bool = False,
    ) -> None:
        legend = [Content.assemble(("■ ", k[2] or ""), k[1]) for k in view.legend[:LEGEND_KINGDOMS]]
        if len(view.legend) > LEGEND_KINGDOMS:
            more = len(view.legend) - LEGEND_KINGDOMS
            legend.append(Content.styled(f"… and {more:,} more kingdoms (the hex panel names each)", "dim"))
        if any(not claim.controller for claim in view.territory.values()):
            legend.append(Content.assemble(("■ ", "$foreground 30%"), ("no ruler", "dim")))
        legend += [
            Content(""),
            Content.assemble(("♜▲●¤≈† ", "bold"), "places"),
            Content.assemble(("♞", "bold $accent"), " forces by owner  ", ("♟", "bold $secondary"), " people"),
            Content.assemble(("│▁", "bold"), " realms meet  ", ("┊", "$foreground 40%"), " provinces"),
        ]
        if moving:
            legend.append(Content(""))
            for key, label in (("start", "where he stands"), ("path", "his path to the cursor")):
                legend.append(Content.assemble(("   ", MOVE_STYLE[key]), f" {label}"))
            legend.append(
                Content.assemble(("→3", "bold $success"), " hexes to go  ", ("✘3", "bold $error"), " refused")
            )
        if relocation is not None:
            legend.append(Content(""))
            for state in ("reachable", "blocked", "empty", "here"):
                legend.append(Content.assemble(("   ", STATE_STYLE[state]), f" {STATE_LABEL[state]}"))
            legend.append(Content.styled("56% best Incite/Usurp chance there", "dim"))
        legend.append(Content.styled("arrows/hjkl move · z/Z zoom in/out", "dim"))
        legend.append(Content.styled("n choose a noble · esc clear", "dim"))
        if gm:
            legend.append(Content.styled("m move a unit or person (GM)", "dim"))
        self.query_one("#legend", Static).update(Content("\n").join(legend))
