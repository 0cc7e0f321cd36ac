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
    """

    ready: reactive[bool] = reactive(False)

    def __init__(self, *, id: str | None = None, classes: str = "") -> None:
        super().__init__(id=id, classes=classes)
        self.series: tuple[Series, ...] = ()
        self.title = "ducats"

    def compose(self) -> Any:
        yield Static(id="plot-text")

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

        self.mount(PlotextPlot())
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
        lines = [Content.assemble((s.name, "bold"), f": {', '.join(f'{v:g}' for v in s.values[-6:])}")
                 for s in self.series]
        self.query_one("#plot-text", Static).update(Content("\n").join(lines) if lines else "No treasury you may see.")

    def _draw(self) -> None:
        from textual_plotext import PlotextPlot

        widget = self.query_one(PlotextPlot)
        plt = widget.plt
        plt.clear_data()
        plt.clear_figure()
        if not self.series:
            plt.title("No treasury you may see")
            widget.refresh()
            return
        longest = max(len(s.values) for s in self.series)
        for s in self.series:
            xs = [float(x) for x in range(longest - len(s.values) + 1, longest + 1)]
            colour = _rgb(s.colour)
            plt.plot(xs, list(s.values), label=s.name, marker="braille", color=colour if colour else "default")
        labels = max(self.series, key=lambda s: len(s.values)).labels
        ticks = [float(x) for x in range(1, longest + 1)]
        step = max(1, len(ticks) // 4)
        plt.xticks(ticks[::step], [_short(label) for label in labels[::step]])
        plt.ylabel(self.title)
        widget.refresh()


def _short(label: str) -> str:
    season, _, year = label.partition(" ")
    return f"{season[:2]} {year}"
