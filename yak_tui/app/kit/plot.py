"""Treasury over the seasons, one line per kingdom in its colour (textual-plotext).

plotext costs about as much to import as Textual itself, so it is imported in a thread
worker after the dashboard has painted; until then the panel shows the numbers as text.
"""

from __future__ import annotations

from typing import Any

from textual import work
from textual.containers import Vertical
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from yak_tui.areas.court import Series

# The numbers shown until plotext is in: a screenful, and how many more (at 1000x there are 3,000
# kingdoms, and laying out 3,000 lines was a tenth of a second of the first paint).
TEXT_LINES = 50


def _rgb(colour: str) -> tuple[int, int, int] | None:
    text = colour.lstrip("#")
    if len(text) != 6:
        return None
    try:
        return int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16)
    except ValueError:
        return None


class TreasuryPlot(Vertical):
    """`set_series(series)` draws the lines; `ready` turns true once plotext is in."""

    DEFAULT_CSS = """
    TreasuryPlot { height: 1fr; min-height: 6; }
    TreasuryPlot > #plot-text { color: $foreground-muted; }
    TreasuryPlot > PlotextPlot { height: 1fr; }
    TreasuryPlot > #plot-legend { height: auto; padding: 0 1; }
    """

    ready: reactive[bool] = reactive(False)

    def __init__(self, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(id=id, classes=classes)
        self.series: tuple[Series, ...] = ()
        self.title = "ducats"

    def compose(self) -> Any:
        yield Static(id="plot-text")
        # The legend lives under the plot, never over it: plotext draws its own in the top-left
        # corner, on top of whatever line passes there.
        yield Static(id="plot-legend")

    def on_mount(self) -> None:
        self._show_text()
        # After the first frame, and a breath later: the import holds the GIL for ~150 ms.
        self.call_after_refresh(self.set_timer, 0.15, self._import_plotext)

    @work(thread=True, group="plot-import", exit_on_error=False)
    def _import_plotext(self) -> None:
        import textual_plotext  # noqa: F401 - warm the import off the UI thread

        self.app.call_from_thread(self._mount_plot)

    def _mount_plot(self) -> None:
        from textual_plotext import PlotextPlot

        self.mount(PlotextPlot(), before="#plot-legend")
        self.call_after_refresh(self._plot_mounted)

    def _plot_mounted(self) -> None:
        self.query_one("#plot-text", Static).display = False
        self.ready = True
        self._draw()

    def set_series(self, series: tuple[Series, ...]) -> None:
        self.series = series
        if self.ready:
            self._draw()
        else:
            self._show_text()

    def _show_text(self) -> None:
        if not self.is_mounted:
            return
        lines = [
            Content.assemble((s.name, "bold"), f": {', '.join(f'{v:g}' for v in s.values[-6:])}")
            for s in self.series[:TEXT_LINES]
        ]
        if len(self.series) > TEXT_LINES:
            lines.append(Content(f"and {len(self.series) - TEXT_LINES:,} more"))
        self.query_one("#plot-text", Static).update(Content("\n").join(lines) if lines else "No treasury you may see.")

    def _show_legend(self) -> None:
        legend = self.query_one("#plot-legend", Static)
        legend.display = self.ready and bool(self.series)
        legend.update(Content("  ").join(Content.assemble(("■ ", s.colour or ""), s.name) for s in self.series))

    def _draw(self) -> None:
        from textual_plotext import PlotextPlot

        widget = self.query_one(PlotextPlot)
        plt = widget.plt
        plt.clear_data()
        plt.clear_figure()
        self._show_legend()
        if not self.series:
            plt.title("No treasury you may see")
            widget.refresh()
            return
        longest = max(len(s.values) for s in self.series)
        for s in self.series:
            xs = [float(x) for x in range(longest - len(s.values) + 1, longest + 1)]
            colour = _rgb(s.colour)
            # One season is a point per kingdom: a dot a reader can find, not a line of none.
            plt.plot(
                xs, list(s.values), marker="braille" if longest > 1 else "●", color=colour if colour else "default"
            )
        # Every point inside the frame: half a season of room either side, a little above and below.
        plt.xlim(0.5 if longest == 1 else 1.0, longest + 0.5 if longest == 1 else float(longest))
        low, high = _span([v for s in self.series for v in s.values])
        plt.ylim(low, high)
        plt.yticks(_round_ticks(low, high))
        labels = max(self.series, key=lambda s: len(s.values)).labels
        ticks = [float(x) for x in range(1, longest + 1)]
        step = max(1, len(ticks) // 4)
        plt.xticks(ticks[::step], [_short(label) for label in labels[::step]])
        plt.ylabel(self.title)
        widget.refresh()


def _span(values: list[float]) -> tuple[float, float]:
    """The y range with a margin, so the highest and lowest lines stay off the frame."""
    low, high = min(values), max(values)
    margin = max((high - low) * 0.08, abs(high) * 0.05, 1.0)
    return low - margin, high + margin


def _round_ticks(low: float, high: float, most: int = 5) -> list[float]:
    """Round ducat values for the y axis (10, 20, 30 rather than 19.4, 30.8), at most `most` of them."""
    span = max(high - low, 1e-9)
    step = 1.0
    for scale in (10.0**e for e in range(-1, 12)):
        step = next((m * scale for m in (1, 2, 5) if span / (m * scale) <= most), 0.0)
        if step:
            break
    first = -(-low // step) * step
    return [first + i * step for i in range(int((high - first) // step) + 1)]


def _short(label: str) -> str:
    season, _, year = label.partition(" ")
    return f"{season[:2]} {year}"
