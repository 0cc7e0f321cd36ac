"""Issue 17 item 5: a two-word field label stays on its row ("power modifier", not "power" with
"modifier" orphaned on the next line), at 80 columns."""

from __future__ import annotations

from textual.app import App, ComposeResult
from textual.widgets import Label

from yak_tui.app.kit.paramform import ParamForm
from yak_tui.kernel.play.views import ParamField

FIELDS = [
    ParamField("power_modifier", "int", False, "0", "added to the Power roll"),
    ParamField("resistance_modifier", "int", False, "0", "added to the resistance"),
    ParamField("reason", "str", True, "", "why"),
]


class FormApp(App[None]):
    def compose(self) -> ComposeResult:
        yield ParamForm(FIELDS)


async def test_two_word_labels_keep_to_one_row_whole() -> None:
    app = FormApp()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        labels = list(app.screen.query(".field-label").results(Label))
        assert [str(label.render()).strip() for label in labels] == ["power modifier", "resistance modifier", "reason"]
        for label in labels:
            text = str(label.render()).strip()
            assert label.region.height == 1 and label.region.width > len(text), (text, label.region)
        assert len({label.region.width for label in labels}) == 1  # one column: the fields line up
